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

#[test]
fn diamond_with_phi() {
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
    println!("{out}");
}
