//! Helpers shared by the passes: float modes, constant literals, float encodings and the
//! insertion of conversions. (What an opcode is and does, removable, pure, an annotation, is
//! the opcode table's: [`OpCode::traits`].)

use crate::census::Counted;
use crate::op::{Op, OpFlags, SsaDef};
use crate::opcode::OpCode;
use crate::passes::error::PassError;
use crate::types::{ScalarType, Type};
use crate::Builder;

/// Per-float-type default flags declared by `SetFpMode` (spec "Mode setting instructions").
/// Per-op flags are additive to these defaults.
#[derive(Clone, Copy, Debug, Default)]
pub struct FpModes {
    f16: OpFlags,
    f32: OpFlags,
    f64: OpFlags,
}

impl FpModes {
    /// Collects the `SetFpMode` declarations of a program.
    pub fn collect(b: &Builder) -> Self {
        let mut m = FpModes::default();
        // The walk ends at the last of them (the census says how many there are). It goes
        // inwards from both ends of the declarations at once: frontends declare the modes
        // either first or after their resources and constants, and the flags of several
        // modes combine in any order.
        let mut left = b.census().count(Counted::SetFpMode);
        if left == 0 {
            return m;
        }
        let last_decl = match b.first_code() {
            Some(code) => b.prev(code),
            None => b.last(),
        };
        let mut take = |def: SsaDef| {
            if let Some(op) = b.get(def).filter(|op| op.opcode == OpCode::SetFpMode) {
                if let Some(slot) = op.ty.base_type().and_then(|t| m.slot(t)) {
                    *slot |= op.flags;
                }
                left -= 1;
            }
            left == 0
        };
        let (mut lo, mut hi) = (b.first(), last_decl);
        while let (Some(l), Some(h)) = (lo, hi) {
            if take(l) || l == h {
                break;
            }
            let next = b.next(l);
            if take(h) || next == Some(h) {
                break;
            }
            lo = next;
            hi = b.prev(h);
        }
        m
    }

    fn slot(&mut self, t: ScalarType) -> Option<&mut OpFlags> {
        match t {
            ScalarType::F16 => Some(&mut self.f16),
            ScalarType::F32 | ScalarType::MinF16 | ScalarType::MinF10 => Some(&mut self.f32),
            ScalarType::F64 => Some(&mut self.f64),
            _ => None,
        }
    }

    /// The flags that hold for `op`: its own flags plus the defaults of its result float type.
    pub fn effective(&self, op: &Op) -> OpFlags {
        let base = match op.ty.base_type() {
            Some(ScalarType::F16) => self.f16,
            Some(ScalarType::F32 | ScalarType::MinF16 | ScalarType::MinF10) => self.f32,
            Some(ScalarType::F64) => self.f64,
            _ => OpFlags::empty(),
        };
        op.flags | base
    }
}

/// True if every use of `def` is an annotation ([`OpCode::is_annotation`]: a debug name,
/// member name or semantic), or there is none.
pub fn only_debug_uses(b: &Builder, def: SsaDef) -> bool {
    b.uses(def)
        .all(|u| b.get(u.user).is_some_and(|op| op.opcode.is_annotation()))
}

/// Removes `def` together with the annotations that name it.
pub fn remove_with_debug(b: &mut Builder, def: SsaDef) {
    let debug: smallvec::SmallVec<[SsaDef; 4]> = b
        .uses(def)
        .filter(|u| b.get(u.user).is_some_and(|op| op.opcode.is_annotation()))
        .map(|u| u.user)
        .collect();
    for d in debug {
        b.remove(d);
    }
    b.remove(def);
}

