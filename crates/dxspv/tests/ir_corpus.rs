//! Every corpus DXBC shader through the frontend and the whole pass pipeline (validating after
//! every pass), then the *lowered* validator. Prints the counts and the time per pass over the
//! corpus; fails on any shader that does not reach the lowered level, except the corpus files
//! known to be out of scope (named below with the reason).

// Tests may unwrap, panic and print (production code may not: see the workspace lints).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::print_stdout,
    clippy::print_stderr
)]
use dxspv::ir::analysis::{Cfg, Divergence, DominatorTree};
use dxspv::ir::passes::options::Options as PassOptions;
use dxspv::ir::passes::pipeline::run_pipeline;
use dxspv::ir::validate::{validate, Level};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Corpus files that must fail, and why.
const EXPECTED_FAILURES: &[(&str, &str)] = &[(
    "vkd3d_shader_api_test_invalid_shaders_ps_break_code.dxbc",
    "deliberately invalid shader: break outside a loop",
)];

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
            files.push(f.path());
        }
    }
    files.sort();
    Some(files)
}

#[test]
fn every_corpus_dxbc_shader_reaches_lowered_ir() {
    let Some(files) = dxbc_files() else { return };
    let opts = PassOptions {
        validate_each_pass: true,
        time_passes: true,
        ..PassOptions::default()
    };
    let mut lowered = 0;
    let mut failures = Vec::new();
    let mut expected = 0;
    let mut per_pass: BTreeMap<&'static str, Duration> = BTreeMap::new();
    let mut total = Duration::ZERO;
    let mut ops_after = 0usize;
    let mut uniform_ops = 0usize;
    for path in &files {
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("?");
        let result = std::fs::read(path)
            .map_err(|e| e.to_string())
            .and_then(|bytes| {
                let mut b = dxspv::to_ir(&bytes, dxspv::IrStage::Raw, &dxspv::Options::default())
                    .map_err(|e| e.to_string())?;
                let report = run_pipeline(&mut b, &opts).map_err(|e| e.to_string())?;
                validate(&b, Level::Lowered)
                    .map_err(|errs| errs.first().map_or_else(String::new, |e| e.to_string()))?;
                let cfg = Cfg::build(&b).map_err(|e| e.to_string())?;
                let dom = DominatorTree::build(&cfg);
                let div = Divergence::analyze(&b, &cfg, &dom);
                let uniform = b.iter().filter(|(d, _)| div.is_uniform(*d)).count();
                Ok((report, b.len(), uniform))
            });
        let expected_failure = EXPECTED_FAILURES.iter().find(|(n, _)| *n == name);
        match (result, expected_failure) {
            (Ok((report, len, uniform)), None) => {
                uniform_ops += uniform;
                lowered += 1;
                ops_after += len;
                total += report.total();
                for (pass, d) in report.per_pass() {
                    *per_pass.entry(pass).or_default() += d;
                }
            }
            (Ok(_), Some((_, why))) => {
                failures.push(format!("{name}: expected to fail ({why}) but lowered"))
            }
            (Err(_), Some(_)) => expected += 1,
            (Err(e), None) => failures.push(format!("{name}: {e}")),
        }
    }
    println!(
        "corpus IR: {} DXBC files, lowered+valid {lowered}, expected failures {expected}, failed {}",
        files.len(),
        failures.len()
    );
    println!(
        "  {ops_after} ops after the pipeline ({uniform_ops} uniform per divergence analysis); pass time over the corpus {:.2} ms (debug/release as built)",
        total.as_secs_f64() * 1e3
    );
    let mut rows: Vec<_> = per_pass.into_iter().collect();
    rows.sort_by_key(|r| std::cmp::Reverse(r.1));
    for (pass, d) in rows {
        println!("  {pass:<24} {:>9.3} ms", d.as_secs_f64() * 1e3);
    }
    for f in &failures {
        println!("  FAILED {f}");
    }
    assert!(failures.is_empty(), "{} shaders failed", failures.len());
    assert_eq!(expected, EXPECTED_FAILURES.len());
}

/// The pipeline's reused [`Workspace`](dxspv::ir::passes::Workspace) holds no program state:
/// every corpus shader compiled with one workspace shared by all (in forward, then reverse
/// order, so each sees buffers left by larger and smaller shaders) gives exactly the IR of a
/// compile with a fresh workspace.
#[test]
fn reused_workspace_gives_the_same_ir_as_a_fresh_one() {
    use dxspv::ir::passes::{run_pipeline_with, Workspace};
    let Some(files) = dxbc_files() else { return };
    let opts = PassOptions::default();
    let raw: Vec<_> = files
        .iter()
        .filter_map(|p| std::fs::read(p).ok())
        .filter_map(|bytes| {
            dxspv::to_ir(&bytes, dxspv::IrStage::Raw, &dxspv::Options::default()).ok()
        })
        .collect();
    let compile = |b: &dxspv::ir::Builder, ws: &mut Workspace| {
        let mut b = b.clone();
        match run_pipeline_with(&mut b, &opts, ws) {
            Ok(_) => dxspv::ir::text::print(&b),
            Err(e) => format!("error: {e}"),
        }
    };
    let fresh: Vec<String> = raw
        .iter()
        .map(|b| compile(b, &mut Workspace::default()))
        .collect();
    let mut shared = Workspace::default();
    let order = (0..raw.len()).chain((0..raw.len()).rev());
    for i in order {
        assert_eq!(
            compile(&raw[i], &mut shared),
            fresh[i],
            "{}",
            files[i].display()
        );
    }
}
