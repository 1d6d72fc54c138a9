//! `dxspv_sm3::disassemble` on arbitrary bytes.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = dxspv_sm3::disassemble(data);
});
