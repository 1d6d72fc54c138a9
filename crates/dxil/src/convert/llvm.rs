//! LLVM's own instructions: arithmetic, conversions, comparisons, `select` and the vector
//! and aggregate element operations.
//!
//! Integers are unsigned in the IR; an operation that reads its operands as signed
//! (`sdiv`, `ashr`, `sext`, `sitofp`, signed compares are the IR's own `S*` ops) casts them.
//! The IR has no signed division or remainder and no float remainder: `sdiv`/`srem` divide
//! the magnitudes and fix the sign, `frem` is `a - b * trunc(a / b)` (C's `fmod`, as LLVM
//! defines `frem`). Float operations without LLVM's `fast` flag are `Precise`, as DXIL marks
//! `precise` code.

use dxspv_ir::frontend::FrontendBuilder;
use dxspv_ir::{Op, OpCode, OpFlags, RoundMode, ScalarType, SsaDef, Type};

use super::values::Val;
use super::{Converter, R};
use crate::module::instructions::flags;
use crate::module::{BinaryOp, CastOp, Instruction, Op as LlOp, Predicate, Type as LlType};

/// The signed IR type of the same width as unsigned `t` (other types unchanged).
pub(crate) fn signed(t: ScalarType) -> ScalarType {
    match t {
        ScalarType::U8 => ScalarType::I8,
        ScalarType::U16 => ScalarType::I16,
        ScalarType::U32 => ScalarType::I32,
        ScalarType::U64 => ScalarType::I64,
        ScalarType::MinU16 => ScalarType::MinI16,
        t => t,
    }
}

impl<'s> Converter<'s> {
    /// Converts an instruction that is not memory, control flow or a call.
    pub(crate) fn llvm(&mut self, index: u32, inst: &'s Instruction) -> R<()> {
        let _ = index;
        let v = match inst.op {
            LlOp::Binary {
                op,
                flags: f,
                lhs,
                rhs,
            } => self.binary(inst, op, f, lhs, rhs)?,
            LlOp::Cast { op, value } => return self.cast(inst, op, value),
            LlOp::Compare {
                predicate,
                flags: f,
                lhs,
                rhs,
            } => self.compare(predicate, f, lhs, rhs)?,
            LlOp::Select {
                condition,
                if_true,
                if_false,
            } => {
                let ty = self
                    .ir_type(inst.ty)
                    .map_err(|_| self.unsupported("select of handles, pointers or structs"))?;
                let c = self.def(condition)?;
                let a = self.def(if_true)?;
                let b = self.def(if_false)?;
                self.op3(OpCode::Select, ty, c, a, b)
            }
            LlOp::ExtractElement { vector, index } => {
                let s = self.scalar_of(inst.ty)?;
                let v = self.def(vector)?;
                let i = self.def(index)?;
                let i = self.index_as_u32(i);
                self.op2(OpCode::CompositeExtract, s, v, i)
            }
            LlOp::InsertElement {
                vector,
                element,
                index,
            } => {
                let ty = self.ir_type(inst.ty)?;
                let v = self.def(vector)?;
                let e = self.def(element)?;
                let i = self.def(index)?;
                let i = self.index_as_u32(i);
                self.code(
                    Op::new(OpCode::CompositeInsert, ty)
                        .with_ref(v)
                        .with_ref(i)
                        .with_ref(e),
                )
            }
            LlOp::ShuffleVector {
                first,
                second,
                mask,
            } => self.shuffle(inst, first, second, mask)?,
            LlOp::ExtractValue { aggregate, indices } => {
                let body = self.body()?;
                let idx = body.operands(indices);
                let [k] = idx else {
                    return Err(self.unsupported("extractvalue with more than one index"));
                };
                let agg = self.value(aggregate)?;
                self.member(agg, *k, inst.ty)?
            }
            LlOp::InsertValue { .. } => return Err(self.unsupported("insertvalue")),
            _ => {
                return Err(self.invalid(format!(
                    "`{}` is not an arithmetic instruction",
                    inst.op.opcode_name()
                )))
            }
        };
        self.set(inst.result(), Val::Def(v))
    }

    /// An index operand as `u32` (DXIL indexes with `i32`, which is `u32` here already).
    fn index_as_u32(&mut self, i: SsaDef) -> SsaDef {
        match self.b.op(i).ty.base_type() {
            Some(ScalarType::U32) | None => i,
            Some(_) => self.op1(OpCode::ConvertItoI, ScalarType::U32, i),
        }
    }

