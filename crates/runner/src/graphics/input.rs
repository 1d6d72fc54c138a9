//! Input assembly: vertex buffers and the vertex input state from the D3D input layout,
//! index buffers with D3D's strip-cut values, and indirect draw arguments.
//!
//! D3D gives each input element its own classification and step rate; Vulkan gives them to a
//! binding. So each distinct (slot, per-instance, step rate) of the layout becomes one Vulkan
//! binding of that slot's buffer (step rates other than 1 through
//! `VK_EXT_vertex_attribute_divisor`). A slot the layout reads with no buffer bound reads
//! zeros in D3D11: it is bound to a zeroed buffer with stride 0.
//!
//! D3D12's `IBStripCutValue` compares indices with `0xFFFF` or `0xFFFFFFFF` whatever the
//! index size, while Vulkan restarts strips at the all-ones value of the index type only. So a
//! cut value of the other size never restarts a 16-bit strip (restart stays off), and
//! `0xFFFF` in a 32-bit strip is emulated with a copy of the indices where `0xFFFF` becomes
//! `0xFFFFFFFF` (refused when the data also holds `0xFFFFFFFF`, which D3D would draw as a
//! vertex). Lists never restart.

use super::case::{DrawCall, GraphicsRun, IndexBufferDesc};
use crate::case::{Data, InputElement};
use crate::data::{self, Layout, Ty};
use crate::formats::dxgi_format;
use crate::scratch::{mapped, Scratch};
use ash::vk;
use dxspv::spirv::Reflection;

/// One Vulkan vertex binding: a D3D slot read at one rate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Binding {
    slot: u32,
    per_instance: bool,
    /// Instances per element (per-instance only).
    step_rate: u32,
    stride: u32,
    buffer: vk::Buffer,
}

/// How strips restart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Restart {
    /// Never.
    Off,
    /// At the all-ones index (Vulkan's rule).
    Native,
    /// At `0xFFFF` in 32-bit indices: drawn from the rewritten copy.
    Rewritten,
}

/// The index buffer of a run.
struct Indices {
    ty: vk::IndexType,
    size: u64,
    buffer: vk::Buffer,
    /// The copy with `0xFFFF` made `0xFFFFFFFF` ([`Restart::Rewritten`]).
    rewritten: Option<vk::Buffer>,
    offset: u64,
    restart: Restart,
}

/// Vertex and index buffers of a run, bound for each draw.
pub(crate) struct InputAssembly {
    bindings: Vec<Binding>,
    indices: Option<Indices>,
}

/// The pipeline's vertex input state.
pub(crate) struct VertexInput {
    pub(crate) bindings: Vec<vk::VertexInputBindingDescription>,
    pub(crate) attributes: Vec<vk::VertexInputAttributeDescription>,
    pub(crate) divisors: Vec<vk::VertexInputBindingDivisorDescriptionKHR>,
}

/// Byte size of `initial` data: its last element's end.
pub(crate) fn data_size(d: &Data) -> Result<usize, String> {
    if let Some(segments) = &d.segments {
        let mut n = 0;
        for s in segments {
            n += data_size(s)?;
        }
        return Ok(n);
    }
    let ty = Ty::parse(&d.ty)?;
    if let Some(v) = &d.data {
        return Ok(v.len() * ty.size());
    }
    if let Some(e) = &d.entries {
        let last = e.iter().filter_map(|e| e.index).max().map_or(0, |i| i + 1);
        return Ok(last as usize * ty.size());
    }
    Err("data without data, entries or segments cannot size a buffer".into())
}

/// A buffer holding `d` from byte 0, `size` bytes (at least the data).
pub(crate) fn buffer_with(
    s: &mut Scratch,
    d: Option<&Data>,
    size: Option<u64>,
) -> Result<(vk::Buffer, *mut u8, usize), String> {
    let len = match d {
        Some(d) => data_size(d)?,
        None => 0,
    };
    let size = size.map_or(len, |n| n as usize);
    let (buf, ptr) = s.buffer(size.max(len) as u64)?;
    if let Some(d) = d {
        data::fill_initial(mapped(ptr, size.max(len)), d, &Layout::BUFFER)?;
    }
    Ok((buf, ptr, size.max(len)))
}

fn is_strip(topology: vk::PrimitiveTopology) -> bool {
    matches!(
        topology,
        vk::PrimitiveTopology::LINE_STRIP | vk::PrimitiveTopology::TRIANGLE_STRIP
    )
}

