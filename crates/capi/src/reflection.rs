//! Reflection as plain C structs: arrays of structs with counts, owned by the result object.
//!
//! [`ReflectionStore`] converts a [`Reflection`] once, when the result is made: one array per
//! kind of record, one buffer holding every string (names, built-ins, semantics, the entry
//! point, capabilities and extensions), each NUL-terminated, and one holding the array sizes
//! of every interface variable. The strings are written first and the buffer is never touched again, so
//! the `const char *` pointers into it stay valid for the result's lifetime; a string with a
//! NUL inside reads, in C, up to that NUL.

use crate::codes::*;
use dxspv::spirv::{ImageInfo, InterfaceVariable, Reflection};
use std::ffi::c_char;

/// The shape of an image or texel buffer descriptor (`dxspv_resource_binding::image`): what
/// the `VkImageView` or `VkBufferView` bound there must match.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct dxspv_image_info {
    /// The dimension (`DXSPV_IMAGE_DIM_*`); `DXSPV_IMAGE_DIM_NONE` when the resource is not an
    /// image or texel buffer (the other fields are then 0 / false).
    pub dim: dxspv_image_dim,
    /// The declared format of a storage image or storage texel buffer
    /// (`DXSPV_IMAGE_FORMAT_*`, equal to `VkFormat`): `UNKNOWN` unless texel atomics need a
    /// fixed one.
    pub format: dxspv_image_format,
    /// The kind of the texel components the shader reads or writes (`DXSPV_SCALAR_KIND_*`:
    /// a `float`, `int` or `uint` view format).
    pub sampled_type: dxspv_scalar_kind,
    /// Whether it is an array of layers (`Texture2DArray`, ...).
    pub arrayed: bool,
    /// Whether it is multisampled (`Texture2DMS`, ...).
    pub multisampled: bool,
}

/// `dxspv_resource_binding::size` and `::stride` when the resource has none.
pub const DXSPV_NO_SIZE: u32 = u32::MAX;

/// One resource: where D3D declared it and where Vulkan expects it.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct dxspv_resource_binding {
    /// The D3D register class (`DXSPV_REGISTER_CLASS_*`).
    pub register_class: dxspv_register_class,
    /// The D3D register space.
    pub space: u32,
    /// The D3D register (the first of an array): the `N` of `register(tN)`.
    pub register_index: u32,
    /// The descriptor array size; 0 for an unbounded array.
    pub count: u32,
    /// The Vulkan descriptor set.
    pub set: u32,
    /// The Vulkan binding.
    pub binding: u32,
    /// The Vulkan descriptor type (`DXSPV_DESCRIPTOR_TYPE_*`, equal to `VkDescriptorType`).
    pub descriptor_type: dxspv_descriptor_type,
    /// The resource's name in the shader, or NULL.
    pub name: *const c_char,
    /// For textures, storage images and texel buffers, the image's shape; otherwise its `dim`
    /// is `DXSPV_IMAGE_DIM_NONE`.
    pub image: dxspv_image_info,
    /// For samplers: a depth-comparison sampler (D3D `SamplerComparisonState`, or a D3D9
    /// depth-compare sampler): its `VkSampler` needs `compareEnable`. False for a comparison
    /// sampler the shader never compares with.
    pub comparison: bool,
    /// For constant buffers: the block's size in bytes, which the bound range must cover;
    /// `DXSPV_NO_SIZE` for other resources.
    pub size: u32,
    /// For raw and structured buffers: the bytes per element (4 for a raw buffer, the
    /// structure stride of a structured one); `DXSPV_NO_SIZE` for other resources.
    pub stride: u32,
    /// For sampler feedback maps (`FeedbackTexture2D*` UAVs, `R32_UINT` storage images): what
    /// the map records (`DXSPV_SAMPLER_FEEDBACK_*`), which decides how the host clears and
    /// decodes it; `DXSPV_SAMPLER_FEEDBACK_NONE` for other resources.
    pub sampler_feedback: dxspv_sampler_feedback_kind,
}

/// One push constant range.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct dxspv_push_data_range {
    /// Byte offset in the push constant block.
    pub offset: u32,
    /// Size in bytes.
    pub size: u32,
}

/// One scalar specialization constant.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct dxspv_spec_constant {
    /// The `SpecId` (`VkSpecializationMapEntry::constantID`).
    pub spec_id: u32,
    /// The default value's 32 bits (booleans are 0 or 1).
    pub default_value: u32,
    /// What it stands for (`DXSPV_SPEC_CONSTANT_KIND_*`).
    pub kind: dxspv_spec_constant_kind,
}

