//! The graphics case format (`../shared/exec-stages/README.md`): whole pipelines, stream
//! output, input assembly and several draws per run, on top of the execution-case format.
//!
//! A case file is read as JSON; each run is the case's fields with the run's own fields laid
//! over them (a run may replace any field; `requires` lists are joined), then parsed into a
//! [`GraphicsRun`]. Pixel-shader cases of the plain format become graphics runs too
//! ([`GraphicsRun::from_pixel_case`]), so every draw goes through one pipeline builder.

use crate::case::{
    Case, Data, InputElement, Origin, RenderTarget, Resource, RootConstants, Run, Tolerance,
    Viewport,
};
use serde::Deserialize;
use std::collections::BTreeMap;

/// Stage name of the hand-written pass-through vertex shader in [`GraphicsRun::shaders`]: it
/// copies a `float4` at location 0 to the position (see `graphics::shaders`).
pub const PASSTHROUGH_VS: &str = "runner:pass-through-vs";

/// A graphics case: its identity and its runs, each complete.
#[derive(Clone, Debug)]
pub struct GraphicsCase {
    /// Unique case name.
    pub name: String,
    /// Where it was taken from.
    pub origin: Option<Origin>,
    /// `dxbc` or `dxil`.
    pub format: String,
    /// The runs (one when the file has no `runs`), with their names.
    pub runs: Vec<(Option<String>, GraphicsRun)>,
    /// Whether the file had `runs` (report names then name the run).
    pub has_runs: bool,
}

/// Fields every case file has, read before the runs are merged.
#[derive(Deserialize)]
struct Head {
    name: String,
    #[serde(default)]
    origin: Option<Origin>,
    format: String,
}

impl GraphicsCase {
    /// Parses a graphics case from its JSON value; errors name the run and the problem.
    pub fn from_json(value: serde_json::Value) -> Result<GraphicsCase, String> {
        let serde_json::Value::Object(mut top) = value else {
            return Err("a case file must be a JSON object".into());
        };
        let runs = top.remove("runs");
        let head: Head = serde_json::from_value(serde_json::Value::Object(top.clone()))
            .map_err(|e| format!("case fields: {e}"))?;
        let parse = |obj: serde_json::Map<String, serde_json::Value>, what: &str| {
            serde_json::from_value::<GraphicsRun>(serde_json::Value::Object(obj))
                .map_err(|e| format!("{what}: {e}"))
        };
        let mut out = Vec::new();
        let has_runs = runs.is_some();
        match runs {
            None => out.push((None, parse(top, "case")?)),
            Some(serde_json::Value::Array(list)) => {
                for (i, run) in list.into_iter().enumerate() {
                    let serde_json::Value::Object(fields) = run else {
                        return Err(format!("run {i} is not an object"));
                    };
                    let mut merged = top.clone();
                    for (k, v) in fields {
                        if k == "requires" {
                            if let Some(serde_json::Value::Array(base)) = merged.get_mut(&k) {
                                if let serde_json::Value::Array(more) = v {
                                    base.extend(more);
                                    continue;
                                }
                            }
                        }
                        merged.insert(k, v);
                    }
                    let run = parse(merged, &format!("run {i}"))?;
                    out.push((run.name.clone(), run));
                }
            }
            Some(_) => return Err("`runs` must be a list".into()),
        }
        Ok(GraphicsCase {
            name: head.name,
            origin: head.origin,
            format: head.format,
            runs: out,
            has_runs,
        })
    }
}

