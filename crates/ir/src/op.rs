//! One instruction: [`Op`], its id [`SsaDef`], its operands and [`OpFlags`].

use crate::enums::Construct;
use crate::opcode::OpCode;
use crate::types::Type;
use smallvec::SmallVec;
use std::fmt;
use std::num::NonZeroU32;

/// The id of an op, unique within a [`crate::Builder`]; never zero, so `Option<SsaDef>` is free.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SsaDef(NonZeroU32);

impl SsaDef {
    /// The def with the given id; `None` for 0.
    #[inline]
    pub fn new(id: u32) -> Option<Self> {
        NonZeroU32::new(id).map(Self)
    }

    /// The numeric id.
    #[inline]
    pub fn id(self) -> u32 {
        self.0.get()
    }

    /// The id as an index into per-def tables.
    #[inline]
    pub fn index(self) -> usize {
        self.0.get() as usize
    }
}

impl fmt::Debug for SsaDef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "%{}", self.0)
    }
}

impl fmt::Display for SsaDef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "%{}", self.0)
    }
}

/// One operand slot: either a reference (an [`SsaDef`] id, `0` for null) or a 64-bit literal.
/// Which one it is follows from the opcode's row in the table ([`crate::OpInfo::ref_count`]).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Operand(pub u64);

impl Operand {
    /// A null reference.
    pub const NULL: Operand = Operand(0);

    /// A reference to `def`.
    #[inline]
    pub fn from_def(def: SsaDef) -> Self {
        Operand(def.id() as u64)
    }

    /// A nullable reference.
    #[inline]
    pub fn from_opt_def(def: Option<SsaDef>) -> Self {
        Operand(def.map_or(0, |d| d.id() as u64))
    }

    /// A literal.
    #[inline]
    pub fn lit(v: u64) -> Self {
        Operand(v)
    }

    /// This operand read as a reference (`None` for null or out-of-range values).
    #[inline]
    pub fn def(self) -> Option<SsaDef> {
        u32::try_from(self.0).ok().and_then(SsaDef::new)
    }

    /// This operand read as a literal.
    #[inline]
    pub fn literal(self) -> u64 {
        self.0
    }
}

impl fmt::Debug for Operand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:#x}", self.0)
    }
}

/// Per-op flags, as defined by the spec. Stored as 8 bits in the serialized form.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct OpFlags(pub u8);

impl OpFlags {
    /// Transforms that change the result are invalid (SPIR-V `NoContraction`).
    pub const PRECISE: OpFlags = OpFlags(1 << 0);
    /// A descriptor load whose index may be non-uniform.
    pub const NON_UNIFORM: OpFlags = OpFlags(1 << 1);
    /// The result is a struct with a sparse feedback value first.
    pub const SPARSE_FEEDBACK: OpFlags = OpFlags(1 << 2);
    /// The result is never NaN.
    pub const NO_NAN: OpFlags = OpFlags(1 << 3);
    /// The result is never infinite.
    pub const NO_INF: OpFlags = OpFlags(1 << 4);
    /// Signed zero need not be preserved.
    pub const NO_SZ: OpFlags = OpFlags(1 << 5);

    /// Each flag with its text-form name.
    pub const NAMED: [(&'static str, OpFlags); 6] = [
        ("precise", Self::PRECISE),
        ("nonuniform", Self::NON_UNIFORM),
        ("sparse", Self::SPARSE_FEEDBACK),
        ("nonan", Self::NO_NAN),
        ("noinf", Self::NO_INF),
        ("nosz", Self::NO_SZ),
    ];

    /// All defined bits.
    pub const ALL_BITS: u8 = 0x3f;

    /// No flags.
    #[inline]
    pub const fn empty() -> Self {
        OpFlags(0)
    }

    /// True if no flag is set.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// True if every flag of `other` is set.
    #[inline]
    pub const fn contains(self, other: OpFlags) -> bool {
        self.0 & other.0 == other.0
    }

    /// The flag with the given text-form name.
    pub fn from_name(name: &str) -> Option<Self> {
        Self::NAMED
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, f)| *f)
    }
}

impl std::ops::BitOr for OpFlags {
    type Output = OpFlags;
    #[inline]
    fn bitor(self, rhs: OpFlags) -> OpFlags {
        OpFlags(self.0 | rhs.0)
    }
}

impl std::ops::BitOrAssign for OpFlags {
    #[inline]
    fn bitor_assign(&mut self, rhs: OpFlags) {
        self.0 |= rhs.0;
    }
}

