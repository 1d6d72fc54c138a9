//! Corpus benchmark: every DXBC shader of `../shared/corpus`, timed per stage (parse, convert,
//! passes, SPIR-V), reporting shaders/s, MB/s of input and the median time per shader. "Cold" is the
//! first shader in a fresh process; "warm" repeats the corpus several times and keeps the best
//! time of each shader.
//!
//! Run: `cargo bench -p dxspv --bench corpus`.

use std::path::Path;
use std::time::{Duration, Instant};

fn main() {
    let root = Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../../shared/corpus/dxbc"
    ));
    let mut blobs = Vec::new();
    let Ok(sources) = std::fs::read_dir(root) else {
        println!("corpus not found at {}, nothing to measure", root.display());
        return;
    };
    for src in sources.flatten() {
        if let Ok(files) = std::fs::read_dir(src.path()) {
            for f in files.flatten() {
                if let Ok(b) = std::fs::read(f.path()) {
                    blobs.push(b);
                }
            }
        }
    }
    blobs.sort();
    let opts = dxspv::Options::default();

    let cold_start = Instant::now();
    let cold = blobs.first().map(|b| dxspv::compile(b, &opts));
    let cold_total = cold_start.elapsed();
    if let Some(Ok(out)) = &cold {
        let t = out.times;
        println!(
            "cold (first shader in process): {:.1} us total (parse {:.1}, convert {:.1}, passes {:.1}, spirv {:.1})",
            cold_total.as_secs_f64() * 1e6,
            t.parse.as_secs_f64() * 1e6,
            t.convert.as_secs_f64() * 1e6,
            t.passes.as_secs_f64() * 1e6,
            t.spirv.as_secs_f64() * 1e6
        );
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
