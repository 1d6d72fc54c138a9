//! Hull, domain, geometry and image sampling shaders, written as lowered IR text (dumped with
//! `dxspv ir` from corpus shaders), emitted and checked with `spirv-val`.

// Tests may unwrap, panic and print (production code may not: see the workspace lints).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::print_stdout,
    clippy::print_stderr
)]
use dxspv_spirv::{emit_with_reflection, SpirvOptions, PATCH_LOCATION_TOP};
mod common;

use common::assert_spirv_valid as spirv_val;

/// Parses IR text and emits it.
fn emit_text(text: &str) -> Result<dxspv_spirv::SpirvModule, dxspv_spirv::SpirvError> {
    let b = dxspv_ir::text::parse(text).expect("parse IR text");
    emit_with_reflection(&b, &SpirvOptions::default())
}

/// Asserts that emitting failed with an error that mentions `want`.
#[track_caller]
fn assert_error(
    result: Result<dxspv_spirv::SpirvModule, dxspv_spirv::SpirvError>,
    want: &str,
    case: &str,
) {
    match result {
        Ok(_) => panic!("{case}: expected an error mentioning {want:?}"),
        Err(e) => assert!(e.to_string().contains(want), "{case}: {e}"),
    }
}

/// True if the module `words` has an instruction with opcode `opcode`.
fn has_opcode(words: &[u32], opcode: u32) -> bool {
    let mut i = 5;
    while let Some(&w) = words.get(i) {
        if w & 0xffff == opcode {
            return true;
        }
        i += (w >> 16).max(1) as usize;
    }
    false
}

/// The function of the module's (first) `OpEntryPoint`.
fn entry_function(words: &[u32]) -> Option<u32> {
    let mut i = 5;
    while let Some(&w) = words.get(i) {
        if w & 0xffff == 15 {
            return words.get(i + 2).copied();
        }
        i += (w >> 16).max(1) as usize;
    }
    None
}

fn compile(name: &str, text: &str) -> dxspv_spirv::SpirvModule {
    let b = dxspv_ir::text::parse(text).expect("parse IR text");
    let m = emit_with_reflection(&b, &SpirvOptions::default()).expect("emit");
    spirv_val(name, &m.words);
    m
}

/// Locations of the user patch variables (location, component) of `vars`.
fn patch_locations(vars: &[dxspv_spirv::InterfaceVariable]) -> Vec<(u32, u32)> {
    let mut l: Vec<_> = vars
        .iter()
        .filter(|v| v.patch && v.builtin.is_none())
        .filter_map(|v| Some((v.location?, v.component)))
        .collect();
    l.sort_unstable();
    l
}

/// Patch constants count down from location 31 (`vpc0.y`, `vpc1.y` at locations 31 and 30)
/// while control points count up from 0, and hull and domain shader agree. (Patch constants
/// used to sit at 32 and up, past the 32 locations devices offer, where Mesa mixed them up
/// with other varyings.)
#[test]
fn patch_constants_count_down_from_the_top() {
    let hs = compile(
        "hs",
        include_str!("golden/tessellation_primitive_id_hs_code_dxbc.ir"),
    );
    let ds = compile(
        "ds",
        include_str!("golden/tessellation_primitive_id_ds_code_dxbc.ir"),
    );
    let top = PATCH_LOCATION_TOP;
    assert_eq!(top, 31);
    let want = vec![(top - 1, 1), (top, 1)];
    assert_eq!(patch_locations(&hs.reflection.outputs), want);
    assert_eq!(patch_locations(&ds.reflection.inputs), want);
    // Control points keep their registers.
    let mut cp: Vec<_> = hs
        .reflection
        .outputs
        .iter()
        .filter(|o| !o.patch)
        .filter_map(|o| o.location)
        .collect();
    cp.sort_unstable();
    assert_eq!(cp, vec![0, 1, 2, 2]);
}

/// The tessellation factors (`TessLevelOuter`/`TessLevelInner`) are decorated `Patch` in the
/// hull shader's outputs and the domain shader's inputs (Mesa's drivers drop every patch
/// otherwise), and reflected as per-patch.
#[test]
fn tessellation_factors_are_patch_variables() {
    for (name, text) in [
        (
            "hs",
            include_str!("golden/tessellation_primitive_id_hs_code_dxbc.ir"),
        ),
        (
            "ds",
            include_str!("golden/tessellation_read_tesslevel_ds_code_dxbc.ir"),
        ),
    ] {
        let m = compile(name, text);
        let io = if name == "hs" {
            &m.reflection.outputs
        } else {
            &m.reflection.inputs
        };
        let factors: Vec<_> = io
            .iter()
            .filter(|v| matches!(v.builtin, Some("TessFactorOuter" | "TessFactorInner")))
            .collect();
        assert!(!factors.is_empty(), "{name}: no tessellation factors");
        assert!(factors.iter().all(|v| v.patch), "{name}: {factors:?}");
        // OpDecorate %var BuiltIn TessLevelOuter (decoration 11, built-in 11) and
        // OpDecorate %var Patch (15) on the same variable.
        let decorations: Vec<&[u32]> = m
            .words
            .windows(4)
            .filter(|w| w[0] == (4 << 16 | 71) || w[0] == (3 << 16 | 71))
            .collect();
        let outer = decorations
            .iter()
            .find(|w| w[0] == (4 << 16 | 71) && w[2] == 11 && w[3] == 11)
            .map(|w| w[1]);
        let outer = outer.unwrap_or_else(|| panic!("{name}: no TessLevelOuter"));
        assert!(
            decorations
                .iter()
                .any(|w| w[0] == (3 << 16 | 71) && w[1] == outer && w[2] == 15),
            "{name}: TessLevelOuter is not Patch"
        );
    }
}

/// `(mode, first literal)` of every `OpExecutionMode` of a module.
fn execution_modes(words: &[u32]) -> Vec<(u32, Option<u32>)> {
    let mut modes = Vec::new();
    let mut i = 5;
    while let Some(&w) = words.get(i) {
        let len = (w >> 16).max(1) as usize;
        if w & 0xffff == 16 {
            modes.push((words[i + 2], words.get(i + 3).filter(|_| len > 3).copied()));
        }
        i += len;
    }
    modes
}

/// A geometry shader without `dcl_gsinstances` declares one invocation (Vulkan requires the
/// `Invocations` mode on every geometry entry point).
#[test]
fn geometry_shader_declares_one_invocation() {
    let m = compile(
        "gs",
        include_str!("golden/vkd3d_shader_api_test_emit_signature_dxbc_gs.ir"),
    );
    let invocations = 0;
    assert_eq!(
        execution_modes(&m.words)
            .iter()
            .filter(|(mode, _)| *mode == invocations)
            .collect::<Vec<_>>(),
        vec![&(invocations, Some(1))]
    );
}

