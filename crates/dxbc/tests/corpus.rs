//! Decodes and disassembles every DXBC file of the shared corpus, and
//! compares a few disassemblies with checked-in snapshots.

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

use dxspv_dxbc::{disassemble, Opcode, Shader};

const CORPUS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/corpus");

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
fn corpus_decodes_and_disassembles() {
    let root = Path::new(CORPUS);
    if !root.is_dir() {
        println!("corpus not found at {}, skipping", root.display());
        return;
    }
    let files = dxbc_files(root);
    assert!(!files.is_empty(), "no .dxbc files under {}", root.display());
    let mut bytes_total = 0usize;
    let mut instructions = 0usize;
    let mut per_stage: BTreeMap<String, usize> = BTreeMap::new();
    let mut per_opcode: BTreeMap<Opcode, usize> = BTreeMap::new();
    let mut errors = Vec::new();
    let mut checksum_warnings = 0;
    for path in &files {
        let data = std::fs::read(path).expect("read corpus file");
        bytes_total += data.len();
        let shader = match Shader::parse(&data) {
            Ok(s) => s,
            Err(e) => {
                errors.push(format!("{}: {e}", path.display()));
                continue;
            }
        };
        checksum_warnings += shader.warnings.len();
        let v = shader.program.version;
        *per_stage
            .entry(format!("{}_{}_{}", v.stage.prefix(), v.major, v.minor))
            .or_default() += 1;
        for inst in shader.program.instructions() {
            match inst {
                Ok(i) => {
                    instructions += 1;
                    *per_opcode.entry(i.opcode).or_default() += 1;
                }
                Err(e) => {
                    errors.push(format!("{}: {e}", path.display()));
                    break;
                }
            }
        }
        if let Err(e) = disassemble(&data) {
            errors.push(format!("{} (disasm): {e}", path.display()));
        }
    }
    println!(
        "corpus: {} files, {} bytes, {} instructions, {} errors, {} warnings",
        files.len(),
        bytes_total,
        instructions,
        errors.len(),
        checksum_warnings
    );
    println!("per stage/model: {per_stage:?}");
    println!("distinct opcodes: {}", per_opcode.len());
    for e in errors.iter().take(40) {
        println!("ERROR {e}");
    }
    assert!(errors.is_empty(), "{} corpus files failed", errors.len());
    assert_eq!(checksum_warnings, 0, "corpus checksums must all verify");
}

/// One small corpus file per stage; the disassembly is compared with
/// `tests/snapshots/<name>.txt` (regenerate with `UPDATE_SNAPSHOTS=1`).
const SNAPSHOTS: &[(&str, &str)] = &[
    (
        "vs",
        "wine/d3d10core_test_cb_relative_addressing_vs_code.dxbc",
    ),
    (
        "ps",
        "wine/d3dcompiler_43_reflection_test_reflection_desc_ps_blob.dxbc",
    ),
    ("gs", "vkd3d-proton/pso_gs_topology_triangle_code_dxbc.dxbc"),
    (
        "hs",
        "vkd3d-proton/tessellation_dcl_index_range_hs_code_dxbc.dxbc",
    ),
    (
        "ds",
        "vkd3d/d3d12_test_hull_shader_relative_addressing_ds_code.dxbc",
    ),
    (
        "cs",
        "vkd3d-proton/descriptors_uav_counters_null_behavior_code_dxbc.dxbc",
    ),
];

#[test]
fn disassembly_snapshots() {
    let root = Path::new(CORPUS);
    if !root.is_dir() {
        println!("corpus not found at {}, skipping", root.display());
        return;
    }
    let snap_dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots");
    let update = std::env::var_os("UPDATE_SNAPSHOTS").is_some();
    let mut mismatches = Vec::new();
    for (stage, file) in SNAPSHOTS {
        let data = std::fs::read(root.join("dxbc").join(file)).expect("read corpus file");
        let text = disassemble(&data).expect("disassembles");
        let snap = snap_dir.join(format!("{stage}.txt"));
        let header = format!("// source: corpus/dxbc/{file}\n");
        let full = format!("{header}{text}");
        if update {
            std::fs::create_dir_all(&snap_dir).expect("create snapshot dir");
            std::fs::write(&snap, &full).expect("write snapshot");
            continue;
        }
        match std::fs::read_to_string(&snap) {
            Ok(expected) if expected == full => {}
            Ok(expected) => {
                mismatches.push(format!(
                    "{}: snapshot differs\n--- expected\n{expected}\n--- actual\n{full}",
                    snap.display()
                ));
            }
            Err(e) => mismatches.push(format!("{}: {e}", snap.display())),
        }
    }
    assert!(
        mismatches.is_empty(),
        "{}\n(run with UPDATE_SNAPSHOTS=1 to regenerate)",
        mismatches.join("\n")
    );
}
