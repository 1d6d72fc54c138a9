//! Runs a folder of shared execution cases on the Vulkan device (lavapipe) and checks the
//! outcome: every failure is printed and must be a listed known failure (each listed one must
//! still fail, so that a fix is noticed), skips must give an accepted reason, and at least a
//! known number of runs must pass.

use dxspv_runner::{collect, default_corpus, exec::Outcome, run_case, vk::Gpu, Totals};
use std::path::Path;

/// What a suite expects.
pub struct Suite<'a> {
    /// Folder under `../shared` holding the cases.
    pub folder: &'a str,
    /// Runs that passed when this threshold was last raised.
    pub min_passed: usize,
    /// Runs that fail because of known compiler bugs, with the reason.
    pub known_failures: &'a [(&'a str, &'a str)],
    /// Whether a skip reason is acceptable.
    pub skip_ok: fn(&str) -> bool,
}

/// Runs the suite; returns quietly (saying why) when the cases or a Vulkan device are absent.
pub fn run(suite: &Suite) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared")
        .join(suite.folder);
    if !dir.is_dir() {
        println!("skipping: {} not found", dir.display());
        return;
    }
    let corpus = default_corpus();
    if !corpus.is_dir() {
        println!("skipping: corpus {} not found", corpus.display());
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
    let files = match collect(&[dir]) {
        Ok(f) => f,
        Err(e) => panic!("{e}"),
    };
    let corpora = [corpus];
    let mut all = Vec::new();
    for f in &files {
        all.extend(run_case(&gpu, f, &corpora));
    }
    let known = |name: &str| suite.known_failures.iter().any(|(n, _)| *n == name);
    let mut unexpected = Vec::new();
    let mut bad_skips = Vec::new();
    for r in &all {
        match &r.outcome {
            Outcome::Fail(_) => {
                let tag = if known(&r.name) { "known" } else { "NEW" };
                println!("[{tag}] {r}");
                if !known(&r.name) {
                    unexpected.push(r.name.clone());
                }
            }
            Outcome::Skipped(why) if !(suite.skip_ok)(why) => bad_skips.push(r.to_string()),
            _ => {}
        }
    }
    let mut fixed = Vec::new();
    for (name, why) in suite.known_failures {
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
    assert!(
        bad_skips.is_empty(),
        "runs skipped for no accepted reason: {bad_skips:?}"
    );
    assert_eq!(
        t.failed,
        suite.known_failures.len(),
        "every executed run must match Direct3D, except the known failures"
    );
    assert!(
        t.passed >= suite.min_passed,
        "only {} runs passed, expected at least {}",
        t.passed,
        suite.min_passed
    );
}
