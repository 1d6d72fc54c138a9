//! Arithmetic DXIL operations: unary and binary float and integer math, multiply-add, bit
//! fields, dot products, derivatives, double packing, bit casts, the legacy half and double
//! conversions and the packed 8-bit operations of SM 6.4 and 6.6.
//!
//! Where the IR has no operation the converter composes one: `IsInf`/`IsFinite`/`IsNormal`
//! from `FAbs` and compares, `Tan` from sine and cosine, the inverse and hyperbolic
//! trigonometric functions from `FExp2`, `FSqrt` and a minimax arctangent polynomial
//! (absolute error below 1e-5 radians, within what Direct3D allows for these), `FirstbitHi`
//! (counted from the top, as DXIL counts) from `UFindMsb`, 64-bit bit counts from their
//! halves, and the packed 8-bit dot products, packs and unpacks from bit-field extracts.
//! The `f32`-only IR operations (`FExp2`, `FLog2`, `FSin`, `FCos`) convert 16-bit operands.

use dxspv_ir::frontend::FrontendBuilder;
use dxspv_ir::{DerivativeMode, Op, OpCode, OpFlags, RoundMode, ScalarType, SsaDef, Type};

use super::dx_op::code as C;
use super::llvm::signed;
use super::values::Val;
use super::{Args, Converter, R};
use crate::module::Instruction;

