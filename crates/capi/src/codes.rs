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
use dxspv::ir::ShaderStage;
use dxspv::sm3::{DynamicState, FloatEmulation, TextureType};
use dxspv::spirv::{
    DescriptorType, ImageDim, ImageFormat, RegisterClass, SamplerFeedbackKind, ScalarKind,
    SpecConstantKind, TargetEnv,
};
use dxspv::{Format, IrStage};
use std::ffi::{c_char, CStr};

/// What a call came to: `DXSPV_OK` or the kind of failure. The message and a finer category
/// are in the result object (`dxspv_result_error_message`, `dxspv_result_error_kind`).
pub type dxspv_status = u32;
/// Success.
pub const DXSPV_OK: dxspv_status = 0;
/// The caller broke the API's contract: a NULL pointer where an object is required, a NULL
/// buffer with a non-zero size, a size past `PTRDIFF_MAX`, an enumeration value out of range,
/// a string that is not UTF-8. The message names the parameter. Also what a compile returns
/// when the options do not fit the shader in a way only the shader shows (a stream-output
/// declaration naming an output the shader does not write).
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

/// The environment a module is written for (`dxspv_options_set_target_env`, and
/// `dxspv_reflection::target_env`): its SPIR-V version and memory model, and which extensions
/// stand in for what the version's core lacks. `dxspv_target_env_name` gives the names
/// `spirv-val --target-env` and glslang use.
pub type dxspv_target_env = u32;
/// Vulkan 1.0: SPIR-V 1.0, `GLSL450` memory model.
pub const DXSPV_TARGET_ENV_VULKAN1_0: dxspv_target_env = 0;
/// Vulkan 1.1: SPIR-V 1.3, `GLSL450` memory model.
pub const DXSPV_TARGET_ENV_VULKAN1_1: dxspv_target_env = 1;
/// Vulkan 1.2: SPIR-V 1.5, `GLSL450` memory model (the Vulkan memory model is optional there).
pub const DXSPV_TARGET_ENV_VULKAN1_2: dxspv_target_env = 2;
/// Vulkan 1.3: SPIR-V 1.6, Vulkan memory model (the default).
pub const DXSPV_TARGET_ENV_VULKAN1_3: dxspv_target_env = 3;
/// SPIR-V 1.0, `GLSL450` memory model.
pub const DXSPV_TARGET_ENV_SPIRV1_0: dxspv_target_env = 4;
/// SPIR-V 1.1, `GLSL450` memory model.
pub const DXSPV_TARGET_ENV_SPIRV1_1: dxspv_target_env = 5;
/// SPIR-V 1.2, `GLSL450` memory model.
pub const DXSPV_TARGET_ENV_SPIRV1_2: dxspv_target_env = 6;
/// SPIR-V 1.3, `GLSL450` memory model.
pub const DXSPV_TARGET_ENV_SPIRV1_3: dxspv_target_env = 7;
/// SPIR-V 1.4, `GLSL450` memory model.
pub const DXSPV_TARGET_ENV_SPIRV1_4: dxspv_target_env = 8;
/// SPIR-V 1.5, Vulkan memory model.
pub const DXSPV_TARGET_ENV_SPIRV1_5: dxspv_target_env = 9;
/// SPIR-V 1.6, Vulkan memory model.
pub const DXSPV_TARGET_ENV_SPIRV1_6: dxspv_target_env = 10;

/// The texture type a Direct3D 9 sampler is bound to (`dxspv_options_set_d3d9_sampler_type`):
/// `D3DSAMPLER_TEXTURE_TYPE` shifted down by 27 bits, as the `dcl` token holds it.
pub type dxspv_d3d9_texture_type = u32;
/// `D3DSTT_UNKNOWN`: read as 2D.
pub const DXSPV_D3D9_TEXTURE_TYPE_UNKNOWN: dxspv_d3d9_texture_type = 0;
/// A 1D texture, which Direct3D 9 makes a 2D texture of height 1.
pub const DXSPV_D3D9_TEXTURE_TYPE_1D: dxspv_d3d9_texture_type = 1;
/// `D3DSTT_2D` (`IDirect3DTexture9`): the default.
pub const DXSPV_D3D9_TEXTURE_TYPE_2D: dxspv_d3d9_texture_type = 2;
/// `D3DSTT_CUBE` (`IDirect3DCubeTexture9`).
pub const DXSPV_D3D9_TEXTURE_TYPE_CUBE: dxspv_d3d9_texture_type = 3;
/// `D3DSTT_VOLUME` (`IDirect3DVolumeTexture9`).
pub const DXSPV_D3D9_TEXTURE_TYPE_VOLUME: dxspv_d3d9_texture_type = 4;

