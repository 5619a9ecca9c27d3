#!/usr/bin/env bash
# JMH comparison of rocksffm (FFM) against rocksdbjni (JNI) on the same RocksDB engine, plus the
# same loops in C against that engine's C API (the physical limit). See jmh/README.md.
#
#   scripts/bench.sh            headline: one or two rows per operation family (get, put, batch
#                               build, batch write, scan, multiGet), 3 x 1 s warmup, 3 x 1 s
#                               measurement, 2 rounds (7-8 minutes on 2 cores, build included)
#   scripts/bench.sh --quick    every scenario family, 3 x 1 s warmup, 3 x 1 s measurement, 2 rounds
#                               (about 50 minutes)
#   scripts/bench.sh --full     3 x 2 s warmup, 5 x 2 s measurement, full parameter sets (about 2 hours)
#   scripts/bench.sh --smoke    every benchmark once, minimal iterations and params (CI; a few minutes)
#   scripts/bench.sh --warmup   not a comparison: how many calls and how much time fresh JVMs take
#                               to reach their steady speed (single-shot batches from the first call;
#                               on JDK 25+ also with an AOT cache from a training run; ~5 minutes)
#
# Options: --no-build (reuse the installed rocksffm and the built benchmarks jar),
# --jmh-args "..." (appended to every JMH run, e.g. "-prof gc"), --rounds N (run every pair, and
# its C loop, N times in alternation; the report takes medians and the median per-round ratio:
# this machine's speed drifts by tens of percent within minutes, and a round keeps the two sides
# of a ratio close in time; the headline and quick profiles default to 2), --only JOB,... (run
# only these jobs of the profile: a name matches the job of that name and the jobs named NAME-*,
# e.g. "get,put" runs get-small ... get-64k and put; the report then covers those jobs and is not
# copied to bench-results/latest/). Environment:
# ROCKSFFM_BENCH_DATA=DIR keeps the datasets there (reused across runs) instead of a temporary
# directory; MAVEN_REPO=DIR builds with that local Maven repository instead of ~/.m2/repository
# (for checkouts that build at the same time: the benchmarks jar takes rocksffm from it). JMH
# runs one benchmark run per machine at a time (/tmp/jmh.lock): while another one holds the lock,
# this script waits; the C loop holds that lock too while it runs. On a fresh Debian/Ubuntu
# machine it first installs what it needs (scripts/setup.sh).
#
# Results: bench-results/<UTC timestamp>/ (per-job JMH JSON and logs, kept out of git), and the
# report (jmh-result.json, summary.csv, summary.md, summary.txt, chart.png, environment.txt,
# c-results.csv) copied to bench-results/latest/. A --smoke run writes
# bench-results/<timestamp>-smoke/ only and leaves latest/ alone. It ends by printing the table.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
. scripts/setup.sh
setup_machine

profile=headline
build=1
extra_jmh=""
rounds=""
only=""
while [ $# -gt 0 ]; do
  case "$1" in
    --smoke) profile=smoke ;;
    --full) profile=full ;;
    --quick) profile=quick ;;
    --headline) profile=headline ;;
    --warmup) profile=warmup ;;
    --no-build) build=0 ;;
    --jmh-args) extra_jmh="$2"; shift ;;
    --rounds) rounds="$2"; shift ;;
    --only) only="$2"; shift ;;
    -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    *) echo "bench.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
  shift
done

started=$(date +%s)
elapsed() { local s=$(( $(date +%s) - started )); printf '%dm%02ds' $((s / 60)) $((s % 60)); }
say() { echo "[bench $(elapsed)] $*"; }

JDK_MAJOR=$(jdk_major "$JAVA_HOME")
say "profile: $profile; JDK $JDK_MAJOR at $JAVA_HOME"

JAR=jmh/target/benchmarks.jar
CAPI_DIR=jmh/target/capi
CAPI=$CAPI_DIR/capi_bench
RDB_VERSION=$(sed -n 's:.*<rocksdbjni.version>\(.*\)</rocksdbjni.version>.*:\1:p' jmh/pom.xml)
RDB_JAR=${MAVEN_REPO:-$HOME/.m2/repository}/org/rocksdb/rocksdbjni/$RDB_VERSION/rocksdbjni-$RDB_VERSION.jar