#[test]
fn geometry_shader_streams_do_not_share_locations() {
    let m = compile(
        "gs",
        include_str!("golden/vkd3d_shader_api_test_emit_signature_dxbc_gs.ir"),
    );
    let mut locs: Vec<_> = m
        .reflection
        .outputs
        .iter()
        .filter_map(|o| o.location.map(|l| (l, o.component)))
        .collect();
    let n = locs.len();
    locs.sort();
    locs.dedup();
    assert_eq!(locs.len(), n);
}

#[test]
fn pixel_shader_image_sampling() {
    compile("ps", include_str!("golden/sample_ps.ir"));
}

#[test]
fn geometry_shader_without_input_primitive_is_an_error() {
    let text = include_str!("golden/vkd3d_shader_api_test_emit_signature_dxbc_gs.ir");
    let without: String = text
        .lines()
        .filter(|l| !l.contains("SetGsInputPrimitive"))
        .map(|l| format!("{l}\n"))
        .collect();
    assert_ne!(without.len(), text.len());
    assert_error(
        emit_text(&without),
        "SetGsInputPrimitive",
        "no SetGsInputPrimitive",
    );
}

/// Emits `structured_srv_ps.ir` with its line `old` replaced by `new`.
fn structured_ps_with(
    old: &str,
    new: &str,
) -> Result<dxspv_spirv::SpirvModule, dxspv_spirv::SpirvError> {
    let text = include_str!("golden/structured_srv_ps.ir");
    assert!(text.contains(old), "{old}");
    emit_text(&text.replace(old, new))
}

/// Emits `structured_srv_ps.ir` with the first structured load (`%69`) replaced by `line`.
fn structured_load(line: &str) -> Result<dxspv_spirv::SpirvModule, dxspv_spirv::SpirvError> {
    structured_ps_with("%69 = BufferLoad u32 %67 %68 4", line)
}

#[test]
fn buffer_types_must_have_a_vulkan_block_layout() {
    // Array strides of 12 (vec3) and 8 (vec2 in a uniform block) break std430 / std140.
    for (old, new, want) in [
        (
            "%8 = DclSrv u32[4][]",
            "%8 = DclSrv vec3<f32>[]",
            "buffer type vec3<f32>[]",
        ),
        (
            "%6 = DclCbv vec4<f32>[1]",
            "%6 = DclCbv vec2<f32>[2]",
            "CBV type vec2<f32>[2]",
        ),
        (
            "%6 = DclCbv vec4<f32>[1]",
            "%6 = DclCbv vec3<f32>[1]",
            "CBV type vec3<f32>[1]",
        ),
        // Host-visible memory holds no bools.
        (
            "%8 = DclSrv u32[4][]",
            "%8 = DclSrv bool[4][]",
            "buffer type bool[4][] (a bool",
        ),
        (
            "%8 = DclSrv u32[4][] %1 0 0 1 BufferStructured",
            "%8 = DclSrv u32[4][] %1 0 0 1 BufferStructured\n%91 = DclPushData bool[4] %1 0 Pixel",
            "push data type bool[4] at offset 0 (a bool",
        ),
    ] {
        assert_error(structured_ps_with(old, new), want, new);
    }
    // Strides that are multiples of the element alignment are fine.
    for (old, new) in [
        ("%8 = DclSrv u32[4][]", "%8 = DclSrv u32[5][]"),
        ("%8 = DclSrv u32[4][]", "%8 = DclSrv vec4<f32>[]"),
    ] {
        let m = structured_ps_with(old, new).expect("emit");
        spirv_val("block_layout", &m.words);
    }
}

#[test]
fn structured_buffer_loads_reach_a_scalar() {
    // The shader as dumped: two indices (element, dword) reach a u32.
    let m = structured_load("%69 = BufferLoad u32 %67 %68 4").expect("emit");
    spirv_val("structured", &m.words);
    // A float view of the same dword is a bit-cast.
    let m = structured_load("%69 = BufferLoad f32 %67 %68 4").expect("emit");
    spirv_val("structured_f32", &m.words);
}

#[test]
fn structured_buffer_load_of_the_wrong_shape_is_an_error() {
    // One index reaches the whole u32[4] element, which is not a u32 or a vec4<u32>.
    for line in [
        "%69 = BufferLoad u32 %67 %61 4",
        "%69 = BufferLoad vec4<u32> %67 %61 4",
    ] {
        assert_error(structured_load(line), "at u32[4]", line);
    }
    // Scalars of another bit size cannot be bit-cast from the stored u32.
    for ty in ["f64", "f16", "u16", "i64", "vec2<u16>"] {
        let line = format!("%69 = BufferLoad {ty} %67 %68 4");
        assert_error(structured_load(&line), "unsupported", &line);
    }
}

#[test]
fn run_time_indices_select_vector_components_only() {
    // From the ir_compile fuzz target: a run-time index whose result was not one component
    // of a vector became an invalid `OpVectorExtractDynamic`.
    let at = "%68 = CompositeConstruct vec2<u32> %61 %16";
    let with = |extra: &str| structured_ps_with(at, &format!("{at}\n{extra}"));
    let bad = "%200 = CompositeExtract vec2<u32> %68 %61";
    assert_error(with(bad), "run-time index into vec2<u32>", bad);
    let m = with("%200 = CompositeExtract u32 %68 %61").expect("emit");
    spirv_val("extract_dynamic", &m.words);
}

#[test]
fn bit_field_bases_take_the_result_type() {
    // From the ir_compile fuzz target: an i32 field extracted from a u32 base; SPIR-V wants
    // the base of the result type.
    let at = "%68 = CompositeConstruct vec2<u32> %61 %16";
    for extra in [
        "%200 = SBitExtract i32 %61 %16 %18",
        "%200 = IBitInsert i32 %61 %61 %16 %18",
    ] {
        let m = structured_ps_with(at, &format!("{at}\n{extra}")).expect("emit");
        spirv_val("bit_field_base", &m.words);
    }
}

#[test]
fn bit_searches_are_32_bit() {
    // From the ir_compile fuzz target: a u16 `firstbitlow` of a u32 became an invalid
    // `FindILsb` (GLSL.std.450 finds bits in 32-bit integers of the result's width).
    let at = "%68 = CompositeConstruct vec2<u32> %61 %16";
    for extra in [
        "%200 = IFindLsb u16 %61",
        "%200 = UFindMsb u64 %61",
        "%200 = SFindMsb u16 %61",
    ] {
        assert_error(
            structured_ps_with(at, &format!("{at}\n{extra}")),
            "bit counting, reversal or search of other than 32-bit integers",
            extra,
        );
    }
    let m = structured_ps_with(at, &format!("{at}\n%200 = IFindLsb i32 %61")).expect("emit");
    spirv_val("find_lsb", &m.words);
}

