//! Tests of the control-flow-graph rules: one function body per rule.

use super::super::validate;
use super::*;

/// A pixel shader around `body` (a function body from `%10` on): `%3` is a bool, `%4` an
/// `f32`, `%6`/`%7`/`%8` are the `u32` constants 0, 1, 2, `%5` an output.
fn program(body: &str) -> String {
    format!(
        "%1 = EntryPoint %2 Pixel
%3 = Constant bool true
%4 = Constant f32 1.0
%6 = Constant u32 0
%7 = Constant u32 1
%8 = Constant u32 2
%5 = DclOutput f32 %1 0 0 0
%2 = Function void
{body}%9 = FunctionEnd
"
    )
}

fn errors(body: &str, level: Level) -> Vec<ValidationError> {
    let text = program(body);
    let b = crate::text::parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    validate(&b, level).err().unwrap_or_default()
}

fn dump(errs: &[ValidationError]) -> String {
    errs.iter().map(|e| format!("  {e}\n")).collect()
}

/// Asserts that `body` fails `rule` at op `%def` (and `operand`, if given).
#[track_caller]
fn expect(body: &str, rule: Rule, def: u32, operand: Option<usize>) {
    let errs = errors(body, Level::Structural);
    let hit = errs.iter().any(|e| {
        e.rule == rule
            && e.def.map(SsaDef::id) == Some(def)
            && (operand.is_none() || e.operand == operand)
    });
    assert!(
        hit,
        "expected {rule:?} at %{def} operand {operand:?}, got:\n{}",
        dump(&errs)
    );
}

/// Asserts that `body` is valid at both levels.
#[track_caller]
fn expect_ok(body: &str) {
    for level in [Level::Structural, Level::Lowered] {
        let errs = errors(body, level);
        assert!(
            errs.is_empty(),
            "{level:?}: expected no errors, got:\n{}",
            dump(&errs)
        );
    }
}

/// An if/else diamond: header `%10`, then `%12`, else `%14`, merge `%16`; `then`, `else`
/// and `merge` are the code of the three blocks.
fn diamond(then: &str, els: &str, merge: &str) -> String {
    format!(
        "%10 = Label %16 StructuredSelection
%11 = BranchConditional %3 %12 %14
%12 = Label None
{then}%13 = Branch %16
%14 = Label None
{els}%15 = Branch %16
%16 = Label None
{merge}%17 = Return void null
"
    )
}

#[test]
fn rule_ssa_dominance() {
    // A value of the then-block used in the merge block.
    let bad = diamond(
        "%20 = FAdd f32 %4 %4\n",
        "",
        "%21 = OutputStore %5 null %20\n",
    );
    expect(&bad, Rule::SsaDominance, 21, Some(2));
    expect_ok(&diamond(
        "%20 = FAdd f32 %4 %4\n%21 = OutputStore %5 null %20\n",
        "",
        "",
    ));
    // Uses in unreachable blocks are not checked, as in SPIR-V.
    expect_ok(
        "%10 = Label None
%11 = Branch %14
%12 = Label None
%20 = FAdd f32 %4 %4
%13 = Return void null
%16 = Label None
%21 = OutputStore %5 null %20
%17 = Branch %14
%14 = Label None
%15 = Return void null
",
    );
}

#[test]
fn rule_phi_predecessors() {
    let merge = |phi: &str| diamond("", "", &format!("%20 = Phi f32 {phi}\n"));
    expect_ok(&merge("%12 %4 %14 %4"));
    expect(&merge("%12 %4 %10 %4"), Rule::PhiPredecessors, 20, Some(2));
    expect(&merge("%12 %4"), Rule::PhiPredecessors, 20, None);
    expect(
        &merge("%12 %4 %14 %4 %12 %4"),
        Rule::PhiPredecessors,
        20,
        Some(4),
    );
}

#[test]
fn rule_phi_dominance() {
    let merge = |phi: &str| {
        diamond(
            "%21 = FAdd f32 %4 %4\n",
            "%22 = FMul f32 %4 %4\n",
            &format!("%20 = Phi f32 {phi}\n"),
        )
    };
    expect_ok(&merge("%12 %21 %14 %22"));
    expect(&merge("%12 %22 %14 %21"), Rule::PhiDominance, 20, Some(1));
}

