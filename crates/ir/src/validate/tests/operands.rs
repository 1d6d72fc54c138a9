//! Reference operands: counts, null, dangling and forward references, operand opcodes, declarations used as values.

use super::*;

#[test]
fn rule_operand_count() {
    let mut bad = None;
    let b = build(|p, c| {
        bad = Some(p.add(fadd(c.f0, c.f1).with_ref(c.f1)));
    });
    expect(&b, Level::Structural, Rule::OperandCount, bad, None);
}

#[test]
fn rule_null_operand() {
    let mut bad = None;
    let b = build(|p, c| {
        bad = Some(p.add(op(O::FAdd, S::F32).with_ref(c.f0).with_opt_ref(None)));
    });
    expect(&b, Level::Structural, Rule::NullOperand, bad, Some(1));
}

#[test]
fn rule_dangling_reference() {
    let mut bad = None;
    let mut removed = None;
    let mut user = None;
    let mut b = build(|p, c| {
        bad = Some(p.add(op(O::FAdd, S::F32).with_ref(c.f0).with_lit(9999)));
        let big = op(O::FNeg, S::F32).with_lit(u64::MAX);
        p.add(big);
        let r = p.add(fadd(c.f0, c.f1));
        removed = Some(r);
        user = Some(p.add(fadd(c.f0, r)));
    });
    b.remove(removed.expect("set"));
    expect(&b, Level::Structural, Rule::DanglingReference, bad, Some(1));
    expect(
        &b,
        Level::Structural,
        Rule::DanglingReference,
        user,
        Some(1),
    );
}

#[test]
fn rule_forward_reference() {
    let mut bad = None;
    let mut selfref = None;
    let b = build(|p, c| {
        let later = p.reserve();
        bad = Some(p.add(fadd(c.f0, later)));
        p.put(later, fadd(c.f0, c.f1));
        let s = p.reserve();
        selfref = Some(p.put(s, fadd(c.f0, s)));
    });
    expect(&b, Level::Structural, Rule::ForwardReference, bad, Some(1));
    expect(
        &b,
        Level::Structural,
        Rule::ForwardReference,
        selfref,
        Some(1),
    );
}

#[test]
fn rule_operand_opcode() {
    let mut bad = None;
    let b = build(|p, c| {
        bad = Some(p.add(op(O::TmpLoad, S::F32).with_ref(c.inp)));
    });
    expect(&b, Level::Structural, Rule::OperandOpcode, bad, Some(0));
}

#[test]
fn rule_dcl_misuse() {
    let mut bad = None;
    let b = build(|p, c| {
        bad = Some(p.add(fadd(c.inp, c.f0)));
    });
    expect(&b, Level::Structural, Rule::DclMisuse, bad, Some(0));
}
