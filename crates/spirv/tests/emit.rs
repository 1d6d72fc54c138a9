//! Small lowered-IR programs through the backend, checked with `spirv-val` (skipped with a
//! message when it is not installed) and by inspecting the words.

// Tests may unwrap, panic and print (production code may not: see the workspace lints).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::print_stdout,
    clippy::print_stderr
)]
use dxspv_ir::text::parse;
use dxspv_spirv::{emit, emit_with_reflection, DescriptorType, RegisterClass, SpirvOptions};
mod common;

use common::assert_spirv_valid as validate;

/// Opcodes of all instructions after the header.
fn opcodes(words: &[u32]) -> Vec<u32> {
    let mut ops = Vec::new();
    let mut i = 5;
    while i < words.len() {
        ops.push(words[i] & 0xffff);
        i += (words[i] >> 16).max(1) as usize;
    }
    ops
}

const PS_RAW_UAV: &str = include_str!("golden/ps_cbv_raw_uav.ir");

#[test]
fn pixel_shader_with_cbv_and_raw_uav_is_valid() {
    let b = parse(PS_RAW_UAV).expect("parse");
    let m = emit_with_reflection(&b, &SpirvOptions::default()).expect("emit");
    assert_eq!(m.words[0], 0x0723_0203);
    assert_eq!(m.words[1], 0x0001_0600);
    validate("ps_raw_uav", &m.words);
    let ops = opcodes(&m.words);
    // OpMemoryModel Logical Vulkan.
    let mm = m
        .words
        .iter()
        .position(|w| *w == (3 << 16 | 14))
        .expect("memory model");
    assert_eq!(&m.words[mm + 1..mm + 3], &[0, 3]);
    assert!(ops.contains(&(spirv::Op::ShiftRightLogical as u32)));
    // Shift counts are masked to the bit width.
    assert!(ops.contains(&(spirv::Op::BitwiseAnd as u32)));
    let r = &m.reflection.resources;
    assert_eq!(r.len(), 2);
    assert_eq!(r[0].class, RegisterClass::Cbv);
    assert_eq!(r[0].descriptor_type, DescriptorType::UniformBuffer);
    assert_eq!((r[0].set, r[0].binding), (0, 0));
    assert_eq!(r[1].class, RegisterClass::Uav);
    assert_eq!(r[1].descriptor_type, DescriptorType::StorageBuffer);
    assert_eq!(r[1].binding, SpirvOptions::default().bindings.u_shift);
}

#[test]
fn binding_shifts_and_stripped_names_apply() {
    let b = parse(PS_RAW_UAV).expect("parse");
    let mut opts = SpirvOptions::default();
    opts.bindings.u_shift = 7;
    opts.bindings.set_offset = 2;
    opts.strip_debug_names = true;
    let m = emit_with_reflection(&b, &opts).expect("emit");
    assert_eq!(m.reflection.resources[1].binding, 7);
    assert_eq!(m.reflection.resources[1].set, 2);
    assert!(!opcodes(&m.words).contains(&(spirv::Op::Name as u32)));
    validate("shifted", &m.words);
}

#[test]
fn compute_loop_with_lds_and_barrier_is_valid() {
    let src = include_str!("golden/cs_loop_lds_barrier.ir");
    let b = parse(src).expect("parse");
    let w = emit(&b, &SpirvOptions::default()).expect("emit");
    validate("cs_loop", &w);
    let ops = opcodes(&w);
    assert!(ops.contains(&(spirv::Op::LoopMerge as u32)));
    assert!(ops.contains(&(spirv::Op::ControlBarrier as u32)));
    assert!(ops.contains(&(spirv::Op::Phi as u32)));
}

#[test]
fn msad_is_expanded() {
    let src = include_str!("golden/cs_msad.ir");
    let b = parse(src).expect("parse");
    let w = emit(&b, &SpirvOptions::default()).expect("emit");
    validate("cs_msad", &w);
    assert!(opcodes(&w).contains(&(spirv::Op::BitFieldUExtract as u32)));
}

