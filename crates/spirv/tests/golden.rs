//! SPIR-V goldens: every `golden/NAME.ir` (lowered IR text) is validated at
//! [`Level::Lowered`], emitted with the default [`SpirvOptions`], checked with
//! `spirv-val --target-env vulkan1.3` and disassembled with `spirv-dis`; the text must equal
//! `golden/NAME.spvasm`. A `golden/NAME.TARGET.spvasm` beside it (`TARGET` a
//! [`TargetEnv`] name, `vulkan1.0`) is the module emitted for that target, checked the same
//! way with `spirv-val --target-env TARGET`: it shows what that target changes. Every
//! golden is also emitted for every other target and checked with `spirv-val` there, or
//! refused there by name (a [`SpirvError::Unsupported`] naming the target: wave ops before
//! SPIR-V 1.3, mesh shaders before 1.4). Run
//! with `UPDATE_GOLDEN=1` to rewrite the `.spvasm` files (then read the diff: each golden is
//! a reviewed statement of what the backend emits).
//!
//! The goldens were written with SPIRV-Tools v2023.1's `spirv-dis`; another version may name
//! ids differently, in which case regenerate them and check that only names changed. Without
//! `spirv-dis` and `spirv-val` the test says so and checks nothing.

// Tests may unwrap, panic and print (production code may not: see the workspace lints).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::print_stdout,
    clippy::print_stderr
)]
use dxspv_ir::validate::{validate, Level};
use dxspv_spirv::{emit, SpirvError, SpirvOptions, TargetEnv};
use std::path::{Path, PathBuf};
use std::process::Command;

mod common;

/// The `.ir` inputs of the golden directory, sorted by name.
fn inputs(dir: &Path) -> Vec<PathBuf> {
    let mut irs: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("golden directory")
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "ir"))
        .collect();
    irs.sort();
    irs
}

/// The first line where `got` and `want` differ, with a little context, for the failure.
fn first_difference(got: &str, want: &str) -> String {
    let (g, w): (Vec<&str>, Vec<&str>) = (got.lines().collect(), want.lines().collect());
    let at = (0..g.len().max(w.len()))
        .find(|&i| g.get(i) != w.get(i))
        .unwrap_or(0);
    let show = |lines: &[&str]| {
        lines
            .iter()
            .enumerate()
            .skip(at.saturating_sub(2))
            .take(5)
            .map(|(i, l)| format!("  {:4} {l}", i + 1))
            .collect::<Vec<_>>()
            .join("\n")
    };
    format!(
        "first difference at line {}:\n expected:\n{}\n got:\n{}",
        at + 1,
        show(&w),
        show(&g)
    )
}

#[test]
fn goldens_match() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden");
    let installed = |tool: &str| Command::new(tool).arg("--version").output().is_ok();
    if !installed("spirv-dis") || !installed("spirv-val") {
        println!("spirv-dis or spirv-val not installed: SPIR-V goldens not checked");
        return;
    }
    let update = std::env::var_os("UPDATE_GOLDEN").is_some_and(|v| v == "1");
    let mut failures = Vec::new();
    let irs = inputs(&dir);
    assert!(!irs.is_empty(), "no goldens in {}", dir.display());
    for ir in &irs {
        let name = ir.file_stem().expect("file name").to_string_lossy();
        let text = std::fs::read_to_string(ir).expect("read .ir");
        let b = dxspv_ir::text::parse(&text).unwrap_or_else(|e| panic!("{name}.ir: {e}"));
        if let Err(errors) = validate(&b, Level::Lowered) {
            panic!("{name}.ir is not lowered IR: {errors:?}");
        }
        for target in TargetEnv::ALL {
            let opts = SpirvOptions {
                target_env: target,
                ..SpirvOptions::default()
            };
            let golden = if target == TargetEnv::default() {
                ir.with_extension("spvasm")
            } else {
                ir.with_extension(format!("{target}.spvasm"))
            };
            let words = match emit(&b, &opts) {
                Ok(words) => words,
                // A target without what the golden needs (wave ops before SPIR-V 1.3, mesh
                // shaders before 1.4) refuses it by name; such a target has no golden.
                Err(e @ SpirvError::Unsupported { .. })
                    if target != TargetEnv::default()
                        && !golden.exists()
                        && e.to_string().contains(target.name()) =>
                {
                    continue;
                }
                Err(e) => panic!("{name} for {target}: {e}"),
            };
            match common::spirv_val_env(&words, target.spirv_val_name()) {
                Some(Ok(())) => {}
                Some(Err(msg)) => failures.push(format!("{name} for {target}: spirv-val: {msg}")),
                None => panic!("spirv-val is installed"),
            }
            // The default target has a golden always, the others where one was written.
            if target != TargetEnv::default() && !golden.exists() {
                continue;
            }
            let got = common::spirv_dis(&words).expect("spirv-dis is installed");
            if update {
                std::fs::write(&golden, &got).expect("write golden");
                continue;
            }
            let file = golden.file_name().unwrap_or_default().to_string_lossy();
            match std::fs::read_to_string(&golden) {
                Ok(want) if want == got => {}
                Ok(want) => failures.push(format!("{file}: {}", first_difference(&got, &want))),
                Err(_) => failures.push(format!("{name}: no {file} (run with UPDATE_GOLDEN=1)")),
            }
        }
    }
    // Every golden has its input, and a target golden names a target.
    for entry in std::fs::read_dir(&dir).expect("golden directory") {
        let p = entry.expect("directory entry").path();
        let file = p
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        let Some(stem) = file.strip_suffix(".spvasm") else {
            continue;
        };
        let (input, target) = match TargetEnv::ALL
            .iter()
            .find_map(|t| stem.strip_suffix(&format!(".{t}")).map(|s| (s, Some(*t))))
        {
            Some((input, target)) => (input, target),
            None => (stem, None),
        };
        if target == Some(TargetEnv::default()) {
            failures.push(format!(
                "{file}: the default target's golden is {input}.spvasm"
            ));
        }
        if !dir.join(format!("{input}.ir")).exists() {
            failures.push(format!("{file} has no .ir input"));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} goldens differ (UPDATE_GOLDEN=1 rewrites them):\n{}",
        failures.len(),
        irs.len(),
        failures.join("\n")
    );
}
