#!/usr/bin/env bash
# The engine's share of PutBench's put: src/test/c/put_limit.c, the same puts through RocksDB's C API
# outside the JVM, linked to librocksdbjni-linux64.so from the rocksdbjni jar both stores load, with
# the stores' options. Compare its per-put thread CPU time with PutBench's (BENCH_CLASS=PutBench ./bench.sh).
# Needs cc and /usr/include/rocksdb/c.h. Environment: C_KEYS (default 200000), C_ROUNDS (default 7).
set -euo pipefail
cd "$(dirname "$0")"
mvn -B -ntp -q dependency:build-classpath -Dmdep.outputFile=target/bench.classpath -Dmdep.includeScope=test
out=target/put-limit
rm -rf "$out"
mkdir -p "$out"
jar=$(tr ':' '\n' < target/bench.classpath | grep '/rocksdbjni-[^/]*\.jar$' | head -1)
(cd "$out" && unzip -q -o "$jar" librocksdbjni-linux64.so)
cc -O2 -Wall -Wextra -std=c11 -D_POSIX_C_SOURCE=200809L -o "$out/put_limit" src/test/c/put_limit.c \
   -L "$out" -l:librocksdbjni-linux64.so -Wl,-rpath,'$ORIGIN' -ldl
"$out/put_limit" "$out/db" "${C_KEYS:-200000}" "${C_ROUNDS:-7}"
