//! Arithmetic: float, integer, bit, conversion, comparison, double and derivative
//! instructions, converted one IR op per written component.
//!
//! D3D comparisons produce `~0` or `0`; they become a `bool` comparison and a `Select`.
//! Doubles occupy two 32-bit components (low word first): they are assembled from and split
//! into `vec2<u32>` with `Cast`.

use dxspv_ir::frontend::FrontendBuilder;
use dxspv_ir::{DerivativeMode, Op, OpCode, OpFlags, RoundMode, ScalarType, SsaDef, Type};

use super::registers::{dst_mask, min_ty, swizzle_of, Lanes};
use super::{lanes, Converter, R};
use crate::operand::{Components, Operand, OperandType};
use crate::{Instruction, Opcode};

/// The lane value, or an error if a source lane is missing.
fn get(l: &Lanes, i: usize) -> Option<SsaDef> {
    l.get(i).copied().flatten()
}

impl Converter<'_, '_> {
    /// Operand `i` of an instruction.
    pub(crate) fn operand<'i>(&self, inst: &'i Instruction<'_>, i: usize) -> R<&'i Operand> {
        inst.operands()
            .get(i)
            .ok_or_else(|| self.invalid(format!("missing operand {i}")))
    }

    fn precise(inst: &Instruction<'_>, lane: usize) -> OpFlags {
        if inst.modifiers.precise_mask & (1 << lane) != 0 {
            OpFlags::PRECISE
        } else {
            OpFlags::empty()
        }
    }

    fn lane(&self, l: &Lanes, i: usize) -> R<SsaDef> {
        get(l, i).ok_or_else(|| self.invalid("missing source component"))
    }