/// Moves debug ops of `old` to `new` (if `new` has none of its own), then makes all other uses
/// of `old` refer to `new` and removes `old`.
///
/// A constant `new` can turn a run-time index that is out of range (undefined behaviour) into
/// a constant address naming no member, which the IR does not allow: such a
/// `CompositeExtract` becomes an `Undef` of its type, and such a `CompositeInsert` leaves its
/// composite as it is.
pub fn replace_and_remove(b: &mut Builder, old: SsaDef, new: SsaDef) {
    if old == new {
        return;
    }
    // Addresses are integers (or untyped): most replacements (floats, bools) skip the walk.
    let int = |d: SsaDef| {
        b.get(d)
            .and_then(|o| o.ty.base_type())
            .is_some_and(|t| t.is_int() || t == ScalarType::Unknown)
    };
    let stray: smallvec::SmallVec<[SsaDef; 2]> = match b.get(new) {
        Some(c) if c.opcode == OpCode::Constant && int(old) => {
            addresses_leaving_a_composite(b, old, c.operands.iter().map(|o| o.0)).collect()
        }
        _ => smallvec::SmallVec::new(),
    };
    b.replace_uses(old, new);
    b.remove(old);
    // What an access past the end gives is undefined: an insert leaves its composite, an
    // extract or load gives `Undef`, a store (or an atomic nobody reads) goes.
    for user in stray {
        let Some(op) = b.get(user) else {
            continue;
        };
        let value = match op.opcode {
            OpCode::CompositeInsert => op.arg(0),
            _ if op.ty == Type::VOID => None,
            _ => Some(b.add_decl(Op::new(OpCode::Undef, op.ty))),
        };
        match value {
            Some(value) => replace_and_remove(b, user, value),
            None => b.remove(user),
        }
    }
}

/// The flattened literals of `def` if it is a `Constant`.
pub fn constant_literals(b: &Builder, def: SsaDef) -> Option<&[crate::Operand]> {
    let op = b.get(def)?;
    (op.opcode == OpCode::Constant).then_some(&op.operands[..])
}

/// The scalar literal of `def` if it is a scalar `Constant`.
pub fn scalar_constant(b: &Builder, def: SsaDef) -> Option<(ScalarType, u64)> {
    let op = b.get(def)?;
    if op.opcode != OpCode::Constant || !op.ty.is_scalar() {
        return None;
    }
    Some((op.ty.base_type()?, op.operands.first()?.0))
}

/// Bit mask of the literal bits a scalar of type `t` uses (booleans use bit 0).
pub fn lit_mask(t: ScalarType) -> u64 {
    match t {
        ScalarType::Bool => 1,
        _ => match t.bit_size() {
            Some(64) | None => u64::MAX,
            Some(n) => (1u64 << n) - 1,
        },
    }
}

/// Sign-extends the low `bits` bits of `v`.
pub fn sign_extend(v: u64, bits: u32) -> i64 {
    if bits >= 64 {
        return v as i64;
    }
    let shift = 64 - bits;
    ((v << shift) as i64) >> shift
}

/// Converts an IEEE binary16 bit pattern to `f32` (exact).
pub fn f16_to_f32(h: u16) -> f32 {
    let sign = ((h >> 15) as u32) << 31;
    let exp = ((h >> 10) & 0x1f) as u32;
    let mant = (h & 0x3ff) as u32;
    let bits = match (exp, mant) {
        (0, 0) => sign,
        (0, m) => {
            // Subnormal: value = m * 2^-24.
            let v = m as f32 * f32::from_bits(0x3380_0000);
            return if sign != 0 { -v } else { v };
        }
        (0x1f, m) => sign | 0x7f80_0000 | (m << 13),
        (e, m) => sign | ((e + 127 - 15) << 23) | (m << 13),
    };
    f32::from_bits(bits)
}

