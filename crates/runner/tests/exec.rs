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

/// Runs that passed when this threshold was last raised; raise it when more pass.
const MIN_PASSED: usize = 281;

/// Runs that fail because of known compiler bugs, with the reason. The test fails when a run
/// listed here passes (remove it) or a run not listed here fails.
const KNOWN_FAILURES: &[(&str, &str)] = &[(
    "vkd3d-proton_sm66_64bit_atomics",
    "64-bit atomics are refused until the IR and backend support them (sm6-ops)",
)];

#[test]
fn shared_exec_cases() {
    common::run(&common::Suite {
        folder: "exec",
        min_passed: MIN_PASSED,
        known_failures: KNOWN_FAILURES,
        // Runner gaps are still reported as skips here (not implemented views, ...).
        skip_ok: |_| true,
    });
}
