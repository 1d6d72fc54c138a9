//! Tests of the opcode table: shapes, and facts that must agree with each other in every row.

use super::*;

#[test]
fn codes_are_dense_and_names_round_trip() {
    for (i, op) in OpCode::ALL.iter().enumerate() {
        assert_eq!(op.code() as usize, i, "{op} is out of order");
        assert_eq!(OpCode::from_code(op.code()), Some(*op));
        assert_eq!(OpCode::from_name(op.name()), Some(*op));
        assert!(op.code() < 1024, "codes must fit 10 bits");
    }
}

#[test]
fn ref_counts_follow_the_shape() {
    let i = OpCode::EntryPoint.info();
    assert_eq!(i.ref_count(3), Some(2));
    assert_eq!(i.ref_count(0), None);
    let d = OpCode::DebugName.info();
    assert_eq!(d.ref_count(4), Some(1));
    let f = OpCode::FAdd.info();
    assert_eq!(f.ref_count(2), Some(2));
    assert_eq!(f.ref_count(3), None);
    let s = OpCode::Switch.info();
    assert_eq!(s.ref_info(1).map(|r| r.role), Some(Role::Block));
    assert_eq!(s.ref_info(2).map(|r| r.role), Some(Role::CaseValue));
    assert_eq!(s.ref_info(5).map(|r| r.role), Some(Role::Block));
    assert_eq!(f.ref_info(2), None);
}

/// Every row's facts agree with each other; a new opcode whose row contradicts itself fails
/// here.
#[test]
fn every_opcode_has_consistent_facts() {
    use OpClass::{Anywhere, Code, Declaration};
    for &op in OpCode::ALL {
        let info = op.info();
        let all_refs = || info.refs.iter().chain(info.ref_tail);
        // Shapes.
        assert!(
            !(info.var_refs() && info.var_lits.is_some()),
            "{op}: doubly variadic"
        );
        assert_eq!(info.lit_names.len(), info.lits.len(), "{op}");
        assert_eq!(info.var_lit_name.is_some(), info.var_lits.is_some(), "{op}");
        assert!(
            info.ref_tail.iter().all(|r| r.kind == RefKind::Required),
            "{op}: a repeated operand is optional"
        );
        let mut names: Vec<&str> = all_refs()
            .map(|r| r.name)
            .chain(info.lit_names.iter().copied())
            .collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(
            names.len(),
            info.refs.len() + info.ref_tail.len() + info.lits.len(),
            "{op}: operand names repeat"
        );
        // Relations name an earlier fixed operand of a related rule.
        for (i, r) in info.refs.iter().enumerate() {
            if let Like::TypeOf(k) | Like::BitsOf(k) = r.like {
                assert!((k as usize) < i, "{op}: {} is like a later operand", r.name);
            }
            if r.ty == TypeRule::Address || r.ty == TypeRule::ResourceAddress {
                assert_eq!(i, 1, "{op}: an address is operand 1");
            }
        }
        assert!(info.ref_tail.iter().all(|r| r.like == Like::Free), "{op}");
        assert_eq!(
            op.addresses_operand_type(),
            info.refs.get(1).is_some_and(|r| r.ty == TypeRule::Address),
            "{op}"
        );
        // Effects.
        let t = op.traits();
        if t.contains(Traits::PURE) {
            assert!(op.is_removable(), "{op}: pure but not removable");
        }
        if op.is_terminator() {
            assert!(!op.is_removable() && info.class == Code, "{op}");
            assert!(
                matches!(info.result, ResultRule::Void | ResultRule::Any),
                "{op}"
            );
        }
        if op.is_scoped() {
            assert!(
                op.must_be_lowered() && !op.is_removable() && info.class == Code,
                "{op}"
            );
            assert_eq!(info.result, ResultRule::Void, "{op}");
            assert!(
                matches!(
                    info.refs.first().map(|r| r.role),
                    Some(Role::ScopeEnd | Role::ScopeOpener)
                ),
                "{op}: a scoped op names its construct first"
            );
        }
        if op.is_control_flow() {
            assert!(info.class == Code && !op.is_scoped(), "{op}");
        }
        if op.is_commutative() {
            assert_eq!(info.refs.len(), 2, "{op}");
            assert!(
                info.refs[0].ty == info.refs[1].ty && !op.must_be_lowered(),
                "{op}"
            );
        }
        if op.is_conversion() {
            assert_eq!((info.refs.len(), info.ref_tail.len()), (1, 0), "{op}");
            assert!(op.is_pure(), "{op}");
        }
        if op.is_dcl() {
            assert!(info.class == Declaration && !op.is_pure(), "{op}");
        }
        if op.is_mode() {
            assert_eq!(info.class, Declaration, "{op}");
            assert!(
                matches!(info.result, ResultRule::Void | ResultRule::Float),
                "{op}"
            );
            assert_eq!(
                info.refs.first().map(|r| r.role),
                Some(Role::EntryPoint),
                "{op}"
            );
        }
        if op.is_annotation() {
            assert!(
                info.class == Declaration && info.result == ResultRule::Void,
                "{op}"
            );
            assert!(
                !op.is_removable() && info.var_lits == Some(LitKind::Str),
                "{op}"
            );
        }
        if op.is_removable() && info.class != Code {
            // Declarations that may go when unused are never the interface: no location,
            // register or built-in literals.
            assert!(info.lits.is_empty() && !op.is_mode(), "{op}");
        }
        if info.class == Declaration {
            assert!(!op.is_control_flow() && !op.is_terminator(), "{op}");
        }
        // Roles.
        for r in all_refs() {
            if matches!(r.role, Role::Block | Role::Merge) {
                assert!(
                    op.is_control_flow(),
                    "{op}: names a block but is no control flow"
                );
            }
            if matches!(r.role, Role::ScopeEnd | Role::ScopeOpener) {
                assert!(op.is_scoped(), "{op}");
            }
            if let Role::Decl(dcls) = r.role {
                for d in dcls {
                    assert!(
                        d.is_dcl(),
                        "{op}: {} names {d}, which is no declaration",
                        r.name
                    );
                }
            }
            if r.role == Role::Descriptor {
                assert_eq!(OpCode::DescriptorLoad.info().result, ResultRule::Descriptor);
            }
            if r.ty != TypeRule::Any || r.like != Like::Free {
                // Only values (and constant offsets) have type rules.
                assert!(
                    matches!(r.role, Role::Value | Role::Incoming | Role::Constant),
                    "{op}: {}",
                    r.name
                );
            }
            if r.ty == TypeRule::Result {
                assert!(
                    !matches!(info.result, ResultRule::Void | ResultRule::Any),
                    "{op}"
                );
            }
        }
        // Ops that name no block or value of their own.
        if info.class == Anywhere {
            assert!(!op.is_control_flow() && !op.is_terminator(), "{op}");
        }
    }
}

