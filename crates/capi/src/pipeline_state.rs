//! Direct3D pipeline and draw state that Vulkan puts in the shader: the class instances bound
//! to an SM 5.0 shader's interface slots (`dxspv_options_set_class_linkage`) and the
//! stream-output declaration (`dxspv_options_set_stream_output`).
//!
//! Both are arrays of plain C structs modelled on Direct3D's own (`ID3D11ClassInstance`'s
//! creation arguments, `D3D11_SO_DECLARATION_ENTRY`), copied into the options object, strings
//! included: the caller's arrays may be freed as soon as the setter returns. What can be
//! checked without the shader (slot and stream numbers, component ranges, Direct3D's limits)
//! is checked by the setter, naming the element and field; whether the state fits the shader
//! (a slot it declares, an output it writes) is checked by the compile.

use crate::codes::*;
use crate::guard::{c_str, Failure};
use crate::options::{dxspv_options, set};
use dxspv::dxbc::{InstanceData, InterfaceBinding};
use dxspv::ir::passes::stream_output::{StreamOutput, StreamOutputEntry, MAX_BUFFERS, MAX_STREAMS};

/// The class instance bound to one interface slot of an SM 5.0 shader using class linkage
/// (one element of `PSSetShader`'s instances): which class it is (its function table) and
/// where its members live (the arguments of `ID3D11ClassLinkage::CreateClassInstance`, what
/// the shader reads as `this[slot]`).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct dxspv_interface_binding {
    /// The function table (`ft#`) of the instance's class: one of those the slot's
    /// `dcl_interface` lists (the shader's interfaces chunk pairs classes with tables), or
    /// `DXSPV_FIRST_FUNCTION_TABLE` for the first listed.
    pub function_table: u32,
    /// The constant buffer slot (`cb#`, 0–13) holding the instance's members
    /// (`ConstantBufferOffset`).
    pub constant_buffer: u32,
    /// The members' offset in that buffer in 16-byte vectors (`ConstantVectorOffset`).
    pub constant_vector_offset: u32,
    /// The instance's first texture register (`t#`, 0–127; `TextureOffset`).
    pub texture_offset: u32,
    /// The instance's first sampler register (`s#`, 0–15; `SamplerOffset`).
    pub sampler_offset: u32,
}

/// One entry of a stream-output declaration (`D3D11_SO_DECLARATION_ENTRY`): which components
/// of which output go to which buffer.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct dxspv_stream_output_entry {
    /// The geometry shader stream (0–3) the output belongs to; 0 for vertex and domain shaders.
    pub stream: u32,
    /// The output's semantic name (matched case-insensitively), or NULL for a gap of
    /// `component_count` components that only advances the buffer offset.
    pub semantic_name: *const std::ffi::c_char,
    /// The output's semantic index.
    pub semantic_index: u32,
    /// The first captured component of the output's register (0 = `x`).
    pub start_component: u32,
    /// How many components are captured (1–4, with `start_component + component_count <= 4`).
    pub component_count: u32,
    /// The stream-output buffer slot (0–3) the components are written to.
    pub output_slot: u32,
}

/// Constant buffer slots of a Direct3D 11 shader stage
/// (`D3D11_COMMONSHADER_CONSTANT_BUFFER_API_SLOT_COUNT`).
const CONSTANT_BUFFER_SLOTS: u32 = 14;
/// Shader resource view slots of a stage (`D3D11_COMMONSHADER_INPUT_RESOURCE_SLOT_COUNT`).
const TEXTURE_SLOTS: u32 = 128;
/// Sampler slots of a stage (`D3D11_COMMONSHADER_SAMPLER_SLOT_COUNT`).
const SAMPLER_SLOTS: u32 = 16;
/// Most interface slots a shader declares (`D3D11_SHADER_MAX_INTERFACES`).
const MAX_INTERFACE_SLOTS: u32 = 253;

/// Most stream-output declaration entries (`D3D11_SO_STREAM_COUNT *
/// D3D11_SO_OUTPUT_COMPONENT_COUNT`).
const MAX_STREAM_OUTPUT_ENTRIES: usize = 4 * 128;

