#!/usr/bin/env bash
# Mutation testing (PIT) of the core classes with their own tests, on rocksdbjni's engine: the
# Maven profile "mutation" (pom.xml). Not part of scripts/test.sh. The report is written to
# target/pit-reports/ (index.html, mutations.xml, mutations.csv); the closing lines give the score
# per class. Extra arguments go to Maven, e.g.
#   scripts/mutation.sh -Drocksffm.mutation.threads=2
#   scripts/mutation.sh -Drocksffm.mutation.targetClasses=io.rocksffm.internal.BatchFormat
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/find-jdk.sh
mvn -B -ntp -Pmutation test-compile org.pitest:pitest-maven:mutationCoverage "$@"
csv=target/pit-reports/mutations.csv
if [ -f "$csv" ]; then
  echo "Mutation score per class (killed, incl. timed out and run errors / all):"
  awk -F, '{ all[$2]++; if ($6 == "KILLED" || $6 == "TIMED_OUT" || $6 == "MEMORY_ERROR" || $6 == "RUN_ERROR") k[$2]++ }
       END { for (c in all) printf "  %-40s %4d / %4d  %5.1f%%\n", c, k[c], all[c], 100 * k[c] / all[c] }' "$csv" | sort
fi
