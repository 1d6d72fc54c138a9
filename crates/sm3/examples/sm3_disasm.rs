//! Prints the disassembly of each Direct3D 9 shader file given on the command line.
//!
//! `cargo run -p dxspv-sm3 --example sm3_disasm -- shader.d3d9 ...`

// Examples may unwrap, panic and print (production code may not: see the workspace lints).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::print_stdout,
    clippy::print_stderr
)]
fn main() {
    let mut failed = false;
    for path in std::env::args().skip(1) {
        let result = std::fs::read(&path)
            .map_err(|e| e.to_string())
            .and_then(|data| dxspv_sm3::disassemble(&data).map_err(|e| e.to_string()));
        match result {
            Ok(text) => println!("// {path}\n{text}"),
            Err(e) => {
                eprintln!("{path}: {e}");
                failed = true;
            }
        }
    }
    if failed {
        std::process::exit(1);
    }
}
