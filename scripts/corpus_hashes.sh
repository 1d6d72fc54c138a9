#!/usr/bin/env bash
# Prints one line per corpus shader: its path and the sha256 of the SPIR-V dxspv makes of it
# and of its reflection JSON (or of the error text when it is refused). Two runs diffed show whether a change altered
# any output: a refactor must leave every line as it was.
#
#   scripts/corpus_hashes.sh [DXSPV] > before.txt   ...change...   scripts/corpus_hashes.sh > after.txt
#   diff before.txt after.txt
#
# DXSPV defaults to target/release/dxspv (build it first). The corpus is ../shared/corpus.
set -euo pipefail
cd "$(dirname "$0")/.."
dxspv=${1:-target/release/dxspv}
corpus=${CORPUS:-../shared/corpus}
[ -d "$corpus" ] || { echo "no corpus at $corpus" >&2; exit 1; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
find "$corpus" -type f \( -name '*.dxbc' -o -name '*.dxil' -o -name '*.d3d9' \) | sort | while read -r f; do
    rel=${f#"$corpus"/}
    if "$dxspv" compile "$f" -o "$out/x.spv" --reflect "$out/x.json" >"$out/err" 2>&1; then
        printf '%s spv %s json %s\n' "$rel" "$(sha256sum <"$out/x.spv" | cut -c1-64)" \
            "$(sha256sum <"$out/x.json" | cut -c1-64)"
    else
        printf '%s err %s\n' "$rel" "$(sha256sum <"$out/err" | cut -c1-64)"
    fi
done
