//! The Direct3D 9 case format (`../shared/exec-d3d9/README.md`), parsed with `serde`.
//!
//! A case file is read as JSON; each run is the case's fields with the run's own fields
//! laid over them (a run's field replaces the case's field of the same name), then parsed
//! into a [`D3d9Run`]. Values Direct3D spells as names (render states, formats, usages) stay
//! strings here; `state`, `vertex` and `texture` interpret them.

use crate::case::{Data, Origin};
use serde::Deserialize;
use std::collections::BTreeMap;

/// A Direct3D 9 case: its identity and its runs, each complete.
#[derive(Clone, Debug)]
pub struct D3d9Case {
    /// Unique case name.
    pub name: String,
    /// Where it was taken from.
    pub origin: Option<Origin>,
    /// The runs (one when the file has no `runs`), with their names.
    pub runs: Vec<(Option<String>, D3d9Run)>,
    /// Whether the file had `runs` (report names then name the run).
    pub has_runs: bool,
}

/// Fields every case file has, read before the runs are merged.
#[derive(Deserialize)]
struct Head {
    name: String,
    #[serde(default)]
    origin: Option<Origin>,
}

impl D3d9Case {
    /// Parses a case from its JSON value; errors name the run and the problem.
    pub fn from_json(value: serde_json::Value) -> Result<D3d9Case, String> {
        let serde_json::Value::Object(mut top) = value else {
            return Err("a case file must be a JSON object".into());
        };
        let runs = top.remove("runs");
        let head: Head = serde_json::from_value(serde_json::Value::Object(top.clone()))
            .map_err(|e| format!("case fields: {e}"))?;
        let parse = |obj: serde_json::Map<String, serde_json::Value>, what: &str| {
            serde_json::from_value::<D3d9Run>(serde_json::Value::Object(obj))
                .map_err(|e| format!("{what}: {e}"))
        };
        let has_runs = runs.is_some();
        let mut out = Vec::new();
        match runs {
            None => out.push((None, parse(top, "case")?)),
            Some(serde_json::Value::Array(list)) => {
                for (i, run) in list.into_iter().enumerate() {
                    let serde_json::Value::Object(fields) = run else {
                        return Err(format!("run {i} is not an object"));
                    };
                    let mut merged = top.clone();
                    merged.extend(fields);
                    let run = parse(merged, &format!("run {i}"))?;
                    out.push((run.name.clone(), run));
                }
            }
            Some(_) => return Err("`runs` must be a list".into()),
        }
        Ok(D3d9Case {
            name: head.name,
            origin: head.origin,
            runs: out,
            has_runs,
        })
    }
}

/// One complete run: the shaders, the application state, the draws and the checks.
#[derive(Clone, Debug, Default, Deserialize)]
pub struct D3d9Run {
    /// Run name (inside `runs`).
    #[serde(default)]
    pub name: Option<String>,
    /// Corpus path of the shader under test.
    pub shader: String,
    /// `1_1` ... `3_0`.
    #[serde(default)]
    pub model: String,
    /// `vs` or `ps`: the stage of `shader`.
    pub stage: String,
    /// `d3d9`, or `d3d8` (vertex declarations bind registers `v#`).
    #[serde(default)]
    pub api: Option<String>,
    /// Device capabilities the run needs.
    #[serde(default)]
    pub requires: Vec<String>,
    /// (`ps` cases) the vertex shader; absent: fixed-function vertex processing.
    #[serde(default)]
    pub vertex_shader: Option<String>,
    /// (`vs` cases) the pixel shader; absent: `fixed_function_ps`.
    #[serde(default)]
    pub pixel_shader: Option<String>,
    /// (`vs` cases without a pixel shader) the fixed-function pixel stage: `diffuse`.
    #[serde(default)]
    pub fixed_function_ps: Option<String>,
    /// Shader constants the application set, per stage.
    #[serde(default)]
    pub constants: Constants,
    /// `D3DRS_*` name to value, set before the first draw.
    #[serde(default)]
    pub render_states: BTreeMap<String, serde_json::Value>,
    /// Texture stage to `D3DTSS_*` name to value.
    #[serde(default)]
    pub texture_stage_states: BTreeMap<String, BTreeMap<String, serde_json::Value>>,
    /// Textures per sampler.
    #[serde(default)]
    pub textures: Vec<Texture>,
    /// User clip planes as `SetClipPlane` got them.
    #[serde(default)]
    pub clip_planes: Vec<ClipPlane>,
    /// The draw (when there is one).
    #[serde(default)]
    pub draw: Option<Draw>,
    /// Draws recorded in order with no clear between.
    #[serde(default)]
    pub draws: Option<Vec<Draw>>,
    /// Render targets and their expectations.
    #[serde(default)]
    pub render_targets: Vec<RenderTarget>,
    /// Free text.
    #[serde(default)]
    pub notes: Option<String>,
}

