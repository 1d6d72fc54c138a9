//! Direct3D 9 (and 8) cases (`../shared/exec-d3d9`): a shader under test drawn with the
//! rest of a Direct3D 9 pipeline (another corpus shader or fixed-function stand-ins), the
//! application's constants, textures, render and texture stage states, checked against
//! the colours Windows produced.
//!
//! # How a run executes
//!
//! 1. [`case`] parses the file; every run is the case with the run's fields laid over it.
//! 2. Per draw, in order: render states accumulate as on a device ([`state`]); the draw's
//!    vertices are fetched on the host as `vec4<f32>` per element ([`vertex`]); the vertex
//!    stage is the case's vertex shader or the fixed-function stand-in for the draw's
//!    declaration, the pixel stage the case's pixel shader or the `diffuse` stand-in
//!    ([`fixed`]); both are compiled ([`shaders`]) with the compile-time state (flat shading,
//!    sampler types) and each stage's own descriptor sets.
//! 3. The constants, the state buffers, the textures and samplers are bound per stage
//!    ([`bind`]) through one pipeline layout that also holds the contract's push constant
//!    block (both stages, [`dxspv::sm3::options::push::SIZE`] bytes); the render
//!    targets are created and cleared; one pipeline is built per distinct draw state
//!    ([`pipeline`]: specialization constants, vertex input, Direct3D 9's viewport with the
//!    half-pixel offset, cull mode, colour writes, blending).
//! 4. The draws are recorded in one command buffer, each with its push constants, then the
//!    targets are read back and their `d3dcolor` expectations checked ([`expect`]).
//!
//! A shader `dxspv::compile` refuses as an unsupported format (no D3D9 frontend) makes the
//! run a skip with [`shaders::D3D9_SKIP`]; device features the run needs and the device
//! lacks are skips naming the feature; everything else that goes wrong is a failure.

mod bind;
pub mod case;
mod expect;
mod fixed;
mod pipeline;
pub mod shaders;
mod state;
mod texture;
mod vertex;

use self::case::{D3d9Case, D3d9Run};
use self::pipeline::{vertex_inputs, PipelineDesc, VertexInputs};
use self::shaders::{Shader, ShaderCache, Source, Variant, PS_SET_OFFSET};
use self::state::{Context, DrawState, PipelineState, RenderStates};
use crate::exec::{missing_requirement, Outcome};
use crate::graphics::shaders::Refusal;
use crate::graphics::targets;
use crate::resources::{self, memory_barrier, StageView};
use crate::scratch::{mapped, Scratch};
use crate::vk::Gpu;
use crate::Report;
use ash::vk;
use dxspv::sm3::options::spec_id;
use dxspv::sm3::TextureType;
use std::path::PathBuf;
use std::rc::Rc;

/// Runs every run of a Direct3D 9 case given as its JSON value.
pub fn run_case(gpu: &Gpu, value: serde_json::Value, corpora: &[PathBuf]) -> Vec<Report> {
    let fallback = value
        .get("name")
        .and_then(|n| n.as_str())
        .unwrap_or("<unnamed>")
        .to_string();
    let case = match D3d9Case::from_json(value) {
        Ok(c) => c,
        Err(e) => {
            return vec![Report {
                name: fallback,
                outcome: Outcome::Fail(format!("bad case file: {e}")),
            }]
        }
    };
    let mut cache = ShaderCache::new(corpora);
    case.runs
        .iter()
        .enumerate()
        .map(|(i, (name, run))| Report {
            name: match (case.has_runs, name) {
                (false, _) => case.name.clone(),
                (true, Some(n)) => format!("{}/{n}", case.name),
                (true, None) => format!("{}/{i}", case.name),
            },
            outcome: execute(gpu, run, &mut cache),
        })
        .collect()
}

/// Executes one run.
fn execute(gpu: &Gpu, run: &D3d9Run, cache: &mut ShaderCache) -> Outcome {
    if let Some(why) = missing_requirement(gpu, &run.requires) {
        return Outcome::Skipped(why);
    }
    if !gpu.caps.graphics {
        return Outcome::Skipped("device has no graphics queue".into());
    }
    match execute_inner(gpu, run, cache) {
        Ok(o) => o,
        Err(e) => Outcome::Fail(e),
    }
}

