//! Literal operands: enum codes, flags, construct operands, rounding modes, constant data, case values.

use super::*;

#[test]
fn rule_literal_value() {
    let mut bad = None;
    let b = build(|p, _| {
        bad = Some(
            p.add(
                void(O::Barrier)
                    .with_lit(99)
                    .with_lit(0)
                    .with_lit(MemoryTypeMask::Lds.to_literal()),
            ),
        );
    });
    expect(&b, Level::Structural, Rule::LiteralValue, bad, Some(0));

    let mut b = build(|_, _| {});
    let ep = SsaDef::new(1).expect("nonzero");
    let name = b.add_decl(void(O::DebugName).with_ref(ep).with_lit(u64::MAX));
    expect(
        &b,
        Level::Structural,
        Rule::LiteralValue,
        Some(name),
        Some(1),
    );
    let flags = b.add_decl(
        op(O::DclUav, S::U32)
            .with_ref(ep)
            .with_lit(0)
            .with_lit(1)
            .with_lit(1)
            .with_lit(ResourceKind::BufferRaw.to_literal())
            .with_lit(1 << 20),
    );
    expect(
        &b,
        Level::Structural,
        Rule::LiteralValue,
        Some(flags),
        Some(5),
    );
}

#[test]
fn rule_construct_operands() {
    let mut count = None;
    let mut kind = None;
    let b = build(|p, c| {
        p.add(void(O::Branch).with_ref(SsaDef::new(p.next).expect("nonzero")));
        count = Some(p.add(label(Construct::StructuredSelection)));
        let l = p.reserve();
        p.add(void(O::Branch).with_ref(l));
        kind = Some(
            p.put(
                l,
                void(O::Label)
                    .with_ref(c.f0)
                    .with_ref(c.f1)
                    .with_lit(Construct::StructuredLoop.to_literal()),
            ),
        );
    });
    expect(
        &b,
        Level::Structural,
        Rule::ConstructOperands,
        count,
        Some(0),
    );
    expect(
        &b,
        Level::Structural,
        Rule::ConstructOperands,
        kind,
        Some(0),
    );
}

#[test]
fn rule_fp_round_mode() {
    let mut b = build(|_, _| {});
    let ep = SsaDef::new(1).expect("nonzero");
    let ok = b.add_decl(
        void(O::SetFpMode)
            .with_ref(ep)
            .with_lit(RoundMode::NearestEven.to_literal())
            .with_lit(DenormMode::Preserve.to_literal()),
    );
    b.set_type(ok, Type::scalar(S::F32));
    expect_ok(&b, Level::Lowered);
    let bad = b.add_decl(
        op(O::SetFpMode, S::F16)
            .with_ref(ep)
            .with_lit(RoundMode::PositiveInf.to_literal())
            .with_lit(DenormMode::Flush.to_literal()),
    );
    expect(&b, Level::Structural, Rule::FpRoundMode, Some(bad), Some(1));
}

#[test]
fn rule_constant_literals() {
    let mut b = build(|_, _| {});
    let short = b.add_decl(op(O::Constant, Type::vector(S::F32, 2)).with_lit(0));
    let unbounded = b.add_decl(op(
        O::Constant,
        Type::scalar(S::U32).array_of(0).expect("valid"),
    ));
    expect(
        &b,
        Level::Structural,
        Rule::ConstantLiterals,
        Some(short),
        None,
    );
    expect(
        &b,
        Level::Structural,
        Rule::ConstantLiterals,
        Some(unbounded),
        None,
    );
}

#[test]
fn rule_op_flags() {
    let mut bad = None;
    let b = build(|p, c| {
        bad = Some(p.add(fadd(c.f0, c.f1).with_flags(OpFlags(0x80) | OpFlags::PRECISE)));
    });
    expect(&b, Level::Structural, Rule::OpFlags, bad, None);
}

#[test]
fn rule_case_value() {
    let mut bad = None;
    let b = build(|p, c| {
        let endsw = p.reserve();
        let sw = p.add(void(O::ScopedSwitch).with_ref(endsw).with_ref(c.u0));
        p.add(void(O::ScopedSwitchCase).with_ref(sw).with_lit(0xffff_ffff));
        bad = Some(p.add(void(O::ScopedSwitchCase).with_ref(sw).with_lit(1 << 40)));
        p.put(endsw, void(O::ScopedEndSwitch).with_ref(sw));
    });
    let errs = errors(&b, Level::Structural);
    assert_eq!(errs.len(), 1, "{}", dump(&errs));
    expect(&b, Level::Structural, Rule::CaseValue, bad, Some(1));
}

