//! Layout and functions: declarations before code, function nesting, the entry point, parameters, calls, returns, recursion.

use super::*;

#[test]
fn rule_declaration_after_code() {
    let mut b = build(|_, _| {});
    let bad = b.add(f32c(2.0));
    expect(
        &b,
        Level::Structural,
        Rule::DeclarationAfterCode,
        Some(bad),
        None,
    );
}

#[test]
fn rule_code_outside_function() {
    let mut b = build(|_, _| {});
    let bad = b.add(void(O::Demote));
    expect(
        &b,
        Level::Structural,
        Rule::CodeOutsideFunction,
        Some(bad),
        None,
    );
}

#[test]
fn rule_function_nesting() {
    let mut b = build(|_, _| {});
    let stray = b.add(void(O::FunctionEnd));
    expect(
        &b,
        Level::Structural,
        Rule::FunctionNesting,
        Some(stray),
        None,
    );

    let mut p = P::new();
    let c = header(&mut p);
    p.put(c.func, void(O::Function));
    p.add(label(Construct::None));
    p.add(ret());
    expect(
        &p.b,
        Level::Structural,
        Rule::FunctionNesting,
        Some(c.func),
        None,
    );
}

#[test]
fn rule_entry_point_count() {
    let mut b = build(|_, _| {});
    let f = b
        .iter()
        .find(|(_, o)| o.opcode == O::Function)
        .map(|(d, _)| d);
    let second = b.add_decl(
        void(O::EntryPoint)
            .with_opt_ref(f)
            .with_lit(ShaderStage::Pixel.to_literal()),
    );
    expect(
        &b,
        Level::Structural,
        Rule::EntryPointCount,
        Some(second),
        None,
    );

    let mut none = Builder::new();
    let f = none.add(void(O::Function));
    let _ = f;
    none.add(label(Construct::None));
    none.add(ret());
    none.add(void(O::FunctionEnd));
    expect(&none, Level::Structural, Rule::EntryPointCount, None, None);
}

#[test]
fn rule_entry_point_operand() {
    let mut b = build(|_, _| {});
    let ep = SsaDef::new(1).expect("nonzero");
    let f0 = SsaDef::new(3).expect("nonzero");
    b.set_operand(ep, 0, Operand::from_def(f0));
    expect(
        &b,
        Level::Structural,
        Rule::EntryPointOperand,
        Some(ep),
        Some(0),
    );
}

#[test]
fn rule_entry_point_functions_take_and_give_nothing() {
    // From the ir_compile fuzz target: a hull shader's patch-constant function was a fork
    // phase taking the instance id; the pipeline calls it with no arguments.
    let program = |func: &str| {
        format!(
            "%1 = EntryPoint %3 Pixel
%2 = DclParam u32
%3 = {func}
%4 = Label None
%5 = Return void null
%6 = FunctionEnd
"
        )
    };
    assert!(text_errors(&program("Function void"), Level::Structural).is_empty());
    for func in ["Function void %2", "Function u32"] {
        let errs = text_errors(&program(func), Level::Structural);
        assert!(
            errs.contains(&(Rule::EntryPointOperand, 1)),
            "{func}: {errs:?}"
        );
    }
}

#[test]
fn rule_param_load_target() {
    let mut bad = None;
    let b = build(|p, c| {
        bad = Some(p.add(op(O::ParamLoad, S::F32).with_ref(c.func).with_ref(c.param)));
    });
    expect(&b, Level::Structural, Rule::ParamLoadTarget, bad, Some(1));

    // A function with the parameter loads it fine; another function may not name it.
    let mut p = P::new();
    let c = header(&mut p);
    p.put(c.func, void(O::Function));
    p.add(label(Construct::None));
    p.add(ret());
    p.add(void(O::FunctionEnd));
    let f = p.add(void(O::Function).with_ref(c.param));
    p.add(label(Construct::None));
    p.add(op(O::ParamLoad, S::F32).with_ref(f).with_ref(c.param));
    p.add(ret());
    p.add(void(O::FunctionEnd));
    p.add(void(O::Function).with_ref(c.param));
    p.add(label(Construct::None));
    let bad = p.add(op(O::ParamLoad, S::F32).with_ref(f).with_ref(c.param));
    p.add(ret());
    p.add(void(O::FunctionEnd));
    let errs = errors(&p.b, Level::Lowered);
    assert_eq!(errs.len(), 1, "{}", dump(&errs));
    assert_eq!(errs[0].rule, Rule::ParamLoadTarget);
    assert_eq!((errs[0].def, errs[0].operand), (Some(bad), Some(0)));
}

#[test]
fn rule_recursion() {
    // A function reaching itself through another: the call closing the cycle is named.
    let text = "%1 = EntryPoint %3 Pixel
%3 = Function void
%5 = Label None
%6 = FunctionCall void %7
%25 = Return void null
%26 = FunctionEnd
%7 = Function void
%8 = Label None
%9 = FunctionCall void %12
%10 = Return void null
%11 = FunctionEnd
%12 = Function void
%13 = Label None
%14 = FunctionCall void %7
%15 = Return void null
%16 = FunctionEnd
";
    assert_eq!(
        text_errors(text, Level::Structural),
        [(Rule::Recursion, 14)]
    );
    let chain = text.replace("%14 = FunctionCall void %7\n", "");
    assert_eq!(text_errors(&chain, Level::Structural), []);
}

#[test]
fn rule_return_type() {
    let mut bad = None;
    let b = build(|p, c| {
        bad = Some(p.add(void(O::Return).with_ref(c.f0)));
    });
    expect(&b, Level::Structural, Rule::ReturnType, bad, Some(0));

    let mut p = P::new();
    let c = header(&mut p);
    p.put(c.func, op(O::Function, S::F32));
    p.add(label(Construct::None));
    let bad = p.add(ret());
    p.add(void(O::FunctionEnd));
    expect(&p.b, Level::Structural, Rule::ReturnType, Some(bad), None);
}

#[test]
fn rule_calls_derivatives_and_loop_targets() {
    // From the ir_compile fuzz target: a u32 argument for an f32 parameter, a bool result
    // of a void function, a derivative of another type than its result, a loop whose
    // merge block is its continue target.
    let text = "%1 = EntryPoint %4 Pixel
%2 = DclParam f32
%3 = Constant u32 0
%10 = Constant f32 1.0
%5 = Function void %2
%6 = Label None
%7 = Return void null
%8 = FunctionEnd
%4 = Function void
%9 = Label None
%11 = FunctionCall void %5 %3
%19 = FunctionCall bool %5 %10
%12 = DerivX f16 %10 Coarse
%13 = Branch %14
%14 = Label %15 %15 StructuredLoop
%16 = Branch %15
%15 = Label None
%17 = Return void null
%18 = FunctionEnd
";
    let errs = text_errors(text, Level::Structural);
    for want in [
        (Rule::OperandType, 11),
        (Rule::ResultType, 19),
        (Rule::OperandType, 12),
        (Rule::ConstructOperands, 14),
    ] {
        assert!(errs.contains(&want), "{want:?} not in {errs:?}");
    }
}
