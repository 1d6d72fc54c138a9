//! Result and operand types: composites, addresses, arithmetic, conversions, casts, descriptors, and the lowered level.

use super::*;

#[test]
fn rule_composite_shapes() {
    let (mut three, mut mixed, mut oob, mut wrong) = (None, None, None, None);
    let (mut insert_result, mut insert_value) = (None, None);
    let vec2 = Type::vector(S::F32, 2);
    let b = build(|p, c| {
        let construct = || op(O::CompositeConstruct, vec2);
        three = Some(p.add(construct().with_ref(c.f0).with_ref(c.f1).with_ref(c.f0)));
        mixed = Some(p.add(construct().with_ref(c.f0).with_ref(c.i0)));
        let v = p.add(construct().with_ref(c.f0).with_ref(c.f1));
        oob = Some(p.add(op(O::CompositeExtract, S::F32).with_ref(v).with_ref(c.i4)));
        wrong = Some(p.add(op(O::CompositeExtract, S::I32).with_ref(v).with_ref(c.i1)));
        p.add(op(O::CompositeExtract, S::F32).with_ref(v).with_ref(c.i1));
        // Inserts give the composite's type and write what the address reaches (the
        // composite sweep test found neither checked).
        let insert = |ty: Type, value: SsaDef| {
            op(O::CompositeInsert, ty)
                .with_ref(v)
                .with_ref(c.i1)
                .with_ref(value)
        };
        p.add(insert(vec2, c.f1));
        insert_result = Some(p.add(insert(Type::scalar(S::F32), c.f1)));
        insert_value = Some(p.add(insert(vec2, c.i1)));
    });
    let errs = errors(&b, Level::Structural);
    assert_eq!(errs.len(), 6, "{}", dump(&errs));
    expect(&b, Level::Structural, Rule::ResultType, insert_result, None);
    expect(
        &b,
        Level::Structural,
        Rule::OperandType,
        insert_value,
        Some(2),
    );
    expect(&b, Level::Structural, Rule::OperandCount, three, None);
    expect(&b, Level::Structural, Rule::OperandType, mixed, Some(1));
    expect(&b, Level::Structural, Rule::OperandType, oob, Some(1));
    expect(&b, Level::Structural, Rule::ResultType, wrong, None);
}

#[test]
fn rule_addresses_and_values() {
    let (mut float_addr, mut no_value, mut name_of_name) = (None, None, None);
    let (mut past_scalar, mut past_vector, mut float_interpolant) = (None, None, None);
    let b = build(|p, c| {
        float_addr = Some(p.add(op(O::InputLoad, S::F32).with_ref(c.inp).with_ref(c.f0)));
        // The input is one f32: no component to pick, whether the index is constant or not.
        past_scalar = Some(p.add(op(O::InputLoad, S::F32).with_ref(c.inp).with_ref(c.i0)));
        let runtime = p.add(op(O::InputLoad, S::I32).with_ref(c.inp).with_opt_ref(None));
        let pair = p.add(
            op(O::CompositeConstruct, BasicType::vector(S::I32, 2))
                .with_ref(runtime)
                .with_ref(runtime),
        );
        past_vector = Some(p.add(op(O::OutputLoad, S::F32).with_ref(c.out).with_ref(pair)));
        float_interpolant = Some(
            p.add(
                op(O::InterpolateAtCentroid, S::F32)
                    .with_ref(c.inp)
                    .with_ref(c.f0),
            ),
        );
        let store = p.add(
            void(O::OutputStore)
                .with_ref(c.out)
                .with_opt_ref(None)
                .with_ref(c.f1),
        );
        no_value = Some(p.add(fadd(store, c.f0)));
        let name = p.add(void(O::DebugName).with_ref(store).with_str("a"));
        name_of_name = Some(p.add(void(O::DebugName).with_ref(name).with_str("b")));
    });
    expect(
        &b,
        Level::Structural,
        Rule::OperandType,
        float_addr,
        Some(1),
    );
    for def in [past_scalar, past_vector, float_interpolant] {
        expect(&b, Level::Structural, Rule::OperandType, def, Some(1));
    }
    expect(
        &b,
        Level::Structural,
        Rule::OperandOpcode,
        no_value,
        Some(0),
    );
    expect(
        &b,
        Level::Structural,
        Rule::OperandOpcode,
        name_of_name,
        Some(0),
    );
}

