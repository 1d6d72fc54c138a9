//! Arithmetic, with Direct3D 9's definitions where they differ from IEEE or from later
//! models:
//!
//! * products follow the `0 × anything = 0` rule per [`crate::FloatEmulation`];
//! * `rcp(0) = +inf` (the reference says a source of 0.0 yields infinity), `rsq` and `log`
//!   take the absolute value (`rsq(0) = +inf`, `log(0) = -inf`), `pow(a, b) =
//!   pow(|a|, b)`;
//! * scalar instructions read the component in the `w` lane of their source swizzle and
//!   replicate the result to every written component;
//! * `vs_1_x` `expp` and `logp` write four different components (`2^floor(w)`, `frac(w)`,
//!   `2^w`, 1 and exponent, mantissa, `log2|w|`, 1); from 2.0 they are `exp` and `log`;
//! * `lit` clamps the power to ±127.9961; `dst`, `lrp`, `crs`, `nrm` (whose `w` is scaled
//!   like `xyz`, and whose zero vector normalises to zero), `sgn`, `sincos` (`x = cos`,
//!   `y = sin`) and the matrix instructions as the reference defines them;
//! * `cnd` compares with 0.5; in `ps_1_1`-`ps_1_3` its condition is `r0.a`, and a `cnd`
//!   co-issued on the colour components picks its first source whatever the condition
//!   (what Direct3D does, per Wine's `cnd_test`);
//! * `mov a0, …` in `vs_1_x` rounds down, `mova` rounds to nearest (ties to even).

use dxspv_ir::frontend::FrontendBuilder;
use dxspv_ir::{DerivativeMode, OpCode, RoundMode, ScalarType, SsaDef};

use super::{Converter, Lanes, R};
use crate::decode::Instruction;
use crate::opcode::Opcode;
use crate::operand::Source;
use crate::options::FloatEmulation;
use crate::register::{Register, RegisterType};

const F: ScalarType = ScalarType::F32;

/// The write mask of an instruction's destination.
fn mask_of(inst: &Instruction<'_>) -> u8 {
    inst.dst.map_or(0, |d| d.write_mask.0 & 0xF)
}

/// `v` in every lane of `mask`.
fn splat(v: SsaDef, mask: u8) -> Lanes {
    let mut out: Lanes = [None; 4];
    for (l, o) in out.iter_mut().enumerate() {
        if mask & (1 << l) != 0 {
            *o = Some(v);
        }
    }
    out
}

impl Converter<'_, '_> {
    // -------------------------------------------------------------------------------------
    // Products under the float emulation mode
    // -------------------------------------------------------------------------------------

    /// The value of `d` if it is a scalar `f32` constant.
    pub(crate) fn known(&self, d: SsaDef) -> Option<f32> {
        let op = self.b.get(d)?;
        if op.opcode != OpCode::Constant || op.ty != dxspv_ir::Type::scalar(F) {
            return None;
        }
        Some(f32::from_bits(op.lit(0)? as u32))
    }

    /// Whether `d` is a constant that is neither zero nor infinite nor NaN: multiplying by
    /// it follows the zero rule anyway (`0 × c = 0`), so no legacy product is needed.
    fn ordinary(&self, d: SsaDef) -> bool {
        self.known(d).is_some_and(|c| c.is_finite() && c != 0.0)
    }

    /// Whether `d` is the constant ±0.
    fn zero(&self, d: SsaDef) -> bool {
        self.known(d) == Some(0.0)
    }

    /// `a * b` with the zero rule (`legacy`) or IEEE arithmetic.
    fn product(&mut self, legacy: bool, a: SsaDef, b: SsaDef) -> SsaDef {
        if legacy {
            if self.zero(a) || self.zero(b) {
                return self.c_f32(0.0);
            }
            if !(self.ordinary(a) || self.ordinary(b)) {
                return self.op2(OpCode::FMulLegacy, F, a, b);
            }
        }
        self.op2(OpCode::FMul, F, a, b)
    }

    /// A product written as an instruction of its own (`mul`, `mad`, `lrp`, `crs`).
    pub(crate) fn mul(&mut self, a: SsaDef, b: SsaDef) -> SsaDef {
        let legacy = self.opts.float_emulation == FloatEmulation::Strict;
        self.product(legacy, a, b)
    }