/// `Validator::check_specific` skips constants without flags: none of its rules may report
/// anything for a constant, of whatever type, literal count, level or stage.
#[test]
fn constants_meet_no_specific_rule() {
    let mut types: Vec<Type> = vec![Type::VOID];
    for s in ScalarType::ALL {
        types.push(Type::scalar(s));
        types.push(Type::vector(s, 4));
    }
    let v4 = BasicType::vector(S::F32, 4);
    let u = BasicType::scalar(S::U32);
    types.push(Type::structure(&[v4, u]).unwrap());
    types.push(Type::scalar(S::U32).array_of(4).unwrap());
    types.push(Type::scalar(S::F32).array_of(0).unwrap());
    types.push(Type::structure(&[u, v4]).unwrap().array_of(2).unwrap());
    let mut b = Builder::new();
    let mut defs = Vec::new();
    for ty in &types {
        for lits in [0usize, 1, 4, 8] {
            let mut op = Op::new(O::Constant, *ty);
            for k in 0..lits {
                op = op.with_lit(k as u64);
            }
            defs.push(b.add_decl(op));
        }
    }
    for level in [Level::Structural, Level::Unstructured, Level::Lowered] {
        for &stage in ShaderStage::ALL {
            let mut v = Validator::new(&b, level);
            v.stage = Some(stage);
            v.workgroup_size = Some([1, 1, 1]);
            for &d in &defs {
                let op = b.op(d);
                v.check_specific_rules(d, op, 0);
            }
            assert!(v.errors.is_empty(), "{level:?} {stage:?}: {:?}", v.errors);
        }
    }
}

#[test]
fn annotations_meet_no_specific_rule() {
    // Targets of every kind an annotation may name: declarations, constants, a function, a
    // value, another annotation; and of every type.
    let mut b = Builder::new();
    let mut targets = Vec::new();
    for ty in [
        Type::VOID,
        Type::scalar(S::F32),
        Type::vector(S::U32, 4),
        Type::scalar(S::F32).array_of(0).unwrap(),
    ] {
        targets.push(b.add_decl(Op::new(O::Constant, ty)));
        targets.push(b.add_decl(Op::new(O::DclInput, ty).with_lit(0).with_lit(0)));
        targets.push(b.add_decl(Op::new(O::DclOutput, ty).with_lit(0).with_lit(0)));
        targets.push(b.add_decl(Op::new(O::DclLds, ty)));
    }
    targets.push(b.add(Op::new(O::Function, Type::VOID)));
    let named = b.add_decl(Op::new(O::DebugName, Type::VOID).with_ref(targets[0]));
    targets.push(named);
    let mut annotations = Vec::new();
    for &t in &targets {
        for (opcode, lits) in [(O::DebugName, 0), (O::DebugMemberName, 1), (O::Semantic, 1)] {
            for name in ["", "a", "a longer name of more words"] {
                let mut op = Op::new(opcode, Type::VOID).with_ref(t);
                for k in 0..lits {
                    op = op.with_lit(k as u64);
                }
                annotations.push(b.add_decl(op.with_str(name)));
            }
        }
    }
    for level in [Level::Structural, Level::Unstructured, Level::Lowered] {
        for &stage in ShaderStage::ALL {
            let mut v = Validator::new(&b, level);
            v.stage = Some(stage);
            v.workgroup_size = Some([1, 1, 1]);
            for &d in &annotations {
                let op = b.op(d);
                v.check_specific_rules(d, op, op.ref_count());
            }
            assert!(v.errors.is_empty(), "{level:?} {stage:?}: {:?}", v.errors);
        }
    }
}