/// A loop: preheader `%10`, header `%12` (merge `%18`, continue `%16`), body `%14`
/// (`body` ends it), continue target `%16` (`cont` ends it), merge `%18`, then `after`.
fn simple_loop(body: &str, cont: &str, after: &str) -> String {
    format!(
        "%10 = Label None
%11 = Branch %12
%12 = Label %18 %16 StructuredLoop
%13 = Branch %14
%14 = Label None
{body}%16 = Label None
{cont}%18 = Label None
{after}%19 = Return void null
"
    )
}

#[test]
fn rule_block_order() {
    // The merge block before the then-block that dominates it (the else-block returns).
    let text = |first: &str, second: &str| {
        format!(
            "%10 = Label %16 StructuredSelection
%11 = BranchConditional %3 %12 %14
%14 = Label None
%15 = Return void null
{first}{second}"
        )
    };
    let then = "%12 = Label None\n%13 = Branch %16\n";
    let merge = "%16 = Label None\n%17 = Return void null\n";
    expect(&text(merge, then), Rule::BlockOrder, 16, None);
    expect_ok(&text(then, merge));
}

#[test]
fn rule_entry_block_target() {
    let bad = "%10 = Label None
%11 = BranchConditional %3 %10 %12
%12 = Label None
%13 = Return void null
";
    expect(bad, Rule::EntryBlockTarget, 11, Some(1));
    expect_ok(&simple_loop(
        "%15 = Branch %16\n",
        "%17 = BranchConditional %3 %12 %18\n",
        "",
    ));
}

#[test]
fn rule_same_targets() {
    let text = |f: &str| diamond("", "", "").replace("%11 = BranchConditional %3 %12 %14", f);
    expect(
        &text("%11 = BranchConditional %3 %12 %12"),
        Rule::SameTargets,
        11,
        Some(2),
    );
    expect_ok(&text("%11 = BranchConditional %3 %12 %16"));
}

#[test]
fn rule_duplicate_merge() {
    let nested = |inner_merge: &str| {
        format!(
            "%10 = Label %16 StructuredSelection
%11 = BranchConditional %3 %12 %16
%12 = Label {inner_merge} StructuredSelection
%13 = BranchConditional %3 %14 {inner_merge}
%14 = Label None
%15 = Branch {inner_merge}
%18 = Label None
%19 = Branch %16
%16 = Label None
%17 = Return void null
"
        )
    };
    expect_ok(&nested("%18"));
    expect(&nested("%16"), Rule::DuplicateMerge, 12, Some(0));
}

#[test]
fn rule_loop_header_terminator() {
    let header_ends = |term: &str| {
        format!(
            "%10 = Label None
%11 = Branch %12
%12 = Label %18 %16 StructuredLoop
{term}
%14 = Label None
%15 = Branch %16
%16 = Label None
%17 = Branch %12
%18 = Label None
%19 = Return void null
"
        )
    };
    expect_ok(&header_ends("%13 = BranchConditional %3 %14 %18"));
    expect(
        &header_ends("%13 = Switch %6 %18 %7 %14"),
        Rule::LoopHeaderTerminator,
        13,
        None,
    );
    expect(
        &header_ends("%13 = Return void null"),
        Rule::LoopHeaderTerminator,
        13,
        None,
    );
}

#[test]
fn rule_unstructured_branch() {
    // A plain block with a conditional branch to two fresh blocks.
    let plain = diamond("", "", "").replace("%16 StructuredSelection", "None");
    expect(&plain, Rule::UnstructuredBranch, 11, None);
    // A conditional break out of a loop needs no header: the merge block is known.
    expect_ok(&simple_loop(
        "%15 = BranchConditional %3 %18 %16\n",
        "%17 = Branch %12\n",
        "",
    ));
    // A switch needs a selection header.
    let switch = "%10 = Label None
%11 = Switch %6 %14 %7 %12
%12 = Label None
%13 = Branch %14
%14 = Label None
%15 = Return void null
";
    expect(switch, Rule::UnstructuredBranch, 11, None);
    expect_ok(&switch.replace("%10 = Label None", "%10 = Label %14 StructuredSelection"));
}

