//! Fixed-function stand-ins: the vertex processing and the `diffuse` pixel stage Direct3D 9
//! runs when no shader is bound, written as IR text and compiled with
//! `dxspv::compile_ir_text`, meeting translated shaders at the contract's varying locations.
//!
//! Vertex processing (identity world, view and projection transforms) reads the draw's
//! declaration elements (element `i` at input location `i`, as `vertex` uploads them):
//!
//! * `POSITION0` `(x, y, z, 1)` is the clip position; `POSITIONT0` arrives already converted
//!   to clip space by `vertex` (Direct3D 9 does not transform it).
//! * With transformed positions, `COLOR0`/`COLOR1` (saturated) and `TEXCOORD0-7` reach their
//!   varyings; with `POSITIONT0`, every other element reaches the varying of its usage and
//!   index (what a `ps_3_0` shader reads; the cases `pretransformed_varying_test_*` show it).
//! * Varyings the vertex does not provide get what Direct3D 9 gives: `COLOR0` `(1, 1, 1, 1)`,
//!   everything else `(0, 0, 0, 1)` with transformed positions and `(0, 0, 0, 0)` with
//!   pretransformed ones (the first expectation of `uninitialized_varyings_ffvp_ps2t` and of
//!   `pretransformed_varying_test_texcoord1_alpha`).
//! * The fog varying (a `vec4<f32>`, the factor in `x`) is the `FOG0` element when there is
//!   one, else the specular alpha (`D3DFOG_NONE` vertex fog: the application's fog factor),
//!   else 1 (no fog).
//! * User clip planes (transformed positions only) and the point size read the same
//!   specialization constant, state buffer and push constants as translated vertex shaders.
//!
//! The `diffuse` pixel stage writes the interpolated `COLOR0` (plus `COLOR1` with
//! `D3DRS_SPECULARENABLE`), saturated, to target 0, flat when `D3DSHADE_FLAT`, with the alpha
//! test of the contract's specialization and push constants.

use super::vertex::Vertices;
use dxspv::sm3::options::{push, spec_id, state};
use std::fmt::Write as _;

/// The varying location of a usage and index, as the contract places them.
pub(super) fn varying_location(usage: &str, index: u32) -> Option<u32> {
    Some(match (usage, index) {
        ("TEXCOORD", 0..=9) => index,
        ("COLOR", 0..=1) => 10 + index,
        ("FOG", 0) => 12,
        ("NORMAL", 0..=1) => 13 + index,
        ("TANGENT", 0) => 15,
        ("BINORMAL", 0) => 16,
        ("BLENDWEIGHT", 0) => 17,
        ("BLENDINDICES", 0) => 18,
        ("POSITION", 1..=2) => 18 + index,
        ("PSIZE", 0) => 21,
        ("DEPTH", 0) => 22,
        ("SAMPLE", 0) => 23,
        ("TEXCOORD", 10..=15) => 14 + index,
        _ => return None,
    })
}

/// Varying locations (0-29).
const LOCATIONS: u32 = 30;
/// The fog varying.
const FOG: u32 = 12;

/// IR text with numbered results: declarations before the function, code inside it.
struct Ir {
    decls: String,
    code: String,
    next: u32,
}

impl Ir {
    fn new() -> Ir {
        // %1 is the entry point, %2 the function, %3 its label.
        Ir {
            decls: String::new(),
            code: String::new(),
            next: 4,
        }
    }

    fn id(&mut self) -> u32 {
        let i = self.next;
        self.next += 1;
        i
    }

    /// Adds a declaration (or constant); returns its id.
    fn decl(&mut self, text: &str) -> u32 {
        let i = self.id();
        let _ = writeln!(self.decls, "%{i} = {text}");
        i
    }

    /// Adds an instruction; returns its id.
    fn op(&mut self, text: &str) -> u32 {
        let i = self.id();
        let _ = writeln!(self.code, "%{i} = {text}");
        i
    }

    fn f32c(&mut self, v: f32) -> u32 {
        self.decl(&format!("Constant f32 {v:?}"))
    }

    fn u32c(&mut self, v: u32) -> u32 {
        self.decl(&format!("Constant u32 {v}"))
    }

    /// Loads the four components of a `vec4<f32>` input.
    fn load4(&mut self, input: u32, idx: &[u32; 4]) -> [u32; 4] {
        idx.map(|c| self.op(&format!("InputLoad f32 %{input} %{c}")))
    }

