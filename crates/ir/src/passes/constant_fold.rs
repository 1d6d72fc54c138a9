//! Constant folding.
//!
//! Folds, component-wise for vectors:
//! - integer arithmetic, bitwise ops, shifts (count below the bit width only), min/max/clamp,
//!   comparisons, bit count/reverse/find, boolean logic: always, with wrapping two's-complement
//!   arithmetic at the type's width. Division and remainder by zero are left alone (D3D and
//!   SPIR-V disagree on them).
//! - conversions and casts of constants, where the result is exact;
//! - float ops (`FNeg`, `FAbs`, `FAdd`, `FSub`, `FMul`, `FDiv`, `FMin`, `FMax`, comparisons,
//!   `FIsNan`) only if no operand is NaN or subnormal, the IEEE result is exact (no rounding,
//!   so neither the rounding mode nor contraction matters), finite and not subnormal (so the
//!   denorm mode does not matter), and the op is not `Precise` — neither by its own flags nor
//!   by the `SetFpMode` default of its type. `FMin`/`FMax` of two zeros are left alone.
//! - `Select` with a constant condition (to the chosen operand), `CompositeExtract` of a
//!   constant at a constant address, `CompositeConstruct` of constants.
//!
//! `BranchConditional`/`Switch` on constants are left to CFG cleanup.

use crate::op::{Op, OpFlags, SsaDef};
use crate::opcode::OpCode;
use crate::passes::error::PassError;
use crate::passes::util::{
    address_leaves_a_composite, convert_literal_as, float_bits_exact, float_value, lit_mask,
    replace_and_remove, sign_extend, FpModes,
};
use crate::types::{ScalarType, Type};
use crate::Builder;
use smallvec::SmallVec;

/// Runs constant folding; returns whether anything was folded.
pub fn run(b: &mut Builder) -> Result<bool, PassError> {
    let modes = FpModes::collect(b);
    run_with_modes(b, &modes)
}

/// [`run`] with the program's `SetFpMode` defaults already collected (the pipeline collects
/// them once: no pass of the optimisation loop changes them).
pub fn run_with_modes(b: &mut Builder, modes: &FpModes) -> Result<bool, PassError> {
    let mut changed = false;
    // Walking the program order directly visits exactly the ops a snapshot would: folding
    // removes only the folded op, and new constants go to the declarative section, before
    // the first code op, where the walk starts (declarations are never folded).
    let mut cur = b.first_code();
    while let Some(def) = cur {
        cur = b.next(def);
        let Some(op) = b.get(def) else {
            continue;
        };
        if !FOLDS[op.opcode as usize & (FOLDS.len() - 1)] || !may_fold(b, op) {
            continue;
        }
        let op = op.clone();
        if let Some(new) = fold(b, &op, modes) {
            if leaves_a_composite(b, def, new) {
                // A run-time index that turns out to be out of range stays run-time: a
                // constant address must name a member.
                continue;
            }
            replace_and_remove(b, def, new);
            changed = true;
        }
    }
    Ok(changed)
}

/// Per opcode (by discriminant): whether [`fold`] has a rule for it. Most ops have none, and
/// this one lookup turns them away before the operands are looked at. Indexed by the
/// discriminant masked to the table's size (a power of two above every opcode).
static FOLDS: [bool; 1024] = crate::opcode::opcode_table!(1024, false, has_fold_rule);

/// The opcodes [`fold`] folds: those of its own match and of [`fold_bool`], [`fold_int`] and
/// [`fold_float`] (for every other opcode those return `None`). No declaration is among them.
const fn has_fold_rule(op: OpCode) -> bool {
    use OpCode as O;
    matches!(
        op,
        O::Select
            | O::CompositeConstruct
            | O::CompositeExtract
            | O::Cast
            | O::ConvertFtoF
            | O::ConvertFtoI
            | O::ConvertItoF
            | O::ConvertItoI
            | O::BNot
            | O::BAnd
            | O::BOr
            | O::BEq
            | O::BNe
            | O::IAdd
            | O::ISub
            | O::IMul
            | O::UDiv
            | O::UMod
            | O::IAnd
            | O::IOr
            | O::IXor
            | O::INot
            | O::INeg
            | O::IAbs
            | O::IShl
            | O::SShr
            | O::UShr
            | O::SMin
            | O::SMax
            | O::UMin
            | O::UMax
            | O::SClamp
            | O::UClamp
            | O::IBitCount
            | O::IBitReverse
            | O::IFindLsb
            | O::UFindMsb
            | O::IEq
            | O::INe
            | O::SLt
            | O::SLe
            | O::SGt
            | O::SGe
            | O::ULt
            | O::ULe
            | O::UGt
            | O::UGe
            | O::FIsNan
            | O::FNeg
            | O::FAbs
            | O::FAdd
            | O::FSub
            | O::FMul
            | O::FDiv
            | O::FMin
            | O::FMax
            | O::FEq
            | O::FNe
            | O::FLt
            | O::FLe
            | O::FGt
            | O::FGe
    )
}

