//! How LLVM assembly spells names, strings and floating-point numbers.

use std::fmt::Write;

/// Writes `bytes` as LLVM escapes them inside quotes: printable ASCII but `"` and `\` as
/// is, everything else as `\XX`.
pub(crate) fn escaped(out: &mut String, bytes: &[u8]) {
    for &b in bytes {
        if (0x20..0x7F).contains(&b) && b != b'"' && b != b'\\' {
            out.push(b as char);
        } else {
            let _ = write!(out, "\\{b:02X}");
        }
    }
}

/// Writes a value or type name with its sigil (`@`, `%`), quoted when it is not a plain
/// identifier (LLVM's `PrintLLVMName`).
pub(crate) fn llvm_name(out: &mut String, sigil: char, name: &[u8]) {
    out.push(sigil);
    label(out, name);
}

/// Writes a name without a sigil (a block label), quoted when it is not a plain identifier.
pub(crate) fn label(out: &mut String, name: &[u8]) {
    let plain = !name.is_empty()
        && !name[0].is_ascii_digit()
        && name
            .iter()
            .all(|&c| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'.' | b'_'));
    if plain {
        out.extend(name.iter().map(|&c| c as char));
    } else {
        out.push('"');
        escaped(out, name);
        out.push('"');
    }
}

/// Writes a metadata name (`!dx.precise`, `!llvm.loop`): `!` and the name, escaping what
/// is not an identifier character.
pub(crate) fn metadata_name(out: &mut String, name: &[u8]) {
    out.push('!');
    for (i, &c) in name.iter().enumerate() {
        let ok = c.is_ascii_alphabetic()
            || matches!(c, b'-' | b'$' | b'.' | b'_')
            || (i > 0 && c.is_ascii_digit());
        if ok {
            out.push(c as char);
        } else {
            let _ = write!(out, "\\{c:02X}");
        }
    }
}

/// Writes a `float` (`bits` in the low 32 bits, `double == false`) or `double` as LLVM
/// does: in exponent form (`1.500000e+00`) when six significant digits give the value back
/// exactly, else as the hex digits of the value as a `double` (`0x3FB99999A0000000`).
pub(crate) fn ieee_float(out: &mut String, bits: u64, double: bool) {
    let value = if double {
        f64::from_bits(bits)
    } else {
        f64::from(f32::from_bits(bits as u32))
    };
    if value.is_finite() {
        let short = format!("{value:.5e}");
        if short.parse::<f64>().ok() == Some(value) {
            let long = format!("{value:.6e}");
            if let Some((mantissa, exponent)) = long.split_once('e') {
                let exponent: i32 = exponent.parse().unwrap_or(0);
                let sign = if exponent < 0 { '-' } else { '+' };
                let _ = write!(out, "{mantissa}e{sign}{:02}", exponent.unsigned_abs());
                return;
            }
        }
    }
    let hex = if double {
        bits
    } else {
        float_bits_as_double(bits as u32)
    };
    let _ = write!(out, "0x{hex:X}");
}

/// The bits of a `float` widened to `double`, NaN payloads kept (signaling NaNs stay
/// signaling, as LLVM prints them).
fn float_bits_as_double(bits: u32) -> u64 {
    let f = f32::from_bits(bits);
    if !f.is_nan() {
        return f64::from(f).to_bits();
    }
    let sign = u64::from(bits >> 31) << 63;
    let payload = u64::from(bits & 0x007F_FFFF) << 29;
    sign | (0x7FFu64 << 52) | payload
}

/// Writes a `half` (`0xH3C00`).
pub(crate) fn half(out: &mut String, bits: u64) {
    let _ = write!(out, "0xH{:04X}", bits & 0xFFFF);
}