/// One complete graphics run: the pipeline state at the start, what is bound, the draws and
/// what to check afterwards.
#[derive(Clone, Debug, Default, Deserialize)]
pub struct GraphicsRun {
    /// Run name (inside `runs`).
    #[serde(default)]
    pub name: Option<String>,
    /// Device capabilities needed (the case's and the run's).
    #[serde(default)]
    pub requires: Vec<String>,
    /// Stage (`vs`, `hs`, `ds`, `gs`, `ps`) to corpus path.
    #[serde(default)]
    pub shaders: BTreeMap<String, String>,
    /// Stage to shader model.
    #[serde(default)]
    pub models: BTreeMap<String, String>,
    /// D3D input elements in declaration order.
    #[serde(default)]
    pub input_layout: Vec<InputElement>,
    /// Vertex buffers by slot.
    #[serde(default)]
    pub vertex_buffers: Vec<VertexBufferDesc>,
    /// The index buffer.
    #[serde(default)]
    pub index_buffer: Option<IndexBufferDesc>,
    /// `disabled`, `0xFFFF` or `0xFFFFFFFF`.
    #[serde(default)]
    pub strip_cut_value: Option<String>,
    /// Primitive topology at the start of the run.
    #[serde(default)]
    pub topology: Option<String>,
    /// Control points per patch (`patch_list`).
    #[serde(default)]
    pub control_points: Option<u32>,
    /// Rasterizer state.
    #[serde(default)]
    pub rasterizer: Rasterizer,
    /// Nothing is rasterized.
    #[serde(default)]
    pub rasterizer_discard: bool,
    /// Stream-output declaration of the last stage before the rasterizer.
    #[serde(default)]
    pub stream_output: Option<StreamOutputDesc>,
    /// Stream-output buffers by slot (`Some(vec![])`: stream output without buffers).
    #[serde(default)]
    pub so_buffers: Option<Vec<SoBuffer>>,
    /// Viewports in index order (absent: one covering the render targets).
    #[serde(default)]
    pub viewports: Option<Vec<Viewport>>,
    /// Scissor rectangles per viewport (absent: no scissor test).
    #[serde(default)]
    pub scissor_rects: Option<Vec<Rect>>,
    /// Draws in recording order.
    #[serde(default)]
    pub draws: Vec<DrawCall>,
    /// Stream-output statistics queries.
    #[serde(default)]
    pub expect_so_statistics: Vec<SoStatistics>,
    /// Root constants, bound as constant buffers.
    #[serde(default)]
    pub root_constants: Vec<RootConstants>,
    /// Resources.
    #[serde(default)]
    pub resources: Vec<Resource>,
    /// Render targets.
    #[serde(default)]
    pub render_targets: Vec<RenderTarget>,
    /// vkd3d-proton marks the check as a known failure.
    #[serde(default)]
    pub todo_in_vkd3d_proton: bool,
    /// Upstream vkd3d marks the check as a known failure.
    #[serde(default)]
    pub todo_in_vkd3d: bool,
    /// Free text.
    #[serde(default)]
    pub notes: Option<String>,
}

/// A vertex buffer bound to a slot.
#[derive(Clone, Debug, Deserialize)]
pub struct VertexBufferDesc {
    /// Input slot.
    pub slot: u32,
    /// Bytes between vertices.
    #[serde(default)]
    pub stride: u32,
    /// Buffer size (absent: the size of `data`).
    #[serde(default)]
    pub size_bytes: Option<u64>,
    /// Contents from byte 0.
    #[serde(default)]
    pub data: Option<Data>,
    /// Nothing bound to the slot (D3D11 fetches zeros).
    #[serde(default)]
    pub null: bool,
}

/// The index buffer.
#[derive(Clone, Debug, Deserialize)]
pub struct IndexBufferDesc {
    /// `R16_UINT` or `R32_UINT`.
    pub format: String,
    /// Byte offset of the view.
    #[serde(default)]
    pub offset: u64,
    /// Contents.
    pub data: Data,
}

/// Rasterizer state, in Direct3D terms.
#[derive(Clone, Debug, Default, Deserialize)]
pub struct Rasterizer {
    /// `none`, `front`, `back`.
    #[serde(default)]
    pub cull_mode: Option<String>,
    /// Counter-clockwise triangles face front.
    #[serde(default)]
    pub front_counter_clockwise: bool,
    /// Depth clipping (D3D's default: on).
    #[serde(default)]
    pub depth_clip_enable: Option<bool>,
    /// D3D11 scissor test.
    #[serde(default)]
    pub scissor_enable: bool,
}