impl D3d9Run {
    /// The draws in recording order (`draw`, then `draws`).
    pub fn draw_list(&self) -> Vec<&Draw> {
        self.draw
            .iter()
            .chain(self.draws.iter().flatten())
            .collect()
    }

    /// Whether vertex declarations bind registers (`api` `d3d8`).
    pub fn is_d3d8(&self) -> bool {
        self.api.as_deref() == Some("d3d8")
    }
}

/// Constants per stage.
#[derive(Clone, Debug, Default, Deserialize)]
pub struct Constants {
    /// Vertex shader constants.
    #[serde(default)]
    pub vs: StageConstants,
    /// Pixel shader constants.
    #[serde(default)]
    pub ps: StageConstants,
}

/// One stage's constants by file.
#[derive(Clone, Debug, Default, Deserialize)]
pub struct StageConstants {
    /// `SetShaderConstantF` calls.
    #[serde(default)]
    pub float: Vec<ConstantRange>,
    /// `SetShaderConstantI` calls.
    #[serde(default)]
    pub int: Vec<ConstantRange>,
    /// `SetShaderConstantB` calls.
    #[serde(default)]
    pub bool: Vec<ConstantRange>,
}

/// Values from register `register` on: four per float or int register, one per bool.
#[derive(Clone, Debug, Deserialize)]
pub struct ConstantRange {
    /// First register.
    pub register: u32,
    /// The values (numbers; booleans for bool registers may be `true`/`false`).
    pub values: Vec<serde_json::Value>,
}

/// A texture bound to a sampler, with the sampler's state.
#[derive(Clone, Debug, Default, Deserialize)]
pub struct Texture {
    /// Sampler number as the shader sees it.
    pub sampler: u32,
    /// `ps`, or `vs` for `D3DVERTEXTEXTURESAMPLERn`.
    #[serde(default)]
    pub stage: Option<String>,
    /// `2d`, `cube` or `volume`.
    #[serde(rename = "type", default)]
    pub ty: Option<String>,
    /// `D3DFMT_*` name.
    #[serde(default)]
    pub format: Option<String>,
    /// Width of level 0.
    #[serde(default)]
    pub width: Option<u32>,
    /// Height of level 0.
    #[serde(default)]
    pub height: Option<u32>,
    /// Depth of level 0 (volumes).
    #[serde(default)]
    pub depth: Option<u32>,
    /// Mip levels.
    #[serde(default)]
    pub levels: Option<u32>,
    /// Texels: level by level (cube: face by face), rows from (0, 0).
    #[serde(default)]
    pub data: Option<Data>,
    /// `D3DSAMP_*` name to value.
    #[serde(default)]
    pub sampler_states: BTreeMap<String, serde_json::Value>,
    /// Nothing bound to the sampler.
    #[serde(default)]
    pub null: bool,
}

