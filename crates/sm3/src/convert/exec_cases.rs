//! The Direct3D 9 execution cases of `shared/exec-d3d9` (Wine's visual tests: what Windows
//! drivers drew), run through the converter, the pass pipeline and [`super::eval`] instead
//! of a GPU: vertices are shaded one by one, the checked pixels found in the triangle strip
//! and the pixel shader run on the interpolated varyings. Cases that need more than that
//! (several draws, clip planes, derivatives, volume or unbound textures) are skipped and
//! counted. This checks the converter's arithmetic and interface against real results
//! before a Vulkan runner exists; the runner will check the rest.

use std::collections::HashMap;

use serde_json::Value;

use super::eval::{run, Env, Outputs};
use crate::options::Options;

const CASES: &str = "/work/shared/exec-d3d9/wine";
const CORPUS: &str = "/work/shared/corpus";

/// Corpus bytes to lowered IR.
fn lowered_bytes(bytes: &[u8], opts: &Options) -> Option<dxspv_ir::Builder> {
    let shader = crate::Shader::parse(bytes).ok()?;
    let mut b = crate::convert(&shader, opts).ok()?;
    dxspv_ir::passes::pipeline::run_pipeline(&mut b, &Default::default()).ok()?;
    Some(b)
}

fn f32s(v: &Value) -> Vec<f32> {
    v.as_array()
        .map(|a| {
            a.iter()
                .filter_map(|x| x.as_f64().map(|f| f as f32))
                .collect()
        })
        .unwrap_or_default()
}

fn color(v: &Value) -> Option<u32> {
    u32::from_str_radix(v.as_str()?.trim_start_matches("0x"), 16).ok()
}

/// A D3DCOLOR as (r, g, b, a) in [0, 1].
fn unpack(c: u32) -> [f32; 4] {
    let b = |s: u32| ((c >> s) & 0xFF) as f32 / 255.0;
    [b(16), b(8), b(0), b(24)]
}

/// The value of one vertex element.
fn element(ty: &str, v: &Value) -> [f32; 4] {
    let mut out = [0.0, 0.0, 0.0, 1.0];
    if ty.ends_with("D3DCOLOR") {
        return color(v).map_or(out, unpack);
    }
    if ty.ends_with("UBYTE4") {
        // Four bytes in memory order, as floats.
        for (o, x) in out.iter_mut().zip(f32s(v)) {
            *o = x;
        }
        return out;
    }
    for (o, x) in out.iter_mut().zip(f32s(v)) {
        *o = x;
    }
    out
}

/// Application constants of a stage.
fn constants(case: &Value, stage: &str, env: &mut Env) {
    let c = &case["constants"][stage];
    for e in c["float"].as_array().into_iter().flatten() {
        let r = e["register"].as_u64().unwrap_or(0) as usize;
        let v = f32s(&e["values"]);
        if env.floats.len() < r + v.len().div_ceil(4) {
            env.floats.resize(r + v.len().div_ceil(4), [0.0; 4]);
        }
        for (i, x) in v.iter().enumerate() {
            env.floats[r + i / 4][i % 4] = *x;
        }
    }
    for e in c["int"].as_array().into_iter().flatten() {
        let r = e["register"].as_u64().unwrap_or(0) as usize;
        let v = f32s(&e["values"]);
        if env.ints.len() <= r {
            env.ints.resize(r + 1, [0; 4]);
        }
        for (i, x) in v.iter().take(4).enumerate() {
            env.ints[r][i] = *x as i32;
        }
    }
    for e in c["bool"].as_array().into_iter().flatten() {
        let r = e["register"].as_u64().unwrap_or(0) as u32;
        let on = e["values"]
            .as_array()
            .and_then(|a| a.first())
            .is_some_and(|x| x.as_bool() == Some(true) || x.as_f64().is_some_and(|f| f != 0.0));
        if on && r < 32 {
            env.bools |= 1 << r;
        }
    }
}

/// One shaded vertex: window position (D3D9 pixel-centre coordinates), clip w, varyings by
/// location.
struct Shaded {
    x: f32,
    y: f32,
    z: f32,
    w: f32,
    vary: HashMap<u32, [f32; 4]>,
}