# ---- build ------------------------------------------------------------------------------------
# MAVEN_REPO=DIR: a local Maven repository of this checkout's own. The benchmarks jar takes
# rocksffm from the local repository, so two checkouts building at once in the same ~/.m2 can
# shade each other's rocksffm; the check below catches that.
MVN_REPO=()
[ -n "${MAVEN_REPO:-}" ] && MVN_REPO=("-Dmaven.repo.local=$MAVEN_REPO")
if [ "$build" = 1 ]; then
  say "building rocksffm (mvn install -DskipTests)"
  mvn -q -B -ntp "${MVN_REPO[@]}" install -DskipTests -Dmaven.javadoc.skip=true -Dmaven.source.skip=true
  say "building the benchmarks jar (jmh/)"
  (cd jmh && mvn -q -B -ntp "${MVN_REPO[@]}" package)
fi
[ -f "$JAR" ] || { echo "bench.sh: $JAR is missing; run without --no-build" >&2; exit 1; }
if [ -f target/classes/io/rocksffm/RocksDB.class ] \
   && [ "$(unzip -p "$JAR" io/rocksffm/RocksDB.class | sha256sum)" != "$(sha256sum < target/classes/io/rocksffm/RocksDB.class)" ]; then
  echo "bench.sh: $JAR holds another rocksffm build than target/classes (another checkout installed into the" \
       "same local Maven repository meanwhile?): rebuild, e.g. with MAVEN_REPO=DIR for a repository of its own" >&2
  exit 1
fi
[ -f "$RDB_JAR" ] || { echo "bench.sh: $RDB_JAR is missing (building jmh/ downloads it)" >&2; exit 1; }
# The C loop links the very file rocksdbjni loads: librocksdbjni-linux64.so from its jar.
rm -rf "$CAPI_DIR"
mkdir -p "$CAPI_DIR"
if [ "$profile" = warmup ]; then
  : # no C loop
elif [ "$(uname -sm)" != "Linux x86_64" ]; then
  say "WARNING: the C loop is built for Linux x86_64 only: skipping it"
elif [ -f /usr/include/rocksdb/c.h ] && command -v cc >/dev/null; then
  say "building the C loop against librocksdbjni-linux64.so from rocksdbjni-$RDB_VERSION.jar"
  if command -v unzip >/dev/null; then
    unzip -q -o -d "$CAPI_DIR" "$RDB_JAR" librocksdbjni-linux64.so
  else # the JDK's jar tool reads zip files too
    (cd "$CAPI_DIR" && jar xf "$RDB_JAR" librocksdbjni-linux64.so)
  fi
  cc -O2 -Wall -Wextra -std=c11 -D_POSIX_C_SOURCE=200809L -o "$CAPI" jmh/c/capi_bench.c jmh/c/capi_writes.c \
     -L "$CAPI_DIR" -l:librocksdbjni-linux64.so -Wl,-rpath,'$ORIGIN'
else
  say "WARNING: no /usr/include/rocksdb/c.h or no cc: skipping the C loop (add it: $SETUP_ADD_C_LOOP)"
fi

# ---- one benchmark run at a time on this machine ------------------------------------------------
# JMH refuses to start while another JMH holds its lock, and this script starts one JMH per pair:
# two bench.sh runs would fail each other midway (and disturb each other's numbers). Queue instead.
if command -v flock >/dev/null; then
  exec 9>"${TMPDIR:-/tmp}/rocksffm-bench.lock"
  if ! flock -n 9; then
    say "another scripts/bench.sh is running on this machine: waiting for it to finish"
    flock 9
  fi
fi

# ---- output and data directories --------------------------------------------------------------
stamp=$(date -u +%Y%m%dT%H%M%SZ)
OUT=bench-results/$stamp
[ "$profile" = smoke ] || [ "$profile" = warmup ] && OUT=$OUT-$profile
mkdir -p "$OUT/parts" "$OUT/logs"
if [ -n "${ROCKSFFM_BENCH_DATA:-}" ]; then
  DATA=$ROCKSFFM_BENCH_DATA
  mkdir -p "$DATA"
else
  DATA=$(mktemp -d "${TMPDIR:-/tmp}/rocksffm-bench.XXXXXX")
  trap 'rm -rf "$DATA"' EXIT
fi
say "results: $OUT; databases: $DATA"

