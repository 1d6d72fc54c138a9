//! The Vulkan device: instance and device creation, memory, one-shot command submission.
//!
//! Every `unsafe` block here calls into the Vulkan C API through `ash`; the handles passed are
//! ones this module created and has not destroyed, which is the invariant each `// SAFETY:`
//! comment refers to.

use ash::vk;
use std::ffi::CStr;

/// What the device can do, as far as case `requires` tags go.
#[derive(Clone, Debug, Default)]
pub struct Caps {
    /// `shaderInt64`.
    pub int64: bool,
    /// `shaderFloat64`.
    pub fp64: bool,
    /// 16-bit float/int arithmetic and storage.
    pub native_16bit: bool,
    /// 64-bit buffer atomics.
    pub int64_atomics: bool,
    /// Runtime descriptor arrays and partially bound bindings.
    pub bindless: bool,
    /// `descriptorBindingPartiallyBound`.
    pub partially_bound: bool,
    /// `VK_EXT_robustness2` `nullDescriptor`.
    pub null_descriptor: bool,
    /// fp32 denormal flush supported.
    pub denorm_ftz32: bool,
    /// fp32 denormal preserve supported.
    pub denorm_preserve32: bool,
    /// fp16 denormal preserve supported.
    pub denorm_preserve16: bool,
    /// `shaderStorageImageReadWithoutFormat`.
    pub storage_read_without_format: bool,
    /// A queue family with graphics as well as compute.
    pub graphics: bool,
    /// `geometryShader`.
    pub geometry_shader: bool,
    /// `tessellationShader`.
    pub tessellation_shader: bool,
    /// `VK_EXT_transform_feedback` `transformFeedback`.
    pub transform_feedback: bool,
    /// `VK_EXT_transform_feedback` `geometryStreams`.
    pub geometry_streams: bool,
    /// `VK_EXT_transform_feedback` `transformFeedbackQueries`.
    pub transform_feedback_queries: bool,
    /// `VK_EXT_transform_feedback` `transformFeedbackRasterizationStreamSelect`.
    pub rasterization_stream_select: bool,
    /// `VK_EXT_vertex_attribute_divisor` (or the KHR one) `vertexAttributeInstanceRateDivisor`.
    pub instance_rate_divisor: bool,
    /// `vertexAttributeInstanceRateZeroDivisor`.
    pub instance_rate_zero_divisor: bool,
    /// Vulkan 1.2 `shaderOutputLayer`.
    pub shader_output_layer: bool,
    /// Vulkan 1.2 `shaderOutputViewportIndex`.
    pub shader_output_viewport_index: bool,
    /// `multiViewport`.
    pub multi_viewport: bool,
    /// `depthClamp` (D3D's depth clip off).
    pub depth_clamp: bool,
    /// `fillModeNonSolid`: wireframe and point polygon modes.
    pub fill_mode_non_solid: bool,
    /// `shaderClipDistance`.
    pub clip_distance: bool,
}

/// A Vulkan device with one graphics- and compute-capable queue.
pub struct Gpu {
    _entry: ash::Entry,
    instance: ash::Instance,
    /// The physical device.
    pub phys: vk::PhysicalDevice,
    /// The logical device.
    pub device: ash::Device,
    queue: vk::Queue,
    pool: vk::CommandPool,
    mem: vk::PhysicalDeviceMemoryProperties,
    /// Device limits.
    pub limits: vk::PhysicalDeviceLimits,
    /// Capabilities.
    pub caps: Caps,
    /// Device name and API version, for messages.
    pub name: String,
    /// `VK_EXT_transform_feedback` entry points (loaded when the extension is enabled).
    pub xfb: Option<ash::ext::transform_feedback::Device>,
}

fn err(what: &str, e: vk::Result) -> String {
    format!("{what}: {e}")
}

