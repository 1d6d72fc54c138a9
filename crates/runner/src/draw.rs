//! Pixel-shader draws: vertex input, render targets, the graphics pipeline (Vulkan 1.3 dynamic
//! rendering), recording and render-target checks.
//!
//! Resources and descriptor sets are shared with compute runs (`exec`); this module adds what
//! only draws need.

use crate::case::{Case, RenderTarget, Run};
use crate::data::{self, Layout, Ty};
use crate::exec::{dxgi_format, mapped, vkerr, Outcome, Scratch};
use ash::vk;
use dxspv::spirv::{InterfaceVariable, Reflection};

/// The vertex stage of a draw: a compiled corpus vertex shader, or the runner's pass-through
/// shader fed with the case's clip-space `positions`.
#[derive(Clone, Debug)]
pub struct DrawShaders {
    /// SPIR-V of the vertex shader.
    pub vs: Vec<u32>,
    /// Its reflection (inputs are matched to the input layout by semantic).
    pub vs_reflection: Reflection,
    /// `true` for the runner's pass-through shader (`positions` at location 0).
    pub passthrough: bool,
}

impl DrawShaders {
    /// The pass-through vertex shader: `gl_Position = in vec4 @ location 0`.
    pub fn passthrough() -> DrawShaders {
        DrawShaders {
            vs: passthrough_vs(),
            vs_reflection: Reflection::default(),
            passthrough: true,
        }
    }

    /// A compiled corpus vertex shader.
    pub fn compiled(out: &dxspv::Output) -> DrawShaders {
        DrawShaders {
            vs: out.spirv.clone(),
            vs_reflection: out.reflection.clone(),
            passthrough: false,
        }
    }
}

/// Hand-assembled SPIR-V 1.0 vertex shader copying a `vec4` input at location 0 to `Position`.
pub fn passthrough_vs() -> Vec<u32> {
    const fn op(words: u32, opcode: u32) -> u32 {
        (words << 16) | opcode
    }
    // Result ids.
    let (main, inp, out, void, fnty, f32t, v4, pin, pout, label, x) =
        (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11);
    vec![
        0x0723_0203,
        0x0001_0000,
        0,
        12,
        0,
        op(2, 17), // OpCapability Shader
        1,
        op(3, 14), // OpMemoryModel Logical GLSL450
        0,
        1,
        op(7, 15), // OpEntryPoint Vertex %main "main" %in %out
        0,
        main,
        u32::from_le_bytes(*b"main"),
        0,
        inp,
        out,
        op(4, 71), // OpDecorate %in Location 0
        inp,
        30,
        0,
        op(4, 71), // OpDecorate %out BuiltIn Position
        out,
        11,
        0,
        op(2, 19), // OpTypeVoid
        void,
        op(3, 33), // OpTypeFunction %void
        fnty,
        void,
        op(3, 22), // OpTypeFloat 32
        f32t,
        32,
        op(4, 23), // OpTypeVector %f32 4
        v4,
        f32t,
        4,
        op(4, 32), // OpTypePointer Input %v4
        pin,
        1,
        v4,
        op(4, 32), // OpTypePointer Output %v4
        pout,
        3,
        v4,
        op(4, 59), // OpVariable Input
        pin,
        inp,
        1,
        op(4, 59), // OpVariable Output
        pout,
        out,
        3,
        op(5, 54), // OpFunction %void None %fn
        void,
        main,
        0,
        fnty,
        op(2, 248), // OpLabel
        label,
        op(4, 61), // OpLoad %v4 %in
        v4,
        x,
        inp,
        op(3, 62), // OpStore %out %x
        out,
        x,
        op(1, 253), // OpReturn
        op(1, 56),  // OpFunctionEnd
    ]
}

/// One created render target.
pub(crate) struct Target {
    slot: u32,
    format: vk::Format,
    img: vk::Image,
    view: vk::ImageView,
    staging: vk::Buffer,
    ptr: *mut u8,
    size: usize,
    width: u32,
    height: u32,
    texel_size: usize,
    clear: vk::ClearValue,
    desc: RenderTarget,
}

