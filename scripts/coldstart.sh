#!/usr/bin/env bash
# Cold start by process timing: fresh JVMs doing their first point reads or writes through the
# byte[] calls the YCSB bindings make (io.rocksffm.ycsb.ColdStart in ycsb/), rocksffm (FFM)
# against rocksdbjni (JNI) on the same engine, each with and (JDK 25+) without an AOT cache.
# Complements scripts/bench.sh --warmup (JMH single-shot batches, which start timing after JMH's
# setup has opened the database): this one also times loading the library and opening the
# database (open_ms, from the start of main).
#
#   scripts/coldstart.sh [--samples N] [--keys K] [--no-build]
#
# Per op (get, put), N rounds (default 5) of: FFM, JNI, FFM + AOT cache, JNI + AOT cache (order
# rotated per round), each a fresh JVM holding the benchmark lock (/tmp/jmh.lock). An AOT cache is
# written first by one training run of the same command (-XX:AOTCacheOutput, JDK 25's one-step
# workflow) and used with -XX:AOTCache. Results: bench-results/coldstart/<timestamp>/ (results.csv,
# summary.md: medians and FFM/JNI time ratios per column), copied to bench-results/coldstart/latest/.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
. scripts/setup.sh
setup_machine

samples=5; keys=100000; build=1
while [ $# -gt 0 ]; do
  case "$1" in
    --samples) samples=$2; shift ;;
    --keys) keys=$2; shift ;;
    --no-build) build=0 ;;
    -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    *) echo "coldstart.sh: unknown argument $1" >&2; exit 2 ;;
  esac
  shift
done
JAR=${COLDSTART_JAR:-ycsb/target/ycsb.jar} # COLDSTART_JAR: another build of ycsb.jar
MVN_REPO=()
[ -n "${MAVEN_REPO:-}" ] && MVN_REPO=("-Dmaven.repo.local=$MAVEN_REPO")
if [ "$build" = 1 ]; then
  mvn -q -B -ntp "${MVN_REPO[@]}" install -DskipTests -Dmaven.javadoc.skip=true -Dmaven.source.skip=true
  (cd ycsb && mvn -q -B -ntp "${MVN_REPO[@]}" clean package) # clean: its classes must be compiled against this rocksffm
