//! Parses and converts every corpus DXBC shader in a loop: the DXBC half of a compile alone,
//! for profilers (callgrind, perf) and quick timing.
//!
//! Run: `cargo run --release -p dxspv-dxbc --example convert_loop -- [rounds] [no-checksum]`.
//! Prints the median over shaders of each shader's best parse and convert time;
//! `no-checksum` parses with [`dxspv_dxbc::ParseOptions::verify_checksum`] off.

// Examples may unwrap, panic and print (production code may not: see the workspace lints).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::print_stdout,
    clippy::print_stderr
)]
use std::time::{Duration, Instant};

fn main() {
    let root = std::path::Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../../shared/corpus/dxbc"
    ));
    let mut blobs = Vec::new();
    let Ok(sources) = std::fs::read_dir(root) else {
        println!("corpus not found at {}", root.display());
        return;
    };
    for src in sources.flatten() {
        for f in std::fs::read_dir(src.path())
            .into_iter()
            .flatten()
            .flatten()
        {
            if let Ok(b) = std::fs::read(f.path()) {
                blobs.push(b);
            }
        }
    }
    blobs.sort();
    let rounds: usize = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(20);
    let options = dxspv_dxbc::ParseOptions {
        verify_checksum: std::env::args().nth(2).as_deref() != Some("no-checksum"),
    };
    let mut best = vec![[Duration::MAX; 2]; blobs.len()];
    for _ in 0..rounds {
        for (b, best) in blobs.iter().zip(&mut best) {
            let t = Instant::now();
            let Ok(shader) = dxspv_dxbc::Shader::parse_with(std::hint::black_box(b), &options)
            else {
                continue;
            };
            let parse = t.elapsed();
            let t = Instant::now();
            let r = dxspv_dxbc::convert(&shader);
            let convert = t.elapsed();
            std::hint::black_box(r.ok());
            best[0] = best[0].min(parse);
            best[1] = best[1].min(convert);
        }
    }
    for (k, stage) in ["parse", "convert"].iter().enumerate() {
        let mut times: Vec<Duration> = best
            .iter()
            .map(|b| b[k])
            .filter(|d| *d != Duration::MAX)
            .collect();
        times.sort();
        let median = times.get(times.len() / 2).copied().unwrap_or_default();
        let sum: Duration = times.iter().sum();
        println!(
            "{stage:<8} median {:>6.2} us  mean {:>6.2} us  ({} shaders)",
            median.as_secs_f64() * 1e6,
            sum.as_secs_f64() * 1e6 / times.len().max(1) as f64,
            times.len()
        );
    }
}