impl Gpu {
    /// Loads the Vulkan loader and opens the first CPU (lavapipe) device, else the first
    /// device with a compute queue.
    pub fn new() -> Result<Gpu, String> {
        // SAFETY: loading the system Vulkan loader; its entry points are trusted to be sound.
        let entry = unsafe { ash::Entry::load() }.map_err(|e| format!("no Vulkan loader: {e}"))?;
        let app = vk::ApplicationInfo::default()
            .application_name(c"dxspv-runner")
            .api_version(vk::API_VERSION_1_3);
        let ici = vk::InstanceCreateInfo::default().application_info(&app);
        // SAFETY: `ici` and what it points to live across the call.
        let instance =
            unsafe { entry.create_instance(&ici, None) }.map_err(|e| err("vkCreateInstance", e))?;
        // SAFETY: `instance` is a live instance.
        let devices = unsafe { instance.enumerate_physical_devices() }
            .map_err(|e| err("vkEnumeratePhysicalDevices", e))?;
        let props_of = |pd: vk::PhysicalDevice| {
            // SAFETY: `pd` was enumerated from the live `instance`.
            unsafe { instance.get_physical_device_properties(pd) }
        };
        let phys = devices
            .iter()
            .copied()
            .find(|&pd| props_of(pd).device_type == vk::PhysicalDeviceType::CPU)
            .or_else(|| devices.first().copied())
            .ok_or("no Vulkan physical device")?;
        let props = props_of(phys);
        let api = props.api_version;
        let dev_name = props
            .device_name_as_c_str()
            .map(|c| c.to_string_lossy().into_owned())
            .unwrap_or_default();
        if vk::api_version_minor(api) < 2 && vk::api_version_major(api) == 1 {
            return Err(format!("{dev_name}: Vulkan 1.2 or later is needed"));
        }
        // SAFETY: `phys` belongs to the live `instance`.
        let qfams = unsafe { instance.get_physical_device_queue_family_properties(phys) };
        let both = vk::QueueFlags::COMPUTE | vk::QueueFlags::GRAPHICS;
        let graphics_family = qfams.iter().position(|q| q.queue_flags.contains(both));
        let qfi = graphics_family
            .or_else(|| {
                qfams
                    .iter()
                    .position(|q| q.queue_flags.contains(vk::QueueFlags::COMPUTE))
            })
            .ok_or("no compute queue")? as u32;
        // SAFETY: `phys` belongs to the live `instance`.
        let exts = unsafe { instance.enumerate_device_extension_properties(phys) }
            .map_err(|e| err("vkEnumerateDeviceExtensionProperties", e))?;
        let has_ext = |name: &CStr| {
            exts.iter()
                .any(|e| e.extension_name_as_c_str().is_ok_and(|n| n == name))
        };
        let robustness2 = has_ext(ash::ext::robustness2::NAME);
        let xfb_ext = has_ext(ash::ext::transform_feedback::NAME);
        // The KHR extension promoted the EXT one with the same structures.
        let divisor_ext = if has_ext(ash::khr::vertex_attribute_divisor::NAME) {
            Some(ash::khr::vertex_attribute_divisor::NAME)
        } else if has_ext(ash::ext::vertex_attribute_divisor::NAME) {
            Some(ash::ext::vertex_attribute_divisor::NAME)
        } else {
            None
        };
        let is13 = vk::api_version_minor(api) >= 3 || vk::api_version_major(api) > 1;

        let mut p12 = vk::PhysicalDeviceVulkan12Properties::default();
        let mut pxfb = vk::PhysicalDeviceTransformFeedbackPropertiesEXT::default();
        let mut p2 = vk::PhysicalDeviceProperties2::default().push_next(&mut p12);
        if xfb_ext {
            p2 = p2.push_next(&mut pxfb);
        }
        // SAFETY: `p2` chains only structures valid for a 1.2 device and its extensions.
        unsafe { instance.get_physical_device_properties2(phys, &mut p2) };
        let _ = p2;

        let mut f11 = vk::PhysicalDeviceVulkan11Features::default();
        let mut f12 = vk::PhysicalDeviceVulkan12Features::default();
        let mut f13 = vk::PhysicalDeviceVulkan13Features::default();
        let mut fr2 = vk::PhysicalDeviceRobustness2FeaturesEXT::default();
        let mut fxfb = vk::PhysicalDeviceTransformFeedbackFeaturesEXT::default();
        let mut fdiv = vk::PhysicalDeviceVertexAttributeDivisorFeaturesKHR::default();
        let mut f2 = vk::PhysicalDeviceFeatures2::default()
            .push_next(&mut f11)
            .push_next(&mut f12);
        if is13 {
            f2 = f2.push_next(&mut f13);
        }
        if robustness2 {
            f2 = f2.push_next(&mut fr2);
        }
        if xfb_ext {
            f2 = f2.push_next(&mut fxfb);
        }
        if divisor_ext.is_some() {
            f2 = f2.push_next(&mut fdiv);
        }
        // SAFETY: the chain holds only structures the device's version/extensions define.
        unsafe { instance.get_physical_device_features2(phys, &mut f2) };
        // Direct3D 10+ has no point size in geometry or tessellation shaders: without this
        // feature Vulkan draws their points one pixel wide, as Direct3D does (with it, every
        // such shader would have to write `PointSize`).
        f2.features.shader_tessellation_and_geometry_point_size = 0;
        let base = f2.features;
        let mut ext_names = Vec::new();
        if robustness2 {
            ext_names.push(ash::ext::robustness2::NAME.as_ptr());
        }
        if xfb_ext {
            ext_names.push(ash::ext::transform_feedback::NAME.as_ptr());
        }
        if let Some(name) = divisor_ext {
            ext_names.push(name.as_ptr());
        }
        let prio = [1.0f32];
        let qci = [vk::DeviceQueueCreateInfo::default()
            .queue_family_index(qfi)
            .queue_priorities(&prio)];
        // Enable every supported feature: the runner wants the most D3D-like device.
        let dci = vk::DeviceCreateInfo::default()
            .queue_create_infos(&qci)
            .enabled_extension_names(&ext_names)
            .push_next(&mut f2);
        // SAFETY: `dci` and its chain live across the call; features were queried from `phys`.
        let device = unsafe { instance.create_device(phys, &dci, None) }
            .map_err(|e| err("vkCreateDevice", e))?;
        let caps = Caps {
            int64: base.shader_int64 != 0,
            fp64: base.shader_float64 != 0,
            native_16bit: f12.shader_float16 != 0
                && base.shader_int16 != 0
                && f11.storage_buffer16_bit_access != 0,
            int64_atomics: f12.shader_buffer_int64_atomics != 0,
            bindless: f12.runtime_descriptor_array != 0
                && f12.descriptor_binding_partially_bound != 0,
            partially_bound: f12.descriptor_binding_partially_bound != 0,
            null_descriptor: robustness2 && fr2.null_descriptor != 0,
            denorm_ftz32: p12.shader_denorm_flush_to_zero_float32 != 0,
            denorm_preserve32: p12.shader_denorm_preserve_float32 != 0,
            denorm_preserve16: p12.shader_denorm_preserve_float16 != 0,
            storage_read_without_format: base.shader_storage_image_read_without_format != 0,
            graphics: graphics_family.is_some(),
            geometry_shader: base.geometry_shader != 0,
            tessellation_shader: base.tessellation_shader != 0,
            transform_feedback: xfb_ext && fxfb.transform_feedback != 0,
            geometry_streams: xfb_ext && fxfb.geometry_streams != 0,
            transform_feedback_queries: xfb_ext && pxfb.transform_feedback_queries != 0,
            rasterization_stream_select: xfb_ext
                && pxfb.transform_feedback_rasterization_stream_select != 0,
            instance_rate_divisor: divisor_ext.is_some()
                && fdiv.vertex_attribute_instance_rate_divisor != 0,
            instance_rate_zero_divisor: divisor_ext.is_some()
                && fdiv.vertex_attribute_instance_rate_zero_divisor != 0,
            shader_output_layer: f12.shader_output_layer != 0,
            shader_output_viewport_index: f12.shader_output_viewport_index != 0,
            multi_viewport: base.multi_viewport != 0,
            depth_clamp: base.depth_clamp != 0,
            fill_mode_non_solid: base.fill_mode_non_solid != 0,
            clip_distance: base.shader_clip_distance != 0,
        };
        let xfb = caps
            .transform_feedback
            .then(|| ash::ext::transform_feedback::Device::new(&instance, &device));
        // SAFETY: `device` is live and `qfi` was requested at creation.
        let queue = unsafe { device.get_device_queue(qfi, 0) };
        let pci = vk::CommandPoolCreateInfo::default()
            .queue_family_index(qfi)
            .flags(vk::CommandPoolCreateFlags::RESET_COMMAND_BUFFER);
        // SAFETY: `device` is live.
        let pool = unsafe { device.create_command_pool(&pci, None) }
            .map_err(|e| err("vkCreateCommandPool", e))?;
        // SAFETY: `phys` belongs to the live `instance`.
        let mem = unsafe { instance.get_physical_device_memory_properties(phys) };
        Ok(Gpu {
            _entry: entry,
            instance,
            phys,
            device,
            queue,
            pool,
            mem,
            limits: props.limits,
            caps,
            xfb,
            name: format!(
                "{dev_name} (Vulkan {}.{}.{})",
                vk::api_version_major(api),
                vk::api_version_minor(api),
                vk::api_version_patch(api)
            ),
        })
    }

