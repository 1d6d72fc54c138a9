//! [`Scratch`]: the Vulkan objects one run creates, destroyed together when the run ends.

use crate::vk::Gpu;
use ash::vk;

/// Everything a run creates; destroyed on drop (after waiting for the device).
pub(crate) struct Scratch<'g> {
    pub(crate) gpu: &'g Gpu,
    pub(crate) buffers: Vec<vk::Buffer>,
    pub(crate) images: Vec<vk::Image>,
    pub(crate) image_views: Vec<vk::ImageView>,
    pub(crate) buffer_views: Vec<vk::BufferView>,
    pub(crate) samplers: Vec<vk::Sampler>,
    pub(crate) memory: Vec<vk::DeviceMemory>,
    pub(crate) set_layouts: Vec<vk::DescriptorSetLayout>,
    pub(crate) pools: Vec<vk::DescriptorPool>,
    pub(crate) layouts: Vec<vk::PipelineLayout>,
    pub(crate) modules: Vec<vk::ShaderModule>,
    pub(crate) pipelines: Vec<vk::Pipeline>,
    pub(crate) query_pools: Vec<vk::QueryPool>,
}

impl Drop for Scratch<'_> {
    fn drop(&mut self) {
        let d = &self.gpu.device;
        // SAFETY: the queue is idle after every submission (and waited for here); these
        // handles were created from `d` by this run and are destroyed once.
        unsafe {
            let _ = d.device_wait_idle();
            for &p in &self.pipelines {
                d.destroy_pipeline(p, None);
            }
            for &m in &self.modules {
                d.destroy_shader_module(m, None);
            }
            for &l in &self.layouts {
                d.destroy_pipeline_layout(l, None);
            }
            for &p in &self.pools {
                d.destroy_descriptor_pool(p, None);
            }
            for &l in &self.set_layouts {
                d.destroy_descriptor_set_layout(l, None);
            }
            for &q in &self.query_pools {
                d.destroy_query_pool(q, None);
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

/// Maps a Vulkan error to a message naming the call.
pub(crate) fn vkerr(what: &str) -> impl Fn(vk::Result) -> String + '_ {
    move |e| format!("{what}: {e}")
}

impl<'g> Scratch<'g> {
    /// An empty scratch on `gpu`.
    pub(crate) fn new(gpu: &'g Gpu) -> Self {
        Scratch {
            gpu,
            buffers: Vec::new(),
            images: Vec::new(),
            image_views: Vec::new(),
            buffer_views: Vec::new(),
            samplers: Vec::new(),
            memory: Vec::new(),
            set_layouts: Vec::new(),
            pools: Vec::new(),
            layouts: Vec::new(),
            modules: Vec::new(),
            pipelines: Vec::new(),
            query_pools: Vec::new(),
        }
    }

    /// A host-visible, coherent, mapped, zeroed buffer usable for every purpose the runner
    /// has: descriptors, vertex, index and indirect data, transfers and (when the device has
    /// it) transform feedback and its counters.
    pub(crate) fn buffer(&mut self, size: u64) -> Result<(vk::Buffer, *mut u8), String> {
        let d = &self.gpu.device;
        let mut usage = vk::BufferUsageFlags::STORAGE_BUFFER
            | vk::BufferUsageFlags::UNIFORM_BUFFER
            | vk::BufferUsageFlags::STORAGE_TEXEL_BUFFER
            | vk::BufferUsageFlags::UNIFORM_TEXEL_BUFFER
            | vk::BufferUsageFlags::VERTEX_BUFFER
            | vk::BufferUsageFlags::INDEX_BUFFER
            | vk::BufferUsageFlags::INDIRECT_BUFFER
            | vk::BufferUsageFlags::TRANSFER_SRC
            | vk::BufferUsageFlags::TRANSFER_DST;
        if self.gpu.caps.transform_feedback {
            usage |= vk::BufferUsageFlags::TRANSFORM_FEEDBACK_BUFFER_EXT
                | vk::BufferUsageFlags::TRANSFORM_FEEDBACK_COUNTER_BUFFER_EXT;
        }
        let bci = vk::BufferCreateInfo::default()
            .size(size.max(16))
            .usage(usage);
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

    /// A shader module from SPIR-V words.
    pub(crate) fn module(&mut self, code: &[u32]) -> Result<vk::ShaderModule, String> {
        let mci = vk::ShaderModuleCreateInfo::default().code(code);
        // SAFETY: `device` is live; the code is a SPIR-V module.
        let m = unsafe { self.gpu.device.create_shader_module(&mci, None) }
            .map_err(vkerr("vkCreateShaderModule"))?;
        self.modules.push(m);
        Ok(m)
    }

    /// A 2D colour image with its own device-local memory.
    pub(crate) fn image(&mut self, ci: &vk::ImageCreateInfo) -> Result<vk::Image, String> {
        let d = &self.gpu.device;
        // SAFETY: `d` is live; `ci` is valid.
        let img = unsafe { d.create_image(ci, None) }.map_err(vkerr("vkCreateImage"))?;
        self.images.push(img);
        // SAFETY: `img` was just created.
        let req = unsafe { d.get_image_memory_requirements(img) };
        let mem = self.gpu.alloc(req, vk::MemoryPropertyFlags::DEVICE_LOCAL)?;
        self.memory.push(mem);
        // SAFETY: fresh image and fitting memory.
        unsafe { d.bind_image_memory(img, mem, 0) }.map_err(vkerr("vkBindImageMemory"))?;
        Ok(img)
    }
}

/// Views `len` bytes of a live mapping.
pub(crate) fn mapped<'a>(ptr: *mut u8, len: usize) -> &'a mut [u8] {
    // SAFETY: callers pass a pointer from `Scratch::buffer` whose mapping is at least `len`
    // bytes and outlives the returned slice (the scratch owning it lives for the whole run);
    // the device is idle whenever this is called.
    unsafe { std::slice::from_raw_parts_mut(ptr, len) }
}
