//! Application state: render states, texture stage states and clip planes turned into what
//! the translated shaders and the Vulkan pipeline read.
//!
//! The D3D9 frontend's contract (`dxspv::sm3::options`) splits the state four ways:
//! compile-time options (flat shading here), specialization constants set per pipeline
//! (alpha function, fog enable and mode, clip-plane enable mask, point sprites, projected
//! texture stages), one small push constant block pushed per draw (point sizes, alpha
//! reference, fog colour and range) and a state buffer per stage (`b3`: the vertex shader's
//! clip planes, the pixel shader's bump-environment matrices and luminance).
//! The rest is pipeline state: cull mode, fill mode, colour write masks, blending.
//!
//! Render states carry over from draw to draw as on a device; every run starts from a
//! fresh device's defaults. A state this module does not know is an error naming it, so a
//! case never passes with state silently dropped; states that cannot change what the cases'
//! render targets receive (depth and stencil, lighting, dithering) are accepted and ignored.

use super::case::{hex32, ClipPlane};
use ash::vk;
use dxspv::sm3::options::{push, spec_id, state};
use std::collections::BTreeMap;

/// Direct3D 9's `D3DRS_POINTSIZE_MAX` of a fresh device (the device's `MaxPointSize`).
const POINT_SIZE_MAX: f32 = 64.0;

/// Render states that cannot change what this harness draws: depth/stencil (the cases
/// disable the depth test or pass it, and there is no depth buffer), lighting (the cases'
/// shaders read nothing it changes), and states of features the harness does not emulate
/// but the cases leave at values without effect.
const IGNORED: &[&str] = &[
    "ZENABLE",
    "ZWRITEENABLE",
    "ZFUNC",
    "STENCILENABLE",
    "STENCILFUNC",
    "STENCILREF",
    "STENCILMASK",
    "STENCILWRITEMASK",
    "STENCILFAIL",
    "STENCILZFAIL",
    "STENCILPASS",
    "TWOSIDEDSTENCILMODE",
    "LIGHTING",
    "AMBIENT",
    "COLORVERTEX",
    "LOCALVIEWER",
    "NORMALIZENORMALS",
    "DIFFUSEMATERIALSOURCE",
    "SPECULARMATERIALSOURCE",
    "AMBIENTMATERIALSOURCE",
    "EMISSIVEMATERIALSOURCE",
    "DITHERENABLE",
    "LASTPIXEL",
    "MULTISAMPLEANTIALIAS",
    "MULTISAMPLEMASK",
    "TEXTUREFACTOR",
    "VERTEXBLEND",
    "INDEXEDVERTEXBLENDENABLE",
    "DEPTHBIAS",
    "SLOPESCALEDEPTHBIAS",
];

/// Reads an enum value: its name with `prefix` removed.
pub(super) fn enum_name(v: &serde_json::Value, prefix: &str) -> Result<String, String> {
    match v {
        serde_json::Value::String(s) => Ok(s.strip_prefix(prefix).unwrap_or(s).to_string()),
        other => Err(format!("expected a {prefix}* name, got {other}")),
    }
}

/// Reads a number (booleans as 0/1, `"0x..."` strings as their value).
pub(super) fn number(v: &serde_json::Value) -> Result<f64, String> {
    match v {
        serde_json::Value::Number(n) => n.as_f64().ok_or_else(|| format!("bad number {n}")),
        serde_json::Value::Bool(b) => Ok(f64::from(u8::from(*b))),
        serde_json::Value::String(s) => hex32(s).map(f64::from),
        other => Err(format!("expected a number, got {other}")),
    }
}

/// Reads a 32-bit integer state (booleans as 0/1, `"0x..."` strings, enum-free numbers).
fn integer(v: &serde_json::Value) -> Result<u32, String> {
    let x = number(v)?;
    if x.fract() != 0.0 || !(0.0..=f64::from(u32::MAX)).contains(&x) {
        return Err(format!("{x} is not a 32-bit integer"));
    }
    Ok(x as u32)
}

/// Reads a boolean (`true`/`false` or 0/1).
fn boolean(v: &serde_json::Value) -> Result<bool, String> {
    Ok(integer(v)? != 0)
}

