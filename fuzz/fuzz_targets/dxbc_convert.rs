//! Parse + convert; a converted program must pass the structural validator.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(shader) = dxspv_dxbc::Shader::parse(data) else {
        return;
    };
    if let Ok(b) = dxspv_dxbc::convert(&shader) {
        if let Err(errs) = dxspv_ir::validate(&b, dxspv_ir::Level::Structural) {
            panic!(
                "converter output fails structural validation: {errs:?}\n{}",
                dxspv_ir::text::print(&b)
            );
        }
    }
});
