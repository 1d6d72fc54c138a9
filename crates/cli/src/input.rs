//! Reading inputs and writing outputs, with `-` for standard input and output, and telling
//! shaders from IR and from everything else.

use std::io::{IsTerminal, Read, Write};
use std::path::{Path, PathBuf};

/// What an input file holds.
pub enum Source {
    /// Shader bytes of a format the library detects (DXBC, DXIL, D3D9).
    Shader(Vec<u8>),
    /// IR text.
    IrText(String),
    /// IR in its binary (serialized) form.
    IrBinary(Vec<u8>),
    /// Something else: what it looks like.
    Other(String),
}

/// The name an input is reported under: its path, or `<stdin>`.
pub fn display_name(path: &Path) -> String {
    if is_std(path) {
        "<stdin>".into()
    } else {
        path.display().to_string()
    }
}

/// Whether `path` is `-`.
pub fn is_std(path: &Path) -> bool {
    path.as_os_str() == "-"
}

/// The bytes of `path` (`-`: standard input), or why they cannot be read.
pub fn read(path: &Path) -> Result<Vec<u8>, String> {
    if is_std(path) {
        let mut v = Vec::new();
        std::io::stdin()
            .read_to_end(&mut v)
            .map_err(|e| format!("cannot read standard input: {e}"))?;
        Ok(v)
    } else {
        std::fs::read(path).map_err(|e| format!("cannot read: {e}"))
    }
}

/// Classifies an input by its bytes, and for text and IR binary by its file extension
/// (`.ir` text, `.dxir` binary; without a telling extension, valid UTF-8 is IR text).
pub fn classify(path: &Path, bytes: Vec<u8>) -> Source {
    if dxspv::detect_format(&bytes) != dxspv::Format::Unknown {
        return Source::Shader(bytes);
    }
    let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
    if ext == "dxir" {
        return Source::IrBinary(bytes);
    }
    match String::from_utf8(bytes) {
        Ok(text) if ext == "ir" || (!is_known_other(ext) && looks_like_ir(&text)) => {
            Source::IrText(text)
        }
        Ok(text) => Source::Other(describe(text.as_bytes())),
        Err(e) => Source::Other(describe(e.as_bytes())),
    }
}

/// Extensions of files that are never inputs (our own outputs, documents).
fn is_known_other(ext: &str) -> bool {
    matches!(ext, "spv" | "json" | "md" | "txt" | "dot" | "svg")
}

/// Whether text reads as IR: its first line that is not blank or a comment defines an op.
fn looks_like_ir(text: &str) -> bool {
    text.lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with(';'))
        .is_some_and(|l| l.starts_with('%'))
}

/// What bytes that are no input look like, for messages.
pub fn describe(bytes: &[u8]) -> String {
    let word = bytes
        .get(..4)
        .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]));
    match word {
        None if bytes.is_empty() => "an empty file".into(),
        Some(0x0723_0203) => "a SPIR-V module, not a Direct3D shader".into(),
        Some(_) if bytes.starts_with(b"DXBC") => "a DXBC container without a shader program".into(),
        _ if std::str::from_utf8(bytes).is_ok() => "text that is neither IR nor a shader".into(),
        _ => {
            let head: Vec<String> = bytes.iter().take(4).map(|b| format!("{b:02x}")).collect();
            format!(
                "binary data that is no Direct3D shader (first bytes {})",
                head.join(" ")
            )
        }
    }
}

/// Where an output goes: a file, or standard output for `-`.
pub fn write(path: &Path, bytes: &[u8], binary: bool) -> Result<(), String> {
    if is_std(path) {
        let mut out = std::io::stdout();
        if binary && out.is_terminal() {
            return Err("refusing to write binary SPIR-V to a terminal: use -o <file.spv>".into());
        }
        out.write_all(bytes)
            .and_then(|()| out.flush())
            .map_err(|e| format!("cannot write to standard output: {e}"))
    } else {
        // The parent directory usually exists: it is made only when the first write fails.
        match std::fs::write(path, bytes) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
                    std::fs::create_dir_all(dir)
                        .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
                }
                std::fs::write(path, bytes)
            }
            other => other,
        }
        .map_err(|e| format!("cannot write {}: {e}", path.display()))
    }
}

/// SPIR-V words as little-endian bytes.
pub fn spirv_bytes(words: &[u32]) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(words.len() * 4);
    for w in words {
        bytes.extend_from_slice(&w.to_le_bytes());
    }
    bytes
}

/// Every regular file under `dir`, sorted, as paths relative to `dir`.
pub fn walk(dir: &Path) -> Result<Vec<PathBuf>, String> {
    let mut out = Vec::new();
    let mut stack = vec![PathBuf::new()];
    while let Some(rel) = stack.pop() {
        let full = dir.join(&rel);
        let entries =
            std::fs::read_dir(&full).map_err(|e| format!("cannot read {}: {e}", full.display()))?;
        for e in entries.flatten() {
            let r = rel.join(e.file_name());
            match e.file_type() {
                Ok(t) if t.is_dir() => stack.push(r),
                Ok(t) if t.is_file() => out.push(r),
                _ => {}
            }
        }
    }
    out.sort();
    Ok(out)
}