/// Reads a `D3DCOLOR` (`"0xAARRGGBB"`) as `(r, g, b, a)` in [0, 1].
pub(super) fn color(v: &serde_json::Value) -> Result<[f32; 4], String> {
    let c = integer(v)?;
    let [b, g, r, a] = c.to_le_bytes();
    Ok([r, g, b, a].map(|x| f32::from(x) / 255.0))
}

/// `D3DCMPFUNC` name → number (1 `NEVER` … 8 `ALWAYS`).
fn cmp_func(v: &serde_json::Value) -> Result<u32, String> {
    let n = enum_name(v, "D3DCMP_")?;
    let all = [
        "NEVER",
        "LESS",
        "EQUAL",
        "LESSEQUAL",
        "GREATER",
        "NOTEQUAL",
        "GREATEREQUAL",
        "ALWAYS",
    ];
    all.iter()
        .position(|f| *f == n)
        .map(|i| i as u32 + 1)
        .ok_or_else(|| format!("comparison function `{n}`"))
}

fn blend_factor(v: &serde_json::Value) -> Result<vk::BlendFactor, String> {
    use vk::BlendFactor as B;
    Ok(match enum_name(v, "D3DBLEND_")?.as_str() {
        "ZERO" => B::ZERO,
        "ONE" => B::ONE,
        "SRCCOLOR" => B::SRC_COLOR,
        "INVSRCCOLOR" => B::ONE_MINUS_SRC_COLOR,
        "SRCALPHA" => B::SRC_ALPHA,
        "INVSRCALPHA" => B::ONE_MINUS_SRC_ALPHA,
        "DESTALPHA" => B::DST_ALPHA,
        "INVDESTALPHA" => B::ONE_MINUS_DST_ALPHA,
        "DESTCOLOR" => B::DST_COLOR,
        "INVDESTCOLOR" => B::ONE_MINUS_DST_COLOR,
        "SRCALPHASAT" => B::SRC_ALPHA_SATURATE,
        "BLENDFACTOR" => B::CONSTANT_COLOR,
        "INVBLENDFACTOR" => B::ONE_MINUS_CONSTANT_COLOR,
        other => return Err(format!("blend factor `{other}`")),
    })
}

fn blend_op(v: &serde_json::Value) -> Result<vk::BlendOp, String> {
    use vk::BlendOp as O;
    Ok(match enum_name(v, "D3DBLENDOP_")?.as_str() {
        "ADD" => O::ADD,
        "SUBTRACT" => O::SUBTRACT,
        "REVSUBTRACT" => O::REVERSE_SUBTRACT,
        "MIN" => O::MIN,
        "MAX" => O::MAX,
        other => return Err(format!("blend operation `{other}`")),
    })
}

/// Blending of the colour targets (`D3DRS_ALPHABLENDENABLE` on).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Blend {
    pub(super) src: vk::BlendFactor,
    pub(super) dst: vk::BlendFactor,
    pub(super) op: vk::BlendOp,
    pub(super) src_alpha: vk::BlendFactor,
    pub(super) dst_alpha: vk::BlendFactor,
    pub(super) op_alpha: vk::BlendOp,
}

/// What a pipeline depends on besides its shaders and topology.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct PipelineState {
    /// Cull mode; the front face is Direct3D's clockwise.
    pub(super) cull: vk::CullModeFlags,
    /// `D3DRS_FILLMODE`.
    pub(super) fill: vk::PolygonMode,
    /// `D3DRS_SHADEMODE` is `D3DSHADE_FLAT` (a compile-time option of pixel shaders).
    pub(super) flat: bool,
    /// `D3DRS_SPECULARENABLE` (the fixed-function pixel stage adds COLOR1).
    pub(super) specular: bool,
    /// `D3DRS_COLORWRITEENABLE`, `1`, `2`, `3` per target.
    pub(super) color_write: [vk::ColorComponentFlags; 4],
    /// Blending, when enabled.
    pub(super) blend: Option<Blend>,
    /// `D3DRS_BLENDFACTOR` as RGBA.
    pub(super) blend_constants: [f32; 4],
    /// `D3DRS_SRGBWRITEENABLE`.
    pub(super) srgb_write: bool,
    /// Specialization constants by id.
    pub(super) spec: Vec<(u32, u32)>,
}

