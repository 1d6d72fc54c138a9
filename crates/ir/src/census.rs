//! [`Census`]: how many live ops of a few kinds a [`crate::Builder`] holds.
//!
//! The builder keeps the counts up to date on every add, rewrite, retype and removal (a
//! table lookup and three additions per op), so a pass can see in O(1) that it has nothing to
//! do (no temporaries for SSA construction, no `Unknown` type for type resolution, no legacy
//! op to lower, ...) instead of walking the whole program to find nothing. Most shaders need
//! only a few of the pipeline's lowerings, and such a walk costs as much as a small pass.

use crate::op::Op;
use crate::opcode::{OpCode, Traits};
use crate::types::{ScalarType, Type};

/// A kind of op the builder counts ([`Census::count`]). An op is counted once for its opcode's
/// kind (if any) and once for each type kind its result type has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Counted {
    /// Scoped control flow ([`OpCode::is_scoped`]).
    Scoped = 1,
    /// Temporaries and their accesses: `DclTmp`, `TmpLoad`, `TmpStore`.
    Temporary,
    /// `ConsumeAs`.
    ConsumeAs,
    /// The ops `lower_legacy` lowers: `FDot`, `FDotLegacy`, `FMulLegacy`, `FMadLegacy`,
    /// `FPowLegacy`, `MinValue`, `MaxValue`.
    Legacy,
    /// Conversions ([`OpCode::is_conversion`]).
    Conversion,
    /// `SetFpMode`.
    SetFpMode,
    /// `Undef`.
    Undef,
    /// Ops whose result type has an `Unknown` scalar ([`Type::has_unknown`]).
    UnknownType,
    /// Ops whose result type has a min-precision scalar ([`Type::has_min_precision`]).
    MinPrecisionType,
    /// `Label`: blocks. As many as `Function`s means every function is one block, with no
    /// branch, phi or construct (what CSE and `cfg_cleanup` need no CFG for).
    Label,
    /// `Function`.
    Function,
    /// `FunctionCall` (none: no function can recurse).
    FunctionCall,
}

/// Slots of [`Census::counts`]: slot 0 takes the opcodes of no kind. A power of two above the
/// last kind, so that a kind masked to it needs no bounds check.
const SLOTS: usize = 16;
const _: () = assert!((Counted::FunctionCall as usize) < SLOTS);

/// Entries of [`OPCODE_KIND`]: every 10-bit opcode code, so that a masked discriminant needs
/// no bounds check.
const CODES: usize = 1024;
const _: () = assert!(OpCode::ALL.len() <= CODES);

/// The kind of each opcode (by discriminant), 0 for none.
static OPCODE_KIND: [u8; CODES] = crate::opcode::opcode_table!(CODES, 0u8, opcode_kind);

const fn opcode_kind(op: OpCode) -> u8 {
    use OpCode as O;
    let kind = match op {
        O::DclTmp | O::TmpLoad | O::TmpStore => Counted::Temporary,
        O::ConsumeAs => Counted::ConsumeAs,
        O::FDot
        | O::FDotLegacy
        | O::FMulLegacy
        | O::FMadLegacy
        | O::FPowLegacy
        | O::MinValue
        | O::MaxValue => Counted::Legacy,
        O::SetFpMode => Counted::SetFpMode,
        O::Undef => Counted::Undef,
        O::Label => Counted::Label,
        O::Function => Counted::Function,
        O::FunctionCall => Counted::FunctionCall,
        _ if op.const_info().traits.contains(Traits::SCOPED) => Counted::Scoped,
        _ if op.const_info().traits.contains(Traits::CONVERSION) => Counted::Conversion,
        _ => return 0,
    };
    kind as u8
}

/// Bit `s` set for each scalar type `s` that makes a type count as [`Counted::MinPrecisionType`]
/// (the unit test checks it against [`ScalarType::is_min_precision`]).
const MIN_PRECISION_BASES: u32 = 1 << ScalarType::MinF16 as u32
    | 1 << ScalarType::MinF10 as u32
    | 1 << ScalarType::MinI16 as u32
    | 1 << ScalarType::MinU16 as u32;

/// Counts of live ops per [`Counted`] kind; kept by [`crate::Builder`], read through
/// [`crate::Builder::census`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Census {
    counts: [u32; SLOTS],
}

impl Census {
    /// The counts of the live ops of `ops`, counted afresh (tests compare it with the kept one).
    pub fn of<'a>(ops: impl IntoIterator<Item = &'a Op>) -> Self {
        let mut c = Census::default();
        for op in ops {
            c.add(op.opcode, &op.ty);
        }
        c
    }

    /// Live ops of kind `kind`.
    #[inline]
    pub fn count(&self, kind: Counted) -> u32 {
        self.counts[kind as usize]
    }

    /// True if the program has any op of kind `kind`.
    #[inline]
    pub fn has(&self, kind: Counted) -> bool {
        self.count(kind) != 0
    }

    /// Counts an op of `opcode` and type `ty` in.
    #[inline(always)]
    pub(crate) fn add(&mut self, opcode: OpCode, ty: &Type) {
        self.counts[slot(opcode)] += 1;
        self.add_type(ty);
    }

    /// Counts an op of `opcode` and type `ty` out.
    #[inline]
    pub(crate) fn remove(&mut self, opcode: OpCode, ty: &Type) {
        self.counts[slot(opcode)] -= 1;
        self.remove_type(ty);
    }

    #[inline(always)]
    pub(crate) fn add_type(&mut self, ty: &Type) {
        let (unknown, min) = type_kinds(ty);
        self.counts[Counted::UnknownType as usize] += unknown;
        self.counts[Counted::MinPrecisionType as usize] += min;
    }

    #[inline]
    pub(crate) fn remove_type(&mut self, ty: &Type) {
        let (unknown, min) = type_kinds(ty);
        self.counts[Counted::UnknownType as usize] -= unknown;
        self.counts[Counted::MinPrecisionType as usize] -= min;
    }
}