/// Everything a draw needs besides resources and descriptor sets.
pub(crate) struct Prepared {
    targets: Vec<Target>,
    vertex_buffer: vk::Buffer,
    bindings: Vec<vk::VertexInputBindingDescription>,
    attributes: Vec<vk::VertexInputAttributeDescription>,
    topology: vk::PrimitiveTopology,
    vertex_count: u32,
    instance_count: u32,
    extent: vk::Extent2D,
}

fn same_semantic(v: &InterfaceVariable, name: &str, index: u32) -> bool {
    v.semantic
        .as_ref()
        .is_some_and(|(n, i)| n.eq_ignore_ascii_case(name) && *i == index)
}

fn clear_value(format_name: &str, clear: Option<&[f64]>) -> Result<vk::ClearValue, String> {
    let c = match clear {
        Some(c) if c.len() == 4 => [c[0], c[1], c[2], c[3]],
        Some(c) => return Err(format!("clear value needs 4 components, got {}", c.len())),
        // Not cleared by the original: the draw covers it; start from zero.
        None => [0.0; 4],
    };
    Ok(if format_name.ends_with("_UINT") {
        vk::ClearValue {
            color: vk::ClearColorValue {
                uint32: c.map(|v| v as u32),
            },
        }
    } else if format_name.ends_with("_SINT") {
        vk::ClearValue {
            color: vk::ClearColorValue {
                int32: c.map(|v| v as i32),
            },
        }
    } else {
        vk::ClearValue {
            color: vk::ClearColorValue {
                float32: c.map(|v| v as f32),
            },
        }
    })
}