impl Texture {
    /// Whether the texture is bound to a vertex texture sampler.
    pub fn is_vertex(&self) -> bool {
        self.stage.as_deref() == Some("vs")
    }
}

/// A user clip plane.
#[derive(Clone, Debug, Deserialize)]
pub struct ClipPlane {
    /// Plane index 0-5.
    pub index: u32,
    /// `(a, b, c, d)`: points with `a x + b y + c z + d w >= 0` are kept.
    pub plane: [f64; 4],
}

/// One draw.
#[derive(Clone, Debug, Default, Deserialize)]
pub struct Draw {
    /// `D3DPT_*`.
    pub primitive: String,
    /// Primitives drawn.
    pub primitive_count: u32,
    /// The FVF the test set (informational).
    #[serde(default)]
    pub fvf: Option<String>,
    /// The vertex declaration.
    #[serde(default)]
    pub vertex_declaration: Vec<DeclElement>,
    /// Per vertex, element key (`POSITION0`, `v3`) to value.
    #[serde(default)]
    pub vertices: Vec<BTreeMap<String, serde_json::Value>>,
    /// Render states set before this draw (they stay set for later draws).
    #[serde(default)]
    pub render_states: BTreeMap<String, serde_json::Value>,
    /// Free text.
    #[serde(default)]
    pub notes: Option<String>,
}

/// One vertex declaration element.
#[derive(Clone, Debug, Default, Deserialize)]
pub struct DeclElement {
    /// Stream.
    #[serde(default)]
    pub stream: u32,
    /// Byte offset in the stream.
    #[serde(default)]
    pub offset: u32,
    /// `D3DDECLTYPE_*` or `D3DVSDT_*`.
    #[serde(rename = "type")]
    pub ty: String,
    /// `D3DDECLUSAGE_*` (D3D9).
    #[serde(default)]
    pub usage: Option<String>,
    /// Usage index (D3D9).
    #[serde(default)]
    pub usage_index: Option<u32>,
    /// Input register `v#` (D3D8).
    #[serde(default)]
    pub register: Option<u32>,
}

impl DeclElement {
    /// The usage name without its prefix (`POSITION`, `TEXCOORD`), if any.
    pub fn usage_name(&self) -> Option<&str> {
        self.usage
            .as_deref()
            .map(|u| u.strip_prefix("D3DDECLUSAGE_").unwrap_or(u))
    }

    /// The key of this element in a vertex: `<USAGE><index>` or `v<register>`.
    pub fn key(&self) -> Result<String, String> {
        match (self.usage_name(), self.register) {
            (Some(u), _) => Ok(format!("{u}{}", self.usage_index.unwrap_or(0))),
            (None, Some(r)) => Ok(format!("v{r}")),
            (None, None) => Err(format!(
                "declaration element {} at offset {} has neither usage nor register",
                self.ty, self.offset
            )),
        }
    }
}

/// A render target.
#[derive(Clone, Debug, Deserialize)]
pub struct RenderTarget {
    /// Slot.
    #[serde(default)]
    pub slot: u32,
    /// `D3DFMT_*`.
    pub format: String,
    /// Width.
    pub width: u32,
    /// Height.
    pub height: u32,
    /// `"0xAARRGGBB"`, or `null` (not cleared).
    #[serde(default)]
    pub clear: Option<String>,
    /// What it must hold afterwards.
    #[serde(default)]
    pub expect: Option<Expect>,
    /// How values compare.
    #[serde(default)]
    pub tolerance: Option<Tolerance>,
}

/// Expected texels.
#[derive(Clone, Debug, Deserialize)]
pub struct Expect {
    /// `d3dcolor`.
    #[serde(rename = "type")]
    pub ty: String,
    /// Compared bits (`"0x00ffffff"`); absent: all.
    #[serde(default)]
    pub mask: Option<String>,
    /// The checked texels.
    #[serde(default)]
    pub entries: Vec<ExpectEntry>,
}