#[test]
fn ops_the_passes_lower_are_refused() {
    // Lowered IR holds none of these (the validator refuses them); `emit` does not validate,
    // so the backend refuses them itself, naming the op.
    for line in [
        "%6 = FDot f32 %10 %10",
        "%6 = FMulLegacy f32 %10 %10",
        "%6 = ConsumeAs f32 %10",
        "%6 = MinValue f32",
        "%6 = ScopedLoop %7",
    ] {
        let src = format!(
            "%1 = EntryPoint %3 Compute
%2 = SetCsWorkgroupSize %1 1 1 1
%10 = Constant f32 1.0
%3 = Function void
%5 = Label None
{line}
%7 = Return void null
%8 = FunctionEnd
"
        );
        let b = parse(&src).expect("parse");
        let opcode = line.split_whitespace().nth(2).expect("opcode");
        match emit(&b, &SpirvOptions::default()) {
            Ok(_) => panic!("{line}: emitted"),
            Err(e) => assert_eq!(e.to_string(), format!("%6 {opcode}: unsupported: opcode")),
        }
    }
}

#[test]
fn a_second_entry_point_is_refused() {
    // Valid IR has one `EntryPoint` (the validator refuses a second); the backend takes the
    // first, which sets the stage, and refuses another rather than emit it under that stage.
    let src = "%1 = EntryPoint %3 Compute
%2 = SetCsWorkgroupSize %1 1 1 1
%4 = EntryPoint %3 Compute
%3 = Function void
%5 = Label None
%7 = Return void null
%8 = FunctionEnd
";
    let b = parse(src).expect("parse");
    match emit(&b, &SpirvOptions::default()) {
        Ok(_) => panic!("emitted"),
        Err(e) => assert!(e.to_string().contains("a second EntryPoint"), "{e}"),
    }
}

/// Components of an input are read from one load of the whole vector (as short as an access
/// chain and a load for one, shorter for more), and a construct of all its components in
/// order is that vector (the extracts only it used go); components of one constant buffer vector read close together come
/// from one load of the vector, a component read alone through an access chain to it.
#[test]
fn components_of_read_only_vectors_share_one_load() {
    let text = "
%1 = EntryPoint %3 Pixel
%6 = DclInput vec4<f32> %1 1 0 None
%7 = DclCbv vec4<f32>[2] %1 0 0 1
%8 = DclOutput vec4<f32> %1 0 0 0
%9 = DclOutput f32 %1 1 0 0
%10 = Constant u32 0
%11 = Constant u32 1
%12 = Constant u32 2
%13 = Constant u32 3
%14 = Constant vec2<u32> 1 0
%15 = Constant vec2<u32> 1 2
%16 = Constant vec2<u32> 0 3
%3 = Function void
%4 = Label None
%20 = InputLoad f32 %6 %10
%21 = InputLoad f32 %6 %11
%22 = InputLoad f32 %6 %12
%23 = InputLoad f32 %6 %13
%24 = CompositeConstruct vec4<f32> %20 %21 %22 %23
%25 = OutputStore %8 null %24
%26 = DescriptorLoad cbv %7 %10
%27 = BufferLoad f32 %26 %14 4
%28 = BufferLoad f32 %26 %15 4
%29 = BufferLoad f32 %26 %16 4
%30 = FAdd f32 %27 %28
%31 = FAdd f32 %30 %29
%32 = OutputStore %9 null %31
%33 = Return void null
%34 = FunctionEnd
";
    let b = parse(text).expect("parse");
    let words = emit(&b, &SpirvOptions::default()).expect("emit");
    validate("component loads", &words);
    let insts = instructions(&words);
    let count = |op: spirv::Op| insts.iter().filter(|i| i[0] & 0xffff == op as u32).count();
    // The input: one load, stored whole to the output; the constant buffer: one load of
    // row 1 for its two components, and an access chain to row 0's component 3.
    let input_load = insts
        .iter()
        .find(|i| i[0] & 0xffff == spirv::Op::Load as u32 && i[3] == 6)
        .expect("a load of the input");
    assert_eq!(input_load.len(), 4);
    assert!(insts
        .iter()
        .any(|i| i == &[3 << 16 | spirv::Op::Store as u32, 8, input_load[2]]));
    assert_eq!(count(spirv::Op::CompositeConstruct), 0);
    assert_eq!(count(spirv::Op::Load), 3);
    assert_eq!(count(spirv::Op::AccessChain), 2);
    // The input's components are used only by the construct, which is the vector: their
    // extracts go; the constant buffer's two remain.
    assert_eq!(count(spirv::Op::CompositeExtract), 2);
    // Extracts take literal indices: the only constants are the array's length (2) and the
    // access chains' indices (0, 1 and 3).
    assert_eq!(count(spirv::Op::Constant), 4);
}

