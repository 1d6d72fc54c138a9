#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::print_stdout,
    missing_docs
)]
//! Per-pass times of the pipeline over one binary IR file (`dxspv ir --raw --binary -o F.dxir`),
//! best of N runs, in ns per raw op: shows which pass grows with program size.
//!
//! `cargo run --release -p dxspv-ir --example pass_times -- F.dxir [ROUNDS]`

use dxspv_ir::passes::options::Options;
use dxspv_ir::passes::pipeline::run_pipeline;
use std::time::Duration;

fn main() {
    let mut args = std::env::args().skip(1);
    let path = args.next().expect("usage: pass_times FILE.dxir [ROUNDS]");
    let rounds: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(5);
    let bytes = std::fs::read(&path).unwrap();
    let opts = Options {
        time_passes: true,
        ..Options::default()
    };
    let mut best: Vec<(&'static str, Duration)> = Vec::new();
    let mut ops = 0;
    for _ in 0..rounds {
        let mut b = dxspv_ir::serialize::deserialize(&bytes).unwrap();
        ops = b.len();
        let report = run_pipeline(&mut b, &opts).unwrap();
        for (name, d) in report.per_pass() {
            match best.iter_mut().find(|(n, _)| *n == name) {
                Some((_, b)) => *b = (*b).min(d),
                None => best.push((name, d)),
            }
        }
    }
    let per = |d: Duration| d.as_secs_f64() * 1e9 / ops.max(1) as f64;
    println!("{ops} raw ops; ns per raw op, best of {rounds}");
    let mut total = Duration::ZERO;
    for (name, d) in &best {
        total += *d;
        println!("{name:<28} {:>8.1}", per(*d));
    }
    println!("{:<28} {:>8.1}", "total", per(total));
}