/// One checked texel.
#[derive(Clone, Debug, Deserialize)]
pub struct ExpectEntry {
    /// Column.
    pub x: u32,
    /// Row.
    pub y: u32,
    /// `"0xAARRGGBB"`.
    #[serde(default)]
    pub value: Option<String>,
    /// Accepted values, the test's expectation first.
    #[serde(default)]
    pub any_of: Option<Vec<Accepted>>,
    /// Replaces the target's tolerance.
    #[serde(default)]
    pub tolerance: Option<Tolerance>,
    /// Replaces the target's mask.
    #[serde(default)]
    pub mask: Option<String>,
}

/// One accepted value: a colour, or a colour with its own mask.
#[derive(Clone, Debug, Deserialize)]
#[serde(untagged)]
pub enum Accepted {
    /// `"0xAARRGGBB"`.
    Value(String),
    /// A colour compared under its own mask.
    Masked {
        /// `"0xAARRGGBB"`.
        value: String,
        /// Compared bits.
        mask: String,
    },
}

/// How colours compare.
#[derive(Clone, Copy, Debug, Default, Deserialize)]
pub struct Tolerance {
    /// Largest difference per byte.
    #[serde(default)]
    pub per_byte: Option<u32>,
}

/// Parses `"0x..."` (or a plain number) as a 32-bit value.
pub fn hex32(s: &str) -> Result<u32, String> {
    let t = s.trim();
    let r = match t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        Some(h) => u32::from_str_radix(h, 16),
        None => t.parse::<u32>(),
    };
    r.map_err(|_| format!("`{s}` is not a 32-bit value"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_replace_case_fields() {
        let json = serde_json::json!({
            "name": "c", "shader": "a.d3d9", "format": "d3d9", "model": "2_0", "stage": "vs",
            "render_states": {"D3DRS_LIGHTING": false},
            "draw": {"primitive": "D3DPT_TRIANGLESTRIP", "primitive_count": 2},
            "runs": [
                {"name": "one", "render_states": {"D3DRS_CULLMODE": "D3DCULL_NONE"}},
                {"constants": {"vs": {"float": [{"register": 1, "values": [1, 2, 3, 4]}]}}}
            ]
        });
        let case = D3d9Case::from_json(json).expect("parses");
        assert!(case.has_runs);
        let (n0, r0) = &case.runs[0];
        assert_eq!(n0.as_deref(), Some("one"));
        // Replaced, not merged.
        assert!(!r0.render_states.contains_key("D3DRS_LIGHTING"));
        assert!(r0.render_states.contains_key("D3DRS_CULLMODE"));
        let r1 = &case.runs[1].1;
        assert!(r1.render_states.contains_key("D3DRS_LIGHTING"));
        assert_eq!(r1.constants.vs.float[0].register, 1);
        assert_eq!(r1.draw_list().len(), 1);
    }

    #[test]
    fn element_keys_and_values() {
        let e = DeclElement {
            ty: "D3DDECLTYPE_FLOAT2".into(),
            usage: Some("D3DDECLUSAGE_TEXCOORD".into()),
            usage_index: Some(3),
            ..DeclElement::default()
        };
        assert_eq!(e.key(), Ok("TEXCOORD3".to_string()));
        let d8 = DeclElement {
            ty: "D3DVSDT_FLOAT3".into(),
            register: Some(5),
            ..DeclElement::default()
        };
        assert_eq!(d8.key(), Ok("v5".to_string()));
        assert_eq!(hex32("0xff00ff00"), Ok(0xff00_ff00));
        assert!(hex32("0x1ff00ff00").is_err());
        let a: Vec<Accepted> = serde_json::from_value(serde_json::json!(
            ["0x00ffffff", {"value": "0x007f0000", "mask": "0x00ff0000"}]
        ))
        .expect("parses");
        assert!(matches!(&a[1], Accepted::Masked { mask, .. } if mask == "0x00ff0000"));
    }
}
