//! Shared by the fuzz targets that produce SPIR-V: runs `spirv-val --target-env vulkan1.3`
//! on a module and panics if it is rejected (does nothing when spirv-val is not installed).

use std::io::Write;
use std::process::{Command, Stdio};

/// Panics with spirv-val's message if `words` is not a valid Vulkan 1.3 module.
pub fn assert_valid(words: &[u32]) {
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
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
}
