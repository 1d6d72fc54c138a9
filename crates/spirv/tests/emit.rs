//! Small lowered-IR programs through the backend, checked with `spirv-val` (skipped with a
//! message when it is not installed) and by inspecting the words.

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

const PS_RAW_UAV: &str = r#"
%1 = EntryPoint %3 Pixel
%6 = DclCbv vec4<f32>[1] %1 0 0 1
%8 = DclUav u32[] %1 0 0 1 BufferRaw None
%10 = Constant u32 0
%12 = Constant vec2<u32> 0 0
%15 = Constant u32 2
%18 = Constant vec2<u32> 0 1
%3 = Function void
%5 = Label None
%11 = DescriptorLoad cbv %6 %10
%13 = BufferLoad f32 %11 %12 4
%14 = Cast u32 %13
%16 = UShr u32 %14 %15
%19 = BufferLoad f32 %11 %18 4
%20 = Cast u32 %19
%21 = DescriptorLoad uav %8 %10
%22 = BufferStore %21 %16 %20 4
%23 = Return void null
%24 = FunctionEnd
"#;

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
    let src = r#"
%1 = EntryPoint %3 Compute
%4 = DclLds u32[64] %1
%5 = DclInputBuiltIn u32 %1 LocalThreadIndex None
%6 = SetCsWorkgroupSize %1 64 1 1
%10 = Constant u32 0
%11 = Constant u32 1
%12 = Constant u32 4
%3 = Function void
%20 = Label None
%21 = InputLoad u32 %5 null
%22 = Branch %30
%30 = Label %40 %35 StructuredLoop
%31 = Phi u32 %20 %10 %35 %36
%32 = ULt bool %31 %12
%33 = BranchConditional %32 %34 %40
%34 = Label None
%37 = LdsStore %4 %21 %31
%38 = Barrier Workgroup Workgroup Lds
%39 = Branch %35
%35 = Label None
%36 = IAdd u32 %31 %11
%41 = Branch %30
%40 = Label None
%42 = FMin f32 %50 %50
%43 = Return void null
%44 = FunctionEnd
"#
    .replace("%50", "%51");
    let src = src.replace(
        "%12 = Constant u32 4",
        "%12 = Constant u32 4\n%51 = Constant f32 1.0",
    );
    let b = parse(&src).expect("parse");
    let w = emit(&b, &SpirvOptions::default()).expect("emit");
    validate("cs_loop", &w);
    let ops = opcodes(&w);
    assert!(ops.contains(&(spirv::Op::LoopMerge as u32)));
    assert!(ops.contains(&(spirv::Op::ControlBarrier as u32)));
    assert!(ops.contains(&(spirv::Op::Phi as u32)));
}

#[test]
fn msad_is_expanded() {
    let src = r#"
%1 = EntryPoint %3 Compute
%2 = SetCsWorkgroupSize %1 1 1 1
%10 = Constant u32 1
%3 = Function void
%5 = Label None
%6 = UMsad u32 %10 %10 %10
%7 = Return void null
%8 = FunctionEnd
"#;
    let b = parse(src).expect("parse");
    let w = emit(&b, &SpirvOptions::default()).expect("emit");
    validate("cs_msad", &w);
    assert!(opcodes(&w).contains(&(spirv::Op::BitFieldUExtract as u32)));
}
