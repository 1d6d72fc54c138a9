//! Resource contents: building initial bytes and checking expectations.

use crate::case::{Data, Texel, Tolerance, Value};

/// Element type of a data block.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ty {
    /// 8-bit unsigned.
    U8,
    /// 16-bit unsigned.
    U16,
    /// 32-bit unsigned.
    U32,
    /// 32-bit signed.
    I32,
    /// 64-bit unsigned.
    U64,
    /// binary32.
    F32,
}

impl Ty {
    /// Parses a `type` field.
    pub fn parse(s: &str) -> Result<Ty, String> {
        Ok(match s {
            "u8" => Ty::U8,
            "u16" => Ty::U16,
            "u32" => Ty::U32,
            "i32" => Ty::I32,
            "u64" => Ty::U64,
            "f32" => Ty::F32,
            _ => return Err(format!("unknown data type `{s}`")),
        })
    }

    /// Size in bytes.
    pub fn size(self) -> usize {
        match self {
            Ty::U8 => 1,
            Ty::U16 => 2,
            Ty::U32 | Ty::I32 | Ty::F32 => 4,
            Ty::U64 => 8,
        }
    }

    /// Converts a JSON value to the element's bit pattern.
    pub fn bits(self, v: &Value) -> Result<u64, String> {
        let mask = if self.size() == 8 {
            u64::MAX
        } else {
            (1u64 << (8 * self.size())) - 1
        };
        match v {
            Value::Str(s) => {
                let hex = s
                    .strip_prefix("0x")
                    .or_else(|| s.strip_prefix("0X"))
                    .ok_or_else(|| format!("bad value string `{s}` (expected 0x...)"))?;
                u64::from_str_radix(hex, 16)
                    .map(|b| b & mask)
                    .map_err(|e| format!("bad value string `{s}`: {e}"))
            }
            Value::Num(n) => {
                if self == Ty::F32 {
                    let f = n.as_f64().ok_or_else(|| format!("bad float {n}"))?;
                    return Ok(u64::from((f as f32).to_bits()));
                }
                if let Some(u) = n.as_u64() {
                    Ok(u & mask)
                } else if let Some(i) = n.as_i64() {
                    Ok((i as u64) & mask)
                } else {
                    Err(format!("non-integer {n} for an integer type"))
                }
            }
        }
    }

    /// Reads element `i` from `bytes` (zero when out of range).
    pub fn read(self, bytes: &[u8], i: usize) -> Option<u64> {
        let s = self.size();
        let chunk = bytes.get(i * s..i * s + s)?;
        let mut b = [0u8; 8];
        b[..s].copy_from_slice(chunk);
        Some(u64::from_le_bytes(b))
    }

    /// Writes element `i` (ignored when out of range).
    pub fn write(self, bytes: &mut [u8], i: usize, v: u64) {
        let s = self.size();
        if let Some(chunk) = bytes.get_mut(i * s..i * s + s) {
            chunk.copy_from_slice(&v.to_le_bytes()[..s]);
        }
    }

    /// Formats a bit pattern for messages.
    pub fn show(self, v: u64) -> String {
        match self {
            Ty::F32 => format!("{:?} (0x{v:08x})", f32::from_bits(v as u32)),
            Ty::I32 => format!("{}", v as u32 as i32),
            Ty::U64 => format!("0x{v:016x}"),
            _ => format!("{v}"),
        }
    }
}

/// Texel geometry of a texture for region/entry addressing.
#[derive(Clone, Copy, Debug)]
pub struct Layout {
    /// Width of the first subresource in texels (1 for buffers).
    pub width: usize,
    /// Height of the first subresource.
    pub height: usize,
    /// Bytes per texel (0 for buffers).
    pub texel_size: usize,
}

fn texel_values(ty: Ty, t: &Texel) -> Result<Vec<u64>, String> {
    match t {
        Texel::Scalar(v) => Ok(vec![ty.bits(v)?]),
        Texel::List(l) => l.iter().map(|v| ty.bits(v)).collect(),
    }
}

