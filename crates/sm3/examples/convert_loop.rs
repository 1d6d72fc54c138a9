//! Converts every D3D9 corpus shader in a loop (no passes), for profilers (`perf record`).
//!
//! Run: `cargo run --release -p dxspv-sm3 --example convert_loop -- [rounds] [passes]`:
//! with a second argument `passes`, the pass pipeline runs too.

// Examples may unwrap, panic and print (production code may not: see the workspace lints).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::print_stdout,
    clippy::print_stderr
)]

fn main() {
    let rounds: u32 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(1000);
    let passes = std::env::args().nth(2).is_some_and(|a| a == "passes");
    let Some(corpus) = dxspv_testkit::corpus::Corpus::open() else {
        return;
    };
    let blobs: Vec<Vec<u8>> = corpus
        .of_format("d3d9")
        .into_iter()
        .map(|e| corpus.read(e))
        .collect();
    let opts = dxspv_sm3::Options::default();
    let popts = dxspv_ir::passes::Options {
        validate_each_pass: false,
        ..Default::default()
    };
    let mut ops = 0usize;
    let t = std::time::Instant::now();
    for _ in 0..rounds {
        for bytes in &blobs {
            let Ok(shader) = dxspv_sm3::Shader::parse(bytes) else {
                continue;
            };
            let Ok(mut ir) = dxspv_sm3::convert(&shader, &opts) else {
                continue;
            };
            if passes {
                let _ = dxspv_ir::passes::run_pipeline(&mut ir, &popts);
            }
            ops += ir.iter().count();
        }
    }
    println!("{ops} ops in {:?}", t.elapsed());
}
