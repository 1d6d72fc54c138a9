//! The flags for state Direct3D keeps outside the shader, on corpus shaders: `--d3d9-*`,
//! `--class-instance`, `--stream-output` / `--so-stride` / `--rasterized-stream`, and the
//! pass switches `--no-optimisations`, `--no-legacy-mul-zero`. Each run's module must be the
//! bytes `dxspv::compile` gives with the same options set in Rust, and `spirv-val` must accept
//! it; state that does not fit the shader is bad input (exit 1), a malformed value bad usage
//! (exit 2). Without the corpus each test says so and returns.

// Tests may unwrap, panic and print (production code may not: see the workspace lints).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::print_stdout,
    clippy::print_stderr
)]
use dxspv::dxbc::{InstanceData, InterfaceBinding};
use dxspv::ir::passes::stream_output::{StreamOutput, StreamOutputEntry};
use dxspv_testkit::Corpus;
use std::path::PathBuf;
use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};

fn dxspv(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_dxspv"))
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("cannot run dxspv: {e}"))
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// A file name no other call in this process uses (the tests run in parallel).
fn temp(name: &str) -> PathBuf {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    std::env::temp_dir().join(format!(
        "dxspv-state-test-{}-{n}-{name}",
        std::process::id()
    ))
}

/// Compiles `shader` with `flags` and checks the module against `dxspv::compile` with `opts`
/// and `spirv-val`; returns the words.
#[track_caller]
fn compile_matches(shader: &PathBuf, flags: &[&str], opts: &dxspv::Options) -> Vec<u32> {
    let spv = temp("out.spv");
    let spv_arg = spv.display().to_string();
    let shader_arg = shader.display().to_string();
    let mut args = vec!["compile", shader_arg.as_str(), "-o", spv_arg.as_str()];
    args.extend_from_slice(flags);
    let out = dxspv(&args);
    assert_eq!(out.status.code(), Some(0), "{flags:?}: {}", stderr(&out));
    let bytes = std::fs::read(&spv).unwrap();
    let _ = std::fs::remove_file(&spv);
    let expected = dxspv::compile(&std::fs::read(shader).unwrap(), opts).unwrap();
    let words: Vec<u32> = bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    assert!(
        words == expected.spirv,
        "{flags:?}: the tool wrote another module than dxspv::compile with the same options"
    );
    dxspv_testkit::assert_spirv_valid(&format!("{shader_arg} {flags:?}"), &words);
    words
}

/// The first corpus shader of `format` for which `pick` holds on its default compile.
fn corpus_shader(
    format: &str,
    pick: impl Fn(&dxspv_testkit::Entry, &dxspv::Output) -> bool,
) -> Option<PathBuf> {
    let Some(corpus) = Corpus::open() else {
        println!("no corpus: skipped");
        return None;
    };
    let found = corpus.of_format(format).into_iter().find(|e| {
        dxspv::compile(&corpus.read(e), &dxspv::Options::default()).is_ok_and(|o| pick(e, &o))
    });
    assert!(
        found.is_some(),
        "the corpus has a {format} shader to test with"
    );
    found.map(|e| corpus.path(e))
}

#[test]
fn d3d9_flags_set_the_direct3d9_state() {
    // A ps_1_x shader sampling s0, whose texture type only the options give.
    let Some(shader) = corpus_shader("d3d9", |e, o| {
        e.stage == "ps"
            && e.model.starts_with("1_")
            && o.reflection
                .resources
                .iter()
                .any(|r| r.register == 0 && r.image.is_some())
    }) else {
        return;
    };
    let mut opts = dxspv::Options::default();
    opts.d3d9.sampler_types[0] = dxspv::sm3::TextureType::Cube;
    opts.d3d9.flat_shading = true;
    opts.d3d9.float_emulation = dxspv::sm3::FloatEmulation::Fast;
    opts.d3d9.depth_compare_samplers = 0b1010;
    opts.d3d9.software_vertex_processing = true;
    opts.d3d9.dynamic_state = dxspv::sm3::DynamicState::ALPHA_TEST | dxspv::sm3::DynamicState::FOG;
    let flags = [
        "--d3d9-sampler-type",
        "0=cube",
        "--d3d9-flat-shading",
        "--d3d9-float-emulation",
        "fast",
        "--d3d9-depth-compare",
        "1",
        "--d3d9-depth-compare",
        "3",
        "--d3d9-software-vertex-processing",
        "--d3d9-dynamic-state",
        "alpha-test",
        "--d3d9-dynamic-state",
        "fog",
    ];
    let cube = compile_matches(&shader, &flags, &opts);
    let default = compile_matches(&shader, &[], &dxspv::Options::default());
    assert_ne!(cube, default, "the state changes the module");
    let reflect = dxspv(&[
        "compile",
        &shader.display().to_string(),
        "-o",
        "/dev/null",
        "--reflect",
        "-",
        "--d3d9-sampler-type",
        "0=cube",
    ]);
    let json = String::from_utf8_lossy(&reflect.stdout);
    assert!(json.contains("\"dim\": \"Cube\""), "{json}");

    for bad in [
        ["--d3d9-sampler-type", "16=cube"],
        ["--d3d9-sampler-type", "0=rect"],
        ["--d3d9-depth-compare", "16"],
        ["--d3d9-float-emulation", "loose"],
        ["--d3d9-dynamic-state", "stencil"],
    ] {
        let mut args = vec!["compile", "x.d3d9", "-o", "/dev/null"];
        args.extend(bad);
        let out = dxspv(&args);
        assert_eq!(out.status.code(), Some(2), "{bad:?}: {}", stderr(&out));
        assert!(stderr(&out).contains(bad[0]), "{bad:?}: {}", stderr(&out));
    }
}

