#!/usr/bin/env bash
# Builds the example application (examples/hello) against the rocksffm in the local Maven
# repository (`mvn install` in the root first; scripts/test.sh does both) and runs it as a user
# would, checking what it prints:
#
#   class path    java --enable-native-access=ALL-UNNAMED -cp "hello.jar:lib/*" ...
#                 one dependency: the engine comes from the rocksdbjni jar rocksffm brings
#   module path   java --enable-native-access=io.rocksffm -p hello.jar:lib -m io.rocksffm.example/...
#                 (rocksdbjni is an automatic module that nothing requires, so it is not resolved:
#                 rocksffm loads the engine file from its jar on the module path)
#   module path, rocksdbjni resolved   the same with --add-modules rocksdbjni (rocksdbjni's own
#                 loader loads the engine)
#   own librocksdb  built with -Pown-librocksdb (rocksffm without rocksdbjni, the exclusion
#                 README.md shows) and run on the class path against the system librocksdb;
#                 only when ROCKSFFM_EXAMPLES_SYSTEM_ENGINE=1 (scripts/test.sh sets it when the
#                 machine has one)
#
# Prints one line per run, "example ok: ..." or "example FAILED: ...", and fails if any failed.
# A run also fails if the JVM warns (e.g. about native access): the documented flags must be
# enough.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/find-jdk.sh
cd examples/hello

build() { # mvn args...: quiet, and its output only when it fails
  local out
  if ! out=$(mvn -B -ntp -q "$@" 2>&1); then
    echo "$out"
    echo "example FAILED: mvn $* (examples/hello)"
    return 1
  fi
}
build package
failures=0
# No warning may be printed (the JDK's native-access warning above all) but rocksffm's own notice
# that the engine it bound is older than the one it is generated from (the system librocksdb).
run() { # NAME EXPECTED_ENGINE java-args...
  local name=$1 expected=$2 out
  shift 2
  if out=$(java "$@" 2>&1) \
      && grep -q '^hello -> world$' <<<"$out" \
      && grep -q "^engine: $expected " <<<"$out" \
      && ! grep -v '^WARNING: rocksffm bound the RocksDB engine .*, older than' <<<"$out" | grep -q 'WARNING'; then
    echo "example ok: $name, $(grep '^engine: ' <<<"$out")"
  else
    echo "example FAILED: $name (expected engine $expected); it printed:"
    sed 's/^/    /' <<<"$out"
    failures=$((failures + 1))
  fi
}
run "class path" rocksdbjni \
    --enable-native-access=ALL-UNNAMED -cp "target/hello.jar:target/lib/*" io.rocksffm.example.Hello
run "module path" rocksdbjni \
    --enable-native-access=io.rocksffm -p target/hello.jar:target/lib -m io.rocksffm.example/io.rocksffm.example.Hello
run "module path, rocksdbjni resolved" rocksdbjni \
    --enable-native-access=io.rocksffm,rocksdbjni -p target/hello.jar:target/lib --add-modules rocksdbjni \
    -m io.rocksffm.example/io.rocksffm.example.Hello
if [ "${ROCKSFFM_EXAMPLES_SYSTEM_ENGINE:-0}" = 1 ]; then
  build -Pown-librocksdb package
  if compgen -G "target/own-librocksdb/lib/rocksdbjni-*.jar" >/dev/null; then
    echo "example FAILED: own librocksdb: the exclusion left rocksdbjni in target/own-librocksdb/lib"
    failures=$((failures + 1))
  else
    run "own librocksdb (rocksdbjni excluded), class path" system \
        --enable-native-access=ALL-UNNAMED -cp "target/own-librocksdb/hello.jar:target/own-librocksdb/lib/*" \
        io.rocksffm.example.Hello
  fi
fi
[ "$failures" = 0 ]