/// True if `def`, about to be replaced by the constant `new`, is the address of a
/// `CompositeExtract` or `CompositeInsert` that `new` does not index into.
fn leaves_a_composite(b: &Builder, def: SsaDef, new: SsaDef) -> bool {
    b.get(new)
        .filter(|o| o.opcode == OpCode::Constant)
        .is_some_and(|c| {
            let lits: Lits = c.operands.iter().map(|o| o.0).collect();
            address_leaves_a_composite(b, def, &lits)
        })
}

/// Cheap pre-check, exactly the operand conditions [`fold`] checks before anything else (so
/// it never rejects an op `fold` would fold): `Select` and conversions need a constant first
/// operand, `CompositeExtract` a constant composite and address, `CompositeConstruct` constant
/// members, and every other fold one to three operands, all constant, and a basic result.
fn may_fold(b: &Builder, op: &Op) -> bool {
    use OpCode as O;
    let is_const = |i: usize| {
        op.arg(i)
            .and_then(|d| b.get(d))
            .is_some_and(|o| o.opcode == OpCode::Constant)
    };
    match op.opcode {
        O::Select | O::Cast | O::ConvertFtoF | O::ConvertFtoI | O::ConvertItoF | O::ConvertItoI => {
            is_const(0)
        }
        O::CompositeExtract => is_const(0) && is_const(1),
        O::CompositeConstruct => (0..op.ref_count()).all(is_const),
        _ => {
            let n = op.ref_count();
            (1..=3).contains(&n) && op.ty.is_basic() && (0..n).all(is_const)
        }
    }
}

/// Flattened constant literals, inline up to a four-component vector (no allocation for the
/// common case).
type Lits = SmallVec<[u64; 4]>;

/// A constant operand: its type and flattened literals.
struct Const {
    ty: Type,
    lits: Lits,
}

fn constant(b: &Builder, def: Option<SsaDef>) -> Option<Const> {
    let op = b.get(def?)?;
    (op.opcode == OpCode::Constant).then(|| Const {
        ty: op.ty,
        lits: op.operands.iter().map(|o| o.0).collect(),
    })
}

fn fold(b: &mut Builder, op: &Op, modes: &FpModes) -> Option<SsaDef> {
    use OpCode as O;
    match op.opcode {
        O::Select => {
            let c = constant(b, op.arg(0))?;
            if !c.ty.is_scalar() {
                return None;
            }
            return if c.lits.first()? & 1 != 0 {
                op.arg(1)
            } else {
                op.arg(2)
            };
        }
        O::CompositeConstruct => {
            op.ty.flattened_scalar_count()?;
            let mut lits = Lits::new();
            for i in 0..op.ref_count() {
                lits.extend(constant(b, op.arg(i))?.lits);
            }
            if Some(lits.len() as u64) != op.ty.flattened_scalar_count() {
                return None;
            }
            return Some(b.add_constant(op.ty, &lits));
        }
        O::CompositeExtract => {
            let c = constant(b, op.arg(0))?;
            let addr = constant(b, op.arg(1))?;
            let (start, len) = flat_range(c.ty, &addr.lits)?;
            let lits = c.lits.get(start..start + len)?;
            if Some(len as u64) != op.ty.flattened_scalar_count() {
                return None;
            }
            return Some(b.add_constant(op.ty, lits));
        }
        O::Cast | O::ConvertFtoF | O::ConvertFtoI | O::ConvertItoF | O::ConvertItoI => {
            let c = constant(b, op.arg(0))?;
            let (from, to) = (c.ty.as_basic()?, op.ty.as_basic()?);
            if from.vec_size() != to.vec_size() || from.base() == ScalarType::Bool {
                return None;
            }
            if from.base().is_float() && c.lits.iter().any(|&l| float_in(l, from.base()).is_none())
            {
                return None;
            }
            let bitcast = op.opcode == O::Cast;
            let lits = c
                .lits
                .iter()
                .map(|&l| convert_literal_as(l, from.base(), to.base(), bitcast))
                .collect::<Option<Lits>>()?;
            return Some(b.add_constant(op.ty, &lits));
        }
        _ => {}
    }
    let n = op.ref_count();
    if n == 0 || n > 3 || !op.ty.is_basic() {
        return None;
    }
    let mut args: SmallVec<[Const; 3]> = SmallVec::new();
    for i in 0..n {
        args.push(constant(b, op.arg(i))?);
    }
    let in_ty = args[0].ty.as_basic()?;
    let width = in_ty.vec_size() as usize;
    if args
        .iter()
        .any(|a| a.ty.as_basic().map(|t| t.vec_size() as usize) != Some(width))
    {
        return None;
    }
    let out = op.ty.as_basic()?;
    if out.vec_size() as usize != width {
        return None;
    }
    let in_base = in_ty.base();
    let precise = modes.effective(op).contains(OpFlags::PRECISE);
    let mut lits = Lits::new();
    for c in 0..width {
        let mut x = [0u64; 3];
        for (slot, a) in x.iter_mut().zip(&args) {
            *slot = a.lits.get(c).copied().unwrap_or(0);
        }
        let x = &x[..n];
        let v = if in_base.is_float() {
            if precise && out.base().is_float() {
                return None;
            }
            fold_float(op.opcode, in_base, x)?
        } else if in_base == ScalarType::Bool {
            fold_bool(op.opcode, x)?
        } else if in_base.is_int() {
            fold_int(op.opcode, in_base, x)?
        } else {
            return None;
        };
        lits.push(v);
    }
    Some(b.add_constant(op.ty, &lits))
}

