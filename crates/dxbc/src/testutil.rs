//! A small DXBC token writer for unit tests: builds opcode and operand
//! tokens, whole programs and containers (with a valid checksum).

use crate::opcode::Opcode;
use crate::operand::OperandType;
use dxspv_container::dxbc_checksum;

/// Opcode token with the given length and opcode-specific control bits.
pub fn op_token(op: Opcode, len: usize, controls: u32) -> u32 {
    (op as u32) | (controls << 11) | ((len as u32) << 24)
}

/// Builds an instruction from an opcode, control bits, extended opcode
/// tokens and operand token groups, computing the length.
pub fn inst(op: Opcode, controls: u32, ext: &[u32], operands: &[Vec<u32>]) -> Vec<u32> {
    let len = 1 + ext.len() + operands.iter().map(Vec::len).sum::<usize>();
    let mut tok = op_token(op, len, controls);
    if !ext.is_empty() {
        tok |= 0x8000_0000;
    }
    let mut v = vec![tok];
    for (i, e) in ext.iter().enumerate() {
        let more = if i + 1 < ext.len() { 0x8000_0000 } else { 0 };
        v.push(e | more);
    }
    for o in operands {
        v.extend_from_slice(o);
    }
    v
}

/// Component selection bits.
pub enum Sel {
    /// No components.
    Zero,
    /// Scalar register.
    One,
    /// Write mask.
    Mask(u32),
    /// Swizzle (x, y, z, w source components).
    Swz([u32; 4]),
    /// Select one component.
    One1(u32),
}

fn sel_bits(sel: &Sel) -> u32 {
    match sel {
        Sel::Zero => 0,
        Sel::One => 1,
        Sel::Mask(m) => 2 | (m << 4),
        Sel::Swz(s) => 2 | (1 << 2) | ((s[0] | (s[1] << 2) | (s[2] << 4) | (s[3] << 6)) << 4),
        Sel::One1(c) => 2 | (2 << 2) | (c << 4),
    }
}

/// One index of an operand under construction.
#[derive(Clone)]
pub enum Idx {
    /// 32-bit immediate.
    Imm(u32),
    /// 64-bit immediate.
    Imm64(u64),
    /// Relative only (operand tokens of the index register).
    Rel(Vec<u32>),
    /// Immediate plus relative.
    ImmRel(u32, Vec<u32>),
}

/// A general operand: type, selection, indices, optional extended token.
pub fn operand(ty: OperandType, sel: Sel, indices: &[Idx], ext: Option<u32>) -> Vec<u32> {
    let mut tok = sel_bits(&sel) | ((ty as u32) << 12) | ((indices.len() as u32) << 20);
    let mut tail = Vec::new();
    for (i, idx) in indices.iter().enumerate() {
        let rep = match idx {
            Idx::Imm(v) => {
                tail.push(*v);
                0
            }
            Idx::Imm64(v) => {
                tail.push((v >> 32) as u32);
                tail.push(*v as u32);
                1
            }
            Idx::Rel(r) => {
                tail.extend_from_slice(r);
                2
            }
            Idx::ImmRel(v, r) => {
                tail.push(*v);
                tail.extend_from_slice(r);
                3
            }
        };
        tok |= rep << (22 + 3 * i as u32);
    }
    let mut v = vec![tok];
    if let Some(e) = ext {
        v[0] |= 0x8000_0000;
        v.push(e);
    }
    v.extend(tail);
    v
}

/// `r#`/`o#`/`v#` destination with a write mask.
pub fn dst(ty: OperandType, reg: u32, mask: u32) -> Vec<u32> {
    operand(ty, Sel::Mask(mask), &[Idx::Imm(reg)], None)
}

/// Source register with a swizzle.
pub fn src(ty: OperandType, reg: u32, swz: [u32; 4]) -> Vec<u32> {
    operand(ty, Sel::Swz(swz), &[Idx::Imm(reg)], None)
}

/// Four-component 32-bit immediate.
pub fn imm4(v: [u32; 4]) -> Vec<u32> {
    let mut t = vec![2 | ((OperandType::Immediate32 as u32) << 12)];
    t.extend_from_slice(&v);
    t
}

/// Scalar 32-bit immediate.
pub fn imm1(v: u32) -> Vec<u32> {
    vec![1 | ((OperandType::Immediate32 as u32) << 12), v]
}

/// Version token.
pub fn version(stage: u32, major: u32, minor: u32) -> u32 {
    (stage << 16) | (major << 4) | minor
}

/// A program part body: version token, length token and the instructions.
pub fn program(stage: u32, major: u32, minor: u32, body: &[Vec<u32>]) -> Vec<u8> {
    let words: Vec<u32> = body.iter().flatten().copied().collect();
    let mut all = vec![version(stage, major, minor), (words.len() + 2) as u32];
    all.extend(words);
    to_bytes(&all)
}

/// Little-endian bytes of words.
pub fn to_bytes(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// A container with the given parts and a correct checksum.
pub fn container(parts: &[(&[u8; 4], Vec<u8>)]) -> Vec<u8> {
    let header = 32 + 4 * parts.len();
    let mut out = vec![0u8; header];
    out[..4].copy_from_slice(b"DXBC");
    out[20..24].copy_from_slice(&1u32.to_le_bytes());
    out[28..32].copy_from_slice(&(parts.len() as u32).to_le_bytes());
    for (i, (fourcc, data)) in parts.iter().enumerate() {
        let off = out.len() as u32;
        out[32 + 4 * i..36 + 4 * i].copy_from_slice(&off.to_le_bytes());
        out.extend_from_slice(*fourcc);
        out.extend_from_slice(&(data.len() as u32).to_le_bytes());
        out.extend_from_slice(data);
    }
    let size = out.len() as u32;
    out[24..28].copy_from_slice(&size.to_le_bytes());
    let sum = dxbc_checksum(&out[20..]);
    for (i, w) in sum.iter().enumerate() {
        out[4 + 4 * i..8 + 4 * i].copy_from_slice(&w.to_le_bytes());
    }
    out
}

/// A signature part with (name, index, sysval, type, register, mask, rw) rows.
pub fn signature(rows: &[(&str, u32, u32, u32, u32, u8, u8)]) -> Vec<u8> {
    let mut words = vec![rows.len() as u32, 8];
    let mut strings = Vec::new();
    let table_end = 8 + rows.len() * 24;
    for (name, index, sv, ty, reg, mask, rw) in rows {
        words.push((table_end + strings.len()) as u32);
        strings.extend_from_slice(name.as_bytes());
        strings.push(0);
        words.extend_from_slice(&[*index, *sv, *ty, *reg, *mask as u32 | ((*rw as u32) << 8)]);
    }
    let mut b = to_bytes(&words);
    b.extend(strings);
    while b.len() & 3 != 0 {
        b.push(0xab);
    }
    b
}
