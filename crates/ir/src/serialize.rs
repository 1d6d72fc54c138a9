//! The compact binary form of a program, as the spec's "Serialization" section defines it.
//!
//! A stream is a sequence of variable-length signed tokens. The number of leading 1 bits of a
//! token's first byte is the number of bytes that follow it, bytes are big-endian and the value
//! is sign-extended from the token's bit width: one byte holds 7 bits, two 14, ... eight 56, and
//! nine bytes (first byte `0xFF`) a full 64 bits. [`write_token`] picks the smallest width whose
//! signed range holds the value; 64-bit literals are written as their `i64` bit pattern.
//!
//! Each op, in program order, is written as:
//! - the opcode token, `opcode | flags << 10`;
//! - the operand count;
//! - the type: a header token `dims | members << 2`, one token per array dimension (innermost
//!   first, as [`Type::dims`]) and one token per member ([`BasicType::bits`]);
//! - the operands: references as `current id - referenced id` (so `0` is null and a forward
//!   reference is negative), literals as they are.
//!
//! [`serialize`] renumbers the ops densely `1..=n` in program order; [`deserialize`] gives them
//! those ids back. Deserialization is total: it checks every count against the bytes left
//! (each token takes at least one byte) before allocating, never loops without consuming
//! input, and reports the byte offset and op index of the first problem.

use crate::builder::Builder;
use crate::op::{Op, OpFlags, Operand, Operands, SsaDef};
use crate::opcode::OpCode;
use crate::types::{BasicType, ScalarType, Type, TypeError, MAX_ARRAY_DIMS, MAX_STRUCT_MEMBERS};

/// Bits of the opcode token that hold the opcode.
const OPCODE_BITS: u32 = 10;
/// Largest value the opcode token may hold: 10 bits of opcode, 8 bits of flags.
const OPCODE_TOKEN_MAX: i64 = (1 << (OPCODE_BITS + 8)) - 1;
/// The fewest bytes an op can take: opcode token, operand count and type header.
const MIN_OP_BYTES: usize = 3;

/// What was wrong with a serialized stream.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DeserializeErrorKind {
    /// The stream ends inside a token.
    #[error("truncated token")]
    TruncatedToken,
    /// The stream ends inside an op (a token was expected).
    #[error("stream ends inside an op, expected {0}")]
    TruncatedOp(&'static str),
    /// The opcode token is negative or wider than 18 bits.
    #[error("bad opcode token {0}")]
    BadOpcodeToken(i64),
    /// The 10-bit opcode is not a known opcode.
    #[error("unknown opcode code {0}")]
    UnknownOpcode(u16),
    /// The flags byte has bits no [`OpFlags`] defines.
    #[error("undefined flag bits {0:#04x}")]
    BadFlags(u8),
    /// The operand count is negative or larger than the bytes left.
    #[error("operand count {0} is negative or exceeds the remaining input")]
    BadOperandCount(i64),
    /// The operand count does not fit the opcode's shape.
    #[error("{count} operands do not fit the shape of {opcode}")]
    OperandCountMismatch {
        /// The opcode.
        opcode: OpCode,
        /// The operand count read.
        count: usize,
    },
    /// The type header token is negative.
    #[error("bad type header {0}")]
    BadTypeHeader(i64),
    /// The type header declares more than [`MAX_STRUCT_MEMBERS`] members.
    #[error("type has {0} members, at most {MAX_STRUCT_MEMBERS} are supported")]
    TooManyMembers(i64),
    /// An array size token is negative or does not fit 32 bits.
    #[error("bad array size {0}")]
    BadArraySize(i64),
    /// A member token is not a valid [`BasicType`] (bad range or unknown scalar code).
    #[error("bad struct member {0} (unknown scalar code or vector size)")]
    BadMember(i64),
    /// The type parts do not form a valid [`Type`].
    #[error("invalid type: {0}")]
    InvalidType(TypeError),
    /// A reference points before the first op or past any op the rest of the stream can hold.
    #[error("reference delta {delta} from op id {id} is out of range")]
    RefOutOfRange {
        /// The id of the op holding the reference.
        id: u32,
        /// The encoded delta.
        delta: i64,
    },
    /// A forward reference points past the last op of the stream.
    #[error("forward reference to op id {target}, but the stream has only {count} ops")]
    UndefinedRef {
        /// The referenced id.
        target: u32,
        /// The number of ops in the stream.
        count: u32,
    },
    /// More ops than ids.
    #[error("too many ops")]
    TooManyOps,
}