/// The flattened start and length of the part of `ty` at constant address `addr`.
fn flat_range(ty: Type, addr: &[u64]) -> Option<(usize, usize)> {
    let mut t = ty;
    let mut start = 0usize;
    for &idx in addr {
        let idx = usize::try_from(idx).ok()?;
        if t.is_array() {
            let dims = t.dims();
            let size = *dims.last()? as usize;
            if idx >= size {
                return None;
            }
            t = t.element_type();
            start += idx * t.flattened_scalar_count()? as usize;
        } else if t.is_struct() {
            let members = t.members();
            if idx >= members.len() {
                return None;
            }
            start += members[..idx]
                .iter()
                .map(|m| m.vec_size() as usize)
                .sum::<usize>();
            t = Type::basic(members[idx]);
        } else if t.is_vector() {
            if idx >= t.as_basic()?.vec_size() as usize {
                return None;
            }
            start += idx;
            t = Type::scalar(t.base_type()?);
        } else {
            return None;
        }
    }
    Some((start, t.flattened_scalar_count()? as usize))
}

fn bool_lit(v: bool) -> u64 {
    v as u64
}

fn fold_bool(opcode: OpCode, x: &[u64]) -> Option<u64> {
    let a = *x.first()? & 1 != 0;
    let b = x.get(1).map(|v| v & 1 != 0);
    Some(bool_lit(match opcode {
        OpCode::BNot => !a,
        OpCode::BAnd => a && b?,
        OpCode::BOr => a || b?,
        OpCode::BEq => a == b?,
        OpCode::BNe => a != b?,
        _ => return None,
    }))
}

fn fold_int(opcode: OpCode, t: ScalarType, x: &[u64]) -> Option<u64> {
    use OpCode as O;
    let bits = t.bit_size()?;
    let mask = lit_mask(t);
    let u = |i: usize| x.get(i).map(|v| v & mask);
    let s = |i: usize| x.get(i).map(|v| sign_extend(*v, bits));
    let a = u(0)?;
    let r = match opcode {
        O::IAdd => a.wrapping_add(u(1)?),
        O::ISub => a.wrapping_sub(u(1)?),
        O::IMul => a.wrapping_mul(u(1)?),
        O::UDiv => a.checked_div(u(1)?)?,
        O::UMod => a.checked_rem(u(1)?)?,
        O::IAnd => a & u(1)?,
        O::IOr => a | u(1)?,
        O::IXor => a ^ u(1)?,
        O::INot => !a,
        O::INeg => a.wrapping_neg(),
        O::IAbs => s(0)?.wrapping_abs() as u64,
        O::IShl | O::SShr | O::UShr => {
            let n = u(1)?;
            if n >= bits as u64 {
                return None;
            }
            match opcode {
                O::IShl => a << n,
                O::UShr => a >> n,
                _ => (s(0)? >> n) as u64,
            }
        }
        O::SMin => s(0)?.min(s(1)?) as u64,
        O::SMax => s(0)?.max(s(1)?) as u64,
        O::UMin => a.min(u(1)?),
        O::UMax => a.max(u(1)?),
        O::SClamp => s(0)?.max(s(1)?).min(s(2)?) as u64,
        O::UClamp => a.max(u(1)?).min(u(2)?),
        O::IBitCount => a.count_ones() as u64,
        O::IBitReverse => a.reverse_bits() >> (64 - bits),
        O::IFindLsb => {
            if a == 0 {
                u64::MAX
            } else {
                a.trailing_zeros() as u64
            }
        }
        O::UFindMsb => {
            if a == 0 {
                u64::MAX
            } else {
                63 - a.leading_zeros() as u64
            }
        }
        O::IEq => return Some(bool_lit(a == u(1)?)),
        O::INe => return Some(bool_lit(a != u(1)?)),
        O::SLt => return Some(bool_lit(s(0)? < s(1)?)),
        O::SLe => return Some(bool_lit(s(0)? <= s(1)?)),
        O::SGt => return Some(bool_lit(s(0)? > s(1)?)),
        O::SGe => return Some(bool_lit(s(0)? >= s(1)?)),
        O::ULt => return Some(bool_lit(a < u(1)?)),
        O::ULe => return Some(bool_lit(a <= u(1)?)),
        O::UGt => return Some(bool_lit(a > u(1)?)),
        O::UGe => return Some(bool_lit(a >= u(1)?)),
        _ => return None,
    };
    Some(r & mask)
}

