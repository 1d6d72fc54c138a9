//! IR text -> `dxspv::compile_ir_text` (input validation, passes with validation after each,
//! SPIR-V): the path `dxspv compile file.ir` takes. Any error is fine; a panic is a bug, and
//! so is SPIR-V that `spirv-val --target-env vulkan1.3` rejects (checked when spirv-val is
//! installed, one process per accepted input).
#![no_main]

use libfuzzer_sys::fuzz_target;
use std::io::Write;
use std::process::{Command, Stdio};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let mut opts = dxspv::Options::default();
    opts.passes.validate_each_pass = true;
    let Ok(out) = dxspv::compile_ir_text(text, &opts) else {
        return;
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
