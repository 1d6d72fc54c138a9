//! Mandatory lowering of ops the target IR does not have.
//!
//! - `FDot a b` becomes `FMul` of the first components and one `FMad` per further component,
//!   in D3D's order: `acc = a.x * b.x; acc = mad(a.y, b.y, acc); ...`. Components are read with
//!   `CompositeExtract` at constant `u32` addresses.
//! - The D3D9 ops `FMulLegacy`, `FMadLegacy`, `FDotLegacy` and `FPowLegacy` follow the rule
//!   that `0 * x = +0` for every `x`, infinity and NaN included. With
//!   [`Options::preserve_legacy_mul_zero`] each legacy product is, per component:
//!
//!   ```text
//!   p = FMul a b                      (FMad a b c for FMadLegacy)
//!   z = BOr (FEq a 0.0) (FEq b 0.0)
//!   r = Select z 0.0 p                (Select z c p for FMadLegacy)
//!   ```
//!
//!   `FEq` is ordered, so a NaN factor never counts as zero; `-0.0` compares equal to zero.
//!   For `FMadLegacy` a zero product yields `c` itself (D3D9: `0 + c`; the two differ only
//!   for `c = -0.0`). Vectors are lowered component-wise (comparisons are scalar-only) and
//!   rebuilt with `CompositeConstruct`. `FDotLegacy` is the `FDot` chain built from these
//!   legacy products, and `FPowLegacy b e` is `FExp2 (mul_legacy e (FLog2 b))`, which gives
//!   `pow(x, 0) = 1` for every `x` (`0 * -inf = 0`) and `pow(0, e > 0) = 0`.
//!   Without the option the legacy ops become `FMul`, `FMad`, `FDot` chains and `FPow`.
//! - `MinValue` and `MaxValue` become constants: the lowest and highest finite value of the
//!   type (`±65504` for `f16`, `min16f` and `min10f`, the `i16`/`u16` range for `min16i`/`min16u`).
//! - `Convert*` and `Cast` whose source already has the result type are removed;
//!   `ConvertItoI` between integers of equal size becomes `Cast`.
//!
//! Result flags (`Precise`, ...) are copied to every float op a lowering produces.

use crate::census::Counted;
use crate::op::{Op, OpFlags, SsaDef};
use crate::opcode::OpCode;
use crate::passes::error::PassError;
use crate::passes::options::Options;
use crate::passes::util::replace_and_remove;
use crate::types::{ScalarType, Type};
use crate::Builder;

const PASS: &str = "lower_legacy";