fn per_texel(ty: Ty, layout: &Layout) -> usize {
    if layout.texel_size == 0 {
        1
    } else {
        (layout.texel_size / ty.size()).max(1)
    }
}

/// Fills `bytes` (already zeroed) from an `initial` block.
pub fn fill_initial(bytes: &mut [u8], d: &Data, layout: &Layout) -> Result<(), String> {
    let ty = Ty::parse(&d.ty)?;
    if let Some(data) = &d.data {
        for (i, v) in data.iter().enumerate() {
            ty.write(bytes, i, ty.bits(v)?);
        }
    } else if let Some(fill) = &d.fill {
        let vals = texel_values(ty, fill)?;
        let n = bytes.len() / ty.size();
        for i in 0..n {
            ty.write(bytes, i, vals[i % vals.len()]);
        }
    } else if let Some(regions) = &d.regions {
        let n = per_texel(ty, layout);
        for r in regions {
            let vals = texel_values(ty, &r.value)?;
            for y in r.y[0]..r.y[1] {
                for x in r.x[0]..r.x[1] {
                    let base = (y as usize * layout.width + x as usize) * n;
                    for c in 0..n {
                        ty.write(bytes, base + c, vals[c % vals.len()]);
                    }
                }
            }
        }
    } else {
        return Err("initial has none of data/fill/regions".into());
    }
    Ok(())
}

fn map_ulp(p: u32) -> i64 {
    let p = p as i32;
    if p >= 0 {
        i64::from(p)
    } else {
        i64::from(i32::MIN) - i64::from(p)
    }
}

fn matches(ty: Ty, tol: &Tolerance, expected: u64, got: u64) -> bool {
    if let Some(n) = tol.ulp {
        return (map_ulp(expected as u32) - map_ulp(got as u32)).abs() <= i64::from(n);
    }
    if let Some(n) = tol.abs {
        let diff = if ty == Ty::I32 {
            (i64::from(expected as u32 as i32) - i64::from(got as u32 as i32)).unsigned_abs()
        } else {
            expected.abs_diff(got)
        };
        return diff <= n;
    }
    if let Some(n) = tol.per_byte {
        return (0..ty.size()).all(|b| {
            let e = (expected >> (8 * b)) & 0xff;
            let g = (got >> (8 * b)) & 0xff;
            e.abs_diff(g) <= u64::from(n)
        });
    }
    expected == got
}

