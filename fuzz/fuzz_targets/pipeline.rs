//! bytes -> Shader::parse -> convert -> run_pipeline with validation after every pass.
//! Any error is fine; a panic (including a pass corrupting the IR) is a bug.
#![no_main]

use dxspv_ir::passes::error::PassError;
use dxspv_ir::passes::pipeline::run_pipeline;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(shader) = dxspv_dxbc::Shader::parse(data) else {
        return;
    };
    let Ok(mut b) = dxspv_dxbc::convert(&shader) else {
        return;
    };
    if dxspv_ir::validate(&b, dxspv_ir::Level::Structural).is_err() {
        // dxbc_convert reports this case.
        return;
    }
    let opts = dxspv_ir::passes::options::Options {
        validate_each_pass: true,
        ..Default::default()
    };
    // A pass that reports a problem (`InvalidIr`) is fine; a pass that leaves IR the
    // validator rejects is the bug `validate_each_pass` exists to catch.
    if let Err(e @ PassError::Validation { pass, .. }) = run_pipeline(&mut b, &opts) {
        panic!("pass {pass} corrupted the IR: {e}");
    }
});
