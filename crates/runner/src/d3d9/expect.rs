//! `d3dcolor` expectations: texels of an `A8R8G8B8`/`X8R8G8B8` render target read as the
//! little-endian 32-bit `0xAARRGGBB`, compared under a mask with a per-byte tolerance,
//! against one value or any of several.

use super::case::{hex32, Accepted, Expect, Tolerance};

/// One accepted value with the mask it is compared under.
fn accepted(a: &Accepted, mask: u32) -> Result<(u32, u32), String> {
    Ok(match a {
        Accepted::Value(v) => (hex32(v)?, mask),
        Accepted::Masked { value, mask } => (hex32(value)?, hex32(mask)?),
    })
}

/// Whether `got` matches `want` in the bytes `mask` selects, each within `tol`.
fn matches(got: u32, want: u32, mask: u32, tol: u32) -> bool {
    (0..4).all(|i| {
        let sh = 8 * i;
        let m = (mask >> sh) & 0xff;
        let (g, w) = ((got >> sh) & m, (want >> sh) & m);
        g.abs_diff(w) <= tol
    })
}

/// Checks `exp` against the texels of a `width`-wide target (`bytes`, 4 per texel);
/// `Err` says which texel differs and how.
pub(super) fn check(
    bytes: &[u8],
    width: u32,
    height: u32,
    exp: &Expect,
    tolerance: Option<Tolerance>,
) -> Result<Result<(), String>, String> {
    if exp.ty != "d3dcolor" {
        return Err(format!("expectation type `{}` not implemented", exp.ty));
    }
    let mask = exp.mask.as_deref().map_or(Ok(u32::MAX), hex32)?;
    for e in &exp.entries {
        if e.x >= width || e.y >= height {
            return Err(format!(
                "texel ({}, {}) outside the {width}x{height} target",
                e.x, e.y
            ));
        }
        let at = (e.y as usize * width as usize + e.x as usize) * 4;
        let got = bytes
            .get(at..at + 4)
            .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .ok_or_else(|| format!("texel ({}, {}) not read back", e.x, e.y))?;
        let mask = e.mask.as_deref().map_or(Ok(mask), hex32)?;
        let tol = e
            .tolerance
            .or(tolerance)
            .and_then(|t| t.per_byte)
            .unwrap_or(0);
        let wanted: Vec<(u32, u32)> = match (&e.value, &e.any_of) {
            (Some(v), None) => vec![(hex32(v)?, mask)],
            (None, Some(list)) if !list.is_empty() => list
                .iter()
                .map(|a| accepted(a, mask))
                .collect::<Result<_, _>>()?,
            _ => {
                return Err(format!(
                    "texel ({}, {}): give one of `value` or a non-empty `any_of`",
                    e.x, e.y
                ))
            }
        };
        if !wanted.iter().any(|&(w, m)| matches(got, w, m, tol)) {
            let list: Vec<String> = wanted
                .iter()
                .map(|(w, m)| {
                    if *m == u32::MAX {
                        format!("0x{w:08x}")
                    } else {
                        format!("0x{w:08x} (mask 0x{m:08x})")
                    }
                })
                .collect();
            return Ok(Err(format!(
                "texel ({}, {}): got 0x{got:08x}, expected {}{}",
                e.x,
                e.y,
                list.join(" or "),
                if tol > 0 {
                    format!(" (per-byte tolerance {tol})")
                } else {
                    String::new()
                }
            )));
        }
    }
    Ok(Ok(()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn expect(v: serde_json::Value) -> Expect {
        serde_json::from_value(v).expect("expect")
    }

    #[test]
    fn masks_tolerances_and_alternatives() {
        // 2x1 target: texel 0 = 0x80ff7f00, texel 1 = 0x00000000.
        let bytes = [0x00, 0x7f, 0xff, 0x80, 0, 0, 0, 0];
        let tol = Some(Tolerance { per_byte: Some(1) });
        let e = expect(serde_json::json!({
            "type": "d3dcolor", "mask": "0x00ffffff",
            "entries": [{"x": 0, "y": 0, "value": "0x00ff8000"}]
        }));
        assert_eq!(check(&bytes, 2, 1, &e, tol), Ok(Ok(())));
        // Exact: 0x7f is not 0x80.
        assert!(matches!(check(&bytes, 2, 1, &e, None), Ok(Err(_))));
        let e = expect(serde_json::json!({
            "type": "d3dcolor", "mask": "0xffffffff",
            "entries": [{"x": 1, "y": 0, "any_of": ["0xff000000", "0x00000000"]},
                        {"x": 0, "y": 0, "any_of": ["0x00000000", {"value": "0x00ff0000", "mask": "0x00ff0000"}]}]
        }));
        assert_eq!(check(&bytes, 2, 1, &e, None), Ok(Ok(())));
        let e = expect(serde_json::json!({
            "type": "d3dcolor", "entries": [{"x": 1, "y": 0, "value": "0xff000000"}]
        }));
        let msg = check(&bytes, 2, 1, &e, None).expect("checks").unwrap_err();
        assert!(msg.contains("got 0x00000000"), "{msg}");
        let e = expect(serde_json::json!({
            "type": "d3dcolor", "entries": [{"x": 2, "y": 0, "value": "0xff000000"}]
        }));
        assert!(check(&bytes, 2, 1, &e, None).is_err());
    }
}