/// Writes the signed decimal value of a little-endian multi-word integer of `width` bits.
pub(crate) fn wide_integer(out: &mut String, words: &[u64], width: u32) {
    let mut limbs: Vec<u64> = words.to_vec();
    let total = limbs.len() as u32 * 64;
    // Sign-extend or truncate to `width`.
    let negative = width > 0
        && width <= total
        && (limbs[((width - 1) / 64) as usize] >> ((width - 1) % 64)) & 1 == 1;
    if width < total {
        let keep = width.div_ceil(64) as usize;
        limbs.truncate(keep.max(1));
        let rem = width % 64;
        if rem != 0 {
            if let Some(top) = limbs.last_mut() {
                let mask = (1u64 << rem) - 1;
                *top = if negative { *top | !mask } else { *top & mask };
            }
        }
    }
    if negative {
        // Two's complement negate.
        let mut carry = true;
        for l in &mut limbs {
            let (v, c) = (!*l).overflowing_add(u64::from(carry));
            *l = v;
            carry = c;
        }
        out.push('-');
    }
    let mut digits = Vec::new();
    while limbs.iter().any(|&l| l != 0) {
        let mut rem: u128 = 0;
        for l in limbs.iter_mut().rev() {
            let cur = (rem << 64) | u128::from(*l);
            *l = (cur / 10) as u64;
            rem = cur % 10;
        }
        digits.push(b'0' + rem as u8);
    }
    if digits.is_empty() {
        digits.push(b'0');
    }
    out.extend(digits.iter().rev().map(|&d| d as char));
}

#[cfg(test)]
mod tests {
    use super::*;

    fn float(v: f32) -> String {
        let mut s = String::new();
        ieee_float(&mut s, u64::from(v.to_bits()), false);
        s
    }

    fn double(v: f64) -> String {
        let mut s = String::new();
        ieee_float(&mut s, v.to_bits(), true);
        s
    }

    /// Expected strings are llvm-dis-14's output for the same constants.
    #[test]
    fn floats_print_as_llvm_dis_prints_them() {
        assert_eq!(float(1234567.0), "0x4132D68700000000");
        assert_eq!(float(123456.0), "1.234560e+05");
        assert_eq!(float(1234560.0), "1.234560e+06");
        assert_eq!(float(0.1), "0x3FB99999A0000000");
        assert_eq!(double(0.1), "1.000000e-01");
        assert_eq!(float(1e10), "1.000000e+10");
        assert_eq!(double(1.0 / 3.0), "0x3FD5555555555555");
        assert_eq!(float(65504.0), "6.550400e+04");
        assert_eq!(float(f32::MIN_POSITIVE), "0x3810000000000000");
        assert_eq!(float(16777216.0), "0x4170000000000000");
        assert_eq!(double(1e20), "1.000000e+20");
        assert_eq!(float(-0.0), "-0.000000e+00");
        assert_eq!(float(0.5), "5.000000e-01");
        assert_eq!(float(f32::INFINITY), "0x7FF0000000000000");
        assert_eq!(double(1.5e-5), "1.500000e-05");
    }

    #[test]
    fn names_are_quoted_unless_plain() {
        let mut s = String::new();
        llvm_name(&mut s, '@', b"dx.op.loadInput.f32");
        llvm_name(&mut s, '@', b"\x01?main@@YAXXZ");
        llvm_name(&mut s, '%', b"class.Texture2D<float>");
        llvm_name(&mut s, '%', b"1abc");
        assert_eq!(
            s,
            "@dx.op.loadInput.f32@\"\\01?main@@YAXXZ\"%\"class.Texture2D<float>\"%\"1abc\""
        );
    }

    #[test]
    fn wide_integers_print_in_decimal() {
        let mut s = String::new();
        wide_integer(&mut s, &[0, 1], 128);
        s.push(' ');
        wide_integer(&mut s, &[u64::MAX, u64::MAX], 128);
        s.push(' ');
        wide_integer(&mut s, &[5], 96);
        assert_eq!(s, "18446744073709551616 -1 5");
    }
}
