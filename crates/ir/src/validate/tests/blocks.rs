//! Block-form control flow: ops in blocks, terminators, phi placement and shape, branch targets, switch shape.

use super::*;

#[test]
fn rule_code_outside_block() {
    let mut bad = None;
    let b = build(|p, c| {
        let l = p.reserve();
        p.add(void(O::Branch).with_ref(l));
        bad = Some(p.add(fadd(c.f0, c.f1)));
        p.put(l, label(Construct::None));
    });
    expect(&b, Level::Structural, Rule::CodeOutsideBlock, bad, None);

    // A scoped function must still start with a Label.
    let mut p = P::new();
    let c = header(&mut p);
    p.put(c.func, void(O::Function));
    let first = p.add(fadd(c.f0, c.f1));
    p.add(ret());
    p.add(void(O::FunctionEnd));
    expect(
        &p.b,
        Level::Structural,
        Rule::CodeOutsideBlock,
        Some(first),
        None,
    );
}

#[test]
fn rule_missing_terminator() {
    let mut bad = None;
    let b = build(|p, c| {
        p.add(fadd(c.f0, c.f1));
        bad = Some(p.add(label(Construct::None)));
    });
    expect(&b, Level::Structural, Rule::MissingTerminator, bad, None);

    let mut p = P::new();
    let c = header(&mut p);
    p.put(c.func, void(O::Function));
    p.add(label(Construct::None));
    let end = p.add(void(O::FunctionEnd));
    expect(
        &p.b,
        Level::Lowered,
        Rule::MissingTerminator,
        Some(end),
        None,
    );
}

#[test]
fn rule_phi_placement() {
    let mut bad = None;
    let b = build(|p, c| {
        let l = p.reserve();
        p.add(void(O::Branch).with_ref(l));
        p.put(l, label(Construct::None));
        p.add(fadd(c.f0, c.f1));
        bad = Some(p.add(op(O::Phi, S::F32).with_ref(c.entry).with_ref(c.f0)));
    });
    expect(&b, Level::Structural, Rule::PhiPlacement, bad, None);
}

#[test]
fn rule_branch_target() {
    let mut bad = None;
    let b = build(|p, c| {
        bad = Some(p.add(void(O::Branch).with_ref(c.f0)));
        p.add(label(Construct::None));
    });
    expect(&b, Level::Structural, Rule::BranchTarget, bad, Some(0));
}

#[test]
fn rule_switch_shape() {
    let mut odd = None;
    let mut nonconst = None;
    let b = build(|p, c| {
        let l = p.reserve();
        odd = Some(p.add(void(O::Switch).with_ref(c.i0).with_ref(l).with_ref(c.i1)));
        p.put(l, label(Construct::None));
        let x = p.add(op(O::IAdd, S::I32).with_ref(c.i0).with_ref(c.i1));
        let l2 = p.reserve();
        nonconst = Some(
            p.add(
                void(O::Switch)
                    .with_ref(c.i0)
                    .with_ref(l2)
                    .with_ref(x)
                    .with_ref(l2),
            ),
        );
        p.put(l2, label(Construct::None));
    });
    expect(&b, Level::Structural, Rule::SwitchShape, odd, None);
    expect(&b, Level::Structural, Rule::SwitchShape, nonconst, Some(2));
}

#[test]
fn rule_phi_shape() {
    let mut bad = None;
    let b = build(|p, c| {
        let l = p.reserve();
        p.add(void(O::Branch).with_ref(l));
        p.put(l, label(Construct::None));
        bad = Some(p.add(op(O::Phi, S::F32).with_ref(c.entry)));
    });
    expect(&b, Level::Structural, Rule::PhiShape, bad, None);
}

#[test]
fn rule_mixed_control_flow() {
    let mut bad = None;
    let b = build(|p, c| {
        let end = p.reserve();
        let lp = p.add(void(O::ScopedLoop).with_ref(end));
        bad = Some(p.add(void(O::Branch).with_ref(c.entry)));
        p.put(end, void(O::ScopedEndLoop).with_ref(lp));
    });
    expect(&b, Level::Structural, Rule::MixedControlFlow, bad, None);
}
