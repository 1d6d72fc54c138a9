//! Links the `dxspv` executable as a position-dependent (non-PIE) program.
//!
//! A PIE's loader applies a relative relocation to every pointer in the program's read-only
//! data (the IR's opcode tables, the SPIR-V backend's tables, clap's help): hundreds of
//! copy-on-write page faults at every start, most of the start-up time of a one-file
//! `dxspv compile`. Linked at a fixed address, those pointers are resolved by the linker.
fn main() {
    if std::env::var("CARGO_CFG_TARGET_OS").as_deref() == Ok("linux") {
        println!("cargo:rustc-link-arg-bins=-no-pie");
    }
}