/// The instructions after the header, each with its words.
fn instructions(words: &[u32]) -> Vec<&[u32]> {
    let mut out = Vec::new();
    let mut i = 5;
    while i < words.len() {
        let n = ((words[i] >> 16) as usize).max(1);
        out.push(&words[i..(i + n).min(words.len())]);
        i += n;
    }
    out
}

/// Scalars stored to the components of an output vector wait for the rest of the block's
/// stores: all components stored make one whole-vector `OpStore`, some only a store through
/// an access chain each, and an `OutputLoad` (or anything else that could see the output)
/// comes after the waiting stores.
#[test]
fn component_stores_to_outputs_are_merged() {
    let program = |body: &str| {
        format!(
            "
%1 = EntryPoint %3 Pixel
%7 = DclInput vec4<f32> %1 1 0 None
%8 = DclOutput vec4<f32> %1 0 0 0
%10 = Constant u32 0
%11 = Constant u32 1
%12 = Constant u32 2
%13 = Constant u32 3
%14 = Constant f32 0.5
%15 = Constant f32 2.0
%16 = Constant i32 -1
%3 = Function void
%4 = Label None
{body}
%33 = Return void null
%34 = FunctionEnd
"
        )
    };
    let emit_text = |name: &str, text: &str| {
        let b = parse(text).expect("parse");
        let words = emit(&b, &SpirvOptions::default()).expect("emit");
        validate(name, &words);
        words
    };
    let op_is = |i: &&[u32], op: spirv::Op| i[0] & 0xffff == op as u32;

    // Every component, in any order, one of them an integer of the same width: one store.
    let all = program(
        "%20 = OutputStore %8 %13 %15
%21 = OutputStore %8 %10 %14
%22 = FAdd f32 %14 %15
%23 = OutputStore %8 %12 %22
%24 = OutputStore %8 %11 %16",
    );
    let words = emit_text("all components", &all);
    let insts = instructions(&words);
    let stores: Vec<_> = insts
        .iter()
        .filter(|i| op_is(i, spirv::Op::Store))
        .collect();
    assert_eq!(stores.len(), 1);
    assert_eq!(stores[0][1], 8);
    assert!(!insts.iter().any(|i| op_is(i, spirv::Op::AccessChain)));
    assert!(insts.iter().any(|i| op_is(i, spirv::Op::Bitcast)));

    // Two components: a store to each through an access chain.
    let some = program(
        "%20 = OutputStore %8 %13 %15
%21 = OutputStore %8 %10 %14",
    );
    let words = emit_text("some components", &some);
    let insts = instructions(&words);
    assert_eq!(
        insts.iter().filter(|i| op_is(i, spirv::Op::Store)).count(),
        2
    );
    assert_eq!(
        insts
            .iter()
            .filter(|i| op_is(i, spirv::Op::AccessChain))
            .count(),
        2
    );

    // An input's components stored in order to an output's: the input vector is stored,
    // and nothing else uses the extracts, which go.
    let copy = program(
        "%20 = InputLoad f32 %7 %10
%21 = InputLoad f32 %7 %11
%22 = InputLoad f32 %7 %12
%23 = InputLoad f32 %7 %13
%24 = OutputStore %8 %10 %20
%25 = OutputStore %8 %11 %21
%26 = OutputStore %8 %12 %22
%27 = OutputStore %8 %13 %23",
    );
    let words = emit_text("copy", &copy);
    let insts = instructions(&words);
    let load = insts
        .iter()
        .find(|i| op_is(i, spirv::Op::Load))
        .expect("a load");
    assert!(insts
        .iter()
        .any(|i| i == &[3 << 16 | spirv::Op::Store as u32, 8, load[2]]));
    assert_eq!(
        insts.iter().filter(|i| op_is(i, spirv::Op::Store)).count(),
        1
    );
    assert!(!insts.iter().any(|i| op_is(i, spirv::Op::CompositeExtract)));
    // The component addresses were literals of the extracts that went: no `u32` constants.
    let uint = insts
        .iter()
        .find(|i| op_is(i, spirv::Op::TypeInt) && i[2..] == [32, 0])
        .map(|i| i[1]);
    assert!(!insts
        .iter()
        .any(|i| op_is(i, spirv::Op::Constant) && Some(i[1]) == uint));

    // A load of the output sees the store before it.
    let loaded = program(
        "%20 = OutputStore %8 %10 %14
%21 = OutputLoad f32 %8 %10
%22 = FAdd f32 %21 %15
%23 = OutputStore %8 %11 %22",
    );
    let words = emit_text("load between", &loaded);
    let insts = instructions(&words);
    let store = insts.iter().position(|i| op_is(i, spirv::Op::Store));
    let load = insts.iter().position(|i| op_is(i, spirv::Op::Load));
    assert!(store.is_some() && load.is_some() && store < load);
}