    /// Converts an arithmetic instruction.
    pub(crate) fn alu(&mut self, inst: &Instruction<'_>) -> R<()> {
        use OpCode as I;
        use Opcode as O;
        use ScalarType as S;
        match inst.opcode {
            O::Add => self.cw(inst, I::FAdd, S::F32, 2, None, true),
            O::Mul => self.cw(inst, I::FMul, S::F32, 2, None, true),
            O::Div => self.cw(inst, I::FDiv, S::F32, 2, None, true),
            O::Mad => self.cw(inst, I::FMad, S::F32, 3, None, true),
            O::Min => self.cw(inst, I::FMin, S::F32, 2, None, true),
            O::Max => self.cw(inst, I::FMax, S::F32, 2, None, true),
            O::Frc => self.cw(inst, I::FFract, S::F32, 1, None, true),
            O::Sqrt => self.cw(inst, I::FSqrt, S::F32, 1, None, true),
            O::Rsq => self.cw(inst, I::FRsq, S::F32, 1, None, true),
            O::Rcp => self.cw(inst, I::FRcp, S::F32, 1, None, true),
            O::Exp => self.cw(inst, I::FExp2, S::F32, 1, None, false),
            O::Log => self.cw(inst, I::FLog2, S::F32, 1, None, false),
            O::RoundNe => self.cw(
                inst,
                I::FRound,
                S::F32,
                1,
                Some(RoundMode::NearestEven.to_literal()),
                true,
            ),
            O::RoundNi => self.cw(
                inst,
                I::FRound,
                S::F32,
                1,
                Some(RoundMode::NegativeInf.to_literal()),
                true,
            ),
            O::RoundPi => self.cw(
                inst,
                I::FRound,
                S::F32,
                1,
                Some(RoundMode::PositiveInf.to_literal()),
                true,
            ),
            O::RoundZ => self.cw(
                inst,
                I::FRound,
                S::F32,
                1,
                Some(RoundMode::Zero.to_literal()),
                true,
            ),
            O::DerivRtx => self.cw(
                inst,
                I::DerivX,
                S::F32,
                1,
                Some(DerivativeMode::Default.to_literal()),
                true,
            ),
            O::DerivRty => self.cw(
                inst,
                I::DerivY,
                S::F32,
                1,
                Some(DerivativeMode::Default.to_literal()),
                true,
            ),
            O::DerivRtxCoarse => self.cw(
                inst,
                I::DerivX,
                S::F32,
                1,
                Some(DerivativeMode::Coarse.to_literal()),
                true,
            ),
            O::DerivRtyCoarse => self.cw(
                inst,
                I::DerivY,
                S::F32,
                1,
                Some(DerivativeMode::Coarse.to_literal()),
                true,
            ),
            O::DerivRtxFine => self.cw(
                inst,
                I::DerivX,
                S::F32,
                1,
                Some(DerivativeMode::Fine.to_literal()),
                true,
            ),
            O::DerivRtyFine => self.cw(
                inst,
                I::DerivY,
                S::F32,
                1,
                Some(DerivativeMode::Fine.to_literal()),
                true,
            ),
            O::Iadd => self.cw(inst, I::IAdd, S::U32, 2, None, true),
            O::Imax => self.cw(inst, I::SMax, S::I32, 2, None, true),
            O::Imin => self.cw(inst, I::SMin, S::I32, 2, None, true),
            O::Umax => self.cw(inst, I::UMax, S::U32, 2, None, true),
            O::Umin => self.cw(inst, I::UMin, S::U32, 2, None, true),
            O::Ineg => self.cw(inst, I::INeg, S::I32, 1, None, true),
            O::And => self.cw(inst, I::IAnd, S::U32, 2, None, true),
            O::Or => self.cw(inst, I::IOr, S::U32, 2, None, true),
            O::Xor => self.cw(inst, I::IXor, S::U32, 2, None, true),
            O::Not => self.cw(inst, I::INot, S::U32, 1, None, true),
            O::CountBits => self.cw(inst, I::IBitCount, S::U32, 1, None, false),
            O::Bfrev => self.cw(inst, I::IBitReverse, S::U32, 1, None, false),
            O::FirstBitLo => self.cw(inst, I::IFindLsb, S::U32, 1, None, false),
            O::Msad => self.cw(inst, I::UMsad, S::U32, 3, None, false),
            O::Imad => self.int_mad(inst, S::I32),
            O::Umad => self.int_mad(inst, S::U32),
            O::Ishl => self.shift(inst, I::IShl, S::U32),
            O::Ishr => self.shift(inst, I::SShr, S::I32),
            O::Ushr => self.shift(inst, I::UShr, S::U32),
            O::Mov => self.mov(inst),
            O::Movc => self.movc(inst),
            O::Swapc => self.swapc(inst),
            O::Dp2 => self.dot(inst, 2),
            O::Dp3 => self.dot(inst, 3),
            O::Dp4 => self.dot(inst, 4),
            O::Eq => self.compare(inst, I::FEq, S::F32),
            O::Ne => self.compare(inst, I::FNe, S::F32),
            O::Lt => self.compare(inst, I::FLt, S::F32),
            O::Ge => self.compare(inst, I::FGe, S::F32),
            O::Ieq => self.compare(inst, I::IEq, S::U32),
            O::Ine => self.compare(inst, I::INe, S::U32),
            O::Ilt => self.compare(inst, I::SLt, S::I32),
            O::Ige => self.compare(inst, I::SGe, S::I32),
            O::Ult => self.compare(inst, I::ULt, S::U32),
            O::Uge => self.compare(inst, I::UGe, S::U32),
            O::Itof => self.convert_op(inst, I::ConvertItoF, S::I32, S::F32),
            O::Utof => self.convert_op(inst, I::ConvertItoF, S::U32, S::F32),
            O::Ftoi => self.convert_op(inst, I::ConvertFtoI, S::F32, S::I32),
            O::Ftou => self.convert_op(inst, I::ConvertFtoI, S::F32, S::U32),
            O::Imul => self.mul_extended(inst, I::SMulExtended, S::I32),
            O::Umul => self.mul_extended(inst, I::UMulExtended, S::U32),
            O::Udiv => self.udiv(inst),
            O::Uaddc => self.carry(inst, I::IAddCarry),
            O::Usubb => self.carry(inst, I::ISubBorrow),
            O::FirstBitHi => self.firstbit_hi(inst, false),
            O::FirstBitShi => self.firstbit_hi(inst, true),
            O::Ubfe => self.bfe(inst, false),
            O::Ibfe => self.bfe(inst, true),
            O::Bfi => self.bfi(inst),
            O::F32toF16 => self.f32tof16(inst),
            O::F16toF32 => self.f16tof32(inst),
            O::Sincos => self.sincos(inst),
            O::Dadd => self.double_op(inst, I::FAdd, 2),
            O::Dmul => self.double_op(inst, I::FMul, 2),
            O::Dmax => self.double_op(inst, I::FMax, 2),
            O::Dmin => self.double_op(inst, I::FMin, 2),
            O::Ddiv => self.double_op(inst, I::FDiv, 2),
            O::Dfma => self.double_op(inst, I::FMad, 3),
            O::Drcp => self.double_op(inst, I::FRcp, 1),
            O::Dmov => self.double_op(inst, I::Drain, 1),
            O::Dmovc => self.dmovc(inst),
            O::Deq => self.double_compare(inst, I::FEq),
            O::Dne => self.double_compare(inst, I::FNe),
            O::Dlt => self.double_compare(inst, I::FLt),
            O::Dge => self.double_compare(inst, I::FGe),
            O::Dtof => self.convert_from_double(inst, I::ConvertFtoF, ScalarType::F32),
            O::Dtoi => self.convert_from_double(inst, I::ConvertFtoI, ScalarType::I32),
            O::Dtou => self.convert_from_double(inst, I::ConvertFtoI, ScalarType::U32),
            O::Ftod => self.convert_to_double(inst, I::ConvertFtoF, ScalarType::F32),
            O::Itod => self.convert_to_double(inst, I::ConvertItoF, ScalarType::I32),
            O::Utod => self.convert_to_double(inst, I::ConvertItoF, ScalarType::U32),
            other => Err(self.unsupported(other.mnemonic())),
        }
    }

