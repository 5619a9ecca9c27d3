#!/usr/bin/env bash
# Writes src/main/resources/io/rocksffm/internal/first-versions.txt: for every C function of the
# bindings' header (RocksDB 11.8.1's c.h) that RocksDB 7.8.3's header lacks, the first release
# (tag v7.8.3 or later) whose c.h declares it. Gated calls name it when the engine lacks one.
# Usage: scripts/first-versions.sh /path/to/rocksdb.git  (a clone or bare repository with tags)
set -euo pipefail
repo=${1:?path to a RocksDB git repository}
out=$(cd "$(dirname "$0")/.." && pwd)/src/main/resources/io/rocksffm/internal/first-versions.txt
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
functions() { git --git-dir="$repo" show "$1:include/rocksdb/c.h" | grep -oE '\brocksdb_[A-Za-z0-9_]+\s*\(' | sed 's/\s*(//' | sort -u; }
functions v11.8.1 > "$tmp/latest"
functions v7.8.3 > "$tmp/old"
comm -23 "$tmp/latest" "$tmp/old" > "$tmp/new"
tags=$(git --git-dir="$repo" tag | grep -E '^v(7|8|9|10|11)\.[0-9]+\.[0-9]+$' | sort -V | sed -n '/^v7\.8\.3$/,$p')
: > "$tmp/seen"
{
  echo "# C function, first RocksDB release whose c.h declares it (written by scripts/first-versions.sh)"
  for t in $tags; do
    functions "$t" | comm -12 - "$tmp/new" | comm -23 - "$tmp/seen" | sed "s/\$/ ${t#v}/" | tee -a "$tmp/found"
    cut -d' ' -f1 "$tmp/found" | sort -u > "$tmp/seen"
  done | sort
} > "$out"
echo "wrote $(grep -vc '^#' "$out") functions to $out"