    /// `a * b + c` written as an instruction of its own.
    pub(crate) fn mad(&mut self, a: SsaDef, b: SsaDef, c: SsaDef) -> SsaDef {
        if self.opts.float_emulation == FloatEmulation::Strict {
            // A zero factor leaves `c` (D3D9: 0 + c).
            if self.zero(a) || self.zero(b) {
                return c;
            }
            if !(self.ordinary(a) || self.ordinary(b)) {
                return self.op3(OpCode::FMadLegacy, F, a, b, c);
            }
        }
        self.op3(OpCode::FMad, F, a, b, c)
    }

    /// A product inside an instruction (`lit`, `dst`, `nrm`, texture matrices).
    pub(crate) fn inner_mul(&mut self, a: SsaDef, b: SsaDef) -> SsaDef {
        let legacy = self.opts.float_emulation != FloatEmulation::Off;
        self.product(legacy, a, b)
    }

    /// The dot product of two equally long lists of scalars.
    pub(crate) fn dot(&mut self, a: &[SsaDef], b: &[SsaDef]) -> SsaDef {
        if a.len() == 1 {
            return self.inner_mul(a[0], b[0]);
        }
        let legacy = self.opts.float_emulation != FloatEmulation::Off
            && !(a.iter().all(|&x| self.ordinary(x)) || b.iter().all(|&x| self.ordinary(x)));
        if !legacy {
            return self.dot_chain(a, b);
        }
        let va = self.f32_vector(a);
        let vb = self.f32_vector(b);
        self.op2(OpCode::FDotLegacy, F, va, vb)
    }

    /// An IEEE dot product as the multiply-add chain `FDot` lowers to (D3D's order:
    /// `a.x * b.x`, then `mad(a.y, b.y, acc)` …), written directly.
    pub(crate) fn dot_chain(&mut self, a: &[SsaDef], b: &[SsaDef]) -> SsaDef {
        let mut acc = self.op2(OpCode::FMul, F, a[0], b[0]);
        for (x, y) in a.iter().zip(b).skip(1) {
            acc = self.op3(OpCode::FMad, F, *x, *y, acc);
        }
        acc
    }

    /// `pow(a, b)` (the caller takes `|a|`).
    fn pow(&mut self, a: SsaDef, b: SsaDef) -> SsaDef {
        let op = match self.opts.float_emulation {
            FloatEmulation::Off => OpCode::FPow,
            _ => OpCode::FPowLegacy,
        };
        self.op2(op, F, a, b)
    }

    // -------------------------------------------------------------------------------------
    // Instructions
    // -------------------------------------------------------------------------------------

    fn lanes2(
        &mut self,
        inst: &Instruction<'_>,
        f: impl Fn(&mut Self, SsaDef, SsaDef) -> SsaDef,
    ) -> R<Lanes> {
        let m = mask_of(inst);
        let a = self.src(self.source(inst, 0)?, m)?;
        let b = self.src(self.source(inst, 1)?, m)?;
        let mut out: Lanes = [None; 4];
        for l in 0..4 {
            if let (Some(x), Some(y)) = (a[l], b[l]) {
                // A lane with the operands of an earlier one (a replicated swizzle) has its
                // result: `f` is a pure function of the operands.
                let same = (0..l).find(|&k| a[k] == a[l] && b[k] == b[l]);
                out[l] = Some(match same.and_then(|k| out[k]) {
                    Some(r) => r,
                    None => f(self, x, y),
                });
            }
        }
        Ok(out)
    }

    fn lanes3(
        &mut self,
        inst: &Instruction<'_>,
        f: impl Fn(&mut Self, SsaDef, SsaDef, SsaDef) -> SsaDef,
    ) -> R<Lanes> {
        let m = mask_of(inst);
        let a = self.src(self.source(inst, 0)?, m)?;
        let b = self.src(self.source(inst, 1)?, m)?;
        let c = self.src(self.source(inst, 2)?, m)?;
        let mut out: Lanes = [None; 4];
        for l in 0..4 {
            if let (Some(x), Some(y), Some(z)) = (a[l], b[l], c[l]) {
                let same = (0..l).find(|&k| a[k] == a[l] && b[k] == b[l] && c[k] == c[l]);
                out[l] = Some(match same.and_then(|k| out[k]) {
                    Some(r) => r,
                    None => f(self, x, y, z),
                });
            }
        }
        Ok(out)
    }