/// Compile-time texture types of the samplers of one stage (`vs`: vertex textures).
fn sampler_types(run: &D3d9Run, vertex: bool) -> [TextureType; 16] {
    let mut t = [TextureType::Texture2D; 16];
    for tex in run.textures.iter().filter(|t| t.is_vertex() == vertex) {
        if let Some(slot) = t.get_mut(tex.sampler as usize) {
            *slot = match tex.ty.as_deref() {
                Some("cube") => TextureType::Cube,
                Some("volume") => TextureType::Volume,
                _ => TextureType::Texture2D,
            };
        }
    }
    t
}

/// One draw, planned.
struct DrawPlan {
    vs: Rc<Shader>,
    ps: Rc<Shader>,
    inputs: VertexInputs,
    topology: vk::PrimitiveTopology,
    vertices: vertex::Vertices,
    state: DrawState,
}

/// A planned run, or why it does not execute.
type Planned = Result<Vec<DrawPlan>, Outcome>;

/// Walks the draws: state, vertices and shaders of each.
fn plan(
    run: &D3d9Run,
    cache: &mut ShaderCache,
    viewport: vertex::Viewport,
) -> Result<Planned, String> {
    let (vs_path, ps_path) = match run.stage.as_str() {
        "vs" => (Some(run.shader.clone()), run.pixel_shader.clone()),
        "ps" => (run.vertex_shader.clone(), Some(run.shader.clone())),
        s => return Err(format!("stage `{s}`")),
    };
    if ps_path.is_none() {
        match run.fixed_function_ps.as_deref() {
            None | Some("diffuse") => {}
            Some(f) => return Err(format!("fixed-function pixel stage `{f}` not implemented")),
        }
    }
    let vs_variant = Variant {
        flat: false,
        sampler_types: sampler_types(run, true),
        set_offset: 0,
    };
    let mut rs = RenderStates::default();
    rs.apply(&run.render_states);
    let ctx = Context {
        stages: &run.texture_stage_states,
        clip_planes: &run.clip_planes,
        fixed_function_ps: ps_path.is_none(),
    };
    let draws = run.draw_list();
    if draws.is_empty() {
        return Err("a run without draws".into());
    }
    let mut plans = Vec::new();
    for (i, draw) in draws.iter().enumerate() {
        let at = |e: String| format!("draw {i}: {e}");
        rs.apply(&draw.render_states);
        let state = state::draw_state(&rs, &ctx).map_err(at)?;
        let vertices = vertex::read(draw, viewport).map_err(at)?;
        let (topology, _) = vertex::primitive(&draw.primitive, draw.primitive_count).map_err(at)?;
        let vs_source = match &vs_path {
            Some(p) => Source::Corpus(p.clone()),
            None => {
                let clip = state
                    .pipeline
                    .spec
                    .iter()
                    .any(|&(id, v)| id == spec_id::CLIP_PLANE_ENABLE && v != 0);
                let opts = fixed::VertexOptions {
                    clip_planes: clip,
                    points: topology == vk::PrimitiveTopology::POINT_LIST
                        || state.pipeline.fill == vk::PolygonMode::POINT,
                    fog: state.vertex_fog,
                };
                Source::Ir(fixed::vertex_shader(&vertices, opts).map_err(at)?)
            }
        };
        let ps_source = match &ps_path {
            Some(p) => Source::Corpus(p.clone()),
            None => Source::Ir(fixed::pixel_shader(
                state.pipeline.flat,
                state.pipeline.specular,
                state.fog,
            )),
        };
        let ps_variant = Variant {
            flat: state.pipeline.flat,
            sampler_types: sampler_types(run, false),
            set_offset: PS_SET_OFFSET,
        };
        let compiled = cache
            .get(&vs_source, &vs_variant)
            .and_then(|vs| cache.get(&ps_source, &ps_variant).map(|ps| (vs, ps)));
        let (vs, ps) = match compiled {
            Ok(pair) => pair,
            Err(Refusal::Skip(why)) => return Ok(Err(Outcome::Skipped(why))),
            Err(Refusal::Fail(why)) => return Ok(Err(Outcome::Fail(why))),
        };
        let keys: Vec<String> = vertices.elements.iter().map(|e| e.key.clone()).collect();
        let inputs = vertex_inputs(&vs.reflection, &keys, vs_path.is_none());
        plans.push(DrawPlan {
            vs,
            ps,
            inputs,
            topology,
            vertices,
            state,
        });
    }
    Ok(Ok(plans))
}

