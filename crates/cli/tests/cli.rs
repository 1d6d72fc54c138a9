//! The `dxspv` binary end to end: exit codes (0 ok, 1 bad input, 2 bad usage, never 101),
//! compiling the shipped example to SPIR-V that `spirv-val` accepts, and `--reflect`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

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
    match Command::new("spirv-val")
        .args(["--target-env", "vulkan1.3"])
        .arg(&spv)
        .output()
    {
        Ok(v) => assert!(v.status.success(), "{}", String::from_utf8_lossy(&v.stderr)),
        Err(_) => println!("spirv-val not installed: validation skipped"),
    }
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
        assert!(err.contains("bad.dxbc: DXBC: container"), "{cmd}: {err}");
    }
    let _ = std::fs::remove_file(bad);
}

#[test]
fn bad_usage_exits_2() {
    assert_eq!(dxspv(&["frobnicate"]).status.code(), Some(2));
    assert_eq!(
        dxspv(&["compile", "/nonexistent/shader.dxbc"])
            .status
            .code(),
        Some(2)
    );
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
