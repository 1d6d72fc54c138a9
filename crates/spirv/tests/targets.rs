//! Target environments through the backend: the header (SPIR-V version, generator word),
//! the memory model and the entry point interface of each target, and the feature a target
//! lacks refused by name. What each target changes in the code is shown by the target
//! goldens (`golden/NAME.TARGET.spvasm`, see `golden.rs`).

// Tests may unwrap, panic and print (production code may not: see the workspace lints).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::print_stdout,
    clippy::print_stderr
)]
use dxspv_ir::text::parse;
use dxspv_spirv::{emit, SpirvError, SpirvOptions, TargetEnv};
mod common;

const MEMORY_CS: &str = include_str!("golden/memory_cs.ir");

fn options(target: TargetEnv) -> SpirvOptions {
    SpirvOptions {
        target_env: target,
        ..SpirvOptions::default()
    }
}

/// The operands of the first instruction with opcode `op`.
fn operands(words: &[u32], op: spirv::Op) -> Vec<u32> {
    let mut i = 5;
    while let Some(&w) = words.get(i) {
        let len = ((w >> 16) as usize).max(1);
        if w & 0xffff == op as u32 {
            return words[i + 1..i + len].to_vec();
        }
        i += len;
    }
    panic!("no {op:?}");
}

#[test]
fn the_header_and_memory_model_follow_the_target() {
    let b = parse(MEMORY_CS).expect("parse");
    for target in TargetEnv::ALL {
        let mut opts = options(target);
        opts.generator = 0x1234_0005;
        let words = emit(&b, &opts).expect("emit");
        let (major, minor) = target.spirv_version();
        assert_eq!(
            words[1],
            (u32::from(major) << 16) | (u32::from(minor) << 8),
            "{target}"
        );
        assert_eq!(words[2], 0x1234_0005, "{target}");
        let model = operands(&words, spirv::Op::MemoryModel);
        let want = if target.vulkan_memory_model() {
            spirv::MemoryModel::Vulkan
        } else {
            spirv::MemoryModel::GLSL450
        };
        assert_eq!(model, [spirv::AddressingModel::Logical as u32, want as u32]);
        let caps: Vec<u32> = {
            let mut v = Vec::new();
            let mut i = 5;
            while let Some(&w) = words.get(i) {
                if w & 0xffff == spirv::Op::Capability as u32 {
                    v.push(words[i + 1]);
                }
                i += ((w >> 16) as usize).max(1);
            }
            v
        };
        assert_eq!(
            caps.contains(&(spirv::Capability::VulkanMemoryModel as u32)),
            target.vulkan_memory_model(),
            "{target}"
        );
        if let Some(Err(msg)) = common::spirv_val_env(&words, target.spirv_val_name()) {
            panic!("{target}: {msg}");
        }
    }
    // The default header is SPIR-V 1.6 with generator 0.
    let words = emit(&b, &SpirvOptions::default()).expect("emit");
    assert_eq!(&words[1..3], &[0x0001_0600, 0]);
}

#[test]
fn the_interface_lists_every_global_from_spirv_1_4_and_the_io_before() {
    // memory_cs declares LDS, a coherent UAV and the LocalThreadIndex input.
    let b = parse(MEMORY_CS).expect("parse");
    let count = |target| {
        let words = emit(&b, &options(target)).expect("emit");
        let ep = operands(&words, spirv::Op::EntryPoint);
        // Model, function, the name "main" (two words), then the interface.
        ep.len() - 4
    };
    assert_eq!(count(TargetEnv::Spirv1_3), 1);
    assert_eq!(count(TargetEnv::Vulkan1_0), 1);
    assert_eq!(count(TargetEnv::Spirv1_4), 5);
    assert_eq!(count(TargetEnv::Vulkan1_3), 5);
}

const SUBGROUP_BARRIER: &str = "\
%1 = EntryPoint %3 Compute
%4 = SetCsWorkgroupSize %1 4 1 1
%3 = Function void
%5 = Label None
%6 = Barrier Subgroup Subgroup UavBuffer
%7 = Return void null
%8 = FunctionEnd
";

#[test]
fn a_subgroup_barrier_is_refused_by_name_where_vulkan_has_no_subgroups() {
    let b = parse(SUBGROUP_BARRIER).expect("parse");
    match emit(&b, &options(TargetEnv::Vulkan1_0)) {
        Err(e @ SpirvError::Unsupported { .. }) => {
            let text = e.to_string();
            assert!(
                text.contains("subgroup-scope barrier for vulkan1.0"),
                "{text}"
            );
        }
        other => panic!("expected a refusal, got {other:?}"),
    }
    for target in [
        TargetEnv::Vulkan1_1,
        TargetEnv::Spirv1_0,
        TargetEnv::Vulkan1_3,
    ] {
        let words = emit(&b, &options(target)).expect("emit");
        if let Some(Err(msg)) = common::spirv_val_env(&words, target.spirv_val_name()) {
            panic!("{target}: {msg}");
        }
    }
}
