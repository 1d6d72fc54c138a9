#!/usr/bin/env bash
# Semantic probes: each corpus shader's lowered IR (`dxspv ir`), changed in one meaningful
# way, compiled again. An error is fine; SPIR-V that `spirv-val --target-env vulkan1.3`
# refuses is a bug, printed as `INVALID <shader> <change>: <first spirv-val line>` with the
# mutant kept in the output directory. Where the fuzzers mutate bytes, these change what a
# shader means: its stage, its image kinds, its built-ins, its types.
#
# usage: fuzz/probe.sh stage|kind|buffer|builtin|type|width|mode|binding [OUT_DIR]
#   DXSPV=<binary> (default target/release/dxspv)  CORPUS=<root> (default ../shared/corpus)
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
mode="${1:?usage: probe.sh stage|kind|buffer|builtin|type|width|mode|binding [OUT_DIR]}"
out="${2:-$(mktemp -d)}"
bin="${DXSPV:-$root/target/release/dxspv}"
corpus="${CORPUS:-$root/../shared/corpus}"
mkdir -p "$out"
command -v spirv-val >/dev/null || { echo "probe: spirv-val not installed" >&2; exit 2; }
[ -x "$bin" ] || { echo "probe: no $bin (cargo build --release -p dxspv)" >&2; exit 2; }

kinds="Image1D Image1DArray Image2D Image2DArray Image2DMS Image2DMSArray ImageCube ImageCubeArray Image3D"
builtins="Position ClipDistance CullDistance VertexId InstanceId PrimitiveId LayerIndex
ViewportIndex GsInstanceId TessControlPointCountIn TessControlPointId TessCoord TessFactorInner
TessFactorOuter SampleCount SampleId SamplePosition SampleMask IsFrontFace Depth StencilRef
IsFullyCovered WorkgroupId GlobalThreadId LocalThreadId LocalThreadIndex PointSize ViewId
StartVertexLocation StartInstanceLocation"