    /// A component-wise op: `nsrc` sources, one IR op per written lane.
    fn cw(
        &mut self,
        inst: &Instruction<'_>,
        opc: OpCode,
        base: ScalarType,
        nsrc: usize,
        lit: Option<u64>,
        allow_min: bool,
    ) -> R<()> {
        let dst = self.operand(inst, 0)?;
        let ty = if allow_min { min_ty(base, dst) } else { base };
        let mask = dst_mask(dst);
        let mut srcs = [[None; 4]; 3];
        for (s, slot) in srcs.iter_mut().enumerate().take(nsrc) {
            let op = self.operand(inst, 1 + s)?;
            *slot = self.load_src(op, ty, mask)?;
        }
        let mut out: Lanes = [None; 4];
        for l in lanes(mask) {
            let mut op = Op::new(opc, ty).with_flags(Self::precise(inst, l));
            // Pushed in place: `with_ref` in a loop moves the whole op each time.
            for src in srcs.iter().take(nsrc) {
                let v = self.lane(src, l)?;
                op.operands.push(dxspv_ir::Operand::from_def(v));
            }
            if let Some(v) = lit {
                op.operands.push(dxspv_ir::Operand::lit(v));
            }
            out[l] = Some(self.code(op));
        }
        self.write(inst.modifiers.saturate, dst, out, ty)
    }

    /// `imad` / `umad`: multiply, then add.
    fn int_mad(&mut self, inst: &Instruction<'_>, base: ScalarType) -> R<()> {
        let dst = self.operand(inst, 0)?;
        let ty = min_ty(base, dst);
        let mask = dst_mask(dst);
        let a = self.load_src(self.operand(inst, 1)?, ty, mask)?;
        let b = self.load_src(self.operand(inst, 2)?, ty, mask)?;
        let c = self.load_src(self.operand(inst, 3)?, ty, mask)?;
        let mut out: Lanes = [None; 4];
        for l in lanes(mask) {
            let m = self.op2(OpCode::IMul, ty, self.lane(&a, l)?, self.lane(&b, l)?);
            out[l] = Some(self.op2(OpCode::IAdd, ty, m, self.lane(&c, l)?));
        }
        self.store_dst(dst, &out, ty)
    }

    /// Shifts: D3D uses only the low five bits of the count.
    fn shift(&mut self, inst: &Instruction<'_>, opc: OpCode, base: ScalarType) -> R<()> {
        let dst = self.operand(inst, 0)?;
        let ty = min_ty(base, dst);
        let mask = dst_mask(dst);
        let a = self.load_src(self.operand(inst, 1)?, ty, mask)?;
        let b = self.load_src(self.operand(inst, 2)?, ScalarType::U32, mask)?;
        let mut out: Lanes = [None; 4];
        for l in lanes(mask) {
            let count = self.lane(&b, l)?;
            // A constant count is masked at once (what constant folding made of the `IAnd`).
            let cnt = match self.u32_constant(count) {
                Some(c) => self.c_u32(c & 31),
                None => {
                    let m = self.c_u32(31);
                    self.op2(OpCode::IAnd, ScalarType::U32, count, m)
                }
            };
            out[l] = Some(self.op2(opc, ty, self.lane(&a, l)?, cnt));
        }
        self.store_dst(dst, &out, ty)
    }

    /// The scalar type of a def (`Unknown` if it has none).
    fn type_of(&self, d: SsaDef) -> ScalarType {
        self.value_type(d)
    }

    /// `mov`: untyped unless a modifier or saturation makes it a float move.
    fn mov(&mut self, inst: &Instruction<'_>) -> R<()> {
        let dst = self.operand(inst, 0)?;
        let src = self.operand(inst, 1)?;
        let typed = inst.modifiers.saturate || src.modifier != crate::enums::OperandModifier::None;
        let ty = if typed {
            min_ty(ScalarType::F32, dst)
        } else {
            ScalarType::Unknown
        };
        let mask = dst_mask(dst);
        if ty == ScalarType::Unknown && src.ty == OperandType::Immediate32 {
            if let Some(t) = self.output_lanes_type(dst) {
                let sw = swizzle_of(src);
                let one = src.components == Components::One;
                let mut bits = [0u32; 4];
                for l in lanes(mask) {
                    bits[l] = src.imm[if one { 0 } else { sw[l] as usize & 3 }];
                }
                if self.store_output_bits(dst, &bits)? {
                    return Ok(());
                }
                let vals = self.load_src(src, t, mask)?;
                return self.store_dst(dst, &vals, t);
            }
        }
        let vals = self.load_src(src, ty, mask)?;
        if ty == ScalarType::Unknown {
            if self.store_output_untyped(dst, &vals)? {
                return Ok(());
            }
            // Store each lane with its own type.
            let target = self.lane_target(dst)?;
            for l in lanes(mask) {
                let Some(v) = vals[l] else { continue };
                let t = self.type_of(v);
                self.write_lane(false, target, dst, l, v, t)?;
            }
            return Ok(());
        }
        self.write(inst.modifiers.saturate, dst, vals, ty)
    }

