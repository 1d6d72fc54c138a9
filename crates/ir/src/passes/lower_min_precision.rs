//! Lowers the min-precision types `min16f`, `min10f`, `min16i` and `min16u`.
//!
//! Min-precision values are stored as 32 bits (constant literals of `min16f`/`min10f` are `f32`
//! bit patterns, those of `min16i`/`min16u` 32-bit integers), so the lowering is:
//!
//! - [`MinPrecisionMode::Promote32`]: every type becomes `f32`/`i32`/`u32`; literals stay.
//! - [`MinPrecisionMode::Native16`]: arithmetic becomes 16-bit (`f16`/`i16`/`u16`), everything
//!   with a fixed 32-bit interface stays 32-bit, with conversions at the boundary:
//!   - *16-bit ops*: constants (literals re-encoded: `f32` → `f16` rounding to nearest even,
//!     integers truncated to 16 bits), `Undef`, phis, selects, composites, `Convert*`,
//!     comparisons, float, integer, bitwise and boolean arithmetic, functions, parameters,
//!     calls and returns, `SetFpMode`;
//!   - *32-bit ops*: everything else — declarations (I/O, resources, temps, scratch, LDS),
//!     loads, stores, image and buffer ops, atomics, derivatives, `Cast` (whose operand
//!     and result sizes must match), and the `f32`-only ops `FExp2`, `FLog2`, `FSin`, `FCos`,
//!     `FPow`.
//!
//!   A 32-bit op that reads a 16-bit value gets a `ConvertFtoF`/`ConvertItoI` to 32 bits in
//!   front of it (a new constant for constants); a 32-bit op that produces a min-precision
//!   scalar or vector gets a conversion to 16 bits right after it, which its 16-bit users
//!   read. A `CompositeExtract` from a 32-bit aggregate (e.g. a sparse feedback struct)
//!   counts as a 32-bit op.
//!
//! Conversions made no-ops by the new types (`f32` to `f32` after promotion) are removed, and
//! a `SetFpMode` that now duplicates another one for the same type is dropped.

use crate::census::Counted;
use crate::op::{Op, Operand, SsaDef};
use crate::opcode::OpCode;
use crate::passes::error::PassError;
use crate::passes::lower_legacy::remove_noop_conversions;
use crate::passes::options::MinPrecisionMode;
use crate::passes::util::{f32_to_f16, insertion_point_after};
use crate::types::{BasicType, ScalarType, Type};
use crate::Builder;

const PASS: &str = "lower_min_precision";

/// The scalar type a min-precision type becomes (`wide`: 32-bit, else 16-bit).
fn lower_scalar(t: ScalarType, wide: bool) -> ScalarType {
    match (t, wide) {
        (ScalarType::MinF16 | ScalarType::MinF10, false) => ScalarType::F16,
        (ScalarType::MinF16 | ScalarType::MinF10, true) => ScalarType::F32,
        (ScalarType::MinI16, false) => ScalarType::I16,
        (ScalarType::MinI16, true) => ScalarType::I32,
        (ScalarType::MinU16, false) => ScalarType::U16,
        (ScalarType::MinU16, true) => ScalarType::U32,
        (t, _) => t,
    }
}

/// `ty` with every min-precision member lowered.
fn lower_type(ty: Type, wide: bool) -> Type {
    if !ty.has_min_precision() {
        return ty;
    }
    let members: Vec<BasicType> = ty
        .members()
        .iter()
        .map(|m| m.with_base(lower_scalar(m.base(), wide)))
        .collect();
    let Ok(mut out) = Type::structure(&members) else {
        return ty;
    };
    for &d in ty.dims() {
        match out.array_of(d) {
            Ok(o) => out = o,
            Err(_) => return ty,
        }
    }
    out
}

/// True for ops that compute in 16 bits in [`MinPrecisionMode::Native16`]. Which ops do is
/// this pass's choice (value ops whose precision follows their operands', not interfaces,
/// memory, derivatives or the `f32`-only and 32-bit-only ops), so the list stays here; the
/// ranges rely on the table's code order, which serialization fixes.
fn is_arith16(opcode: OpCode) -> bool {
    use OpCode as O;
    let code = opcode as u16;
    let in_range = |a: O, z: O| (a as u16..=z as u16).contains(&code);
    matches!(
        opcode,
        O::Constant
            | O::Undef
            | O::MinValue
            | O::MaxValue
            | O::SetFpMode
            | O::Phi
            | O::Select
            | O::CompositeConstruct
            | O::CompositeExtract
            | O::CompositeInsert
            | O::ConvertFtoF
            | O::ConvertFtoI
            | O::ConvertItoF
            | O::ConvertItoI
            | O::Function
            | O::FunctionCall
            | O::Return
            | O::ParamLoad
            | O::DclParam
            | O::Drain
    ) || (in_range(O::FEq, O::FCos) && !matches!(opcode, O::FExp2 | O::FLog2 | O::FSin | O::FCos))
        || (in_range(O::IAnd, O::UMsad) && !matches!(opcode, O::IAddCarry | O::ISubBorrow))
}