#[test]
fn only_numbers_are_bit_cast_into_a_location() {
    // From the ir_compile fuzz target: a descriptor stored to a float output became an
    // `OpBitcast` of the buffer variable.
    let line = "%81 = OutputStore %13 %16 %20";
    assert_error(
        structured_ps_with("%81 = OutputStore %13 %16 %80", line),
        "cbv at f32",
        line,
    );
}

#[test]
fn atomics_need_their_location_type() {
    let text = include_str!("golden/raw_atomics_cs.ir");
    compile("atomics", text);
    let old = "%21 = BufferAtomic u32 %14 %13 %18 And";
    assert!(text.contains(old));
    // A float result or operand on a u32 word, and a whole-buffer address.
    for (line, want) in [
        (
            "%21 = BufferAtomic f32 %14 %13 %18 And",
            "atomic result f32",
        ),
        (
            "%21 = BufferAtomic u32 %14 %13 %17 And",
            "atomic operand f32",
        ),
        ("%21 = BufferAtomic u32 %14 null %18 And", "atomic on u32[]"),
    ] {
        assert_error(emit_text(&text.replace(old, line)), want, line);
    }
    // Texel atomics need the UAV's format fixed to its type (Vulkan has them on R32 and R64
    // formats only): on a typed buffer and on an image.
    let u0 = "%8 = DclUav u32[] %1 0 0 1 BufferRaw None";
    for (dcl, line) in [
        (
            "DclUav u32 %1 0 2 1 BufferTyped",
            "%21 = BufferAtomic u32 %201 %13 %18 And",
        ),
        (
            "DclUav u32 %1 0 2 1 Image2D",
            "%21 = ImageAtomic u32 %201 null %16 %18 And",
        ),
    ] {
        let typed = |flags: &str| {
            text.replace(u0, &format!("{u0}\n%200 = {dcl} {flags}"))
                .replace(old, &format!("%201 = DescriptorLoad uav %200 %13\n{line}"))
        };
        assert_error(emit_text(&typed("None")), "without FixedFormat", line);
        let m = emit_text(&typed("FixedFormat")).expect("a fixed-format texel atomic");
        spirv_val("texel_atomic", &m.words);
    }
}

#[test]
fn interface_and_resource_declarations_must_suit_vulkan() {
    // Each replacement came from the ir_compile fuzz target as invalid SPIR-V.
    for (old, new, want) in [
        // A built-in of the wrong type.
        (
            "%10 = DclInputBuiltIn vec4<f32> %1 Position NoPerspective",
            "%10 = DclInputBuiltIn vec3<f32> %1 Position NoPerspective",
            "built-in Position of type vec3<f32>",
        ),
        // Per-vertex arrays where a stage sees one vertex (from a built-in swap probe: a
        // vertex shader's `f32[1]` point size).
        (
            "%10 = DclInputBuiltIn vec4<f32> %1 Position NoPerspective",
            "%10 = DclInputBuiltIn vec4<f32>[2] %1 Position NoPerspective",
            "built-in Position of type vec4<f32>[2]",
        ),
        (
            "%10 = DclInputBuiltIn vec4<f32> %1 Position NoPerspective",
            "%10 = DclInputBuiltIn f32[2][2] %1 ClipDistance NoPerspective",
            "built-in ClipDistance of type f32[2][2]",
        ),
        // A varying past component 3, and one overlapping another.
        (
            "%13 = DclOutput vec4<f32> %1 0 0 0",
            "%13 = DclOutput vec4<f32> %1 0 1 0",
            "at component 1",
        ),
        (
            "%15 = Semantic %13 0 \"SV_Target\"",
            "%15 = Semantic %13 0 \"SV_Target\"\n%91 = DclOutput f32 %1 0 2 0",
            "location 0 overlaps",
        ),
        // Past the location table (a hostile IR file declared tens of thousands of varyings,
        // each checked against every earlier one).
        (
            "%13 = DclOutput vec4<f32> %1 0 0 0",
            "%13 = DclOutput vec4<f32> %1 256 0 0",
            "at location 256",
        ),
        (
            "%13 = DclOutput vec4<f32> %1 0 0 0",
            "%13 = DclOutput vec4<f32>[2] %1 255 0 0",
            "at location 255",
        ),
        // Varyings are numbers (Vulkan has bool built-ins only).
        (
            "%13 = DclOutput vec4<f32> %1 0 0 0",
            "%13 = DclOutput vec4<bool> %1 0 0 0",
            "varying of type vec4<bool>",
        ),
        // Images hold 32-bit scalars.
        (
            "%8 = DclSrv u32[4][] %1 0 0 1 BufferStructured",
            "%8 = DclSrv f16 %1 0 0 1 Image2D",
            "texel type f16",
        ),
    ] {
        assert_error(structured_ps_with(old, new), want, new);
    }
}

#[test]
fn image_coordinates_must_fit_the_image() {
    // From the ir_compile fuzz target: a 2D texture sampled with a scalar coordinate, and a
    // CBV with a runtime array (uniform blocks are sized).
    let text = include_str!("golden/sample_ps.ir");
    let sample = text
        .lines()
        .find(|l| l.contains(" = ImageSample "))
        .expect("a sample op");
    let coord = sample
        .split_whitespace()
        .nth(7)
        .expect("coordinate operand");
    let scalar = text
        .lines()
        .find_map(|l| {
            let (id, rest) = l.split_once(" = ")?;
            rest.starts_with("Constant f32 ").then_some(id)
        })
        .expect("an f32 constant");
    let bad = text.replacen(sample, &sample.replacen(coord, scalar, 1), 1);
    assert_error(emit_text(&bad), "coordinate f32", sample);
    // A sample whose result is not the texel vector the image gives.
    let short = text.replacen(sample, &sample.replacen("vec4<f32>", "vec2<f32>", 1), 1);
    assert_error(emit_text(&short), "result vec2<f32>", "a vec2 sample");
    // A sparse one, too: its texels after the feedback (from a type-swap probe: an i32
    // image sampled as floats).
    let sparse = sample.replacen(
        "ImageSample vec4<f32>",
        "ImageSample [sparse] struct{u32, vec4<i32>}",
        1,
    );
    assert_error(
        emit_text(&text.replacen(sample, &sparse, 1)),
        "the image gives vec4<f32>",
        "sparse texels of another type",
    );
    assert_error(
        structured_ps_with("%6 = DclCbv vec4<f32>[1]", "%6 = DclCbv vec4<f32>[]"),
        "unsized",
        "a runtime-array CBV",
    );
}