    /// Gives two values one scalar type for a `Select`.
    fn unify(&mut self, a: SsaDef, b: SsaDef) -> (SsaDef, SsaDef, ScalarType) {
        let (ta, tb) = (self.type_of(a), self.type_of(b));
        if ta == tb {
            return (a, b, ta);
        }
        if ta == ScalarType::Unknown {
            let a = self.coerce(a, ta, tb);
            return (a, b, tb);
        }
        let b = self.coerce(b, tb, ta);
        (a, b, ta)
    }

    /// `movc dst, cond, a, b`.
    fn movc(&mut self, inst: &Instruction<'_>) -> R<()> {
        let dst = self.operand(inst, 0)?;
        let mask = dst_mask(dst);
        let ty = if inst.modifiers.saturate {
            min_ty(ScalarType::F32, dst)
        } else {
            ScalarType::Unknown
        };
        let c = self.load_src(self.operand(inst, 1)?, ScalarType::U32, mask)?;
        let a = self.load_src(self.operand(inst, 2)?, ty, mask)?;
        let b = self.load_src(self.operand(inst, 3)?, ty, mask)?;
        let zero = self.c_u32(0);
        let target = self.lane_target(dst)?;
        for l in lanes(mask) {
            let cond = self.op2(OpCode::INe, ScalarType::Bool, self.lane(&c, l)?, zero);
            let (x, y, t) = self.unify(self.lane(&a, l)?, self.lane(&b, l)?);
            let v = self.op3(OpCode::Select, t, cond, x, y);
            let lane_ty = if ty == ScalarType::Unknown { t } else { ty };
            self.write_lane(inst.modifiers.saturate, target, dst, l, v, lane_ty)?;
        }
        Ok(())
    }

    /// `swapc dst0, dst1, cond, a, b`: `dst0 = cond ? b : a`, `dst1 = cond ? a : b`.
    fn swapc(&mut self, inst: &Instruction<'_>) -> R<()> {
        let d0 = self.operand(inst, 0)?;
        let d1 = self.operand(inst, 1)?;
        let mask = dst_mask(d0) | dst_mask(d1);
        let c = self.load_src(self.operand(inst, 2)?, ScalarType::U32, mask)?;
        let a = self.load_src(self.operand(inst, 3)?, ScalarType::Unknown, mask)?;
        let b = self.load_src(self.operand(inst, 4)?, ScalarType::Unknown, mask)?;
        let zero = self.c_u32(0);
        let mut o0: Lanes = [None; 4];
        let mut o1: Lanes = [None; 4];
        let mut t0 = ScalarType::Unknown;
        for l in lanes(mask) {
            let cond = self.op2(OpCode::INe, ScalarType::Bool, self.lane(&c, l)?, zero);
            let (x, y, t) = self.unify(self.lane(&a, l)?, self.lane(&b, l)?);
            o0[l] = Some(self.op3(OpCode::Select, t, cond, y, x));
            o1[l] = Some(self.op3(OpCode::Select, t, cond, x, y));
            t0 = t;
        }
        self.store_dst(d0, &o0, t0)?;
        self.store_dst(d1, &o1, t0)
    }

    /// `dp2` / `dp3` / `dp4` as a multiply-add chain, replicated to every written lane.
    fn dot(&mut self, inst: &Instruction<'_>, n: usize) -> R<()> {
        let dst = self.operand(inst, 0)?;
        let ty = min_ty(ScalarType::F32, dst);
        let m = ((1u32 << n) - 1) as u8;
        let a = self.load_src(self.operand(inst, 1)?, ty, m)?;
        let b = self.load_src(self.operand(inst, 2)?, ty, m)?;
        let flags = if inst.modifiers.precise_mask != 0 {
            OpFlags::PRECISE
        } else {
            OpFlags::empty()
        };
        let mut acc = self.code(
            Op::new(OpCode::FMul, ty)
                .with_ref(self.lane(&a, 0)?)
                .with_ref(self.lane(&b, 0)?)
                .with_flags(flags),
        );
        for i in 1..n {
            acc = self.code(
                Op::new(OpCode::FMad, ty)
                    .with_ref(self.lane(&a, i)?)
                    .with_ref(self.lane(&b, i)?)
                    .with_ref(acc)
                    .with_flags(flags),
            );
        }
        let mask = dst_mask(dst);
        let mut out: Lanes = [None; 4];
        for l in lanes(mask) {
            out[l] = Some(acc);
        }
        self.write(inst.modifiers.saturate, dst, out, ty)
    }