/// How Direct3D 9 shaders compute products with a zero factor
/// (`dxspv_options_set_d3d9_float_emulation`). Direct3D 9 hardware gives `0 * x = 0` even for
/// an infinite or NaN `x`; IEEE arithmetic gives NaN.
pub type dxspv_d3d9_float_emulation = u32;
/// Every product follows Direct3D 9's zero rule (the default).
pub const DXSPV_D3D9_FLOAT_EMULATION_STRICT: dxspv_d3d9_float_emulation = 0;
/// The zero rule only inside instructions that hide products (dot products, matrix products,
/// `pow`, `lit`, `nrm`, the texture matrix instructions); `mul`, `mad`, `lrp` and `crs` use
/// IEEE arithmetic. About half the cost of `STRICT`.
pub const DXSPV_D3D9_FLOAT_EMULATION_FAST: dxspv_d3d9_float_emulation = 1;
/// IEEE arithmetic everywhere: the fastest.
pub const DXSPV_D3D9_FLOAT_EMULATION_OFF: dxspv_d3d9_float_emulation = 2;

/// A set of Direct3D 9 fixed-function states the module emulates so the host can change them
/// after compiling (`dxspv_options_set_d3d9_dynamic_state`): a bitwise OR of
/// `DXSPV_D3D9_DYNAMIC_*`. A state left out is compiled as a fresh device has it (off).
pub type dxspv_d3d9_dynamic_state = u32;
/// No state: a fresh device's states compiled in (the default).
pub const DXSPV_D3D9_DYNAMIC_NONE: dxspv_d3d9_dynamic_state = 0;
/// The alpha test (`D3DRS_ALPHATESTENABLE`, `ALPHAFUNC`, `ALPHAREF`), pixel shaders.
pub const DXSPV_D3D9_DYNAMIC_ALPHA_TEST: dxspv_d3d9_dynamic_state = 1;
/// Fog (`D3DRS_FOGENABLE`, `FOGTABLEMODE`, `FOGCOLOR`, `FOGSTART`, `FOGEND`, `FOGDENSITY`),
/// pixel shaders before 3.0.
pub const DXSPV_D3D9_DYNAMIC_FOG: dxspv_d3d9_dynamic_state = 2;
/// User clip planes (`D3DRS_CLIPPLANEENABLE`, `SetClipPlane`), vertex shaders.
pub const DXSPV_D3D9_DYNAMIC_CLIP_PLANES: dxspv_d3d9_dynamic_state = 4;
/// Every state above.
pub const DXSPV_D3D9_DYNAMIC_ALL: dxspv_d3d9_dynamic_state = 7;

/// `dxspv_options_set_stream_output`'s `rasterized_stream` when no stream is rasterized
/// (`D3D11_SO_NO_RASTERIZED_STREAM`: the pipeline discards rasterization).
pub const DXSPV_NO_RASTERIZED_STREAM: u32 = u32::MAX;

/// `dxspv_interface_binding::function_table` for "the first table the slot's `dcl_interface`
/// lists".
pub const DXSPV_FIRST_FUNCTION_TABLE: u32 = u32::MAX;

