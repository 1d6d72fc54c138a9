#!/usr/bin/env bash
# Regenerates crates/cli/symbol-order.txt, the order in which the linker lays out the functions
# of the `dxspv` executable (see build.rs): the functions a one-shader `dxspv compile` process
# runs, the most used first, so that a fresh process faults in a few contiguous pages of code
# instead of pages scattered over 3.8 MB.
#
#   cargo build --release -p dxspv-cli && crates/cli/symbol-order.sh [DXSPV]
#
# It runs `dxspv compile FILE -o OUT` under valgrind's callgrind on every 12th corpus shader of
# each format and records which functions each run executes. Functions are ranked by the share
# of DXBC runs that use them, then of D3D9 runs, then of DXIL runs (the DXBC start-up bar
# matters most), and written one mangled name a line. Names are stable across edits of the
# code (they change with the toolchain, or when a function is renamed or added); the rare
# `.llvm.<hash>` names of functions the optimiser made cross-unit change with their unit.
# A stale name only loses its place, so regenerate after large changes. Needs valgrind.
set -euo pipefail
cd "$(dirname "$0")/../.."
dxspv=$(realpath "${1:-target/release/dxspv}")
corpus=${CORPUS:-../shared/corpus}
[ -d "$corpus" ] || { echo "no corpus at $corpus" >&2; exit 1; }
command -v valgrind >/dev/null || { echo "valgrind is needed" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for format in dxbc d3d9 dxil; do
    find "$corpus/$format" -type f -name "*.$format" | sort | awk 'NR % 12 == 1' |
        while read -r f; do
            valgrind --tool=callgrind --callgrind-out-file="$tmp/cg" --compress-strings=no \
                --compress-pos=no --demangle=no "$dxspv" compile "$f" -o "$tmp/x.spv" \
                >/dev/null 2>&1 || true
            # One line per function the run executed (addresses without a symbol left out).
            sed -n 's/^fn=//p' "$tmp/cg" | grep -v -e '^0x' -e '^(' | sort -u | sed "s/^/$format /"
        done
done >"$tmp/uses"
# Valgrind's CPU has no AVX-512, so glibc picks other variants of its string functions under it
# than on the machines dxspv runs on: the EVEX and AVX-512 variants go first, beside the rest.
nm "$dxspv" | awk '$3 ~ /^__(memmove|memcpy|memset|memcmp|memchr|strlen|strchr|strrchr)_(evex|avx512)/ {
    print $3 }' | sort -u >"$tmp/variants"
awk '
    { n[$1 " " $2]++; if (!($2 in seen)) { seen[$2] = 1; names[++count] = $2 } }
    END {
        for (i = 1; i <= count; i++) {
            s = names[i]
            printf "%06d %06d %06d %s\n", 999999 - n["dxbc " s], 999999 - n["d3d9 " s], \
                999999 - n["dxil " s], s
        }
    }' "$tmp/uses" | sort | cut -d' ' -f4- | cat "$tmp/variants" - >crates/cli/symbol-order.txt
echo "crates/cli/symbol-order.txt: $(wc -l <crates/cli/symbol-order.txt) functions" >&2