    /// Comparisons: `~0` where true, `0` where false.
    fn compare(&mut self, inst: &Instruction<'_>, opc: OpCode, base: ScalarType) -> R<()> {
        let dst = self.operand(inst, 0)?;
        let a_op = self.operand(inst, 1)?;
        let ty = min_ty(base, a_op);
        let mask = dst_mask(dst);
        let a = self.load_src(a_op, ty, mask)?;
        let b = self.load_src(self.operand(inst, 2)?, ty, mask)?;
        let mut out: Lanes = [None; 4];
        for l in lanes(mask) {
            let c = self.op2(opc, ScalarType::Bool, self.lane(&a, l)?, self.lane(&b, l)?);
            out[l] = Some(self.bool_to_mask(c));
        }
        self.store_dst(dst, &out, ScalarType::U32)
    }

    /// Numeric conversions between 32-bit types.
    fn convert_op(
        &mut self,
        inst: &Instruction<'_>,
        opc: OpCode,
        from: ScalarType,
        to: ScalarType,
    ) -> R<()> {
        let dst = self.operand(inst, 0)?;
        let src = self.operand(inst, 1)?;
        let from = min_ty(from, src);
        let to = min_ty(to, dst);
        let mask = dst_mask(dst);
        let a = self.load_src(src, from, mask)?;
        let mut out: Lanes = [None; 4];
        for l in lanes(mask) {
            let v = self.lane(&a, l)?;
            out[l] = Some(
                if from.bit_size() == to.bit_size() && from.is_float() == to.is_float() {
                    self.coerce(v, from, to)
                } else {
                    self.op1(opc, to, v)
                },
            );
        }
        self.write(inst.modifiers.saturate, dst, out, to)
    }

    /// `imul` / `umul dst_hi, dst_lo, a, b`.
    fn mul_extended(&mut self, inst: &Instruction<'_>, opc: OpCode, ty: ScalarType) -> R<()> {
        let hi = self.operand(inst, 0)?;
        let lo = self.operand(inst, 1)?;
        let hmask = if hi.ty == OperandType::Null {
            0
        } else {
            dst_mask(hi)
        };
        let lmask = if lo.ty == OperandType::Null {
            0
        } else {
            dst_mask(lo)
        };
        let mask = hmask | lmask;
        let a = self.load_src(self.operand(inst, 2)?, ty, mask)?;
        let b = self.load_src(self.operand(inst, 3)?, ty, mask)?;
        let mut oh: Lanes = [None; 4];
        let mut ol: Lanes = [None; 4];
        for l in lanes(mask) {
            let (x, y) = (self.lane(&a, l)?, self.lane(&b, l)?);
            if hmask & (1 << l) != 0 {
                let v = self.op2(opc, Type::vector(ty, 2), x, y);
                oh[l] = Some(self.extract(ty, v, 1));
                if lmask & (1 << l) != 0 {
                    ol[l] = Some(self.extract(ty, v, 0));
                }
            } else {
                ol[l] = Some(self.op2(OpCode::IMul, ty, x, y));
            }
        }
        self.store_dst(hi, &oh, ty)?;
        self.store_dst(lo, &ol, ty)
    }

    /// `udiv dst_q, dst_r, a, b`; division by zero gives `~0` as in D3D.
    fn udiv(&mut self, inst: &Instruction<'_>) -> R<()> {
        let q = self.operand(inst, 0)?;
        let r = self.operand(inst, 1)?;
        let qmask = if q.ty == OperandType::Null {
            0
        } else {
            dst_mask(q)
        };
        let rmask = if r.ty == OperandType::Null {
            0
        } else {
            dst_mask(r)
        };
        let mask = qmask | rmask;
        let ty = ScalarType::U32;
        let a = self.load_src(self.operand(inst, 2)?, ty, mask)?;
        let b = self.load_src(self.operand(inst, 3)?, ty, mask)?;
        let zero = self.c_u32(0);
        let ones = self.c_u32(u32::MAX);
        let mut oq: Lanes = [None; 4];
        let mut or: Lanes = [None; 4];
        for l in lanes(mask) {
            let (x, y) = (self.lane(&a, l)?, self.lane(&b, l)?);
            let is0 = self.op2(OpCode::IEq, ScalarType::Bool, y, zero);
            if qmask & (1 << l) != 0 {
                let d = self.op2(OpCode::UDiv, ty, x, y);
                oq[l] = Some(self.op3(OpCode::Select, ty, is0, ones, d));
            }
            if rmask & (1 << l) != 0 {
                let m = self.op2(OpCode::UMod, ty, x, y);
                or[l] = Some(self.op3(OpCode::Select, ty, is0, ones, m));
            }
        }
        self.store_dst(q, &oq, ty)?;
        self.store_dst(r, &or, ty)
    }