/// A stream-output declaration.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq, Hash)]
pub struct StreamOutputDesc {
    /// Entries in declaration order.
    pub entries: Vec<SoEntry>,
    /// Byte strides per output slot.
    #[serde(default)]
    pub strides: Vec<u32>,
    /// Rasterized stream, or `null`.
    #[serde(default)]
    pub rasterized_stream: Option<u32>,
}

/// One stream-output declaration entry.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq, Hash)]
pub struct SoEntry {
    /// Geometry shader stream.
    #[serde(default)]
    pub stream: u32,
    /// Semantic name, or `null` for a gap.
    #[serde(default)]
    pub semantic: Option<String>,
    /// Semantic index.
    #[serde(default)]
    pub index: u32,
    /// First component.
    #[serde(default)]
    pub start_component: u32,
    /// Component count.
    pub component_count: u32,
    /// Output slot.
    #[serde(default)]
    pub slot: u32,
}

/// A stream-output buffer.
#[derive(Clone, Debug, Deserialize)]
pub struct SoBuffer {
    /// Output slot.
    pub slot: u32,
    /// Buffer size.
    pub size_bytes: u64,
    /// Contents at the start (absent: zeros).
    #[serde(default)]
    pub initial: Option<Data>,
    /// Byte offset of the range that receives output.
    #[serde(default)]
    pub view_offset: u64,
    /// Byte size of that range.
    pub view_size: u64,
    /// The buffer-filled-size counter.
    pub filled_size: FilledSize,
    /// Expected contents from byte 0.
    #[serde(default)]
    pub expect: Option<Data>,
    /// How `expect` compares.
    #[serde(default)]
    pub tolerance: Option<Tolerance>,
}

/// The buffer-filled-size counter of a stream-output buffer.
#[derive(Clone, Debug, Deserialize)]
pub struct FilledSize {
    /// `same_buffer`, `separate` or `hidden`.
    pub location: String,
    /// `same_buffer`: byte offset of the counter in the buffer.
    #[serde(default)]
    pub offset: Option<u64>,
    /// Bytes already written when the run starts.
    #[serde(default)]
    pub initial: u32,
    /// Its value afterwards.
    #[serde(default)]
    pub expect: Option<u32>,
}

/// A half-open scissor rectangle.
#[derive(Clone, Copy, Debug, Deserialize)]
pub struct Rect {
    /// Left.
    pub left: i32,
    /// Top.
    pub top: i32,
    /// Right (exclusive).
    pub right: i32,
    /// Bottom (exclusive).
    pub bottom: i32,
}

/// A stream-output statistics query around some draws.
#[derive(Clone, Debug, Deserialize)]
pub struct SoStatistics {
    /// Stream.
    #[serde(default)]
    pub stream: u32,
    /// `[first, last]` draw indices (inclusive; one index: that draw).
    pub draws: Vec<usize>,
    /// Primitives written.
    pub primitives_written: u64,
    /// Primitives that would have been written with enough room.
    pub primitives_storage_needed: u64,
}