fi
JDK_MAJOR=$(jdk_major "$JAVA_HOME")
FLAGS="--enable-native-access=ALL-UNNAMED -Xms1g -Xmx1g"
modes="plain"; [ "$JDK_MAJOR" -ge 25 ] && modes="plain aot"
OUT=bench-results/coldstart/$(date -u +%Y%m%dT%H%M%SZ)
mkdir -p "$OUT"
DATA=$(mktemp -d "${TMPDIR:-/tmp}/rocksffm-coldstart.XXXXXX"); trap 'rm -rf "$DATA"' EXIT
run() { # OP LIB MODE: one fresh JVM under the lock; prints ColdStart's line
  local op=$1 lib=$2 mode=$3 dir=$DATA/get-db extra=""
  if [ "$op" = put ]; then rm -rf "$DATA/put-db"; dir=$DATA/put-db; fi
  [ "$mode" = aot ] && extra="-XX:AOTCache=$DATA/$op-$lib.aot"
  # shellcheck disable=SC2086
  java -cp "$JAR" io.rocksffm.ycsb.Locked "$JAVA_HOME/bin/java" $FLAGS $extra -cp "$JAR" \
      io.rocksffm.ycsb.ColdStart "$lib" "$op" "$dir" "$keys" 64 2>"$DATA/stderr" | tail -1
}
echo "op,lib,mode,sample,open_ms,first_1_ms,first_10_ms,first_100_ms,first_1000_ms,first_10000_ms,first_100000_ms" > "$OUT/results.csv"
java -cp "$JAR" io.rocksffm.ycsb.ColdStart jni put "$DATA/get-db" "$keys" 64 >/dev/null # the dataset for gets
for op in get put; do
  if [ "$modes" != plain ]; then
    for lib in ffm jni; do
      dir=$DATA/get-db; [ "$op" = put ] && { rm -rf "$DATA/put-db"; dir=$DATA/put-db; }
      # shellcheck disable=SC2086
      java $FLAGS -XX:AOTCacheOutput="$DATA/$op-$lib.aot" -cp "$JAR" io.rocksffm.ycsb.ColdStart "$lib" "$op" "$dir" "$keys" 64 \
          > "$OUT/train-$op-$lib.log" 2>&1
    done
  fi
  for s in $(seq 1 "$samples"); do
    combos=(); for mode in $modes; do for lib in ffm jni; do combos+=("$lib $mode"); done; done
    n=${#combos[@]}
    for i in $(seq 0 $((n - 1))); do
      read -r lib mode <<<"${combos[$(( (i + s) % n ))]}"
      line=$(run "$op" "$lib" "$mode")
      echo "  $mode $line"
      vals=$(sed -E 's/[a-z_0-9]+=//g; s/^[a-z]+ [a-z]+ //; s/ /,/g' <<<"$line")
      echo "$op,$lib,$mode,$s,$vals" >> "$OUT/results.csv"
    done
  done
done
# summary: medians per op/lib/mode, and FFM/JNI time ratios (above 1: rocksffm takes longer)
awk -F, 'NR == 1 { for (i = 5; i <= NF; i++) h[i] = $i; nf = NF; next }
  { k = $1 "|" $2 "|" $3; keys[k] = 1; n[k]++; for (i = 5; i <= nf; i++) v[k, n[k], i] = $i }
  function med(k, i,   m, a, j, t, x, y) { m = n[k]; for (j = 1; j <= m; j++) a[j] = v[k, j, i]
    for (x = 1; x <= m; x++) for (y = x + 1; y <= m; y++) if (a[y] + 0 < a[x] + 0) { t = a[x]; a[x] = a[y]; a[y] = t }
    return m % 2 ? a[(m + 1) / 2] : (a[m / 2] + a[m / 2 + 1]) / 2 }
  END {
    printf "| op | library | AOT cache | samples |"; for (i = 5; i <= nf; i++) printf " %s |", h[i]; print ""
    printf "|---|---|---|---:|"; for (i = 5; i <= nf; i++) printf "---:|"; print ""
    split("get put", ops, " "); split("ffm jni", libs, " "); split("plain aot", modes, " ")
    for (o = 1; o <= 2; o++) for (m = 1; m <= 2; m++) for (l = 1; l <= 2; l++) { k = ops[o] "|" libs[l] "|" modes[m]; if (!(k in keys)) continue
      printf "| %s | %s | %s | %d |", ops[o], libs[l] == "ffm" ? "rocksffm" : "rocksdbjni", modes[m] == "aot" ? "yes" : "no", n[k]
      for (i = 5; i <= nf; i++) printf " %.1f |", med(k, i); print "" }
    print ""; printf "| FFM/JNI time (medians) | AOT cache |"; for (i = 5; i <= nf; i++) printf " %s |", h[i]; print ""
    printf "|---|---|"; for (i = 5; i <= nf; i++) printf "---:|"; print ""
    for (o = 1; o <= 2; o++) for (m = 1; m <= 2; m++) { a = ops[o] "|ffm|" modes[m]; b = ops[o] "|jni|" modes[m]; if (!(a in keys) || !(b in keys)) continue
      printf "| %s | %s |", ops[o], modes[m] == "aot" ? "both" : "none"
      for (i = 5; i <= nf; i++) { d = med(b, i); r = d > 0 ? sprintf("%.2f", med(a, i) / d) : ""; printf " %s |", r }; print "" }
    print ""; printf "| FFM + AOT cache / JNI without |"; for (i = 5; i <= nf; i++) printf " %s |", h[i]; print ""
    printf "|---|"; for (i = 5; i <= nf; i++) printf "---:|"; print ""
    for (o = 1; o <= 2; o++) { a = ops[o] "|ffm|aot"; b = ops[o] "|jni|plain"; if (!(a in keys) || !(b in keys)) continue
      printf "| %s |", ops[o]; for (i = 5; i <= nf; i++) { d = med(b, i); r = d > 0 ? sprintf("%.2f", med(a, i) / d) : ""; printf " %s |", r }; print "" }
  }' "$OUT/results.csv" > "$OUT/table.md"
{
  echo "# Cold start: fresh JVMs, first point reads/writes (byte[] calls, 64 B values, 16 B keys, $keys keys)"
  echo
  echo "JDK: $("$JAVA_HOME/bin/java" -version 2>&1 | head -1); flags: $FLAGS; cores: $(nproc); rocksffm $(git rev-parse --short HEAD)"
  echo "open_ms: from the start of main to the open database (rocksdbjni's library loaded, and for FFM rocksffm's"
  echo "engine lookup and first downcalls linked); first_N_ms: the first N calls from the first one. Medians of"
  echo "$samples samples per row, each a fresh JVM holding the benchmark lock; AOT cache: -XX:AOTCache from a training"
  echo "run of the same command (-XX:AOTCacheOutput)."
  echo
  cat "$OUT/table.md"
} > "$OUT/summary.md"
rm -rf bench-results/coldstart/latest; mkdir -p bench-results/coldstart/latest
cp "$OUT"/{results.csv,summary.md} bench-results/coldstart/latest/
cat "$OUT/summary.md"