/// The Direct3D shader stage of a compiled shader (`dxspv_reflection::stage`). The values are
/// Direct3D's `D3D11_SHADER_VERSION_TYPE` (and the shader model token's program type) for
/// pixel to compute shaders.
pub type dxspv_shader_stage = u32;
/// Pixel shader (Vulkan fragment shader).
pub const DXSPV_SHADER_STAGE_PIXEL: dxspv_shader_stage = 0;
/// Vertex shader.
pub const DXSPV_SHADER_STAGE_VERTEX: dxspv_shader_stage = 1;
/// Geometry shader.
pub const DXSPV_SHADER_STAGE_GEOMETRY: dxspv_shader_stage = 2;
/// Hull shader (Vulkan tessellation control shader).
pub const DXSPV_SHADER_STAGE_HULL: dxspv_shader_stage = 3;
/// Domain shader (Vulkan tessellation evaluation shader).
pub const DXSPV_SHADER_STAGE_DOMAIN: dxspv_shader_stage = 4;
/// Compute shader.
pub const DXSPV_SHADER_STAGE_COMPUTE: dxspv_shader_stage = 5;
/// Mesh shader (Shader Model 6.5).
pub const DXSPV_SHADER_STAGE_MESH: dxspv_shader_stage = 6;
/// Amplification shader (Shader Model 6.5; Vulkan task shader).
pub const DXSPV_SHADER_STAGE_AMPLIFICATION: dxspv_shader_stage = 7;
/// No stage: never in the reflection of a compiled shader.
pub const DXSPV_SHADER_STAGE_NONE: dxspv_shader_stage = u32::MAX;

/// The dimension of an image or texel buffer descriptor (`dxspv_image_info::dim`).
pub type dxspv_image_dim = u32;
/// Not an image: the resource is a buffer, a sampler or a constant buffer.
pub const DXSPV_IMAGE_DIM_NONE: dxspv_image_dim = 0;
/// A texel buffer (`Buffer<T>`, `RWBuffer<T>`): SPIR-V `Dim Buffer`.
pub const DXSPV_IMAGE_DIM_BUFFER: dxspv_image_dim = 1;
/// A 1D image (`VK_IMAGE_VIEW_TYPE_1D`, or `_1D_ARRAY` when arrayed).
pub const DXSPV_IMAGE_DIM_1D: dxspv_image_dim = 2;
/// A 2D image (`VK_IMAGE_VIEW_TYPE_2D`, or `_2D_ARRAY` when arrayed).
pub const DXSPV_IMAGE_DIM_2D: dxspv_image_dim = 3;
/// A 3D image (`VK_IMAGE_VIEW_TYPE_3D`).
pub const DXSPV_IMAGE_DIM_3D: dxspv_image_dim = 4;
/// A cube image (`VK_IMAGE_VIEW_TYPE_CUBE`, or `_CUBE_ARRAY` when arrayed).
pub const DXSPV_IMAGE_DIM_CUBE: dxspv_image_dim = 5;

/// The format a storage image or storage texel buffer is declared with
/// (`dxspv_image_info::format`). The values are `VkFormat`'s, so a program may cast one to
/// `VkFormat`.
pub type dxspv_image_format = u32;
/// `VK_FORMAT_UNDEFINED`: no format in the shader (SPIR-V `Unknown`); any view format works
/// (reads and writes without format need `shaderStorageImageReadWithoutFormat` /
/// `WriteWithoutFormat`).
pub const DXSPV_IMAGE_FORMAT_UNKNOWN: dxspv_image_format = 0;
/// `VK_FORMAT_R32_UINT` (SPIR-V `R32ui`: a typed UAV with texel atomics).
pub const DXSPV_IMAGE_FORMAT_R32_UINT: dxspv_image_format = 98;
/// `VK_FORMAT_R32_SINT` (SPIR-V `R32i`).
pub const DXSPV_IMAGE_FORMAT_R32_SINT: dxspv_image_format = 99;
/// `VK_FORMAT_R32_SFLOAT` (SPIR-V `R32f`).
pub const DXSPV_IMAGE_FORMAT_R32_SFLOAT: dxspv_image_format = 100;
/// `VK_FORMAT_R64_UINT` (SPIR-V `R64ui`: a typed UAV of 64-bit texels with atomics, SM 6.6;
/// needs `shaderImageInt64Atomics`).
pub const DXSPV_IMAGE_FORMAT_R64_UINT: dxspv_image_format = 110;
/// `VK_FORMAT_R64_SINT` (SPIR-V `R64i`).
pub const DXSPV_IMAGE_FORMAT_R64_SINT: dxspv_image_format = 111;

