//! Converts a DXBC file to IR and prints the IR text form; `--lower` runs the IR pass
//! pipeline first (validating after every pass).

// Examples may unwrap, panic and print (production code may not: see the workspace lints).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::print_stdout,
    clippy::print_stderr
)]
fn main() {
    let lower = std::env::args().any(|a| a == "--lower");
    let Some(path) = std::env::args().skip(1).find(|a| !a.starts_with("--")) else {
        eprintln!("usage: convert [--lower] <file.dxbc>");
        std::process::exit(2);
    };
    let data = match std::fs::read(&path) {
        Ok(d) => d,
        Err(e) => {
            eprintln!("{path}: {e}");
            std::process::exit(1);
        }
    };
    let shader = match dxspv_dxbc::Shader::parse(&data) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("{path}: {e}");
            std::process::exit(1);
        }
    };
    match dxspv_dxbc::convert(&shader) {
        Ok(mut b) => {
            if lower {
                let opts = dxspv_ir::passes::options::Options {
                    validate_each_pass: true,
                    ..Default::default()
                };
                if let Err(e) = dxspv_ir::passes::pipeline::run_pipeline(&mut b, &opts) {
                    eprintln!("{path}: pipeline: {e}");
                    std::process::exit(1);
                }
            }
            print!("{}", dxspv_ir::text::print(&b));
            if let Err(errs) = dxspv_ir::validate(&b, dxspv_ir::Level::Structural) {
                for e in errs {
                    eprintln!("invalid: {e}");
                }
                std::process::exit(1);
            }
        }
        Err(e) => {
            eprintln!("{path}: {e}");
            std::process::exit(1);
        }
    }
}
