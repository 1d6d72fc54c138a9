//! Graphics pipelines: shader stages (vertex, tessellation, geometry, pixel), vertex input,
//! input assembly, tessellation, viewports, rasterization (discard, culling, depth clip) and
//! the colour attachments of Vulkan 1.3 dynamic rendering.
//!
//! Direct3D clip space has y up with the window origin at the top left, Vulkan's has y down:
//! each viewport gets a negative height (as vkd3d-proton and DXVK do), which maps D3D clip
//! space the D3D way and keeps D3D's winding for the front face. The tessellation domain
//! origin is then the lower left, which keeps D3D's tessellator output winding
//! (`triangle_cw`, `triangle_ccw`) facing the way Direct3D culls it.

use super::case::{GraphicsRun, StreamOutputDesc};
use super::input::{InputAssembly, VertexInput};
use super::shaders::Shader;
use super::targets::{slot_formats, Target};
use crate::scratch::Scratch;
use ash::vk;
use std::rc::Rc;

/// The D3D stages in pipeline order, with their Vulkan stage.
pub(crate) const STAGES: [(&str, vk::ShaderStageFlags); 5] = [
    ("vs", vk::ShaderStageFlags::VERTEX),
    ("hs", vk::ShaderStageFlags::TESSELLATION_CONTROL),
    ("ds", vk::ShaderStageFlags::TESSELLATION_EVALUATION),
    ("gs", vk::ShaderStageFlags::GEOMETRY),
    ("ps", vk::ShaderStageFlags::FRAGMENT),
];

/// Everything a pipeline of the run depends on besides the run's fixed state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct State {
    /// Stage name and corpus path, in pipeline order.
    pub(crate) shaders: Vec<(&'static str, String)>,
    /// The stream-output declaration of the last stage before the rasterizer.
    pub(crate) stream_output: Option<StreamOutputDesc>,
    /// Primitive topology.
    pub(crate) topology: vk::PrimitiveTopology,
    /// Nothing rasterized.
    pub(crate) rasterizer_discard: bool,
}

impl State {
    /// The stage whose outputs stream out: geometry, else domain, else vertex shader.
    pub(crate) fn last_geometry_stage(&self) -> &'static str {
        ["gs", "ds", "vs"]
            .into_iter()
            .find(|s| self.shaders.iter().any(|(n, _)| n == s))
            .unwrap_or("vs")
    }

    /// Whether draws with this state capture outputs (transform feedback is active).
    pub(crate) fn streams_out(&self) -> bool {
        self.stream_output
            .as_ref()
            .is_some_and(|so| so.entries.iter().any(|e| e.semantic.is_some()))
    }
}

/// The fixed state every pipeline of a run shares.
pub(crate) struct Fixed<'a> {
    pub(crate) run: &'a GraphicsRun,
    pub(crate) input: &'a InputAssembly,
    pub(crate) targets: &'a [Target],
    pub(crate) extent: vk::Extent2D,
    pub(crate) layout: vk::PipelineLayout,
}