/// The kind of number a texel component or an interface variable's component holds.
pub type dxspv_scalar_kind = u32;
/// A floating-point number.
pub const DXSPV_SCALAR_KIND_FLOAT: dxspv_scalar_kind = 0;
/// A signed integer.
pub const DXSPV_SCALAR_KIND_SINT: dxspv_scalar_kind = 1;
/// An unsigned integer.
pub const DXSPV_SCALAR_KIND_UINT: dxspv_scalar_kind = 2;
/// A boolean (built-ins such as `SV_IsFrontFace` only).
pub const DXSPV_SCALAR_KIND_BOOL: dxspv_scalar_kind = 3;

/// What a sampler feedback map records (`dxspv_resource_binding::sampler_feedback`; see the
/// repository's `docs/sampler_feedback.md` for its size, clear value and encoding).
pub type dxspv_sampler_feedback_kind = u32;
/// Not a sampler feedback map.
pub const DXSPV_SAMPLER_FEEDBACK_NONE: dxspv_sampler_feedback_kind = 0;
/// `SAMPLER_FEEDBACK_MIN_MIP`: the most detailed mip sampled per region; cleared to
/// `0xffffffff`, written by atomic unsigned minimum.
pub const DXSPV_SAMPLER_FEEDBACK_MIN_MIP: dxspv_sampler_feedback_kind = 1;
/// `SAMPLER_FEEDBACK_MIP_REGION_USED`: bit `m` set when mip `m` was sampled in the region;
/// cleared to 0, written by atomic or.
pub const DXSPV_SAMPLER_FEEDBACK_MIP_REGION_USED: dxspv_sampler_feedback_kind = 2;

pub(crate) fn sampler_feedback_code(
    kind: Option<SamplerFeedbackKind>,
) -> dxspv_sampler_feedback_kind {
    match kind {
        None => DXSPV_SAMPLER_FEEDBACK_NONE,
        Some(SamplerFeedbackKind::MinMip) => DXSPV_SAMPLER_FEEDBACK_MIN_MIP,
        Some(SamplerFeedbackKind::MipRegionUsed) => DXSPV_SAMPLER_FEEDBACK_MIP_REGION_USED,
    }
}

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

/// The target environments in code order: `TARGET_ENVS[code]` is the code's.
const TARGET_ENVS: [(dxspv_target_env, TargetEnv); 11] = [
    (DXSPV_TARGET_ENV_VULKAN1_0, TargetEnv::Vulkan1_0),
    (DXSPV_TARGET_ENV_VULKAN1_1, TargetEnv::Vulkan1_1),
    (DXSPV_TARGET_ENV_VULKAN1_2, TargetEnv::Vulkan1_2),
    (DXSPV_TARGET_ENV_VULKAN1_3, TargetEnv::Vulkan1_3),
    (DXSPV_TARGET_ENV_SPIRV1_0, TargetEnv::Spirv1_0),
    (DXSPV_TARGET_ENV_SPIRV1_1, TargetEnv::Spirv1_1),
    (DXSPV_TARGET_ENV_SPIRV1_2, TargetEnv::Spirv1_2),
    (DXSPV_TARGET_ENV_SPIRV1_3, TargetEnv::Spirv1_3),
    (DXSPV_TARGET_ENV_SPIRV1_4, TargetEnv::Spirv1_4),
    (DXSPV_TARGET_ENV_SPIRV1_5, TargetEnv::Spirv1_5),
    (DXSPV_TARGET_ENV_SPIRV1_6, TargetEnv::Spirv1_6),
];