/// Error reading a serialized stream: where (byte offset of the token, op index) and what.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("byte {offset}, op {op_index}: {kind}")]
pub struct DeserializeError {
    /// Byte offset of the offending token (for [`DeserializeErrorKind::UndefinedRef`], of the
    /// op holding the reference).
    pub offset: usize,
    /// Index of the op being read (0-based; its id is `op_index + 1`).
    pub op_index: usize,
    /// What was wrong.
    pub kind: DeserializeErrorKind,
}

/// Number of bytes [`write_token`] uses for `v`: 1 to 9.
pub fn token_len(v: i64) -> usize {
    // Bits needed for a two's complement value, sign bit included.
    let bits = 65 - (v ^ (v >> 63)).leading_zeros() as usize;
    if bits > 56 {
        9
    } else {
        bits.div_ceil(7).max(1)
    }
}

/// Appends one token holding `v` in the smallest width whose signed range holds it.
#[inline]
pub fn write_token(out: &mut Vec<u8>, v: i64) {
    if (-64..64).contains(&v) {
        out.push((v as u8) & 0x7f);
        return;
    }
    let n = token_len(v);
    if n == 9 {
        out.push(0xff);
        out.extend_from_slice(&v.to_be_bytes());
        return;
    }
    let bits = 7 * n as u32;
    let payload = (v as u64) & ((1u64 << bits) - 1);
    // (n - 1) one bits followed by a zero bit, at the top of the n-byte word.
    let prefix = ((1u64 << (n - 1)) - 1) << (8 * n as u32 - (n as u32 - 1));
    let word = (prefix | payload).to_be_bytes();
    out.extend_from_slice(&word[8 - n..]);
}

/// Reads one token at `*pos`, advancing `*pos` past it; `None` if the input ends inside it.
#[inline]
pub fn read_token(bytes: &[u8], pos: &mut usize) -> Option<i64> {
    let &first = bytes.get(*pos)?;
    if first < 0x80 {
        *pos += 1;
        return Some(((first << 1) as i8 >> 1) as i64);
    }
    let n = first.leading_ones() as usize + 1;
    let rest = bytes.get(*pos + 1..*pos + n)?;
    *pos += n;
    if n == 9 {
        let mut word = [0u8; 8];
        word.copy_from_slice(rest);
        return Some(i64::from_be_bytes(word));
    }
    let mut value = (first as u64) & (0xff >> n);
    for &b in rest {
        value = (value << 8) | b as u64;
    }
    let shift = 64 - 7 * n as u32;
    Some(((value << shift) as i64) >> shift)
}

/// Serializes the live ops of `b` in program order, renumbered densely from 1.
///
/// References to ops that are not live (dangling references the validator would report) are
/// written as null. Ops whose operand count does not fit their opcode, or that carry flag bits
/// [`OpFlags`] does not define, are written as they are and rejected by [`deserialize`].
pub fn serialize(b: &Builder) -> Vec<u8> {
    let mut out = Vec::with_capacity(b.len() * 8);
    serialize_into(b, &mut out);
    out
}