/// Converts an `f32` to IEEE binary16 bits with round-to-nearest-even (overflow gives
/// infinity, NaN stays NaN).
pub fn f32_to_f16(f: f32) -> u16 {
    let x = f.to_bits();
    let sign = ((x >> 16) & 0x8000) as u16;
    let exp = ((x >> 23) & 0xff) as i32;
    let mant = x & 0x7f_ffff;
    if exp == 0xff {
        let nan = if mant != 0 {
            0x200 | (mant >> 13) as u16
        } else {
            0
        };
        return sign | 0x7c00 | nan;
    }
    let e = exp - 127 + 15;
    if e >= 0x1f {
        return sign | 0x7c00;
    }
    if e <= 0 {
        if e < -10 {
            return sign;
        }
        let m = mant | 0x80_0000;
        let shift = (14 - e) as u32;
        let half = 1u32 << (shift - 1);
        let rest = m & ((1u32 << shift) - 1);
        let mut r = m >> shift;
        if rest > half || (rest == half && r & 1 == 1) {
            r += 1;
        }
        return sign | r as u16;
    }
    let rest = mant & 0x1fff;
    let mut r = ((e as u32) << 10) | (mant >> 13);
    if rest > 0x1000 || (rest == 0x1000 && r & 1 == 1) {
        r += 1;
    }
    sign | r as u16
}

/// The value of a float literal of type `t` (`f16`, `f32`, `f64`; min-precision floats are
/// stored as `f32`).
pub fn float_value(bits: u64, t: ScalarType) -> Option<f64> {
    match t {
        ScalarType::F16 => Some(f16_to_f32(bits as u16) as f64),
        ScalarType::F32 | ScalarType::MinF16 | ScalarType::MinF10 => {
            Some(f32::from_bits(bits as u32) as f64)
        }
        ScalarType::F64 => Some(f64::from_bits(bits)),
        _ => None,
    }
}

/// The literal of `v` in float type `t` if `v` is exactly representable there and is neither
/// NaN nor a subnormal of `t` (whose handling depends on the denorm mode); `None` otherwise.
pub fn float_bits_exact(v: f64, t: ScalarType) -> Option<u64> {
    if v.is_nan() {
        return None;
    }
    let (bits, back, min_normal) = match t {
        ScalarType::F16 => {
            let h = f32_to_f16(v as f32);
            (h as u64, f16_to_f32(h) as f64, 6.103_515_625e-5)
        }
        ScalarType::F32 | ScalarType::MinF16 | ScalarType::MinF10 => {
            let f = v as f32;
            (f.to_bits() as u64, f as f64, f32::MIN_POSITIVE as f64)
        }
        ScalarType::F64 => (v.to_bits(), v, f64::MIN_POSITIVE),
        _ => return None,
    };
    if back != v || back.to_bits() != v.to_bits() {
        return None;
    }
    if v != 0.0 && v.abs() < min_normal {
        return None;
    }
    Some(bits)
}

/// The opcode that converts a value of scalar type `from` to scalar type `to` of a same-shaped
/// type: `Cast` for equal bit sizes, a `Convert*` otherwise. `None` for bool, void or
/// descriptor types.
pub fn conversion_opcode(from: ScalarType, to: ScalarType) -> Option<OpCode> {
    if !from.is_numeric() || !to.is_numeric() {
        return None;
    }
    if from.bit_size() == to.bit_size() {
        return Some(OpCode::Cast);
    }
    Some(match (from.is_float(), to.is_float()) {
        (true, true) => OpCode::ConvertFtoF,
        (true, false) => OpCode::ConvertFtoI,
        (false, true) => OpCode::ConvertItoF,
        (false, false) => OpCode::ConvertItoI,
    })
}

/// The op after which a new op computing from `def` may be inserted so that it is available
/// wherever `def` is: after `def` itself, or after the last phi of its block if `def` is a phi.
pub fn insertion_point_after(b: &Builder, def: SsaDef) -> SsaDef {
    let mut pos = def;
    if b.get(def).is_some_and(|op| op.opcode == OpCode::Phi) {
        while let Some(next) = b.next(pos) {
            if b.get(next).is_some_and(|op| op.opcode == OpCode::Phi) {
                pos = next;
            } else {
                break;
            }
        }
    }
    pos
}

