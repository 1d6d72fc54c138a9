//! Executing one run of a compute case on the [`Gpu`].

use crate::case::{Case, Resource, Run};
use crate::data::{self, Layout};
use crate::draw::{self, DrawShaders};
use crate::vk::Gpu;
use ash::vk;
use dxspv::spirv::{DescriptorType, Reflection, RegisterClass, ResourceBinding};

/// The outcome of one run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Every expectation held.
    Ok,
    /// First mismatch or execution error.
    Fail(String),
    /// Not executed, with the reason.
    Skipped(String),
}

/// Bytes allocated for constant buffers (D3D's 4096-vec4 maximum): padding reads as zero.
const CBV_ALLOC: u64 = 65536;

/// DXGI format name → Vulkan format and texel size in bytes.
pub fn dxgi_format(name: &str) -> Option<(vk::Format, usize)> {
    use vk::Format as F;
    Some(match name {
        "R32G32B32A32_FLOAT" => (F::R32G32B32A32_SFLOAT, 16),
        "R32G32B32A32_UINT" => (F::R32G32B32A32_UINT, 16),
        "R32G32B32A32_SINT" => (F::R32G32B32A32_SINT, 16),
        "R32G32B32_FLOAT" => (F::R32G32B32_SFLOAT, 12),
        "R32G32B32_UINT" => (F::R32G32B32_UINT, 12),
        "R32G32_FLOAT" => (F::R32G32_SFLOAT, 8),
        "R32G32_UINT" => (F::R32G32_UINT, 8),
        "R32G32_SINT" => (F::R32G32_SINT, 8),
        "R32_FLOAT" => (F::R32_SFLOAT, 4),
        "R32_UINT" => (F::R32_UINT, 4),
        "R32_SINT" => (F::R32_SINT, 4),
        "R16G16B16A16_FLOAT" => (F::R16G16B16A16_SFLOAT, 8),
        "R16G16B16A16_UNORM" => (F::R16G16B16A16_UNORM, 8),
        "R16G16B16A16_UINT" => (F::R16G16B16A16_UINT, 8),
        "R16G16B16A16_SINT" => (F::R16G16B16A16_SINT, 8),
        "R16G16_FLOAT" => (F::R16G16_SFLOAT, 4),
        "R16G16_UNORM" => (F::R16G16_UNORM, 4),
        "R16G16_UINT" => (F::R16G16_UINT, 4),
        "R16_FLOAT" => (F::R16_SFLOAT, 2),
        "R16_UNORM" => (F::R16_UNORM, 2),
        "R16_UINT" => (F::R16_UINT, 2),
        "R16_SINT" => (F::R16_SINT, 2),
        "R8G8B8A8_UNORM" => (F::R8G8B8A8_UNORM, 4),
        "R8G8B8A8_SNORM" => (F::R8G8B8A8_SNORM, 4),
        "R8G8B8A8_UINT" => (F::R8G8B8A8_UINT, 4),
        "R8G8B8A8_SINT" => (F::R8G8B8A8_SINT, 4),
        "B8G8R8A8_UNORM" => (F::B8G8R8A8_UNORM, 4),
        "R8G8_UNORM" => (F::R8G8_UNORM, 2),
        "R8_UNORM" => (F::R8_UNORM, 1),
        "R8_UINT" => (F::R8_UINT, 1),
        "R10G10B10A2_UNORM" => (F::A2B10G10R10_UNORM_PACK32, 4),
        "R10G10B10A2_UINT" => (F::A2B10G10R10_UINT_PACK32, 4),
        "R11G11B10_FLOAT" => (F::B10G11R11_UFLOAT_PACK32, 4),
        _ => return None,
    })
}

fn class_kind(c: RegisterClass) -> &'static str {
    match c {
        RegisterClass::Cbv => "cbv",
        RegisterClass::Srv => "srv",
        RegisterClass::Uav | RegisterClass::UavCounter => "uav",
        RegisterClass::Sampler => "sampler",
    }
}

