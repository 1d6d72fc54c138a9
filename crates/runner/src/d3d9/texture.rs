//! Textures and sampler states: `D3DFMT_*` texels converted to a Vulkan format that samples
//! to the same values, and `D3DSAMP_*` states as the runner's sampler description.
//!
//! Direct3D 9 formats often have no Vulkan twin (`L8`, `A8L8`, `V8U8`'s `(u, v, 1, 1)`,
//! `X8R8G8B8`'s alpha of 1, `L6V5U5`), and what a sample returns for the channels a format
//! lacks differs from Vulkan's `(0, 0, 0, 1)`: Direct3D 9 returns 1 for missing colour
//! channels (`R32F` samples as `(r, 1, 1, 1)`), `A8` as `(0, 0, 0, a)`, luminance formats as
//! `(l, l, l, a)`. So texels are converted on the host into a four-channel format that
//! holds the same values: 8-bit unsigned channels into `R8G8B8A8_UNORM` (`B8G8R8A8_UNORM`
//! for `A8R8G8B8`, the same bytes), signed ones into `R8G8B8A8_SNORM` (1 = 127), 16-bit
//! channels into the 16-bit four-channel formats, mixed and float formats into
//! `R32G32B32A32_FLOAT`. Narrow channels (5, 6, 4, 3, 2 bits) widen exactly enough: a
//! `k`-bit value `v` becomes `round(v * 255 / (2^k - 1))`, within half an 8-bit step of
//! Direct3D's `v / (2^k - 1)`.
//!
//! Unbound samplers (`null: true`) sample `(0, 0, 0, 1)` in Direct3D 9; they get a 1x1
//! texture of that colour of the declared type.

use super::case::Texture;
use super::state::{enum_name, number};
use crate::case::{Resource, SamplerDesc};
use crate::data::{self, Layout};

/// How a `D3DFMT_*` texel becomes a texel of the Vulkan-side format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Convert {
    /// The same bytes.
    Copy,
    /// The same bytes with the alpha byte (byte 3) set to 255.
    OpaqueAlpha,
    /// Unsigned channels (bit offset, width) into RGBA8 UNORM, missing channels 255.
    Unorm([Option<(u8, u8)>; 4]),
    /// Luminance (and alpha) channels into RGBA8 UNORM: `(l, l, l, a)`.
    Luminance { l: (u8, u8), a: Option<(u8, u8)> },
    /// Alpha only: `(0, 0, 0, a)`.
    AlphaOnly,
    /// Signed bytes `(u, v[, w, q])` into RGBA8 SNORM, missing channels 1.
    Snorm8(u8),
    /// Unsigned 16-bit channels into RGBA16 UNORM, missing channels 1.
    Unorm16 { channels: u8, luminance: bool },
    /// Signed 16-bit channels into RGBA16 SNORM, missing channels 1.
    Snorm16(u8),
    /// 16-bit floats into RGBA16F, missing channels 1.
    Half(u8),
    /// 32-bit floats into RGBA32F, missing channels 1.
    Float(u8),
    /// Mixed signed/unsigned channels (offset, width, signed) into RGBA32F, missing 1.
    Mixed([Option<(u8, u8, bool)>; 4]),
}

/// A `D3DFMT_*` texture format: its texel size, the DXGI name of the format it becomes and
/// the conversion.
struct Format {
    size: usize,
    target: &'static str,
    target_size: usize,
    convert: Convert,
}