fn usage_location(usage: &str, index: u8) -> Option<u32> {
    use crate::decode::Usage as U;
    let u = match usage.trim_start_matches("D3DDECLUSAGE_") {
        "POSITION" => U::Position,
        "BLENDWEIGHT" => U::BlendWeight,
        "BLENDINDICES" => U::BlendIndices,
        "NORMAL" => U::Normal,
        "PSIZE" => U::PointSize,
        "TEXCOORD" => U::TexCoord,
        "TANGENT" => U::Tangent,
        "BINORMAL" => U::Binormal,
        "COLOR" => U::Color,
        "FOG" => U::Fog,
        "DEPTH" => U::Depth,
        "SAMPLE" => U::Sample,
        _ => return None,
    };
    super::io::varying_location(u, index)
}

/// Shades the vertices of a draw.
fn shade(case: &Value, w: f32, h: f32) -> Result<Vec<Shaded>, String> {
    let draw = &case["draw"];
    let decl = draw["vertex_declaration"]
        .as_array()
        .ok_or("no declaration")?;
    let verts = draw["vertices"].as_array().ok_or("no vertices")?;
    let vs = match case["vertex_shader"].as_str() {
        Some(p) => Some(p.to_string()),
        None if case["stage"] == "vs" => case["shader"].as_str().map(str::to_string),
        None => None,
    };
    let window = |clip: [f32; 4], vary| {
        let ndc = [clip[0] / clip[3], clip[1] / clip[3], clip[2] / clip[3]];
        Shaded {
            x: (ndc[0] + 1.0) * w / 2.0,
            y: (1.0 - ndc[1]) * h / 2.0,
            z: ndc[2],
            w: clip[3],
            vary,
        }
    };
    let mut out = Vec::new();
    let Some(vs) = vs else {
        // Fixed-function vertex processing, identity transforms.
        for v in verts {
            let mut vary = HashMap::new();
            vary.insert(10, [1.0; 4]);
            vary.insert(11, [0.0; 4]);
            let mut pos = None;
            let mut rhw = None;
            for e in decl {
                let usage = e["usage"].as_str().unwrap_or("");
                let idx = e["usage_index"].as_u64().unwrap_or(0) as u8;
                let name = format!("{}{idx}", usage.trim_start_matches("D3DDECLUSAGE_"));
                let val = element(e["type"].as_str().unwrap_or(""), &v[&name]);
                match usage {
                    "D3DDECLUSAGE_POSITION" if idx == 0 => pos = Some(val),
                    "D3DDECLUSAGE_POSITIONT" => rhw = Some(val),
                    _ => {
                        let mut val = val;
                        if usage == "D3DDECLUSAGE_COLOR" {
                            for x in &mut val {
                                *x = x.clamp(0.0, 1.0);
                            }
                        }
                        if let Some(l) = usage_location(usage, idx) {
                            vary.insert(l, val);
                        }
                    }
                }
            }
            match (pos, rhw) {
                (_, Some(t)) => out.push(Shaded {
                    x: t[0],
                    y: t[1],
                    z: t[2],
                    w: 1.0 / t[3],
                    vary,
                }),
                (Some(p), None) => out.push(window([p[0], p[1], p[2], 1.0], vary)),
                _ => return Err("no position".into()),
            }
        }
        return Ok(out);
    };
    let bytes = std::fs::read(format!("{CORPUS}/{vs}")).map_err(|e| e.to_string())?;
    let ir = lowered_bytes(&bytes, &super::tests::all_dynamic())
        .ok_or("the vertex shader does not convert")?;
    let shader = crate::Shader::parse(&bytes).map_err(|e| e.to_string())?;
    // Input registers by (usage, index).
    let mut regs: HashMap<(String, u8), u32> = HashMap::new();
    let mut it = shader.instructions();
    let mut inst = crate::Instruction::default();
    while let Some(Ok(())) = it.next_into(&mut inst) {
        if let (crate::Payload::Dcl(crate::Declaration::Semantic { usage, index }), Some(d)) =
            (inst.payload, inst.dst)
        {
            if d.register.ty == crate::RegisterType::Input {
                regs.insert((usage.name().to_uppercase(), index), d.register.index);
            }
        }
    }
    let mut env = Env::default();
    constants(case, "vs", &mut env);
    for v in verts {
        env.inputs.clear();
        for e in decl {
            let ty = e["type"].as_str().unwrap_or("");
            if let Some(r) = e["register"].as_u64() {
                env.inputs
                    .insert(r as u32, element(ty, &v[&format!("v{r}")]));
                continue;
            }
            let usage = e["usage"]
                .as_str()
                .unwrap_or("")
                .trim_start_matches("D3DDECLUSAGE_");
            let idx = e["usage_index"].as_u64().unwrap_or(0) as u8;
            let val = element(ty, &v[&format!("{usage}{idx}")]);
            if let Some(r) = regs.get(&(usage.to_string(), idx)) {
                env.inputs.insert(*r, val);
            }
        }
        let o: Outputs = run(&ir, &env);
        let p = o.builtin(dxspv_ir::BuiltIn::Position);
        let clip = [p[0], p[1], p[2], p[3]];
        let mut vary = HashMap::new();
        for (l, v) in &o.locations {
            let mut a = [0.0, 0.0, 0.0, 0.0];
            for (x, y) in a.iter_mut().zip(v) {
                *x = *y;
            }
            vary.insert(*l, a);
        }
        out.push(window(clip, vary));
    }
    Ok(out)
}

