//! Algebraic simplification with identities that are safe for the op's flags.
//!
//! Always (exact for every input, so also for `Precise` ops):
//! - integers: `x + 0`, `x - 0`, `x * 1`, `x / 1` (unsigned), `x << 0` (and right shifts),
//!   `x & x`, `x | x`, `x & ~0`, `x | 0`, `x ^ 0` → `x`; `x * 0`, `x & 0` → `0`; `x | ~0` → `~0`;
//!   `x - x`, `x ^ x` → `0`; `~~x`, `-(-x)` → `x`; `min/max(x, x)` → `x`;
//! - booleans: `x && x`, `x || x`, `x && true`, `x || false`, `x == true`, `x != false`,
//!   `!!x` → `x`; `x && false` → `false`; `x || true` → `true`;
//! - `Select c x x` → `x`; `Select c true false` → `c`; `Select (!c) x y` → `Select c y x`;
//! - a `Phi` whose inputs are all the same value (or the phi itself) → that value;
//! - floats: `x + (-0.0)`, `x - (+0.0)`, `x * 1.0`, `x / 1.0`, `-(-x)`, `min/max(x, x)` → `x`;
//!   `x * -1.0` → `-x`; `|(|x|)|` → `|x|`; `|-x|` → `|x|`.
//!
//! Only with the flags saying so (own flags plus the `SetFpMode` default), never for `Precise`:
//! - `x + (+0.0)` and `x - (-0.0)` → `x` need `NoSz` (`-0 + +0` is `+0`);
//! - `x * 0.0` → `0.0` needs `NoNan`, `NoInf` and `NoSz` (`inf * 0` is NaN, `-1 * 0` is `-0`).

use crate::op::{Op, OpFlags, Operand, SsaDef};
use crate::opcode::OpCode;
use crate::passes::error::PassError;
use crate::passes::util::{float_value, lit_mask, replace_and_remove, FpModes};
use crate::types::ScalarType;
use crate::Builder;

enum Action {
    Replace(SsaDef),
    /// Replace by the zero constant of the op's type (made by the caller: deciding adds
    /// nothing to the program, so [`would_simplify`] can ask without changing it).
    Zero,
    Rewrite(Op),
}

/// Runs the simplifications; returns whether anything changed.
pub fn run(b: &mut Builder) -> Result<bool, PassError> {
    let modes = FpModes::collect(b);
    run_with_modes(b, &modes)
}

/// [`run`] with the program's `SetFpMode` defaults already collected (the pipeline collects
/// them once: no pass of the optimisation loop changes them).
pub fn run_with_modes(b: &mut Builder, modes: &FpModes) -> Result<bool, PassError> {
    let mut changed = false;
    // Walking the program order directly visits exactly the ops a snapshot would: a
    // simplification removes or rewrites only the op itself, and new constants go to the
    // declarative section, before the first code op, where the walk starts (every candidate
    // is code).
    let mut cur = b.first_code();
    while let Some(def) = cur {
        cur = b.next(def);
        let Some(op) = b.get(def) else {
            continue;
        };
        if !is_candidate(op.opcode) {
            continue;
        }
        let op = op.clone();
        let x = match simplify(b, def, &op, modes) {
            Some(Action::Replace(x)) => {
                if !may_replace(b, def, &op, x) {
                    continue;
                }
                x
            }
            Some(Action::Zero) => zero_of(b, &op),
            Some(Action::Rewrite(new)) => {
                b.rewrite(def, new);
                changed = true;
                continue;
            }
            None => continue,
        };
        replace_and_remove(b, def, x);
        changed = true;
    }
    Ok(changed)
}

/// True if [`run_with_modes`] would change one of `defs` (looking at each on its own, on the
/// program as it is): what the pipeline asks about the users of values CSE merged, the only
/// ops a merge can make simplifiable. Changes nothing.
pub fn would_simplify(
    b: &Builder,
    defs: impl IntoIterator<Item = SsaDef>,
    modes: &FpModes,
) -> bool {
    defs.into_iter().any(|def| {
        let Some(op) = b.get(def) else {
            return false;
        };
        if !is_candidate(op.opcode) {
            return false;
        }
        match simplify(b, def, op, modes) {
            Some(Action::Replace(x)) => may_replace(b, def, op, x),
            Some(Action::Zero | Action::Rewrite(_)) => true,
            None => false,
        }
    })
}

