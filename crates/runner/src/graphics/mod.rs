//! Graphics runs: whole Direct3D pipelines (vertex, hull, domain, geometry and pixel shaders)
//! drawn on Vulkan, with input assembly, stream output and render targets.
//!
//! A run ([`case::GraphicsRun`]) is executed as one command buffer:
//!
//! 1. The draws are walked once to find the pipeline state each one uses
//!    ([`pipeline::State`]: shaders, stream-output declaration, topology, rasterizer
//!    discard; D3D state set by a draw stays set for the later ones).
//! 2. Every shader is compiled ([`shaders::ShaderCache`]) with its stage's own descriptor
//!    sets and, for the last stage before the rasterizer, the stream-output declaration.
//! 3. Resources are created and bound for all stages (`crate::resources`), render targets
//!    ([`targets`]), vertex/index buffers ([`input`]) and stream-output buffers
//!    ([`stream_output`]) created, and one pipeline built per distinct state.
//! 4. Recording: uploads, clears, then per draw: resource updates and root constants
//!    (`vkCmdUpdateBuffer`), statistics queries, a render pass instance (dynamic rendering,
//!    attachments loaded and stored) with transform feedback around the draw when its
//!    pipeline captures outputs, and a full memory barrier; then the readbacks.
//! 5. Render targets, resources, stream-output buffers, their filled sizes and the statistics
//!    are checked against the case.
//!
//! Plain pixel-shader cases of `../shared/exec` run through the same path
//! ([`case::GraphicsRun::from_pixel_case`]).

pub mod case;
pub(crate) mod input;
pub(crate) mod pipeline;
pub mod shaders;
pub(crate) mod stream_output;
pub(crate) mod targets;

use self::case::{GraphicsCase, GraphicsRun};
use self::input::{indirect_words, topology, InputAssembly};
use self::pipeline::{Fixed, State, STAGES};
use self::shaders::{Refusal, Shader, ShaderCache};
use self::stream_output::StreamOutput;
use crate::case::RootConstants;
use crate::data::{self, Layout};
use crate::exec::{missing_requirement, Outcome};
use crate::resources::{self, memory_barrier, write_words, StageView};
use crate::scratch::{mapped, Scratch};
use crate::vk::Gpu;
use crate::Report;
use ash::vk;
use std::path::PathBuf;
use std::rc::Rc;

/// Runs every run of a graphics case.
pub fn run_case(gpu: &Gpu, case: &GraphicsCase, corpora: &[PathBuf]) -> Vec<Report> {
    let mut cache = ShaderCache::new(corpora);
    case.runs
        .iter()
        .enumerate()
        .map(|(i, (name, run))| {
            let name = match (case.has_runs, name) {
                (false, _) => case.name.clone(),
                (true, Some(n)) => format!("{}/{n}", case.name),
                (true, None) => format!("{}/{i}", case.name),
            };
            Report {
                name,
                outcome: execute(gpu, run, &mut cache),
            }
        })
        .collect()
}

/// Executes one graphics run.
pub fn execute(gpu: &Gpu, run: &GraphicsRun, cache: &mut ShaderCache) -> Outcome {
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

/// The pipeline state of each draw, as indices into the distinct states.
fn plan_states(run: &GraphicsRun) -> Result<(Vec<State>, Vec<usize>), String> {
    let mut shaders = run.shaders.clone();
    let mut so = run.stream_output.clone();
    let mut topo = run
        .topology
        .clone()
        .unwrap_or_else(|| "triangle_list".into());
    let mut discard = run.rasterizer_discard;
    let mut states: Vec<State> = Vec::new();
    let mut of_draw = Vec::new();
    for (i, d) in run.draws.iter().enumerate() {
        if let Some(s) = &d.shaders {
            shaders = s.clone();
        }
        if let Some(s) = &d.stream_output {
            so = s.clone();
        }
        if let Some(t) = &d.topology {
            topo = t.clone();
        }
        if let Some(r) = d.rasterizer_discard {
            discard = r;
        }
        if let Some(stage) = shaders.keys().find(|k| !STAGES.iter().any(|(n, _)| n == k)) {
            return Err(format!("draw {i}: unknown stage `{stage}`"));
        }
        let state = State {
            shaders: STAGES
                .iter()
                .filter_map(|(n, _)| shaders.get(*n).map(|p| (*n, p.clone())))
                .collect(),
            stream_output: so.clone(),
            topology: topology(&topo).ok_or_else(|| format!("topology `{topo}`"))?,
            rasterizer_discard: discard,
        };
        let k = match states.iter().position(|s| *s == state) {
            Some(k) => k,
            None => {
                states.push(state);
                states.len() - 1
            }
        };
        of_draw.push(k);
    }
    Ok((states, of_draw))
}

/// A device feature the states need and the device lacks.
fn missing_feature(gpu: &Gpu, states: &[State]) -> Option<&'static str> {
    let c = &gpu.caps;
    for st in states {
        let has = |s: &str| st.shaders.iter().any(|(n, _)| *n == s);
        if (has("hs") || has("ds")) && !c.tessellation_shader {
            return Some("tessellationShader");
        }
        if has("gs") && !c.geometry_shader {
            return Some("geometryShader");
        }
        if let Some(so) = &st.stream_output {
            if !c.transform_feedback {
                return Some("VK_EXT_transform_feedback");
            }
            if so.entries.iter().any(|e| e.stream != 0) && !c.geometry_streams {
                return Some("geometryStreams");
            }
            if so.rasterized_stream.is_some_and(|r| r != 0) && !c.rasterization_stream_select {
                return Some("transformFeedbackRasterizationStreamSelect");
            }
        }
    }
    None
}

