//! Outcomes, device requirements, and executing one run of a compute case on the [`Gpu`].

use crate::case::{Case, Run};
use crate::resources::{self, StageView};
use crate::scratch::Scratch;
use crate::vk::Gpu;
use ash::vk;
use dxspv::spirv::Reflection;

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

/// Checks `requires` tags against the device; `Some(reason)` when one is missing.
pub fn missing_requirement(gpu: &Gpu, tags: &[String]) -> Option<String> {
    let c = &gpu.caps;
    for t in tags {
        let ok = match t.as_str() {
            "native_16bit" => c.native_16bit,
            "int64" => c.int64,
            "int64_atomics" => c.int64_atomics,
            // D3D12 separates root descriptors from heap ones; a Vulkan descriptor in a set
            // is the same either way, so buffer atomics need only `shaderBufferInt64Atomics`.
            "int64_atomics_descriptor_heap" => c.int64_atomics,
            "int64_atomics_typed" => false,
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
            "vs_layer" => c.shader_output_layer,
            "vertex_attribute_divisor_zero" => c.instance_rate_zero_divisor,
            "multi_viewport" => c.multi_viewport,
            _ => match t.strip_prefix("vertex_format:") {
                Some(f) => crate::formats::dxgi_format(f).is_some_and(|(vf, _)| {
                    gpu.format_features(vf)
                        .buffer_features
                        .contains(vk::FormatFeatureFlags::VERTEX_BUFFER)
                }),
                None => return Some(format!("unknown requirement `{t}`")),
            },
        };
        if !ok {
            return Some(format!("device lacks `{t}`"));
        }
    }
    None
}

/// Runs one run of a compiled compute shader.
pub fn run_compute(gpu: &Gpu, case: &Case, run: &Run, spirv: &[u32], refl: &Reflection) -> Outcome {
    match compute(gpu, case, run, spirv, refl) {
        Ok(o) => o,
        Err(e) => Outcome::Fail(e),
    }
}

fn compute(
    gpu: &Gpu,
    _case: &Case,
    run: &Run,
    spirv: &[u32],
    refl: &Reflection,
) -> Result<Outcome, String> {
    if !refl.push_data.is_empty() {
        return Ok(Outcome::Skipped("shader uses push data".into()));
    }
    let Some(dispatch) = &run.dispatch else {
        return Ok(Outcome::Skipped("compute run without dispatch".into()));
    };
    let dispatches = dispatch.list();
    let d = &gpu.device;
    let mut s = Scratch::new(gpu);
    let stage = [StageView {
        reflection: refl,
        flags: vk::ShaderStageFlags::COMPUTE,
        stage: "cs",
    }];
    let res = match resources::create(&mut s, &run.resources, &run.root_constants, &stage, &[])? {
        Ok(r) => r,
        Err(why) => return Ok(Outcome::Skipped(why)),
    };
    let module = s.module(spirv)?;
    let stage_ci = vk::PipelineShaderStageCreateInfo::default()
        .stage(vk::ShaderStageFlags::COMPUTE)
        .module(module)
        .name(c"main");
    let cci = [vk::ComputePipelineCreateInfo::default()
        .stage(stage_ci)
        .layout(res.layout)];
    // SAFETY: module and layout are live.
    let pipeline = unsafe { d.create_compute_pipelines(vk::PipelineCache::null(), &cci, None) }
        .map_err(|(_, e)| format!("vkCreateComputePipelines: {e}"))?
        .first()
        .copied()
        .ok_or("vkCreateComputePipelines returned no pipeline")?;
    s.pipelines.push(pipeline);
    let stages = vk::PipelineStageFlags::COMPUTE_SHADER;
    gpu.submit(|cb| {
        res.record_uploads(d, cb, stages);
        // SAFETY: `cb` is recording; pipeline, layout and sets are live.
        unsafe {
            d.cmd_bind_pipeline(cb, vk::PipelineBindPoint::COMPUTE, pipeline);
            if !res.sets.is_empty() {
                d.cmd_bind_descriptor_sets(
                    cb,
                    vk::PipelineBindPoint::COMPUTE,
                    res.layout,
                    0,
                    &res.sets,
                    &[],
                );
            }
            for [x, y, z] in &dispatches {
                d.cmd_dispatch(cb, *x, *y, *z);
            }
        }
        res.record_readbacks(d, cb, stages);
    })?;
    res.check(&run.resources)
}
