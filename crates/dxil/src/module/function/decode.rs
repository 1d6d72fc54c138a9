//! Decoding instruction records: one `match` over the record codes of LLVM 3.7's function
//! block, plus the helpers for `getelementptr`, calls and casts.

use super::Builder;
use crate::bitstream::names::function as code;
use crate::bitstream::{Cursor, Record};
use crate::error::Error;
use crate::module::constants;
use crate::module::instructions::{
    Atomic, AtomicOrdering, BinaryOp, CastOp, Op, Operands, Predicate, RmwOp, SyncScope, TailKind,
    METADATA_OPERAND,
};
use crate::module::types::{Type, TypeId, TypeTable};
use crate::module::{record_error, ValueId};

impl Builder<'_, '_> {
    /// Decodes one instruction record into its operation and result type.
    pub(super) fn instruction(
        &mut self,
        cursor: &Cursor<'_>,
        rec: &Record<'_>,
    ) -> Result<(Op, TypeId), Error> {
        let void = self.void;
        let err = |m: &str| record_error(cursor, rec, m.to_string());
        let mut i = 0usize;
        let op = |i: usize| {
            rec.op(i)
                .ok_or_else(|| record_error(cursor, rec, "missing operand"))
        };
        Ok(match rec.code {
            code::INST_BINOP => {
                let (lhs, ty) = self.value_and_type(cursor, rec, &mut i)?;
                let rhs = self.value_of(cursor, rec, &mut i, ty)?;
                let opcode = op(i)?;
                let scalar = self.types().scalar(ty);
                let float = self.types().is_float(scalar);
                if !float && self.types().int_width(scalar).is_none() {
                    return Err(err("binary operation on a non-numeric type"));
                }
                let bop = BinaryOp::from_code(opcode, float).ok_or_else(|| {
                    record_error(cursor, rec, format!("binary opcode {opcode} for this type"))
                })?;
                let flags = rec.op(i + 1).unwrap_or(0) as u8;
                (
                    Op::Binary {
                        op: bop,
                        flags,
                        lhs,
                        rhs,
                    },
                    ty,
                )
            }
            code::INST_CAST => {
                let (value, from) = self.value_and_type(cursor, rec, &mut i)?;
                let to = self.type_operand(cursor, rec, op(i)?)?;
                let opcode = op(i + 1)?;
                let cop = CastOp::from_code(opcode)
                    .ok_or_else(|| record_error(cursor, rec, format!("cast opcode {opcode}")))?;
                if !cast_is_valid(self.types(), cop, from, to) {
                    return Err(record_error(cursor, rec, format!("invalid {}", cop.name())));
                }
                (Op::Cast { op: cop, value }, to)
            }
            code::INST_GEP | code::INST_GEP_OLD | code::INST_INBOUNDS_GEP_OLD => {
                let (inbounds, explicit) = if rec.code == code::INST_GEP {
                    i = 2;
                    (op(0)? != 0, Some(self.type_operand(cursor, rec, op(1)?)?))
                } else {
                    (rec.code == code::INST_INBOUNDS_GEP_OLD, None)
                };
                self.gep(cursor, rec, i, inbounds, explicit)?
            }
            code::INST_SELECT | code::INST_VSELECT => {
                let (if_true, ty) = self.value_and_type(cursor, rec, &mut i)?;
                let if_false = self.value_of(cursor, rec, &mut i, ty)?;
                let condition = if rec.code == code::INST_SELECT {
                    let i1 = self.int1();
                    self.value_of(cursor, rec, &mut i, i1)?
                } else {
                    let (c, cty) = self.value_and_type(cursor, rec, &mut i)?;
                    let ok = match (self.types().ty(cty), self.types().ty(ty)) {
                        (Type::Integer { width: 1 }, _) => true,
                        (Type::Vector { len, element }, Type::Vector { len: n, .. }) => {
                            len == n && self.types().int_width(element) == Some(1)
                        }
                        _ => false,
                    };
                    if !ok {
                        return Err(err("select condition is not i1 or a matching vector of i1"));
                    }
                    c
                };
                (
                    Op::Select {
                        condition,
                        if_true,
                        if_false,
                    },
                    ty,
                )
            }
            code::INST_EXTRACTELT => {
                let (vector, vty) = self.value_and_type(cursor, rec, &mut i)?;
                let (index, ity) = self.value_and_type(cursor, rec, &mut i)?;
                let Type::Vector { element, .. } = self.types().ty(vty) else {
                    return Err(err("extractelement of a non-vector"));
                };
                if self.types().int_width(ity).is_none() {
                    return Err(err("extractelement index is not an integer"));
                }
                (Op::ExtractElement { vector, index }, element)
            }
            code::INST_INSERTELT => {
                let (vector, vty) = self.value_and_type(cursor, rec, &mut i)?;
                let Type::Vector { element, .. } = self.types().ty(vty) else {
                    return Err(err("insertelement into a non-vector"));
                };
                let elt = self.value_of(cursor, rec, &mut i, element)?;
                let (index, ity) = self.value_and_type(cursor, rec, &mut i)?;
                if self.types().int_width(ity).is_none() {
                    return Err(err("insertelement index is not an integer"));
                }
                (
                    Op::InsertElement {
                        vector,
                        element: elt,
                        index,
                    },
                    vty,
                )
            }
            code::INST_SHUFFLEVEC => {
                let (first, vty) = self.value_and_type(cursor, rec, &mut i)?;
                let second = self.value_of(cursor, rec, &mut i, vty)?;
                let (mask, mty) = self.value_and_type(cursor, rec, &mut i)?;
                let (Type::Vector { element, .. }, Type::Vector { len, element: me }) =
                    (self.types().ty(vty), self.types().ty(mty))
                else {
                    return Err(err("shufflevector of non-vectors"));
                };
                if self.types().int_width(me) != Some(32) {
                    return Err(err("shufflevector mask is not a vector of i32"));
                }
                let ty = self.ctx.types.vector_of(element, len);
                (
                    Op::ShuffleVector {
                        first,
                        second,
                        mask,
                    },
                    ty,
                )
            }
            code::INST_CMP | code::INST_CMP2 => {
                let (lhs, ty) = self.value_and_type(cursor, rec, &mut i)?;
                let rhs = self.value_of(cursor, rec, &mut i, ty)?;
                let p = op(i)?;
                let predicate = Predicate::from_code(p)
                    .ok_or_else(|| record_error(cursor, rec, format!("predicate {p}")))?;
                let scalar = self.types().scalar(ty);
                let float = self.types().is_float(scalar);
                let int_like = self.types().int_width(scalar).is_some()
                    || self.types().pointer(scalar).is_some();
                if predicate.is_float() != float || (!float && !int_like) {
                    return Err(err("comparison predicate does not fit the operand type"));
                }
                let flags = rec.op(i + 1).unwrap_or(0) as u8;
                let i1 = self.int1();
                let result = match self.types().ty(ty) {
                    Type::Vector { len, .. } => self.ctx.types.vector_of(i1, len),
                    _ => i1,
                };
                (
                    Op::Compare {
                        predicate,
                        flags,
                        lhs,
                        rhs,
                    },
                    result,
                )
            }
            code::INST_RET => {
                if rec.ops.is_empty() {
                    if !matches!(self.types().ty(self.ret), Type::Void) {
                        return Err(err("ret void in a function that returns a value"));
                    }
                    (Op::Ret { value: None }, void)
                } else {
                    let (value, ty) = self.value_and_type(cursor, rec, &mut i)?;
                    if i != rec.ops.len() {
                        return Err(err("ret with more than one value"));
                    }
                    if ty != self.ret {
                        return Err(err(
                            "returned value does not have the function's return type",
                        ));
                    }
                    (Op::Ret { value: Some(value) }, void)
                }
            }
            code::INST_BR => match rec.ops.len() {
                1 => (
                    Op::Br {
                        target: self.block_of(cursor, rec, rec.op(0))?,
                    },
                    void,
                ),
                3 => {
                    let if_true = self.block_of(cursor, rec, rec.op(0))?;
                    let if_false = self.block_of(cursor, rec, rec.op(1))?;
                    let i1 = self.int1();
                    let mut at = 2;
                    let condition = self.value_of(cursor, rec, &mut at, i1)?;
                    (
                        Op::CondBr {
                            condition,
                            if_true,
                            if_false,
                        },
                        void,
                    )
                }
                _ => return Err(err("br needs 1 or 3 operands")),
            },
            code::INST_SWITCH => {
                if op(0)? >> 16 == 0x4B5 {
                    return Err(Self::unsupported(
                        cursor,
                        rec,
                        "the case-range switch encoding (LLVM 3.3)",
                    ));
                }
                let ty = self.type_operand(cursor, rec, op(0)?)?;
                if self.types().int_width(ty).is_none() {
                    return Err(err("switch on a non-integer"));
                }
                let mut at = 1;
                let value = self.value_of(cursor, rec, &mut at, ty)?;
                let default = self.block_of(cursor, rec, rec.op(2))?;
                let cases = rec.ops.get(3..).unwrap_or_default();
                if cases.len() % 2 != 0 {
                    return Err(err("switch case without a block"));
                }
                self.scratch.clear();
                for pair in cases.chunks_exact(2) {
                    let case = u32::try_from(pair[0]).ok().map(ValueId).filter(|&c| {
                        self.constant_int(c).is_some() && self.type_of(c.0) == Some(ty)
                    });
                    let Some(case) = case else {
                        return Err(record_error(cursor, rec, format!("switch case value {} is not an integer constant of the switched type", pair[0])));
                    };
                    let target = self.block_of(cursor, rec, Some(pair[1]))?;
                    self.scratch.extend([case.0, target.0]);
                }
                let scratch = std::mem::take(&mut self.scratch);
                let cases = self.push_operands(&scratch);
                self.scratch = scratch;
                (
                    Op::Switch {
                        value,
                        default,
                        cases,
                    },
                    void,
                )
            }
            code::INST_INDIRECTBR => {
                let ty = self.type_operand(cursor, rec, op(0)?)?;
                let mut at = 1;
                let address = self.value_of(cursor, rec, &mut at, ty)?;
                self.scratch.clear();
                for &raw in rec.ops.get(2..).unwrap_or_default() {
                    let b = self.block_of(cursor, rec, Some(raw))?;
                    self.scratch.push(b.0);
                }
                let scratch = std::mem::take(&mut self.scratch);
                let targets = self.push_operands(&scratch);
                self.scratch = scratch;
                (Op::IndirectBr { address, targets }, void)
            }
            code::INST_INVOKE => self.invoke(cursor, rec)?,
            code::INST_CALL => self.call(cursor, rec)?,
            code::INST_RESUME => {
                let (value, _) = self.value_and_type(cursor, rec, &mut i)?;
                (Op::Resume { value }, void)
            }
            code::INST_UNREACHABLE => (Op::Unreachable, void),
            code::INST_PHI => {
                let ty = self.type_operand(cursor, rec, op(0)?)?;
                let pairs = rec.ops.get(1..).unwrap_or_default();
                if pairs.len() % 2 != 0 {
                    return Err(err("phi value without a block"));
                }
                self.scratch.clear();
                for pair in pairs.chunks_exact(2) {
                    let id = if self.ctx.relative {
                        let delta = constants::decode_signed(pair[0]);
                        i64::from(self.next)
                            .checked_sub(delta)
                            .and_then(|v| u32::try_from(v).ok())
                            .filter(|&v| v < METADATA_OPERAND)
                            .ok_or_else(|| {
                                record_error(
                                    cursor,
                                    rec,
                                    format!("phi operand {delta} names no value"),
                                )
                            })?
                    } else {
                        self.absolute(cursor, rec, pair[0])?
                    };
                    let value = self.typed(cursor, rec, id, ty)?;
                    let block = self.block_of(cursor, rec, Some(pair[1]))?;
                    self.scratch.extend([value.0, block.0]);
                }
                let scratch = std::mem::take(&mut self.scratch);
                let incoming = self.push_operands(&scratch);
                self.scratch = scratch;
                (Op::Phi { incoming }, ty)
            }
            code::INST_LANDINGPAD | code::INST_LANDINGPAD_OLD => {
                let ty = self.type_operand(cursor, rec, op(0)?)?;
                i = 1;
                let personality = if rec.code == code::INST_LANDINGPAD_OLD {
                    Some(self.value_and_type(cursor, rec, &mut i)?.0)
                } else {
                    None
                };
                let cleanup = op(i)? != 0;
                let count = op(i + 1)?;
                i += 2;
                self.scratch.clear();
                for _ in 0..count {
                    let kind = op(i)?;
                    if kind > 1 {
                        return Err(err("landingpad clause is neither catch nor filter"));
                    }
                    i += 1;
                    let (v, _) = self.value_and_type(cursor, rec, &mut i)?;
                    self.scratch.extend([kind as u32, v.0]);
                }
                let scratch = std::mem::take(&mut self.scratch);
                let clauses = self.push_operands(&scratch);
                self.scratch = scratch;
                (
                    Op::LandingPad {
                        cleanup,
                        personality,
                        clauses,
                    },
                    ty,
                )
            }
            code::INST_ALLOCA => {
                if rec.ops.len() != 4 {
                    return Err(err("alloca needs 4 operands"));
                }
                let flags = rec.ops[3];
                let mut allocated = self.type_operand(cursor, rec, rec.ops[0])?;
                if flags & (1 << 6) == 0 {
                    allocated = self
                        .types()
                        .pointer(allocated)
                        .map(|(p, _)| p)
                        .ok_or_else(|| err("alloca type is not a pointer"))?;
                }
                let size_ty = self.type_operand(cursor, rec, rec.ops[1])?;
                let size =
                    u32::try_from(rec.ops[2]).map_err(|_| err("alloca size out of range"))?;
                if self.type_of(size) != Some(size_ty) || self.types().int_width(size_ty).is_none()
                {
                    return Err(err(
                        "alloca size is not an integer value of the stated type",
                    ));
                }
                let align = align_from(flags & !((1 << 5) | (1 << 6)), cursor, rec)?;
                let ty = self.ctx.types.pointer_to(allocated, 0);
                (
                    Op::Alloca {
                        allocated_type: allocated,
                        size: ValueId(size),
                        align,
                        inalloca: flags & (1 << 5) != 0,
                    },
                    ty,
                )
            }
            code::INST_LOAD | code::INST_LOADATOMIC => {
                let (pointer, pty) = self.value_and_type(cursor, rec, &mut i)?;
                let extra = if rec.code == code::INST_LOAD { 2 } else { 4 };
                let pointee = self
                    .types()
                    .pointer(pty)
                    .map(|(p, _)| p)
                    .ok_or_else(|| err("load from a non-pointer"))?;
                let ty = if i + extra + 1 == rec.ops.len() {
                    let t = self.type_operand(cursor, rec, op(i)?)?;
                    i += 1;
                    if t != pointee {
                        return Err(err("explicit load type is not the pointee type"));
                    }
                    t
                } else {
                    pointee
                };
                if i + extra != rec.ops.len() {
                    return Err(err("load has the wrong number of operands"));
                }
                let align = align_from(op(i)?, cursor, rec)?;
                let volatile = op(i + 1)? != 0;
                let atomic = if rec.code == code::INST_LOADATOMIC {
                    let a = self.atomic(cursor, rec, op(i + 2)?, op(i + 3)?)?;
                    if matches!(
                        a.ordering,
                        AtomicOrdering::NotAtomic
                            | AtomicOrdering::Release
                            | AtomicOrdering::AcquireRelease
                    ) {
                        return Err(err("invalid ordering for an atomic load"));
                    }
                    Some(a)
                } else {
                    None
                };
                (
                    Op::Load {
                        pointer,
                        align,
                        volatile,
                        atomic,
                    },
                    ty,
                )
            }
            code::INST_STORE
            | code::INST_STORE_OLD
            | code::INST_STOREATOMIC
            | code::INST_STOREATOMIC_OLD => {
                let (pointer, pty) = self.value_and_type(cursor, rec, &mut i)?;
                let pointee = self
                    .types()
                    .pointer(pty)
                    .map(|(p, _)| p)
                    .ok_or_else(|| err("store to a non-pointer"))?;
                let value = if matches!(rec.code, code::INST_STORE | code::INST_STOREATOMIC) {
                    let (v, vty) = self.value_and_type(cursor, rec, &mut i)?;
                    if vty != pointee {
                        return Err(err("stored value is not of the pointee type"));
                    }
                    v
                } else {
                    self.value_of(cursor, rec, &mut i, pointee)?
                };
                let atomic = matches!(
                    rec.code,
                    code::INST_STOREATOMIC | code::INST_STOREATOMIC_OLD
                );
                if i + if atomic { 4 } else { 2 } != rec.ops.len() {
                    return Err(err("store has the wrong number of operands"));
                }
                let align = align_from(op(i)?, cursor, rec)?;
                let volatile = op(i + 1)? != 0;
                let atomic = if atomic {
                    let a = self.atomic(cursor, rec, op(i + 2)?, op(i + 3)?)?;
                    if matches!(
                        a.ordering,
                        AtomicOrdering::NotAtomic
                            | AtomicOrdering::Acquire
                            | AtomicOrdering::AcquireRelease
                    ) {
                        return Err(err("invalid ordering for an atomic store"));
                    }
                    Some(a)
                } else {
                    None
                };
                (
                    Op::Store {
                        pointer,
                        value,
                        align,
                        volatile,
                        atomic,
                    },
                    void,
                )
            }
            code::INST_CMPXCHG_OLD | code::INST_CMPXCHG => {
                let (pointer, pty) = self.value_and_type(cursor, rec, &mut i)?;
                let pointee = self
                    .types()
                    .pointer(pty)
                    .map(|(p, _)| p)
                    .ok_or_else(|| err("cmpxchg on a non-pointer"))?;
                let (compare, cty) = if rec.code == code::INST_CMPXCHG {
                    self.value_and_type(cursor, rec, &mut i)?
                } else {
                    if rec.ops.len() < 8 {
                        return Err(Self::unsupported(
                            cursor,
                            rec,
                            "the pre-LLVM 3.5 cmpxchg that returns one value",
                        ));
                    }
                    (self.value_of(cursor, rec, &mut i, pointee)?, pointee)
                };
                if cty != pointee {
                    return Err(err("cmpxchg operand is not of the pointee type"));
                }
                let new = self.value_of(cursor, rec, &mut i, cty)?;
                let rest = rec.ops.get(i..).unwrap_or_default();
                if rest.len() < 3 || rest.len() > 5 {
                    return Err(err("cmpxchg has the wrong number of operands"));
                }
                let success = self.ordering(cursor, rec, rest[1])?;
                let scope = SyncScope::from_code(rest[2])
                    .ok_or_else(|| err("bad synchronization scope"))?;
                let failure = match rest.get(3) {
                    Some(&f) => self.ordering(cursor, rec, f)?,
                    None => match success {
                        AtomicOrdering::AcquireRelease => AtomicOrdering::Acquire,
                        AtomicOrdering::Release => AtomicOrdering::Monotonic,
                        o => o,
                    },
                };
                if matches!(
                    success,
                    AtomicOrdering::NotAtomic | AtomicOrdering::Unordered
                ) || matches!(
                    failure,
                    AtomicOrdering::NotAtomic
                        | AtomicOrdering::Unordered
                        | AtomicOrdering::Release
                        | AtomicOrdering::AcquireRelease
                ) {
                    return Err(err("invalid cmpxchg ordering"));
                }
                let i1 = self.int1();
                let ty = self.ctx.types.literal_struct(&[cty, i1]);
                (
                    Op::CmpXchg {
                        pointer,
                        compare,
                        new,
                        volatile: rest[0] != 0,
                        weak: rest.get(4).is_some_and(|&w| w != 0),
                        success,
                        failure,
                        scope,
                    },
                    ty,
                )
            }
            code::INST_ATOMICRMW => {
                let (pointer, pty) = self.value_and_type(cursor, rec, &mut i)?;
                let pointee = self
                    .types()
                    .pointer(pty)
                    .map(|(p, _)| p)
                    .ok_or_else(|| err("atomicrmw on a non-pointer"))?;
                let value = self.value_of(cursor, rec, &mut i, pointee)?;
                if i + 4 != rec.ops.len() {
                    return Err(err("atomicrmw has the wrong number of operands"));
                }
                let r = op(i)?;
                let rop = RmwOp::from_code(r)
                    .ok_or_else(|| record_error(cursor, rec, format!("atomicrmw operation {r}")))?;
                let a = self.atomic(cursor, rec, op(i + 2)?, op(i + 3)?)?;
                if matches!(
                    a.ordering,
                    AtomicOrdering::NotAtomic | AtomicOrdering::Unordered
                ) {
                    return Err(err("invalid atomicrmw ordering"));
                }
                (
                    Op::AtomicRmw {
                        op: rop,
                        pointer,
                        value,
                        volatile: op(i + 1)? != 0,
                        ordering: a.ordering,
                        scope: a.scope,
                    },
                    pointee,
                )
            }
            code::INST_FENCE => {
                if rec.ops.len() != 2 {
                    return Err(err("fence needs 2 operands"));
                }
                let a = self.atomic(cursor, rec, rec.ops[0], rec.ops[1])?;
                if matches!(
                    a.ordering,
                    AtomicOrdering::NotAtomic
                        | AtomicOrdering::Unordered
                        | AtomicOrdering::Monotonic
                ) {
                    return Err(err("invalid fence ordering"));
                }
                (
                    Op::Fence {
                        ordering: a.ordering,
                        scope: a.scope,
                    },
                    void,
                )
            }
            code::INST_VAARG => {
                let lty = self.type_operand(cursor, rec, op(0)?)?;
                let mut at = 1;
                let list = self.value_of(cursor, rec, &mut at, lty)?;
                let ty = self.type_operand(cursor, rec, op(2)?)?;
                (Op::VaArg { list }, ty)
            }
            code::INST_EXTRACTVAL | code::INST_INSERTVAL => {
                let (aggregate, aty) = self.value_and_type(cursor, rec, &mut i)?;
                let inserted = if rec.code == code::INST_INSERTVAL {
                    Some(self.value_and_type(cursor, rec, &mut i)?)
                } else {
                    None
                };
                let indices = rec.ops.get(i..).unwrap_or_default();
                if indices.is_empty() {
                    return Err(err("extractvalue or insertvalue without indices"));
                }
                let mut cur = aty;
                self.scratch.clear();
                for &idx in indices {
                    if !self.types().is_aggregate(cur) {
                        return Err(err(
                            "extractvalue or insertvalue index into a non-aggregate",
                        ));
                    }
                    let idx32 = u32::try_from(idx).map_err(|_| err("index out of range"))?;
                    cur = self
                        .types()
                        .element_at(cur, idx)
                        .ok_or_else(|| err("index out of range"))?;
                    self.scratch.push(idx32);
                }
                let scratch = std::mem::take(&mut self.scratch);
                let indices = self.push_operands(&scratch);
                self.scratch = scratch;
                match inserted {
                    None => (Op::ExtractValue { aggregate, indices }, cur),
                    Some((value, vty)) => {
                        if vty != cur {
                            return Err(err("inserted value does not have the indexed type"));
                        }
                        (
                            Op::InsertValue {
                                aggregate,
                                value,
                                indices,
                            },
                            aty,
                        )
                    }
                }
            }
            code::INST_CLEANUPRET
            | code::INST_CATCHRET
            | code::INST_CATCHPAD
            | code::INST_CLEANUPPAD
            | code::INST_CATCHSWITCH => {
                return Err(Self::unsupported(
                    cursor,
                    rec,
                    "funclet exception handling (LLVM 3.8+)",
                ))
            }
            code::OPERAND_BUNDLE => {
                return Err(Self::unsupported(
                    cursor,
                    rec,
                    "an operand bundle (LLVM 3.8+)",
                ))
            }
            code::INST_UNOP => {
                return Err(Self::unsupported(
                    cursor,
                    rec,
                    "the fneg instruction (LLVM 8+)",
                ))
            }
            code::INST_CALLBR => {
                return Err(Self::unsupported(
                    cursor,
                    rec,
                    "the callbr instruction (LLVM 9+)",
                ))
            }
            code::INST_FREEZE => {
                return Err(Self::unsupported(
                    cursor,
                    rec,
                    "the freeze instruction (LLVM 10+)",
                ))
            }
            code::INST_ATOMICRMW_NEW => {
                return Err(Self::unsupported(
                    cursor,
                    rec,
                    "atomicrmw with an explicit type (LLVM 13+)",
                ))
            }
            code::BLOCKADDR_USERS => {
                return Err(Self::unsupported(cursor, rec, "BLOCKADDR_USERS (LLVM 16+)"))
            }
            other => {
                return Err(record_error(
                    cursor,
                    rec,
                    format!("unknown instruction code {other}"),
                ))
            }
        })
    }

