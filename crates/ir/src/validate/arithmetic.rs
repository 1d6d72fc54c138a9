//! Comparisons, logic, selection, float and integer arithmetic, bit operations, conversions and
//! casts. Their operand types are the opcode table's [`TypeRule`](crate::TypeRule)s, checked
//! by `types`; what is left here are the rules that relate a result to its operands in ways
//! the table does not state.

use super::{Level, Rule, Validator};
use crate::op::{Op, SsaDef};
use crate::opcode::OpCode;
use crate::types::{ScalarType, Type};

/// True if [`Validator::check_arithmetic`] has a rule for `op` (the opcodes of its match,
/// and conversions).
pub(super) const fn has_arithmetic_rule(op: OpCode) -> bool {
    use OpCode::*;
    matches!(
        op,
        FDot | FDotLegacy
            | UMsad
            | SDot4x8Packed
            | UDot4x8Packed
            | ConvertFtoF
            | ConvertFtoI
            | ConvertItoF
            | ConvertItoI
            | Cast
    ) || op
        .const_info()
        .traits
        .contains(crate::opcode::Traits::CONVERSION)
}

impl Validator<'_> {
    /// Result types of dot products, `msad4`, conversions and casts; the bit sizes of casts;
    /// conversions that convert nothing in lowered IR.
    pub(super) fn check_arithmetic(&mut self, def: SsaDef, op: &Op) {
        use OpCode::*;
        use ScalarType as S;
        let rt = &op.ty;
        match op.opcode {
            FDot | FDotLegacy => {
                // A scalar of the vectors' scalar type.
                if let Some(a) = self.operand_type(op, 0).and_then(|t| t.base_type()) {
                    let ok = rt.is_scalar() && self.same_type(rt, &Type::scalar(a));
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
            // Sums of byte differences of 32-bit words (`msad4` per component).
            UMsad
                if !self.basic_of(rt, |s| {
                    s.is_int() && s.bit_size() != Some(16) && s.bit_size() != Some(64)
                }) =>
            {
                self.err(
                    def,
                    op,
                    Rule::ResultType,
                    format!("{rt} is not a 32-bit integer"),
                );
            }
            // A packed dot product is one 32-bit sum.
            SDot4x8Packed | UDot4x8Packed
                if !self.scalar_of(rt, |s| s.is_int() && s.bit_size() == Some(32)) =>
            {
                self.err(
                    def,
                    op,
                    Rule::ResultType,
                    format!("{rt} is not a 32-bit integer scalar"),
                );
            }
            ConvertFtoF | ConvertFtoI | ConvertItoF | ConvertItoI => {
                let float = matches!(op.opcode, ConvertFtoF | ConvertItoF);
                let kind = if float { "float" } else { "integer" };
                let pred = |s: ScalarType| if float { s.is_float() } else { s.is_int() };
                if !self.basic_of(rt, pred) {
                    self.err(
                        def,
                        op,
                        Rule::ResultType,
                        format!("expected {kind}, found {rt}"),
                    );
                }
            }
            Cast => {
                // Bits of one number reread as another (bools have no bits to reread).
                if !self.basic_of(rt, S::is_numeric) {
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
            }
            _ => {}
        }
        if op.opcode.is_conversion() {
            self.check_no_op_conversion(def, op);
        }
    }

    /// A conversion whose result type is its operand's, in lowered IR.
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
