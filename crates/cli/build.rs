//! Links the `dxspv` executable statically, at a fixed address, on x86-64 and other
//! glibc Linux hosts; the C and Rust libraries are never affected.
//!
//! Start-up is most of what one `dxspv compile` process costs, so the executable avoids
//! what a default Rust executable pays before `main`:
//!
//! - *Position independence.* A position-independent executable has the dynamic loader
//!   apply every absolute address in its read-only data at start-up: about 20,000
//!   relocations over 700 KB (panic locations, vtables, name tables), some 250 page faults.
//!   Linked at a fixed address (`-no-pie`), the linker resolves them once and a process
//!   touches only the pages it reads. The price is address-space layout randomisation of
//!   the executable's own image (the heap and stack stay randomised).
//! - *Dynamic loading.* Loading `libc.so.6` and `libgcc_s.so.1`, binding their symbols and
//!   relocating them costs about as much again as the translation of a typical shader. The
//!   executable is linked against the static archives instead (`-static`), and needs no
//!   loader at all.
//!
//! rustc links a dynamic executable unless the whole build asks for `crt-static`, a flag
//! that cannot be given to one binary of a package (in `.cargo/config.toml` it would also
//! reach proc-macros, build scripts, tests and the C library). So this script gives the
//! linker, for the `dxspv` binary only, a directory of linker scripts named like the
//! shared libraries rustc asks for (`libc.so`, `libgcc_s.so`, `libm.so`, ...), each
//! pointing at the matching static archive, found through `cc -print-file-name`, then
//! `-static -no-pie`. Where an archive is missing (no `libc6-dev` static parts) or the
//! build cross-compiles, the executable is linked dynamically at a fixed address.
//!
//! Environment: `DXSPV_PIE=1` gives a plain position-independent dynamic executable (for a
//! packager who wants one); `DXSPV_DYNAMIC=1` keeps the fixed address but links
//! dynamically.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The libraries rustc's standard library asks the linker for on `*-linux-gnu` (as
/// `-lNAME`), with the static archives that stand in for each.
const STAND_INS: [(&str, &[&str]); 7] = [
    ("gcc_s", &["libgcc_eh.a", "libgcc.a"]),
    ("util", &["libutil.a"]),
    ("rt", &["librt.a"]),
    ("pthread", &["libpthread.a"]),
    ("m", &["libm.a"]),
    ("dl", &["libdl.a"]),
    ("c", &["libc.a", "libgcc.a", "libgcc_eh.a"]),
];

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=DXSPV_PIE");
    println!("cargo:rerun-if-env-changed=DXSPV_DYNAMIC");
    let var = |name: &str| std::env::var(name).unwrap_or_default();
    let flag = |name: &str| std::env::var_os(name).is_some_and(|v| v == "1");
    if var("CARGO_CFG_TARGET_OS") != "linux" || var("CARGO_CFG_TARGET_ENV") != "gnu" {
        return;
    }
    if flag("DXSPV_PIE") {
        return;
    }
    println!("cargo:rustc-link-arg-bin=dxspv=-no-pie");
    if flag("DXSPV_DYNAMIC") || var("TARGET") != var("HOST") {
        return;
    }
    let Some(out_dir) = std::env::var_os("OUT_DIR").map(PathBuf::from) else {
        return;
    };
    let linker = std::env::var("RUSTC_LINKER").unwrap_or_else(|_| "cc".into());
    let dir = out_dir.join("static-stand-ins");
    if write_stand_ins(&linker, &dir).is_some() {
        println!("cargo:rustc-link-arg-bin=dxspv=-L{}", dir.display());
        println!("cargo:rustc-link-arg-bin=dxspv=-static");
    }
}

/// Writes one linker script per library of [`STAND_INS`] into `dir`; `None` when an
/// archive cannot be found or a file cannot be written.
fn write_stand_ins(linker: &str, dir: &Path) -> Option<()> {
    std::fs::create_dir_all(dir).ok()?;
    for (lib, archives) in STAND_INS {
        let mut paths = Vec::new();
        for archive in archives {
            paths.push(find_archive(linker, archive)?);
        }
        let list: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
        let script = format!(
            "/* dxspv's static stand-in for lib{lib}.so (see crates/cli/build.rs) */\nGROUP({})\n",
            list.join(" ")
        );
        std::fs::write(dir.join(format!("lib{lib}.so")), script).ok()?;
    }
    Some(())
}

/// The absolute path of `archive` as the C compiler driver finds it.
fn find_archive(linker: &str, archive: &str) -> Option<PathBuf> {
    let out = Command::new(linker)
        .arg(format!("-print-file-name={archive}"))
        .output()
        .ok()?;
    if !out.status.success() {
        return None;
    }
    let path = PathBuf::from(String::from_utf8(out.stdout).ok()?.trim());
    // The driver echoes the bare name back when it does not find the file.
    if !path.is_absolute() || !path.is_file() {
        return None;
    }
    // A path with spaces or parentheses would need quoting in a linker script.
    let text = path.canonicalize().ok()?;
    let ok = text
        .to_str()
        .is_some_and(|s| !s.contains(|c: char| c.is_whitespace() || "()\"".contains(c)));
    ok.then_some(text)
}