    /// `uaddc` / `usubb dst, dst_carry, a, b`.
    fn carry(&mut self, inst: &Instruction<'_>, opc: OpCode) -> R<()> {
        let d0 = self.operand(inst, 0)?;
        let d1 = self.operand(inst, 1)?;
        let m0 = if d0.ty == OperandType::Null {
            0
        } else {
            dst_mask(d0)
        };
        let m1 = if d1.ty == OperandType::Null {
            0
        } else {
            dst_mask(d1)
        };
        let mask = m0 | m1;
        let ty = ScalarType::U32;
        let a = self.load_src(self.operand(inst, 2)?, ty, mask)?;
        let b = self.load_src(self.operand(inst, 3)?, ty, mask)?;
        let mut o0: Lanes = [None; 4];
        let mut o1: Lanes = [None; 4];
        for l in lanes(mask) {
            let v = self.op2(
                opc,
                Type::vector(ty, 2),
                self.lane(&a, l)?,
                self.lane(&b, l)?,
            );
            if m0 & (1 << l) != 0 {
                o0[l] = Some(self.extract(ty, v, 0));
            }
            if m1 & (1 << l) != 0 {
                o1[l] = Some(self.extract(ty, v, 1));
            }
        }
        self.store_dst(d0, &o0, ty)?;
        self.store_dst(d1, &o1, ty)
    }

    /// `firstbit_hi` / `firstbit_shi`: bit index counted from the MSB, `~0` if none. The IR's
    /// `UFindMsb`/`SFindMsb` count from the LSB (SPIR-V) and give `-1` when there is none.
    fn firstbit_hi(&mut self, inst: &Instruction<'_>, signed: bool) -> R<()> {
        let dst = self.operand(inst, 0)?;
        let ty = if signed {
            ScalarType::I32
        } else {
            ScalarType::U32
        };
        let mask = dst_mask(dst);
        let a = self.load_src(self.operand(inst, 1)?, ty, mask)?;
        let c31 = self.constant(ty, 31);
        let none = self.constant(ty, u32::MAX as u64);
        let mut out: Lanes = [None; 4];
        for l in lanes(mask) {
            let x = self.lane(&a, l)?;
            let opc = if signed {
                OpCode::SFindMsb
            } else {
                OpCode::UFindMsb
            };
            let m = self.op1(opc, ty, x);
            let missing = self.op2(OpCode::IEq, ScalarType::Bool, m, none);
            let from_msb = self.op2(OpCode::ISub, ty, c31, m);
            out[l] = Some(self.op3(OpCode::Select, ty, missing, none, from_msb));
        }
        self.store_dst(dst, &out, ty)
    }

    /// Bit field width and offset with D3D's 5-bit masking: `(offset, min(width, 32 - offset))`.
    fn bitfield(&mut self, w: SsaDef, o: SsaDef) -> (SsaDef, SsaDef) {
        // Constant width and offset: the constants folding would make.
        if let (Some(w), Some(o)) = (self.u32_constant(w), self.u32_constant(o)) {
            let (w, o) = (w & 31, o & 31);
            let cnt = self.c_u32(w.min(32 - o));
            return (self.c_u32(o), cnt);
        }
        let m = self.c_u32(31);
        let c32 = self.c_u32(32);
        let w = self.op2(OpCode::IAnd, ScalarType::U32, w, m);
        let o = self.op2(OpCode::IAnd, ScalarType::U32, o, m);
        let room = self.op2(OpCode::ISub, ScalarType::U32, c32, o);
        let cnt = self.op2(OpCode::UMin, ScalarType::U32, w, room);
        (o, cnt)
    }

    /// `ubfe` / `ibfe dst, width, offset, src`.
    fn bfe(&mut self, inst: &Instruction<'_>, signed: bool) -> R<()> {
        let dst = self.operand(inst, 0)?;
        let mask = dst_mask(dst);
        let ty = if signed {
            ScalarType::I32
        } else {
            ScalarType::U32
        };
        let w = self.load_src(self.operand(inst, 1)?, ScalarType::U32, mask)?;
        let o = self.load_src(self.operand(inst, 2)?, ScalarType::U32, mask)?;
        let s = self.load_src(self.operand(inst, 3)?, ty, mask)?;
        let opc = if signed {
            OpCode::SBitExtract
        } else {
            OpCode::UBitExtract
        };
        let mut out: Lanes = [None; 4];
        for l in lanes(mask) {
            let (off, cnt) = self.bitfield(self.lane(&w, l)?, self.lane(&o, l)?);
            out[l] = Some(self.op3(opc, ty, self.lane(&s, l)?, off, cnt));
        }
        self.store_dst(dst, &out, ty)
    }