    fn lanes1(
        &mut self,
        inst: &Instruction<'_>,
        f: impl Fn(&mut Self, SsaDef) -> SsaDef,
    ) -> R<Lanes> {
        let m = mask_of(inst);
        let a = self.src(self.source(inst, 0)?, m)?;
        let mut out: Lanes = [None; 4];
        for l in 0..4 {
            if let Some(x) = a[l] {
                let same = (0..l).find(|&k| a[k] == a[l]);
                out[l] = Some(match same.and_then(|k| out[k]) {
                    Some(r) => r,
                    None => f(self, x),
                });
            }
        }
        Ok(out)
    }

    /// A scalar instruction: `f` of the source's scalar, replicated.
    fn scalar1(
        &mut self,
        inst: &Instruction<'_>,
        f: impl Fn(&mut Self, SsaDef) -> SsaDef,
    ) -> R<Lanes> {
        let s = self.src_scalar(self.source(inst, 0)?)?;
        let v = f(self, s);
        Ok(splat(v, mask_of(inst)))
    }

    /// Converts an arithmetic instruction.
    pub(crate) fn alu(&mut self, inst: &Instruction<'_>) -> R<()> {
        use Opcode as O;
        let m = mask_of(inst);
        let out = match inst.opcode {
            O::Mov | O::MovA => {
                let d = self.destination(inst)?;
                if d.register.ty == RegisterType::Address {
                    return self.write_address(inst);
                }
                if inst.opcode == O::MovA {
                    return Err(self.invalid("mova writes a register other than a0"));
                }
                self.src(self.source(inst, 0)?, m)?
            }
            O::Add => self.lanes2(inst, |s, a, b| s.op2(OpCode::FAdd, F, a, b))?,
            O::Sub => self.lanes2(inst, |s, a, b| s.op2(OpCode::FSub, F, a, b))?,
            O::Mul => self.lanes2(inst, |s, a, b| s.mul(a, b))?,
            O::Mad => self.lanes3(inst, |s, a, b, c| s.mad(a, b, c))?,
            O::Min => self.lanes2(inst, |s, a, b| s.op2(OpCode::FMin, F, a, b))?,
            O::Max => self.lanes2(inst, |s, a, b| s.op2(OpCode::FMax, F, a, b))?,
            O::Slt | O::Sge => {
                let cmp = if inst.opcode == O::Slt {
                    OpCode::FLt
                } else {
                    OpCode::FGe
                };
                self.lanes2(inst, |s, a, b| {
                    let c = s.op2(cmp, ScalarType::Bool, a, b);
                    let one = s.c_f32(1.0);
                    let zero = s.c_f32(0.0);
                    s.select_f(c, one, zero)
                })?
            }
            O::Abs => self.lanes1(inst, |s, a| s.op1(OpCode::FAbs, F, a))?,
            O::Frc => self.lanes1(inst, |s, a| s.op1(OpCode::FFract, F, a))?,
            O::Dsx | O::Dsy => {
                let opc = if inst.opcode == O::Dsx {
                    OpCode::DerivX
                } else {
                    OpCode::DerivY
                };
                if !self.version.is_pixel() {
                    return Err(self.invalid("derivatives outside a pixel shader"));
                }
                self.lanes1(inst, |s, a| {
                    let mode = DerivativeMode::Default.to_literal();
                    s.code(dxspv_ir::Op::new(opc, F).with_ref(a).with_lit(mode))
                })?
            }
            O::Cmp => self.pick(inst, OpCode::FGe, 0.0)?,
            O::Cnd => self.cnd(inst)?,
            O::Lrp => self.lanes3(inst, |s, a, b, c| {
                let d = s.op2(OpCode::FSub, F, b, c);
                s.mad(a, d, c)
            })?,
            O::Dp3 | O::Dp4 => {
                let n = if inst.opcode == O::Dp3 { 3 } else { 4 };
                let a = self.src4(self.source(inst, 0)?)?;
                let b = self.src4(self.source(inst, 1)?)?;
                let d = self.dot(&a[..n], &b[..n]);
                splat(d, m)
            }
            O::Dp2Add => {
                let a = self.src4(self.source(inst, 0)?)?;
                let b = self.src4(self.source(inst, 1)?)?;
                let c = self.src_scalar(self.source(inst, 2)?)?;
                let d = self.dot(&a[..2], &b[..2]);
                let r = self.op2(OpCode::FAdd, F, d, c);
                splat(r, m)
            }
            O::Rcp => self.scalar1(inst, |s, x| {
                let r = s.op1(OpCode::FRcp, F, x);
                let zero = s.c_f32(0.0);
                let is0 = s.op2(OpCode::FEq, ScalarType::Bool, x, zero);
                let inf = s.c_f32(f32::INFINITY);
                s.select_f(is0, inf, r)
            })?,
            O::Rsq => self.scalar1(inst, |s, x| {
                let a = s.op1(OpCode::FAbs, F, x);
                s.op1(OpCode::FRsq, F, a)
            })?,
            O::Exp => self.scalar1(inst, |s, x| s.op1(OpCode::FExp2, F, x))?,
            O::Log => self.scalar1(inst, |s, x| {
                let a = s.op1(OpCode::FAbs, F, x);
                s.op1(OpCode::FLog2, F, a)
            })?,
            O::ExpP if self.version.major < 2 => self.expp1(inst)?,
            O::ExpP => self.scalar1(inst, |s, x| s.op1(OpCode::FExp2, F, x))?,
            O::LogP if self.version.major < 2 => self.logp1(inst)?,
            O::LogP => self.scalar1(inst, |s, x| {
                let a = s.op1(OpCode::FAbs, F, x);
                s.op1(OpCode::FLog2, F, a)
            })?,
            O::Pow => {
                let a = self.src_scalar(self.source(inst, 0)?)?;
                let b = self.src_scalar(self.source(inst, 1)?)?;
                let a = self.op1(OpCode::FAbs, F, a);
                let r = self.pow(a, b);
                splat(r, m)
            }
            O::Lit => self.lit(inst)?,
            O::Dst => {
                let a = self.src4(self.source(inst, 0)?)?;
                let b = self.src4(self.source(inst, 1)?)?;
                let one = self.c_f32(1.0);
                let y = self.inner_mul(a[1], b[1]);
                [Some(one), Some(y), Some(a[2]), Some(b[3])]
            }
            O::Crs => {
                let a = self.src4(self.source(inst, 0)?)?;
                let b = self.src4(self.source(inst, 1)?)?;
                let mut out: Lanes = [None; 4];
                for (l, (i, j)) in [(1, 2), (2, 0), (0, 1)].into_iter().enumerate() {
                    if m & (1 << l) != 0 {
                        let p = self.mul(a[i], b[j]);
                        let q = self.mul(a[j], b[i]);
                        out[l] = Some(self.op2(OpCode::FSub, F, p, q));
                    }
                }
                out
            }
            O::Nrm => {
                let a = self.src4(self.source(inst, 0)?)?;
                let d = self.dot(&a[..3], &a[..3]);
                let r = self.op1(OpCode::FRsq, F, d);
                let max = self.c_f32(f32::MAX);
                let r = self.op2(OpCode::FMin, F, r, max);
                let mut out: Lanes = [None; 4];
                for (l, o) in out.iter_mut().enumerate() {
                    if m & (1 << l) != 0 {
                        *o = Some(self.inner_mul(a[l], r));
                    }
                }
                out
            }
            O::SinCos => {
                let s = self.src_scalar(self.source(inst, 0)?)?;
                let mut out: Lanes = [None; 4];
                if m & 1 != 0 {
                    out[0] = Some(self.op1(OpCode::FCos, F, s));
                }
                if m & 2 != 0 {
                    out[1] = Some(self.op1(OpCode::FSin, F, s));
                }
                out
            }
            O::Sgn => self.lanes1(inst, |s, a| {
                let zero = s.c_f32(0.0);
                let one = s.c_f32(1.0);
                let neg = s.c_f32(-1.0);
                let lt = s.op2(OpCode::FLt, ScalarType::Bool, a, zero);
                let gt = s.op2(OpCode::FGt, ScalarType::Bool, a, zero);
                let p = s.select_f(gt, one, zero);
                s.select_f(lt, neg, p)
            })?,
            O::M4x4 | O::M4x3 | O::M3x4 | O::M3x3 | O::M3x2 => self.matrix(inst)?,
            other => {
                return Err(
                    self.invalid(format!("{} is not an arithmetic instruction", other.name()))
                )
            }
        };
        self.write(inst, out)
    }

