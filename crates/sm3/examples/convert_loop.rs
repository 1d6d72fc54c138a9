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

fn walk(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
    for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let p = e.path();
        if p.is_dir() {
            walk(&p, out);
        } else if p.extension().is_some_and(|x| x == "d3d9") {
            out.push(p);
        }
    }
}

fn main() {
    let root = std::path::Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../../shared/corpus/d3d9"
    ));
    let rounds: u32 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(1000);
    let passes = std::env::args().nth(2).is_some_and(|a| a == "passes");
    let mut files = Vec::new();
    walk(root, &mut files);
    files.sort();
    let blobs: Vec<Vec<u8>> = files.iter().map(|f| std::fs::read(f).unwrap()).collect();
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