/// Appends the serialized form of `b` to `out` (see [`serialize`]).
pub fn serialize_into(b: &Builder, out: &mut Vec<u8>) {
    // Old id -> new id; 0 for ids that are not live.
    let mut new_ids = vec![0u32; b.id_bound()];
    let mut next = 0u32;
    for (def, _) in b.iter() {
        next += 1;
        if let Some(slot) = new_ids.get_mut(def.index()) {
            *slot = next;
        }
    }
    let mut cur = 0i64;
    for (_, op) in b.iter() {
        cur += 1;
        write_token(
            out,
            op.opcode.code() as i64 | (op.flags.0 as i64) << OPCODE_BITS,
        );
        write_token(out, op.operands.len() as i64);
        write_type(out, &op.ty);
        let nrefs = op.ref_count();
        for (i, operand) in op.operands.iter().enumerate() {
            if i < nrefs {
                let target = usize::try_from(operand.0)
                    .ok()
                    .and_then(|i| new_ids.get(i))
                    .copied()
                    .unwrap_or(0);
                if target == 0 {
                    write_token(out, 0);
                } else {
                    write_token(out, cur - target as i64);
                }
            } else {
                write_token(out, operand.0 as i64);
            }
        }
    }
}

fn write_type(out: &mut Vec<u8>, ty: &Type) {
    let dims = ty.dims();
    let members = ty.members();
    write_token(out, dims.len() as i64 | (members.len() as i64) << 2);
    for &d in dims {
        write_token(out, d as i64);
    }
    for m in members {
        write_token(out, m.bits() as i64);
    }
}

/// Reads tokens of one stream, tracking positions for error reports.
struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
    op_index: usize,
}

impl Reader<'_> {
    fn err(&self, offset: usize, kind: DeserializeErrorKind) -> DeserializeError {
        DeserializeError {
            offset,
            op_index: self.op_index,
            kind,
        }
    }

    fn remaining(&self) -> usize {
        self.bytes.len().saturating_sub(self.pos)
    }

    /// Reads a token, returning it and its offset; `what` names it for truncation errors.
    #[inline]
    fn token(&mut self, what: &'static str) -> Result<(i64, usize), DeserializeError> {
        let start = self.pos;
        if start >= self.bytes.len() {
            return Err(self.err(start, DeserializeErrorKind::TruncatedOp(what)));
        }
        match read_token(self.bytes, &mut self.pos) {
            Some(v) => Ok((v, start)),
            None => Err(self.err(start, DeserializeErrorKind::TruncatedToken)),
        }
    }

    fn read_type(&mut self) -> Result<Type, DeserializeError> {
        let (header, at) = self.token("type header")?;
        if header < 0 {
            return Err(self.err(at, DeserializeErrorKind::BadTypeHeader(header)));
        }
        let ndims = (header & 3) as usize;
        let nmembers = header >> 2;
        if nmembers > MAX_STRUCT_MEMBERS as i64 {
            return Err(self.err(at, DeserializeErrorKind::TooManyMembers(nmembers)));
        }
        let mut dims = [0u32; MAX_ARRAY_DIMS];
        for d in dims.iter_mut().take(ndims) {
            let (v, at) = self.token("array size")?;
            *d = u32::try_from(v)
                .map_err(|_| self.err(at, DeserializeErrorKind::BadArraySize(v)))?;
        }
        let mut members = [BasicType::default(); MAX_STRUCT_MEMBERS];
        for m in members.iter_mut().take(nmembers as usize) {
            let (v, at) = self.token("struct member")?;
            *m = u8::try_from(v)
                .ok()
                .and_then(BasicType::from_bits)
                .filter(|b| b.base() != ScalarType::Void)
                .ok_or_else(|| self.err(at, DeserializeErrorKind::BadMember(v)))?;
        }
        Type::from_parts(&dims[..ndims], &members[..nmembers as usize])
            .map_err(|e| self.err(at, DeserializeErrorKind::InvalidType(e)))
    }
}

