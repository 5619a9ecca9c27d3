# Sourced by scripts/test.sh and scripts/bench.sh: makes a fresh Debian/Ubuntu machine ready for
# them, then finds the JDK (scripts/find-jdk.sh). What it looks for, and the package it installs
# when that is missing:
#
#   a JDK 22+                 openjdk-NN-jdk-headless (the newest 22+ the distribution has)
#   Maven                     maven
#   the system RocksDB        librocksdb-dev (the system-engine test run; the C loop's header)
#   a C compiler, unzip       gcc, unzip (the benchmark's C loop)
#
# It installs with apt-get when it can: as root, or through sudo without a password. When it
# cannot, it carries on with what there is; the caller reads what is missing from SETUP_NO_SYSTEM_ENGINE
# and SETUP_NO_C_LOOP (1 when missing) and prints the one command that adds it from SETUP_ADD_ENGINE
# and SETUP_ADD_C_LOOP. A missing JDK or Maven stops it (exit 1), with the command that adds them.
#
# Environment:
#   ROCKSFFM_INSTALL=auto     (default) install what is missing when possible
#   ROCKSFFM_INSTALL=no       never install; report what is missing
#   ROCKSFFM_INSTALL=dry-run  print the apt-get commands instead of running them (what is missing
#                             stays missing)
#   ROCKSFFM_PRETEND_MISSING="librocksdb-dev gcc ..."  treat these packages as not installed
#                             (librocksdb-dev, maven, gcc, unzip, jdk): to try the logic above on a
#                             machine that has them

setup_say() { echo "[setup] $*"; }

setup_pretend_missing() { [[ " ${ROCKSFFM_PRETEND_MISSING:-} " == *" $1 "* ]]; }

setup_have_jdk() { ! setup_pretend_missing jdk && (. scripts/find-jdk.sh) >/dev/null 2>&1; }
setup_have_maven() { ! setup_pretend_missing maven && command -v mvn >/dev/null; }
setup_have_cc() { ! setup_pretend_missing gcc && command -v cc >/dev/null; }
setup_have_unzip() { ! setup_pretend_missing unzip && command -v unzip >/dev/null; }
setup_have_header() { ! setup_pretend_missing librocksdb-dev && [ -f /usr/include/rocksdb/c.h ]; }

