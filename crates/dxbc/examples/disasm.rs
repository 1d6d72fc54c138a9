//! Prints the disassembly of each DXBC file named on the command line.

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
        match std::fs::read(&path) {
            Ok(bytes) => match dxspv_dxbc::disassemble(&bytes) {
                Ok(text) => print!("{text}"),
                Err(e) => eprintln!("{path}: {e}"),
            },
            Err(e) => eprintln!("{path}: {e}"),
        }
    }
}
