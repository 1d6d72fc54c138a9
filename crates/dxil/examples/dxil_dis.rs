//! Prints the disassembly of DXIL containers: `cargo run --example dxil_dis -- FILE...`.

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
