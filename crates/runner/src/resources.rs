//! The resources of a run: buffers, textures, samplers, root constants and UAV counters,
//! created and filled from the case, bound through descriptor sets built from the shaders'
//! reflections, uploaded before and read back after the work, and checked against the case's
//! expectations. Shared by compute dispatches and graphics draws.
//!
//! Each stage that runs brings its reflection ([`StageView`]); a resource with a `stages`
//! list is seen only by those stages, so one register can hold different data per stage (the
//! graphics runner compiles each stage into its own descriptor sets).

use crate::case::{visible_to, Resource, RootConstants};
use crate::data::{self, Layout};
use crate::exec::Outcome;
use crate::formats::dxgi_format;
use crate::scratch::{mapped, vkerr, Scratch};
use ash::vk;
use dxspv::spirv::{DescriptorType, Reflection, RegisterClass, ResourceBinding};

/// Bytes allocated for constant buffers (D3D's 4096-vec4 maximum): padding reads as zero.
pub(crate) const CBV_ALLOC: u64 = 65536;

fn class_kind(c: RegisterClass) -> &'static str {
    match c {
        RegisterClass::Cbv => "cbv",
        RegisterClass::Srv => "srv",
        RegisterClass::Uav | RegisterClass::UavCounter => "uav",
        RegisterClass::Sampler => "sampler",
    }
}

/// One created object of a run.
enum Obj {
    None,
    Buffer {
        buf: vk::Buffer,
        ptr: *mut u8,
        size: usize,
        alloc: u64,
    },
    Image {
        img: vk::Image,
        staging: vk::Buffer,
        ptr: *mut u8,
        size: usize,
        regions: Vec<vk::BufferImageCopy>,
        view_type: vk::ImageViewType,
        format: vk::Format,
        layers: u32,
        mips: u32,
        width: usize,
        height: usize,
    },
    Sampler(vk::Sampler),
}

fn buffer_elem_size(r: &Resource) -> Result<u64, String> {
    Ok(match r.view.as_deref() {
        Some("raw_buffer") | None => 4,
        Some("structured_buffer") => u64::from(r.stride.ok_or("structured buffer without stride")?),
        Some("typed_buffer") => {
            let f = r.format.as_deref().ok_or("typed buffer without format")?;
            dxgi_format(f)
                .ok_or_else(|| format!("unsupported format {f}"))?
                .1 as u64
        }
        Some(v) => return Err(format!("`{v}` is not a buffer view")),
    })
}

fn is_buffer(r: &Resource) -> bool {
    matches!(
        r.view.as_deref(),
        None | Some("raw_buffer") | Some("structured_buffer") | Some("typed_buffer")
    )
}

/// Byte range of the view of a buffer resource, `None` for root descriptors / no view.
fn view_range(r: &Resource) -> Result<Option<(u64, u64)>, String> {
    if r.kind == "cbv" || r.binding.as_deref() == Some("root_descriptor") {
        return Ok(None);
    }
    let es = buffer_elem_size(r)?;
    match (r.first_element, r.elements) {
        (f, Some(n)) => Ok(Some((f.unwrap_or(0) * es, n * es))),
        _ => Ok(None),
    }
}

/// The bytes one bound buffer view covers in the buffer that backs it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ViewSpan {
    /// Identifies the backing buffer: views with equal keys share memory (`alias_of`).
    pub(crate) buffer: u64,
    /// Byte offset of the view in the buffer.
    pub(crate) offset: u64,
    /// Byte size of the view.
    pub(crate) len: u64,
}

/// How a buffer view is bound to its descriptor.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ViewPlan {
    /// The backing buffer itself at the view's offset (the offset is aligned).
    Direct,
    /// A shadow buffer holding exactly the view's bytes, bound at offset 0: the offset is not
    /// aligned for the device and no other view shares those bytes.
    Shadow,
    /// Neither: the offset is not aligned and the view overlaps the view with this index, so
    /// writes through one would not be seen through the other.
    Overlaps(usize),
}

/// Decides how view `i` of `spans` is bound when descriptor offsets must be multiples of
/// `align`. `spans` holds every view bound in the run (`None` for resources that are not
/// buffer views); an unaligned view gets a shadow buffer unless its byte range overlaps that of
/// another view of the same buffer. Empty ranges overlap nothing.
pub(crate) fn plan_view(spans: &[Option<ViewSpan>], i: usize, align: u64) -> ViewPlan {
    let Some(Some(v)) = spans.get(i) else {
        return ViewPlan::Direct;
    };
    if align <= 1 || v.offset % align == 0 {
        return ViewPlan::Direct;
    }
    let end = v.offset.saturating_add(v.len);
    let other = spans.iter().enumerate().position(|(j, o)| {
        o.is_some_and(|o| {
            j != i
                && o.buffer == v.buffer
                && v.len > 0
                && o.len > 0
                && o.offset < end
                && v.offset < o.offset.saturating_add(o.len)
        })
    });
    match other {
        Some(j) => ViewPlan::Overlaps(j),
        None => ViewPlan::Shadow,
    }
}

/// The byte range a resource's descriptor covers in its buffer: its view range, or the whole
/// allocation where it has none (root descriptors, constant buffers). `None` for
/// non-buffer resources and null descriptors.
fn span_of(r: &Resource, obj: &Obj) -> Option<ViewSpan> {
    let Obj::Buffer { buf, alloc, .. } = obj else {
        return None;
    };
    // An unreadable view (bad format) counts as the whole buffer: binding it fails later anyway.
    let (offset, len) = view_range(r).ok().flatten().unwrap_or((0, *alloc));
    Some(ViewSpan {
        buffer: vk::Handle::as_raw(*buf),
        offset,
        len,
    })
}

