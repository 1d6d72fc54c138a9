//! `dxspv_options_set_d3d9_*`: the Direct3D 9 application state a D3D9 (Shader Model 1–3)
//! translation is made for.
//!
//! A Direct3D 9 shader leaves part of what the pipeline draws to fixed-function state the
//! application sets at draw time (the texture bound to each sampler, the shade mode, ...).
//! Vulkan has no such state, so the translation computes it, and each piece reaches the shader
//! one of three ways (`dxspv::sm3::options`): the setters here are the **compile-time** ones,
//! whose values change the module (another value means another compile, so a translation
//! layer keys its shader cache on them). The state that changes without a new module is read
//! from specialization constants and push constants, which the module's reflection lists.
//!
//! These options change nothing for DXBC and DXIL shaders. Defaults are a fresh Direct3D 9
//! device's state.

use crate::codes::*;
use crate::guard::Failure;
use crate::options::{dxspv_options, set};

/// The sampler registers `s0`-`s15` Direct3D 9 shaders have.
const SAMPLERS: u32 = 16;

/// Sets the type of texture the application binds to sampler `s<sampler>` (0–15), for
/// shaders that do not declare it: `ps_1_x` texture stages and `dcl s#` without a type
/// (default: `DXSPV_D3D9_TEXTURE_TYPE_2D` for every sampler). It picks the image type the
/// module declares for the sampler (2D, cube or 3D), so a compile is made for one binding;
/// a sampler whose type the shader declares keeps the declared type. `..._UNKNOWN` is read
/// as 2D and `..._1D` as a 2D texture of height 1, as Direct3D 9 does.
///
/// # Safety
/// `options` must be NULL or a live options object.
///
/// Thread safety: needs exclusive access to `options`.
#[no_mangle]
pub unsafe extern "C" fn dxspv_options_set_d3d9_sampler_type(
    options: *mut dxspv_options,
    sampler: u32,
    texture_type: dxspv_d3d9_texture_type,
) -> dxspv_status {
    let apply = |o: &mut dxspv::Options| {
        let t = d3d9_texture_type(texture_type, "texture_type")?;
        let slot = o
            .d3d9
            .sampler_types
            .get_mut(sampler as usize)
            .ok_or_else(|| {
                Failure::argument(format!(
                    "sampler: {sampler} is past the {SAMPLERS} Direct3D 9 samplers"
                ))
            })?;
        *slot = t;
        Ok(())
    };
    // SAFETY: forwarded from the caller.
    unsafe { set(options, apply) }
}

/// Sets which samplers are bound to a depth texture with hardware shadow-map comparison
/// (`D3DFMT_D16`, `D24X8`, `D24S8` sampled with the compare operation the host sets on the
/// `VkSampler`, `LESS_OR_EQUAL` in Direct3D 9): bit `n` is `s<n>`; bits above 15 are refused
/// (default 0: none). A sample through such a sampler compares the coordinate's `z` (after the
/// projective divide) with the depth and returns the filtered result in all four components,
/// and the reflection marks the sampler `comparison`. Only 2D samplers compare (the bits of
/// cube and volume samplers change nothing).
///
/// # Safety
/// `options` must be NULL or a live options object.
///
/// Thread safety: needs exclusive access to `options`.
#[no_mangle]
pub unsafe extern "C" fn dxspv_options_set_d3d9_depth_compare_samplers(
    options: *mut dxspv_options,
    mask: u32,
) -> dxspv_status {
    let apply = |o: &mut dxspv::Options| {
        if mask >> SAMPLERS != 0 {
            return Err(Failure::argument(format!(
                "mask: {mask:#x} names samplers past s{}",
                SAMPLERS - 1
            )));
        }
        o.d3d9.depth_compare_samplers = mask;
        Ok(())
    };
    // SAFETY: forwarded from the caller.
    unsafe { set(options, apply) }
}

/// Sets `D3DRS_SHADEMODE` to `D3DSHADE_FLAT` (true) or `D3DSHADE_GOURAUD` (false, the
/// default). With flat shading the colour inputs of pixel shaders (`v0`/`v1` before 3.0,
/// `dcl_color` inputs in 3.0) take the provoking vertex's value: the module decorates them
/// `Flat`.
///
/// # Safety
/// `options` must be NULL or a live options object.
///
/// Thread safety: needs exclusive access to `options`.
#[no_mangle]
pub unsafe extern "C" fn dxspv_options_set_d3d9_flat_shading(
    options: *mut dxspv_options,
    value: bool,
) -> dxspv_status {
    let apply = |o: &mut dxspv::Options| {
        o.d3d9.flat_shading = value;
        Ok(())
    };
    // SAFETY: forwarded from the caller.
    unsafe { set(options, apply) }
}

/// Sets how products with a zero factor are computed (default
/// `DXSPV_D3D9_FLOAT_EMULATION_STRICT`, Direct3D 9's `0 * x = 0` for every product; `FAST`
/// keeps it only where products hide inside one instruction; `OFF` is IEEE arithmetic). It
/// changes the module's arithmetic. `STRICT` and `FAST` take effect while
/// `dxspv_options_set_preserve_legacy_mul_zero` is on (its default).
///
/// # Safety
/// `options` must be NULL or a live options object.
///
/// Thread safety: needs exclusive access to `options`.
#[no_mangle]
pub unsafe extern "C" fn dxspv_options_set_d3d9_float_emulation(
    options: *mut dxspv_options,
    mode: dxspv_d3d9_float_emulation,
) -> dxspv_status {
    let apply = |o: &mut dxspv::Options| {
        o.d3d9.float_emulation = d3d9_float_emulation(mode, "mode")?;
        Ok(())
    };
    // SAFETY: forwarded from the caller.
    unsafe { set(options, apply) }
}

