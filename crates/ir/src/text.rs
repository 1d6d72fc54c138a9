//! The readable text form of a program: [`print()`] and [`parse()`].
//!
//! Tests of passes and the `dxspv ir` command use this form. It is stable: printing, parsing
//! and printing again gives the same text, for every opcode.
//!
//! ```text
//! %1 = EntryPoint %4 Vertex
//! %2 = DebugName %1 "main"
//! %3 = Constant vec4<f32> 1.0 0.5 -2.0 0x7fc00000
//! %4 = Function void
//! %5 = Label None
//! %6 = FAdd [precise|nosz] f32 %3 %3   ; sum
//! %7 = DebugName %6 "sum"
//! ```
//!
//! # Rules
//! - One op per line: `%ID = OpName [flags] TYPE OPERANDS...`. `;` starts a comment that runs
//!   to the end of the line (outside strings); blank lines are ignored.
//! - Ids are the builder's [`SsaDef`] ids, so messages naming a def match the text. The parser
//!   keeps them; references may point forward, but every referenced id must be defined
//!   somewhere, and ids may not exceed `65536 + text length`.
//! - Flags come in brackets, named as in [`OpFlags::NAMED`] and joined by `|`.
//! - The result type ([`Type`]'s `Display`: `void`, `f32`, `vec4<u32>`, `struct{u32, vec4<f32>}`,
//!   `u32[4][]`) follows the opcode and flags. It is left out for opcodes whose result is always
//!   `void` (`EntryPoint`, `DebugName`, `Label`, `Branch`, ...) when it is `void`; the parser
//!   accepts it there too.
//! - References print as `%N`, or `null`.
//! - Literals print by their [`LitKind`]: enum and flag names (`Vertex`, `Flat|Centroid`,
//!   `None`, `Patch3`), decimal integers for `Int` and `CaseValue`, one double-quoted string
//!   for a whole string tail (escapes `\"`, `\\`, `\n`, `\t`, `\r`, `\xNN`), and for constant
//!   data one token per flattened scalar formatted by that scalar's type: floats as the
//!   shortest decimal that reads back to the same bits (`1.0`, `-0.5`, `1e20`), integers in
//!   decimal (negative for signed types), `true`/`false` for bools. Each data literal holds its
//!   scalar's bit pattern in its low bits (zero-extended, also for signed types).
//! - Anything that has no such form prints as a raw integer the parser takes back unchanged:
//!   `0x…` bit patterns for NaN, infinities and data that does not fit its scalar type,
//!   decimal codes for enum values or flag bits the enum does not define, and one integer per
//!   literal for string tails that are not a canonical packed string. The parser accepts
//!   integers (decimal, negative as two's complement, or `0x…`) for every literal kind.
//! - When an op has a `DebugName`, its line ends with `   ; name`.
//! - An op whose operand count does not fit its opcode (which only a buggy pass can make)
//!   still prints, with every operand as a reference, but does not parse back.

use crate::builder::Builder;
use crate::enums::*;
use crate::op::{push_bytes, Op, OpFlags, Operand, Operands, SsaDef};
use crate::opcode::{LitKind, OpCode, ResultRule};
use crate::types::{BasicType, ScalarType, Type, TypeError, MAX_STRUCT_MEMBERS};
use std::fmt::Write;

/// Ids above `ID_SLACK + text length` are rejected, which bounds what the parser allocates.
const ID_SLACK: usize = 1 << 16;

// ---------------------------------------------------------------------------------------------
// Printer
// ---------------------------------------------------------------------------------------------

/// Prints every live op of `b` in program order, one per line.
pub fn print(b: &Builder) -> String {
    let mut out = String::with_capacity(b.len() * 32);
    for (def, op) in b.iter() {
        write_op(&mut out, b, def, op);
        out.push('\n');
    }
    out
}

/// Prints the line of one op (without a line break), as [`print()`] would; for error messages.
pub fn print_op(b: &Builder, def: SsaDef) -> String {
    let mut out = String::new();
    match b.get(def) {
        Some(op) => write_op(&mut out, b, def, op),
        None => {
            let _ = write!(out, "{def} = <not a live op>");
        }
    }
    out
}

/// The debug name of `def`: the string of its `DebugName` with the lowest id, if any.
pub fn debug_name(b: &Builder, def: SsaDef) -> Option<String> {
    b.uses(def)
        .filter(|u| u.operand == 0)
        .filter_map(|u| Some((u.user, b.get(u.user)?)))
        .filter(|(_, op)| op.opcode == OpCode::DebugName)
        .min_by_key(|(user, _)| *user)
        .map(|(_, op)| op.string_from(0))
}

fn write_op(out: &mut String, b: &Builder, def: SsaDef, op: &Op) {
    let info = op.opcode.info();
    let _ = write!(out, "%{} = {}", def.id(), info.name);
    if !op.flags.is_empty() {
        write_flags(out, op.flags);
    }
    if !(info.result == ResultRule::Void && op.ty.is_void()) {
        let _ = write!(out, " {}", op.ty);
    }
    let count = op.operands.len();
    // An op whose operand count does not fit its opcode prints all operands as references.
    let nrefs = info.ref_count(count).unwrap_or(count);
    let (refs, lits) = op.operands.split_at(nrefs.min(count));
    for r in refs {
        if r.0 == 0 {
            out.push_str(" null");
        } else {
            let _ = write!(out, " %{}", r.0);
        }
    }
    for (i, lit) in lits.iter().enumerate() {
        if i == info.lits.len() && info.var_lits == Some(LitKind::Str) {
            write_string_tail(out, &lits[i..]);
            break;
        }
        out.push(' ');
        match info.lit_kind(i) {
            Some(LitKind::Data) => write_data(out, op.ty.flattened_scalar_type(i), lit.0),
            Some(LitKind::Str) => {
                let _ = write!(out, "{:#x}", lit.0);
            }
            Some(kind) => write_literal(out, kind, lit.0),
            None => {
                let _ = write!(out, "{}", lit.0);
            }
        }
    }
    if let Some(name) = debug_name(b, def).filter(|n| !n.is_empty()) {
        out.push_str("   ; ");
        write_escaped(out, name.as_bytes());
    }
}