    fn vec4(&mut self, c: [u32; 4]) -> u32 {
        self.op(&format!(
            "CompositeConstruct vec4<f32> %{} %{} %{} %{}",
            c[0], c[1], c[2], c[3]
        ))
    }

    fn saturate(&mut self, c: [u32; 4], zero: u32, one: u32) -> [u32; 4] {
        c.map(|x| self.op(&format!("FClamp f32 %{x} %{zero} %{one}")))
    }

    fn finish(self, stage: &str) -> String {
        format!(
            "%1 = EntryPoint %2 {stage}\n{}%2 = Function void\n%3 = Label None\n{}%{} = Return void null\n%{} = FunctionEnd\n",
            self.decls,
            self.code,
            self.next,
            self.next + 1
        )
    }
}

/// What the fixed-function vertex processing of a draw computes besides its varyings.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct VertexOptions {
    /// User clip planes are enabled: write the clip distances.
    pub(super) clip_planes: bool,
    /// Points are drawn: write the point size.
    pub(super) points: bool,
    /// Vertex fog (`D3DRS_FOGVERTEXMODE` as its `D3DFOGMODE` number 1-3, and
    /// `D3DRS_RANGEFOGENABLE`), when fog is on and the table mode is `NONE`.
    pub(super) fog: Option<(u32, bool)>,
}

/// The fixed-function vertex processing of a draw with `vertices`' declaration, as IR text.
/// Only what `opts` asks for reads push constants (clip planes, point size, fog range and
/// density).
pub(super) fn vertex_shader(vertices: &Vertices, opts: VertexOptions) -> Result<String, String> {
    let usage_of = |i: usize| -> (Option<&str>, u32) {
        let d = &vertices.elements[i].decl;
        (d.usage_name(), d.usage_index.unwrap_or(0))
    };
    let find = |usage: &str, index: u32| {
        (0..vertices.elements.len()).find(|&i| usage_of(i) == (Some(usage), index))
    };
    let (pos, pretransformed) = match (find("POSITIONT", 0), find("POSITION", 0)) {
        (Some(p), _) => (p, true),
        (None, Some(p)) => (p, false),
        (None, None) => {
            return Err("fixed-function vertex processing without POSITION0 or POSITIONT0".into())
        }
    };
    let mut ir = Ir::new();
    let zero = ir.f32c(0.0);
    let one = ir.f32c(1.0);
    let idx = [0, 1, 2, 3].map(|c| ir.u32c(c));
    let inputs: Vec<u32> = (0..vertices.elements.len())
        .map(|i| ir.decl(&format!("DclInput vec4<f32> %1 {i} 0 None")))
        .collect();
    let position = ir.decl("DclOutputBuiltIn vec4<f32> %1 Position 0");

    // Position.
    let p = ir.load4(inputs[pos], &idx);
    let pv = ir.vec4(p);
    ir.op(&format!("OutputStore %{position} null %{pv}"));

    // Varyings.
    let default = if pretransformed {
        ir.decl("Constant vec4<f32> 0.0 0.0 0.0 0.0")
    } else {
        ir.decl("Constant vec4<f32> 0.0 0.0 0.0 1.0")
    };
    let white = ir.decl("Constant vec4<f32> 1.0 1.0 1.0 1.0");
    for loc in (0..LOCATIONS).filter(|l| *l != FOG) {
        let source = (0..vertices.elements.len()).find(|&i| match usage_of(i) {
            (Some(u), n) if i != pos => {
                varying_location(u, n) == Some(loc)
                    && (pretransformed || u == "COLOR" || (u == "TEXCOORD" && n < 8))
            }
            _ => false,
        });
        let out = ir.decl(&format!("DclOutput vec4<f32> %1 {loc} 0 0"));
        let value = match source {
            Some(i) => {
                let mut c = ir.load4(inputs[i], &idx);
                if usage_of(i).0 == Some("COLOR") {
                    c = ir.saturate(c, zero, one);
                }
                ir.vec4(c)
            }
            None if loc == 10 => white,
            None => default,
        };
        ir.op(&format!("OutputStore %{out} null %{value}"));
    }
    let fog = ir.decl(&format!("DclOutput vec4<f32> %1 {FOG} 0 0"));
    let factor = match (opts.fog, find("FOG", 0), find("COLOR", 1)) {
        (Some((mode, range)), ..) if !pretransformed => {
            Some(vertex_fog(&mut ir, p, mode, range, zero, one))
        }
        (_, Some(i), _) if pretransformed => {
            // Every component of the element (what a ps_3_0 `dcl_fog` input reads).
            let c = ir.load4(inputs[i], &idx);
            let v = ir.vec4(c);
            ir.op(&format!("OutputStore %{fog} null %{v}"));
            None
        }
        (_, Some(i), _) => Some(ir.op(&format!("InputLoad f32 %{} %{}", inputs[i], idx[0]))),
        (_, None, Some(i)) => {
            let a = ir.op(&format!("InputLoad f32 %{} %{}", inputs[i], idx[3]));
            Some(ir.op(&format!("FClamp f32 %{a} %{zero} %{one}")))
        }
        (_, None, None) => Some(one),
    };
    if let Some(factor) = factor {
        let fog_value = ir.vec4([factor, zero, zero, zero]);
        ir.op(&format!("OutputStore %{fog} null %{fog_value}"));
    }

    // Point size: the PSIZE element, else D3DRS_POINTSIZE, clamped to the min and max.
    if opts.points {
        point_size(&mut ir, find("PSIZE", 0).map(|i| (inputs[i], idx[0])));
    }

    // User clip planes: with identity transforms world space is clip space.
    if opts.clip_planes && !pretransformed {
        clip_distances(&mut ir, p, idx, zero);
    }
    Ok(ir.finish("Vertex"))
}

