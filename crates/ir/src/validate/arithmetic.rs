//! Comparisons, logic, selection, float and integer arithmetic, bit operations, conversions and
//! casts: the types of their operands and results.

use super::types::IntMatch;
use super::{Level, Rule, Validator};
use crate::op::{Op, SsaDef};
use crate::opcode::OpCode;
use crate::types::{ScalarType, Type};

impl Validator<'_> {
    /// Operand and result types of arithmetic, logic, comparisons, conversions and casts.
    pub(super) fn check_arithmetic(&mut self, def: SsaDef, op: &Op, nref: usize) {
        use OpCode::*;
        use ScalarType as S;
        let rt = op.ty;
        match op.opcode {
            FEq | FNe | FLt | FLe | FGt | FGe | FIsNan => {
                for i in 0..nref {
                    self.want_type(def, op, i, "a float scalar", |v, t| {
                        v.scalar_of(t, S::is_float)
                    });
                }
                self.want_same_operands(def, op, nref);
            }
            IEq | INe | SLt | SLe | SGt | SGe | ULt | ULe | UGt | UGe => {
                for i in 0..nref {
                    self.want_type(def, op, i, "an integer scalar", |v, t| {
                        v.scalar_of(t, S::is_int)
                    });
                }
                self.want_same_bits(def, op, nref);
            }
            BAnd | BOr | BEq | BNe | BNot => {
                for i in 0..nref {
                    self.want_type(def, op, i, "a bool scalar", |v, t| {
                        v.scalar_of(t, |s| s == S::Bool)
                    });
                }
            }
            Select => {
                // One condition for the whole value, or one per component.
                let n = rt.as_basic().map_or(0, |b| b.vec_size());
                self.want_type(def, op, 0, format_args!("bool or vec{n}<bool>"), |v, t| {
                    v.basic_of(t, |s| s == S::Bool)
                        && t.as_basic()
                            .is_some_and(|b| b.vec_size() == 1 || b.vec_size() == n)
                });
                self.want_result_type(def, op, 1);
                self.want_result_type(def, op, 2);
            }
            FAbs | FNeg | FAdd | FSub | FMul | FMulLegacy | FMad | FMadLegacy | FDiv | FRcp
            | FSqrt | FRsq | FExp2 | FLog2 | FFract | FRound | FMin | FMax | FClamp | FSin
            | FCos | FPow | FPowLegacy => {
                for i in 0..nref {
                    self.want_result_type(def, op, i);
                }
            }
            FDot | FDotLegacy => {
                for i in 0..nref {
                    self.want_type(def, op, i, "a float vector", |v, t| {
                        t.is_vector() && v.basic_of(t, S::is_float)
                    });
                }
                self.want_same_operands(def, op, nref);
                if let Some(a) = self.operand_type(op, 0).and_then(|t| t.base_type()) {
                    let ok = rt.is_scalar() && self.same_type(&rt, &Type::scalar(a));
                    if !ok {
                        self.err(
                            def,
                            op,
                            Rule::ResultType,
                            format!("expected {a}, found {rt}"),
                        );
                    }
                }
            }
            IAnd | IOr | IXor | INot | IAdd | ISub | IAbs | INeg | IMul | UDiv | UMod | SMin
            | SMax | SClamp | UMin | UMax | UClamp => {
                for i in 0..nref {
                    self.want_int(def, op, i, IntMatch::Shape);
                }
            }
            // Offsets, counts and shift amounts may have another bit size, but one of them
            // per component (SPIR-V needs the result's vector size).
            IBitInsert => {
                for i in 0..nref {
                    let m = if i < 2 {
                        IntMatch::Shape
                    } else {
                        IntMatch::VecSize
                    };
                    self.want_int(def, op, i, m);
                }
                self.want_same_offset_and_count(def, op, 2);
            }
            UBitExtract | SBitExtract | IShl | SShr | UShr => {
                for i in 0..nref {
                    let m = if i == 0 {
                        IntMatch::Shape
                    } else {
                        IntMatch::VecSize
                    };
                    self.want_int(def, op, i, m);
                }
                if matches!(op.opcode, UBitExtract | SBitExtract) {
                    self.want_same_offset_and_count(def, op, 1);
                }
            }
            IBitCount | IBitReverse | IFindLsb | SFindMsb | UFindMsb => {
                self.want_int(def, op, 0, IntMatch::VecSize);
            }
            UMsad => {
                // Sums of byte differences of 32-bit words (`msad4` per component).
                if !self.basic_of(&rt, |s| {
                    s.is_int() && s.bit_size() != Some(16) && s.bit_size() != Some(64)
                }) {
                    self.err(
                        def,
                        op,
                        Rule::ResultType,
                        format!("{rt} is not a 32-bit integer"),
                    );
                }
                for i in 0..nref {
                    self.want_int(def, op, i, IntMatch::Shape);
                }
            }
            IAddCarry | ISubBorrow | SMulExtended | UMulExtended => {
                for i in 0..nref {
                    self.want_type(def, op, i, "a 32-bit integer scalar", |v, t| {
                        v.scalar_of(t, |s| s.is_int() && s.bit_size() == Some(32))
                    });
                }
            }
            ConvertFtoF | ConvertFtoI | ConvertItoF | ConvertItoI => {
                let (src_float, dst_float) = match op.opcode {
                    ConvertFtoF => (true, true),
                    ConvertFtoI => (true, false),
                    ConvertItoF => (false, true),
                    _ => (false, false),
                };
                let kind = |f: bool| if f { "float" } else { "integer" };
                let pred = |f: bool| move |s: ScalarType| if f { s.is_float() } else { s.is_int() };
                if !self.basic_of(&rt, pred(dst_float)) {
                    self.err(
                        def,
                        op,
                        Rule::ResultType,
                        format!("expected {}, found {rt}", kind(dst_float)),
                    );
                }
                let rsize = rt.as_basic().map(|b| b.vec_size());
                self.want_type(def, op, 0, kind(src_float), |v, t| {
                    v.basic_of(t, pred(src_float))
                        && (rsize.is_none() || t.as_basic().map(|b| b.vec_size()) == rsize)
                });
                self.check_no_op_conversion(def, op);
            }
            ConvertF32toPackedF16 => {
                let want = Type::vector(S::F32, 2);
                self.want_type(def, op, 0, "vec2<f32>", |v, t| v.same_type(t, &want));
            }
            ConvertPackedF16toF32 => {
                self.want_type(def, op, 0, "u32", |v, t| v.scalar_of(t, |s| s == S::U32));
            }
            Cast => {
                // Bits of one number reread as another (bools have no bits to reread).
                if !self.basic_of(&rt, S::is_numeric) {
                    self.err(def, op, Rule::ResultType, format!("{rt} is not a number"));
                }
                if let Some(st) = self.operand_type(op, 0) {
                    if !self.basic_of(&st, S::is_numeric) {
                        self.want(def, op, 0, false, "a number");
                    } else if let (Some(a), Some(b)) = (st.total_bits(), rt.total_bits()) {
                        if a != b {
                            self.err(
                                def,
                                op,
                                Rule::CastBitSize,
                                format!("{st} ({a} bits) to {rt} ({b} bits)"),
                            );
                        }
                    }
                }
                self.check_no_op_conversion(def, op);
            }
            DerivX | DerivY => self.want_result_type(def, op, 0),
            _ => {}
        }
    }

    fn check_no_op_conversion(&mut self, def: SsaDef, op: &Op) {
        if self.level != Level::Lowered {
            return;
        }
        if let Some(st) = self.operand_type(op, 0) {
            if st == op.ty {
                self.err(def, op, Rule::NoOpConversion, format!("{st} to {st}"));
            }
        }
    }
}
