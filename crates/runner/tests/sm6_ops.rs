//! Runs a compute shader of Shader Model 6 wave, quad and packed dot product ops on the Vulkan
//! device (lavapipe), emitted for Vulkan 1.3 and for Vulkan 1.1 (where the packed dot
//! products are emulated): valid SPIR-V is not necessarily right SPIR-V, and the emulations
//! (`WaveMatch`, `WaveMultiPrefixOp`, `QuadAny`/`QuadAll`, quad and wave reads of run-time
//! lanes) are loops and shuffles that only running them checks.
//!
//! Each of the 64 invocations writes one word per check: 1 where an invariant holds that
//! does not depend on the wave size (a ballot of every lane counts the active lanes, one
//! lane is the first, a match mask is the ballot of the lanes with the same value, a
//! multi-prefix count is the partition's prefix bit count, ...), or the value a check must
//! give (`QuadAll` of a condition false in lane 3 of each quad, `IsHelperLane` in compute).

// Tests may unwrap, panic and print (production code may not: see the workspace lints).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::print_stdout,
    clippy::print_stderr
)]
use dxspv::ir::text::parse;
use dxspv::ir::validate::{validate, Level};
use dxspv::spirv::{emit_with_reflection, SpirvOptions, TargetEnv};
use dxspv_runner::case::Case;
use dxspv_runner::exec::{missing_requirement, run_compute, Outcome};
use dxspv_runner::vk::Gpu;

/// Checks each invocation writes, and the words it must write.
const EXPECTED: [u32; 14] = [1, 1, 1, 1, 1, 0, 1, 1, 1, 1, 1, 0, 1, 1];

/// The shader: invocation `tid` writes its checks at `tid * 14 + k`.
const SHADER: &str = "
%1 = EntryPoint %3 Compute
%2 = SetCsWorkgroupSize %1 64 1 1
%8 = DclInputBuiltIn u32 %1 LocalThreadIndex None
%9 = DclInputBuiltIn u32 %1 WaveLaneIndex None
%10 = DclUav u32[] %1 0 0 1 BufferRaw None
%11 = Constant u32 0
%12 = Constant u32 1
%13 = Constant u32 2
%14 = Constant u32 3
%15 = Constant bool true
%16 = Constant u32 14
%17 = Constant u32 0x80ff0102
%18 = Constant u32 0x7f030405
%19 = Constant i32 -16245
%20 = Constant u32 17035
%21 = Constant u32 0xfffffffc
%3 = Function void
%4 = Label None
%30 = InputLoad u32 %8 null
%31 = InputLoad u32 %9 null
%32 = DescriptorLoad uav %10 %11
%33 = IMul u32 %30 %16
; 0: a ballot of every lane counts the active lanes, as a sum of ones does
%40 = WaveBallot vec4<u32> %15
%41 = WaveBallotBitCount u32 %40
%42 = WaveActiveOp u32 %12 IAdd
%43 = IEq bool %41 %42
; 1: one lane is the first
%44 = WaveIsFirstLane bool
%45 = Select u32 %44 %12 %11
%46 = WaveActiveOp u32 %45 IAdd
%47 = IEq bool %46 %12
; 2: the match mask of v = (lane / 4) % 2 (as a float) is the ballot of the lanes with v
%48 = UShr u32 %31 %13
%49 = IAnd u32 %48 %12
%50 = ConvertItoF f32 %49
%51 = WaveMatch vec4<u32> %50
%52 = IEq bool %49 %12
%53 = WaveBallot vec4<u32> %52
%54 = BNot bool %52
%55 = WaveBallot vec4<u32> %54
%56 = Select vec4<u32> %52 %53 %55
%57 = IXor vec4<u32> %51 %56
%58 = WaveBallotBitCount u32 %57
%59 = IEq bool %58 %11
; 3: a multi-prefix count of ones over the partition is its prefix bit count
%60 = WaveMultiPrefixOp u32 %12 %51 IAdd
%61 = WaveBallotPrefixBitCount u32 %51
%62 = IEq bool %60 %61
; 4: every quad has a lane 2; 5: no quad has lane 3 true; 6: QuadAll of true
%63 = IAnd u32 %31 %14
%64 = IEq bool %63 %13
%65 = QuadAny bool %64
%66 = INe bool %63 %14
%67 = QuadAll bool %66
%68 = QuadAll bool %15
; 7: a shuffle from the neighbour lane
%69 = IXor u32 %31 %12
%70 = WaveReadLaneAt u32 %31 %69
%71 = IEq bool %70 %69
; 8: a quad read of a lane known at run time
%72 = IAnd u32 %31 %12
%73 = IXor u32 %72 %12
%74 = QuadReadLaneAt u32 %31 %73
%75 = IAnd u32 %31 %21
%76 = IOr u32 %75 %73
%77 = IEq bool %74 %76
; 9, 10: packed dot products of bytes (2 1 -1 -128) and (5 4 3 127)
%78 = SDot4x8Packed i32 %17 %18
%79 = IEq bool %78 %19
%80 = UDot4x8Packed u32 %17 %18
%81 = IEq bool %80 %20
; 11: no helper lanes in compute
%82 = IsHelperLane bool
; 12, 13: quad swaps
%83 = QuadReadAcross u32 %31 X
%84 = IEq bool %83 %69
%85 = QuadReadAcross u32 %31 Diagonal
%86 = IXor u32 %31 %14
%87 = IEq bool %85 %86
CHECKS
%6 = Return void null
%7 = FunctionEnd
";