#[test]
fn rule_back_edge_target() {
    // A block branching to itself is a loop only if it is a loop header.
    let self_loop = |target: &str| {
        format!(
            "%10 = Label None
%11 = Branch %12
%12 = Label %14 %16 StructuredLoop
%13 = Branch %16
%16 = Label %18 StructuredSelection
%17 = BranchConditional %3 {target} %14
%18 = Label None
%19 = Return void null
%14 = Label None
%15 = Return void null
"
        )
    };
    expect(&self_loop("%16"), Rule::BackEdgeTarget, 17, Some(1));
    expect_ok(&self_loop("%12").replace("%16 = Label %18 StructuredSelection", "%16 = Label None"));
    // The back edge of an unreachable cycle too.
    let unreachable = "%10 = Label None
%11 = Return void null
%12 = Label None
%13 = Branch %14
%14 = Label None
%15 = Branch %12
";
    expect(unreachable, Rule::BackEdgeTarget, 15, Some(0));
}

#[test]
fn rule_loop_back_edge() {
    // Two back-edge blocks.
    expect(
        &simple_loop(
            "%15 = BranchConditional %3 %12 %16\n",
            "%17 = BranchConditional %3 %12 %18\n",
            "",
        ),
        Rule::LoopBackEdge,
        12,
        None,
    );
    // None: the continue target leaves the loop.
    expect(
        &simple_loop("%15 = Branch %16\n", "%17 = Branch %18\n", ""),
        Rule::LoopBackEdge,
        12,
        None,
    );
    // An unreachable continue target still closes the loop (a structural edge reaches it).
    expect_ok(&simple_loop("%15 = Branch %18\n", "%17 = Branch %12\n", ""));
    // The back edge must come from the continue construct.
    let outside = "%10 = Label None
%11 = Branch %12
%12 = Label %18 %16 StructuredLoop
%13 = Branch %14
%14 = Label %20 StructuredSelection
%15 = BranchConditional %3 %20 %16
%16 = Label None
%17 = Branch %18
%20 = Label None
%21 = Branch %12
%18 = Label None
%19 = Return void null
";
    expect(outside, Rule::LoopBackEdge, 12, Some(1));
    // An unreachable loop whose continue target is reachable.
    let detached = simple_loop("%15 = Branch %12\n", "%17 = Return void null\n", "")
        .replace("%11 = Branch %12", "%11 = Branch %16");
    expect(&detached, Rule::LoopBackEdge, 12, Some(1));
}

#[test]
fn rule_header_dominance() {
    // The merge block is also reached past the header.
    let bypass = "%10 = Label %20 StructuredSelection
%11 = BranchConditional %3 %12 %16
%12 = Label %16 StructuredSelection
%13 = BranchConditional %3 %14 %16
%14 = Label None
%15 = Branch %16
%16 = Label None
%17 = Branch %20
%20 = Label None
%21 = Return void null
";
    expect(bypass, Rule::HeaderDominance, 12, Some(0));
    expect_ok(&bypass.replace(
        "%11 = BranchConditional %3 %12 %16",
        "%11 = BranchConditional %3 %12 %20",
    ));
}

#[test]
fn rule_construct_entry() {
    // The merge block branches into the then-block's successor, past the header.
    let text = |merge_to: &str| {
        format!(
            "%10 = Label %13 StructuredSelection
%11 = BranchConditional %3 %12 %13
%12 = Label None
%14 = Branch %15
%13 = Label None
%16 = Branch {merge_to}
%15 = Label None
%17 = Return void null
"
        )
    };
    expect(&text("%15"), Rule::ConstructEntry, 16, Some(0));
    let fine = "%10 = Label %13 StructuredSelection
%11 = BranchConditional %3 %12 %13
%12 = Label None
%14 = Branch %13
%13 = Label None
%16 = Branch %15
%15 = Label None
%17 = Return void null
";
    expect_ok(fine);
}

