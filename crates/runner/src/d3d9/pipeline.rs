//! Graphics pipelines of Direct3D 9 draws: the two stages with their specialization
//! constants, vertex input from the draw's fetched elements, Direct3D 9's viewport and
//! rasterizer state, colour write masks and blending.
//!
//! The viewport covers render target 0 with depth 0 to 1, flipped with a negative height
//! (Direct3D clip space has y up) and moved half a pixel right and down: Direct3D 9 puts
//! pixel centres at integer window coordinates, Vulkan at half-integers, so a position
//! Direct3D 9 maps to window `(x, y)` must land at `(x + 0.5, y + 0.5)` in Vulkan (wined3d
//! and DXVK do the same). Clipping happens before the viewport transform, so it is not
//! affected. Front faces are Direct3D's clockwise ones (in window coordinates, which the
//! negative height preserves); `D3DCULL_CCW`, the default, culls the back faces.

use super::shaders::Shader;
use super::state::PipelineState;
use crate::scratch::Scratch;
use ash::vk;
use dxspv::spirv::Reflection;

/// Where each vertex shader input location is fed from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct VertexInputs {
    /// (location, element index in the draw's vertex, or `None`: the defaults binding).
    pub(super) attributes: Vec<(u32, Option<u32>)>,
    /// Bytes between vertices in binding 0.
    pub(super) stride: u32,
}

/// Matches a vertex shader's inputs with the draw's elements: by usage and index (the
/// input's semantic), by register (`v#` keys of D3D8 declarations and inputs without a
/// semantic), or by position (the fixed-function stand-in reads element `i` at location
/// `i`). An input no element feeds reads the defaults binding `(0, 0, 0, 1)`.
pub(super) fn vertex_inputs(
    vs: &Reflection,
    keys: &[String],
    fixed_function: bool,
) -> VertexInputs {
    let mut attributes = Vec::new();
    for v in &vs.inputs {
        let Some(location) = v.location else {
            continue;
        };
        let element = if fixed_function {
            Some(location as usize).filter(|&i| i < keys.len())
        } else {
            let by_register = format!("v{location}");
            v.semantic
                .as_ref()
                .and_then(|(name, index)| {
                    let key = format!("{name}{index}");
                    keys.iter().position(|k| k.eq_ignore_ascii_case(&key))
                })
                .or_else(|| keys.iter().position(|k| *k == by_register))
        };
        attributes.push((location, element.map(|e| e as u32)));
    }
    VertexInputs {
        attributes,
        stride: keys.len() as u32 * 16,
    }
}

/// Everything one pipeline is made of.
pub(super) struct PipelineDesc<'a> {
    /// Vertex shader.
    pub(super) vs: &'a Shader,
    /// Pixel shader.
    pub(super) ps: &'a Shader,
    /// Vertex input.
    pub(super) inputs: &'a VertexInputs,
    /// Primitive topology.
    pub(super) topology: vk::PrimitiveTopology,
    /// Render-state-derived state.
    pub(super) state: &'a PipelineState,
    /// Colour attachment formats by slot.
    pub(super) formats: &'a [vk::Format],
    /// Size of render target 0.
    pub(super) extent: vk::Extent2D,
    /// The pipeline layout.
    pub(super) layout: vk::PipelineLayout,
}