/// The fog factor of D3DFOGMODE `mode` (1 `EXP`, 2 `EXP2`, 3 `LINEAR`) at the distance of
/// position `p` (components): its eye-space depth `|z|` (identity transforms), or with
/// `range` its distance from the eye; saturated.
fn vertex_fog(ir: &mut Ir, p: [u32; 4], mode: u32, range: bool, zero: u32, one: u32) -> u32 {
    let d = if range {
        let xx = ir.op(&format!("FMul f32 %{} %{}", p[0], p[0]));
        let xy = ir.op(&format!("FMad f32 %{} %{} %{xx}", p[1], p[1]));
        let xyz = ir.op(&format!("FMad f32 %{} %{} %{xy}", p[2], p[2]));
        ir.op(&format!("FSqrt f32 %{xyz}"))
    } else {
        ir.op(&format!("FAbs f32 %{}", p[2]))
    };
    let f = fog_factor(ir, d, FogMode::Fixed(mode), "Vertex");
    ir.op(&format!("FClamp f32 %{f} %{zero} %{one}"))
}

/// How the fog formula is chosen.
enum FogMode {
    /// A known `D3DFOGMODE` number (1-3).
    Fixed(u32),
    /// The `D3DRS_FOGTABLEMODE` specialization constant (0 keeps `NONE`'s factor).
    Table { spec: u32, none: u32 },
}

/// The fog factor of distance `d`: `LINEAR` `(end - d) / (end - start)`, `EXP`
/// `e^(-density d)`, `EXP2` `e^(-(density d)^2)` (not saturated).
fn fog_factor(ir: &mut Ir, d: u32, mode: FogMode, stage: &str) -> u32 {
    let start = ir.decl(&format!("DclPushData f32 %1 {} {stage}", push::FOG_START));
    let end = ir.decl(&format!("DclPushData f32 %1 {} {stage}", push::FOG_END));
    let density = ir.decl(&format!("DclPushData f32 %1 {} {stage}", push::FOG_DENSITY));
    let k = ir.f32c(-std::f32::consts::LOG2_E);
    let start = ir.op(&format!("PushDataLoad f32 %{start} null"));
    let end = ir.op(&format!("PushDataLoad f32 %{end} null"));
    let density = ir.op(&format!("PushDataLoad f32 %{density} null"));
    let span = ir.op(&format!("FSub f32 %{end} %{start}"));
    let left = ir.op(&format!("FSub f32 %{end} %{d}"));
    let linear = ir.op(&format!("FDiv f32 %{left} %{span}"));
    // e^(-x) = 2^(-x log2 e)
    let dd = ir.op(&format!("FMul f32 %{density} %{d}"));
    let e1 = ir.op(&format!("FMul f32 %{dd} %{k}"));
    let exp = ir.op(&format!("FExp2 f32 %{e1}"));
    let dd2 = ir.op(&format!("FMul f32 %{dd} %{dd}"));
    let e2 = ir.op(&format!("FMul f32 %{dd2} %{k}"));
    let exp2 = ir.op(&format!("FExp2 f32 %{e2}"));
    match mode {
        FogMode::Fixed(1) => exp,
        FogMode::Fixed(2) => exp2,
        FogMode::Fixed(_) => linear,
        FogMode::Table { spec, none } => {
            let mut f = none;
            for (m, v) in [(3u32, linear), (2, exp2), (1, exp)] {
                let k = ir.u32c(m);
                let is = ir.op(&format!("IEq bool %{spec} %{k}"));
                f = ir.op(&format!("Select f32 %{is} %{v} %{f}"));
            }
            f
        }
    }
}