/// A buffer standing in for an unaligned view of another buffer (see [`ViewPlan::Shadow`]).
struct Shadow {
    /// The resource whose view it is.
    res: usize,
    buf: vk::Buffer,
    ptr: *mut u8,
    /// Mapping of the backing buffer.
    parent: *mut u8,
    offset: usize,
    len: usize,
}

/// The shadow buffer of resource `i`, whose view is bytes `off .. off + len` of the buffer
/// mapped at `parent` (`alloc` bytes): created on first use and filled with those bytes.
fn shadow_of(
    s: &mut Scratch,
    shadows: &mut Vec<Shadow>,
    i: usize,
    parent: *mut u8,
    alloc: u64,
    (off, len): (u64, u64),
) -> Result<vk::Buffer, String> {
    if let Some(sh) = shadows.iter().find(|sh| sh.res == i) {
        return Ok(sh.buf);
    }
    match off.checked_add(len) {
        Some(end) if end <= alloc => {}
        _ => {
            return Err(format!(
                "buffer view bytes {off}+{len} exceed the {alloc}-byte buffer"
            ))
        }
    }
    let (offset, len) = (off as usize, len as usize);
    let (buf, ptr) = s.buffer(len as u64)?;
    mapped(ptr, len).copy_from_slice(&mapped(parent, offset + len)[offset..]);
    shadows.push(Shadow {
        res: i,
        buf,
        ptr,
        parent,
        offset,
        len,
    });
    Ok(buf)
}

fn filter_of(name: &str) -> (vk::Filter, vk::Filter, vk::SamplerMipmapMode) {
    let (mut min, mut mag, mut mip) = (false, false, false);
    if name.contains("ANISOTROPIC") {
        return (
            vk::Filter::LINEAR,
            vk::Filter::LINEAR,
            vk::SamplerMipmapMode::LINEAR,
        );
    }
    let mut pending: Vec<&str> = Vec::new();
    for tok in name.split('_') {
        match tok {
            "MIN" | "MAG" | "MIP" => pending.push(tok),
            "POINT" | "LINEAR" => {
                let lin = tok == "LINEAR";
                for p in pending.drain(..) {
                    match p {
                        "MIN" => min = lin,
                        "MAG" => mag = lin,
                        _ => mip = lin,
                    }
                }
            }
            _ => {}
        }
    }
    let f = |l: bool| {
        if l {
            vk::Filter::LINEAR
        } else {
            vk::Filter::NEAREST
        }
    };
    let m = if mip {
        vk::SamplerMipmapMode::LINEAR
    } else {
        vk::SamplerMipmapMode::NEAREST
    };
    (f(min), f(mag), m)
}

fn address_of(name: Option<&str>) -> vk::SamplerAddressMode {
    match name {
        Some("CLAMP") => vk::SamplerAddressMode::CLAMP_TO_EDGE,
        Some("MIRROR") => vk::SamplerAddressMode::MIRRORED_REPEAT,
        Some("BORDER") => vk::SamplerAddressMode::CLAMP_TO_BORDER,
        Some("MIRROR_ONCE") => vk::SamplerAddressMode::MIRROR_CLAMP_TO_EDGE,
        _ => vk::SamplerAddressMode::REPEAT,
    }
}

/// The Vulkan border colour of an RGBA border colour (absent: transparent black); `None`
/// for colours only `VK_EXT_custom_border_color` can give.
fn border_color(c: Option<[f64; 4]>) -> Option<vk::BorderColor> {
    Some(match c.unwrap_or([0.0; 4]) {
        [0.0, 0.0, 0.0, 0.0] => vk::BorderColor::FLOAT_TRANSPARENT_BLACK,
        [0.0, 0.0, 0.0, 1.0] => vk::BorderColor::FLOAT_OPAQUE_BLACK,
        [1.0, 1.0, 1.0, 1.0] => vk::BorderColor::FLOAT_OPAQUE_WHITE,
        _ => return None,
    })
}

/// One shader stage's view of the run's resources.
pub(crate) struct StageView<'a> {
    /// The stage's bindings.
    pub(crate) reflection: &'a Reflection,
    /// The Vulkan stage.
    pub(crate) flags: vk::ShaderStageFlags,
    /// The D3D stage name resources' `stages` lists use (`cs`, `vs`, `hs`, `ds`, `gs`, `ps`).
    pub(crate) stage: &'static str,
}

/// A root-constant block bound as a constant buffer.
pub(crate) struct RootCb {
    space: u32,
    register: u32,
    stages: Option<Vec<String>>,
    pub(crate) buf: vk::Buffer,
}

/// The run's resources, created, filled and bound: one descriptor set per set number the
/// stages' reflections use, and the pipeline layout over them.
pub(crate) struct Resources {
    objs: Vec<Obj>,
    pub(crate) root_cbs: Vec<RootCb>,
    counters: Vec<(usize, vk::Buffer, *mut u8)>,
    shadows: Vec<Shadow>,
    /// Descriptor sets by set number (empty sets included).
    pub(crate) sets: Vec<vk::DescriptorSet>,
    /// The pipeline layout of every pipeline of the run.
    pub(crate) layout: vk::PipelineLayout,
}

/// One descriptor binding of the layout, merged over the stages that declare it.
struct LayoutBinding<'a> {
    b: &'a ResourceBinding,
    count: u32,
    flags: vk::ShaderStageFlags,
    /// The stage whose resources fill it.
    stage: &'static str,
}

