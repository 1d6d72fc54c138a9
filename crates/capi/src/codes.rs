//! The C enumerations: status codes, formats, IR stages, option values and reflection kinds.
//!
//! Each is a `uint32_t` typedef with `#define`d values rather than a C `enum`, for two
//! reasons. An enumeration passed *into* the library could hold any integer (a C `enum` is an
//! `int` to the caller); reading it as a Rust enum would be undefined behaviour, so inputs
//! arrive as integers and are checked here, and an out-of-range value is
//! `DXSPV_ERROR_INVALID_ARGUMENT`. And values passed *out* may gain members in later versions
//! without changing any type's size.

use crate::guard::Failure;
use dxspv::ir::passes::options::MinPrecisionMode;
use dxspv::spirv::{DescriptorType, RegisterClass, SpecConstantKind};
use dxspv::{Format, IrStage};
use std::ffi::{c_char, CStr};

/// What a call came to: `DXSPV_OK` or the kind of failure. The message and a finer category
/// are in the result object (`dxspv_result_error_message`, `dxspv_result_error_kind`).
pub type dxspv_status = u32;
/// Success.
pub const DXSPV_OK: dxspv_status = 0;
/// The caller broke the API's contract: a NULL pointer where an object is required, a NULL
/// buffer with a non-zero size, a size past `PTRDIFF_MAX`, an enumeration value out of range,
/// a string that is not UTF-8. The message names the parameter.
pub const DXSPV_ERROR_INVALID_ARGUMENT: dxspv_status = 1;
/// The input is malformed: a damaged container or program, IR text that does not parse, IR
/// binary that does not read back, IR the validator rejects. The message says where.
pub const DXSPV_ERROR_INVALID_INPUT: dxspv_status = 2;
/// The input is valid but uses a feature dxspv does not translate; the message names it.
pub const DXSPV_ERROR_UNSUPPORTED_FEATURE: dxspv_status = 3;
/// The input is a shader format dxspv recognises but has no frontend for yet (DXIL, D3D9).
pub const DXSPV_ERROR_UNSUPPORTED_FORMAT: dxspv_status = 4;
/// The bytes are no shader format dxspv knows (not a DXBC or DXIL container, not a D3D9 token
/// stream).
pub const DXSPV_ERROR_UNKNOWN_FORMAT: dxspv_status = 5;
/// dxspv failed on input it accepted: a bug worth reporting with the input and the message.
/// Also what a panic inside the library becomes (it never unwinds into the caller).
pub const DXSPV_ERROR_INTERNAL: dxspv_status = 6;

/// The kind of shader bytes (`dxspv_detect_format`).
pub type dxspv_format = u32;
/// Unrecognised bytes.
pub const DXSPV_FORMAT_UNKNOWN: dxspv_format = 0;
/// A DXBC container with Shader Model 4.0–5.1 code (SHDR/SHEX part).
pub const DXSPV_FORMAT_DXBC: dxspv_format = 1;
/// A DXBC-style container holding DXIL (Shader Model 6) code.
pub const DXSPV_FORMAT_DXIL: dxspv_format = 2;
/// A Direct3D 9 (Shader Model 1–3) token stream.
pub const DXSPV_FORMAT_D3D9: dxspv_format = 3;

/// Which IR: what a frontend made, or what the pass pipeline made of it.
pub type dxspv_ir_stage = u32;
/// The frontend's output: scoped control flow, temporaries, untyped values.
pub const DXSPV_IR_STAGE_RAW: dxspv_ir_stage = 0;
/// After the legalization pipeline: structured, SSA, typed, lowered; what the SPIR-V backend
/// reads, and what a shader cache keeps.
pub const DXSPV_IR_STAGE_LOWERED: dxspv_ir_stage = 1;

/// How HLSL min-precision types (`min16float`, `min16int`, `min16uint`) are lowered.
pub type dxspv_min_precision = u32;
/// Promote to 32-bit types: always valid, D3D-like (the default).
pub const DXSPV_MIN_PRECISION_PROMOTE32: dxspv_min_precision = 0;
/// Lower to native 16-bit arithmetic (the device needs `shaderFloat16` / `shaderInt16`);
/// interfaces keep 32-bit types.
pub const DXSPV_MIN_PRECISION_NATIVE16: dxspv_min_precision = 1;

/// The D3D register class of a resource, and the class a binding shift applies to.
pub type dxspv_register_class = u32;
/// Constant buffer, `b` register.
pub const DXSPV_REGISTER_CLASS_CBV: dxspv_register_class = 0;
/// Shader resource view, `t` register.
pub const DXSPV_REGISTER_CLASS_SRV: dxspv_register_class = 1;
/// Unordered access view, `u` register.
pub const DXSPV_REGISTER_CLASS_UAV: dxspv_register_class = 2;
/// Sampler, `s` register.
pub const DXSPV_REGISTER_CLASS_SAMPLER: dxspv_register_class = 3;
/// The hidden counter of the UAV in a `u` register.
pub const DXSPV_REGISTER_CLASS_UAV_COUNTER: dxspv_register_class = 4;

