//! Every corpus DXBC shader through parse → convert → pass pipeline → SPIR-V emission, each
//! module checked by `spirv-val --target-env vulkan1.3` (default layout rules). Prints
//! `compiled N, valid M, failed K` and every failure with its file and first error line, and
//! asserts the number of valid modules does not drop below [`VALID_THRESHOLD`].

use dxspv_ir::passes::options::Options as PassOptions;
use dxspv_ir::passes::pipeline::run_pipeline;
use dxspv_spirv::{emit, SpirvOptions};
use std::path::{Path, PathBuf};
use std::process::Command;

/// Modules that must pass `spirv-val`; raise it as the backend improves.
const VALID_THRESHOLD: usize = 764;

fn dxbc_files() -> Option<Vec<PathBuf>> {
    let root = Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../../shared/corpus/dxbc"
    ));
    if !root.exists() {
        println!("corpus not found at {}, skipping", root.display());
        return None;
    }
    let mut files = Vec::new();
    for src in std::fs::read_dir(root).ok()?.flatten() {
        for f in std::fs::read_dir(src.path()).ok()?.flatten() {
            if f.path().extension().is_some_and(|e| e == "dxbc") {
                files.push(f.path());
            }
        }
    }
    files.sort();
    Some(files)
}

fn spirv_val_available() -> bool {
    Command::new("spirv-val").arg("--version").output().is_ok()
}

#[test]
fn corpus_compiles_to_valid_spirv() {
    let Some(files) = dxbc_files() else { return };
    let validate = spirv_val_available();
    if !validate {
        println!(
            "spirv-val not installed: SPIR-V validation skipped (apt-get install spirv-tools)"
        );
    }
    let dir = std::env::temp_dir().join(format!("dxspv-spirv-corpus-{}", std::process::id()));
    let _ = std::fs::create_dir_all(&dir);
    let opts = SpirvOptions::default();
    let (mut compiled, mut valid) = (0usize, 0usize);
    let mut failures: Vec<String> = Vec::new();
    let mut skipped = 0usize;
    for path in &files {
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("?");
        let Ok(bytes) = std::fs::read(path) else {
            continue;
        };
        let Ok(shader) = dxspv_dxbc::Shader::parse(&bytes) else {
            skipped += 1;
            continue;
        };
        let Ok(mut b) = dxspv_dxbc::convert(&shader) else {
            skipped += 1;
            continue;
        };
        if run_pipeline(&mut b, &PassOptions::default()).is_err() {
            skipped += 1;
            continue;
        }
        let words = match emit(&b, &opts) {
            Ok(w) => w,
            Err(e) => {
                failures.push(format!("{name}: emit: {e}"));
                continue;
            }
        };
        compiled += 1;
        if !validate {
            continue;
        }
        let file = dir.join(format!("{name}.spv"));
        let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        if std::fs::write(&file, bytes).is_err() {
            failures.push(format!("{name}: could not write {}", file.display()));
            continue;
        }
        match Command::new("spirv-val")
            .args(["--target-env", "vulkan1.3"])
            .arg(&file)
            .output()
        {
            Ok(out) if out.status.success() => valid += 1,
            Ok(out) => {
                let text = String::from_utf8_lossy(&out.stderr);
                let first = text.lines().next().unwrap_or("(no message)").to_string();
                failures.push(format!("{name}: spirv-val: {first}"));
            }
            Err(e) => failures.push(format!("{name}: spirv-val did not run: {e}")),
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    for f in &failures {
        println!("FAIL {f}");
    }
    println!(
        "compiled {compiled}, valid {valid}, failed {} (not convertible: {skipped})",
        failures.len()
    );
    if validate {
        assert!(
            valid >= VALID_THRESHOLD,
            "only {valid} valid modules, expected at least {VALID_THRESHOLD}"
        );
    }
}
