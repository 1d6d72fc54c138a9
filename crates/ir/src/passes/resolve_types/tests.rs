//! Tests of type resolution that look at the types of operands (the file tests in
//! `tests/filetests/resolve_types/` compare printed programs).

use super::{run, Scratch};

/// Used as `f32` and as `i32`: ambiguous, so the value becomes `u32` and each use a `Cast`.
#[test]
fn untyped_value_compared_as_an_integer_and_stored_as_a_float() {
    // Found by the ir_compile fuzz target: the constant's class became f32 (it reaches a
    // float output through the select), and INe then read an f32.
    let input = "
%1 = EntryPoint %10 Pixel
%2 = DclOutput f32 %1 0 0 0
%3 = Constant unknown 0
%4 = Constant u32 0
%5 = Constant bool true
%10 = Function void
%11 = Label None
%12 = INe bool %3 %4
%13 = Select unknown %5 %3 %3
%14 = ConsumeAs f32 %13
%15 = OutputStore %2 null %14
%16 = Return void null
%17 = FunctionEnd
";
    let b = resolved(input);
    assert_eq!(operand_type(&b, crate::OpCode::INe, 0), "u32");
}

/// Runs the pass on `input` and returns the result, which must validate.
fn resolved(input: &str) -> crate::Builder {
    let mut b = crate::text::parse(input).expect("parse");
    run(&mut b).unwrap_or_else(|e| panic!("{e}\n{}", crate::text::print(&b)));
    crate::validate::validate(&b, crate::validate::Level::Structural)
        .unwrap_or_else(|e| panic!("{e:?}\n{}", crate::text::print(&b)));
    b
}

/// The type of operand `i` of the first op with `opcode`.
fn operand_type(b: &crate::Builder, opcode: crate::OpCode, i: usize) -> String {
    let (_, op) = b
        .iter()
        .find(|(_, o)| o.opcode == opcode)
        .unwrap_or_else(|| panic!("no {opcode:?}"));
    let x = op.arg(i).and_then(|x| b.get(x)).expect("operand");
    x.ty.to_string()
}

#[test]
fn untyped_operands_of_a_fixed_kind_are_reinterpreted() {
    // From the ir_compile fuzz target: untyped values whose classes took f32 or u32 read
    // as a select condition, compared with a u64 and cast to a 16-bit float.
    let input = "
%1 = EntryPoint %10 Pixel
%2 = DclOutput u32 %1 0 0 0
%3 = Constant unknown 5
%4 = Constant u64 7
%5 = Constant u32 1
%6 = Constant unknown 6
%7 = Constant unknown 8
%8 = DclInput u32 %1 0 0 None
%10 = Function void
%11 = Label None
%12 = InputLoad u32 %8 null
%9 = INe bool %12 %5
%13 = Select unknown %9 %3 %3
%14 = ConsumeAs f32 %13
%15 = Select u32 %3 %5 %5
%16 = INe bool %6 %4
%17 = Cast f16 %7
%18 = ConsumeAs f32 %7
%19 = Select u32 %16 %5 %15
%20 = OutputStore %2 null %19
%21 = Return void null
%22 = FunctionEnd
";
    let b = resolved(input);
    for (def, op) in b.iter() {
        if op.opcode == crate::OpCode::Select {
            let cond = op.arg(0).and_then(|x| b.get(x)).map(|x| x.ty.to_string());
            assert_eq!(cond.as_deref(), Some("bool"), "{def}");
        }
    }
    let (_, ine) = b
        .iter()
        .find(|(_, o)| o.opcode == crate::OpCode::INe && o.arg(1).is_some_and(|x| x.id() == 4))
        .expect("the u64 compare");
    let lhs = ine.arg(0).and_then(|x| b.get(x)).map(|x| x.ty.to_string());
    assert_eq!(lhs.as_deref(), Some("u64"));
    let (_, cast) = b
        .iter()
        .find(|(_, o)| o.opcode == crate::OpCode::Cast && o.ty.to_string() == "f16")
        .expect("the cast to f16");
    let from = cast.arg(0).and_then(|x| b.get(x)).map(|x| x.ty.to_string());
    assert_eq!(from.as_deref(), Some("u16"));
}

#[test]
fn untyped_switch_selector_is_an_integer() {
    // From the ir_compile fuzz target: the selector's class took f32 from a select of
    // floats; a switch compares integers.
    let input = "
%1 = EntryPoint %10 Pixel
%2 = DclInput u32 %1 0 0 Flat
%4 = Constant u32 1
%5 = Constant f32 2.0
%10 = Function void
%11 = Label %14 StructuredSelection
%6 = InputLoad u32 %2 null
%7 = INe bool %6 %4
%3 = Select unknown %7 %5 %5
%15 = Switch %3 %14 %4 %16
%16 = Label None
%17 = Branch %14
%14 = Label None
%18 = Return void null
%19 = FunctionEnd
";
    let b = resolved(input);
    let sel = operand_type(&b, crate::OpCode::Switch, 0);
    assert!(sel == "u32" || sel == "i32", "{sel}");
}