/// The value of a float literal if it is neither NaN nor subnormal.
fn float_in(bits: u64, t: ScalarType) -> Option<f64> {
    let v = float_value(bits, t)?;
    // A subnormal input of `t` is exactly what `float_bits_exact` refuses as an output.
    if v.is_nan() || (v != 0.0 && v.is_finite() && float_bits_exact(v, t).is_none()) {
        return None;
    }
    Some(v)
}

fn fold_float(opcode: OpCode, t: ScalarType, x: &[u64]) -> Option<u64> {
    use OpCode as O;
    if opcode == O::FIsNan {
        return Some(bool_lit(float_value(*x.first()?, t)?.is_nan()));
    }
    let a = float_in(*x.first()?, t)?;
    let b = match x.get(1) {
        Some(&v) => Some(float_in(v, t)?),
        None => None,
    };
    let exact = |v: f64| -> Option<u64> {
        if !v.is_finite() {
            return None;
        }
        float_bits_exact(v, t)
    };
    match opcode {
        O::FNeg => float_bits_exact(-a, t),
        O::FAbs => float_bits_exact(a.abs(), t),
        O::FAdd | O::FSub => {
            let c = if opcode == O::FSub { -b? } else { b? };
            let s = a + c;
            // TwoSum: the rounding error of `a + c` in f64 is zero iff the sum is exact.
            let bb = s - a;
            let err = (a - (s - bb)) + (c - bb);
            if err != 0.0 {
                return None;
            }
            exact(s)
        }
        O::FMul => {
            let p = a * b?;
            if a.mul_add(b?, -p) != 0.0 {
                return None;
            }
            exact(p)
        }
        O::FDiv => {
            let d = b?;
            if d == 0.0 {
                return None;
            }
            let q = a / d;
            if (-q).mul_add(d, a) != 0.0 {
                return None;
            }
            exact(q)
        }
        O::FMin | O::FMax => {
            let c = b?;
            if a == 0.0 && c == 0.0 {
                return None;
            }
            float_bits_exact(
                if opcode == O::FMin {
                    a.min(c)
                } else {
                    a.max(c)
                },
                t,
            )
        }
        O::FEq => Some(bool_lit(a == b?)),
        O::FNe => Some(bool_lit(a != b?)),
        O::FLt => Some(bool_lit(a < b?)),
        O::FLe => Some(bool_lit(a <= b?)),
        O::FGt => Some(bool_lit(a > b?)),
        O::FGe => Some(bool_lit(a >= b?)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every opcode the component folds accept is in the table the walk filters with, and
    /// no declaration is.
    #[test]
    fn the_filter_table_keeps_every_opcode_with_a_fold() {
        let ints = [3u64, 5, 7];
        let floats = [1.0f32.to_bits() as u64, 2.0f32.to_bits() as u64, 0];
        for &op in OpCode::ALL {
            let folds = fold_int(op, ScalarType::U32, &ints).is_some()
                || fold_int(op, ScalarType::I32, &ints).is_some()
                || fold_float(op, ScalarType::F32, &floats).is_some()
                || fold_bool(op, &[1, 0]).is_some();
            if folds {
                assert!(FOLDS[op as usize], "{op:?}");
            }
            assert_eq!(FOLDS[op as usize], has_fold_rule(op), "{op:?}");
            if FOLDS[op as usize] {
                assert!(!op.is_declarative(), "{op:?}");
            }
        }
    }
}
