//! Type rules shared by the checks of every concept: what an operand's or result's type must
//! be, with `Unknown` scalars standing for any number or bool where the level allows them.

use super::{Level, Rule, Validator};
use crate::op::{Op, SsaDef};
use crate::opcode::{Like, OpCode, ResultRule, TypeRule};
use crate::types::{ScalarType, Type};
use std::fmt;

/// True if [`Validator::check_operand_types`] has a rule for an operand of `op`: a
/// [`TypeRule`] other than `Any` and the image rules, or a [`Like`] other than `Free`.
pub(super) const fn has_operand_type_rule(op: OpCode) -> bool {
    let info = op.const_info();
    const fn any_rule(refs: &[crate::opcode::RefInfo]) -> bool {
        let mut k = 0;
        while k < refs.len() {
            let r = &refs[k];
            let typed = !matches!(r.ty, TypeRule::Any) && !r.ty.is_image_operand();
            if typed || !matches!(r.like, Like::Free) {
                return true;
            }
            k += 1;
        }
        false
    }
    any_rule(info.refs) || any_rule(info.ref_tail)
}

impl Validator<'_> {
    pub(super) fn unknown_ok(&self) -> bool {
        self.level != Level::Lowered
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
            ResultRule::Vec4U32 => {
                t.as_basic().is_some_and(|b| b.vec_size() == 4) && self.basic_of(t, |x| x == S::U32)
            }
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
    #[inline]
    pub(super) fn want(
        &mut self,
        def: SsaDef,
        op: &Op,
        i: usize,
        ok: bool,
        what: impl fmt::Display,
    ) {
        if !ok {
            self.operand_type_error(def, op, i, &what);
        }
    }
    /// The error [`Validator::want`] reports (out of line: valid programs never get here).
    #[cold]
    #[inline(never)]
    fn operand_type_error(&mut self, def: SsaDef, op: &Op, i: usize, what: &dyn fmt::Display) {
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
    /// Checks operand `i` (if it references a live op) with `pred` on its type.
    #[inline]
    pub(super) fn want_type(
        &mut self,
        def: SsaDef,
        op: &Op,
        i: usize,
        what: impl fmt::Display,
        pred: impl Fn(&Self, &Type) -> bool,
    ) {
        if let Some(t) = self.operand_type_ref(op, i) {
            let ok = pred(self, t);
            self.want(def, op, i, ok, what);
        }
    }
    /// Every reference operand's [`TypeRule`] and [`Like`] from the opcode table (the image
    /// operand rules need the image's kind: `image_rules` checks them).
    pub(super) fn check_operand_types(&mut self, def: SsaDef, op: &Op, nref: usize) {
        let info = op.opcode.info();
        for i in 0..nref {
            let Some(r) = info.ref_info(i) else { break };
            if r.ty != TypeRule::Any && !r.ty.is_image_operand() {
                self.check_type_rule(def, op, i, r.ty);
            }
            if !matches!(r.like, Like::Free) {
                self.check_like(def, op, i, r.like);
            }
        }
    }

    /// Operand `i` (if it references a live op) follows `rule`.
    fn check_type_rule(&mut self, def: SsaDef, op: &Op, i: usize, rule: TypeRule) {
        use ScalarType as S;
        let rt = &op.ty;
        let int32 = |s: ScalarType| s.is_int() && s.bit_size() == Some(32);
        match rule {
            TypeRule::Result => self.want_type(def, op, i, rt, |v, t| v.same_type(t, rt)),
            TypeRule::IntLikeResult | TypeRule::IntPerComponent => {
                let bits = rule == TypeRule::IntLikeResult;
                self.want_type(def, op, i, "an integer matching the result", |v, t| {
                    v.basic_of(t, S::is_int) && matches_result(t, rt, bits)
                });
            }
            TypeRule::FloatPerComponent => {
                self.want_type(def, op, i, "a float matching the result", |v, t| {
                    v.basic_of(t, S::is_float) && matches_result(t, rt, false)
                });
            }
            TypeRule::BoolPerComponent => {
                // One condition for the whole value, or one per component.
                let n = rt.as_basic().map_or(0, |b| b.vec_size());
                self.want_type(def, op, i, format_args!("bool or vec{n}<bool>"), |v, t| {
                    v.basic_of(t, |s| s == S::Bool)
                        && t.as_basic()
                            .is_some_and(|b| b.vec_size() == 1 || b.vec_size() == n)
                });
            }
            TypeRule::BoolScalar => self.want_type(def, op, i, "a bool scalar", |v, t| {
                v.scalar_of(t, |s| s == S::Bool)
            }),
            TypeRule::IntScalar | TypeRule::ComparedInt => {
                self.want_type(def, op, i, "an integer scalar", |v, t| {
                    v.scalar_of(t, S::is_int)
                });
            }
            TypeRule::Int32Scalar => {
                self.want_type(def, op, i, "a 32-bit integer scalar", |v, t| {
                    v.scalar_of(t, int32)
                });
            }
            TypeRule::FloatScalar => self.want_type(def, op, i, "a float scalar", |v, t| {
                v.scalar_of(t, S::is_float)
            }),
            TypeRule::FloatVector => self.want_type(def, op, i, "a float vector", |v, t| {
                t.is_vector() && v.basic_of(t, S::is_float)
            }),
            TypeRule::U32 => {
                self.want_type(def, op, i, "u32", |v, t| v.scalar_of(t, |s| s == S::U32))
            }
            TypeRule::U64 => {
                self.want_type(def, op, i, "u64", |v, t| v.scalar_of(t, |s| s == S::U64))
            }
            TypeRule::Vec2F32 => {
                let want = Type::vector(S::F32, 2);
                self.want_type(def, op, i, "vec2<f32>", |v, t| v.same_type(t, &want));
            }
            TypeRule::Vec4U32 => {
                let want = Type::vector(S::U32, 4);
                self.want_type(def, op, i, "vec4<u32>", |v, t| v.same_type(t, &want));
            }
            TypeRule::Address | TypeRule::ResourceAddress => {
                self.want_type(def, op, i, "an integer address", |v, t| {
                    v.basic_of(t, S::is_int)
                });
            }
            TypeRule::Any
            | TypeRule::TexelCoord
            | TypeRule::SampleCoord
            | TypeRule::TexelLayer
            | TypeRule::SampleLayer
            | TypeRule::Offset
            | TypeRule::Gradient => {}
        }
    }

    /// Operand `i`'s type relates to an earlier operand's as `like` says.
    fn check_like(&mut self, def: SsaDef, op: &Op, i: usize, like: Like) {
        let (Like::TypeOf(k) | Like::BitsOf(k)) = like else {
            return;
        };
        let k = usize::from(k);
        let (Some(a), Some(b)) = (self.operand_type_ref(op, k), self.operand_type_ref(op, i))
        else {
            return;
        };
        if let Like::TypeOf(_) = like {
            let ok = self.same_type(a, b);
            self.want(def, op, i, ok, format_args!("{a} like operand {k}"));
        } else {
            // Integers of either signedness; an untyped scalar has any bit size.
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
            self.want(def, op, i, ok, format_args!("the bit size of {a}"));
        }
    }
}

/// True if the scalar or vector `t` has the vector size of the result `rt` (and its bit size,
/// if `bits`; an untyped scalar has any bit size).
#[inline]
fn matches_result(t: &Type, rt: &Type, bits: bool) -> bool {
    let (Some(a), Some(r)) = (t.as_basic(), rt.as_basic()) else {
        return false;
    };
    a.vec_size() == r.vec_size()
        && (!bits
            || match (a.base().bit_size(), r.base().bit_size()) {
                (Some(x), Some(y)) => x == y,
                _ => true,
            })
}