fn format(name: &str) -> Option<Format> {
    use Convert as C;
    let n = name.strip_prefix("D3DFMT_").unwrap_or(name);
    let rgba8 = |size, c| (size, "R8G8B8A8_UNORM", 4, c);
    let u = |o, w| Some((o, w));
    let (size, target, target_size, convert) = match n {
        "A8R8G8B8" => (4, "B8G8R8A8_UNORM", 4, C::Copy),
        "X8R8G8B8" => (4, "B8G8R8A8_UNORM", 4, C::OpaqueAlpha),
        "A8B8G8R8" => (4, "R8G8B8A8_UNORM", 4, C::Copy),
        "X8B8G8R8" => (4, "R8G8B8A8_UNORM", 4, C::OpaqueAlpha),
        "R5G6B5" => rgba8(2, C::Unorm([u(11, 5), u(5, 6), u(0, 5), None])),
        "X1R5G5B5" => rgba8(2, C::Unorm([u(10, 5), u(5, 5), u(0, 5), None])),
        "A1R5G5B5" => rgba8(2, C::Unorm([u(10, 5), u(5, 5), u(0, 5), u(15, 1)])),
        "A4R4G4B4" => rgba8(2, C::Unorm([u(8, 4), u(4, 4), u(0, 4), u(12, 4)])),
        "X4R4G4B4" => rgba8(2, C::Unorm([u(8, 4), u(4, 4), u(0, 4), None])),
        "R3G3B2" => rgba8(1, C::Unorm([u(5, 3), u(2, 3), u(0, 2), None])),
        "A8R3G3B2" => rgba8(2, C::Unorm([u(5, 3), u(2, 3), u(0, 2), u(8, 8)])),
        "R8G8B8" => rgba8(3, C::Unorm([u(16, 8), u(8, 8), u(0, 8), None])),
        "A8" => rgba8(1, C::AlphaOnly),
        "L8" => rgba8(1, C::Luminance { l: (0, 8), a: None }),
        "A8L8" => rgba8(
            2,
            C::Luminance {
                l: (0, 8),
                a: u(8, 8),
            },
        ),
        "A4L4" => rgba8(
            1,
            C::Luminance {
                l: (0, 4),
                a: u(4, 4),
            },
        ),
        "V8U8" => (2, "R8G8B8A8_SNORM", 4, C::Snorm8(2)),
        "Q8W8V8U8" => (4, "R8G8B8A8_SNORM", 4, C::Snorm8(4)),
        "L16" => (
            2,
            "R16G16B16A16_UNORM",
            8,
            C::Unorm16 {
                channels: 1,
                luminance: true,
            },
        ),
        "G16R16" => (
            4,
            "R16G16B16A16_UNORM",
            8,
            C::Unorm16 {
                channels: 2,
                luminance: false,
            },
        ),
        "A16B16G16R16" => (8, "R16G16B16A16_UNORM", 8, C::Copy),
        "V16U16" => (4, "R16G16B16A16_SNORM", 8, C::Snorm16(2)),
        "Q16W16V16U16" => (8, "R16G16B16A16_SNORM", 8, C::Snorm16(4)),
        "R16F" => (2, "R16G16B16A16_FLOAT", 8, C::Half(1)),
        "G16R16F" => (4, "R16G16B16A16_FLOAT", 8, C::Half(2)),
        "A16B16G16R16F" => (8, "R16G16B16A16_FLOAT", 8, C::Half(4)),
        "R32F" => (4, "R32G32B32A32_FLOAT", 16, C::Float(1)),
        "G32R32F" => (8, "R32G32B32A32_FLOAT", 16, C::Float(2)),
        "A32B32G32R32F" => (16, "R32G32B32A32_FLOAT", 16, C::Float(4)),
        "A2B10G10R10" => (4, "R10G10B10A2_UNORM", 4, C::Copy),
        "A2R10G10B10" => (
            4,
            "R32G32B32A32_FLOAT",
            16,
            C::Mixed([
                Some((20, 10, false)),
                Some((10, 10, false)),
                Some((0, 10, false)),
                Some((30, 2, false)),
            ]),
        ),
        "L6V5U5" => (
            2,
            "R32G32B32A32_FLOAT",
            16,
            C::Mixed([
                Some((0, 5, true)),
                Some((5, 5, true)),
                Some((10, 6, false)),
                None,
            ]),
        ),
        "X8L8V8U8" => (
            4,
            "R32G32B32A32_FLOAT",
            16,
            C::Mixed([
                Some((0, 8, true)),
                Some((8, 8, true)),
                Some((16, 8, false)),
                None,
            ]),
        ),
        "A2W10V10U10" => (
            4,
            "R32G32B32A32_FLOAT",
            16,
            C::Mixed([
                Some((0, 10, true)),
                Some((10, 10, true)),
                Some((20, 10, true)),
                Some((30, 2, false)),
            ]),
        ),
        _ => return None,
    };
    Some(Format {
        size,
        target,
        target_size,
        convert,
    })
}