/// Creates render targets and the vertex buffer; the inner `Err` is a skip reason.
pub(crate) fn prepare(
    s: &mut Scratch,
    case: &Case,
    run: &Run,
    ds: &DrawShaders,
) -> Result<Result<Prepared, String>, String> {
    let Some(draw) = &case.draw else {
        return Ok(Err("pixel-shader case without `draw`".into()));
    };
    if !ds.vs_reflection.resources.is_empty() || !ds.vs_reflection.push_data.is_empty() {
        return Ok(Err("vertex shader resources not implemented".into()));
    }
    if run.render_targets.is_empty() {
        return Ok(Err("draw without render targets".into()));
    }
    let topology = match draw.topology.as_deref() {
        Some("triangle_list") | None => vk::PrimitiveTopology::TRIANGLE_LIST,
        Some("triangle_strip") => vk::PrimitiveTopology::TRIANGLE_STRIP,
        Some(t) => return Ok(Err(format!("topology `{t}` not implemented"))),
    };
    let d = &s.gpu.device;

    // Vertex input.
    let mut bindings = Vec::new();
    let mut attributes = Vec::new();
    let vertex_buffer;
    if ds.passthrough {
        let Some(pos) = &draw.positions else {
            return Ok(Err(
                "draw without vertex shader or positions not implemented".into(),
            ));
        };
        let (buf, ptr) = s.buffer((pos.len() * 16) as u64)?;
        let m = mapped(ptr, pos.len() * 16);
        for (i, p) in pos.iter().enumerate() {
            if p.len() != 4 {
                return Err(format!("position {i} has {} components, not 4", p.len()));
            }
            for (c, v) in p.iter().enumerate() {
                let o = i * 16 + c * 4;
                m[o..o + 4].copy_from_slice(&(*v as f32).to_le_bytes());
            }
        }
        vertex_buffer = buf;
        bindings.push(vk::VertexInputBindingDescription {
            binding: 0,
            stride: 16,
            input_rate: vk::VertexInputRate::VERTEX,
        });
        attributes.push(vk::VertexInputAttributeDescription {
            location: 0,
            binding: 0,
            format: vk::Format::R32G32B32A32_SFLOAT,
            offset: 0,
        });
    } else {
        let (Some(vb), Some(il)) = (&draw.vertex_buffer, &draw.input_layout) else {
            return Ok(Err(
                "vertex shader without vertex buffer/input layout not implemented".into(),
            ));
        };
        let ty = Ty::parse(&vb.data.ty)?;
        let len = vb.data.data.as_ref().map_or(0, Vec::len) * ty.size();
        let (buf, ptr) = s.buffer(len as u64)?;
        let lay = Layout {
            width: 1,
            height: 1,
            texel_size: 0,
        };
        data::fill_initial(mapped(ptr, len), &vb.data, &lay)?;
        vertex_buffer = buf;
        if il.iter().any(|e| e.slot != 0) {
            return Ok(Err(
                "vertex buffer slots other than 0 not implemented".into()
            ));
        }
        bindings.push(vk::VertexInputBindingDescription {
            binding: 0,
            stride: vb.stride,
            input_rate: vk::VertexInputRate::VERTEX,
        });
        for e in il {
            let Some((format, _)) = dxgi_format(&e.format) else {
                return Ok(Err(format!("vertex format {} not implemented", e.format)));
            };
            // Elements the vertex shader does not read are not bound.
            let Some(loc) = ds
                .vs_reflection
                .inputs
                .iter()
                .find(|v| same_semantic(v, &e.semantic, e.index))
                .and_then(|v| v.location)
            else {
                continue;
            };
            attributes.push(vk::VertexInputAttributeDescription {
                location: loc,
                binding: 0,
                format,
                offset: e.offset,
            });
        }
        for v in &ds.vs_reflection.inputs {
            if let Some(loc) = v.location {
                if !attributes.iter().any(|a| a.location == loc) {
                    return Ok(Err(format!(
                        "vertex shader input {:?} (location {loc}) has no input-layout element",
                        v.semantic
                    )));
                }
            }
        }
    }

    // Render targets.
    let mut targets = Vec::new();
    let mut extent = vk::Extent2D {
        width: u32::MAX,
        height: u32::MAX,
    };
    for rt in &run.render_targets {
        let Some((format, ts)) = dxgi_format(&rt.format) else {
            return Ok(Err(format!(
                "render-target format {} not implemented",
                rt.format
            )));
        };
        let feats = s.gpu.format_features(format).optimal_tiling_features;
        if !feats.contains(vk::FormatFeatureFlags::COLOR_ATTACHMENT) {
            return Ok(Err(format!(
                "render-target format {} not renderable on the device",
                rt.format
            )));
        }
        if targets.iter().any(|t: &Target| t.slot == rt.slot) {
            return Err(format!("two render targets in slot {}", rt.slot));
        }
        let clear = match clear_value(&rt.format, rt.clear.as_deref()) {
            Ok(c) => c,
            Err(e) => return Err(format!("render target {}: {e}", rt.slot)),
        };
        let ci = vk::ImageCreateInfo::default()
            .image_type(vk::ImageType::TYPE_2D)
            .format(format)
            .extent(vk::Extent3D {
                width: rt.width,
                height: rt.height,
                depth: 1,
            })
            .mip_levels(1)
            .array_layers(1)
            .samples(vk::SampleCountFlags::TYPE_1)
            .tiling(vk::ImageTiling::OPTIMAL)
            .usage(vk::ImageUsageFlags::COLOR_ATTACHMENT | vk::ImageUsageFlags::TRANSFER_SRC)
            .initial_layout(vk::ImageLayout::UNDEFINED);
        // SAFETY: `d` is live; `ci` is valid.
        let img = unsafe { d.create_image(&ci, None) }.map_err(vkerr("vkCreateImage"))?;
        s.images.push(img);
        // SAFETY: `img` was just created.
        let req = unsafe { d.get_image_memory_requirements(img) };
        let mem = s.gpu.alloc(req, vk::MemoryPropertyFlags::DEVICE_LOCAL)?;
        s.memory.push(mem);
        // SAFETY: fresh image and fitting memory.
        unsafe { d.bind_image_memory(img, mem, 0) }.map_err(vkerr("vkBindImageMemory"))?;
        let vci = vk::ImageViewCreateInfo::default()
            .image(img)
            .view_type(vk::ImageViewType::TYPE_2D)
            .format(format)
            .subresource_range(color_range());
        // SAFETY: `img` is live and bound to memory.
        let view =
            unsafe { d.create_image_view(&vci, None) }.map_err(vkerr("vkCreateImageView"))?;
        s.image_views.push(view);
        let size = rt.width as usize * rt.height as usize * ts;
        let (staging, ptr) = s.buffer(size as u64)?;
        extent.width = extent.width.min(rt.width);
        extent.height = extent.height.min(rt.height);
        targets.push(Target {
            slot: rt.slot,
            format,
            img,
            view,
            staging,
            ptr,
            size,
            width: rt.width,
            height: rt.height,
            texel_size: ts,
            clear,
            desc: rt.clone(),
        });
    }
    targets.sort_by_key(|t| t.slot);
    Ok(Ok(Prepared {
        targets,
        vertex_buffer,
        bindings,
        attributes,
        topology,
        vertex_count: draw.vertex_count.unwrap_or(3),
        instance_count: draw.instance_count.unwrap_or(1),
        extent,
    }))
}

