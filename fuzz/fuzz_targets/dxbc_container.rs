//! `Shader::parse` (container, signatures, RDEF, STAT) on arbitrary bytes.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(c) = dxspv_dxbc::Container::parse(data) {
        let _ = c.checksum_ok();
    }
    let _ = dxspv_dxbc::Shader::parse(data);
});
