//! Reflection: what a program needs to bind the emitted module, filled by the emitter as it
//! declares things ([`Reflection`]).
//!
//! It holds what `spirv-cross --reflect` would find in the module — the stage, entry point
//! and workgroup size; every descriptor with its set, binding and type, and for images and
//! texel buffers their dimension, arrayness, multisampling, format and texel type; the
//! byte size of constant buffers and the element stride of raw and structured buffers; the
//! push constant ranges and specialization constants; the inputs and outputs with their
//! location, component type, vector size and array sizes — plus what only the translator
//! knows: the D3D register, space and class of each resource, the D3D semantic of each
//! input and output (built-ins get their system-value name, [`d3d_system_value`]), which
//! samplers do depth comparisons, and the target, capabilities and extensions a device must
//! support.

use crate::TargetEnv;
use dxspv_ir::{BuiltIn, ShaderStage};
use std::borrow::Cow;

/// The D3D register class of a resource.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RegisterClass {
    /// Constant buffer, `b` register.
    Cbv,
    /// Shader resource view, `t` register.
    Srv,
    /// Unordered access view, `u` register.
    Uav,
    /// Sampler, `s` register.
    Sampler,
    /// Hidden counter of the UAV in `u` register.
    UavCounter,
}

/// The Vulkan descriptor type a resource is bound as.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DescriptorType {
    /// `VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER`.
    UniformBuffer,
    /// `VK_DESCRIPTOR_TYPE_STORAGE_BUFFER`.
    StorageBuffer,
    /// `VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE`.
    SampledImage,
    /// `VK_DESCRIPTOR_TYPE_STORAGE_IMAGE`.
    StorageImage,
    /// `VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER`.
    UniformTexelBuffer,
    /// `VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER`.
    StorageTexelBuffer,
    /// `VK_DESCRIPTOR_TYPE_SAMPLER`.
    Sampler,
}

/// The kind of number a value holds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum ScalarKind {
    /// A floating-point number.
    #[default]
    Float,
    /// A signed integer.
    Sint,
    /// An unsigned integer.
    Uint,
    /// A boolean (built-ins such as `SV_IsFrontFace` only).
    Bool,
}

/// The dimension of an image (`OpTypeImage`'s `Dim`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ImageDim {
    /// A texel buffer (`Buffer`).
    Buffer,
    /// `1D`.
    Dim1D,
    /// `2D`.
    Dim2D,
    /// `3D`.
    Dim3D,
    /// `Cube`.
    Cube,
}

/// The image format of a storage image or storage texel buffer (`OpTypeImage`'s `Image
/// Format`): `Unknown` unless a typed UAV needs a fixed format (texel atomics need `R32`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ImageFormat {
    /// `Unknown`: any format the view has (reads and writes without format).
    Unknown,
    /// `R32f`.
    R32f,
    /// `R32i`.
    R32i,
    /// `R32ui`.
    R32ui,
    /// `R64i` (SM 6.6's 64-bit typed UAVs, `SPV_EXT_shader_image_int64`).
    R64i,
    /// `R64ui`.
    R64ui,
}

/// The shape of an image or texel buffer descriptor.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ImageInfo {
    /// Its dimension.
    pub dim: ImageDim,
    /// Whether it is an array of layers (`Texture2DArray`, ...).
    pub arrayed: bool,
    /// Whether it is multisampled (`Texture2DMS`, ...).
    pub multisampled: bool,
    /// Its format (see [`ImageFormat`]).
    pub format: ImageFormat,
    /// The kind of its texel components (32-bit: `float`, `int` or `uint` views).
    pub sampled_type: ScalarKind,
}

/// What a sampler feedback map records (D3D's `D3D12_FEEDBACK_MAP_*` kinds), emulated as an
/// `R32ui` storage image with a texel per mip region of the paired texture's mip 0; see
/// `docs/sampler_feedback.md` for its size, clear value and encoding.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SamplerFeedbackKind {
    /// `SAMPLER_FEEDBACK_MIN_MIP`: the most detailed mip sampled in the region; cleared to
    /// `0xffffffff` (nothing sampled), written by atomic unsigned minimum.
    MinMip,
    /// `SAMPLER_FEEDBACK_MIP_REGION_USED`: bit `m` set when mip `m` was sampled in the region;
    /// cleared to 0, written by atomic or.
    MipRegionUsed,
}

