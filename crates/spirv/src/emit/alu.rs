//! Arithmetic, logic, comparisons, conversions, bit operations and composites.
//!
//! Where D3D defines what SPIR-V leaves undefined, the op is expanded: shift counts are
//! masked to the bit width; bit-field offsets and counts are masked and the count clamped to
//! the bits left; float-to-int conversions saturate, NaN giving 0; unsigned division by zero
//! gives all ones; min, max and clamp return the non-NaN operand (`NMin`, `NMax`,
//! `NClamp`). A precise float result is `NoContraction`, and a precise multiply-add a
//! multiply and an add (`Fma` may fuse). SPIR-V ops that take one exact integer type get
//! operands of the other signedness bit-cast. Derivatives are of 32-bit floats, as Vulkan
//! requires (a half is derived as a float).

use super::error::{malformed, unsupported, R};
use super::types::{int_of_width, scalar_bits, TyKey, L_NONE};
use super::Emitter;
use crate::words::{begin, end, inst};
use dxspv_ir::{BasicType, Op, OpCode, OpFlags, RoundMode, ScalarType, SsaDef};
use smallvec::SmallVec;
use spirv::{Decoration, GLOp, Op as S};

impl<'a> Emitter<'a> {
    /// Operand `i` of `op` (SPIR-V value `value`) as a value of `want` (SPIR-V type `want_ty`):
    /// bit cast when its type differs, for the SPIR-V ops that take one exact integer type
    /// where the IR lets signedness differ.
    pub(super) fn operand_as(
        &mut self,
        op: &Op,
        i: usize,
        value: u32,
        want: BasicType,
        want_ty: u32,
    ) -> u32 {
        let have = op
            .arg(i)
            .and_then(|x| self.op_of(x))
            .and_then(|o| o.ty.as_basic());
        if have == Some(want) {
            value
        } else {
            self.module.un(S::Bitcast, want_ty, &[value])
        }
    }

