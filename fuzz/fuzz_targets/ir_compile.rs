//! IR text -> `dxspv::compile_ir_text` (input validation, passes with validation after each,
//! SPIR-V): the path `dxspv compile file.ir` takes. Any error is fine; a panic is a bug, and
//! so is SPIR-V that `spirv-val --target-env vulkan1.3` rejects (checked when spirv-val is
//! installed, one process per accepted input), and so is a pass that leaves invalid IR.
#![no_main]

use dxspv::ir::passes::error::PassError;
use libfuzzer_sys::fuzz_target;

mod spirv_val;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let mut opts = dxspv::Options::default();
    opts.passes.validate_each_pass = true;
    let out = match dxspv::compile_ir_text(text, &opts) {
        Ok(out) => out,
        // Invalid input is refused before the passes; a pass that leaves IR the validator
        // rejects is the bug `validate_each_pass` exists to catch.
        Err(dxspv::Error::Pass(e @ PassError::Validation { pass, .. }, _)) if pass != "input" => {
            panic!("pass {pass} corrupted the IR: {e}")
        }
        Err(_) => return,
    };
    spirv_val::assert_valid(&out.spirv);
});