fn write_flags(out: &mut String, flags: OpFlags) {
    out.push_str(" [");
    let mut first = true;
    for (name, flag) in OpFlags::NAMED {
        if flags.contains(flag) {
            if !first {
                out.push('|');
            }
            out.push_str(name);
            first = false;
        }
    }
    let undefined = flags.0 & !OpFlags::ALL_BITS;
    if undefined != 0 {
        if !first {
            out.push('|');
        }
        let _ = write!(out, "{undefined:#x}");
    }
    out.push(']');
}

/// Calls `$m!` with every literal kind that is an enum or a flag set of the same name.
macro_rules! for_named_kinds {
    ($m:ident, $($args:tt)*) => {
        $m!(
            $($args)*;
            ShaderStage,
            ShaderStageMask,
            BuiltIn,
            ResourceKind,
            PrimitiveType,
            InterpolationModes,
            AtomicOp,
            RoundMode,
            DenormMode,
            Scope,
            MemoryTypeMask,
            UavFlags,
            Construct,
            DerivativeMode,
            RovScope,
            TessWindingOrder,
            TessPartitioning,
            WaveOp,
            QuadDirection
        )
    };
}

/// Writes the name of literal `v` of an enum or flag kind; false if `kind` has no names or `v`
/// is not a defined value.
fn write_named(out: &mut String, kind: LitKind, v: u64) -> bool {
    macro_rules! arms {
        ($out:ident, $kind:ident, $v:ident; $($k:ident),*) => {
            match $kind {
                $(LitKind::$k => match $k::from_literal($v) {
                    Some(x) => {
                        let _ = write!($out, "{x}");
                        true
                    }
                    None => false,
                },)*
                _ => false,
            }
        };
    }
    for_named_kinds!(arms, out, kind, v)
}

/// The literal of an enum or flag kind written as `name`.
fn parse_named(kind: LitKind, name: &str) -> Option<u64> {
    macro_rules! arms {
        ($kind:ident, $name:ident; $($k:ident),*) => {
            match $kind {
                $(LitKind::$k => $k::from_name($name).map(|x| x.to_literal()),)*
                _ => None,
            }
        };
    }
    for_named_kinds!(arms, kind, name)
}

fn write_literal(out: &mut String, kind: LitKind, v: u64) {
    if !write_named(out, kind, v) {
        let _ = write!(out, "{v}");
    }
}

/// Writes a string tail as one quoted string if it is a canonical packed string, else as one
/// hex integer per literal.
fn write_string_tail(out: &mut String, lits: &[Operand]) {
    match canonical_string(lits) {
        Some(bytes) => {
            out.push_str(" \"");
            write_escaped(out, &bytes);
            out.push('"');
        }
        None => {
            for l in lits {
                let _ = write!(out, " {:#x}", l.0);
            }
        }
    }
}

/// The bytes of a string tail if it is exactly what [`crate::op::push_string`] makes of them.
fn canonical_string(lits: &[Operand]) -> Option<Vec<u8>> {
    let mut bytes = Vec::with_capacity(lits.len() * 8);
    for l in lits {
        bytes.extend_from_slice(&l.0.to_le_bytes());
    }
    let end = bytes.iter().position(|&b| b == 0)?;
    if lits.len() != end / 8 + 1 || bytes[end..].iter().any(|&b| b != 0) {
        return None;
    }
    bytes.truncate(end);
    Some(bytes)
}

/// Writes bytes as the inside of a quoted string: UTF-8 text as is, quotes, backslashes and
/// control characters escaped, bytes that are not UTF-8 as `\xNN`.
fn write_escaped(out: &mut String, mut bytes: &[u8]) {
    while !bytes.is_empty() {
        let (valid, bad) = match std::str::from_utf8(bytes) {
            Ok(s) => (s, 0),
            Err(e) => {
                let n = e.valid_up_to();
                let bad = e.error_len().unwrap_or(bytes.len() - n);
                (std::str::from_utf8(&bytes[..n]).unwrap_or(""), bad)
            }
        };
        for c in valid.chars() {
            match c {
                '"' => out.push_str("\\\""),
                '\\' => out.push_str("\\\\"),
                '\n' => out.push_str("\\n"),
                '\t' => out.push_str("\\t"),
                '\r' => out.push_str("\\r"),
                c if (c as u32) < 0x20 || c as u32 == 0x7f => {
                    let _ = write!(out, "\\x{:02x}", c as u32);
                }
                c => out.push(c),
            }
        }
        let rest = &bytes[valid.len()..];
        for b in rest.iter().take(bad) {
            let _ = write!(out, "\\x{b:02x}");
        }
        bytes = rest.get(bad..).unwrap_or(&[]);
    }
}

