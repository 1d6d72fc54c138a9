//! bytes -> `dxspv::compile` (parse, convert, passes with validation after each, SPIR-V).
//! Any error is fine except IR that fails validation (the converter's or a pass's output); a
//! panic is a bug, and so is SPIR-V that `spirv-val --target-env vulkan1.3` rejects (checked
//! when spirv-val is installed; each accepted input costs one spirv-val process, so this
//! target runs slower than the others).
#![no_main]

use dxspv::ir::passes::error::PassError;
use libfuzzer_sys::fuzz_target;
use std::io::Write;
use std::process::{Command, Stdio};

fuzz_target!(|data: &[u8]| {
    let mut opts = dxspv::Options::default();
    opts.passes.validate_each_pass = true;
    let out = match dxspv::compile(data, &opts) {
        Ok(out) => out,
        // The converter's output must validate ("input"), and so must every pass's.
        Err(dxspv::Error::Pass(PassError::Validation { pass, errors })) => {
            panic!("IR invalid after {pass}: {}", errors.join("; "))
        }
        Err(_) => return,
    };
    let bytes: Vec<u8> = out.spirv.iter().flat_map(|w| w.to_le_bytes()).collect();
    let Ok(mut child) = Command::new("spirv-val")
        .args(["--target-env", "vulkan1.3", "-"])
        .stdin(Stdio::piped())
        .stderr(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
    else {
        return;
    };
    if let Some(mut stdin) = child.stdin.take() {
        let _ = stdin.write_all(&bytes);
    }
    if let Ok(result) = child.wait_with_output() {
        if !result.status.success() {
            panic!(
                "dxspv produced invalid SPIR-V: {}",
                String::from_utf8_lossy(&result.stderr)
            );
        }
    }
});