    fn type_operand(
        &self,
        cursor: &Cursor<'_>,
        rec: &Record<'_>,
        raw: u64,
    ) -> Result<TypeId, Error> {
        self.types()
            .resolve(raw)
            .ok_or_else(|| record_error(cursor, rec, format!("undefined type id {raw}")))
    }

    fn ordering(
        &self,
        cursor: &Cursor<'_>,
        rec: &Record<'_>,
        v: u64,
    ) -> Result<AtomicOrdering, Error> {
        AtomicOrdering::from_code(v)
            .ok_or_else(|| record_error(cursor, rec, format!("atomic ordering {v}")))
    }

    fn atomic(
        &self,
        cursor: &Cursor<'_>,
        rec: &Record<'_>,
        ordering: u64,
        scope: u64,
    ) -> Result<Atomic, Error> {
        Ok(Atomic {
            ordering: self.ordering(cursor, rec, ordering)?,
            scope: SyncScope::from_code(scope).ok_or_else(|| {
                record_error(cursor, rec, format!("synchronization scope {scope}"))
            })?,
        })
    }

    /// `getelementptr` operands from `i` on: base, then indices.
    fn gep(
        &mut self,
        cursor: &Cursor<'_>,
        rec: &Record<'_>,
        mut i: usize,
        inbounds: bool,
        explicit: Option<TypeId>,
    ) -> Result<(Op, TypeId), Error> {
        let err = |m: &str| record_error(cursor, rec, m.to_string());
        let (base, bty) = self.value_and_type(cursor, rec, &mut i)?;
        let (base_len, pty) = match self.types().ty(bty) {
            Type::Vector { len, element } => (Some(len), element),
            _ => (None, bty),
        };
        let (pointee, space) = self
            .types()
            .pointer(pty)
            .ok_or_else(|| err("getelementptr base is not a pointer"))?;
        let source_type = match explicit {
            Some(t) if t != pointee => {
                return Err(err("explicit getelementptr type is not the pointee type"))
            }
            Some(t) => t,
            None => pointee,
        };
        self.scratch.clear();
        self.scratch.push(base.0);
        let mut cur = source_type;
        let mut vector_len = base_len;
        let mut first = true;
        while i < rec.ops.len() {
            let (index, ity) = self.value_and_type(cursor, rec, &mut i)?;
            let scalar = match self.types().ty(ity) {
                Type::Vector { len, element } => {
                    if vector_len.is_some_and(|l| l != len) {
                        return Err(err("getelementptr vector indices of different lengths"));
                    }
                    vector_len = Some(len);
                    element
                }
                _ => ity,
            };
            if self.types().int_width(scalar).is_none() {
                return Err(err("getelementptr index is not an integer"));
            }
            if !first {
                cur = match self.types().ty(cur) {
                    Type::Struct { .. } => {
                        let k = self
                            .constant_int(index)
                            .ok_or_else(|| err("struct index is not a constant integer"))?;
                        u64::try_from(k)
                            .ok()
                            .and_then(|k| self.types().element_at(cur, k))
                            .ok_or_else(|| err("struct index out of range"))?
                    }
                    Type::Array { element, .. } | Type::Vector { element, .. } => element,
                    _ => return Err(err("getelementptr indexes into a non-aggregate")),
                };
            }
            first = false;
            self.scratch.push(index.0);
        }
        let scratch = std::mem::take(&mut self.scratch);
        let operands = self.push_operands(&scratch);
        self.scratch = scratch;
        let mut ty = self.ctx.types.pointer_to(cur, space);
        if let Some(len) = vector_len {
            ty = self.ctx.types.vector_of(ty, len);
        }
        Ok((
            Op::GetElementPtr {
                inbounds,
                source_type,
                operands,
            },
            ty,
        ))
    }