    /// Binary operations.
    fn binary(
        &mut self,
        inst: &Instruction,
        op: BinaryOp,
        f: u8,
        lhs: crate::module::ValueId,
        rhs: crate::module::ValueId,
    ) -> R<SsaDef> {
        let ty = self.ir_type(inst.ty)?;
        let s = ty
            .base_type()
            .ok_or_else(|| self.invalid("arithmetic on an aggregate"))?;
        let a = self.def(lhs)?;
        let b = self.def(rhs)?;
        let precise = if f & flags::FAST == 0 {
            OpFlags::PRECISE
        } else {
            OpFlags::empty()
        };
        use BinaryOp as B;
        if s == ScalarType::Bool {
            let opc = match op {
                B::And | B::Mul => OpCode::BAnd,
                B::Or => OpCode::BOr,
                B::Xor | B::Add | B::Sub => OpCode::BNe,
                _ => return Err(self.unsupported("this arithmetic on i1")),
            };
            return Ok(self.op2(opc, ty, a, b));
        }
        let float = |opc: OpCode, me: &mut Self| {
            me.code(Op::new(opc, ty).with_ref(a).with_ref(b).with_flags(precise))
        };
        Ok(match op {
            B::FAdd => float(OpCode::FAdd, self),
            B::FSub => float(OpCode::FSub, self),
            B::FMul => float(OpCode::FMul, self),
            B::FDiv => float(OpCode::FDiv, self),
            B::FRem => {
                let q = float(OpCode::FDiv, self);
                let t = self.code(
                    Op::new(OpCode::FRound, ty)
                        .with_ref(q)
                        .with_lit(RoundMode::Zero.to_literal())
                        .with_flags(precise),
                );
                let p = self.code(
                    Op::new(OpCode::FMul, ty)
                        .with_ref(b)
                        .with_ref(t)
                        .with_flags(precise),
                );
                self.code(
                    Op::new(OpCode::FSub, ty)
                        .with_ref(a)
                        .with_ref(p)
                        .with_flags(precise),
                )
            }
            B::Add => self.op2(OpCode::IAdd, ty, a, b),
            B::Sub => self.op2(OpCode::ISub, ty, a, b),
            B::Mul => self.op2(OpCode::IMul, ty, a, b),
            B::UDiv => self.op2(OpCode::UDiv, ty, a, b),
            B::URem => self.op2(OpCode::UMod, ty, a, b),
            B::SDiv | B::SRem => self.signed_divide(ty, s, a, b, op == B::SRem),
            B::Shl => self.op2(OpCode::IShl, ty, a, b),
            B::LShr => self.op2(OpCode::UShr, ty, a, b),
            B::AShr => {
                let st = ty.with_base(signed(s));
                let sa = self.op1(OpCode::Cast, st, a);
                let r = self.op2(OpCode::SShr, st, sa, b);
                self.op1(OpCode::Cast, ty, r)
            }
            B::And => self.op2(OpCode::IAnd, ty, a, b),
            B::Or => self.op2(OpCode::IOr, ty, a, b),
            B::Xor => self.op2(OpCode::IXor, ty, a, b),
        })
    }

    /// `sdiv` / `srem` from unsigned division of the magnitudes.
    fn signed_divide(
        &mut self,
        ty: Type,
        s: ScalarType,
        a: SsaDef,
        b: SsaDef,
        rem: bool,
    ) -> SsaDef {
        let st = ty.with_base(signed(s));
        let sa = self.op1(OpCode::Cast, st, a);
        let sb = self.op1(OpCode::Cast, st, b);
        let abs_a = self.op1(OpCode::IAbs, st, sa);
        let abs_b = self.op1(OpCode::IAbs, st, sb);
        let ua = self.op1(OpCode::Cast, ty, abs_a);
        let ub = self.op1(OpCode::Cast, ty, abs_b);
        let bits = s.bit_size().unwrap_or(32);
        let zero = self.scalar_zero(s);
        let zero = self.splat(zero, ty);
        if rem {
            // The remainder has the sign of the dividend.
            let r = self.op2(OpCode::UMod, ty, ua, ub);
            let neg = self.op1(OpCode::INeg, ty, r);
            let cond = self.lanes_compare(OpCode::SLt, ty, sa, zero);
            self.op3(OpCode::Select, ty, cond, neg, r)
        } else {
            let q = self.op2(OpCode::UDiv, ty, ua, ub);
            let neg = self.op1(OpCode::INeg, ty, q);
            let x = self.op2(OpCode::IXor, ty, a, b);
            let sx = self.op1(OpCode::Cast, st, x);
            let cond = self.lanes_compare(OpCode::SLt, ty, sx, zero);
            let _ = bits;
            self.op3(OpCode::Select, ty, cond, neg, q)
        }
    }

