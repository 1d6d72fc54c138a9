//! Reads every corpus DXIL module `N` times (for profiling): `read_loop N [walk]`.

// Examples may unwrap, panic and print (production code may not: see the workspace lints).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::print_stdout,
    clippy::print_stderr
)]
fn main() {
    let mut args = std::env::args().skip(1);
    let n: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(100);
    let walk_only = args.next().is_some_and(|a| a == "walk");
    let root = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../../shared/corpus/dxil/vkd3d-proton"
    );
    let mut bitcodes = Vec::new();
    for e in std::fs::read_dir(root).into_iter().flatten().flatten() {
        let Ok(bytes) = std::fs::read(e.path()) else {
            continue;
        };
        let Ok(c) = dxspv_container::Container::parse(&bytes) else {
            continue;
        };
        if let Some(p) = c.part(dxspv_container::FourCC::DXIL) {
            if let Ok(program) = dxspv_container::DxilProgram::parse(p.fourcc, p.data) {
                bitcodes.push(program.bitcode.to_vec());
            }
        }
    }
    let mut count = 0usize;
    for _ in 0..n {
        for b in &bitcodes {
            if walk_only {
                count += dxspv_dxil::bitstream::walk(b)
                    .map(|s| s.records as usize)
                    .unwrap_or(0);
            } else {
                count += dxspv_dxil::module::Module::read(b)
                    .map(|m| m.values.len())
                    .unwrap_or(0);
            }
        }
    }
    println!("{count}");
}