#[test]
fn rule_modes_params_and_shift_counts() {
    let (mut mode, mut param, mut shift) = (None, None, None);
    let b = build(|p, c| {
        let fp = p.add(
            op(O::SetFpMode, S::F32)
                .with_ref(c.ep)
                .with_lit(0)
                .with_lit(0),
        );
        mode = Some(p.add(fadd(fp, c.f0)));
        param = Some(p.add(op(O::ParamLoad, S::U32).with_ref(c.func).with_ref(c.param)));
        let v = p.add(
            op(O::CompositeConstruct, Type::vector(S::U32, 2))
                .with_ref(c.u0)
                .with_ref(c.u0),
        );
        let counts = p.add(
            op(O::CompositeConstruct, Type::vector(S::U32, 3))
                .with_ref(c.u0)
                .with_ref(c.u0)
                .with_ref(c.u0),
        );
        shift = Some(
            p.add(
                op(O::IShl, Type::vector(S::U32, 2))
                    .with_ref(v)
                    .with_ref(counts),
            ),
        );
    });
    expect(&b, Level::Structural, Rule::OperandOpcode, mode, Some(0));
    expect(&b, Level::Structural, Rule::ResultType, param, None);
    expect(&b, Level::Structural, Rule::OperandType, shift, Some(1));
}

#[test]
fn rule_values_temporaries_sparse_msad_casts_and_sizes() {
    // From the ir_compile fuzz target: the entry point stored to a temporary, a vector
    // stored to a scalar temporary, an untyped descriptor, a member extracted from an
    // untyped scalar, a float as sparse feedback, mixed-size msad, a cast of a bool, a
    // bit-field count of another type than its offset, 64-bit sparse feedback, an input
    // of unbounded size, a size query whose layer count is 64-bit or missing, an untyped
    // value stored to a sampler temporary.
    let text = "%1 = EntryPoint %3 Pixel
%2 = DclTmp unknown %1
%35 = DclSrv f32 %1 0 0 1 Image2DArray
%40 = DclTmp sampler %1
%4 = DclSampler %1 0 0 1
%31 = DclUav u32 %1 0 1 1 BufferTyped None
%5 = DclInput vec4<f32>[0] %1 0 0 None
%6 = Constant u32 0
%7 = Constant vec2<u32> 0 1
%8 = Constant f32 1.0
%9 = Constant u16 1
%10 = Constant unknown 7
%3 = Function void
%11 = Label None
%12 = TmpStore %2 %1
%13 = TmpStore %2 %7
%14 = DescriptorLoad unknown %4 %6
%15 = CompositeExtract f32 %10 %6
%16 = CheckSparseAccess bool %8
%17 = UMsad u32 %6 %9 %6
%18 = UMsad u64 %6 %6 %6
%19 = IEq bool %6 %6
%20 = Cast u32 %19
%30 = IBitInsert u32 %6 %6 %6 %9
%32 = DescriptorLoad uav %31 %6
%33 = BufferLoad [sparse] struct{u64, u32} %32 %6 4
%34 = BufferLoad [sparse] struct{u32, u32} %32 %6 4
%36 = DescriptorLoad srv %35 %6
%41 = TmpStore %40 %10
%37 = ImageQuerySize struct{vec2<u32>, i64} %36 %6
%38 = ImageQuerySize vec2<u32> %36 %6
%39 = ImageQuerySize struct{vec2<u32>, u32} %36 %6
%21 = Branch %22
%22 = Label %24 %23 StructuredLoop
%25 = Phi u32 %11 %6 %23 %20
%26 = Branch %23
%23 = Label None
%27 = BranchConditional %19 %22 %24
%24 = Label None
%28 = Return void null
%29 = FunctionEnd
";
    let errs = text_errors(text, Level::Structural);
    for want in [
        (Rule::OperandOpcode, 12),
        (Rule::OperandType, 13),
        (Rule::ResultType, 14),
        (Rule::OperandType, 15),
        (Rule::OperandType, 16),
        (Rule::OperandType, 17),
        (Rule::ResultType, 18),
        (Rule::OperandType, 20),
        (Rule::OperandType, 30),
        (Rule::ResultType, 33),
        (Rule::ResultType, 5),
        (Rule::ResultType, 37),
        (Rule::ResultType, 38),
        (Rule::OperandType, 41),
    ] {
        assert!(errs.contains(&want), "{want:?} not in {errs:?}");
    }
    let valid: Vec<_> = [
        6, 7, 8, 9, 10, 11, 19, 21, 22, 23, 24, 25, 26, 27, 28, 32, 34, 35, 36, 39,
    ]
    .iter()
    .filter(|&&d| errs.iter().any(|e| e.1 == d))
    .collect();
    assert!(valid.is_empty(), "errors for valid ops {valid:?}: {errs:?}");
}