/// D3D topology name → Vulkan topology.
pub(crate) fn topology(name: &str) -> Option<vk::PrimitiveTopology> {
    use vk::PrimitiveTopology as T;
    Some(match name {
        "point_list" => T::POINT_LIST,
        "line_list" => T::LINE_LIST,
        "line_strip" => T::LINE_STRIP,
        "triangle_list" => T::TRIANGLE_LIST,
        "triangle_strip" => T::TRIANGLE_STRIP,
        "patch_list" => T::PATCH_LIST,
        _ => return None,
    })
}

/// How a strip with D3D12 strip cut value `cut` restarts with 32-bit (`wide`) or 16-bit
/// indices.
fn restart_mode(cut: &str, wide: bool) -> Result<Restart, String> {
    Ok(match (cut, wide) {
        ("disabled", _) | ("0xFFFFFFFF", false) => Restart::Off,
        ("0xFFFF", false) | ("0xFFFFFFFF", true) => Restart::Native,
        ("0xFFFF", true) => Restart::Rewritten,
        (c, _) => return Err(format!("strip cut value `{c}`")),
    })
}

/// Copies 32-bit indices from `src` to `dst` with each `0xFFFF` (a cut for D3D12's strip cut
/// value 0xFFFF) made `0xFFFFFFFF` (Vulkan's cut); an index that is already `0xFFFFFFFF` is
/// a vertex for D3D12 but would be a cut for Vulkan, so it is refused.
fn rewrite_cuts(src: &[u8], dst: &mut [u8]) -> Result<(), String> {
    for (i, (d, w)) in dst.chunks_exact_mut(4).zip(src.chunks_exact(4)).enumerate() {
        let v = match u32::from_le_bytes([w[0], w[1], w[2], w[3]]) {
            0xffff => u32::MAX,
            u32::MAX => {
                return Err(format!(
                    "index {i} is 0xFFFFFFFF with strip cut value 0xFFFF: Vulkan would restart there (cannot emulate)"
                ))
            }
            v => v,
        };
        d.copy_from_slice(&v.to_le_bytes());
    }
    Ok(())
}

fn index_buffer(
    s: &mut Scratch,
    ib: &IndexBufferDesc,
    cut: Option<&str>,
) -> Result<Result<Indices, String>, String> {
    let (ty, wide) = match ib.format.as_str() {
        "R16_UINT" => (vk::IndexType::UINT16, false),
        "R32_UINT" => (vk::IndexType::UINT32, true),
        f => return Err(format!("index format {f}")),
    };
    let restart = restart_mode(cut.unwrap_or("disabled"), wide)?;
    let (buffer, ptr, size) = buffer_with(s, Some(&ib.data), None)?;
    let mut rewritten = None;
    if restart == Restart::Rewritten {
        let (copy, cptr) = s.buffer(size as u64)?;
        rewrite_cuts(mapped(ptr, size), mapped(cptr, size))?;
        rewritten = Some(copy);
    }
    Ok(Ok(Indices {
        ty,
        size: size as u64,
        buffer,
        rewritten,
        offset: ib.offset,
        restart,
    }))
}