# ---- profiles ---------------------------------------------------------------------------------
# job NAME CLASS "VARIANTS" "PARAMS": one JMH invocation per variant, selecting the pair
#   CLASS.(ffm|jni)_VARIANT, so both sides of a scenario run minutes apart at most (this machine's
#   speed drifts; pairs far apart in time would carry that drift into the ratio).
#   A class may have a third side, raw_<variant> (BindingCostBenchmarks: the same C calls made
#   through bare FFM downcalls); the pair is then CLASS.(ffm|raw)_VARIANT, or raw_ alone.
# c ARGS: a C loop run (jmh/c/capi_bench.c) after each pair of the previous job, of that pair's
#   variant alone (CAPI_VARIANT), once per round: "get N K V ORDER",
#   "put N K V", "batch N K V OPS_PER_BATCH WRITE_TO_DB", "scan N K V" (N keys, K/V key/value bytes).
JOB_NAME=(); JOB_CLASS=(); JOB_VARIANTS=(); JOB_PARAMS=(); JOB_C=()
job() { JOB_NAME+=("$1"); JOB_CLASS+=("$2"); JOB_VARIANTS+=("$3"); JOB_PARAMS+=("$4"); JOB_C+=(""); }
c() { local i=$(( ${#JOB_C[@]} - 1 )); JOB_C[i]="${JOB_C[i]}${JOB_C[i]:+;}$*"; }
SIDES='ffm|jni|raw' # the sides a job's JMH run selects: CLASS.(ffm|jni|raw)_VARIANT
GET_V="getArray getIntoArray getPreallocated getPinned"
PUT_V="putArray putDirect putSegment"
BATCH_V="putBatchArray putBatchNative"
ITER_V="scan keyScan valueScan scanCopy seekScan"
MULTI_V="multiGetList multiGetBuffers singleGets"
CONC_V="get1 get8 getVirtual put1 put8 putVirtual"
UPCALL_MERGE_V="mergeCounter readCounter"
UPCALL_CMP_V="putComparator seekComparator compactionFilter upcall"
COST_V="getInto getIntoAutoSlots getArray getPinned getPinnedV2 multiGet multiGetSlice"
TXN_V="tenPuts lockedUpdate optimisticCommit wbwiPutGet"
case "$profile" in
  headline)
    # The rows the README leads with: the usual forms of each operation family (the segment core
    # and the byte[] convenience where both exist), small values, data in the block cache.
    # Families still to come (transactions, merges) get their one or two rows here.
    JMH_RUN="-f 1 -wi 3 -w 1s -i 3 -r 1s"; rounds=${rounds:-2}
    MAX_DATA=$((512 << 20)); C_SECONDS=2
    job get GetBenchmarks "getPreallocated" "-p keyCount=100000 -p keySize=12 -p valueSize=64 -p keyOrder=roundRobin"
    c get 100000 12 64 roundRobin
    job put PutBenchmarks "putSegment" "-p keyCount=100000 -p keySize=16 -p valueSize=64"
    c put 100000 16 64
    job batch-build WriteBatchBenchmarks "putBatchNative putBatchArray" "-p keyCount=100000 -p keySize=16 -p valueSize=32 -p numOpsPerBatch=1000 -p writeBatchAllocation=auto -p writeToDB=false"
    c batch 100000 16 32 1000 0
    job batch-write WriteBatchBenchmarks "putBatchArray" "-p keyCount=100000 -p keySize=16 -p valueSize=32 -p numOpsPerBatch=1000 -p writeBatchAllocation=auto -p writeToDB=true"
    c batch 100000 16 32 1000 1
    job scan IteratorBenchmarks "scan scanCopy" "-p keyCount=1000000 -p keySize=16 -p valueSize=64 -p prefetch=0"
    c scan 1000000 16 64
    job multiget MultiGetBenchmarks "multiGetBuffers multiGetList" "-p keyCount=100000 -p keySize=16 -p valueSize=64 -p batchSize=100"
    job concurrency ConcurrencyBenchmarks "getVirtual putVirtual" "-p keyCount=100000 -p keySize=12 -p valueSize=64"
    ;;
  warmup)
    # Each variant's pair from the first call of fresh JVMs (see "warm-up curves" below).
    JMH_RUN="-bm ss -tu us -wi 0 -i 200 -bs 1000"; WARM_FORKS=3; rounds=1
    MAX_DATA=$((512 << 20)); C_SECONDS=0
    job get GetBenchmarks "getPreallocated" "-p keyCount=100000 -p keySize=12 -p valueSize=64 -p keyOrder=roundRobin"
    job put PutBenchmarks "putSegment" "-p keyCount=100000 -p keySize=16 -p valueSize=64"
    ;;
  smoke)
    JMH_RUN="-f 1 -wi 0 -i 1 -r 200ms"; rounds=${rounds:-1}
    MAX_DATA=$((64 << 20)); C_SECONDS=0.2
    job get GetBenchmarks "$GET_V" "-p keyCount=1000 -p keySize=12 -p valueSize=64 -p keyOrder=roundRobin"
    c get 1000 12 64 roundRobin
    job put PutBenchmarks "$PUT_V" "-p keyCount=1000 -p keySize=16 -p valueSize=64"
    c put 1000 16 64
    job batch WriteBatchBenchmarks "$BATCH_V" "-p keyCount=1000 -p keySize=16 -p valueSize=32 -p numOpsPerBatch=20 -p writeBatchAllocation=auto -p writeToDB=true"
    c batch 1000 16 32 20 1
    job iterator IteratorBenchmarks "$ITER_V" "-p keyCount=1000 -p keySize=16 -p valueSize=64 -p prefetch=0,4096"
    c scan 1000 16 64
    job multiget MultiGetBenchmarks "$MULTI_V" "-p keyCount=1000 -p keySize=16 -p valueSize=64 -p batchSize=10"
    job concurrency ConcurrencyBenchmarks "$CONC_V" "-p keyCount=1000 -p keySize=12 -p valueSize=64"
    job transactions TransactionBenchmarks "$TXN_V" "-p keyCount=1000 -p keySize=16 -p valueSize=64"
    c txn 1000 16 64
    job upcall-merge UpcallBenchmarks "$UPCALL_MERGE_V" "-p keyCount=1000 -p operands=8"
    job upcall-comparator UpcallBenchmarks "$UPCALL_CMP_V" "-p keyCount=1000 -p operands=8"
    job bindingcost BindingCostBenchmarks "$COST_V" "-p keyCount=1000 -p keySize=12 -p valueSize=64 -p keyOrder=roundRobin -p batchSize=10"
    ;;
  quick)
    JMH_RUN="-f 1 -wi 3 -w 1s -i 3 -r 1s"; rounds=${rounds:-2}
    MAX_DATA=$((512 << 20)); C_SECONDS=2
    job get-small GetBenchmarks "$GET_V" "-p keyCount=100000 -p keySize=12 -p valueSize=64 -p keyOrder=roundRobin,random"
    c get 100000 12 64 roundRobin; c get 100000 12 64 random
    job get-single GetBenchmarks "$GET_V" "-p keyCount=100000 -p keySize=12 -p valueSize=64 -p keyOrder=single"
    c get 100000 12 64 single
    job get-bigkey GetBenchmarks "$GET_V" "-p keyCount=100000 -p keySize=1024 -p valueSize=64 -p keyOrder=random"
    c get 100000 1024 64 random
    job get-2k GetBenchmarks "$GET_V" "-p keyCount=100000 -p keySize=12 -p valueSize=2048 -p keyOrder=random"
    c get 100000 12 2048 random
    job get-64k GetBenchmarks "$GET_V" "-p keyCount=2000 -p keySize=12 -p valueSize=65536 -p keyOrder=random"
    c get 2000 12 65536 random
    job put PutBenchmarks "$PUT_V" "-p keyCount=100000 -p keySize=16 -p valueSize=64,4096"
    c put 100000 16 64; c put 100000 16 4096
    job batch-1000 WriteBatchBenchmarks "$BATCH_V" "-p keyCount=100000 -p keySize=16 -p valueSize=32,128 -p numOpsPerBatch=1000 -p writeBatchAllocation=auto -p writeToDB=false,true"
    c batch 100000 16 32 1000 0; c batch 100000 16 32 1000 1; c batch 100000 16 128 1000 0; c batch 100000 16 128 1000 1
    job batch-20 WriteBatchBenchmarks "$BATCH_V" "-p keyCount=100000 -p keySize=16 -p valueSize=128 -p numOpsPerBatch=20 -p writeBatchAllocation=auto -p writeToDB=false,true"
    job batch-16k WriteBatchBenchmarks "$BATCH_V" "-p keyCount=100000 -p keySize=16 -p valueSize=16384 -p numOpsPerBatch=100 -p writeBatchAllocation=auto -p writeToDB=false,true"
    job iterator IteratorBenchmarks "$ITER_V" "-p keyCount=1000000 -p keySize=16 -p valueSize=64 -p prefetch=0,16384"
    c scan 1000000 16 64
    job iterator-1k IteratorBenchmarks "$ITER_V" "-p keyCount=100000 -p keySize=16 -p valueSize=1024 -p prefetch=0,16384"
    c scan 100000 16 1024
    job multiget MultiGetBenchmarks "$MULTI_V" "-p keyCount=100000 -p keySize=16 -p valueSize=64 -p batchSize=10,100,1000"
    job concurrency ConcurrencyBenchmarks "$CONC_V" "-p keyCount=100000 -p keySize=12 -p valueSize=64"
    job bindingcost BindingCostBenchmarks "$COST_V" "-p keyCount=100000 -p keySize=12 -p valueSize=64 -p keyOrder=roundRobin -p batchSize=100"
    # Java code inside RocksDB (issue 15): Java merge operator vs rocksdbjni's C++ one, Java
    # comparators both sides, and one upcall (ffm_upcall vs raw_upcall: the same downcall, no upcall)
    job upcall-merge UpcallBenchmarks "$UPCALL_MERGE_V" "-p keyCount=10000 -p operands=8"
    job upcall-comparator UpcallBenchmarks "$UPCALL_CMP_V" "-p keyCount=10000 -p operands=8"
    job transactions TransactionBenchmarks "$TXN_V" "-p keyCount=100000 -p keySize=16 -p valueSize=64"
    c txn 100000 16 64
    ;;
  full)
    JMH_RUN="-f 1 -wi 3 -w 2s -i 5 -r 2s"; rounds=${rounds:-1}
    MAX_DATA=$((2 << 30)); C_SECONDS=5
    job get GetBenchmarks "$GET_V" "-p keyCount=100000 -p keySize=12,1024 -p valueSize=64,2048 -p keyOrder=roundRobin,random,single"
    c get 100000 12 64 roundRobin; c get 100000 12 64 single; c get 100000 1024 64 roundRobin; c get 100000 1024 64 single
    job get-64k GetBenchmarks "$GET_V" "-p keyCount=10000 -p keySize=12,1024 -p valueSize=65536 -p keyOrder=roundRobin,random,single"
    job put PutBenchmarks "$PUT_V" "-p keyCount=100000 -p keySize=16 -p valueSize=64,1024,4096,16384"
    for v in 64 1024 4096 16384; do c put 100000 16 $v; done
    job batch WriteBatchBenchmarks "$BATCH_V" "-p keyCount=100000 -p keySize=16 -p valueSize=32,128,1024,16384 -p numOpsPerBatch=1,20,100,1000 -p writeBatchAllocation=auto -p writeToDB=false,true"
    for v in 32 128; do for o in 20 1000; do c batch 100000 16 $v $o 0; c batch 100000 16 $v $o 1; done; done
    job iterator IteratorBenchmarks "$ITER_V" "-p keyCount=10000,1000000 -p keySize=16 -p valueSize=64,1024 -p prefetch=0,4096,16384"
    job multiget MultiGetBenchmarks "$MULTI_V" "-p keyCount=100000 -p keySize=16 -p valueSize=64 -p batchSize=10,100,1000"
    c scan 10000 16 64; c scan 10000 16 1024; c scan 1000000 16 64; c scan 1000000 16 1024
    job concurrency ConcurrencyBenchmarks "$CONC_V" "-p keyCount=100000 -p keySize=12 -p valueSize=64"
    job bindingcost BindingCostBenchmarks "$COST_V" "-p keyCount=100000 -p keySize=12 -p valueSize=64 -p keyOrder=roundRobin,single -p batchSize=100"
    ;;