/// The run's render targets in the runner's form (`D3DFMT_*` as the DXGI format with the
/// same bytes, the clear colour as RGBA); the inner `Err` names an unsupported format.
fn render_targets(run: &D3d9Run) -> Result<Vec<crate::case::RenderTarget>, String> {
    run.render_targets
        .iter()
        .map(|rt| {
            let format = match rt.format.strip_prefix("D3DFMT_").unwrap_or(&rt.format) {
                "A8R8G8B8" | "X8R8G8B8" => "B8G8R8A8_UNORM",
                "A8B8G8R8" | "X8B8G8R8" => "R8G8B8A8_UNORM",
                f => return Err(format!("render-target format D3DFMT_{f} not implemented")),
            };
            let clear = match &rt.clear {
                Some(c) => {
                    let [b, g, r, a] = case::hex32(c)?.to_le_bytes();
                    Some([r, g, b, a].map(|x| f64::from(x) / 255.0).to_vec())
                }
                None => None,
            };
            Ok(crate::case::RenderTarget {
                slot: rt.slot,
                format: format.into(),
                width: rt.width,
                height: rt.height,
                array_size: None,
                clear,
                expect: None,
                tolerance: None,
            })
        })
        .collect()
}

/// A device feature the draws need and the device lacks.
fn missing_feature(gpu: &Gpu, plans: &[DrawPlan]) -> Option<String> {
    if plans
        .iter()
        .any(|p| p.state.pipeline.fill != vk::PolygonMode::FILL)
        && !gpu.caps.fill_mode_non_solid
    {
        return Some("device lacks `fillModeNonSolid`".into());
    }
    let clips = plans.iter().any(|p| {
        p.vs.reflection
            .outputs
            .iter()
            .any(|o| o.builtin == Some("ClipDistance"))
    });
    if clips && !gpu.caps.clip_distance {
        return Some("device lacks `shaderClipDistance`".into());
    }
    None
}

/// The byte ranges (offset, size) of the push constant block the shaders of `plans` read.
fn push_ranges(plans: &[DrawPlan]) -> Vec<(u32, u32)> {
    plans
        .iter()
        .flat_map(|p| [&p.vs, &p.ps])
        .flat_map(|sh| sh.reflection.push_data.iter())
        .map(|r| (r.offset, r.size))
        .collect()
}

/// Index of the pipeline a draw uses among the distinct ones.
fn pipeline_keys(plans: &[DrawPlan]) -> (Vec<usize>, Vec<usize>) {
    type Key<'a> = (
        *const Shader,
        *const Shader,
        &'a VertexInputs,
        vk::PrimitiveTopology,
        &'a PipelineState,
    );
    let mut distinct: Vec<Key> = Vec::new();
    let mut firsts = Vec::new();
    let mut of_draw = Vec::new();
    for (i, p) in plans.iter().enumerate() {
        let key: Key = (
            Rc::as_ptr(&p.vs),
            Rc::as_ptr(&p.ps),
            &p.inputs,
            p.topology,
            &p.state.pipeline,
        );
        let k = match distinct.iter().position(|d| *d == key) {
            Some(k) => k,
            None => {
                distinct.push(key);
                firsts.push(i);
                distinct.len() - 1
            }
        };
        of_draw.push(k);
    }
    (firsts, of_draw)
}