impl fmt::Debug for OpFlags {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = Self::NAMED
            .iter()
            .filter(|(_, fl)| self.contains(*fl))
            .map(|(n, _)| *n)
            .collect();
        write!(f, "[{}]", names.join("|"))
    }
}

/// [`REF_SHAPES`] flag: a variadic literal tail follows the fixed literals.
const SHAPE_VAR_LITS: u32 = 1 << 16;
/// [`REF_SHAPES`] flag: a repeated group of references follows the fixed ones.
const SHAPE_REF_TAIL: u32 = 1 << 17;

/// The operand shape of each opcode (by discriminant) for [`Op::ref_count`], from the opcode
/// table: fixed references in bits 0–7, fixed references plus fixed literals in bits 8–15,
/// then [`SHAPE_VAR_LITS`] and [`SHAPE_REF_TAIL`]. 256 entries (every discriminant is below),
/// so a masked index needs no bounds check.
static REF_SHAPES: [u32; 256] = {
    let mut table = [0u32; 256];
    let mut k = 0;
    while k < OpCode::ALL.len() {
        let op = OpCode::ALL[k];
        let info = op.const_info();
        let refs = info.refs.len() as u32;
        let fixed = refs + info.lits.len() as u32;
        assert!(fixed < 256);
        let mut shape = refs | fixed << 8;
        if info.var_lits.is_some() {
            shape |= SHAPE_VAR_LITS;
        }
        if !info.ref_tail.is_empty() {
            shape |= SHAPE_REF_TAIL;
        }
        table[op as usize] = shape;
        k += 1;
    }
    table
};
const _: () = assert!(OpCode::ALL.len() <= 256);

/// Inline operand storage: most ops have at most four operands.
pub type Operands = SmallVec<[Operand; 4]>;

/// One instruction: opcode, flags, result type and operands (references first, literals last).
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Op {
    /// The opcode.
    pub opcode: OpCode,
    /// Instruction flags.
    pub flags: OpFlags,
    /// The result type (`void` if the op returns nothing).
    pub ty: Type,
    /// Operands: the references the opcode declares, then its literals.
    pub operands: Operands,
}

impl Op {
    /// An op with no operands yet.
    #[inline]
    pub fn new(opcode: OpCode, ty: impl Into<Type>) -> Self {
        Op {
            opcode,
            flags: OpFlags::empty(),
            ty: ty.into(),
            operands: Operands::new(),
        }
    }

    /// An op with the operands `ops`: up to four fill the inline operand buffer in one store
    /// instead of a push each (what a chain of `with_ref`/`with_lit` builds).
    #[inline(always)]
    pub fn with_operands<const N: usize>(
        opcode: OpCode,
        ty: impl Into<Type>,
        ops: [Operand; N],
    ) -> Self {
        let mut op = Op::new(opcode, ty);
        if N <= 4 {
            let mut buf = [Operand(0); 4];
            for (slot, o) in buf.iter_mut().zip(ops) {
                *slot = o;
            }
            op.operands = Operands::from_buf_and_len(buf, N);
        } else {
            op.operands.extend_from_slice(&ops);
        }
        op
    }

    /// Adds a reference operand.
    #[inline]
    pub fn with_ref(mut self, def: SsaDef) -> Self {
        self.operands.push(Operand::from_def(def));
        self
    }

    /// Adds a nullable reference operand.
    #[inline]
    pub fn with_opt_ref(mut self, def: Option<SsaDef>) -> Self {
        self.operands.push(Operand::from_opt_def(def));
        self
    }

    /// Adds a literal operand.
    #[inline]
    pub fn with_lit(mut self, v: u64) -> Self {
        self.operands.push(Operand::lit(v));
        self
    }

    /// Adds a string literal, packed 8 bytes per operand, little-endian, null-terminated.
    pub fn with_str(mut self, s: &str) -> Self {
        push_string(&mut self.operands, s);
        self
    }

    /// Sets flags.
    #[inline]
    pub fn with_flags(mut self, flags: OpFlags) -> Self {
        self.flags |= flags;
        self
    }