/// Runs the lowering; returns whether anything changed.
pub fn run(b: &mut Builder, opts: &Options) -> Result<bool, PassError> {
    // The ops of `OpCode::must_be_lowered` that this pass lowers (the others are scoped
    // control flow, temporaries and `ConsumeAs`, which the passes before it lower).
    if !b.census().has(Counted::Legacy) {
        return Ok(remove_noop_conversions(b));
    }
    // The walk stops at the last of them (the census says how many there are).
    let count = b.census().count(Counted::Legacy) as usize;
    let targets: Vec<SsaDef> = b
        .iter()
        .filter(|(_, op)| {
            matches!(
                op.opcode,
                OpCode::FDot
                    | OpCode::FDotLegacy
                    | OpCode::FMulLegacy
                    | OpCode::FMadLegacy
                    | OpCode::FPowLegacy
                    | OpCode::MinValue
                    | OpCode::MaxValue
            )
        })
        .map(|(d, _)| d)
        .take(count)
        .collect();
    let mut changed = false;
    for def in targets {
        let Some(op) = b.get(def).cloned() else {
            continue;
        };
        let legacy = opts.preserve_legacy_mul_zero;
        match op.opcode {
            OpCode::MinValue | OpCode::MaxValue => {
                let c = limit_constant(b, def, &op)?;
                replace_and_remove(b, def, c);
            }
            OpCode::FDot | OpCode::FDotLegacy => {
                let (a, c) = (arg(&op, def, 0)?, arg(&op, def, 1)?);
                let zero_rule = legacy && op.opcode == OpCode::FDotLegacy;
                let r = lower_dot(b, def, &op, a, c, zero_rule)?;
                replace_and_remove(b, def, r);
            }
            OpCode::FMulLegacy | OpCode::FMadLegacy if !legacy => {
                let mut new = op.clone();
                new.opcode = if op.opcode == OpCode::FMulLegacy {
                    OpCode::FMul
                } else {
                    OpCode::FMad
                };
                b.rewrite(def, new);
            }
            OpCode::FMulLegacy => {
                let (x, y) = (arg(&op, def, 0)?, arg(&op, def, 1)?);
                let r = per_component(b, def, op.ty, op.flags, &[x, y], |b, pos, t, f, c| {
                    Ok(mul_legacy(b, pos, t, f, c[0], c[1], None))
                })?;
                replace_and_remove(b, def, r);
            }
            OpCode::FMadLegacy => {
                let (x, y, z) = (arg(&op, def, 0)?, arg(&op, def, 1)?, arg(&op, def, 2)?);
                let r = per_component(b, def, op.ty, op.flags, &[x, y, z], |b, pos, t, f, c| {
                    Ok(mul_legacy(b, pos, t, f, c[0], c[1], Some(c[2])))
                })?;
                replace_and_remove(b, def, r);
            }
            OpCode::FPowLegacy => {
                let (base, exp) = (arg(&op, def, 0)?, arg(&op, def, 1)?);
                if !legacy {
                    let new = Op::new(OpCode::FPow, op.ty)
                        .with_ref(base)
                        .with_ref(exp)
                        .with_flags(op.flags);
                    b.rewrite(def, new);
                } else {
                    let log = b.add_before(
                        def,
                        Op::new(OpCode::FLog2, op.ty)
                            .with_ref(base)
                            .with_flags(op.flags),
                    );
                    let prod =
                        per_component(b, def, op.ty, op.flags, &[exp, log], |b, pos, t, f, c| {
                            Ok(mul_legacy(b, pos, t, f, c[0], c[1], None))
                        })?;
                    let new = Op::new(OpCode::FExp2, op.ty)
                        .with_ref(prod)
                        .with_flags(op.flags);
                    b.rewrite(def, new);
                }
            }
            _ => continue,
        }
        changed = true;
    }
    changed |= remove_noop_conversions(b);
    Ok(changed)
}

fn arg(op: &Op, def: SsaDef, i: usize) -> Result<SsaDef, PassError> {
    op.arg(i)
        .ok_or_else(|| PassError::invalid(PASS, def, format!("{} lacks operand {i}", op.opcode)))
}

/// Removes conversions whose source already has the result type and turns `ConvertItoI`
/// between integer types of equal size (and no min-precision type) into `Cast`.
pub fn remove_noop_conversions(b: &mut Builder) -> bool {
    if !b.census().has(Counted::Conversion) {
        return false;
    }
    let mut changed = false;
    // One walk over the code in program order (conversions are code); each step removes or
    // rewrites only the current op, so the next op is taken before it.
    let mut cur = b.first_code();
    while let Some(def) = cur {
        cur = b.next(def);
        let Some(op) = b.get(def) else { continue };
        if !op.opcode.is_conversion() {
            continue;
        }
        let Some(src) = op.arg(0) else { continue };
        let Some(src_ty) = b.get(src).map(|s| s.ty) else {
            continue;
        };
        if src_ty == op.ty {
            replace_and_remove(b, def, src);
            changed = true;
        } else if op.opcode == OpCode::ConvertItoI {
            let same_size = match (src_ty.base_type(), op.ty.base_type()) {
                (Some(s), Some(d)) => {
                    !s.is_min_precision() && !d.is_min_precision() && s.bit_size() == d.bit_size()
                }
                _ => false,
            };
            if same_size {
                let mut new = op.clone();
                new.opcode = OpCode::Cast;
                b.rewrite(def, new);
                changed = true;
            }
        }
    }
    changed
}

