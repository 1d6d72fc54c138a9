//! DXIL → `dxspv::compile` (read, convert, passes with validation after each, SPIR-V).
//! Input: a DXIL container, or bare LLVM bitcode (starting with `BC`), which is wrapped in a
//! container here so the fuzzer can mutate the module without having to keep the container
//! consistent. Other formats are skipped (the `compile` target covers them). Any error is
//! fine except IR that fails validation (the converter's output or a pass's); a panic is a
//! bug, and so is SPIR-V that `spirv-val --target-env vulkan1.3` rejects.
#![no_main]

use dxspv::ir::passes::error::PassError;
use libfuzzer_sys::fuzz_target;

mod spirv_val;

/// `bitcode` in a container with one `DXIL` part (a compute shader header; the module's
/// own metadata decides the stage), checksum zero.
fn wrap(bitcode: &[u8]) -> Vec<u8> {
    let mut part = Vec::with_capacity(24 + bitcode.len());
    let size_words = (24 + bitcode.len()).div_ceil(4) as u32;
    part.extend_from_slice(&((5u32 << 16) | (6 << 4)).to_le_bytes());
    part.extend_from_slice(&size_words.to_le_bytes());
    part.extend_from_slice(b"DXIL");
    part.extend_from_slice(&0x100u32.to_le_bytes());
    part.extend_from_slice(&16u32.to_le_bytes());
    part.extend_from_slice(&(bitcode.len() as u32).to_le_bytes());
    part.extend_from_slice(bitcode);
    let mut out = Vec::with_capacity(44 + part.len());
    out.extend_from_slice(b"DXBC");
    out.extend_from_slice(&[0u8; 16]);
    out.extend_from_slice(&1u32.to_le_bytes());
    out.extend_from_slice(&((44 + part.len()) as u32).to_le_bytes());
    out.extend_from_slice(&1u32.to_le_bytes());
    out.extend_from_slice(&36u32.to_le_bytes());
    out.extend_from_slice(b"DXIL");
    out.extend_from_slice(&(part.len() as u32).to_le_bytes());
    out.extend_from_slice(&part);
    out
}

fuzz_target!(|data: &[u8]| {
    let wrapped;
    let input = if data.starts_with(b"BC") {
        wrapped = wrap(data);
        &wrapped[..]
    } else if dxspv::detect_format(data) == dxspv::Format::Dxil {
        data
    } else {
        return;
    };
    let mut opts = dxspv::Options::default();
    opts.passes.validate_each_pass = true;
    opts.verify_checksum = false;
    let out = match dxspv::compile(input, &opts) {
        Ok(out) => out,
        Err(dxspv::Error::Pass(e @ PassError::Validation { .. }, _)) => panic!("IR invalid: {e}"),
        Err(_) => return,
    };
    spirv_val::assert_valid(&out.spirv);
});