/// Creates the run's resources (`res`, `root_constants`), fills them with their initial
/// data and binds them for `stages` through a pipeline layout that also holds
/// `push_constants`; the inner `Err` is a skip reason.
pub(crate) fn create(
    s: &mut Scratch,
    res: &[Resource],
    root_constants: &[RootConstants],
    stages: &[StageView],
    push_constants: &[vk::PushConstantRange],
) -> Result<Result<Resources, String>, String> {
    let gpu = s.gpu;
    let d = &gpu.device;

    // Create resources (aliases after their targets).
    let mut objs: Vec<Obj> = (0..res.len()).map(|_| Obj::None).collect();
    for pass in 0..2 {
        for (i, r) in res.iter().enumerate() {
            if (r.alias_of.is_some()) != (pass == 1) || r.null {
                continue;
            }
            if let Some(target) = &r.alias_of {
                let j = res
                    .iter()
                    .position(|o| o.id.as_deref() == Some(target.as_str()))
                    .ok_or_else(|| format!("alias_of `{target}`: no such id"))?;
                objs[i] = match &objs[j] {
                    Obj::Buffer {
                        buf,
                        ptr,
                        size,
                        alloc,
                    } => Obj::Buffer {
                        buf: *buf,
                        ptr: *ptr,
                        size: *size,
                        alloc: *alloc,
                    },
                    _ => return Ok(Err("aliasing of non-buffer resources".into())),
                };
                continue;
            }
            objs[i] = match r.kind.as_str() {
                "sampler" => {
                    let sd = r.sampler.clone().unwrap_or_default();
                    let (min, mag, mip) =
                        filter_of(sd.filter.as_deref().unwrap_or("MIN_MAG_MIP_POINT"));
                    let border = match border_color(sd.border_color) {
                        Some(b) => b,
                        None => {
                            return Ok(Err(format!(
                                "sampler s{}: border colour {:?} needs VK_EXT_custom_border_color (not implemented)",
                                r.register, sd.border_color
                            )))
                        }
                    };
                    let ci = vk::SamplerCreateInfo::default()
                        .min_filter(min)
                        .mag_filter(mag)
                        .mipmap_mode(mip)
                        .address_mode_u(address_of(sd.address_u.as_deref()))
                        .address_mode_v(address_of(sd.address_v.as_deref()))
                        .address_mode_w(address_of(sd.address_w.as_deref()))
                        .border_color(border)
                        .mip_lod_bias(sd.mip_lod_bias.unwrap_or(0.0) as f32)
                        .min_lod(sd.min_lod.unwrap_or(0.0) as f32)
                        .max_lod(sd.max_lod.map_or(vk::LOD_CLAMP_NONE, |l| l as f32));
                    // SAFETY: `d` is live; `ci` is valid.
                    let smp =
                        unsafe { d.create_sampler(&ci, None) }.map_err(vkerr("vkCreateSampler"))?;
                    s.samplers.push(smp);
                    Obj::Sampler(smp)
                }
                _ if r.kind == "cbv" || is_buffer(r) => {
                    let size = match r.size_bytes {
                        Some(n) => n,
                        None => {
                            buffer_elem_size(r)?
                                * (r.first_element.unwrap_or(0) + r.elements.unwrap_or(1))
                        }
                    };
                    let alloc = if r.kind == "cbv" {
                        size.max(CBV_ALLOC)
                    } else {
                        size.max(16)
                    };
                    let (buf, ptr) = s.buffer(alloc)?;
                    if let Some(bytes) = &r.bytes {
                        if bytes.len() as u64 > size {
                            return Err(format!(
                                "{}: {} initial bytes for a {size}-byte buffer",
                                res_name(r),
                                bytes.len()
                            ));
                        }
                        mapped(ptr, bytes.len()).copy_from_slice(bytes);
                    } else if let Some(init) = &r.initial {
                        data::fill_initial(mapped(ptr, size as usize), init, &Layout::BUFFER)?;
                    }
                    Obj::Buffer {
                        buf,
                        ptr,
                        size: size as usize,
                        alloc,
                    }
                }
                _ => match create_image(s, r)? {
                    Ok(o) => o,
                    Err(reason) => return Ok(Err(reason)),
                },
            };
        }
    }
    // Root constants as constant buffers.
    let mut root_cbs = Vec::new();
    for rc in root_constants {
        let (buf, ptr) = s.buffer(CBV_ALLOC)?;
        write_words(mapped(ptr, rc.values.len() * 4), &rc.values);
        root_cbs.push(RootCb {
            space: rc.space,
            register: rc.register,
            stages: rc.stages.clone(),
            buf,
        });
    }
    // UAV counters, one per UAV register that a reflection or the case gives one.
    let mut counters: Vec<(usize, vk::Buffer, *mut u8)> = Vec::new();
    for (i, r) in res.iter().enumerate() {
        let wanted = r.counter.is_some()
            || r.expect_counter.is_some()
            || stages.iter().any(|st| {
                st.reflection
                    .resources
                    .iter()
                    .any(|b| b.class == RegisterClass::UavCounter && covers(b, r.space, r.register))
            });
        if r.kind == "uav" && wanted && !r.null {
            let (buf, ptr) = s.buffer(16)?;
            mapped(ptr, 4).copy_from_slice(&r.counter.unwrap_or(0).to_le_bytes());
            counters.push((i, buf, ptr));
        }
    }

    // Descriptor set layouts: the union of the stages' bindings, by set number.
    let nsets = stages
        .iter()
        .flat_map(|st| st.reflection.resources.iter().map(|b| b.set as usize + 1))
        .max()
        .unwrap_or(0);
    let mut per_set: Vec<Vec<LayoutBinding>> = (0..nsets).map(|_| Vec::new()).collect();
    for st in stages {
        for b in &st.reflection.resources {
            let n = if b.count == 0 {
                res.iter()
                    .filter(|r| {
                        r.kind == class_kind(b.class)
                            && r.space == b.space
                            && r.register >= b.register
                            && visible_to(&r.stages, st.stage)
                    })
                    .map(|r| r.register - b.register + 1)
                    .max()
                    .unwrap_or(1)
            } else {
                b.count
            };
            let set = &mut per_set[b.set as usize];
            match set.iter_mut().find(|l| l.b.binding == b.binding) {
                Some(l) if l.b == b && l.count == n => l.flags |= st.flags,
                Some(l) => {
                    return Err(format!(
                        "set {} binding {}: {:?} register {} space {} ({}) and {:?} register {} space {} ({}) collide",
                        b.set, b.binding, l.b.class, l.b.register, l.b.space, l.stage,
                        b.class, b.register, b.space, st.stage
                    ))
                }
                None => set.push(LayoutBinding {
                    b,
                    count: n,
                    flags: st.flags,
                    stage: st.stage,
                }),
            }
        }
    }
    let mut pool_sizes: Vec<vk::DescriptorPoolSize> = Vec::new();
    for set in &per_set {
        let mut binds = Vec::new();
        let mut flags = Vec::new();
        for l in set {
            let ty = desc_type(l.b.descriptor_type);
            binds.push(
                vk::DescriptorSetLayoutBinding::default()
                    .binding(l.b.binding)
                    .descriptor_type(ty)
                    .descriptor_count(l.count)
                    .stage_flags(l.flags),
            );
            flags.push(if gpu.caps.partially_bound {
                vk::DescriptorBindingFlags::PARTIALLY_BOUND
            } else {
                vk::DescriptorBindingFlags::empty()
            });
            pool_sizes.push(vk::DescriptorPoolSize {
                ty,
                descriptor_count: l.count,
            });
        }
        let mut fi = vk::DescriptorSetLayoutBindingFlagsCreateInfo::default().binding_flags(&flags);
        let ci = vk::DescriptorSetLayoutCreateInfo::default()
            .bindings(&binds)
            .push_next(&mut fi);
        // SAFETY: `d` is live; `ci` and its arrays live across the call.
        let l = unsafe { d.create_descriptor_set_layout(&ci, None) }
            .map_err(vkerr("vkCreateDescriptorSetLayout"))?;
        s.set_layouts.push(l);
    }
    let set_layouts = s.set_layouts[s.set_layouts.len() - nsets..].to_vec();
    let mut sets = Vec::new();
    if nsets > 0 {
        if pool_sizes.is_empty() {
            pool_sizes.push(vk::DescriptorPoolSize {
                ty: vk::DescriptorType::STORAGE_BUFFER,
                descriptor_count: 1,
            });
        }
        let pci = vk::DescriptorPoolCreateInfo::default()
            .max_sets(nsets as u32)
            .pool_sizes(&pool_sizes);
        // SAFETY: `d` is live.
        let pool = unsafe { d.create_descriptor_pool(&pci, None) }
            .map_err(vkerr("vkCreateDescriptorPool"))?;
        s.pools.push(pool);
        let ai = vk::DescriptorSetAllocateInfo::default()
            .descriptor_pool(pool)
            .set_layouts(&set_layouts);
        // SAFETY: pool and layouts are live.
        sets = unsafe { d.allocate_descriptor_sets(&ai) }
            .map_err(vkerr("vkAllocateDescriptorSets"))?;
    }
    let lci = vk::PipelineLayoutCreateInfo::default()
        .set_layouts(&set_layouts)
        .push_constant_ranges(push_constants);
    // SAFETY: the set layouts are live.
    let layout =
        unsafe { d.create_pipeline_layout(&lci, None) }.map_err(vkerr("vkCreatePipelineLayout"))?;
    s.layouts.push(layout);

    // Buffer views whose offsets the device cannot bind get shadow buffers (see `plan_view`).
    let spans: Vec<Option<ViewSpan>> = res.iter().zip(&objs).map(|(r, o)| span_of(r, o)).collect();
    let mut shadows: Vec<Shadow> = Vec::new();

    // Descriptor writes.
    for (si, set) in per_set.iter().enumerate() {
        for l in set {
            let b = l.b;
            for e in 0..l.count {
                let reg = b.register + e;
                let ty = desc_type(b.descriptor_type);
                let mut buf_info = None;
                let mut img_info = None;
                let mut texel = None;
                let case_res = res.iter().position(|r| {
                    r.kind == class_kind(b.class)
                        && r.space == b.space
                        && r.register == reg
                        && visible_to(&r.stages, l.stage)
                });
                let root = root_cbs.iter().find(|rc| {
                    b.class == RegisterClass::Cbv
                        && rc.space == b.space
                        && rc.register == reg
                        && visible_to(&rc.stages, l.stage)
                });
                if let Some(rc) = root {
                    buf_info = Some(vk::DescriptorBufferInfo {
                        buffer: rc.buf,
                        offset: 0,
                        range: CBV_ALLOC.min(u64::from(gpu.limits.max_uniform_buffer_range)),
                    });
                } else if b.class == RegisterClass::UavCounter {
                    let c = case_res.and_then(|i| counters.iter().find(|c| c.0 == i));
                    match c {
                        Some((_, buf, _)) => {
                            buf_info = Some(vk::DescriptorBufferInfo {
                                buffer: *buf,
                                offset: 0,
                                range: 4,
                            })
                        }
                        None => {
                            return Ok(Err(format!(
                                "UAV counter u{reg} space{} has no UAV in the case",
                                b.space
                            )))
                        }
                    }
                } else if let Some(i) = case_res {
                    let r = &res[i];
                    match (&objs[i], b.descriptor_type) {
                        (Obj::None, _) => {
                            // Null descriptor.
                            if !gpu.caps.null_descriptor {
                                return Ok(
                                    Err("null descriptors unsupported by the device".into()),
                                );
                            }
                            match ty {
                                vk::DescriptorType::UNIFORM_BUFFER
                                | vk::DescriptorType::STORAGE_BUFFER => {
                                    buf_info = Some(vk::DescriptorBufferInfo {
                                        buffer: vk::Buffer::null(),
                                        offset: 0,
                                        range: vk::WHOLE_SIZE,
                                    })
                                }
                                vk::DescriptorType::UNIFORM_TEXEL_BUFFER
                                | vk::DescriptorType::STORAGE_TEXEL_BUFFER => {
                                    texel = Some(vk::BufferView::null())
                                }
                                vk::DescriptorType::SAMPLER => {
                                    return Ok(Err("null sampler".into()))
                                }
                                _ => {
                                    img_info = Some(vk::DescriptorImageInfo {
                                        sampler: vk::Sampler::null(),
                                        image_view: vk::ImageView::null(),
                                        image_layout: vk::ImageLayout::GENERAL,
                                    })
                                }
                            }
                        }
                        (Obj::Buffer { buf, alloc, .. }, DescriptorType::UniformBuffer) => {
                            buf_info = Some(vk::DescriptorBufferInfo {
                                buffer: *buf,
                                offset: 0,
                                range: (*alloc).min(u64::from(gpu.limits.max_uniform_buffer_range)),
                            })
                        }
                        (
                            Obj::Buffer {
                                buf, ptr, alloc, ..
                            },
                            DescriptorType::StorageBuffer,
                        ) => {
                            let (off, len) = view_range(r)?.unwrap_or((0, *alloc));
                            let align = gpu.limits.min_storage_buffer_offset_alignment;
                            let (buffer, offset) = match plan_view(&spans, i, align) {
                                ViewPlan::Direct => (*buf, off),
                                ViewPlan::Shadow => (
                                    shadow_of(s, &mut shadows, i, *ptr, *alloc, (off, len))?,
                                    0,
                                ),
                                ViewPlan::Overlaps(j) => {
                                    return Ok(Err(format!(
                                        "unaligned storage buffer view offset {off} overlaps another view ({})",
                                        res_name(&res[j])
                                    )))
                                }
                            };
                            buf_info = Some(vk::DescriptorBufferInfo {
                                buffer,
                                offset,
                                range: len,
                            });
                        }
                        (
                            Obj::Buffer {
                                buf, ptr, alloc, ..
                            },
                            DescriptorType::UniformTexelBuffer | DescriptorType::StorageTexelBuffer,
                        ) => {
                            let fmt = match r.view.as_deref() {
                                Some("typed_buffer") => r.format.as_deref().unwrap_or("R32_UINT"),
                                _ => "R32_UINT",
                            };
                            let (vf, _) = dxgi_format(fmt)
                                .ok_or_else(|| format!("unsupported format {fmt}"))?;
                            let (off, len) = view_range(r)?.unwrap_or((0, *alloc));
                            let align = gpu.limits.min_texel_buffer_offset_alignment;
                            let (buffer, offset) = match plan_view(&spans, i, align) {
                                ViewPlan::Direct => (*buf, off),
                                ViewPlan::Shadow => (
                                    shadow_of(s, &mut shadows, i, *ptr, *alloc, (off, len))?,
                                    0,
                                ),
                                ViewPlan::Overlaps(j) => {
                                    return Ok(Err(format!(
                                        "unaligned texel buffer view offset {off} overlaps another view ({})",
                                        res_name(&res[j])
                                    )))
                                }
                            };
                            let ci = vk::BufferViewCreateInfo::default()
                                .buffer(buffer)
                                .format(vf)
                                .offset(offset)
                                .range(len);
                            // SAFETY: `buffer` is live and was created with texel-buffer usage.
                            let v = unsafe { d.create_buffer_view(&ci, None) }
                                .map_err(vkerr("vkCreateBufferView"))?;
                            s.buffer_views.push(v);
                            texel = Some(v);
                        }
                        (
                            Obj::Image {
                                img,
                                view_type,
                                format,
                                layers,
                                mips,
                                ..
                            },
                            DescriptorType::SampledImage | DescriptorType::StorageImage,
                        ) => {
                            let ci = vk::ImageViewCreateInfo::default()
                                .image(*img)
                                .view_type(*view_type)
                                .format(*format)
                                .subresource_range(vk::ImageSubresourceRange {
                                    aspect_mask: vk::ImageAspectFlags::COLOR,
                                    base_mip_level: 0,
                                    level_count: if ty == vk::DescriptorType::STORAGE_IMAGE {
                                        1
                                    } else {
                                        *mips
                                    },
                                    base_array_layer: 0,
                                    layer_count: *layers,
                                });
                            // SAFETY: `img` is live.
                            let v = unsafe { d.create_image_view(&ci, None) }
                                .map_err(vkerr("vkCreateImageView"))?;
                            s.image_views.push(v);
                            img_info = Some(vk::DescriptorImageInfo {
                                sampler: vk::Sampler::null(),
                                image_view: v,
                                image_layout: vk::ImageLayout::GENERAL,
                            });
                        }
                        (Obj::Sampler(smp), DescriptorType::Sampler) => {
                            img_info = Some(vk::DescriptorImageInfo {
                                sampler: *smp,
                                image_view: vk::ImageView::null(),
                                image_layout: vk::ImageLayout::UNDEFINED,
                            });
                        }
                        (_, dt) => {
                            return Err(format!(
                                "{}: case view {:?} does not fit descriptor type {dt:?}",
                                res_name(r),
                                r.view
                            ))
                        }
                    }
                } else if b.count == 0 || l.count > 1 {
                    if gpu.caps.partially_bound {
                        continue;
                    }
                    return Ok(Err("partially bound descriptor arrays unsupported".into()));
                } else {
                    return Err(format!(
                        "the {} shader declares {:?} register {reg} space {} but the case gives it no resource",
                        l.stage, b.class, b.space
                    ));
                }
                let bi = buf_info.map(|x| [x]);
                let ii = img_info.map(|x| [x]);
                let ti = texel.map(|x| [x]);
                let mut w = vk::WriteDescriptorSet::default()
                    .dst_set(sets[si])
                    .dst_binding(b.binding)
                    .dst_array_element(e)
                    .descriptor_type(ty);
                if let Some(x) = &bi {
                    w = w.buffer_info(x);
                }
                if let Some(x) = &ii {
                    w = w.image_info(x);
                }
                if let Some(x) = &ti {
                    w = w.texel_buffer_view(x);
                }
                // SAFETY: the set, and every handle in the write, are live.
                unsafe { d.update_descriptor_sets(&[w], &[]) };
            }
        }
    }
    Ok(Ok(Resources {
        objs,
        root_cbs,
        counters,
        shadows,
        sets,
        layout,
    }))
}

