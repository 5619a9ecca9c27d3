#!/usr/bin/env bash
# Installs rocksffm and its Kafka Streams module into the local Maven repository (~/.m2) without
# running the test suites: compile, lint, javadoc, the jar with its sources and javadoc jars, then
# `install`. Needs a JDK 22+ and Maven; no RocksDB library (nothing loads one when tests are skipped).
# Usage: scripts/install.sh [extra Maven arguments, e.g. -o]
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/find-jdk.sh
echo "[install] rocksffm (JDK: $JAVA_HOME)"
mvn -B -ntp -DskipTests install "$@"
echo "[install] rocksffm-kafka-streams"
mvn -B -ntp -DskipTests -f kafka-streams/pom.xml install "$@"
echo "[install] done: io.rocksffm:rocksffm and io.rocksffm:rocksffm-kafka-streams are in the local repository"