/// `Validator::check_specific` runs only the rule groups `RULE_GROUPS` names for an opcode:
/// on ops of every opcode, of many shapes and types, naming targets of many kinds, it must
/// report exactly what every group together reports.
#[test]
fn rule_groups_skip_nothing() {
    let types = [
        Type::VOID,
        Type::scalar(S::F32),
        Type::scalar(S::U32),
        Type::scalar(S::I32),
        Type::scalar(S::Bool),
        Type::scalar(S::Unknown),
        Type::scalar(S::Srv),
        Type::vector(S::F32, 4),
        Type::vector(S::U32, 2),
        Type::vector(S::I32, 3),
        Type::structure(&[BasicType::scalar(S::U32), BasicType::vector(S::F32, 4)]).unwrap(),
        Type::scalar(S::F32).array_of(4).unwrap(),
        Type::scalar(S::U32).array_of(0).unwrap(),
    ];
    let mut b = Builder::new();
    let mut targets = Vec::new();
    for ty in &types {
        let n = ty.flattened_scalar_count().unwrap_or(0) as usize;
        let mut c = Op::new(O::Constant, *ty);
        for k in 0..n {
            c = c.with_lit(k as u64 % 3);
        }
        targets.push(b.add_decl(c));
        targets.push(b.add_decl(Op::new(O::DclInput, *ty).with_lit(0).with_lit(0)));
        targets.push(b.add_decl(Op::new(O::DclLds, *ty)));
        targets.push(b.add(Op::new(O::FAdd, *ty)));
    }
    let srv = b.add_decl(
        Op::new(O::DclSrv, Type::VOID)
            .with_lit(0)
            .with_lit(0)
            .with_lit(1)
            .with_lit(ResourceKind::Image2D.to_literal()),
    );
    targets.push(srv);
    targets.push(b.add(Op::new(O::DescriptorLoad, Type::scalar(S::Srv)).with_ref(srv)));
    targets.push(b.add(Op::new(O::Function, Type::VOID)));
    targets.push(b.add(Op::new(O::Label, Type::VOID).with_lit(0)));
    // A small deterministic generator (xorshift).
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut ops = Vec::new();
    for &opcode in OpCode::ALL {
        let info = opcode.info();
        for variant in 0..24 {
            let ty = types[next() as usize % types.len()];
            let mut op = Op::new(opcode, ty);
            let tail = if info.var_refs() { variant % 5 } else { 0 };
            for _ in 0..info.refs.len() + tail {
                let t = targets[next() as usize % targets.len()];
                op = if next() % 8 == 0 {
                    op.with_opt_ref(None)
                } else {
                    op.with_ref(t)
                };
            }
            let lits = info.lits.len()
                + if info.var_lits.is_some() {
                    variant % 4
                } else {
                    0
                };
            for _ in 0..lits {
                let v = match next() % 4 {
                    0 => 0,
                    1 => 1,
                    2 => next() % 300,
                    _ => next(),
                };
                op = op.with_lit(v);
            }
            if variant % 6 == 5 {
                op.flags = OpFlags::SPARSE_FEEDBACK;
            }
            ops.push(op);
        }
    }
    for level in [Level::Structural, Level::Unstructured, Level::Lowered] {
        for &stage in ShaderStage::ALL {
            let mut all = Validator::new(&b, level);
            let mut table = Validator::new(&b, level);
            for v in [&mut all, &mut table] {
                v.stage = Some(stage);
                v.workgroup_size = Some([3, 1, 1]);
            }
            let def = targets[0];
            for op in &ops {
                let nref = op.ref_count();
                all.check_specific_rules(def, op, nref);
                table.check_specific(def, op, nref);
                all.errors.clear();
                table.errors.clear();
            }
            let mut checked = 0;
            for op in &ops {
                let nref = op.ref_count();
                all.check_specific_rules(def, op, nref);
                table.check_specific(def, op, nref);
                all.check_literals(def, op, nref);
                if RULE_GROUPS[op.opcode as usize] & group::LITERALS != 0 {
                    table.check_literals(def, op, nref);
                }
                assert_eq!(all.errors, table.errors, "{level:?} {stage:?} {op:?}");
                checked += usize::from(!all.errors.is_empty());
                all.errors.clear();
                table.errors.clear();
            }
            assert!(
                checked > 100,
                "{level:?} {stage:?}: only {checked} ops with errors"
            );
        }
    }
}

/// The word-at-a-time zero byte test agrees with a byte search.
#[test]
fn zero_byte_test_matches_byte_search() {
    let mut state = 0x2545_f491_4f6c_dd1du64;
    for k in 0..200_000u64 {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        // Mostly words with few zero bytes, some with many, and every single-byte pattern.
        let w = match k % 4 {
            0 => state,
            1 => state & (state >> 3),
            2 => (k & 0xff) << ((k >> 8) % 8 * 8),
            _ => !((0xffu64) << (k % 8 * 8)) & state | 0x0101_0101_0101_0101 & state,
        };
        assert_eq!(
            super::super::literals::has_zero_byte(w),
            w.to_le_bytes().contains(&0),
            "{w:#018x}"
        );
    }
}