#[test]
fn users_of_a_removed_untyped_consume_are_still_fixed_up() {
    // From the ir_compile fuzz target: `ConsumeAs unknown` of a u32 took u32 and was
    // removed; the f64 addition it fed then read the u32 itself.
    let input = "
%1 = EntryPoint %10 Pixel
%2 = DclOutput u32 %1 0 0 0
%3 = DclOutput f64 %1 1 0 0
%4 = Constant f64 2.0
%5 = Constant u32 1
%8 = DclInput u32 %1 0 0 None
%10 = Function void
%11 = Label None
%12 = InputLoad u32 %8 null
%13 = ConsumeAs unknown %12
%14 = FAdd f64 %13 %4
%15 = IAdd u32 %13 %5
%16 = OutputStore %2 null %15
%17 = OutputStore %3 null %14
%18 = Return void null
%19 = FunctionEnd
";
    let b = resolved(input);
    assert_eq!(operand_type(&b, crate::OpCode::FAdd, 0), "f64");
}

#[test]
fn loop_phi_retyped_to_itself_is_removed() {
    // From the ir_compile fuzz target: a loop phi whose back-edge value is a `ConsumeAs`
    // of the phi itself; once both are u32 the phi would name itself. It is trivial.
    let input = "
%1 = EntryPoint %10 Pixel
%2 = DclOutput u32 %1 0 0 0
%3 = Constant unknown 0
%4 = Constant bool true
%10 = Function void
%11 = Label None
%12 = Branch %13
%13 = Label %15 %14 StructuredLoop
%16 = Phi unknown %11 %3 %14 %17
%18 = Branch %14
%14 = Label None
%17 = ConsumeAs u32 %16
%19 = BranchConditional %4 %13 %15
%15 = Label None
%20 = OutputStore %2 null %16
%21 = Return void null
%22 = FunctionEnd
";
    let b = resolved(input);
    assert!(b.iter().all(|(_, o)| o.opcode != crate::OpCode::Phi));
    let (_, store) = b
        .iter()
        .find(|(_, o)| o.opcode == crate::OpCode::OutputStore)
        .expect("the store");
    let v = store.arg(2).and_then(|x| b.get(x)).expect("stored value");
    assert_eq!(
        (v.opcode, v.ty.to_string().as_str()),
        (crate::OpCode::Constant, "u32")
    );
}

#[test]
fn phi_left_naming_itself_by_a_removed_loop_phi_is_removed_too() {
    // From the ir_compile fuzz target: the inner loop's phi takes the outer loop's phi and
    // its own retyping; once it is removed in favour of the outer phi, the outer phi names
    // itself on its back edge and is trivial as well.
    let input = "
%1 = EntryPoint %10 Pixel
%2 = DclOutput u32 %1 0 0 0
%3 = Constant unknown 0
%4 = Constant bool true
%10 = Function void
%11 = Label None
%12 = Branch %13
%13 = Label %15 %14 StructuredLoop
%16 = Phi unknown %11 %3 %14 %23
%18 = Branch %30
%30 = Label %32 %31 StructuredLoop
%23 = Phi unknown %13 %16 %31 %17
%24 = Branch %31
%31 = Label None
%17 = ConsumeAs u32 %23
%25 = BranchConditional %4 %30 %32
%32 = Label None
%26 = Branch %14
%14 = Label None
%19 = BranchConditional %4 %13 %15
%15 = Label None
%20 = OutputStore %2 null %16
%21 = Return void null
%22 = FunctionEnd
";
    let b = resolved(input);
    assert!(b.iter().all(|(_, o)| o.opcode != crate::OpCode::Phi));
    assert_eq!(operand_type(&b, crate::OpCode::OutputStore, 2), "u32");
}

