//! `include/dxspv.h` is what cbindgen makes of the source today: the test regenerates it and
//! fails when the checked-in file differs (`DXSPV_BLESS=1` rewrites it instead), then checks
//! that C and C++ compilers accept it as it is, warnings as errors.

// Tests may unwrap, panic and print (production code may not: see the workspace lints).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::print_stdout,
    clippy::print_stderr
)]
use std::path::{Path, PathBuf};
use std::process::Command;

fn crate_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn generate() -> String {
    let dir = crate_dir();
    let config = cbindgen::Config::from_file(dir.join("cbindgen.toml")).expect("cbindgen.toml");
    let bindings = cbindgen::Builder::new()
        .with_crate(&dir)
        .with_config(config)
        .generate()
        .expect("cbindgen could not read the crate");
    let mut out = Vec::new();
    bindings.write(&mut out);
    String::from_utf8(out).expect("cbindgen wrote UTF-8")
}

/// One test, so the compilers never read the header while `DXSPV_BLESS=1` writes it.
#[test]
fn checked_in_header_is_up_to_date_and_compiles() {
    header_is_up_to_date();
    c_and_cpp_compilers_accept_the_header();
}

fn header_is_up_to_date() {
    let path = crate_dir().join("include/dxspv.h");
    let fresh = generate();
    if std::env::var_os("DXSPV_BLESS").is_some() {
        std::fs::write(&path, &fresh).unwrap();
        println!("wrote {}", path.display());
        return;
    }
    let checked_in = std::fs::read_to_string(&path).unwrap_or_default();
    if checked_in != fresh {
        let line = checked_in
            .lines()
            .zip(fresh.lines())
            .position(|(a, b)| a != b)
            .map_or(checked_in.lines().count().min(fresh.lines().count()), |i| i);
        panic!(
            "{} is stale (first difference at line {}: {:?} should be {:?}); regenerate it with \
             `DXSPV_BLESS=1 cargo test -p dxspv-capi --test header`",
            path.display(),
            line + 1,
            checked_in.lines().nth(line).unwrap_or("<end>"),
            fresh.lines().nth(line).unwrap_or("<end>")
        );
    }
}

/// Compiles a translation unit that includes the header with `compiler` and `args`.
fn compiles(compiler: &str, args: &[&str], source: &str, ext: &str) {
    let dir = std::env::temp_dir().join(format!("dxspv-header-{}-{compiler}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join(format!("use.{ext}"));
    std::fs::write(&file, source).unwrap();
    let include = crate_dir().join("include");
    let out = Command::new(compiler)
        .args(args)
        .arg("-I")
        .arg(&include)
        .arg("-c")
        .arg(&file)
        .arg("-o")
        .arg(dir.join("use.o"))
        .output();
    let _ = std::fs::remove_dir_all(&dir);
    match out {
        Err(e) => println!("{compiler} not available ({e}): skipped"),
        Ok(out) => assert!(
            out.status.success(),
            "{compiler} {args:?} refuses the header:\n{}",
            String::from_utf8_lossy(&out.stderr)
        ),
    }
}

const USE_EVERY_TYPE: &str = r#"
#include "dxspv.h"
int use(void);
int use(void) {
    dxspv_options *o = dxspv_options_create();
    dxspv_result *r = NULL;
    dxspv_status s = dxspv_compile(o, NULL, 0, &r);
    const dxspv_reflection *refl = dxspv_result_reflection(r);
    const dxspv_stage_times *t = dxspv_result_times(r);
    size_t n = refl ? refl->resource_count : 0;
    dxspv_result_free(r);
    dxspv_options_free(o);
    return (int)s + (int)n + (t ? 1 : 0) + (DXSPV_ABI_VERSION == dxspv_abi_version());
}
"#;

fn c_and_cpp_compilers_accept_the_header() {
    let strict = ["-Wall", "-Wextra", "-Wpedantic", "-Werror"];
    let c: Vec<&str> = ["-std=c99"].iter().chain(&strict).copied().collect();
    compiles("cc", &c, USE_EVERY_TYPE, "c");
    let cpp: Vec<&str> = ["-std=c++11"].iter().chain(&strict).copied().collect();
    compiles("g++", &cpp, USE_EVERY_TYPE, "cpp");
    assert!(Path::new(&crate_dir().join("include/dxspv.h")).exists());
}