/// [`run`] on a program that [`crate::passes::lower_legacy`] was the last pass to change (as in
/// the pipeline): most programs have no min-precision type, and for those the lowering only
/// has to drop duplicate `SetFpMode`s. The no-op conversions `run` also removes were already
/// removed by `lower_legacy` (which ends with the same, idempotent, removal).
pub fn run_after_lower_legacy(b: &mut Builder, mode: MinPrecisionMode) -> Result<bool, PassError> {
    if b.census().has(Counted::MinPrecisionType) {
        return run(b, mode);
    }
    // `run` does not count removed duplicates as a change either.
    if b.census().count(Counted::SetFpMode) > 1 {
        dedupe_fp_modes(b);
    }
    Ok(false)
}

/// Runs the lowering; returns whether anything changed.
pub fn run(b: &mut Builder, mode: MinPrecisionMode) -> Result<bool, PassError> {
    let ops: Vec<SsaDef> = b.iter().map(|(d, _)| d).collect();
    let native = mode == MinPrecisionMode::Native16;
    // Per def: 1 = lowered to 16 bits, 2 = lowered to 32 bits in native mode (a boundary op).
    let mut state = vec![0u8; b.id_bound()];
    let mut changed = false;
    for &def in &ops {
        let Some(op) = b.get(def) else { continue };
        let mut wide = !native || !is_arith16(op.opcode);
        if native && op.opcode == OpCode::CompositeExtract {
            let src_wide_aggregate = op.arg(0).is_some_and(|s| {
                state[s.index()] == 2 && b.get(s).is_some_and(|s| !s.ty.is_basic())
            });
            wide |= src_wide_aggregate;
        }
        if !op.ty.has_min_precision() {
            continue;
        }
        let old_ty = op.ty;
        let new_ty = lower_type(old_ty, wide);
        if op.opcode == OpCode::Constant && !wide {
            let lits: Vec<u64> = op
                .operands
                .iter()
                .enumerate()
                .map(|(i, l)| match old_ty.flattened_scalar_type(i) {
                    Some(ScalarType::MinF16 | ScalarType::MinF10) => {
                        f32_to_f16(f32::from_bits(l.0 as u32)) as u64
                    }
                    Some(ScalarType::MinI16 | ScalarType::MinU16) => l.0 & 0xffff,
                    _ => l.0,
                })
                .collect();
            let c = b.add_constant(new_ty, &lits);
            b.replace_uses(def, c);
            b.remove(def);
            state.resize(b.id_bound(), 0);
            state[c.index()] = 1;
        } else if op.opcode == OpCode::Constant {
            let c = {
                let lits: Vec<u64> = op.operands.iter().map(|l| l.0).collect();
                b.add_constant(new_ty, &lits)
            };
            b.replace_uses(def, c);
            b.remove(def);
            state.resize(b.id_bound(), 0);
        } else {
            b.set_type(def, new_ty);
            state[def.index()] = if native {
                if wide {
                    2
                } else {
                    1
                }
            } else {
                0
            };
        }
        changed = true;
    }
    if native && changed {
        fix_boundaries(b, &ops, &mut state)?;
    }
    dedupe_fp_modes(b);
    changed |= remove_noop_conversions(b);
    Ok(changed)
}