/// `v`, `w` bits wide, widened to 8 bits.
fn widen(v: u32, w: u8) -> u8 {
    let max = (1u32 << w) - 1;
    ((v * 255 + max / 2) / max) as u8
}

fn field(t: u64, (o, w): (u8, u8)) -> u32 {
    ((t >> o) & ((1u64 << w) - 1)) as u32
}

/// A signed `w`-bit field as a float in [-1, 1] (the most negative value clamps to -1).
fn snorm_field(t: u64, o: u8, w: u8) -> f32 {
    let raw = field(t, (o, w));
    let shift = 32 - u32::from(w);
    let v = ((raw << shift) as i32) >> shift;
    let max = ((1u32 << (w - 1)) - 1) as f32;
    (v as f32 / max).max(-1.0)
}

/// Converts one texel (`src`, the format's little-endian element) into `dst`.
fn convert_texel(c: Convert, src: &[u8], dst: &mut [u8]) {
    let mut b = [0u8; 16];
    b[..src.len()].copy_from_slice(src);
    let t = u64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]]);
    match c {
        Convert::Copy => dst.copy_from_slice(src),
        Convert::OpaqueAlpha => {
            dst.copy_from_slice(src);
            dst[3] = 255;
        }
        Convert::Unorm(ch) => {
            for (i, f) in ch.iter().enumerate() {
                dst[i] = f.map_or(255, |(o, w)| widen(field(t, (o, w)), w));
            }
        }
        Convert::Luminance { l, a } => {
            let lv = widen(field(t, l), l.1);
            dst[..3].fill(lv);
            dst[3] = a.map_or(255, |(o, w)| widen(field(t, (o, w)), w));
        }
        Convert::AlphaOnly => {
            dst[..3].fill(0);
            dst[3] = src[0];
        }
        Convert::Snorm8(n) => {
            let n = usize::from(n);
            dst[..n].copy_from_slice(&src[..n]);
            dst[n..].fill(127);
        }
        Convert::Unorm16 {
            channels,
            luminance,
        } => {
            let n = usize::from(channels) * 2;
            if luminance {
                for i in 0..3 {
                    dst[2 * i..2 * i + 2].copy_from_slice(&src[..2]);
                }
                dst[6..8].fill(0xff);
            } else {
                dst[..n].copy_from_slice(&src[..n]);
                dst[n..].fill(0xff);
            }
        }
        Convert::Snorm16(n) => {
            let n = usize::from(n) * 2;
            dst[..n].copy_from_slice(&src[..n]);
            for c in dst[n..].chunks_exact_mut(2) {
                c.copy_from_slice(&0x7fffu16.to_le_bytes());
            }
        }
        Convert::Half(n) => {
            let n = usize::from(n) * 2;
            dst[..n].copy_from_slice(&src[..n]);
            for c in dst[n..].chunks_exact_mut(2) {
                c.copy_from_slice(&0x3c00u16.to_le_bytes());
            }
        }
        Convert::Float(n) => {
            let n = usize::from(n) * 4;
            dst[..n].copy_from_slice(&src[..n]);
            for c in dst[n..].chunks_exact_mut(4) {
                c.copy_from_slice(&1.0f32.to_le_bytes());
            }
        }
        Convert::Mixed(ch) => {
            for (i, f) in ch.iter().enumerate() {
                let v = match f {
                    None => 1.0,
                    Some((o, w, true)) => snorm_field(t, *o, *w),
                    Some((o, w, false)) => field(t, (*o, *w)) as f32 / ((1u64 << w) - 1) as f32,
                };
                dst[4 * i..4 * i + 4].copy_from_slice(&v.to_le_bytes());
            }
        }
    }
}

