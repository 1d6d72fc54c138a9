//! Runs every graphics case (`../shared/exec-stages`: vertex, hull, domain, geometry and
//! pixel shaders, stream output, input assembly) on the Vulkan device (lavapipe). Every run,
//! DXBC and DXIL, must match Direct3D; a run may only be skipped for a device feature it
//! names.

// Tests may unwrap, panic and print (production code may not: see the workspace lints).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::print_stdout,
    clippy::print_stderr
)]

mod common;

/// Runs that passed when this threshold was last raised (every run of the 25 DXBC and the
/// 9 DXIL cases); raise it when more pass.
const MIN_PASSED: usize = 163;

/// Runs that fail because of known compiler bugs, with the reason. The test fails when a run
/// listed here passes (remove it) or a run not listed here fails.
const KNOWN_FAILURES: &[(&str, &str)] = &[];

#[test]
fn shared_stage_cases() {
    common::run(&common::Suite {
        folder: "exec-stages",
        min_passed: MIN_PASSED,
        known_failures: KNOWN_FAILURES,
        skip_ok: |why| why.starts_with("device lacks `"),
    });
}