/// A C array as a slice: empty for a count of 0 (whatever the pointer), refused for NULL with
/// a non-zero count or a count no array can have.
///
/// # Safety
/// Unless NULL, `data` must point to `count` initialised, aligned elements.
unsafe fn array<'a, T>(data: *const T, count: usize, param: &str) -> Result<&'a [T], Failure> {
    if count == 0 {
        return Ok(&[]);
    }
    if data.is_null() {
        return Err(Failure::argument(format!(
            "{param} is NULL but its count is {count}"
        )));
    }
    if !data.is_aligned() {
        return Err(Failure::argument(format!("{param} is misaligned")));
    }
    if count > isize::MAX as usize / std::mem::size_of::<T>().max(1) {
        return Err(Failure::argument(format!(
            "{param}: count {count} exceeds PTRDIFF_MAX bytes"
        )));
    }
    // SAFETY: non-null, aligned, and the size fits `isize`; the caller guarantees `count`
    // initialised elements that stay unchanged during the call.
    Ok(unsafe { std::slice::from_raw_parts(data, count) })
}

/// One binding, checked against Direct3D's slot counts (`param` names the element).
fn interface_binding(
    b: &dxspv_interface_binding,
    param: &str,
) -> Result<InterfaceBinding, Failure> {
    for (field, value, limit) in [
        ("constant_buffer", b.constant_buffer, CONSTANT_BUFFER_SLOTS),
        ("texture_offset", b.texture_offset, TEXTURE_SLOTS),
        ("sampler_offset", b.sampler_offset, SAMPLER_SLOTS),
    ] {
        if value >= limit {
            return Err(Failure::argument(format!(
                "{param}.{field}: {value} is past Direct3D's {limit} slots"
            )));
        }
    }
    Ok(InterfaceBinding {
        function_table: (b.function_table != DXSPV_FIRST_FUNCTION_TABLE)
            .then_some(b.function_table),
        instance: InstanceData {
            constant_buffer: b.constant_buffer,
            constant_vector_offset: b.constant_vector_offset,
            texture_offset: b.texture_offset,
            sampler_offset: b.sampler_offset,
        },
    })
}

/// Sets the class instances bound to the interface slots of an SM 5.0 shader using class
/// linkage (HLSL interfaces): `bindings[i]` for slot `i` (slots count across all
/// `dcl_interface`s, an interface array taking one per element), copied. A slot past `count`
/// gets the first function table its declaration lists and zero instance data. `count` 0
/// (`bindings` may then be NULL) removes every binding, the default.
///
/// Direct3D picks the bodies at draw time (`PSSetShader(shader, instances, count)`); Vulkan
/// has no such indirection, so the module is compiled for one set of instances: calls become
/// calls of the bound bodies and `this[slot]` reads become constants. A translation layer
/// compiles once per combination it draws with. Refused here: more than 253 bindings
/// (`D3D11_SHADER_MAX_INTERFACES`), a constant buffer past 13, a texture past 127, a sampler
/// past 15. Refused by the compile (`DXSPV_ERROR_INVALID_INPUT`): more bindings than the
/// shader has slots, a table the slot's declaration does not list. Shaders without class
/// linkage, and D3D9 and DXIL shaders, ignore an empty list.
///
/// # Safety
/// `options` must be NULL or a live options object; `bindings` NULL or `count` readable
/// elements.
///
/// Thread safety: needs exclusive access to `options`.
#[no_mangle]
pub unsafe extern "C" fn dxspv_options_set_class_linkage(
    options: *mut dxspv_options,
    bindings: *const dxspv_interface_binding,
    count: usize,
) -> dxspv_status {
    let apply = |o: &mut dxspv::Options| {
        // SAFETY: the caller passes NULL or `count` readable elements.
        let given = unsafe { array(bindings, count, "bindings") }?;
        if given.len() > MAX_INTERFACE_SLOTS as usize {
            return Err(Failure::argument(format!(
                "count: {count} bindings, but a shader has at most {MAX_INTERFACE_SLOTS} interface slots"
            )));
        }
        let converted = given
            .iter()
            .enumerate()
            .map(|(i, b)| interface_binding(b, &format!("bindings[{i}]")))
            .collect::<Result<Vec<_>, _>>()?;
        o.class_linkage = converted;
        Ok(())
    };
    // SAFETY: forwarded from the caller.
    unsafe { set(options, apply) }
}