/// One shader input or output.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct dxspv_interface_variable {
    /// The `Location` of a user varying; `DXSPV_NO_LOCATION` for a built-in.
    pub location: u32,
    /// The first component.
    pub component: u32,
    /// The built-in's name (`"Position"`, `"VertexIndex"`, ...), or NULL for a user varying.
    pub builtin: *const c_char,
    /// The D3D semantic name (`"TEXCOORD"`), or NULL when none was declared.
    pub semantic_name: *const c_char,
    /// The D3D semantic index (0 when there is no semantic).
    pub semantic_index: u32,
    /// Whether it is per patch (hull shader outputs, domain shader inputs).
    pub patch: bool,
    /// The kind of its components as SPIR-V declares them (`DXSPV_SCALAR_KIND_*`).
    pub scalar_kind: dxspv_scalar_kind,
    /// The bits of one component (16, 32 or 64; a boolean counts as 32).
    pub bits: u32,
    /// The components of its vector (1 for a scalar).
    pub components: u32,
    /// Its array sizes, outermost first: per-vertex arrays of geometry, hull and domain
    /// shader inputs, varyings spanning several locations, built-ins such as `ClipDistance`.
    /// NULL when `array_size_count` is 0 (a plain scalar or vector).
    pub array_sizes: *const u32,
    /// The number of `array_sizes`.
    pub array_size_count: usize,
}

/// What a program needs to bind a compiled module. Each array has its count beside it and is
/// NULL when the count is 0; everything belongs to the result object it came from.
///
/// Only the library allocates this struct, so later versions may add fields at its end
/// without an ABI change (ABI 2 added everything from `stage` on; ABI 3 added
/// `dxspv_resource_binding::sampler_feedback`); the element structs of the arrays cannot grow that way (their size
/// is the array's stride), so a change to them changes `DXSPV_ABI_VERSION`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct dxspv_reflection {
    /// Every descriptor the module declares.
    pub resources: *const dxspv_resource_binding,
    /// The number of `resources`.
    pub resource_count: usize,
    /// The push constant ranges.
    pub push_data: *const dxspv_push_data_range,
    /// The number of `push_data` ranges.
    pub push_data_count: usize,
    /// The specialization constants.
    pub spec_constants: *const dxspv_spec_constant,
    /// The number of `spec_constants`.
    pub spec_constant_count: usize,
    /// The shader inputs.
    pub inputs: *const dxspv_interface_variable,
    /// The number of `inputs`.
    pub input_count: usize,
    /// The shader outputs.
    pub outputs: *const dxspv_interface_variable,
    /// The number of `outputs`.
    pub output_count: usize,
    /// The D3D shader stage (`DXSPV_SHADER_STAGE_*`).
    pub stage: dxspv_shader_stage,
    /// The stage as a `VkShaderStageFlagBits` value (`VK_SHADER_STAGE_FRAGMENT_BIT` for a
    /// pixel shader, ...), for `VkPipelineShaderStageCreateInfo::stage` and descriptor set
    /// layouts.
    pub vk_shader_stage: u32,
    /// The SPIR-V execution model's name (`"Fragment"`, `"Vertex"`, `"GLCompute"`, ...).
    pub execution_model: *const c_char,
    /// The entry point's name (`VkPipelineShaderStageCreateInfo::pName`).
    pub entry_point: *const c_char,
    /// A compute shader's workgroup size (`LocalSize`); all 0 for other stages.
    pub workgroup_size: [u32; 3],
    /// The environment the module was written for (`DXSPV_TARGET_ENV_*`): its SPIR-V version
    /// and memory model.
    pub target_env: dxspv_target_env,
    /// The module's capabilities by their SPIR-V names (`"Shader"`, `"ImageQuery"`, ...):
    /// beyond `Shader`, each may need a device feature.
    pub capabilities: *const *const c_char,
    /// The number of `capabilities`.
    pub capability_count: usize,
    /// The SPIR-V extensions the module uses (`"SPV_EXT_demote_to_helper_invocation"`, ...):
    /// each needs its Vulkan extension or core version.
    pub extensions: *const *const c_char,
    /// The number of `extensions`.
    pub extension_count: usize,
    /// The wave (subgroup) sizes the shader works with, from `[WaveSize(min, max, preferred)]`:
    /// `{min, max, preferred}`, `preferred` 0 when the shader names none; all 0 when the shader
    /// sets no wave size (any size works). The host picks a size in the range with
    /// `VK_EXT_subgroup_size_control` (`requiredSubgroupSize`).
    pub wave_size: [u32; 3],
}

