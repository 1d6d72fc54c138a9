//! The execution-case file format (`../shared/exec/README.md`), parsed with `serde`.
//!
//! Every documented field is represented, including the ones the runner does not execute yet
//! (pixel-shader draws, render targets), so a case file either parses completely or is reported
//! as malformed.

use serde::Deserialize;
use std::path::Path;

/// One case file.
#[derive(Clone, Debug, Deserialize)]
pub struct Case {
    /// Unique case name (also the file name).
    pub name: String,
    /// Where the case was taken from.
    #[serde(default)]
    pub origin: Option<Origin>,
    /// Shader path relative to the corpus folder.
    pub shader: String,
    /// `dxbc` or `dxil`.
    pub format: String,
    /// Shader model, e.g. `5_0`.
    pub model: String,
    /// `cs` or `ps`.
    pub stage: String,
    /// Device capabilities the case needs.
    #[serde(default)]
    pub requires: Vec<String>,
    /// The execution itself when the case has no `runs`.
    #[serde(flatten)]
    pub top: Run,
    /// ps: corpus path of the vertex shader.
    #[serde(default)]
    pub vertex_shader: Option<String>,
    /// ps: the draw.
    #[serde(default)]
    pub draw: Option<Draw>,
    /// ps: the viewport.
    #[serde(default)]
    pub viewport: Option<Viewport>,
    /// Several independent executions of the same shader.
    #[serde(default)]
    pub runs: Option<Vec<Run>>,
}

impl Case {
    /// Reads and parses a case file; errors name the file and the JSON problem.
    pub fn load(path: &Path) -> Result<Case, String> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        serde_json::from_str(&text).map_err(|e| format!("bad case file {}: {e}", path.display()))
    }

    /// The runs to execute: `runs` when present, else the top-level fields as one run.
    pub fn runs(&self) -> Vec<&Run> {
        match &self.runs {
            Some(runs) => runs.iter().collect(),
            None => vec![&self.top],
        }
    }
}

/// Provenance of a case.
#[derive(Clone, Debug, Deserialize)]
pub struct Origin {
    /// Source repository.
    #[serde(default)]
    pub repo: Option<String>,
    /// Commit read.
    #[serde(default)]
    pub commit: Option<String>,
    /// Snapshot actually read, when it differs.
    #[serde(default)]
    pub fetched_from: Option<String>,
    /// Test source file.
    #[serde(default)]
    pub file: Option<String>,
    /// Test function.
    #[serde(default)]
    pub function: Option<String>,
    /// 1-based line of the test function.
    #[serde(default)]
    pub line: Option<u64>,
}

/// One execution: dispatch or draw, resources and expectations.
#[derive(Clone, Debug, Default, Deserialize)]
pub struct Run {
    /// Run name (inside `runs`).
    #[serde(default)]
    pub name: Option<String>,
    /// Extra requirements of this run.
    #[serde(default)]
    pub requires: Vec<String>,
    /// cs: thread-group counts.
    #[serde(default)]
    pub dispatch: Option<Dispatch>,
    /// Root constants, bound as constant buffers.
    #[serde(default)]
    pub root_constants: Vec<RootConstants>,
    /// Resources.
    #[serde(default)]
    pub resources: Vec<Resource>,
    /// ps: render targets.
    #[serde(default)]
    pub render_targets: Vec<RenderTarget>,
    /// The original marks this check as a known vkd3d-proton failure.
    #[serde(default)]
    pub todo_in_vkd3d_proton: bool,
    /// Free text.
    #[serde(default)]
    pub notes: Option<String>,
}

/// One `[x, y, z]` dispatch or several recorded back to back.
#[derive(Clone, Debug, Deserialize)]
#[serde(untagged)]
pub enum Dispatch {
    /// A single dispatch.
    One([u32; 3]),
    /// Several dispatches with no barrier in between.
    Many(Vec<[u32; 3]>),
}

impl Dispatch {
    /// The dispatches in order.
    pub fn list(&self) -> Vec<[u32; 3]> {
        match self {
            Dispatch::One(d) => vec![*d],
            Dispatch::Many(v) => v.clone(),
        }
    }
}