/// The Vulkan descriptor type a resource is bound as. The values are `VkDescriptorType`'s, so
/// a program may cast one to `VkDescriptorType`.
pub type dxspv_descriptor_type = u32;
/// `VK_DESCRIPTOR_TYPE_SAMPLER`.
pub const DXSPV_DESCRIPTOR_TYPE_SAMPLER: dxspv_descriptor_type = 0;
/// `VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE`.
pub const DXSPV_DESCRIPTOR_TYPE_SAMPLED_IMAGE: dxspv_descriptor_type = 2;
/// `VK_DESCRIPTOR_TYPE_STORAGE_IMAGE`.
pub const DXSPV_DESCRIPTOR_TYPE_STORAGE_IMAGE: dxspv_descriptor_type = 3;
/// `VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER`.
pub const DXSPV_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER: dxspv_descriptor_type = 4;
/// `VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER`.
pub const DXSPV_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER: dxspv_descriptor_type = 5;
/// `VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER`.
pub const DXSPV_DESCRIPTOR_TYPE_UNIFORM_BUFFER: dxspv_descriptor_type = 6;
/// `VK_DESCRIPTOR_TYPE_STORAGE_BUFFER`.
pub const DXSPV_DESCRIPTOR_TYPE_STORAGE_BUFFER: dxspv_descriptor_type = 7;

/// What a specialization constant of the module stands for.
pub type dxspv_spec_constant_kind = u32;
/// Declared by the shader.
pub const DXSPV_SPEC_CONSTANT_KIND_USER: dxspv_spec_constant_kind = 0;
/// The render target sample count (`GetRenderTargetSampleCount()`): set it to the pipeline's
/// `rasterizationSamples`.
pub const DXSPV_SPEC_CONSTANT_KIND_SAMPLE_COUNT: dxspv_spec_constant_kind = 1;

/// The `location` of an interface variable that has none (a built-in).
pub const DXSPV_NO_LOCATION: u32 = u32::MAX;

pub(crate) fn format_code(format: Format) -> dxspv_format {
    match format {
        Format::Unknown => DXSPV_FORMAT_UNKNOWN,
        Format::Dxbc => DXSPV_FORMAT_DXBC,
        Format::Dxil => DXSPV_FORMAT_DXIL,
        Format::D3d9 => DXSPV_FORMAT_D3D9,
    }
}

pub(crate) fn register_class_code(class: RegisterClass) -> dxspv_register_class {
    match class {
        RegisterClass::Cbv => DXSPV_REGISTER_CLASS_CBV,
        RegisterClass::Srv => DXSPV_REGISTER_CLASS_SRV,
        RegisterClass::Uav => DXSPV_REGISTER_CLASS_UAV,
        RegisterClass::Sampler => DXSPV_REGISTER_CLASS_SAMPLER,
        RegisterClass::UavCounter => DXSPV_REGISTER_CLASS_UAV_COUNTER,
    }
}

pub(crate) fn descriptor_type_code(ty: DescriptorType) -> dxspv_descriptor_type {
    match ty {
        DescriptorType::Sampler => DXSPV_DESCRIPTOR_TYPE_SAMPLER,
        DescriptorType::SampledImage => DXSPV_DESCRIPTOR_TYPE_SAMPLED_IMAGE,
        DescriptorType::StorageImage => DXSPV_DESCRIPTOR_TYPE_STORAGE_IMAGE,
        DescriptorType::UniformTexelBuffer => DXSPV_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER,
        DescriptorType::StorageTexelBuffer => DXSPV_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER,
        DescriptorType::UniformBuffer => DXSPV_DESCRIPTOR_TYPE_UNIFORM_BUFFER,
        DescriptorType::StorageBuffer => DXSPV_DESCRIPTOR_TYPE_STORAGE_BUFFER,
    }
}

pub(crate) fn spec_constant_kind_code(kind: SpecConstantKind) -> dxspv_spec_constant_kind {
    match kind {
        SpecConstantKind::User => DXSPV_SPEC_CONSTANT_KIND_USER,
        SpecConstantKind::SampleCount => DXSPV_SPEC_CONSTANT_KIND_SAMPLE_COUNT,
    }
}

/// A `dxspv_ir_stage` argument, checked.
pub(crate) fn ir_stage(value: dxspv_ir_stage, param: &str) -> Result<IrStage, Failure> {
    match value {
        DXSPV_IR_STAGE_RAW => Ok(IrStage::Raw),
        DXSPV_IR_STAGE_LOWERED => Ok(IrStage::Lowered),
        _ => Err(out_of_range(param, value, "dxspv_ir_stage")),
    }
}