    /// The arguments of a call or invoke to `fn_ty` from operand `i` on.
    fn arguments(
        &mut self,
        cursor: &Cursor<'_>,
        rec: &Record<'_>,
        mut i: usize,
        fn_ty: TypeId,
    ) -> Result<Operands, Error> {
        let Type::Function { vararg, params, .. } = self.types().ty(fn_ty) else {
            return Err(record_error(
                cursor,
                rec,
                "callee type is not a function type",
            ));
        };
        if rec.ops.len() < i + params.len() {
            return Err(record_error(cursor, rec, "too few call arguments"));
        }
        let mut args = std::mem::take(&mut self.scratch);
        args.clear();
        for k in 0..params.len() {
            let p = self.types().list(params)[k];
            match self.types().ty(p) {
                Type::Label => {
                    self.scratch = args;
                    return Err(Self::unsupported(
                        cursor,
                        rec,
                        "a call passing a basic block",
                    ));
                }
                Type::Metadata => {
                    let raw = rec.ops[i];
                    i += 1;
                    let id = u32::try_from(raw).ok().map(|r| {
                        if self.ctx.relative {
                            self.next.wrapping_sub(r)
                        } else {
                            r
                        }
                    });
                    let Some(id) = id.filter(|&id| id < METADATA_OPERAND) else {
                        self.scratch = args;
                        return Err(record_error(cursor, rec, "metadata argument out of range"));
                    };
                    self.metadata_uses.push((id, rec.bit));
                    args.push(id | METADATA_OPERAND);
                }
                _ => match self.value_of(cursor, rec, &mut i, p) {
                    Ok(v) => args.push(v.0),
                    Err(e) => {
                        self.scratch = args;
                        return Err(e);
                    }
                },
            }
        }
        if vararg {
            while i < rec.ops.len() {
                match self.value_and_type(cursor, rec, &mut i) {
                    Ok((v, _)) => args.push(v.0),
                    Err(e) => {
                        self.scratch = args;
                        return Err(e);
                    }
                }
            }
        } else if i != rec.ops.len() {
            self.scratch = args;
            return Err(record_error(cursor, rec, "too many call arguments"));
        }
        let range = self.push_operands(&args);
        self.scratch = args;
        Ok(range)
    }

