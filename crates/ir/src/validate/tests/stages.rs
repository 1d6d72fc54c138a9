//! Ops and built-ins bound to shader stages.

use super::*;

#[test]
fn rule_op_stage() {
    // Mode settings, and the code and declarations only some stages have, suit the
    // entry point's stage; the float mode suits every stage.
    let text = |stage: &str, op: &str| {
        let (dcl, code) = if op.starts_with("Set") || op.starts_with("Dcl") {
            (op, "FAdd f32 %4 %4")
        } else {
            ("SetFpMode f32 %1 NearestEven Flush", op)
        };
        format!(
            "%1 = EntryPoint %3 {stage}
%2 = {dcl}
%4 = Constant f32 1.0
%3 = Function void
%5 = Label None
%8 = {code}
%6 = Return void null
%7 = FunctionEnd
"
        )
    };
    let bad = |stage: &str, op: &str, at: u32| {
        let errs = text_errors(&text(stage, op), Level::Structural);
        assert_eq!(errs, [(Rule::OpStage, at)], "{op} in a {stage} shader");
    };
    for (stage, mode) in [
        ("Pixel", "SetTessDomain %1 Quad"),
        ("Vertex", "SetGsInstances %1 2"),
        ("Compute", "SetPsEarlyFragmentTest %1"),
        ("Hull", "SetCsWorkgroupSize %1 1 1 1"),
        ("Pixel", "DclLds u32[16] %1"),
        ("Compute", "DclOutput vec4<f32> %1 0 0 0"),
        ("Vertex", "DclInputBuiltIn u32 %1 SampleId None"),
        ("Vertex", "DclOutputBuiltIn f32 %1 Depth 0"),
        ("Pixel", "DclOutputBuiltIn vec4<f32> %1 Position 0"),
        ("Pixel", "DclInputBuiltIn vec3<u32> %1 GlobalThreadId None"),
        ("Domain", "DclOutputBuiltIn f32[4] %1 TessFactorOuter 0"),
    ] {
        bad(stage, mode, 2);
    }
    for (stage, code) in [
        ("Vertex", "Demote"),
        ("Pixel", "EmitVertex 0"),
        ("Compute", "DerivX f32 %4 Coarse"),
        ("Geometry", "DerivY f32 %4 Fine"),
        ("Pixel", "Barrier Thread Workgroup Lds"),
        ("Vertex", "Barrier Workgroup Global UavBuffer"),
    ] {
        bad(stage, code, 8);
    }
    for (stage, op) in [
        ("Domain", "SetTessDomain %1 Quad"),
        ("Geometry", "SetGsInstances %1 2"),
        ("Pixel", "SetPsEarlyFragmentTest %1"),
        ("Compute", "SetCsWorkgroupSize %1 1 1 1"),
        ("Vertex", "SetFpMode f32 %1 NearestEven Flush"),
        ("Compute", "DclLds u32[16] %1"),
        ("Pixel", "DclInputBuiltIn u32 %1 SampleId None"),
        ("Pixel", "DclOutputBuiltIn f32 %1 Depth 0"),
        ("Vertex", "DclOutputBuiltIn vec4<f32> %1 Position 0"),
        (
            "Compute",
            "DclInputBuiltIn vec3<u32> %1 GlobalThreadId None",
        ),
        ("Hull", "DclOutputBuiltIn f32[4] %1 TessFactorOuter 0"),
        ("Pixel", "Demote"),
        ("Geometry", "EmitVertex 0"),
        ("Pixel", "DerivX f32 %4 Coarse"),
        ("Compute", "Barrier Workgroup Workgroup Lds"),
        ("Hull", "Barrier Workgroup Workgroup UavBuffer"),
        ("Pixel", "Barrier Thread Global UavBuffer"),
    ] {
        let errs = text_errors(&text(stage, op), Level::Structural);
        assert!(errs.is_empty(), "{op} in a {stage} shader: {errs:?}");
    }
}