    /// Zero of scalar type `s`.
    pub(crate) fn scalar_zero(&mut self, s: ScalarType) -> SsaDef {
        self.scalar_const(s, 0)
    }

    /// `scalar` splat to `ty` (itself for a scalar type).
    pub(crate) fn splat(&mut self, scalar: SsaDef, ty: Type) -> SsaDef {
        match ty.as_basic() {
            Some(b) if b.is_vector() => {
                let parts = [scalar; 4];
                self.vector(b.base(), &parts[..b.vec_size() as usize])
            }
            _ => scalar,
        }
    }

    /// A comparison per lane: a scalar `bool`, or a vector of them built lane by lane (the
    /// IR compares scalars).
    fn lanes_compare(&mut self, opc: OpCode, ty: Type, a: SsaDef, b: SsaDef) -> SsaDef {
        let Some(bt) = ty.as_basic().filter(|b| b.is_vector()) else {
            return self.op2(opc, ScalarType::Bool, a, b);
        };
        let n = bt.vec_size();
        let at = self.b.op(a).ty.base_type().unwrap_or(bt.base());
        let bt2 = self.b.op(b).ty.base_type().unwrap_or(bt.base());
        let mut lanes = [a; 4];
        for (i, lane) in lanes.iter_mut().enumerate().take(n as usize) {
            let x = self.extract(at, a, i as u32);
            let y = self.extract(bt2, b, i as u32);
            *lane = self.op2(opc, ScalarType::Bool, x, y);
        }
        self.vector(ScalarType::Bool, &lanes[..n as usize])
    }

    /// Casts.
    fn cast(&mut self, inst: &'s Instruction, op: CastOp, value: crate::module::ValueId) -> R<()> {
        // Pointer casts make pointers.
        if op == CastOp::BitCast {
            if let LlType::Pointer { pointee, .. } = self.m.types.ty(inst.ty) {
                let p = self.pointer(value)?;
                let id = self.push_ptr(super::values::PtrInfo { pointee, ..p });
                return self.set(inst.result(), Val::Ptr(id));
            }
        }
        if matches!(
            op,
            CastOp::PtrToInt | CastOp::IntToPtr | CastOp::AddrSpaceCast
        ) {
            return Err(self.unsupported("pointer to integer casts"));
        }
        let to = self.ir_type(inst.ty)?;
        let ts = to
            .base_type()
            .ok_or_else(|| self.invalid("cast to an aggregate"))?;
        let x = self.def(value)?;
        let from = self.b.op(x).ty;
        let fs = from
            .base_type()
            .ok_or_else(|| self.invalid("cast of an aggregate"))?;
        let v = match op {
            CastOp::Trunc if ts == ScalarType::Bool => {
                let one = self.scalar_const(fs, 1);
                let one = self.splat(one, from);
                let low = self.op2(OpCode::IAnd, from, x, one);
                let zero = self.scalar_zero(fs);
                let zero = self.splat(zero, from);
                self.lanes_compare(OpCode::INe, from, low, zero)
            }
            CastOp::Trunc => self.int_resize(x, ts, to, false)?,
            CastOp::ZExt | CastOp::SExt if fs == ScalarType::Bool => {
                let one = if op == CastOp::SExt {
                    self.scalar_const(ts, u64::MAX >> (64 - ts.bit_size().unwrap_or(32)))
                } else {
                    self.scalar_const(ts, 1)
                };
                let zero = self.scalar_zero(ts);
                let one = self.splat(one, to);
                let zero = self.splat(zero, to);
                self.op3(OpCode::Select, to, x, one, zero)
            }
            CastOp::ZExt => self.int_resize(x, ts, to, false)?,
            CastOp::SExt => self.int_resize(x, ts, to, true)?,
            CastOp::FpToUi | CastOp::FpToSi => {
                if ts == ScalarType::Bool {
                    let zero = self.scalar_zero(fs);
                    let zero = self.splat(zero, from);
                    self.lanes_compare(OpCode::FNe, from, x, zero)
                } else if op == CastOp::FpToSi {
                    let st = to.with_base(signed(ts));
                    let v = self.op1(OpCode::ConvertFtoI, st, x);
                    self.op1(OpCode::Cast, to, v)
                } else {
                    self.op1(OpCode::ConvertFtoI, to, x)
                }
            }
            CastOp::UiToFp | CastOp::SiToFp => {
                if fs == ScalarType::Bool {
                    let one = if op == CastOp::SiToFp { -1.0 } else { 1.0 };
                    let one = self.float_const(ts, one);
                    let zero = self.float_const(ts, 0.0);
                    let one = self.splat(one, to);
                    let zero = self.splat(zero, to);
                    self.op3(OpCode::Select, to, x, one, zero)
                } else if op == CastOp::SiToFp {
                    let st = from.with_base(signed(fs));
                    let sx = self.op1(OpCode::Cast, st, x);
                    self.op1(OpCode::ConvertItoF, to, sx)
                } else {
                    self.op1(OpCode::ConvertItoF, to, x)
                }
            }
            CastOp::FpTrunc | CastOp::FpExt => self.op1(OpCode::ConvertFtoF, to, x),
            CastOp::BitCast => {
                if fs == ts {
                    x
                } else {
                    self.op1(OpCode::Cast, to, x)
                }
            }
            _ => return Err(self.unsupported("pointer to integer casts")),
        };
        self.set(inst.result(), Val::Def(v))
    }

