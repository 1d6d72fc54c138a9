//! The `dxspv` binary end to end: exit codes (0 ok, 1 bad input, 2 bad usage, never 101),
//! compiling the shipped example to SPIR-V that `spirv-val` accepts, `--reflect`, `-` for
//! standard input and output, directory trees, the diagnostic format, `-q`/`-v`, the options
//! (`--target-env`, `--generator-id` among them), `--dot` (checked with Graphviz when
//! installed) and `bench`.

// Tests may unwrap, panic and print (production code may not: see the workspace lints).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::print_stdout,
    clippy::print_stderr
)]
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn dxspv(args: &[&str]) -> Output {
    match Command::new(env!("CARGO_BIN_EXE_dxspv"))
        .args(args)
        .output()
    {
        Ok(o) => o,
        Err(e) => panic!("cannot run dxspv: {e}"),
    }
}

fn example(name: &str) -> String {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples"))
        .join(name)
        .display()
        .to_string()
}

fn temp(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("dxspv-cli-test-{}-{name}", std::process::id()))
}

#[test]
fn ir_prints_the_example() {
    let out = dxspv(&["ir", &example("add.ir")]);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("= FAdd f32 %4 %5"), "{text}");
}

#[test]
fn compile_writes_valid_spirv_and_reflection() {
    let spv = temp("double.spv");
    let json = temp("double.json");
    let out = dxspv(&[
        "compile",
        &example("double.ir"),
        "-o",
        &spv.display().to_string(),
        "--reflect",
        &json.display().to_string(),
        "--u-shift",
        "7",
    ]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let words = std::fs::read(&spv).unwrap_or_default();
    assert_eq!(words.get(..4), Some(&0x0723_0203u32.to_le_bytes()[..]));
    let reflection = std::fs::read_to_string(&json).unwrap_or_default();
    assert!(
        reflection.contains("\"register\": 0, \"count\": 1, \"set\": 0, \"binding\": 7, \"descriptor_type\": \"StorageBuffer\", \"name\": \"output\""),
        "{reflection}"
    );
    let words: Vec<u32> = words
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    dxspv_testkit::assert_spirv_valid("double.spv", &words);
    let _ = std::fs::remove_file(spv);
    let _ = std::fs::remove_file(json);
}

#[test]
fn bad_input_exits_1_with_one_line_per_error() {
    let bad = temp("bad.dxbc");
    std::fs::write(&bad, b"DXBC\x00\x01").unwrap_or_default();
    for cmd in ["compile", "disasm", "ir"] {
        let out = dxspv(&[cmd, &bad.display().to_string(), "-o", "/dev/null"]);
        assert_eq!(out.status.code(), Some(1), "{cmd}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("bad.dxbc: error: DXBC: container"),
            "{cmd}: {err}"
        );
    }
    let _ = std::fs::remove_file(bad);
}

#[test]
fn bad_usage_exits_2() {
    assert_eq!(dxspv(&["frobnicate"]).status.code(), Some(2));
    assert_eq!(
        dxspv(&["ir", &example("add.ir"), "--binary"]).status.code(),
        Some(2)
    );
}

#[test]
fn a_checksum_mismatch_is_a_warning_on_stderr_and_still_compiles() {
    let Some(corpus) = dxspv_testkit::Corpus::open() else {
        return;
    };
    let Some(entry) = corpus
        .of_format("dxbc")
        .into_iter()
        .find(|e| e.stage == "cs")
    else {
        panic!("no compute shader in the corpus");
    };
    let mut bytes = corpus.read(entry);
    bytes[4] ^= 0x55;
    let input = temp("bad-checksum.dxbc");
    let spv = temp("bad-checksum.spv");
    std::fs::write(&input, &bytes).expect("temp file");
    let out = dxspv(&[
        "compile",
        &input.display().to_string(),
        "-o",
        &spv.display().to_string(),
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(
        stderr.contains("bad-checksum.dxbc: warning: container checksum mismatch"),
        "{stderr}"
    );
    // The intact shader compiles without a word.
    std::fs::write(&input, corpus.read(entry)).expect("temp file");
    let out = dxspv(&[
        "compile",
        &input.display().to_string(),
        "-o",
        &spv.display().to_string(),
    ]);
    assert_eq!(out.status.code(), Some(0));
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let _ = std::fs::remove_file(&input);
    let _ = std::fs::remove_file(&spv);
}

#[test]
fn bench_prints_the_json_compare_sh_reads_warm_and_cold() {
    let Some(corpus) = dxspv_testkit::Corpus::open() else {
        return;
    };
    let files: Vec<String> = corpus
        .of_format("dxbc")
        .iter()
        .take(3)
        .map(|e| corpus.path(e).display().to_string())
        .collect();
    for mode in [["--rounds", "2"], ["--cold", "--json"]] {
        let mut args = vec!["bench", "--json"];
        args.extend(mode.iter().filter(|a| **a != "--json"));
        args.extend(files.iter().map(String::as_str));
        let out = dxspv(&args);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let doc: serde_json::Value =
            serde_json::from_slice(&out.stdout).expect("bench --json prints one JSON document");
        assert_eq!(doc["tool"], "dxspv");
        let entries = doc["files"].as_array().expect("files");
        assert_eq!(entries.len(), 3);
        let key = if mode[0] == "--cold" {
            "cold_s"
        } else {
            "warm_s"
        };
        for (e, path) in entries.iter().zip(&files) {
            assert_eq!(e["path"], path.as_str(), "paths come back as given");
            assert_eq!(e["ok"], true, "{e}");
            let t = e[key].as_f64().expect("a time");
            assert!(t > 0.0 && t < 1.0, "{e}");
            assert!(e["bytes"].as_u64().unwrap_or(0) > 20, "{e}");
        }
    }
    // The help mentions both flags compare.sh looks for.
    let help = String::from_utf8_lossy(&dxspv(&["bench", "--help"]).stdout).into_owned();
    assert!(help.contains("--json") && help.contains("--cold"), "{help}");
}

/// Runs dxspv with `stdin` on its standard input.
fn dxspv_with_stdin(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_dxspv"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn dxspv");
    if let Some(mut input) = child.stdin.take() {
        // dxspv may exit before reading (a usage error): a broken pipe is fine.
        let _ = input.write_all(stdin);
    }
    child.wait_with_output().expect("dxspv output")
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn dash_is_standard_input_and_output() {
    let text = std::fs::read(example("double.ir")).expect("example");
    let out = dxspv_with_stdin(&["compile", "-", "-o", "-"], &text);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(out.stdout.get(..4), Some(&0x0723_0203u32.to_le_bytes()[..]));
    // Reflection to standard output, SPIR-V to a file.
    let spv = temp("stdin.spv");
    let out = dxspv_with_stdin(
        &[
            "compile",
            "-",
            "-o",
            &spv.display().to_string(),
            "--reflect",
            "-",
        ],
        &text,
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(String::from_utf8_lossy(&out.stdout).contains("\"resources\""));
    // Both on standard output is a usage error.
    let out = dxspv_with_stdin(&["compile", "-", "-o", "-", "--reflect", "-"], &text);
    assert_eq!(out.status.code(), Some(2));
    // IR printed from standard input.
    let out = dxspv_with_stdin(&["ir", "-"], &text);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(String::from_utf8_lossy(&out.stdout).contains("EntryPoint"));
    // Errors name standard input.
    let out = dxspv_with_stdin(&["compile", "-", "-o", "-"], b"\xff\xfe\x00\x01garbage");
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).starts_with("<stdin>: error: not a shader: binary data"),
        "{}",
        stderr(&out)
    );
    let _ = std::fs::remove_file(spv);
}

/// A tree of inputs: two shaders whose outputs would collide, one in a subfolder, a README.
fn input_tree(name: &str) -> PathBuf {
    let dir = temp(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("sub")).expect("mkdir");
    std::fs::copy(example("double.ir"), dir.join("a.ir")).expect("copy");
    std::fs::copy(example("add.ir"), dir.join("sub/b.ir")).expect("copy");
    std::fs::write(dir.join("README"), "not a shader").expect("write");
    std::fs::write(dir.join("old.spv"), 0x0723_0203u32.to_le_bytes()).expect("write");
    dir
}

#[test]
fn directories_mirror_their_tree_and_skip_what_is_no_shader() {
    let dir = input_tree("tree");
    std::fs::copy(example("add.ir"), dir.join("a.txt.ir")).expect("copy");
    // a.ir and a.dxir-free names: add a second "a" input of another extension.
    std::fs::write(
        dir.join("a.shader.ir"),
        std::fs::read(example("add.ir")).expect("read"),
    )
    .expect("write");
    let out_dir = temp("tree-out");
    let _ = std::fs::remove_dir_all(&out_dir);
    let out = dxspv(&[
        "compile",
        &dir.display().to_string(),
        "-o",
        &out_dir.display().to_string(),
        "--reflect",
        "-v",
    ]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(0), "{err}");
    for f in ["a.spv", "a.json", "sub/b.spv", "sub/b.json"] {
        assert!(out_dir.join(f).is_file(), "{f} missing; {err}");
    }
    assert!(err.contains("README: note: skipped"), "{err}");
    assert!(
        err.contains("old.spv: note: skipped: a SPIR-V module"),
        "{err}"
    );
    // Without -o, with -o naming a file: usage errors, nothing written.
    let out = dxspv(&["compile", &dir.display().to_string()]);
    assert_eq!(out.status.code(), Some(2));
    let out = dxspv(&["compile", &dir.display().to_string(), "-o", "x.spv"]);
    assert_eq!(out.status.code(), Some(2));
    // An empty tree is bad input, not a silent success.
    let empty = temp("empty-tree");
    let _ = std::fs::create_dir_all(&empty);
    let out = dxspv(&[
        "compile",
        &empty.display().to_string(),
        "-o",
        &out_dir.display().to_string(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("error: no shader found"),
        "{}",
        stderr(&out)
    );
    let _ = std::fs::remove_dir_all(dir);
    let _ = std::fs::remove_dir_all(out_dir);
    let _ = std::fs::remove_dir_all(empty);
}

#[test]
fn two_inputs_never_write_one_output() {
    let dir = temp("collide");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("mkdir");
    let Some(corpus) = dxspv_testkit::Corpus::open() else {
        return;
    };
    let entry = corpus.of_format("dxbc")[0];
    std::fs::write(dir.join("a.dxbc"), corpus.read(entry)).expect("write");
    std::fs::copy(example("double.ir"), dir.join("a.ir")).expect("copy");
    let out_dir = temp("collide-out");
    let _ = std::fs::remove_dir_all(&out_dir);
    let out = dxspv(&[
        "compile",
        &dir.display().to_string(),
        "-o",
        &out_dir.display().to_string(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(out_dir.join("a.dxbc.spv").is_file() && out_dir.join("a.ir.spv").is_file());
    assert!(!out_dir.join("a.spv").exists());
    let _ = std::fs::remove_dir_all(dir);
    let _ = std::fs::remove_dir_all(out_dir);
}

#[test]
fn missing_files_are_bad_input_and_ir_says_what_the_bytes_are() {
    let out = dxspv(&["compile", "/nonexistent/shader.dxbc"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).starts_with("/nonexistent/shader.dxbc: error: cannot read"),
        "{}",
        stderr(&out)
    );
    let spv = temp("not-ir.spv");
    std::fs::write(&spv, 0x0723_0203u32.to_le_bytes()).expect("write");
    let out = dxspv(&["ir", &spv.display().to_string()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("error: not IR text nor a shader: a SPIR-V module"),
        "{}",
        stderr(&out)
    );
    let _ = std::fs::remove_file(spv);
}

#[test]
fn quiet_keeps_only_errors_and_verbose_adds_notes() {
    let dir = input_tree("quiet");
    let out_dir = temp("quiet-out");
    let args = |flag: &'static str| {
        vec![
            "compile".to_string(),
            dir.display().to_string(),
            "-o".into(),
            out_dir.display().to_string(),
            flag.into(),
        ]
    };
    let run = |flag| {
        let a = args(flag);
        dxspv(&a.iter().map(String::as_str).collect::<Vec<_>>())
    };
    let quiet = run("-q");
    assert_eq!(quiet.status.code(), Some(0));
    assert!(quiet.stderr.is_empty(), "{}", stderr(&quiet));
    let verbose = run("-v");
    assert!(
        stderr(&verbose).contains("note: compiled to"),
        "{}",
        stderr(&verbose)
    );
    let _ = std::fs::remove_dir_all(dir);
    let _ = std::fs::remove_dir_all(out_dir);
}

#[test]
fn library_options_are_reachable() {
    let spv = temp("options.spv");
    let out = dxspv(&[
        "compile",
        &example("double.ir"),
        "-o",
        &spv.display().to_string(),
        "--entry-point",
        "cs_main",
        "--no-debug-names",
        "--no-float-controls",
        "--min-precision",
        "native16",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let words: Vec<u32> = std::fs::read(&spv)
        .expect("spv")
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    if let Some(text) = dxspv_testkit::spirv_dis(&words) {
        assert!(text.contains("\"cs_main\""), "{text}");
        assert!(!text.contains("OpName"), "{text}");
    }
    let _ = std::fs::remove_file(spv);
}

#[test]
fn dot_draws_the_cfg_for_graphviz() {
    let Some(corpus) = dxspv_testkit::Corpus::open() else {
        return;
    };
    // A shader with a loop holding an if: a loop cluster, a selection cluster, a back edge.
    let shader = corpus
        .root
        .join("dxbc/vkd3d-proton/d3d12_shaders_test_shader_instructions_ps_breakc_z_code.dxbc");
    let out = dxspv(&["ir", &shader.display().to_string(), "--dot"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(text.starts_with("digraph"), "{text}");
    assert!(text.contains("subgraph cluster_f0"), "{text}");
    assert!(text.contains("label=\"loop: merge %"), "{text}");
    assert!(text.contains("label=\"selection: merge %"), "{text}");
    assert!(
        text.contains("color=red, constraint=false, label=\"back\""),
        "{text}"
    );
    let dot = temp("cfg.dot");
    let out = dxspv(&[
        "compile",
        &shader.display().to_string(),
        "-o",
        "/dev/null",
        "--dot",
        &dot.display().to_string(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(std::fs::read_to_string(&dot)
        .unwrap_or_default()
        .starts_with("digraph"));
    let _ = std::fs::remove_file(dot);
    if dxspv_testkit::installed("dot") {
        let mut child = Command::new("dot")
            .arg("-Tsvg")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("dot");
        child
            .stdin
            .take()
            .expect("stdin")
            .write_all(text.as_bytes())
            .expect("write");
        let res = child.wait_with_output().expect("dot output");
        assert!(
            res.status.success(),
            "{}",
            String::from_utf8_lossy(&res.stderr)
        );
        assert!(String::from_utf8_lossy(&res.stdout).contains("<svg"));
    } else {
        println!("graphviz not installed: the dot text was not rendered");
    }
}

/// The words of a `.spv` file.
fn read_words(path: &Path) -> Vec<u32> {
    std::fs::read(path)
        .expect("spv")
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

#[test]
fn target_env_picks_the_spirv_version_and_spirv_val_accepts_it() {
    let spv = temp("target.spv");
    for (env, version, val_env) in [
        ("vulkan1.0", 0x0001_0000, "vulkan1.0"),
        ("vulkan1.1", 0x0001_0300, "vulkan1.1"),
        ("vulkan1.2", 0x0001_0500, "vulkan1.2"),
        ("vulkan1.3", 0x0001_0600, "vulkan1.3"),
        ("spirv1.4", 0x0001_0400, "spv1.4"),
        ("spv1.2", 0x0001_0200, "spv1.2"),
    ] {
        let out = dxspv(&[
            "compile",
            &example("double.ir"),
            "-o",
            &spv.display().to_string(),
            "--target-env",
            env,
        ]);
        assert_eq!(out.status.code(), Some(0), "{env}: {}", stderr(&out));
        let words = read_words(&spv);
        assert_eq!(words.get(1), Some(&version), "{env}");
        if let Some(Err(msg)) = dxspv_testkit::spirv_val_with(&words, &["--target-env", val_env]) {
            panic!("{env}: {msg}");
        }
    }
    // The default is vulkan1.3; an unknown name is a usage error naming the choices.
    let out = dxspv(&[
        "compile",
        &example("double.ir"),
        "-o",
        &spv.display().to_string(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(read_words(&spv).get(1), Some(&0x0001_0600));
    let out = dxspv(&[
        "compile",
        &example("double.ir"),
        "-o",
        "/dev/null",
        "--target-env",
        "vulkan1.4",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("unknown target environment 'vulkan1.4'"),
        "{}",
        stderr(&out)
    );
    let _ = std::fs::remove_file(spv);
}

#[test]
fn generator_id_sets_the_header_word() {
    let spv = temp("generator.spv");
    for (arg, word) in [("0x00ab0003", 0x00ab_0003u32), ("65541", 65541), ("0", 0)] {
        let out = dxspv(&[
            "compile",
            &example("double.ir"),
            "-o",
            &spv.display().to_string(),
            "--generator-id",
            arg,
        ]);
        assert_eq!(out.status.code(), Some(0), "{arg}: {}", stderr(&out));
        assert_eq!(read_words(&spv).get(2), Some(&word), "{arg}");
    }
    let out = dxspv(&[
        "compile",
        &example("double.ir"),
        "-o",
        &spv.display().to_string(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(read_words(&spv).get(2), Some(&0));
    for bad in ["0x100000000", "4294967296", "-1", "ten"] {
        let arg = format!("--generator-id={bad}");
        let out = dxspv(&["compile", &example("double.ir"), "-o", "/dev/null", &arg]);
        assert_eq!(out.status.code(), Some(2), "{bad}");
        assert!(
            stderr(&out).contains("is not a 32-bit number"),
            "{bad}: {}",
            stderr(&out)
        );
    }
    let _ = std::fs::remove_file(spv);
}

#[test]
fn backend_refusals_name_d3d_things_and_ir_text_keeps_its_ids() {
    // A DXIL wave shader at vulkan1.0 (no subgroups): the error names the system value the
    // shader reads (by its intrinsic), as `file: error: what`, with the IR id only as a hint.
    if let Some(corpus) = dxspv_testkit::Corpus::open() {
        let path = "dxil/vkd3d-proton/sm_advanced_cs_wave_match_code_dxil.dxil";
        let Some(entry) = corpus.entries.iter().find(|e| e.path == path) else {
            panic!("{path}: not in the corpus manifest");
        };
        let input = temp("wave.dxil");
        std::fs::write(&input, corpus.read(entry)).expect("temp file");
        let input = input.display().to_string();
        let out = dxspv(&[
            "compile",
            &input,
            "-o",
            "/dev/null",
            "--target-env",
            "vulkan1.0",
        ]);
        assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
        assert_eq!(
            stderr(&out),
            format!(
                "{input}: error: SPIR-V: `WaveGetLaneIndex()` (%14): unsupported: WaveLaneIndex on \
                 vulkan1.0 (waves need SPIR-V 1.3, vulkan1.1)\n"
            )
        );
        let _ = std::fs::remove_file(input);
    }
    // The same refusal for IR text keeps the ids the text uses.
    let ir = temp("wave.ir");
    std::fs::write(
        &ir,
        "%1 = EntryPoint %8 Compute\n%3 = SetCsWorkgroupSize %1 16 1 1\n\
         %6 = DclUav u32[1][] %1 0 0 1 BufferStructured None\n%7 = DebugName %6 \"u0\"\n\
         %11 = Constant u32 0\n%8 = Function void\n%10 = Label None\n\
         %12 = DescriptorLoad uav %6 %11\n%17 = CompositeConstruct vec2<u32> %11 %11\n\
         %19 = WaveReadLaneFirst u32 %11\n%22 = BufferStore %12 %17 %19 4\n\
         %23 = Return void null\n%24 = FunctionEnd\n",
    )
    .expect("temp file");
    let ir = ir.display().to_string();
    let out = dxspv(&[
        "compile",
        &ir,
        "-o",
        "/dev/null",
        "--target-env",
        "vulkan1.0",
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert_eq!(
        stderr(&out),
        format!(
            "{ir}: error: SPIR-V: %19 WaveReadLaneFirst: unsupported: wave and quad operations \
             on vulkan1.0 (they need SPIR-V 1.3, vulkan1.1)\n"
        )
    );
    let _ = std::fs::remove_file(ir);
}
