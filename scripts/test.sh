#!/usr/bin/env bash
# Sets up this machine and tests rocksffm: the one command from a fresh clone.
#
#   1. Setup (scripts/setup.sh): on Debian/Ubuntu, installs what is missing (a JDK 22+, Maven,
#      librocksdb-dev, and gcc and unzip for the benchmark's C loop) with apt-get, as root or
#      through sudo without a password. Where it cannot, it goes on with what there is and says
#      which engine it skips and the command that adds it, here and in the closing lines.
#   2. `mvn install`: the whole suite on the system librocksdb 7.8.3 (surefire execution
#      default-test) and on the library inside org.rocksdb:rocksdbjni, the dependency, 11.8.1
#      (execution rocksdbjni-engine); the engine, capability, callback and core read/write/iterator
#      tests on the older rocksdbjni engines a dependency tree can bring, 10.10.1.1 and 10.1.3
#      (executions rocksdbjni-10.10 and rocksdbjni-10.1); the sources and javadoc jars; rocksffm
#      into the local repository. Every run goes to the end even when an earlier one fails.
#   3. examples/run.sh: a stand-alone application that declares only io.rocksffm:rocksffm, built
#      against the installed rocksffm and run on the class path and on the module path.
#   4. kafka-streams/ (`mvn -f kafka-streams/pom.xml install`: verify, then the module into the
#      local repository): the Kafka Streams stores on the installed rocksffm; their own tests on
#      kafka-streams 4.4.0 (execution default-test) and Kafka's store conformance tests on
#      kafka-streams 4.3.1 (execution kafka-conformance). Then examples/kafka-streams, a word
#      count on those stores, run by its test with TopologyTestDriver. With
#      -Drocksffm.kafka.broker=true also the module's real-broker test (a Kafka 4.4.0 broker in
#      the test JVM, exactly-once applications killed and restarted in child JVMs; minutes).
#
# Extra arguments go to Maven (e.g. -Dtest=RocksDBTest). Environment: see scripts/setup.sh
# (ROCKSFFM_INSTALL=no|dry-run, ROCKSFFM_PRETEND_MISSING).
set -euo pipefail
cd "$(dirname "$0")/.."
say() { echo "[test.sh] $*"; }

. scripts/setup.sh
setup_machine
say "JDK: $JAVA_HOME ($("$JAVA_HOME/bin/java" -version 2>&1 | head -1))"
skipped=""
mvn_args=(-B -ntp install -Dmaven.test.failure.ignore=true)
if [ "$SETUP_NO_SYSTEM_ENGINE" = 1 ]; then
  skipped="SKIPPED: the run against the system librocksdb (none installed). Add it with: $SETUP_ADD_ENGINE"
  mvn_args+=(-Drocksffm.test.skipSystemEngine=true)
  say "$skipped"
  say "the suite runs on rocksdbjni's engine only"
fi
[ "$SETUP_NO_C_LOOP" = 0 ] || say "note: scripts/bench.sh will skip its C loop; add what it needs with: $SETUP_ADD_C_LOOP"

log=$(mktemp "${TMPDIR:-/tmp}/rocksffm-test.XXXXXX")
trap 'rm -f "$log"' EXIT
set +e
mvn "${mvn_args[@]}" "$@" 2>&1 | tee "$log"
mvn_status=${PIPESTATUS[0]}
set -e

examples_status=0
if [ "$mvn_status" = 0 ]; then
  say "examples (examples/run.sh)"
  set +e
  ROCKSFFM_EXAMPLES_SYSTEM_ENGINE=$(( 1 - SETUP_NO_SYSTEM_ENGINE )) bash examples/run.sh 2>&1 | tee -a "$log"
  examples_status=${PIPESTATUS[0]}
  set -e
fi

skip_tests=0
kafka_broker=0
for a in "$@"; do
  case "$a" in
    -DskipTests|-DskipTests=true|-Dmaven.test.skip|-Dmaven.test.skip=true) skip_tests=1 ;;
    -Drocksffm.kafka.broker=true) kafka_broker=1 ;;
  esac
done

kafka_log=$(mktemp "${TMPDIR:-/tmp}/rocksffm-kafka.XXXXXX")
trap 'rm -f "$log" "$kafka_log"' EXIT
kafka_status=0
if [ "$mvn_status" = 0 ]; then
  say "Kafka Streams stores (mvn -f kafka-streams/pom.xml install: verify, then the module into the local repository)"
  kafka_args=(-B -ntp -f kafka-streams/pom.xml install -Dmaven.test.failure.ignore=true)
  [ "$skip_tests" = 0 ] || kafka_args+=(-DskipTests)
  [ "$kafka_broker" = 0 ] || kafka_args+=(-Drocksffm.kafka.broker=true)
  set +e
  mvn "${kafka_args[@]}" 2>&1 | tee "$kafka_log"
  kafka_status=${PIPESTATUS[0]}
  set -e
  if [ "$kafka_status" = 0 ] && [ "$skip_tests" = 0 ]; then
    say "Kafka Streams example (examples/kafka-streams)"
    if out=$(mvn -B -ntp -f examples/kafka-streams/pom.xml test 2>&1) \
        && grep -qE 'Tests run: [1-9][0-9]*, Failures: 0, Errors: 0, Skipped: 0$' <<<"$out"; then
      echo "example ok: Kafka Streams word count on rocksffm stores (examples/kafka-streams, TopologyTestDriver)" | tee -a "$log"
    else
      echo "$out"
      echo "example FAILED: Kafka Streams word count on rocksffm stores (examples/kafka-streams)" | tee -a "$log"
    fi
  fi