impl<'s> Converter<'s> {
    /// Arithmetic operations.
    pub(crate) fn arith_op(&mut self, code: u32, args: &Args, inst: &'s Instruction) -> R<()> {
        let precise = match inst.result() {
            Some(_) if self.precise_index(inst) => OpFlags::PRECISE,
            _ => OpFlags::empty(),
        };
        let v = match code {
            C::FABS..=C::ROUND_Z => {
                let x = self.arg_def(args, 1)?;
                self.unary_float(code, x, precise)?
            }
            C::BFREV..=C::FIRSTBIT_SHI => {
                let x = self.arg_def(args, 1)?;
                self.unary_bits(code, x)?
            }
            C::FMAX..=C::UMIN => {
                let a = self.arg_def(args, 1)?;
                let b = self.arg_def(args, 2)?;
                let ty = self.b.op(a).ty;
                let opc = match code {
                    C::FMAX => OpCode::FMax,
                    C::FMIN => OpCode::FMin,
                    C::IMAX => OpCode::SMax,
                    C::IMIN => OpCode::SMin,
                    C::UMAX => OpCode::UMax,
                    _ => OpCode::UMin,
                };
                self.code(
                    Op::new(opc, ty)
                        .with_ref(a)
                        .with_ref(b)
                        .with_flags(float_flags(opc, precise)),
                )
            }
            C::IMUL | C::UMUL | C::UDIV | C::UADDC | C::USUBB => {
                let a = self.arg_def(args, 1)?;
                let b = self.arg_def(args, 2)?;
                let u = ScalarType::U32;
                let parts = match code {
                    C::IMUL | C::UMUL => {
                        let (opc, t) = if code == C::IMUL {
                            (OpCode::SMulExtended, ScalarType::I32)
                        } else {
                            (OpCode::UMulExtended, ScalarType::U32)
                        };
                        let (a, b) = if code == C::IMUL {
                            (self.op1(OpCode::Cast, t, a), self.op1(OpCode::Cast, t, b))
                        } else {
                            (a, b)
                        };
                        let r = self.op2(opc, Type::vector(t, 2), a, b);
                        let lo = self.extract(t, r, 0);
                        let hi = self.extract(t, r, 1);
                        let lo = self.convert_scalar(lo, t, u);
                        let hi = self.convert_scalar(hi, t, u);
                        // DXBC's order: high word first.
                        [hi, lo]
                    }
                    C::UDIV => [
                        self.op2(OpCode::UDiv, u, a, b),
                        self.op2(OpCode::UMod, u, a, b),
                    ],
                    _ => {
                        let opc = if code == C::UADDC {
                            OpCode::IAddCarry
                        } else {
                            OpCode::ISubBorrow
                        };
                        let r = self.op2(opc, Type::vector(u, 2), a, b);
                        let lo = self.extract(u, r, 0);
                        let c = self.extract(u, r, 1);
                        let zero = self.c_u32(0);
                        [lo, self.op2(OpCode::INe, ScalarType::Bool, c, zero)]
                    }
                };
                let v = self.parts(&parts);
                return self.set(inst.result(), v);
            }
            C::FMAD | C::FMA => {
                let a = self.arg_def(args, 1)?;
                let b = self.arg_def(args, 2)?;
                let c = self.arg_def(args, 3)?;
                let ty = self.b.op(a).ty;
                let fl = if code == C::FMA {
                    OpFlags::empty()
                } else {
                    precise
                };
                self.code(
                    Op::new(OpCode::FMad, ty)
                        .with_ref(a)
                        .with_ref(b)
                        .with_ref(c)
                        .with_flags(fl),
                )
            }
            C::IMAD | C::UMAD => {
                let a = self.arg_def(args, 1)?;
                let b = self.arg_def(args, 2)?;
                let c = self.arg_def(args, 3)?;
                let ty = self.b.op(a).ty;
                let m = self.op2(OpCode::IMul, ty, a, b);
                self.op2(OpCode::IAdd, ty, m, c)
            }
            C::MSAD => {
                let a = self.arg_def(args, 1)?;
                let b = self.arg_def(args, 2)?;
                let c = self.arg_def(args, 3)?;
                self.op3(OpCode::UMsad, ScalarType::U32, a, b, c)
            }
            C::IBFE | C::UBFE => {
                let width = self.arg_def(args, 1)?;
                let offset = self.arg_def(args, 2)?;
                let value = self.arg_def(args, 3)?;
                let ty = self.b.op(value).ty;
                if ty.base_type().and_then(ScalarType::bit_size) != Some(32) {
                    return Err(
                        self.unsupported("bit-field extraction of other than 32-bit integers")
                    );
                }
                let opc = if code == C::IBFE {
                    OpCode::SBitExtract
                } else {
                    OpCode::UBitExtract
                };
                self.op3(opc, ty, value, offset, width)
            }
            C::BFI => {
                let width = self.arg_def(args, 1)?;
                let offset = self.arg_def(args, 2)?;
                let value = self.arg_def(args, 3)?;
                let base = self.arg_def(args, 4)?;
                let ty = self.b.op(base).ty;
                self.code(
                    Op::new(OpCode::IBitInsert, ty)
                        .with_ref(base)
                        .with_ref(value)
                        .with_ref(offset)
                        .with_ref(width),
                )
            }
            C::DOT2 | C::DOT3 | C::DOT4 => {
                let n = (code - C::DOT2 + 2) as usize;
                let mut a = smallvec::SmallVec::<[SsaDef; 4]>::new();
                let mut b = smallvec::SmallVec::<[SsaDef; 4]>::new();
                for i in 0..n {
                    a.push(self.arg_def(args, 1 + i)?);
                    b.push(self.arg_def(args, 1 + n + i)?);
                }
                let s = self.b.op(a[0]).ty.base_type().unwrap_or(ScalarType::F32);
                let va = self.vector(s, &a);
                let vb = self.vector(s, &b);
                self.code(
                    Op::new(OpCode::FDot, s)
                        .with_ref(va)
                        .with_ref(vb)
                        .with_flags(precise),
                )
            }
            C::DERIV_COARSE_X..=C::DERIV_FINE_Y => {
                let x = self.arg_def(args, 1)?;
                let ty = self.b.op(x).ty;
                let (opc, mode) = match code {
                    C::DERIV_COARSE_X => (OpCode::DerivX, DerivativeMode::Coarse),
                    C::DERIV_COARSE_Y => (OpCode::DerivY, DerivativeMode::Coarse),
                    C::DERIV_FINE_X => (OpCode::DerivX, DerivativeMode::Fine),
                    _ => (OpCode::DerivY, DerivativeMode::Fine),
                };
                self.code(Op::new(opc, ty).with_ref(x).with_lit(mode.to_literal()))
            }
            C::MAKE_DOUBLE => {
                let lo = self.arg_def(args, 1)?;
                let hi = self.arg_def(args, 2)?;
                let v = self.vector(ScalarType::U32, &[lo, hi]);
                self.op1(OpCode::Cast, ScalarType::F64, v)
            }
            C::SPLIT_DOUBLE => {
                let d = self.arg_def(args, 1)?;
                let v = self.op1(OpCode::Cast, Type::vector(ScalarType::U32, 2), d);
                let lo = self.extract(ScalarType::U32, v, 0);
                let hi = self.extract(ScalarType::U32, v, 1);
                let p = self.parts(&[lo, hi]);
                return self.set(inst.result(), p);
            }
            C::BITCAST_I16_TO_F16..=C::BITCAST_F64_TO_I64 => {
                let x = self.arg_def(args, 1)?;
                let to = self.scalar_of(inst.ty)?;
                let from = self.b.op(x).ty.base_type().unwrap_or(to);
                if from.bit_size() != to.bit_size() {
                    return Err(self.invalid("bit cast between types of different widths"));
                }
                if from == to {
                    x
                } else {
                    self.op1(OpCode::Cast, to, x)
                }
            }
            C::LEGACY_F32_TO_F16 => {
                let x = self.arg_def(args, 1)?;
                self.f32_to_f16_toward_zero(x)
            }
            C::LEGACY_F16_TO_F32 => {
                let x = self.arg_def(args, 1)?;
                let v = self.op1(
                    OpCode::ConvertPackedF16toF32,
                    Type::vector(ScalarType::F32, 2),
                    x,
                );
                self.extract(ScalarType::F32, v, 0)
            }
            C::LEGACY_DOUBLE_TO_FLOAT => {
                let x = self.arg_def(args, 1)?;
                self.op1(OpCode::ConvertFtoF, ScalarType::F32, x)
            }
            C::LEGACY_DOUBLE_TO_SINT32 => {
                let x = self.arg_def(args, 1)?;
                let v = self.op1(OpCode::ConvertFtoI, ScalarType::I32, x);
                self.op1(OpCode::Cast, ScalarType::U32, v)
            }
            C::LEGACY_DOUBLE_TO_UINT32 => {
                let x = self.arg_def(args, 1)?;
                self.op1(OpCode::ConvertFtoI, ScalarType::U32, x)
            }
            C::DOT2_ADD_HALF => {
                let acc = self.arg_def(args, 1)?;
                let mut f = [acc; 4];
                for (k, x) in f.iter_mut().enumerate() {
                    let h = self.arg_def(args, 2 + k)?;
                    let s = self.b.op(h).ty.base_type().unwrap_or(ScalarType::F16);
                    *x = self.convert_scalar(h, s, ScalarType::F32);
                }
                let m0 = self.code(
                    Op::new(OpCode::FMad, ScalarType::F32)
                        .with_ref(f[0])
                        .with_ref(f[2])
                        .with_ref(acc)
                        .with_flags(precise),
                );
                self.code(
                    Op::new(OpCode::FMad, ScalarType::F32)
                        .with_ref(f[1])
                        .with_ref(f[3])
                        .with_ref(m0)
                        .with_flags(precise),
                )
            }
            C::DOT4_ADD_I8_PACKED | C::DOT4_ADD_U8_PACKED => {
                let acc = self.arg_def(args, 1)?;
                let a = self.arg_def(args, 2)?;
                let b = self.arg_def(args, 3)?;
                let signed_bytes = code == C::DOT4_ADD_I8_PACKED;
                let mut sum = acc;
                for k in 0..4 {
                    let x = self.byte(a, k, signed_bytes);
                    let y = self.byte(b, k, signed_bytes);
                    let p = self.op2(OpCode::IMul, ScalarType::U32, x, y);
                    sum = self.op2(OpCode::IAdd, ScalarType::U32, sum, p);
                }
                sum
            }
            C::UNPACK_4X8 => {
                let mode = self.arg_const(args, 1, "unpack mode")?;
                let p = self.arg_def(args, 2)?;
                let elem = self.overload(inst)?;
                let mut parts = [p; 4];
                for (k, part) in parts.iter_mut().enumerate() {
                    let b = self.byte(p, k as u32, mode != 0);
                    *part = if elem == ScalarType::U32 {
                        b
                    } else {
                        self.op1(OpCode::ConvertItoI, elem, b)
                    };
                }
                let v = self.parts(&parts);
                return self.set(inst.result(), v);
            }
            C::PACK_4X8 => {
                let mode = self.arg_const(args, 1, "pack mode")?;
                let mut out = self.c_u32(0);
                for k in 0..4u32 {
                    let x = self.arg_def(args, 2 + k as usize)?;
                    let s = self.b.op(x).ty.base_type().unwrap_or(ScalarType::U32);
                    // Widen as signed: the clamping modes read signed values.
                    let sx = self.op1(OpCode::Cast, signed(s), x);
                    let w = self.op1(OpCode::ConvertItoI, ScalarType::I32, sx);
                    let w = match mode {
                        1 => {
                            let lo = self.c_i32(0);
                            let hi = self.c_i32(255);
                            self.op3(OpCode::SClamp, ScalarType::I32, w, lo, hi)
                        }
                        2 => {
                            let lo = self.c_i32(-128);
                            let hi = self.c_i32(127);
                            self.op3(OpCode::SClamp, ScalarType::I32, w, lo, hi)
                        }
                        _ => w,
                    };
                    let w = self.op1(OpCode::Cast, ScalarType::U32, w);
                    let ff = self.c_u32(0xff);
                    let b = self.op2(OpCode::IAnd, ScalarType::U32, w, ff);
                    let sh = self.c_u32(8 * k);
                    let b = self.op2(OpCode::IShl, ScalarType::U32, b, sh);
                    out = self.op2(OpCode::IOr, ScalarType::U32, out, b);
                }
                out
            }
            _ => return Err(self.invalid("not an arithmetic operation")),
        };
        self.set(inst.result(), Val::Def(v))
    }