/// The slot of [`Census::counts`] that counts `opcode`.
#[inline(always)]
fn slot(opcode: OpCode) -> usize {
    OPCODE_KIND[opcode as usize & (CODES - 1)] as usize & (SLOTS - 1)
}

/// (1 if `ty` has an `Unknown` scalar, 1 if it has a min-precision one).
#[inline(always)]
fn type_kinds(ty: &Type) -> (u32, u32) {
    // The scalar's code is the low five bits of `BasicType::bits` (see `BasicType::base`).
    let bases = match ty.members() {
        [] => 0u32,
        [m] => 1 << (m.bits() & 0x1f),
        members => members.iter().fold(0, |b, m| b | 1 << (m.bits() & 0x1f)),
    };
    (
        (bases >> ScalarType::Unknown as u32) & 1,
        u32::from(bases & MIN_PRECISION_BASES != 0),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::op::Operand;
    use crate::Builder;

    fn recount(b: &Builder) -> Census {
        Census::of(b.iter().map(|(_, op)| op))
    }

    #[test]
    fn kinds_follow_the_opcode_table() {
        for &op in OpCode::ALL {
            let kind = opcode_kind(op);
            assert_eq!(kind == Counted::Scoped as u8, op.is_scoped(), "{op:?}");
            if op.is_conversion() {
                assert_eq!(kind, Counted::Conversion as u8, "{op:?}");
            }
        }
        assert_eq!(
            opcode_kind(OpCode::FunctionCall),
            Counted::FunctionCall as u8
        );
        assert_eq!(opcode_kind(OpCode::Function), Counted::Function as u8);
        assert_eq!(type_kinds(&Type::scalar(ScalarType::Unknown)), (1, 0));
        assert_eq!(type_kinds(&Type::scalar(ScalarType::MinF16)), (0, 1));
        assert_eq!(type_kinds(&Type::vector(ScalarType::MinU16, 3)), (0, 1));
        assert_eq!(type_kinds(&Type::scalar(ScalarType::F32)), (0, 0));
        assert_eq!(type_kinds(&Type::VOID), (0, 0));
        for t in ScalarType::ALL {
            let bit = MIN_PRECISION_BASES >> (t as u32) & 1;
            assert_eq!(bit == 1, t.is_min_precision(), "{t:?}");
            let kinds = type_kinds(&Type::scalar(t));
            assert_eq!(kinds, (u32::from(t == ScalarType::Unknown), bit), "{t:?}");
        }
    }

    #[test]
    fn counts_follow_every_edit() {
        let mut b = Builder::new();
        let unknown = Type::scalar(ScalarType::Unknown);
        let tmp = b.add_decl(Op::new(OpCode::DclTmp, unknown));
        let c = b.add_scalar_constant(ScalarType::F32, 0);
        let load = b.add(Op::new(OpCode::TmpLoad, unknown).with_ref(tmp));
        let consume = b.add(Op::new(OpCode::ConsumeAs, ScalarType::F32).with_ref(load));
        let dot = b.add(
            Op::new(OpCode::FDotLegacy, ScalarType::MinF16)
                .with_ref(consume)
                .with_ref(c),
        );
        let census = b.census().clone();
        assert_eq!(census, recount(&b));
        assert_eq!(census.count(Counted::Temporary), 2);
        assert_eq!(census.count(Counted::UnknownType), 2);
        assert_eq!(census.count(Counted::ConsumeAs), 1);
        assert_eq!(census.count(Counted::Legacy), 1);
        assert_eq!(census.count(Counted::MinPrecisionType), 1);
        assert!(!census.has(Counted::Scoped));

        b.set_type(load, Type::scalar(ScalarType::F32));
        assert_eq!(b.census().count(Counted::UnknownType), 1);
        b.rewrite(
            dot,
            Op::new(OpCode::FMul, ScalarType::F32)
                .with_ref(c)
                .with_ref(c),
        );
        assert_eq!(b.census().count(Counted::Legacy), 0);
        assert_eq!(b.census().count(Counted::MinPrecisionType), 0);
        b.set_operand(dot, 0, Operand::from_def(consume));
        b.push_operand(dot, Operand::from_def(c));
        b.replace_uses(consume, c);
        b.remove(consume);
        assert_eq!(b.census().count(Counted::ConsumeAs), 0);
        b.remove(consume);
        assert_eq!(b.census(), &recount(&b));

        let mut copy = b.clone();
        copy.add_with_id(
            crate::op::SsaDef::new(40).unwrap_or(tmp),
            Op::new(OpCode::ConvertFtoI, ScalarType::I32).with_ref(c),
        )
        .unwrap();
        assert_eq!(copy.census().count(Counted::Conversion), 1);
        assert_eq!(copy.census(), &recount(&copy));
        assert_eq!(b.census().count(Counted::Conversion), 0);
    }
}
