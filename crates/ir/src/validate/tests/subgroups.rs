//! Wave and quad ops.

use super::*;

/// A compute shader (or a shader of `stage`) with some values to use and `code` at `%20`.
fn program(stage: &str, decls: &str, code: &str) -> String {
    let size = if stage == "Compute" {
        "%2 = SetCsWorkgroupSize %1 64 1 1\n"
    } else {
        ""
    };
    format!(
        "%1 = EntryPoint %3 {stage}
{size}{decls}
%10 = Constant f32 1.0
%11 = Constant u32 3
%12 = Constant i32 -1
%13 = Constant bool true
%14 = Constant vec4<u32> 1 0 0 0
%15 = Undef vec2<f16>
%16 = Undef u64
%3 = Function void
%5 = Label None
%20 = {code}
%6 = Return void null
%7 = FunctionEnd
"
    )
}

fn rules(stage: &str, decls: &str, code: &str) -> Vec<(Rule, u32)> {
    text_errors(&program(stage, decls, code), Level::Lowered)
}

#[test]
fn wave_ops_accept_their_types() {
    for code in [
        "WaveIsFirstLane bool",
        "WaveAllEqual bool %10",
        "WaveAllEqual bool %15",
        "WaveBallot vec4<u32> %13",
        "WaveReadLaneAt f32 %10 %11",
        "WaveReadLaneAt vec2<f16> %15 %12",
        "WaveReadLaneFirst u64 %16",
        "WaveActiveOp u32 %11 IAdd",
        "WaveActiveOp i32 %12 SMin",
        "WaveActiveOp u32 %11 UMax",
        "WaveActiveOp f32 %10 FMul",
        "WaveActiveOp vec2<f16> %15 FMin",
        "WaveActiveOp bool %13 And",
        "WaveActiveOp bool %13 Or",
        "WaveActiveOp u64 %16 Xor",
        "WavePrefixOp u32 %11 IMul",
        "WavePrefixOp f32 %10 FAdd",
        "WaveMultiPrefixOp u32 %11 %14 IAdd",
        "WaveMultiPrefixOp bool %13 %14 Xor",
        "WaveBallotBitCount u32 %14",
        "WaveBallotPrefixBitCount u32 %14",
        "WaveMatch vec4<u32> %10",
        "WaveMatch vec4<u32> %15",
        "IsHelperLane bool",
        "QuadReadLaneAt f32 %10 %11",
        "QuadReadAcross u32 %11 Diagonal",
        "QuadAny bool %13",
        "QuadAll bool %13",
    ] {
        assert_eq!(rules("Compute", "", code), [], "{code}");
    }
}

#[test]
fn wave_reductions_take_the_types_of_their_operation() {
    for code in [
        "WaveActiveOp f32 %10 IAdd",
        "WaveActiveOp u32 %11 FAdd",
        "WaveActiveOp bool %13 UMin",
        "WaveActiveOp f32 %10 And",
        "WavePrefixOp bool %13 IMul",
        "WaveMultiPrefixOp f32 %10 %14 SMax",
    ] {
        assert_eq!(
            rules("Compute", "", code),
            [(Rule::ResultType, 20)],
            "{code}"
        );
    }
}

#[test]
fn wave_operands_have_their_types() {
    for code in [
        "WaveBallot vec4<u32> %11",
        "WaveReadLaneAt f32 %10 %16",
        "WaveReadLaneAt f32 %11 %11",
        "WaveMultiPrefixOp u32 %11 %11 IAdd",
        "WaveBallotBitCount u32 %11",
        "QuadReadLaneAt f32 %10 %10",
        "QuadAny bool %11",
    ] {
        assert_eq!(
            rules("Compute", "", code),
            [(Rule::OperandType, 20)],
            "{code}"
        );
    }
    // Results: a lane mask, a count, a bool.
    for code in [
        "WaveBallot vec2<u32> %13",
        "WaveBallotBitCount i32 %14",
        "WaveIsFirstLane u32",
        "WaveMatch u32 %10",
        "QuadAll u32 %13",
    ] {
        assert_eq!(
            rules("Compute", "", code),
            [(Rule::ResultType, 20)],
            "{code}"
        );
    }
}

#[test]
fn quad_ops_are_for_stages_with_quads() {
    for stage in ["Pixel", "Compute", "Mesh", "Amplification"] {
        let errs = rules(stage, "", "QuadReadAcross f32 %10 X");
        let extra: Vec<_> = errs.iter().filter(|e| e.0 == Rule::OpStage).collect();
        assert!(extra.is_empty(), "{stage}: {errs:?}");
    }
    for stage in ["Vertex", "Geometry", "Hull", "Domain"] {
        let errs = rules(stage, "", "QuadAny bool %13");
        assert!(errs.contains(&(Rule::OpStage, 20)), "{stage}: {errs:?}");
    }
    // Wave ops and the helper-lane query suit every stage.
    for stage in ["Vertex", "Pixel", "Hull"] {
        let errs = rules(stage, "", "WaveActiveOp u32 %11 IAdd");
        assert!(
            !errs.iter().any(|e| e.0 == Rule::OpStage),
            "{stage}: {errs:?}"
        );
        let errs = rules(stage, "", "IsHelperLane bool");
        assert!(
            !errs.iter().any(|e| e.0 == Rule::OpStage),
            "{stage}: {errs:?}"
        );
    }
}

#[test]
fn wave_sizes_are_powers_of_two_from_4_to_128() {
    let mode = |m: &str| {
        rules(
            "Compute",
            &format!("%8 = SetWaveSize %1 {m}"),
            "IsHelperLane bool",
        )
    };
    for ok in ["32 32 0", "4 128 0", "16 64 32", "128 128 128"] {
        assert_eq!(mode(ok), [], "{ok}");
    }
    for bad in [
        "0 0 0", "2 32 0", "32 256 0", "24 32 0", "64 32 0", "16 64 8", "16 64 48",
    ] {
        let errs = mode(bad);
        assert!(
            !errs.is_empty() && errs.iter().all(|e| *e == (Rule::LiteralValue, 8)),
            "{bad}: {errs:?}"
        );
    }
    // A mode of the stages with workgroups.
    let errs = text_errors(
        &program("Pixel", "%8 = SetWaveSize %1 32 32 0", "IsHelperLane bool"),
        Level::Lowered,
    );
    assert_eq!(errs, [(Rule::OpStage, 8)]);
}