    /// Number of leading reference operands, per the opcode table; all operands if the count
    /// does not fit the opcode's shape (the validator reports that case).
    #[inline]
    pub fn ref_count(&self) -> usize {
        // `OpInfo::ref_count` with its `None` read as "all", inlined: every op access asks,
        // so the shape comes from one word of a small table rather than the opcode's row.
        let shape = REF_SHAPES[self.opcode as usize & (REF_SHAPES.len() - 1)];
        let n = self.operands.len();
        let refs = (shape & 0xff) as usize;
        let fixed = (shape >> 8 & 0xff) as usize;
        match n.checked_sub(fixed) {
            Some(_) if shape & SHAPE_VAR_LITS != 0 => refs,
            Some(extra) if shape & SHAPE_REF_TAIL != 0 => refs + extra,
            Some(0) => refs,
            _ => n,
        }
    }

    /// The reference operands (null ones included as `None`).
    #[inline]
    pub fn refs(&self) -> impl Iterator<Item = Option<SsaDef>> + '_ {
        self.all_operands()
            .get(..self.ref_count())
            .unwrap_or(&[])
            .iter()
            .map(|o| o.def())
    }

    /// Every operand as one slice. Accessors index the slice rather than the inline list:
    /// the list's own indexing is an out-of-line call in other crates.
    #[inline(always)]
    fn all_operands(&self) -> &[Operand] {
        &self.operands
    }

    /// The literal operands.
    #[inline]
    pub fn literals(&self) -> &[Operand] {
        self.all_operands().get(self.ref_count()..).unwrap_or(&[])
    }

    /// Reference operand `i`, `None` if null or absent.
    #[inline]
    pub fn arg(&self, i: usize) -> Option<SsaDef> {
        // A fixed reference operand is a reference whatever the op's operand count (every
        // case of `ref_count` counts at least those present), so it is read without working
        // the count out.
        let fixed_refs =
            (REF_SHAPES[self.opcode as usize & (REF_SHAPES.len() - 1)] & 0xff) as usize;
        if i < fixed_refs || i < self.ref_count() {
            self.all_operands().get(i).and_then(|o| o.def())
        } else {
            None
        }
    }

    /// Literal operand `i` (counted among literals only).
    #[inline]
    pub fn lit(&self, i: usize) -> Option<u64> {
        self.literals().get(i).map(|o| o.0)
    }

    /// The construct a `Label` heads (`Construct::None` for a plain block); `None` for other
    /// ops or a bad literal.
    #[inline]
    pub fn construct(&self) -> Option<Construct> {
        if self.opcode != OpCode::Label {
            return None;
        }
        self.lit(0).and_then(Construct::from_literal)
    }

    /// The string packed in the literals from literal index `start` on.
    pub fn string_from(&self, start: usize) -> String {
        decode_string(self.literals().get(start..).unwrap_or(&[]))
    }
}

/// Packs a string into literal operands: 8 bytes each, little-endian, with a terminating zero byte.
pub fn push_string(out: &mut Operands, s: &str) {
    push_bytes(out, s.as_bytes());
}

/// Packs raw bytes (which need not be UTF-8) like [`push_string`].
pub fn push_bytes(out: &mut Operands, bytes: &[u8]) {
    let mut packer = StringPacker::new(out, bytes.len());
    packer.push_bytes(bytes);
    packer.finish();
}

/// Packs a string into literal operands piece by piece, as [`push_string`] packs it whole:
/// for names built from parts (a prefix, a number, a suffix) with no buffer in between.
pub struct StringPacker<'a> {
    out: &'a mut Operands,
    /// The bytes of the word being filled, little-endian.
    word: u64,
    /// Bytes in `word`.
    len: u32,
}

impl<'a> StringPacker<'a> {
    /// A packer appending to `out`, with room reserved for about `bytes` bytes.
    #[inline]
    pub fn new(out: &'a mut Operands, bytes: usize) -> Self {
        out.reserve(bytes / 8 + 1);
        StringPacker {
            out,
            word: 0,
            len: 0,
        }
    }

    /// Appends one byte.
    #[inline]
    pub fn push_byte(&mut self, b: u8) {
        self.word |= u64::from(b) << (8 * self.len);
        self.len += 1;
        if self.len == 8 {
            self.out.push(Operand(self.word));
            self.word = 0;
            self.len = 0;
        }
    }

    /// Appends bytes.
    #[inline]
    pub fn push_bytes(&mut self, bytes: &[u8]) {
        let mut rest = bytes;
        if self.len == 0 {
            let mut words = rest.chunks_exact(8);
            for w in &mut words {
                let mut a = [0u8; 8];
                a.copy_from_slice(w);
                self.out.push(Operand(u64::from_le_bytes(a)));
            }
            rest = words.remainder();
        }
        for &b in rest {
            self.push_byte(b);
        }
    }