/// The literal of the lowest (`max == false`) or highest finite value of scalar type `t`.
pub fn limit_literal(t: ScalarType, max: bool) -> Option<u64> {
    let f16_max = 65504.0f32;
    Some(match t {
        ScalarType::F16 => {
            if max {
                0x7bff
            } else {
                0xfbff
            }
        }
        ScalarType::F32 => (if max { f32::MAX } else { f32::MIN }).to_bits() as u64,
        ScalarType::F64 => (if max { f64::MAX } else { f64::MIN }).to_bits(),
        ScalarType::MinF16 | ScalarType::MinF10 => {
            (if max { f16_max } else { -f16_max }).to_bits() as u64
        }
        ScalarType::I8 | ScalarType::I16 | ScalarType::I32 | ScalarType::I64 => {
            let bits = t.bit_size()?;
            let mask = crate::passes::util::lit_mask(t);
            if max {
                mask >> 1
            } else {
                (1u64 << (bits - 1)) & mask
            }
        }
        ScalarType::MinI16 => {
            if max {
                0x7fff
            } else {
                0xffff_8000
            }
        }
        ScalarType::U8 | ScalarType::U16 | ScalarType::U32 | ScalarType::U64 => {
            if max {
                crate::passes::util::lit_mask(t)
            } else {
                0
            }
        }
        ScalarType::MinU16 => {
            if max {
                0xffff
            } else {
                0
            }
        }
        _ => return None,
    })
}

fn limit_constant(b: &mut Builder, def: SsaDef, op: &Op) -> Result<SsaDef, PassError> {
    let max = op.opcode == OpCode::MaxValue;
    let basic = op.ty.as_basic().ok_or_else(|| {
        PassError::invalid(
            PASS,
            def,
            format!("{} of non-scalar type {}", op.opcode, op.ty),
        )
    })?;
    let lit = limit_literal(basic.base(), max).ok_or_else(|| {
        PassError::invalid(
            PASS,
            def,
            format!("{} of non-numeric type {}", op.opcode, op.ty),
        )
    })?;
    let lits = vec![lit; basic.vec_size() as usize];
    Ok(b.add_constant(op.ty, &lits))
}

/// Component `i` of `v` (of scalar type `elem`), extracted before `pos`; `v` itself if scalar,
/// and the scalar it was built from if `v` is a `CompositeConstruct` of one scalar per
/// component (frontends build the operands of dot products so; no extract to clean up).
fn component(b: &mut Builder, pos: SsaDef, v: SsaDef, i: u32, elem: Type) -> SsaDef {
    if let Some(op) = b.get(v) {
        if !op.ty.is_vector() {
            return v;
        }
        let n = op.ty.as_basic().map_or(0, |t| usize::from(t.vec_size()));
        if op.opcode == OpCode::CompositeConstruct && op.arg(n).is_none() {
            if let Some(part) = op.arg(i as usize) {
                if n > 0 && op.arg(n - 1).is_some() && b.get(part).is_some_and(|p| p.ty == elem) {
                    return part;
                }
            }
        }
    }
    let idx = b.add_constant(Type::scalar(ScalarType::U32), &[i as u64]);
    b.add_before(
        pos,
        Op::new(OpCode::CompositeExtract, elem)
            .with_ref(v)
            .with_ref(idx),
    )
}