    /// `f32tof16`: the half bits of `x` (`f32`) rounded toward zero, as Direct3D converts:
    /// finite values too large for a half give the largest half of their sign, values too
    /// small zero; infinities and NaNs stay what they are. Built from integer operations
    /// (SPIR-V's `PackHalf2x16` leaves the rounding to the implementation).
    fn f32_to_f16_toward_zero(&mut self, x: SsaDef) -> SsaDef {
        let u = ScalarType::U32;
        let bits = self.op1(OpCode::Cast, u, x);
        let k = |me: &mut Self, v: u32| me.c_u32(v);
        let s16 = k(self, 16);
        let sign = self.op2(OpCode::UShr, u, bits, s16);
        let m8000 = k(self, 0x8000);
        let sign = self.op2(OpCode::IAnd, u, sign, m8000);
        let c23 = k(self, 23);
        let c8 = k(self, 8);
        let exp = self.op3(OpCode::UBitExtract, u, bits, c23, c8);
        let mmask = k(self, 0x7f_ffff);
        let man = self.op2(OpCode::IAnd, u, bits, mmask);
        // Normal halves: exponent rebased by 112, the mantissa's top ten bits.
        let c13 = k(self, 13);
        let man10 = self.op2(OpCode::UShr, u, man, c13);
        let c112 = k(self, 112);
        let e16 = self.op2(OpCode::ISub, u, exp, c112);
        let c10 = k(self, 10);
        let e_hi = self.op2(OpCode::IShl, u, e16, c10);
        let normal = self.op2(OpCode::IOr, u, e_hi, man10);
        // Subnormal halves: the mantissa with its hidden bit, shifted right by 126 - exp.
        let hidden = k(self, 0x80_0000);
        let full = self.op2(OpCode::IOr, u, man, hidden);
        let c126 = k(self, 126);
        let sh = self.op2(OpCode::ISub, u, c126, exp);
        let c31 = k(self, 31);
        let sh = self.op2(OpCode::UMin, u, sh, c31);
        let sub = self.op2(OpCode::UShr, u, full, sh);
        let c113 = k(self, 113);
        let is_sub = self.op2(OpCode::ULt, ScalarType::Bool, exp, c113);
        let finite = self.op3(OpCode::Select, u, is_sub, sub, normal);
        // Too large: the largest half; infinity and NaN kept (a NaN keeps a payload bit).
        let c143 = k(self, 143);
        let too_big = self.op2(OpCode::UGe, ScalarType::Bool, exp, c143);
        let max = k(self, 0x7bff);
        let finite = self.op3(OpCode::Select, u, too_big, max, finite);
        let c255 = k(self, 255);
        let special = self.op2(OpCode::IEq, ScalarType::Bool, exp, c255);
        let zero = k(self, 0);
        let is_nan = self.op2(OpCode::INe, ScalarType::Bool, man, zero);
        let nan = k(self, 0x7e00);
        let inf = k(self, 0x7c00);
        let sp = self.op3(OpCode::Select, u, is_nan, nan, inf);
        let mag = self.op3(OpCode::Select, u, special, sp, finite);
        self.op2(OpCode::IOr, u, sign, mag)
    }