    /// `mov`/`mova` to `a0`: `vs_1_x` `mov` rounds down, `mova` to nearest.
    fn write_address(&mut self, inst: &Instruction<'_>) -> R<()> {
        let m = mask_of(inst);
        let vals = self.src(self.source(inst, 0)?, m)?;
        let mode = if inst.opcode == Opcode::MovA {
            RoundMode::NearestEven
        } else {
            RoundMode::NegativeInf
        };
        for l in 0..4u8 {
            let Some(v) = vals[l as usize] else { continue };
            let r = self.code(
                dxspv_ir::Op::new(OpCode::FRound, F)
                    .with_ref(v)
                    .with_lit(mode.to_literal()),
            );
            let mut i = self.op1(OpCode::ConvertFtoI, ScalarType::I32, r);
            let t = self.addr(l);
            if let Some(p) = &inst.predicate {
                let pt = self.pred(p.swizzle.lane(l as usize));
                let mut c = self.load_tmp(pt, ScalarType::Bool);
                if p.modifier == crate::SourceModifier::Not {
                    c = self.op1(OpCode::BNot, ScalarType::Bool, c);
                }
                let old = self.load_tmp(t, ScalarType::I32);
                i = self.op3(OpCode::Select, ScalarType::I32, c, i, old);
            }
            self.store_tmp(t, i);
        }
        Ok(())
    }