#[test]
fn size_queries_give_layers_the_size_type() {
    // From the ir_compile fuzz target: the layer count was always built as a u32, whatever
    // the struct's member type.
    let text = |size: &str, layers: &str| {
        format!(
            "%1 = EntryPoint %3 Pixel
%6 = DclSrv f32 %1 0 0 1 Image2DArray
%15 = DclOutput {layers} %1 0 0 0
%18 = Constant {layers} 0
%22 = Constant {layers} 1
%3 = Function void
%5 = Label None
%19 = DescriptorLoad srv %6 %18
%20 = ImageQuerySize struct{{{size}, {layers}}} %19 %18
%21 = CompositeExtract {layers} %20 %22
%23 = OutputStore %15 null %21
%24 = Return void null
%25 = FunctionEnd
"
        )
    };
    compile("size_query_i32", &text("vec2<i32>", "i32"));
    compile("size_query_u32", &text("vec2<u32>", "u32"));
    assert_error(
        emit_text(&text("vec2<u32>", "i64")),
        "layers",
        "64-bit layer count",
    );
}

#[test]
fn sample_counts_are_of_multisampled_images() {
    // From the ir_compile fuzz target: a sample-count query of a 2D image became an
    // `OpImageQuerySamples` of a single-sampled image (invalid SPIR-V).
    let text = |kind: &str| {
        format!(
            "%1 = EntryPoint %3 Pixel
%6 = DclSrv f32 %1 0 0 1 {kind}
%15 = DclOutput u32 %1 0 0 0
%18 = Constant u32 0
%3 = Function void
%5 = Label None
%19 = DescriptorLoad srv %6 %18
%20 = ImageQuerySamples u32 %19
%23 = OutputStore %15 null %20
%24 = Return void null
%25 = FunctionEnd
"
        )
    };
    compile("sample_count_ms", &text("Image2DMS"));
    assert_error(
        emit_text(&text("Image2D")),
        "single-sampled",
        "sample count of a 2D image",
    );
}

#[test]
fn gradients_have_the_coordinate_components() {
    // From the ir_compile fuzz target: a scalar x gradient for a 2D sample became an invalid
    // `Grad` image operand.
    let text = |dx: &str| {
        format!(
            "%1 = EntryPoint %3 Pixel
%6 = DclSrv f32 %1 0 0 1 Image2D
%7 = DclSampler %1 0 0 1
%15 = DclOutput vec4<f32> %1 0 0 0
%18 = Constant u32 0
%19 = Constant vec2<f32> 0.5 0.5
%20 = Constant f32 0.25
%3 = Function void
%5 = Label None
%21 = DescriptorLoad srv %6 %18
%22 = DescriptorLoad sampler %7 %18
%23 = ImageSample vec4<f32> %21 %22 null %19 null null null null {dx} %19 null
%24 = OutputStore %15 null %23
%25 = Return void null
%26 = FunctionEnd
"
        )
    };
    compile("sample_grad", &text("%19"));
    // A level-of-detail query's coordinate, too.
    let at = "%23 = ImageSample vec4<f32> %21 %22 null %19 null null null null %19 %19 null";
    let lod = |coord: &str| {
        text("%19").replace(
            at,
            &format!("%27 = ImageComputeLod vec2<f32> %21 %22 {coord}\n%23 = CompositeConstruct vec4<f32> %27 %27"),
        )
    };
    compile("compute_lod", &lod("%19"));
    assert_error(
        emit_text(&lod("%20")),
        "coordinate (operand 2)",
        "scalar LOD coordinate",
    );
    assert_error(emit_text(&text("%20")), "x gradient", "scalar x gradient");
    // Offsets too (from the same target: a scalar offset of a 2D gather).
    let at = "%23 = ImageSample vec4<f32> %21 %22 null %19 null null null null %19 %19 null";
    let with_offset = |off: &str| {
        text("%19").replace(
            at,
            &format!(
                "%23 = ImageSample vec4<f32> %21 %22 null %19 {off} null null null null null null"
            ),
        )
    };
    let good = with_offset("%27").replace(
        "%20 = Constant f32 0.25",
        "%20 = Constant f32 0.25\n%27 = Constant vec2<i32> 1 -1\n%28 = Constant i32 1",
    );
    compile("sample_offset", &good);
    assert_error(
        emit_text(&good.replace("%19 %27 null", "%19 %28 null")),
        "offset",
        "scalar offset",
    );
}

#[test]
fn mode_settings_belong_to_their_stage() {
    // From the ir_compile fuzz target: a pixel shader with a tessellation domain became an
    // `OpExecutionMode Quads` on a fragment entry point.
    let text = |stage: &str, mode: &str| {
        format!(
            "%1 = EntryPoint %3 {stage}
%2 = {mode}
%3 = Function void
%5 = Label None
%24 = Return void null
%25 = FunctionEnd
"
        )
    };
    for (mode, stage) in [
        ("SetTessDomain %1 Quad", "Pixel"),
        ("SetGsInstances %1 2", "Vertex"),
        ("SetPsEarlyFragmentTest %1", "Vertex"),
        ("SetCsWorkgroupSize %1 1 1 1", "Pixel"),
    ] {
        assert_error(
            emit_text(&text(stage, mode)),
            &format!("in a {stage} shader"),
            mode,
        );
    }
    compile(
        "ps_early_tests",
        &text("Pixel", "SetPsEarlyFragmentTest %1"),
    );
    // Code only some stages have: a derivative, a demote, a vertex emission or a workgroup
    // barrier elsewhere made SPIR-V that a Vulkan entry point of that stage may not hold.
    let code = |stage: &str, op: &str| {
        format!(
            "%1 = EntryPoint %3 {stage}
%2 = SetFpMode f32 %1 NearestEven Flush
%4 = Constant f32 1.0
%3 = Function void
%5 = Label None
%8 = {op}
%24 = Return void null
%25 = FunctionEnd
"
        )
    };
    for (op, stage) in [
        ("DerivX f32 %4 Coarse", "Vertex"),
        ("Demote", "Vertex"),
        ("EmitVertex 0", "Pixel"),
        ("Barrier Thread Workgroup Lds", "Pixel"),
    ] {
        assert_error(
            emit_text(&code(stage, op)),
            &format!("in a {stage} shader"),
            op,
        );
    }
    compile("ps_demote", &code("Pixel", "Demote"));
    // Built-ins, too: a vertex shader's sample index or a pixel shader's position output.
    for (dcl, stage) in [
        ("DclInputBuiltIn u32 %1 SampleId None", "Vertex"),
        ("DclOutputBuiltIn vec4<f32> %1 Position 0", "Pixel"),
    ] {
        assert_error(
            emit_text(&text(stage, dcl)),
            &format!("of a {stage} shader"),
            dcl,
        );
    }
}