/// The varyings and depth at window point (`px`, `py`) of a strip or list, perspective-correct;
/// `flat` locations take the triangle's first vertex's value.
fn interpolate(
    v: &[Shaded],
    list: bool,
    px: f32,
    py: f32,
    flat: &[u32],
) -> Option<(HashMap<u32, [f32; 4]>, f32, f32)> {
    let (count, step) = if list {
        (v.len() / 3, 3)
    } else {
        (v.len().saturating_sub(2), 1)
    };
    for t in (0..count).map(|i| i * step) {
        let (a, b, c) = (&v[t], &v[t + 1], &v[t + 2]);
        let d = (b.y - c.y) * (a.x - c.x) + (c.x - b.x) * (a.y - c.y);
        if d.abs() < 1e-12 {
            continue;
        }
        let l0 = ((b.y - c.y) * (px - c.x) + (c.x - b.x) * (py - c.y)) / d;
        let l1 = ((c.y - a.y) * (px - c.x) + (a.x - c.x) * (py - c.y)) / d;
        let l2 = 1.0 - l0 - l1;
        let e = -1e-4;
        if l0 < e || l1 < e || l2 < e {
            continue;
        }
        let (q0, q1, q2) = (l0 / a.w, l1 / b.w, l2 / c.w);
        let s = q0 + q1 + q2;
        let mut vary = HashMap::new();
        for (loc, va) in &a.vary {
            let (Some(vb), Some(vc)) = (b.vary.get(loc), c.vary.get(loc)) else {
                continue;
            };
            let mut r = *va;
            if !flat.contains(loc) {
                for i in 0..4 {
                    r[i] = (q0 * va[i] + q1 * vb[i] + q2 * vc[i]) / s;
                }
            }
            vary.insert(*loc, r);
        }
        let z = l0 * a.z + l1 * b.z + l2 * c.z;
        return Some((vary, z, s));
    }
    None
}