pub(crate) fn target_env_code(env: TargetEnv) -> dxspv_target_env {
    match env {
        TargetEnv::Vulkan1_0 => DXSPV_TARGET_ENV_VULKAN1_0,
        TargetEnv::Vulkan1_1 => DXSPV_TARGET_ENV_VULKAN1_1,
        TargetEnv::Vulkan1_2 => DXSPV_TARGET_ENV_VULKAN1_2,
        TargetEnv::Vulkan1_3 => DXSPV_TARGET_ENV_VULKAN1_3,
        TargetEnv::Spirv1_0 => DXSPV_TARGET_ENV_SPIRV1_0,
        TargetEnv::Spirv1_1 => DXSPV_TARGET_ENV_SPIRV1_1,
        TargetEnv::Spirv1_2 => DXSPV_TARGET_ENV_SPIRV1_2,
        TargetEnv::Spirv1_3 => DXSPV_TARGET_ENV_SPIRV1_3,
        TargetEnv::Spirv1_4 => DXSPV_TARGET_ENV_SPIRV1_4,
        TargetEnv::Spirv1_5 => DXSPV_TARGET_ENV_SPIRV1_5,
        TargetEnv::Spirv1_6 => DXSPV_TARGET_ENV_SPIRV1_6,
    }
}

pub(crate) fn shader_stage_code(stage: Option<ShaderStage>) -> dxspv_shader_stage {
    match stage {
        None => DXSPV_SHADER_STAGE_NONE,
        Some(ShaderStage::Pixel) => DXSPV_SHADER_STAGE_PIXEL,
        Some(ShaderStage::Vertex) => DXSPV_SHADER_STAGE_VERTEX,
        Some(ShaderStage::Geometry) => DXSPV_SHADER_STAGE_GEOMETRY,
        Some(ShaderStage::Hull) => DXSPV_SHADER_STAGE_HULL,
        Some(ShaderStage::Domain) => DXSPV_SHADER_STAGE_DOMAIN,
        Some(ShaderStage::Compute) => DXSPV_SHADER_STAGE_COMPUTE,
        Some(ShaderStage::Mesh) => DXSPV_SHADER_STAGE_MESH,
        Some(ShaderStage::Amplification) => DXSPV_SHADER_STAGE_AMPLIFICATION,
    }
}

/// The `VkShaderStageFlagBits` of a stage (0 for none).
pub(crate) fn vk_shader_stage(stage: Option<ShaderStage>) -> u32 {
    match stage {
        None => 0,
        Some(ShaderStage::Vertex) => 0x1,
        Some(ShaderStage::Hull) => 0x2,
        Some(ShaderStage::Domain) => 0x4,
        Some(ShaderStage::Geometry) => 0x8,
        Some(ShaderStage::Pixel) => 0x10,
        Some(ShaderStage::Compute) => 0x20,
        Some(ShaderStage::Amplification) => 0x40,
        Some(ShaderStage::Mesh) => 0x80,
    }
}

pub(crate) fn image_dim_code(dim: Option<ImageDim>) -> dxspv_image_dim {
    match dim {
        None => DXSPV_IMAGE_DIM_NONE,
        Some(ImageDim::Buffer) => DXSPV_IMAGE_DIM_BUFFER,
        Some(ImageDim::Dim1D) => DXSPV_IMAGE_DIM_1D,
        Some(ImageDim::Dim2D) => DXSPV_IMAGE_DIM_2D,
        Some(ImageDim::Dim3D) => DXSPV_IMAGE_DIM_3D,
        Some(ImageDim::Cube) => DXSPV_IMAGE_DIM_CUBE,
    }
}

pub(crate) fn image_format_code(format: ImageFormat) -> dxspv_image_format {
    match format {
        ImageFormat::Unknown => DXSPV_IMAGE_FORMAT_UNKNOWN,
        ImageFormat::R32f => DXSPV_IMAGE_FORMAT_R32_SFLOAT,
        ImageFormat::R32i => DXSPV_IMAGE_FORMAT_R32_SINT,
        ImageFormat::R32ui => DXSPV_IMAGE_FORMAT_R32_UINT,
        ImageFormat::R64i => DXSPV_IMAGE_FORMAT_R64_SINT,
        ImageFormat::R64ui => DXSPV_IMAGE_FORMAT_R64_UINT,
    }
}

pub(crate) fn scalar_kind_code(kind: ScalarKind) -> dxspv_scalar_kind {
    match kind {
        ScalarKind::Float => DXSPV_SCALAR_KIND_FLOAT,
        ScalarKind::Sint => DXSPV_SCALAR_KIND_SINT,
        ScalarKind::Uint => DXSPV_SCALAR_KIND_UINT,
        ScalarKind::Bool => DXSPV_SCALAR_KIND_BOOL,
    }
}