/// The facts the passes rely on, spot-checked against the spec and the backend.
#[test]
fn facts_match_the_spec() {
    use OpCode as O;
    let lowered: Vec<OpCode> = OpCode::ALL
        .iter()
        .copied()
        .filter(|o| o.must_be_lowered())
        .collect();
    for o in [
        O::ConsumeAs,
        O::TmpLoad,
        O::TmpStore,
        O::DclTmp,
        O::FDot,
        O::FDotLegacy,
        O::FMulLegacy,
        O::FMadLegacy,
        O::FPowLegacy,
        O::MinValue,
        O::MaxValue,
        O::ScopedIf,
    ] {
        assert!(lowered.contains(&o), "{o}");
    }
    assert!(!O::FMad.must_be_lowered() && !O::Phi.must_be_lowered());
    let terminators: Vec<OpCode> = OpCode::ALL
        .iter()
        .copied()
        .filter(|o| o.is_terminator())
        .collect();
    assert_eq!(
        terminators,
        [
            O::Return,
            O::Branch,
            O::BranchConditional,
            O::Switch,
            O::Unreachable
        ]
    );
    // Loads from memory a store may change are not pure; loads of inputs and constants are.
    assert!(O::InputLoad.is_pure() && O::ConstantLoad.is_pure() && !O::BufferLoad.is_pure());
    assert!(O::BufferLoad.is_removable() && !O::BufferStore.is_removable());
    assert!(!O::DerivX.is_pure() && !O::Phi.is_pure() && O::Phi.is_removable());
    // Spec: "Branch* and Switch may forward-reference a block; Phi blocks and values".
    let later = |o: OpCode, i: usize| o.info().ref_info(i).is_some_and(|r| r.role.may_be_later());
    assert!(
        later(O::Branch, 0) && later(O::BranchConditional, 2) && !later(O::BranchConditional, 0)
    );
    assert!(later(O::Switch, 1) && !later(O::Switch, 2) && later(O::Switch, 3));
    assert!(later(O::Phi, 0) && later(O::Phi, 1) && later(O::DebugName, 0));
    assert!(!later(O::FAdd, 0) && !later(O::Semantic, 0));
    // Spec: "Dcl* instructions cannot be used as SSA values directly".
    assert!(O::DclTmp.is_dcl() && !O::DclSpecConstant.is_dcl() && !O::Constant.is_dcl());
    assert!(O::InputLoad.addresses_operand_type() && !O::BufferLoad.addresses_operand_type());
}
