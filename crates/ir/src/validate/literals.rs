//! Literal operands: enum codes and flag bits, strings, construct operand counts, constant
//! data, and the values of switch cases.

use super::{Rule, Validator};
use crate::enums::{
    AtomicOp, BuiltIn, Construct, DenormMode, DerivativeMode, InterpolationModes, MemoryTypeMask,
    PrimitiveType, QuadDirection, ResourceKind, RoundMode, RovScope, Scope, ShaderStage,
    ShaderStageMask, TessPartitioning, TessWindingOrder, UavFlags, WaveOp,
};
use crate::op::{Op, SsaDef};
use crate::opcode::{LitKind, OpCode};
use crate::types::{ScalarType, Type};

/// True if every value is a valid literal of `kind`.
const fn any_value(kind: LitKind) -> bool {
    matches!(
        kind,
        LitKind::Int | LitKind::Str | LitKind::Data | LitKind::CaseValue
    )
}

/// True if [`Validator::check_literals`] has a rule for an op of `op`: a literal kind that
/// not every value is valid for, a string, or one of the opcodes its match checks further.
pub(super) const fn has_literal_rule(op: OpCode) -> bool {
    let info = op.const_info();
    let mut k = 0;
    while k < info.lits.len() {
        if !any_value(info.lits[k]) {
            return true;
        }
        k += 1;
    }
    if let Some(kind) = info.var_lits {
        if !any_value(kind) || matches!(kind, LitKind::Str) {
            return true;
        }
    }
    use OpCode::*;
    matches!(
        op,
        Label | ImageGather | SetFpMode | CounterAtomic | Constant
    )
}

/// Outcome of matching a literal against its kind.
fn literal_valid(kind: LitKind, v: u64) -> bool {
    match kind {
        LitKind::Int | LitKind::Str | LitKind::Data | LitKind::CaseValue => true,
        LitKind::ShaderStage => ShaderStage::from_literal(v).is_some(),
        LitKind::ShaderStageMask => ShaderStageMask::from_literal(v).is_some(),
        LitKind::BuiltIn => BuiltIn::from_literal(v).is_some(),
        LitKind::ResourceKind => ResourceKind::from_literal(v).is_some(),
        LitKind::PrimitiveType => PrimitiveType::from_literal(v).is_some(),
        LitKind::InterpolationModes => InterpolationModes::from_literal(v).is_some(),
        LitKind::AtomicOp => AtomicOp::from_literal(v).is_some(),
        LitKind::RoundMode => RoundMode::from_literal(v).is_some(),
        LitKind::DenormMode => DenormMode::from_literal(v).is_some(),
        LitKind::Scope => Scope::from_literal(v).is_some(),
        LitKind::MemoryTypeMask => MemoryTypeMask::from_literal(v).is_some(),
        LitKind::UavFlags => UavFlags::from_literal(v).is_some(),
        LitKind::Construct => Construct::from_literal(v).is_some(),
        LitKind::DerivativeMode => DerivativeMode::from_literal(v).is_some(),
        LitKind::RovScope => RovScope::from_literal(v).is_some(),
        LitKind::TessWindingOrder => TessWindingOrder::from_literal(v).is_some(),
        LitKind::TessPartitioning => TessPartitioning::from_literal(v).is_some(),
        LitKind::WaveOp => WaveOp::from_literal(v).is_some(),
        LitKind::QuadDirection => QuadDirection::from_literal(v).is_some(),
    }
}

/// True if one of the eight bytes of `w` is zero (the classic word-at-a-time test: a byte
/// borrows in the subtraction, and had its top bit clear, only if it was zero or a borrow
/// reached it from a lower zero byte, so the lowest flagged byte is always a zero one).
#[inline]
pub(super) fn has_zero_byte(w: u64) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    w.wrapping_sub(ONES) & !w & HIGHS != 0
}

/// True if `v` is a valid literal of an integer type of `bits` bits (zero- or sign-extended).
fn fits_bits(v: u64, bits: u32) -> bool {
    if bits >= 64 {
        return true;
    }
    v >> bits == 0 || (v as i64) >> (bits - 1) == -1
}