/// The state of one draw: the pipeline's, the push constant block and the state buffers.
#[derive(Clone, Debug)]
pub(super) struct DrawState {
    /// Pipeline state.
    pub(super) pipeline: PipelineState,
    /// Fog is on (`D3DRS_FOGENABLE`).
    pub(super) fog: bool,
    /// Vertex fog of fixed-function vertex processing: `D3DRS_FOGVERTEXMODE` (1-3) and
    /// `D3DRS_RANGEFOGENABLE`, when fog is on, the table mode `NONE` and the vertex mode not.
    pub(super) vertex_fog: Option<(u32, bool)>,
    /// The push constant block of both stages.
    pub(super) push: [u8; push::SIZE as usize],
    /// The vertex shader's state buffer (`state::VERTEX_ROWS` rows of 16 bytes).
    pub(super) vs_state: Vec<u8>,
    /// The pixel shader's state buffer (`state::PIXEL_ROWS` rows of 16 bytes).
    pub(super) ps_state: Vec<u8>,
}

/// Render states as set so far (name without `D3DRS_` → value).
#[derive(Clone, Debug, Default)]
pub(super) struct RenderStates(BTreeMap<String, serde_json::Value>);

impl RenderStates {
    /// Applies `states` (later values replace earlier ones).
    pub(super) fn apply(&mut self, states: &BTreeMap<String, serde_json::Value>) {
        for (k, v) in states {
            let k = k.strip_prefix("D3DRS_").unwrap_or(k);
            self.0.insert(k.to_string(), v.clone());
        }
    }

    fn get(&self, k: &str) -> Option<&serde_json::Value> {
        self.0.get(k)
    }

    fn bool_or(&self, k: &str, default: bool) -> Result<bool, String> {
        self.get(k)
            .map_or(Ok(default), boolean)
            .map_err(|e| format!("D3DRS_{k}: {e}"))
    }

    fn float_or(&self, k: &str, default: f32) -> Result<f32, String> {
        self.get(k)
            .map_or(Ok(f64::from(default)), |v| match v {
                // DWORD states holding a float are given as the float.
                serde_json::Value::Number(n) => n.as_f64().ok_or_else(|| format!("{n}")),
                other => Err(format!("expected a float, got {other}")),
            })
            .map(|f| f as f32)
            .map_err(|e| format!("D3DRS_{k}: {e}"))
    }

    fn int_or(&self, k: &str, default: u32) -> Result<u32, String> {
        self.get(k)
            .map_or(Ok(default), integer)
            .map_err(|e| format!("D3DRS_{k}: {e}"))
    }

    fn enum_or(&self, k: &str, prefix: &str, default: &str) -> Result<String, String> {
        self.get(k)
            .map_or(Ok(default.to_string()), |v| enum_name(v, prefix))
            .map_err(|e| format!("D3DRS_{k}: {e}"))
    }
}

/// Texture stage states (stage → name without `D3DTSS_` → value).
pub(super) type StageStates = BTreeMap<String, BTreeMap<String, serde_json::Value>>;

/// Whether the fixed-function pixel stage (`diffuse`) is drawn: it supports the states a
/// pixel shader would otherwise handle only partially.
pub(super) struct Context<'a> {
    /// Texture stage states.
    pub(super) stages: &'a StageStates,
    /// Clip planes.
    pub(super) clip_planes: &'a [ClipPlane],
    /// No pixel shader: the fixed-function diffuse stage.
    pub(super) fixed_function_ps: bool,
}

fn write_f32(block: &mut [u8], at: u32, v: f32) {
    let at = at as usize;
    block[at..at + 4].copy_from_slice(&v.to_le_bytes());
}

