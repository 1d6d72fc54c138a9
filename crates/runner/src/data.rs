//! Resource contents: building initial bytes and checking expectations.

use crate::case::{Data, Texel, Tolerance, Value};

/// Element type of a data block.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ty {
    /// 8-bit unsigned.
    U8,
    /// 8-bit signed.
    I8,
    /// 16-bit unsigned.
    U16,
    /// 16-bit signed.
    I16,
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
            "i8" => Ty::I8,
            "u16" => Ty::U16,
            "i16" => Ty::I16,
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
            Ty::U8 | Ty::I8 => 1,
            Ty::U16 | Ty::I16 => 2,
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

    /// The signed value of a bit pattern of a signed type.
    fn signed(self, v: u64) -> Option<i64> {
        match self {
            Ty::I8 => Some(i64::from(v as u8 as i8)),
            Ty::I16 => Some(i64::from(v as u16 as i16)),
            Ty::I32 => Some(i64::from(v as u32 as i32)),
            _ => None,
        }
    }

    /// Formats a bit pattern for messages.
    pub fn show(self, v: u64) -> String {
        match self {
            Ty::F32 => format!("{:?} (0x{v:08x})", f32::from_bits(v as u32)),
            Ty::I8 | Ty::I16 | Ty::I32 => format!("{}", self.signed(v).unwrap_or(0)),
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
    /// Height of the first subresource (array layers follow each other every
    /// `width * height` texels).
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

impl Layout {
    /// The layout of a buffer: elements from byte 0, no texels.
    pub const BUFFER: Layout = Layout {
        width: 1,
        height: 1,
        texel_size: 0,
    };
}

/// Element index of the first element of texel (`x`, `y`) of array layer `layer`.
fn texel_index(layout: &Layout, n: usize, layer: u32, x: u32, y: u32) -> usize {
    let texel = (layer as usize * layout.height + y as usize) * layout.width + x as usize;
    texel * n
}

/// Fills `bytes` (already zeroed) from an `initial` block.
pub fn fill_initial(bytes: &mut [u8], d: &Data, layout: &Layout) -> Result<(), String> {
    if let Some(segments) = &d.segments {
        let mut at = 0usize;
        for seg in segments {
            let ty = Ty::parse(&seg.ty)?;
            let data = seg.data.as_ref().ok_or("a segment without data")?;
            for v in data {
                let end = at + ty.size();
                let len = bytes.len();
                let chunk = bytes
                    .get_mut(at..end)
                    .ok_or_else(|| format!("segments exceed the {len}-byte resource"))?;
                chunk.copy_from_slice(&ty.bits(v)?.to_le_bytes()[..ty.size()]);
                at = end;
            }
        }
        return Ok(());
    }
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
                    let base = texel_index(layout, n, r.layer, x, y);
                    for c in 0..n {
                        ty.write(bytes, base + c, vals[c % vals.len()]);
                    }
                }
            }
        }
    } else if let Some(entries) = &d.entries {
        for en in entries {
            let i = en.index.ok_or("an initial entry without index")? as usize;
            let v = match &en.value {
                Some(Texel::Scalar(v)) => v,
                _ => return Err("an initial entry without a scalar value".into()),
            };
            if ty.read(bytes, i).is_none() {
                return Err(format!(
                    "initial entry {i} is beyond the {}-byte resource",
                    bytes.len()
                ));
            }
            ty.write(bytes, i, ty.bits(v)?);
        }
    } else {
        return Err("initial has none of data/fill/regions/entries/segments".into());
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
        let diff = match (ty.signed(expected), ty.signed(got)) {
            (Some(e), Some(g)) => (e - g).unsigned_abs(),
            _ => expected.abs_diff(got),
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
        let first = d.first.unwrap_or(0) as usize;
        for (i, v) in data.iter().enumerate() {
            one(first + i, ty.bits(v)?)?;
        }
    } else if let Some(p) = &d.primitives {
        check_primitives(ty, tol, p, &get)?;
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
                    let base = texel_index(layout, n, r.layer, x, y);
                    for c in 0..n {
                        one(base + c, vals[c % vals.len()]).map_err(|e| {
                            let layer = if r.layer == 0 {
                                String::new()
                            } else {
                                format!(" layer {}", r.layer)
                            };
                            format!("texel ({x},{y}){layer} {e}")
                        })?;
                    }
                }
            }
        }
    } else if let Some(entries) = &d.entries {
        for en in entries {
            let base = match (en.index, en.x, en.y) {
                (Some(i), _, _) => i as usize,
                (None, Some(x), y) => texel_index(layout, n, en.layer, x, y.unwrap_or(0)),
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
        let rec = u.record.unwrap_or(1).max(1) as usize;
        let (first, count) = (u.first as usize * rec, u.count as usize * rec);
        let got = (first..first + count)
            .map(get)
            .collect::<Result<Vec<_>, _>>()?;
        let want = u
            .values
            .iter()
            .map(|v| ty.bits(v))
            .collect::<Result<Vec<_>, _>>()?;
        if want.len() != count {
            return Err(format!(
                "unordered block has {} values for {count} elements",
                want.len()
            ));
        }
        let mut got: Vec<&[u64]> = got.chunks(rec).collect();
        let mut want: Vec<&[u64]> = want.chunks(rec).collect();
        got.sort_unstable();
        want.sort_unstable();
        if got != want {
            let show = |r: Option<&&[u64]>| {
                r.map_or("-".into(), |r| {
                    let v: Vec<String> = r.iter().map(|&v| ty.show(v)).collect();
                    v.join(", ")
                })
            };
            let pos = got.iter().zip(&want).position(|(a, b)| a != b).unwrap_or(0);
            let what = if rec == 1 { "elements" } else { "records" };
            return Err(format!(
                "unordered {what} {}..{}: sorted position {pos}: expected [{}], got [{}]",
                u.first,
                u.first + u.count,
                show(want.get(pos)),
                show(got.get(pos)),
            ));
        }
    } else {
        return Err("expect has none of data/fill/regions/entries/unordered".into());
    }
    Ok(())
}

/// Checks `primitives`: stored primitive `i` must equal `values[i]` after some rotation of
/// its vertices.
fn check_primitives(
    ty: Ty,
    tol: &Tolerance,
    p: &crate::case::Primitives,
    get: &dyn Fn(usize) -> Result<u64, String>,
) -> Result<(), String> {
    if p.match_ != "cyclic" {
        return Err(format!("unknown primitive match `{}`", p.match_));
    }
    let (nv, epv) = (p.vertices as usize, p.elements_per_vertex as usize);
    for (i, prim) in p.values.iter().enumerate() {
        if prim.len() != nv || prim.iter().any(|v| v.len() != epv) {
            return Err(format!(
                "primitive {i}: expected {nv} vertices of {epv} elements"
            ));
        }
        let base = p.first as usize + i * nv * epv;
        let stored = (0..nv * epv)
            .map(|k| get(base + k))
            .collect::<Result<Vec<_>, _>>()?;
        let want = prim
            .iter()
            .map(|v| v.iter().map(|e| ty.bits(e)).collect::<Result<Vec<_>, _>>())
            .collect::<Result<Vec<_>, _>>()?;
        let fits = (0..nv).any(|rot| {
            (0..nv).all(|v| {
                let got = &stored[((v + rot) % nv) * epv..][..epv];
                got.iter()
                    .zip(&want[v])
                    .all(|(&g, &e)| matches(ty, tol, e, g))
            })
        });
        if !fits {
            let show = |vals: &[u64]| {
                let v: Vec<String> = vals.iter().map(|&x| ty.show(x)).collect();
                format!("({})", v.join(", "))
            };
            let got: Vec<String> = stored.chunks(epv).map(show).collect();
            let exp: Vec<String> = want.iter().map(|v| show(v)).collect();
            return Err(format!(
                "primitive {i} (element {base}): expected a rotation of [{}], got [{}]",
                exp.join(", "),
                got.join(", ")
            ));
        }
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

    fn data(json: &str) -> Data {
        match serde_json::from_str(json) {
            Ok(d) => d,
            Err(e) => panic!("{json}: {e}"),
        }
    }

    #[test]
    fn initial_segments_entries_and_signed_types() {
        let mut b = vec![0u8; 12];
        let seg = data(
            r#"{"segments": [{"type": "f32", "data": [1.0]}, {"type": "i8", "data": [-1, 2]},
                {"type": "i16", "data": [-2]}]}"#,
        );
        fill_initial(&mut b, &seg, &Layout::BUFFER).expect("fills");
        assert_eq!(&b[..8], &[0, 0, 0x80, 0x3f, 0xff, 2, 0xfe, 0xff]);
        let mut b = vec![0u8; 8];
        let ent = data(r#"{"type": "u16", "entries": [{"index": 3, "value": 7}]}"#);
        fill_initial(&mut b, &ent, &Layout::BUFFER).expect("fills");
        assert_eq!(b, [0, 0, 0, 0, 0, 0, 7, 0]);
        let past = data(r#"{"type": "u16", "entries": [{"index": 4, "value": 7}]}"#);
        assert!(fill_initial(&mut b, &past, &Layout::BUFFER).is_err());
        // A segment past the end is an error, not a silent cut.
        let mut b = vec![0u8; 2];
        assert!(fill_initial(&mut b, &seg, &Layout::BUFFER).is_err());
    }

    fn words(v: &[u32]) -> Vec<u8> {
        v.iter().flat_map(|w| w.to_le_bytes()).collect()
    }

    #[test]
    fn expect_first_and_unordered_records() {
        let b = words(&[9, 9, 1, 2, 3, 4, 5, 6]);
        let exp = data(r#"{"type": "u32", "first": 2, "data": [1, 2]}"#);
        assert!(check(&b, &exp, None, &Layout::BUFFER, None).is_ok());
        let exp = data(r#"{"type": "u32", "first": 1, "data": [1, 2]}"#);
        assert!(check(&b, &exp, None, &Layout::BUFFER, None).is_err());
        // Records (3, 4) and (5, 6) and (1, 2) in any order, but whole.
        let exp = data(
            r#"{"type": "u32", "unordered": {"first": 1, "count": 3, "record": 2,
                "values": [5, 6, 1, 2, 3, 4]}}"#,
        );
        assert!(check(&b, &exp, None, &Layout::BUFFER, None).is_ok());
        let exp = data(
            r#"{"type": "u32", "unordered": {"first": 1, "count": 3, "record": 2,
                "values": [5, 4, 1, 2, 3, 6]}}"#,
        );
        assert!(check(&b, &exp, None, &Layout::BUFFER, None).is_err());
    }

    #[test]
    fn primitives_match_up_to_rotation() {
        // Two triangles of one element per vertex: (1, 2, 3) stored as (2, 3, 1), and
        // (4, 5, 6) stored reversed (not a rotation).
        let b = words(&[2, 3, 1, 6, 5, 4]);
        let first = data(
            r#"{"type": "u32", "primitives": {"first": 0, "vertices": 3,
                "elements_per_vertex": 1, "match": "cyclic", "values": [[[1], [2], [3]]]}}"#,
        );
        assert!(check(&b, &first, None, &Layout::BUFFER, None).is_ok());
        let both = data(
            r#"{"type": "u32", "primitives": {"first": 0, "vertices": 3,
                "elements_per_vertex": 1, "match": "cyclic",
                "values": [[[1], [2], [3]], [[4], [5], [6]]]}}"#,
        );
        let err = check(&b, &both, None, &Layout::BUFFER, None).unwrap_err();
        assert!(err.starts_with("primitive 1"), "{err}");
    }

    #[test]
    fn regions_and_entries_address_layers() {
        // 2x1 texels, 2 layers, one u32 per texel.
        let layout = Layout {
            width: 2,
            height: 1,
            texel_size: 4,
        };
        let b = words(&[1, 1, 7, 8]);
        let exp = data(
            r#"{"type": "u32", "regions": [{"layer": 1, "x": [1, 2], "y": [0, 1], "value": 8}],
                "entries": null}"#,
        );
        assert!(check(&b, &exp, None, &layout, None).is_ok());
        let exp = data(r#"{"type": "u32", "entries": [{"layer": 1, "x": 0, "y": 0, "value": 7}]}"#);
        assert!(check(&b, &exp, None, &layout, None).is_ok());
        let exp = data(r#"{"type": "u32", "entries": [{"layer": 0, "x": 0, "y": 0, "value": 7}]}"#);
        assert!(check(&b, &exp, None, &layout, None).is_err());
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