    /// Format features for optimal-tiling images and for buffers.
    pub fn format_features(&self, f: vk::Format) -> vk::FormatProperties {
        // SAFETY: `phys` belongs to the live instance.
        unsafe {
            self.instance
                .get_physical_device_format_properties(self.phys, f)
        }
    }

    /// Allocates memory for `req` with `flags` (falls back to any allowed type).
    pub fn alloc(
        &self,
        req: vk::MemoryRequirements,
        flags: vk::MemoryPropertyFlags,
    ) -> Result<vk::DeviceMemory, String> {
        let types = &self.mem.memory_types[..self.mem.memory_type_count as usize];
        let pick = |want: vk::MemoryPropertyFlags| {
            types.iter().enumerate().position(|(i, t)| {
                req.memory_type_bits & (1 << i) != 0 && t.property_flags.contains(want)
            })
        };
        let idx = pick(flags)
            .or_else(|| pick(vk::MemoryPropertyFlags::empty()))
            .ok_or("no memory type")?;
        let ai = vk::MemoryAllocateInfo::default()
            .allocation_size(req.size.max(1))
            .memory_type_index(idx as u32);
        // SAFETY: `device` is live; the allocation info is valid.
        unsafe { self.device.allocate_memory(&ai, None) }.map_err(|e| err("vkAllocateMemory", e))
    }