/// Bit width of the scalars a data literal holds for an integer type.
fn int_width(t: ScalarType) -> Option<u32> {
    match t {
        ScalarType::MinI16 | ScalarType::MinU16 => Some(32),
        _ => t.bit_size(),
    }
}

fn fits_width(v: u64, width: u32) -> bool {
    width >= 64 || v >> width == 0
}

/// Writes one constant data literal formatted by its scalar type.
fn write_data(out: &mut String, scalar: Option<ScalarType>, v: u64) {
    use ScalarType as S;
    match scalar {
        Some(S::F32 | S::MinF16 | S::MinF10) => {
            if let Ok(bits) = u32::try_from(v) {
                let f = f32::from_bits(bits);
                if f.is_finite() {
                    let _ = write!(out, "{f:?}");
                    return;
                }
            }
        }
        Some(S::F64) => {
            let f = f64::from_bits(v);
            if f.is_finite() {
                let _ = write!(out, "{f:?}");
                return;
            }
        }
        Some(S::F16) => {
            if let Ok(bits) = u16::try_from(v) {
                let f = f16_to_f32(bits);
                if f.is_finite() {
                    let s = format!("{f:?}");
                    if s.parse::<f64>().ok().map(f64_to_f16) == Some(bits) {
                        out.push_str(&s);
                        return;
                    }
                }
            }
        }
        Some(S::Bool) => match v {
            0 => return out.push_str("false"),
            1 => return out.push_str("true"),
            _ => {}
        },
        Some(t) if t.is_int() => {
            let width = int_width(t).unwrap_or(64);
            if fits_width(v, width) {
                if t.is_signed_int() {
                    let shift = 64 - width;
                    let _ = write!(out, "{}", ((v << shift) as i64) >> shift);
                } else {
                    let _ = write!(out, "{v}");
                }
                return;
            }
        }
        _ => {
            let _ = write!(out, "{v}");
            return;
        }
    }
    let _ = write!(out, "{v:#x}");
}

/// Converts IEEE binary16 bits to `f32` (exact).
fn f16_to_f32(h: u16) -> f32 {
    let sign = ((h >> 15) as u32) << 31;
    let exp = ((h >> 10) & 0x1f) as u32;
    let mant = (h & 0x3ff) as u32;
    let bits = match (exp, mant) {
        (0, 0) => sign,
        (0, m) => {
            // Subnormal: m * 2^-24, exact in f32.
            let v = m as f32 * (1.0 / 16_777_216.0);
            return if sign != 0 { -v } else { v };
        }
        (0x1f, 0) => sign | 0x7f80_0000,
        (0x1f, m) => sign | 0x7fc0_0000 | (m << 13),
        (e, m) => sign | ((e + 112) << 23) | (m << 13),
    };
    f32::from_bits(bits)
}

/// Rounds an `f64` to IEEE binary16 bits, to nearest even.
fn f64_to_f16(x: f64) -> u16 {
    let bits = x.to_bits();
    let sign = ((bits >> 48) & 0x8000) as u16;
    let exp = ((bits >> 52) & 0x7ff) as i32;
    let mant = bits & ((1u64 << 52) - 1);
    if exp == 0x7ff {
        return sign | if mant == 0 { 0x7c00 } else { 0x7e00 };
    }
    let e = exp - 1023;
    if e > 15 {
        return sign | 0x7c00;
    }
    let (full, shift, base) = if e >= -14 {
        (mant, 42u32, ((e + 15) as u64) << 10)
    } else if e >= -25 {
        ((1u64 << 52) | mant, (42 + (-14 - e)) as u32, 0)
    } else {
        return sign;
    };
    let kept = full >> shift;
    let rem = full & ((1u64 << shift) - 1);
    let half = 1u64 << (shift - 1);
    let round_up = rem > half || (rem == half && kept & 1 == 1);
    // A carry out of the mantissa correctly moves to the next exponent (or infinity).
    sign | (base + kept + round_up as u64) as u16
}

// ---------------------------------------------------------------------------------------------
// Parser
// ---------------------------------------------------------------------------------------------

/// What was wrong with a line of IR text.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseErrorKind {
    /// Something else was found where a token was expected.
    #[error("expected {expected}, found {found}")]
    Expected {
        /// What the parser expected.
        expected: String,
        /// What it found (a quoted token or `end of line`).
        found: String,
    },
    /// The opcode name is not known.
    #[error("unknown opcode `{0}`")]
    UnknownOpcode(String),
    /// A flag in `[...]` is not known.
    #[error("unknown flag `{0}`")]
    UnknownFlag(String),
    /// A type is malformed.
    #[error("bad type: {0}")]
    BadType(String),
    /// A type is well-formed but breaks the IR's limits.
    #[error("invalid type: {0}")]
    InvalidType(TypeError),
    /// A literal does not parse as its kind.
    #[error("bad {kind} literal `{text}`")]
    BadLiteral {
        /// The literal's kind, in words.
        kind: String,
        /// The literal as written.
        text: String,
    },
    /// An id is defined twice.
    #[error("%{0} is defined twice")]
    DuplicateId(u32),
    /// An id is 0 or larger than the limit.
    #[error("id {id} is out of range 1..={max}")]
    IdOutOfRange {
        /// The id as written (saturated).
        id: u64,
        /// The largest id this text may use.
        max: u32,
    },
    /// An op refers to itself.
    #[error("%{0} refers to itself")]
    SelfReference(u32),
    /// A referenced id is never defined.
    #[error("%{0} is referenced but never defined")]
    UndefinedRef(u32),
    /// A string has no closing quote.
    #[error("unterminated string")]
    UnterminatedString,
    /// A string has an unknown escape sequence.
    #[error("bad escape sequence `{0}`")]
    BadEscape(String),
    /// A string contains a NUL byte, which the packed form cannot hold.
    #[error("strings cannot contain NUL bytes")]
    NulInString,
}

