//! Direct3D 9 token stream -> `dxspv::compile` (read, convert, passes with validation after
//! each, SPIR-V). Inputs that are not a D3D9 stream are skipped (the `compile` target covers
//! format detection). The options vary with the input's length, so every compile-time D3D9
//! option is exercised: float emulation mode, depth-compare samplers, flat shading, software
//! vertex processing, sampler types. Any error is fine except IR that fails validation; a
//! panic is a bug, and so is SPIR-V that `spirv-val --target-env vulkan1.3` rejects.
#![no_main]

use dxspv::ir::passes::error::PassError;
use dxspv::sm3::{FloatEmulation, TextureType};
use libfuzzer_sys::fuzz_target;

mod spirv_val;

fuzz_target!(|data: &[u8]| {
    if dxspv::detect_format(data) != dxspv::Format::D3d9 {
        return;
    }
    let mut opts = dxspv::Options::default();
    opts.passes.validate_each_pass = true;
    let n = data.len();
    let d = &mut opts.d3d9;
    d.float_emulation = [FloatEmulation::Strict, FloatEmulation::Fast, FloatEmulation::Off][n % 3];
    d.depth_compare_samplers = if n % 5 == 0 { u32::MAX } else { 0 };
    d.flat_shading = n % 7 == 0;
    d.software_vertex_processing = n % 2 == 0;
    if n % 11 == 0 {
        d.sampler_types = [TextureType::Cube; 16];
    } else if n % 13 == 0 {
        d.sampler_types = [TextureType::Volume; 16];
    }
    let out = match dxspv::compile(data, &opts) {
        Ok(out) => out,
        // The converter's output must validate ("input"), and so must every pass's.
        Err(dxspv::Error::Pass(e @ PassError::Validation { .. }, _)) => panic!("IR invalid: {e}"),
        Err(_) => return,
    };
    spirv_val::assert_valid(&out.spirv);
});