    /// The callee at operand `i` and its function type (explicit, or the pointee).
    fn callee(
        &mut self,
        cursor: &Cursor<'_>,
        rec: &Record<'_>,
        i: &mut usize,
        explicit: Option<TypeId>,
    ) -> Result<(ValueId, TypeId), Error> {
        let (callee, cty) = self.value_and_type(cursor, rec, i)?;
        let pointee = self
            .types()
            .pointer(cty)
            .map(|(p, _)| p)
            .ok_or_else(|| record_error(cursor, rec, "callee is not a pointer"))?;
        let fn_ty = match explicit {
            Some(t) if t != pointee => {
                return Err(record_error(
                    cursor,
                    rec,
                    "explicit call type is not the callee's pointee type",
                ))
            }
            Some(t) => t,
            None => pointee,
        };
        if self.types().function(fn_ty).is_none() {
            return Err(record_error(cursor, rec, "callee is not a function"));
        }
        Ok((callee, fn_ty))
    }

    fn attribute_list(&self, cursor: &Cursor<'_>, rec: &Record<'_>, v: u64) -> Result<u32, Error> {
        if !self.ctx.attributes.is_valid_list(v) {
            return Err(record_error(
                cursor,
                rec,
                format!("attribute list {v} is not defined"),
            ));
        }
        Ok(v as u32)
    }

