//! DXIL: bytes → container → module → DXIL metadata → disassembly. Every stage must return
//! `Ok` or an error; the bitcode of the container's DXIL part is also read on its own, and
//! bare bitcode (inputs starting with `BC`) is read as a module directly, so the fuzzer can
//! work below the container too.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if data.starts_with(b"BC") {
        let _ = dxspv_dxil::bitstream::walk(data);
        if let Ok(m) = dxspv_dxil::module::Module::read(data) {
            let _ = dxspv_dxil::dx::DxilMetadata::read(&m);
            let _ = dxspv_dxil::disasm::module_to_string(&m);
        }
        return;
    }
    let _ = dxspv_dxil::Shader::parse(data);
    let _ = dxspv_dxil::disassemble(data);
});