    /// Appends `n` in decimal.
    #[inline]
    pub fn push_decimal(&mut self, n: u64) {
        let (digits, start) = decimal_digits(n);
        for &d in digits.get(start..).unwrap_or_default() {
            self.push_byte(d);
        }
    }

    /// Writes the last word with the terminating zero byte.
    #[inline]
    pub fn finish(self) {
        self.out.push(Operand(self.word));
    }
}

/// The decimal digits of `n`, at the end of a buffer: they run from the returned index on.
#[inline]
pub(crate) fn decimal_digits(mut n: u64) -> ([u8; 20], usize) {
    let mut digits = [0u8; 20];
    let mut i = digits.len();
    loop {
        i -= 1;
        if let Some(d) = digits.get_mut(i) {
            *d = b'0' + (n % 10) as u8;
        }
        n /= 10;
        if n == 0 || i == 0 {
            break;
        }
    }
    (digits, i)
}

/// Unpacks a string packed by [`push_string`], stopping at the first zero byte.
pub fn decode_string(ops: &[Operand]) -> String {
    let mut bytes = Vec::with_capacity(ops.len() * 8);
    'outer: for op in ops {
        for b in op.0.to_le_bytes() {
            if b == 0 {
                break 'outer;
            }
            bytes.push(b);
        }
    }
    // Valid UTF-8 (every name a frontend writes) becomes the string without a copy.
    match String::from_utf8(bytes) {
        Ok(s) => s,
        Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::ScalarType;

    #[test]
    fn strings_pack_and_unpack() {
        for s in ["", "a", "main", "exactly8", "a longer name of 25 bytes"] {
            let mut ops = Operands::new();
            push_string(&mut ops, s);
            assert_eq!(ops.len(), s.len() / 8 + 1);
            assert_eq!(decode_string(&ops), s);
            let mut pieces = Operands::new();
            let mut p = StringPacker::new(&mut pieces, 0);
            for (i, b) in s.bytes().enumerate() {
                if i % 3 == 0 {
                    p.push_bytes(&[b]);
                } else {
                    p.push_byte(b);
                }
            }
            p.finish();
            assert_eq!(pieces, ops);
        }
        let mut ops = Operands::new();
        let mut p = StringPacker::new(&mut ops, 0);
        p.push_bytes(b"v");
        p.push_decimal(0);
        p.push_bytes(b"_TEXCOORD");
        p.push_decimal(u64::MAX);
        p.finish();
        assert_eq!(decode_string(&ops), format!("v0_TEXCOORD{}", u64::MAX));
        // Invalid UTF-8 is decoded lossily; a string filling its last operand has no zero.
        let mut ops = Operands::new();
        push_bytes(&mut ops, b"bad \xff utf-8, long enough");
        assert_eq!(decode_string(&ops), "bad \u{fffd} utf-8, long enough");
        let unterminated = [Operand(u64::from_le_bytes(*b"abcdefgh"))];
        assert_eq!(decode_string(&unterminated), "abcdefgh");
    }

    #[test]
    fn reference_counts_follow_the_opcode_table() {
        // `Op::ref_count` reads a packed copy of the table: it must agree with
        // `OpInfo::ref_count` (its `None`, a count that does not fit, read as "all").
        for &code in OpCode::ALL {
            for n in 0..12 {
                let mut op = Op::new(code, ScalarType::Void);
                for _ in 0..n {
                    op.operands.push(Operand(0));
                }
                let want = code.info().ref_count(n).unwrap_or(n);
                assert_eq!(op.ref_count(), want, "{code:?} with {n} operands");
            }
        }
    }

    #[test]
    fn refs_and_literals_split_by_table() {
        let d = SsaDef::new(7).unwrap();
        let op = Op::new(OpCode::DebugName, ScalarType::Void)
            .with_ref(d)
            .with_str("main");
        assert_eq!(op.ref_count(), 1);
        assert_eq!(op.arg(0), Some(d));
        assert_eq!(op.string_from(0), "main");
        let fadd = Op::new(OpCode::FAdd, ScalarType::F32)
            .with_ref(d)
            .with_ref(d);
        assert_eq!(fadd.literals().len(), 0);
        assert_eq!(fadd.refs().count(), 2);
    }
}