    /// Integer width change: truncation, zero or sign extension (for min-precision sources
    /// the 16-bit value is extended explicitly, since promoted storage keeps high bits).
    fn int_resize(&mut self, x: SsaDef, ts: ScalarType, to: Type, sext: bool) -> R<SsaDef> {
        let from = self.b.op(x).ty;
        let fs = from.base_type().unwrap_or(ScalarType::U32);
        if fs == ts {
            return Ok(x);
        }
        if sext {
            let sf = from.with_base(signed(fs));
            let st = to.with_base(signed(ts));
            let sx = self.op1(OpCode::Cast, sf, x);
            let mut w = self.op1(OpCode::ConvertItoI, st, sx);
            if fs == ScalarType::MinU16 && ts.bit_size() == Some(32) {
                let zero = self.c_u32(0);
                let sixteen = self.c_u32(16);
                let z = self.splat(zero, to.with_base(ScalarType::U32));
                let s16 = self.splat(sixteen, to.with_base(ScalarType::U32));
                w = self.code(
                    Op::new(OpCode::SBitExtract, st)
                        .with_ref(w)
                        .with_ref(z)
                        .with_ref(s16),
                );
            }
            return Ok(self.op1(OpCode::Cast, to, w));
        }
        let mut w = self.op1(OpCode::ConvertItoI, to, x);
        if fs == ScalarType::MinU16 && ts.bit_size().is_some_and(|b| b >= 32) {
            let mask = self.scalar_const(ts, 0xffff);
            let mask = self.splat(mask, to);
            w = self.op2(OpCode::IAnd, to, w, mask);
        }
        Ok(w)
    }

    /// A float constant of scalar type `s` (`f16` rounded to nearest, min-precision types as
    /// `f32` bits).
    pub(crate) fn float_const(&mut self, s: ScalarType, v: f64) -> SsaDef {
        let bits = match s {
            ScalarType::F64 => v.to_bits(),
            ScalarType::F16 => u64::from(dxspv_ir::passes::util::f32_to_f16(v as f32)),
            _ => u64::from((v as f32).to_bits()),
        };
        self.scalar_const(s, bits)
    }