/// A [`dxspv_reflection`] and everything it points to.
pub(crate) struct ReflectionStore {
    /// The C view; its pointers lead into the fields below.
    pub view: dxspv_reflection,
    /// The reflection it was made from (for `dxspv_result_reflection_json`).
    pub source: Reflection,
    _resources: Vec<dxspv_resource_binding>,
    _push_data: Vec<dxspv_push_data_range>,
    _spec_constants: Vec<dxspv_spec_constant>,
    _inputs: Vec<dxspv_interface_variable>,
    _outputs: Vec<dxspv_interface_variable>,
    _capabilities: Vec<*const c_char>,
    _extensions: Vec<*const c_char>,
    _array_sizes: Vec<u32>,
    _strings: Vec<u8>,
}

/// The strings of an interface variable, in writing order.
fn interface_strings(v: &InterfaceVariable) -> [Option<&str>; 2] {
    [
        v.builtin,
        v.semantic.as_ref().map(|(name, _)| name.as_ref()),
    ]
}

/// The strings of a reflection, in the one order both passes of [`ReflectionStore::new`] walk.
fn strings(r: &Reflection) -> impl Iterator<Item = Option<&str>> {
    let resources = r.resources.iter().map(|res| res.name.as_deref());
    resources
        .chain(r.inputs.iter().flat_map(interface_strings))
        .chain(r.outputs.iter().flat_map(interface_strings))
        .chain([Some(r.entry_point.as_ref()), r.execution_model()])
        .chain(r.capabilities.iter().map(|c| Some(*c)))
        .chain(r.extensions.iter().map(|e| Some(*e)))
}

/// The C form of a resource's image shape (all zero with `DXSPV_IMAGE_DIM_NONE` for none).
fn image_info(image: Option<&ImageInfo>) -> dxspv_image_info {
    match image {
        None => dxspv_image_info {
            dim: DXSPV_IMAGE_DIM_NONE,
            format: DXSPV_IMAGE_FORMAT_UNKNOWN,
            sampled_type: DXSPV_SCALAR_KIND_FLOAT,
            arrayed: false,
            multisampled: false,
        },
        Some(i) => dxspv_image_info {
            dim: image_dim_code(Some(i.dim)),
            format: image_format_code(i.format),
            sampled_type: scalar_kind_code(i.sampled_type),
            arrayed: i.arrayed,
            multisampled: i.multisampled,
        },
    }
}

/// Hands out the pointers of the strings in a frozen buffer, in writing order.
struct StringCursor<'a, I: Iterator<Item = Option<&'a str>>> {
    base: *const c_char,
    offset: usize,
    order: I,
}

impl<'a, I: Iterator<Item = Option<&'a str>>> StringCursor<'a, I> {
    /// The pointer of the next string, or NULL when it is absent.
    fn next(&mut self) -> *const c_char {
        match self.order.next().flatten() {
            Some(s) => {
                // wrapping_add: plain address arithmetic within the buffer, no dereference.
                let p = self.base.wrapping_add(self.offset);
                self.offset += s.len() + 1;
                p
            }
            None => std::ptr::null(),
        }
    }
}

/// The pointer of a vector's elements for C: NULL when there are none.
fn array<T>(v: &[T]) -> *const T {
    if v.is_empty() {
        std::ptr::null()
    } else {
        v.as_ptr()
    }
}

