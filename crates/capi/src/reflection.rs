//! Reflection as plain C structs: arrays of structs with counts, owned by the result object.
//!
//! [`ReflectionStore`] converts a [`Reflection`] once, when the result is made: one array per
//! kind of record and one buffer holding every string (names, built-ins, semantics), each
//! NUL-terminated. The strings are written first and the buffer is never touched again, so
//! the `const char *` pointers into it stay valid for the result's lifetime; a string with a
//! NUL inside reads, in C, up to that NUL.

use crate::codes::*;
use dxspv::spirv::{InterfaceVariable, Reflection};
use std::ffi::c_char;

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
}

/// What a program needs to bind a compiled module. Each array has its count beside it and is
/// NULL when the count is 0; everything belongs to the result object it came from.
///
/// Only the library allocates this struct, so later versions may add fields at its end
/// without an ABI change; the element structs of the arrays cannot grow that way (their size
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
    _strings: Vec<u8>,
}

/// The strings of an interface variable, in writing order.
fn interface_strings(v: &InterfaceVariable) -> [Option<&str>; 2] {
    [
        v.builtin,
        v.semantic.as_ref().map(|(name, _)| name.as_str()),
    ]
}

/// The strings of a reflection, in the one order both passes of [`ReflectionStore::new`] walk.
fn strings(r: &Reflection) -> impl Iterator<Item = Option<&str>> {
    let resources = r.resources.iter().map(|res| res.name.as_deref());
    resources
        .chain(r.inputs.iter().flat_map(interface_strings))
        .chain(r.outputs.iter().flat_map(interface_strings))
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
            })
            .collect();
        let mut interface = |vars: &[InterfaceVariable]| -> Vec<dxspv_interface_variable> {
            vars.iter()
                .map(|v| dxspv_interface_variable {
                    location: v.location.unwrap_or(DXSPV_NO_LOCATION),
                    component: v.component,
                    builtin: cursor.next(),
                    semantic_name: cursor.next(),
                    semantic_index: v.semantic.as_ref().map_or(0, |(_, index)| *index),
                    patch: v.patch,
                })
                .collect()
        };
        let inputs = interface(&r.inputs);
        let outputs = interface(&r.outputs);
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
            _strings: buf,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use dxspv::spirv::{
        DescriptorType, PushDataRange, RegisterClass, ResourceBinding, ScalarKind,
        SpecConstantInfo, SpecConstantKind,
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
                    image: None,
                    comparison: false,
                    size: None,
                    stride: None,
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
                scalar: ScalarKind::Float,
                bits: 32,
                components: 2,
                array: Vec::new(),
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
                array: Vec::new(),
            }],
            ..Reflection::default()
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
        let o = &slice(v.outputs, v.output_count)[0];
        assert_eq!((o.location, o.patch), (DXSPV_NO_LOCATION, true));
        assert_eq!(string(o.builtin).as_deref(), Some("Position"));
        assert_eq!(string(o.semantic_name).as_deref(), Some("SV_Position"));
    }

    #[test]
    fn an_empty_reflection_has_null_arrays() {
        let store = ReflectionStore::new(Reflection::default());
        let v = &store.view;
        assert!(v.resources.is_null() && v.inputs.is_null() && v.outputs.is_null());
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
