//! Vertex data: each declaration element's value fetched the way Direct3D 9's vertex fetch
//! reads its `D3DDECLTYPE_*` (or D3D8 `D3DVSDT_*`) type, as four floats.
//!
//! The runner does not upload the case's byte layout: every element of a vertex is fetched
//! on the host into the `vec4<f32>` a vertex shader input register receives (missing
//! components from `(0, 0, 0, 1)`, normalised types divided, `D3DCOLOR`'s BGRA bytes read as
//! `(r, g, b, a)`), and the draw's vertex buffer holds those vectors, element after element
//! (16 bytes each), vertex after vertex, read as `R32G32B32A32_SFLOAT`. Stream numbers and
//! offsets of the declaration then only order the elements; what a shader input receives is
//! the same.
//!
//! Pretransformed positions (`POSITIONT`: `(x, y, z, rhw)` in window pixels) become clip
//! positions here, so that the pipeline's viewport transform (with its half-pixel shift)
//! puts them back at `(x, y)`: `w = 1 / rhw`, `x_clip = (2 (x - X) / W - 1) w`,
//! `y_clip = (1 - 2 (y - Y) / H) w`, `z_clip = z w`.

use super::case::{hex32, DeclElement, Draw};
use ash::vk;

/// One element's fetched value for every vertex of a draw.
pub(super) struct Element {
    /// The declaration element.
    pub(super) decl: DeclElement,
    /// `<USAGE><index>` or `v<register>`.
    pub(super) key: String,
}

/// A draw's vertices: per vertex, per element, four floats.
pub(super) struct Vertices {
    /// The elements in declaration order.
    pub(super) elements: Vec<Element>,
    /// `vertices * elements * 4` floats.
    pub(super) data: Vec<f32>,
    /// Vertex count.
    pub(super) count: u32,
}

impl Vertices {
    /// The data as little-endian bytes.
    pub(super) fn bytes(&self) -> Vec<u8> {
        self.data.iter().flat_map(|f| f.to_le_bytes()).collect()
    }
}

/// Vertices a `D3DPT_*` primitive of `count` primitives reads, and its Vulkan topology.
pub(super) fn primitive(name: &str, count: u32) -> Result<(vk::PrimitiveTopology, u32), String> {
    use vk::PrimitiveTopology as T;
    let n = name.strip_prefix("D3DPT_").unwrap_or(name);
    let (t, v) = match n {
        "POINTLIST" => (T::POINT_LIST, Some(count)),
        "LINELIST" => (T::LINE_LIST, count.checked_mul(2)),
        "LINESTRIP" => (T::LINE_STRIP, count.checked_add(1)),
        "TRIANGLELIST" => (T::TRIANGLE_LIST, count.checked_mul(3)),
        "TRIANGLESTRIP" => (T::TRIANGLE_STRIP, count.checked_add(2)),
        "TRIANGLEFAN" => (T::TRIANGLE_FAN, count.checked_add(2)),
        _ => return Err(format!("primitive type `{name}`")),
    };
    Ok((t, v.ok_or_else(|| format!("{count} primitives overflow"))?))
}

/// The viewport a pretransformed position is relative to: `x, y, width, height`.
pub(super) type Viewport = [f32; 4];

/// Reads the draw's vertices; `viewport` converts `POSITIONT` elements to clip space.
pub(super) fn read(draw: &Draw, viewport: Viewport) -> Result<Vertices, String> {
    let (_, count) = primitive(&draw.primitive, draw.primitive_count)?;
    if draw.vertices.len() < count as usize {
        return Err(format!(
            "{} {} need {count} vertices, the draw has {}",
            draw.primitive_count,
            draw.primitive,
            draw.vertices.len()
        ));
    }
    let mut elements = Vec::new();
    for d in &draw.vertex_declaration {
        let key = d.key()?;
        if elements.iter().any(|e: &Element| e.key == key) {
            return Err(format!("declaration element {key} appears twice"));
        }
        elements.push(Element {
            decl: d.clone(),
            key,
        });
    }
    let mut data = Vec::with_capacity(count as usize * elements.len() * 4);
    for (i, v) in draw.vertices.iter().take(count as usize).enumerate() {
        for e in &elements {
            let value = v
                .get(&e.key)
                .ok_or_else(|| format!("vertex {i} has no {}", e.key))?;
            let mut f =
                fetch(&e.decl.ty, value).map_err(|err| format!("vertex {i} {}: {err}", e.key))?;
            if e.decl.usage_name() == Some("POSITIONT") {
                f = pretransformed(f, viewport);
            }
            data.extend_from_slice(&f);
        }
    }
    Ok(Vertices {
        elements,
        data,
        count,
    })
}