/// One stream-output entry, checked and copied (`param` names the element).
///
/// # Safety
/// `e.semantic_name` must be NULL or a NUL-terminated string.
unsafe fn stream_output_entry(
    e: &dxspv_stream_output_entry,
    param: &str,
) -> Result<StreamOutputEntry, Failure> {
    if e.stream >= MAX_STREAMS {
        return Err(Failure::argument(format!(
            "{param}.stream: {} is not a stream (0 to {})",
            e.stream,
            MAX_STREAMS - 1
        )));
    }
    if e.output_slot >= MAX_BUFFERS {
        return Err(Failure::argument(format!(
            "{param}.output_slot: {} is not a buffer slot (0 to {})",
            e.output_slot,
            MAX_BUFFERS - 1
        )));
    }
    if e.component_count == 0 || e.start_component >= 4 || e.component_count > 4 - e.start_component
    {
        return Err(Failure::argument(format!(
            "{param}: components {} to {} are not within x to w",
            e.start_component,
            u64::from(e.start_component) + u64::from(e.component_count)
        )));
    }
    let semantic = if e.semantic_name.is_null() {
        None
    } else {
        // SAFETY: non-null; the caller passes a NUL-terminated string.
        let name = unsafe { c_str(e.semantic_name, &format!("{param}.semantic_name")) }?;
        Some(name.to_string())
    };
    Ok(StreamOutputEntry {
        stream: e.stream,
        semantic,
        semantic_index: e.semantic_index,
        start_component: e.start_component,
        component_count: e.component_count,
        slot: e.output_slot,
    })
}

/// Sets the stream-output declaration of a vertex, domain or geometry shader, as
/// `CreateGeometryShaderWithStreamOutput` takes it: the entries in declaration order, the byte
/// stride of each buffer slot (`strides[slot]`), and the stream the rasterizer draws
/// (`DXSPV_NO_RASTERIZED_STREAM`: none). Everything is copied. The default is no
/// declaration; `dxspv_options_clear_stream_output` restores it.
///
/// Direct3D keeps the declaration in pipeline state; Vulkan declares transform feedback in the
/// shader, so the captured outputs get `XfbBuffer` / `XfbStride` / `Offset` decorations
/// (offsets assigned per slot in declaration order, as Direct3D does; components that are not
/// a whole output are copied into new outputs). The pipeline then needs
/// `VK_EXT_transform_feedback`, and its `rasterizationStream` is `rasterized_stream`.
/// Refused here: more than 512 entries, more than 4 strides, a stream or slot past 3, an
/// empty or out-of-range component range, a semantic name that is not UTF-8, a rasterized
/// stream past 3. Refused by the compile (`DXSPV_ERROR_INVALID_ARGUMENT`, naming the entry):
/// a pixel, hull or compute shader, an output the shader does not write, a slot without a
/// stride, a stream other than 0 outside a geometry shader.
///
/// # Safety
/// `options` must be NULL or a live options object; `entries` NULL or `entry_count` readable
/// elements whose names are NULL or NUL-terminated strings; `strides` NULL or `stride_count`
/// readable values.
///
/// Thread safety: needs exclusive access to `options`.
#[no_mangle]
pub unsafe extern "C" fn dxspv_options_set_stream_output(
    options: *mut dxspv_options,
    entries: *const dxspv_stream_output_entry,
    entry_count: usize,
    strides: *const u32,
    stride_count: usize,
    rasterized_stream: u32,
) -> dxspv_status {
    let apply = |o: &mut dxspv::Options| {
        // SAFETY: the caller passes NULL or readable arrays of the given counts.
        let (given, strides) = unsafe {
            (
                array(entries, entry_count, "entries")?,
                array(strides, stride_count, "strides")?,
            )
        };
        if given.len() > MAX_STREAM_OUTPUT_ENTRIES {
            return Err(Failure::argument(format!(
                "entry_count: {entry_count} entries, past Direct3D's {MAX_STREAM_OUTPUT_ENTRIES}"
            )));
        }
        if strides.len() > MAX_BUFFERS as usize {
            return Err(Failure::argument(format!(
                "stride_count: {stride_count} strides, but there are {MAX_BUFFERS} buffer slots"
            )));
        }
        let rasterized = match rasterized_stream {
            DXSPV_NO_RASTERIZED_STREAM => None,
            s if s < MAX_STREAMS => Some(s),
            s => {
                return Err(Failure::argument(format!(
                "rasterized_stream: {s} is not a stream (0 to {}) nor DXSPV_NO_RASTERIZED_STREAM",
                MAX_STREAMS - 1
            )))
            }
        };
        let mut converted = Vec::with_capacity(given.len());
        for (i, e) in given.iter().enumerate() {
            // SAFETY: the caller passes NULL or NUL-terminated names.
            converted.push(unsafe { stream_output_entry(e, &format!("entries[{i}]")) }?);
        }
        o.stream_output = Some(StreamOutput {
            entries: converted,
            strides: strides.to_vec(),
            rasterized_stream: rasterized,
        });
        Ok(())
    };
    // SAFETY: forwarded from the caller.
    unsafe { set(options, apply) }
}

