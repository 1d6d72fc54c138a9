//! Converts every DXBC file of the shared corpus to IR and validates the result at the
//! structural level.
//!
//! Prints `converted N, valid M, failed K`, each failure with its file and reason, and the
//! unsupported features by name. Fails on any error except unsupported features that are out
//! of scope ([`OUT_OF_SCOPE`]).

// Tests may unwrap, panic and print (production code may not: see the workspace lints).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::print_stdout,
    clippy::print_stderr
)]
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use dxspv_dxbc::{convert, Shader};
use dxspv_ir::{validate, Level};

const CORPUS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/corpus");

/// Unsupported features that are out of scope: a shader using one may fail to convert.
const OUT_OF_SCOPE: &[&str] = &[];

/// Corpus files that are deliberately malformed (from vkd3d's invalid-shader tests): they
/// must be rejected with an error, not converted.
const EXPECTED_INVALID: &[&str] = &["vkd3d_shader_api_test_invalid_shaders_ps_break_code.dxbc"];

fn dxbc_files(root: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![root.join("dxbc")];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "dxbc") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

#[test]
fn corpus_converts_and_validates() {
    let root = Path::new(CORPUS);
    if !root.is_dir() {
        println!("corpus not found at {}, skipping", root.display());
        return;
    }
    let files = dxbc_files(root);
    assert!(!files.is_empty(), "no .dxbc files under {}", root.display());
    let (mut converted, mut valid) = (0usize, 0usize);
    let mut failures: Vec<String> = Vec::new();
    let mut unsupported: BTreeMap<&'static str, usize> = BTreeMap::new();
    let mut hard_failures = 0usize;
    for path in &files {
        let data = std::fs::read(path).expect("read corpus file");
        let shader = match Shader::parse(&data) {
            Ok(s) => s,
            Err(e) => {
                failures.push(format!("{}: parse: {e}", path.display()));
                hard_failures += 1;
                continue;
            }
        };
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if EXPECTED_INVALID.contains(&name) {
            match convert(&shader) {
                Ok(_) => {
                    hard_failures += 1;
                    failures.push(format!("{}: malformed shader was accepted", path.display()));
                }
                Err(e) => println!("rejected as expected: {name}: {e}"),
            }
            continue;
        }
        let b = match convert(&shader) {
            Ok(b) => b,
            Err(e) => {
                if let Some(f) = e.unsupported_feature() {
                    *unsupported.entry(f).or_default() += 1;
                    if !OUT_OF_SCOPE.contains(&f) {
                        hard_failures += 1;
                    }
                } else {
                    hard_failures += 1;
                }
                failures.push(format!("{}: {e}", path.display()));
                continue;
            }
        };
        converted += 1;
        match validate(&b, Level::Structural) {
            Ok(()) => valid += 1,
            Err(errs) => {
                hard_failures += 1;
                let first: Vec<String> = errs.iter().take(3).map(|e| e.to_string()).collect();
                failures.push(format!(
                    "{}: invalid IR ({} errors): {}",
                    path.display(),
                    errs.len(),
                    first.join("; ")
                ));
            }
        }
    }
    for f in &failures {
        println!("FAIL {f}");
    }
    for (name, n) in &unsupported {
        println!("unsupported: {name}: {n}");
    }
    println!(
        "converted {converted}, valid {valid}, failed {} (of {} files, {} expected invalid)",
        files.len() - valid - EXPECTED_INVALID.len(),
        files.len(),
        EXPECTED_INVALID.len()
    );
    assert_eq!(
        hard_failures, 0,
        "{hard_failures} shaders failed for in-scope reasons"
    );
}

#[test]
fn rdef_names_become_debug_names() {
    let path = Path::new(CORPUS).join(
        "dxbc/vkd3d-proton/d3d12_enhanced_barriers_test_enhanced_barrier_castable_formats_read_dxbc.dxbc",
    );
    let Ok(data) = std::fs::read(&path) else {
        println!("{} not found, skipping", path.display());
        return;
    };
    let shader = Shader::parse(&data).expect("parses");
    let b = convert(&shader).expect("converts");
    let text = dxspv_ir::text::print(&b);
    assert!(
        text.contains("DebugName") && text.contains("\"UAVUint32\""),
        "{text}"
    );
}