/// Wine's reflection blob: `dcl_interface fp0[1][0] = {ft0}` and a member read.
const CLASS_LINKAGE_SHADER: &str =
    "dxbc/wine/d3dcompiler_43_reflection_test_reflection_constant_buffer_blob.dxbc";

#[test]
fn class_instances_bind_the_interface_slots() {
    let Some(corpus) = Corpus::open() else {
        println!("no corpus: skipped");
        return;
    };
    let Some(entry) = corpus
        .entries
        .iter()
        .find(|e| e.path == CLASS_LINKAGE_SHADER)
    else {
        println!("{CLASS_LINKAGE_SHADER} is not in the corpus: skipped");
        return;
    };
    let shader = corpus.path(entry);
    let binding = InterfaceBinding {
        function_table: Some(0),
        instance: InstanceData {
            constant_buffer: 2,
            constant_vector_offset: 1,
            texture_offset: 0,
            sampler_offset: 0,
        },
    };
    let opts = dxspv::Options {
        class_linkage: vec![binding],
        ..Default::default()
    };
    let bound = compile_matches(&shader, &["--class-instance", "ft=0,cb=2,offset=1"], &opts);
    let default = compile_matches(
        &shader,
        &["--class-instance", "default"],
        &Default::default(),
    );
    assert_ne!(bound, default, "the instance data reaches the member read");

    // Two instances for a shader with one slot: the compile refuses (bad input).
    let path = shader.display().to_string();
    let out = dxspv(&[
        "compile",
        &path,
        "-o",
        "/dev/null",
        "--class-instance",
        "default",
        "--class-instance",
        "cb=1",
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stderr(&out).contains(": error: "), "{}", stderr(&out));
    // A constant buffer past cb13: bad usage.
    let out = dxspv(&[
        "compile",
        &path,
        "-o",
        "/dev/null",
        "--class-instance",
        "cb=14",
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("--class-instance"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn stream_output_declares_transform_feedback() {
    // A vertex shader writing SV_Position and at least one other output.
    let Some(shader) = corpus_shader("dxbc", |e, o| {
        let semantic = |name: &str| {
            o.reflection
                .outputs
                .iter()
                .find(|v| v.semantic.as_ref().is_some_and(|(n, _)| n == name))
                .map(|v| v.components)
        };
        e.stage == "vs" && semantic("SV_Position") == Some(4) && o.reflection.outputs.len() >= 2
    }) else {
        return;
    };
    let opts = dxspv::Options {
        stream_output: Some(StreamOutput {
            entries: vec![
                StreamOutputEntry {
                    stream: 0,
                    semantic: Some("SV_Position".into()),
                    semantic_index: 0,
                    start_component: 0,
                    component_count: 4,
                    slot: 0,
                },
                StreamOutputEntry {
                    stream: 0,
                    semantic: None,
                    semantic_index: 0,
                    start_component: 0,
                    component_count: 2,
                    slot: 1,
                },
                StreamOutputEntry {
                    stream: 0,
                    semantic: Some("SV_Position".into()),
                    semantic_index: 0,
                    start_component: 1,
                    component_count: 2,
                    slot: 1,
                },
            ],
            // Slot 0: the computed 16 bytes; slot 1: as given.
            strides: vec![16, 32],
            rasterized_stream: None,
        }),
        ..Default::default()
    };
    let words = compile_matches(
        &shader,
        &[
            "--stream-output",
            "SV_Position.xyzw",
            "--stream-output",
            "_.xy:1",
            "--stream-output",
            "0:SV_Position.yz:1",
            "--so-stride",
            "1=32",
            "--rasterized-stream",
            "none",
        ],
        &opts,
    );
    if let Some(text) = dxspv_testkit::spirv_dis(&words) {
        assert!(text.contains("XfbBuffer 1"), "{text}");
        assert!(text.contains("XfbStride 32"), "{text}");
    }

    let path = shader.display().to_string();
    // An output the shader does not write: bad input, naming it.
    let out = dxspv(&[
        "compile",
        &path,
        "-o",
        "/dev/null",
        "--stream-output",
        "NOSUCH3.x",
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stderr(&out).contains("NOSUCH"), "{}", stderr(&out));
    // Malformed entries and a stride without a declaration: bad usage.
    for bad in [
        vec!["--stream-output", "4:SV_Position"],
        vec!["--stream-output", "SV_Position.xz"],
        vec!["--so-stride", "0=16"],
        vec!["--stream-output", "A", "--rasterized-stream", "4"],
    ] {
        let mut args = vec!["compile", path.as_str(), "-o", "/dev/null"];
        args.extend(bad.iter().copied());
        let out = dxspv(&args);
        assert_eq!(out.status.code(), Some(2), "{bad:?}: {}", stderr(&out));
    }
}

#[test]
fn pass_switches_reach_the_pipeline() {
    let Some(shader) = corpus_shader("dxbc", |e, _| e.stage == "ps") else {
        return;
    };
    let mut opts = dxspv::Options {
        passes: dxspv::ir::passes::options::Options::no_optimisations(),
        ..Default::default()
    };
    opts.passes.preserve_legacy_mul_zero = false;
    opts.passes.validate_each_pass = true;
    compile_matches(
        &shader,
        &[
            "--no-optimisations",
            "--no-legacy-mul-zero",
            "--validate-each-pass",
        ],
        &opts,
    );
}