/// Writes `words` little-endian into `bytes`.
pub(crate) fn write_words(bytes: &mut [u8], words: &[u32]) {
    for (chunk, w) in bytes.chunks_exact_mut(4).zip(words) {
        chunk.copy_from_slice(&w.to_le_bytes());
    }
}

/// Records a global memory barrier.
pub(crate) fn memory_barrier(
    d: &ash::Device,
    cb: vk::CommandBuffer,
    (src, src_stage): (vk::AccessFlags, vk::PipelineStageFlags),
    (dst, dst_stage): (vk::AccessFlags, vk::PipelineStageFlags),
) {
    let mb = [vk::MemoryBarrier::default()
        .src_access_mask(src)
        .dst_access_mask(dst)];
    // SAFETY: `cb` is recording.
    unsafe {
        d.cmd_pipeline_barrier(
            cb,
            src_stage,
            dst_stage,
            vk::DependencyFlags::empty(),
            &mb,
            &[],
            &[],
        )
    };
}

impl Resources {
    /// The buffer of the resource with `id`, for updates between draws.
    pub(crate) fn buffer_with_id(&self, res: &[Resource], id: &str) -> Option<(vk::Buffer, usize)> {
        let i = res.iter().position(|r| r.id.as_deref() == Some(id))?;
        match &self.objs[i] {
            Obj::Buffer { buf, size, .. } => Some((*buf, *size)),
            _ => None,
        }
    }