/// A value of type `to` holding `value` (of a same-shaped type) converted per
/// [`conversion_opcode`]: `value` itself if the types are equal, a new constant for constants
/// and undefs, else a conversion op inserted right after the definition of `value`.
pub fn coerce(
    b: &mut Builder,
    pass: &'static str,
    value: SsaDef,
    to: Type,
) -> Result<SsaDef, PassError> {
    let Some(op) = b.get(value) else {
        return Err(PassError::invalid(pass, value, "reference to a missing op"));
    };
    if op.ty == to {
        return Ok(value);
    }
    let from_ty = op.ty;
    if op.opcode == OpCode::Undef {
        return Ok(b.add_decl(Op::new(OpCode::Undef, to)));
    }
    let (Some(from), Some(to_base)) = (from_ty.as_basic(), to.as_basic()) else {
        return Err(PassError::invalid(
            pass,
            value,
            format!("cannot convert {from_ty} to {to}"),
        ));
    };
    if from.vec_size() != to_base.vec_size() {
        return Err(PassError::invalid(
            pass,
            value,
            format!("cannot convert {from_ty} to {to}: vector sizes differ"),
        ));
    }
    let (fs, ts) = (from.base(), to_base.base());
    if op.opcode == OpCode::Constant {
        if let Some(lits) = convert_literals(&op.operands, fs, ts) {
            return Ok(b.add_constant(to, &lits));
        }
    }
    let code = conversion_opcode(fs, ts).ok_or_else(|| {
        PassError::invalid(pass, value, format!("cannot convert {from_ty} to {to}"))
    })?;
    if op.opcode.is_declarative() {
        // A declaration such as a spec constant has no place in code to convert it after.
        return Err(PassError::invalid(
            pass,
            value,
            format!("cannot convert declaration {from_ty} to {to} in place"),
        ));
    }
    let pos = insertion_point_after(b, value);
    Ok(b.add_after(pos, Op::new(code, to).with_ref(value)))
}

/// Converts constant literals from scalar type `from` to scalar type `to` the way
/// [`conversion_opcode`] would at run time. `None` where the result is not exact or not defined.
pub fn convert_literals(
    lits: &[crate::Operand],
    from: ScalarType,
    to: ScalarType,
) -> Option<Vec<u64>> {
    lits.iter()
        .map(|l| convert_literal(l.0, from, to))
        .collect()
}

/// One literal of [`convert_literals`].
pub fn convert_literal(v: u64, from: ScalarType, to: ScalarType) -> Option<u64> {
    let bitcast = from.bit_size() == to.bit_size();
    convert_literal_as(v, from, to, bitcast)
}

/// Converts one literal from `from` to `to`: reinterpreting the bits if `bitcast` (a `Cast`,
/// sizes must match), else converting the value (a `Convert*`). `None` where the result is not
/// exact or not defined.
pub fn convert_literal_as(v: u64, from: ScalarType, to: ScalarType, bitcast: bool) -> Option<u64> {
    if from == to {
        return Some(v);
    }
    let (fb, tb) = (from.bit_size()?, to.bit_size()?);
    if bitcast {
        return (fb == tb).then_some(v & lit_mask(to));
    }
    match (from.is_float(), to.is_float()) {
        (true, true) => float_bits_exact(float_value(v, from)?, to),
        (true, false) => {
            let f = float_value(v, from)?;
            if f.is_nan() || f.fract() != 0.0 {
                return None;
            }
            let ok = if to.is_signed_int() {
                let lim = 2f64.powi(tb as i32 - 1);
                f >= -lim && f < lim
            } else {
                f >= 0.0 && f < 2f64.powi(tb as i32)
            };
            ok.then(|| (f as i128 as u64) & lit_mask(to))
        }
        (false, true) => {
            let i = if from.is_signed_int() {
                sign_extend(v, fb) as f64
            } else {
                (v & lit_mask(from)) as f64
            };
            // Exact for |i| < 2^53; otherwise reject rather than guess the rounding mode.
            if i.abs() >= 9_007_199_254_740_992.0 {
                return None;
            }
            float_bits_exact(i, to)
        }
        (false, false) => {
            let x = if from.is_signed_int() {
                sign_extend(v, fb) as u64
            } else {
                v & lit_mask(from)
            };
            Some(x & lit_mask(to))
        }
    }
}

