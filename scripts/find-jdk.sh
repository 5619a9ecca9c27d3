# Sourced by the scripts: sets JAVA_HOME to a JDK 22+ and puts it first on PATH.
# Order: $JAVA_HOME if it is 22+, then the newest JDK 22+ under /usr/lib/jvm (and /opt/java).

jdk_major() { # prints the feature version of the JDK at $1, or nothing
  local home=$1 v
  [ -x "$home/bin/javac" ] || return 0
  if [ -f "$home/release" ]; then
    v=$(sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "$home/release")
  fi
  if [ -z "$v" ]; then
    v=$("$home/bin/java" -XshowSettings:properties -version 2>&1 | sed -n 's/.*java.specification.version = \([0-9]*\).*/\1/p')
  fi
  echo "$v"
}

find_jdk22() {
  local cand best="" best_v=0 v
  if [ -n "${JAVA_HOME:-}" ]; then
    v=$(jdk_major "$JAVA_HOME")
    if [ -n "$v" ] && [ "$v" -ge 22 ]; then echo "$JAVA_HOME"; return 0; fi
  fi
  for cand in /usr/lib/jvm/* /opt/java/* /opt/jdk*; do
    [ -d "$cand" ] || continue
    v=$(jdk_major "$cand")
    if [ -n "$v" ] && [ "$v" -ge 22 ] && [ "$v" -gt "$best_v" ]; then best=$cand; best_v=$v; fi
  done
  [ -n "$best" ] && echo "$best"
}

if ! JAVA_HOME=$(find_jdk22); then
  echo "No JDK 22 or newer found (checked \$JAVA_HOME and /usr/lib/jvm/*)." >&2
  echo "Install one (e.g. Temurin 25 or openjdk-25-jdk-headless) or set JAVA_HOME to it." >&2
  exit 1
fi
export JAVA_HOME
export PATH="$JAVA_HOME/bin:$PATH"
# Maven's own Guice/Guava use sun.misc.Unsafe; JDK 24+ warns about it on every run.
if [ "$(jdk_major "$JAVA_HOME")" -ge 24 ]; then
  export MAVEN_OPTS="${MAVEN_OPTS:-} --sun-misc-unsafe-memory-access=allow"
fi
