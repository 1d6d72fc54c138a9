//! Errors raised after the frontend (by a pass or by the SPIR-V backend) name the op at fault
//! by the D3D names the IR keeps (registers, resources, inputs and outputs, system values),
//! with the IR id only as a trailing hint in parentheses; IR text keeps its own ids.

// Tests may unwrap, panic and print (production code may not: see the workspace lints).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::print_stdout,
    clippy::print_stderr
)]

use dxspv::ir::passes::stream_output::{StreamOutput, StreamOutputEntry};
use dxspv::spirv::TargetEnv;
use dxspv::{Error, IrStage, Options};

fn vulkan_1_0() -> Options {
    let mut opts = Options::default();
    opts.spirv.target_env = TargetEnv::Vulkan1_0;
    opts
}

/// True if `message` has an IR id (`%` and digits) outside parentheses: an id the user did
/// not write and cannot look up.
fn has_bare_id(message: &str) -> bool {
    let mut depth = 0i32;
    let bytes = message.as_bytes();
    for (i, &c) in bytes.iter().enumerate() {
        match c {
            b'(' => depth += 1,
            b')' => depth -= 1,
            b'%' if depth == 0 && bytes.get(i + 1).is_some_and(u8::is_ascii_digit) => return true,
            _ => {}
        }
    }
    false
}

#[test]
fn bare_ids_are_found() {
    assert!(has_bare_id("SPIR-V: %45 ImageSample: unsupported: x"));
    assert!(!has_bare_id(
        "SPIR-V: ImageSample of `t0` (%45): unsupported: x"
    ));
    assert!(!has_bare_id("100% sure"));
}

/// A compute shader that reads `t0`, broadcasts the value with a wave op and writes `u0`.
const WAVE_SHADER: &str = "\
%1 = EntryPoint %8 Compute
%2 = DebugName %1 \"main\"
%3 = SetCsWorkgroupSize %1 16 1 1
%4 = DclSrv u32[1][] %1 0 0 1 BufferStructured
%5 = DebugName %4 \"t0\"
%6 = DclUav u32[1][] %1 0 0 1 BufferStructured None
%7 = DebugName %6 \"u0\"
%11 = Constant u32 0
%8 = Function void
%10 = Label None
%12 = DescriptorLoad uav %6 %11
%13 = DescriptorLoad srv %4 %11
%17 = CompositeConstruct vec2<u32> %11 %11
%18 = BufferLoad u32 %13 %17 4
%19 = WaveReadLaneFirst u32 %18
%22 = BufferStore %12 %17 %19 4
%23 = Return void null
%24 = FunctionEnd
";

#[test]
fn ir_text_keeps_its_own_ids() {
    // The same program compiles at vulkan1.1, where waves exist.
    let mut opts = vulkan_1_0();
    opts.spirv.target_env = TargetEnv::Vulkan1_1;
    dxspv::compile_ir_text(WAVE_SHADER, &opts).expect("compiles at vulkan1.1");

    let err = dxspv::compile_ir_text(WAVE_SHADER, &vulkan_1_0()).unwrap_err();
    assert_eq!(err.kind(), "spirv-unsupported");
    assert_eq!(err.at(), None);
    assert_eq!(
        err.to_string(),
        "SPIR-V: %19 WaveReadLaneFirst: unsupported: wave and quad operations on vulkan1.0 \
         (they need SPIR-V 1.3, vulkan1.1)"
    );
}

#[test]
fn ir_kept_from_a_shader_gets_d3d_names() {
    // `compile_ir` takes IR made from a shader (a cache): its ids are not the user's names.
    let builder = dxspv::ir::text::parse(WAVE_SHADER).unwrap();
    let err = dxspv::compile_ir(builder, IrStage::Raw, &vulkan_1_0()).unwrap_err();
    assert_eq!(err.kind(), "spirv-unsupported");
    assert_eq!(err.at(), Some("WaveReadLaneFirst on data from `t0` (%19)"));
    assert_eq!(
        err.to_string(),
        "SPIR-V: WaveReadLaneFirst on data from `t0` (%19): unsupported: wave and quad \
         operations on vulkan1.0 (they need SPIR-V 1.3, vulkan1.1)"
    );
    assert!(!has_bare_id(&err.to_string()));
}

#[test]
fn a_pass_error_on_a_dxbc_shader_names_the_entry_point() {
    // Stream output asked of a compute shader: the stream_output pass refuses the entry point.
    let opts = Options {
        stream_output: Some(StreamOutput {
            entries: vec![StreamOutputEntry {
                stream: 0,
                semantic: Some("POSITION".into()),
                semantic_index: 0,
                start_component: 0,
                component_count: 4,
                slot: 0,
            }],
            strides: vec![16],
            rasterized_stream: Some(0),
        }),
        ..Options::default()
    };
    let err = dxspv::compile(&dxspv_testkit::dxbc::tiny_compute_shader(), &opts).unwrap_err();
    assert_eq!(err.kind(), "pass");
    let message = err.to_string();
    assert!(
        message.starts_with(
            "IR passes: stream_output: `main` (%1): stream output from a Compute shader"
        ),
        "{message}"
    );
    assert!(!has_bare_id(&message), "{message}");
    // The pass error itself is unchanged (the C API maps it by pass name).
    match &err {
        Error::Pass(e, Some(_)) => assert_eq!(e.pass(), "stream_output"),
        other => panic!("expected a named pass error, got {other:?}"),
    }
}

/// Compiles the corpus shader at `path` for `vulkan1.0`; `None` when the corpus is absent.
fn corpus_error(path: &str) -> Option<Error> {
    let corpus = dxspv_testkit::Corpus::open()?;
    let Some(entry) = corpus.entries.iter().find(|e| e.path == path) else {
        panic!("{path}: not in the corpus manifest");
    };
    Some(dxspv::compile(&corpus.read(entry), &vulkan_1_0()).unwrap_err())
}

#[test]
fn dxil_wave_shaders_at_vulkan_1_0_name_d3d_things() {
    // (shader, what the error names), checked against `dxspv ir` of each shader: a system
    // value read by an intrinsic, a wave op reading an input, a quad op on a value loaded from t0.
    let cases = [
        (
            "dxil/vkd3d-proton/sm_advanced_cs_wave_match_code_dxil.dxil",
            "`WaveGetLaneIndex()` (%14)",
            "WaveLaneIndex on vulkan1.0",
        ),
        (
            "dxil/vkd3d-proton/sm_advanced_vs_instance_input_nonuniform_workarounds_code_dxil.dxil",
            "WaveReadLaneFirst of `v_PERINSTANCE0` (%20)",
            "wave and quad operations on vulkan1.0",
        ),
        (
            "dxil/vkd3d-proton/sm_advanced_cs_quad_vote_code_dxil.dxil",
            "QuadAny on data from `t0` (%22)",
            "wave and quad operations on vulkan1.0",
        ),
    ];
    for (path, at, feature) in cases {
        let Some(err) = corpus_error(path) else {
            return;
        };
        assert_eq!(err.kind(), "spirv-unsupported", "{path}");
        assert_eq!(err.at(), Some(at), "{path}");
        let message = err.to_string();
        assert!(
            message.starts_with(&format!("SPIR-V: {at}: unsupported: {feature}")),
            "{path}: {message}"
        );
        assert!(!has_bare_id(&message), "{path}: {message}");
    }
}
