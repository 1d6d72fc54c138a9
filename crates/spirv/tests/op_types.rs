//! Every arithmetic, logic, compare and conversion op with every combination of result and
//! operand types from a fixed set that the validator accepts at the lowered level must emit as
//! SPIR-V that `spirv-val` accepts, or be refused with an error. Where the fuzzers mutate bytes
//! and `fuzz/probe.sh` changes whole shaders, this walks the contract between the validator and
//! the backend exhaustively (it found bit-field ops with per-component offsets, selects with a
//! condition of another size, and same-width integer conversions).

// Tests may unwrap, panic and print (production code may not: see the workspace lints).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::print_stdout,
    clippy::print_stderr
)]
mod common;

use common::{lines, sweep, Case};

/// The types tried for results and operands.
const TYPES: &[&str] = &[
    "bool",
    "i16",
    "u16",
    "i32",
    "u32",
    "i64",
    "u64",
    "f16",
    "f32",
    "f64",
    "vec2<bool>",
    "vec2<i32>",
    "vec2<u32>",
    "vec3<u32>",
    "vec2<f16>",
    "vec2<f32>",
    "vec4<f32>",
];
/// Ops, their value operand counts and the literal that follows them (where the op has one).
const OPS: &[(&str, usize, &str)] = &[
    ("FAbs", 1, ""),
    ("FNeg", 1, ""),
    ("FRcp", 1, ""),
    ("FSqrt", 1, ""),
    ("FRsq", 1, ""),
    ("FExp2", 1, ""),
    ("FLog2", 1, ""),
    ("FFract", 1, ""),
    ("FRound", 1, "Zero"),
    ("FSin", 1, ""),
    ("FCos", 1, ""),
    ("FIsNan", 1, ""),
    ("INot", 1, ""),
    ("INeg", 1, ""),
    ("IAbs", 1, ""),
    ("IBitCount", 1, ""),
    ("IBitReverse", 1, ""),
    ("IFindLsb", 1, ""),
    ("SFindMsb", 1, ""),
    ("UFindMsb", 1, ""),
    ("ConvertFtoF", 1, ""),
    ("ConvertFtoI", 1, ""),
    ("ConvertItoF", 1, ""),
    ("ConvertItoI", 1, ""),
    ("Cast", 1, ""),
    ("BNot", 1, ""),
    ("FAdd", 2, ""),
    ("FSub", 2, ""),
    ("FMul", 2, ""),
    ("FMulLegacy", 2, ""),
    ("FDiv", 2, ""),
    ("FMin", 2, ""),
    ("FMax", 2, ""),
    ("FPow", 2, ""),
    ("FPowLegacy", 2, ""),
    ("FDot", 2, ""),
    ("FDotLegacy", 2, ""),
    ("FEq", 2, ""),
    ("FNe", 2, ""),
    ("FLt", 2, ""),
    ("FGe", 2, ""),
    ("IEq", 2, ""),
    ("INe", 2, ""),
    ("SLt", 2, ""),
    ("UGe", 2, ""),
    ("BAnd", 2, ""),
    ("BOr", 2, ""),
    ("BEq", 2, ""),
    ("BNe", 2, ""),
    ("IAnd", 2, ""),
    ("IOr", 2, ""),
    ("IXor", 2, ""),
    ("IAdd", 2, ""),
    ("ISub", 2, ""),
    ("IMul", 2, ""),
    ("UDiv", 2, ""),
    ("UMod", 2, ""),
    ("SMin", 2, ""),
    ("SMax", 2, ""),
    ("UMin", 2, ""),
    ("UMax", 2, ""),
    ("IShl", 2, ""),
    ("SShr", 2, ""),
    ("UShr", 2, ""),
    ("IAddCarry", 2, ""),
    ("ISubBorrow", 2, ""),
    ("SMulExtended", 2, ""),
    ("UMulExtended", 2, ""),
    ("FMad", 3, ""),
    ("FMadLegacy", 3, ""),
    ("FClamp", 3, ""),
    ("SClamp", 3, ""),
    ("UClamp", 3, ""),
    ("Select", 3, ""),
    ("UBitExtract", 3, ""),
    ("SBitExtract", 3, ""),
    ("UMsad", 3, ""),
    ("IBitInsert", 4, ""),
];

/// A compute shader computing `cases` from undefined values (the program goes to the backend
/// as it is, so nothing folds them away).
fn program(cases: &[&Case]) -> String {
    let (decls, body, next) = lines(cases, 10);
    format!(
        "%1 = EntryPoint %3 Compute\n%2 = SetCsWorkgroupSize %1 1 1 1\n{decls}\
         %3 = Function void\n%5 = Label None\n{body}%{next} = Return void null\n\
         %{} = FunctionEnd\n",
        next + 1
    )
}

#[test]
fn every_op_the_validator_accepts_emits_valid_spirv() {
    let (mut accepted, mut emitted) = (0, 0);
    for &(op, n, literal) in OPS {
        let mut combos: Vec<Vec<&str>> = vec![vec![]];
        for k in 0..n {
            let mut next = Vec::new();
            for c in &combos {
                // Operands past the second repeat the first or the second (keeps it small).
                let choices: Vec<&str> = if k < 2 {
                    TYPES.to_vec()
                } else {
                    vec![c[0], c[1]]
                };
                for t in choices {
                    let mut c = c.clone();
                    c.push(t);
                    next.push(c);
                }
            }
            combos = next;
        }
        // Every result type with every operand combination; the ones that emit go to
        // spirv-val together, one module per op.
        let mut cases = Vec::new();
        for result in TYPES {
            for operands in &combos {
                let mut c = Case::new(format!("{op} {result}"));
                for ty in operands {
                    c.operand(ty);
                }
                if !literal.is_empty() {
                    c.literal(literal);
                }
                cases.push(c);
            }
        }
        let Some((a, e)) = sweep(&cases, &program) else {
            return println!("spirv-val not installed: nothing checked");
        };
        accepted += a;
        emitted += e;
    }
    println!("op types: {accepted} combinations valid IR, {emitted} emitted");
    assert!(
        accepted > 1_000,
        "{accepted} combinations accepted: the probe lost its reach"
    );
}
