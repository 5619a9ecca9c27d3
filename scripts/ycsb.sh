#!/usr/bin/env bash
# YCSB 0.17.0 core workloads a-f against rocksffm (FFM) and rocksdbjni (JNI) on the same RocksDB
# engine (the library inside the rocksdbjni jar), through the bindings in ycsb/ (see ycsb/README.md).
#
#   scripts/ycsb.sh             2 rounds; per round and library: load RECORDS records, then per
#                               workload (c with 1 and 4 client threads, the others with 1) a short
#                               run of SHORT_OPS operations and a run of SECONDS seconds, each on a
#                               fresh copy of the loaded database, in a fresh JVM, each verified by
#                               a full scan
#
# Options: --records N (default 200000), --short-ops N (default 200000), --seconds S (default 25;
# 0 skips the timed runs), --rounds N (default 2), --workloads "a b c d e f", --no-build (reuse
# the installed rocksffm and ycsb/target/ycsb.jar). Smoke test: --records 2000 --short-ops 2000
# --seconds 2 --rounds 1. Environment: MAVEN_REPO=DIR (a local Maven repository of this
# checkout's own, as for bench.sh), YCSB_DATA=DIR (where the databases go; default a temporary
# directory, deleted at the end).
#
# The two libraries alternate within a round (FFM first in odd rounds, JNI first in even ones), so
# both sides of a ratio run within a minute of each other. Every measured JVM holds the machine's
# benchmark lock (/tmp/jmh.lock) while it runs. Verification: after every run, the database is
# scanned in full through the same library: the record count must be RECORDS plus the run's
# successful inserts, every value must decode into field0..field9 of 100 bytes; any error or any
# failed YCSB operation stops the script.
#
# Results: bench-results/ycsb/<UTC timestamp>/ (results.csv, summary.md, YCSB's output per run in
# logs/); the report is copied to bench-results/ycsb/latest/ when the defaults were used.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
. scripts/setup.sh
setup_machine

records=200000; short_ops=200000; seconds=25; rounds=2; workloads="a b c d e f"; build=1
while [ $# -gt 0 ]; do
  case "$1" in
    --records) records=$2; shift ;;
    --short-ops) short_ops=$2; shift ;;
    --seconds) seconds=$2; shift ;;
    --rounds) rounds=$2; shift ;;
    --workloads) workloads=$2; shift ;;
    --no-build) build=0 ;;
    -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    *) echo "ycsb.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
  shift
done

started=$(date +%s)
say() { local s=$(( $(date +%s) - started )); printf '[ycsb %dm%02ds] %s\n' $((s / 60)) $((s % 60)) "$*"; }

JAR=ycsb/target/ycsb.jar
MVN_REPO=()
[ -n "${MAVEN_REPO:-}" ] && MVN_REPO=("-Dmaven.repo.local=$MAVEN_REPO")
if [ "$build" = 1 ]; then
  say "building rocksffm (mvn install -DskipTests)"
  mvn -q -B -ntp "${MVN_REPO[@]}" install -DskipTests -Dmaven.javadoc.skip=true -Dmaven.source.skip=true
  say "building the YCSB bindings (ycsb/)"
  (cd ycsb && mvn -q -B -ntp "${MVN_REPO[@]}" clean package) # clean: its classes must be compiled against this rocksffm
fi
[ -f "$JAR" ] || { echo "ycsb.sh: $JAR is missing; run without --no-build" >&2; exit 1; }

JDK_MAJOR=$(jdk_major "$JAVA_HOME")
JVM_FLAGS="--enable-native-access=ALL-UNNAMED -Xms1g -Xmx1g"
[ "$JDK_MAJOR" -ge 24 ] && JVM_FLAGS="$JVM_FLAGS --sun-misc-unsafe-memory-access=allow"