/// Checks an `expect` block against `bytes`. `view` is the element range of a `fill` check for
/// buffers with a view (byte range); `None` means the whole memory. Returns the first mismatch.
pub fn check(
    bytes: &[u8],
    d: &Data,
    tol: Option<&Tolerance>,
    layout: &Layout,
    view: Option<(usize, usize)>,
) -> Result<(), String> {
    let ty = Ty::parse(&d.ty)?;
    let default = Tolerance::default();
    let tol = tol.unwrap_or(&default);
    let get = |i: usize| -> Result<u64, String> {
        ty.read(bytes, i)
            .ok_or_else(|| format!("index {i}: beyond the resource ({} bytes)", bytes.len()))
    };
    let one = |i: usize, e: u64| -> Result<(), String> {
        let g = get(i)?;
        if matches(ty, tol, e, g) {
            Ok(())
        } else {
            Err(format!(
                "index {i}: expected {}, got {}",
                ty.show(e),
                ty.show(g)
            ))
        }
    };
    let n = per_texel(ty, layout);
    if let Some(data) = &d.data {
        for (i, v) in data.iter().enumerate() {
            one(i, ty.bits(v)?)?;
        }
    } else if let Some(fill) = &d.fill {
        let vals = texel_values(ty, fill)?;
        let (start, end) = view.unwrap_or((0, bytes.len()));
        let (first, last) = (start / ty.size(), end / ty.size());
        for i in first..last {
            one(i, vals[(i - first) % vals.len()])?;
        }
    } else if let Some(regions) = &d.regions {
        for r in regions {
            let vals = texel_values(ty, &r.value)?;
            for y in r.y[0]..r.y[1] {
                for x in r.x[0]..r.x[1] {
                    let base = (y as usize * layout.width + x as usize) * n;
                    for c in 0..n {
                        one(base + c, vals[c % vals.len()])
                            .map_err(|e| format!("texel ({x},{y}) {e}"))?;
                    }
                }
            }
        }
    } else if let Some(entries) = &d.entries {
        for en in entries {
            let base = match (en.index, en.x, en.y) {
                (Some(i), _, _) => i as usize,
                (None, Some(x), y) => (y.unwrap_or(0) as usize * layout.width + x as usize) * n,
                _ => return Err("entry without index or x/y".into()),
            };
            if let Some(v) = &en.value {
                for (c, e) in texel_values(ty, v)?.into_iter().enumerate() {
                    one(base + c, e)?;
                }
            } else if let Some(any) = &en.any_of {
                let g = get(base)?;
                let opts = any
                    .iter()
                    .map(|v| ty.bits(v))
                    .collect::<Result<Vec<_>, _>>()?;
                if !opts.iter().any(|&e| matches(ty, tol, e, g)) {
                    let shown: Vec<String> = opts.iter().map(|&e| ty.show(e)).collect();
                    return Err(format!(
                        "index {base}: expected any of [{}], got {}",
                        shown.join(", "),
                        ty.show(g)
                    ));
                }
            } else if let Some(kind) = &en.nan {
                if kind != "f16" {
                    return Err(format!("unknown nan kind `{kind}`"));
                }
                let g = get(base)?;
                if (g & 0x7fff) <= 0x7c00 {
                    return Err(format!(
                        "index {base}: expected an fp16 NaN, got 0x{:04x}",
                        g & 0xffff
                    ));
                }
            } else {
                return Err("entry without value, any_of or nan".into());
            }
        }
    } else if let Some(u) = &d.unordered {
        let mut got = (u.first..u.first + u.count)
            .map(|i| get(i as usize))
            .collect::<Result<Vec<_>, _>>()?;
        let mut want = u
            .values
            .iter()
            .map(|v| ty.bits(v))
            .collect::<Result<Vec<_>, _>>()?;
        got.sort_unstable();
        want.sort_unstable();
        if got != want {
            let pos = got.iter().zip(&want).position(|(a, b)| a != b).unwrap_or(0);
            return Err(format!(
                "unordered elements {}..{}: sorted position {pos}: expected {}, got {}",
                u.first,
                u.first + u.count,
                want.get(pos).map_or("-".into(), |&v| ty.show(v)),
                got.get(pos).map_or("-".into(), |&v| ty.show(v)),
            ));
        }
    } else {
        return Err("expect has none of data/fill/regions/entries/unordered".into());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ulp_mapping() {
        let t = Tolerance {
            ulp: Some(0),
            ..Default::default()
        };
        assert!(matches(Ty::F32, &t, 0x8000_0000, 0));
        assert!(!matches(Ty::F32, &t, 0x3f80_0000, 0x3f80_0001));
        let t1 = Tolerance {
            ulp: Some(1),
            ..Default::default()
        };
        assert!(matches(Ty::F32, &t1, 0x3f80_0000, 0x3f80_0001));
    }

    #[test]
    fn values() {
        let v: Value = serde_json::from_str("-1").unwrap_or(Value::Str(String::new()));
        assert_eq!(Ty::I32.bits(&v), Ok(0xffff_ffff));
        let v: Value = serde_json::from_str("0.1").unwrap_or(Value::Str(String::new()));
        assert_eq!(Ty::F32.bits(&v), Ok(u64::from(0.1f32.to_bits())));
        let v = Value::Str("0x7fc00000".into());
        assert_eq!(Ty::F32.bits(&v), Ok(0x7fc0_0000));
    }
}