/// One resource binding: where D3D declared it and where Vulkan expects it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResourceBinding {
    /// Register class.
    pub class: RegisterClass,
    /// D3D register space.
    pub space: u32,
    /// D3D register (first register of an array).
    pub register: u32,
    /// Descriptor array size; `0` for unbounded.
    pub count: u32,
    /// Vulkan descriptor set.
    pub set: u32,
    /// Vulkan binding.
    pub binding: u32,
    /// Vulkan descriptor type.
    pub descriptor_type: DescriptorType,
    /// Debug name from the IR, if any.
    pub name: Option<String>,
    /// For textures, storage images and texel buffers, the image's shape.
    pub image: Option<ImageInfo>,
    /// For samplers: used by a depth-comparison sample or gather (a D3D
    /// `SamplerComparisonState`, which needs `compareEnable` in its `VkSampler`). D3D lets
    /// only comparison samplers do comparisons, so a sampler the shader compares with is
    /// one; a comparison sampler the shader never uses is reported `false`.
    pub comparison: bool,
    /// For constant buffers: the block's size in bytes, which the bound range must cover.
    pub size: Option<u32>,
    /// For raw and structured buffers: the bytes per element of the buffer's array (4 for a
    /// raw buffer, the structure stride of a structured one).
    pub stride: Option<u32>,
    /// For sampler feedback maps (`FeedbackTexture2D*` UAVs, storage images of `R32ui`):
    /// what the map records, which decides how the host clears and decodes it.
    pub sampler_feedback: Option<SamplerFeedbackKind>,
}

impl ResourceBinding {
    /// The D3D register as written in HLSL, with its space: `t3, space 1`; a UAV counter is
    /// named after its UAV.
    pub fn register_name(&self) -> String {
        let (prefix, letter) = match self.class {
            RegisterClass::Cbv => ("", 'b'),
            RegisterClass::Srv => ("", 't'),
            RegisterClass::Uav => ("", 'u'),
            RegisterClass::Sampler => ("", 's'),
            RegisterClass::UavCounter => ("the counter of ", 'u'),
        };
        format!("{prefix}{letter}{}, space {}", self.register, self.space)
    }
}

/// One shader input or output.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InterfaceVariable {
    /// `Location` for user varyings; `None` for built-ins.
    pub location: Option<u32>,
    /// First component.
    pub component: u32,
    /// The IR built-in name for built-ins (`Position`, `Depth`, `SampleMask`, ...).
    pub builtin: Option<&'static str>,
    /// D3D semantic name and index: as the shader's signature declared it, or for a
    /// built-in without one its system-value name ([`d3d_system_value`]). Common names
    /// (`TEXCOORD`, `SV_Target`, the system values, ...) are borrowed from static strings,
    /// others owned.
    pub semantic: Option<(Cow<'static, str>, u32)>,
    /// Whether this is a per-patch variable (hull outputs / domain inputs).
    pub patch: bool,
    /// The kind of its components (of the variable as declared in SPIR-V).
    pub scalar: ScalarKind,
    /// The bits of one component (16, 32 or 64; a boolean counts as 32).
    pub bits: u32,
    /// Components of its vector (1 for a scalar).
    pub components: u32,
    /// Array sizes, outermost first (empty for a scalar or vector): per-vertex arrays of
    /// geometry, hull and domain shader inputs, varyings spanning several locations, and
    /// built-ins such as `ClipDistance` and `SampleMask`.
    pub array: Vec<u32>,
}

/// One push data range.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PushDataRange {
    /// Byte offset in the push constant block.
    pub offset: u32,
    /// Size in bytes.
    pub size: u32,
}