/// Creates the pipeline of `p`.
pub(super) fn create(s: &mut Scratch, p: &PipelineDesc) -> Result<vk::Pipeline, String> {
    let st = p.state;
    let spec_data: Vec<u8> = st.spec.iter().flat_map(|(_, v)| v.to_le_bytes()).collect();
    let entries: Vec<vk::SpecializationMapEntry> = st
        .spec
        .iter()
        .enumerate()
        .map(|(i, (id, _))| vk::SpecializationMapEntry {
            constant_id: *id,
            offset: i as u32 * 4,
            size: 4,
        })
        .collect();
    let spec = vk::SpecializationInfo::default()
        .map_entries(&entries)
        .data(&spec_data);
    let vs_module = s.module(&p.vs.spirv)?;
    let ps_module = s.module(&p.ps.spirv)?;
    let stages = [
        vk::PipelineShaderStageCreateInfo::default()
            .stage(vk::ShaderStageFlags::VERTEX)
            .module(vs_module)
            .name(c"main")
            .specialization_info(&spec),
        vk::PipelineShaderStageCreateInfo::default()
            .stage(vk::ShaderStageFlags::FRAGMENT)
            .module(ps_module)
            .name(c"main")
            .specialization_info(&spec),
    ];
    let bindings = [
        vk::VertexInputBindingDescription {
            binding: 0,
            stride: p.inputs.stride,
            input_rate: vk::VertexInputRate::VERTEX,
        },
        vk::VertexInputBindingDescription {
            binding: 1,
            stride: 0,
            input_rate: vk::VertexInputRate::VERTEX,
        },
    ];
    let attributes: Vec<_> = p
        .inputs
        .attributes
        .iter()
        .map(|(location, element)| vk::VertexInputAttributeDescription {
            location: *location,
            binding: u32::from(element.is_none()),
            format: vk::Format::R32G32B32A32_SFLOAT,
            offset: element.map_or(0, |e| e * 16),
        })
        .collect();
    let vi = vk::PipelineVertexInputStateCreateInfo::default()
        .vertex_binding_descriptions(&bindings)
        .vertex_attribute_descriptions(&attributes);
    let ia = vk::PipelineInputAssemblyStateCreateInfo::default().topology(p.topology);
    let (w, h) = (p.extent.width as f32, p.extent.height as f32);
    let viewports = [vk::Viewport {
        x: 0.5,
        y: h + 0.5,
        width: w,
        height: -h,
        min_depth: 0.0,
        max_depth: 1.0,
    }];
    let scissors = [vk::Rect2D {
        offset: vk::Offset2D::default(),
        extent: p.extent,
    }];
    let vps = vk::PipelineViewportStateCreateInfo::default()
        .viewports(&viewports)
        .scissors(&scissors);
    let rs = vk::PipelineRasterizationStateCreateInfo::default()
        .polygon_mode(st.fill)
        .cull_mode(st.cull)
        .front_face(vk::FrontFace::CLOCKWISE)
        .line_width(1.0);
    let ms = vk::PipelineMultisampleStateCreateInfo::default()
        .rasterization_samples(vk::SampleCountFlags::TYPE_1);
    let blend: Vec<_> = p
        .formats
        .iter()
        .enumerate()
        .map(|(i, _)| {
            let a = vk::PipelineColorBlendAttachmentState::default()
                .color_write_mask(st.color_write[i.min(3)]);
            match st.blend {
                None => a.blend_enable(false),
                Some(b) => a
                    .blend_enable(true)
                    .src_color_blend_factor(b.src)
                    .dst_color_blend_factor(b.dst)
                    .color_blend_op(b.op)
                    .src_alpha_blend_factor(b.src_alpha)
                    .dst_alpha_blend_factor(b.dst_alpha)
                    .alpha_blend_op(b.op_alpha),
            }
        })
        .collect();
    let cb = vk::PipelineColorBlendStateCreateInfo::default()
        .attachments(&blend)
        .blend_constants(st.blend_constants);
    let mut rendering =
        vk::PipelineRenderingCreateInfo::default().color_attachment_formats(p.formats);
    let gci = vk::GraphicsPipelineCreateInfo::default()
        .stages(&stages)
        .vertex_input_state(&vi)
        .input_assembly_state(&ia)
        .viewport_state(&vps)
        .rasterization_state(&rs)
        .multisample_state(&ms)
        .color_blend_state(&cb)
        .layout(p.layout)
        .push_next(&mut rendering);
    // SAFETY: modules and layout are live; every state struct lives across the call.
    let pl = unsafe {
        s.gpu
            .device
            .create_graphics_pipelines(vk::PipelineCache::null(), &[gci], None)
    }
    .map_err(|(_, e)| format!("vkCreateGraphicsPipelines: {e}"))?;
    let pipeline = pl
        .first()
        .copied()
        .ok_or("vkCreateGraphicsPipelines returned no pipeline")?;
    s.pipelines.push(pipeline);
    Ok(pipeline)
}

#[cfg(test)]
mod tests {
    use super::*;
    use dxspv::spirv::InterfaceVariable;

    fn input(location: u32, semantic: Option<(&str, u32)>) -> InterfaceVariable {
        InterfaceVariable {
            location: Some(location),
            component: 0,
            builtin: None,
            semantic: semantic.map(|(n, i)| (n.to_string().into(), i)),
            patch: false,
            scalar: dxspv::spirv::ScalarKind::Float,
            bits: 32,
            components: 4,
            array: Vec::new(),
        }
    }

    #[test]
    fn inputs_bind_by_usage_register_or_position() {
        let keys: Vec<String> = ["POSITION0", "TEXCOORD1", "TEXCOORD0"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let refl = Reflection {
            inputs: vec![
                input(0, Some(("POSITION", 0))),
                input(1, Some(("TEXCOORD", 0))),
                input(2, Some(("TEXCOORD", 1))),
                input(3, Some(("NORMAL", 0))),
            ],
            ..Reflection::default()
        };
        let v = vertex_inputs(&refl, &keys, false);
        assert_eq!(v.stride, 48);
        assert_eq!(
            v.attributes,
            vec![(0, Some(0)), (1, Some(2)), (2, Some(1)), (3, None)]
        );
        // D3D8: registers.
        let keys: Vec<String> = ["v0", "v5"].iter().map(|s| s.to_string()).collect();
        let refl = Reflection {
            inputs: vec![input(0, None), input(5, None), input(3, None)],
            ..Reflection::default()
        };
        let v = vertex_inputs(&refl, &keys, false);
        assert_eq!(v.attributes, vec![(0, Some(0)), (5, Some(1)), (3, None)]);
        // The fixed-function stand-in: element i at location i.
        let refl = Reflection {
            inputs: vec![input(0, None), input(1, None)],
            ..Reflection::default()
        };
        let v = vertex_inputs(&refl, &keys, true);
        assert_eq!(v.attributes, vec![(0, Some(0)), (1, Some(1))]);
    }
}