/// 32-bit root constants bound as constant buffer `b<register>` in `space`.
#[derive(Clone, Debug, Deserialize)]
pub struct RootConstants {
    /// Register space.
    pub space: u32,
    /// Register.
    pub register: u32,
    /// The u32 words.
    pub values: Vec<u32>,
    /// Graphics: the stages (`vs`, `hs`, `ds`, `gs`, `ps`) that see them; absent: all.
    #[serde(default)]
    pub stages: Option<Vec<String>>,
}

/// One resource of a run.
#[derive(Clone, Debug, Default, Deserialize)]
pub struct Resource {
    /// `uav`, `srv`, `cbv` or `sampler`.
    pub kind: String,
    /// Register space.
    #[serde(default)]
    pub space: u32,
    /// Register.
    #[serde(default)]
    pub register: u32,
    /// `table` (default), `root_descriptor` or `static`.
    #[serde(default)]
    pub binding: Option<String>,
    /// View type (`raw_buffer`, `texture2d`, ...).
    #[serde(default)]
    pub view: Option<String>,
    /// DXGI format name without prefix.
    #[serde(default)]
    pub format: Option<String>,
    /// Structure stride in bytes.
    #[serde(default)]
    pub stride: Option<u32>,
    /// Byte size of a buffer resource.
    #[serde(default)]
    pub size_bytes: Option<u64>,
    /// First view element.
    #[serde(default)]
    pub first_element: Option<u64>,
    /// View element count.
    #[serde(default)]
    pub elements: Option<u64>,
    /// Texture width.
    #[serde(default)]
    pub width: Option<u32>,
    /// Texture height.
    #[serde(default)]
    pub height: Option<u32>,
    /// Texture depth.
    #[serde(default)]
    pub depth: Option<u32>,
    /// Texture array size.
    #[serde(default)]
    pub array_size: Option<u32>,
    /// Mip levels.
    #[serde(default)]
    pub mip_levels: Option<u32>,
    /// Sample count.
    #[serde(default)]
    pub sample_count: Option<u32>,
    /// Sampler state.
    #[serde(default)]
    pub sampler: Option<SamplerDesc>,
    /// Bind a null descriptor.
    #[serde(default)]
    pub null: bool,
    /// Identifier other resources may alias.
    #[serde(default)]
    pub id: Option<String>,
    /// Another view of the memory of the resource with this `id`.
    #[serde(default)]
    pub alias_of: Option<String>,
    /// Graphics: the stages (`vs`, `hs`, `ds`, `gs`, `ps`) that see it; absent: all.
    #[serde(default)]
    pub stages: Option<Vec<String>>,
    /// Initial contents.
    #[serde(default)]
    pub initial: Option<Data>,
    /// Initial contents as bytes (textures: subresources tightly packed in their order),
    /// for resources a harness builds itself (never read from a case file); used instead of
    /// `initial`.
    #[serde(skip)]
    pub bytes: Option<Vec<u8>>,
    /// Initial UAV counter value.
    #[serde(default)]
    pub counter: Option<u32>,
    /// Expected UAV counter value.
    #[serde(default)]
    pub expect_counter: Option<u32>,
    /// Expected contents.
    #[serde(default)]
    pub expect: Option<Data>,
    /// How `expect` compares.
    #[serde(default)]
    pub tolerance: Option<Tolerance>,
    /// Free text.
    #[serde(default)]
    pub notes: Option<String>,
}

/// True when a binding with this `stages` list is visible to `stage` (absent: all stages).
pub fn visible_to(stages: &Option<Vec<String>>, stage: &str) -> bool {
    stages
        .as_ref()
        .is_none_or(|l| l.iter().any(|s| s.eq_ignore_ascii_case(stage)))
}