/// The view name and subresource geometry of a texture type.
fn view_of(ty: Option<&str>) -> Result<(&'static str, u32), String> {
    Ok(match ty.unwrap_or("2d") {
        "2d" => ("texture2d", 1),
        "cube" => ("texturecube", 6),
        "volume" => ("texture3d", 1),
        t => return Err(format!("texture type `{t}`")),
    })
}

/// The SRV and sampler resources of `tex` (register space `space`, visible to `stage`).
pub(super) fn resources(tex: &Texture, space: u32, stage: &str) -> Result<[Resource; 2], String> {
    let which = format!("texture of sampler {}", tex.sampler);
    let (view, faces) = view_of(tex.ty.as_deref()).map_err(|e| format!("{which}: {e}"))?;
    let stages = Some(vec![stage.to_string()]);
    let sampler = Resource {
        kind: "sampler".into(),
        space,
        register: tex.sampler,
        sampler: Some(sampler_desc(tex).map_err(|e| format!("{which}: {e}"))?),
        stages: stages.clone(),
        ..Resource::default()
    };
    let srv = if tex.null {
        // Direct3D 9 samples (0, 0, 0, 1) from an unbound sampler.
        let texels = faces as usize;
        Resource {
            kind: "srv".into(),
            space,
            register: tex.sampler,
            view: Some(view.into()),
            format: Some("R8G8B8A8_UNORM".into()),
            array_size: (faces > 1).then_some(faces),
            bytes: Some([0, 0, 0, 255].repeat(texels)),
            stages,
            ..Resource::default()
        }
    } else {
        let name = tex.format.as_deref().ok_or(format!("{which}: no format"))?;
        let f = format(name).ok_or_else(|| format!("{which}: format {name} not implemented"))?;
        let (w, h) = (tex.width.unwrap_or(1), tex.height.unwrap_or(1));
        let d = if view == "texture3d" {
            tex.depth.unwrap_or(1)
        } else {
            1
        };
        let levels = tex.levels.unwrap_or(1).max(1);
        let mut texels = 0usize;
        for _ in 0..faces {
            for l in 0..levels {
                let m = |v: u32| (v >> l).max(1) as usize;
                texels += m(w) * m(h) * m(d);
            }
        }
        let mut src = vec![0u8; texels * f.size];
        if let Some(init) = &tex.data {
            let layout = Layout {
                width: w as usize,
                height: h as usize,
                texel_size: f.size,
            };
            data::fill_initial(&mut src, init, &layout).map_err(|e| format!("{which}: {e}"))?;
        }
        let mut dst = vec![0u8; texels * f.target_size];
        for (s, d) in src
            .chunks_exact(f.size)
            .zip(dst.chunks_exact_mut(f.target_size))
        {
            convert_texel(f.convert, s, d);
        }
        let srgb = match tex.sampler_states.get("D3DSAMP_SRGBTEXTURE") {
            Some(v) => number(v).map_err(|e| format!("{which}: D3DSAMP_SRGBTEXTURE: {e}"))? != 0.0,
            None => false,
        };
        let target = match (srgb, f.target) {
            (false, t) => t.to_string(),
            (true, t @ ("R8G8B8A8_UNORM" | "B8G8R8A8_UNORM")) => format!("{t}_SRGB"),
            (true, _) => {
                return Err(format!(
                    "{which}: D3DSAMP_SRGBTEXTURE on {name} not implemented"
                ))
            }
        };
        Resource {
            kind: "srv".into(),
            space,
            register: tex.sampler,
            view: Some(view.into()),
            format: Some(target),
            width: Some(w),
            height: Some(h),
            depth: (d > 1).then_some(d),
            array_size: (faces > 1).then_some(faces),
            mip_levels: Some(levels),
            bytes: Some(dst),
            stages,
            ..Resource::default()
        }
    };
    Ok([srv, sampler])
}

