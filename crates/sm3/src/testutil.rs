//! Token builders for unit tests: each shader is spelled out word by word.

use crate::decode::{Instruction, Shader};
use crate::error::Error;

/// Raw register type numbers (`D3DSPR_*`).
pub mod ty {
    pub const TEMP: u32 = 0;
    pub const INPUT: u32 = 1;
    pub const CONST: u32 = 2;
    pub const ADDR: u32 = 3;
    pub const TEXTURE: u32 = 3;
    pub const RASTOUT: u32 = 4;
    pub const ATTROUT: u32 = 5;
    pub const TEXCRDOUT: u32 = 6;
    pub const OUTPUT: u32 = 6;
    pub const CONSTINT: u32 = 7;
    pub const COLOROUT: u32 = 8;
    pub const DEPTHOUT: u32 = 9;
    pub const SAMPLER: u32 = 10;
    pub const CONST2: u32 = 11;
    pub const CONST3: u32 = 12;
    pub const CONST4: u32 = 13;
    pub const CONSTBOOL: u32 = 14;
    pub const LOOP: u32 = 15;
    pub const TEMPFLOAT16: u32 = 16;
    pub const MISCTYPE: u32 = 17;
    pub const LABEL: u32 = 18;
    pub const PREDICATE: u32 = 19;
}

/// Opcode numbers used in tests.
pub mod op {
    pub const NOP: u32 = 0;
    pub const MOV: u32 = 1;
    pub const ADD: u32 = 2;
    pub const MAD: u32 = 4;
    pub const CALLNZ: u32 = 26;
    pub const DCL: u32 = 31;
    pub const SINCOS: u32 = 37;
    pub const IF: u32 = 40;
    pub const IFC: u32 = 41;
    pub const BREAKC: u32 = 45;
    pub const DEFB: u32 = 47;
    pub const DEFI: u32 = 48;
    pub const TEXCOORD: u32 = 64;
    pub const TEXKILL: u32 = 65;
    pub const TEX: u32 = 66;
    pub const DEF: u32 = 81;
    pub const SETP: u32 = 94;
    pub const PHASE: u32 = 0xFFFD;
}

pub const END: u32 = 0x0000_FFFF;

/// A model 2/3 instruction token with `len` parameter tokens and `controls` in bits 16-23.
pub fn inst(opcode: u32, len: u32, controls: u32) -> u32 {
    opcode | (controls & 0xFF) << 16 | (len & 0xF) << 24
}

/// A model 1 instruction token (no length field).
pub fn inst1(opcode: u32) -> u32 {
    opcode
}

/// The register part of a parameter token (bit 31, type split over two fields, number).
pub fn reg(ty: u32, num: u32) -> u32 {
    0x8000_0000 | (ty & 7) << 28 | (ty & 0x18) << 8 | (num & 0x7FF)
}

/// A destination token writing `mask` (bit 0 = x).
pub fn dst(ty: u32, num: u32, mask: u32) -> u32 {
    reg(ty, num) | (mask & 0xF) << 16
}

/// A source token with swizzle byte `swz`.
pub fn src(ty: u32, num: u32, swz: u32) -> u32 {
    reg(ty, num) | (swz & 0xFF) << 16
}

/// The identity swizzle byte.
pub const XYZW: u32 = 0xE4;

/// Sets the source modifier field.
pub fn with_srcmod(token: u32, modifier: u32) -> u32 {
    token | (modifier & 0xF) << 24
}

/// Sets the result modifier and shift fields of a destination token.
pub fn with_result(token: u32, modifiers: u32, shift: u32) -> u32 {
    token | (modifiers & 0xF) << 20 | (shift & 0xF) << 24
}

/// Sets the relative-addressing bit.
pub fn relative(token: u32) -> u32 {
    token | 1 << 13
}

/// Little-endian bytes of `words`.
pub fn bytes(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// Parses `words` and decodes every instruction (comments included).
pub fn decode_all(words: &[u32]) -> Result<Vec<Instruction<'static>>, Error> {
    let data: &'static [u8] = Box::leak(bytes(words).into_boxed_slice());
    let shader = Shader::parse(data)?;
    shader.instructions().collect()
}

/// Decodes a shader with one instruction and returns it.
pub fn decode_one(words: &[u32]) -> Instruction<'static> {
    let mut all = decode_all(words).expect("decodes");
    assert_eq!(all.len(), 1, "expected one instruction");
    all.remove(0)
}

/// The first decode error of `words`.
pub fn decode_error(words: &[u32]) -> Error {
    match decode_all(words) {
        Ok(v) => panic!("expected an error, decoded {v:?}"),
        Err(e) => e,
    }
}

/// The disassembly of `words` without the version line, one instruction per line, trimmed.
pub fn disasm_body(words: &[u32]) -> Vec<String> {
    let text = crate::disassemble(&bytes(words)).expect("disassembles");
    text.lines()
        .skip_while(|l| l.starts_with("//") || l.is_empty())
        .skip(1)
        .map(|l| l.trim_end().to_string())
        .collect()
}