/// What a spec constant of the module stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SpecConstantKind {
    /// Declared by the shader (`DclSpecConstant`).
    User,
    /// The render target sample count, see [`crate::SAMPLE_COUNT_SPEC_ID`].
    SampleCount,
}

/// One scalar specialization constant of the module.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SpecConstantInfo {
    /// The `SpecId` decoration (`VkSpecializationMapEntry::constantID`).
    pub spec_id: u32,
    /// Default value bits (32-bit; booleans are 0 or 1).
    pub default: u32,
    /// What the constant stands for.
    pub kind: SpecConstantKind,
}

/// What a host needs to know to bind the emitted module.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Reflection {
    /// The D3D shader stage (`None` only in [`Reflection::default`]); its Vulkan execution
    /// model is [`Reflection::execution_model`].
    pub stage: Option<ShaderStage>,
    /// The name of the SPIR-V entry point (`VkPipelineShaderStageCreateInfo::pName`);
    /// borrowed when it is the default `main`.
    pub entry_point: Cow<'static, str>,
    /// A compute shader's workgroup size (`LocalSize`).
    pub workgroup_size: Option<[u32; 3]>,
    /// The target environment the module was written for.
    pub target_env: TargetEnv,
    /// The module's capabilities, by their SPIR-V names (`Shader`, `ImageQuery`, ...):
    /// beyond `Shader`, each may need a device feature.
    pub capabilities: Vec<&'static str>,
    /// The SPIR-V extensions the module uses (each needs its Vulkan extension).
    pub extensions: Vec<&'static str>,
    /// Every descriptor the module declares.
    pub resources: Vec<ResourceBinding>,
    /// Push data ranges.
    pub push_data: Vec<PushDataRange>,
    /// Specialization constants.
    pub spec_constants: Vec<SpecConstantInfo>,
    /// Shader inputs.
    pub inputs: Vec<InterfaceVariable>,
    /// Shader outputs.
    pub outputs: Vec<InterfaceVariable>,
    /// The wave sizes the shader works with (`[WaveSize]`, SM 6.6 and 6.8), if it says: the
    /// host creates the pipeline with one of them as its required subgroup size
    /// ([`WaveSizeRange::choose`]).
    pub wave_size: Option<WaveSizeRange>,
}

/// The wave (subgroup) sizes a shader works with, from Direct3D's `[WaveSize(min, max,
/// preferred)]` (SM 6.6's `[WaveSize(n)]` is `n` to `n`): powers of two from 4 to 128.
///
/// SPIR-V has no execution mode for it in Vulkan; the host passes a size in the range as
/// `VkPipelineShaderStageRequiredSubgroupSizeCreateInfo::requiredSubgroupSize` (Vulkan 1.3 or
/// `VK_EXT_subgroup_size_control`, for stages in `requiredSubgroupSizeStages`), and for a
/// compute shader also sets `VK_PIPELINE_SHADER_STAGE_CREATE_REQUIRE_FULL_SUBGROUPS_BIT`, as
/// Direct3D fills every wave of a group whose size is a multiple of the wave size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WaveSizeRange {
    /// The smallest size.
    pub min: u32,
    /// The largest size (`min` for SM 6.6's single size).
    pub max: u32,
    /// The size the shader runs best with, if it names one (within `min..=max`).
    pub preferred: Option<u32>,
}

impl WaveSizeRange {
    /// The subgroup size to require on a device whose sizes are `device_min..=device_max`
    /// (`VkPhysicalDeviceSubgroupSizeControlProperties::minSubgroupSize`, `maxSubgroupSize`):
    /// the preferred size if the device has it, else the largest size both allow; `None` if
    /// they share none (the shader cannot run there, as a Direct3D device would refuse it).
    pub fn choose(&self, device_min: u32, device_max: u32) -> Option<u32> {
        let fits = |n: u32| (device_min..=device_max).contains(&n);
        if let Some(p) = self.preferred.filter(|&p| fits(p)) {
            return Some(p);
        }
        let mut n = self.max;
        while n >= self.min && n >= 1 {
            if fits(n) {
                return Some(n);
            }
            n /= 2;
        }
        None
    }
}

