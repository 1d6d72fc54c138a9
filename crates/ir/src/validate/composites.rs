//! Composites: what `CompositeConstruct` builds from, and what `CompositeExtract` reads and
//! `CompositeInsert` writes at an address.

use super::{Rule, Validator};
use crate::op::{Op, SsaDef};
use crate::opcode::OpCode;
use crate::types::Type;

/// True if [`Validator::check_composite`] has a rule for `op`.
pub(super) const fn has_composite_rule(op: OpCode) -> bool {
    use OpCode::*;
    matches!(op, CompositeInsert | CompositeExtract | CompositeConstruct)
}

impl Validator<'_> {
    /// Composite construction, extraction and insertion.
    pub(super) fn check_composite(&mut self, def: SsaDef, op: &Op, nref: usize) {
        use OpCode::*;
        let rt = &op.ty;
        match op.opcode {
            CompositeInsert | CompositeExtract => self.check_extract_or_insert(def, op, rt),
            CompositeConstruct => self.check_construct(def, op, rt, nref),
            _ => {}
        }
    }

    /// `CompositeConstruct`: a vector from scalars and vectors of its scalar type whose
    /// components add up to its size (at least two operands); a struct or sized array from
    /// one operand per member or element, of that type.
    fn check_construct(&mut self, def: SsaDef, op: &Op, rt: &Type, nref: usize) {
        if let Some(b) = rt.as_basic() {
            if !b.is_vector() {
                self.err(
                    def,
                    op,
                    Rule::ResultType,
                    format!("expected a composite, found {rt}"),
                );
                return;
            }
            let want = Type::scalar(b.base());
            let mut n = 0u32;
            for i in 0..nref {
                let Some(t) = self.operand_type(op, i) else {
                    continue;
                };
                match t.as_basic() {
                    Some(c) if self.same_type(&Type::scalar(c.base()), &want) => {
                        n += u32::from(c.vec_size());
                    }
                    _ => {
                        self.want(def, op, i, false, format_args!("{want} or a vector of it"));
                        return;
                    }
                }
            }
            if nref < 2 || n != u32::from(b.vec_size()) {
                self.err(
                    def,
                    op,
                    Rule::OperandCount,
                    format!("{nref} operands with {n} components for {rt}"),
                );
            }
            return;
        }
        let arrays = rt.dims();
        let len = match arrays.last() {
            Some(0) => {
                self.err(def, op, Rule::ResultType, format!("{rt} has no size"));
                return;
            }
            Some(&n) => n as usize,
            None => rt.members().len(),
        };
        if nref != len {
            self.err(
                def,
                op,
                Rule::OperandCount,
                format!("{nref} operands for {rt}, which has {len} parts"),
            );
            return;
        }
        for i in 0..nref {
            let want = if arrays.is_empty() {
                Type::basic(rt.members()[i])
            } else {
                rt.element_type()
            };
            if let Some(t) = self.operand_type(op, i) {
                let ok = self.same_type(&t, &want);
                self.want(def, op, i, ok, want);
            }
        }
    }
    /// `CompositeExtract` with a constant address: every index must stay inside the
    /// composite (a struct member needs a constant index anyway), and the result must be the
    /// part the address reaches.
    /// `CompositeExtract` gives, and `CompositeInsert` writes, the type its address reaches in
    /// the composite (run-time indices pick any element); an insert gives the composite's type.
    fn check_extract_or_insert(&mut self, def: SsaDef, op: &Op, rt: &Type) {
        let (Some(ct), Some((_, addr))) = (self.operand_type(op, 0), self.target(op, 1)) else {
            return;
        };
        // Shapes are checked with `Unknown` scalars too (a scalar has no members to extract).
        let n = addr.ty.as_basic().map_or(0, |b| b.vec_size() as usize);
        let constant = addr.opcode == OpCode::Constant;
        let t = match ct.at_address((0..n).map(|k| if constant { addr.lit(k) } else { None })) {
            Ok(t) => t,
            Err(k) => {
                self.err_at(
                    def,
                    op,
                    1,
                    Rule::OperandType,
                    format!("index {k} of the address leaves {ct}"),
                );
                return;
            }
        };
        if op.opcode == OpCode::CompositeInsert {
            if !self.same_type(&ct, rt) {
                self.err(
                    def,
                    op,
                    Rule::ResultType,
                    format!("{rt} is not the composite's {ct}"),
                );
            }
            self.want_type(def, op, 2, t, |v, vt| v.same_type(vt, &t));
        } else if !self.same_type(&t, rt) {
            self.err(
                def,
                op,
                Rule::ResultType,
                format!("the address reaches {t}, not {rt}"),
            );
        }
    }
}