    /// `cnd`: `src0 > 0.5 ? src1 : src2`.
    fn cnd(&mut self, inst: &Instruction<'_>) -> R<Lanes> {
        let m = mask_of(inst);
        let v = self.version;
        if v.major == 1 && v.minor < 4 && inst.coissue && m & 0x7 != 0 {
            // ps_1_1-1_3: a cnd co-issued on the colour components takes src1.
            return self.src(self.source(inst, 1)?, m);
        }
        self.pick(inst, OpCode::FGt, 0.5)
    }

    /// `cmp` and `cnd`: per lane, `src1` where `cmp(src0, k)` holds, else `src2`. The
    /// condition of a lane whose `src0` an earlier lane has (a replicated swizzle, the
    /// `r0.a` of `ps_1_x` `cnd`) is that lane's, and so is the whole result where all three
    /// sources match.
    fn pick(&mut self, inst: &Instruction<'_>, cmp: OpCode, k: f32) -> R<Lanes> {
        let m = mask_of(inst);
        let a = self.src(self.source(inst, 0)?, m)?;
        let b = self.src(self.source(inst, 1)?, m)?;
        let c = self.src(self.source(inst, 2)?, m)?;
        let mut conds: Lanes = [None; 4];
        let mut out: Lanes = [None; 4];
        for l in 0..4 {
            let (Some(x), Some(y), Some(z)) = (a[l], b[l], c[l]) else {
                continue;
            };
            if let Some(r) = (0..l)
                .find(|&j| a[j] == a[l] && b[j] == b[l] && c[j] == c[l])
                .and_then(|j| out[j])
            {
                out[l] = Some(r);
                continue;
            }
            let cond = match (0..l).find(|&j| a[j] == a[l]).and_then(|j| conds[j]) {
                Some(cond) => cond,
                None => {
                    let kk = self.c_f32(k);
                    self.op2(cmp, ScalarType::Bool, x, kk)
                }
            };
            conds[l] = Some(cond);
            out[l] = Some(self.select_f(cond, y, z));
        }
        Ok(out)
    }

    /// `vs_1_x` `expp`: (2^floor(w), w - floor(w), 2^w, 1).
    fn expp1(&mut self, inst: &Instruction<'_>) -> R<Lanes> {
        let w = self.src_scalar(self.source(inst, 0)?)?;
        let fl = self.code(
            dxspv_ir::Op::new(OpCode::FRound, F)
                .with_ref(w)
                .with_lit(RoundMode::NegativeInf.to_literal()),
        );
        let x = self.op1(OpCode::FExp2, F, fl);
        let y = self.op2(OpCode::FSub, F, w, fl);
        let z = self.op1(OpCode::FExp2, F, w);
        let one = self.c_f32(1.0);
        let all = [Some(x), Some(y), Some(z), Some(one)];
        Ok(masked(all, mask_of(inst)))
    }