/// What a phi takes besides itself and `alias` (its own value under another name).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PhiValue {
    /// One value: the phi is trivial and that value replaces it.
    Only(SsaDef),
    /// Nothing else: the phi is trivial and undefined.
    Nothing,
    /// Several distinct values: the phi stays.
    Several,
}

/// The values of the phi `op` (named `phi`) other than itself and `alias`, as [`PhiValue`].
pub fn phi_value(op: &Op, phi: SsaDef, alias: SsaDef) -> PhiValue {
    let mut same = None;
    for v in op
        .operands
        .iter()
        .skip(1)
        .step_by(2)
        .filter_map(|o| o.def())
    {
        if v == phi || v == alias || same == Some(v) {
            continue;
        }
        if same.is_some() {
            return PhiValue::Several;
        }
        same = Some(v);
    }
    same.map_or(PhiValue::Nothing, PhiValue::Only)
}

/// True if `def` is the address of an op that addresses its operand's type
/// ([`OpCode::addresses_operand_type`]: a composite extract or insert, a load or store of a
/// variable) and that the constant address `lits` (one literal per component) does not index
/// into: a pass about to make `def` such a constant must not (the validator requires constant
/// addresses to name members).
pub fn address_leaves_a_composite(b: &Builder, def: SsaDef, lits: &[u64]) -> bool {
    addresses_leaving_a_composite(b, def, lits.iter().copied())
        .next()
        .is_some()
}

