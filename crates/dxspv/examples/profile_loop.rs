//! Compiles every corpus DXBC shader in a loop, for profilers (`perf record`).
//!
//! Run: `cargo run --release -p dxspv --example profile_loop -- [rounds] [shader...]`: every
//! DXBC shader of the corpus, or only the shaders named.

// Examples may unwrap, panic and print (production code may not: see the workspace lints).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::print_stdout,
    clippy::print_stderr
)]
fn main() {
    let root = std::path::Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../../shared/corpus/dxbc"
    ));
    let mut blobs = Vec::new();
    let named: Vec<String> = std::env::args().skip(2).collect();
    for path in &named {
        blobs.push(std::fs::read(path).unwrap_or_else(|e| panic!("{path}: {e}")));
    }
    if named.is_empty() {
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
    }
    let rounds: u32 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(200);
    let opts = dxspv::Options::default();
    let t = std::time::Instant::now();
    for _ in 0..rounds {
        for b in &blobs {
            let _ = std::hint::black_box(dxspv::compile(b, &opts));
        }
    }
    println!(
        "{:?} per round of {} shaders",
        t.elapsed() / rounds.max(1),
        blobs.len()
    );
}