/// Sampler state.
#[derive(Clone, Debug, Default, Deserialize)]
pub struct SamplerDesc {
    /// D3D12 filter name without prefix.
    #[serde(default)]
    pub filter: Option<String>,
    /// U address mode.
    #[serde(default)]
    pub address_u: Option<String>,
    /// V address mode.
    #[serde(default)]
    pub address_v: Option<String>,
    /// W address mode.
    #[serde(default)]
    pub address_w: Option<String>,
    /// RGBA border colour of `BORDER` addressing (absent: transparent black).
    #[serde(default)]
    pub border_color: Option<[f64; 4]>,
    /// Added to the computed level of detail.
    #[serde(default)]
    pub mip_lod_bias: Option<f64>,
    /// Smallest level of detail (absent: 0).
    #[serde(default)]
    pub min_lod: Option<f64>,
    /// Largest level of detail (absent: unclamped).
    #[serde(default)]
    pub max_lod: Option<f64>,
}

/// A number in a data list: a JSON number or a `"0x..."` bit pattern.
#[derive(Clone, Debug, Deserialize)]
#[serde(untagged)]
pub enum Value {
    /// A JSON number.
    Num(serde_json::Number),
    /// A hexadecimal bit pattern.
    Str(String),
}

/// A scalar or one value per element of a texel.
#[derive(Clone, Debug, Deserialize)]
#[serde(untagged)]
pub enum Texel {
    /// One value (one-element texels, or every element).
    Scalar(Value),
    /// One value per element of the texel.
    List(Vec<Value>),
}

/// Initial or expected contents: `type` plus one of the forms.
#[derive(Clone, Debug, Deserialize)]
pub struct Data {
    /// Element type: `u8`, `i8`, `u16`, `i16`, `u32`, `i32`, `u64`, `f32` (absent only for
    /// `segments`, whose parts carry their own).
    #[serde(rename = "type", default)]
    pub ty: String,
    /// Consecutive elements from element `first` (default 0).
    #[serde(default)]
    pub data: Option<Vec<Value>>,
    /// `expect` `data`: the element index of `data[0]`.
    #[serde(default)]
    pub first: Option<u64>,
    /// `initial`: blocks of elements of their own types, one after another from byte 0.
    #[serde(default)]
    pub segments: Option<Vec<Data>>,
    /// `expect`: primitives compared up to a rotation of their vertices.
    #[serde(default)]
    pub primitives: Option<Primitives>,
    /// Every element.
    #[serde(default)]
    pub fill: Option<Texel>,
    /// Texture rectangles.
    #[serde(default)]
    pub regions: Option<Vec<Region>>,
    /// Individual elements.
    #[serde(default)]
    pub entries: Option<Vec<Entry>>,
    /// An order-independent range.
    #[serde(default)]
    pub unordered: Option<Unordered>,
}

/// Primitives stored one after another, each compared with its expected vertices up to a
/// rotation (`match: "cyclic"`: any vertex may come first, the cyclic order is kept).
#[derive(Clone, Debug, Deserialize)]
pub struct Primitives {
    /// Element index of the first primitive.
    #[serde(default)]
    pub first: u64,
    /// Vertices per primitive.
    pub vertices: u32,
    /// Elements per vertex.
    pub elements_per_vertex: u32,
    /// How primitives match; only `cyclic` is defined.
    #[serde(rename = "match")]
    pub match_: String,
    /// Per primitive, per vertex, the elements.
    pub values: Vec<Vec<Vec<Value>>>,
}

/// A half-open texel rectangle with its value.
#[derive(Clone, Debug, Deserialize)]
pub struct Region {
    /// `[x0, x1)`.
    pub x: [u32; 2],
    /// `[y0, y1)`.
    pub y: [u32; 2],
    /// Array layer (default 0).
    #[serde(default)]
    pub layer: u32,
    /// The texel value.
    pub value: Texel,
}

/// One checked element.
#[derive(Clone, Debug, Deserialize)]
pub struct Entry {
    /// Element index from byte 0.
    #[serde(default)]
    pub index: Option<u64>,
    /// Texel x.
    #[serde(default)]
    pub x: Option<u32>,
    /// Texel y.
    #[serde(default)]
    pub y: Option<u32>,
    /// Array layer of a texel (default 0).
    #[serde(default)]
    pub layer: u32,
    /// The expected value.
    #[serde(default)]
    pub value: Option<Texel>,
    /// Any one of these values.
    #[serde(default)]
    pub any_of: Option<Vec<Value>>,
    /// `"f16"`: the low 16 bits must be an fp16 NaN.
    #[serde(default)]
    pub nan: Option<String>,
}