/// The ops whose address is `def` and whose operand type a constant address `lits` would
/// not index into.
fn addresses_leaving_a_composite<'b>(
    b: &'b Builder,
    def: SsaDef,
    lits: impl Iterator<Item = u64> + Clone + 'b,
) -> impl Iterator<Item = SsaDef> + 'b {
    b.uses(def).filter_map(move |u| {
        if u.operand != 1 {
            return None;
        }
        let user = b.get(u.user)?;
        if !user.opcode.addresses_operand_type() {
            return None;
        }
        let composite = b.get(user.arg(0)?)?;
        let leaves = composite.ty.at_address(lits.clone().map(Some)).is_err();
        leaves.then_some(u.user)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fp_modes_are_found_wherever_the_declarations_put_them() {
        // Modes first (D3D9's frontend), last (DXBC's), in the middle, and a program of
        // only modes: the walk from both ends meets each once.
        let mode = |t: ScalarType, f: OpFlags| Op::new(OpCode::SetFpMode, t).with_flags(f);
        let layouts: [&[usize]; 5] = [&[0, 1], &[6, 7], &[3, 4], &[0, 7], &[0, 1, 2]];
        for (n, &at) in layouts.iter().enumerate() {
            let mut b = Builder::new();
            let len = if n == 4 { 3 } else { 8 };
            let mut next_mode = [
                mode(ScalarType::F32, OpFlags::NO_SZ),
                mode(ScalarType::F64, OpFlags::PRECISE),
                mode(ScalarType::F16, OpFlags::NO_NAN),
            ]
            .into_iter();
            for i in 0..len {
                if at.contains(&i) {
                    b.add_decl(next_mode.next().unwrap());
                } else {
                    b.add_scalar_constant(ScalarType::U32, i as u64);
                }
            }
            b.add(Op::new(OpCode::Function, Type::VOID));
            let m = FpModes::collect(&b);
            let f32_op = Op::new(OpCode::FAdd, ScalarType::F32);
            let f64_op = Op::new(OpCode::FAdd, ScalarType::F64);
            assert_eq!(m.effective(&f32_op), OpFlags::NO_SZ, "{at:?}");
            assert_eq!(m.effective(&f64_op), OpFlags::PRECISE, "{at:?}");
        }
    }

    #[test]
    fn a_constant_replacing_an_out_of_range_index_leaves_no_stray_address() {
        // From the ir_compile fuzz target: simplify_arith turned `0 + 3` into 3, the index of
        // an extract from a vec2 (undefined at run time, invalid as a constant address).
        let text = "%1 = EntryPoint %10 Pixel
%2 = DclInput u32 %1 0 0 Flat
%3 = DclOutput u32 %1 0 0 0
%4 = Constant u32 3
%5 = Constant vec2<u32> 1 2
%10 = Function void
%11 = Label None
%12 = InputLoad u32 %2 null
%13 = IAdd u32 %12 %4
%14 = CompositeExtract u32 %5 %13
%15 = CompositeInsert vec2<u32> %5 %13 %14
%16 = CompositeExtract u32 %15 %12
%17 = OutputStore %3 null %16
%18 = Return void null
%19 = FunctionEnd
";
        let mut b = crate::text::parse(text).expect("parse");
        let (add, c3) = (SsaDef::new(13), SsaDef::new(4));
        replace_and_remove(&mut b, add.expect("id"), c3.expect("id"));
        crate::validate::validate(&b, crate::validate::Level::Lowered)
            .unwrap_or_else(|e| panic!("{e:?}\n{}", crate::text::print(&b)));
        let printed = crate::text::print(&b);
        assert!(printed.contains("Undef u32"), "{printed}");
        assert!(!printed.contains("CompositeInsert"), "{printed}");
        assert!(printed.contains("CompositeExtract u32 %5 %12"), "{printed}");
    }

    #[test]
    fn a_constant_out_of_range_variable_address_drops_the_access() {
        // From the ir_compile fuzz target: resolve_types and constant_fold turned run-time
        // register indices into constants past the end of an output or input. A load past the
        // end gives `Undef`, a store there goes.
        let text = "%1 = EntryPoint %10 Pixel
%2 = DclInput f32[3] %1 0 0 Flat
%3 = DclOutput vec4<u32> %1 0 0 0
%4 = Constant u32 7
%10 = Function void
%11 = Label None
%12 = InputLoad u32 %2 null
%13 = IAdd u32 %12 %4
%14 = InputLoad f32 %2 %13
%15 = Cast u32 %14
%16 = OutputStore %3 %13 %15
%17 = OutputStore %3 %12 %15
%18 = Return void null
%19 = FunctionEnd
";
        let mut b = crate::text::parse(text).expect("parse");
        let (add, c7) = (SsaDef::new(13), SsaDef::new(4));
        replace_and_remove(&mut b, add.expect("id"), c7.expect("id"));
        crate::validate::validate(&b, crate::validate::Level::Lowered)
            .unwrap_or_else(|e| panic!("{e:?}\n{}", crate::text::print(&b)));
        let printed = crate::text::print(&b);
        assert!(!printed.contains("InputLoad f32"), "{printed}");
        assert!(printed.contains("Undef f32"), "{printed}");
        assert!(printed.contains("OutputStore %3 %12"), "{printed}");
        assert_eq!(printed.matches("OutputStore").count(), 1, "{printed}");
        assert!(address_leaves_a_composite(
            &b,
            SsaDef::new(12).expect("id"),
            &[4]
        ));
        assert!(!address_leaves_a_composite(
            &b,
            SsaDef::new(12).expect("id"),
            &[3]
        ));
    }

    #[test]
    fn f16_round_trips() {
        for h in 0..=0xffffu16 {
            let f = f16_to_f32(h);
            if f.is_nan() {
                assert!(f16_to_f32(f32_to_f16(f)).is_nan());
            } else {
                assert_eq!(f32_to_f16(f), h, "{h:#x}");
            }
        }
        assert_eq!(f32_to_f16(65504.0), 0x7bff);
        assert_eq!(f32_to_f16(65520.0), 0x7c00);
        assert_eq!(f32_to_f16(1.0 + 1.0 / 4096.0), 0x3c00);
    }

    #[test]
    fn exact_float_literals() {
        assert_eq!(float_bits_exact(0.5, ScalarType::F32), Some(0x3f00_0000));
        assert_eq!(float_bits_exact(0.1, ScalarType::F32), None);
        assert_eq!(float_bits_exact(1e-40, ScalarType::F32), None);
        assert_eq!(float_bits_exact(-0.0, ScalarType::F16), Some(0x8000));
    }
}
