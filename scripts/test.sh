#!/usr/bin/env bash
# Runs rocksffm's whole test suite against both engines:
#   - Debian's system librocksdb (surefire execution default-test), and
#   - the library inside org.rocksdb:rocksdbjni (surefire execution rocksdbjni-engine).
# Finds a JDK 22+ by itself. Extra arguments go to Maven (e.g. -Dtest=RocksDBTest).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/find-jdk.sh
echo "JDK: $JAVA_HOME ($("$JAVA_HOME/bin/java" -version 2>&1 | head -1))"
command -v mvn >/dev/null || { echo "Maven (mvn) is required: apt-get install maven" >&2; exit 1; }
exec mvn -B -ntp test "$@"