#[test]
fn rule_continue_entry() {
    // After the loop (which the body leaves), back into its continue target.
    let after = |to: &str| format!("%20 = BranchConditional %3 {to} %22\n%22 = Label None\n");
    let text = |to: &str| {
        simple_loop(
            "%15 = BranchConditional %3 %18 %16\n",
            "%17 = Branch %12\n",
            &after(to),
        )
    };
    expect(&text("%16"), Rule::ContinueEntry, 20, Some(1));
    expect_ok(&text("%22").replace("%20 = BranchConditional %3 %22 %22", "%20 = Branch %22"));
}

#[test]
fn rule_construct_exit() {
    // From an inner selection straight to the outer selection's merge block.
    let nested = |inner_exit: &str| {
        format!(
            "%10 = Label %16 StructuredSelection
%11 = BranchConditional %3 %12 %16
%12 = Label %18 StructuredSelection
%13 = BranchConditional %3 %14 %18
%14 = Label None
%15 = Branch {inner_exit}
%18 = Label None
%19 = Branch %16
%16 = Label None
%17 = Return void null
"
        )
    };
    expect(&nested("%16"), Rule::ConstructExit, 15, Some(0));
    expect_ok(&nested("%18"));
    // Breaking out of a loop from a selection in it is a structured exit, and so are a
    // continue from it and a break from a switch to the switch's merge block.
    let loop_body = "%15 = Branch %30
%30 = Label %34 StructuredSelection
%31 = BranchConditional %3 %32 %34
%32 = Label %38 StructuredSelection
%33 = Switch %6 %38 %7 %36
%36 = Label %40 StructuredSelection
%37 = BranchConditional %3 %18 %40
%40 = Label None
%41 = BranchConditional %3 %16 %38
%38 = Label None
%39 = Branch %34
%34 = Label None
%35 = Branch %16
";
    expect_ok(&simple_loop(
        loop_body,
        "%17 = BranchConditional %3 %12 %18\n",
        "",
    ));
}

#[test]
fn rule_continue_exit() {
    // A block of the continue construct that ends the invocation.
    let cont = |x_ends: &str| {
        format!(
            "%17 = Branch %20
%20 = Label %22 StructuredSelection
%21 = BranchConditional %3 %24 %22
%24 = Label None
{x_ends}
%22 = Label None
%23 = BranchConditional %3 %12 %18
"
        )
    };
    expect(
        &simple_loop("%15 = Branch %16\n", &cont("%25 = Unreachable"), ""),
        Rule::ContinueExit,
        25,
        None,
    );
    // Or leaves it for the loop's merge block: only the back-edge block may.
    expect(
        &simple_loop("%15 = Branch %16\n", &cont("%25 = Branch %18"), ""),
        Rule::ContinueExit,
        25,
        Some(0),
    );
    expect_ok(&simple_loop(
        "%15 = Branch %16\n",
        &cont("%25 = Branch %22"),
        "",
    ));
}

#[test]
fn rule_switch_case() {
    // Cases 1 (%12) and 2 (%14); `case1` ends case 1, `targets` are the Switch's.
    let switch = |targets: &str, case1: &str| {
        format!(
            "%10 = Label %20 StructuredSelection
%11 = Switch %6 %20 {targets}
%12 = Label None
{case1}
%14 = Label None
%15 = Branch %16
%16 = Label None
%17 = Branch %20
%20 = Label None
%21 = Return void null
"
        )
    };
    let (in_order, reversed) = ("%7 %12 %8 %14", "%8 %14 %7 %12");
    // Falling through to the next case is fine, a break too.
    expect_ok(&switch(in_order, "%13 = Branch %14"));
    expect_ok(&switch(reversed, "%13 = Branch %20"));
    // Not to a case listed before, nor into the middle of another case construct.
    expect(
        &switch(reversed, "%13 = Branch %14"),
        Rule::SwitchCase,
        11,
        Some(5),
    );
    expect(
        &switch(in_order, "%13 = Branch %16"),
        Rule::SwitchCase,
        13,
        Some(0),
    );
    // Nor to two cases: with the default (%18) as a third case.
    let three = switch("%7 %12 %8 %14", "%13 = BranchConditional %3 %14 %18")
        .replace("%11 = Switch %6 %20", "%11 = Switch %6 %18")
        .replace(
            "%20 = Label None",
            "%18 = Label None\n%19 = Branch %20\n%20 = Label None",
        );
    expect(&three, Rule::SwitchCase, 13, Some(2));
}