/// The state of a draw from the render states set so far.
pub(super) fn draw_state(rs: &RenderStates, ctx: &Context) -> Result<DrawState, String> {
    for k in rs.0.keys() {
        let known = IGNORED.contains(&k.as_str())
            || matches!(
                k.as_str(),
                "CULLMODE"
                    | "FILLMODE"
                    | "SHADEMODE"
                    | "SPECULARENABLE"
                    | "CLIPPING"
                    | "CLIPPLANEENABLE"
                    | "FOGENABLE"
                    | "FOGVERTEXMODE"
                    | "RANGEFOGENABLE"
                    | "FOGTABLEMODE"
                    | "FOGCOLOR"
                    | "FOGSTART"
                    | "FOGEND"
                    | "FOGDENSITY"
                    | "ALPHATESTENABLE"
                    | "ALPHAFUNC"
                    | "ALPHAREF"
                    | "COLORWRITEENABLE"
                    | "COLORWRITEENABLE1"
                    | "COLORWRITEENABLE2"
                    | "COLORWRITEENABLE3"
                    | "SRGBWRITEENABLE"
                    | "ALPHABLENDENABLE"
                    | "SEPARATEALPHABLENDENABLE"
                    | "SRCBLEND"
                    | "DESTBLEND"
                    | "BLENDOP"
                    | "SRCBLENDALPHA"
                    | "DESTBLENDALPHA"
                    | "BLENDOPALPHA"
                    | "BLENDFACTOR"
                    | "POINTSIZE"
                    | "POINTSIZE_MIN"
                    | "POINTSIZE_MAX"
                    | "POINTSPRITEENABLE"
                    | "POINTSCALEENABLE"
            );
        if !known {
            return Err(format!("render state D3DRS_{k} not implemented"));
        }
    }
    let cull = match rs.enum_or("CULLMODE", "D3DCULL_", "CCW")?.as_str() {
        "NONE" => vk::CullModeFlags::NONE,
        "CW" => vk::CullModeFlags::FRONT,
        "CCW" => vk::CullModeFlags::BACK,
        c => return Err(format!("D3DRS_CULLMODE: `{c}`")),
    };
    let fill = match rs.enum_or("FILLMODE", "D3DFILL_", "SOLID")?.as_str() {
        "POINT" => vk::PolygonMode::POINT,
        "WIREFRAME" => vk::PolygonMode::LINE,
        "SOLID" => vk::PolygonMode::FILL,
        f => return Err(format!("D3DRS_FILLMODE: `{f}`")),
    };
    let flat = match rs.enum_or("SHADEMODE", "D3DSHADE_", "GOURAUD")?.as_str() {
        "FLAT" => true,
        "GOURAUD" | "PHONG" => false,
        m => return Err(format!("D3DRS_SHADEMODE: `{m}`")),
    };
    if rs.bool_or("POINTSCALEENABLE", false)? {
        return Err("D3DRS_POINTSCALEENABLE (fixed-function point scaling) not implemented".into());
    }
    let mut color_write = [vk::ColorComponentFlags::RGBA; 4];
    for (i, k) in [
        "COLORWRITEENABLE",
        "COLORWRITEENABLE1",
        "COLORWRITEENABLE2",
        "COLORWRITEENABLE3",
    ]
    .iter()
    .enumerate()
    {
        // D3DCOLORWRITEENABLE_RED = 1, GREEN = 2, BLUE = 4, ALPHA = 8: Vulkan's R, G, B, A.
        let m = rs.int_or(k, 0xf)?;
        color_write[i] = vk::ColorComponentFlags::from_raw(m & 0xf);
    }
    let blend = if rs.bool_or("ALPHABLENDENABLE", false)? {
        let get = |k: &str, d: &str| -> Result<serde_json::Value, String> {
            Ok(rs
                .get(k)
                .cloned()
                .unwrap_or_else(|| serde_json::Value::String(d.to_string())))
        };
        let f = |k: &str, d: &str| blend_factor(&get(k, d)?).map_err(|e| format!("D3DRS_{k}: {e}"));
        let o =
            |k: &str| blend_op(&get(k, "D3DBLENDOP_ADD")?).map_err(|e| format!("D3DRS_{k}: {e}"));
        let (src, dst, op) = (
            f("SRCBLEND", "D3DBLEND_ONE")?,
            f("DESTBLEND", "D3DBLEND_ZERO")?,
            o("BLENDOP")?,
        );
        let separate = rs.bool_or("SEPARATEALPHABLENDENABLE", false)?;
        Some(if separate {
            Blend {
                src,
                dst,
                op,
                src_alpha: f("SRCBLENDALPHA", "D3DBLEND_ONE")?,
                dst_alpha: f("DESTBLENDALPHA", "D3DBLEND_ZERO")?,
                op_alpha: o("BLENDOPALPHA")?,
            }
        } else {
            Blend {
                src,
                dst,
                op,
                src_alpha: src,
                dst_alpha: dst,
                op_alpha: op,
            }
        })
    } else {
        None
    };
    let blend_constants = match rs.get("BLENDFACTOR") {
        Some(v) => color(v).map_err(|e| format!("D3DRS_BLENDFACTOR: {e}"))?,
        None => [1.0; 4],
    };

    // Specialization constants.
    let alpha_func = if rs.bool_or("ALPHATESTENABLE", false)? {
        match rs.get("ALPHAFUNC") {
            Some(v) => cmp_func(v).map_err(|e| format!("D3DRS_ALPHAFUNC: {e}"))?,
            None => 8,
        }
    } else {
        8
    };
    let fog_enable = rs.bool_or("FOGENABLE", false)?;
    let fog_number = |k: &str| -> Result<u32, String> {
        Ok(match rs.enum_or(k, "D3DFOG_", "NONE")?.as_str() {
            "NONE" => 0,
            "EXP" => 1,
            "EXP2" => 2,
            "LINEAR" => 3,
            m => return Err(format!("D3DRS_{k}: `{m}`")),
        })
    };
    let fog_mode = fog_number("FOGTABLEMODE")?;
    let vertex_mode = fog_number("FOGVERTEXMODE")?;
    let vertex_fog = (fog_enable && fog_mode == 0 && vertex_mode != 0)
        .then_some((vertex_mode, rs.bool_or("RANGEFOGENABLE", false)?));
    let clipping = rs.bool_or("CLIPPING", true)?;
    let clip_mask = if clipping {
        rs.int_or("CLIPPLANEENABLE", 0)? & 0x3f
    } else {
        0
    };
    let sprites = rs.bool_or("POINTSPRITEENABLE", false)?;
    let mut projected = 0u32;
    let mut push = [0u8; push::SIZE as usize];
    let mut vs_state = vec![0u8; 16 * state::VERTEX_ROWS as usize];
    let mut ps_state = vec![0u8; 16 * state::PIXEL_ROWS as usize];
    for (stage, states) in ctx.stages {
        let n: u32 = stage
            .parse()
            .map_err(|_| format!("texture stage `{stage}` is not a number"))?;
        if n > 7 {
            return Err(format!("texture stage {n} out of range"));
        }
        for (k, v) in states {
            let name = k.strip_prefix("D3DTSS_").unwrap_or(k);
            let f = || {
                number(v)
                    .map(|x| x as f32)
                    .map_err(|e| format!("stage {n} {k}: {e}"))
            };
            match name {
                "BUMPENVMAT00" | "BUMPENVMAT01" | "BUMPENVMAT10" | "BUMPENVMAT11" if n < 6 => {
                    let i = [
                        "BUMPENVMAT00",
                        "BUMPENVMAT01",
                        "BUMPENVMAT10",
                        "BUMPENVMAT11",
                    ]
                    .iter()
                    .position(|s| *s == name)
                    .unwrap_or(0) as u32;
                    let row = state::BUMP_ENV_MATRICES + n;
                    write_f32(&mut ps_state, 16 * row + 4 * i, f()?);
                }
                "BUMPENVLSCALE" if n < 6 => {
                    write_f32(&mut ps_state, 16 * (state::BUMP_ENV_LUMINANCE + n), f()?)
                }
                "BUMPENVLOFFSET" if n < 6 => write_f32(
                    &mut ps_state,
                    16 * (state::BUMP_ENV_LUMINANCE + n) + 4,
                    f()?,
                ),
                "TEXTURETRANSFORMFLAGS" => {
                    let s = match v {
                        serde_json::Value::String(s) => s.clone(),
                        other => {
                            return Err(format!("stage {n} {k}: expected flag names, got {other}"))
                        }
                    };
                    for flag in s.split('|').map(str::trim) {
                        match flag.strip_prefix("D3DTTFF_").unwrap_or(flag) {
                            "PROJECTED" => projected |= 1 << n,
                            "DISABLE" | "COUNT1" | "COUNT2" | "COUNT3" | "COUNT4" => {}
                            other => return Err(format!("stage {n} {k}: flag `{other}`")),
                        }
                    }
                }
                // The texture coordinate set a stage reads: ps_1_x tex/texcoord name their
                // set, so with a pixel shader it changes nothing.
                "TEXCOORDINDEX" if !ctx.fixed_function_ps => {}
                // Fixed-function texture blending: no effect with a pixel shader bound.
                "COLOROP" | "COLORARG0" | "COLORARG1" | "COLORARG2" | "ALPHAOP" | "ALPHAARG0"
                | "ALPHAARG1" | "ALPHAARG2" | "RESULTARG" | "CONSTANT"
                    if !ctx.fixed_function_ps => {}
                other => {
                    return Err(format!(
                        "texture stage state D3DTSS_{other} (stage {n}) not implemented"
                    ))
                }
            }
        }
    }
    let spec = vec![
        (spec_id::ALPHA_FUNC, alpha_func),
        (spec_id::FOG_ENABLE, u32::from(fog_enable)),
        (spec_id::FOG_MODE, fog_mode),
        (spec_id::CLIP_PLANE_ENABLE, clip_mask),
        (spec_id::POINT_SPRITE_ENABLE, u32::from(sprites)),
        (spec_id::PROJECTED_TEXTURES, projected),
    ];

    // The vertex shader's state buffer: the planes (the spec constant says which apply).
    for p in ctx.clip_planes {
        if p.index > 5 {
            return Err(format!("clip plane {} out of range", p.index));
        }
        for (i, v) in p.plane.iter().enumerate() {
            write_f32(
                &mut vs_state,
                16 * (state::CLIP_PLANES + p.index) + 4 * i as u32,
                *v as f32,
            );
        }
    }

    // The push constant block.
    write_f32(&mut push, push::POINT_SIZE, rs.float_or("POINTSIZE", 1.0)?);
    write_f32(
        &mut push,
        push::POINT_SIZE_MIN,
        rs.float_or("POINTSIZE_MIN", 1.0)?,
    );
    write_f32(
        &mut push,
        push::POINT_SIZE_MAX,
        rs.float_or("POINTSIZE_MAX", POINT_SIZE_MAX)?,
    );
    write_f32(
        &mut push,
        push::ALPHA_REF,
        (rs.int_or("ALPHAREF", 0)? & 0xff) as f32 / 255.0,
    );
    // D3DRS_FOGCOLOR (0xAARRGGBB) as red, green, blue in [0, 1].
    let fog_color = rs.int_or("FOGCOLOR", 0)?.to_le_bytes();
    for (i, byte) in [fog_color[2], fog_color[1], fog_color[0]]
        .into_iter()
        .enumerate()
    {
        write_f32(
            &mut push,
            push::FOG_COLOR + 4 * i as u32,
            f32::from(byte) / 255.0,
        );
    }
    write_f32(&mut push, push::FOG_START, rs.float_or("FOGSTART", 0.0)?);
    write_f32(&mut push, push::FOG_END, rs.float_or("FOGEND", 1.0)?);
    write_f32(
        &mut push,
        push::FOG_DENSITY,
        rs.float_or("FOGDENSITY", 1.0)?,
    );

    Ok(DrawState {
        pipeline: PipelineState {
            cull,
            fill,
            flat,
            specular: rs.bool_or("SPECULARENABLE", false)?,
            color_write,
            blend,
            blend_constants,
            srgb_write: rs.bool_or("SRGBWRITEENABLE", false)?,
            spec,
        },
        fog: fog_enable,
        vertex_fog,
        push,
        vs_state,
        ps_state,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn states(v: serde_json::Value) -> RenderStates {
        let map: BTreeMap<String, serde_json::Value> = serde_json::from_value(v).expect("a map");
        let mut rs = RenderStates::default();
        rs.apply(&map);
        rs
    }

    fn ctx<'a>(stages: &'a StageStates, planes: &'a [ClipPlane]) -> Context<'a> {
        Context {
            stages,
            clip_planes: planes,
            fixed_function_ps: false,
        }
    }

    fn f32_at(b: &[u8], at: u32) -> f32 {
        let a = at as usize;
        f32::from_le_bytes([b[a], b[a + 1], b[a + 2], b[a + 3]])
    }

    #[test]
    fn fresh_device_defaults() {
        let st = StageStates::new();
        let d = draw_state(&RenderStates::default(), &ctx(&st, &[])).expect("state");
        assert_eq!(d.pipeline.cull, vk::CullModeFlags::BACK);
        assert!(!d.pipeline.flat);
        assert!(d.pipeline.blend.is_none());
        assert!(d.pipeline.spec.contains(&(spec_id::ALPHA_FUNC, 8)));
        assert!(d.pipeline.spec.contains(&(spec_id::CLIP_PLANE_ENABLE, 0)));
        assert_eq!(f32_at(&d.push, push::POINT_SIZE), 1.0);
        assert_eq!(f32_at(&d.push, push::FOG_END), 1.0);
        // D3DRS_FOGCOLOR: 0xAARRGGBB unpacked to red, green, blue.
        let rs = states(json!({"D3DRS_FOGCOLOR": "0x00ff8000"}));
        let d = draw_state(&rs, &ctx(&st, &[])).expect("state");
        assert_eq!(f32_at(&d.push, push::FOG_COLOR), 1.0);
        assert_eq!(f32_at(&d.push, push::FOG_COLOR + 4), 128.0 / 255.0);
        assert_eq!(f32_at(&d.push, push::FOG_COLOR + 8), 0.0);
    }

    #[test]
    fn states_reach_spec_and_push_constants() {
        let mut st = StageStates::new();
        st.insert(
            "1".into(),
            serde_json::from_value(json!({
                "D3DTSS_BUMPENVMAT10": 2.0,
                "D3DTSS_TEXTURETRANSFORMFLAGS": "D3DTTFF_COUNT3 | D3DTTFF_PROJECTED"
            }))
            .expect("map"),
        );
        let planes = [ClipPlane {
            index: 2,
            plane: [0.0, 1.0, 0.0, 0.5],
        }];
        let rs = states(json!({
            "D3DRS_CULLMODE": "D3DCULL_NONE",
            "D3DRS_SHADEMODE": "D3DSHADE_FLAT",
            "D3DRS_CLIPPLANEENABLE": 4,
            "D3DRS_ALPHATESTENABLE": true,
            "D3DRS_ALPHAFUNC": "D3DCMP_GREATER",
            "D3DRS_ALPHAREF": 255,
            "D3DRS_COLORWRITEENABLE": 5,
            "D3DRS_LIGHTING": false
        }));
        let d = draw_state(&rs, &ctx(&st, &planes)).expect("state");
        assert_eq!(d.pipeline.cull, vk::CullModeFlags::NONE);
        assert!(d.pipeline.flat);
        assert!(d.pipeline.spec.contains(&(spec_id::CLIP_PLANE_ENABLE, 4)));
        assert!(d.pipeline.spec.contains(&(spec_id::ALPHA_FUNC, 5)));
        assert!(d.pipeline.spec.contains(&(spec_id::PROJECTED_TEXTURES, 2)));
        assert_eq!(
            d.pipeline.color_write[0],
            vk::ColorComponentFlags::R | vk::ColorComponentFlags::B
        );
        assert_eq!(f32_at(&d.push, push::ALPHA_REF), 1.0);
        assert_eq!(
            f32_at(&d.ps_state, 16 * (state::BUMP_ENV_MATRICES + 1) + 8),
            2.0
        );
        assert_eq!(f32_at(&d.vs_state, 16 * (state::CLIP_PLANES + 2) + 4), 1.0);
        assert_eq!(f32_at(&d.vs_state, 16 * (state::CLIP_PLANES + 2) + 12), 0.5);
        // D3DRS_CLIPPING off disables the planes.
        let mut rs2 = rs.clone();
        rs2.apply(&serde_json::from_value(json!({"D3DRS_CLIPPING": false})).expect("map"));
        let d2 = draw_state(&rs2, &ctx(&st, &planes)).expect("state");
        assert!(d2.pipeline.spec.contains(&(spec_id::CLIP_PLANE_ENABLE, 0)));
    }

    #[test]
    fn unknown_states_are_errors() {
        let st = StageStates::new();
        let rs = states(json!({"D3DRS_WRAP0": 1}));
        let e = draw_state(&rs, &ctx(&st, &[])).unwrap_err();
        assert!(e.contains("D3DRS_WRAP0"), "{e}");
        let rs = states(json!({"D3DRS_CULLMODE": "D3DCULL_SIDEWAYS"}));
        assert!(draw_state(&rs, &ctx(&st, &[])).is_err());
    }
}