/// A `dxspv_min_precision` argument, checked.
pub(crate) fn min_precision(
    value: dxspv_min_precision,
    param: &str,
) -> Result<MinPrecisionMode, Failure> {
    match value {
        DXSPV_MIN_PRECISION_PROMOTE32 => Ok(MinPrecisionMode::Promote32),
        DXSPV_MIN_PRECISION_NATIVE16 => Ok(MinPrecisionMode::Native16),
        _ => Err(out_of_range(param, value, "dxspv_min_precision")),
    }
}

/// A `dxspv_register_class` argument, checked.
pub(crate) fn register_class(
    value: dxspv_register_class,
    param: &str,
) -> Result<RegisterClass, Failure> {
    match value {
        DXSPV_REGISTER_CLASS_CBV => Ok(RegisterClass::Cbv),
        DXSPV_REGISTER_CLASS_SRV => Ok(RegisterClass::Srv),
        DXSPV_REGISTER_CLASS_UAV => Ok(RegisterClass::Uav),
        DXSPV_REGISTER_CLASS_SAMPLER => Ok(RegisterClass::Sampler),
        DXSPV_REGISTER_CLASS_UAV_COUNTER => Ok(RegisterClass::UavCounter),
        _ => Err(out_of_range(param, value, "dxspv_register_class")),
    }
}

fn out_of_range(param: &str, value: u32, ty: &str) -> Failure {
    Failure::argument(format!("{param}: {value} is not a {ty} value"))
}

/// The name of a status code (`"DXSPV_ERROR_INVALID_INPUT"`), or `"unknown dxspv_status"` for
/// a value this version does not define. The string is static: never free it.
///
/// Thread safety: may be called from any thread at any time.
#[no_mangle]
pub extern "C" fn dxspv_status_name(status: dxspv_status) -> *const c_char {
    // A match over constants: nothing here can panic, so no guard is needed.
    let name: &'static CStr = match status {
        DXSPV_OK => c"DXSPV_OK",
        DXSPV_ERROR_INVALID_ARGUMENT => c"DXSPV_ERROR_INVALID_ARGUMENT",
        DXSPV_ERROR_INVALID_INPUT => c"DXSPV_ERROR_INVALID_INPUT",
        DXSPV_ERROR_UNSUPPORTED_FEATURE => c"DXSPV_ERROR_UNSUPPORTED_FEATURE",
        DXSPV_ERROR_UNSUPPORTED_FORMAT => c"DXSPV_ERROR_UNSUPPORTED_FORMAT",
        DXSPV_ERROR_UNKNOWN_FORMAT => c"DXSPV_ERROR_UNKNOWN_FORMAT",
        DXSPV_ERROR_INTERNAL => c"DXSPV_ERROR_INTERNAL",
        _ => c"unknown dxspv_status",
    };
    name.as_ptr()
}

/// The name of a format (`"DXBC"`, `"DXIL"`, `"D3D9"`, `"unknown"`). The string is static:
/// never free it.
///
/// Thread safety: may be called from any thread at any time.
#[no_mangle]
pub extern "C" fn dxspv_format_name(format: dxspv_format) -> *const c_char {
    // A match over constants: nothing here can panic, so no guard is needed.
    let name: &'static CStr = match format {
        DXSPV_FORMAT_DXBC => c"DXBC",
        DXSPV_FORMAT_DXIL => c"DXIL",
        DXSPV_FORMAT_D3D9 => c"D3D9",
        _ => c"unknown",
    };
    name.as_ptr()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn name(p: *const c_char) -> &'static str {
        // SAFETY: the functions under test return pointers to static NUL-terminated strings.
        unsafe { CStr::from_ptr(p) }.to_str().unwrap()
    }

    #[test]
    fn every_status_has_its_own_name() {
        let names: Vec<&str> = (0..=7).map(|s| name(dxspv_status_name(s))).collect();
        assert_eq!(names[2], "DXSPV_ERROR_INVALID_INPUT");
        assert_eq!(names[7], "unknown dxspv_status");
        let mut unique = names.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), names.len(), "{names:?}");
    }

    #[test]
    fn format_codes_and_names_agree() {
        for f in [Format::Unknown, Format::Dxbc, Format::Dxil, Format::D3d9] {
            assert_eq!(name(dxspv_format_name(format_code(f))), f.to_string());
        }
    }

    #[test]
    fn out_of_range_arguments_are_refused_by_name() {
        let e = ir_stage(2, "stage").unwrap_err();
        assert_eq!(e.status, DXSPV_ERROR_INVALID_ARGUMENT);
        assert_eq!(e.message, "stage: 2 is not a dxspv_ir_stage value");
        assert!(min_precision(u32::MAX, "mode").is_err());
        assert!(register_class(5, "class").is_err());
        assert_eq!(
            register_class(4, "class").unwrap(),
            RegisterClass::UavCounter
        );
    }
}