/// Error parsing IR text: the 1-based line and column (in characters) and what went wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{line}:{column}: {kind}")]
pub struct ParseError {
    /// 1-based line number.
    pub line: usize,
    /// 1-based column, counted in characters.
    pub column: usize,
    /// What went wrong.
    pub kind: ParseErrorKind,
}

/// Parses IR text (see the module documentation) into a builder that keeps the text's ids and
/// order.
///
/// Checks the syntax, the operand counts against each opcode's shape, literal values against
/// their kinds and that every referenced id is defined; everything else is the validator's job.
/// Never panics.
pub fn parse(text: &str) -> Result<Builder, ParseError> {
    let max_id = u32::try_from(text.len().saturating_add(ID_SLACK)).unwrap_or(u32::MAX);
    let mut b = Builder::with_capacity(text.len() / 32);
    let mut pending: Vec<(u32, usize, usize)> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let mut cur = Cursor {
            text: line,
            pos: 0,
            line: i + 1,
        };
        cur.skip_ws();
        if cur.at_end() {
            continue;
        }
        let (def, op) = cur.parse_op(&b, max_id, &mut pending)?;
        if b.add_with_id(def, op).is_err() {
            return Err(cur.err(0, ParseErrorKind::DuplicateId(def.id())));
        }
    }
    for &(id, line, column) in &pending {
        if !SsaDef::new(id).is_some_and(|d| b.contains(d)) {
            return Err(ParseError {
                line,
                column,
                kind: ParseErrorKind::UndefinedRef(id),
            });
        }
    }
    Ok(b)
}

/// A position in one line of text.
struct Cursor<'a> {
    text: &'a str,
    pos: usize,
    line: usize,
}

fn found(tok: &str) -> String {
    if tok.is_empty() {
        "end of line".to_string()
    } else {
        format!("`{tok}`")
    }
}

impl<'a> Cursor<'a> {
    fn err(&self, pos: usize, kind: ParseErrorKind) -> ParseError {
        let column = self.text.get(..pos).map_or(pos, |s| s.chars().count()) + 1;
        ParseError {
            line: self.line,
            column,
            kind,
        }
    }