fn execute_inner(gpu: &Gpu, run: &D3d9Run, cache: &mut ShaderCache) -> Result<Outcome, String> {
    let rt0 = run
        .render_targets
        .iter()
        .find(|t| t.slot == 0)
        .ok_or("no render target in slot 0")?;
    let viewport = [0.0, 0.0, rt0.width as f32, rt0.height as f32];
    let plans = match plan(run, cache, viewport)? {
        Ok(p) => p,
        Err(outcome) => return Ok(outcome),
    };
    if let Some(why) = missing_feature(gpu, &plans) {
        return Ok(Outcome::Skipped(why));
    }

    // Bindings: every distinct shader's reflection, each stage's resources.
    let mut shaders: Vec<(&'static str, Rc<Shader>)> = Vec::new();
    for p in &plans {
        for (stage, sh) in [("vs", &p.vs), ("ps", &p.ps)] {
            if !shaders.iter().any(|(_, s)| Rc::ptr_eq(s, sh)) {
                shaders.push((stage, sh.clone()));
            }
        }
    }
    let reflections: Vec<(&'static str, &dxspv::spirv::Reflection)> =
        shaders.iter().map(|(st, s)| (*st, &s.reflection)).collect();
    // The state buffers come from run-level state (clip planes, texture stage states), the
    // same for every draw; a run changing them between draws would need one set per draw.
    let first = &plans[0].state;
    if plans
        .iter()
        .any(|p| p.state.vs_state != first.vs_state || p.state.ps_state != first.ps_state)
    {
        return Err("state buffer contents changing between draws not implemented".into());
    }
    let list = bind::resources(run, &reflections, &first.vs_state, &first.ps_state)?;
    let views: Vec<StageView> = shaders
        .iter()
        .map(|(stage, sh)| StageView {
            reflection: &sh.reflection,
            flags: if *stage == "vs" {
                vk::ShaderStageFlags::VERTEX
            } else {
                vk::ShaderStageFlags::FRAGMENT
            },
            stage,
        })
        .collect();
    // One push constant range, the contract's whole block, for both stages (the contract
    // keeps their members apart), when any shader reads push data.
    let stages = vk::ShaderStageFlags::VERTEX | vk::ShaderStageFlags::FRAGMENT;
    let used = push_ranges(&plans);
    if let Some(&(o, size)) = used
        .iter()
        .find(|&&(o, size)| o.saturating_add(size) > dxspv::sm3::options::push::SIZE)
    {
        return Err(format!(
            "push data at bytes {o}+{size}, past the contract's block"
        ));
    }
    let push_ranges: Vec<vk::PushConstantRange> = if used.is_empty() {
        Vec::new()
    } else {
        vec![vk::PushConstantRange {
            stage_flags: stages,
            offset: 0,
            size: dxspv::sm3::options::push::SIZE,
        }]
    };
    let d = &gpu.device;
    let mut s = Scratch::new(gpu);
    let res = match resources::create(&mut s, &list, &[], &views, &push_ranges)? {
        Ok(r) => r,
        Err(why) => return Ok(Outcome::Skipped(why)),
    };
    let descs = render_targets(run)?;
    let srgb = plans.iter().any(|p| p.state.pipeline.srgb_write);
    let targets = match targets::create(&mut s, &descs, srgb)? {
        Ok(t) => t,
        Err(why) => return Ok(Outcome::Skipped(why)),
    };
    let extent = vk::Extent2D {
        width: rt0.width,
        height: rt0.height,
    };
    // Attachment formats and views: linear, and (D3DRS_SRGBWRITEENABLE) the sRGB twins.
    let formats = targets::slot_formats(&targets);
    let mut srgb_formats = formats.clone();
    for t in &targets {
        if let Some((_, f)) = t.srgb_view {
            srgb_formats[t.slot as usize] = f;
        }
    }

    // Vertex buffers: one per draw, and the defaults for inputs no element feeds.
    let (defaults, ptr) = s.buffer(16)?;
    for (c, v) in mapped(ptr, 16)
        .chunks_exact_mut(4)
        .zip([0.0f32, 0.0, 0.0, 1.0])
    {
        c.copy_from_slice(&v.to_le_bytes());
    }
    let mut vertex_buffers = Vec::new();
    for p in &plans {
        let bytes = p.vertices.bytes();
        let (buf, ptr) = s.buffer(bytes.len().max(16) as u64)?;
        mapped(ptr, bytes.len()).copy_from_slice(&bytes);
        vertex_buffers.push(buf);
    }

    // Pipelines.
    let (firsts, of_draw) = pipeline_keys(&plans);
    let mut pipelines = Vec::new();
    for &i in &firsts {
        let p = &plans[i];
        pipelines.push(pipeline::create(
            &mut s,
            &PipelineDesc {
                vs: &p.vs,
                ps: &p.ps,
                inputs: &p.inputs,
                topology: p.topology,
                state: &p.state.pipeline,
                formats: if p.state.pipeline.srgb_write {
                    &srgb_formats
                } else {
                    &formats
                },
                extent,
                layout: res.layout,
            },
        )?);
    }

    let attachments = |srgb: bool| {
        let mut list = vec![
            vk::RenderingAttachmentInfo::default()
                .image_view(vk::ImageView::null())
                .load_op(vk::AttachmentLoadOp::DONT_CARE)
                .store_op(vk::AttachmentStoreOp::DONT_CARE);
            formats.len()
        ];
        for t in &targets {
            let view = match (srgb, t.srgb_view) {
                (true, Some((v, _))) => v,
                _ => t.view,
            };
            list[t.slot as usize] = vk::RenderingAttachmentInfo::default()
                .image_view(view)
                .image_layout(vk::ImageLayout::COLOR_ATTACHMENT_OPTIMAL)
                .load_op(vk::AttachmentLoadOp::LOAD)
                .store_op(vk::AttachmentStoreOp::STORE);
        }
        list
    };
    let (linear, gamma) = (attachments(false), attachments(true));
    let area = vk::Rect2D {
        offset: vk::Offset2D::default(),
        extent,
    };
    let rendering = [
        vk::RenderingInfo::default()
            .render_area(area)
            .layer_count(1)
            .color_attachments(&linear),
        vk::RenderingInfo::default()
            .render_area(area)
            .layer_count(1)
            .color_attachments(&gamma),
    ];
    let everything = (
        vk::AccessFlags::MEMORY_WRITE | vk::AccessFlags::MEMORY_READ,
        vk::PipelineStageFlags::ALL_COMMANDS,
    );
    let shader_stages =
        vk::PipelineStageFlags::VERTEX_SHADER | vk::PipelineStageFlags::FRAGMENT_SHADER;
    gpu.submit(|cb| {
        res.record_uploads(d, cb, shader_stages);
        targets::record_clears(d, cb, &targets);
        for (i, p) in plans.iter().enumerate() {
            // SAFETY: `cb` is recording; pipeline, layout, sets, buffers and views are live;
            // the layout's push range is the whole block, for both stages.
            unsafe {
                let r = &rendering[usize::from(p.state.pipeline.srgb_write)];
                d.cmd_begin_rendering(cb, r);
                d.cmd_bind_pipeline(cb, vk::PipelineBindPoint::GRAPHICS, pipelines[of_draw[i]]);
                if !res.sets.is_empty() {
                    d.cmd_bind_descriptor_sets(
                        cb,
                        vk::PipelineBindPoint::GRAPHICS,
                        res.layout,
                        0,
                        &res.sets,
                        &[],
                    );
                }
                d.cmd_bind_vertex_buffers(cb, 0, &[vertex_buffers[i], defaults], &[0, 0]);
                if !push_ranges.is_empty() {
                    d.cmd_push_constants(cb, res.layout, stages, 0, &p.state.push);
                }
                d.cmd_draw(cb, p.vertices.count, 1, 0, 0);
                d.cmd_end_rendering(cb);
            }
            memory_barrier(d, cb, everything, everything);
        }
        targets::record_readbacks(d, cb, &targets);
        memory_barrier(
            d,
            cb,
            (
                vk::AccessFlags::TRANSFER_WRITE,
                vk::PipelineStageFlags::TRANSFER,
            ),
            (vk::AccessFlags::HOST_READ, vk::PipelineStageFlags::HOST),
        );
    })?;
    for rt in &run.render_targets {
        let (Some(exp), Some(t)) = (&rt.expect, targets.iter().find(|t| t.slot == rt.slot)) else {
            continue;
        };
        if let Err(why) = expect::check(t.bytes(), t.width, t.height, exp, rt.tolerance)? {
            return Ok(Outcome::Fail(format!(
                "render target {} ({}): {why}",
                rt.slot, rt.format
            )));
        }
    }
    Ok(Outcome::Ok)
}