/// One draw and the state it sets before drawing.
#[derive(Clone, Debug, Default, Deserialize)]
pub struct DrawCall {
    /// `draw` or `draw_indexed`.
    pub method: String,
    /// Vertices (`draw`).
    #[serde(default)]
    pub vertex_count: u32,
    /// Indices (`draw_indexed`).
    #[serde(default)]
    pub index_count: u32,
    /// Instances.
    #[serde(default)]
    pub instance_count: u32,
    /// First vertex (`draw`).
    #[serde(default)]
    pub start_vertex: u32,
    /// First index (`draw_indexed`).
    #[serde(default)]
    pub start_index: u32,
    /// Added to each index (`draw_indexed`).
    #[serde(default)]
    pub base_vertex: i32,
    /// First instance.
    #[serde(default)]
    pub start_instance: u32,
    /// Issued through an indirect argument buffer.
    #[serde(default)]
    pub indirect: bool,
    /// New primitive topology.
    #[serde(default)]
    pub topology: Option<String>,
    /// New index buffer view offset (bytes).
    #[serde(default)]
    pub index_buffer_offset: Option<u64>,
    /// New values for these root constants.
    #[serde(default)]
    pub root_constants: Vec<RootConstants>,
    /// Resources with an `id` that get new contents.
    #[serde(default)]
    pub update: Vec<Update>,
    /// The complete stage map from this draw on.
    #[serde(default)]
    pub shaders: Option<BTreeMap<String, String>>,
    /// New stream-output declaration (`null`: none).
    #[serde(default, deserialize_with = "present")]
    pub stream_output: Option<Option<StreamOutputDesc>>,
    /// New rasterizer discard.
    #[serde(default)]
    pub rasterizer_discard: Option<bool>,
}

/// `Some(value)` for a present field, even `null` (then `Some(None)`).
fn present<'de, D, T>(d: D) -> Result<Option<Option<T>>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: Deserialize<'de>,
{
    Option::<T>::deserialize(d).map(Some)
}

/// New contents for the resource with `id`.
#[derive(Clone, Debug, Deserialize)]
pub struct Update {
    /// The resource's `id`.
    pub id: String,
    /// Contents from byte 0.
    pub data: Data,
}

