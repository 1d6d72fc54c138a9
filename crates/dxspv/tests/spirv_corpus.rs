//! The corpus test: every shader of the shared corpus, of every format, through
//! [`dxspv::compile`] with default options. A shader either compiles to SPIR-V that
//! `spirv-val --target-env vulkan1.3` accepts (default layout rules), or is refused for a
//! reason listed here: [`REFUSED`] names each shader refused on purpose with the words its
//! error must contain, and [`NO_FRONTEND_YET`] the formats still waiting for their frontend.
//! Anything else fails the test. It prints one line per format (compiled, valid, refused by
//! error kind and feature) and every refusal with its reason. The other target environments
//! are checked over the same shaders by `spirv_targets.rs`.

// Tests may unwrap, panic and print (production code may not: see the workspace lints).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::print_stdout,
    clippy::print_stderr
)]
use dxspv_testkit::{installed, spirv_val, Corpus};
use std::collections::BTreeMap;

/// Shaders refused on purpose: (corpus path, words the error must contain, why).
const REFUSED: &[(&str, &str, &str)] = &[
    (
        "dxbc/vkd3d/vkd3d_shader_api_test_invalid_shaders_ps_break_code.dxbc",
        "break outside a loop or switch",
        "deliberately invalid: vkd3d's test expects every compiler to refuse it",
    ),
    // Direct3D 9: shaders no device accepts. The first five are the ones Wine's
    // test_unsupported_shaders (dlls/d3d9/tests/device.c, d3d9ex.c; dlls/d3d8/tests/device.c)
    // expects every device to refuse (D3DERR_INVALIDCALL).
    (
        "d3d9/wine/d3d8_device_test_unsupported_shaders_vs_1_256.d3d9",
        "c256 is past vs_1_1's limit of 256 float constants",
        "vs_1_1 names c256: vertex profiles have c0-c255 (Wine: refused everywhere)",
    ),
    (
        "d3d9/wine/d3d9_d3d9ex_test_unsupported_shaders_vs_3_256.d3d9",
        "c256 is past vs_3_0's limit of 256 float constants",
        "vs_3_0 names c256 (Wine: refused everywhere)",
    ),
    (
        "d3d9/wine/d3d9_d3d9ex_test_unsupported_shaders_vs_3_i16.d3d9",
        "i16 is past vs_3_0's limit of 16 integer constants",
        "vs_3_0 names i16: integer constants are i0-i15 (Wine: refused everywhere)",
    ),
    (
        "d3d9/wine/d3d9_d3d9ex_test_unsupported_shaders_ps_3_224.d3d9",
        "c224 is past ps_3_0's limit of 224 float constants",
        "ps_3_0 names c224: ps_3_0 has c0-c223 (Wine: refused everywhere)",
    ),
    (
        "d3d9/wine/d3d9_d3d9ex_test_unsupported_shaders_ps_2_0_boolint.d3d9",
        "ps_2_0 has no boolean constants",
        "ps_2_0 with defb/defi, rep and if: flow control and constant files ps_2_0 lacks \
         (Wine: refused everywhere)",
    ),
    // Assembler tests (d3dcompiler_43's asm tests check only the encoding): registers past
    // their model's limits, which the Direct3D 9 runtime's validation refuses.
    (
        "d3d9/wine/d3dcompiler_43_asm_vs_2_0_test_tests_29.d3d9",
        "l2047 is past vs_2_0's limit of 16 labels",
        "vs_2_0 calls l2047: the 2.0 models have labels l0-l15",
    ),
    (
        "d3d9/wine/d3dcompiler_43_asm_ps_2_x_test_tests_16.d3d9",
        "l2047 is past ps_2_x's limit of 16 labels",
        "ps_2_x calls l2047: the 2.0 models have labels l0-l15",
    ),
    (
        "d3d9/wine/d3dcompiler_43_asm_ps_3_0_test_tests_4.d3d9",
        "v12 is past ps_3_0's limit of 10 input registers",
        "ps_3_0 reads v12[aL]: ps_3_0 has inputs v0-v9",
    ),
    (
        "d3d9/wine/d3dcompiler_43_asm_vs_3_0_test_tests_6.d3d9",
        "o12 is past vs_3_0's limit of 12 output registers",
        "vs_3_0 writes o12[a0.x]: vs_3_0 has outputs o0-o11",
    ),
    (
        "d3d9/wine/d3dcompiler_43_asm_ps_3_0_test_tests_9.d3d9",
        "r2 is not a sampler",
        "an assembler test of texldd whose sampler operand is r2: no device runs it",
    ),
    (
        "d3d9/wine/d3d9_visual_test_mvp_software_vertex_shaders_pure_sw_shader_code.d3d9",
        "c256 is past vs_2_0's limit of 256 float constants",
        "vs_2_0 names c256, which only software vertex processing allows (Wine creates it \
         on a device in software mode); it compiles with Options::d3d9.software_vertex_processing \
         (checked below)",
    ),
    // DXIL: libraries and driver extensions are out of scope; the rest waits for IR and
    // backend support of Shader Model 6 features (the sm6-ops work).
    (
        "dxil/vkd3d-proton/mesh_shader_ms_derivatives_code_dxil.dxil",
        "derivatives in mesh and amplification shaders",
        "SM 6.6 mesh-shader derivatives: SPV_KHR_compute_shader_derivatives has mesh and task \
         shaders derive, but the SPIR-V tools here (2023.1) know only the NV extension, which \
         covers compute shaders alone, so nothing could validate the output",
    ),
    (
        "dxil/vkd3d-proton/rt_collection_handle_invariance_code_dxil.dxil",
        "DXIL libraries",
        "DXIL library (ray tracing or work graph shaders): out of scope",
    ),
    (
        "dxil/vkd3d-proton/rt_default_assignment_bindings_rt_code_dxil.dxil",
        "DXIL libraries",
        "DXIL library (ray tracing or work graph shaders): out of scope",
    ),
    (
        "dxil/vkd3d-proton/rt_default_code_dxil.dxil",
        "DXIL libraries",
        "DXIL library (ray tracing or work graph shaders): out of scope",
    ),
    (
        "dxil/vkd3d-proton/rt_embedded_root_signature_subobject_rt_conflict_code_dxil.dxil",
        "DXIL libraries",
        "DXIL library (ray tracing or work graph shaders): out of scope",
    ),
    (
        "dxil/vkd3d-proton/rt_embedded_root_signature_subobject_rt_conflict_mixed_code_dxil.dxil",
        "DXIL libraries",
        "DXIL library (ray tracing or work graph shaders): out of scope",
    ),
    (
        "dxil/vkd3d-proton/rt_embedded_subobject_code_dxil.dxil",
        "DXIL libraries",
        "DXIL library (ray tracing or work graph shaders): out of scope",
    ),
    (
        "dxil/vkd3d-proton/rt_embedded_subobject_dupe_code_dxil.dxil",
        "DXIL libraries",
        "DXIL library (ray tracing or work graph shaders): out of scope",
    ),
    (
        "dxil/vkd3d-proton/rt_misfire_code_dxil.dxil",
        "DXIL libraries",
        "DXIL library (ray tracing or work graph shaders): out of scope",
    ),
    (
        "dxil/vkd3d-proton/rt_rayquery_code_dxil.dxil",
        "inline ray tracing (RayQuery)",
        "inline ray tracing: out of scope",
    ),
    (
        "dxil/vkd3d-proton/rt_static_sampler_rt_lib_code_dxil.dxil",
        "DXIL libraries",
        "DXIL library (ray tracing or work graph shaders): out of scope",
    ),
    (
        "dxil/vkd3d-proton/sm_advanced_cs_ags_float8_conversion_code_dxil.dxil",
        "AMD AGS driver intrinsics",
        "AMD AGS driver intrinsics (WMMA in register space 0x7FFF0ADE): out of scope",
    ),
    (
        "dxil/vkd3d-proton/sm_advanced_cs_wmma_alloca_code_dxil.dxil",
        "AMD AGS driver intrinsics",
        "AMD AGS driver intrinsics (WMMA in register space 0x7FFF0ADE): out of scope",
    ),
    (
        "dxil/vkd3d-proton/sm_advanced_cs_wmma_copy_transpose_fp16_code_dxil.dxil",
        "AMD AGS driver intrinsics",
        "AMD AGS driver intrinsics (WMMA in register space 0x7FFF0ADE): out of scope",
    ),
    (
        "dxil/vkd3d-proton/sm_advanced_cs_wmma_element_wise_code_dxil.dxil",
        "AMD AGS driver intrinsics",
        "AMD AGS driver intrinsics (WMMA in register space 0x7FFF0ADE): out of scope",
    ),
    (
        "dxil/vkd3d-proton/sm_advanced_cs_wmma_f32_16x16x16_f16_quant_f16_bt_code_dxil.dxil",
        "AMD AGS driver intrinsics",
        "AMD AGS driver intrinsics (WMMA in register space 0x7FFF0ADE): out of scope",
    ),
    (
        "dxil/vkd3d-proton/sm_advanced_cs_wmma_f32_16x16x16_f16_quant_f16_ot_code_dxil.dxil",
        "AMD AGS driver intrinsics",
        "AMD AGS driver intrinsics (WMMA in register space 0x7FFF0ADE): out of scope",
    ),
    (
        "dxil/vkd3d-proton/sm_advanced_cs_wmma_f32_16x16x16_f16_quant_fp8_code_dxil.dxil",
        "AMD AGS driver intrinsics",
        "AMD AGS driver intrinsics (WMMA in register space 0x7FFF0ADE): out of scope",
    ),
    (
        "dxil/vkd3d-proton/sm_advanced_cs_wmma_f32_16x16x16_fp8_quant_f16_code_dxil.dxil",
        "AMD AGS driver intrinsics",
        "AMD AGS driver intrinsics (WMMA in register space 0x7FFF0ADE): out of scope",
    ),
    (
        "dxil/vkd3d-proton/sm_advanced_cs_wmma_f32_16x16x16_fp8_quant_f16_strided_code_dxil.dxil",
        "AMD AGS driver intrinsics",
        "AMD AGS driver intrinsics (WMMA in register space 0x7FFF0ADE): out of scope",
    ),
    (
        "dxil/vkd3d-proton/sm_advanced_cs_wmma_f32_16x16x16_fp8_quant_f16_strided_transpose_code_dxil.dxil",
        "AMD AGS driver intrinsics",
        "AMD AGS driver intrinsics (WMMA in register space 0x7FFF0ADE): out of scope",
    ),
    (
        "dxil/vkd3d-proton/sm_advanced_cs_wmma_f32_16x16x16_fp8_quant_f32_code_dxil.dxil",
        "AMD AGS driver intrinsics",
        "AMD AGS driver intrinsics (WMMA in register space 0x7FFF0ADE): out of scope",
    ),
    (
        "dxil/vkd3d-proton/sm_advanced_cs_wmma_fp32_fp8_conversions_code_dxil.dxil",
        "AMD AGS driver intrinsics",
        "AMD AGS driver intrinsics (WMMA in register space 0x7FFF0ADE): out of scope",
    ),
    (
        "dxil/vkd3d-proton/sm_advanced_cs_wmma_fp32_fp8_special_conversions_code_dxil.dxil",
        "AMD AGS driver intrinsics",
        "AMD AGS driver intrinsics (WMMA in register space 0x7FFF0ADE): out of scope",
    ),
    (
        "dxil/vkd3d-proton/sm_advanced_cs_wmma_fp8_fp32_conversions_code_dxil.dxil",
        "AMD AGS driver intrinsics",
        "AMD AGS driver intrinsics (WMMA in register space 0x7FFF0ADE): out of scope",
    ),
    (
        "dxil/vkd3d-proton/sm_advanced_cs_wmma_layout_assumptions_code_dxil.dxil",
        "AMD AGS driver intrinsics",
        "AMD AGS driver intrinsics (WMMA in register space 0x7FFF0ADE): out of scope",
    ),
    (
        "dxil/vkd3d-proton/sm_advanced_cs_wmma_lds_layout_code_dxil.dxil",
        "AMD AGS driver intrinsics",
        "AMD AGS driver intrinsics (WMMA in register space 0x7FFF0ADE): out of scope",
    ),
    (
        "dxil/vkd3d-proton/sm_advanced_cs_wmma_lds_transpose_code_dxil.dxil",
        "AMD AGS driver intrinsics",
        "AMD AGS driver intrinsics (WMMA in register space 0x7FFF0ADE): out of scope",
    ),
    (
        "dxil/vkd3d-proton/sm_advanced_cs_wmma_matrix_length_code_dxil.dxil",
        "AMD AGS driver intrinsics",
        "AMD AGS driver intrinsics (WMMA in register space 0x7FFF0ADE): out of scope",
    ),
    (
        "dxil/vkd3d-proton/sm_advanced_cs_wmma_special_conversions_code_dxil.dxil",
        "AMD AGS driver intrinsics",
        "AMD AGS driver intrinsics (WMMA in register space 0x7FFF0ADE): out of scope",
    ),
    (
        "dxil/vkd3d-proton/workgraph_basic_code_dxil.dxil",
        "DXIL libraries",
        "DXIL library (ray tracing or work graph shaders): out of scope",
    ),
    (
        "dxil/vkd3d-proton/workgraph_basic_recursion_code_dxil.dxil",
        "DXIL libraries",
        "DXIL library (ray tracing or work graph shaders): out of scope",
    ),
    (
        "dxil/vkd3d-proton/workgraph_broadcast_custom_input_code_dxil.dxil",
        "DXIL libraries",
        "DXIL library (ray tracing or work graph shaders): out of scope",
    ),
    (
        "dxil/vkd3d-proton/workgraph_broadcast_custom_input_u16_2_code_dxil.dxil",
        "DXIL libraries",
        "DXIL library (ray tracing or work graph shaders): out of scope",
    ),
    (
        "dxil/vkd3d-proton/workgraph_broadcast_custom_input_uint_code_dxil.dxil",
        "DXIL libraries",
        "DXIL library (ray tracing or work graph shaders): out of scope",
    ),
    (
        "dxil/vkd3d-proton/workgraph_coalesce_custom_input_code_dxil.dxil",
        "DXIL libraries",
        "DXIL library (ray tracing or work graph shaders): out of scope",
    ),
    (
        "dxil/vkd3d-proton/workgraph_cross_group_sharing_code_dxil.dxil",
        "DXIL libraries",
        "DXIL library (ray tracing or work graph shaders): out of scope",
    ),
    (
        "dxil/vkd3d-proton/workgraph_local_root_signature_code_dxil.dxil",
        "DXIL libraries",
        "DXIL library (ray tracing or work graph shaders): out of scope",
    ),
    (
        "dxil/vkd3d-proton/workgraph_shared_inputs_code_dxil.dxil",
        "DXIL libraries",
        "DXIL library (ray tracing or work graph shaders): out of scope",
    ),
    (
        "dxil/vkd3d-proton/workgraph_thread_custom_input_code_dxil.dxil",
        "DXIL libraries",
        "DXIL library (ray tracing or work graph shaders): out of scope",
    ),
    (
        "dxil/vkd3d-proton/workgraph_two_level_broadcast_node_array_code_dxil.dxil",
        "DXIL libraries",
        "DXIL library (ray tracing or work graph shaders): out of scope",
    ),
    (
        "dxil/vkd3d-proton/workgraph_two_level_thread_code_dxil.dxil",
        "DXIL libraries",
        "DXIL library (ray tracing or work graph shaders): out of scope",
    ),
    (
        "dxil/vkd3d-proton/workgraph_two_level_thread_node_array_code_dxil.dxil",
        "DXIL libraries",
        "DXIL library (ray tracing or work graph shaders): out of scope",
    ),
];