/// Inserts the 16 ↔ 32-bit conversions between 16-bit and 32-bit ops (native mode).
fn fix_boundaries(b: &mut Builder, ops: &[SsaDef], state: &mut Vec<u8>) -> Result<(), PassError> {
    for &def in ops {
        let Some(op) = b.get(def).cloned() else {
            continue;
        };
        if op.opcode.is_annotation() {
            continue;
        }
        let arith = state.get(def.index()).copied() != Some(2)
            && is_arith16(op.opcode)
            && !(op.opcode == OpCode::CompositeExtract
                && op
                    .arg(0)
                    .is_some_and(|s| state.get(s.index()).copied() == Some(2)));
        if !arith {
            // A 32-bit op: widen 16-bit operands.
            for i in 0..op.ref_count() {
                let Some(x) = op.arg(i) else { continue };
                if state.get(x.index()).copied() != Some(1) {
                    continue;
                }
                let w = widen(b, def, x)?;
                b.set_operand(def, i, Operand::from_def(w));
            }
            // A 32-bit op producing a min-precision value: narrow it for 16-bit users.
            if state.get(def.index()).copied() == Some(2) && op.ty.is_basic() {
                let narrow_ty = lower_type_from_wide(op.ty);
                let Some(code) = resize_opcode(op.ty) else {
                    continue;
                };
                let users: Vec<(SsaDef, usize)> = b
                    .uses(def)
                    .filter(|u| {
                        b.get(u.user).is_some_and(|uo| {
                            is_arith16(uo.opcode)
                                && state.get(u.user.index()).copied() != Some(2)
                                && !uo.opcode.is_annotation()
                        })
                    })
                    .map(|u| (u.user, u.operand))
                    .collect();
                if users.is_empty() {
                    continue;
                }
                let pos = insertion_point_after(b, def);
                let n = b.add_after(pos, Op::new(code, narrow_ty).with_ref(def));
                state.resize(b.id_bound(), 0);
                state[n.index()] = 1;
                for (user, operand) in users {
                    b.set_operand(user, operand, Operand::from_def(n));
                }
            }
        }
    }
    Ok(())
}

/// The 16-bit type of a 32-bit type lowered from min precision.
fn lower_type_from_wide(ty: Type) -> Type {
    match ty.base_type() {
        Some(ScalarType::F32) => ty.with_base(ScalarType::F16),
        Some(ScalarType::I32) => ty.with_base(ScalarType::I16),
        Some(ScalarType::U32) => ty.with_base(ScalarType::U16),
        _ => ty,
    }
}

fn resize_opcode(ty: Type) -> Option<OpCode> {
    let t = ty.base_type()?;
    if t.is_float() {
        Some(OpCode::ConvertFtoF)
    } else if t.is_int() {
        Some(OpCode::ConvertItoI)
    } else {
        None
    }
}

/// A 32-bit version of the 16-bit value `x`, for use by `user`.
fn widen(b: &mut Builder, user: SsaDef, x: SsaDef) -> Result<SsaDef, PassError> {
    let Some(xo) = b.get(x).cloned() else {
        return Err(PassError::invalid(
            PASS,
            user,
            "operand refers to a missing op",
        ));
    };
    let wide_ty = match xo.ty.base_type() {
        Some(ScalarType::F16) => xo.ty.with_base(ScalarType::F32),
        Some(ScalarType::I16) => xo.ty.with_base(ScalarType::I32),
        Some(ScalarType::U16) => xo.ty.with_base(ScalarType::U32),
        _ => return Ok(x),
    };
    if xo.opcode == OpCode::Constant {
        let lits: Vec<u64> = xo
            .operands
            .iter()
            .map(|l| match xo.ty.base_type() {
                Some(ScalarType::F16) => {
                    crate::passes::util::f16_to_f32(l.0 as u16).to_bits() as u64
                }
                Some(ScalarType::I16) => {
                    (crate::passes::util::sign_extend(l.0, 16) as u64) & 0xffff_ffff
                }
                _ => l.0 & 0xffff,
            })
            .collect();
        return Ok(b.add_constant(wide_ty, &lits));
    }
    if xo.opcode == OpCode::Undef {
        return Ok(b.add_decl(Op::new(OpCode::Undef, wide_ty)));
    }
    let code = resize_opcode(xo.ty).ok_or_else(|| PassError::invalid(PASS, x, "cannot widen"))?;
    Ok(b.add_before(user, Op::new(code, wide_ty).with_ref(x)))
}

/// Drops a `SetFpMode` that duplicates an earlier one for the same type.
fn dedupe_fp_modes(b: &mut Builder) {
    // A program sets a mode for a handful of types at most.
    let mut seen: smallvec::SmallVec<[Type; 4]> = smallvec::SmallVec::new();
    let mut dup: smallvec::SmallVec<[SsaDef; 2]> = smallvec::SmallVec::new();
    for (def, op) in b.declarations() {
        if op.opcode == OpCode::SetFpMode {
            if seen.contains(&op.ty) {
                dup.push(def);
            } else {
                seen.push(op.ty);
            }
        }
    }
    for d in dup {
        b.remove(d);
    }
}