impl InputAssembly {
    /// Creates the run's vertex and index buffers; the inner `Err` is a skip reason (a
    /// device feature the layout needs).
    pub(crate) fn create(
        s: &mut Scratch,
        run: &GraphicsRun,
    ) -> Result<Result<InputAssembly, String>, String> {
        let caps = &s.gpu.caps;
        let mut bindings: Vec<Binding> = Vec::new();
        for e in &run.input_layout {
            let per_instance = match e.classification.as_deref() {
                None | Some("per_vertex") => false,
                Some("per_instance") => true,
                Some(c) => {
                    return Err(format!(
                        "input element {}: classification `{c}`",
                        e.semantic
                    ))
                }
            };
            let step_rate = if per_instance {
                e.step_rate.unwrap_or(1)
            } else {
                1
            };
            if per_instance && step_rate == 0 && !caps.instance_rate_zero_divisor {
                return Ok(Err(
                    "device lacks `vertexAttributeInstanceRateZeroDivisor`".into()
                ));
            }
            if per_instance && step_rate > 1 && !caps.instance_rate_divisor {
                return Ok(Err(
                    "device lacks `vertexAttributeInstanceRateDivisor`".into()
                ));
            }
            let Some((format, _)) = dxgi_format(&e.format) else {
                return Ok(Err(format!("vertex format {} not implemented", e.format)));
            };
            if !s
                .gpu
                .format_features(format)
                .buffer_features
                .contains(vk::FormatFeatureFlags::VERTEX_BUFFER)
            {
                return Ok(Err(format!("device lacks vertex format {}", e.format)));
            }
            if !bindings.iter().any(|b| {
                b.slot == e.slot && b.per_instance == per_instance && b.step_rate == step_rate
            }) {
                bindings.push(Binding {
                    slot: e.slot,
                    per_instance,
                    step_rate,
                    stride: 0,
                    buffer: vk::Buffer::null(),
                });
            }
        }
        // One buffer per slot; a slot without one reads zeros.
        let mut slots: Vec<(u32, vk::Buffer, u32)> = Vec::new();
        for vb in &run.vertex_buffers {
            if vb.null {
                continue;
            }
            let (buf, _, _) = buffer_with(s, vb.data.as_ref(), vb.size_bytes)?;
            slots.push((vb.slot, buf, vb.stride));
        }
        let mut zeros = None;
        for b in &mut bindings {
            match slots.iter().find(|(slot, ..)| *slot == b.slot) {
                Some(&(_, buf, stride)) => {
                    b.buffer = buf;
                    b.stride = stride;
                }
                None => {
                    let reach = run
                        .input_layout
                        .iter()
                        .filter(|e| e.slot == b.slot)
                        .map(|e| u64::from(e.offset) + 16)
                        .max()
                        .unwrap_or(16);
                    let buf = match zeros {
                        Some(z) => z,
                        None => {
                            let (z, _) = s.buffer(reach.max(256))?;
                            zeros = Some(z);
                            z
                        }
                    };
                    b.buffer = buf;
                    b.stride = 0;
                }
            }
        }
        let indices = match &run.index_buffer {
            Some(ib) => match index_buffer(s, ib, run.strip_cut_value.as_deref())? {
                Ok(i) => Some(i),
                Err(why) => return Ok(Err(why)),
            },
            None => None,
        };
        Ok(Ok(InputAssembly { bindings, indices }))
    }

    /// The vertex input state of a pipeline whose vertex shader has `vs` as reflection:
    /// every shader input with a location is fed by the layout element with its semantic.
    pub(crate) fn vertex_input(
        &self,
        layout: &[InputElement],
        vs: &Reflection,
    ) -> Result<VertexInput, String> {
        let bindings: Vec<_> = self
            .bindings
            .iter()
            .enumerate()
            .map(|(i, b)| vk::VertexInputBindingDescription {
                binding: i as u32,
                stride: b.stride,
                input_rate: if b.per_instance {
                    vk::VertexInputRate::INSTANCE
                } else {
                    vk::VertexInputRate::VERTEX
                },
            })
            .collect();
        let divisors = self
            .bindings
            .iter()
            .enumerate()
            .filter(|(_, b)| b.per_instance && b.step_rate != 1)
            .map(|(i, b)| vk::VertexInputBindingDivisorDescriptionKHR {
                binding: i as u32,
                divisor: b.step_rate,
            })
            .collect();
        let mut attributes = Vec::new();
        for v in &vs.inputs {
            let Some(location) = v.location else {
                continue;
            };
            let Some((name, index)) = &v.semantic else {
                return Err(format!(
                    "vertex shader input at location {location} has no semantic"
                ));
            };
            let Some(e) = layout
                .iter()
                .find(|e| e.semantic.eq_ignore_ascii_case(name) && e.index == *index)
            else {
                return Err(format!(
                    "vertex shader input {name}{index} has no input-layout element"
                ));
            };
            let per_instance = e.classification.as_deref() == Some("per_instance");
            let step_rate = if per_instance {
                e.step_rate.unwrap_or(1)
            } else {
                1
            };
            let binding = self
                .bindings
                .iter()
                .position(|b| {
                    b.slot == e.slot && b.per_instance == per_instance && b.step_rate == step_rate
                })
                .ok_or_else(|| format!("input element {name}{index}: no binding"))?;
            let (format, _) =
                dxgi_format(&e.format).ok_or_else(|| format!("vertex format {}", e.format))?;
            attributes.push(vk::VertexInputAttributeDescription {
                location,
                binding: binding as u32,
                format,
                offset: e.offset,
            });
        }
        Ok(VertexInput {
            bindings,
            attributes,
            divisors,
        })
    }

