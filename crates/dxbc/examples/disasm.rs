//! Prints the disassembly of each DXBC file named on the command line.

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