impl GraphicsRun {
    /// The graphics run a pixel-shader case's run describes: the case's vertex shader (or the
    /// pass-through one fed with `positions`), its pixel shader, one draw.
    pub fn from_pixel_case(case: &Case, run: &Run) -> Result<GraphicsRun, String> {
        let draw = case
            .draw
            .as_ref()
            .ok_or("pixel-shader case without `draw`")?;
        let mut shaders = BTreeMap::new();
        shaders.insert("ps".to_string(), case.shader.clone());
        let mut vertex_buffers = Vec::new();
        let mut input_layout = Vec::new();
        match (&case.vertex_shader, &draw.positions) {
            (Some(vs), _) => {
                shaders.insert("vs".to_string(), vs.clone());
                if let Some(vb) = &draw.vertex_buffer {
                    vertex_buffers.push(VertexBufferDesc {
                        slot: 0,
                        stride: vb.stride,
                        size_bytes: None,
                        data: Some(vb.data.clone()),
                        null: false,
                    });
                }
                input_layout = draw.input_layout.clone().unwrap_or_default();
            }
            (None, Some(pos)) => {
                shaders.insert("vs".to_string(), PASSTHROUGH_VS.to_string());
                let mut values = Vec::new();
                for (i, p) in pos.iter().enumerate() {
                    if p.len() != 4 {
                        return Err(format!("position {i} has {} components, not 4", p.len()));
                    }
                    for v in p {
                        let n = serde_json::Number::from_f64(*v)
                            .ok_or_else(|| format!("position {i}: {v} is not a number"))?;
                        values.push(crate::case::Value::Num(n));
                    }
                }
                vertex_buffers.push(VertexBufferDesc {
                    slot: 0,
                    stride: 16,
                    size_bytes: None,
                    data: Some(Data {
                        ty: "f32".into(),
                        data: Some(values),
                        first: None,
                        segments: None,
                        primitives: None,
                        fill: None,
                        regions: None,
                        entries: None,
                        unordered: None,
                    }),
                    null: false,
                });
                input_layout.push(InputElement {
                    semantic: "POSITION".into(),
                    index: 0,
                    format: "R32G32B32A32_FLOAT".into(),
                    slot: 0,
                    offset: 0,
                    classification: None,
                    step_rate: None,
                });
            }
            (None, None) => return Err("draw without vertex shader or positions".into()),
        }
        let viewports = case.viewport.clone().map(|v| vec![v]);
        Ok(GraphicsRun {
            name: run.name.clone(),
            requires: case.requires.iter().chain(&run.requires).cloned().collect(),
            shaders,
            input_layout,
            vertex_buffers,
            topology: Some(
                draw.topology
                    .clone()
                    .unwrap_or_else(|| "triangle_list".into()),
            ),
            rasterizer: Rasterizer {
                cull_mode: draw.cull_mode.clone(),
                front_counter_clockwise: draw.front_counter_clockwise.unwrap_or(false),
                depth_clip_enable: None,
                scissor_enable: false,
            },
            viewports,
            draws: vec![DrawCall {
                method: "draw".into(),
                vertex_count: draw.vertex_count.unwrap_or(3),
                instance_count: draw.instance_count.unwrap_or(1),
                ..DrawCall::default()
            }],
            root_constants: run.root_constants.clone(),
            resources: run.resources.clone(),
            render_targets: run.render_targets.clone(),
            todo_in_vkd3d_proton: run.todo_in_vkd3d_proton,
            notes: run.notes.clone(),
            ..GraphicsRun::default()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pixel_case(vertex_shader: Option<&str>) -> Case {
        let mut json = serde_json::json!({
            "name": "p", "shader": "dxbc/x/ps.dxbc", "format": "dxbc", "model": "5_0",
            "stage": "ps",
            "draw": {
                "topology": "triangle_list", "vertex_count": 3, "instance_count": 1,
                "positions": [[-1, 1, 0, 1], [3, 1, 0, 1], [-1, -3, 0, 1]],
                "cull_mode": "back"
            },
            "render_targets": [{"format": "R8G8B8A8_UNORM", "width": 1, "height": 1}]
        });
        if let Some(vs) = vertex_shader {
            json["vertex_shader"] = serde_json::Value::String(vs.into());
        }
        match serde_json::from_value(json) {
            Ok(c) => c,
            Err(e) => panic!("{e}"),
        }
    }

    /// A named vertex shader that takes no vertex input (it builds the triangle from
    /// SV_VertexID) is drawn as it is: no vertex buffer, no input layout.
    #[test]
    fn pixel_case_with_a_vertex_shader_without_input() {
        let case = pixel_case(Some("dxbc/x/vs.dxbc"));
        let run = GraphicsRun::from_pixel_case(&case, &case.top).expect("converts");
        assert_eq!(
            run.shaders.get("vs").map(String::as_str),
            Some("dxbc/x/vs.dxbc")
        );
        assert_eq!(
            run.shaders.get("ps").map(String::as_str),
            Some("dxbc/x/ps.dxbc")
        );
        assert!(run.vertex_buffers.is_empty());
        assert!(run.input_layout.is_empty());
        assert_eq!(run.draws.len(), 1);
        assert_eq!(run.draws[0].vertex_count, 3);
        assert_eq!(run.rasterizer.cull_mode.as_deref(), Some("back"));
    }

    /// Without a vertex shader the pass-through one draws the case's `positions`.
    #[test]
    fn pixel_case_without_a_vertex_shader() {
        let case = pixel_case(None);
        let run = GraphicsRun::from_pixel_case(&case, &case.top).expect("converts");
        assert_eq!(
            run.shaders.get("vs").map(String::as_str),
            Some(PASSTHROUGH_VS)
        );
        assert_eq!(run.vertex_buffers.len(), 1);
        assert_eq!(run.vertex_buffers[0].stride, 16);
        let data = run.vertex_buffers[0]
            .data
            .as_ref()
            .and_then(|d| d.data.as_ref());
        assert_eq!(data.map(Vec::len), Some(12));
        assert_eq!(run.input_layout[0].format, "R32G32B32A32_FLOAT");
    }
}