/// Says the vertex shader runs on a device doing software vertex processing
/// (`D3DCREATE_SOFTWARE_VERTEXPROCESSING`, or `MIXED` with `SetSoftwareVertexProcessing(TRUE)`;
/// default false). The hardware vertex profiles then have 8192 float constants instead of
/// 256: `c256`-`c8191` are accepted (Direct3D 9 refuses them otherwise, and so does dxspv) and
/// the module's constant buffer grows to hold them.
///
/// # Safety
/// `options` must be NULL or a live options object.
///
/// Thread safety: needs exclusive access to `options`.
#[no_mangle]
pub unsafe extern "C" fn dxspv_options_set_d3d9_software_vertex_processing(
    options: *mut dxspv_options,
    value: bool,
) -> dxspv_status {
    let apply = |o: &mut dxspv::Options| {
        o.d3d9.software_vertex_processing = value;
        Ok(())
    };
    // SAFETY: forwarded from the caller.
    unsafe { set(options, apply) }
}

/// Says which fixed-function states the module emulates so the host can change them without
/// recompiling (`DXSPV_D3D9_DYNAMIC_*`, OR-ed; default `DXSPV_D3D9_DYNAMIC_NONE`): the alpha
/// test, fog and user clip planes. A state left out is compiled as a fresh device has it (off)
/// and costs the shader nothing; one named here costs specialization constants, push data and
/// the state buffer the reflection lists. A bit outside `DXSPV_D3D9_DYNAMIC_ALL` is
/// `DXSPV_ERROR_INVALID_ARGUMENT`.
///
/// # Safety
/// `options` must be NULL or a live options object.
///
/// Thread safety: needs exclusive access to `options`.
#[no_mangle]
pub unsafe extern "C" fn dxspv_options_set_d3d9_dynamic_state(
    options: *mut dxspv_options,
    states: dxspv_d3d9_dynamic_state,
) -> dxspv_status {
    let apply = |o: &mut dxspv::Options| {
        o.d3d9.dynamic_state = d3d9_dynamic_state(states, "states")?;
        Ok(())
    };
    // SAFETY: forwarded from the caller.
    unsafe { set(options, apply) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::options::{dxspv_options_create, dxspv_options_free};
    use dxspv::sm3::{FloatEmulation, TextureType};

    #[test]
    fn every_d3d9_setter_sets_its_option() {
        let o = dxspv_options_create();
        // SAFETY: `o` is live and used by this thread only, then freed.
        unsafe {
            assert_eq!(
                dxspv_options_set_d3d9_sampler_type(o, 3, DXSPV_D3D9_TEXTURE_TYPE_CUBE),
                DXSPV_OK
            );
            assert_eq!(
                dxspv_options_set_d3d9_sampler_type(o, 15, DXSPV_D3D9_TEXTURE_TYPE_VOLUME),
                DXSPV_OK
            );
            assert_eq!(
                dxspv_options_set_d3d9_depth_compare_samplers(o, 0x8001),
                DXSPV_OK
            );
            assert_eq!(dxspv_options_set_d3d9_flat_shading(o, true), DXSPV_OK);
            assert_eq!(
                dxspv_options_set_d3d9_float_emulation(o, DXSPV_D3D9_FLOAT_EMULATION_OFF),
                DXSPV_OK
            );
            assert_eq!(
                dxspv_options_set_d3d9_software_vertex_processing(o, true),
                DXSPV_OK
            );
            let d = &(*o).inner.d3d9;
            let mut types = [TextureType::Texture2D; 16];
            types[3] = TextureType::Cube;
            types[15] = TextureType::Volume;
            assert_eq!(d.sampler_types, types);
            assert_eq!(d.depth_compare_samplers, 0x8001);
            assert!(d.flat_shading && d.software_vertex_processing);
            assert_eq!(d.float_emulation, FloatEmulation::Off);
            dxspv_options_free(o);
        }
    }

    #[test]
    fn bad_d3d9_arguments_are_refused_and_change_nothing() {
        let o = dxspv_options_create();
        // SAFETY: `o` is live and used by this thread only, then freed; NULL is allowed.
        unsafe {
            assert_eq!(
                dxspv_options_set_d3d9_sampler_type(o, 16, DXSPV_D3D9_TEXTURE_TYPE_CUBE),
                DXSPV_ERROR_INVALID_ARGUMENT
            );
            assert_eq!(
                dxspv_options_set_d3d9_sampler_type(o, 0, 5),
                DXSPV_ERROR_INVALID_ARGUMENT
            );
            assert_eq!(
                dxspv_options_set_d3d9_depth_compare_samplers(o, 0x1_0000),
                DXSPV_ERROR_INVALID_ARGUMENT
            );
            assert_eq!(
                dxspv_options_set_d3d9_float_emulation(o, 3),
                DXSPV_ERROR_INVALID_ARGUMENT
            );
            assert_eq!(
                dxspv_options_set_d3d9_flat_shading(std::ptr::null_mut(), true),
                DXSPV_ERROR_INVALID_ARGUMENT
            );
            assert_eq!((*o).inner.d3d9, dxspv::sm3::Options::default());
            dxspv_options_free(o);
        }
    }
}