/// Checks `requires` tags against the device; `Some(reason)` when one is missing.
pub fn missing_requirement(gpu: &Gpu, tags: &[String]) -> Option<String> {
    let c = &gpu.caps;
    for t in tags {
        let ok = match t.as_str() {
            "native_16bit" => c.native_16bit,
            "int64" => c.int64,
            "int64_atomics" => c.int64_atomics,
            "int64_atomics_typed" | "int64_atomics_descriptor_heap" => false,
            "fp64" => c.fp64,
            "denorm_ftz_fp32" => c.denorm_ftz32,
            "denorm_preserve_fp32" => c.denorm_preserve32,
            "denorm_preserve_fp16" => c.denorm_preserve16,
            "resource_binding_tier_2" => c.bindless,
            "typed_uav_load_additional_formats" => {
                c.storage_read_without_format
                    || gpu
                        .format_features(vk::Format::R32G32B32A32_SFLOAT)
                        .buffer_features
                        .contains(vk::FormatFeatureFlags::STORAGE_TEXEL_BUFFER)
            }
            _ => return Some(format!("unknown requirement `{t}`")),
        };
        if !ok {
            return Some(format!("device lacks `{t}`"));
        }
    }
    None
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

/// Everything a run creates; destroyed on drop.
pub(crate) struct Scratch<'g> {
    pub(crate) gpu: &'g Gpu,
    pub(crate) buffers: Vec<vk::Buffer>,
    pub(crate) images: Vec<vk::Image>,
    pub(crate) image_views: Vec<vk::ImageView>,
    pub(crate) buffer_views: Vec<vk::BufferView>,
    pub(crate) samplers: Vec<vk::Sampler>,
    pub(crate) memory: Vec<vk::DeviceMemory>,
    pub(crate) set_layouts: Vec<vk::DescriptorSetLayout>,
    pub(crate) pool: vk::DescriptorPool,
    pub(crate) layout: vk::PipelineLayout,
    pub(crate) module: vk::ShaderModule,
    pub(crate) pipeline: vk::Pipeline,
    /// The vertex shader of a draw.
    pub(crate) vs_module: vk::ShaderModule,
}

impl Drop for Scratch<'_> {
    fn drop(&mut self) {
        let d = &self.gpu.device;
        // SAFETY: the queue is idle after every submission; these handles were created from
        // `d` by this run and are destroyed once (null handles are ignored by Vulkan).
        unsafe {
            let _ = d.device_wait_idle();
            d.destroy_pipeline(self.pipeline, None);
            d.destroy_shader_module(self.module, None);
            d.destroy_shader_module(self.vs_module, None);
            d.destroy_pipeline_layout(self.layout, None);
            d.destroy_descriptor_pool(self.pool, None);
            for &l in &self.set_layouts {
                d.destroy_descriptor_set_layout(l, None);
            }
            for &v in &self.buffer_views {
                d.destroy_buffer_view(v, None);
            }
            for &v in &self.image_views {
                d.destroy_image_view(v, None);
            }
            for &s in &self.samplers {
                d.destroy_sampler(s, None);
            }
            for &b in &self.buffers {
                d.destroy_buffer(b, None);
            }
            for &i in &self.images {
                d.destroy_image(i, None);
            }
            for &m in &self.memory {
                d.free_memory(m, None);
            }
        }
    }
}

pub(crate) fn vkerr(what: &str) -> impl Fn(vk::Result) -> String + '_ {
    move |e| format!("{what}: {e}")
}

impl<'g> Scratch<'g> {
    fn new(gpu: &'g Gpu) -> Self {
        Scratch {
            gpu,
            buffers: Vec::new(),
            images: Vec::new(),
            image_views: Vec::new(),
            buffer_views: Vec::new(),
            samplers: Vec::new(),
            memory: Vec::new(),
            set_layouts: Vec::new(),
            pool: vk::DescriptorPool::null(),
            layout: vk::PipelineLayout::null(),
            module: vk::ShaderModule::null(),
            pipeline: vk::Pipeline::null(),
            vs_module: vk::ShaderModule::null(),
        }
    }

