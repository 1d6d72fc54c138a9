//! Loads, stores and atomics of buffers, constant buffers, LDS, scratch arrays, inputs,
//! outputs and constant arrays, with random addresses, value types and alignments: whatever
//! the validator accepts at the lowered level must emit as SPIR-V that `spirv-val` accepts, or
//! be refused with an error. The companion of `op_types.rs` and `image_ops.rs` for the ops
//! that address memory (the ones the `ir_compile` fuzz target found most holes in).

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

/// Addresses: null, undefined values and constants of several shapes.
const ADDRESSES: &[&str] = &[
    "-",
    "u32",
    "i32",
    "u16",
    "f32",
    "vec2<u32>",
    "vec3<u32>",
    "C u32 0",
    "C u32 3",
    "C u32 100",
    "C vec2<u32> 0 1",
    "C vec2<u32> 1 3",
    "C vec2<u32> 2 7",
    "C vec3<u32> 0 0 0",
];
/// Loaded, stored and atomic value types.
const VALUES: &[&str] = &[
    "u32",
    "i32",
    "f32",
    "f16",
    "u16",
    "u64",
    "f64",
    "bool",
    "vec2<u32>",
    "vec2<f32>",
    "vec3<f32>",
    "vec4<f32>",
    "vec4<u32>",
    "vec4<f16>",
    "u32[4]",
];
const ALIGNS: &[&str] = &["4", "4", "16", "2", "8", "1"];
const ATOMIC_OPS: &[&str] = &[
    "Add",
    "UMin",
    "Exchange",
    "CompareExchange",
    "Load",
    "Store",
    "Inc",
    "Or",
];

/// The variables every program declares (`%V<n>` in a case's line), by what may address them.
const BUFFERS: &[&str] = &["%30", "%31", "%32", "%33", "%34", "%35", "%36"];
const UAVS: &[&str] = &["%31", "%33", "%35"];

fn declarations() -> &'static str {
    "%6 = DclCbv vec4<f32>[4] %1 0 0 1
%7 = DclSrv u32[] %1 0 1 1 BufferRaw
%8 = DclUav u32[] %1 0 0 1 BufferRaw None
%9 = DclSrv u32[4][] %1 0 2 1 BufferStructured
%10 = DclUav u32[4][] %1 0 1 1 BufferStructured None
%11 = DclSrv f32 %1 0 3 1 BufferTyped
%12 = DclUav u32 %1 0 2 1 BufferTyped FixedFormat
%13 = DclLds u32[16] %1
%14 = DclLds vec4<f32>[4] %1
%15 = DclScratch vec4<f32>[4] %1
%16 = DclScratch f32[8] %1
%17 = Constant vec4<f32>[2] 0.0 1.0 2.0 3.0 4.0 5.0 6.0 7.0
%18 = Constant u32 0
"
}

fn descriptors() -> &'static str {
    "%30 = DescriptorLoad cbv %6 %18
%31 = DescriptorLoad uav %8 %18
%32 = DescriptorLoad srv %7 %18
%33 = DescriptorLoad uav %10 %18
%34 = DescriptorLoad srv %9 %18
%35 = DescriptorLoad uav %12 %18
%36 = DescriptorLoad srv %11 %18
"
}

/// A random memory op.
fn random_case(rng: &mut Rng) -> Case {
    let value = rng.pick(VALUES);
    let mut c;
    match rng.next() % 10 {
        0 => {
            c = Case::new(format!("BufferLoad {value} {}", rng.pick(BUFFERS)));
            c.operand(rng.pick(ADDRESSES));
            c.literal(rng.pick(ALIGNS));
        }
        1 => {
            c = Case::new(format!("BufferStore {}", rng.pick(UAVS)));
            c.operand(rng.pick(ADDRESSES));
            c.operand(value);
            c.literal(rng.pick(ALIGNS));
        }
        2 => {
            let rt = rng.pick(&["void", "u32", "i32", value]);
            c = Case::new(format!("BufferAtomic {rt} {}", rng.pick(UAVS)));
            c.operand(rng.pick(ADDRESSES));
            c.operand(rng.pick(&["-", "u32", "i32", "vec2<u32>", value]));
            c.literal(rng.pick(ATOMIC_OPS));
        }
        3 => {
            c = Case::new(format!(
                "BufferQuerySize {} {}",
                rng.pick(&["u32", "i32", "u16"]),
                rng.pick(BUFFERS)
            ))
        }
        4 => {
            c = Case::new(format!("LdsLoad {value} {}", rng.pick(&["%13", "%14"])));
            c.operand(rng.pick(ADDRESSES));
        }
        5 => {
            c = Case::new(format!("LdsStore {}", rng.pick(&["%13", "%14"])));
            c.operand(rng.pick(ADDRESSES));
            c.operand(value);
        }
        6 => {
            let rt = rng.pick(&["void", "u32", "i32", value]);
            c = Case::new(format!("LdsAtomic {rt} {}", rng.pick(&["%13", "%14"])));
            c.operand(rng.pick(ADDRESSES));
            c.operand(rng.pick(&["-", "u32", "i32", "vec2<u32>", value]));
            c.literal(rng.pick(ATOMIC_OPS));
        }
        7 => {
            c = Case::new(format!("ScratchLoad {value} {}", rng.pick(&["%15", "%16"])));
            c.operand(rng.pick(ADDRESSES));
        }
        8 => {
            c = Case::new(format!("ScratchStore {}", rng.pick(&["%15", "%16"])));
            c.operand(rng.pick(ADDRESSES));
            c.operand(value);
        }
        _ => {
            c = Case::new(format!("ConstantLoad {value} %17"));
            c.operand(rng.pick(ADDRESSES));
        }
    }
    c
}

/// A compute shader with every kind of variable, running `cases`.
fn program(cases: &[&Case]) -> String {
    let (decls, body, next) = lines(cases, 100);
    format!(
        "%1 = EntryPoint %3 Compute\n%2 = SetCsWorkgroupSize %1 1 1 1\n{}{decls}\
         %3 = Function void\n%5 = Label None\n{}{body}%{next} = Return void null\n\
         %{} = FunctionEnd\n",
        declarations(),
        descriptors(),
        next + 1
    )
}

#[test]
fn every_memory_op_the_validator_accepts_emits_valid_spirv() {
    let mut rng = Rng(0x5eed_0f3e);
    let cases: Vec<Case> = (0..40_000).map(|_| random_case(&mut rng)).collect();
    let Some((accepted, emitted)) = sweep(&cases, &program) else {
        return println!("spirv-val not installed: nothing checked");
    };
    println!(
        "memory ops: {} tried, {accepted} valid IR, {emitted} emitted",
        cases.len()
    );
    assert!(
        accepted > 500,
        "{accepted} cases accepted: the sweep lost its reach"
    );
}