/// Removes the stream-output declaration (the default: no transform feedback).
///
/// # Safety
/// `options` must be NULL or a live options object.
///
/// Thread safety: needs exclusive access to `options`.
#[no_mangle]
pub unsafe extern "C" fn dxspv_options_clear_stream_output(
    options: *mut dxspv_options,
) -> dxspv_status {
    let apply = |o: &mut dxspv::Options| {
        o.stream_output = None;
        Ok(())
    };
    // SAFETY: forwarded from the caller.
    unsafe { set(options, apply) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::options::{dxspv_options_create, dxspv_options_free};

    fn binding(table: u32, cb: u32, vector: u32, t: u32, s: u32) -> dxspv_interface_binding {
        dxspv_interface_binding {
            function_table: table,
            constant_buffer: cb,
            constant_vector_offset: vector,
            texture_offset: t,
            sampler_offset: s,
        }
    }

    fn entry(
        stream: u32,
        name: Option<&std::ffi::CStr>,
        comps: (u32, u32),
        slot: u32,
    ) -> dxspv_stream_output_entry {
        dxspv_stream_output_entry {
            stream,
            semantic_name: name.map_or(std::ptr::null(), |n| n.as_ptr()),
            semantic_index: 1,
            start_component: comps.0,
            component_count: comps.1,
            output_slot: slot,
        }
    }

    #[test]
    fn class_linkage_is_copied_in_and_cleared_by_an_empty_list() {
        let o = dxspv_options_create();
        let given = [
            binding(DXSPV_FIRST_FUNCTION_TABLE, 0, 0, 0, 0),
            binding(3, 13, 7, 127, 15),
        ];
        // SAFETY: `o` is live and used by this thread only, then freed; the arrays are live.
        unsafe {
            assert_eq!(
                dxspv_options_set_class_linkage(o, given.as_ptr(), 2),
                DXSPV_OK
            );
            let cl = &(*o).inner.class_linkage;
            assert_eq!(cl.len(), 2);
            assert_eq!(cl[0], InterfaceBinding::default());
            assert_eq!(cl[1].function_table, Some(3));
            assert_eq!(cl[1].instance.components(), [13, 7, 127, 15]);
            assert_eq!(
                dxspv_options_set_class_linkage(o, std::ptr::null(), 0),
                DXSPV_OK
            );
            assert!((*o).inner.class_linkage.is_empty());
            dxspv_options_free(o);
        }
    }

    #[test]
    fn bad_class_linkage_is_refused_naming_the_element() {
        let o = dxspv_options_create();
        let cases = [
            (
                binding(0, 14, 0, 0, 0),
                "bindings[1].constant_buffer: 14 is past Direct3D's 14 slots",
            ),
            (binding(0, 0, 0, 128, 0), "bindings[1].texture_offset: 128"),
            (binding(0, 0, 0, 0, 16), "bindings[1].sampler_offset: 16"),
        ];
        for (bad, message) in cases {
            let given = [binding(0, 0, 0, 0, 0), bad];
            // SAFETY: the array is live.
            let e = unsafe { array(given.as_ptr(), 2, "bindings") }
                .and_then(|g| {
                    g.iter().enumerate().try_for_each(|(i, b)| {
                        interface_binding(b, &format!("bindings[{i}]")).map(drop)
                    })
                })
                .unwrap_err();
            assert!(e.message.starts_with(message), "{}", e.message);
            // SAFETY: `o` is live and used by this thread only.
            let status = unsafe { dxspv_options_set_class_linkage(o, given.as_ptr(), 2) };
            assert_eq!(status, DXSPV_ERROR_INVALID_ARGUMENT);
        }
        let many = vec![binding(0, 0, 0, 0, 0); 254];
        // SAFETY: `o` is live; the arrays are live or NULL with their counts.
        unsafe {
            assert_eq!(
                dxspv_options_set_class_linkage(o, many.as_ptr(), many.len()),
                DXSPV_ERROR_INVALID_ARGUMENT
            );
            assert_eq!(
                dxspv_options_set_class_linkage(o, std::ptr::null(), 1),
                DXSPV_ERROR_INVALID_ARGUMENT
            );
            assert!((*o).inner.class_linkage.is_empty());
            dxspv_options_free(o);
        }
    }

    #[test]
    fn stream_output_is_copied_in_and_cleared() {
        let o = dxspv_options_create();
        let name = std::ffi::CString::new("TEXCOORD").unwrap();
        let given = [
            entry(0, Some(c"SV_Position"), (0, 4), 0),
            entry(1, None, (0, 2), 1),
            entry(1, Some(&name), (1, 3), 1),
        ];
        let strides = [16u32, 20];
        // SAFETY: `o` is live and used by this thread only, then freed; the arrays are live.
        unsafe {
            assert_eq!(
                dxspv_options_set_stream_output(o, given.as_ptr(), 3, strides.as_ptr(), 2, 0),
                DXSPV_OK
            );
            drop(name); // copied: the caller's string may go
            let so = (*o).inner.stream_output.clone().unwrap();
            assert_eq!(so.strides, [16, 20]);
            assert_eq!(so.rasterized_stream, Some(0));
            assert_eq!(
                so.entries[0],
                StreamOutputEntry {
                    stream: 0,
                    semantic: Some("SV_Position".into()),
                    semantic_index: 1,
                    start_component: 0,
                    component_count: 4,
                    slot: 0,
                }
            );
            assert_eq!(so.entries[1].semantic, None);
            assert_eq!(so.entries[2].semantic.as_deref(), Some("TEXCOORD"));
            assert_eq!((so.entries[2].start_component, so.entries[2].slot), (1, 1));
            assert_eq!(
                dxspv_options_set_stream_output(
                    o,
                    std::ptr::null(),
                    0,
                    std::ptr::null(),
                    0,
                    DXSPV_NO_RASTERIZED_STREAM
                ),
                DXSPV_OK
            );
            let so = (*o).inner.stream_output.clone().unwrap();
            assert!(so.entries.is_empty() && so.rasterized_stream.is_none());
            assert_eq!(dxspv_options_clear_stream_output(o), DXSPV_OK);
            assert!((*o).inner.stream_output.is_none());
            dxspv_options_free(o);
        }
    }

    #[test]
    fn bad_stream_output_is_refused_naming_the_element() {
        let o = dxspv_options_create();
        let bad_name = b"\xffTEX\0";
        let cases = [
            (
                entry(4, None, (0, 1), 0),
                "entries[0].stream: 4 is not a stream",
            ),
            (entry(0, None, (0, 1), 4), "entries[0].output_slot: 4"),
            (entry(0, None, (0, 0), 0), "entries[0]: components 0 to 0"),
            (entry(0, None, (3, 2), 0), "entries[0]: components 3 to 5"),
            (
                entry(0, None, (4, u32::MAX), 0),
                "entries[0]: components 4 to",
            ),
            (
                dxspv_stream_output_entry {
                    semantic_name: bad_name.as_ptr().cast(),
                    ..entry(0, None, (0, 1), 0)
                },
                "entries[0].semantic_name is not UTF-8",
            ),
        ];
        for (bad, message) in cases {
            // SAFETY: the name is NULL or NUL-terminated.
            let e = unsafe { stream_output_entry(&bad, "entries[0]") }.unwrap_err();
            assert!(e.message.starts_with(message), "{}", e.message);
            // SAFETY: `o` is live and used by this thread only; the array is live.
            let status =
                unsafe { dxspv_options_set_stream_output(o, &bad, 1, std::ptr::null(), 0, 0) };
            assert_eq!(status, DXSPV_ERROR_INVALID_ARGUMENT);
        }
        let ok = entry(0, None, (0, 1), 0);
        let strides = [4u32; 5];
        // SAFETY: `o` is live; the arrays are live or NULL with their counts.
        unsafe {
            for (strides, count, raster) in [
                (strides.as_ptr(), 5, 0),
                (std::ptr::null(), 1, 0),
                (strides.as_ptr(), 1, 4),
            ] {
                assert_eq!(
                    dxspv_options_set_stream_output(o, &ok, 1, strides, count, raster),
                    DXSPV_ERROR_INVALID_ARGUMENT
                );
            }
            assert_eq!(
                dxspv_options_set_stream_output(o, std::ptr::null(), 2, std::ptr::null(), 0, 0),
                DXSPV_ERROR_INVALID_ARGUMENT
            );
            assert!((*o).inner.stream_output.is_none());
            dxspv_options_free(o);
        }
    }
}
