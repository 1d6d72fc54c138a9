//! Runs every shared execution case (`../shared/exec`: compute and pixel shaders) on the
//! Vulkan device (lavapipe) and checks that at least the known number of runs pass. Every
//! failure is printed: each one is a miscompile (or a runner gap) worth looking at.

// Tests may unwrap, panic and print (production code may not: see the workspace lints).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::print_stdout,
    clippy::print_stderr
)]
mod common;

/// Runs that passed when this threshold was last raised (every run but the 7 skipped for
/// descriptor indexing and float controls lavapipe lacks); raise it when more pass.
const MIN_PASSED: usize = 283;

/// Runs that fail because of known compiler bugs, with the reason. The test fails when a run
/// listed here passes (remove it) or a run not listed here fails.
const KNOWN_FAILURES: &[(&str, &str)] = &[];

#[test]
fn shared_exec_cases() {
    common::run(&common::Suite {
        folder: "exec",
        min_passed: MIN_PASSED,
        known_failures: KNOWN_FAILURES,
        skip_ok: |why| why.starts_with("device lacks `"),
    });
}