#[test]
fn untyped_value_stored_to_an_output_of_another_type_is_converted() {
    // The select's class is f32 (its inputs); the u32 output gets it through a cast.
    let input = "
%1 = EntryPoint %10 Pixel
%2 = DclInput f32 %1 0 0 None
%3 = DclOutput u32 %1 0 0 0
%4 = Constant bool true
%10 = Function void
%11 = Label None
%12 = InputLoad f32 %2 null
%13 = Select unknown %4 %12 %12
%14 = OutputStore %3 null %13
%15 = Return void null
%16 = FunctionEnd
";
    let mut b = crate::text::parse(input).expect("parse");
    run(&mut b).expect("resolve_types");
    let (_, store) = b
        .iter()
        .find(|(_, o)| o.opcode == crate::OpCode::OutputStore)
        .expect("the store");
    let value = store.arg(2).and_then(|x| b.get(x)).map(|x| x.ty);
    assert_eq!(
        value,
        Some(crate::types::Type::scalar(crate::ScalarType::U32)),
        "{}",
        crate::text::print(&b)
    );
}

#[test]
fn consume_as_of_mismatched_vector_size_is_an_error() {
    let input = "
%1 = EntryPoint %10 Pixel
%2 = Constant vec4<f32> 1.0 2.0 3.0 4.0
%10 = Function void
%11 = Label None
%12 = ConsumeAs vec2<u32> %2
%13 = Return void null
%14 = FunctionEnd
";
    let mut b = crate::text::parse(input).unwrap();
    let err = run(&mut b).unwrap_err();
    assert_eq!(err.pass(), "resolve_types");
    assert!(err.to_string().contains("%12"), "{err}");
}

#[test]
fn cast_of_an_untyped_value_keeps_the_bit_size() {
    // From the ir_compile fuzz target: an untyped 32-bit value cast to vec2<u32> cannot
    // be fixed by reinterpreting it; a regrouping cast of 64 bits keeps its source.
    let cast = |from: &str, untyped: &str, to: &str| {
        format!(
            "
%1 = EntryPoint %10 Pixel
%2 = DclInput {from} %1 0 0 Flat
%10 = Function void
%11 = Label None
%12 = InputLoad {from} %2 null
%13 = ConsumeAs {untyped} %12
%14 = Cast {to} %13
%15 = Return void null
%16 = FunctionEnd
"
        )
    };
    let mut b = crate::text::parse(&cast("u32", "unknown", "vec2<u32>")).expect("parse");
    let err = run(&mut b).expect_err("32 bits cast to 64");
    assert!(err.to_string().contains("%14"), "{err}");
    assert!(err.to_string().contains("bit sizes differ"), "{err}");
    let b = resolved(&cast("vec2<f32>", "vec2<unknown>", "f64"));
    assert_eq!(operand_type(&b, crate::OpCode::Cast, 0), "vec2<f32>");
}

#[test]
fn folded_constant_of_a_removed_consume_is_still_fixed_up() {
    // From the ir_compile fuzz target: `ConsumeAs unknown` of a u32 constant folds to a
    // new f32 constant (its class took f32); read as a select condition, that constant
    // must still become a bool.
    let input = "
%1 = EntryPoint %10 Pixel
%2 = DclOutput f32 %1 0 0 0
%3 = Constant u32 0
%4 = Constant unknown 1065353216
%10 = Function void
%11 = Label None
%12 = ConsumeAs unknown %3
%13 = Select unknown %12 %12 %4
%14 = ConsumeAs f32 %13
%15 = OutputStore %2 null %14
%16 = Return void null
%17 = FunctionEnd
";
    let b = resolved(input);
    assert_eq!(operand_type(&b, crate::OpCode::Select, 0), "bool");
}

#[test]
fn untyped_logic_operands_read_as_bool() {
    // From the ir_compile fuzz target: an untyped constant read by a logic op and
    // consumed as a float took f32, and the logic op was left with a float operand.
    let input = "
%1 = EntryPoint %10 Pixel
%2 = DclOutput f32 %1 0 0 0
%3 = Constant f32 0.5
%4 = Constant unknown 0
%10 = Function void
%11 = Label None
%12 = FLt bool %3 %3
%13 = BAnd bool %12 %4
%14 = BNot bool %4
%15 = BOr bool %13 %14
%16 = Select f32 %15 %3 %3
%17 = ConsumeAs f32 %4
%18 = FAdd f32 %16 %17
%19 = OutputStore %2 null %18
%20 = Return void null
%21 = FunctionEnd
";
    let b = resolved(input);
    assert_eq!(operand_type(&b, crate::OpCode::BAnd, 1), "bool");
    assert_eq!(operand_type(&b, crate::OpCode::BNot, 0), "bool");
    assert_eq!(operand_type(&b, crate::OpCode::FAdd, 1), "f32");
}