    /// Records the copies of texture contents into their images (layout `GENERAL` after) and
    /// makes host writes visible to `shader_stages` and vertex input.
    pub(crate) fn record_uploads(
        &self,
        d: &ash::Device,
        cb: vk::CommandBuffer,
        shader_stages: vk::PipelineStageFlags,
    ) {
        for o in &self.objs {
            if let Obj::Image {
                img,
                staging,
                regions,
                layers,
                mips,
                ..
            } = o
            {
                let range = vk::ImageSubresourceRange {
                    aspect_mask: vk::ImageAspectFlags::COLOR,
                    base_mip_level: 0,
                    level_count: *mips,
                    base_array_layer: 0,
                    layer_count: *layers,
                };
                let to_dst = [vk::ImageMemoryBarrier::default()
                    .image(*img)
                    .subresource_range(range)
                    .old_layout(vk::ImageLayout::UNDEFINED)
                    .new_layout(vk::ImageLayout::TRANSFER_DST_OPTIMAL)
                    .dst_access_mask(vk::AccessFlags::TRANSFER_WRITE)];
                let to_gen = [vk::ImageMemoryBarrier::default()
                    .image(*img)
                    .subresource_range(range)
                    .old_layout(vk::ImageLayout::TRANSFER_DST_OPTIMAL)
                    .new_layout(vk::ImageLayout::GENERAL)
                    .src_access_mask(vk::AccessFlags::TRANSFER_WRITE)
                    .dst_access_mask(vk::AccessFlags::SHADER_READ | vk::AccessFlags::SHADER_WRITE)];
                // SAFETY: `cb` is recording; image and staging buffer are live.
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
                    d.cmd_copy_buffer_to_image(
                        cb,
                        *staging,
                        *img,
                        vk::ImageLayout::TRANSFER_DST_OPTIMAL,
                        regions,
                    );
                    d.cmd_pipeline_barrier(
                        cb,
                        vk::PipelineStageFlags::TRANSFER,
                        shader_stages,
                        vk::DependencyFlags::empty(),
                        &[],
                        &[],
                        &to_gen,
                    );
                }
            }
        }
        memory_barrier(
            d,
            cb,
            (vk::AccessFlags::HOST_WRITE, vk::PipelineStageFlags::HOST),
            (
                vk::AccessFlags::SHADER_READ
                    | vk::AccessFlags::SHADER_WRITE
                    | vk::AccessFlags::UNIFORM_READ
                    | vk::AccessFlags::VERTEX_ATTRIBUTE_READ
                    | vk::AccessFlags::INDEX_READ
                    | vk::AccessFlags::INDIRECT_COMMAND_READ,
                shader_stages
                    | vk::PipelineStageFlags::VERTEX_INPUT
                    | vk::PipelineStageFlags::DRAW_INDIRECT,
            ),
        );
    }

    /// Records the copies of images back into their staging buffers after `shader_stages`
    /// wrote them, and makes every write visible to the host.
    pub(crate) fn record_readbacks(
        &self,
        d: &ash::Device,
        cb: vk::CommandBuffer,
        shader_stages: vk::PipelineStageFlags,
    ) {
        memory_barrier(
            d,
            cb,
            (vk::AccessFlags::SHADER_WRITE, shader_stages),
            (
                vk::AccessFlags::TRANSFER_READ | vk::AccessFlags::HOST_READ,
                vk::PipelineStageFlags::TRANSFER | vk::PipelineStageFlags::HOST,
            ),
        );
        for o in &self.objs {
            if let Obj::Image {
                img,
                staging,
                regions,
                ..
            } = o
            {
                // SAFETY: `cb` is recording; the image is in GENERAL layout.
                unsafe {
                    d.cmd_copy_image_to_buffer(
                        cb,
                        *img,
                        vk::ImageLayout::GENERAL,
                        *staging,
                        regions,
                    )
                };
            }
        }
        memory_barrier(
            d,
            cb,
            (
                vk::AccessFlags::TRANSFER_WRITE,
                vk::PipelineStageFlags::TRANSFER,
            ),
            (vk::AccessFlags::HOST_READ, vk::PipelineStageFlags::HOST),
        );
    }

    /// After the submission: copies each shadow buffer back into its view's bytes of the
    /// backing buffer and checks every resource's `expect` and `expect_counter`.
    pub(crate) fn check(&self, res: &[Resource]) -> Result<Outcome, String> {
        for sh in &self.shadows {
            mapped(sh.parent, sh.offset + sh.len)[sh.offset..]
                .copy_from_slice(mapped(sh.ptr, sh.len));
        }
        for (i, r) in res.iter().enumerate() {
            let name = res_name(r);
            if let Some(exp) = &r.expect {
                let (bytes, layout, view): (&[u8], Layout, Option<(usize, usize)>) =
                    match &self.objs[i] {
                        Obj::Buffer { ptr, size, .. } => {
                            let v = view_range(r)?.map(|(o, l)| (o as usize, (o + l) as usize));
                            (mapped(*ptr, *size), Layout::BUFFER, v)
                        }
                        Obj::Image {
                            ptr,
                            size,
                            width,
                            height,
                            ..
                        } => {
                            let ts = r.format.as_deref().and_then(dxgi_format).map_or(4, |f| f.1);
                            let layout = Layout {
                                width: *width,
                                height: *height,
                                texel_size: ts,
                            };
                            (mapped(*ptr, *size), layout, None)
                        }
                        _ => return Err(format!("{name}: expect on a resource without memory")),
                    };
                if let Err(e) = data::check(bytes, exp, r.tolerance.as_ref(), &layout, view) {
                    return Ok(Outcome::Fail(format!("{name}: {e}")));
                }
            }
            if let Some(want) = r.expect_counter {
                let c = self
                    .counters
                    .iter()
                    .find(|c| c.0 == i)
                    .ok_or_else(|| format!("{name}: expect_counter without counter"))?;
                let m = mapped(c.2, 4);
                let got = u32::from_le_bytes([m[0], m[1], m[2], m[3]]);
                if got != want {
                    return Ok(Outcome::Fail(format!(
                        "{name} counter: expected {want}, got {got}"
                    )));
                }
            }
        }
        Ok(Outcome::Ok)
    }
}

