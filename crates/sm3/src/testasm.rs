//! A small assembler for tests: the syntax [`crate::disassemble`] prints, back to tokens.
//!
//! One instruction per line: `vs_2_0`, `dcl_texcoord1 v2.xy`, `def c0, 1, 0.5, 0, 0`,
//! `mad_sat r0.xyz, -r1_bias.x, c3[a0.x], 1 - t0`, `+ mov r0.w, t0.w` (co-issue),
//! `(!p0.y) add r0, r1, r2`, `if_gt r0.x, c0.y`, `texldp r0, t0, s1`. The round trip through
//! the disassembler is tested, so the two agree on the syntax.

use crate::decode::{TextureType, Usage};
use crate::opcode::Opcode;
use crate::version::{Stage, Version};

/// Assembles `text` into tokens; panics with the line on a syntax error (tests only).
pub fn assemble(text: &str) -> Vec<u32> {
    let mut out = Vec::new();
    let mut version = None;
    for raw in text.lines() {
        let line = raw.split("//").next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let Some(v) = version else {
            let v = parse_version(line).unwrap_or_else(|| panic!("bad version line `{line}`"));
            out.push(v.token());
            version = Some(v);
            continue;
        };
        instruction(&mut out, v, line).unwrap_or_else(|e| panic!("`{line}`: {e}"));
    }
    out.push(0x0000_FFFF);
    out
}

/// Assembles into bytes.
pub fn assemble_bytes(text: &str) -> Vec<u8> {
    assemble(text)
        .iter()
        .flat_map(|w| w.to_le_bytes())
        .collect()
}

fn parse_version(s: &str) -> Option<Version> {
    let (stage, rest) = if let Some(r) = s.strip_prefix("vs_") {
        (Stage::Vertex, r)
    } else {
        (Stage::Pixel, s.strip_prefix("ps_")?)
    };
    let (maj, min) = rest.split_once('_')?;
    let major: u8 = maj.parse().ok()?;
    let minor = match min {
        "x" => 1,
        "sw" => 0xFF,
        m => m.parse().ok()?,
    };
    Some(Version {
        stage,
        major,
        minor,
    })
}

fn opcode_of(name: &str, nsrc: usize) -> Option<(Opcode, u32)> {
    // (opcode, controls)
    let cmp = |s: &str| -> Option<u32> {
        Some(match s {
            "gt" => 1,
            "eq" => 2,
            "ge" => 3,
            "lt" => 4,
            "ne" => 5,
            "le" => 6,
            _ => return None,
        })
    };
    if let Some(c) = name.strip_prefix("if_") {
        return Some((Opcode::IfC, cmp(c)?));
    }
    if let Some(c) = name.strip_prefix("break_") {
        return Some((Opcode::BreakC, cmp(c)?));
    }
    if let Some(c) = name.strip_prefix("setp_") {
        return Some((Opcode::SetP, cmp(c)?));
    }
    Some(match name {
        "texld" | "tex" => (Opcode::Tex, 0),
        "texldp" => (Opcode::Tex, 1),
        "texldb" => (Opcode::Tex, 2),
        "texcrd" | "texcoord" => (Opcode::TexCoord, 0),
        "if" => (Opcode::If, 0),
        "break" if nsrc == 0 => (Opcode::Break, 0),
        "breakp" => (Opcode::BreakP, 0),
        _ => (
            *Opcode::ALL.iter().find(|o| {
                o.name() == name
                    && !matches!(
                        o,
                        Opcode::IfC | Opcode::BreakC | Opcode::Tex | Opcode::TexCoord
                    )
            })?,
            0,
        ),
    })
}