fn color_range() -> vk::ImageSubresourceRange {
    vk::ImageSubresourceRange {
        aspect_mask: vk::ImageAspectFlags::COLOR,
        base_mip_level: 0,
        level_count: 1,
        base_array_layer: 0,
        layer_count: 1,
    }
}

/// Color attachment formats indexed by slot (`UNDEFINED` for unused slots).
fn slot_formats(p: &Prepared) -> Vec<vk::Format> {
    let n = p.targets.iter().map(|t| t.slot + 1).max().unwrap_or(0);
    let mut f = vec![vk::Format::UNDEFINED; n as usize];
    for t in &p.targets {
        f[t.slot as usize] = t.format;
    }
    f
}

/// Creates the graphics pipeline (PS module already in `s.module`, layout in `s.layout`).
pub(crate) fn pipeline(
    s: &mut Scratch,
    case: &Case,
    p: &Prepared,
    ds: &DrawShaders,
) -> Result<vk::Pipeline, String> {
    let d = &s.gpu.device;
    let mci = vk::ShaderModuleCreateInfo::default().code(&ds.vs);
    // SAFETY: `d` is live; the code is a SPIR-V module.
    s.vs_module =
        unsafe { d.create_shader_module(&mci, None) }.map_err(vkerr("vkCreateShaderModule"))?;
    let stages = [
        vk::PipelineShaderStageCreateInfo::default()
            .stage(vk::ShaderStageFlags::VERTEX)
            .module(s.vs_module)
            .name(c"main"),
        vk::PipelineShaderStageCreateInfo::default()
            .stage(vk::ShaderStageFlags::FRAGMENT)
            .module(s.module)
            .name(c"main"),
    ];
    let vi = vk::PipelineVertexInputStateCreateInfo::default()
        .vertex_binding_descriptions(&p.bindings)
        .vertex_attribute_descriptions(&p.attributes);
    let ia = vk::PipelineInputAssemblyStateCreateInfo::default().topology(p.topology);
    let vp = case.viewport.as_ref().map_or(
        vk::Viewport {
            x: 0.0,
            y: 0.0,
            width: p.extent.width as f32,
            height: p.extent.height as f32,
            min_depth: 0.0,
            max_depth: 1.0,
        },
        |v| vk::Viewport {
            x: v.x as f32,
            y: v.y as f32,
            width: v.width as f32,
            height: v.height as f32,
            min_depth: v.min_depth as f32,
            max_depth: v.max_depth as f32,
        },
    );
    // D3D clip space has y up and the window origin at the top left; Vulkan's clip space has y
    // down. A negative-height viewport (as vkd3d-proton and DXVK use) maps D3D clip space the
    // D3D way, which also keeps D3D's winding for the front face.
    let viewports = [vk::Viewport {
        y: vp.y + vp.height,
        height: -vp.height,
        ..vp
    }];
    let scissors = [vk::Rect2D {
        offset: vk::Offset2D::default(),
        extent: p.extent,
    }];
    let vps = vk::PipelineViewportStateCreateInfo::default()
        .viewports(&viewports)
        .scissors(&scissors);
    let draw = case.draw.as_ref();
    let cull = match draw.and_then(|d| d.cull_mode.as_deref()) {
        Some("back") => vk::CullModeFlags::BACK,
        Some("front") => vk::CullModeFlags::FRONT,
        _ => vk::CullModeFlags::NONE,
    };
    let front = if draw.and_then(|d| d.front_counter_clockwise) == Some(true) {
        vk::FrontFace::COUNTER_CLOCKWISE
    } else {
        vk::FrontFace::CLOCKWISE
    };
    let rs = vk::PipelineRasterizationStateCreateInfo::default()
        .polygon_mode(vk::PolygonMode::FILL)
        .cull_mode(cull)
        .front_face(front)
        .depth_clamp_enable(false)
        .line_width(1.0);
    let ms = vk::PipelineMultisampleStateCreateInfo::default()
        .rasterization_samples(vk::SampleCountFlags::TYPE_1);
    let formats = slot_formats(p);
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
    let gci = [vk::GraphicsPipelineCreateInfo::default()
        .stages(&stages)
        .vertex_input_state(&vi)
        .input_assembly_state(&ia)
        .viewport_state(&vps)
        .rasterization_state(&rs)
        .multisample_state(&ms)
        .color_blend_state(&cb)
        .layout(s.layout)
        .push_next(&mut rendering)];
    // SAFETY: modules and layout are live; every state struct lives across the call.
    let pl = unsafe { d.create_graphics_pipelines(vk::PipelineCache::null(), &gci, None) }
        .map_err(|(_, e)| format!("vkCreateGraphicsPipelines: {e}"))?;
    pl.first()
        .copied()
        .ok_or_else(|| "vkCreateGraphicsPipelines returned no pipeline".into())
}

