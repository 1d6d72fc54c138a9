//! Test helpers: run a pass on IR text and compare the printed result with expected text.

use crate::passes::error::PassError;
use crate::text::{parse, print};
use crate::validate::{validate, Level};
use crate::Builder;

/// Parses `input`, checks it validates at `Level::Structural`, runs `pass` and returns the
/// printed result and the pass's "changed" answer.
pub fn run_text(
    input: &str,
    pass: impl FnOnce(&mut Builder) -> Result<bool, PassError>,
) -> (String, bool) {
    let mut b = match parse(input) {
        Ok(b) => b,
        Err(e) => panic!("input does not parse: {e}\n{input}"),
    };
    if let Err(errors) = validate(&b, Level::Structural) {
        panic!("input is invalid: {errors:#?}\n{input}");
    }
    let changed = match pass(&mut b) {
        Ok(c) => c,
        Err(e) => panic!("pass failed: {e}\n{input}"),
    };
    let out = print(&b);
    if let Err(errors) = validate(&b, Level::Structural) {
        panic!("output is invalid: {errors:#?}\n{out}");
    }
    (out, changed)
}

/// Lines without surrounding whitespace, blank lines dropped.
pub fn normalize(text: &str) -> String {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join("\n")
}

/// Runs `pass` on `input` and asserts the printed result equals `expected` (whitespace at
/// line ends and blank lines aside).
pub fn check(
    input: &str,
    expected: &str,
    pass: impl FnOnce(&mut Builder) -> Result<bool, PassError>,
) {
    let (out, _) = run_text(input, pass);
    assert_eq!(
        normalize(&out),
        normalize(expected),
        "\n--- actual ---\n{out}\n--- expected ---\n{expected}"
    );
}