    /// `CALL: [paramattrs, cc, fmf?, fnty?, callee, args...]`.
    fn call(&mut self, cursor: &Cursor<'_>, rec: &Record<'_>) -> Result<(Op, TypeId), Error> {
        let missing = || record_error(cursor, rec, "missing operand");
        let attributes = self.attribute_list(cursor, rec, rec.op(0).ok_or_else(missing)?)?;
        let cc = rec.op(1).ok_or_else(missing)?;
        let mut i = 2;
        let flags = if cc >> 17 & 1 != 0 {
            i += 1;
            rec.op(2).ok_or_else(missing)? as u8
        } else {
            0
        };
        let explicit = if cc >> 15 & 1 != 0 {
            let t = self.type_operand(cursor, rec, rec.op(i).ok_or_else(missing)?)?;
            i += 1;
            Some(t)
        } else {
            None
        };
        let (callee, function_type) = self.callee(cursor, rec, &mut i, explicit)?;
        let args = self.arguments(cursor, rec, i, function_type)?;
        let ret = self
            .types()
            .function(function_type)
            .map(|f| f.0)
            .unwrap_or(function_type);
        let tail = if cc >> 14 & 1 != 0 {
            TailKind::MustTail
        } else if cc & 1 != 0 {
            TailKind::Tail
        } else {
            TailKind::None
        };
        Ok((
            Op::Call {
                callee,
                function_type,
                args,
                attributes,
                calling_conv: ((cc >> 1) & 0x3FF) as u32,
                tail,
                flags,
            },
            ret,
        ))
    }

