//! IR text parser on arbitrary (UTF-8) text; what parses must print and the printed
//! text must parse again.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(b) = dxspv_ir::text::parse(text) {
        let _ = dxspv_ir::validate(&b, dxspv_ir::Level::Structural);
        let printed = dxspv_ir::text::print(&b);
        let _ = dxspv_ir::text::parse(&printed);
    }
});