/// Writes `PointSize`: the `PSIZE` element (input, component constant), else
/// `D3DRS_POINTSIZE`, clamped to `D3DRS_POINTSIZE_MIN`/`MAX`.
fn point_size(ir: &mut Ir, element: Option<(u32, u32)>) {
    let size = ir.decl(&format!("DclPushData f32 %1 {} Vertex", push::POINT_SIZE));
    let min = ir.decl(&format!(
        "DclPushData f32 %1 {} Vertex",
        push::POINT_SIZE_MIN
    ));
    let max = ir.decl(&format!(
        "DclPushData f32 %1 {} Vertex",
        push::POINT_SIZE_MAX
    ));
    let psize = ir.decl("DclOutputBuiltIn f32 %1 PointSize 0");
    let s = match element {
        Some((input, x)) => ir.op(&format!("InputLoad f32 %{input} %{x}")),
        None => ir.op(&format!("PushDataLoad f32 %{size} null")),
    };
    let lo = ir.op(&format!("PushDataLoad f32 %{min} null"));
    let hi = ir.op(&format!("PushDataLoad f32 %{max} null"));
    let s = ir.op(&format!("FMax f32 %{s} %{lo}"));
    let s = ir.op(&format!("FMin f32 %{s} %{hi}"));
    ir.op(&format!("OutputStore %{psize} null %{s}"));
}

/// Writes the six clip distances of position `p` (components) for the enabled planes (the
/// planes are rows of the state buffer, `b3`).
fn clip_distances(ir: &mut Ir, p: [u32; 4], idx: [u32; 4], zero: u32) {
    let mask = ir.decl(&format!(
        "DclSpecConstant u32 %1 {} 0",
        spec_id::CLIP_PLANE_ENABLE
    ));
    let buffer = ir.decl(&format!(
        "DclCbv vec4<f32>[{}] %1 0 {} 1",
        state::VERTEX_ROWS,
        state::REGISTER
    ));
    let dist = ir.decl("DclOutputBuiltIn f32[6] %1 ClipDistance 0");
    let zero_u = idx[0];
    let desc = ir.op(&format!("DescriptorLoad cbv %{buffer} %{zero_u}"));
    for i in 0..6u32 {
        let k = ir.u32c(i);
        let row = ir.u32c(state::CLIP_PLANES + i);
        let bit = ir.u32c(1 << i);
        let plane = ir.op(&format!("BufferLoad vec4<f32> %{desc} %{row} 16"));
        let mut acc = None;
        for c in 0..4 {
            let e = ir.op(&format!("CompositeExtract f32 %{plane} %{}", idx[c]));
            acc = Some(match acc {
                None => ir.op(&format!("FMul f32 %{} %{e}", p[c])),
                Some(a) => ir.op(&format!("FMad f32 %{} %{e} %{a}", p[c])),
            });
        }
        let d = acc.unwrap_or(zero);
        let on = ir.op(&format!("IAnd u32 %{mask} %{bit}"));
        let on = ir.op(&format!("INe bool %{on} %{zero_u}"));
        let v = ir.op(&format!("Select f32 %{on} %{d} %{zero}"));
        ir.op(&format!("OutputStore %{dist} %{k} %{v}"));
    }
}