/// Applies `f` to each component of the operands (all of type `ty`) and rebuilds a vector.
fn per_component(
    b: &mut Builder,
    pos: SsaDef,
    ty: Type,
    flags: OpFlags,
    operands: &[SsaDef],
    mut f: impl FnMut(&mut Builder, SsaDef, Type, OpFlags, &[SsaDef]) -> Result<SsaDef, PassError>,
) -> Result<SsaDef, PassError> {
    let basic = ty
        .as_basic()
        .ok_or_else(|| PassError::invalid(PASS, pos, format!("float op of type {ty}")))?;
    let elem = Type::scalar(basic.base());
    let n = basic.vec_size() as u32;
    if n == 1 {
        return f(b, pos, ty, flags, operands);
    }
    let mut parts = Vec::with_capacity(n as usize);
    for i in 0..n {
        let comps: Vec<SsaDef> = operands
            .iter()
            .map(|&v| component(b, pos, v, i, elem))
            .collect();
        parts.push(f(b, pos, elem, flags, &comps)?);
    }
    let mut construct = Op::new(OpCode::CompositeConstruct, ty);
    for p in parts {
        construct = construct.with_ref(p);
    }
    Ok(b.add_before(pos, construct))
}

/// Emits before `pos` the D3D9 product `x * y` (or `x * y + c`) of scalar type `ty` where a
/// zero factor gives `0` (or `c`); see the module docs.
fn mul_legacy(
    b: &mut Builder,
    pos: SsaDef,
    ty: Type,
    flags: OpFlags,
    x: SsaDef,
    y: SsaDef,
    add: Option<SsaDef>,
) -> SsaDef {
    let bool_ty = Type::scalar(ScalarType::Bool);
    let zero = b.add_constant(ty, &[0]);
    let prod = match add {
        None => Op::new(OpCode::FMul, ty).with_ref(x).with_ref(y),
        Some(c) => Op::new(OpCode::FMad, ty)
            .with_ref(x)
            .with_ref(y)
            .with_ref(c),
    };
    let p = b.add_before(pos, prod.with_flags(flags));
    let zx = b.add_before(
        pos,
        Op::new(OpCode::FEq, bool_ty).with_ref(x).with_ref(zero),
    );
    let zy = b.add_before(
        pos,
        Op::new(OpCode::FEq, bool_ty).with_ref(y).with_ref(zero),
    );
    let z = b.add_before(pos, Op::new(OpCode::BOr, bool_ty).with_ref(zx).with_ref(zy));
    let if_zero = add.unwrap_or(zero);
    b.add_before(
        pos,
        Op::new(OpCode::Select, ty)
            .with_ref(z)
            .with_ref(if_zero)
            .with_ref(p)
            .with_flags(flags),
    )
}

/// Emits before `pos` the D3D dot product chain of `x` and `y` (result type of `op`).
fn lower_dot(
    b: &mut Builder,
    pos: SsaDef,
    op: &Op,
    x: SsaDef,
    y: SsaDef,
    zero_rule: bool,
) -> Result<SsaDef, PassError> {
    let ty = op.ty;
    if !ty.is_scalar() {
        return Err(PassError::invalid(
            PASS,
            pos,
            format!("{} returns {ty}, not a scalar", op.opcode),
        ));
    }
    let n = match b.get(x) {
        Some(xo) => xo.ty.as_basic().map_or(0, |t| t.vec_size() as u32),
        None => 0,
    };
    if n == 0 {
        return Err(PassError::invalid(
            PASS,
            pos,
            "dot product of a non-vector operand",
        ));
    }
    let mut acc: Option<SsaDef> = None;
    for i in 0..n {
        let xi = component(b, pos, x, i, ty);
        let yi = component(b, pos, y, i, ty);
        let next = match (acc, zero_rule) {
            (None, true) => mul_legacy(b, pos, ty, op.flags, xi, yi, None),
            (Some(a), true) => mul_legacy(b, pos, ty, op.flags, xi, yi, Some(a)),
            (None, false) => b.add_before(
                pos,
                Op::new(OpCode::FMul, ty)
                    .with_ref(xi)
                    .with_ref(yi)
                    .with_flags(op.flags),
            ),
            (Some(a), false) => b.add_before(
                pos,
                Op::new(OpCode::FMad, ty)
                    .with_ref(xi)
                    .with_ref(yi)
                    .with_ref(a)
                    .with_flags(op.flags),
            ),
        };
        acc = Some(next);
    }
    acc.ok_or_else(|| PassError::invalid(PASS, pos, "empty dot product"))
}