    /// A host-visible, coherent, mapped, zeroed buffer.
    pub(crate) fn buffer(&mut self, size: u64) -> Result<(vk::Buffer, *mut u8), String> {
        let d = &self.gpu.device;
        let bci = vk::BufferCreateInfo::default().size(size.max(16)).usage(
            vk::BufferUsageFlags::STORAGE_BUFFER
                | vk::BufferUsageFlags::UNIFORM_BUFFER
                | vk::BufferUsageFlags::STORAGE_TEXEL_BUFFER
                | vk::BufferUsageFlags::UNIFORM_TEXEL_BUFFER
                | vk::BufferUsageFlags::VERTEX_BUFFER
                | vk::BufferUsageFlags::TRANSFER_SRC
                | vk::BufferUsageFlags::TRANSFER_DST,
        );
        // SAFETY: `d` is live; `bci` is valid.
        let buf = unsafe { d.create_buffer(&bci, None) }.map_err(vkerr("vkCreateBuffer"))?;
        self.buffers.push(buf);
        // SAFETY: `buf` was just created from `d`.
        let req = unsafe { d.get_buffer_memory_requirements(buf) };
        let mem = self.gpu.alloc(
            req,
            vk::MemoryPropertyFlags::HOST_VISIBLE | vk::MemoryPropertyFlags::HOST_COHERENT,
        )?;
        self.memory.push(mem);
        // SAFETY: `mem` fits `buf`'s requirements and neither is bound yet.
        unsafe { d.bind_buffer_memory(buf, mem, 0) }.map_err(vkerr("vkBindBufferMemory"))?;
        // SAFETY: `mem` is host-visible and not mapped yet; it stays mapped until freed.
        let ptr = unsafe { d.map_memory(mem, 0, vk::WHOLE_SIZE, vk::MemoryMapFlags::empty()) }
            .map_err(vkerr("vkMapMemory"))? as *mut u8;
        // SAFETY: the mapping covers `req.size` bytes, at least `size`.
        unsafe { std::ptr::write_bytes(ptr, 0, req.size as usize) };
        Ok((buf, ptr))
    }
}