/// The clip position of a pretransformed `(x, y, z, rhw)` in `viewport`.
fn pretransformed([x, y, z, rhw]: [f32; 4], [vx, vy, vw, vh]: Viewport) -> [f32; 4] {
    let w = if rhw != 0.0 { 1.0 / rhw } else { 1.0 };
    let nx = 2.0 * (x - vx) / vw - 1.0;
    let ny = 1.0 - 2.0 * (y - vy) / vh;
    [nx * w, ny * w, z * w, w]
}

fn nums(v: &serde_json::Value, n: usize) -> Result<Vec<f64>, String> {
    let list = v
        .as_array()
        .ok_or_else(|| format!("expected {n} numbers, got {v}"))?;
    if list.len() != n {
        return Err(format!("expected {n} numbers, got {}", list.len()));
    }
    list.iter()
        .map(|x| x.as_f64().ok_or_else(|| format!("`{x}` is not a number")))
        .collect()
}

/// A packed 32-bit value: `"0x..."` or a number.
fn dword(v: &serde_json::Value) -> Result<u32, String> {
    match v {
        serde_json::Value::String(s) => hex32(s),
        serde_json::Value::Number(n) => n
            .as_u64()
            .and_then(|u| u32::try_from(u).ok())
            .ok_or_else(|| format!("`{n}` is not a 32-bit value")),
        other => Err(format!("expected a packed value, got {other}")),
    }
}

/// Four bytes given as four numbers or as the little-endian dword holding them.
fn bytes4(v: &serde_json::Value) -> Result<[u8; 4], String> {
    if v.is_array() {
        let n = nums(v, 4)?;
        let mut out = [0u8; 4];
        for (o, x) in out.iter_mut().zip(n) {
            if !(0.0..=255.0).contains(&x) || x.fract() != 0.0 {
                return Err(format!("{x} is not a byte"));
            }
            *o = x as u8;
        }
        Ok(out)
    } else {
        Ok(dword(v)?.to_le_bytes())
    }
}

/// Integers of a type `bits` wide, given as numbers.
fn ints(v: &serde_json::Value, n: usize, min: f64, max: f64) -> Result<Vec<f64>, String> {
    let list = nums(v, n)?;
    for x in &list {
        if *x < min || *x > max || x.fract() != 0.0 {
            return Err(format!("{x} is not in {min}..={max}"));
        }
    }
    Ok(list)
}

/// A 16-bit float given as a number (rounded to binary16) or as its `"0x...."` bits.
fn half(v: &serde_json::Value) -> Result<f32, String> {
    match v {
        serde_json::Value::String(s) => {
            let bits = hex32(s)?;
            u16::try_from(bits)
                .map(f16_to_f32)
                .map_err(|_| format!("`{s}` is not 16 bits"))
        }
        _ => {
            let x = v.as_f64().ok_or_else(|| format!("`{v}` is not a number"))?;
            Ok(f16_to_f32(f32_to_f16(x as f32)))
        }
    }
}

fn f16_to_f32(h: u16) -> f32 {
    let sign = if h & 0x8000 != 0 { -1.0 } else { 1.0 };
    let exp = i32::from((h >> 10) & 0x1f);
    let man = f32::from(h & 0x3ff);
    sign * match exp {
        0 => man * 2f32.powi(-24),
        31 if man == 0.0 => f32::INFINITY,
        31 => f32::NAN,
        e => (1.0 + man / 1024.0) * 2f32.powi(e - 15),
    }
}

