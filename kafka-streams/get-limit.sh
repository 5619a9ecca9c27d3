#!/usr/bin/env bash
# The physical limit of the store benchmark's get phase (issue 33; bench-results/ab-20261127-kafka-store-get.md):
#   1. GetLimitBench (src/test/java/io/rocksffm/kafka/bench/GetLimitBench.java): both stores filled as
#      StoreBench fills them, then the gets on pairs of paths (stores, direct binding gets, one raw
#      rocksdb_get_into_buffer_cf downcall per get), alternating in chunks of 1,000. It also writes the
#      writes and gets to a file for
#   2. get_limit (src/test/c/get_limit.c): the same writes and gets through RocksDB's C API, outside the
#      JVM, linked to librocksdbjni-linux64.so from the rocksdbjni jar both stores load.
# Needs the installed rocksffm (mvn install in the root), cc and /usr/include/rocksdb/c.h.
# Environment: BENCH_OPTS (-D properties of GetLimitBench, e.g. -Dbench.rounds=3 -Dbench.phases=1,2),
# MVN_ARGS (extra Maven arguments, e.g. -Dmaven.repo.local=...), C_ROUNDS (default 4).
set -euo pipefail
cd "$(dirname "$0")"
mvn -B -ntp -q ${MVN_ARGS:-} test-compile dependency:build-classpath -Dmdep.outputFile=target/bench.classpath -Dmdep.includeScope=test
out=target/get-limit
rm -rf "$out"
mkdir -p "$out"
java --enable-native-access=ALL-UNNAMED ${BENCH_OPTS:-} -Dbench.dump="$out/gets.bin" \
  -cp "target/test-classes:target/classes:$(cat target/bench.classpath)" io.rocksffm.kafka.bench.GetLimitBench
jar=$(tr ':' '\n' < target/bench.classpath | grep '/rocksdbjni-[^/]*\.jar$' | head -1)
(cd "$out" && unzip -q -o "$jar" librocksdbjni-linux64.so)
cc -O2 -Wall -Wextra -std=c11 -D_POSIX_C_SOURCE=200809L -o "$out/get_limit" src/test/c/get_limit.c \
   -L "$out" -l:librocksdbjni-linux64.so -Wl,-rpath,'$ORIGIN' -ldl
"$out/get_limit" "$out/gets.bin" "$out/db" "${C_ROUNDS:-4}" 2
rm -rf "$out"/db-*