#[test]
fn texel_offsets_suit_vulkan() {
    // Vulkan takes a run-time `Offset` on gathers only, and cube maps take no offset: a load
    // adds a run-time offset (or any offset, for a storage image) to its coordinate, and a
    // sample or a cube offset is an error instead of invalid SPIR-V.
    let text = |kind: &str, class: &str, layer: &str, off: &str| {
        let (dcl, mip) = match class {
            "srv" => (format!("DclSrv f32 %1 0 0 1 {kind}"), "%18"),
            _ => (format!("DclUav f32 %1 0 0 1 {kind} None"), "null"),
        };
        format!(
            "%1 = EntryPoint %3 Pixel
%6 = {dcl}
%9 = DclInput vec2<i32> %1 0 0 Flat
%15 = DclOutput vec4<f32> %1 0 0 0
%18 = Constant u32 0
%19 = Constant vec2<i32> 1 2
%20 = Constant vec2<i32> 1 -1
%27 = Constant i32 1
%3 = Function void
%5 = Label None
%10 = InputLoad vec2<i32> %9 null
%21 = DescriptorLoad {class} %6 %18
%23 = ImageLoad vec4<f32> %21 {mip} {layer} %19 null {off}
%24 = OutputStore %15 null %23
%25 = Return void null
%26 = FunctionEnd
"
        )
    };
    for (kind, class, layer, off, adds) in [
        ("Image2D", "srv", "null", "%20", false),
        ("Image2D", "srv", "null", "%10", true),
        ("Image2DArray", "srv", "%27", "%10", true),
        ("Image2D", "uav", "null", "%20", true),
        ("Image2DArray", "uav", "%27", "%20", true),
    ] {
        let name = format!("load_offset_{kind}_{class}_{off}").replace('%', "");
        let m = compile(&name, &text(kind, class, layer, off));
        let iadd = has_opcode(&m.words, 128); // OpIAdd
        assert_eq!(iadd, adds, "{name}: offset added to the coordinate");
    }
    assert_error(
        emit_text(&text("Image2D", "srv", "null", "%27")),
        "offset (operand 5)",
        "a scalar offset of a 2D load",
    );
    let sample = |kind: &str, coord: &str, off: &str| {
        format!(
            "%1 = EntryPoint %3 Pixel
%6 = DclSrv f32 %1 0 0 1 {kind}
%7 = DclSampler %1 0 0 1
%9 = DclInput vec2<i32> %1 0 0 Flat
%15 = DclOutput vec4<f32> %1 0 0 0
%18 = Constant u32 0
{coord}
%20 = Constant vec2<i32> 1 -1
%28 = Constant vec3<i32> 1 -1 0
%3 = Function void
%5 = Label None
%10 = InputLoad vec2<i32> %9 null
%21 = DescriptorLoad srv %6 %18
%22 = DescriptorLoad sampler %7 %18
%23 = ImageSample vec4<f32> %21 %22 null %19 {off} null null null null null null
%24 = OutputStore %15 null %23
%25 = Return void null
%26 = FunctionEnd
"
        )
    };
    let c2 = "%19 = Constant vec2<f32> 0.5 0.5";
    let c3 = "%19 = Constant vec3<f32> 0.5 0.5 0.5";
    compile("sample_const_offset", &sample("Image2D", c2, "%20"));
    assert_error(
        emit_text(&sample("Image2D", c2, "%10")),
        "run-time offset",
        "a run-time sample offset",
    );
    compile("sample_cube", &sample("ImageCube", c3, "null"));
    assert_error(
        emit_text(&sample("ImageCube", c3, "%28")),
        "offset (operand 4)",
        "a cube sample offset",
    );
}

#[test]
fn derivatives_are_of_32_bit_floats() {
    // Vulkan derives 32-bit floats only: a half is derived as a float and converted back;
    // a double, which Direct3D does not derive either, is an error.
    let text = |ty: &str| {
        format!(
            "%1 = EntryPoint %3 Pixel
%9 = DclInput f32 %1 0 0 None
%15 = DclOutput vec4<f32> %1 0 0 0
%3 = Function void
%5 = Label None
%10 = InputLoad f32 %9 null
%13 = ConvertFtoF {ty} %10
%12 = DerivX {ty} %13 Coarse
%14 = DerivY {ty} %13 Default
%16 = FAdd {ty} %12 %14
%11 = ConvertFtoF f32 %16
%23 = CompositeConstruct vec4<f32> %11 %11 %11 %11
%24 = OutputStore %15 null %23
%25 = Return void null
%26 = FunctionEnd
"
        )
    };
    compile("deriv_f16", &text("f16"));
    assert_error(
        emit_text(&text("f64")),
        "derivative of f64",
        "a double derivative",
    );
}

#[test]
fn image_ops_suit_the_image() {
    // Each was SPIR-V that Vulkan refuses: a sample (or gather, or LOD query) of a
    // multisampled image or of a UAV, a mip count of an image without mips, a multisampled
    // load without a sample index, and a gather of a fifth component.
    let text = |dcl: &str, code: &str| {
        let class = if dcl.starts_with("DclUav") {
            "uav"
        } else {
            "srv"
        };
        format!(
            "%1 = EntryPoint %3 Pixel
%6 = {dcl}
%7 = DclSampler %1 0 0 1
%15 = DclOutput vec4<f32> %1 0 0 0
%18 = Constant u32 0
%19 = Constant vec2<f32> 0.5 0.5
%22 = Constant vec2<i32> 0 0
%3 = Function void
%5 = Label None
%8 = DescriptorLoad {class} %6 %18
%9 = DescriptorLoad sampler %7 %18
{code}
%24 = OutputStore %15 null %11
%25 = Return void null
%26 = FunctionEnd
"
        )
    };
    let ms = "DclSrv f32 %1 0 0 1 Image2DMS";
    let uav = "DclUav f32 %1 0 0 1 Image2D None";
    let srv = "DclSrv f32 %1 0 0 1 Image2D";
    let sample = "%11 = ImageSample vec4<f32> %8 %9 null %19 null null null null null null null";
    let mips = "%12 = ImageQueryMips u32 %8
%13 = Cast f32 %12
%11 = CompositeConstruct vec4<f32> %13 %13 %13 %13";
    let gather = |c: u32| format!("%11 = ImageGather vec4<f32> %8 %9 null %19 null null {c}");
    let load = |sample: &str| format!("%11 = ImageLoad vec4<f32> %8 null null %22 {sample} null");
    for (dcl, code, want) in [
        (
            ms,
            sample.to_string(),
            "ImageSample of a multisampled image",
        ),
        (uav, sample.to_string(), "ImageSample of a UAV"),
        (
            ms,
            mips.to_string(),
            "ImageQueryMips of a multisampled image",
        ),
        (uav, mips.to_string(), "ImageQueryMips of a UAV"),
        (ms, load("null"), "without a sample index"),
        (
            "DclSrv f32 %1 0 0 1 ImageCube",
            load("null"),
            "ImageLoad of a cube map",
        ),
        (
            "DclSrv f32 %1 0 0 1 Image1D",
            gather(0),
            "neither 2D nor a cube map",
        ),
        (srv, gather(4), "gather of component 4"),
    ] {
        assert_error(emit_text(&text(dcl, &code)), want, &code);
    }
    for (name, dcl, code) in [
        ("sample_2d", srv, sample.to_string()),
        ("mips_2d", srv, mips.to_string()),
        ("load_ms", ms, load("%18")),
        ("gather_w", srv, gather(3)),
    ] {
        compile(name, &text(dcl, &code));
    }
}