# The sed programs (extended syntax) that make one shader's mutants, one per line.
mutations() {
    local ir="$1"
    case "$mode" in
    stage)
        local from
        from=$(grep -m1 -oE "EntryPoint [%0-9 ]+ [A-Za-z]+" "$ir" | awk '{print $NF}')
        for to in Pixel Vertex Geometry Hull Domain Compute; do
            [ "$to" != "$from" ] && echo "0,/(EntryPoint .*) $from/s//\\1 $to/"
        done
        ;;
    kind)
        for from in $kinds; do
            grep -qE "= Dcl(Srv|Uav) .* $from( |\$)" "$ir" || continue
            for to in $kinds; do
                [ "$to" != "$from" ] && echo "s/(= Dcl(Srv|Uav) .*) $from( |\$)/\\1 $to\\3/"
            done
            echo "s/= DclSrv (.*) $from( +;.*|)\$/= DclUav \\1 $from None\\2/;s/DescriptorLoad srv/DescriptorLoad uav/"
        done
        ;;
    buffer)
        for from in BufferRaw BufferStructured BufferTyped; do
            grep -qE "= Dcl(Srv|Uav) .* $from( |\$)" "$ir" || continue
            for to in BufferRaw BufferStructured BufferTyped Image1D Image2D; do
                [ "$to" != "$from" ] && echo "s/(= Dcl(Srv|Uav) .*) $from( |\$)/\\1 $to\\3/"
            done
        done
        for flags in None "Coherent|ReadOnly" WriteOnly RasterizerOrdered FixedFormat; do
            echo "s/= DclUav (.*) (Buffer[A-Za-z]+) [A-Za-z|]+( +;.*|)\$/= DclUav \\1 \\2 $flags\\3/"
        done
        echo "s/= DclSrv (.*) (Buffer[A-Za-z]+)( +;.*|)\$/= DclUav \\1 \\2 None\\3/;s/DescriptorLoad srv/DescriptorLoad uav/"
        ;;
    builtin)
        for from in $(grep -oE "Dcl(Input|Output)BuiltIn [^ ]+ %[0-9]+ [A-Za-z]+" "$ir" | awk '{print $4}' | sort -u); do
            for to in $builtins; do
                [ "$to" != "$from" ] && echo "0,/(Dcl(Input|Output)BuiltIn [^ ]+ %[0-9]+) $from /s//\\1 $to /"
            done
        done
        ;;
    type)
        for a in f32 i32 u32; do
            grep -qE "= Dcl(Srv|Uav) $a " "$ir" || continue
            for b in f32 i32 u32 f16 u16 f64 u64 u8; do
                [ "$a" != "$b" ] && echo "s/= Dcl(Srv|Uav) $a /= Dcl\\1 $b /"
            done
        done
        if grep -qE "= DclInput " "$ir"; then
            for m in None Flat NoPerspective Centroid Sample "Flat|Centroid" "NoPerspective|Sample"; do
                echo "s/(= DclInput [^;]* %1 [0-9]+ [0-9]+) [A-Za-z|]+/\\1 $m/"
            done
        fi
        ;;
    width)
        # Every value of one scalar type at another width (declarations, constants, ops).
        for pair in f32:f16 f32:f64 i32:i16 i32:i64 u32:u16 u32:u64 f32:min16f i32:min16i u32:min16u; do
            local a="${pair%%:*}" b="${pair#*:}"
            grep -qE "\\b$a\\b" "$ir" && echo "s/\\b$a\\b/$b/g"
        done
        ;;
    mode)
        # The stage's mode settings: primitives, vertex and control-point counts, tessellation,
        # workgroup sizes and float modes, to other (and out-of-range) values.
        local prims="Point Line LineAdj Triangle TriangleAdj Quad"
        if grep -q "= SetGsInputPrimitive " "$ir"; then
            for p in $prims; do echo "s/(= SetGsInputPrimitive %[0-9]+) [A-Za-z]+/\\1 $p/"; done
        fi
        if grep -q "= SetGsOutputPrimitive " "$ir"; then
            for p in $prims; do echo "s/(= SetGsOutputPrimitive %[0-9]+) [A-Za-z]+/\\1 $p/"; done
            for m in 0 2 15; do echo "s/(= SetGsOutputPrimitive %[0-9]+ [A-Za-z]+) [0-9]+/\\1 $m/"; done
        fi
        if grep -q "= SetGsOutputVertices " "$ir"; then
            for n in 0 256 1024 1025; do echo "s/(= SetGsOutputVertices %[0-9]+) [0-9]+/\\1 $n/"; done
        fi
        if grep -q "= SetGsInstances " "$ir"; then
            for n in 0 1 32 33; do echo "s/(= SetGsInstances %[0-9]+) [0-9]+/\\1 $n/"; done
        fi
        if grep -q "= SetTessDomain " "$ir"; then
            for p in $prims; do echo "s/(= SetTessDomain %[0-9]+) [A-Za-z]+/\\1 $p/"; done
        fi
        if grep -q "= SetTessPrimitive " "$ir"; then
            for p in $prims; do echo "s/(= SetTessPrimitive %[0-9]+) [A-Za-z]+/\\1 $p/"; done
            for w in Cw Ccw; do echo "s/(= SetTessPrimitive %[0-9]+ [A-Za-z]+) [A-Za-z]+/\\1 $w/"; done
            for q in Integer Pow2 FractOdd FractEven; do
                echo "s/(= SetTessPrimitive %[0-9]+ [A-Za-z]+ [A-Za-z]+) [A-Za-z0-9]+/\\1 $q/"
            done
        fi
        if grep -q "= SetTessControlPoints " "$ir"; then
            for n in "0 0" "1 32" "32 1" "32 32" "33 33" "3 0"; do
                echo "s/(= SetTessControlPoints %[0-9]+) [0-9]+ [0-9]+/\\1 $n/"
            done
        fi
        if grep -q "= SetCsWorkgroupSize " "$ir"; then
            for n in "0 1 1" "1 0 1" "1024 1 1" "1025 1 1" "1 1 64" "1 1 65" "32 32 2" "65536 1 1"; do
                echo "s/(= SetCsWorkgroupSize %[0-9]+) [0-9]+ [0-9]+ [0-9]+/\\1 $n/"
            done
        fi
        if grep -q "= SetFpMode " "$ir"; then
            for t in f16 f64; do echo "s/(= SetFpMode( \\[[a-z|]+\\])?) f32 /\\1 $t /"; done
            for r in NearestEven Zero; do
                for d in Flush Preserve; do
                    echo "s/(= SetFpMode[^%]* %[0-9]+) [A-Za-z]+ [A-Za-z]+/\\1 $r $d/"
                done
            done
            echo "s/= SetFpMode( \\[[a-z|]+\\])? f32 /= SetFpMode [precise] f32 /"
        fi
        ;;
    binding)
        # Resource spaces, registers and array sizes: past a word, colliding across classes
        # (t2000 lands on s0's binding with the default shifts), unbounded, huge.
        local dcl="(= Dcl(Srv|Uav|Cbv|Sampler)[^%]*%[0-9]+)"
        if grep -qE "= Dcl(Srv|Uav|Cbv|Sampler) " "$ir"; then
            for v in "0 4294967295 1" "4294967295 0 1" "0 2000 1" "0 0 0" "0 0 2" "0 0 4294967295" \
                "0 0 4294967296"; do
                echo "0,/$dcl [0-9]+ [0-9]+ [0-9]+/s//\\1 $v/"
            done
        fi
        ;;
    *) echo "probe: unknown mode $mode" >&2; exit 2 ;;
    esac
}

shaders=0 mutants=0 compiled=0 invalid=0
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
for f in "$corpus"/dxbc/*/*; do
    "$bin" ir "$f" -o "$tmp/base.ir" 2>/dev/null || continue
    shaders=$((shaders + 1))
    while IFS= read -r prog; do
        [ -n "$prog" ] || continue
        mutants=$((mutants + 1))
        sed -E "$prog" "$tmp/base.ir" > "$tmp/m.ir"
        cmp -s "$tmp/m.ir" "$tmp/base.ir" && continue
        "$bin" compile "$tmp/m.ir" -o "$tmp/m.spv" 2>/dev/null || continue
        compiled=$((compiled + 1))
        if ! msg=$(spirv-val --target-env vulkan1.3 "$tmp/m.spv" 2>&1); then
            invalid=$((invalid + 1))
            echo "INVALID $(basename "$f") [$prog]: $(echo "$msg" | head -1 | cut -c1-160)"
            cp "$tmp/m.ir" "$out/$(basename "$f" .dxbc)_$mutants.ir"
        fi
    done < <(mutations "$tmp/base.ir")
done
echo "probe $mode: $shaders shaders, $mutants mutants, $compiled compiled, $invalid invalid (kept in $out)"
[ "$invalid" -eq 0 ]