/// Views `len` bytes of a live mapping.
pub(crate) fn mapped<'a>(ptr: *mut u8, len: usize) -> &'a mut [u8] {
    // SAFETY: callers pass a pointer from `Scratch::buffer` whose mapping is at least `len`
    // bytes and outlives the returned slice (the scratch owning it lives for the whole run);
    // the device is idle whenever this is called.
    unsafe { std::slice::from_raw_parts_mut(ptr, len) }
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

/// Runs one run of a compiled compute shader.
pub fn run_compute(gpu: &Gpu, case: &Case, run: &Run, spirv: &[u32], refl: &Reflection) -> Outcome {
    match run_inner(gpu, case, run, spirv, refl, None) {
        Ok(o) => o,
        Err(e) => Outcome::Fail(e),
    }
}

/// Runs one run of a pixel-shader draw: `ps` is the compiled pixel shader, `draw` the vertex
/// shader and draw state.
pub fn run_draw(
    gpu: &Gpu,
    case: &Case,
    run: &Run,
    ps: &dxspv::Output,
    draw: &DrawShaders,
) -> Outcome {
    match run_inner(gpu, case, run, &ps.spirv, &ps.reflection, Some(draw)) {
        Ok(o) => o,
        Err(e) => Outcome::Fail(e),
    }
}

pub(crate) fn skip(s: impl Into<String>) -> Result<Outcome, String> {
    Ok(Outcome::Skipped(s.into()))
}

fn run_inner(
    gpu: &Gpu,
    case: &Case,
    run: &Run,
    spirv: &[u32],
    refl: &Reflection,
    draw: Option<&DrawShaders>,
) -> Result<Outcome, String> {
    if !refl.push_data.is_empty() {
        return skip("shader uses push data");
    }
    let dispatches = match (&run.dispatch, draw) {
        (_, Some(_)) => Vec::new(),
        (Some(d), None) => d.list(),
        (None, None) => return skip("compute run without dispatch"),
    };
    let (stage_flags, shader_stages) = if draw.is_some() {
        (
            vk::ShaderStageFlags::ALL_GRAPHICS,
            vk::PipelineStageFlags::VERTEX_SHADER | vk::PipelineStageFlags::FRAGMENT_SHADER,
        )
    } else {
        (
            vk::ShaderStageFlags::COMPUTE,
            vk::PipelineStageFlags::COMPUTE_SHADER,
        )
    };
    let d = &gpu.device;
    let mut s = Scratch::new(gpu);
    let res = &run.resources;

    // Create resources (aliases after their targets).
    let mut objs: Vec<Obj> = (0..res.len()).map(|_| Obj::None).collect();
    for pass in 0..2 {
        for (i, r) in res.iter().enumerate() {
            if (r.alias_of.is_some()) != (pass == 1) {
                continue;
            }
            if r.null {
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
                    _ => return skip("aliasing of non-buffer resources"),
                };
                continue;
            }
            objs[i] = match r.kind.as_str() {
                "sampler" => {
                    let sd = r.sampler.clone().unwrap_or_default();
                    let (min, mag, mip) =
                        filter_of(sd.filter.as_deref().unwrap_or("MIN_MAG_MIP_POINT"));
                    let ci = vk::SamplerCreateInfo::default()
                        .min_filter(min)
                        .mag_filter(mag)
                        .mipmap_mode(mip)
                        .address_mode_u(address_of(sd.address_u.as_deref()))
                        .address_mode_v(address_of(sd.address_v.as_deref()))
                        .address_mode_w(address_of(sd.address_w.as_deref()))
                        .max_lod(vk::LOD_CLAMP_NONE);
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
                    if let Some(init) = &r.initial {
                        let lay = Layout {
                            width: 1,
                            height: 1,
                            texel_size: 0,
                        };
                        data::fill_initial(mapped(ptr, size as usize), init, &lay)?;
                    }
                    Obj::Buffer {
                        buf,
                        ptr,
                        size: size as usize,
                        alloc,
                    }
                }
                _ => match create_image(&mut s, r)? {
                    Ok(o) => o,
                    Err(reason) => return skip(reason),
                },
            };
        }
    }
    // Root constants as constant buffers.
    let mut root_cbs = Vec::new();
    for rc in &run.root_constants {
        let (buf, ptr) = s.buffer(CBV_ALLOC)?;
        let m = mapped(ptr, rc.values.len() * 4);
        for (i, v) in rc.values.iter().enumerate() {
            m[i * 4..i * 4 + 4].copy_from_slice(&v.to_le_bytes());
        }
        root_cbs.push((rc.space, rc.register, buf));
    }
    // UAV counters, one per UAV register that the reflection or the case gives one.
    let mut counters: Vec<(usize, vk::Buffer, *mut u8)> = Vec::new();
    for (i, r) in res.iter().enumerate() {
        let wanted = r.counter.is_some()
            || r.expect_counter.is_some()
            || refl
                .resources
                .iter()
                .any(|b| b.class == RegisterClass::UavCounter && covers(b, r.space, r.register));
        if r.kind == "uav" && wanted && !r.null {
            let (buf, ptr) = s.buffer(16)?;
            mapped(ptr, 4).copy_from_slice(&r.counter.unwrap_or(0).to_le_bytes());
            counters.push((i, buf, ptr));
        }
    }

    // Descriptor set layouts from the reflection.
    let max_set = refl.resources.iter().map(|b| b.set).max();
    let nsets = max_set.map_or(0, |m| m as usize + 1);
    let mut per_set: Vec<Vec<(&ResourceBinding, u32)>> = vec![Vec::new(); nsets];
    for b in &refl.resources {
        let n = if b.count == 0 {
            res.iter()
                .filter(|r| {
                    r.kind == class_kind(b.class) && r.space == b.space && r.register >= b.register
                })
                .map(|r| r.register - b.register + 1)
                .max()
                .unwrap_or(1)
        } else {
            b.count
        };
        per_set[b.set as usize].push((b, n));
    }
    let mut pool_sizes: Vec<vk::DescriptorPoolSize> = Vec::new();
    for set in &per_set {
        let mut binds = Vec::new();
        let mut flags = Vec::new();
        for (b, n) in set {
            let ty = desc_type(b.descriptor_type);
            binds.push(
                vk::DescriptorSetLayoutBinding::default()
                    .binding(b.binding)
                    .descriptor_type(ty)
                    .descriptor_count(*n)
                    .stage_flags(stage_flags),
            );
            flags.push(if gpu.caps.partially_bound {
                vk::DescriptorBindingFlags::PARTIALLY_BOUND
            } else {
                vk::DescriptorBindingFlags::empty()
            });
            pool_sizes.push(vk::DescriptorPoolSize {
                ty,
                descriptor_count: *n,
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
        s.pool = unsafe { d.create_descriptor_pool(&pci, None) }
            .map_err(vkerr("vkCreateDescriptorPool"))?;
        let ai = vk::DescriptorSetAllocateInfo::default()
            .descriptor_pool(s.pool)
            .set_layouts(&s.set_layouts);
        // SAFETY: pool and layouts are live.
        sets = unsafe { d.allocate_descriptor_sets(&ai) }
            .map_err(vkerr("vkAllocateDescriptorSets"))?;
    }

    // Buffer views whose offsets the device cannot bind get shadow buffers (see `plan_view`).
    let spans: Vec<Option<ViewSpan>> = res.iter().zip(&objs).map(|(r, o)| span_of(r, o)).collect();
    let mut shadows: Vec<Shadow> = Vec::new();

    // Descriptor writes.
    for (si, set) in per_set.iter().enumerate() {
        for (b, n) in set {
            for e in 0..*n {
                let reg = b.register + e;
                let ty = desc_type(b.descriptor_type);
                let mut buf_info = None;
                let mut img_info = None;
                let mut texel = None;
                let case_res = res.iter().position(|r| {
                    r.kind == class_kind(b.class) && r.space == b.space && r.register == reg
                });
                let root = root_cbs.iter().find(|(sp, rg, _)| {
                    b.class == RegisterClass::Cbv && *sp == b.space && *rg == reg
                });
                if let Some((_, _, buf)) = root {
                    buf_info = Some(vk::DescriptorBufferInfo {
                        buffer: *buf,
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
                            return skip(format!(
                                "UAV counter u{reg} space{} has no UAV in the case",
                                b.space
                            ))
                        }
                    }
                } else if let Some(i) = case_res {
                    let r = &res[i];
                    match (&objs[i], b.descriptor_type) {
                        (Obj::None, _) => {
                            // Null descriptor.
                            if !gpu.caps.null_descriptor {
                                return skip("null descriptors unsupported by the device");
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
                                vk::DescriptorType::SAMPLER => return skip("null sampler"),
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
                                    shadow_of(&mut s, &mut shadows, i, *ptr, *alloc, (off, len))?,
                                    0,
                                ),
                                ViewPlan::Overlaps(j) => {
                                    return skip(format!(
                                        "unaligned storage buffer view offset {off} overlaps another view ({})",
                                        res_name(&res[j])
                                    ))
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
                                    shadow_of(&mut s, &mut shadows, i, *ptr, *alloc, (off, len))?,
                                    0,
                                ),
                                ViewPlan::Overlaps(j) => {
                                    return skip(format!(
                                        "unaligned texel buffer view offset {off} overlaps another view ({})",
                                        res_name(&res[j])
                                    ))
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
                            "{} {}{} space{}: case view {:?} does not fit descriptor type {dt:?}",
                            r.kind,
                            &r.kind[..1],
                            reg,
                            b.space,
                            r.view
                        ))
                        }
                    }
                } else if b.count == 0 || *n > 1 {
                    if gpu.caps.partially_bound {
                        continue;
                    }
                    return skip("partially bound descriptor arrays unsupported");
                } else {
                    return Err(format!("shader declares {:?} register {reg} space {} but the case gives no resource", b.class, b.space));
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

    // Pipeline.
    let mci = vk::ShaderModuleCreateInfo::default().code(spirv);
    // SAFETY: `d` is live; the code is a SPIR-V module.
    s.module =
        unsafe { d.create_shader_module(&mci, None) }.map_err(vkerr("vkCreateShaderModule"))?;
    let lci = vk::PipelineLayoutCreateInfo::default().set_layouts(&s.set_layouts);
    // SAFETY: the set layouts are live.
    s.layout =
        unsafe { d.create_pipeline_layout(&lci, None) }.map_err(vkerr("vkCreatePipelineLayout"))?;
    let targets = match draw {
        Some(ds) => {
            let t = match draw::prepare(&mut s, case, run, ds)? {
                Ok(t) => t,
                Err(reason) => return skip(reason),
            };
            s.pipeline = draw::pipeline(&mut s, case, &t, ds)?;
            Some(t)
        }
        None => {
            let stage = vk::PipelineShaderStageCreateInfo::default()
                .stage(vk::ShaderStageFlags::COMPUTE)
                .module(s.module)
                .name(c"main");
            let cci = [vk::ComputePipelineCreateInfo::default()
                .stage(stage)
                .layout(s.layout)];
            // SAFETY: module and layout are live.
            s.pipeline =
                unsafe { d.create_compute_pipelines(vk::PipelineCache::null(), &cci, None) }
                    .map_err(|(_, e)| format!("vkCreateComputePipelines: {e}"))?[0];
            None
        }
    };

    // Record and submit.
    let images: Vec<&Obj> = objs
        .iter()
        .filter(|o| matches!(o, Obj::Image { .. }))
        .collect();
    let pipeline = s.pipeline;
    let layout = s.layout;
    gpu.submit(|cb| {
        let mem_barrier = |src: vk::AccessFlags,
                           dst: vk::AccessFlags,
                           sst: vk::PipelineStageFlags,
                           dstg: vk::PipelineStageFlags| {
            let mb = [vk::MemoryBarrier::default()
                .src_access_mask(src)
                .dst_access_mask(dst)];
            // SAFETY: `cb` is recording.
            unsafe {
                d.cmd_pipeline_barrier(cb, sst, dstg, vk::DependencyFlags::empty(), &mb, &[], &[])
            };
        };
        for o in &images {
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
        mem_barrier(
            vk::AccessFlags::HOST_WRITE,
            vk::AccessFlags::SHADER_READ
                | vk::AccessFlags::SHADER_WRITE
                | vk::AccessFlags::UNIFORM_READ
                | vk::AccessFlags::VERTEX_ATTRIBUTE_READ,
            vk::PipelineStageFlags::HOST,
            shader_stages | vk::PipelineStageFlags::VERTEX_INPUT,
        );
        if let Some(t) = &targets {
            draw::record(d, cb, t, pipeline, layout, &sets);
        } else {
            // SAFETY: `cb` is recording; pipeline, layout and sets are live.
            unsafe {
                d.cmd_bind_pipeline(cb, vk::PipelineBindPoint::COMPUTE, pipeline);
                if !sets.is_empty() {
                    d.cmd_bind_descriptor_sets(
                        cb,
                        vk::PipelineBindPoint::COMPUTE,
                        layout,
                        0,
                        &sets,
                        &[],
                    );
                }
                for [x, y, z] in &dispatches {
                    d.cmd_dispatch(cb, *x, *y, *z);
                }
            }
        }
        mem_barrier(
            vk::AccessFlags::SHADER_WRITE,
            vk::AccessFlags::TRANSFER_READ | vk::AccessFlags::HOST_READ,
            shader_stages,
            vk::PipelineStageFlags::TRANSFER | vk::PipelineStageFlags::HOST,
        );
        for o in &images {
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
        mem_barrier(
            vk::AccessFlags::TRANSFER_WRITE,
            vk::AccessFlags::HOST_READ,
            vk::PipelineStageFlags::TRANSFER,
            vk::PipelineStageFlags::HOST,
        );
    })?;

    // Copy each shadow buffer back into its view's bytes of the backing buffer, so that
    // expectations on that buffer see the writes (the queue is idle after `submit`).
    for sh in &shadows {
        mapped(sh.parent, sh.offset + sh.len)[sh.offset..].copy_from_slice(mapped(sh.ptr, sh.len));
    }

    // Compare.
    for (i, r) in res.iter().enumerate() {
        let name = res_name(r);
        if let Some(exp) = &r.expect {
            let (bytes, layout, view): (&[u8], Layout, Option<(usize, usize)>) = match &objs[i] {
                Obj::Buffer { ptr, size, .. } => {
                    let v = view_range(r)?.map(|(o, l)| (o as usize, (o + l) as usize));
                    (
                        mapped(*ptr, *size),
                        Layout {
                            width: 1,
                            height: 1,
                            texel_size: 0,
                        },
                        v,
                    )
                }
                Obj::Image {
                    ptr,
                    size,
                    width,
                    height,
                    format,
                    ..
                } => {
                    let ts = r.format.as_deref().and_then(dxgi_format).map_or(4, |f| f.1);
                    let _ = format;
                    (
                        mapped(*ptr, *size),
                        Layout {
                            width: *width,
                            height: *height,
                            texel_size: ts,
                        },
                        None,
                    )
                }
                _ => return Err(format!("{name}: expect on a resource without memory")),
            };
            let _ = layout.height;
            data::check(bytes, exp, r.tolerance.as_ref(), &layout, view)
                .map_err(|e| format!("{name}: {e}"))?;
        }
        if let Some(want) = r.expect_counter {
            let c = counters
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
    if let Some(t) = &targets {
        return draw::check(t);
    }
    Ok(Outcome::Ok)
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
    if let Some(init) = &r.initial {
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