    /// Whether strips of `topology` restart (the pipeline's primitive restart enable).
    pub(crate) fn restart(&self, topology: vk::PrimitiveTopology) -> bool {
        is_strip(topology)
            && self
                .indices
                .as_ref()
                .is_some_and(|i| i.restart != Restart::Off)
    }

    /// Records the vertex and index buffer bindings for a draw with `topology`; `offset`
    /// replaces the index buffer view's byte offset.
    pub(crate) fn record_bind(
        &self,
        d: &ash::Device,
        cb: vk::CommandBuffer,
        topology: vk::PrimitiveTopology,
        offset: Option<u64>,
    ) -> Result<(), String> {
        let buffers: Vec<_> = self.bindings.iter().map(|b| b.buffer).collect();
        let offsets = vec![0; buffers.len()];
        if let Some(i) = &self.indices {
            let buffer = match (i.restart, self.restart(topology)) {
                (Restart::Rewritten, true) => i.rewritten.unwrap_or(i.buffer),
                _ => i.buffer,
            };
            let at = offset.unwrap_or(i.offset);
            if at > i.size {
                return Err(format!(
                    "index buffer offset {at} past its {} bytes",
                    i.size
                ));
            }
            // SAFETY: `cb` is recording; the buffer is live and has index usage.
            unsafe { d.cmd_bind_index_buffer(cb, buffer, at, i.ty) };
        }
        if !buffers.is_empty() {
            // SAFETY: `cb` is recording; the buffers are live and have vertex usage.
            unsafe { d.cmd_bind_vertex_buffers(cb, 0, &buffers, &offsets) };
        }
        Ok(())
    }

    /// Whether the run has an index buffer.
    pub(crate) fn has_indices(&self) -> bool {
        self.indices.is_some()
    }

    /// The index buffer view offset a draw uses (`offset` replaces the run's), in whole
    /// indices.
    pub(crate) fn offset_in_indices(&self, offset: Option<u64>) -> Result<u32, String> {
        let Some(i) = &self.indices else {
            return Ok(0);
        };
        let size = if i.ty == vk::IndexType::UINT16 { 2 } else { 4 };
        let at = offset.unwrap_or(i.offset);
        if at % size != 0 {
            return Err(format!(
                "index buffer offset {at} is not a multiple of {size}"
            ));
        }
        u32::try_from(at / size).map_err(|_| format!("index buffer offset {at}"))
    }
}

/// The indirect arguments of `draw` as words (`VkDrawIndirectCommand` or
/// `VkDrawIndexedIndirectCommand`).
pub(crate) fn indirect_words(draw: &DrawCall) -> Vec<u32> {
    if draw.method == "draw_indexed" {
        vec![
            draw.index_count,
            draw.instance_count,
            draw.start_index,
            draw.base_vertex as u32,
            draw.start_instance,
        ]
    } else {
        vec![
            draw.vertex_count,
            draw.instance_count,
            draw.start_vertex,
            draw.start_instance,
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strip_cut_values_against_index_sizes() {
        assert_eq!(restart_mode("disabled", true), Ok(Restart::Off));
        assert_eq!(restart_mode("0xFFFF", false), Ok(Restart::Native));
        assert_eq!(restart_mode("0xFFFFFFFF", true), Ok(Restart::Native));
        // A 16-bit index never equals 0xFFFFFFFF: no restart.
        assert_eq!(restart_mode("0xFFFFFFFF", false), Ok(Restart::Off));
        assert_eq!(restart_mode("0xFFFF", true), Ok(Restart::Rewritten));
        assert!(restart_mode("0xFFFE", true).is_err());
    }

    #[test]
    fn cuts_are_rewritten_for_32_bit_indices() {
        let words = |v: &[u32]| -> Vec<u8> { v.iter().flat_map(|w| w.to_le_bytes()).collect() };
        let src = words(&[0, 1, 0xffff, 2, 0x1_ffff]);
        let mut dst = vec![0; src.len()];
        rewrite_cuts(&src, &mut dst).expect("rewrites");
        assert_eq!(dst, words(&[0, 1, u32::MAX, 2, 0x1_ffff]));
        let src = words(&[0, u32::MAX]);
        let err = rewrite_cuts(&src, &mut dst).unwrap_err();
        assert!(err.contains("index 1"), "{err}");
    }
}