/// Point-sampled, clamped 2D textures (A8R8G8B8 and V8U8) of a case; a texture of another
/// kind or format skips the case.
fn textures(list: &Value) -> Result<super::eval::Texture, String> {
    let mut tex: HashMap<u32, (usize, usize, Vec<[f32; 4]>)> = HashMap::new();
    for t in list.as_array().into_iter().flatten() {
        if t["type"] != "2d" || t["stage"].as_str().is_some_and(|s| s != "ps") {
            return Err("skip".into());
        }
        let (w, h) = (
            t["width"].as_u64().unwrap_or(1) as usize,
            t["height"].as_u64().unwrap_or(1) as usize,
        );
        let data: Vec<u64> = t["data"]["data"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(Value::as_u64)
            .collect();
        let texels = match t["format"].as_str() {
            Some("D3DFMT_A8R8G8B8") => data.iter().map(|&v| unpack(v as u32)).collect(),
            Some("D3DFMT_V8U8") => data
                .iter()
                .map(|&v| {
                    let s = |b: u64| (((b & 0xFF) as u8 as i8) as f32 / 127.0).max(-1.0);
                    [s(v), s(v >> 8), 1.0, 1.0]
                })
                .collect(),
            _ => return Err("skip".into()),
        };
        tex.insert(t["sampler"].as_u64().unwrap_or(0) as u32, (w, h, texels));
    }
    Ok(std::rc::Rc::new(move |s, c| match tex.get(&s) {
        None => [0.0, 0.0, 0.0, 1.0],
        Some((w, h, t)) => {
            let x = ((c[0] * *w as f32).floor() as isize).clamp(0, *w as isize - 1) as usize;
            let y = ((c.get(1).copied().unwrap_or(0.0) * *h as f32).floor() as isize)
                .clamp(0, *h as isize - 1) as usize;
            t.get(y * w + x).copied().unwrap_or([0.0; 4])
        }
    }))
}

/// Runs one case (after a run's overrides); `Ok(None)` when it is skipped.
fn run_case(case: &Value) -> Result<Option<()>, String> {
    let rs = &case["render_states"];
    if case.get("draws").is_some()
        || case.get("clip_planes").is_some()
        || case["shader"].as_str().is_some_and(|n| n.contains("dsy"))
    {
        return Ok(None);
    }
    let list = match case["draw"]["primitive"].as_str() {
        Some("D3DPT_TRIANGLESTRIP") => false,
        Some("D3DPT_TRIANGLELIST") => true,
        _ => return Ok(None),
    };
    let rt = &case["render_targets"][0];
    let (w, h) = (
        rt["width"].as_f64().unwrap_or(640.0) as f32,
        rt["height"].as_f64().unwrap_or(480.0) as f32,
    );
    let verts = shade(case, w, h)?;
    let ps = match case["stage"].as_str() {
        Some("ps") => case["shader"].as_str().map(str::to_string),
        _ => case["pixel_shader"].as_str().map(str::to_string),
    };
    let flat = rs["D3DRS_SHADEMODE"] == "D3DSHADE_FLAT";
    let ps_opts = Options {
        flat_shading: flat,
        ..super::tests::all_dynamic()
    };
    let ps_ir = match &ps {
        Some(p) => {
            let bytes = std::fs::read(format!("{CORPUS}/{p}")).map_err(|e| e.to_string())?;
            Some(lowered_bytes(&bytes, &ps_opts).ok_or("the pixel shader does not convert")?)
        }
        None => None,
    };
    let mut env = Env::default();
    constants(case, "ps", &mut env);
    if let Some(t) = case.get("textures") {
        match textures(t) {
            Ok(f) => env.texture = f,
            Err(e) if e == "skip" => return Ok(None),
            Err(e) => return Err(e),
        }
    }
    for (stage, states) in case["texture_stage_states"]
        .as_object()
        .into_iter()
        .flatten()
    {
        let stage: usize = stage.parse().map_err(|_| "texture stage")?;
        if env.state.is_empty() {
            env.state = vec![[0.0; 4]; crate::options::state::PIXEL_ROWS as usize];
        }
        let row = crate::options::state::BUMP_ENV_MATRICES as usize + stage;
        for (i, name) in ["00", "01", "10", "11"].iter().enumerate() {
            if let Some(v) = states[&format!("D3DTSS_BUMPENVMAT{name}")].as_f64() {
                if let Some(r) = env.state.get_mut(row) {
                    r[i] = v as f32;
                }
            }
        }
    }
    // Inputs the pixel shader declares flat take the triangle's first vertex's value.
    let flat_locations: Vec<u32> = match &ps_ir {
        Some(ir) => ir
            .iter()
            .filter(|(_, op)| {
                op.opcode == dxspv_ir::OpCode::DclInput
                    && op
                        .lit(2)
                        .is_some_and(|m| m & dxspv_ir::InterpolationModes::Flat.to_literal() != 0)
            })
            .filter_map(|(_, op)| op.lit(0).map(|l| l as u32))
            .collect(),
        None if flat => vec![10, 11],
        None => Vec::new(),
    };
    let expect = &rt["expect"];
    let mask0 = expect["mask"]
        .as_str()
        .and_then(|m| u32::from_str_radix(m.trim_start_matches("0x"), 16).ok())
        .unwrap_or(0xFFFF_FFFF);
    let tol0 = rt["tolerance"]["per_byte"].as_u64().unwrap_or(0) as i32;
    for e in expect["entries"].as_array().into_iter().flatten() {
        let (px, py) = (
            e["x"].as_f64().unwrap_or(0.0) as f32,
            e["y"].as_f64().unwrap_or(0.0) as f32,
        );
        let Some((vary, z, inv_w)) = interpolate(&verts, list, px, py, &flat_locations) else {
            return Err(format!("({px}, {py}) is outside the draw"));
        };
        let c = match &ps_ir {
            None => {
                let d = vary.get(&10).copied().unwrap_or([1.0; 4]);
                [d[0], d[1], d[2], d[3]]
            }
            Some(ir) => {
                env.inputs = vary.clone();
                env.frag_coord = [px + 0.5, py + 0.5, z, inv_w];
                let o = run(ir, &env);
                let c = o.at(0);
                if c.len() < 4 {
                    return Err("no colour output".into());
                }
                [c[0], c[1], c[2], c[3]]
            }
        };
        let q = |x: f32| (x.clamp(0.0, 1.0) * 255.0).round() as u32;
        let got = q(c[3]) << 24 | q(c[0]) << 16 | q(c[1]) << 8 | q(c[2]);
        let tol = e["tolerance"]["per_byte"]
            .as_u64()
            .map_or(tol0, |t| t as i32);
        let mask = e["mask"]
            .as_str()
            .and_then(|m| u32::from_str_radix(m.trim_start_matches("0x"), 16).ok())
            .unwrap_or(mask0);
        let candidates: Vec<(u32, u32)> = match e.get("any_of") {
            Some(a) => a
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|x| {
                    if x.is_object() {
                        let m = x["mask"]
                            .as_str()
                            .and_then(|m| u32::from_str_radix(m.trim_start_matches("0x"), 16).ok())
                            .unwrap_or(mask);
                        color(&x["value"]).map(|v| (v, m))
                    } else {
                        color(x).map(|v| (v, mask))
                    }
                })
                .collect(),
            None => color(&e["value"]).map(|v| (v, mask)).into_iter().collect(),
        };
        let ok = candidates.iter().any(|&(want, m)| {
            (0..4).all(|k| {
                let sh = k * 8;
                if (m >> sh) & 0xFF == 0 {
                    return true;
                }
                let (g, w) = (((got >> sh) & 0xFF) as i32, ((want >> sh) & 0xFF) as i32);
                (g - w).abs() <= tol
            })
        });
        if !ok {
            return Err(format!(
                "pixel ({px}, {py}): got 0x{got:08x} (colour {c:?}), want {:?}",
                candidates
                    .iter()
                    .map(|(v, m)| format!("0x{v:08x}/0x{m:08x}"))
                    .collect::<Vec<_>>()
            ));
        }
    }
    Ok(Some(()))
}