    /// `bfi dst, width, offset, insert, base`.
    fn bfi(&mut self, inst: &Instruction<'_>) -> R<()> {
        let dst = self.operand(inst, 0)?;
        let mask = dst_mask(dst);
        let ty = ScalarType::U32;
        let w = self.load_src(self.operand(inst, 1)?, ty, mask)?;
        let o = self.load_src(self.operand(inst, 2)?, ty, mask)?;
        let ins = self.load_src(self.operand(inst, 3)?, ty, mask)?;
        let base = self.load_src(self.operand(inst, 4)?, ty, mask)?;
        let mut out: Lanes = [None; 4];
        for l in lanes(mask) {
            let (off, cnt) = self.bitfield(self.lane(&w, l)?, self.lane(&o, l)?);
            out[l] = Some(
                self.code(
                    Op::new(OpCode::IBitInsert, ty)
                        .with_ref(self.lane(&base, l)?)
                        .with_ref(self.lane(&ins, l)?)
                        .with_ref(off)
                        .with_ref(cnt),
                ),
            );
        }
        self.store_dst(dst, &out, ty)
    }

    /// `f32tof16`: the half in the low 16 bits.
    fn f32tof16(&mut self, inst: &Instruction<'_>) -> R<()> {
        let dst = self.operand(inst, 0)?;
        let mask = dst_mask(dst);
        let a = self.load_src(self.operand(inst, 1)?, ScalarType::F32, mask)?;
        let zero = self.c_f32(0.0);
        let mut out: Lanes = [None; 4];
        for l in lanes(mask) {
            let v = self.vector(ScalarType::F32, &[self.lane(&a, l)?, zero]);
            out[l] = Some(self.op1(OpCode::ConvertF32toPackedF16, ScalarType::U32, v));
        }
        self.store_dst(dst, &out, ScalarType::U32)
    }

    /// `f16tof32`: converts the low 16 bits.
    fn f16tof32(&mut self, inst: &Instruction<'_>) -> R<()> {
        let dst = self.operand(inst, 0)?;
        let mask = dst_mask(dst);
        let a = self.load_src(self.operand(inst, 1)?, ScalarType::U32, mask)?;
        let mut out: Lanes = [None; 4];
        for l in lanes(mask) {
            let v = self.op1(
                OpCode::ConvertPackedF16toF32,
                Type::vector(ScalarType::F32, 2),
                self.lane(&a, l)?,
            );
            out[l] = Some(self.extract(ScalarType::F32, v, 0));
        }
        self.write(inst.modifiers.saturate, dst, out, ScalarType::F32)
    }

    /// `sincos dst_sin, dst_cos, src`.
    fn sincos(&mut self, inst: &Instruction<'_>) -> R<()> {
        let ds = self.operand(inst, 0)?;
        let dc = self.operand(inst, 1)?;
        let ms = if ds.ty == OperandType::Null {
            0
        } else {
            dst_mask(ds)
        };
        let mc = if dc.ty == OperandType::Null {
            0
        } else {
            dst_mask(dc)
        };
        let a = self.load_src(self.operand(inst, 2)?, ScalarType::F32, ms | mc)?;
        let mut os: Lanes = [None; 4];
        let mut oc: Lanes = [None; 4];
        for l in lanes(ms) {
            os[l] = Some(self.op1(OpCode::FSin, ScalarType::F32, self.lane(&a, l)?));
        }
        for l in lanes(mc) {
            oc[l] = Some(self.op1(OpCode::FCos, ScalarType::F32, self.lane(&a, l)?));
        }
        self.write(inst.modifiers.saturate, ds, os, ScalarType::F32)?;
        self.write(inst.modifiers.saturate, dc, oc, ScalarType::F32)
    }

    // ---------------------------------------------------------------------------------------
    // Doubles
    // ---------------------------------------------------------------------------------------

    /// Double lanes (0: `.xy`, 1: `.zw`) written by a destination mask.
    fn double_lanes(mask: u8) -> impl Iterator<Item = usize> {
        (0..2).filter(move |p| mask & (3 << (2 * p)) != 0)
    }

    /// Loads double `p` of a source (components `swizzle[2p]`, `swizzle[2p + 1]`).
    fn load_double(&mut self, op: &Operand, p: usize) -> R<SsaDef> {
        let v = if op.ty == OperandType::Immediate64 {
            let i = if op.imm_count() == 1 { 0 } else { p.min(1) };
            self.constant(ScalarType::F64, op.imm64(i))
        } else {
            let sw = swizzle_of(op);
            let (c0, c1) = (sw[2 * p] as usize, sw[2 * p + 1] as usize);
            let mut plain = *op;
            plain.modifier = crate::enums::OperandModifier::None;
            let comps = self.load_comps(&plain, ScalarType::U32, (1 << c0) | (1 << c1))?;
            let (lo, hi) = (self.lane(&comps, c0)?, self.lane(&comps, c1)?);
            let pair = self.vector(ScalarType::U32, &[lo, hi]);
            self.op1(OpCode::Cast, ScalarType::F64, pair)
        };
        Ok(match op.modifier {
            crate::enums::OperandModifier::None => v,
            crate::enums::OperandModifier::Neg => self.op1(OpCode::FNeg, ScalarType::F64, v),
            crate::enums::OperandModifier::Abs => self.op1(OpCode::FAbs, ScalarType::F64, v),
            crate::enums::OperandModifier::AbsNeg => {
                let a = self.op1(OpCode::FAbs, ScalarType::F64, v);
                self.op1(OpCode::FNeg, ScalarType::F64, a)
            }
        })
    }

