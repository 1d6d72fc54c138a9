//! Type rules shared by the checks of every concept: what an operand's or result's type must
//! be, with `Unknown` scalars standing for any number or bool where the level allows them.

use super::{Level, Rule, Validator};
use crate::op::{Op, SsaDef};
use crate::opcode::ResultRule;
use crate::types::{ScalarType, Type};
use std::fmt;

/// How an integer operand must relate to the result type.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum IntMatch {
    /// Any integer scalar or vector.
    Any,
    /// Same vector size as the result.
    VecSize,
    /// Same vector size and bit size as the result.
    Shape,
}

impl Validator<'_> {
    pub(super) fn unknown_ok(&self) -> bool {
        self.level == Level::Structural
    }
    /// True if `s` satisfies `pred`, or is `Unknown` where that is allowed.
    pub(super) fn kind_ok(&self, s: ScalarType, pred: impl Fn(ScalarType) -> bool) -> bool {
        pred(s) || (s == ScalarType::Unknown && self.unknown_ok())
    }
    /// True if `t` is a scalar or vector whose scalar type satisfies `pred`.
    pub(super) fn basic_of(&self, t: &Type, pred: impl Fn(ScalarType) -> bool) -> bool {
        t.base_type().is_some_and(|s| self.kind_ok(s, pred))
    }
    /// True if `t` is a plain scalar whose type satisfies `pred`.
    pub(super) fn scalar_of(&self, t: &Type, pred: impl Fn(ScalarType) -> bool) -> bool {
        t.is_scalar() && self.basic_of(t, pred)
    }
    /// True if `a` and `b` are equal, treating `Unknown` scalars as wildcards for numbers and
    /// bools where allowed.
    pub(super) fn same_type(&self, a: &Type, b: &Type) -> bool {
        if a == b {
            return true;
        }
        if !self.unknown_ok() || a.dims() != b.dims() || a.members().len() != b.members().len() {
            return false;
        }
        // An untyped scalar stands for a number or a bool, never a descriptor.
        let stands_for =
            |u: ScalarType, t: ScalarType| u == ScalarType::Unknown && !t.is_descriptor();
        a.members().iter().zip(b.members()).all(|(x, y)| {
            x.vec_size() == y.vec_size()
                && (x.base() == y.base()
                    || stands_for(x.base(), y.base())
                    || stands_for(y.base(), x.base()))
        })
    }
    /// The opcode's result rule.
    pub(super) fn check_result(&mut self, def: SsaDef, op: &Op) {
        use ScalarType as S;
        let t = &op.ty;
        let vec2 = |s: ScalarType| {
            t.as_basic().is_some_and(|b| b.vec_size() == 2) && self.basic_of(t, |x| x == s)
        };
        let ok = match op.opcode.info().result {
            ResultRule::Void => t.is_void(),
            ResultRule::Any => true,
            ResultRule::Value => !t.is_void(),
            ResultRule::Bool => self.scalar_of(t, |s| s == S::Bool),
            ResultRule::Float => self.basic_of(t, S::is_float),
            ResultRule::F32 => self.basic_of(t, |s| s == S::F32),
            ResultRule::Int => self.basic_of(t, S::is_int),
            ResultRule::U32 => self.scalar_of(t, |s| s == S::U32),
            ResultRule::Vec2U32 => vec2(S::U32),
            ResultRule::Vec2I32 => vec2(S::I32),
            ResultRule::Vec2F32 => vec2(S::F32),
            ResultRule::Scalar => self.scalar_of(t, S::is_numeric),
            ResultRule::Basic => self.basic_of(t, |s| s.is_numeric() || s == S::Bool),
            // A descriptor's type comes from its declaration, never left to type resolution.
            ResultRule::Descriptor => t.is_scalar() && t.base_type().is_some_and(S::is_descriptor),
            ResultRule::AtomicResult => t.is_void() || self.scalar_of(t, S::is_int),
            ResultRule::Composite => t.is_struct() || t.is_array(),
        };
        if !ok {
            self.err(
                def,
                op,
                Rule::ResultType,
                format!("{} is not {:?}", t, op.opcode.info().result),
            );
        }
    }
    /// Reports [`Rule::OperandType`] for operand `i` unless `ok` holds for its type.
    pub(super) fn want(
        &mut self,
        def: SsaDef,
        op: &Op,
        i: usize,
        ok: bool,
        what: impl fmt::Display,
    ) {
        if !ok {
            let found = self
                .operand_type(op, i)
                .map_or_else(|| "nothing".to_string(), |t| t.to_string());
            self.err_at(
                def,
                op,
                i,
                Rule::OperandType,
                format!("expected {what}, found {found}"),
            );
        }
    }
    /// Checks operand `i` (if it references a live op) with `pred` on its type.
    pub(super) fn want_type(
        &mut self,
        def: SsaDef,
        op: &Op,
        i: usize,
        what: impl fmt::Display,
        pred: impl Fn(&Self, &Type) -> bool,
    ) {
        if let Some(t) = self.operand_type(op, i) {
            let ok = pred(self, &t);
            self.want(def, op, i, ok, what);
        }
    }
    /// Operand `i` must have the result type of `op`.
    pub(super) fn want_result_type(&mut self, def: SsaDef, op: &Op, i: usize) {
        let rt = op.ty;
        self.want_type(def, op, i, rt, |v, t| v.same_type(t, &rt));
    }
    /// Integer operand `i`, related to the result type as `m` says.
    pub(super) fn want_int(&mut self, def: SsaDef, op: &Op, i: usize, m: IntMatch) {
        let rt = op.ty;
        self.want_type(def, op, i, "an integer matching the result", |v, t| {
            if !v.basic_of(t, ScalarType::is_int) {
                return false;
            }
            let (Some(a), Some(r)) = (t.as_basic(), rt.as_basic()) else {
                return m == IntMatch::Any;
            };
            match m {
                IntMatch::Any => true,
                IntMatch::VecSize => a.vec_size() == r.vec_size(),
                IntMatch::Shape => {
                    a.vec_size() == r.vec_size()
                        && match (a.base().bit_size(), r.base().bit_size()) {
                            (Some(x), Some(y)) => x == y,
                            _ => true,
                        }
                }
            }
        });
    }
    /// A bit-field op's offset (operand `oi`) and count (the next) have one type: they are
    /// masked and clamped together.
    pub(super) fn want_same_offset_and_count(&mut self, def: SsaDef, op: &Op, oi: usize) {
        if let Some(ot) = self.operand_type(op, oi) {
            self.want_type(
                def,
                op,
                oi + 1,
                format!("the offset's type {ot}"),
                |v, t| v.same_type(t, &ot),
            );
        }
    }
    /// Two operands of one type (comparisons, dot products).
    pub(super) fn want_same_operands(&mut self, def: SsaDef, op: &Op, nref: usize) {
        if nref < 2 {
            return;
        }
        if let (Some(a), Some(b)) = (self.operand_type(op, 0), self.operand_type(op, 1)) {
            let ok = self.same_type(&a, &b);
            self.want(def, op, 1, ok, format_args!("{a} like operand 0"));
        }
    }
    /// Two integer operands of one bit size and vector size.
    pub(super) fn want_same_bits(&mut self, def: SsaDef, op: &Op, nref: usize) {
        if nref < 2 {
            return;
        }
        if let (Some(a), Some(b)) = (self.operand_type(op, 0), self.operand_type(op, 1)) {
            let ok = match (a.as_basic(), b.as_basic()) {
                (Some(x), Some(y)) => {
                    x.vec_size() == y.vec_size()
                        && match (x.base().bit_size(), y.base().bit_size()) {
                            (Some(p), Some(q)) => p == q,
                            _ => true,
                        }
                }
                _ => true,
            };
            self.want(def, op, 1, ok, format_args!("the bit size of {a}"));
        }
    }
}