    /// `vs_1_x` `logp`: (exponent, mantissa, log2|w|, 1) of |w|; (-inf, 1, -inf, 1) for 0.
    fn logp1(&mut self, inst: &Instruction<'_>) -> R<Lanes> {
        let w = self.src_scalar(self.source(inst, 0)?)?;
        let a = self.op1(OpCode::FAbs, F, w);
        let u = ScalarType::U32;
        let bits = self.op1(OpCode::Cast, u, a);
        let s23 = self.c_u32(23);
        let e8 = self.c_u32(8);
        let e = self.op3(OpCode::UBitExtract, u, bits, s23, e8);
        let ei = self.op1(OpCode::Cast, ScalarType::I32, e);
        let bias = self.c_i32(127);
        let ei = self.op2(OpCode::ISub, ScalarType::I32, ei, bias);
        let ex = self.op1(OpCode::ConvertItoF, F, ei);
        let mmask = self.c_u32(0x007F_FFFF);
        let one_bits = self.c_u32(0x3F80_0000);
        let mbits = self.op2(OpCode::IAnd, u, bits, mmask);
        let mbits = self.op2(OpCode::IOr, u, mbits, one_bits);
        let mant = self.op1(OpCode::Cast, F, mbits);
        let z = self.op1(OpCode::FLog2, F, a);
        let zero = self.c_f32(0.0);
        let is0 = self.op2(OpCode::FEq, ScalarType::Bool, a, zero);
        let ninf = self.c_f32(f32::NEG_INFINITY);
        let x = self.select_f(is0, ninf, ex);
        let one = self.c_f32(1.0);
        let all = [Some(x), Some(mant), Some(z), Some(one)];
        Ok(masked(all, mask_of(inst)))
    }

    /// `lit`: (1, max(x, 0), x > 0 && y > 0 ? y^clamp(w) : 0, 1).
    fn lit(&mut self, inst: &Instruction<'_>) -> R<Lanes> {
        let s = self.src4(self.source(inst, 0)?)?;
        let (x, y, w) = (s[0], s[1], s[3]);
        let zero = self.c_f32(0.0);
        let one = self.c_f32(1.0);
        let b = ScalarType::Bool;
        let xpos = self.op2(OpCode::FGt, b, x, zero);
        let ypos = self.op2(OpCode::FGt, b, y, zero);
        let ly = self.select_f(xpos, x, zero);
        let lim = self.c_f32(127.9961);
        let nlim = self.c_f32(-127.9961);
        let p = self.op3(OpCode::FClamp, F, w, nlim, lim);
        let pw = self.pow(y, p);
        let both = self.op2(OpCode::BAnd, b, xpos, ypos);
        let lz = self.select_f(both, pw, zero);
        Ok(masked(
            [Some(one), Some(ly), Some(lz), Some(one)],
            mask_of(inst),
        ))
    }

    /// `m4x4`, `m4x3`, `m3x4`, `m3x3`, `m3x2`: one dot product per row, the rows being
    /// the registers from the second source's on.
    fn matrix(&mut self, inst: &Instruction<'_>) -> R<Lanes> {
        use Opcode as O;
        let (n, rows) = match inst.opcode {
            O::M4x4 => (4, 4),
            O::M4x3 => (4, 3),
            O::M3x4 => (3, 4),
            O::M3x3 => (3, 3),
            _ => (3, 2),
        };
        let m = mask_of(inst);
        let a = self.src4(self.source(inst, 0)?)?;
        let base = *self.source(inst, 1)?;
        let legacy_a = !a[..n].iter().all(|&x| self.ordinary(x));
        let mut va = None;
        let mut out: Lanes = [None; 4];
        for (row, o) in out.iter_mut().enumerate().take(rows) {
            if m & (1 << row) == 0 {
                continue;
            }
            let s = Source {
                register: Register::new(base.register.ty, base.register.index + row as u32),
                ..base
            };
            let r = self.src4(&s)?;
            let legacy = self.opts.float_emulation != FloatEmulation::Off
                && legacy_a
                && !r[..n].iter().all(|&x| self.ordinary(x));
            *o = Some(if legacy {
                let va = match va {
                    Some(v) => v,
                    None => *va.insert(self.f32_vector(&a[..n])),
                };
                let vr = self.f32_vector(&r[..n]);
                self.op2(OpCode::FDotLegacy, F, va, vr)
            } else {
                self.dot_chain(&a[..n], &r[..n])
            });
        }
        Ok(out)
    }
}

/// The lanes of `all` in `mask`.
fn masked(all: Lanes, mask: u8) -> Lanes {
    let mut out: Lanes = [None; 4];
    for l in 0..4 {
        if mask & (1 << l) != 0 {
            out[l] = all[l];
        }
    }
    out
}
