//! Links the `dxspv` executable at a fixed address (not position-independent) on Linux.
//!
//! A position-independent executable has the dynamic loader apply every absolute address
//! in its read-only data at start-up: about 20,000 relocations over 700 KB (panic
//! locations, vtables, name tables), some 250 page faults and most of the 1.5 ms a run of
//! `dxspv --version` used to take. Linked at a fixed address, the linker resolves them once
//! and a process touches only the pages it reads. The code itself is unchanged.
//!
//! The price is address-space layout randomisation of the executable's own image (the
//! libraries, heap and stack stay randomised). A packager who wants a position-independent
//! executable anyway builds with `DXSPV_PIE=1` in the environment. The C and Rust libraries
//! are never affected.

fn main() {
    let os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    let env = std::env::var("CARGO_CFG_TARGET_ENV").unwrap_or_default();
    let pie = std::env::var_os("DXSPV_PIE").is_some_and(|v| v == "1");
    if os == "linux" && env == "gnu" && !pie {
        println!("cargo:rustc-link-arg-bin=dxspv=-no-pie");
    }
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=DXSPV_PIE");
}
