#!/usr/bin/env bash
# Seeds fuzz/corpus/<target>/ from the shared shader corpus. The corpus directories are
# git-ignored; never commit them.
#
# usage: fuzz/seed.sh [CORPUS_ROOT]   (default /work/shared/corpus)
#   N_IR=<n>  number of shaders converted into IR text / serialized IR seeds (default 48)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
src="${1:-/work/shared/corpus}"
n_ir="${N_IR:-48}"
cd "$here"

mapfile -t dxbc < <(find "$src/dxbc" -name '*.dxbc' -type f | sort)
echo "seed: ${#dxbc[@]} DXBC files from $src/dxbc"

for t in dxbc_container dxbc_decode dxbc_disasm dxbc_convert pipeline compile; do
    mkdir -p "corpus/$t"
    for f in "${dxbc[@]}"; do
        # Flatten the path into a unique file name.
        cp -f "$f" "corpus/$t/$(echo "${f#$src/}" | tr '/' '_')"
    done
done

# sm3_decode / sm3_disasm / d3d9_compile: every Direct3D 9 token stream.
mapfile -t d3d9 < <(find "$src/d3d9" -name '*.d3d9' -type f | sort)
echo "seed: ${#d3d9[@]} D3D9 files from $src/d3d9"
for t in sm3_decode sm3_disasm d3d9_compile; do
    mkdir -p "corpus/$t"
    for f in "${d3d9[@]}"; do
        cp -f "$f" "corpus/$t/$(echo "${f#$src/}" | tr '/' '_')"
    done
done

# dxil_module: every DXIL container, and the bitcode of each (bare bitcode is read directly).
mapfile -t dxil < <(find "$src/dxil" -name '*.dxil' -type f | sort)
echo "seed: ${#dxil[@]} DXIL files from $src/dxil"
for t in dxil_module dxil_compile; do
    mkdir -p "corpus/$t"
    for f in "${dxil[@]}"; do
        cp -f "$f" "corpus/$t/$(echo "${f#$src/}" | tr '/' '_')"
    done
done
python3 - "corpus/dxil_module" "${dxil[@]}" <<'PY'
import struct, sys
out = sys.argv[1]
for i, path in enumerate(sys.argv[2:]):
    d = open(path, 'rb').read()
    count = struct.unpack_from('<I', d, 28)[0]
    for off in struct.unpack_from('<%dI' % count, d, 32):
        if d[off:off + 4] == b'DXIL':
            body = off + 8
            bc_off, bc_size = struct.unpack_from('<II', d, body + 16)
            start = body + 8 + bc_off
            open('%s/bitcode_%04d.bc' % (out, i), 'wb').write(d[start:start + bc_size])
PY
cp -f corpus/dxil_module/bitcode_*.bc corpus/dxil_compile/

# dxbc_decode: also bare program parts (SHDR/SHEX bodies) so the fuzzer can skip the container.
python3 - "corpus/dxbc_decode" "${dxbc[@]}" <<'PY'
import struct, sys
out = sys.argv[1]
for i, path in enumerate(sys.argv[2:]):
    d = open(path, 'rb').read()
    if len(d) < 32 or d[:4] != b'DXBC':
        continue
    n = struct.unpack_from('<I', d, 28)[0]
    for k in range(min(n, 64)):
        off = struct.unpack_from('<I', d, 32 + 4 * k)[0]
        if off + 8 > len(d):
            continue
        tag, size = d[off:off + 4], struct.unpack_from('<I', d, off + 4)[0]
        if tag in (b'SHDR', b'SHEX'):
            open(f"{out}/part_{i:04}.bin", 'wb').write(d[off + 8:off + 8 + size])
PY

# IR text and serialized IR from converted shaders (a spread of the corpus).
mkdir -p corpus/ir_text_parse corpus/ir_deserialize
total=${#dxbc[@]}
step=$(( total / n_ir > 0 ? total / n_ir : 1 ))
picked=()
for ((i = 0; i < total && ${#picked[@]} < n_ir; i += step)); do
    picked+=("${dxbc[$i]}")
done
CARGO_TARGET_DIR="$here/target" cargo run --quiet --release --example seed_ir -- \
    corpus/ir_text_parse corpus/ir_deserialize "${picked[@]}"

# ir_compile: IR text of every shader, as converted and as lowered by the pipeline.
mkdir -p corpus/ir_compile
bin_tmp="$(mktemp -d)"
CARGO_TARGET_DIR="$here/target" cargo run --quiet --release --example seed_ir -- \
    --lowered corpus/ir_compile corpus/ir_compile "$bin_tmp" "${dxbc[@]}"
rm -rf "$bin_tmp"
# ... and the hand-written IR of the backend's tests and the kept fuzz finds.
for f in ../crates/spirv/tests/golden/*.ir ../crates/dxspv/tests/fuzz_inputs/ir_compile/*; do
    cp -f "$f" "corpus/ir_compile/test_$(basename "$f")"
done

for t in corpus/*; do
    echo "seed: $t: $(ls "$t" | wc -l) files"
done