#[test]
fn untyped_sparse_feedback_is_a_32_bit_integer() {
    // From the ir_compile fuzz target: the feedback's untyped copy took u16 from a
    // `ConsumeAs u16`; CheckSparseAccess reads 32 bits.
    let input = "
%1 = EntryPoint %10 Pixel
%2 = DclInput u32 %1 0 0 Flat
%3 = DclOutput u32 %1 0 0 0
%10 = Function void
%11 = Label None
%12 = InputLoad u32 %2 null
%13 = ConsumeAs unknown %12
%14 = ConsumeAs u16 %13
%15 = CheckSparseAccess bool %13
%16 = Select u32 %15 %12 %12
%17 = OutputStore %3 null %16
%18 = Return void null
%19 = FunctionEnd
";
    let b = resolved(input);
    assert_eq!(operand_type(&b, crate::OpCode::CheckSparseAccess, 0), "u32");
}

#[test]
fn untyped_constant_index_is_not_folded_out_of_range() {
    // From the ir_compile fuzz target: an untyped copy of the float 16.0 used as a vector
    // index read as the integer 0x41800000, a constant address past the end of a vec4.
    let input = "
%1 = EntryPoint %10 Pixel
%2 = DclInput vec4<f32> %1 0 0 Flat
%3 = DclOutput f32 %1 0 0 0
%4 = Constant f32 16.0
%10 = Function void
%11 = Label None
%12 = InputLoad vec4<f32> %2 null
%13 = ConsumeAs unknown %4
%14 = CompositeExtract f32 %12 %13
%15 = OutputStore %3 null %14
%16 = Return void null
%17 = FunctionEnd
";
    let b = resolved(input);
    let (_, extract) = b
        .iter()
        .find(|(_, o)| o.opcode == crate::OpCode::CompositeExtract)
        .expect("the extract");
    let index = extract.arg(1).and_then(|x| b.get(x)).expect("index");
    assert_ne!(index.opcode, crate::OpCode::Constant);
    assert_eq!(index.ty.to_string(), "u32");
}

/// Untyped constants only `ConsumeAs` reads take the shortcut of step 1; the result is the
/// one the edges of every op give (forced here by a debug name, a use of another kind), and
/// the fix-up scan still converts a typed value stored to an output of another type.
#[test]
fn constants_only_consumed_resolve_like_the_full_scan() {
    let input = "
%1 = EntryPoint %10 Pixel
%2 = DclOutput vec2<f32> %1 0 0 0
%3 = Constant unknown 0
%4 = Constant u32 0
%5 = Constant u32 1
%6 = Constant unknown 7
%10 = Function void
%11 = Label None
%12 = ConsumeAs u32 %3
%13 = ConsumeAs f32 %3
%14 = ConsumeAs i32 %6
%15 = IAdd u32 %12 %5
%16 = OutputStore %2 %4 %13
%17 = OutputStore %2 %5 %15
%18 = IAdd i32 %14 %14
%19 = Return void null
%20 = FunctionEnd
";
    let named = input.replace(
        "%10 = Function void",
        "%9 = DebugName %3 \"imm\"\n%10 = Function void",
    );
    let mut b = crate::text::parse(input).expect("parse");
    let classes = {
        let mut s = Scratch::default();
        assert!(super::assign_type_variables(&b, &mut s.var, &mut s.classes));
        assert!(super::only_consumed_constants(&b, &s.classes));
        s.classes.defs.clone()
    };
    assert_eq!(classes.len(), 2);
    let fast = crate::text::print(&resolved(input));
    let b_named = crate::text::parse(&named).expect("parse");
    {
        let mut s = Scratch::default();
        assert!(super::assign_type_variables(
            &b_named,
            &mut s.var,
            &mut s.classes
        ));
        assert!(!super::only_consumed_constants(&b_named, &s.classes));
    }
    let full = crate::text::print(&resolved(&named));
    let full: String = full
        .lines()
        .filter(|l| !l.contains("DebugName"))
        .map(|l| format!("{}\n", l.trim_end_matches("   ; imm")))
        .collect();
    assert_eq!(fast, full);
    // Read as u32 and f32: ambiguous, so u32; the f32 read becomes an f32 constant. Read
    // only as i32: i32. The u32 sum stored to the float output is converted.
    run(&mut b).expect("resolve");
    assert_eq!(operand_type(&b, crate::OpCode::IAdd, 0), "u32");
    assert!(fast.contains("%3 = Constant u32 0"), "{fast}");
    assert!(fast.contains("%6 = Constant i32 7"), "{fast}");
    assert!(!fast.contains("ConsumeAs"), "{fast}");
    let (_, store) = b
        .iter()
        .filter(|(_, o)| o.opcode == crate::OpCode::OutputStore)
        .nth(1)
        .expect("second store");
    let stored = store.arg(2).and_then(|x| b.get(x)).expect("stored value");
    assert_eq!(stored.ty.to_string(), "f32", "{fast}");
}