/// A `dxspv_target_env` argument, checked.
pub(crate) fn target_env(value: dxspv_target_env, param: &str) -> Result<TargetEnv, Failure> {
    TARGET_ENVS
        .get(value as usize)
        .map(|(_, env)| *env)
        .ok_or_else(|| out_of_range(param, value, "dxspv_target_env"))
}

/// A `dxspv_d3d9_texture_type` argument, checked.
pub(crate) fn d3d9_texture_type(
    value: dxspv_d3d9_texture_type,
    param: &str,
) -> Result<TextureType, Failure> {
    match value {
        DXSPV_D3D9_TEXTURE_TYPE_UNKNOWN => Ok(TextureType::Unknown),
        DXSPV_D3D9_TEXTURE_TYPE_1D => Ok(TextureType::Texture1D),
        DXSPV_D3D9_TEXTURE_TYPE_2D => Ok(TextureType::Texture2D),
        DXSPV_D3D9_TEXTURE_TYPE_CUBE => Ok(TextureType::Cube),
        DXSPV_D3D9_TEXTURE_TYPE_VOLUME => Ok(TextureType::Volume),
        _ => Err(out_of_range(param, value, "dxspv_d3d9_texture_type")),
    }
}

/// A `dxspv_d3d9_float_emulation` argument, checked.
pub(crate) fn d3d9_float_emulation(
    value: dxspv_d3d9_float_emulation,
    param: &str,
) -> Result<FloatEmulation, Failure> {
    match value {
        DXSPV_D3D9_FLOAT_EMULATION_STRICT => Ok(FloatEmulation::Strict),
        DXSPV_D3D9_FLOAT_EMULATION_FAST => Ok(FloatEmulation::Fast),
        DXSPV_D3D9_FLOAT_EMULATION_OFF => Ok(FloatEmulation::Off),
        _ => Err(out_of_range(param, value, "dxspv_d3d9_float_emulation")),
    }
}