#[test]
fn scoped_functions_are_left_to_the_scope_rules() {
    // A scoped function next to a block-form one: only the latter gets the CFG rules.
    let scoped = "%30 = Function void
%31 = Label None
%32 = ScopedIf %34 %3
%33 = FAdd f32 %4 %4
%34 = ScopedEndIf %32
%35 = Return void null
%36 = FunctionEnd
";
    let text = |merge_code: &str| {
        let main = program(&diamond("%20 = FAdd f32 %4 %4\n", "", merge_code));
        format!("{main}{scoped}")
    };
    let errs = |text: &str| {
        let b = crate::text::parse(text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        validate(&b, Level::Structural).err().unwrap_or_default()
    };
    assert!(errs(&text("")).is_empty(), "{}", dump(&errs(&text(""))));
    let bad = errs(&text("%21 = OutputStore %5 null %20\n"));
    assert!(
        bad.iter()
            .any(|e| e.rule == Rule::SsaDominance && e.def.map(SsaDef::id) == Some(21)),
        "{}",
        dump(&bad)
    );
}

/// `depth` selections nested in each other, each with a then-block around the next.
fn nested_selections(depth: usize) -> String {
    let mut text = String::new();
    let id = |i: usize, k: usize| 100 + 4 * i + k;
    for i in 0..depth {
        // Header, then-block: the next header follows; merge blocks close in reverse.
        text.push_str(&format!(
            "%{} = Label %{} StructuredSelection\n%{} = BranchConditional %3 %{} %{}\n",
            id(i, 0),
            id(i, 2),
            id(i, 1),
            if i + 1 < depth { id(i + 1, 0) } else { 99 },
            id(i, 2)
        ));
    }
    text.push_str("%99 = Label None\n%98 = Branch %");
    text.push_str(&format!("{}\n", id(depth - 1, 2)));
    for i in (0..depth).rev() {
        let next = if i > 0 {
            format!("%{}", id(i - 1, 2))
        } else {
            "%97".into()
        };
        text.push_str(&format!(
            "%{} = Label None\n%{} = Branch {next}\n",
            id(i, 2),
            id(i, 3)
        ));
    }
    text.push_str("%97 = Label None\n%96 = Return void null\n");
    text.replacen(
        "%100 = Label",
        "%10 = Label None\n%11 = Branch %100\n%100 = Label",
        1,
    )
}

#[test]
fn deep_nesting_is_linear_and_iterative() {
    let time = |depth: usize| {
        let text = program(&nested_selections(depth));
        let b = crate::text::parse(&text).unwrap_or_else(|e| panic!("{e}"));
        (0..5)
            .map(|_| {
                let start = std::time::Instant::now();
                let result = validate(&b, Level::Lowered);
                assert!(
                    result.is_ok(),
                    "{}",
                    dump(&result.err().unwrap_or_default())
                );
                start.elapsed().as_secs_f64()
            })
            .fold(f64::MAX, f64::min)
    };
    // Times this short are noisy on a busy machine (one CI run read 2.7 ms and 44 ms):
    // 20k levels in under 0.15 s count as linear too (a walk per level takes seconds).
    let (small, big) = (time(5_000), time(20_000));
    let ratio = big / small.max(1e-6);
    assert!(
        ratio < 16.0 || big < 0.15,
        "5k: {small:.4}s, 20k: {big:.4}s, ratio {ratio:.1}"
    );
    // A branch out of the innermost selection to the outermost merge block: reported
    // (it leaves every selection), without walking the nesting more than once per error.
    let bad = nested_selections(20_000).replace("%98 = Branch %80098", "%98 = Branch %102");
    expect(&bad, Rule::ConstructExit, 98, Some(0));
}

/// An unstructured loop with two exits, blocks out of order: the body (%14) comes first
/// and uses the header's phi (%21) before it is defined in program order.
const UNSTRUCTURED_LOOP: &str = "%10 = Label None
%11 = Branch %20
%14 = Label None
%15 = IAdd u32 %21 %7
%16 = BranchConditional %3 %20 %30
%30 = Label None
%31 = Return void null
%20 = Label None
%21 = Phi u32 %10 %6 %14 %15
%22 = BranchConditional %3 %14 %32
%32 = Label None
%33 = Branch %30
";

#[test]
fn unstructured_block_form_is_checked_for_values_only() {
    assert!(errors(UNSTRUCTURED_LOOP, Level::Unstructured).is_empty());
    // The structural level still refuses it (back edge to a plain block, forward use).
    let errs = errors(UNSTRUCTURED_LOOP, Level::Structural);
    assert!(
        errs.iter().any(|e| e.rule == Rule::ForwardReference),
        "{}",
        dump(&errs)
    );
    // A construct label makes the function structured: every rule applies again.
    let labelled =
        UNSTRUCTURED_LOOP.replace("%32 = Label None", "%32 = Label %30 StructuredSelection");
    let errs = errors(&labelled, Level::Unstructured);
    assert!(
        errs.iter().any(|e| e.rule == Rule::ForwardReference),
        "{}",
        dump(&errs)
    );
    // SSA dominance: the exit block cannot use the body's value (reached from the header).
    let bad =
        UNSTRUCTURED_LOOP.replace("%33 = Branch %30", "%34 = Drain u32 %15\n%33 = Branch %30");
    let errs = errors(&bad, Level::Unstructured);
    assert!(
        errs.iter()
            .any(|e| e.rule == Rule::SsaDominance && e.def.map(SsaDef::id) == Some(34)),
        "{}",
        dump(&errs)
    );
    // Within a block, a definition still comes before its uses.
    let bad = UNSTRUCTURED_LOOP.replace(
        "%15 = IAdd u32 %21 %7",
        "%15 = IAdd u32 %17 %7\n%17 = IAdd u32 %21 %7",
    );
    let errs = errors(&bad, Level::Unstructured);
    assert!(
        errs.iter()
            .any(|e| e.rule == Rule::SsaDominance && e.def.map(SsaDef::id) == Some(15)),
        "{}",
        dump(&errs)
    );
    // Phis name their predecessors, and no branch targets the entry block.
    let bad = UNSTRUCTURED_LOOP.replace("%21 = Phi u32 %10 %6 %14 %15", "%21 = Phi u32 %10 %6");
    let errs = errors(&bad, Level::Unstructured);
    assert!(
        errs.iter().any(|e| e.rule == Rule::PhiPredecessors),
        "{}",
        dump(&errs)
    );
    let bad = UNSTRUCTURED_LOOP.replace("%33 = Branch %30", "%33 = Branch %10");
    let errs = errors(&bad, Level::Unstructured);
    assert!(
        errs.iter().any(|e| e.rule == Rule::EntryBlockTarget),
        "{}",
        dump(&errs)
    );
}

#[test]
fn a_phi_may_carry_itself_around_a_loop() {
    let body = "%10 = Label None
%11 = Branch %20
%20 = Label %30 %25 StructuredLoop
%21 = Phi u32 %10 %6 %25 %21
%22 = BranchConditional %3 %25 %30
%25 = Label None
%26 = Branch %20
%30 = Label None
%31 = Drain u32 %21
%32 = Return void null
";
    expect_ok(body);
    // Any other op naming itself is still refused (the text form cannot even say it).
    let mut b = crate::text::parse(&program(body)).unwrap();
    let drain = SsaDef::new(31).unwrap();
    b.set_operand(drain, 0, crate::Operand::from_def(drain));
    let errs = validate(&b, Level::Structural).err().unwrap_or_default();
    assert!(
        errs.iter()
            .any(|e| e.rule == Rule::ForwardReference && e.def == Some(drain)),
        "{}",
        dump(&errs)
    );
}