/// Creates the pipeline for `state` with the compiled `shaders` (stage name, shader).
pub(crate) fn create(
    s: &mut Scratch,
    fixed: &Fixed,
    state: &State,
    shaders: &[(&'static str, Rc<Shader>)],
) -> Result<vk::Pipeline, String> {
    let run = fixed.run;
    let caps = s.gpu.caps.clone();
    let mut stages = Vec::new();
    let mut vertex_input = None;
    for (name, sh) in shaders {
        let flags = STAGES
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, f)| *f)
            .ok_or_else(|| format!("unknown stage `{name}`"))?;
        let module = s.module(&sh.spirv)?;
        stages.push(
            vk::PipelineShaderStageCreateInfo::default()
                .stage(flags)
                .module(module)
                .name(c"main"),
        );
        if *name == "vs" {
            vertex_input = Some(
                fixed
                    .input
                    .vertex_input(&run.input_layout, &sh.reflection)?,
            );
        }
    }
    let VertexInput {
        bindings,
        attributes,
        divisors,
    } = vertex_input.ok_or("a pipeline without vertex shader")?;
    let mut divisor_ci = vk::PipelineVertexInputDivisorStateCreateInfoKHR::default()
        .vertex_binding_divisors(&divisors);
    let mut vi = vk::PipelineVertexInputStateCreateInfo::default()
        .vertex_binding_descriptions(&bindings)
        .vertex_attribute_descriptions(&attributes);
    if !divisors.is_empty() {
        vi = vi.push_next(&mut divisor_ci);
    }
    let ia = vk::PipelineInputAssemblyStateCreateInfo::default()
        .topology(state.topology)
        .primitive_restart_enable(fixed.input.restart(state.topology));
    let mut domain = vk::PipelineTessellationDomainOriginStateCreateInfo::default()
        .domain_origin(vk::TessellationDomainOrigin::LOWER_LEFT);
    let tess = vk::PipelineTessellationStateCreateInfo::default()
        .patch_control_points(run.control_points.unwrap_or(1))
        .push_next(&mut domain);

    // Viewports (flipped to D3D's y direction) and scissors.
    let ext = fixed.extent;
    let d3d_viewports: Vec<vk::Viewport> = match &run.viewports {
        Some(v) if !v.is_empty() => v
            .iter()
            .map(|v| vk::Viewport {
                x: v.x as f32,
                y: v.y as f32,
                width: v.width as f32,
                height: v.height as f32,
                min_depth: v.min_depth as f32,
                max_depth: v.max_depth as f32,
            })
            .collect(),
        _ => vec![vk::Viewport {
            x: 0.0,
            y: 0.0,
            width: ext.width as f32,
            height: ext.height as f32,
            min_depth: 0.0,
            max_depth: 1.0,
        }],
    };
    if d3d_viewports.len() > 1 && !caps.multi_viewport {
        return Err("several viewports without `multiViewport`".into());
    }
    let viewports: Vec<vk::Viewport> = d3d_viewports
        .iter()
        .map(|v| vk::Viewport {
            y: v.y + v.height,
            height: -v.height,
            ..*v
        })
        .collect();
    let full = vk::Rect2D {
        offset: vk::Offset2D::default(),
        extent: ext,
    };
    let scissors: Vec<vk::Rect2D> = (0..viewports.len())
        .map(
            |i| match run.scissor_rects.as_ref().and_then(|r| r.get(i)) {
                Some(r) => vk::Rect2D {
                    offset: vk::Offset2D {
                        x: r.left.max(0),
                        y: r.top.max(0),
                    },
                    extent: vk::Extent2D {
                        width: (r.right - r.left.max(0)).max(0) as u32,
                        height: (r.bottom - r.top.max(0)).max(0) as u32,
                    },
                },
                None => full,
            },
        )
        .collect();
    let vps = vk::PipelineViewportStateCreateInfo::default()
        .viewports(&viewports)
        .scissors(&scissors);

    let r = &run.rasterizer;
    let cull = match r.cull_mode.as_deref() {
        Some("back") => vk::CullModeFlags::BACK,
        Some("front") => vk::CullModeFlags::FRONT,
        None | Some("none") => vk::CullModeFlags::NONE,
        Some(c) => return Err(format!("cull mode `{c}`")),
    };
    let front = if r.front_counter_clockwise {
        vk::FrontFace::COUNTER_CLOCKWISE
    } else {
        vk::FrontFace::CLOCKWISE
    };
    let discard = state.rasterizer_discard
        || state
            .stream_output
            .as_ref()
            .is_some_and(|so| so.rasterized_stream.is_none());
    let rs = vk::PipelineRasterizationStateCreateInfo::default()
        .polygon_mode(vk::PolygonMode::FILL)
        .cull_mode(cull)
        .front_face(front)
        .depth_clamp_enable(r.depth_clip_enable == Some(false) && caps.depth_clamp)
        .rasterizer_discard_enable(discard)
        .line_width(1.0);
    let ms = vk::PipelineMultisampleStateCreateInfo::default()
        .rasterization_samples(vk::SampleCountFlags::TYPE_1);
    let formats = slot_formats(fixed.targets);
    let blend: Vec<_> = formats
        .iter()
        .map(|_| {
            vk::PipelineColorBlendAttachmentState::default()
                .blend_enable(false)
                .color_write_mask(vk::ColorComponentFlags::RGBA)
        })
        .collect();
    let cb = vk::PipelineColorBlendStateCreateInfo::default().attachments(&blend);
    let mut rendering =
        vk::PipelineRenderingCreateInfo::default().color_attachment_formats(&formats);
    let mut gci = vk::GraphicsPipelineCreateInfo::default()
        .stages(&stages)
        .vertex_input_state(&vi)
        .input_assembly_state(&ia)
        .viewport_state(&vps)
        .rasterization_state(&rs)
        .multisample_state(&ms)
        .color_blend_state(&cb)
        .layout(fixed.layout)
        .push_next(&mut rendering);
    if state.topology == vk::PrimitiveTopology::PATCH_LIST {
        gci = gci.tessellation_state(&tess);
    }
    // SAFETY: modules and layout are live; every state struct lives across the call.
    let pl = unsafe {
        s.gpu
            .device
            .create_graphics_pipelines(vk::PipelineCache::null(), &[gci], None)
    }
    .map_err(|(_, e)| format!("vkCreateGraphicsPipelines: {e}"))?;
    let p = pl
        .first()
        .copied()
        .ok_or("vkCreateGraphicsPipelines returned no pipeline")?;
    s.pipelines.push(p);
    Ok(p)
}
