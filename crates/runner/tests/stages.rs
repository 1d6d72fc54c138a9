//! Runs every graphics case (`../shared/exec-stages`: vertex, hull, domain, geometry and
//! pixel shaders, stream output, input assembly) on the Vulkan device (lavapipe). Every DXBC
//! run must match Direct3D; a run may only be skipped for a device feature it names or, while
//! dxspv has no DXIL frontend, for being DXIL (those run on their own once it lands).

// Tests may unwrap, panic and print (production code may not: see the workspace lints).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::print_stdout,
    clippy::print_stderr
)]
use dxspv_runner::graphics::shaders::DXIL_SKIP;

mod common;

/// Runs that passed when this threshold was last raised (every DXBC run of the 25 DXBC
/// cases); raise it when more pass.
const MIN_PASSED: usize = 82;

/// Runs that fail because of known compiler bugs, with the reason. The test fails when a run
/// listed here passes (remove it) or a run not listed here fails.
const KNOWN_FAILURES: &[(&str, &str)] = &[];

#[test]
fn shared_stage_cases() {
    common::run(&common::Suite {
        folder: "exec-stages",
        min_passed: MIN_PASSED,
        known_failures: KNOWN_FAILURES,
        skip_ok: |why| why == DXIL_SKIP || why.starts_with("device lacks `"),
    });
}
