//! Runs every Direct3D 9 case (`../shared/exec-d3d9`: Wine's d3d9 and d3d8 visual tests) on
//! the Vulkan device (lavapipe). Every run must match what Windows produced; a run may only
//! be skipped for a device feature it names or, while `dxspv::compile` has no D3D9 frontend,
//! for that (the cases then run by themselves once it lands).

use dxspv_runner::d3d9::shaders::D3D9_SKIP;

mod common;

/// Runs that passed when this threshold was last raised; raise it when more pass.
const MIN_PASSED: usize = 61;

/// Runs that fail because of known compiler bugs, with the reason. The test fails when a run
/// listed here passes (remove it) or a run not listed here fails.
const KNOWN_FAILURES: &[(&str, &str)] = &[];

#[test]
fn shared_d3d9_cases() {
    common::run(&common::Suite {
        folder: "exec-d3d9",
        min_passed: MIN_PASSED,
        known_failures: KNOWN_FAILURES,
        skip_ok: |why| {
            why == D3D9_SKIP || why.starts_with("device lacks ") || why.starts_with("device has no ")
        },
    });
}
