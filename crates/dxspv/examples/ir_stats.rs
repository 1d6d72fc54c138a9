//! Prints IR sizes and pass times over the corpus: frontend ops, lowered ops, optimisation
//! rounds and the mean time of each pass per shader.
//!
//! Run: `cargo run --release -p dxspv --example ir_stats`.

// Examples may unwrap, panic and print (production code may not: see the workspace lints).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::print_stdout,
    clippy::print_stderr
)]
use std::time::Duration;

fn main() {
    let root = std::path::Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../../shared/corpus/dxbc"
    ));
    let (mut raw, mut low, mut n, mut rounds) = (0usize, 0usize, 0usize, 0u32);
    let mut passes: Vec<(&str, Duration, usize)> = Vec::new();
    let opts = dxspv_ir::passes::Options {
        validate_each_pass: false,
        time_passes: true,
        ..Default::default()
    };
    for src in std::fs::read_dir(root).into_iter().flatten().flatten() {
        for f in std::fs::read_dir(src.path())
            .into_iter()
            .flatten()
            .flatten()
        {
            let Ok(bytes) = std::fs::read(f.path()) else {
                continue;
            };
            let Ok(shader) = dxspv_dxbc::Shader::parse(&bytes) else {
                continue;
            };
            let Ok(mut ir) = dxspv_dxbc::convert(&shader) else {
                continue;
            };
            raw += ir.iter().count();
            let Ok(report) = dxspv_ir::passes::run_pipeline(&mut ir, &opts) else {
                continue;
            };
            for p in &report.passes {
                match passes.iter_mut().find(|x| x.0 == p.name) {
                    Some(x) => {
                        x.1 += p.duration;
                        x.2 += 1;
                    }
                    None => passes.push((p.name, p.duration, 1)),
                }
            }
            low += ir.iter().count();
            rounds += report.optimisation_rounds;
            n += 1;
        }
    }
    let per = |x: f64| x / n.max(1) as f64;
    println!(
        "{n} shaders: frontend ops {raw} ({:.0}/shader), lowered ops {low} ({:.0}/shader), optimisation rounds {:.2}/shader",
        per(raw as f64),
        per(low as f64),
        per(f64::from(rounds))
    );
    for (name, d, runs) in passes {
        println!(
            "  {name:<22} {:>8.2} us/shader  runs {runs}",
            per(d.as_secs_f64() * 1e6)
        );
    }
}
