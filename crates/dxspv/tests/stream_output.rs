//! `Options::stream_output`: a Direct3D stream-output declaration reaches the SPIR-V of corpus
//! shaders (geometry and vertex), which `spirv-val` accepts; other stages refuse one.

// Tests may unwrap, panic and print (production code may not: see the workspace lints).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::print_stdout,
    clippy::print_stderr
)]
use dxspv::ir::passes::stream_output::{StreamOutput, StreamOutputEntry};
use dxspv_testkit::corpus::Corpus;

fn entry(semantic: &str, index: u32, start: u32, count: u32) -> StreamOutputEntry {
    StreamOutputEntry {
        stream: 0,
        semantic: Some(semantic.into()),
        semantic_index: index,
        start_component: start,
        component_count: count,
        slot: 0,
    }
}

/// Compiles a corpus file with `so`; `None` when the corpus is absent.
fn compile(path: &str, so: StreamOutput) -> Option<Result<dxspv::Output, dxspv::Error>> {
    let root = Corpus::default_root();
    let Ok(bytes) = std::fs::read(root.join(path)) else {
        println!("skipping: {path} not found under {}", root.display());
        return None;
    };
    let mut opts = dxspv::Options::default();
    opts.passes.validate_each_pass = true;
    opts.stream_output = Some(so);
    Some(dxspv::compile(&bytes, &opts))
}

/// Counts `OpDecorate %x XfbBuffer` instructions.
fn xfb_buffers(words: &[u32]) -> usize {
    let mut n = 0;
    let mut i = 5;
    while let Some(&w) = words.get(i) {
        if w & 0xffff == 71 && words.get(i + 2) == Some(&36) {
            n += 1;
        }
        i += (w >> 16).max(1) as usize;
    }
    n
}

/// Wine's stream_output_components geometry shader with one entry per component (each a
/// copy into its own output) and with whole outputs (captured in place).
#[test]
fn geometry_shader_declarations() {
    let gs = "dxbc/wine/d3d11_test_stream_output_components_gs_code.dxbc";
    let per_component: Vec<_> = (0..4)
        .map(|c| entry("POSITION", 0, c, 1))
        .chain((0..3).map(|c| entry("COLOR", 0, c, 1)))
        .chain((0..2).map(|c| entry("COLOR", 2, c, 1)))
        .collect();
    let Some(out) = compile(
        gs,
        StreamOutput {
            entries: per_component,
            strides: vec![36],
            rasterized_stream: None,
        },
    ) else {
        return;
    };
    let out = out.expect("compiles");
    dxspv_testkit::assert_spirv_valid("per-component SO", &out.spirv);
    assert_eq!(xfb_buffers(&out.spirv), 9);
    let whole = vec![entry("POSITION", 0, 0, 4), entry("COLOR", 0, 0, 4)];
    let out = compile(
        gs,
        StreamOutput {
            entries: whole,
            strides: vec![32],
            rasterized_stream: None,
        },
    )
    .and_then(Result::ok)
    .expect("compiles");
    dxspv_testkit::assert_spirv_valid("whole-output SO", &out.spirv);
    assert_eq!(xfb_buffers(&out.spirv), 2);
    // The outputs are captured in place: no output variable is added.
    assert_eq!(out.reflection.outputs.len(), 3);
}

/// A vertex shader streaming out `SV_Position` (a built-in) and a pixel shader refusing any
/// declaration.
#[test]
fn vertex_shader_and_wrong_stage() {
    let vs = "dxbc/vkd3d-proton/d3d12_streamout_test_primitive_restart_list_topology_stream_output_vs_code.dxbc";
    let so = StreamOutput {
        entries: vec![entry("SV_Position", 0, 0, 4)],
        strides: vec![16],
        rasterized_stream: None,
    };
    let Some(out) = compile(vs, so.clone()) else {
        return;
    };
    let out = out.expect("compiles");
    dxspv_testkit::assert_spirv_valid("VS SO", &out.spirv);
    assert_eq!(xfb_buffers(&out.spirv), 1);
    let ps = "dxbc/vkd3d-proton/d3d12_test_utils_init_pipeline_state_desc_ps_code.dxbc";
    match compile(ps, so) {
        Some(Err(e)) => assert!(e.to_string().contains("from a Pixel shader"), "{e}"),
        Some(Ok(_)) => panic!("a pixel shader accepted a stream-output declaration"),
        None => {}
    }
}