/// The shader with the stores of its checks (`%43`, `%47`, ...) as words at `tid * 14 + k`
/// (the offsets `k` are constants declared before the function).
fn with_stores() -> String {
    let checks = [43, 47, 59, 62, 65, 67, 68, 71, 77, 79, 81, 82, 84, 87];
    let (mut offsets, mut stores) = (String::new(), String::new());
    for (k, c) in checks.iter().enumerate() {
        let (offset, at, word, store) = (200 + k, 300 + 3 * k, 301 + 3 * k, 302 + 3 * k);
        offsets += &format!("%{offset} = Constant u32 {k}\n");
        stores += &format!(
            "%{at} = IAdd u32 %33 %{offset}\n%{word} = Select u32 %{c} %12 %11\n\
             %{store} = BufferStore void %32 %{at} %{word} 4\n"
        );
    }
    SHADER
        .replace("%3 = Function void\n", &(offsets + "%3 = Function void\n"))
        .replace("CHECKS\n", &stores)
}

#[test]
fn wave_quad_and_dot_ops_compute_what_direct3d_does() {
    let gpu = match Gpu::new() {
        Ok(g) => g,
        Err(e) => return println!("skipping: no Vulkan device: {e}"),
    };
    let text = with_stores();
    let b = parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    if let Err(e) = validate(&b, Level::Lowered) {
        panic!("{e:?}");
    }
    let expect: Vec<u32> = (0..64).flat_map(|_| EXPECTED).collect();
    let case: Case = serde_json::from_value(serde_json::json!({
        "name": "sm6_wave_quad_dot_ops",
        "shader": "(IR text)",
        "format": "dxil",
        "model": "6_7",
        "stage": "cs",
        "dispatch": [1, 1, 1],
        "resources": [{
            "kind": "uav", "space": 0, "register": 0, "view": "raw_buffer",
            "size_bytes": expect.len() * 4, "first_element": 0, "elements": expect.len(),
            "expect": {"type": "u32", "data": expect}
        }]
    }))
    .expect("case");
    if let Some(why) = missing_requirement(&gpu, &case.requires) {
        return println!("skipping: {why}");
    }
    for target in [TargetEnv::Vulkan1_3, TargetEnv::Vulkan1_1] {
        let opts = SpirvOptions {
            target_env: target,
            ..SpirvOptions::default()
        };
        let module = emit_with_reflection(&b, &opts).unwrap_or_else(|e| panic!("{target}: {e}"));
        for run in case.runs() {
            match run_compute(&gpu, &case, run, &module.words, &module.reflection) {
                Outcome::Ok => {}
                Outcome::Skipped(why) => println!("{target}: skipped: {why}"),
                Outcome::Fail(why) => panic!("{target}: {why}"),
            }
        }
    }
}