    /// `icmp` / `fcmp`.
    fn compare(
        &mut self,
        p: Predicate,
        f: u8,
        lhs: crate::module::ValueId,
        rhs: crate::module::ValueId,
    ) -> R<SsaDef> {
        let a = self.def(lhs)?;
        let b = self.def(rhs)?;
        let ty = self.b.op(a).ty;
        if ty.as_basic().is_some_and(|b| b.is_vector()) {
            return Err(self.unsupported("vector comparisons"));
        }
        let s = ty.base_type().unwrap_or(ScalarType::U32);
        let _ = f;
        if !p.is_float() {
            if s == ScalarType::Bool {
                return Ok(match p.0 {
                    32 => self.op2(OpCode::BEq, ScalarType::Bool, a, b),
                    33 => self.op2(OpCode::BNe, ScalarType::Bool, a, b),
                    _ => {
                        // Order of i1: false < true unsigned; true (-1) < false signed.
                        let za = self.bool_to_int(a);
                        let zb = self.bool_to_int(b);
                        return self.int_compare(p.0, za, zb);
                    }
                });
            }
            return self.int_compare(p.0, a, b);
        }
        let bool_t = ScalarType::Bool;
        Ok(match p.0 {
            0 => self.c_bool(false),
            15 => self.c_bool(true),
            1 => self.op2(OpCode::FEq, bool_t, a, b),
            2 => self.op2(OpCode::FGt, bool_t, a, b),
            3 => self.op2(OpCode::FGe, bool_t, a, b),
            4 => self.op2(OpCode::FLt, bool_t, a, b),
            5 => self.op2(OpCode::FLe, bool_t, a, b),
            6 => {
                let lt = self.op2(OpCode::FLt, bool_t, a, b);
                let gt = self.op2(OpCode::FGt, bool_t, a, b);
                self.op2(OpCode::BOr, bool_t, lt, gt)
            }
            7 | 8 => {
                let na = self.op1(OpCode::FIsNan, bool_t, a);
                let nb = self.op1(OpCode::FIsNan, bool_t, b);
                let any = self.op2(OpCode::BOr, bool_t, na, nb);
                if p.0 == 8 {
                    any
                } else {
                    self.op1(OpCode::BNot, bool_t, any)
                }
            }
            9 => {
                let lt = self.op2(OpCode::FLt, bool_t, a, b);
                let gt = self.op2(OpCode::FGt, bool_t, a, b);
                let ne = self.op2(OpCode::BOr, bool_t, lt, gt);
                self.op1(OpCode::BNot, bool_t, ne)
            }
            10 => {
                let le = self.op2(OpCode::FLe, bool_t, a, b);
                self.op1(OpCode::BNot, bool_t, le)
            }
            11 => {
                let lt = self.op2(OpCode::FLt, bool_t, a, b);
                self.op1(OpCode::BNot, bool_t, lt)
            }
            12 => {
                let ge = self.op2(OpCode::FGe, bool_t, a, b);
                self.op1(OpCode::BNot, bool_t, ge)
            }
            13 => {
                let gt = self.op2(OpCode::FGt, bool_t, a, b);
                self.op1(OpCode::BNot, bool_t, gt)
            }
            14 => self.op2(OpCode::FNe, bool_t, a, b),
            _ => return Err(self.invalid("unknown comparison predicate")),
        })
    }

    /// `0` or `1` as `u32` from a bool.
    fn bool_to_int(&mut self, b: SsaDef) -> SsaDef {
        let one = self.c_u32(1);
        let zero = self.c_u32(0);
        self.op3(OpCode::Select, ScalarType::U32, b, one, zero)
    }

    /// An integer comparison by LLVM predicate number (32 to 41).
    fn int_compare(&mut self, p: u8, a: SsaDef, b: SsaDef) -> R<SsaDef> {
        let opc = match p {
            32 => OpCode::IEq,
            33 => OpCode::INe,
            34 => OpCode::UGt,
            35 => OpCode::UGe,
            36 => OpCode::ULt,
            37 => OpCode::ULe,
            38 => OpCode::SGt,
            39 => OpCode::SGe,
            40 => OpCode::SLt,
            41 => OpCode::SLe,
            _ => return Err(self.invalid("unknown comparison predicate")),
        };
        Ok(self.op2(opc, ScalarType::Bool, a, b))
    }

    /// `shufflevector`: the lanes the constant mask picks (undef lanes: undef).
    fn shuffle(
        &mut self,
        inst: &Instruction,
        first: crate::module::ValueId,
        second: crate::module::ValueId,
        mask: crate::module::ValueId,
    ) -> R<SsaDef> {
        let ty = self.ir_type(inst.ty)?;
        let bt = ty
            .as_basic()
            .ok_or_else(|| self.invalid("shufflevector to an aggregate"))?;
        let s = bt.base();
        let a = self.def(first)?;
        let b = self.def(second)?;
        let na = self.b.op(a).ty.as_basic().map_or(1, |t| t.vec_size()) as u32;
        let n = bt.vec_size() as usize;
        let body = self.body()?;
        let mut lanes = [a; 4];
        let consts = match self.m.constant(Some(body), mask) {
            Some(c) => *c,
            None => return Err(self.invalid("shufflevector mask is not a constant")),
        };
        let local = mask.index() >= self.m.values.len();
        let table = if local {
            &body.constants
        } else {
            &self.m.constants
        };
        for (i, lane) in lanes.iter_mut().enumerate().take(n) {
            let k = match consts {
                crate::module::Constant::Data(w) => table.words(w).get(i).map(|&x| x as i64),
                crate::module::Constant::Aggregate(ops) => table
                    .operands(ops)
                    .get(i)
                    .and_then(|&e| self.m.constant_int(Some(body), e)),
                crate::module::Constant::Null => Some(0),
                _ => None,
            };
            *lane = match k {
                Some(k) if (k as u32) < na => self.extract(s, a, k as u32),
                Some(k) => self.extract(s, b, (k as u32).wrapping_sub(na)),
                None => self.undef(Type::scalar(s)),
            };
        }
        Ok(self.vector(s, &lanes[..n]))
    }
}