/// Shaders refused by default that compile with software vertex processing.
const SOFTWARE_VERTEX_PROCESSING: &[&str] =
    &["d3d9/wine/d3d9_visual_test_mvp_software_vertex_shaders_pure_sw_shader_code.d3d9"];

/// Formats whose frontend has not landed: every shader is refused as not supported yet.
const NO_FRONTEND_YET: &[&str] = &[];

#[derive(Default)]
struct Tally {
    compiled: usize,
    valid: usize,
    refused: BTreeMap<String, usize>,
}

#[test]
fn every_corpus_shader_compiles_to_valid_spirv_or_is_refused_for_a_listed_reason() {
    let Some(corpus) = Corpus::open() else { return };
    let validate = installed("spirv-val");
    if !validate {
        println!(
            "spirv-val not installed: SPIR-V validation skipped (apt-get install spirv-tools)"
        );
    }
    let opts = dxspv::Options::default();
    let mut tallies: BTreeMap<&str, Tally> = BTreeMap::new();
    let mut failures = Vec::new();
    let mut refusals_seen = Vec::new();
    for format in ["dxbc", "d3d9", "dxil"] {
        let tally = tallies.entry(format).or_default();
        for entry in corpus.of_format(format) {
            let path = entry.path.as_str();
            let listed = REFUSED.iter().find(|r| r.0 == path);
            match dxspv::compile(&corpus.read(entry), &opts) {
                Ok(out) => {
                    tally.compiled += 1;
                    if listed.is_some() {
                        failures.push(format!("{path}: listed as refused, but compiles"));
                    }
                    match validate.then(|| spirv_val(&out.spirv)).flatten() {
                        Some(Err(msg)) => {
                            let first = msg.lines().next().unwrap_or("").to_string();
                            failures.push(format!("{path}: spirv-val: {first}"));
                        }
                        Some(Ok(())) => tally.valid += 1,
                        None => {}
                    }
                }
                Err(e) => {
                    let key = match e.unsupported_feature() {
                        Some(feature) => format!("{} ({feature})", e.kind()),
                        None => e.kind().to_string(),
                    };
                    *tally.refused.entry(key).or_default() += 1;
                    let text = e.to_string();
                    match listed {
                        Some((_, words, why)) if text.contains(words) => {
                            refusals_seen.push(format!("{path}: {why}"));
                        }
                        Some((_, words, _)) => failures.push(format!(
                            "{path}: refused, but the error does not say \"{words}\": {text}"
                        )),
                        None if NO_FRONTEND_YET.contains(&format)
                            && matches!(e, dxspv::Error::Unsupported(_)) => {}
                        None => failures.push(format!("{path}: {text}")),
                    }
                }
            }
        }
    }
    for (format, t) in &tallies {
        let refused: Vec<String> = t.refused.iter().map(|(k, n)| format!("{k}: {n}")).collect();
        println!(
            "{format}: compiled {}, valid {}, refused {} [{}]",
            t.compiled,
            t.valid,
            t.refused.values().sum::<usize>(),
            refused.join(", ")
        );
    }
    for r in &refusals_seen {
        println!("refused as listed: {r}");
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert_eq!(
        refusals_seen.len(),
        REFUSED.len(),
        "a listed refusal is not in the corpus"
    );
    for path in SOFTWARE_VERTEX_PROCESSING {
        let Some(entry) = corpus
            .of_format("d3d9")
            .into_iter()
            .find(|e| e.path == *path)
        else {
            panic!("{path} is not in the corpus");
        };
        let mut sw = dxspv::Options::default();
        sw.d3d9.software_vertex_processing = true;
        let out = dxspv::compile(&corpus.read(entry), &sw)
            .unwrap_or_else(|e| panic!("{path} with software vertex processing: {e}"));
        if let Some(Err(msg)) = validate.then(|| spirv_val(&out.spirv)).flatten() {
            panic!("{path} with software vertex processing: spirv-val: {msg}");
        }
        println!("compiles with software vertex processing: {path}");
    }
    let d3d9 = &tallies["d3d9"];
    assert!(
        d3d9.compiled > 290,
        "only {} D3D9 shaders compiled",
        d3d9.compiled
    );
    let dxbc = &tallies["dxbc"];
    assert!(
        dxbc.compiled > 700,
        "only {} DXBC shaders compiled",
        dxbc.compiled
    );
    let dxil = &tallies["dxil"];
    assert!(
        dxil.compiled >= 222,
        "only {} DXIL shaders compiled",
        dxil.compiled
    );
}
