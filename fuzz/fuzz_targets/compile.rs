//! bytes -> `dxspv::compile` (parse, convert, passes with validation after each, SPIR-V).
//! Any error is fine except IR that fails validation (the converter's or a pass's output); a
//! panic is a bug, and so is SPIR-V that `spirv-val --target-env vulkan1.3` rejects (checked
//! when spirv-val is installed; each accepted input costs one spirv-val process, so this
//! target runs slower than the others).
#![no_main]

use dxspv::ir::passes::error::PassError;
use libfuzzer_sys::fuzz_target;

mod spirv_val;

fuzz_target!(|data: &[u8]| {
    let mut opts = dxspv::Options::default();
    opts.passes.validate_each_pass = true;
    let out = match dxspv::compile(data, &opts) {
        Ok(out) => out,
        // The converter's output must validate ("input"), and so must every pass's.
        Err(dxspv::Error::Pass(e @ PassError::Validation { .. }, _)) => panic!("IR invalid: {e}"),
        Err(_) => return,
    };
    spirv_val::assert_valid(&out.spirv);
});