/// Elements `first .. first+count` (in records of `record` elements), compared as a multiset.
#[derive(Clone, Debug, Deserialize)]
pub struct Unordered {
    /// First element (first record when `record` is given).
    pub first: u64,
    /// Element (record) count.
    pub count: u64,
    /// Elements per record (default 1): whole records are matched.
    #[serde(default)]
    pub record: Option<u64>,
    /// The values, in any order.
    pub values: Vec<Value>,
}

/// How expected values compare.
#[derive(Clone, Debug, Default, Deserialize)]
pub struct Tolerance {
    /// Float ULP distance (`compare_float`).
    #[serde(default)]
    pub ulp: Option<u32>,
    /// Integer difference.
    #[serde(default)]
    pub abs: Option<u64>,
    /// Per-byte difference of 32-bit elements.
    #[serde(default)]
    pub per_byte: Option<u32>,
}

/// ps: the draw.
#[derive(Clone, Debug, Deserialize)]
pub struct Draw {
    /// `triangle_list` or `triangle_strip`.
    #[serde(default)]
    pub topology: Option<String>,
    /// Vertex count.
    #[serde(default)]
    pub vertex_count: Option<u32>,
    /// Instance count.
    #[serde(default)]
    pub instance_count: Option<u32>,
    /// Clip-space positions per vertex.
    #[serde(default)]
    pub positions: Option<Vec<Vec<f64>>>,
    /// Vertex buffer.
    #[serde(default)]
    pub vertex_buffer: Option<VertexBuffer>,
    /// Input layout.
    #[serde(default)]
    pub input_layout: Option<Vec<InputElement>>,
    /// What the vertex shader consumed and produced.
    #[serde(default)]
    pub vertex_shader_semantics: Option<String>,
    /// `none`, `back`, `front`.
    #[serde(default)]
    pub cull_mode: Option<String>,
    /// Direct3D front-face winding.
    #[serde(default)]
    pub front_counter_clockwise: Option<bool>,
}

/// A vertex buffer.
#[derive(Clone, Debug, Deserialize)]
pub struct VertexBuffer {
    /// Vertex stride in bytes.
    pub stride: u32,
    /// Contents.
    pub data: Data,
}

/// One input-layout element.
#[derive(Clone, Debug, Deserialize)]
pub struct InputElement {
    /// Semantic name.
    pub semantic: String,
    /// Semantic index.
    #[serde(default)]
    pub index: u32,
    /// DXGI format.
    pub format: String,
    /// Vertex buffer slot.
    #[serde(default)]
    pub slot: u32,
    /// Byte offset.
    #[serde(default)]
    pub offset: u32,
    /// `per_vertex` (default) or `per_instance`.
    #[serde(default)]
    pub classification: Option<String>,
    /// Per-instance data: instances per element (0: every instance reads the start instance's).
    #[serde(default)]
    pub step_rate: Option<u32>,
}

/// ps: viewport.
#[derive(Clone, Debug, Deserialize)]
pub struct Viewport {
    /// X.
    pub x: f64,
    /// Y.
    pub y: f64,
    /// Width.
    pub width: f64,
    /// Height.
    pub height: f64,
    /// Min depth.
    #[serde(default)]
    pub min_depth: f64,
    /// Max depth.
    #[serde(default)]
    pub max_depth: f64,
}

/// ps: one render target.
#[derive(Clone, Debug, Deserialize)]
pub struct RenderTarget {
    /// Slot.
    #[serde(default)]
    pub slot: u32,
    /// DXGI format.
    pub format: String,
    /// Width.
    pub width: u32,
    /// Height.
    pub height: u32,
    /// Graphics: a 2D array target of this many layers (a view over all of them).
    #[serde(default)]
    pub array_size: Option<u32>,
    /// RGBA clear value, or `null`.
    #[serde(default)]
    pub clear: Option<Vec<f64>>,
    /// Expected contents, or `null`.
    #[serde(default)]
    pub expect: Option<Data>,
    /// Comparison tolerance.
    #[serde(default)]
    pub tolerance: Option<Tolerance>,
}