    /// Whether the current call carries `!dx.precise`.
    fn precise_index(&self, _inst: &Instruction) -> bool {
        self.at.instruction.is_some_and(|i| self.is_precise_call(i))
    }

    /// Byte `k` of a `u32`, zero- or sign-extended to 32 bits.
    fn byte(&mut self, v: SsaDef, k: u32, sign: bool) -> SsaDef {
        let off = self.c_u32(8 * k);
        let eight = self.c_u32(8);
        let opc = if sign {
            OpCode::SBitExtract
        } else {
            OpCode::UBitExtract
        };
        self.op3(opc, ScalarType::U32, v, off, eight)
    }

    /// Unary float operations (6 to 29).
    fn unary_float(&mut self, code: u32, x: SsaDef, precise: OpFlags) -> R<SsaDef> {
        let ty = self.b.op(x).ty;
        let s = ty
            .base_type()
            .filter(|s| s.is_float())
            .ok_or_else(|| self.invalid("float operation on a value that is not a float"))?;
        let f1 = |me: &mut Self, opc: OpCode, v: SsaDef| {
            me.code(Op::new(opc, ty).with_ref(v).with_flags(precise))
        };
        Ok(match code {
            C::FABS => f1(self, OpCode::FAbs, x),
            C::SATURATE => {
                let zero = self.float_const(s, 0.0);
                let one = self.float_const(s, 1.0);
                let m = self.code(
                    Op::new(OpCode::FMax, ty)
                        .with_ref(x)
                        .with_ref(zero)
                        .with_flags(precise),
                );
                self.code(
                    Op::new(OpCode::FMin, ty)
                        .with_ref(m)
                        .with_ref(one)
                        .with_flags(precise),
                )
            }
            C::IS_NAN => self.op1(OpCode::FIsNan, ScalarType::Bool, x),
            C::IS_INF | C::IS_FINITE | C::IS_NORMAL => {
                let a = self.op1(OpCode::FAbs, ty, x);
                let inf = self.float_const(s, f64::INFINITY);
                match code {
                    C::IS_INF => self.op2(OpCode::FEq, ScalarType::Bool, a, inf),
                    C::IS_FINITE => self.op2(OpCode::FLt, ScalarType::Bool, a, inf),
                    _ => {
                        let min = match s {
                            ScalarType::F16 => 2f64.powi(-14),
                            ScalarType::F64 => f64::MIN_POSITIVE,
                            _ => f64::from(f32::MIN_POSITIVE),
                        };
                        let min = self.float_const(s, min);
                        let ge = self.op2(OpCode::FGe, ScalarType::Bool, a, min);
                        let lt = self.op2(OpCode::FLt, ScalarType::Bool, a, inf);
                        self.op2(OpCode::BAnd, ScalarType::Bool, ge, lt)
                    }
                }
            }
            C::COS
            | C::SIN
            | C::TAN
            | C::ACOS
            | C::ASIN
            | C::ATAN
            | C::HCOS
            | C::HSIN
            | C::HTAN
            | C::EXP
            | C::LOG => {
                let wide = self.convert_scalar(x, s, ScalarType::F32);
                let r = self.transcendental(code, wide, precise)?;
                self.convert_scalar(r, ScalarType::F32, s)
            }
            C::FRC => f1(self, OpCode::FFract, x),
            C::SQRT => f1(self, OpCode::FSqrt, x),
            C::RSQRT => f1(self, OpCode::FRsq, x),
            C::ROUND_NE | C::ROUND_NI | C::ROUND_PI | C::ROUND_Z => {
                let mode = match code {
                    C::ROUND_NE => RoundMode::NearestEven,
                    C::ROUND_NI => RoundMode::NegativeInf,
                    C::ROUND_PI => RoundMode::PositiveInf,
                    _ => RoundMode::Zero,
                };
                self.code(
                    Op::new(OpCode::FRound, ty)
                        .with_ref(x)
                        .with_lit(mode.to_literal())
                        .with_flags(precise),
                )
            }
            _ => return Err(self.invalid("not a unary float operation")),
        })
    }