#[test]
fn recursion_is_an_error() {
    // Vulkan entry points have no call cycles (and Direct3D no recursion).
    let text = "%1 = EntryPoint %3 Pixel
%3 = Function void
%5 = Label None
%6 = FunctionCall void %7
%25 = Return void null
%26 = FunctionEnd
%7 = Function void
%8 = Label None
%9 = FunctionCall void %7
%10 = Return void null
%11 = FunctionEnd
";
    assert_error(emit_text(text), "recursion", "a function calling itself");
    compile("call", &text.replace("%9 = FunctionCall void %7\n", ""));
}

#[test]
fn lod_clamps_suit_explicit_lods() {
    // From a stage-swap probe: a clamped sample outside a pixel shader (whose implicit LOD
    // becomes LOD 0) had `MinLod` with an explicit LOD, which SPIR-V does not allow; the LOD
    // is raised to the clamp instead. A clamped explicit LOD, likewise.
    let text = |stage: &str, lod: &str| {
        format!(
            "%1 = EntryPoint %3 {stage}
%6 = DclSrv f32 %1 0 0 1 Image2D
%7 = DclSampler %1 0 0 1
%15 = DclOutput vec4<f32> %1 0 0 0
%18 = Constant u32 0
%19 = Constant vec2<f32> 0.5 0.5
%20 = Constant f32 0.25
%3 = Function void
%5 = Label None
%21 = DescriptorLoad srv %6 %18
%22 = DescriptorLoad sampler %7 %18
%23 = ImageSample vec4<f32> %21 %22 null %19 null {lod} null %20 null null null
%24 = OutputStore %15 null %23
%25 = Return void null
%26 = FunctionEnd
"
        )
    };
    for (stage, lod) in [
        ("Vertex", "null"),
        ("Vertex", "%20"),
        ("Pixel", "%20"),
        ("Pixel", "null"),
    ] {
        let m = compile(
            &format!("clamp_{stage}_{lod}").replace('%', ""),
            &text(stage, lod),
        );
        // OpCapability MinLod (42) only where the clamp stays an operand: implicit LODs.
        let min_lod = m.words.windows(2).any(|w| w == [(2 << 16) | 17, 42]);
        assert_eq!(min_lod, stage == "Pixel" && lod == "null", "{stage} {lod}");
    }
}

#[test]
fn buffer_size_queries_need_a_run_time_array() {
    // From a buffer-kind probe: a raw buffer declared as one `f32` became an `OpArrayLength`
    // of a struct without a run-time array.
    let text = |ty: &str| {
        format!(
            "%1 = EntryPoint %3 Pixel
%6 = DclSrv {ty} %1 0 0 1 BufferRaw
%15 = DclOutput u32 %1 0 0 0
%18 = Constant u32 0
%3 = Function void
%5 = Label None
%21 = DescriptorLoad srv %6 %18
%22 = BufferQuerySize u32 %21
%24 = OutputStore %15 null %22
%25 = Return void null
%26 = FunctionEnd
"
        )
    };
    compile("raw_size", &text("u32[]"));
    assert_error(
        emit_text(&text("f32")),
        "not a run-time array",
        "an f32 raw buffer",
    );
}

#[test]
fn frag_coord_component_index_is_one_integer() {
    // From the ir_compile fuzz target: a run-time vec2 address into the pixel position (a
    // vec4) was taken as one component index (invalid OpVectorExtractDynamic).
    let text = |addr: &str| {
        format!(
            "%1 = EntryPoint %3 Pixel
%8 = DclInputBuiltIn vec4<f32> %1 Position NoPerspective
%11 = DclOutput f32 %1 0 0 0
%12 = Semantic %11 0 \"SV_Target\"
%14 = Constant i32 0
%3 = Function void
%5 = Label None
%20 = InputLoad f32 %8 %14
%21 = ConvertFtoI i32 %20
%22 = CompositeConstruct vec2<i32> %21 %21
%23 = InputLoad f32 %8 {addr}
%24 = OutputStore %11 null %23
%25 = Return void null
%26 = FunctionEnd
"
        )
    };
    let m = emit_text(&text("%21")).expect("a run-time component of the position");
    spirv_val("frag_coord_dynamic", &m.words);
    assert_error(
        emit_text(&text("%22")),
        "address does not fit",
        "a vec2 address",
    );
}

#[test]
fn interpolation_functions_take_32_bit_floats() {
    // From the width probe (every f32 of a shader made f16): GLSL.std.450 interpolates 32-bit
    // floats only, so a 16-bit input interpolated at its centroid or a sample is an error.
    let text = |t: &str, op: &str| {
        format!(
            "%1 = EntryPoint %3 Pixel
%6 = DclInput vec2<{t}> %1 1 0 None
%7 = Semantic %6 0 \"ATTR\"
%12 = DclOutput {t} %1 0 0 0
%13 = Semantic %12 0 \"SV_Target\"
%15 = Constant u32 0
%16 = Constant u32 1
%3 = Function void
%5 = Label None
%20 = {op} {t} %6 %15{sample}
%21 = OutputStore %12 null %20
%22 = Return void null
%23 = FunctionEnd
",
            sample = if op == "InterpolateAtSample" {
                " %16"
            } else {
                ""
            }
        )
    };
    for op in ["InterpolateAtCentroid", "InterpolateAtSample"] {
        let m = emit_text(&text("f32", op)).expect("an f32 interpolation");
        spirv_val("interpolate_f32", &m.words);
        assert_error(emit_text(&text("f16", op)), "interpolating a f16 input", op);
        // The address picks a component with an integer (ir_compile find: a float address
        // became an OpAccessChain index spirv-val refuses).
        let float_address = text("f32", op).replace(
            "%16 = Constant u32 1",
            "%16 = Constant u32 1\n%17 = Constant f32 0.0",
        );
        let float_address =
            float_address.replacen(&format!("{op} f32 %6 %15"), &format!("{op} f32 %6 %17"), 1);
        assert_error(emit_text(&float_address), "address of type f32", op);
    }
}

