//! Runs every shared execution case (`../shared/exec`) on the Vulkan device (lavapipe) and
//! checks that at least the known number of runs pass. Every failure is printed: each one is a
//! miscompile (or a runner gap) worth looking at.

use dxspv_runner::{collect, default_corpus, exec::Outcome, run_case, vk::Gpu, Totals};
use std::path::Path;

/// Runs that passed when this threshold was last raised; raise it when more pass.
const MIN_PASSED: usize = 245;

/// Runs that fail because of known compiler bugs, with the reason. The test fails when a run
/// listed here passes (remove it) or a run not listed here fails.
const KNOWN_FAILURES: &[(&str, &str)] = &[];

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
    let known = |name: &str| KNOWN_FAILURES.iter().any(|(n, _)| *n == name);
    let mut unexpected = Vec::new();
    for r in &all {
        if matches!(r.outcome, Outcome::Fail(_)) {
            let tag = if known(&r.name) { "known" } else { "NEW" };
            println!("[{tag}] {r}");
            if !known(&r.name) {
                unexpected.push(r.name.clone());
            }
        }
    }
    let mut fixed = Vec::new();
    for (name, why) in KNOWN_FAILURES {
        match all.iter().find(|r| r.name == *name) {
            Some(r) if matches!(r.outcome, Outcome::Fail(_)) => {}
            Some(r) => fixed.push(format!("{r} (listed as known failure: {why})")),
            None => fixed.push(format!("{name}: not run (listed as known failure: {why})")),
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
    assert!(
        unexpected.is_empty(),
        "runs failed that are not in KNOWN_FAILURES: {unexpected:?}"
    );
    assert!(
        fixed.is_empty(),
        "KNOWN_FAILURES entries no longer fail, remove them: {fixed:?}"
    );
    assert_eq!(
        t.failed,
        KNOWN_FAILURES.len(),
        "every executed run must match Direct3D, except the known failures"
    );
    assert!(
        t.passed >= MIN_PASSED,
        "only {} runs passed, expected at least {MIN_PASSED}",
        t.passed
    );
}