/// The `diffuse` fixed-function pixel stage as IR text; with `fog` it blends the fog colour
/// as the contract's fog specialization and push constants say (otherwise it reads none).
pub(super) fn pixel_shader(flat: bool, specular: bool, fog: bool) -> String {
    let mut ir = Ir::new();
    let zero = ir.f32c(0.0);
    let one = ir.f32c(1.0);
    let idx = [0, 1, 2, 3].map(|c| ir.u32c(c));
    let modes = if flat { "Flat" } else { "None" };
    let diffuse = ir.decl(&format!("DclInput vec4<f32> %1 10 0 {modes}"));
    let out = ir.decl("DclOutput vec4<f32> %1 0 0 0");
    let mut c = ir.load4(diffuse, &idx);
    if specular {
        let spec = ir.decl(&format!("DclInput vec4<f32> %1 11 0 {modes}"));
        let s = ir.load4(spec, &idx);
        for i in 0..3 {
            c[i] = ir.op(&format!("FAdd f32 %{} %{}", c[i], s[i]));
        }
    }
    let mut c = ir.saturate(c, zero, one);
    if fog {
        pixel_fog(&mut ir, &mut c, zero, one);
    }

    // Alpha test: D3DCMPFUNC - 1 is the mask of passing outcomes (1 less, 2 equal, 4 greater).
    let func = ir.decl(&format!("DclSpecConstant u32 %1 {} 8", spec_id::ALPHA_FUNC));
    let reference = ir.decl(&format!("DclPushData f32 %1 {} Pixel", push::ALPHA_REF));
    let always = ir.u32c(8);
    let zero_u = idx[0];
    let enabled = ir.op(&format!("INe bool %{func} %{always}"));
    let outer_end = ir.id();
    let outer = ir.op(&format!("ScopedIf %{outer_end} %{enabled}"));
    let r = ir.op(&format!("PushDataLoad f32 %{reference} null"));
    let mut outcome = zero_u;
    for (cmp, bit) in [("FLt", 1u32), ("FEq", 2), ("FGt", 4)] {
        let k = ir.u32c(bit);
        let t = ir.op(&format!("{cmp} bool %{} %{r}", c[3]));
        let v = ir.op(&format!("Select u32 %{t} %{k} %{zero_u}"));
        outcome = ir.op(&format!("IOr u32 %{outcome} %{v}"));
    }
    let m = ir.op(&format!("ISub u32 %{func} %{}", idx[1]));
    let hit = ir.op(&format!("IAnd u32 %{m} %{outcome}"));
    let fail = ir.op(&format!("IEq bool %{hit} %{zero_u}"));
    let kill_end = ir.id();
    let kill = ir.op(&format!("ScopedIf %{kill_end} %{fail}"));
    let _ = writeln!(ir.code, "%{} = Demote", ir.next);
    ir.next += 1;
    let _ = writeln!(ir.code, "%{kill_end} = ScopedEndIf %{kill}");
    let _ = writeln!(ir.code, "%{outer_end} = ScopedEndIf %{outer}");

    let v = ir.vec4(c);
    ir.op(&format!("OutputStore %{out} null %{v}"));
    ir.finish("Pixel")
}