/// A sampler with Direct3D 9's default state (point filtering, wrap), for samplers the case
/// binds nothing to.
pub(super) fn default_sampler() -> SamplerDesc {
    SamplerDesc {
        filter: Some("MIN_MAG_MIP_POINT".into()),
        address_u: Some("WRAP".into()),
        address_v: Some("WRAP".into()),
        address_w: Some("WRAP".into()),
        ..SamplerDesc::default()
    }
}

/// The sampler description of `D3DSAMP_*` states (defaults: point filtering, no mip
/// filtering... wrap addressing, border colour 0).
fn sampler_desc(tex: &Texture) -> Result<SamplerDesc, String> {
    let mut filters = ["POINT", "POINT", "NONE"];
    let mut address = ["WRAP", "WRAP", "WRAP"];
    let mut desc = default_sampler();
    for (k, v) in &tex.sampler_states {
        let state = k.strip_prefix("D3DSAMP_").unwrap_or(k);
        match state {
            "MINFILTER" | "MAGFILTER" | "MIPFILTER" => {
                let f = enum_name(v, "D3DTEXF_").map_err(|e| format!("{k}: {e}"))?;
                let f = match f.as_str() {
                    "NONE" | "POINT" | "LINEAR" => f,
                    // Anisotropic, pyramidal and Gaussian quad filtering sample like linear.
                    "ANISOTROPIC" | "PYRAMIDALQUAD" | "GAUSSIANQUAD" => "LINEAR".into(),
                    other => return Err(format!("{k}: filter `{other}`")),
                };
                let i = ["MINFILTER", "MAGFILTER", "MIPFILTER"]
                    .iter()
                    .position(|s| *s == state)
                    .unwrap_or(0);
                filters[i] = match f.as_str() {
                    "NONE" if i < 2 => "POINT",
                    "NONE" => "NONE",
                    "LINEAR" => "LINEAR",
                    _ => "POINT",
                };
            }
            "ADDRESSU" | "ADDRESSV" | "ADDRESSW" => {
                let a = enum_name(v, "D3DTADDRESS_").map_err(|e| format!("{k}: {e}"))?;
                let mode = match a.as_str() {
                    "WRAP" => "WRAP",
                    "MIRROR" => "MIRROR",
                    "CLAMP" => "CLAMP",
                    "BORDER" => "BORDER",
                    "MIRRORONCE" => "MIRROR_ONCE",
                    other => return Err(format!("{k}: address mode `{other}`")),
                };
                let i = usize::from(state.as_bytes()[7] - b'U').min(2);
                address[i] = mode;
            }
            "BORDERCOLOR" => {
                let c = super::state::color(v).map_err(|e| format!("{k}: {e}"))?;
                desc.border_color = Some(c.map(f64::from));
            }
            "MIPMAPLODBIAS" => {
                desc.mip_lod_bias = Some(number(v).map_err(|e| format!("{k}: {e}"))?);
            }
            "MAXMIPLEVEL" => {
                desc.min_lod = Some(number(v).map_err(|e| format!("{k}: {e}"))?);
            }
            // sRGB decoding picks the texture's format (see `resources`).
            "MAXANISOTROPY" | "SRGBTEXTURE" => {}
            other => return Err(format!("sampler state D3DSAMP_{other} not implemented")),
        }
    }
    let mip = match filters[2] {
        "NONE" => {
            // No mip filtering: the most detailed level (MAXMIPLEVEL) only.
            desc.max_lod = Some(desc.min_lod.unwrap_or(0.0));
            "POINT"
        }
        m => m,
    };
    desc.filter = Some(format!("MIN_{}_MAG_{}_MIP_{mip}", filters[0], filters[1]));
    desc.address_u = Some(address[0].into());
    desc.address_v = Some(address[1].into());
    desc.address_w = Some(address[2].into());
    Ok(desc)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn conv(name: &str, src: &[u8]) -> Vec<u8> {
        let f = format(name).expect("known format");
        assert_eq!(src.len(), f.size);
        let mut dst = vec![0; f.target_size];
        convert_texel(f.convert, src, &mut dst);
        dst
    }

    #[test]
    fn formats_sample_as_direct3d_9() {
        // A8R8G8B8 0x80ff4020 stays as it is (B8G8R8A8).
        assert_eq!(
            conv("D3DFMT_A8R8G8B8", &[0x20, 0x40, 0xff, 0x80]),
            [0x20, 0x40, 0xff, 0x80]
        );
        assert_eq!(conv("D3DFMT_X8R8G8B8", &[1, 2, 3, 0]), [1, 2, 3, 255]);
        // R5G6B5 pure red, half green.
        let t = (31u16 << 11) | (32 << 5);
        assert_eq!(conv("D3DFMT_R5G6B5", &t.to_le_bytes()), [255, 130, 0, 255]);
        assert_eq!(conv("D3DFMT_L8", &[0x40]), [0x40, 0x40, 0x40, 255]);
        assert_eq!(conv("D3DFMT_A8", &[0x40]), [0, 0, 0, 0x40]);
        assert_eq!(conv("D3DFMT_A8L8", &[0x10, 0x20]), [0x10, 0x10, 0x10, 0x20]);
        // V8U8: (u, v, 1, 1) with u in the low byte.
        assert_eq!(
            conv("D3DFMT_V8U8", &4081u16.to_le_bytes()),
            [0xf1, 0x0f, 127, 127]
        );
        // R32F: (r, 1, 1, 1).
        let out = conv("D3DFMT_R32F", &0.25f32.to_le_bytes());
        let f = |i: usize| f32::from_le_bytes([out[i], out[i + 1], out[i + 2], out[i + 3]]);
        assert_eq!([f(0), f(4), f(8), f(12)], [0.25, 1.0, 1.0, 1.0]);
        // L6V5U5: u = -15 (0b10001), v = 15, l = 63.
        let t: u16 = 0b10001 | (15 << 5) | (63 << 10);
        let out = conv("D3DFMT_L6V5U5", &t.to_le_bytes());
        let f = |i: usize| f32::from_le_bytes([out[i], out[i + 1], out[i + 2], out[i + 3]]);
        assert_eq!([f(0), f(4), f(8), f(12)], [-1.0, 1.0, 1.0, 1.0]);
        assert!(format("D3DFMT_DXT1").is_none());
    }

    #[test]
    fn sampler_states() {
        let tex: Texture = serde_json::from_value(serde_json::json!({
            "sampler": 0, "type": "2d", "format": "D3DFMT_A8R8G8B8",
            "sampler_states": {
                "D3DSAMP_ADDRESSU": "D3DTADDRESS_CLAMP",
                "D3DSAMP_ADDRESSV": "D3DTADDRESS_MIRROR",
                "D3DSAMP_MINFILTER": "D3DTEXF_LINEAR",
                "D3DSAMP_MAGFILTER": "D3DTEXF_POINT"
            }
        }))
        .expect("parses");
        let d = sampler_desc(&tex).expect("converts");
        assert_eq!(d.filter.as_deref(), Some("MIN_LINEAR_MAG_POINT_MIP_POINT"));
        assert_eq!(d.address_u.as_deref(), Some("CLAMP"));
        assert_eq!(d.address_v.as_deref(), Some("MIRROR"));
        assert_eq!(d.address_w.as_deref(), Some("WRAP"));
        // MIPFILTER NONE (the default): level 0 only.
        assert_eq!(d.max_lod, Some(0.0));
    }
}