/// Splits operands at commas outside brackets.
fn operands(s: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut depth = 0;
    let mut start = 0;
    for (i, ch) in s.char_indices() {
        match ch {
            '[' => depth += 1,
            ']' => depth -= 1,
            ',' if depth == 0 => {
                out.push(s[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    let last = s[start..].trim();
    if !last.is_empty() {
        out.push(last);
    }
    out
}

fn instruction(out: &mut Vec<u32>, v: Version, line: &str) -> Result<(), String> {
    let mut line = line;
    let mut coissue = false;
    if let Some(r) = line.strip_prefix('+') {
        coissue = true;
        line = r.trim();
    }
    let mut predicate = None;
    if let Some(r) = line.strip_prefix('(') {
        let (p, rest) = r.split_once(')').ok_or("unclosed predicate")?;
        predicate = Some(source(v, p.trim())?);
        line = rest.trim();
    }
    let (head, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
    let ops = operands(rest);
    // Result modifiers and dcl suffixes after the name.
    let mut parts = head.split('_');
    let base = parts.next().ok_or("empty")?;
    let mut name = base.to_string();
    let mut shift = 0u32;
    let mut mods = 0u32;
    let mut dcl: Option<String> = None;
    for p in parts {
        match p {
            "sat" => mods |= 1,
            "pp" => mods |= 2,
            "centroid" => mods |= 4,
            "x2" => shift = 1,
            "x4" => shift = 2,
            "x8" => shift = 3,
            "d2" => shift = 15,
            "d4" => shift = 14,
            "d8" => shift = 13,
            "gt" | "eq" | "ge" | "lt" | "ne" | "le" => {
                name.push('_');
                name.push_str(p);
            }
            other if base == "dcl" => dcl = Some(other.to_string()),
            other => return Err(format!("unknown suffix _{other}")),
        }
    }
    let model1 = v.major < 2;
    let mut toks: Vec<u32> = Vec::new();
    let (opcode, controls) = if name == "dcl" {
        (Opcode::Dcl, 0)
    } else {
        opcode_of(&name, ops.len().saturating_sub(1)).ok_or(format!("unknown opcode {name}"))?
    };
    match opcode {
        Opcode::Dcl => {
            let dst_text = ops.first().ok_or("dcl without register")?;
            let d = destination(v, dst_text)?;
            let is_sampler = dst_text.starts_with('s');
            let mut t = 0x8000_0000u32;
            if is_sampler {
                let ty = match dcl.as_deref() {
                    None => TextureType::Unknown,
                    Some("2d") => TextureType::Texture2D,
                    Some("cube") => TextureType::Cube,
                    Some("volume") => TextureType::Volume,
                    Some("1d") => TextureType::Texture1D,
                    Some(o) => return Err(format!("sampler type {o}")),
                } as u32;
                t |= ty << 27;
            } else if let Some(u) = dcl.as_deref() {
                let digits = u.trim_start_matches(|c: char| c.is_ascii_alphabetic());
                let uname = &u[..u.len() - digits.len()];
                let usage = (0..14)
                    .filter_map(Usage::from_raw)
                    .find(|x| x.name() == uname)
                    .ok_or(format!("usage {uname}"))? as u32;
                let index: u32 = if digits.is_empty() {
                    0
                } else {
                    digits.parse().map_err(|_| "usage index")?
                };
                t |= usage | index << 16;
            }
            toks.push(t);
            toks.push(d[0] | mods << 20);
            toks.extend_from_slice(&d[1..]);
        }
        Opcode::Def | Opcode::DefI | Opcode::DefB => {
            let d = destination(v, ops.first().ok_or("def without register")?)?;
            toks.extend_from_slice(&d);
            for x in &ops[1..] {
                toks.push(match opcode {
                    Opcode::Def => x.parse::<f32>().map_err(|_| "float")?.to_bits(),
                    Opcode::DefI => x.parse::<i32>().map_err(|_| "int")? as u32,
                    _ => u32::from(*x == "true"),
                });
            }
        }
        _ => {
            let shape = opcode.shape(v);
            let mut srcs = &ops[..];
            if shape.dst {
                let d = destination(v, ops.first().ok_or("missing destination")?)?;
                toks.push(d[0] | mods << 20 | shift << 24);
                toks.extend_from_slice(&d[1..]);
                srcs = &ops[1..];
            }
            if let Some(p) = &predicate {
                toks.extend_from_slice(p);
            }
            for s in srcs {
                toks.extend_from_slice(&source(v, s)?);
            }
        }
    }
    let mut tok = opcode as u32 | controls << 16;
    if !model1 {
        tok |= (toks.len() as u32) << 24;
    }
    if predicate.is_some() {
        tok |= 1 << 28;
    }
    if coissue {
        tok |= 1 << 30;
    }
    out.push(tok);
    out.extend_from_slice(&toks);
    Ok(())
}

/// Register type and number of a register name.
fn register(v: Version, s: &str) -> Result<(u32, u32), String> {
    let fixed = |t: u32, n: u32| Ok((t, n));
    match s {
        "oPos" => return fixed(4, 0),
        "oFog" => return fixed(4, 1),
        "oPts" => return fixed(4, 2),
        "oDepth" => return fixed(9, 0),
        "aL" => return fixed(15, 0),
        "vPos" => return fixed(17, 0),
        "vFace" => return fixed(17, 1),
        _ => {}
    }
    let split = s
        .find(|c: char| c.is_ascii_digit())
        .ok_or(format!("register {s}"))?;
    let (p, n) = s.split_at(split);
    let n: u32 = n.parse().map_err(|_| format!("register number {s}"))?;
    let t = match p {
        "r" => 0,
        "v" => 1,
        "c" => {
            if n >= 2048 {
                return Ok((10 + n / 2048, n % 2048));
            }
            2
        }
        "a" | "t" => 3,
        "oD" => 5,
        "oT" | "o" => 6,
        "i" => 7,
        "oC" => 8,
        "s" => 10,
        "b" => 14,
        "l" => 18,
        "p" => 19,
        _ => return Err(format!("register {s}")),
    };
    let _ = v;
    Ok((t, n))
}

fn reg_token(t: u32, n: u32) -> u32 {
    0x8000_0000 | (t & 7) << 28 | (t & 0x18) << 8 | (n & 0x7FF)
}

/// Splits `name[rel]` and a trailing `.swizzle`.
fn split_reg(s: &str) -> (&str, Option<&str>, Option<&str>) {
    let after = s.rfind(']').map_or(0, |i| i + 1);
    let (body, swz) = match s[after..].find('.') {
        Some(i) => (&s[..after + i], Some(&s[after + i + 1..])),
        None => (s, None),
    };
    match body.find('[') {
        Some(i) => (&body[..i], Some(body[i + 1..].trim_end_matches(']')), swz),
        None => (body, None, swz),
    }
}

fn comp(c: char) -> Result<u32, String> {
    Ok(match c {
        'x' | 'r' => 0,
        'y' | 'g' => 1,
        'z' | 'b' => 2,
        'w' | 'a' => 3,
        _ => return Err(format!("component {c}")),
    })
}

fn swizzle(s: Option<&str>) -> Result<u32, String> {
    let Some(s) = s else { return Ok(0xE4) };
    let cs: Vec<u32> = s.chars().map(comp).collect::<Result<_, _>>()?;
    let lanes: [u32; 4] = match cs.len() {
        1 => [cs[0]; 4],
        2 => [cs[0], cs[1], cs[1], cs[1]],
        3 => [cs[0], cs[1], cs[2], cs[2]],
        4 => [cs[0], cs[1], cs[2], cs[3]],
        _ => return Err(format!("swizzle {s}")),
    };
    Ok(lanes[0] | lanes[1] << 2 | lanes[2] << 4 | lanes[3] << 6)
}

fn relative_tokens(v: Version, rel: &str) -> Result<Vec<u32>, String> {
    if !v.has_relative_address_token() {
        return Ok(Vec::new());
    }
    let (r, _, swz) = split_reg(rel.trim());
    let (t, n) = register(v, r)?;
    Ok(vec![reg_token(t, n) | swizzle(swz)? << 16])
}

fn destination(v: Version, s: &str) -> Result<Vec<u32>, String> {
    let (r, rel, mask) = split_reg(s);
    let (t, n) = register(v, r)?;
    let m = match mask {
        None => 0xF,
        Some(m) => m
            .chars()
            .map(comp)
            .try_fold(0u32, |a, c| c.map(|c| a | 1 << c))?,
    };
    let mut tok = reg_token(t, n) | m << 16;
    let mut extra = Vec::new();
    if let Some(rel) = rel {
        tok |= 1 << 13;
        extra = relative_tokens(v, rel)?;
    }
    let mut out = vec![tok];
    out.extend(extra);
    Ok(out)
}

fn source(v: Version, s: &str) -> Result<Vec<u32>, String> {
    let mut s = s.trim();
    let mut neg = false;
    let mut complement = false;
    let mut not = false;
    if let Some(r) = s.strip_prefix("1 - ") {
        complement = true;
        s = r.trim();
    } else if let Some(r) = s.strip_prefix('-') {
        neg = true;
        s = r;
    } else if let Some(r) = s.strip_prefix('!') {
        not = true;
        s = r;
    }
    let (r, rel, swz) = split_reg(s);
    // Suffix modifiers on the register name.
    let (r, suffix) = match r.find('_') {
        Some(i) => (&r[..i], Some(&r[i + 1..])),
        None => (r, None),
    };
    let modifier = match (suffix, neg) {
        (None, false) if complement => 6,
        (None, false) if not => 13,
        (None, false) => 0,
        (None, true) => 1,
        (Some("bias"), n) => 2 + u32::from(n),
        (Some("bx2"), n) => 4 + u32::from(n),
        (Some("x2"), n) => 7 + u32::from(n),
        (Some("dz"), _) => 9,
        (Some("dw"), _) => 10,
        (Some("abs"), n) => 11 + u32::from(n),
        (Some(o), _) => return Err(format!("modifier _{o}")),
    };
    let (t, n) = register(v, r)?;
    let mut tok = reg_token(t, n) | swizzle(swz)? << 16 | modifier << 24;
    let mut extra = Vec::new();
    if let Some(rel) = rel {
        tok |= 1 << 13;
        extra = relative_tokens(v, rel)?;
    }
    let mut out = vec![tok];
    out.extend(extra);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Assembling what the disassembler printed gives the same tokens.
    #[track_caller]
    fn round_trip(text: &str) {
        let words = assemble(text);
        let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        let printed = crate::disassemble(&bytes).expect("disassembles");
        let again = assemble(&printed);
        assert_eq!(words, again, "\n{text}\n---\n{printed}");
        let norm = |t: &str| -> Vec<String> {
            t.lines()
                .map(|l| l.trim().to_string())
                .filter(|l| !l.is_empty())
                .collect()
        };
        assert_eq!(norm(text), norm(&printed));
    }

    #[test]
    fn assembles_what_the_disassembler_prints() {
        round_trip(
            "vs_2_0\ndcl_position v0\ndcl_texcoord1 v3\ndef c2, 1, 0.5, -2, 0\ndefi i0, 3, 0, 1, 0\n\
             mova a0.x, v3.x\nmad_sat r0.xyz, -v0.x, c3[a0.x], r1\nrep i0\nadd r1, r1, c0\nendrep\n\
             if b0\nelse\nendif\nm4x4 oPos, v0, c4\nmov oT0.xy, v3\nsincos r2.xy, r0.x, c0, c1",
        );
        round_trip(
            "ps_1_4\ntexcrd r0.xyz, t0_dz\ntexld r1, t1\nphase\ncnd r0, r0.w, c1, c2\n\
             mul_x2 r0.xyz, r0_bx2, 1 - r1\n+ mov_d2 r0.w, -r1_bias.w\nbem r2.xy, r0, r1",
        );
        round_trip("ps_1_1\ntex t0\ntexbem t1, t0\ntexm3x2pad t2, t1_bx2\ntexm3x2tex t3, t1_bx2");
        round_trip(
            "ps_3_0\ndcl_texcoord v0.xy\ndcl_2d s0\ndcl vPos.xy\ndcl vFace\n\
             setp_gt p0.xy, v0, c0\n(!p0.y) texldl r0, v0, s0\nif_lt r0.x, c0.y\nbreakp p0.x\n\
             endif\nloop aL, i0\nmov r1, v0[aL]\nendloop\ntexldd r1, v0, s0, r2, r3\n\
             dsx r2, v0\nmov oC0, r0\nmov oDepth, r0.x",
        );
        round_trip("vs_3_0\ndcl_position o0\ndcl_psize o1.x\nmov o0[a0.x], c0\nmov r0, c3000\ncall l1\ncallnz l2, !b3\nret\nlabel l1\nret");
    }
}