    /// `INVOKE: [attrs, cc, normal, unwind, fnty?, callee, args...]`.
    fn invoke(&mut self, cursor: &Cursor<'_>, rec: &Record<'_>) -> Result<(Op, TypeId), Error> {
        let missing = || record_error(cursor, rec, "missing operand");
        let attributes = self.attribute_list(cursor, rec, rec.op(0).ok_or_else(missing)?)?;
        let cc = rec.op(1).ok_or_else(missing)?;
        let normal = self.block_of(cursor, rec, rec.op(2))?;
        let unwind = self.block_of(cursor, rec, rec.op(3))?;
        let mut i = 4;
        let explicit = if cc >> 13 & 1 != 0 {
            let t = self.type_operand(cursor, rec, rec.op(4).ok_or_else(missing)?)?;
            i += 1;
            Some(t)
        } else {
            None
        };
        let (callee, function_type) = self.callee(cursor, rec, &mut i, explicit)?;
        let args = self.arguments(cursor, rec, i, function_type)?;
        let ret = self
            .types()
            .function(function_type)
            .map(|f| f.0)
            .unwrap_or(function_type);
        let calling_conv = u32::try_from(cc & !(1 << 13)).map_err(|_| missing())?;
        Ok((
            Op::Invoke {
                callee,
                function_type,
                args,
                normal,
                unwind,
                attributes,
                calling_conv,
            },
            ret,
        ))
    }
}