#[test]
fn rule_result_type() {
    let mut bad = None;
    let mut carry = None;
    let b = build(|p, c| {
        bad = Some(p.add(op(O::FLt, S::F32).with_ref(c.f0).with_ref(c.f1)));
        carry = Some(p.add(op(O::IAddCarry, S::U32).with_ref(c.u0).with_ref(c.u0)));
    });
    expect(&b, Level::Structural, Rule::ResultType, bad, None);
    expect(&b, Level::Structural, Rule::ResultType, carry, None);
}

#[test]
fn rule_operand_type() {
    let mut add = None;
    let mut cmp = None;
    let mut sel = None;
    let mut dot = None;
    let mut pack = None;
    let b = build(|p, c| {
        add = Some(p.add(fadd(c.f0, c.i0)));
        cmp = Some(p.add(op(O::SLt, S::Bool).with_ref(c.i0).with_ref(c.f0)));
        sel = Some(
            p.add(
                op(O::Select, S::F32)
                    .with_ref(c.f0)
                    .with_ref(c.f0)
                    .with_ref(c.f1),
            ),
        );
        dot = Some(p.add(op(O::FDot, S::F32).with_ref(c.f0).with_ref(c.f1)));
        pack = Some(p.add(op(O::ConvertF32toPackedF16, S::U32).with_ref(c.f0)));
    });
    expect(&b, Level::Structural, Rule::OperandType, add, Some(1));
    expect(&b, Level::Structural, Rule::OperandType, cmp, Some(1));
    expect(&b, Level::Structural, Rule::OperandType, sel, Some(0));
    expect(&b, Level::Structural, Rule::OperandType, dot, Some(0));
    expect(&b, Level::Structural, Rule::OperandType, pack, Some(0));
}

#[test]
fn rule_cast_bit_size() {
    let mut bad = None;
    let mut good = None;
    let b = build(|p, c| {
        bad = Some(p.add(op(O::Cast, S::U64).with_ref(c.f0)));
        good = Some(p.add(op(O::Cast, S::U32).with_ref(c.f0)));
    });
    let errs = errors(&b, Level::Lowered);
    assert_eq!(errs.len(), 1, "{}", dump(&errs));
    expect(&b, Level::Structural, Rule::CastBitSize, bad, None);
}

#[test]
fn rule_descriptor_type() {
    let mut bad = None;
    let mut good = None;
    let b = build(|p, c| {
        bad = Some(p.add(op(O::DescriptorLoad, S::Srv).with_ref(c.uav).with_ref(c.u0)));
        good = Some(
            p.add(
                op(O::DescriptorLoad, S::Sampler)
                    .with_ref(c.sampler)
                    .with_ref(c.u0),
            ),
        );
    });
    let errs = errors(&b, Level::Lowered);
    assert_eq!(errs.len(), 1, "{}", dump(&errs));
    expect(&b, Level::Structural, Rule::DescriptorType, bad, None);
}

#[test]
fn rule_not_lowered() {
    let mut dot = None;
    let mut tmp = None;
    let b = build_with(true, |p, c| {
        let v = p.add(
            op(O::CompositeConstruct, Type::vector(S::F32, 2))
                .with_ref(c.f0)
                .with_ref(c.f1),
        );
        dot = Some(p.add(op(O::FDot, S::F32).with_ref(v).with_ref(v)));
        tmp = Some(p.add(op(O::TmpLoad, S::F32).with_opt_ref(c.tmp)));
    });
    expect_ok(&b, Level::Structural);
    expect(&b, Level::Lowered, Rule::NotLowered, dot, None);
    expect(&b, Level::Lowered, Rule::NotLowered, tmp, None);
    expect(&b, Level::Lowered, Rule::NotLowered, c_tmp(&b), None);
}

#[test]
fn rule_unknown_type() {
    let mut bad = None;
    let b = build(|p, c| {
        bad = Some(p.add(op(O::FAdd, S::Unknown).with_ref(c.f0).with_ref(c.f1)));
    });
    expect_ok(&b, Level::Structural);
    expect(&b, Level::Lowered, Rule::UnknownType, bad, None);
}

#[test]
fn rule_no_op_conversion() {
    let mut bad = None;
    let b = build(|p, c| {
        bad = Some(p.add(op(O::ConvertFtoF, S::F32).with_ref(c.f0)));
    });
    expect_ok(&b, Level::Structural);
    expect(&b, Level::Lowered, Rule::NoOpConversion, bad, None);
}

/// The `DclTmp` of a program.
fn c_tmp(b: &Builder) -> Option<SsaDef> {
    b.iter()
        .find(|(_, o)| o.opcode == O::DclTmp)
        .map(|(d, _)| d)
}