/// Direct3D 9's fog on the colour `c` (rgb): `lerp(fog_colour, rgb, f)` with `f` the
/// interpolated vertex fog factor (table mode `NONE`) or the table formula at the fragment's
/// depth, saturated; untouched unless `D3DRS_FOGENABLE`.
fn pixel_fog(ir: &mut Ir, c: &mut [u32; 4], zero: u32, one: u32) {
    let enable = ir.decl(&format!("DclSpecConstant u32 %1 {} 0", spec_id::FOG_ENABLE));
    let mode = ir.decl(&format!("DclSpecConstant u32 %1 {} 0", spec_id::FOG_MODE));
    let varying = ir.decl(&format!("DclInput vec4<f32> %1 {FOG} 0 None"));
    let position = ir.decl("DclInputBuiltIn vec4<f32> %1 Position None");
    let color = ir.decl(&format!(
        "DclPushData vec3<f32> %1 {} Pixel",
        push::FOG_COLOR
    ));
    let two = ir.u32c(2);
    let zero_u = ir.u32c(0);
    let vertex = ir.op(&format!("InputLoad f32 %{varying} %{zero_u}"));
    let z = ir.op(&format!("InputLoad f32 %{position} %{two}"));
    let f = fog_factor(
        ir,
        z,
        FogMode::Table {
            spec: mode,
            none: vertex,
        },
        "Pixel",
    );
    let f = ir.op(&format!("FClamp f32 %{f} %{zero} %{one}"));
    let on = ir.op(&format!("INe bool %{enable} %{zero_u}"));
    let rgb = ir.op(&format!("PushDataLoad vec3<f32> %{color} null"));
    for (i, x) in c.iter_mut().take(3).enumerate() {
        let k = ir.u32c(i as u32);
        let fc = ir.op(&format!("CompositeExtract f32 %{rgb} %{k}"));
        // lerp(fog, colour, f) = fog + f (colour - fog)
        let diff = ir.op(&format!("FSub f32 %{x} %{fc}"));
        let fogged = ir.op(&format!("FMad f32 %{f} %{diff} %{fc}"));
        *x = ir.op(&format!("Select f32 %{on} %{fogged} %{x}"));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::d3d9::case::Draw;

    fn compile(text: &str) -> dxspv::Output {
        match dxspv::compile_ir_text(text, &dxspv::Options::default()) {
            Ok(o) => o,
            Err(e) => panic!("{e}\n{text}"),
        }
    }

    fn draw(decl: serde_json::Value, vertex: serde_json::Value) -> Vertices {
        let d: Draw = serde_json::from_value(serde_json::json!({
            "primitive": "D3DPT_POINTLIST", "primitive_count": 1,
            "vertex_declaration": decl, "vertices": [vertex]
        }))
        .expect("draw");
        super::super::vertex::read(&d, [0.0, 0.0, 640.0, 480.0]).expect("vertices")
    }

    #[test]
    fn stand_ins_compile_to_valid_spirv() {
        let transformed = draw(
            serde_json::json!([
                {"type": "D3DDECLTYPE_FLOAT3", "usage": "D3DDECLUSAGE_POSITION", "usage_index": 0},
                {"type": "D3DDECLTYPE_D3DCOLOR", "usage": "D3DDECLUSAGE_COLOR", "usage_index": 1},
                {"type": "D3DDECLTYPE_FLOAT2", "usage": "D3DDECLUSAGE_TEXCOORD", "usage_index": 3}
            ]),
            serde_json::json!({"POSITION0": [0, 0, 0], "COLOR1": "0xff00ff00", "TEXCOORD3": [1, 2]}),
        );
        let all = VertexOptions {
            clip_planes: true,
            points: true,
            fog: Some((3, true)),
        };
        let vs = compile(&vertex_shader(&transformed, all).expect("vs"));
        dxspv_testkit::assert_spirv_valid("fixed-function vs", &vs.spirv);
        let locations: Vec<u32> = vs
            .reflection
            .outputs
            .iter()
            .filter_map(|o| o.location)
            .collect();
        assert_eq!(locations.len(), 30);
        assert!(vs
            .reflection
            .spec_constants
            .iter()
            .any(|s| s.spec_id == spec_id::CLIP_PLANE_ENABLE));
        // The clip planes come from the state buffer, which reflection lists with its size.
        let state_buffer = vs
            .reflection
            .resources
            .iter()
            .find(|r| r.register == state::REGISTER && r.space == 0)
            .expect("the state buffer");
        assert_eq!(state_buffer.size, Some(16 * state::VERTEX_ROWS));
        let pretransformed = draw(
            serde_json::json!([
                {"type": "D3DDECLTYPE_FLOAT4", "usage": "D3DDECLUSAGE_POSITIONT", "usage_index": 0},
                {"type": "D3DDECLTYPE_FLOAT4", "usage": "D3DDECLUSAGE_NORMAL", "usage_index": 0}
            ]),
            serde_json::json!({"POSITIONT0": [0, 0, 0, 1], "NORMAL0": [1, 2, 3, 4]}),
        );
        let vs = compile(&vertex_shader(&pretransformed, VertexOptions::default()).expect("vs"));
        assert!(vs.reflection.push_data.is_empty());
        dxspv_testkit::assert_spirv_valid("fixed-function vs (pretransformed)", &vs.spirv);
        for (flat, spec, fog) in [(false, false, false), (true, true, true)] {
            let ps = compile(&pixel_shader(flat, spec, fog));
            dxspv_testkit::assert_spirv_valid("fixed-function ps", &ps.spirv);
            assert!(ps
                .reflection
                .push_data
                .iter()
                .any(|p| p.offset == push::ALPHA_REF));
        }
    }

    #[test]
    fn no_position_is_an_error() {
        let v = draw(
            serde_json::json!([
                {"type": "D3DDECLTYPE_FLOAT3", "usage": "D3DDECLUSAGE_NORMAL", "usage_index": 0}
            ]),
            serde_json::json!({"NORMAL0": [0, 0, 1]}),
        );
        assert!(vertex_shader(&v, VertexOptions::default()).is_err());
    }

    #[test]
    fn locations_follow_the_contract() {
        assert_eq!(varying_location("TEXCOORD", 7), Some(7));
        assert_eq!(varying_location("COLOR", 1), Some(11));
        assert_eq!(varying_location("POSITION", 1), Some(19));
        assert_eq!(varying_location("TEXCOORD", 12), Some(26));
        assert_eq!(varying_location("POSITION", 0), None);
        assert_eq!(varying_location("COLOR", 2), None);
    }
}