#[test]
fn wine_visual_cases_compute_what_windows_drew() {
    let Ok(dir) = std::fs::read_dir(CASES) else {
        println!("{CASES} not found: execution cases skipped");
        return;
    };
    let mut paths: Vec<_> = dir.filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.sort();
    let (mut passed, mut skipped) = (0, Vec::new());
    let mut failures = Vec::new();
    for path in paths {
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        let Ok(case) = serde_json::from_str::<Value>(&text) else {
            continue;
        };
        let name = case["name"].as_str().unwrap_or("?").to_string();
        let runs: Vec<Value> = match case["runs"].as_array() {
            Some(r) => r
                .iter()
                .map(|run| {
                    let mut c = case.clone();
                    if let (Some(obj), Some(ro)) = (c.as_object_mut(), run.as_object()) {
                        for (k, v) in ro {
                            obj.insert(k.clone(), v.clone());
                        }
                    }
                    c
                })
                .collect(),
            None => vec![case.clone()],
        };
        for (i, c) in runs.iter().enumerate() {
            let label = format!("{name} run {i}");
            match run_case(c) {
                Ok(Some(())) => passed += 1,
                Ok(None) => skipped.push(label),
                Err(e) => failures.push(format!("{label}: {e}")),
            }
        }
    }
    println!(
        "exec-d3d9: {passed} runs match Windows, {} skipped (several draws, clip planes, derivatives, textures other than 2D A8R8G8B8/V8U8), {} differ",
        skipped.len(),
        failures.len()
    );
    println!("skipped: {}", skipped.join(", "));
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(passed > 40, "only {passed} runs checked");
}