/// The entry function's debug name is left out when it is the entry point's name (which
/// `OpEntryPoint` carries already), kept when it differs.
#[test]
fn entry_function_name_is_not_repeated() {
    let program = |name: &str| {
        format!(
            "
%1 = EntryPoint %3 Pixel
%2 = DebugName %3 \"{name}\"
%3 = Function void
%4 = Label None
%5 = Return void null
%6 = FunctionEnd
"
        )
    };
    let names = |text: &str| {
        let b = parse(text).expect("parse");
        let words = emit(&b, &SpirvOptions::default()).expect("emit");
        validate("entry name", &words);
        instructions(&words)
            .iter()
            .filter(|i| i[0] & 0xffff == spirv::Op::Name as u32)
            .count()
    };
    assert_eq!(names(&program("main")), 0);
    assert_eq!(names(&program("ps_main")), 1);
}

/// A construct of some components of one vector, extracted only for it, is one
/// `OpVectorShuffle` of the vector, the extracts gone.
#[test]
fn construct_of_some_components_is_a_shuffle() {
    let text = "
%1 = EntryPoint %3 Pixel
%6 = DclInput vec4<f32> %1 1 0 None
%8 = DclOutput vec3<f32> %1 0 0 0
%10 = Constant u32 0
%11 = Constant u32 1
%13 = Constant u32 3
%3 = Function void
%4 = Label None
%20 = InputLoad f32 %6 %13
%21 = InputLoad f32 %6 %10
%22 = InputLoad f32 %6 %11
%24 = CompositeConstruct vec3<f32> %20 %21 %22
%25 = OutputStore %8 null %24
%33 = Return void null
%34 = FunctionEnd
";
    let b = parse(text).expect("parse");
    let words = emit(&b, &SpirvOptions::default()).expect("emit");
    validate("shuffle", &words);
    let insts = instructions(&words);
    let shuffle = insts
        .iter()
        .find(|i| i[0] & 0xffff == spirv::Op::VectorShuffle as u32)
        .expect("a shuffle");
    assert_eq!(&shuffle[5..], &[3, 0, 1]);
    assert!(!insts
        .iter()
        .any(|i| i[0] & 0xffff == spirv::Op::CompositeExtract as u32));
    assert!(!insts
        .iter()
        .any(|i| i[0] & 0xffff == spirv::Op::CompositeConstruct as u32));
}

/// Push data is read from one load of the whole push constant block per block: members and
/// their constant elements are extracted from it, with no access chain.
#[test]
fn push_data_comes_from_one_load_of_the_block() {
    let text = "
%1 = EntryPoint %3 Pixel
%6 = DclPushData vec4<f32> %1 0 Pixel
%7 = DclPushData u32[2] %1 16 Pixel
%8 = DclOutput f32 %1 0 0 0
%9 = DclOutput u32 %1 1 0 0
%10 = Constant u32 1
%3 = Function void
%4 = Label None
%20 = PushDataLoad f32 %6 %10
%21 = PushDataLoad vec4<f32> %6 null
%22 = CompositeExtract f32 %21 %10
%23 = FAdd f32 %20 %22
%24 = OutputStore %8 null %23
%25 = PushDataLoad u32 %7 %10
%26 = OutputStore %9 null %25
%33 = Return void null
%34 = FunctionEnd
";
    let b = parse(text).expect("parse");
    let words = emit(&b, &SpirvOptions::default()).expect("emit");
    validate("push data", &words);
    let insts = instructions(&words);
    let count = |op: spirv::Op| insts.iter().filter(|i| i[0] & 0xffff == op as u32).count();
    assert_eq!(count(spirv::Op::Load), 1);
    assert_eq!(count(spirv::Op::AccessChain), 0);
    // Member 0 component 1, member 0, member 1 element 1 (and the IR's own extract).
    let extracts: Vec<_> = insts
        .iter()
        .filter(|i| i[0] & 0xffff == spirv::Op::CompositeExtract as u32)
        .map(|i| i[4..].to_vec())
        .collect();
    assert!(extracts.contains(&vec![0, 1]));
    assert!(extracts.contains(&vec![0]));
    assert!(extracts.contains(&vec![1, 1]));
}
