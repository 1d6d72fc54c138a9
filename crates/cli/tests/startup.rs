//! How the `dxspv` executable is built for a fast start (see `build.rs`): linked statically
//! where the static C library is installed, its compile functions named in
//! `symbol-order.txt` still present (a stale list silently loses its effect), and the quick
//! command lines behaving as clap's.

// Tests may unwrap, panic and print (production code may not: see the workspace lints).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::print_stdout,
    clippy::print_stderr
)]
use std::collections::HashSet;
use std::process::Command;

const EXE: &str = env!("CARGO_BIN_EXE_dxspv");

/// `name` without what differs between builds of the same code: the crate disambiguators of
/// v0 names (`Cs<hash>_`), the hash of legacy names (`17h<16 hex digits>E`) and the suffix of
/// cross-unit copies (`.llvm.<digits>`). The list is made from `cargo build -p dxspv-cli`;
/// a workspace test build unifies more features, which changes every crate's hash but not
/// which functions exist.
fn without_build_hashes(name: &str) -> String {
    let name = name.split(".llvm.").next().unwrap_or(name);
    let bytes = name.as_bytes();
    let mut out = String::with_capacity(name.len());
    let mut i = 0;
    while i < bytes.len() {
        // v0: `C` `s` <base-62 digits> `_` before a crate name's length.
        if bytes[i] == b'C' && bytes.get(i + 1) == Some(&b's') {
            let mut j = i + 2;
            while j < bytes.len() && bytes[j].is_ascii_alphanumeric() {
                j += 1;
            }
            if j > i + 2 && bytes.get(j) == Some(&b'_') {
                out.push('C');
                i = j + 1;
                continue;
            }
        }
        out.push(bytes[i] as char);
        i += 1;
    }
    // Legacy: a trailing `17h` + 16 hex digits + `E`.
    if out.len() >= 20 && out.ends_with('E') && out[out.len() - 20..].starts_with("17h") {
        out.truncate(out.len() - 20);
    }
    out
}

/// The executable's symbol names without their build hashes, or `None` without `nm`.
fn symbols() -> Option<HashSet<String>> {
    let out = Command::new("nm").arg(EXE).output().ok()?;
    if !out.status.success() {
        return None;
    }
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    Some(
        text.lines()
            .filter_map(|l| l.split_whitespace().nth(2))
            .map(without_build_hashes)
            .collect(),
    )
}

#[test]
fn most_ordered_functions_exist_in_the_executable() {
    // The list is made from, and names the functions of, the release build (names carry a
    // hash that differs between profiles).
    if cfg!(debug_assertions) {
        println!("symbol-order.txt is checked against release builds only");
        return;
    }
    let Some(names) = symbols() else {
        println!("nm not found: skipping the symbol-order check");
        return;
    };
    let order =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/symbol-order.txt")).unwrap();
    let listed: Vec<&str> = order.lines().filter(|l| !l.is_empty()).collect();
    assert!(
        listed.len() > 100,
        "symbol-order.txt lists {}",
        listed.len()
    );
    let present = listed
        .iter()
        .filter(|n| names.contains(&without_build_hashes(n)))
        .count();
    // Names change with the toolchain and with renames; below half, the layout is mostly
    // lost: run `crates/cli/symbol-order.sh`.
    assert!(
        present * 2 >= listed.len(),
        "only {present} of the {} functions in symbol-order.txt exist in the executable: \
         regenerate it with crates/cli/symbol-order.sh",
        listed.len()
    );
}

#[test]
fn executable_is_static_where_the_static_c_library_is_installed() {
    if !cfg!(all(
        target_os = "linux",
        target_env = "gnu",
        target_arch = "x86_64"
    )) {
        return;
    }
    if std::env::var_os("DXSPV_PIE").is_some() || std::env::var_os("DXSPV_DYNAMIC").is_some() {
        return;
    }
    let found = Command::new("cc")
        .arg("-print-file-name=libc.a")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().starts_with('/'))
        .unwrap_or(false);
    if !found {
        println!("no static libc.a: the executable is linked dynamically");
        return;
    }
    let bytes = std::fs::read(EXE).unwrap();
    // An ELF program header table without PT_INTERP (type 3): no dynamic loader.
    let phoff = u64::from_le_bytes(bytes[32..40].try_into().unwrap()) as usize;
    let phentsize = u16::from_le_bytes(bytes[54..56].try_into().unwrap()) as usize;
    let phnum = u16::from_le_bytes(bytes[56..58].try_into().unwrap()) as usize;
    let types: Vec<u32> = (0..phnum)
        .map(|i| {
            let at = phoff + i * phentsize;
            u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap())
        })
        .collect();
    assert!(!types.is_empty());
    assert!(!types.contains(&3), "dxspv asks for a dynamic loader");
    // ET_EXEC (2): linked at a fixed address, not position-independent.
    assert_eq!(u16::from_le_bytes([bytes[16], bytes[17]]), 2);
}

#[test]
fn quick_command_lines_behave_as_clap_ones() {
    let version = Command::new(EXE).arg("--version").output().unwrap();
    assert!(version.status.success());
    assert_eq!(
        String::from_utf8_lossy(&version.stdout),
        format!("dxspv {}\n", env!("CARGO_PKG_VERSION"))
    );
    // `compile IN -o OUT` (quick) and `compile IN --output=OUT` (clap) fail alike on a
    // missing input: exit 1, the same message.
    let dir = std::env::temp_dir().join(format!("dxspv-startup-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let missing = dir.join("missing.dxbc");
    let out = dir.join("out.spv");
    let missing = missing.to_str().unwrap();
    let quick = Command::new(EXE)
        .args(["compile", missing, "-o", out.to_str().unwrap()])
        .output()
        .unwrap();
    let clap = Command::new(EXE)
        .args([
            "compile",
            missing,
            &format!("--output={}", out.to_str().unwrap()),
        ])
        .output()
        .unwrap();
    assert_eq!(quick.status.code(), Some(1));
    assert_eq!(clap.status.code(), Some(1));
    assert_eq!(quick.stderr, clap.stderr);
    // An output that is a directory is bad usage (exit 2) on both paths.
    let quick = Command::new(EXE)
        .args(["compile", missing, "-o", dir.to_str().unwrap()])
        .output()
        .unwrap();
    let clap = Command::new(EXE)
        .args(["compile", missing, "-o", dir.to_str().unwrap(), "-v"])
        .output()
        .unwrap();
    assert_eq!(quick.status.code(), Some(2));
    assert_eq!(clap.status.code(), Some(2));
    assert_eq!(quick.stderr, clap.stderr);
    std::fs::remove_dir_all(&dir).unwrap();
}