# A system librocksdb where rocksffm's loader looks (io.rocksffm.internal.NativeLibrary, step 4).
setup_have_system_engine() {
  setup_pretend_missing librocksdb-dev && return 1
  local d f
  for d in /usr/local/lib /usr/lib/*-linux-gnu /lib/*-linux-gnu /usr/lib64 /usr/lib /opt/homebrew/lib; do
    for f in "$d"/librocksdb.so "$d"/librocksdb.so.* "$d"/librocksdb.dylib; do
      [ -f "$f" ] && return 0
    done
  done
  return 1
}

# Prints the command prefix that runs a command as root ("" or "sudo"), or fails.
setup_root_prefix() {
  if [ "$(id -u)" = 0 ]; then
    echo ""
  elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
    echo "sudo"
  else
    return 1
  fi
}

# Why packages cannot be installed here (empty when they can).
setup_cannot_install() {
  if [ "${ROCKSFFM_INSTALL:-auto}" = no ]; then
    echo "ROCKSFFM_INSTALL=no"
  elif ! command -v apt-get >/dev/null; then
    echo "no apt-get on this machine"
  elif ! setup_root_prefix >/dev/null; then
    if command -v sudo >/dev/null; then echo "not root, and sudo needs a password"; else echo "not root, and no sudo"; fi
  fi
}

# The one command that installs packages $@ here.
setup_install_command() {
  if command -v apt-get >/dev/null; then
    local sudo=""
    [ "$(id -u)" = 0 ] || sudo="sudo "
    echo "${sudo}apt-get install -y $*"
  else
    echo "your package manager's $* (e.g. brew install ...; dnf install ...)"
  fi
}

# The newest openjdk-NN-jdk-headless (NN >= 22) apt can install, or nothing.
setup_jdk_package() {
  local n
  for n in 26 25 24 23 22; do
    if apt-cache policy "openjdk-$n-jdk-headless" 2>/dev/null | grep -q 'Candidate: [0-9]'; then
      echo "openjdk-$n-jdk-headless"
      return 0
    fi
  done
}

SETUP_APT_OPTS=(-q -o DPkg::Lock::Timeout=600)   # wait for another apt-get instead of failing

setup_apt_update() { # once per run; not in a dry run
  [ "${ROCKSFFM_INSTALL:-auto}" != dry-run ] && [ -z "${SETUP_APT_UPDATED:-}" ] || return 0
  # shellcheck disable=SC2046
  $(setup_root_prefix) env DEBIAN_FRONTEND=noninteractive apt-get "${SETUP_APT_OPTS[@]}" update
  SETUP_APT_UPDATED=1
}

setup_apt_install() { # packages...
  local sudo
  sudo=$(setup_root_prefix)
  if [ "${ROCKSFFM_INSTALL:-auto}" = dry-run ]; then
    setup_say "dry run; would run: ${sudo:+$sudo }apt-get update && ${sudo:+$sudo }apt-get install -y $*"
    return 0
  fi
  setup_say "installing: $*"
  setup_apt_update
  # shellcheck disable=SC2086
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get "${SETUP_APT_OPTS[@]}" install -y "$@"
}

setup_machine() {
  local missing=() why jdk_pkg=""
  setup_have_jdk || missing+=(jdk)
  setup_have_maven || missing+=(maven)
  { setup_have_system_engine && setup_have_header; } || missing+=(librocksdb-dev)
  setup_have_cc || missing+=(gcc)
  setup_have_unzip || missing+=(unzip)

  if [ ${#missing[@]} -gt 0 ]; then
    why=$(setup_cannot_install)
    if [ -z "$why" ]; then
      local pkgs=() p
      for p in "${missing[@]}"; do
        if [ "$p" = jdk ]; then
          setup_apt_update >/dev/null   # only a fresh package list knows the newer JDKs
          jdk_pkg=$(setup_jdk_package)
          [ -n "$jdk_pkg" ] && pkgs+=("$jdk_pkg")
        else
          pkgs+=("$p")
        fi
      done
      [ ${#pkgs[@]} -eq 0 ] || setup_apt_install "${pkgs[@]}"
    else
      setup_say "missing: ${missing[*]}; not installing them: $why"
    fi
  fi

  if ! setup_have_jdk; then
    setup_say "No JDK 22 or newer found (checked \$JAVA_HOME, /usr/lib/jvm/*, /opt/java/*)."
    if [ -n "$jdk_pkg" ]; then
      setup_say "Add it with: $(setup_install_command "$jdk_pkg"), or set JAVA_HOME to a JDK 22+."
    else
      setup_say "Install one (e.g. Temurin 25) and set JAVA_HOME to it; this distribution's apt has no JDK 22+."
    fi
    exit 1
  fi
  . scripts/find-jdk.sh
  if ! setup_have_maven; then
    setup_say "Maven (mvn) is required. Add it with: $(setup_install_command maven)"
    exit 1
  fi

  SETUP_NO_SYSTEM_ENGINE=0
  SETUP_ADD_ENGINE=$(setup_install_command librocksdb-dev)
  setup_have_system_engine || SETUP_NO_SYSTEM_ENGINE=1
  SETUP_NO_C_LOOP=0
  local c_pkgs=()
  setup_have_header || c_pkgs+=(librocksdb-dev)
  setup_have_cc || c_pkgs+=(gcc)
  setup_have_unzip || c_pkgs+=(unzip)
  SETUP_ADD_C_LOOP=""
  if [ ${#c_pkgs[@]} -gt 0 ]; then
    SETUP_NO_C_LOOP=1
    SETUP_ADD_C_LOOP=$(setup_install_command "${c_pkgs[@]}")
  fi
}
