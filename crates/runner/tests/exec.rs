//! Runs every shared execution case (`../shared/exec`) on the Vulkan device (lavapipe) and
//! checks that at least the known number of runs pass. Every failure is printed: each one is a
//! miscompile (or a runner gap) worth looking at.

use dxspv_runner::{collect, default_corpus, exec::Outcome, run_case, vk::Gpu, Totals};
use std::path::Path;

/// Runs that passed when this threshold was last raised; raise it when more pass.
const MIN_PASSED: usize = 41;

#[test]
fn shared_exec_cases() {
    let exec = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/exec");
    if !exec.is_dir() {
        println!("skipping: {} not found", exec.display());
        return;
    }
    let gpu = match Gpu::new() {
        Ok(g) => g,
        Err(e) => {
            println!("skipping: no Vulkan device (install mesa-vulkan-drivers): {e}");
            return;
        }
    };
    println!("device: {}", gpu.name);
    let files = match collect(&[exec]) {
        Ok(f) => f,
        Err(e) => panic!("{e}"),
    };
    let corpora = [default_corpus()];
    let mut all = Vec::new();
    for f in &files {
        all.extend(run_case(&gpu, f, &corpora));
    }
    for r in &all {
        if matches!(r.outcome, Outcome::Fail(_)) {
            println!("{r}");
        }
    }
    let mut reasons = std::collections::BTreeMap::<&str, usize>::new();
    for r in &all {
        if let Outcome::Skipped(why) = &r.outcome {
            *reasons.entry(why.as_str()).or_default() += 1;
        }
    }
    for (why, n) in &reasons {
        println!("skipped {n}: {why}");
    }
    let t = Totals::of(&all);
    println!(
        "{} passed, {} failed, {} skipped",
        t.passed, t.failed, t.skipped
    );
    assert_eq!(t.failed, 0, "every executed case must match Direct3D");
    assert!(
        t.passed >= MIN_PASSED,
        "only {} runs passed, expected at least {MIN_PASSED}",
        t.passed
    );
}