    pub(super) fn alu(&mut self, def: SsaDef, op: &Op) -> R<()> {
        use OpCode as O;
        let id = def.id();
        let t = self.module.val_ty(def, op)?;
        let mut a = [0u32; 4];
        let refs = op.operands.get(..op.ref_count()).unwrap_or(&[]);
        for (slot, x) in a.iter_mut().zip(refs) {
            if let Some(x) = x.def() {
                *slot = self.v(x);
            }
        }
        let rb = op
            .ty
            .as_basic()
            .unwrap_or(BasicType::scalar(ScalarType::U32));
        let arg_basic = |e: &Self, i: usize| -> Option<BasicType> {
            op.arg(i)
                .and_then(|x| e.op_of(x))
                .and_then(|o| o.ty.as_basic())
        };
        if op.flags.contains(OpFlags::PRECISE) && rb.base().is_float() {
            self.module.decorate(id, Decoration::NoContraction, &[]);
        }
        let simple = |o: S, n: usize, e: &mut Self| {
            e.module.emit_to(o, t, id, &a[..n]);
            Ok(())
        };
        let gl = |g: GLOp, n: usize, e: &mut Self| {
            e.module.ext_to(g, t, id, &a[..n]);
            Ok(())
        };
        match op.opcode {
            O::FAbs => gl(GLOp::FAbs, 1, self),
            O::FNeg => simple(S::FNegate, 1, self),
            O::FAdd => simple(S::FAdd, 2, self),
            O::FSub => simple(S::FSub, 2, self),
            O::FMul => simple(S::FMul, 2, self),
            O::FDiv => simple(S::FDiv, 2, self),
            O::FMad => {
                if op.flags.contains(OpFlags::PRECISE) {
                    let m = self.module.un(S::FMul, t, &a[..2]);
                    self.module.decorate(m, Decoration::NoContraction, &[]);
                    self.module.emit_to(S::FAdd, t, id, &[m, a[2]]);
                    Ok(())
                } else {
                    gl(GLOp::Fma, 3, self)
                }
            }
            O::FRcp => {
                let one = match rb.base() {
                    ScalarType::F64 => 1.0f64.to_bits(),
                    ScalarType::F16 => 0x3c00,
                    _ => 1.0f32.to_bits() as u64,
                };
                let c = self.module.const_splat(rb, one);
                self.module.emit_to(S::FDiv, t, id, &[c, a[0]]);
                Ok(())
            }
            O::FSqrt => gl(GLOp::Sqrt, 1, self),
            O::FRsq => gl(GLOp::InverseSqrt, 1, self),
            O::FExp2 => gl(GLOp::Exp2, 1, self),
            O::FLog2 => gl(GLOp::Log2, 1, self),
            O::FFract => gl(GLOp::Fract, 1, self),
            O::FRound => {
                let g = match RoundMode::from_literal(self.lit(def, op, 0)?) {
                    Some(RoundMode::Zero) => GLOp::Trunc,
                    Some(RoundMode::NegativeInf) => GLOp::Floor,
                    Some(RoundMode::PositiveInf) => GLOp::Ceil,
                    _ => GLOp::RoundEven,
                };
                gl(g, 1, self)
            }
            O::FMin => gl(GLOp::NMin, 2, self),
            O::FMax => gl(GLOp::NMax, 2, self),
            O::FClamp => gl(GLOp::NClamp, 3, self),
            O::FSin => gl(GLOp::Sin, 1, self),
            O::FCos => gl(GLOp::Cos, 1, self),
            O::FPow => gl(GLOp::Pow, 2, self),
            O::FEq => simple(S::FOrdEqual, 2, self),
            O::FNe => simple(S::FUnordNotEqual, 2, self),
            O::FLt => simple(S::FOrdLessThan, 2, self),
            O::FLe => simple(S::FOrdLessThanEqual, 2, self),
            O::FGt => simple(S::FOrdGreaterThan, 2, self),
            O::FGe => simple(S::FOrdGreaterThanEqual, 2, self),
            O::FIsNan => simple(S::IsNan, 1, self),
            O::IEq => simple(S::IEqual, 2, self),
            O::INe => simple(S::INotEqual, 2, self),
            O::SLt => simple(S::SLessThan, 2, self),
            O::SLe => simple(S::SLessThanEqual, 2, self),
            O::SGt => simple(S::SGreaterThan, 2, self),
            O::SGe => simple(S::SGreaterThanEqual, 2, self),
            O::ULt => simple(S::ULessThan, 2, self),
            O::ULe => simple(S::ULessThanEqual, 2, self),
            O::UGt => simple(S::UGreaterThan, 2, self),
            O::UGe => simple(S::UGreaterThanEqual, 2, self),
            O::BAnd => simple(S::LogicalAnd, 2, self),
            O::BOr => simple(S::LogicalOr, 2, self),
            O::BEq => simple(S::LogicalEqual, 2, self),
            O::BNe => simple(S::LogicalNotEqual, 2, self),
            O::BNot => simple(S::LogicalNot, 1, self),
            O::Select
                if arg_basic(self, 0)
                    .is_some_and(|c| c.is_vector() && c.vec_size() != rb.vec_size()) =>
            {
                malformed(
                    def,
                    op,
                    "a select condition of another size than its values",
                )
            }
            O::Select => simple(S::Select, 3, self),
            O::IAnd => simple(S::BitwiseAnd, 2, self),
            O::IOr => simple(S::BitwiseOr, 2, self),
            O::IXor => simple(S::BitwiseXor, 2, self),
            O::INot => simple(S::Not, 1, self),
            O::IShl | O::SShr | O::UShr => {
                let Some(cb) = arg_basic(self, 1) else {
                    return malformed(def, op, "shift count type");
                };
                let bits = scalar_bits(rb.base()) as u64;
                let Some(ct) = self.module.basic_ty(cb) else {
                    return unsupported(def, op, "shift count type");
                };
                let m = self.module.const_splat(cb, bits - 1);
                let cnt = self.module.un(S::BitwiseAnd, ct, &[a[1], m]);
                let o = match op.opcode {
                    O::IShl => S::ShiftLeftLogical,
                    O::SShr => S::ShiftRightArithmetic,
                    _ => S::ShiftRightLogical,
                };
                self.module.emit_to(o, t, id, &[a[0], cnt]);
                Ok(())
            }
            O::IBitInsert | O::UBitExtract | O::SBitExtract if scalar_bits(rb.base()) != 32 => {
                unsupported(def, op, "bit field ops on other than 32-bit integers")
            }
            O::IBitInsert | O::UBitExtract | O::SBitExtract => {
                // D3D: offset and count are masked to 5 bits; offset + count is clamped.
                let (oi, ci) = if op.opcode == O::IBitInsert {
                    (2, 3)
                } else {
                    (1, 2)
                };
                let Some(ob) = arg_basic(self, oi) else {
                    return malformed(def, op, "offset type");
                };
                let Some(ot) = self.module.basic_ty(ob) else {
                    return unsupported(def, op, "offset type");
                };
                let bits = scalar_bits(rb.base()) as u64;
                let m = self.module.const_splat(ob, bits - 1);
                let w = self.module.const_splat(ob, bits);
                let off = self.module.un(S::BitwiseAnd, ot, &[a[oi], m]);
                let cnt = self.module.un(S::BitwiseAnd, ot, &[a[ci], m]);
                let room = self.module.un(S::ISub, ot, &[w, off]);
                let g = self.module.glsl();
                let cnt2 = self.module.id();
                let umin = GLOp::UMin as u32;
                inst(
                    self.module.body(),
                    S::ExtInst,
                    &[ot, cnt2, g, umin, cnt, room],
                );
                // SPIR-V wants the base (and inserted bits) of the result's type exactly; the
                // IR lets their signedness differ.
                let mut a = a;
                for (i, x) in a.iter_mut().enumerate().take(oi) {
                    *x = self.operand_as(op, i, *x, rb, t);
                }
                let (o, n) = match op.opcode {
                    O::IBitInsert => (S::BitFieldInsert, 4),
                    O::UBitExtract => (S::BitFieldUExtract, 3),
                    _ => (S::BitFieldSExtract, 3),
                };
                let args = |base: u32, insert: u32, off: u32, cnt: u32| -> [u32; 4] {
                    if n == 4 {
                        [base, insert, off, cnt]
                    } else {
                        [base, off, cnt, 0]
                    }
                };
                if !ob.is_vector() {
                    self.module
                        .emit_to(o, t, id, &args(a[0], a[1], off, cnt2)[..n]);
                    return Ok(());
                }
                // SPIR-V takes one offset and count for all components: per-component ones
                // (DXBC's `ubfe r0.xy, r1.xy, ...`) work one component at a time.
                let (Some(et), Some(st)) = (
                    self.module.basic_ty(BasicType::scalar(rb.base())),
                    self.module.basic_ty(BasicType::scalar(ob.base())),
                ) else {
                    return unsupported(def, op, "type");
                };
                let mut parts = SmallVec::<[u32; 4]>::new();
                for k in 0..u32::from(rb.vec_size()) {
                    let pick = |e: &mut Self, ty: u32, v: u32| {
                        e.module.un(S::CompositeExtract, ty, &[v, k])
                    };
                    let base = pick(self, et, a[0]);
                    let insert = if n == 4 { pick(self, et, a[1]) } else { 0 };
                    let (o_k, c_k) = (pick(self, st, off), pick(self, st, cnt2));
                    parts.push(self.module.un(o, et, &args(base, insert, o_k, c_k)[..n]));
                }
                self.module.emit_to(S::CompositeConstruct, t, id, &parts);
                Ok(())
            }
            O::IBitCount | O::IBitReverse | O::IFindLsb | O::SFindMsb | O::UFindMsb
                if arg_basic(self, 0).is_none_or(|b| scalar_bits(b.base()) != 32)
                    || scalar_bits(rb.base()) != 32 =>
            {
                unsupported(
                    def,
                    op,
                    "bit counting, reversal or search of other than 32-bit integers",
                )
            }
            O::IBitReverse if arg_basic(self, 0) != Some(rb) => {
                malformed(def, op, "bit reversal of another type than its result")
            }
            O::IBitCount => simple(S::BitCount, 1, self),
            O::IBitReverse => simple(S::BitReverse, 1, self),
            O::IFindLsb => gl(GLOp::FindILsb, 1, self),
            O::SFindMsb => gl(GLOp::FindSMsb, 1, self),
            O::UFindMsb => gl(GLOp::FindUMsb, 1, self),
            O::IAdd => simple(S::IAdd, 2, self),
            O::ISub => simple(S::ISub, 2, self),
            O::IMul => simple(S::IMul, 2, self),
            O::UDiv | O::UMod => {
                // SPIR-V divides unsigned integers of the result's type only: operands and
                // result of another signedness go through bit casts.
                let ub = rb.with_base(int_of_width(rb.base(), false));
                let Some(ut) = self.module.basic_ty(ub) else {
                    return unsupported(def, op, "type");
                };
                let ua = [
                    self.operand_as(op, 0, a[0], ub, ut),
                    self.operand_as(op, 1, a[1], ub, ut),
                ];
                let q = self.module.un(
                    if op.opcode == O::UDiv {
                        S::UDiv
                    } else {
                        S::UMod
                    },
                    ut,
                    &ua,
                );
                // D3D: division by zero yields all ones.
                let zero = self.module.const_splat(ub, 0);
                let ones = self.module.const_splat(ub, u64::MAX);
                let Some(bt) = self.module.basic_ty(rb.with_base(ScalarType::Bool)) else {
                    return unsupported(def, op, "bool vector");
                };
                let z = self.module.un(S::IEqual, bt, &[ua[1], zero]);
                if ut == t {
                    self.module.emit_to(S::Select, t, id, &[z, ones, q]);
                } else {
                    let r = self.module.un(S::Select, ut, &[z, ones, q]);
                    self.module.emit_to(S::Bitcast, t, id, &[r]);
                }
                Ok(())
            }
            O::IAbs => gl(GLOp::SAbs, 1, self),
            O::INeg => simple(S::SNegate, 1, self),
            O::SMin => gl(GLOp::SMin, 2, self),
            O::SMax => gl(GLOp::SMax, 2, self),
            O::SClamp => gl(GLOp::SClamp, 3, self),
            O::UMin => gl(GLOp::UMin, 2, self),
            O::UMax => gl(GLOp::UMax, 2, self),
            O::UClamp => gl(GLOp::UClamp, 3, self),
            O::IAddCarry | O::ISubBorrow | O::SMulExtended | O::UMulExtended => {
                let Some(et) = self.module.scalar_ty(rb.base()) else {
                    return unsupported(def, op, "type");
                };
                let st = self
                    .module
                    .ty_key(TyKey::Struct(smallvec::smallvec![et, et], L_NONE));
                let o = match op.opcode {
                    O::IAddCarry => S::IAddCarry,
                    O::ISubBorrow => S::ISubBorrow,
                    O::SMulExtended => S::SMulExtended,
                    _ => S::UMulExtended,
                };
                // The operands have the members' exact type.
                let eb = BasicType::scalar(rb.base());
                let x = [
                    self.operand_as(op, 0, a[0], eb, et),
                    self.operand_as(op, 1, a[1], eb, et),
                ];
                let r = self.module.un(o, st, &x);
                let lo = self.module.un(S::CompositeExtract, et, &[r, 0]);
                let hi = self.module.un(S::CompositeExtract, et, &[r, 1]);
                self.module.emit_to(S::CompositeConstruct, t, id, &[lo, hi]);
                Ok(())
            }
            // The same width in another signedness is the same bits.
            O::ConvertItoI
                if arg_basic(self, 0)
                    .is_some_and(|b| scalar_bits(b.base()) == scalar_bits(rb.base())) =>
            {
                simple(S::Bitcast, 1, self)
            }
            O::ConvertFtoF => simple(S::FConvert, 1, self),
            O::ConvertFtoI => {
                let Some(sb) = arg_basic(self, 0) else {
                    return malformed(def, op, "source type");
                };
                let signed = rb.base().is_signed_int();
                let o = if signed {
                    S::ConvertFToS
                } else {
                    S::ConvertFToU
                };
                if sb.base() == ScalarType::F32 && scalar_bits(rb.base()) == 32 {
                    // D3D: saturate to the integer range, NaN -> 0.
                    let (lo, hi) = if signed {
                        ((-2147483648.0f32).to_bits(), 2147483520.0f32.to_bits())
                    } else {
                        (0.0f32.to_bits(), 4294967040.0f32.to_bits())
                    };
                    let Some(ft) = self.module.basic_ty(sb) else {
                        return unsupported(def, op, "type");
                    };
                    let lo = self.module.const_splat(sb, lo as u64);
                    let hi = self.module.const_splat(sb, hi as u64);
                    let cl = self.module.id();
                    self.module.ext_to(GLOp::NClamp, ft, cl, &[a[0], lo, hi]);
                    let Some(bt) = self.module.basic_ty(rb.with_base(ScalarType::Bool)) else {
                        return unsupported(def, op, "bool vector");
                    };
                    let mut c = self.module.un(o, t, &[cl]);
                    if signed {
                        let nan = self.module.un(S::IsNan, bt, &[a[0]]);
                        let zero = self.module.const_splat(rb, 0);
                        c = self.module.un(S::Select, t, &[nan, zero, c]);
                    }
                    // The clamp bound is the largest float below 2^31 (2^32); inputs at or
                    // above 2^31 (2^32), +inf included, saturate to the integer maximum.
                    let (limit, max) = if signed {
                        (2147483648.0f32.to_bits(), i32::MAX as u32)
                    } else {
                        (4294967296.0f32.to_bits(), u32::MAX)
                    };
                    let limit = self.module.const_splat(sb, limit as u64);
                    let max = self.module.const_splat(rb, max as u64);
                    let big = self.module.un(S::FOrdGreaterThanEqual, bt, &[a[0], limit]);
                    self.module.emit_to(S::Select, t, id, &[big, max, c]);
                    Ok(())
                } else {
                    simple(o, 1, self)
                }
            }
            O::ConvertItoF => {
                let signed = arg_basic(self, 0).is_some_and(|b| b.base().is_signed_int());
                simple(
                    if signed {
                        S::ConvertSToF
                    } else {
                        S::ConvertUToF
                    },
                    1,
                    self,
                )
            }
            O::ConvertItoI => {
                let Some(sb) = arg_basic(self, 0) else {
                    return malformed(def, op, "source type");
                };
                let widen = scalar_bits(rb.base()) > scalar_bits(sb.base());
                if widen && sb.base().is_signed_int() {
                    let Some(st) = self
                        .module
                        .basic_ty(rb.with_base(int_of_width(rb.base(), true)))
                    else {
                        return unsupported(def, op, "type");
                    };
                    if st == t {
                        return simple(S::SConvert, 1, self);
                    }
                    let c = self.module.un(S::SConvert, st, &[a[0]]);
                    self.module.emit_to(S::Bitcast, t, id, &[c]);
                    Ok(())
                } else {
                    let Some(ut) = self
                        .module
                        .basic_ty(rb.with_base(int_of_width(rb.base(), false)))
                    else {
                        return unsupported(def, op, "type");
                    };
                    if ut == t {
                        return simple(S::UConvert, 1, self);
                    }
                    let c = self.module.un(S::UConvert, ut, &[a[0]]);
                    self.module.emit_to(S::Bitcast, t, id, &[c]);
                    Ok(())
                }
            }
            O::ConvertF32toPackedF16 => gl(GLOp::PackHalf2x16, 1, self),
            O::ConvertPackedF16toF32 => gl(GLOp::UnpackHalf2x16, 1, self),
            O::Cast => simple(S::Bitcast, 1, self),
            O::CompositeConstruct => {
                let f = &mut self.module.sections.functions;
                let start = begin(f, S::CompositeConstruct);
                f.extend_from_slice(&[t, id]);
                for r in op.refs().flatten() {
                    f.push(self.slots.get(r.index()).map_or(r.id(), |s| s.id));
                }
                end(f, start);
                Ok(())
            }
            O::CompositeExtract | O::CompositeInsert => {
                let insert = op.opcode == O::CompositeInsert;
                let addr = self.arg(def, op, 1)?;
                let Some(aop) = self.op_of(addr) else {
                    return malformed(def, op, "address missing");
                };
                if aop.opcode == O::Constant {
                    let o = if insert {
                        S::CompositeInsert
                    } else {
                        S::CompositeExtract
                    };
                    let f = &mut self.module.sections.functions;
                    let start = begin(f, o);
                    f.extend_from_slice(&[t, id]);
                    if insert {
                        f.push(a[2]);
                    }
                    f.push(a[0]);
                    f.extend(aop.literals().iter().map(|l| l.0 as u32));
                    end(f, start);
                    Ok(())
                } else if aop.ty.is_scalar() {
                    // A run-time index selects a component of a vector, nothing else.
                    let comp = op.arg(0).and_then(|c| self.op_of(c)).map(|c| c.ty);
                    let fits = comp.is_some_and(|c| {
                        c.is_vector()
                            && if insert {
                                c == op.ty
                            } else {
                                op.ty.is_scalar() && op.ty.base_type() == c.base_type()
                            }
                    });
                    if !fits {
                        let c = comp.map_or_else(|| "nothing".to_string(), |c| c.to_string());
                        return unsupported(def, op, format!("run-time index into {c}"));
                    }
                    if insert {
                        self.module
                            .emit_to(S::VectorInsertDynamic, t, id, &[a[0], a[2], a[1]]);
                    } else {
                        self.module
                            .emit_to(S::VectorExtractDynamic, t, id, &[a[0], a[1]]);
                    }
                    Ok(())
                } else {
                    unsupported(def, op, "dynamic multi-level composite address")
                }
            }
            O::UMsad => {
                // msad4 per component: for each byte i of the *reference* that is non-zero,
                // add |ref.byte[i] - src.byte[i]| to `accum` (a zero reference byte masks the
                // difference out, per the HLSL msad4 documentation).
                let zero = self.module.const_splat(rb, 0);
                let Some(bt) = self.module.basic_ty(rb.with_base(ScalarType::Bool)) else {
                    return unsupported(def, op, "bool vector");
                };
                let eight = self.module.const_u32(8);
                // Bit-field extracts take a base of the result's exact type.
                let (reference, source) = (
                    self.operand_as(op, 0, a[0], rb, t),
                    self.operand_as(op, 1, a[1], rb, t),
                );
                let mut acc = a[2];
                for i in 0..4u32 {
                    let off = self.module.const_u32(8 * i);
                    let r = self
                        .module
                        .un(S::BitFieldUExtract, t, &[reference, off, eight]);
                    let s = self
                        .module
                        .un(S::BitFieldUExtract, t, &[source, off, eight]);
                    let mx = self.module.id();
                    self.module.ext_to(GLOp::UMax, t, mx, &[r, s]);
                    let mn = self.module.id();
                    self.module.ext_to(GLOp::UMin, t, mn, &[r, s]);
                    let d = self.module.un(S::ISub, t, &[mx, mn]);
                    let nz = self.module.un(S::INotEqual, bt, &[r, zero]);
                    let sel = self.module.un(S::Select, t, &[nz, d, zero]);
                    if i == 3 {
                        self.module.emit_to(S::IAdd, t, id, &[acc, sel]);
                    } else {
                        acc = self.module.un(S::IAdd, t, &[acc, sel]);
                    }
                }
                Ok(())
            }
            _ => unsupported(def, op, "opcode"),
        }
    }
}