esac
if [ -n "$only" ]; then # keep the jobs --only names (NAME or NAME-*), in profile order
  keep=()
  for i in "${!JOB_NAME[@]}"; do
    for o in ${only//,/ }; do
      case "${JOB_NAME[i]}" in "$o"|"$o"-*) keep+=("$i"); break ;; esac
    done
  done
  [ ${#keep[@]} -gt 0 ] || { echo "bench.sh: --only $only matches no job of the $profile profile (${JOB_NAME[*]})" >&2; exit 2; }
  N=(); C=(); V=(); P=(); CC=()
  for i in "${keep[@]}"; do N+=("${JOB_NAME[i]}"); C+=("${JOB_CLASS[i]}"); V+=("${JOB_VARIANTS[i]}"); P+=("${JOB_PARAMS[i]}"); CC+=("${JOB_C[i]}"); done
  JOB_NAME=("${N[@]}"); JOB_CLASS=("${C[@]}"); JOB_VARIANTS=("${V[@]}"); JOB_PARAMS=("${P[@]}"); JOB_C=("${CC[@]}")
fi

JVM_FLAGS="--enable-native-access=ALL-UNNAMED -Xms2g -Xmx2g -Drocksffm.bench.dir=$DATA -Drocksffm.bench.maxDatasetBytes=$MAX_DATA"
# JMH 1.37 calls sun.misc.Unsafe; JDK 24+ warns about it in every fork.
[ "$JDK_MAJOR" -ge 24 ] && JVM_FLAGS="$JVM_FLAGS --sun-misc-unsafe-memory-access=allow"
# Comparison runs touch the whole heap at start (-XX:+AlwaysPreTouch): a fork lives for seconds, so
# without it every row that allocates spends its measurement in the first pass over a fresh 2 GiB
# heap, taking a page fault (a kernel page clear) every 4 KiB of allocation; a long-running
# process pays that once. Measured on UpcallBenchmarks.ffm_seekComparator: clear_page_erms was 5%
# of the benchmark thread's samples. The warm-up profile (fresh JVMs from their first call) keeps
# JVM_FLAGS alone.
COMPARE_FLAGS="$JVM_FLAGS -XX:+AlwaysPreTouch"
HOST_FLAGS="--enable-native-access=ALL-UNNAMED"
[ "$JDK_MAJOR" -ge 24 ] && HOST_FLAGS="$HOST_FLAGS --sun-misc-unsafe-memory-access=allow"

# ---- environment ------------------------------------------------------------------------------
say "recording the environment"
# shellcheck disable=SC2086
java $JVM_FLAGS -cp "$JAR" io.rocksffm.jmh.Environment > "$OUT/env-probe.txt"
{
  echo "benchmark jvm flags (bench.sh): $COMPARE_FLAGS (warm-up profile: $JVM_FLAGS)"
  if [ -x "$CAPI" ]; then
    echo "C loop: $CAPI ($(cc --version | head -1)), linked to librocksdbjni-linux64.so from rocksdbjni-$RDB_VERSION.jar, sha256 $(sha256sum "$CAPI_DIR/librocksdbjni-linux64.so" | cut -d' ' -f1)"
  else
    echo "C loop: not built"
  fi
  dirty=""; [ -n "$(git status --porcelain -- src pom.xml 2>/dev/null)" ] && dirty=" (with uncommitted changes in src/ or pom.xml)"
  echo "rocksffm: $(git rev-parse --short HEAD 2>/dev/null || echo '?')$dirty"
  echo "command: scripts/bench.sh --$profile${only:+ --only $only}"
} >> "$OUT/env-probe.txt"
sed 's/^/    /' "$OUT/env-probe.txt"

# ---- warm-up curves (--warmup) -----------------------------------------------------------------
# Each fork is a fresh JVM timed from its first call, in batches of 1000 calls. On JDK 25+ every
# pair runs again with an AOT cache (JEP 514/515: classes loaded and linked, and method profiles),
# written at exit by a one-fork training run of the same benchmark.
warm() { # NAME CLASS VARIANT SIDE PARAMS: its runs; adds LABEL=file to labels for the report
  local name=$1 cls=$2 variant=$3 side=$4 params=$5 mode flags cache file label
  local modes="plain"
  [ "$JDK_MAJOR" -ge 25 ] && modes="plain aot"
  for mode in $modes; do
    file=$OUT/parts/$name-$variant-$side-$mode.json
    flags=$JVM_FLAGS
    if [ "$mode" = aot ]; then
      cache=$DATA/$name-$variant-$side.aot
      say "$name $variant $side: training run for the AOT cache"
      # shellcheck disable=SC2086
      "${WARM_LOCK[@]}" java $HOST_FLAGS -Djmh.ignoreLock=true -jar "$JAR" "$cls\.${side}_$variant\$" $params $JMH_RUN -f 1 -foe true \
          -jvmArgs "$JVM_FLAGS -XX:AOTCacheOutput=$cache" > "$OUT/logs/$name-$variant-$side-train.log" 2>&1
      [ -f "$cache" ] || { echo "bench.sh: no AOT cache written (see $OUT/logs/$name-$variant-$side-train.log)" >&2; exit 1; }
      flags="$JVM_FLAGS -XX:AOTCache=$cache"
    fi
    say "$name $variant $side ($mode)"
    # shellcheck disable=SC2086
    "${WARM_LOCK[@]}" java $HOST_FLAGS -Djmh.ignoreLock=true -jar "$JAR" "$cls\.${side}_$variant\$" $params $JMH_RUN -f "$WARM_FORKS" -foe true \
        -jvmArgs "$flags" -rf json -rff "$file" $extra_jmh > "$OUT/logs/$name-$variant-$side-$mode.log" 2>&1
    label="$name $variant $(tr '[:lower:]' '[:upper:]' <<<"$side")"
    [ "$mode" = aot ] && label="$label + AOT cache"
    labels+=("$label=$file")
  done
}
if [ "$profile" = warmup ]; then
  # Wait for the machine's JMH lock rather than fail: JmhLock holds it for the run, which then
  # skips JMH's own check (-Djmh.ignoreLock).
  WARM_LOCK=(java -cp "$JAR" io.rocksffm.jmh.JmhLock)
  labels=()
  for i in "${!JOB_NAME[@]}"; do
    for v in ${JOB_VARIANTS[i]}; do
      for side in ffm jni; do
        warm "${JOB_NAME[i]}" "${JOB_CLASS[i]}" "$v" "$side" "${JOB_PARAMS[i]}"
      done
    done
  done
  java -cp "$JAR" io.rocksffm.jmh.report.Warmup --out "$OUT/warmup.md" "${labels[@]}"
  say "done in $(elapsed): $OUT/warmup.md"
  exit 0
fi

# ---- JMH and C runs ---------------------------------------------------------------------------
combos() { # number of parameter combinations of a "-p a=1,2 -p b=3" string
  local n=1 tok
  for tok in $1; do
    case "$tok" in
      *=*) n=$(( n * ($(tr -cd ',' <<<"${tok#*=}" | wc -c) + 1) )) ;;
    esac
  done
  echo "$n"
}
FFM_ONLY_PARAMS='prefetch' # parameters of the ffm_ side only (IteratorBenchmarks)
jni_params() { local tok out=""; for tok in $1; do case "$tok" in $FFM_ONLY_PARAMS=*) out=${out% -p} ;; *) out="$out $tok" ;; esac; done; echo "$out"; }
# shellcheck disable=SC2086
ALL_BENCHMARKS=$(java $HOST_FLAGS -jar "$JAR" -l | tail -n +2)
total=0
for i in "${!JOB_NAME[@]}"; do
  for v in ${JOB_VARIANTS[i]}; do
    n=$(grep -cE "\.${JOB_CLASS[i]}\.($SIDES)_$v\$" <<<"$ALL_BENCHMARKS" || true)
    [ "$n" -ge 1 ] || { echo "bench.sh: ${JOB_CLASS[i]}: no benchmark ($SIDES)_$v" >&2; exit 1; }
    total=$(( total + $(combos "${JOB_PARAMS[i]}") + (n - 1) * $(combos "$(jni_params "${JOB_PARAMS[i]}")") ))
  done