/// Reads a stream written by [`serialize`]; the ops get ids `1..=n` in stream order.
///
/// Fails with the byte offset and op index of the first malformed token: truncation, unknown
/// opcodes, undefined flags, operand counts that do not fit the opcode, malformed types and
/// references outside the stream's ops. Never panics, and allocates at most in proportion to
/// the input length.
pub fn deserialize(bytes: &[u8]) -> Result<Builder, DeserializeError> {
    let mut r = Reader {
        bytes,
        pos: 0,
        op_index: 0,
    };
    let mut b = Builder::with_capacity(bytes.len() / 6);
    // The farthest forward reference seen so far: (target id, offset of its op, its op index).
    let mut farthest: Option<(u32, usize, usize)> = None;
    while r.pos < bytes.len() {
        let op_start = r.pos;
        let id = u32::try_from(r.op_index + 1)
            .ok()
            .and_then(SsaDef::new)
            .ok_or_else(|| r.err(op_start, DeserializeErrorKind::TooManyOps))?;
        let (token, at) = r.token("opcode")?;
        if !(0..=OPCODE_TOKEN_MAX).contains(&token) {
            return Err(r.err(at, DeserializeErrorKind::BadOpcodeToken(token)));
        }
        let code = (token & ((1 << OPCODE_BITS) - 1)) as u16;
        let flags = (token >> OPCODE_BITS) as u8;
        let opcode = OpCode::from_code(code)
            .ok_or_else(|| r.err(at, DeserializeErrorKind::UnknownOpcode(code)))?;
        if flags & !OpFlags::ALL_BITS != 0 {
            return Err(r.err(at, DeserializeErrorKind::BadFlags(flags)));
        }
        let (count, at) = r.token("operand count")?;
        if count < 0 || count as u64 > r.remaining() as u64 {
            return Err(r.err(at, DeserializeErrorKind::BadOperandCount(count)));
        }
        let count = count as usize;
        let nrefs = opcode.info().ref_count(count).ok_or_else(|| {
            r.err(
                at,
                DeserializeErrorKind::OperandCountMismatch { opcode, count },
            )
        })?;
        let ty = r.read_type()?;
        let mut operands = Operands::with_capacity(count);
        let cur = id.id() as i64;
        for i in 0..count {
            let (v, at) = r.token("operand")?;
            if i >= nrefs || v == 0 {
                operands.push(Operand(v as u64));
                continue;
            }
            // No op can start in fewer than MIN_OP_BYTES bytes, which bounds forward references
            // (and the slots the builder grows for them) by the input length.
            let max_target = cur + (r.remaining() / MIN_OP_BYTES) as i64;
            let target = cur.checked_sub(v).filter(|t| (1..=max_target).contains(t));
            let Some(target) = target.and_then(|t| u32::try_from(t).ok()) else {
                return Err(r.err(
                    at,
                    DeserializeErrorKind::RefOutOfRange {
                        id: id.id(),
                        delta: v,
                    },
                ));
            };
            if target > id.id() && farthest.is_none_or(|(t, _, _)| target > t) {
                farthest = Some((target, op_start, r.op_index));
            }
            operands.push(Operand(target as u64));
        }
        let op = Op {
            opcode,
            flags: OpFlags(flags),
            ty,
            operands,
        };
        if b.add_with_id(id, op).is_err() {
            return Err(r.err(op_start, DeserializeErrorKind::TooManyOps));
        }
        r.op_index += 1;
    }
    if let Some((target, offset, op_index)) = farthest {
        let count = r.op_index as u32;
        if target > count {
            return Err(DeserializeError {
                offset,
                op_index,
                kind: DeserializeErrorKind::UndefinedRef { target, count },
            });
        }
    }
    Ok(b)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testgen;

    fn tok(v: i64) -> Vec<u8> {
        let mut out = Vec::new();
        write_token(&mut out, v);
        out
    }

    fn round(v: i64) {
        let bytes = tok(v);
        assert_eq!(bytes.len(), token_len(v), "length of {v}");
        let mut pos = 0;
        assert_eq!(read_token(&bytes, &mut pos), Some(v), "value {v}");
        assert_eq!(pos, bytes.len());
        // Leading one bits of the first byte = bytes that follow.
        assert_eq!(bytes[0].leading_ones() as usize, bytes.len() - 1);
    }

    #[test]
    fn token_width_boundaries() {
        for n in 1..=8u32 {
            let bits = 7 * n;
            let max = (1i64 << (bits - 1)) - 1;
            let min = -(1i64 << (bits - 1));
            for v in [max, min, max - 1, min + 1] {
                round(v);
                assert_eq!(token_len(v), n as usize, "{v} fits {n} bytes");
            }
            round(max + 1);
            round(min - 1);
            assert_eq!(token_len(max + 1), n as usize + 1);
            assert_eq!(token_len(min - 1), n as usize + 1);
        }
        for v in [0, 1, -1, 63, -64, 64, -65, i64::MAX, i64::MIN, i64::MAX - 1] {
            round(v);
        }
        assert_eq!(token_len(i64::MAX), 9);
        assert_eq!(token_len(i64::MIN), 9);
        assert_eq!(tok(0), [0x00]);
        assert_eq!(tok(-1), [0x7f]);
        assert_eq!(tok(63), [0x3f]);
        assert_eq!(tok(64), [0x80, 0x40]);
        assert_eq!(tok(-65), [0xbf, 0xbf]);
        assert_eq!(tok(i64::MIN)[0], 0xff);
        // u64 literals travel as their i64 bit pattern.
        assert_eq!(tok(u64::MAX as i64), [0x7f]);
    }

    #[test]
    fn token_sign_extension_on_decode() {
        // 0b0100_0000 is -64 in 7 bits; 0b10_111111 11111111 is -1 in 14 bits.
        let mut pos = 0;
        assert_eq!(read_token(&[0x40], &mut pos), Some(-64));
        pos = 0;
        assert_eq!(read_token(&[0xbf, 0xff], &mut pos), Some(-1));
        pos = 0;
        assert_eq!(read_token(&[0x9f, 0xff], &mut pos), Some(0x1fff));
        pos = 0;
        let mut nine = vec![0xff];
        nine.extend_from_slice(&u64::MAX.to_be_bytes());
        assert_eq!(read_token(&nine, &mut pos), Some(-1));
        pos = 0;
        assert_eq!(read_token(&[0xfe, 0, 0, 0, 0, 0, 0], &mut pos), None);
    }

    #[test]
    fn token_random_values_round_trip() {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..100_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let shift = (x % 64) as u32;
            round((x as i64) >> shift);
        }
    }

    #[test]
    fn truncation_at_every_byte_is_an_error() {
        let b = testgen::random_program(7, 150);
        let bytes = serialize(&b);
        assert!(deserialize(&bytes).is_ok());
        let mut errors = 0;
        for len in 0..bytes.len() {
            // A prefix that ends exactly at an op boundary may still be a valid stream with
            // fewer ops, unless a forward reference now points past its end.
            if deserialize(&bytes[..len]).is_err() {
                errors += 1;
            }
        }
        assert!(errors > bytes.len() / 2);
    }

    #[test]
    fn undefined_flags_and_opcodes_are_rejected() {
        let mut bytes = Vec::new();
        write_token(&mut bytes, OpCode::Unreachable.code() as i64 | 0x40 << 10);
        write_token(&mut bytes, 0);
        write_token(&mut bytes, 0);
        let e = deserialize(&bytes).unwrap_err();
        assert_eq!(e.kind, DeserializeErrorKind::BadFlags(0x40));
        bytes.clear();
        write_token(&mut bytes, 1000);
        let e = deserialize(&bytes).unwrap_err();
        assert_eq!(e.kind, DeserializeErrorKind::UnknownOpcode(1000));
    }
}
