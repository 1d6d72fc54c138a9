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

use super::control_flow::Component;
use super::error::{malformed, unsupported, R};
use super::types::{basic_bits, int_of_width, TyKey, L_NONE};
use super::{constant_literals, Emitter};
use crate::words::{begin, end, inst, inst_tail};
use dxspv_ir::{
    BasicType, DerivativeMode, Op, OpCode, OpFlags, RoundMode, ScalarType, SsaDef, Type,
};
use smallvec::SmallVec;
use spirv::{Capability, Decoration, GLOp, Op as S};

/// How an ALU op that is one SPIR-V instruction is written.
#[derive(Clone, Copy)]
pub(super) enum Instr {
    /// A core instruction.
    Core(S),
    /// A `GLSL.std.450` extended instruction.
    Glsl(GLOp),
}

use Instr::Core;

/// Most words [`Emitter::drop_unused_components`] moves to take out an instruction.
const MAX_MOVED_WORDS: usize = 1024;

/// An ALU op's result and operands, read once by [`Emitter::alu_begin`].
#[derive(Clone, Copy)]
pub(super) struct Alu {
    /// The result id.
    id: u32,
    /// The result type.
    ty: u32,
    /// The SPIR-V values of the first four reference operands (0 where absent).
    args: [u32; 4],
    /// The result's basic type (`u32` for an aggregate result).
    basic: BasicType,
}

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

    /// The basic type of operand `i` of `op`, if it has one.
    fn arg_basic(&self, op: &Op, i: usize) -> Option<BasicType> {
        op.arg(i)
            .and_then(|x| self.op_of(x))
            .and_then(|o| o.ty.as_basic())
    }

    /// Reads the result type and operands of an ALU op; a precise float result is
    /// decorated `NoContraction`.
    fn alu_begin(&mut self, def: SsaDef, op: &Op) -> R<Alu> {
        let id = def.id();
        let result = op.ty.as_basic();
        let ty = match result {
            Some(b) => match self.module.basic_ty(b) {
                Some(t) => t,
                None => return unsupported(def, op, format!("type {}", op.ty)),
            },
            None => self.module.val_ty(def, op)?,
        };
        let mut args = [0u32; 4];
        let refs = op.operands.get(..op.ref_count()).unwrap_or(&[]);
        for (slot, x) in args.iter_mut().zip(refs) {
            if let Some(x) = x.def() {
                *slot = self.v(x);
            }
        }
        let basic = result.unwrap_or(BasicType::scalar(ScalarType::U32));
        if op.flags.contains(OpFlags::PRECISE) && basic.base().is_float() {
            self.module.decorate(id, Decoration::NoContraction, &[]);
        }
        Ok(Alu {
            id,
            ty,
            args,
            basic,
        })
    }

    /// Writes `instr` of the first `n` operands as the result of `alu`.
    #[inline]
    fn alu_write(&mut self, alu: &Alu, instr: Instr, n: usize) -> R<()> {
        let args = alu.args.get(..n).unwrap_or(&alu.args);
        match instr {
            Instr::Core(o) => self.module.emit_to(o, alu.ty, alu.id, args),
            Instr::Glsl(g) => self.module.ext_to(g, alu.ty, alu.id, args),
        }
        Ok(())
    }

    /// An op that is one instruction, `instr`, of its first `n` operands.
    pub(super) fn alu_map(&mut self, def: SsaDef, op: &Op, instr: Instr, n: usize) -> R<()> {
        let alu = self.alu_begin(def, op)?;
        self.alu_write(&alu, instr, n)
    }

    /// `FMad`: `Fma`, or for a precise one a multiply and an add, both `NoContraction`.
    pub(super) fn fmad(&mut self, def: SsaDef, op: &Op) -> R<()> {
        let alu = self.alu_begin(def, op)?;
        let Alu {
            id, ty: t, args: a, ..
        } = alu;
        if op.flags.contains(OpFlags::PRECISE) {
            let m = self.module.un(S::FMul, t, &a[..2]);
            self.module.decorate(m, Decoration::NoContraction, &[]);
            self.module.emit_to(S::FAdd, t, id, &[m, a[2]]);
            Ok(())
        } else {
            self.alu_write(&alu, Instr::Glsl(GLOp::Fma), 3)
        }
    }

    /// `FRcp`: `1 / x`.
    pub(super) fn frcp(&mut self, def: SsaDef, op: &Op) -> R<()> {
        let alu = self.alu_begin(def, op)?;
        let Alu {
            id,
            ty: t,
            args: a,
            basic: rb,
        } = alu;
        let one = match rb.base() {
            ScalarType::F64 => 1.0f64.to_bits(),
            ScalarType::F16 => 0x3c00,
            _ => 1.0f32.to_bits() as u64,
        };
        let c = self.module.const_splat(rb, one);
        self.module.emit_to(S::FDiv, t, id, &[c, a[0]]);
        Ok(())
    }

    /// `FRound`: `Trunc`, `Floor`, `Ceil` or `RoundEven` by its rounding mode.
    pub(super) fn fround(&mut self, def: SsaDef, op: &Op) -> R<()> {
        let alu = self.alu_begin(def, op)?;
        let g = match RoundMode::from_literal(self.lit(def, op, 0)?) {
            Some(RoundMode::Zero) => GLOp::Trunc,
            Some(RoundMode::NegativeInf) => GLOp::Floor,
            Some(RoundMode::PositiveInf) => GLOp::Ceil,
            _ => GLOp::RoundEven,
        };
        self.alu_write(&alu, Instr::Glsl(g), 1)
    }

    /// `Select`: `OpSelect`, whose vector condition must have the values' size. Before
    /// SPIR-V 1.4, `OpSelect` takes neither composites nor a scalar condition for vectors:
    /// composites are selected per member, and a scalar condition is splatted.
    pub(super) fn select(&mut self, def: SsaDef, op: &Op) -> R<()> {
        let alu = self.alu_begin(def, op)?;
        let Alu { basic: rb, .. } = alu;
        let cond = self.arg_basic(op, 0);
        if cond.is_some_and(|c| c.is_vector() && c.vec_size() != rb.vec_size()) {
            return malformed(
                def,
                op,
                "a select condition of another size than its values",
            );
        }
        if self.module.target.composite_copy_and_select()
            || cond.is_some_and(|c| c.is_vector())
            || op.ty.is_scalar()
        {
            return self.alu_write(&alu, Core(S::Select), 3);
        }
        let [c, a, b, _] = alu.args;
        let mut splats = [0; 5];
        self.select_members(def, op, (c, &mut splats), a, b, &op.ty, Some(alu.id))
            .map(|_| ())
    }

    /// `OpSelect` by the scalar condition `c` of `a` and `b`, of IR type `t`, in the forms
    /// SPIR-V before 1.4 has: a vector selected by the condition splatted to its size (each
    /// splat made once, kept in `splats` by size), an aggregate member by member. Into
    /// `out`, or a fresh id; returns the id.
    #[allow(clippy::too_many_arguments)]
    fn select_members(
        &mut self,
        def: SsaDef,
        op: &Op,
        (c, splats): (u32, &mut [u32; 5]),
        a: u32,
        b: u32,
        t: &Type,
        out: Option<u32>,
    ) -> R<u32> {
        let Some(ty) = self.module.ty(t, false) else {
            return unsupported(def, op, format!("type {t}"));
        };
        let id = out.unwrap_or_else(|| self.module.id());
        if let Some(bt) = t.as_basic() {
            let n = usize::from(bt.vec_size()).min(4);
            let mut cond = c;
            if n > 1 {
                if splats[n] == 0 {
                    let Some(bv) = self.module.basic_ty(bt.with_base(ScalarType::Bool)) else {
                        return unsupported(def, op, "bool vector");
                    };
                    splats[n] = self.module.un(S::CompositeConstruct, bv, &[c; 4][..n]);
                }
                cond = splats[n];
            }
            self.module.emit_to(S::Select, ty, id, &[cond, a, b]);
            return Ok(id);
        }
        let mut parts = SmallVec::<[u32; 8]>::new();
        if let Some(&len) = t.dims().last() {
            if len == 0 {
                return unsupported(def, op, format!("selecting a run-time array {t}"));
            }
            let elem = t.element_type();
            let Some(et) = self.module.ty(&elem, false) else {
                return unsupported(def, op, format!("type {elem}"));
            };
            parts.reserve(len as usize);
            for i in 0..len {
                let ea = self.module.un(S::CompositeExtract, et, &[a, i]);
                let eb = self.module.un(S::CompositeExtract, et, &[b, i]);
                parts.push(self.select_members(def, op, (c, splats), ea, eb, &elem, None)?);
            }
        } else {
            for (i, m) in t.members().iter().enumerate() {
                let mt = Type::basic(*m);
                let Some(mty) = self.module.ty(&mt, false) else {
                    return unsupported(def, op, format!("type {t}"));
                };
                let ma = self.module.un(S::CompositeExtract, mty, &[a, i as u32]);
                let mb = self.module.un(S::CompositeExtract, mty, &[b, i as u32]);
                parts.push(self.select_members(def, op, (c, splats), ma, mb, &mt, None)?);
            }
        }
        let f = self.module.body();
        let st = begin(f, S::CompositeConstruct);
        f.extend_from_slice(&[ty, id]);
        f.extend_from_slice(&parts);
        end(f, st);
        Ok(id)
    }

    /// `IShl`, `SShr`, `UShr` (the shift `o`): the count masked to the bit width (D3D
    /// semantics; SPIR-V leaves counts past the width undefined).
    pub(super) fn shift(&mut self, def: SsaDef, op: &Op, o: S) -> R<()> {
        let alu = self.alu_begin(def, op)?;
        let Alu {
            id,
            ty: t,
            args: a,
            basic: rb,
        } = alu;
        let Some(cb) = self.arg_basic(op, 1) else {
            return malformed(def, op, "shift count type");
        };
        let bits = basic_bits(rb) as u64;
        let Some(ct) = self.module.basic_ty(cb) else {
            return unsupported(def, op, "shift count type");
        };
        let m = self.module.const_splat(cb, bits - 1);
        let cnt = self.module.un(S::BitwiseAnd, ct, &[a[1], m]);
        self.module.emit_to(o, t, id, &[a[0], cnt]);
        Ok(())
    }

    /// `IBitInsert`, `UBitExtract`, `SBitExtract` (the bit-field instruction `o`) of 32-bit
    /// integers: offset and count masked to 5 bits and the count clamped to the bits left
    /// (D3D semantics); one component at a time when offsets and counts are vectors (SPIR-V
    /// takes one of each).
    pub(super) fn bit_field(&mut self, def: SsaDef, op: &Op, o: S) -> R<()> {
        let alu = self.alu_begin(def, op)?;
        let Alu {
            id,
            ty: t,
            args: a,
            basic: rb,
        } = alu;
        if basic_bits(rb) != 32 {
            return unsupported(def, op, "bit field ops on other than 32-bit integers");
        }
        // D3D: offset and count are masked to 5 bits; offset + count is clamped.
        // Operands: base, (insert,) offset, count.
        let n = if o == S::BitFieldInsert { 4 } else { 3 };
        let (oi, ci) = (n - 2, n - 1);
        let Some(ob) = self.arg_basic(op, oi) else {
            return malformed(def, op, "offset type");
        };
        let Some(ot) = self.module.basic_ty(ob) else {
            return unsupported(def, op, "offset type");
        };
        let bits = basic_bits(rb) as u64;
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
            let pick =
                |e: &mut Self, ty: u32, v: u32| e.module.un(S::CompositeExtract, ty, &[v, k]);
            let base = pick(self, et, a[0]);
            let insert = if n == 4 { pick(self, et, a[1]) } else { 0 };
            let (o_k, c_k) = (pick(self, st, off), pick(self, st, cnt2));
            parts.push(self.module.un(o, et, &args(base, insert, o_k, c_k)[..n]));
        }
        self.module.emit_to(S::CompositeConstruct, t, id, &parts);
        Ok(())
    }

    /// `IBitCount`, `IFindLsb`, `SFindMsb`, `UFindMsb` (`instr`) of 32-bit integers.
    pub(super) fn bit_scan(&mut self, def: SsaDef, op: &Op, instr: Instr) -> R<()> {
        let alu = self.alu_begin(def, op)?;
        self.bit_scan_width(def, op, &alu)?;
        self.alu_write(&alu, instr, 1)
    }

    /// `IBitReverse` of a 32-bit integer of its result's type.
    pub(super) fn bit_reverse(&mut self, def: SsaDef, op: &Op) -> R<()> {
        let alu = self.alu_begin(def, op)?;
        let Alu { basic: rb, .. } = alu;
        self.bit_scan_width(def, op, &alu)?;
        if self.arg_basic(op, 0) != Some(rb) {
            return malformed(def, op, "bit reversal of another type than its result");
        }
        self.alu_write(&alu, Core(S::BitReverse), 1)
    }

    /// Checks that a bit count, reversal or search reads and gives 32-bit integers (what
    /// `OpBitCount`, `OpBitReverse` and the `GLSL.std.450` searches take in Vulkan).
    fn bit_scan_width(&self, def: SsaDef, op: &Op, alu: &Alu) -> R<()> {
        if self.arg_basic(op, 0).is_none_or(|b| basic_bits(b) != 32) || basic_bits(alu.basic) != 32
        {
            return unsupported(
                def,
                op,
                "bit counting, reversal or search of other than 32-bit integers",
            );
        }
        Ok(())
    }

    /// `UDiv`, `UMod` (the instruction `o`): division by zero gives all ones (D3D).
    pub(super) fn unsigned_division(&mut self, def: SsaDef, op: &Op, o: S) -> R<()> {
        let alu = self.alu_begin(def, op)?;
        let Alu {
            id,
            ty: t,
            args: a,
            basic: rb,
        } = alu;
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
        let q = self.module.un(o, ut, &ua);
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

    /// `IAddCarry`, `ISubBorrow`, `SMulExtended`, `UMulExtended` (the instruction `o`): its
    /// two-member struct result becomes the IR's vector.
    pub(super) fn extended_arithmetic(&mut self, def: SsaDef, op: &Op, o: S) -> R<()> {
        let alu = self.alu_begin(def, op)?;
        let Alu {
            id,
            ty: t,
            args: a,
            basic: rb,
        } = alu;
        let Some(et) = self.module.scalar_ty(rb.base()) else {
            return unsupported(def, op, "type");
        };
        let st = self
            .module
            .ty_key(TyKey::Struct(smallvec::smallvec![et, et], L_NONE));
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

    /// `ConvertFtoI`: from a 32-bit float to a 32-bit integer, saturating, NaN giving 0
    /// (D3D semantics; SPIR-V leaves out-of-range conversions undefined).
    pub(super) fn convert_f_to_i(&mut self, def: SsaDef, op: &Op) -> R<()> {
        let alu = self.alu_begin(def, op)?;
        let Alu {
            id,
            ty: t,
            args: a,
            basic: rb,
        } = alu;
        let Some(sb) = self.arg_basic(op, 0) else {
            return malformed(def, op, "source type");
        };
        let signed = rb.base().is_signed_int();
        let o = if signed {
            S::ConvertFToS
        } else {
            S::ConvertFToU
        };
        if sb.base() == ScalarType::F32 && basic_bits(rb) == 32 {
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
            self.alu_write(&alu, Core(o), 1)
        }
    }

    /// `ConvertItoF`: `OpConvertSToF` or `OpConvertUToF` by the source's signedness.
    pub(super) fn convert_i_to_f(&mut self, def: SsaDef, op: &Op) -> R<()> {
        let alu = self.alu_begin(def, op)?;
        let signed = self
            .arg_basic(op, 0)
            .is_some_and(|b| b.base().is_signed_int());
        let o = if signed {
            S::ConvertSToF
        } else {
            S::ConvertUToF
        };
        self.alu_write(&alu, Core(o), 1)
    }

    /// `ConvertItoI`: a bit cast between types of one width, `OpSConvert` widening a
    /// signed source, `OpUConvert` otherwise (computed in the type those take, then cast).
    pub(super) fn convert_i_to_i(&mut self, def: SsaDef, op: &Op) -> R<()> {
        let alu = self.alu_begin(def, op)?;
        let Alu {
            id,
            ty: t,
            args: a,
            basic: rb,
        } = alu;
        // The same width in another signedness is the same bits.
        if self
            .arg_basic(op, 0)
            .is_some_and(|b| basic_bits(b) == basic_bits(rb))
        {
            return self.alu_write(&alu, Core(S::Bitcast), 1);
        }
        let Some(sb) = self.arg_basic(op, 0) else {
            return malformed(def, op, "source type");
        };
        let widen = basic_bits(rb) > basic_bits(sb);
        if widen && sb.base().is_signed_int() {
            let Some(st) = self
                .module
                .basic_ty(rb.with_base(int_of_width(rb.base(), true)))
            else {
                return unsupported(def, op, "type");
            };
            if st == t {
                return self.alu_write(&alu, Core(S::SConvert), 1);
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
                return self.alu_write(&alu, Core(S::UConvert), 1);
            }
            let c = self.module.un(S::UConvert, ut, &[a[0]]);
            self.module.emit_to(S::Bitcast, t, id, &[c]);
            Ok(())
        }
    }

    /// `SDot4x8Packed` (`signed`) and `UDot4x8Packed`: `OpSDot`/`OpUDot` of the packed
    /// bytes (`PackedVectorFormat4x8Bit`) where the target has them as core (SPIR-V 1.6, with
    /// Vulkan 1.3's `shaderIntegerDotProduct`); before, the four bytes extracted
    /// (`OpBitFieldSExtract`/`UExtract`), multiplied and added, which needs no extension.
    pub(super) fn dot4x8_packed(&mut self, def: SsaDef, op: &Op, signed: bool) -> R<()> {
        let alu = self.alu_begin(def, op)?;
        let Alu {
            id,
            ty: t,
            args: a,
            basic,
        } = alu;
        if !(basic.base().is_int() && basic_bits(basic) == 32 && !basic.is_vector()) {
            return malformed(def, op, format!("{} of type {}", op.opcode, op.ty));
        }
        // The operands and the sum in the signedness of the operation.
        let st = if signed {
            ScalarType::I32
        } else {
            ScalarType::U32
        };
        let sb = BasicType::scalar(st);
        let Some(it) = self.module.basic_ty(sb) else {
            return unsupported(def, op, "type");
        };
        let x = self.operand_as(op, 0, a[0], sb, it);
        let y = self.operand_as(op, 1, a[1], sb, it);
        let sum = if self.module.target.at_least(1, 6) {
            self.module.cap(Capability::DotProduct);
            self.module.cap(Capability::DotProductInput4x8BitPacked);
            let o = if signed { S::SDot } else { S::UDot };
            let format = spirv::PackedVectorFormat::PackedVectorFormat4x8Bit as u32;
            self.module.un(o, it, &[x, y, format])
        } else {
            let extract = if signed {
                S::BitFieldSExtract
            } else {
                S::BitFieldUExtract
            };
            let eight = self.module.const_u32(8);
            let mut sum = 0;
            for k in 0..4 {
                let at = self.module.const_u32(8 * k);
                let p = self.module.un(extract, it, &[x, at, eight]);
                let q = self.module.un(extract, it, &[y, at, eight]);
                let pq = self.module.un(S::IMul, it, &[p, q]);
                sum = if k == 0 {
                    pq
                } else {
                    self.module.un(S::IAdd, it, &[sum, pq])
                };
            }
            sum
        };
        if basic == sb {
            inst(self.module.body(), S::CopyObject, &[t, id, sum]);
        } else {
            self.module.emit_to(S::Bitcast, t, id, &[sum]);
        }
        Ok(())
    }

    /// `CompositeConstruct`: `OpCompositeConstruct` of every operand.
    pub(super) fn composite_construct(&mut self, def: SsaDef, op: &Op) -> R<()> {
        // A vector only used as a memory access's address is taken apart by it: not emitted.
        if op.ty.as_basic().is_some_and(|b| b.is_vector()) && self.only_taken_apart(def, false) {
            return Ok(());
        }
        let alu = self.alu_begin(def, op)?;
        let Alu { id, ty: t, .. } = alu;
        if let Some(vector) = self.whole_vector(op) {
            let mut values = [0u32; 4];
            for (v, r) in values.iter_mut().zip(op.refs().flatten()) {
                *v = self.v(r);
            }
            self.drop_unused_components(&values, &[Some(def); 4]);
            // The components of one vector in order, of its type: that vector. Its id
            // stands for the def unless a phi may have named the def before (phis refer
            // forward) or a name is on it, which take a copy.
            let forward = self.b.uses(def).any(|u| {
                self.op_of(u.user)
                    .is_some_and(|o| matches!(o.opcode, OpCode::Phi | OpCode::DebugName))
            });
            if forward {
                inst(self.module.body(), S::CopyObject, &[t, id, vector]);
            } else {
                self.set_map(def, vector);
                if let Some(s) = self.slots.get_mut(def.index()) {
                    s.defined = false;
                }
            }
            return Ok(());
        }
        if let Some((vector, picks, n)) = self.shuffle_of_components(def, op) {
            // Components of one vector, some of them extracted only for this: one shuffle
            // (two words more than the construct) instead, the extracts taken out.
            let mut values = [0u32; 4];
            for (v, r) in values.iter_mut().zip(op.refs().flatten()) {
                *v = self.v(r);
            }
            self.drop_unused_components(&values[..n], &[Some(def); 4]);
            let f = &mut self.module.sections.functions;
            let start = begin(f, S::VectorShuffle);
            f.extend_from_slice(&[t, id, vector, vector]);
            f.extend_from_slice(&picks[..n]);
            end(f, start);
            return Ok(());
        }
        let f = &mut self.module.sections.functions;
        let start = begin(f, S::CompositeConstruct);
        f.extend_from_slice(&[t, id]);
        for r in op.refs().flatten() {
            f.push(self.slots.get(r.index()).map_or(r.id(), |s| s.id));
        }
        end(f, start);
        Ok(())
    }

    /// The vector whose components `op`, a `CompositeConstruct` of a vector type, takes
    /// (in any order), with their indices and count, if they are all one vector's and at
    /// least one of them is an extract used by nothing else (which then go, see
    /// [`Self::drop_unused_components`]).
    fn shuffle_of_components(&self, def: SsaDef, op: &Op) -> Option<(u32, [u32; 4], usize)> {
        op.ty.as_basic().filter(|b| b.is_vector())?;
        let mut vector = None;
        let mut picks = [0u32; 4];
        let mut n = 0;
        let mut only_here = 0;
        for r in op.refs() {
            let r = r?;
            let (_, c) = self.function_state.components.find(self.v(r))?;
            if vector.is_some_and(|v| v != c.vector) {
                return None;
            }
            vector = Some(c.vector);
            *picks.get_mut(n)? = u32::from(c.index);
            n += 1;
            let mut uses = self.b.uses(r);
            if c.def == Some(r)
                && uses.next().is_some_and(|u| u.user == def)
                && uses.next().is_none()
            {
                only_here += 1;
            }
        }
        vector.filter(|_| only_here >= 1).map(|v| (v, picks, n))
    }

    /// The vector whose components in order are the operands of `op`, a `CompositeConstruct`
    /// of a vector type, if it is one (see [`FunctionState::components`]).
    ///
    /// [`FunctionState::components`]: super::control_flow::FunctionState::components
    fn whole_vector(&self, op: &Op) -> Option<u32> {
        let size = op.ty.as_basic().filter(|b| b.is_vector())?.vec_size();
        let mut values = [0u32; 4];
        let mut n = 0;
        for r in op.refs() {
            *values.get_mut(n)? = self.v(r?);
            n += 1;
        }
        self.vector_of_components(&values[..n], size)
    }

    /// The vector of `size` components whose components in order are `values`, if they are
    /// one's (see [`FunctionState::components`]).
    ///
    /// [`FunctionState::components`]: super::control_flow::FunctionState::components
    pub(super) fn vector_of_components(&self, values: &[u32], size: u8) -> Option<u32> {
        let mut vector = None;
        let mut n = 0u8;
        for (i, &value) in values.iter().enumerate() {
            let (_, c) = self.function_state.components.find(value)?;
            if usize::from(c.index) != i || c.size != size || vector.is_some_and(|v| v != c.vector)
            {
                return None;
            }
            vector = Some(c.vector);
            n += 1;
        }
        vector.filter(|_| n == size)
    }

    /// Takes out the `OpCompositeExtract`s of `values` (components of one vector, see
    /// [`FunctionState::components`]) whose IR def has no use but the op `users[i]`, which
    /// is about to use the vector instead. An extract far back in the section is left (it
    /// is only dead code; taking it out would move all that follows).
    ///
    /// [`FunctionState::components`]: super::control_flow::FunctionState::components
    pub(super) fn drop_unused_components(&mut self, values: &[u32], users: &[Option<SsaDef>]) {
        for (&value, &user) in values.iter().zip(users) {
            let Some(user) = user else { continue };
            let Some((slot, c)) = self.function_state.components.find(value) else {
                continue;
            };
            let Some(def) = c.def else { continue };
            let mut uses = self.b.uses(def);
            let only = uses.next().is_some_and(|u| u.user == user) && uses.next().is_none();
            let f = &mut self.module.sections.functions;
            let is_extract = f.get(c.at) == Some(&(5 << 16 | S::CompositeExtract as u32))
                && f.get(c.at + 2) == Some(&value);
            if !only || !is_extract || f.len() - c.at > MAX_MOVED_WORDS {
                continue;
            }
            f.drain(c.at..c.at + 5);
            self.function_state.components.remove(slot, c.at, 5);
            if let Some(s) = self.slots.get_mut(def.index()) {
                s.defined = false;
            }
        }
    }

    /// `CompositeExtract` and `CompositeInsert` (`insert`): at a constant address, the
    /// composite instruction with literal indices; at a run-time one, which may only select
    /// a component of a vector, `OpVectorExtractDynamic` / `OpVectorInsertDynamic`.
    pub(super) fn composite_access(&mut self, def: SsaDef, op: &Op, insert: bool) -> R<()> {
        let alu = self.alu_begin(def, op)?;
        let Alu {
            id, ty: t, args: a, ..
        } = alu;
        let addr = self.arg(def, op, 1)?;
        let Some(aop) = self.op_of(addr) else {
            return malformed(def, op, "address missing");
        };
        if aop.opcode == OpCode::Constant {
            let o = if insert {
                S::CompositeInsert
            } else {
                S::CompositeExtract
            };
            let f = &mut self.module.sections.functions;
            let start = f.len();
            match (insert, constant_literals(aop)) {
                // One index (nearly always): an instruction of known length.
                (false, &[k]) => inst_tail(f, o, [t, id, a[0], k.0 as u32], &[]),
                (true, &[k]) => inst_tail(f, o, [t, id, a[2], a[0], k.0 as u32], &[]),
                (_, lits) => {
                    let start = begin(f, o);
                    f.extend_from_slice(&[t, id]);
                    if insert {
                        f.push(a[2]);
                    }
                    f.push(a[0]);
                    f.extend(lits.iter().map(|l| l.0 as u32));
                    end(f, start);
                }
            }
            if !insert {
                let from = op
                    .arg(0)
                    .and_then(|c| self.op_of(c))
                    .and_then(|c| c.ty.as_basic());
                if let (Some(from), [index]) = (from, constant_literals(aop)) {
                    if from.is_vector()
                        && index.0 < u64::from(from.vec_size())
                        && op.ty.as_basic() == Some(from.with_vec_size(1))
                    {
                        self.remember_component(Component {
                            value: id,
                            vector: a[0],
                            index: index.0 as u8,
                            size: from.vec_size(),
                            def: Some(def),
                            at: start,
                        });
                    }
                }
            }
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

    /// `UMsad`: `msad4` expanded per byte (see the comment inside).
    pub(super) fn msad(&mut self, def: SsaDef, op: &Op) -> R<()> {
        let alu = self.alu_begin(def, op)?;
        let Alu {
            id,
            ty: t,
            args: a,
            basic: rb,
        } = alu;
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

    /// `DerivX` / `DerivY`: `OpDPdx`-like instructions, `ops` being the default, coarse and
    /// fine ones; Vulkan derives 32-bit floats only, so a half is derived as a float.
    pub(super) fn derivative(&mut self, def: SsaDef, op: &Op, ops: [S; 3]) -> R<()> {
        self.need_quads(def, op)?;
        let id = def.id();
        let t = self.module.val_ty(def, op)?;
        let mut a = self.v(self.arg(def, op, 0)?);
        // Vulkan derives 32-bit floats only: a half is derived as a float.
        let Some(b) = op.ty.as_basic() else {
            return malformed(def, op, "derivative of a composite");
        };
        let half = match basic_bits(b) {
            32 => None,
            16 => {
                let Some(ft) = self.module.basic_ty(b.with_base(ScalarType::F32)) else {
                    return unsupported(def, op, "derivative type");
                };
                a = self.module.un(S::FConvert, ft, &[a]);
                Some(ft)
            }
            _ => return unsupported(def, op, format!("derivative of {}", op.ty)),
        };
        let [default, coarse, fine] = ops;
        let o = match DerivativeMode::from_literal(self.lit(def, op, 0)?) {
            Some(DerivativeMode::Coarse) => {
                self.module.cap(Capability::DerivativeControl);
                coarse
            }
            Some(DerivativeMode::Fine) => {
                self.module.cap(Capability::DerivativeControl);
                fine
            }
            _ => default,
        };
        match half {
            None => self.module.emit_to(o, t, id, &[a]),
            Some(ft) => {
                let d = self.module.un(o, ft, &[a]);
                self.module.emit_to(S::FConvert, t, id, &[d]);
            }
        }
        Ok(())
    }
}