fn f32_to_f16(f: f32) -> u16 {
    // Round to nearest even through the binary32 bits; enough for test data.
    let b = f.to_bits();
    let sign = ((b >> 16) & 0x8000) as u16;
    let exp = ((b >> 23) & 0xff) as i32 - 127 + 15;
    let man = b & 0x7f_ffff;
    if exp >= 31 {
        return sign | 0x7c00 | if f.is_nan() { 0x200 } else { 0 };
    }
    if exp <= 0 {
        if exp < -10 {
            return sign;
        }
        let m = man | 0x80_0000;
        let shift = (14 - exp) as u32;
        let half = m >> shift;
        let rest = m & ((1 << shift) - 1);
        let mid = 1 << (shift - 1);
        let round = u32::from(rest > mid || (rest == mid && half & 1 == 1));
        return sign | (half + round) as u16;
    }
    let h = ((exp as u32) << 10) | (man >> 13);
    let rest = man & 0x1fff;
    let round = u32::from(rest > 0x1000 || (rest == 0x1000 && h & 1 == 1));
    sign | (h + round) as u16
}

/// The `vec4<f32>` Direct3D 9's vertex fetch gives for a `D3DDECLTYPE_*`/`D3DVSDT_*` value.
pub(super) fn fetch(ty: &str, v: &serde_json::Value) -> Result<[f32; 4], String> {
    let t = ty
        .strip_prefix("D3DDECLTYPE_")
        .or_else(|| ty.strip_prefix("D3DVSDT_"))
        .unwrap_or(ty);
    let mut out = [0.0, 0.0, 0.0, 1.0];
    let mut set = |vals: &[f64]| {
        for (o, x) in out.iter_mut().zip(vals) {
            *o = *x as f32;
        }
    };
    match t {
        "FLOAT1" | "FLOAT2" | "FLOAT3" | "FLOAT4" => {
            let n = usize::from(t.as_bytes()[5] - b'0');
            set(&nums(v, n)?);
        }
        "D3DCOLOR" => {
            let [b, g, r, a] = dword(v)?.to_le_bytes();
            set(&[r, g, b, a].map(|c| f64::from(c) / 255.0));
        }
        "UBYTE4" => set(&bytes4(v)?.map(f64::from)),
        "UBYTE4N" => set(&bytes4(v)?.map(|c| f64::from(c) / 255.0)),
        "SHORT2" => set(&ints(v, 2, -32768.0, 32767.0)?),
        "SHORT4" => set(&ints(v, 4, -32768.0, 32767.0)?),
        "SHORT2N" | "SHORT4N" => {
            let n = if t == "SHORT2N" { 2 } else { 4 };
            let l = ints(v, n, -32768.0, 32767.0)?;
            set(&l
                .iter()
                .map(|x| (x / 32767.0).max(-1.0))
                .collect::<Vec<_>>());
        }
        "USHORT2N" | "USHORT4N" => {
            let n = if t == "USHORT2N" { 2 } else { 4 };
            let l = ints(v, n, 0.0, 65535.0)?;
            set(&l.iter().map(|x| x / 65535.0).collect::<Vec<_>>());
        }
        "UDEC3" | "DEC3N" => {
            let d = dword(v)?;
            let c = |i: u32| (d >> (10 * i)) & 0x3ff;
            let vals: Vec<f64> = if t == "UDEC3" {
                (0..3).map(|i| f64::from(c(i))).collect()
            } else {
                (0..3)
                    .map(|i| {
                        let s = (((c(i) << 22) as i32) >> 22) as f64;
                        (s / 511.0).max(-1.0)
                    })
                    .collect()
            };
            set(&vals);
        }
        "FLOAT16_2" | "FLOAT16_4" => {
            let n = if t == "FLOAT16_2" { 2 } else { 4 };
            let list = v
                .as_array()
                .filter(|l| l.len() == n)
                .ok_or_else(|| format!("expected {n} half floats, got {v}"))?;
            let mut vals = Vec::with_capacity(n);
            for x in list {
                vals.push(f64::from(half(x)?));
            }
            set(&vals);
        }
        _ => return Err(format!("declaration type `{ty}` not implemented")),
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn fetch_fills_and_converts() {
        assert_eq!(
            fetch("D3DDECLTYPE_FLOAT3", &json!([1.0, 2.0, 3.0])),
            Ok([1.0, 2.0, 3.0, 1.0])
        );
        assert_eq!(
            fetch("D3DDECLTYPE_FLOAT1", &json!([0.5])),
            Ok([0.5, 0.0, 0.0, 1.0])
        );
        // D3DCOLOR 0xAARRGGBB reads as (r, g, b, a).
        assert_eq!(
            fetch("D3DDECLTYPE_D3DCOLOR", &json!("0x00ff8040")),
            Ok([1.0, 128.0 / 255.0, 64.0 / 255.0, 0.0])
        );
        // UBYTE4: bytes in memory order, not normalised.
        assert_eq!(
            fetch("D3DVSDT_UBYTE4", &json!([64, 128, 255, 0])),
            Ok([64.0, 128.0, 255.0, 0.0])
        );
        assert_eq!(
            fetch("D3DDECLTYPE_SHORT2N", &json!([-32768, 32767])),
            Ok([-1.0, 1.0, 0.0, 1.0])
        );
        // UDEC3 (1, 2, 3) packed.
        assert_eq!(
            fetch("D3DDECLTYPE_UDEC3", &json!(1 | (2 << 10) | (3 << 20))),
            Ok([1.0, 2.0, 3.0, 1.0])
        );
        assert_eq!(
            fetch("D3DDECLTYPE_FLOAT16_2", &json!([0.1, "0x3c00"])),
            Ok([f16_to_f32(0x2e66), 1.0, 0.0, 1.0])
        );
        assert!(fetch("D3DDECLTYPE_FLOAT3", &json!([1.0, 2.0])).is_err());
        assert!(fetch("D3DDECLTYPE_UBYTE4", &json!([256, 0, 0, 0])).is_err());
        assert!(fetch("D3DDECLTYPE_UNUSED", &json!([])).is_err());
    }

    #[test]
    fn pretransformed_positions_land_on_their_pixels() {
        // The window corners of a 640x480 viewport are the clip corners.
        let vp = [0.0, 0.0, 640.0, 480.0];
        assert_eq!(
            pretransformed([0.0, 0.0, 0.5, 1.0], vp),
            [-1.0, 1.0, 0.5, 1.0]
        );
        assert_eq!(
            pretransformed([640.0, 480.0, 0.0, 1.0], vp),
            [1.0, -1.0, 0.0, 1.0]
        );
        // rhw 0.5: w = 2, the same window position.
        assert_eq!(
            pretransformed([320.0, 240.0, 0.5, 0.5], vp),
            [0.0, 0.0, 1.0, 2.0]
        );
    }

    #[test]
    fn primitives_count_vertices() {
        use vk::PrimitiveTopology as T;
        assert_eq!(
            primitive("D3DPT_TRIANGLESTRIP", 2),
            Ok((T::TRIANGLE_STRIP, 4))
        );
        assert_eq!(
            primitive("D3DPT_TRIANGLELIST", 2),
            Ok((T::TRIANGLE_LIST, 6))
        );
        assert_eq!(primitive("D3DPT_POINTLIST", 16), Ok((T::POINT_LIST, 16)));
        assert!(primitive("D3DPT_QUADLIST", 1).is_err());
    }

    #[test]
    fn half_floats_round_to_nearest() {
        assert_eq!(f32_to_f16(1.0), 0x3c00);
        assert_eq!(f32_to_f16(-2.0), 0xc000);
        assert_eq!(f32_to_f16(0.1), 0x2e66);
        assert_eq!(f32_to_f16(65536.0), 0x7c00);
        assert_eq!(f16_to_f32(0x0001), 2f32.powi(-24));
    }
}
