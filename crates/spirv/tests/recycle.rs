//! The emitter keeps its module, tables and buffers from one compile to the next on a thread
//! (`Emitter::recycle`): a module emitted after others must equal the module emitted first on
//! a fresh thread. Every golden input is emitted alone on its own thread, then all of them
//! one after another on one thread, forwards and backwards, after a refused one.

// Tests may unwrap, panic and print (production code may not: see the workspace lints).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
use dxspv_spirv::{emit_with_reflection, SpirvModule, SpirvOptions};
use std::path::PathBuf;

/// The IR texts of the golden inputs, sorted by name.
fn golden_inputs() -> Vec<(PathBuf, String)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden");
    let mut irs: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("golden directory")
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "ir"))
        .collect();
    irs.sort();
    irs.into_iter()
        .map(|p| {
            let text = std::fs::read_to_string(&p).expect("golden input");
            (p, text)
        })
        .collect()
}

/// The module (or error text) of `text`.
fn emit_text(text: &str) -> Result<SpirvModule, String> {
    let b = dxspv_ir::text::parse(text).map_err(|e| e.to_string())?;
    emit_with_reflection(&b, &SpirvOptions::default()).map_err(|e| e.to_string())
}

#[test]
fn modules_emitted_one_after_another_equal_modules_emitted_alone() {
    let inputs = golden_inputs();
    assert!(!inputs.is_empty());
    let alone: Vec<Result<SpirvModule, String>> = inputs
        .iter()
        .map(|(_, text)| {
            let text = text.clone();
            std::thread::spawn(move || emit_text(&text))
                .join()
                .expect("emitting thread")
        })
        .collect();
    let sequence = std::thread::spawn(move || {
        // A refused module first: what it left behind must not reach the next one.
        assert!(emit_text("%1 = Constant u32 7\n").is_err());
        let forwards: Vec<_> = inputs.iter().map(|(_, t)| emit_text(t)).collect();
        let backwards: Vec<_> = inputs.iter().rev().map(|(_, t)| emit_text(t)).collect();
        (inputs, forwards, backwards)
    })
    .join()
    .expect("emitting thread");
    let (inputs, forwards, backwards) = sequence;
    for (k, (path, _)) in inputs.iter().enumerate() {
        assert_eq!(
            forwards[k],
            alone[k],
            "{} emitted after others",
            path.display()
        );
        assert_eq!(
            backwards[inputs.len() - 1 - k],
            alone[k],
            "{} emitted after others, backwards",
            path.display()
        );
    }
}