/// `uav u3 space0`: how reports name a resource.
fn res_name(r: &Resource) -> String {
    format!(
        "{} {}{} space{}",
        r.kind,
        reg_letter(&r.kind),
        r.register,
        r.space
    )
}

fn reg_letter(kind: &str) -> &'static str {
    match kind {
        "cbv" => "b",
        "srv" => "t",
        "uav" => "u",
        _ => "s",
    }
}

fn covers(b: &ResourceBinding, space: u32, register: u32) -> bool {
    b.space == space && register >= b.register && (b.count == 0 || register < b.register + b.count)
}

fn desc_type(t: DescriptorType) -> vk::DescriptorType {
    match t {
        DescriptorType::UniformBuffer => vk::DescriptorType::UNIFORM_BUFFER,
        DescriptorType::StorageBuffer => vk::DescriptorType::STORAGE_BUFFER,
        DescriptorType::SampledImage => vk::DescriptorType::SAMPLED_IMAGE,
        DescriptorType::StorageImage => vk::DescriptorType::STORAGE_IMAGE,
        DescriptorType::UniformTexelBuffer => vk::DescriptorType::UNIFORM_TEXEL_BUFFER,
        DescriptorType::StorageTexelBuffer => vk::DescriptorType::STORAGE_TEXEL_BUFFER,
        DescriptorType::Sampler => vk::DescriptorType::SAMPLER,
    }
}