    /// `f32` transcendental functions.
    fn transcendental(&mut self, code: u32, x: SsaDef, fl: OpFlags) -> R<SsaDef> {
        let f = ScalarType::F32;
        let op1 = |me: &mut Self, opc: OpCode, a: SsaDef| {
            me.code(Op::new(opc, f).with_ref(a).with_flags(fl))
        };
        let op2 = |me: &mut Self, opc: OpCode, a: SsaDef, b: SsaDef| {
            me.code(Op::new(opc, f).with_ref(a).with_ref(b).with_flags(fl))
        };
        Ok(match code {
            C::COS => op1(self, OpCode::FCos, x),
            C::SIN => op1(self, OpCode::FSin, x),
            C::TAN => {
                let s = op1(self, OpCode::FSin, x);
                let c = op1(self, OpCode::FCos, x);
                op2(self, OpCode::FDiv, s, c)
            }
            C::EXP => op1(self, OpCode::FExp2, x),
            C::LOG => op1(self, OpCode::FLog2, x),
            C::ATAN => self.atan(x, fl),
            C::ASIN | C::ACOS => {
                // asin(x) = atan(x / sqrt(1 - x^2)); acos(x) = pi/2 - asin(x).
                let one = self.c_f32(1.0);
                let xx = op2(self, OpCode::FMul, x, x);
                let d = op2(self, OpCode::FSub, one, xx);
                let r = op1(self, OpCode::FSqrt, d);
                let q = op2(self, OpCode::FDiv, x, r);
                let a = self.atan(q, fl);
                if code == C::ASIN {
                    a
                } else {
                    let half_pi = self.c_f32(std::f32::consts::FRAC_PI_2);
                    op2(self, OpCode::FSub, half_pi, a)
                }
            }
            C::HCOS | C::HSIN => {
                let log2e = self.c_f32(std::f32::consts::LOG2_E);
                let t = op2(self, OpCode::FMul, x, log2e);
                let e = op1(self, OpCode::FExp2, t);
                let nt = op1(self, OpCode::FNeg, t);
                let ne = op1(self, OpCode::FExp2, nt);
                let s = if code == C::HCOS {
                    op2(self, OpCode::FAdd, e, ne)
                } else {
                    op2(self, OpCode::FSub, e, ne)
                };
                let half = self.c_f32(0.5);
                op2(self, OpCode::FMul, s, half)
            }
            C::HTAN => {
                // tanh(x) = 1 - 2 / (e^2x + 1): saturates to +-1 without overflow trouble.
                let k = self.c_f32(2.0 * std::f32::consts::LOG2_E);
                let t = op2(self, OpCode::FMul, x, k);
                let e = op1(self, OpCode::FExp2, t);
                let one = self.c_f32(1.0);
                let two = self.c_f32(2.0);
                let d = op2(self, OpCode::FAdd, e, one);
                let q = op2(self, OpCode::FDiv, two, d);
                op2(self, OpCode::FSub, one, q)
            }
            _ => return Err(self.invalid("not a transcendental operation")),
        })
    }

