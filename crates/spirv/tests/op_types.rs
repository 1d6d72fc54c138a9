//! Every arithmetic, logic, compare and conversion op with every combination of result and
//! operand types from a fixed set that the validator accepts at the lowered level must emit as
//! SPIR-V that `spirv-val` accepts, or be refused with an error. Where the fuzzers mutate bytes
//! and `fuzz/probe.sh` changes whole shaders, this walks the contract between the validator and
//! the backend exhaustively (it found bit-field ops with per-component offsets, selects with a
//! condition of another size, and same-width integer conversions).

mod common;

use common::spirv_val;
use dxspv_ir::validate::{validate, Level};
use dxspv_spirv::{emit, SpirvOptions};
use std::fmt::Write as _;

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
/// Ops and their value operand counts (a literal, where the op has one, follows them).
const OPS: &[(&str, usize, &str)] = &[
    ("FAbs", 1, ""),
    ("FNeg", 1, ""),
    ("FRcp", 1, ""),
    ("FSqrt", 1, ""),
    ("FRsq", 1, ""),
    ("FExp2", 1, ""),
    ("FLog2", 1, ""),
    ("FFract", 1, ""),
    ("FRound", 1, " Zero"),
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

/// A compute shader computing each `(op, literal, result, operands)` of `ops` from undefined
/// values (the program goes to the backend as it is, so nothing folds them away).
fn program(ops: &[(&str, &str, &str, Vec<&str>)]) -> String {
    let mut t = String::from("%1 = EntryPoint %3 Compute\n%2 = SetCsWorkgroupSize %1 1 1 1\n");
    let mut body = String::new();
    let mut next = 10;
    for (op, literal, result, operands) in ops {
        let mut list = String::new();
        for ty in operands {
            let _ = writeln!(t, "%{next} = Undef {ty}");
            let _ = write!(list, " %{next}");
            next += 1;
        }
        let _ = writeln!(body, "%{next} = {op} {result}{list}{literal}");
        next += 1;
    }
    let _ = write!(
        t,
        "%3 = Function void\n%5 = Label None\n{body}%{} = Return void null\n%{} = FunctionEnd\n",
        next,
        next + 1
    );
    t
}

#[test]
fn every_op_the_validator_accepts_emits_valid_spirv() {
    let opts = SpirvOptions::default();
    let (mut accepted, mut emitted) = (0, 0);
    let mut invalid = Vec::new();
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
        // Each combination on its own through the validator and the backend; the ones that
        // emit go to spirv-val together, one module per op (one by one if it refuses it).
        let mut emitting = Vec::new();
        for result in TYPES {
            for operands in &combos {
                let one = [(op, literal, *result, operands.clone())];
                let b = dxspv_ir::text::parse(&program(&one)).expect("parses");
                if validate(&b, Level::Lowered).is_err() {
                    continue;
                }
                accepted += 1;
                if emit(&b, &opts).is_ok() {
                    emitted += 1;
                    emitting.push((op, literal, *result, operands.clone()));
                }
            }
        }
        if emitting.is_empty() {
            continue;
        }
        let all = dxspv_ir::text::parse(&program(&emitting)).expect("parses");
        let words = emit(&all, &opts).expect("ops that emit alone emit together");
        match spirv_val(&words) {
            None => return println!("spirv-val not installed: {emitted} modules not checked"),
            Some(Ok(())) => {}
            Some(Err(_)) => {
                for one in emitting {
                    let one = [one];
                    let b = dxspv_ir::text::parse(&program(&one)).expect("parses");
                    let words = emit(&b, &opts).expect("emits");
                    if let Some(Err(msg)) = spirv_val(&words) {
                        invalid.push(format!("{} {} {:?}: {msg}", one[0].0, one[0].2, one[0].3));
                    }
                }
            }
        }
    }
    println!("op types: {accepted} combinations valid IR, {emitted} emitted");
    assert!(
        accepted > 1_000,
        "{accepted} combinations accepted: the probe lost its reach"
    );
    assert!(
        invalid.is_empty(),
        "invalid SPIR-V:\n{}",
        invalid.join("\n")
    );
}