    fn expected(&self, pos: usize, expected: &str, tok: &str) -> ParseError {
        self.err(
            pos,
            ParseErrorKind::Expected {
                expected: expected.to_string(),
                found: found(tok),
            },
        )
    }

    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.pos).copied()
    }

    fn skip_ws(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\r')) {
            self.pos += 1;
        }
    }

    /// True at the end of the line or at a comment (call after [`Cursor::skip_ws`]).
    fn at_end(&self) -> bool {
        matches!(self.peek(), None | Some(b';'))
    }

    fn slice(&self, start: usize, end: usize) -> &'a str {
        self.text.get(start..end).unwrap_or("")
    }

    /// The next whitespace-delimited token (empty at the end of the line) and its position.
    fn token(&mut self) -> (&'a str, usize) {
        self.skip_ws();
        let start = self.pos;
        while let Some(c) = self.peek() {
            if matches!(c, b' ' | b'\t' | b'\r' | b';') {
                break;
            }
            self.pos += 1;
        }
        (self.slice(start, self.pos), start)
    }

    /// A run of identifier characters at the cursor (possibly empty).
    fn word(&mut self) -> &'a str {
        let start = self.pos;
        while matches!(self.peek(), Some(c) if c.is_ascii_alphanumeric() || c == b'_') {
            self.pos += 1;
        }
        self.slice(start, self.pos)
    }

    fn expect_byte(&mut self, c: u8, what: &str) -> Result<(), ParseError> {
        if self.peek() == Some(c) {
            self.pos += 1;
            return Ok(());
        }
        let (tok, at) = self.clone_token();
        Err(self.expected(at, what, tok))
    }

    /// The token at the cursor, without moving.
    fn clone_token(&self) -> (&'a str, usize) {
        let mut c = Cursor {
            text: self.text,
            pos: self.pos,
            line: self.line,
        };
        c.token()
    }

    fn parse_op(
        &mut self,
        b: &Builder,
        max_id: u32,
        pending: &mut Vec<(u32, usize, usize)>,
    ) -> Result<(SsaDef, Op), ParseError> {
        // `%ID =`
        self.expect_byte(b'%', "`%ID = ...`")?;
        let id_pos = self.pos;
        let digits = self.word();
        let def = self.id(digits, id_pos, max_id)?;
        if b.contains(def) {
            return Err(self.err(id_pos, ParseErrorKind::DuplicateId(def.id())));
        }
        self.skip_ws();
        self.expect_byte(b'=', "`=`")?;
        self.skip_ws();
        // Opcode and flags.
        let name_pos = self.pos;
        let name = self.word();
        if name.is_empty() {
            let (tok, at) = self.clone_token();
            return Err(self.expected(at, "an opcode name", tok));
        }
        let opcode = OpCode::from_name(name)
            .ok_or_else(|| self.err(name_pos, ParseErrorKind::UnknownOpcode(name.to_string())))?;
        let info = opcode.info();
        self.skip_ws();
        let flags = if self.peek() == Some(b'[') {
            let flags = self.flags()?;
            self.delimiter()?;
            flags
        } else {
            OpFlags::empty()
        };
        // Type.
        self.skip_ws();
        let ty = if info.result != ResultRule::Void || self.looks_like_type() {
            let ty = self.parse_type()?;
            self.delimiter()?;
            ty
        } else {
            Type::VOID
        };
        // References.
        let mut operands = Operands::new();
        for _ in info.refs {
            operands.push(self.reference(def, max_id, b, pending, false)?);
        }
        if info.var_refs() {
            loop {
                let (tok, _) = self.clone_token();
                if !(tok.starts_with('%') || tok == "null") {
                    break;
                }
                // A phi's value may be the phi itself (a value a loop carries unchanged).
                let self_ok = opcode == OpCode::Phi && operands.len() % 2 == 1;
                operands.push(self.reference(def, max_id, b, pending, self_ok)?);
            }
        }
        // Literals.
        for (i, &kind) in info.lits.iter().enumerate() {
            operands.push(self.literal(kind, &ty, i)?);
        }
        if let Some(kind) = info.var_lits {
            let mut i = info.lits.len();
            loop {
                self.skip_ws();
                if self.at_end() {
                    break;
                }
                if kind == LitKind::Str && self.peek() == Some(b'"') && i == info.lits.len() {
                    let bytes = self.string()?;
                    push_bytes(&mut operands, &bytes);
                    break;
                }
                operands.push(self.literal(kind, &ty, i)?);
                i += 1;
            }
        }
        self.skip_ws();
        if !self.at_end() {
            let (tok, at) = self.clone_token();
            return Err(self.expected(at, "end of line", tok));
        }
        let op = Op {
            opcode,
            flags,
            ty,
            operands,
        };
        Ok((def, op))
    }

    /// After a token: whitespace, a comment or the end of the line must follow.
    fn delimiter(&mut self) -> Result<(), ParseError> {
        match self.peek() {
            None | Some(b' ' | b'\t' | b'\r' | b';') => Ok(()),
            Some(_) => {
                let (tok, at) = self.clone_token();
                Err(self.expected(at, "whitespace", tok))
            }
        }
    }

    fn id(&self, digits: &str, pos: usize, max_id: u32) -> Result<SsaDef, ParseError> {
        if digits.is_empty() || !digits.bytes().all(|c| c.is_ascii_digit()) {
            return Err(self.expected(pos, "an id number", digits));
        }
        let id = digits.parse::<u64>().unwrap_or(u64::MAX);
        u32::try_from(id)
            .ok()
            .filter(|&i| i <= max_id)
            .and_then(SsaDef::new)
            .ok_or_else(|| self.err(pos, ParseErrorKind::IdOutOfRange { id, max: max_id }))
    }

    fn flags(&mut self) -> Result<OpFlags, ParseError> {
        let open = self.pos;
        self.pos += 1;
        let start = self.pos;
        while !matches!(self.peek(), None | Some(b']')) {
            self.pos += 1;
        }
        if self.peek() != Some(b']') {
            return Err(self.expected(open, "`]` closing the flags", ""));
        }
        let inner = self.slice(start, self.pos);
        self.pos += 1;
        let mut flags = OpFlags::empty();
        let mut part_pos = start;
        for part in inner.split('|') {
            let name = part.trim();
            let bits = if name.is_empty() && inner.trim().is_empty() {
                Some(0)
            } else if let Some(hex) = name.strip_prefix("0x") {
                u8::from_str_radix(hex, 16).ok()
            } else {
                OpFlags::from_name(name).map(|f| f.0)
            };
            match bits {
                Some(bits) => flags.0 |= bits,
                None => {
                    return Err(self.err(part_pos, ParseErrorKind::UnknownFlag(name.to_string())))
                }
            }
            part_pos += part.len() + 1;
        }
        Ok(flags)
    }

    /// True if the next word starts a type.
    fn looks_like_type(&self) -> bool {
        let rest = self.text.get(self.pos..).unwrap_or("");
        let end = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        let w = &rest[..end];
        w == "void"
            || w == "struct"
            || matches!(w, "vec2" | "vec3" | "vec4")
            || ScalarType::from_name(w).is_some()
    }

    /// Parses a type written as [`Type`]'s `Display` does.
    fn parse_type(&mut self) -> Result<Type, ParseError> {
        let start = self.pos;
        let w = self.word();
        let mut ty = match w {
            "void" => Type::VOID,
            "struct" => {
                self.expect_byte(b'{', "`{`")?;
                let mut members: smallvec::SmallVec<[BasicType; MAX_STRUCT_MEMBERS]> =
                    smallvec::SmallVec::new();
                loop {
                    self.skip_ws();
                    let at = self.pos;
                    let w = self.word();
                    if members.len() == MAX_STRUCT_MEMBERS {
                        return Err(self.err(
                            at,
                            ParseErrorKind::InvalidType(TypeError::TooManyMembers(
                                MAX_STRUCT_MEMBERS + 1,
                            )),
                        ));
                    }
                    members.push(self.basic_type(w, at)?);
                    self.skip_ws();
                    match self.peek() {
                        Some(b',') => self.pos += 1,
                        Some(b'}') => {
                            self.pos += 1;
                            break;
                        }
                        _ => {
                            let (tok, at) = self.clone_token();
                            return Err(self.expected(at, "`,` or `}`", tok));
                        }
                    }
                }
                Type::structure(&members)
                    .map_err(|e| self.err(start, ParseErrorKind::InvalidType(e)))?
            }
            _ => Type::basic(self.basic_type(w, start)?),
        };
        while self.peek() == Some(b'[') {
            let at = self.pos;
            self.pos += 1;
            let digits_at = self.pos;
            let digits = self.word();
            let size = if digits.is_empty() {
                0
            } else {
                digits
                    .parse::<u32>()
                    .ok()
                    .filter(|_| digits.bytes().all(|c| c.is_ascii_digit()))
                    .ok_or_else(|| self.expected(digits_at, "an array size", digits))?
            };
            self.expect_byte(b']', "`]`")?;
            ty = ty
                .array_of(size)
                .map_err(|e| self.err(at, ParseErrorKind::InvalidType(e)))?;
        }
        Ok(ty)
    }

    /// A scalar or vector type whose first word `w` (at `at`) was already read.
    fn basic_type(&mut self, w: &str, at: usize) -> Result<BasicType, ParseError> {
        let size = match w {
            "vec2" => 2,
            "vec3" => 3,
            "vec4" => 4,
            _ => {
                return match ScalarType::from_name(w) {
                    Some(t) if t != ScalarType::Void => Ok(BasicType::scalar(t)),
                    _ => Err(self.err(
                        at,
                        ParseErrorKind::BadType(format!(
                            "expected a scalar or vector type, found {}",
                            found(w)
                        )),
                    )),
                }
            }
        };
        self.expect_byte(b'<', "`<`")?;
        let sat = self.pos;
        let s = self.word();
        let scalar = ScalarType::from_name(s)
            .filter(|&t| t != ScalarType::Void)
            .ok_or_else(|| {
                self.err(
                    sat,
                    ParseErrorKind::BadType(format!("expected a scalar type, found {}", found(s))),
                )
            })?;
        self.expect_byte(b'>', "`>`")?;
        Ok(BasicType::vector(scalar, size))
    }

    fn reference(
        &mut self,
        def: SsaDef,
        max_id: u32,
        b: &Builder,
        pending: &mut Vec<(u32, usize, usize)>,
        self_ok: bool,
    ) -> Result<Operand, ParseError> {
        let (tok, at) = self.token();
        if tok == "null" {
            return Ok(Operand::NULL);
        }
        let Some(digits) = tok.strip_prefix('%') else {
            return Err(self.expected(at, "a reference (`%N` or `null`)", tok));
        };
        let target = self.id(digits, at + 1, max_id)?;
        if target == def && !self_ok {
            return Err(self.err(at, ParseErrorKind::SelfReference(def.id())));
        }
        if !b.contains(target) && target != def {
            let e = self.err(at, ParseErrorKind::UndefinedRef(target.id()));
            pending.push((target.id(), e.line, e.column));
        }
        Ok(Operand::from_def(target))
    }

    /// Parses literal number `index` (among the op's literals) of kind `kind`.
    fn literal(&mut self, kind: LitKind, ty: &Type, index: usize) -> Result<Operand, ParseError> {
        self.skip_ws();
        if self.peek() == Some(b'"') {
            let at = self.pos;
            return Err(self.expected(at, &format!("a {} literal", kind_name(kind)), "a string"));
        }
        let (tok, at) = self.token();
        if tok.is_empty() {
            return Err(self.expected(at, &format!("a {} literal", kind_name(kind)), tok));
        }
        let value = match kind {
            LitKind::Data => {
                let scalar = ty.flattened_scalar_type(index);
                parse_data(tok, scalar).ok_or_else(|| {
                    self.err(
                        at,
                        ParseErrorKind::BadLiteral {
                            kind: scalar.map_or("integer".to_string(), |s| s.name().to_string()),
                            text: tok.to_string(),
                        },
                    )
                })?
            }
            _ => parse_int(tok)
                .or_else(|| parse_named(kind, tok))
                .ok_or_else(|| {
                    self.err(
                        at,
                        ParseErrorKind::BadLiteral {
                            kind: kind_name(kind).to_string(),
                            text: tok.to_string(),
                        },
                    )
                })?,
        };
        Ok(Operand(value))
    }

    /// Parses a quoted string at the cursor into its bytes.
    fn string(&mut self) -> Result<Vec<u8>, ParseError> {
        let open = self.pos;
        let rest = self.text.get(open + 1..).unwrap_or("");
        let mut bytes = Vec::new();
        let mut chars = rest.char_indices();
        while let Some((i, c)) = chars.next() {
            let at = open + 1 + i;
            match c {
                '"' => {
                    self.pos = at + 1;
                    self.delimiter()?;
                    return Ok(bytes);
                }
                '\\' => {
                    let b = match chars.next() {
                        Some((_, '"')) => b'"',
                        Some((_, '\\')) => b'\\',
                        Some((_, 'n')) => b'\n',
                        Some((_, 't')) => b'\t',
                        Some((_, 'r')) => b'\r',
                        Some((_, 'x')) => {
                            let hex: String = chars.by_ref().take(2).map(|(_, c)| c).collect();
                            match u8::from_str_radix(&hex, 16) {
                                Ok(0) => return Err(self.err(at, ParseErrorKind::NulInString)),
                                Ok(b) if hex.len() == 2 => b,
                                _ => {
                                    return Err(self
                                        .err(at, ParseErrorKind::BadEscape(format!("\\x{hex}"))))
                                }
                            }
                        }
                        Some((_, c)) => {
                            return Err(self.err(at, ParseErrorKind::BadEscape(format!("\\{c}"))))
                        }
                        None => return Err(self.err(open, ParseErrorKind::UnterminatedString)),
                    };
                    bytes.push(b);
                }
                '\0' => return Err(self.err(at, ParseErrorKind::NulInString)),
                c => {
                    let mut buf = [0u8; 4];
                    bytes.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
                }
            }
        }
        Err(self.err(open, ParseErrorKind::UnterminatedString))
    }
}