/// `(1 << v) >> 1`: LLVM's alignment encoding (log2 + 1; 0 = none).
fn align_from(v: u64, cursor: &Cursor<'_>, rec: &Record<'_>) -> Result<u32, Error> {
    if v > 30 {
        return Err(record_error(cursor, rec, format!("alignment exponent {v}")));
    }
    Ok((1u32 << v) >> 1)
}

/// Size in bits of a scalar or vector of integers or floats.
fn bits(types: &TypeTable, ty: TypeId) -> Option<u64> {
    Some(match types.ty(ty) {
        Type::Integer { width } => u64::from(width),
        Type::Half => 16,
        Type::Float => 32,
        Type::Double | Type::X86Mmx => 64,
        Type::X86Fp80 => 80,
        Type::Fp128 | Type::PpcFp128 => 128,
        Type::Vector { len, element } => u64::from(len) * bits(types, element)?,
        _ => return None,
    })
}

/// LLVM's `CastInst::castIsValid`.
fn cast_is_valid(types: &TypeTable, op: CastOp, from: TypeId, to: TypeId) -> bool {
    let lanes = |t: TypeId| match types.ty(t) {
        Type::Vector { len, .. } => Some(len),
        _ => None,
    };
    let (sf, st) = (types.scalar(from), types.scalar(to));
    let same_shape = lanes(from) == lanes(to);
    let int = |t| types.int_width(t).is_some();
    let float = |t| types.is_float(t);
    let ptr = |t| types.pointer(t).is_some();
    let width = |t| bits(types, t).unwrap_or(0);
    match op {
        CastOp::Trunc => same_shape && int(sf) && int(st) && width(sf) > width(st),
        CastOp::ZExt | CastOp::SExt => same_shape && int(sf) && int(st) && width(sf) < width(st),
        CastOp::FpTrunc => same_shape && float(sf) && float(st) && width(sf) > width(st),
        CastOp::FpExt => same_shape && float(sf) && float(st) && width(sf) < width(st),
        CastOp::FpToUi | CastOp::FpToSi => same_shape && float(sf) && int(st),
        CastOp::UiToFp | CastOp::SiToFp => same_shape && int(sf) && float(st),
        CastOp::PtrToInt => same_shape && ptr(sf) && int(st),
        CastOp::IntToPtr => same_shape && int(sf) && ptr(st),
        CastOp::AddrSpaceCast => {
            same_shape
                && matches!((types.pointer(sf), types.pointer(st)), (Some((_, a)), Some((_, b))) if a != b)
        }
        CastOp::BitCast => match (types.pointer(sf), types.pointer(st)) {
            (Some((_, a)), Some((_, b))) => same_shape && a == b,
            (None, None) => {
                let (a, b) = (bits(types, from), bits(types, to));
                a.is_some() && a == b
            }
            _ => false,
        },
    }
}
