#!/usr/bin/env bash
# Runs the Kafka Streams store benchmark (src/test/java/io/rocksffm/kafka/bench/StoreBench.java):
# put/get/range through the store interface and a word count through TopologyTestDriver, on
# rocksffm stores and on Kafka's built-in RocksDB stores, one engine in one process.
# Needs the installed rocksffm (mvn install in the root). Sizes: -Dbench.keys=... etc. in BENCH_OPTS.
# BENCH_CLASS=PutBench runs the put-only comparison instead (src/test/java/io/rocksffm/kafka/bench/PutBench.java):
# wall and thread-CPU time per put of each store, interleaved, one ratio per round; -Dbench.raw=true compares
# the two bindings' puts without a store; -Dbench.only=ours|kafka runs one store (to profile it).
set -euo pipefail
cd "$(dirname "$0")"
mvn -B -ntp -q test-compile dependency:build-classpath -Dmdep.outputFile=target/bench.classpath -Dmdep.includeScope=test
java --enable-native-access=ALL-UNNAMED ${BENCH_OPTS:-} \
  -cp "target/test-classes:target/classes:$(cat target/bench.classpath)" "io.rocksffm.kafka.bench.${BENCH_CLASS:-StoreBench}"