/// Records the draw: render-target transitions, clears, the draw and the readback into the
/// render targets' staging buffers.
pub(crate) fn record(
    d: &ash::Device,
    cb: vk::CommandBuffer,
    p: &Prepared,
    pipeline: vk::Pipeline,
    layout: vk::PipelineLayout,
    sets: &[vk::DescriptorSet],
) {
    let to_attachment: Vec<_> = p
        .targets
        .iter()
        .map(|t| {
            vk::ImageMemoryBarrier::default()
                .image(t.img)
                .subresource_range(color_range())
                .old_layout(vk::ImageLayout::UNDEFINED)
                .new_layout(vk::ImageLayout::COLOR_ATTACHMENT_OPTIMAL)
                .dst_access_mask(
                    vk::AccessFlags::COLOR_ATTACHMENT_WRITE
                        | vk::AccessFlags::COLOR_ATTACHMENT_READ,
                )
        })
        .collect();
    let to_transfer: Vec<_> = p
        .targets
        .iter()
        .map(|t| {
            vk::ImageMemoryBarrier::default()
                .image(t.img)
                .subresource_range(color_range())
                .old_layout(vk::ImageLayout::COLOR_ATTACHMENT_OPTIMAL)
                .new_layout(vk::ImageLayout::TRANSFER_SRC_OPTIMAL)
                .src_access_mask(vk::AccessFlags::COLOR_ATTACHMENT_WRITE)
                .dst_access_mask(vk::AccessFlags::TRANSFER_READ)
        })
        .collect();
    let n = p.targets.iter().map(|t| t.slot + 1).max().unwrap_or(0) as usize;
    let mut attachments = vec![
        vk::RenderingAttachmentInfo::default()
            .image_view(vk::ImageView::null())
            .load_op(vk::AttachmentLoadOp::DONT_CARE)
            .store_op(vk::AttachmentStoreOp::DONT_CARE);
        n
    ];
    for t in &p.targets {
        attachments[t.slot as usize] = vk::RenderingAttachmentInfo::default()
            .image_view(t.view)
            .image_layout(vk::ImageLayout::COLOR_ATTACHMENT_OPTIMAL)
            .load_op(vk::AttachmentLoadOp::CLEAR)
            .store_op(vk::AttachmentStoreOp::STORE)
            .clear_value(t.clear);
    }
    let ri = vk::RenderingInfo::default()
        .render_area(vk::Rect2D {
            offset: vk::Offset2D::default(),
            extent: p.extent,
        })
        .layer_count(1)
        .color_attachments(&attachments);
    // SAFETY: `cb` is recording; every handle (images, views, pipeline, layout, sets, vertex
    // and staging buffers) is live for the whole submission.
    unsafe {
        d.cmd_pipeline_barrier(
            cb,
            vk::PipelineStageFlags::TOP_OF_PIPE,
            vk::PipelineStageFlags::COLOR_ATTACHMENT_OUTPUT,
            vk::DependencyFlags::empty(),
            &[],
            &[],
            &to_attachment,
        );
        d.cmd_begin_rendering(cb, &ri);
        d.cmd_bind_pipeline(cb, vk::PipelineBindPoint::GRAPHICS, pipeline);
        if !sets.is_empty() {
            d.cmd_bind_descriptor_sets(cb, vk::PipelineBindPoint::GRAPHICS, layout, 0, sets, &[]);
        }
        d.cmd_bind_vertex_buffers(cb, 0, &[p.vertex_buffer], &[0]);
        d.cmd_draw(cb, p.vertex_count, p.instance_count, 0, 0);
        d.cmd_end_rendering(cb);
        d.cmd_pipeline_barrier(
            cb,
            vk::PipelineStageFlags::COLOR_ATTACHMENT_OUTPUT,
            vk::PipelineStageFlags::TRANSFER,
            vk::DependencyFlags::empty(),
            &[],
            &[],
            &to_transfer,
        );
        for t in &p.targets {
            let region = [vk::BufferImageCopy {
                buffer_offset: 0,
                buffer_row_length: 0,
                buffer_image_height: 0,
                image_subresource: vk::ImageSubresourceLayers {
                    aspect_mask: vk::ImageAspectFlags::COLOR,
                    mip_level: 0,
                    base_array_layer: 0,
                    layer_count: 1,
                },
                image_offset: vk::Offset3D::default(),
                image_extent: vk::Extent3D {
                    width: t.width,
                    height: t.height,
                    depth: 1,
                },
            }];
            d.cmd_copy_image_to_buffer(
                cb,
                t.img,
                vk::ImageLayout::TRANSFER_SRC_OPTIMAL,
                t.staging,
                &region,
            );
        }
    }
}