fi

# ---- closing lines: per engine, the examples, what was skipped, and the total -------------------
# Per surefire execution of a Maven log: its summary line and the engine EngineTest reported.
surefire_summary() {
  awk '
  /--- maven-surefire-plugin:.*:test \(/ { match($0, /\(([^)]*)\)/); exec = substr($0, RSTART + 1, RLENGTH - 2) }
  /\[rocksffm\] engine: / && exec != "" { sub(/.*\[rocksffm\] engine: /, ""); engine[exec] = $0 }
  /Tests run: [0-9]+, Failures: [0-9]+, Errors: [0-9]+, Skipped: [0-9]+$/ && exec != "" {
    s = $0; sub(/.*Tests run: /, "", s); gsub(/[^0-9]+/, " ", s); split(s, n, " ")
    result[exec] = n[1] " " n[2] + n[3] " " n[4]
  }
  END { for (e in result) print e, result[e], (e in engine ? engine[e] : "-") }' "$1"
}
summary=$(surefire_summary "$log")
passed=0; failed=0; skipped_tests=0
echo
say "---- summary ----"
for exec in default-test rocksdbjni-engine rocksdbjni-10.10 rocksdbjni-10.1; do
  case "$exec" in
    default-test) name="system librocksdb" ;;
    rocksdbjni-engine) name="rocksdbjni's engine (the dependency)" ;;
    rocksdbjni-10.10) name="rocksdbjni 10.10.1.1's engine (engine, callback and core tests)" ;;
    rocksdbjni-10.1) name="rocksdbjni 10.1.3's engine (engine, callback and core tests)" ;;
  esac
  line=$(grep "^$exec " <<<"$summary" || true)
  if [ -n "$line" ]; then
    read -r _ run fail skip engine <<<"$line"
    engine=$(sed -E 's/^Engine\[source=([^,]*), path=([^,]*), version=([^]]*)\]$/\1 \3 (\2)/' <<<"$engine")
    passed=$(( passed + run - fail - skip )); failed=$(( failed + fail )); skipped_tests=$(( skipped_tests + skip ))
    say "suite on $name ($exec): $(( run - fail - skip )) passed, $fail failed, $skip skipped; engine: $engine"
  elif [ "$exec" = default-test ] && [ "$SETUP_NO_SYSTEM_ENGINE" = 1 ]; then
    say "suite on $name: skipped"
  elif [ "$skip_tests" = 1 ]; then
    say "suite on $name: not run (tests skipped)"
  else
    say "suite on $name ($exec): NO RESULT (see the Maven output above)"
    failed=$(( failed + 1 ))
  fi
done
ex_ok=$(grep -c 'example ok:' "$log" || true)
ex_failed=$(grep -c 'example FAILED:' "$log" || true)
if [ "$mvn_status" != 0 ]; then
  say "Maven failed (exit $mvn_status): examples not run"
  failed=$(( failed + 1 ))
else
  grep -oE 'example (ok|FAILED):.*' "$log" | sed 's/^/[test.sh] /' || true
  if [ "$examples_status" != 0 ] && [ "$ex_failed" = 0 ]; then ex_failed=1; fi
  passed=$(( passed + ex_ok )); failed=$(( failed + ex_failed ))
fi
if [ "$mvn_status" = 0 ]; then
  kafka_summary=$(surefire_summary "$kafka_log")
  for exec in default-test kafka-conformance; do
    case "$exec" in
      default-test) name="Kafka Streams stores, own tests on kafka-streams 4.4.0" ;;
      kafka-conformance) name="Kafka Streams stores, Kafka's key-value, window and session store tests on kafka-streams 4.3.1" ;;
    esac
    line=$(grep "^$exec " <<<"$kafka_summary" || true)
    if [ -n "$line" ]; then
      read -r _ run fail skip _ <<<"$line"
      passed=$(( passed + run - fail - skip )); failed=$(( failed + fail )); skipped_tests=$(( skipped_tests + skip ))
      say "$name ($exec): $(( run - fail - skip )) passed, $fail failed, $skip skipped"
    elif [ "$skip_tests" = 1 ]; then
      say "$name: not run (tests skipped)"
    else
      say "$name ($exec): NO RESULT (see the Maven output above)"
      failed=$(( failed + 1 ))
    fi
  done
  if [ "$kafka_status" != 0 ]; then
    say "Maven failed on kafka-streams/ (exit $kafka_status)"
    failed=$(( failed + 1 ))
  fi
else
  say "Kafka Streams stores: not run (Maven failed)"
fi
[ -n "$skipped" ] && say "$skipped"
echo "tests: $passed passed, $failed failed, $skipped_tests skipped"
[ "$failed" = 0 ] && [ "$mvn_status" = 0 ] && [ "$examples_status" = 0 ] && [ "$kafka_status" = 0 ]
