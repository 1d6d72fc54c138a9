//! Render targets: created (2D, or 2D arrays for layered rendering), cleared before the
//! first draw, read back after the last one and checked against the case.

use crate::case::{Data, RenderTarget};
use crate::data::{self, Layout, Ty};
use crate::exec::Outcome;
use crate::formats::dxgi_format;
use crate::scratch::{mapped, vkerr, Scratch};
use ash::vk;

/// One created render target.
pub(crate) struct Target {
    pub(crate) slot: u32,
    pub(crate) format: vk::Format,
    img: vk::Image,
    pub(crate) view: vk::ImageView,
    /// A view of the same texels in the format's sRGB twin (created on request).
    pub(crate) srgb_view: Option<(vk::ImageView, vk::Format)>,
    staging: vk::Buffer,
    ptr: *mut u8,
    size: usize,
    pub(crate) width: u32,
    pub(crate) height: u32,
    pub(crate) layers: u32,
    texel_size: usize,
    clear: vk::ClearValue,
    desc: RenderTarget,
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

fn range(layers: u32) -> vk::ImageSubresourceRange {
    vk::ImageSubresourceRange {
        aspect_mask: vk::ImageAspectFlags::COLOR,
        base_mip_level: 0,
        level_count: 1,
        base_array_layer: 0,
        layer_count: layers,
    }
}

/// The sRGB format with the same texel layout as `f`, if any.
fn srgb_twin(f: vk::Format) -> Option<vk::Format> {
    match f {
        vk::Format::B8G8R8A8_UNORM => Some(vk::Format::B8G8R8A8_SRGB),
        vk::Format::R8G8B8A8_UNORM => Some(vk::Format::R8G8B8A8_SRGB),
        _ => None,
    }
}

/// Creates the render targets, sorted by slot, each with an sRGB view as well when `srgb`
/// and its format has an sRGB twin the device renders to; the inner `Err` is a skip reason.
pub(crate) fn create(
    s: &mut Scratch,
    descs: &[RenderTarget],
    srgb: bool,
) -> Result<Result<Vec<Target>, String>, String> {
    let mut targets: Vec<Target> = Vec::new();
    for rt in descs {
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
        if targets.iter().any(|t| t.slot == rt.slot) {
            return Err(format!("two render targets in slot {}", rt.slot));
        }
        let clear = clear_value(&rt.format, rt.clear.as_deref())
            .map_err(|e| format!("render target {}: {e}", rt.slot))?;
        let layers = rt.array_size.unwrap_or(1).max(1);
        let twin = match srgb_twin(format).filter(|_| srgb) {
            Some(t)
                if s.gpu
                    .format_features(t)
                    .optimal_tiling_features
                    .contains(vk::FormatFeatureFlags::COLOR_ATTACHMENT) =>
            {
                Some(t)
            }
            Some(_) => return Ok(Err(format!("device lacks sRGB rendering to {}", rt.format))),
            None if srgb => {
                return Ok(Err(format!(
                    "render-target format {} has no sRGB twin",
                    rt.format
                )))
            }
            None => None,
        };
        let ci = vk::ImageCreateInfo::default()
            .flags(if twin.is_some() {
                vk::ImageCreateFlags::MUTABLE_FORMAT
            } else {
                vk::ImageCreateFlags::empty()
            })
            .image_type(vk::ImageType::TYPE_2D)
            .format(format)
            .extent(vk::Extent3D {
                width: rt.width,
                height: rt.height,
                depth: 1,
            })
            .mip_levels(1)
            .array_layers(layers)
            .samples(vk::SampleCountFlags::TYPE_1)
            .tiling(vk::ImageTiling::OPTIMAL)
            .usage(
                vk::ImageUsageFlags::COLOR_ATTACHMENT
                    | vk::ImageUsageFlags::TRANSFER_SRC
                    | vk::ImageUsageFlags::TRANSFER_DST,
            )
            .initial_layout(vk::ImageLayout::UNDEFINED);
        let img = s.image(&ci)?;
        let view_type = if rt.array_size.is_some() {
            vk::ImageViewType::TYPE_2D_ARRAY
        } else {
            vk::ImageViewType::TYPE_2D
        };
        let vci = vk::ImageViewCreateInfo::default()
            .image(img)
            .view_type(view_type)
            .format(format)
            .subresource_range(range(layers));
        // SAFETY: `img` is live and bound to memory.
        let view = unsafe { s.gpu.device.create_image_view(&vci, None) }
            .map_err(vkerr("vkCreateImageView"))?;
        s.image_views.push(view);
        let srgb_view = match twin {
            Some(t) => {
                let vci = vci.format(t);
                // SAFETY: `img` is live, bound to memory and created mutable-format.
                let v = unsafe { s.gpu.device.create_image_view(&vci, None) }
                    .map_err(vkerr("vkCreateImageView"))?;
                s.image_views.push(v);
                Some((v, t))
            }
            None => None,
        };
        let size = rt.width as usize * rt.height as usize * layers as usize * ts;
        let (staging, ptr) = s.buffer(size as u64)?;
        targets.push(Target {
            slot: rt.slot,
            format,
            img,
            view,
            srgb_view,
            staging,
            ptr,
            size,
            width: rt.width,
            height: rt.height,
            layers,
            texel_size: ts,
            clear,
            desc: rt.clone(),
        });
    }
    targets.sort_by_key(|t| t.slot);
    Ok(Ok(targets))
}

impl Target {
    /// The contents read back (after the submission finished): rows of `width` texels,
    /// tightly packed, layer after layer.
    pub(crate) fn bytes(&self) -> &[u8] {
        mapped(self.ptr, self.size)
    }
}

/// Colour attachment formats indexed by slot (`UNDEFINED` for unused slots).
pub(crate) fn slot_formats(targets: &[Target]) -> Vec<vk::Format> {
    let n = targets.iter().map(|t| t.slot + 1).max().unwrap_or(0);
    let mut f = vec![vk::Format::UNDEFINED; n as usize];
    for t in targets {
        f[t.slot as usize] = t.format;
    }
    f
}

/// Records the clears (every layer) and leaves the targets as colour attachments.
pub(crate) fn record_clears(d: &ash::Device, cb: vk::CommandBuffer, targets: &[Target]) {
    for t in targets {
        let to_dst = [vk::ImageMemoryBarrier::default()
            .image(t.img)
            .subresource_range(range(t.layers))
            .old_layout(vk::ImageLayout::UNDEFINED)
            .new_layout(vk::ImageLayout::TRANSFER_DST_OPTIMAL)
            .dst_access_mask(vk::AccessFlags::TRANSFER_WRITE)];
        let to_attachment = [vk::ImageMemoryBarrier::default()
            .image(t.img)
            .subresource_range(range(t.layers))
            .old_layout(vk::ImageLayout::TRANSFER_DST_OPTIMAL)
            .new_layout(vk::ImageLayout::COLOR_ATTACHMENT_OPTIMAL)
            .src_access_mask(vk::AccessFlags::TRANSFER_WRITE)
            .dst_access_mask(
                vk::AccessFlags::COLOR_ATTACHMENT_READ | vk::AccessFlags::COLOR_ATTACHMENT_WRITE,
            )];
        // SAFETY: `cb` is recording; the image is live; the clear value is a colour.
        unsafe {
            d.cmd_pipeline_barrier(
                cb,
                vk::PipelineStageFlags::TOP_OF_PIPE,
                vk::PipelineStageFlags::TRANSFER,
                vk::DependencyFlags::empty(),
                &[],
                &[],
                &to_dst,
            );
            d.cmd_clear_color_image(
                cb,
                t.img,
                vk::ImageLayout::TRANSFER_DST_OPTIMAL,
                &t.clear.color,
                &[range(t.layers)],
            );
            d.cmd_pipeline_barrier(
                cb,
                vk::PipelineStageFlags::TRANSFER,
                vk::PipelineStageFlags::COLOR_ATTACHMENT_OUTPUT,
                vk::DependencyFlags::empty(),
                &[],
                &[],
                &to_attachment,
            );
        }
    }
}

/// Records the copies of every layer into the staging buffers after the last draw.
pub(crate) fn record_readbacks(d: &ash::Device, cb: vk::CommandBuffer, targets: &[Target]) {
    for t in targets {
        let to_src = [vk::ImageMemoryBarrier::default()
            .image(t.img)
            .subresource_range(range(t.layers))
            .old_layout(vk::ImageLayout::COLOR_ATTACHMENT_OPTIMAL)
            .new_layout(vk::ImageLayout::TRANSFER_SRC_OPTIMAL)
            .src_access_mask(vk::AccessFlags::COLOR_ATTACHMENT_WRITE)
            .dst_access_mask(vk::AccessFlags::TRANSFER_READ)];
        let region = [vk::BufferImageCopy {
            buffer_offset: 0,
            buffer_row_length: 0,
            buffer_image_height: 0,
            image_subresource: vk::ImageSubresourceLayers {
                aspect_mask: vk::ImageAspectFlags::COLOR,
                mip_level: 0,
                base_array_layer: 0,
                layer_count: t.layers,
            },
            image_offset: vk::Offset3D::default(),
            image_extent: vk::Extent3D {
                width: t.width,
                height: t.height,
                depth: 1,
            },
        }];
        // SAFETY: `cb` is recording; image and staging buffer are live.
        unsafe {
            d.cmd_pipeline_barrier(
                cb,
                vk::PipelineStageFlags::COLOR_ATTACHMENT_OUTPUT,
                vk::PipelineStageFlags::TRANSFER,
                vk::DependencyFlags::empty(),
                &[],
                &[],
                &to_src,
            );
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

/// Checks the targets' `expect` blocks (after the submission finished).
pub(crate) fn check(targets: &[Target]) -> Outcome {
    for t in targets {
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
            return Outcome::Fail(format!(
                "render target {} ({}): {e}{texel}",
                t.slot, t.desc.format
            ));
        }
    }
    Outcome::Ok
}

/// `" (texel (x,y))"` for an `index N` mismatch message, to locate it in the render target.
fn mismatch_texel(msg: &str, layout: &Layout, exp: &Data) -> String {
    let Ok(ty) = Ty::parse(&exp.ty) else {
        return String::new();
    };
    let per = (layout.texel_size / ty.size()).max(1);
    let idx = msg
        .strip_prefix("index ")
        .and_then(|r| r.split(':').next())
        .and_then(|n| n.parse::<usize>().ok());
    match idx {
        Some(i) if layout.width > 0 && layout.height > 0 => {
            let texel = i / per;
            let (x, y) = (texel % layout.width, texel / layout.width);
            let layer = y / layout.height;
            if layer == 0 {
                format!(" (texel ({x},{y}))")
            } else {
                format!(" (texel ({x},{}) layer {layer})", y % layout.height)
            }
        }
        _ => String::new(),
    }
}