/// A `dxspv_d3d9_dynamic_state` argument, checked: no bit outside `DXSPV_D3D9_DYNAMIC_ALL`.
pub(crate) fn d3d9_dynamic_state(
    value: dxspv_d3d9_dynamic_state,
    param: &str,
) -> Result<DynamicState, Failure> {
    if value & !DXSPV_D3D9_DYNAMIC_ALL != 0 {
        return Err(out_of_range(param, value, "dxspv_d3d9_dynamic_state"));
    }
    let states = [
        (DXSPV_D3D9_DYNAMIC_ALPHA_TEST, DynamicState::ALPHA_TEST),
        (DXSPV_D3D9_DYNAMIC_FOG, DynamicState::FOG),
        (DXSPV_D3D9_DYNAMIC_CLIP_PLANES, DynamicState::CLIP_PLANES),
    ];
    Ok(states
        .into_iter()
        .filter(|(bit, _)| value & bit != 0)
        .fold(DynamicState::NONE, |set, (_, state)| set | state))
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

/// The name of a target environment as `spirv-val --target-env` and glslang spell it
/// (`"vulkan1.3"`, `"spirv1.4"`; spirv-val also takes `"spv1.4"` for the latter), or NULL for
/// a value this version does not define. The string is static: never free it.
///
/// Thread safety: may be called from any thread at any time.
#[no_mangle]
pub extern "C" fn dxspv_target_env_name(env: dxspv_target_env) -> *const c_char {
    // A match over constants: nothing here can panic, so no guard is needed.
    let name: &'static CStr = match env {
        DXSPV_TARGET_ENV_VULKAN1_0 => c"vulkan1.0",
        DXSPV_TARGET_ENV_VULKAN1_1 => c"vulkan1.1",
        DXSPV_TARGET_ENV_VULKAN1_2 => c"vulkan1.2",
        DXSPV_TARGET_ENV_VULKAN1_3 => c"vulkan1.3",
        DXSPV_TARGET_ENV_SPIRV1_0 => c"spirv1.0",
        DXSPV_TARGET_ENV_SPIRV1_1 => c"spirv1.1",
        DXSPV_TARGET_ENV_SPIRV1_2 => c"spirv1.2",
        DXSPV_TARGET_ENV_SPIRV1_3 => c"spirv1.3",
        DXSPV_TARGET_ENV_SPIRV1_4 => c"spirv1.4",
        DXSPV_TARGET_ENV_SPIRV1_5 => c"spirv1.5",
        DXSPV_TARGET_ENV_SPIRV1_6 => c"spirv1.6",
        _ => return std::ptr::null(),
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
    fn target_envs_round_trip_with_their_names() {
        for (code, env) in TARGET_ENVS {
            assert_eq!(target_env(code, "env").unwrap(), env);
            assert_eq!(target_env_code(env), code);
            assert_eq!(name(dxspv_target_env_name(code)), env.name());
        }
        assert_eq!(TARGET_ENVS.len(), TargetEnv::ALL.len());
        assert!(dxspv_target_env_name(11).is_null());
        let e = target_env(11, "env").unwrap_err();
        assert_eq!(e.message, "env: 11 is not a dxspv_target_env value");
    }

    #[test]
    fn reflection_codes_are_vulkans_where_vulkan_has_them() {
        use ash::vk;
        for (stage, vk) in [
            (ShaderStage::Vertex, vk::ShaderStageFlags::VERTEX),
            (
                ShaderStage::Hull,
                vk::ShaderStageFlags::TESSELLATION_CONTROL,
            ),
            (
                ShaderStage::Domain,
                vk::ShaderStageFlags::TESSELLATION_EVALUATION,
            ),
            (ShaderStage::Geometry, vk::ShaderStageFlags::GEOMETRY),
            (ShaderStage::Pixel, vk::ShaderStageFlags::FRAGMENT),
            (ShaderStage::Compute, vk::ShaderStageFlags::COMPUTE),
            (ShaderStage::Amplification, vk::ShaderStageFlags::TASK_EXT),
            (ShaderStage::Mesh, vk::ShaderStageFlags::MESH_EXT),
        ] {
            assert_eq!(vk_shader_stage(Some(stage)), vk.as_raw(), "{stage:?}");
            // The D3D stage codes are the IR's (D3D11_SHADER_VERSION_TYPE) literals.
            assert_eq!(
                u64::from(shader_stage_code(Some(stage))),
                stage.to_literal()
            );
        }
        for (format, vk) in [
            (ImageFormat::Unknown, vk::Format::UNDEFINED),
            (ImageFormat::R32f, vk::Format::R32_SFLOAT),
            (ImageFormat::R32i, vk::Format::R32_SINT),
            (ImageFormat::R32ui, vk::Format::R32_UINT),
        ] {
            assert_eq!(image_format_code(format) as i32, vk.as_raw(), "{format:?}");
        }
    }

    #[test]
    fn d3d9_codes_are_the_dcl_token_values() {
        for v in 0..=4 {
            assert_eq!(
                d3d9_texture_type(v, "type").unwrap(),
                TextureType::from_raw(v).unwrap()
            );
        }
        assert!(d3d9_texture_type(5, "type").is_err());
        assert_eq!(
            d3d9_float_emulation(DXSPV_D3D9_FLOAT_EMULATION_FAST, "mode").unwrap(),
            FloatEmulation::Fast
        );
        assert!(d3d9_float_emulation(3, "mode").is_err());
    }

    #[test]
    fn out_of_range_arguments_are_refused_by_name() {
        let e = ir_stage(2, "stage").unwrap_err();
        assert_eq!(e.status, DXSPV_ERROR_INVALID_ARGUMENT);
        assert_eq!(e.message, "stage: 2 is not a dxspv_ir_stage value");
        assert!(min_precision(u32::MAX, "mode").is_err());
        assert!(register_class(5, "class").is_err());
        assert!(d3d9_dynamic_state(8, "states").is_err());
        assert_eq!(
            d3d9_dynamic_state(DXSPV_D3D9_DYNAMIC_ALL, "states").unwrap(),
            DynamicState::ALL
        );
        assert_eq!(
            register_class(4, "class").unwrap(),
            RegisterClass::UavCounter
        );
    }
}