/// A literal kind in words, for error messages.
fn kind_name(kind: LitKind) -> &'static str {
    match kind {
        LitKind::Int => "integer",
        LitKind::Str => "string",
        LitKind::Data => "constant data",
        LitKind::CaseValue => "case value",
        LitKind::ShaderStage => "ShaderStage",
        LitKind::ShaderStageMask => "ShaderStageMask",
        LitKind::BuiltIn => "BuiltIn",
        LitKind::ResourceKind => "ResourceKind",
        LitKind::PrimitiveType => "PrimitiveType",
        LitKind::InterpolationModes => "InterpolationModes",
        LitKind::AtomicOp => "AtomicOp",
        LitKind::RoundMode => "RoundMode",
        LitKind::DenormMode => "DenormMode",
        LitKind::Scope => "Scope",
        LitKind::MemoryTypeMask => "MemoryTypeMask",
        LitKind::UavFlags => "UavFlags",
        LitKind::Construct => "Construct",
        LitKind::DerivativeMode => "DerivativeMode",
        LitKind::RovScope => "RovScope",
        LitKind::TessWindingOrder => "TessWindingOrder",
        LitKind::TessPartitioning => "TessPartitioning",
        LitKind::WaveOp => "WaveOp",
        LitKind::QuadDirection => "QuadDirection",
    }
}