done
case "$rounds" in ''|*[!0-9]*|0) echo "bench.sh: --rounds takes a positive integer" >&2; exit 2 ;; esac
total=$(( total * rounds ))
say "${#JOB_NAME[@]} jobs, $rounds round(s), $total JMH runs (one fork each: $JMH_RUN)"

C_OUT=$OUT/c-results.csv
echo "class,variant,params,ops_per_s" > "$C_OUT"
dataset() { # prints the directory of a dataset, populating it (with rocksdbjni) if needed
  # shellcheck disable=SC2086
  java $HOST_FLAGS -Drocksffm.bench.dir="$DATA" -Drocksffm.bench.maxDatasetBytes="$MAX_DATA" \
       -cp "$JAR" io.rocksffm.jmh.Datasets "$@" | tail -1
}
# The C loop holds JMH's lock while it runs (io.rocksffm.jmh.JmhLock): no JMH run measures meanwhile.
CLOOP=(java -cp "$JAR" io.rocksffm.jmh.JmhLock "$CAPI")
run_c() { # one "c" spec
  # shellcheck disable=SC2086
  set -- $1
  local kind=$1; shift
  case "$kind" in
    get)  "${CLOOP[@]}" get "$(dataset "$1" "$2" "$3")" "$1" "$2" "$3" "$C_SECONDS" "$4" ;;
    put)
      local dir
      dir=$(mktemp -d "$DATA/c-put.XXXXXX")
      "${CLOOP[@]}" put "$dir/db" "$1" "$2" "$3" "$C_SECONDS"
      rm -rf "$dir" ;;
    scan) "${CLOOP[@]}" scan "$(dataset "$1" "$2" "$3")" "$1" "$2" "$3" "$C_SECONDS" ;;
    batch)
      local dir
      dir=$(mktemp -d "$DATA/c-batch.XXXXXX")
      "${CLOOP[@]}" batch "$dir/db" "$1" "$2" "$3" "$4" "$5" "$C_SECONDS"
      rm -rf "$dir" ;;
    txn)
      local dir
      dir=$(mktemp -d "$DATA/c-txn.XXXXXX")
      "${CLOOP[@]}" txn "$dir" "$1" "$2" "$3" "$C_SECONDS"
      rm -rf "$dir" ;;
    *) echo "bench.sh: unknown C run $kind" >&2; return 1 ;;
  esac
}