#[test]
fn mode_counts_are_at_least_one_and_fit_a_word() {
    // From the mode probe: Vulkan takes no zero workgroup dimension, instance count or output
    // vertex count, and a literal past 32 bits was cut to its low word.
    let cs = include_str!("golden/raw_atomics_cs.ir");
    let gs = include_str!("golden/vkd3d_shader_api_test_emit_signature_dxbc_gs.ir");
    let hs = include_str!("golden/tessellation_primitive_id_hs_code_dxbc.ir");
    let gs_out = "%21 = SetGsOutputVertices %1 12";
    for (text, old, new) in [
        (
            cs,
            "%12 = SetCsWorkgroupSize %1 1 1 1",
            "%12 = SetCsWorkgroupSize %1 N 1 1",
        ),
        (
            cs,
            "%12 = SetCsWorkgroupSize %1 1 1 1",
            "%12 = SetCsWorkgroupSize %1 1 1 N",
        ),
        (gs, gs_out, "%21 = SetGsOutputVertices %1 N"),
        (
            gs,
            gs_out,
            "%21 = SetGsOutputVertices %1 12\n%900 = SetGsInstances %1 N",
        ),
        (
            hs,
            "%164 = SetTessControlPoints %1 3 3",
            "%164 = SetTessControlPoints %1 3 N",
        ),
    ] {
        assert!(text.contains(old), "{old}");
        let with = |n: &str| text.replace(old, &new.replace('N', n));
        let m = emit_text(&with("2")).expect("a count of 2");
        spirv_val("mode_count", &m.words);
        assert_error(emit_text(&with("0")), "count 0", new);
        assert_error(emit_text(&with("4294967297")), "count 4294967297", new);
    }
}

#[test]
fn bindings_fit_a_word_and_never_alias() {
    // From a binding probe: a register near 2^32 wrapped past its shift onto a low binding,
    // and a t register 2000 above an s register of its space took the sampler's binding.
    let text = include_str!("golden/sample_ps.ir");
    let srv = "%10 = DclSrv f32 %1 0 0 1 Image2D";
    assert!(text.contains(srv));
    let with = |space_reg: &str| text.replace(srv, &srv.replace("%1 0 0 1", space_reg));
    assert_error(
        emit_text(&with("%1 0 4294967295 1")),
        "past 2^32 - 1",
        "register 2^32 - 1",
    );
    assert_error(
        emit_text(&with("%1 0 4294967296 1")),
        "does not fit 32 bits",
        "register 2^32",
    );
    assert_error(
        emit_text(&with("%1 1 2001 1")),
        "s1, space 1 and t2001, space 1 share descriptor set 1, binding 3001",
        "t2001 over s1",
    );
    // A t register clear of every other binding is fine, however high.
    let m = emit_text(&with("%1 1 5000 1")).expect("t5000");
    spirv_val("t5000", &m.words);
}

#[test]
fn integer_ops_take_either_signedness() {
    // The IR lets an integer op read operands of the other signedness at its bit size; SPIR-V
    // wants some of them exactly of the result's type (an ir_compile find: an OpUDiv of an
    // i32; then, probing every op, msad, add-with-carry, sub-with-borrow and the extended
    // multiplies). Each reads an i32 and a u32 here and must give valid SPIR-V.
    for line in [
        "%12 = IAdd u32 %10 %11",
        "%12 = IMul u32 %10 %11",
        "%12 = IAnd u32 %10 %11",
        "%12 = INot u32 %10",
        "%12 = INeg u32 %10",
        "%12 = IAbs u32 %10",
        "%12 = SMin u32 %10 %11",
        "%12 = UClamp u32 %10 %11 %10",
        "%12 = UDiv u32 %10 %11",
        "%12 = UMod u32 %11 %10",
        "%20 = UDiv i32 %10 %11\n%12 = Cast u32 %20",
        "%12 = IShl u32 %10 %11",
        "%12 = SShr u32 %10 %11",
        "%12 = UMsad u32 %10 %11 %10",
        "%12 = IBitInsert u32 %10 %11 %11 %11",
        "%12 = SBitExtract u32 %10 %11 %11",
        "%20 = IAddCarry vec2<u32> %10 %11\n%12 = CompositeExtract u32 %20 %9",
        "%20 = ISubBorrow vec2<u32> %11 %10\n%12 = CompositeExtract u32 %20 %9",
        "%20 = UMulExtended vec2<u32> %10 %11\n%12 = CompositeExtract u32 %20 %9",
        "%20 = SMulExtended vec2<i32> %11 %10\n%21 = CompositeExtract i32 %20 %9\n%12 = Cast u32 %21",
    ] {
        let text = format!(
            "%1 = EntryPoint %3 Pixel
%6 = DclInput i32 %1 0 0 Flat
%7 = DclInput u32 %1 1 0 Flat
%8 = DclOutput u32 %1 0 0 0
%9 = Constant u32 0
%3 = Function void
%5 = Label None
%10 = InputLoad i32 %6 null
%11 = InputLoad u32 %7 null
{line}
%14 = OutputStore %8 null %12
%15 = Return void null
%16 = FunctionEnd
"
        );
        match emit_text(&text) {
            Ok(m) => spirv_val("mixed_signedness", &m.words),
            Err(e) => panic!("{line}: {e}"),
        }
    }
}

/// `DclXfb` becomes `XfbBuffer`/`XfbStride`/`Offset` on its output, with the `Xfb` execution
/// mode and the `TransformFeedback` capability; a `DclXfb` of anything else is refused.
#[test]
fn transform_feedback_decorations() {
    let text = "
%1 = EntryPoint %10 Vertex
%2 = DclOutputBuiltIn vec4<f32> %1 Position 0
%3 = DclOutput vec2<f32> %1 1 0 0
%4 = DclXfb %2 1 24 0
%5 = DclXfb %3 1 24 16
%6 = Constant vec4<f32> 1.0 2.0 3.0 4.0
%7 = Constant vec2<f32> 5.0 6.0
%10 = Function void
%11 = Label None
%12 = OutputStore %2 null %6
%13 = OutputStore %3 null %7
%14 = Return void null
%15 = FunctionEnd
";
    let m = compile("xfb vs", text);
    // (decoration, literal) pairs of every OpDecorate of the output variables.
    let mut decorations = Vec::new();
    let mut i = 5;
    while let Some(&w) = m.words.get(i) {
        let len = (w >> 16).max(1) as usize;
        if w & 0xffff == 71 && len == 4 {
            decorations.push((m.words[i + 1], m.words[i + 2], m.words[i + 3]));
        }
        i += len;
    }
    let (offset, xfb_buffer, xfb_stride) = (35, 36, 37);
    for (var, off) in [(2, 0), (3, 16)] {
        assert!(
            decorations.contains(&(var, xfb_buffer, 1)),
            "{decorations:?}"
        );
        assert!(
            decorations.contains(&(var, xfb_stride, 24)),
            "{decorations:?}"
        );
        assert!(decorations.contains(&(var, offset, off)), "{decorations:?}");
    }
    // OpExecutionMode %main Xfb.
    assert!(m
        .words
        .windows(3)
        .any(|w| w[0] == (3 << 16 | 16) && w[2] == 11));
    let bad = text.replace("%5 = DclXfb %3", "%5 = DclXfb %1");
    assert_error(
        emit_text(&bad),
        "not a declared output",
        "DclXfb of the entry point",
    );
}

