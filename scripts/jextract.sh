#!/usr/bin/env bash
# Regenerates src/generated/java from RocksDB's C API header with an installed jextract.
#
#   scripts/jextract.sh [path/to/rocksdb/c.h]
#
# jextract:  $JEXTRACT if set, else `jextract` on PATH (it is not in any package registry;
#            build or install it yourself, outside this project).
# header:    the first argument, else $ROCKSDB_C_H, else Debian's librocksdb-dev header
#            /usr/include/rocksdb/c.h.
#
# No library name is given to jextract (-l): the generated code resolves symbols through
# SymbolLookup.loaderLookup(), i.e. through whatever RocksDB library rocksffm's loader
# (io.rocksffm.internal.NativeLibrary) has loaded into the same class loader.
#
# Post-processing applied to jextract's output, and nothing else (each step is mechanical):
#   1. `SYMBOL_LOOKUP.findOrThrow("sym")` -> `SYMBOL_LOOKUP.find("sym").orElseThrow(...)`:
#      SymbolLookup.findOrThrow exists only from JDK 23; rocksffm compiles with --release 22.
#      The replacement throws UnsatisfiedLinkError naming the symbol, as jextract's own
#      helper did in earlier versions.
# Running the script twice gives byte-identical output.
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
out="$here/src/generated/java"
pkg=io.rocksffm.internal.capi
header_class=RocksDBC

header=${1:-${ROCKSDB_C_H:-/usr/include/rocksdb/c.h}}
jextract=${JEXTRACT:-$(command -v jextract || true)}

if [ -z "$jextract" ] || [ ! -x "$jextract" ]; then
  echo "jextract not found: set JEXTRACT=/path/to/jextract or put jextract on PATH." >&2
  exit 1
fi
if [ ! -f "$header" ]; then
  echo "RocksDB C header not found at $header (apt-get install librocksdb-dev, or pass a path)." >&2
  exit 1
fi

echo "jextract: $jextract"
"$jextract" --version 2>&1 | sed 's/^/  /'
echo "header:   $header"
include_dir=$(cd "$(dirname "$header")/.." && pwd)

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$jextract" \
  --output "$tmp" \
  --target-package "$pkg" \
  --header-class-name "$header_class" \
  --include-dir "$include_dir" \
  "$header" 2> "$tmp.log" || { cat "$tmp.log" >&2; rm -f "$tmp.log"; exit 1; }
# jextract warns about types it skips (opaque handle typedefs, va_list); keep a count only.
echo "jextract warnings: $(grep -c 'warning:' "$tmp.log" || true) (opaque typedefs and va_list are skipped by design)"
rm -f "$tmp.log"

pkg_dir="$tmp/${pkg//.//}"

# Post-step 1: JDK 23's SymbolLookup.findOrThrow -> JDK 22's find(...).orElseThrow(...).
find "$pkg_dir" -name '*.java' -print0 | xargs -0 sed -i -E \
  's/SYMBOL_LOOKUP\.findOrThrow\(("[^"]*")\)/SYMBOL_LOOKUP.find(\1).orElseThrow(() -> new UnsatisfiedLinkError("unresolved symbol: " + \1))/g'

if grep -rq 'findOrThrow' "$pkg_dir"; then
  echo "post-step 1 left a findOrThrow call behind; jextract's output changed shape" >&2
  exit 1
fi

rm -rf "$out/${pkg//.//}"
mkdir -p "$out"
cp -r "$tmp/." "$out/"
echo "generated $(find "$out" -name '*.java' | wc -l) files under src/generated/java/${pkg//.//}"