/// Whether `def` (with op `op`) may be replaced by `x`: a different value of the same type,
/// and not a phi that uses `def` (a loop back edge: the phi would reference itself, which the
/// validator rejects).
fn may_replace(b: &Builder, def: SsaDef, op: &Op, x: SsaDef) -> bool {
    if x == def || b.get(x).map(|o| o.ty) != Some(op.ty) {
        return false;
    }
    !b.get(x).is_some_and(|o| {
        o.opcode == OpCode::Phi && (0..o.ref_count()).any(|i| o.arg(i) == Some(def))
    })
}

/// The zero constant of `op`'s type.
fn zero_of(b: &mut Builder, op: &Op) -> SsaDef {
    let n = op.ty.flattened_scalar_count().unwrap_or(1) as usize;
    let zeros: smallvec::SmallVec<[u64; 4]> = smallvec::smallvec![0; n];
    b.add_constant(op.ty, &zeros)
}

/// The opcodes [`simplify`] has rules for (a cheap filter before cloning the op).
fn is_candidate(opcode: OpCode) -> bool {
    use OpCode as O;
    matches!(
        opcode,
        O::BAnd
            | O::BEq
            | O::BNe
            | O::BNot
            | O::BOr
            | O::FAbs
            | O::FAdd
            | O::FDiv
            | O::FMax
            | O::FMin
            | O::FMul
            | O::FNeg
            | O::FSub
            | O::IAdd
            | O::IAnd
            | O::IMul
            | O::INeg
            | O::INot
            | O::IOr
            | O::IShl
            | O::ISub
            | O::IXor
            | O::Phi
            | O::SMax
            | O::SMin
            | O::SShr
            | O::Select
            | O::UDiv
            | O::UMax
            | O::UMin
            | O::UShr
    )
}

/// The value of a splat constant: every component's literal, if they are all equal.
fn splat(b: &Builder, def: Option<SsaDef>) -> Option<(ScalarType, u64)> {
    let op = b.get(def?)?;
    if op.opcode != OpCode::Constant || !op.ty.is_basic() {
        return None;
    }
    let first = op.operands.first()?.0;
    op.operands
        .iter()
        .all(|o| o.0 == first)
        .then(|| (op.ty.base_type(), first))
        .and_then(|(t, v)| Some((t?, v)))
}

fn is_int(b: &Builder, d: Option<SsaDef>, v: u64) -> bool {
    splat(b, d).is_some_and(|(t, x)| {
        (t.is_int() || t == ScalarType::Bool) && x & lit_mask(t) == v & lit_mask(t)
    })
}

fn is_float(b: &Builder, d: Option<SsaDef>, v: f64) -> bool {
    splat(b, d).is_some_and(|(t, x)| {
        float_value(x, t).is_some_and(|f| f == v && f.is_sign_negative() == v.is_sign_negative())
    })
}

fn unary_inner(b: &Builder, d: Option<SsaDef>, opcode: OpCode) -> Option<SsaDef> {
    let op = b.get(d?)?;
    (op.opcode == opcode).then(|| op.arg(0)).flatten()
}