impl ReflectionStore {
    /// Converts `source`: copies every record into its C struct and every string into one
    /// buffer, and keeps `source`.
    pub fn new(source: Reflection) -> Self {
        let r = &source;
        // First pass: every string into one buffer, sized exactly, then frozen.
        let size: usize = strings(r).flatten().map(|s| s.len() + 1).sum();
        let mut buf = Vec::with_capacity(size);
        for s in strings(r).flatten() {
            buf.extend_from_slice(s.as_bytes());
            buf.push(0);
        }
        // Second pass: the records, with string pointers taken in the same order.
        let mut cursor = StringCursor {
            base: buf.as_ptr().cast(),
            offset: 0,
            order: strings(r),
        };
        let resources: Vec<_> = r
            .resources
            .iter()
            .map(|res| dxspv_resource_binding {
                register_class: register_class_code(res.class),
                space: res.space,
                register_index: res.register,
                count: res.count,
                set: res.set,
                binding: res.binding,
                descriptor_type: descriptor_type_code(res.descriptor_type),
                name: cursor.next(),
                image: image_info(res.image.as_ref()),
                comparison: res.comparison,
                size: res.size.unwrap_or(DXSPV_NO_SIZE),
                stride: res.stride.unwrap_or(DXSPV_NO_SIZE),
                sampler_feedback: sampler_feedback_code(res.sampler_feedback),
            })
            .collect();
        // Every interface variable's array sizes in one buffer, filled before any pointer
        // into it is taken.
        let array_sizes: Vec<u32> = r
            .inputs
            .iter()
            .chain(&r.outputs)
            .flat_map(|v| v.array.iter().copied())
            .collect();
        let mut sizes_offset = 0usize;
        let mut interface = |vars: &[InterfaceVariable]| -> Vec<dxspv_interface_variable> {
            vars.iter()
                .map(|v| {
                    let sizes = match array_sizes.get(sizes_offset..sizes_offset + v.array.len()) {
                        Some(s) if !s.is_empty() => s.as_ptr(),
                        _ => std::ptr::null(),
                    };
                    sizes_offset += v.array.len();
                    dxspv_interface_variable {
                        location: v.location.unwrap_or(DXSPV_NO_LOCATION),
                        component: v.component,
                        builtin: cursor.next(),
                        semantic_name: cursor.next(),
                        semantic_index: v.semantic.as_ref().map_or(0, |(_, index)| *index),
                        patch: v.patch,
                        scalar_kind: scalar_kind_code(v.scalar),
                        bits: v.bits,
                        components: v.components,
                        array_sizes: sizes,
                        array_size_count: v.array.len(),
                    }
                })
                .collect()
        };
        let inputs = interface(&r.inputs);
        let outputs = interface(&r.outputs);
        let entry_point = cursor.next();
        let execution_model = cursor.next();
        let capabilities: Vec<_> = r.capabilities.iter().map(|_| cursor.next()).collect();
        let extensions: Vec<_> = r.extensions.iter().map(|_| cursor.next()).collect();
        debug_assert_eq!(
            cursor.offset,
            buf.len(),
            "both passes walk the same strings"
        );
        // The cursor borrows `source`, which moves into the store below.
        drop(cursor);
        let push_data: Vec<_> = r
            .push_data
            .iter()
            .map(|p| dxspv_push_data_range {
                offset: p.offset,
                size: p.size,
            })
            .collect();
        let spec_constants: Vec<_> = r
            .spec_constants
            .iter()
            .map(|c| dxspv_spec_constant {
                spec_id: c.spec_id,
                default_value: c.default,
                kind: spec_constant_kind_code(c.kind),
            })
            .collect();
        let view = dxspv_reflection {
            resources: array(&resources),
            resource_count: resources.len(),
            push_data: array(&push_data),
            push_data_count: push_data.len(),
            spec_constants: array(&spec_constants),
            spec_constant_count: spec_constants.len(),
            inputs: array(&inputs),
            input_count: inputs.len(),
            outputs: array(&outputs),
            output_count: outputs.len(),
            stage: shader_stage_code(r.stage),
            vk_shader_stage: vk_shader_stage(r.stage),
            execution_model,
            entry_point,
            workgroup_size: r.workgroup_size.unwrap_or([0; 3]),
            target_env: target_env_code(r.target_env),
            capabilities: array(&capabilities),
            capability_count: capabilities.len(),
            extensions: array(&extensions),
            extension_count: extensions.len(),
            wave_size: r
                .wave_size
                .map_or([0; 3], |w| [w.min, w.max, w.preferred.unwrap_or(0)]),
        };
        // Moving the vectors (here, and the store into its result) moves their headers, not
        // their elements: the pointers hold.
        ReflectionStore {
            view,
            source,
            _resources: resources,
            _push_data: push_data,
            _spec_constants: spec_constants,
            _inputs: inputs,
            _outputs: outputs,
            _capabilities: capabilities,
            _extensions: extensions,
            _array_sizes: array_sizes,
            _strings: buf,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use dxspv::ir::ShaderStage;
    use dxspv::spirv::{
        DescriptorType, ImageDim, ImageFormat, PushDataRange, RegisterClass, ResourceBinding,
        SamplerFeedbackKind, ScalarKind, SpecConstantInfo, SpecConstantKind, TargetEnv,
        WaveSizeRange,
    };
    use std::ffi::CStr;

    fn string(p: *const c_char) -> Option<String> {
        // SAFETY: the store hands out NULL or pointers to NUL-terminated strings it owns.
        (!p.is_null()).then(|| unsafe { CStr::from_ptr(p) }.to_str().unwrap().to_string())
    }

    fn slice<'a, T>(p: *const T, n: usize) -> &'a [T] {
        if n == 0 {
            assert!(p.is_null());
            return &[];
        }
        // SAFETY: the store's arrays hold `n` initialised elements.
        unsafe { std::slice::from_raw_parts(p, n) }
    }

    #[test]
    fn every_field_and_string_reaches_c() {
        // Struct literals without `..`: a field added to the library's reflection stops this
        // test from compiling until it is given a place in the C structs and checked here.
        let r = Reflection {
            resources: vec![
                ResourceBinding {
                    class: RegisterClass::Srv,
                    space: 2,
                    register: 3,
                    count: 0,
                    set: 4,
                    binding: 1003,
                    descriptor_type: DescriptorType::SampledImage,
                    name: Some("tex".into()),
                    image: Some(ImageInfo {
                        dim: ImageDim::Cube,
                        arrayed: true,
                        multisampled: false,
                        format: ImageFormat::R32ui,
                        sampled_type: ScalarKind::Uint,
                    }),
                    comparison: true,
                    size: Some(64),
                    stride: None,
                    sampler_feedback: Some(SamplerFeedbackKind::MipRegionUsed),
                },
                ResourceBinding {
                    class: RegisterClass::UavCounter,
                    space: 0,
                    register: 1,
                    count: 1,
                    set: 0,
                    binding: 4001,
                    descriptor_type: DescriptorType::StorageBuffer,
                    name: None,
                    image: None,
                    comparison: false,
                    size: None,
                    stride: Some(4),
                    sampler_feedback: None,
                },
            ],
            push_data: vec![PushDataRange {
                offset: 16,
                size: 8,
            }],
            spec_constants: vec![SpecConstantInfo {
                spec_id: 0x4000_0000,
                default: 1,
                kind: SpecConstantKind::SampleCount,
            }],
            inputs: vec![InterfaceVariable {
                location: Some(3),
                component: 2,
                builtin: None,
                semantic: Some(("TEXCOORD".into(), 5)),
                patch: false,
                scalar: ScalarKind::Sint,
                bits: 16,
                components: 2,
                array: vec![3, 2],
            }],
            outputs: vec![InterfaceVariable {
                location: None,
                component: 0,
                builtin: Some("Position"),
                semantic: Some(("SV_Position".into(), 0)),
                patch: true,
                scalar: ScalarKind::Float,
                bits: 32,
                components: 4,
                array: vec![7],
            }],
            stage: Some(ShaderStage::Compute),
            entry_point: "cs_main".into(),
            workgroup_size: Some([8, 4, 2]),
            target_env: TargetEnv::Spirv1_4,
            capabilities: vec!["Shader", "ImageQuery"],
            extensions: vec!["SPV_KHR_shader_draw_parameters"],
            wave_size: Some(WaveSizeRange {
                min: 16,
                max: 64,
                preferred: Some(32),
            }),
        };
        let store = ReflectionStore::new(r);
        let v = &store.view;
        let res = slice(v.resources, v.resource_count);
        assert_eq!(res.len(), 2);
        let t = &res[0];
        assert_eq!(
            (
                t.register_class,
                t.space,
                t.register_index,
                t.count,
                t.set,
                t.binding
            ),
            (DXSPV_REGISTER_CLASS_SRV, 2, 3, 0, 4, 1003)
        );
        assert_eq!(t.descriptor_type, DXSPV_DESCRIPTOR_TYPE_SAMPLED_IMAGE);
        assert_eq!(string(t.name).as_deref(), Some("tex"));
        assert_eq!(res[1].register_class, DXSPV_REGISTER_CLASS_UAV_COUNTER);
        assert_eq!(string(res[1].name), None);
        let image = t.image;
        assert_eq!(
            (image.dim, image.format, image.sampled_type),
            (
                DXSPV_IMAGE_DIM_CUBE,
                DXSPV_IMAGE_FORMAT_R32_UINT,
                DXSPV_SCALAR_KIND_UINT
            )
        );
        assert!(image.arrayed && !image.multisampled && t.comparison);
        assert_eq!((t.size, t.stride), (64, DXSPV_NO_SIZE));
        assert_eq!(res[1].image.dim, DXSPV_IMAGE_DIM_NONE);
        assert_eq!((res[1].size, res[1].stride), (DXSPV_NO_SIZE, 4));
        assert!(!res[1].comparison);
        assert_eq!(
            (t.sampler_feedback, res[1].sampler_feedback),
            (
                DXSPV_SAMPLER_FEEDBACK_MIP_REGION_USED,
                DXSPV_SAMPLER_FEEDBACK_NONE
            )
        );
        let p = slice(v.push_data, v.push_data_count);
        assert_eq!((p[0].offset, p[0].size), (16, 8));
        let c = slice(v.spec_constants, v.spec_constant_count);
        assert_eq!(
            (c[0].spec_id, c[0].default_value, c[0].kind),
            (0x4000_0000, 1, DXSPV_SPEC_CONSTANT_KIND_SAMPLE_COUNT)
        );
        let i = &slice(v.inputs, v.input_count)[0];
        assert_eq!(
            (i.location, i.component, i.semantic_index, i.patch),
            (3, 2, 5, false)
        );
        assert_eq!(string(i.builtin), None);
        assert_eq!(string(i.semantic_name).as_deref(), Some("TEXCOORD"));
        assert_eq!(
            (i.scalar_kind, i.bits, i.components),
            (DXSPV_SCALAR_KIND_SINT, 16, 2)
        );
        assert_eq!(slice(i.array_sizes, i.array_size_count), [3, 2]);
        let o = &slice(v.outputs, v.output_count)[0];
        assert_eq!((o.location, o.patch), (DXSPV_NO_LOCATION, true));
        assert_eq!(string(o.builtin).as_deref(), Some("Position"));
        assert_eq!(string(o.semantic_name).as_deref(), Some("SV_Position"));
        assert_eq!(slice(o.array_sizes, o.array_size_count), [7]);
        assert_eq!(o.scalar_kind, DXSPV_SCALAR_KIND_FLOAT);
        assert_eq!(
            (v.stage, v.vk_shader_stage),
            (DXSPV_SHADER_STAGE_COMPUTE, 0x20)
        );
        assert_eq!(string(v.execution_model).as_deref(), Some("GLCompute"));
        assert_eq!(string(v.entry_point).as_deref(), Some("cs_main"));
        assert_eq!(v.wave_size, [16, 64, 32]);
        assert_eq!(v.workgroup_size, [8, 4, 2]);
        assert_eq!(v.target_env, DXSPV_TARGET_ENV_SPIRV1_4);
        let caps: Vec<_> = slice(v.capabilities, v.capability_count)
            .iter()
            .map(|&p| string(p).unwrap())
            .collect();
        assert_eq!(caps, ["Shader", "ImageQuery"]);
        let exts = slice(v.extensions, v.extension_count);
        assert_eq!(
            string(exts[0]).as_deref(),
            Some("SPV_KHR_shader_draw_parameters")
        );
    }

    #[test]
    fn an_empty_reflection_has_null_arrays() {
        let store = ReflectionStore::new(Reflection::default());
        let v = &store.view;
        assert!(v.resources.is_null() && v.inputs.is_null() && v.outputs.is_null());
        assert!(v.capabilities.is_null() && v.extensions.is_null());
        assert_eq!(v.stage, DXSPV_SHADER_STAGE_NONE);
        assert_eq!(v.vk_shader_stage, 0);
        assert!(v.execution_model.is_null());
        assert_eq!(string(v.entry_point).as_deref(), Some(""));
        assert_eq!(v.workgroup_size, [0; 3]);
        assert_eq!(
            v.resource_count + v.push_data_count + v.spec_constant_count,
            0
        );
    }

    #[test]
    fn descriptor_types_are_vulkans() {
        use ash::vk::DescriptorType as Vk;
        for (ours, vk) in [
            (DescriptorType::Sampler, Vk::SAMPLER),
            (DescriptorType::SampledImage, Vk::SAMPLED_IMAGE),
            (DescriptorType::StorageImage, Vk::STORAGE_IMAGE),
            (DescriptorType::UniformTexelBuffer, Vk::UNIFORM_TEXEL_BUFFER),
            (DescriptorType::StorageTexelBuffer, Vk::STORAGE_TEXEL_BUFFER),
            (DescriptorType::UniformBuffer, Vk::UNIFORM_BUFFER),
            (DescriptorType::StorageBuffer, Vk::STORAGE_BUFFER),
        ] {
            assert_eq!(descriptor_type_code(ours) as i32, vk.as_raw(), "{ours:?}");
        }
    }
}