impl Validator<'_> {
    /// Literal operands: enum codes, flag bits, strings, construct and constant shapes.
    pub(super) fn check_literals(&mut self, def: SsaDef, op: &Op, nref: usize) {
        let info = op.opcode.info();
        let lits = &op.operands[nref..];
        // Past the fixed literals every word is of the repeated kind; kinds that take any
        // value (strings, data, plain integers) need no look at each word.
        let checked = match info.var_lits {
            Some(kind) if any_value(kind) => lits.len().min(info.lits.len()),
            _ => lits.len(),
        };
        for (j, lit) in lits[..checked].iter().enumerate() {
            let Some(kind) = info.lit_kind(j) else {
                continue;
            };
            if !literal_valid(kind, lit.0) {
                self.err_at(
                    def,
                    op,
                    nref + j,
                    Rule::LiteralValue,
                    format!("{:#x} is not a valid {kind:?}", lit.0),
                );
            }
        }
        if matches!(info.var_lits, Some(LitKind::Str)) {
            let words = lits.get(info.lits.len()..).unwrap_or(&[]);
            let terminated = words.iter().any(|w| has_zero_byte(w.0));
            if !terminated {
                self.err_at(
                    def,
                    op,
                    nref + info.lits.len(),
                    Rule::LiteralValue,
                    "string is not null-terminated".into(),
                );
            }
        }
        match op.opcode {
            OpCode::Label => {
                let Some(c) = op.construct() else {
                    return;
                };
                let want = match c {
                    Construct::None => 0,
                    Construct::StructuredSelection => 1,
                    Construct::StructuredLoop => 2,
                };
                if nref != want {
                    self.err_at(
                        def,
                        op,
                        nref,
                        Rule::ConstructOperands,
                        format!("{c} takes {want} labels, found {nref}"),
                    );
                } else if want == 2 && op.arg(0) == op.arg(1) {
                    self.err_at(
                        def,
                        op,
                        1,
                        Rule::ConstructOperands,
                        "the loop's merge block is also its continue target".into(),
                    );
                }
            }
            OpCode::ImageGather => {
                // The component a gather reads: x, y, z or w.
                if let Some(c) = op.lit(0).filter(|&c| c > 3) {
                    let detail = format!("gather of component {c}");
                    self.err_at(def, op, nref, Rule::LiteralValue, detail);
                }
            }
            OpCode::SetFpMode => {
                if let Some(m) = op.lit(0).and_then(RoundMode::from_literal) {
                    if !matches!(m, RoundMode::Zero | RoundMode::NearestEven) {
                        self.err_at(def, op, nref, Rule::FpRoundMode, format!("{m}"));
                    }
                }
            }
            OpCode::CounterAtomic => {
                if let Some(a) = op.lit(0).and_then(AtomicOp::from_literal) {
                    if !matches!(a, AtomicOp::Inc | AtomicOp::Dec) {
                        self.err_at(
                            def,
                            op,
                            nref,
                            Rule::LiteralValue,
                            format!("counter atomic must be Inc or Dec, found {a}"),
                        );
                    }
                }
            }
            OpCode::Constant => match op.ty.flattened_scalar_count() {
                None => self.err(
                    def,
                    op,
                    Rule::ConstantLiterals,
                    format!("unbounded type {}", op.ty),
                ),
                Some(n) if n != lits.len() as u64 => self.err(
                    def,
                    op,
                    Rule::ConstantLiterals,
                    format!("{} needs {n} literals, found {}", op.ty, lits.len()),
                ),
                Some(_) => {}
            },
            _ => {}
        }
    }
    pub(super) fn check_case_value(&mut self, def: SsaDef, op: &Op, selector: Option<Type>) {
        let (Some(v), Some(sel)) = (op.lit(0), selector) else {
            return;
        };
        let Some(bits) = sel.base_type().and_then(ScalarType::bit_size) else {
            return;
        };
        if !fits_bits(v, bits) {
            self.err_at(
                def,
                op,
                op.ref_count(),
                Rule::CaseValue,
                format!("{v:#x} does not fit {sel}"),
            );
        }
    }
}
