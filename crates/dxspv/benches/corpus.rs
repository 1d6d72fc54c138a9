//! Corpus benchmark: every DXBC shader of `../shared/corpus`, timed per stage (parse, convert,
//! passes, SPIR-V), reporting shaders/s, MB/s of input and the median time per shader.
//!
//! - "Cold": each shader compiled as the first shader of a fresh process (the benchmark runs
//!   itself once per shader with `DXSPV_BENCH_COLD=<file>`); the median over all shaders.
//! - "Warm": the corpus compiled several times in one process, keeping the best time of each
//!   shader; the median over all shaders.
//!
//! Run: `cargo bench -p dxspv --bench corpus` (`DXSPV_BENCH_NO_COLD=1` skips the cold part).

// Benchmarks may unwrap, panic and print (production code may not: see the workspace lints).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::print_stdout,
    clippy::print_stderr
)]
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

fn main() {
    if let Some(file) = std::env::var_os("DXSPV_BENCH_COLD") {
        cold_child(Path::new(&file));
        return;
    }
    let root = Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../../shared/corpus/dxbc"
    ));
    let mut blobs = Vec::new();
    let mut paths = Vec::new();
    let Ok(sources) = std::fs::read_dir(root) else {
        println!("corpus not found at {}, nothing to measure", root.display());
        return;
    };
    for src in sources.flatten() {
        if let Ok(files) = std::fs::read_dir(src.path()) {
            for f in files.flatten() {
                if let Ok(b) = std::fs::read(f.path()) {
                    blobs.push(b);
                    paths.push(f.path());
                }
            }
        }
    }
    blobs.sort();
    let opts = dxspv::Options::default();

    if std::env::var_os("DXSPV_BENCH_NO_COLD").is_none() {
        cold(&paths);
    }

    const ROUNDS: usize = 10;
    let n = blobs.len();
    let mut best = vec![[Duration::MAX; 5]; n];
    let mut ok = vec![false; n];
    for _ in 0..ROUNDS {
        for (i, b) in blobs.iter().enumerate() {
            let start = Instant::now();
            let r = dxspv::compile(b, &opts);
            let total = start.elapsed();
            if let Ok(out) = r {
                let t = out.times;
                std::hint::black_box(out);
                ok[i] = true;
                let row = [t.parse, t.convert, t.passes, t.spirv, total];
                for (slot, v) in best[i].iter_mut().zip(row) {
                    *slot = (*slot).min(v);
                }
            }
        }
    }
    let bytes: usize = blobs
        .iter()
        .zip(&ok)
        .filter(|(_, ok)| **ok)
        .map(|(b, _)| b.len())
        .sum();
    let count = ok.iter().filter(|o| **o).count();
    println!("warm, best of {ROUNDS} per shader, {count} shaders, {bytes} bytes:");
    for (k, stage) in ["parse", "convert", "passes", "spirv", "total"]
        .iter()
        .enumerate()
    {
        let mut times: Vec<Duration> = best
            .iter()
            .zip(&ok)
            .filter(|(_, ok)| **ok)
            .map(|(b, _)| b[k])
            .collect();
        let sum: Duration = times.iter().sum();
        times.sort();
        let median = times.get(times.len() / 2).copied().unwrap_or_default();
        let secs = sum.as_secs_f64().max(1e-12);
        println!(
            "  {stage:<8} {:>10.0} shaders/s {:>9.1} MB/s   median {:>7.2} us/shader",
            count as f64 / secs,
            bytes as f64 / secs / 1e6,
            median.as_secs_f64() * 1e6
        );
    }
}

/// Compiles every file as the first shader of a fresh process and prints the median per stage.
fn cold(paths: &[PathBuf]) {
    let Ok(linked) = std::env::current_exe() else {
        println!("cold: cannot find the benchmark's own executable");
        return;
    };
    // Run a copy: a file freshly written by the linker costs each cold process a few more page
    // faults than an installed (copied) program, which is what users run.
    let copy = std::env::temp_dir().join(format!("dxspv-bench-cold-{}", std::process::id()));
    let exe = match std::fs::copy(&linked, &copy) {
        Ok(_) => copy.clone(),
        Err(_) => linked,
    };
    let mut rows: Vec<[f64; 5]> = Vec::new();
    for path in paths {
        let Ok(out) = std::process::Command::new(&exe)
            .env("DXSPV_BENCH_COLD", path)
            .output()
        else {
            continue;
        };
        let text = String::from_utf8_lossy(&out.stdout);
        let v: Vec<f64> = text
            .split_whitespace()
            .filter_map(|w| w.parse().ok())
            .collect();
        if let Ok(row) = <[f64; 5]>::try_from(v) {
            rows.push(row);
        }
    }
    let _ = std::fs::remove_file(&copy);
    println!(
        "cold, first shader in a fresh process, {} shaders:",
        rows.len()
    );
    for (k, stage) in ["parse", "convert", "passes", "spirv", "total"]
        .iter()
        .enumerate()
    {
        let mut v: Vec<f64> = rows.iter().map(|r| r[k]).collect();
        v.sort_by(f64::total_cmp);
        let median = v.get(v.len() / 2).copied().unwrap_or_default();
        let p90 = v.get(v.len() * 9 / 10).copied().unwrap_or_default();
        println!("  {stage:<8} median {median:>7.1} us/shader   p90 {p90:>7.1}");
    }
}

/// The child side of [`cold`]: compiles one file once and prints its stage times in µs.
fn cold_child(path: &Path) {
    let Ok(bytes) = std::fs::read(path) else {
        return;
    };
    let opts = dxspv::Options::default();
    let start = Instant::now();
    let result = dxspv::compile(&bytes, &opts);
    let total = start.elapsed();
    if let Ok(out) = result {
        let t = out.times;
        let us = |d: Duration| d.as_secs_f64() * 1e6;
        println!(
            "{} {} {} {} {}",
            us(t.parse),
            us(t.convert),
            us(t.passes),
            us(t.spirv),
            us(total)
        );
    }
}