    /// Stores double `p` into components `2p`, `2p + 1` of the destination.
    fn store_double(&mut self, dst: &Operand, p: usize, v: SsaDef) -> R<()> {
        let pair = self.op1(OpCode::Cast, Type::vector(ScalarType::U32, 2), v);
        let mut out: Lanes = [None; 4];
        out[2 * p] = Some(self.extract(ScalarType::U32, pair, 0));
        out[2 * p + 1] = Some(self.extract(ScalarType::U32, pair, 1));
        self.store_dst(dst, &out, ScalarType::U32)
    }

    /// A double op; `Drain` stands for a plain move.
    fn double_op(&mut self, inst: &Instruction<'_>, opc: OpCode, nsrc: usize) -> R<()> {
        let dst = self.operand(inst, 0)?;
        for p in Self::double_lanes(dst_mask(dst)) {
            let mut args = [None; 3];
            for (s, a) in args.iter_mut().enumerate().take(nsrc) {
                *a = Some(self.load_double(self.operand(inst, 1 + s)?, p)?);
            }
            let mut v = if opc == OpCode::Drain {
                self.lane(&[args[0], None, None, None], 0)?
            } else {
                let mut op = Op::new(opc, ScalarType::F64).with_flags(Self::precise(inst, 2 * p));
                for a in args.iter().take(nsrc).flatten() {
                    op.operands.push(dxspv_ir::Operand::from_def(*a));
                }
                self.code(op)
            };
            if inst.modifiers.saturate {
                let mut l: Lanes = [Some(v), None, None, None];
                self.saturate(&mut l, ScalarType::F64);
                v = self.lane(&l, 0)?;
            }
            self.store_double(dst, p, v)?;
        }
        Ok(())
    }

    /// `dmovc dst, cond, a, b`.
    fn dmovc(&mut self, inst: &Instruction<'_>) -> R<()> {
        let dst = self.operand(inst, 0)?;
        let cond_op = self.operand(inst, 1)?;
        let zero = self.c_u32(0);
        for p in Self::double_lanes(dst_mask(dst)) {
            let c = self.load_src(cond_op, ScalarType::U32, 1 << (2 * p))?;
            let c = self.lane(&c, 2 * p)?;
            let cond = self.op2(OpCode::INe, ScalarType::Bool, c, zero);
            let a = self.load_double(self.operand(inst, 2)?, p)?;
            let b = self.load_double(self.operand(inst, 3)?, p)?;
            let v = self.op3(OpCode::Select, ScalarType::F64, cond, a, b);
            self.store_double(dst, p, v)?;
        }
        Ok(())
    }

    /// Double comparisons: the k-th written lane compares double k.
    fn double_compare(&mut self, inst: &Instruction<'_>, opc: OpCode) -> R<()> {
        let dst = self.operand(inst, 0)?;
        let mut out: Lanes = [None; 4];
        for (k, l) in lanes(dst_mask(dst)).enumerate() {
            let a = self.load_double(self.operand(inst, 1)?, k.min(1))?;
            let b = self.load_double(self.operand(inst, 2)?, k.min(1))?;
            let c = self.op2(opc, ScalarType::Bool, a, b);
            out[l] = Some(self.bool_to_mask(c));
        }
        self.store_dst(dst, &out, ScalarType::U32)
    }

    /// `dtof` / `dtoi` / `dtou`: the k-th written lane converts double k.
    fn convert_from_double(
        &mut self,
        inst: &Instruction<'_>,
        opc: OpCode,
        to: ScalarType,
    ) -> R<()> {
        let dst = self.operand(inst, 0)?;
        let mut out: Lanes = [None; 4];
        for (k, l) in lanes(dst_mask(dst)).enumerate() {
            let a = self.load_double(self.operand(inst, 1)?, k.min(1))?;
            out[l] = Some(self.op1(opc, to, a));
        }
        self.write(inst.modifiers.saturate, dst, out, to)
    }

    /// `ftod` / `itod` / `utod`: double k converts source lane k.
    fn convert_to_double(
        &mut self,
        inst: &Instruction<'_>,
        opc: OpCode,
        from: ScalarType,
    ) -> R<()> {
        let dst = self.operand(inst, 0)?;
        let src = self.operand(inst, 1)?;
        for (k, p) in Self::double_lanes(dst_mask(dst)).enumerate() {
            let a = self.load_src(src, from, 1 << k)?;
            let v = self.op1(opc, ScalarType::F64, self.lane(&a, k)?);
            self.store_double(dst, p, v)?;
        }
        Ok(())
    }
}