/// Checks the render targets' `expect` blocks (after the submission finished).
pub(crate) fn check(p: &Prepared) -> Result<Outcome, String> {
    for t in &p.targets {
        let Some(exp) = &t.desc.expect else {
            continue;
        };
        let layout = Layout {
            width: t.width as usize,
            height: t.height as usize,
            texel_size: t.texel_size,
        };
        if let Err(e) = data::check(
            mapped(t.ptr, t.size),
            exp,
            t.desc.tolerance.as_ref(),
            &layout,
            None,
        ) {
            let texel = mismatch_texel(&e, &layout, exp);
            return Ok(Outcome::Fail(format!(
                "render target {} ({}): {e}{texel}",
                t.slot, t.desc.format
            )));
        }
    }
    Ok(Outcome::Ok)
}

/// `" (texel (x,y))"` for an `index N` mismatch message, to locate it in the render target.
fn mismatch_texel(msg: &str, layout: &Layout, exp: &crate::case::Data) -> String {
    let Ok(ty) = Ty::parse(&exp.ty) else {
        return String::new();
    };
    let per = (layout.texel_size / ty.size()).max(1);
    let idx = msg
        .strip_prefix("index ")
        .and_then(|r| r.split(':').next())
        .and_then(|n| n.parse::<usize>().ok());
    match idx {
        Some(i) if layout.width > 0 => {
            let texel = i / per;
            format!(
                " (texel ({},{}))",
                texel % layout.width,
                texel / layout.width
            )
        }
        _ => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The hand-assembled pass-through shader is valid SPIR-V (checked when `spirv-val` is
    /// installed).
    #[test]
    fn passthrough_vs_validates() {
        let words = passthrough_vs();
        assert_eq!(words[0], 0x0723_0203);
        dxspv_testkit::assert_spirv_valid("pass-through vertex shader", &words);
    }
}