    /// Records commands with `record` into a fresh command buffer, submits and waits.
    pub fn submit(&self, record: impl FnOnce(vk::CommandBuffer)) -> Result<(), String> {
        let ai = vk::CommandBufferAllocateInfo::default()
            .command_pool(self.pool)
            .level(vk::CommandBufferLevel::PRIMARY)
            .command_buffer_count(1);
        // SAFETY: `pool` is live and owned by `device`.
        let cbs = unsafe { self.device.allocate_command_buffers(&ai) }
            .map_err(|e| err("vkAllocateCommandBuffers", e))?;
        let cb = cbs[0];
        let bi = vk::CommandBufferBeginInfo::default()
            .flags(vk::CommandBufferUsageFlags::ONE_TIME_SUBMIT);
        // SAFETY: `cb` was just allocated and is in the initial state.
        unsafe { self.device.begin_command_buffer(cb, &bi) }
            .map_err(|e| err("vkBeginCommandBuffer", e))?;
        record(cb);
        // SAFETY: `cb` is recording.
        let result = unsafe { self.device.end_command_buffer(cb) }
            .map_err(|e| err("vkEndCommandBuffer", e))
            .and_then(|()| {
                let si = [vk::SubmitInfo::default().command_buffers(&cbs)];
                // SAFETY: `cb` is executable; the queue belongs to `device`.
                unsafe { self.device.queue_submit(self.queue, &si, vk::Fence::null()) }
                    .map_err(|e| err("vkQueueSubmit", e))?;
                // SAFETY: the queue is live.
                unsafe { self.device.queue_wait_idle(self.queue) }
                    .map_err(|e| err("vkQueueWaitIdle", e))
            });
        // SAFETY: the queue is idle (or submission failed), so `cb` is not in use.
        unsafe { self.device.free_command_buffers(self.pool, &cbs) };
        result
    }
}

impl Drop for Gpu {
    fn drop(&mut self) {
        // SAFETY: everything created from the device has been destroyed by its owners (runs
        // clean up before returning); the device is idle.
        unsafe {
            let _ = self.device.device_wait_idle();
            self.device.destroy_command_pool(self.pool, None);
            self.device.destroy_device(None);
            self.instance.destroy_instance(None);
        }
    }
}
