//! Prints, per format of the corpus, the mean time of each pass per shader, how often it ran
//! and changed the program, and the ops going in and out of it: what to look at before making
//! the pass pipeline faster.
//!
//! Run: `cargo run --release -p dxspv --example pass_stats -- [reps] [dir...]`: every shader
//! under each dir (default: the corpus's `dxbc`, `d3d9` and `dxil`), each pipeline run `reps`
//! times (default 20) on a copy of the frontend's IR. The first run of each shader validates
//! after every pass and prints the shader and error when that fails.

// Examples may unwrap, panic and print (production code may not: see the workspace lints).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::print_stdout,
    clippy::print_stderr
)]
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Totals of one pass over a format.
#[derive(Default)]
struct PassTotals {
    time: Duration,
    runs: usize,
    changed: usize,
    ops_in: usize,
    ops_out: usize,
}

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = rd.flatten().map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            files(&p, out);
        } else if matches!(
            p.extension().and_then(|e| e.to_str()),
            Some("dxbc" | "d3d9" | "dxil")
        ) {
            out.push(p);
        }
    }
}

fn main() {
    let corpus = Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../../shared/corpus"
    ));
    let reps: usize = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(20);
    let profile = std::env::var_os("PASS_STATS_PROFILE").is_some();
    let mut dirs: Vec<PathBuf> = std::env::args().skip(2).map(PathBuf::from).collect();
    if dirs.is_empty() {
        dirs = ["dxbc", "d3d9", "dxil"]
            .iter()
            .map(|f| corpus.join(f))
            .collect();
    }
    let mut opts = dxspv::Options::default();
    opts.passes.validate_each_pass = false;
    opts.passes.time_passes = true;
    let validating = dxspv::ir::passes::Options {
        validate_each_pass: true,
        ..opts.passes.clone()
    };
    let untimed = dxspv::ir::passes::Options {
        time_passes: false,
        ..opts.passes.clone()
    };
    for dir in dirs {
        let mut paths = Vec::new();
        files(&dir, &mut paths);
        let mut totals: Vec<(&'static str, PassTotals)> = Vec::new();
        let (mut n, mut raw_ops, mut out_ops, mut rounds) = (0usize, 0usize, 0usize, 0u32);
        let mut whole = Duration::ZERO;
        for p in &paths {
            let bytes = std::fs::read(p).unwrap();
            let Ok(raw) = dxspv::to_ir(&bytes, dxspv::IrStage::Raw, &opts) else {
                continue;
            };
            // The counted run validates after every pass (the builder's census included).
            let report = match dxspv::ir::passes::run_pipeline(&mut raw.clone(), &validating) {
                Ok(report) => report,
                Err(e) => {
                    println!("{}: {e}", p.display());
                    continue;
                }
            };
            let mut before = raw.len();
            for pt in &report.passes {
                let t = match totals.iter_mut().find(|(name, _)| *name == pt.name) {
                    Some((_, t)) => t,
                    None => {
                        totals.push((pt.name, PassTotals::default()));
                        &mut totals.last_mut().unwrap().1
                    }
                };
                t.runs += 1;
                t.changed += usize::from(pt.changed);
                t.ops_in += before;
                t.ops_out += pt.ops_after;
                before = pt.ops_after;
            }
            raw_ops += raw.len();
            out_ops += before;
            rounds += report.optimisation_rounds;
            n += 1;
            // Per-pass times (the clock read around every pass costs time of its own) ...
            // (PASS_STATS_PROFILE set: only the untimed runs, for profilers.)
            let timed_reps = if profile { 0 } else { reps };
            for _ in 0..timed_reps {
                let mut b = raw.clone();
                let report = dxspv::ir::passes::run_pipeline(&mut b, &opts.passes).unwrap();
                for pt in &report.passes {
                    if let Some((_, t)) = totals.iter_mut().find(|(name, _)| *name == pt.name) {
                        t.time += pt.duration;
                    }
                }
            }
            // ... and the whole pipeline untimed inside.
            for _ in 0..reps {
                let mut b = raw.clone();
                let start = Instant::now();
                let _ = std::hint::black_box(dxspv::ir::passes::run_pipeline(&mut b, &untimed));
                whole += start.elapsed();
            }
        }
        let per = |x: f64| x / n.max(1) as f64;
        println!(
            "{}: {n} shaders, ops {:.0} -> {:.0} per shader, rounds {:.2}, pipeline {:.2} us/shader",
            dir.display(),
            per(raw_ops as f64),
            per(out_ops as f64),
            per(f64::from(rounds)),
            per(whole.as_secs_f64() * 1e6 / reps as f64),
        );
        println!(
            "  {:<22} {:>9} {:>6} {:>8} {:>9} {:>9}",
            "pass", "us/shader", "runs", "changed", "ops in", "ops out"
        );
        for (name, t) in &totals {
            println!(
                "  {name:<22} {:>9.3} {:>6} {:>8} {:>9.0} {:>9.0}",
                per(t.time.as_secs_f64() * 1e6 / reps as f64),
                t.runs,
                t.changed,
                t.ops_in as f64 / t.runs.max(1) as f64,
                t.ops_out as f64 / t.runs.max(1) as f64,
            );
        }
    }
}