/// Parses `0x…` (bit pattern), a decimal `u64`, or a negative decimal (two's complement).
fn parse_int(tok: &str) -> Option<u64> {
    if let Some(hex) = tok.strip_prefix("0x") {
        if hex.is_empty() || !hex.bytes().all(|c| c.is_ascii_hexdigit()) {
            return None;
        }
        return u64::from_str_radix(hex, 16).ok();
    }
    if let Some(neg) = tok.strip_prefix('-') {
        if !neg.bytes().all(|c| c.is_ascii_digit()) {
            return None;
        }
        return tok.parse::<i64>().ok().map(|v| v as u64);
    }
    if tok.is_empty() || !tok.bytes().all(|c| c.is_ascii_digit()) {
        return None;
    }
    tok.parse::<u64>().ok()
}

/// True if `tok` looks like a decimal float literal (so `inf` or `NaN` words are not taken).
fn is_decimal_float(tok: &str) -> bool {
    let t = tok.strip_prefix('-').unwrap_or(tok);
    t.bytes().next().is_some_and(|c| c.is_ascii_digit())
        && t.bytes()
            .all(|c| c.is_ascii_digit() || matches!(c, b'.' | b'e' | b'E' | b'-' | b'+'))
}

/// Parses one constant data literal of scalar type `scalar` (see [`write_data`]).
fn parse_data(tok: &str, scalar: Option<ScalarType>) -> Option<u64> {
    use ScalarType as S;
    if tok.starts_with("0x") {
        return parse_int(tok);
    }
    match scalar {
        Some(S::F32 | S::MinF16 | S::MinF10) => {
            let f = tok.parse::<f32>().ok().filter(|_| is_decimal_float(tok))?;
            f.is_finite().then_some(f.to_bits() as u64)
        }
        Some(S::F64) => {
            let f = tok.parse::<f64>().ok().filter(|_| is_decimal_float(tok))?;
            f.is_finite().then_some(f.to_bits())
        }
        Some(S::F16) => {
            let f = tok.parse::<f64>().ok().filter(|_| is_decimal_float(tok))?;
            let h = f64_to_f16(f);
            (h & 0x7c00 != 0x7c00).then_some(h as u64)
        }
        Some(S::Bool) => match tok {
            "false" => Some(0),
            "true" => Some(1),
            _ => None,
        },
        Some(t) if t.is_int() => {
            let width = int_width(t).unwrap_or(64);
            let mask = if width >= 64 {
                u64::MAX
            } else {
                (1u64 << width) - 1
            };
            if tok.starts_with('-') {
                if !t.is_signed_int() {
                    return None;
                }
                let v = parse_int(tok)? as i64;
                let min = if width >= 64 {
                    i64::MIN
                } else {
                    -(1i64 << (width - 1))
                };
                (v >= min).then_some(v as u64 & mask)
            } else {
                let v = parse_int(tok)?;
                fits_width(v, width).then_some(v)
            }
        }
        _ => parse_int(tok),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testgen;

    fn round_trip(text: &str) -> String {
        let b = match parse(text) {
            Ok(b) => b,
            Err(e) => panic!("{e}\n{text}"),
        };
        print(&b)
    }

    #[test]
    fn example_round_trips() {
        let text = "\
%1 = EntryPoint %4 Vertex
%2 = DebugName %1 \"main\"
%3 = Constant vec4<f32> 1.0 0.5 -2.0 0x7fc00000
%4 = Function void
%5 = Label None
%6 = FAdd [precise|nosz] f32 %3 %3   ; sum
%7 = DebugName %6 \"sum\"
%8 = DclSrv u32[4][] %1 0 3 1 BufferStructured
%9 = Branch %10
%10 = Label None
%11 = Return void null
%12 = FunctionEnd
";
        let printed = round_trip(text);
        assert_eq!(
            printed.replace("   ; main", ""),
            text,
            "printed:\n{printed}"
        );
        assert_eq!(round_trip(&printed), printed);
    }

    #[test]
    fn comments_blank_lines_and_explicit_void() {
        let text = "; header\n\n  %1 = Unreachable void ; done\n%2 = Constant struct{u32, vec2<f32>}[2] 1 1.0 2.0 2 3.0 4.0\n";
        let b = parse(text).unwrap();
        assert_eq!(
            print(&b),
            "%1 = Unreachable\n%2 = Constant struct{u32, vec2<f32>}[2] 1 1.0 2.0 2 3.0 4.0\n"
        );
    }

    #[test]
    fn data_literals_by_type() {
        let cases = [
            ("f32", "1.0"),
            ("f32", "-0.0"),
            ("f32", "1e20"),
            ("f32", "0x7f800000"),
            ("f32", "0x1ffffffff"),
            ("f16", "1.0"),
            ("f16", "5.9604645e-5"),
            ("f16", "65504.0"),
            ("f16", "0x7c00"),
            ("f64", "0.1"),
            ("f64", "0xfff8000000000000"),
            ("i32", "-1"),
            ("i32", "2147483647"),
            ("i32", "0xffffffffffffffff"),
            ("i8", "-128"),
            ("u8", "255"),
            ("u8", "0x100"),
            ("u64", "18446744073709551615"),
            ("i64", "-9223372036854775808"),
            ("bool", "true"),
            ("bool", "0x2"),
            ("min16i", "-5"),
            ("unknown", "42"),
        ];
        for (ty, lit) in cases {
            let text = format!("%1 = Constant {ty} {lit}\n");
            assert_eq!(round_trip(&text), text);
        }
        // f16 values: every bit pattern prints to something that reads back.
        for h in 0..=u16::MAX {
            let mut s = String::new();
            write_data(&mut s, Some(ScalarType::F16), h as u64);
            assert_eq!(parse_data(&s, Some(ScalarType::F16)), Some(h as u64), "{s}");
        }
    }

    #[test]
    fn strings_escape_and_fall_back() {
        for s in [
            "",
            "a",
            "exactly8",
            "sixteen chars!!!",
            "q\"b\\n\n\t\r\x01é→;%",
        ] {
            let mut op = Op::new(OpCode::DebugName, Type::VOID).with_ref(SsaDef::new(1).unwrap());
            op = op.with_str(s);
            let mut b = Builder::new();
            b.add(Op::new(OpCode::Unreachable, Type::VOID));
            b.add(op);
            let text = print(&b);
            assert_eq!(round_trip(&text), text);
            let back = parse(&text).unwrap();
            assert_eq!(back.op(SsaDef::new(2).unwrap()).string_from(0), s);
        }
        // Non-canonical tails and invalid UTF-8 still round-trip.
        let text = "%1 = Unreachable\n%2 = DebugName %1 0x0 0x0\n%3 = DebugName %1 \"\\xff\\xfe ok\"\n%4 = Semantic %1 3 0x4141414141414141\n";
        assert_eq!(round_trip(text), text);
    }

    #[test]
    fn undefined_enum_values_print_as_numbers() {
        let text = "%1 = EntryPoint 99\n%2 = DclInput vec4<f32> %1 0 0 4096\n%3 = Unreachable [precise|0x40]\n";
        assert_eq!(round_trip(text), text);
    }

    #[test]
    fn debug_names_become_comments() {
        let text = "%1 = Unreachable\n%2 = DebugName %1 \"x;y\\n\"\n";
        let b = parse(text).unwrap();
        assert_eq!(
            print_op(&b, SsaDef::new(1).unwrap()),
            "%1 = Unreachable   ; x;y\\n"
        );
    }

    #[test]
    fn errors_name_line_column_and_expectation() {
        let cases: &[(&str, &str)] = &[
            ("%1 = FAdd f32 %2", "1:17: expected a reference"),
            ("%1 = Bogus f32", "1:6: unknown opcode `Bogus`"),
            ("%1 = FAdd f33 %1 %1", "1:11: bad type"),
            ("%1 = FNeg f32 %1", "1:15: %1 refers to itself"),
            (
                "\n%1 = FNeg f32 %7",
                "2:15: %7 is referenced but never defined",
            ),
            ("%2 = DebugName %1 \"abc", "1:19: unterminated string"),
            (
                "%1 = Unreachable\n%1 = Unreachable",
                "2:2: %1 is defined twice",
            ),
            ("%1 = Unreachable %2", "1:18: expected end of line"),
            (
                "%1 = EntryPoint Nope",
                "1:17: bad ShaderStage literal `Nope`",
            ),
            ("%1 = Unreachable [fast]", "1:19: unknown flag `fast`"),
            ("%1 = Constant u8 256", "1:18: bad u8 literal `256`"),
            ("%1 = Constant void[2]", "1:19: invalid type: array of void"),
            (
                "%99999999999 = Unreachable",
                "1:2: id 99999999999 is out of range",
            ),
            ("1 = Unreachable", "1:1: expected `%ID = ...`"),
            ("%1 Unreachable", "1:4: expected `=`"),
        ];
        for (text, msg) in cases {
            match parse(text) {
                Ok(_) => panic!("{text:?} parsed"),
                Err(e) => assert!(e.to_string().starts_with(msg), "{text:?}: {e}"),
            }
        }
    }

    #[test]
    fn random_programs_round_trip() {
        for seed in 0..50 {
            let b = testgen::random_program(seed, 120);
            let text = print(&b);
            assert_eq!(round_trip(&text), text, "seed {seed}");
        }
    }
}
