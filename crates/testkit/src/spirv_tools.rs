//! The SPIR-V reference tools every backend test trusts: `spirv-val` and `spirv-dis` (Debian
//! `spirv-tools`), run on words in memory through a temporary file.

use std::path::PathBuf;
use std::process::Command;
use std::sync::atomic::{AtomicU32, Ordering};

/// A temporary file holding `words`, unique per process and call; removed on drop.
struct TempModule(PathBuf);

impl TempModule {
    fn new(words: &[u32]) -> Option<Self> {
        static NEXT: AtomicU32 = AtomicU32::new(0);
        let path = std::env::temp_dir().join(format!(
            "dxspv-test-{}-{}.spv",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        ));
        let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        std::fs::write(&path, bytes).ok()?;
        Some(TempModule(path))
    }
}

impl Drop for TempModule {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// Whether `tool --version` runs (the tool is installed).
pub fn installed(tool: &str) -> bool {
    Command::new(tool).arg("--version").output().is_ok()
}

/// `spirv-val --target-env vulkan1.3`'s verdict on `words`: `Err` with what it printed when it
/// refuses them; `None` when it is not installed.
pub fn spirv_val(words: &[u32]) -> Option<Result<(), String>> {
    spirv_val_with(words, &["--target-env", "vulkan1.3"])
}

/// `spirv-val --target-env <env>`'s verdict (spirv-val's spelling of targets: `vulkan1.0`,
/// `spv1.4`); `None` when it is not installed.
pub fn spirv_val_for(words: &[u32], env: &str) -> Option<Result<(), String>> {
    spirv_val_with(words, &["--target-env", env])
}

/// `spirv-val` with the given arguments (a target environment, `--relax-block-layout`, ...).
pub fn spirv_val_with(words: &[u32], args: &[&str]) -> Option<Result<(), String>> {
    if !installed("spirv-val") {
        return None;
    }
    let file = TempModule::new(words)?;
    let out = Command::new("spirv-val")
        .args(args)
        .arg(&file.0)
        .output()
        .ok()?;
    Some(if out.status.success() {
        Ok(())
    } else {
        let mut msg = String::from_utf8_lossy(&out.stderr).into_owned();
        msg.push_str(&String::from_utf8_lossy(&out.stdout));
        Err(msg)
    })
}

/// Asserts that `spirv-val` accepts `words` (the module called `name`); says so and checks
/// nothing when it is not installed.
#[track_caller]
pub fn assert_spirv_valid(name: &str, words: &[u32]) {
    match spirv_val(words) {
        None => println!("spirv-val not installed: validation of {name} skipped"),
        Some(Err(msg)) => panic!("{name}: spirv-val refuses the module:\n{msg}"),
        Some(Ok(())) => {}
    }
}

/// `spirv-dis --raw-id` text of `words` (ids as numbers, so the text shows the module's own
/// ids); `None` when spirv-dis is not installed or fails.
pub fn spirv_dis(words: &[u32]) -> Option<String> {
    if !installed("spirv-dis") {
        return None;
    }
    let file = TempModule::new(words)?;
    let out = Command::new("spirv-dis")
        .args(["--raw-id", "--no-color"])
        .arg(&file.0)
        .output()
        .ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).into_owned())
}

/// `spirv-dis` text of `words` with friendly names (`%float`, `%main`), as golden files keep
/// it; `None` when spirv-dis is not installed. Panics with its message when it refuses the
/// module.
pub fn spirv_dis_named(words: &[u32]) -> Option<String> {
    if !installed("spirv-dis") {
        return None;
    }
    let file = TempModule::new(words)?;
    let out = Command::new("spirv-dis")
        .arg("--no-color")
        .arg(&file.0)
        .output()
        .ok()?;
    assert!(
        out.status.success(),
        "spirv-dis: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    Some(String::from_utf8_lossy(&out.stdout).into_owned())
}