    /// Arctangent: a minimax polynomial on [-1, 1], `pi/2 - atan(1/x)` outside.
    fn atan(&mut self, x: SsaDef, fl: OpFlags) -> SsaDef {
        let f = ScalarType::F32;
        let op1 = |me: &mut Self, opc: OpCode, a: SsaDef| {
            me.code(Op::new(opc, f).with_ref(a).with_flags(fl))
        };
        let op2 = |me: &mut Self, opc: OpCode, a: SsaDef, b: SsaDef| {
            me.code(Op::new(opc, f).with_ref(a).with_ref(b).with_flags(fl))
        };
        let one = self.c_f32(1.0);
        let ax = op1(self, OpCode::FAbs, x);
        let big = self.op2(OpCode::FGt, ScalarType::Bool, ax, one);
        let inv = op2(self, OpCode::FDiv, one, ax);
        let t = self.op3(OpCode::Select, f, big, inv, ax);
        let t2 = op2(self, OpCode::FMul, t, t);
        const COEFFS: [f32; 6] = [
            -0.011_721_2,
            0.052_653_32,
            -0.116_432_87,
            0.193_543_46,
            -0.332_623_47,
            0.999_977_26,
        ];
        let mut p = self.c_f32(COEFFS[0]);
        for &c in &COEFFS[1..] {
            let cc = self.c_f32(c);
            p = self.code(
                Op::new(OpCode::FMad, f)
                    .with_ref(p)
                    .with_ref(t2)
                    .with_ref(cc)
                    .with_flags(fl),
            );
        }
        let r = op2(self, OpCode::FMul, p, t);
        let half_pi = self.c_f32(std::f32::consts::FRAC_PI_2);
        let rr = op2(self, OpCode::FSub, half_pi, r);
        let r = self.op3(OpCode::Select, f, big, rr, r);
        // Restore the sign.
        let zero = self.c_f32(0.0);
        let neg = self.op2(OpCode::FLt, ScalarType::Bool, x, zero);
        let nr = op1(self, OpCode::FNeg, r);
        self.op3(OpCode::Select, f, neg, nr, r)
    }

