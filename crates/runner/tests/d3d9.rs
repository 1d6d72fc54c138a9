//! Runs every Direct3D 9 case (`../shared/exec-d3d9`: Wine's d3d9 and d3d8 visual tests) on
//! the Vulkan device (lavapipe). Every run must match what Windows produced, except the
//! known failures listed below; a run may only be skipped for a device feature or limit it
//! names, or when `dxspv::compile` has no D3D9 frontend.

// Tests may unwrap, panic and print (production code may not: see the workspace lints).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::print_stdout,
    clippy::print_stderr
)]

use dxspv_runner::d3d9::shaders::D3D9_SKIP;

mod common;

/// Runs that passed when this threshold was last raised; raise it when more pass.
const MIN_PASSED: usize = 96;

/// Runs that fail because of known compiler or driver bugs, with the reason. The test fails
/// when a run listed here passes (remove it) or a run not listed here fails. (None now:
/// `pretransformed_varying_test_fog`, listed while the contract's FOG varying was one float,
/// which lavapipe mishandled, passes with the `vec4<f32>` FOG varying.)
const KNOWN_FAILURES: &[(&str, &str)] = &[];

#[test]
fn shared_d3d9_cases() {
    common::run(&common::Suite {
        folder: "exec-d3d9",
        min_passed: MIN_PASSED,
        known_failures: KNOWN_FAILURES,
        skip_ok: |why| {
            why == D3D9_SKIP
                || why.starts_with("device lacks ")
                || why.starts_with("device has no ")
        },
    });
}