fn simplify(b: &Builder, def: SsaDef, op: &Op, modes: &FpModes) -> Option<Action> {
    use Action::Replace;
    use OpCode as O;
    let (x, y) = (op.arg(0), op.arg(1));
    let same = x.is_some() && x == y;
    let ones = u64::MAX;
    let flags = modes.effective(op);
    let precise = flags.contains(OpFlags::PRECISE);
    match op.opcode {
        O::IAdd | O::IOr | O::IXor if is_int(b, y, 0) => Some(Replace(x?)),
        O::IAdd | O::IOr | O::IXor if is_int(b, x, 0) => Some(Replace(y?)),
        O::ISub | O::IShl | O::SShr | O::UShr if is_int(b, y, 0) => Some(Replace(x?)),
        O::IMul if is_int(b, y, 1) => Some(Replace(x?)),
        O::IMul if is_int(b, x, 1) => Some(Replace(y?)),
        O::UDiv if is_int(b, y, 1) => Some(Replace(x?)),
        O::IMul | O::IAnd if is_int(b, x, 0) || is_int(b, y, 0) => Some(Action::Zero),
        O::IAnd if is_int(b, y, ones) => Some(Replace(x?)),
        O::IAnd if is_int(b, x, ones) => Some(Replace(y?)),
        O::IOr if is_int(b, y, ones) => Some(Replace(y?)),
        O::IOr if is_int(b, x, ones) => Some(Replace(x?)),
        O::IAnd | O::IOr | O::SMin | O::SMax | O::UMin | O::UMax if same => Some(Replace(x?)),
        O::ISub | O::IXor if same => Some(Action::Zero),
        O::INot => unary_inner(b, x, O::INot).map(Replace),
        O::INeg => unary_inner(b, x, O::INeg).map(Replace),
        O::BAnd | O::BOr if same => Some(Replace(x?)),
        O::BAnd | O::BEq if is_int(b, y, 1) => Some(Replace(x?)),
        O::BAnd | O::BEq if is_int(b, x, 1) => Some(Replace(y?)),
        O::BOr | O::BNe if is_int(b, y, 0) => Some(Replace(x?)),
        O::BOr | O::BNe if is_int(b, x, 0) => Some(Replace(y?)),
        O::BAnd if is_int(b, y, 0) => Some(Replace(y?)),
        O::BAnd if is_int(b, x, 0) => Some(Replace(x?)),
        O::BOr if is_int(b, y, 1) => Some(Replace(y?)),
        O::BOr if is_int(b, x, 1) => Some(Replace(x?)),
        O::BNot => unary_inner(b, x, O::BNot).map(Replace),
        O::Select => {
            let (c, t, f) = (op.arg(0)?, op.arg(1)?, op.arg(2)?);
            if t == f {
                return Some(Replace(t));
            }
            if op.ty.base_type() == Some(ScalarType::Bool)
                && op.ty.is_scalar()
                && is_int(b, Some(t), 1)
                && is_int(b, Some(f), 0)
            {
                return Some(Replace(c));
            }
            let inner = unary_inner(b, Some(c), O::BNot)?;
            let mut new = op.clone();
            new.operands[0] = Operand::from_def(inner);
            new.operands[1] = Operand::from_def(f);
            new.operands[2] = Operand::from_def(t);
            Some(Action::Rewrite(new))
        }
        O::Phi => {
            let mut value: Option<SsaDef> = None;
            for i in (1..op.ref_count()).step_by(2) {
                let v = op.arg(i)?;
                if v == def {
                    continue;
                }
                match value {
                    None => value = Some(v),
                    Some(w) if w == v => {}
                    Some(_) => return None,
                }
            }
            value.map(Replace)
        }
        O::FAdd if is_float(b, y, -0.0) => Some(Replace(x?)),
        O::FAdd if is_float(b, x, -0.0) => Some(Replace(y?)),
        O::FSub | O::FDiv if is_float(b, y, if op.opcode == O::FSub { 0.0 } else { 1.0 }) => {
            Some(Replace(x?))
        }
        O::FAdd if !precise && flags.contains(OpFlags::NO_SZ) && is_float(b, y, 0.0) => {
            Some(Replace(x?))
        }
        O::FAdd if !precise && flags.contains(OpFlags::NO_SZ) && is_float(b, x, 0.0) => {
            Some(Replace(y?))
        }
        O::FSub if !precise && flags.contains(OpFlags::NO_SZ) && is_float(b, y, -0.0) => {
            Some(Replace(x?))
        }
        O::FMul if is_float(b, y, 1.0) => Some(Replace(x?)),
        O::FMul if is_float(b, x, 1.0) => Some(Replace(y?)),
        O::FMul if is_float(b, y, -1.0) || is_float(b, x, -1.0) => {
            let v = if is_float(b, y, -1.0) { x? } else { y? };
            Some(Action::Rewrite(
                Op::new(O::FNeg, op.ty).with_ref(v).with_flags(op.flags),
            ))
        }
        O::FMul
            if !precise
                && flags.contains(OpFlags::NO_NAN | OpFlags::NO_INF | OpFlags::NO_SZ)
                && (is_float(b, x, 0.0)
                    || is_float(b, y, 0.0)
                    || is_float(b, x, -0.0)
                    || is_float(b, y, -0.0)) =>
        {
            Some(Action::Zero)
        }
        O::FMin | O::FMax if same => Some(Replace(x?)),
        O::FNeg => unary_inner(b, x, O::FNeg).map(Replace),
        O::FAbs => {
            if unary_inner(b, x, O::FAbs).is_some() {
                return Some(Replace(x?));
            }
            let inner = unary_inner(b, x, O::FNeg)?;
            Some(Action::Rewrite(
                Op::new(O::FAbs, op.ty).with_ref(inner).with_flags(op.flags),
            ))
        }
        _ => None,
    }
}