stamp=$(date -u +%Y%m%dT%H%M%SZ)
OUT=bench-results/ycsb/$stamp
mkdir -p "$OUT/logs"
if [ -n "${YCSB_DATA:-}" ]; then DATA=$YCSB_DATA; mkdir -p "$DATA"
else DATA=$(mktemp -d "${TMPDIR:-/tmp}/rocksffm-ycsb.XXXXXX"); trap 'rm -rf "$DATA"' EXIT; fi
CSV=$OUT/results.csv
echo "round,workload,threads,phase,lib,operations,runtime_ms,ops_per_s,verify_records,verify_errors" > "$CSV"
{
  echo "JDK: $("$JAVA_HOME/bin/java" -version 2>&1 | head -1) ($JAVA_HOME); flags: $JVM_FLAGS"
  echo "cores: $(nproc); CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //')"
  echo "rocksffm: $(git rev-parse --short HEAD 2>/dev/null || echo '?'); YCSB 0.17.0 (site.ycsb:core)"
  echo "command: scripts/ycsb.sh --records $records --short-ops $short_ops --seconds $seconds --rounds $rounds --workloads \"$workloads\""
} > "$OUT/environment.txt"
sed 's/^/    /' "$OUT/environment.txt"

class() { [ "$1" = ffm ] && echo io.rocksffm.ycsb.RocksFfmClient || echo io.rocksffm.ycsb.RocksJniClient; }
field() { # LOG "[SECTION], Name": the value of YCSB's output line
  awk -F', ' -v want="$2" '$1 ", " $2 == want { print $3; exit }' "$1"
}
ycsb() { # LOG LIB DIR args...: one YCSB client JVM holding the benchmark lock; checks no operation failed
  local log=$1 lib=$2 dir=$3; shift 3
  # shellcheck disable=SC2086
  java -cp "$JAR" io.rocksffm.ycsb.Locked "$JAVA_HOME/bin/java" $JVM_FLAGS -cp "$JAR" site.ycsb.Client \
      -db "$(class "$lib")" -p rocksffm.ycsb.dir="$dir" -s -p status.interval=5 "$@" > "$log" 2>&1 \
    || { echo "ycsb.sh: YCSB failed, see $log" >&2; tail -20 "$log" >&2; exit 1; }
  if grep -E '^\[[A-Z-]+\], Return=' "$log" | grep -v 'Return=OK' | grep -q .; then
    echo "ycsb.sh: failed operations in $log:" >&2; grep -E '^\[[A-Z-]+\], Return=' "$log" >&2; exit 1
  fi
  if grep -q 'failed:' "$log"; then echo "ycsb.sh: binding errors in $log" >&2; grep -m5 'failed:' "$log" >&2; exit 1; fi
}
verify() { # LIB DIR EXPECTED: prints "records errors"
  local out
  # shellcheck disable=SC2086
  out=$(java $JVM_FLAGS -cp "$JAR" io.rocksffm.ycsb.Verify "$1" "$2" "$3" 2>&1) || true
  local rec err
  rec=$(sed -n 's/^records=\([0-9]*\) errors=.*/\1/p' <<<"$out")
  err=$(sed -n 's/^records=[0-9]* errors=\([0-9]*\)/\1/p' <<<"$out")
  if [ -z "$rec" ] || [ "$err" != 0 ]; then
    echo "ycsb.sh: verification of $2 failed:" >&2; echo "$out" >&2; exit 1
  fi
  echo "$rec $err"
}
record() { # ROUND WORKLOAD THREADS PHASE LIB LOG VERIFY_RECORDS VERIFY_ERRORS
  local ops rt tp
  # operations: reads, updates, inserts and scans (a read-modify-write counts as its read and update)
  ops=$(awk -F', ' '$1 ~ /^\[(READ|UPDATE|INSERT|SCAN)\]$/ && $2 == "Operations" { s += $3 } END { print s + 0 }' "$6")
  rt=$(field "$6" "[OVERALL], RunTime(ms)")
  tp=$(field "$6" "[OVERALL], Throughput(ops/sec)")
  echo "$1,$2,$3,$4,$5,$ops,$rt,$tp,$7,$8" >> "$CSV"
  say "  round $1 $4 $2 threads=$3 $5: $(printf '%.0f' "$tp") ops/s ($ops ops in $rt ms), verified $7 records"
}