impl Reflection {
    /// The SPIR-V execution model of the stage, as SPIR-V names it (`Fragment`, `Vertex`,
    /// `Geometry`, `TessellationControl`, `TessellationEvaluation`, `GLCompute`).
    pub fn execution_model(&self) -> Option<&'static str> {
        Some(match self.stage? {
            ShaderStage::Pixel => "Fragment",
            ShaderStage::Vertex => "Vertex",
            ShaderStage::Geometry => "Geometry",
            ShaderStage::Hull => "TessellationControl",
            ShaderStage::Domain => "TessellationEvaluation",
            ShaderStage::Compute => "GLCompute",
            ShaderStage::Mesh => "MeshEXT",
            ShaderStage::Amplification => "TaskEXT",
        })
    }
}

/// The D3D system-value semantic of a built-in (`SV_Position`, `SV_Depth`, `SV_Coverage`,
/// ...; the D3D9 ones `PSIZE`, `FOG`, `VPOS`), or `None` for the values D3D reads through
/// intrinsics rather than a signature (`GetRenderTargetSampleCount()`,
/// `GetRenderTargetSamplePosition()`, the input patch size, `WaveGetLaneIndex()`,
/// `WaveGetLaneCount()`) and a mesh shader's `indices` array. `depth` names the depth
/// output's variant: `SV_DepthGreaterEqual`/`SV_DepthLessEqual` when the shader declared
/// one.
pub fn d3d_system_value(builtin: BuiltIn, depth: Option<&'static str>) -> Option<&'static str> {
    Some(match builtin {
        BuiltIn::Position => "SV_Position",
        BuiltIn::ClipDistance => "SV_ClipDistance",
        BuiltIn::CullDistance => "SV_CullDistance",
        BuiltIn::VertexId => "SV_VertexID",
        BuiltIn::InstanceId => "SV_InstanceID",
        BuiltIn::PrimitiveId => "SV_PrimitiveID",
        BuiltIn::LayerIndex => "SV_RenderTargetArrayIndex",
        BuiltIn::ViewportIndex => "SV_ViewportArrayIndex",
        BuiltIn::GsInstanceId => "SV_GSInstanceID",
        BuiltIn::TessControlPointId => "SV_OutputControlPointID",
        BuiltIn::TessCoord => "SV_DomainLocation",
        BuiltIn::TessFactorInner => "SV_InsideTessFactor",
        BuiltIn::TessFactorOuter => "SV_TessFactor",
        BuiltIn::SampleId => "SV_SampleIndex",
        BuiltIn::SampleMask => "SV_Coverage",
        BuiltIn::IsFrontFace => "SV_IsFrontFace",
        BuiltIn::Depth => depth.unwrap_or("SV_Depth"),
        BuiltIn::StencilRef => "SV_StencilRef",
        BuiltIn::IsFullyCovered => "SV_InnerCoverage",
        BuiltIn::WorkgroupId => "SV_GroupID",
        BuiltIn::GlobalThreadId => "SV_DispatchThreadID",
        BuiltIn::LocalThreadId => "SV_GroupThreadID",
        BuiltIn::LocalThreadIndex => "SV_GroupIndex",
        BuiltIn::ViewId => "SV_ViewID",
        BuiltIn::Barycentrics => "SV_Barycentrics",
        BuiltIn::ShadingRate => "SV_ShadingRate",
        BuiltIn::CullPrimitive => "SV_CullPrimitive",
        BuiltIn::StartVertexLocation => "SV_StartVertexLocation",
        BuiltIn::StartInstanceLocation => "SV_StartInstanceLocation",
        BuiltIn::PointSize => "PSIZE",
        BuiltIn::Fog => "FOG",
        BuiltIn::PixelPosition => "VPOS",
        BuiltIn::SampleCount
        | BuiltIn::SamplePosition
        | BuiltIn::TessControlPointCountIn
        | BuiltIn::WaveLaneIndex
        | BuiltIn::WaveLaneCount
        | BuiltIn::PrimitiveIndices => return None,
    })
}

/// Semantic names common enough that the reflection borrows them rather than allocating
/// (see [`InterfaceVariable::semantic`]): every system value [`d3d_system_value`] names, the
/// spellings of `SV_Target` and `SV_Position` compilers write, and the D3D9 vertex
/// declaration usages (`D3DDECLUSAGE`).
pub(crate) const COMMON_SEMANTICS: [&str; 50] = [
    "SV_Position",
    "SV_POSITION",
    "SV_Target",
    "SV_TARGET",
    "SV_ClipDistance",
    "SV_CullDistance",
    "SV_VertexID",
    "SV_InstanceID",
    "SV_PrimitiveID",
    "SV_RenderTargetArrayIndex",
    "SV_ViewportArrayIndex",
    "SV_GSInstanceID",
    "SV_OutputControlPointID",
    "SV_DomainLocation",
    "SV_InsideTessFactor",
    "SV_TessFactor",
    "SV_SampleIndex",
    "SV_Coverage",
    "SV_IsFrontFace",
    "SV_Depth",
    "SV_DepthGreaterEqual",
    "SV_DepthLessEqual",
    "SV_StencilRef",
    "SV_InnerCoverage",
    "SV_GroupID",
    "SV_DispatchThreadID",
    "SV_GroupThreadID",
    "SV_GroupIndex",
    "SV_ViewID",
    "SV_Barycentrics",
    "SV_ShadingRate",
    "SV_CullPrimitive",
    "SV_StartVertexLocation",
    "SV_StartInstanceLocation",
    "POSITION",
    "POSITIONT",
    "BLENDWEIGHT",
    "BLENDINDICES",
    "NORMAL",
    "PSIZE",
    "TEXCOORD",
    "TANGENT",
    "BINORMAL",
    "TESSFACTOR",
    "COLOR",
    "FOG",
    "DEPTH",
    "SAMPLE",
    "VPOS",
    "VFACE",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_wave_size_is_chosen_from_what_the_device_has() {
        let range = WaveSizeRange {
            min: 16,
            max: 64,
            preferred: Some(32),
        };
        assert_eq!(range.choose(4, 128), Some(32));
        assert_eq!(range.choose(64, 64), Some(64));
        assert_eq!(range.choose(8, 16), Some(16));
        assert_eq!(range.choose(4, 8), None);
        assert_eq!(range.choose(128, 128), None);
        let one = WaveSizeRange {
            min: 32,
            max: 32,
            preferred: None,
        };
        assert_eq!(one.choose(32, 64), Some(32));
        assert_eq!(one.choose(64, 64), None);
    }

    #[test]
    fn every_system_value_name_is_common() {
        for b in BuiltIn::ALL {
            for depth in [
                None,
                Some("SV_DepthGreaterEqual"),
                Some("SV_DepthLessEqual"),
            ] {
                if let Some(name) = d3d_system_value(*b, depth) {
                    assert!(COMMON_SEMANTICS.contains(&name), "{name}");
                }
            }
        }
    }

    #[test]
    fn built_ins_have_their_system_value_names() {
        assert_eq!(d3d_system_value(BuiltIn::Depth, None), Some("SV_Depth"));
        assert_eq!(
            d3d_system_value(BuiltIn::Depth, Some("SV_DepthLessEqual")),
            Some("SV_DepthLessEqual")
        );
        assert_eq!(
            d3d_system_value(BuiltIn::SampleMask, None),
            Some("SV_Coverage")
        );
        assert_eq!(d3d_system_value(BuiltIn::SampleCount, None), None);
        // Every system value of SM 4-6 is named SV_*; only the D3D9 ones are not.
        for b in BuiltIn::ALL {
            if let Some(name) = d3d_system_value(*b, None) {
                let d3d9 = matches!(
                    b,
                    BuiltIn::PointSize | BuiltIn::Fog | BuiltIn::PixelPosition
                );
                assert_eq!(name.starts_with("SV_"), !d3d9, "{b:?}: {name}");
            }
        }
    }
}