/// Creates a texture; the inner `Err` is a skip reason.
fn create_image(s: &mut Scratch, r: &Resource) -> Result<Result<Obj, String>, String> {
    let view = r.view.as_deref().unwrap_or("");
    let (img_type, view_type) = match view {
        "texture1d" => (vk::ImageType::TYPE_1D, vk::ImageViewType::TYPE_1D),
        "texture1d_array" => (vk::ImageType::TYPE_1D, vk::ImageViewType::TYPE_1D_ARRAY),
        "texture2d" => (vk::ImageType::TYPE_2D, vk::ImageViewType::TYPE_2D),
        "texture2d_array" => (vk::ImageType::TYPE_2D, vk::ImageViewType::TYPE_2D_ARRAY),
        "texture3d" => (vk::ImageType::TYPE_3D, vk::ImageViewType::TYPE_3D),
        "texturecube" => (vk::ImageType::TYPE_2D, vk::ImageViewType::CUBE),
        "texture2dms" => return Ok(Err("multisampled textures not implemented".into())),
        v => return Ok(Err(format!("view `{v}` not implemented"))),
    };
    let fname = r.format.as_deref().ok_or("texture without format")?;
    let Some((format, ts)) = dxgi_format(fname) else {
        return Ok(Err(format!("format {fname} not implemented")));
    };
    let (w, h, dep) = (
        r.width.unwrap_or(1),
        r.height.unwrap_or(1),
        r.depth.unwrap_or(1),
    );
    let layers = r
        .array_size
        .unwrap_or(1)
        .max(if view == "texturecube" { 6 } else { 1 });
    let mips = r.mip_levels.unwrap_or(1).max(1);
    let feats = s.gpu.format_features(format).optimal_tiling_features;
    let mut usage = vk::ImageUsageFlags::TRANSFER_SRC | vk::ImageUsageFlags::TRANSFER_DST;
    if feats.contains(vk::FormatFeatureFlags::SAMPLED_IMAGE) {
        usage |= vk::ImageUsageFlags::SAMPLED;
    }
    if feats.contains(vk::FormatFeatureFlags::STORAGE_IMAGE) {
        usage |= vk::ImageUsageFlags::STORAGE;
    }
    let ci = vk::ImageCreateInfo::default()
        .image_type(img_type)
        .format(format)
        .extent(vk::Extent3D {
            width: w,
            height: h,
            depth: dep,
        })
        .mip_levels(mips)
        .array_layers(layers)
        .samples(vk::SampleCountFlags::TYPE_1)
        .tiling(vk::ImageTiling::OPTIMAL)
        .usage(usage)
        .flags(if view == "texturecube" {
            vk::ImageCreateFlags::CUBE_COMPATIBLE
        } else {
            vk::ImageCreateFlags::empty()
        })
        .initial_layout(vk::ImageLayout::UNDEFINED);
    let d = &s.gpu.device;
    // SAFETY: `d` is live; `ci` is valid.
    let img = unsafe { d.create_image(&ci, None) }.map_err(vkerr("vkCreateImage"))?;
    s.images.push(img);
    // SAFETY: `img` was just created.
    let req = unsafe { d.get_image_memory_requirements(img) };
    let mem = s.gpu.alloc(req, vk::MemoryPropertyFlags::DEVICE_LOCAL)?;
    s.memory.push(mem);
    // SAFETY: fresh image and fitting memory.
    unsafe { d.bind_image_memory(img, mem, 0) }.map_err(vkerr("vkBindImageMemory"))?;
    // Subresources in D3D12 order: layer outer, mip inner, tightly packed.
    let mut regions = Vec::new();
    let mut off = 0u64;
    for layer in 0..layers {
        for mip in 0..mips {
            let (mw, mh, md) = ((w >> mip).max(1), (h >> mip).max(1), (dep >> mip).max(1));
            regions.push(vk::BufferImageCopy {
                buffer_offset: off,
                buffer_row_length: 0,
                buffer_image_height: 0,
                image_subresource: vk::ImageSubresourceLayers {
                    aspect_mask: vk::ImageAspectFlags::COLOR,
                    mip_level: mip,
                    base_array_layer: layer,
                    layer_count: 1,
                },
                image_offset: vk::Offset3D::default(),
                image_extent: vk::Extent3D {
                    width: mw,
                    height: mh,
                    depth: md,
                },
            });
            off += u64::from(mw) * u64::from(mh) * u64::from(md) * ts as u64;
        }
    }
    let size = off as usize;
    let (staging, ptr) = s.buffer(off)?;
    if let Some(bytes) = &r.bytes {
        if bytes.len() != size {
            return Err(format!(
                "{}: {} bytes of texels for {size} bytes of subresources",
                res_name(r),
                bytes.len()
            ));
        }
        mapped(ptr, size).copy_from_slice(bytes);
    } else if let Some(init) = &r.initial {
        let lay = Layout {
            width: w as usize,
            height: h as usize,
            texel_size: ts,
        };
        data::fill_initial(mapped(ptr, size), init, &lay)?;
    }
    Ok(Ok(Obj::Image {
        img,
        staging,
        ptr,
        size,
        regions,
        view_type,
        format,
        layers,
        mips,
        width: w as usize,
        height: h as usize,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn span(buffer: u64, offset: u64, len: u64) -> Option<ViewSpan> {
        Some(ViewSpan {
            buffer,
            offset,
            len,
        })
    }

    #[test]
    fn aligned_views_bind_directly() {
        let spans = [span(1, 0, 64), span(1, 32, 64), None];
        assert_eq!(plan_view(&spans, 0, 16), ViewPlan::Direct);
        // Overlapping, but aligned: bound directly, the memory is shared as in D3D.
        assert_eq!(plan_view(&spans, 1, 16), ViewPlan::Direct);
        assert_eq!(plan_view(&spans, 2, 16), ViewPlan::Direct);
        assert_eq!(plan_view(&spans, 7, 16), ViewPlan::Direct);
        assert_eq!(plan_view(&[span(1, 4, 4)], 0, 1), ViewPlan::Direct);
        assert_eq!(plan_view(&[span(1, 4, 4)], 0, 0), ViewPlan::Direct);
    }

    #[test]
    fn disjoint_unaligned_views_get_shadows() {
        // One view per chunk of one buffer, like the robustness test's aliased UAVs.
        let spans = [
            span(1, 4, 4),
            span(1, 6148, 8),
            span(1, 98304, 16),
            None,
            // The same bytes of another buffer do not count.
            span(2, 0, 4096),
        ];
        assert_eq!(plan_view(&spans, 0, 16), ViewPlan::Shadow);
        assert_eq!(plan_view(&spans, 1, 16), ViewPlan::Shadow);
        assert_eq!(plan_view(&spans, 2, 16), ViewPlan::Direct);
        // Touching ranges do not overlap.
        let spans = [span(1, 0, 4), span(1, 4, 4), span(1, 8, 8)];
        assert_eq!(plan_view(&spans, 1, 16), ViewPlan::Shadow);
        // Nor does an empty range.
        let spans = [span(1, 4, 8), span(1, 8, 0)];
        assert_eq!(plan_view(&spans, 0, 16), ViewPlan::Shadow);
        assert_eq!(plan_view(&spans, 1, 16), ViewPlan::Shadow);
    }

    #[test]
    fn overlapping_unaligned_views_are_refused() {
        // A whole-buffer view (root descriptor) overlaps every view of its buffer.
        let spans = [span(1, 0, 256), span(1, 4, 4)];
        assert_eq!(plan_view(&spans, 1, 16), ViewPlan::Overlaps(0));
        // Partial overlap on either side.
        let spans = [span(1, 4, 8), span(1, 8, 8), span(1, 0, 5)];
        assert_eq!(plan_view(&spans, 0, 16), ViewPlan::Overlaps(1));
        assert_eq!(plan_view(&spans, 1, 16), ViewPlan::Overlaps(0));
        // The same range bound twice.
        let spans = [span(3, 20, 4), span(3, 20, 4)];
        assert_eq!(plan_view(&spans, 0, 16), ViewPlan::Overlaps(1));
        assert_eq!(plan_view(&spans, 1, 16), ViewPlan::Overlaps(0));
    }
}