configs=()
for w in $workloads; do
  [ -f "ycsb/workloads/workload$w" ] || { echo "ycsb.sh: no ycsb/workloads/workload$w" >&2; exit 2; }
  if [ "$w" = c ]; then configs+=("c 1" "c 4"); else configs+=("$w 1"); fi
done
say "records=$records short-ops=$short_ops seconds=$seconds rounds=$rounds configs: ${configs[*]}; results: $OUT"

for round in $(seq 1 "$rounds"); do
  if [ $((round % 2)) = 1 ]; then libs="ffm jni"; else libs="jni ffm"; fi
  for lib in $libs; do
    rm -rf "$DATA/loaded-$lib"
    log=$OUT/logs/r$round-load-$lib.log
    ycsb "$log" "$lib" "$DATA/loaded-$lib" -load -P ycsb/workloads/workloada -p recordcount="$records" -threads 1
    [ "$(field "$log" "[INSERT], Return=OK")" = "$records" ] || { echo "ycsb.sh: load incomplete, see $log" >&2; exit 1; }
    v=$(verify "$lib" "$DATA/loaded-$lib" "$records"); read -r vr ve <<<"$v"
    record "$round" load 1 load "$lib" "$log" "$vr" "$ve"
  done
  for cfg in "${configs[@]}"; do
    read -r w threads <<<"$cfg"
    phases="short"; [ "$seconds" != 0 ] && phases="short long"
    for phase in $phases; do
      for lib in $libs; do
        dir=$DATA/run-$lib
        rm -rf "$dir"; cp -a "$DATA/loaded-$lib" "$dir"
        log=$OUT/logs/r$round-$w-t$threads-$phase-$lib.log
        if [ "$phase" = short ]; then
          ycsb "$log" "$lib" "$dir" -t -P "ycsb/workloads/workload$w" -p recordcount="$records" \
              -p operationcount="$short_ops" -threads "$threads"
        else
          ycsb "$log" "$lib" "$dir" -t -P "ycsb/workloads/workload$w" -p recordcount="$records" \
              -p operationcount=2000000000 -p maxexecutiontime="$seconds" -threads "$threads"
        fi
        inserts=$(field "$log" "[INSERT], Return=OK"); inserts=${inserts:-0}
        v=$(verify "$lib" "$dir" $((records + inserts))); read -r vr ve <<<"$v"
        record "$round" "$w" "$threads" "$phase" "$lib" "$log" "$vr" "$ve"
        rm -rf "$dir"
      done
    done
  done
done

java -cp "$JAR" io.rocksffm.ycsb.YcsbReport "$CSV" > "$OUT/table.md"
{
  echo "# YCSB 0.17.0: rocksffm (FFM) vs rocksdbjni (JNI), same engine"
  echo
  echo "Throughput (ops/s, YCSB's [OVERALL] figure: operations / run time from the start of the client"
  echo "threads, database open included) of fresh JVMs; per side the median over rounds; FFM/JNI is the"
  echo "median of the per-round ratios (range in brackets). short = $short_ops operations; long = $seconds s."
  echo "Every run was verified by a full scan through the same library (record count, 10 x 100-byte fields)."
  echo
  sed 's/^/    /' "$OUT/environment.txt"
  echo
  cat "$OUT/table.md"
} > "$OUT/summary.md"
if [ "$records" = 200000 ] && [ "$short_ops" = 200000 ] && [ "$seconds" = 25 ] && [ "$rounds" -ge 2 ] \
   && [ "$workloads" = "a b c d e f" ]; then
  rm -rf bench-results/ycsb/latest; mkdir -p bench-results/ycsb/latest
  cp "$OUT"/{results.csv,summary.md,environment.txt} bench-results/ycsb/latest/
  say "copied the report to bench-results/ycsb/latest/"
fi
say "done: $OUT/summary.md"
echo
cat "$OUT/table.md"