/// Root constants of the run and of its draws: the run's, then each register a draw sets
/// that the run does not (so that it has a buffer to update).
fn all_root_constants(run: &GraphicsRun) -> Vec<RootConstants> {
    let mut all = run.root_constants.clone();
    for d in &run.draws {
        for rc in &d.root_constants {
            if !all
                .iter()
                .any(|a| a.space == rc.space && a.register == rc.register && a.stages == rc.stages)
            {
                all.push(rc.clone());
            }
        }
    }
    all
}

fn execute_inner(gpu: &Gpu, run: &GraphicsRun, cache: &mut ShaderCache) -> Result<Outcome, String> {
    if run.draws.is_empty() {
        return Err("graphics run without draws".into());
    }
    let (states, of_draw) = plan_states(run)?;
    if let Some(f) = missing_feature(gpu, &states) {
        return Ok(Outcome::Skipped(format!("device lacks `{f}`")));
    }
    // Each stage used anywhere in the run gets its own descriptor sets.
    let root_constants = all_root_constants(run);
    let spaces = run
        .resources
        .iter()
        .map(|r| r.space)
        .chain(root_constants.iter().map(|r| r.space))
        .max()
        .unwrap_or(0)
        + 1;
    let used: Vec<&'static str> = STAGES
        .iter()
        .map(|(n, _)| *n)
        .filter(|n| states.iter().any(|s| s.shaders.iter().any(|(m, _)| m == n)))
        .collect();
    let set_offset =
        |stage: &str| used.iter().position(|u| *u == stage).unwrap_or(0) as u32 * spaces;
    if used.len() as u32 * spaces > gpu.limits.max_bound_descriptor_sets {
        return Err(format!(
            "{} stages with {spaces} register spaces need more than {} descriptor sets",
            used.len(),
            gpu.limits.max_bound_descriptor_sets
        ));
    }
    // Compile.
    let mut compiled: Vec<Vec<(&'static str, Rc<Shader>)>> = Vec::new();
    for st in &states {
        let last = st.last_geometry_stage();
        let mut stage_shaders = Vec::new();
        for (stage, path) in &st.shaders {
            let so = if *stage == last {
                st.stream_output.as_ref()
            } else {
                None
            };
            match cache.get(path, set_offset(stage), so) {
                Ok(sh) => stage_shaders.push((*stage, sh)),
                Err(Refusal::Skip(why)) => return Ok(Outcome::Skipped(why)),
                Err(Refusal::Fail(why)) => return Ok(Outcome::Fail(why)),
            }
        }
        if !stage_shaders.iter().any(|(s, _)| *s == "vs") {
            return Err("a draw without vertex shader".into());
        }
        compiled.push(stage_shaders);
    }
    let mut views: Vec<StageView> = Vec::new();
    let mut seen: Vec<*const Shader> = Vec::new();
    let mut shader_stages = vk::PipelineStageFlags::empty();
    for (stage, sh) in compiled.iter().flatten() {
        if !sh.reflection.push_data.is_empty() {
            return Ok(Outcome::Skipped("shader uses push data".into()));
        }
        if seen.contains(&Rc::as_ptr(sh)) {
            continue;
        }
        seen.push(Rc::as_ptr(sh));
        let flags = STAGES
            .iter()
            .find(|(n, _)| n == stage)
            .map_or(vk::ShaderStageFlags::VERTEX, |(_, f)| *f);
        shader_stages |= pipeline_stage(flags);
        views.push(StageView {
            reflection: &sh.reflection,
            flags,
            stage,
        });
    }

    let d = &gpu.device;
    let mut s = Scratch::new(gpu);
    let res = match resources::create(&mut s, &run.resources, &root_constants, &views, &[])? {
        Ok(r) => r,
        Err(why) => return Ok(Outcome::Skipped(why)),
    };
    let targets = match targets::create(&mut s, &run.render_targets, false)? {
        Ok(t) => t,
        Err(why) => return Ok(Outcome::Skipped(why)),
    };
    let input = match InputAssembly::create(&mut s, run)? {
        Ok(i) => i,
        Err(why) => return Ok(Outcome::Skipped(why)),
    };
    let so = match StreamOutput::create(&mut s, run)? {
        Ok(so) => so,
        Err(why) => return Ok(Outcome::Skipped(why)),
    };
    let extent = extent_of(run, &targets);
    let layers = targets.iter().map(|t| t.layers).min().unwrap_or(1);
    let fixed = Fixed {
        run,
        input: &input,
        targets: &targets,
        extent,
        layout: res.layout,
    };
    let mut pipelines = Vec::new();
    for (st, sh) in states.iter().zip(&compiled) {
        pipelines.push(pipeline::create(&mut s, &fixed, st, sh)?);
    }

    // Indirect arguments, resource updates and root constants per draw, made before
    // recording.
    // Indexed indirect draws take the index buffer view offset as part of their first index
    // and bind the index buffer at 0: lavapipe (Mesa 22.3) ignores the bound offset for
    // vkCmdDrawIndexedIndirect. The same indices are read either way.
    let mut indirect = None;
    if run.draws.iter().any(|d| d.indirect) {
        let mut words = Vec::new();
        for (i, d) in run.draws.iter().enumerate() {
            let mut w = indirect_words(d);
            if d.indirect && d.method == "draw_indexed" {
                let skip = input
                    .offset_in_indices(index_offset_at(run, i))
                    .map_err(|e| format!("draw {i}: {e}"))?;
                w[2] = w[2]
                    .checked_add(skip)
                    .ok_or_else(|| format!("draw {i}: first index overflows"))?;
            }
            words.extend(w);
        }
        let (buf, ptr) = s.buffer(words.len() as u64 * 4)?;
        write_words(mapped(ptr, words.len() * 4), &words);
        indirect = Some(buf);
    }
    let mut updates: Vec<Vec<(vk::Buffer, Vec<u8>)>> = Vec::new();
    for (i, draw) in run.draws.iter().enumerate() {
        let mut list = Vec::new();
        for u in &draw.update {
            let (buf, size) = res
                .buffer_with_id(&run.resources, &u.id)
                .ok_or_else(|| format!("draw {i}: update of `{}`: no buffer with that id", u.id))?;
            let mut bytes = vec![0u8; size.next_multiple_of(4).max(4)];
            data::fill_initial(&mut bytes, &u.data, &Layout::BUFFER)?;
            list.push((buf, bytes));
        }
        for rc in &draw.root_constants {
            let cb = res
                .root_cbs
                .iter()
                .zip(&root_constants)
                .find(|(_, a)| {
                    a.space == rc.space && a.register == rc.register && a.stages == rc.stages
                })
                .map(|(cb, _)| cb.buf)
                .ok_or_else(|| format!("draw {i}: root constants b{}", rc.register))?;
            let mut bytes = vec![0u8; rc.values.len().max(1) * 4];
            write_words(&mut bytes, &rc.values);
            list.push((cb, bytes));
        }
        if list.iter().any(|(_, b)| b.len() > 65536) {
            return Err(format!("draw {i}: an update larger than 65536 bytes"));
        }
        updates.push(list);
    }
    let xfb = gpu.xfb.as_ref();
    if xfb.is_none()
        && (states.iter().any(|s| s.stream_output.is_some())
            || !run.expect_so_statistics.is_empty())
    {
        return Ok(Outcome::Skipped(
            "device lacks `VK_EXT_transform_feedback`".into(),
        ));
    }
    let n = targets.iter().map(|t| t.slot + 1).max().unwrap_or(0) as usize;
    let mut attachments = vec![
        vk::RenderingAttachmentInfo::default()
            .image_view(vk::ImageView::null())
            .load_op(vk::AttachmentLoadOp::DONT_CARE)
            .store_op(vk::AttachmentStoreOp::DONT_CARE);
        n
    ];
    for t in &targets {
        attachments[t.slot as usize] = vk::RenderingAttachmentInfo::default()
            .image_view(t.view)
            .image_layout(vk::ImageLayout::COLOR_ATTACHMENT_OPTIMAL)
            .load_op(vk::AttachmentLoadOp::LOAD)
            .store_op(vk::AttachmentStoreOp::STORE);
    }
    let rendering = vk::RenderingInfo::default()
        .render_area(vk::Rect2D {
            offset: vk::Offset2D::default(),
            extent,
        })
        .layer_count(layers)
        .color_attachments(&attachments);
    let everything = (
        vk::AccessFlags::MEMORY_WRITE | vk::AccessFlags::MEMORY_READ,
        vk::PipelineStageFlags::ALL_COMMANDS,
    );
    let mut failure = None;
    gpu.submit(|cb| {
        res.record_uploads(d, cb, shader_stages);
        targets::record_clears(d, cb, &targets);
        so.record_reset(d, cb);
        for (i, draw) in run.draws.iter().enumerate() {
            let st = &states[of_draw[i]];
            for (buf, bytes) in &updates[i] {
                // SAFETY: `cb` is recording outside rendering; the buffer is live, the data
                // at most 65536 bytes, a multiple of 4, within the buffer.
                unsafe { d.cmd_update_buffer(cb, *buf, 0, bytes) };
            }
            memory_barrier(d, cb, everything, everything);
            if let Some(x) = xfb {
                so.record_queries(x, cb, i, true);
            }
            // SAFETY: `cb` is recording; pipeline, layout, sets and views are live.
            unsafe {
                d.cmd_begin_rendering(cb, &rendering);
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
            }
            let index_offset = if draw.indirect && draw.method == "draw_indexed" {
                Some(0)
            } else {
                index_offset_at(run, i)
            };
            if let Err(e) = input.record_bind(d, cb, st.topology, index_offset) {
                failure.get_or_insert(format!("draw {i}: {e}"));
            }
            let streams = st.streams_out() && xfb.is_some();
            if let (true, Some(x)) = (streams, xfb) {
                so.record_begin(x, cb);
            }
            let indexed = draw.method == "draw_indexed";
            if indexed && !input.has_indices() {
                failure.get_or_insert(format!("draw {i}: indexed draw without index buffer"));
            }
            // SAFETY: `cb` is recording inside rendering with a pipeline, its resources and
            // (for indexed draws) an index buffer bound; the indirect buffer is live.
            unsafe {
                match (draw.indirect, indexed, indirect) {
                    (true, true, Some(buf)) => {
                        d.cmd_draw_indexed_indirect(cb, buf, indirect_offset(run, i), 1, 20)
                    }
                    (true, false, Some(buf)) => {
                        d.cmd_draw_indirect(cb, buf, indirect_offset(run, i), 1, 16)
                    }
                    (_, true, _) if input.has_indices() => d.cmd_draw_indexed(
                        cb,
                        draw.index_count,
                        draw.instance_count,
                        draw.start_index,
                        draw.base_vertex,
                        draw.start_instance,
                    ),
                    (_, true, _) => {}
                    _ => d.cmd_draw(
                        cb,
                        draw.vertex_count,
                        draw.instance_count,
                        draw.start_vertex,
                        draw.start_instance,
                    ),
                }
            }
            if let (true, Some(x)) = (streams, xfb) {
                so.record_end(x, cb);
            }
            // SAFETY: rendering was begun above.
            unsafe { d.cmd_end_rendering(cb) };
            if let Some(x) = xfb {
                so.record_queries(x, cb, i, false);
            }
        }
        memory_barrier(d, cb, everything, everything);
        targets::record_readbacks(d, cb, &targets);
        res.record_readbacks(d, cb, shader_stages);
    })?;
    if let Some(f) = failure {
        return Err(f);
    }
    match res.check(&run.resources)? {
        Outcome::Ok => {}
        other => return Ok(other),
    }
    match targets::check(&targets) {
        Outcome::Ok => {}
        other => return Ok(other),
    }
    if let Some(why) = so.check(d)? {
        return Ok(Outcome::Fail(why));
    }
    Ok(Outcome::Ok)
}

/// The index buffer view offset set by draw `i` or the latest draw before it that set one
/// (D3D state persists); `None`: the run's.
fn index_offset_at(run: &GraphicsRun, i: usize) -> Option<u64> {
    run.draws[..=i]
        .iter()
        .rev()
        .find_map(|d| d.index_buffer_offset)
}

/// Byte offset of draw `i`'s indirect arguments.
fn indirect_offset(run: &GraphicsRun, i: usize) -> u64 {
    run.draws[..i]
        .iter()
        .map(|d| indirect_words(d).len() as u64 * 4)
        .sum()
}

/// The pipeline stage of a shader stage.
fn pipeline_stage(f: vk::ShaderStageFlags) -> vk::PipelineStageFlags {
    match f {
        vk::ShaderStageFlags::VERTEX => vk::PipelineStageFlags::VERTEX_SHADER,
        vk::ShaderStageFlags::TESSELLATION_CONTROL => {
            vk::PipelineStageFlags::TESSELLATION_CONTROL_SHADER
        }
        vk::ShaderStageFlags::TESSELLATION_EVALUATION => {
            vk::PipelineStageFlags::TESSELLATION_EVALUATION_SHADER
        }
        vk::ShaderStageFlags::GEOMETRY => vk::PipelineStageFlags::GEOMETRY_SHADER,
        _ => vk::PipelineStageFlags::FRAGMENT_SHADER,
    }
}

/// The render area: the smallest render target, or (without targets) what the viewports
/// reach.
fn extent_of(run: &GraphicsRun, targets: &[targets::Target]) -> vk::Extent2D {
    if !targets.is_empty() {
        return vk::Extent2D {
            width: targets.iter().map(|t| t.width).min().unwrap_or(1),
            height: targets.iter().map(|t| t.height).min().unwrap_or(1),
        };
    }
    let reach = |f: fn(&crate::case::Viewport) -> f64| {
        run.viewports
            .iter()
            .flatten()
            .map(f)
            .fold(1.0f64, f64::max)
            .min(16384.0) as u32
    };
    vk::Extent2D {
        width: reach(|v| v.x + v.width),
        height: reach(|v| v.y + v.height),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draw_state_persists_and_dedups() {
        let json = serde_json::json!({
            "name": "t", "format": "dxbc", "kind": "graphics",
            "shaders": {"vs": "a", "ps": "b"},
            "topology": "triangle_list",
            "draws": [
                {"method": "draw", "vertex_count": 3, "instance_count": 1},
                {"method": "draw", "vertex_count": 3, "instance_count": 1, "topology": "point_list"},
                {"method": "draw", "vertex_count": 3, "instance_count": 1},
                {"method": "draw", "vertex_count": 3, "instance_count": 1,
                 "shaders": {"vs": "a", "gs": "c"}, "stream_output": null}
            ]
        });
        let case = GraphicsCase::from_json(json).expect("parses");
        let (states, of_draw) = plan_states(&case.runs[0].1).expect("plans");
        assert_eq!(of_draw, vec![0, 1, 1, 2]);
        assert_eq!(states[1].topology, vk::PrimitiveTopology::POINT_LIST);
        assert_eq!(states[2].last_geometry_stage(), "gs");
        assert_eq!(states[0].last_geometry_stage(), "vs");
    }

    #[test]
    fn runs_replace_case_fields_and_join_requires() {
        let json = serde_json::json!({
            "name": "t", "format": "dxbc", "kind": "graphics", "requires": ["a"],
            "shaders": {"vs": "a"}, "topology": "point_list",
            "draws": [{"method": "draw", "vertex_count": 1, "instance_count": 1}],
            "runs": [
                {"name": "x", "requires": ["b"], "topology": "line_list"},
                {"shaders": {"vs": "z"}}
            ]
        });
        let case = GraphicsCase::from_json(json).expect("parses");
        let (n0, r0) = &case.runs[0];
        assert_eq!(n0.as_deref(), Some("x"));
        assert_eq!(r0.requires, vec!["a".to_string(), "b".to_string()]);
        assert_eq!(r0.topology.as_deref(), Some("line_list"));
        assert_eq!(
            case.runs[1].1.shaders.get("vs").map(String::as_str),
            Some("z")
        );
        assert_eq!(case.runs[1].1.topology.as_deref(), Some("point_list"));
    }
}