c_prints() { # KIND VARIANT: whether capi_bench's KIND run prints a line for VARIANT
  case "$1:$2" in
    get:getArray|get:getIntoArray|get:getPreallocated|get:getPinned) return 0 ;;
    put:putArray|put:putDirect|put:putSegment) return 0 ;;
    batch:putBatchArray|batch:putBatchNative) return 0 ;;
    scan:scan|scan:scanCopy) return 0 ;;
    txn:tenPuts|txn:lockedUpdate|txn:optimisticCommit|txn:wbwiPutGet) return 0 ;;
  esac
  return 1
}

done_runs=0
part=0
for i in "${!JOB_NAME[@]}"; do
  for round in $(seq 1 "$rounds"); do
    say "job $((i + 1))/${#JOB_NAME[@]} ${JOB_NAME[i]} (round $round/$rounds): ${JOB_CLASS[i]} ${JOB_PARAMS[i]}"
    for v in ${JOB_VARIANTS[i]}; do
      part=$((part + 1))
      file=$(printf '%03d-%s-%s-r%d' "$part" "${JOB_NAME[i]}" "$v" "$round")
      # JMH allows one run per machine (/tmp/jmh.lock): while another checkout's run holds it, wait.
      while :; do
        rc=0
        # shellcheck disable=SC2086
        java $HOST_FLAGS -jar "$JAR" "${JOB_CLASS[i]}\.($SIDES)_$v\$" ${JOB_PARAMS[i]} $JMH_RUN -foe true \
            -jvmArgs "$COMPARE_FLAGS" -rf json -rff "$OUT/parts/$file.json" $extra_jmh 2>&1 \
          | tee "$OUT/logs/$file.log" \
          | awk -v done="$done_runs" -v total="$total" -v t0="$started" '
              /^# Benchmark: / { bench = $3; sub(/^io\.rocksffm\.jmh\./, "", bench) }
              /^# Parameters: / { p = $0; sub(/^# Parameters: /, "", p) }
              /^Result "/ { getline; done++; unit = ""
                            for (f = 1; f <= NF; f++) if ($f ~ /^ops\//) unit = $f
                            s = systime() - t0
                            printf "  run %d/%d  %dm%02ds  %-42s %s  %s %s\n", done, total, s / 60, s % 60, bench, p, $1, unit
                            fflush() }
              /Exception|Error|FAILURE|<failure>/ && !/^(# |Benchmark )/ && !/JMH lock/ { print "  " $0; fflush() }' || rc=$?
        if [ "$rc" != 0 ] && grep -q "Unable to acquire the JMH lock" "$OUT/logs/$file.log"; then
          [ "${waited:-}" = "$file" ] || say "another JMH run holds /tmp/jmh.lock: waiting"
          waited=$file
          sleep 1
          continue
        fi
        [ "$rc" = 0 ] || exit "$rc"
        break
      done
      n=$(grep -cE "\.${JOB_CLASS[i]}\.($SIDES)_$v\$" <<<"$ALL_BENCHMARKS" || true)
      done_runs=$(( done_runs + $(combos "${JOB_PARAMS[i]}") + (n - 1) * $(combos "$(jni_params "${JOB_PARAMS[i]}")") ))
      # the C loop right after this pair, keeping its line for this variant: the report pairs
      # each round's FFM and JNI scores with the C run of the same round (the machine drifts)
      if [ -n "${JOB_C[i]}" ] && [ -x "$CAPI" ]; then
        IFS=';' read -r -a specs <<<"${JOB_C[i]}"
        for spec in "${specs[@]}"; do
          c_prints "${spec%% *}" "$v" || continue
          say "C loop ($v): $spec"
          CAPI_VARIANT=$v run_c "$spec" | awk -F, -v v="$v" '$2 == v' | tee -a "$C_OUT" | sed 's/^/    /'
        done
      fi
    done
  done
done
[ -x "$CAPI" ] || say "C loop not built: no c_ops_per_s"

# ---- report -----------------------------------------------------------------------------------
say "writing the report"
java -Djava.awt.headless=true -cp "$JAR" io.rocksffm.jmh.report.Report --out "$OUT" \
    --env "$OUT/env-probe.txt" --c "$C_OUT" --title "rocksffm vs rocksdbjni ($profile profile)" \
    "$OUT"/parts/*.json
if [ -n "$only" ]; then
  say "--only: a partial run, bench-results/latest/ left alone"
elif [ "$profile" != smoke ]; then
  rm -rf bench-results/latest
  mkdir -p bench-results/latest
  cp "$OUT"/{jmh-result.json,summary.csv,summary.md,summary.txt,chart.png,environment.txt,c-results.csv} bench-results/latest/
  say "copied the report to bench-results/latest/"
fi
say "done in $(elapsed): $OUT/summary.md, chart: $OUT/chart.png"
echo
cat "$OUT/summary.txt"
