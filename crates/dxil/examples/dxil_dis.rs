//! Prints the disassembly of DXIL containers: `cargo run --example dxil_dis -- FILE...`.

// Examples may unwrap, panic and print (production code may not: see the workspace lints).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::print_stdout,
    clippy::print_stderr
)]
fn main() {
    for path in std::env::args().skip(1) {
        let bytes = match std::fs::read(&path) {
            Ok(b) => b,
            Err(e) => {
                eprintln!("{path}: {e}");
                continue;
            }
        };
        match dxspv_dxil::disassemble(&bytes) {
            Ok(text) => print!("{text}"),
            Err(e) => eprintln!("{path}: {e}"),
        }
    }
}
