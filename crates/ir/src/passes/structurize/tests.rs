//! Unit tests of `structurize` on IR text.

use super::*;
use crate::text::{parse, print};
use crate::validate::{validate, Level};

/// A pixel shader around `body` (the function body): `%3` is a bool input value, `%4..%7` the
/// `u32` constants 0..3, `%8` an `f32` constant.
fn program(body: &str) -> String {
    format!(
        "%1 = EntryPoint %2 Pixel
%3 = Constant bool true
%4 = Constant u32 0
%5 = Constant u32 1
%6 = Constant u32 2
%7 = Constant u32 3
%8 = Constant f32 1.0
%2 = Function void
{body}%9 = FunctionEnd
"
    )
}

/// Parses, checks the unstructured input, structures to SSA and checks the result; returns it.
fn structure(body: &str) -> String {
    let text = program(body);
    let mut b = parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    if let Err(e) = validate(&b, Level::Unstructured) {
        panic!("input: {e:#?}\n{text}");
    }
    let changed = run(&mut b).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let out = print(&b);
    assert!(changed);
    if let Err(e) = validate(&b, Level::Structural) {
        panic!("output: {e:#?}\n{out}");
    }
    if let Err(e) = validate(&b, Level::Lowered) {
        panic!("output (lowered): {e:#?}\n{out}");
    }
    out
}

/// The function's blocks in program order, as `label construct-text terminator-text`.
fn blocks(out: &str) -> Vec<String> {
    let mut v = Vec::new();
    let mut cur = String::new();
    for line in out.lines() {
        if line.contains("= Label ") {
            cur = line.split(" = ").next().unwrap_or("").to_string();
            let construct = line.split("Label ").nth(1).unwrap_or("");
            cur.push(' ');
            cur.push_str(construct);
        } else if [
            "= Branch",
            "= BranchConditional",
            "= Switch",
            "= Return",
            "= Unreachable",
        ]
        .iter()
        .any(|t| line.contains(t))
        {
            let term = line.split(" = ").nth(1).unwrap_or("");
            v.push(format!("{cur} | {term}"));
        }
    }
    v
}

#[test]
fn a_diamond_in_any_order_becomes_one_selection_keeping_its_phi() {
    // The else block comes first in program order; the join is last.
    let out = structure(
        "%10 = Label None
%11 = BranchConditional %3 %12 %14
%14 = Label None
%15 = Branch %16
%12 = Label None
%13 = Branch %16
%16 = Label None
%17 = Phi u32 %12 %5 %14 %6
%18 = Drain u32 %17
%19 = Return void null
",
    );
    assert_eq!(
        blocks(&out),
        [
            "%10 %16 StructuredSelection | BranchConditional %3 %12 %14",
            "%12 None | Branch %16",
            "%14 None | Branch %16",
            "%16 None | Return void null",
        ],
        "{out}"
    );
    assert!(out.contains("%17 = Phi u32 %12 %5 %14 %6"), "{out}");
}

#[test]
fn a_self_loop_gets_header_continue_and_merge_blocks() {
    // %12 loops on itself until %3; the header phi counts.
    let out = structure(
        "%10 = Label None
%11 = Branch %12
%12 = Label None
%13 = Phi u32 %10 %4 %12 %14
%14 = IAdd u32 %13 %5
%15 = BranchConditional %3 %12 %16
%16 = Label None
%17 = Drain u32 %14
%18 = Return void null
",
    );
    let b = blocks(&out);
    assert_eq!(b.len(), 6, "{out}");
    assert!(
        b[1].contains("StructuredLoop") && b[1].ends_with("| Branch %12"),
        "{out}"
    );
    // The old header branches back through the continue target or leaves to the merge.
    assert!(
        b[2].starts_with("%12 ") && b[2].contains("BranchConditional %3"),
        "{out}"
    );
    assert_eq!(out.matches("Phi").count(), 1, "{out}");
}

#[test]
fn trivial_branches_are_plain_branches() {
    // A conditional branch with one target twice, a switch whose cases all go one way.
    let out = structure(
        "%10 = Label None
%11 = BranchConditional %3 %12 %12
%12 = Label None
%13 = Switch %4 %14 %5 %14 %6 %14
%14 = Label None
%15 = Return void null
",
    );
    assert_eq!(
        blocks(&out),
        [
            "%10 None | Branch %12",
            "%12 None | Branch %14",
            "%14 None | Return void null"
        ],
        "{out}"
    );
}

#[test]
fn unreachable_blocks_go_with_their_phi_operands() {
    let out = structure(
        "%10 = Label None
%11 = BranchConditional %3 %12 %16
%20 = Label None
%21 = IAdd u32 %5 %5
%22 = Branch %16
%12 = Label None
%13 = Branch %16
%16 = Label None
%17 = Phi u32 %12 %5 %10 %6 %20 %21
%18 = Drain u32 %17
%19 = Return void null
",
    );
    assert!(!out.contains("%20") && !out.contains("%21"), "{out}");
    assert!(out.contains("%17 = Phi u32 %12 %5 %10 %6"), "{out}");
}

#[test]
fn bad_input_is_an_error_naming_the_block() {
    let run_text = |body: &str| {
        let text = program(body);
        let mut b = parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        run(&mut b).unwrap_err().to_string()
    };
    // A branch back to the entry block.
    let err = run_text(
        "%10 = Label None
%11 = Branch %12
%12 = Label None
%13 = BranchConditional %3 %10 %14
%14 = Label None
%15 = Return void null
",
    );
    assert!(
        err.contains("%13") && err.contains("entry block %10"),
        "{err}"
    );
    // An irreducible loop: %12 and %14 both entered from %10.
    let err = run_text(
        "%10 = Label None
%11 = BranchConditional %3 %12 %14
%12 = Label None
%13 = Branch %14
%14 = Label None
%15 = BranchConditional %3 %12 %16
%16 = Label None
%17 = Return void null
",
    );
    assert!(err.contains("irreducible") && err.contains("%12"), "{err}");
}

#[test]
fn only_unstructured_functions_are_found() {
    let structured = program(
        "%10 = Label %12 StructuredSelection
%11 = BranchConditional %3 %13 %12
%13 = Label None
%14 = Branch %12
%12 = Label None
%15 = Return void null
",
    );
    let b = parse(&structured).unwrap();
    assert!(unstructured_functions(&b).is_empty());
    let unstructured =
        structured.replace("%10 = Label %12 StructuredSelection", "%10 = Label None");
    let b = parse(&unstructured).unwrap();
    assert_eq!(unstructured_functions(&b).len(), 1);
}
