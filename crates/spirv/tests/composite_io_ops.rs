//! Composite constructs, extracts and inserts of vectors, arrays and structs, and loads, stores
//! and interpolations of pixel-shader inputs and outputs, with random shapes, types and
//! addresses: whatever the validator accepts at the lowered level must emit as SPIR-V that
//! `spirv-val` accepts, or be refused with an error (companion of `op_types.rs`,
//! `image_ops.rs` and `memory_ops.rs`).

// Tests may unwrap, panic and print (production code may not: see the workspace lints).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::print_stdout,
    clippy::print_stderr
)]
mod common;

use common::{lines, sweep, Case, Rng};

/// Values of every shape.
const VALUES: &[&str] = &[
    "u32",
    "i32",
    "f32",
    "f16",
    "u64",
    "bool",
    "vec2<f32>",
    "vec3<f32>",
    "vec4<f32>",
    "vec4<u32>",
    "vec2<f16>",
    "vec2<bool>",
    "f32[4]",
    "vec4<f32>[2]",
    "u32[2][3]",
    "struct{u32, vec4<f32>}",
    "struct{f32, f32}",
];
/// Addresses: null, undefined values and constants of several shapes.
const ADDRESSES: &[&str] = &[
    "-",
    "u32",
    "i32",
    "u16",
    "C u32 0",
    "C u32 1",
    "C u32 3",
    "C u32 4",
    "C vec2<u32> 0 1",
    "C vec2<u32> 1 3",
    "C vec2<u32> 1 0",
    "vec2<u32>",
    "C vec3<u32> 0 1 2",
];

/// The pixel shader's inputs (`%10`–`%13`) and outputs (`%14`–`%16`).
const DECLARATIONS: &str = "%10 = DclInput vec4<f32> %1 0 0 None
%11 = DclInput f32[2] %1 1 0 None
%12 = DclInput vec2<u32> %1 3 0 Flat
%13 = DclInputBuiltIn vec4<f32> %1 Position NoPerspective
%14 = DclOutput vec4<f32> %1 0 0 0
%15 = DclOutput u32 %1 1 0 0
%16 = DclOutputBuiltIn f32 %1 Depth 0
";

/// A random composite or I/O op.
fn random_case(rng: &mut Rng) -> Case {
    let result = rng.pick(VALUES);
    let mut c;
    match rng.next() % 6 {
        0 => {
            c = Case::new(format!("CompositeConstruct {result}"));
            for _ in 0..1 + rng.next() % 4 {
                c.operand(rng.pick(VALUES));
            }
        }
        1 => {
            c = Case::new(format!("CompositeExtract {result}"));
            c.operand(rng.pick(VALUES));
            c.operand(rng.pick(&ADDRESSES[1..]));
        }
        2 => {
            c = Case::new(format!("CompositeInsert {result}"));
            c.operand(rng.pick(VALUES));
            c.operand(rng.pick(&ADDRESSES[1..]));
            c.operand(rng.pick(VALUES));
        }
        3 => {
            c = Case::new(format!(
                "InputLoad {result} {}",
                rng.pick(&["%10", "%11", "%12", "%13"])
            ));
            c.operand(rng.pick(ADDRESSES));
        }
        4 => {
            c = Case::new(format!("OutputStore {}", rng.pick(&["%14", "%15", "%16"])));
            c.operand(rng.pick(ADDRESSES));
            c.operand(rng.pick(VALUES));
        }
        _ => {
            let op = rng.pick(&[
                "InterpolateAtCentroid",
                "InterpolateAtSample",
                "InterpolateAtOffset",
            ]);
            c = Case::new(format!(
                "{op} {result} {}",
                rng.pick(&["%10", "%11", "%12"])
            ));
            c.operand(rng.pick(ADDRESSES));
            match op {
                "InterpolateAtSample" => c.operand(rng.pick(&["u32", "i32", "f32"])),
                "InterpolateAtOffset" => c.operand(rng.pick(&["vec2<f32>", "vec2<i32>", "f32"])),
                _ => {}
            }
        }
    }
    c
}

/// A pixel shader with the inputs and outputs above, running `cases`.
fn program(cases: &[&Case]) -> String {
    let (decls, body, next) = lines(cases, 100);
    format!(
        "%1 = EntryPoint %3 Pixel\n{DECLARATIONS}{decls}%3 = Function void\n%5 = Label None\n\
         {body}%{next} = Return void null\n%{} = FunctionEnd\n",
        next + 1
    )
}

#[test]
fn every_composite_and_io_op_the_validator_accepts_emits_valid_spirv() {
    let mut rng = Rng(0xc0ff_ee00);
    let cases: Vec<Case> = (0..40_000).map(|_| random_case(&mut rng)).collect();
    let Some((accepted, emitted)) = sweep(&cases, &program) else {
        return println!("spirv-val not installed: nothing checked");
    };
    println!(
        "composite and I/O ops: {} tried, {accepted} valid IR, {emitted} emitted",
        cases.len()
    );
    assert!(
        accepted > 500,
        "{accepted} cases accepted: the sweep lost its reach"
    );
}