    /// Integer bit operations (30 to 34).
    fn unary_bits(&mut self, code: u32, x: SsaDef) -> R<SsaDef> {
        let s = self
            .b
            .op(x)
            .ty
            .base_type()
            .filter(|s| s.is_int())
            .ok_or_else(|| self.invalid("bit operation on a value that is not an integer"))?;
        let bits = s.bit_size().unwrap_or(32);
        let u = ScalarType::U32;
        if bits == 64 {
            let v = self.op1(OpCode::Cast, Type::vector(u, 2), x);
            let lo = self.extract(u, v, 0);
            let hi = self.extract(u, v, 1);
            return Ok(match code {
                C::BFREV => {
                    let rl = self.op1(OpCode::IBitReverse, u, lo);
                    let rh = self.op1(OpCode::IBitReverse, u, hi);
                    let w = self.vector(u, &[rh, rl]);
                    self.op1(OpCode::Cast, s, w)
                }
                C::COUNTBITS => {
                    let a = self.op1(OpCode::IBitCount, u, lo);
                    let b = self.op1(OpCode::IBitCount, u, hi);
                    self.op2(OpCode::IAdd, u, a, b)
                }
                C::FIRSTBIT_LO => {
                    let zero = self.c_u32(0);
                    let l = self.op1(OpCode::IFindLsb, u, lo);
                    let h = self.op1(OpCode::IFindLsb, u, hi);
                    let h32 = self.add_u32(h, 32);
                    let hz = self.op2(OpCode::IEq, ScalarType::Bool, hi, zero);
                    let none = self.c_u32(u32::MAX);
                    let h32 = self.op3(OpCode::Select, u, hz, none, h32);
                    let lz = self.op2(OpCode::IEq, ScalarType::Bool, lo, zero);
                    self.op3(OpCode::Select, u, lz, h32, l)
                }
                _ => {
                    // Signed: search x ^ (x >> 63) for its highest set bit.
                    let (lo, hi) = if code == C::FIRSTBIT_SHI {
                        let shi = self.op1(OpCode::Cast, ScalarType::I32, hi);
                        let k = self.c_u32(31);
                        let sign = self.op2(OpCode::SShr, ScalarType::I32, shi, k);
                        let sign = self.op1(OpCode::Cast, u, sign);
                        (
                            self.op2(OpCode::IXor, u, lo, sign),
                            self.op2(OpCode::IXor, u, hi, sign),
                        )
                    } else {
                        (lo, hi)
                    };
                    let zero = self.c_u32(0);
                    let ml = self.op1(OpCode::UFindMsb, u, lo);
                    let mh = self.op1(OpCode::UFindMsb, u, hi);
                    let mh = self.add_u32(mh, 32);
                    let hz = self.op2(OpCode::IEq, ScalarType::Bool, hi, zero);
                    let msb = self.op3(OpCode::Select, u, hz, ml, mh);
                    self.counted_from_top(msb, 63)
                }
            });
        }
        // 16-bit values work on their zero- (or for the signed search, sign-) extension.
        let w = if bits < 32 {
            if code == C::FIRSTBIT_SHI {
                let sx = self.op1(OpCode::Cast, signed(s), x);
                let w = self.op1(OpCode::ConvertItoI, ScalarType::I32, sx);
                self.op1(OpCode::Cast, u, w)
            } else {
                self.op1(OpCode::ConvertItoI, u, x)
            }
        } else {
            x
        };
        Ok(match code {
            C::BFREV => {
                let r = self.op1(OpCode::IBitReverse, u, w);
                if bits < 32 {
                    let k = self.c_u32(32 - bits);
                    let r = self.op2(OpCode::UShr, u, r, k);
                    self.op1(OpCode::ConvertItoI, s, r)
                } else {
                    r
                }
            }
            C::COUNTBITS => self.op1(OpCode::IBitCount, u, w),
            C::FIRSTBIT_LO => self.op1(OpCode::IFindLsb, u, w),
            C::FIRSTBIT_HI => {
                let m = self.op1(OpCode::UFindMsb, u, w);
                self.counted_from_top(m, bits - 1)
            }
            _ => {
                let m = self.op1(OpCode::SFindMsb, u, w);
                self.counted_from_top(m, bits - 1)
            }
        })
    }

    /// A bit index counted from the top (`top - msb`), all ones kept for "none".
    fn counted_from_top(&mut self, msb: SsaDef, top: u32) -> SsaDef {
        let u = ScalarType::U32;
        let none = self.c_u32(u32::MAX);
        let t = self.c_u32(top);
        let r = self.op2(OpCode::ISub, u, t, msb);
        let is_none = self.op2(OpCode::IEq, ScalarType::Bool, msb, none);
        self.op3(OpCode::Select, u, is_none, none, r)
    }
}

/// The flags of a float op (`Precise` when asked); integer ops get none.
fn float_flags(opc: OpCode, precise: OpFlags) -> OpFlags {
    if matches!(opc, OpCode::FMax | OpCode::FMin) {
        precise
    } else {
        OpFlags::empty()
    }
}