/// A vertex shader writes `PointSize` 1.0 (Direct3D's point size; Vulkan requires it when a
/// vertex shader feeds points to the rasterizer) first thing in its entry function, and lists
/// it in its reflection; one that writes `PointSize` itself (D3D9 `PSIZE`) gets no other.
#[test]
fn vertex_shaders_write_point_size_one() {
    let text = "
%1 = EntryPoint %10 Vertex
%2 = DclOutputBuiltIn vec4<f32> %1 Position 0
%3 = Constant vec4<f32> 1.0 2.0 3.0 4.0
%10 = Function void
%11 = Label None
%12 = OutputStore %2 null %3
%13 = Return void null
%14 = FunctionEnd
";
    let m = compile("vs", text);
    let point_size = 1;
    let sizes: Vec<_> = m
        .reflection
        .outputs
        .iter()
        .filter(|o| o.builtin == Some("PointSize"))
        .collect();
    assert_eq!(sizes.len(), 1);
    // OpDecorate %v BuiltIn PointSize, and an OpStore of 1.0 to it.
    let var = m
        .words
        .windows(4)
        .find(|w| w[0] == (4 << 16 | 71) && w[2] == 11 && w[3] == point_size)
        .map(|w| w[1])
        .expect("a PointSize variable");
    let one = m
        .words
        .windows(4)
        .find(|w| w[0] == (4 << 16 | 43) && w[3] == 1.0f32.to_bits())
        .map(|w| w[2])
        .expect("a 1.0 constant");
    // Right after the entry function's first label (%11); the entry point is the shader's
    // function, which calls nothing.
    assert!(m
        .words
        .windows(5)
        .any(|w| w == [2 << 16 | 248, 11, 3 << 16 | 62, var, one]));
    assert_eq!(entry_function(&m.words), Some(10));
    assert!(!has_opcode(&m.words, 57));

    let own = text
        .replace(
            "%3 = Constant",
            "%4 = DclOutputBuiltIn f32 %1 PointSize 0\n%5 = Constant f32 2.0\n%3 = Constant",
        )
        .replace("%13 = Return", "%15 = OutputStore %4 null %5\n%13 = Return");
    let m = compile("vs with PointSize", &own);
    let vars: Vec<_> = m
        .words
        .windows(4)
        .filter(|w| w[0] == (4 << 16 | 71) && w[2] == 11 && w[3] == point_size)
        .map(|w| w[1])
        .collect();
    assert_eq!(vars.len(), 1, "only the shader's own PointSize");
    let stores = m
        .words
        .windows(2)
        .filter(|w| w == &[3 << 16 | 62, vars[0]])
        .count();
    assert_eq!(stores, 1, "only the shader's own store to PointSize");

    // Turned off (a host whose devices have maintenance5): no point size, no wrapper.
    let b = dxspv_ir::text::parse(text).expect("parse IR text");
    let opts = SpirvOptions {
        vertex_point_size: false,
        ..SpirvOptions::default()
    };
    let m = emit_with_reflection(&b, &opts).expect("emit");
    spirv_val("vs without point size", &m.words);
    assert!(!has_opcode(&m.words, 57));
    assert!(!m
        .reflection
        .outputs
        .iter()
        .any(|o| o.builtin == Some("PointSize")));
}

#[test]
fn compute_shaders_derive_over_the_quads_their_workgroup_forms() {
    // Shader Model 6.6: X and Y even make 2x2 quads, X a multiple of 4 with Y and Z 1 makes
    // rows of four; either gets its derivative group mode, capability and extension (which
    // the reflection lists), and an implicit-LOD sample stays implicit. A workgroup forming
    // no quads takes no derivative, and its implicit-LOD samples are LOD 0.
    let text = |stage: &str, size: &str, code: &str| {
        format!(
            "%1 = EntryPoint %3 {stage}
%2 = SetCsWorkgroupSize %1 {size}
%6 = DclSrv f32 %1 0 0 1 Image2D
%7 = DclSampler %1 0 0 1
%4 = Constant f32 1.0
%9 = Constant u32 0
%10 = Constant vec2<f32> 0.5 0.5
%3 = Function void
%5 = Label None
%11 = DescriptorLoad srv %6 %9
%12 = DescriptorLoad sampler %7 %9
%8 = {code}
%24 = Return void null
%25 = FunctionEnd
"
        )
    };
    let deriv = "DerivX f32 %4 Fine";
    let sample = "ImageSample vec4<f32> %11 %12 null %10 null null null null null null null";
    let lod = "ImageComputeLod vec2<f32> %11 %12 %10";
    const SAMPLE_IMPLICIT: u32 = 87;
    const SAMPLE_EXPLICIT: u32 = 88;
    const QUADS: u32 = 5289;
    const LINEAR: u32 = 5290;
    for (size, code, mode, cap) in [
        ("8 8 1", deriv, QUADS, "ComputeDerivativeGroupQuadsNV"),
        ("2 6 3", sample, QUADS, "ComputeDerivativeGroupQuadsNV"),
        ("12 1 1", lod, LINEAR, "ComputeDerivativeGroupLinearNV"),
        ("64 1 1", sample, LINEAR, "ComputeDerivativeGroupLinearNV"),
    ] {
        let m = compile("cs_derivatives", &text("Compute", size, code));
        let modes: Vec<u32> = execution_modes(&m.words).iter().map(|m| m.0).collect();
        assert!(modes.contains(&mode), "{size} {code}: {modes:?}");
        let r = &m.reflection;
        assert!(r.capabilities.contains(&cap), "{size} {code}");
        assert!(
            r.extensions.contains(&"SPV_NV_compute_shader_derivatives"),
            "{size} {code}"
        );
        if code == sample {
            assert!(has_opcode(&m.words, SAMPLE_IMPLICIT), "{size}");
        }
    }
    // No quads: 4x1x2 (Z is not 1), 6x1x1, 3x3x4.
    for size in ["4 1 2", "6 1 1", "3 3 4"] {
        for code in [deriv, lod] {
            assert_error(
                emit_text(&text("Compute", size, code)),
                "forms no quads",
                &format!("{code} in a {size} workgroup"),
            );
        }
        let m = compile("cs_sample_lod0", &text("Compute", size, sample));
        assert!(has_opcode(&m.words, SAMPLE_EXPLICIT), "{size}");
        assert!(!has_opcode(&m.words, SAMPLE_IMPLICIT), "{size}");
        assert!(m.reflection.extensions.is_empty(), "{size}");
    }
    // Compute shaders without derivatives get no derivative group.
    let m = compile(
        "cs_no_derivatives",
        &text("Compute", "8 8 1", "FAdd f32 %4 %4"),
    );
    assert!(m.reflection.extensions.is_empty());
    // Mesh and amplification shaders: SPV_NV_compute_shader_derivatives has GLCompute only.
    for stage in ["Mesh", "Amplification"] {
        assert_error(
            emit_text(&text(stage, "8 8 1", deriv)),
            "derivatives in mesh and amplification shaders",
            stage,
        );
    }
}
