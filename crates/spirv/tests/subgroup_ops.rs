//! Every wave, quad and packed dot product op with every combination of result and operand
//! types from a fixed set that the validator accepts at the lowered level, in a compute and
//! a pixel shader, must emit as SPIR-V that `spirv-val` accepts, or be refused with an error
//! (the contract `op_types` checks for arithmetic); and at every other target environment,
//! emit valid SPIR-V for it or be refused naming the target.

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
use dxspv_ir::validate::{validate, Level};
use dxspv_spirv::{emit, SpirvError, SpirvOptions, TargetEnv};

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
    "vec3<u32>",
    "vec4<u32>",
    "vec2<f16>",
    "vec4<f32>",
];

/// Lane operands: constants (broadcasts) and values known at run time (shuffles).
const LANES: &[&str] = &["C u32 5", "C i32 2", "u32", "i32", "f32"];

/// Ops, their value operand counts, the literals to try after them, and whether a lane
/// operand follows the values.
const OPS: &[(&str, usize, &[&str], bool)] = &[
    ("WaveIsFirstLane", 0, &[""], false),
    ("IsHelperLane", 0, &[""], false),
    ("WaveAllEqual", 1, &[""], false),
    ("WaveBallot", 1, &[""], false),
    ("WaveReadLaneFirst", 1, &[""], false),
    ("WaveReadLaneAt", 1, &[""], true),
    (
        "WaveActiveOp",
        1,
        &[
            "IAdd", "IMul", "FAdd", "FMul", "SMin", "SMax", "UMin", "UMax", "FMin", "FMax", "And",
            "Or", "Xor",
        ],
        false,
    ),
    (
        "WavePrefixOp",
        1,
        &["IAdd", "FMul", "UMin", "FMax", "And", "Or", "Xor"],
        false,
    ),
    (
        "WaveMultiPrefixOp",
        2,
        &["IAdd", "FAdd", "Xor", "SMax"],
        false,
    ),
    ("WaveBallotBitCount", 1, &[""], false),
    ("WaveBallotPrefixBitCount", 1, &[""], false),
    ("WaveMatch", 1, &[""], false),
    ("QuadReadAcross", 1, &["X", "Y", "Diagonal"], false),
    ("QuadReadLaneAt", 1, &[""], true),
    ("QuadAny", 1, &[""], false),
    ("QuadAll", 1, &[""], false),
    ("SDot4x8Packed", 2, &[""], false),
    ("UDot4x8Packed", 2, &[""], false),
];

/// A shader of `stage` computing `cases` from undefined values.
fn program(stage: &str, cases: &[&Case]) -> String {
    let (decls, body, next) = lines(cases, 10);
    let size = if stage == "Compute" {
        "%2 = SetCsWorkgroupSize %1 32 1 1\n"
    } else {
        ""
    };
    format!(
        "%1 = EntryPoint %3 {stage}\n{size}{decls}\
         %3 = Function void\n%5 = Label None\n{body}%{next} = Return void null\n\
         %{} = FunctionEnd\n",
        next + 1
    )
}

/// The cases of `op` in a `stage` shader (see `OPS`).
fn cases(op: &str, n: usize, literals: &[&str], lane: bool) -> Vec<Case> {
    let mut cases = Vec::new();
    for result in TYPES {
        // Operands: none, or each type (the second operand of a two-operand op is the
        // first's type, a lane mask or a u32).
        let operands: Vec<Vec<&str>> = match n {
            0 => vec![vec![]],
            1 => TYPES.iter().map(|t| vec![*t]).collect(),
            _ => TYPES
                .iter()
                .flat_map(|t| [vec![*t, *t], vec![*t, "vec4<u32>"], vec![*t, "u32"]])
                .collect(),
        };
        let lanes: &[&str] = if lane { LANES } else { &[""] };
        for ops in &operands {
            for l in lanes {
                for lit in literals {
                    let mut c = Case::new(format!("{op} {result}"));
                    for t in ops {
                        c.operand(t);
                    }
                    if !l.is_empty() {
                        c.operand(l);
                    }
                    if !lit.is_empty() {
                        c.literal(lit);
                    }
                    cases.push(c);
                }
            }
        }
    }
    cases
}

#[test]
fn every_subgroup_op_the_validator_accepts_emits_valid_spirv() {
    let (mut accepted, mut emitted) = (0, 0);
    for stage in ["Compute", "Pixel"] {
        for &(op, n, literals, lane) in OPS {
            let cases = cases(op, n, literals, lane);
            let Some((a, e)) = sweep(&cases, &|c| program(stage, c)) else {
                return println!("spirv-val not installed: nothing checked");
            };
            assert!(
                a > 0,
                "{op} in a {stage} shader: no combination is valid IR"
            );
            accepted += a;
            emitted += e;
        }
    }
    println!("subgroup ops: {accepted} combinations valid IR, {emitted} emitted");
    assert_eq!(accepted, emitted, "every valid combination emits");
}

#[test]
fn every_target_emits_the_valid_ops_or_refuses_them_by_name() {
    if common::spirv_val_env(&[], "vulkan1.3").is_none() {
        return println!("spirv-val not installed: nothing checked");
    }
    let mut failures = Vec::new();
    for stage in ["Compute", "Pixel"] {
        // The valid cases of every op, in one module per op.
        for &(op, n, literals, lane) in OPS {
            let all = cases(op, n, literals, lane);
            let valid: Vec<&Case> = all
                .iter()
                .filter(|c| {
                    let b = dxspv_ir::text::parse(&program(stage, &[c])).expect("parses");
                    validate(&b, Level::Lowered).is_ok()
                })
                .collect();
            let b = dxspv_ir::text::parse(&program(stage, &valid)).expect("parses");
            for target in TargetEnv::ALL {
                let opts = SpirvOptions {
                    target_env: target,
                    ..SpirvOptions::default()
                };
                match emit(&b, &opts) {
                    Ok(words) => {
                        if let Some(Err(msg)) =
                            common::spirv_val_env(&words, target.spirv_val_name())
                        {
                            let first = msg.lines().next().unwrap_or("").to_string();
                            failures.push(format!("{op} in {stage} for {target}: {first}"));
                        }
                    }
                    Err(e @ SpirvError::Unsupported { .. })
                        if e.to_string().contains(target.name()) => {}
                    Err(e) => failures.push(format!("{op} in {stage} for {target}: {e}")),
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
