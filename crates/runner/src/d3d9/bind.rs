//! What a Direct3D 9 run binds, as the runner's resources: each stage's constant files as
//! the contract's constant buffers, the textures and samplers of the case, and stand-ins for
//! what a shader declares but the case leaves unbound.
//!
//! Per stage (seen by that stage only, register space 0): float constants `c#` in `b0`
//! (`c#` at byte `16 #`), integer constants `i#` in `b1` (`i#` at byte `16 #`, four `i32`),
//! boolean constants in `b2` (bit `#` of the first word). Registers the application did not
//! set read 0. The fixed-function state buffer of each stage (`dxspv::sm3::options::state`)
//! is `b3`. Pixel shader samplers are `t#`/`s#` in space 0, vertex texture samplers in
//! space 1.

use super::case::{ConstantRange, D3d9Run, StageConstants};
use super::texture;
use crate::case::Resource;
use dxspv::spirv::{Reflection, RegisterClass};

/// Bytes of each constant buffer (the largest float file a vertex shader reads with
/// hardware vertex processing is 256 registers; the buffer holds 4096).
const CBV_BYTES: usize = 65536;

fn numbers(r: &ConstantRange) -> Result<Vec<f64>, String> {
    r.values
        .iter()
        .map(|v| match v {
            serde_json::Value::Number(n) => n.as_f64().ok_or_else(|| format!("bad number {n}")),
            serde_json::Value::Bool(b) => Ok(f64::from(u8::from(*b))),
            other => Err(format!("constant value {other} is not a number")),
        })
        .collect()
}

/// The three constant buffers of one stage's constants.
fn constant_buffers(c: &StageConstants, stage: &str) -> Result<[Resource; 3], String> {
    let mut float = vec![0u8; CBV_BYTES];
    for r in &c.float {
        for (i, v) in numbers(r)?.iter().enumerate() {
            let at = r.register as usize * 16 + i * 4;
            float
                .get_mut(at..at + 4)
                .ok_or_else(|| format!("{stage} float constant c{} out of range", r.register))?
                .copy_from_slice(&(*v as f32).to_le_bytes());
        }
    }
    let mut int = vec![0u8; CBV_BYTES];
    for r in &c.int {
        for (i, v) in numbers(r)?.iter().enumerate() {
            if v.fract() != 0.0 || *v < f64::from(i32::MIN) || *v > f64::from(i32::MAX) {
                return Err(format!(
                    "{stage} int constant i{}: {v} is not an i32",
                    r.register
                ));
            }
            let at = r.register as usize * 16 + i * 4;
            if r.register as usize * 4 + i >= 16 * 4 {
                return Err(format!("{stage} int constant i{} out of range", r.register));
            }
            int[at..at + 4].copy_from_slice(&(*v as i32).to_le_bytes());
        }
    }
    let mut bits = 0u32;
    for r in &c.bool {
        for (i, v) in numbers(r)?.iter().enumerate() {
            let reg = r.register as usize + i;
            if reg >= 16 {
                return Err(format!("{stage} bool constant b{reg} out of range"));
            }
            if *v != 0.0 {
                bits |= 1 << reg;
            }
        }
    }
    let mut boolean = vec![0u8; CBV_BYTES];
    boolean[..4].copy_from_slice(&bits.to_le_bytes());
    let cbv = |register: u32, bytes: Vec<u8>| Resource {
        kind: "cbv".into(),
        space: 0,
        register,
        size_bytes: Some(CBV_BYTES as u64),
        bytes: Some(bytes),
        stages: Some(vec![stage.to_string()]),
        ..Resource::default()
    };
    Ok([cbv(0, float), cbv(1, int), cbv(2, boolean)])
}

/// The state buffer of `stage` (`b3`) holding `bytes`.
fn state_buffer(bytes: &[u8], stage: &str) -> Resource {
    Resource {
        kind: "cbv".into(),
        space: 0,
        register: dxspv::sm3::options::state::REGISTER,
        size_bytes: Some(bytes.len() as u64),
        bytes: Some(bytes.to_vec()),
        stages: Some(vec![stage.to_string()]),
        ..Resource::default()
    }
}

/// The resources of `run` for shaders with `reflections` (stage name, reflection), with
/// the state buffers `vs_state` and `ps_state`.
pub(super) fn resources(
    run: &D3d9Run,
    reflections: &[(&'static str, &Reflection)],
    vs_state: &[u8],
    ps_state: &[u8],
) -> Result<Vec<Resource>, String> {
    let mut out = Vec::new();
    out.extend(constant_buffers(&run.constants.vs, "vs")?);
    out.extend(constant_buffers(&run.constants.ps, "ps")?);
    out.push(state_buffer(vs_state, "vs"));
    out.push(state_buffer(ps_state, "ps"));
    for t in &run.textures {
        let (space, stage) = if t.is_vertex() { (1, "vs") } else { (0, "ps") };
        if out
            .iter()
            .any(|r: &Resource| r.kind == "srv" && r.space == space && r.register == t.sampler)
        {
            return Err(format!("two textures on {stage} sampler {}", t.sampler));
        }
        out.extend(texture::resources(t, space, stage)?);
    }
    // What a shader declares and the case leaves unbound: a null texture and the default
    // sampler state.
    for (stage, refl) in reflections {
        for b in &refl.resources {
            let kind = match b.class {
                RegisterClass::Srv => "srv",
                RegisterClass::Sampler => "sampler",
                _ => continue,
            };
            let seen = out.iter().any(|r| {
                r.kind == kind
                    && r.space == b.space
                    && r.register == b.register
                    && crate::case::visible_to(&r.stages, stage)
            });
            if seen {
                continue;
            }
            out.push(Resource {
                kind: kind.into(),
                space: b.space,
                register: b.register,
                view: (kind == "srv").then(|| "texture2d".into()),
                null: kind == "srv",
                sampler: (kind == "sampler").then(texture::default_sampler),
                stages: Some(vec![stage.to_string()]),
                ..Resource::default()
            });
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constants_land_at_their_registers() {
        let c: StageConstants = serde_json::from_value(serde_json::json!({
            "float": [{"register": 2, "values": [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]}],
            "int": [{"register": 1, "values": [4, 0, -2, 0]}],
            "bool": [{"register": 3, "values": [true, false, 1]}]
        }))
        .expect("constants");
        let [f, i, b] = constant_buffers(&c, "vs").expect("buffers");
        let word = |r: &Resource, at: usize| {
            let bytes = r.bytes.as_ref().expect("bytes");
            [bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]]
        };
        assert_eq!(f32::from_le_bytes(word(&f, 32)), 1.0);
        assert_eq!(f32::from_le_bytes(word(&f, 48 + 12)), 8.0);
        assert_eq!(f32::from_le_bytes(word(&f, 16)), 0.0);
        assert_eq!(i32::from_le_bytes(word(&i, 16 + 8)), -2);
        assert_eq!(u32::from_le_bytes(word(&b, 0)), (1 << 3) | (1 << 5));
        assert_eq!(f.register, 0);
        assert_eq!(b.register, 2);
        assert_eq!(f.stages.as_deref(), Some(&["vs".to_string()][..]));
        let bad: StageConstants = serde_json::from_value(serde_json::json!({
            "bool": [{"register": 16, "values": [true]}]
        }))
        .expect("constants");
        assert!(constant_buffers(&bad, "ps").is_err());
    }
}
