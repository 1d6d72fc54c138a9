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
        ("Vertex", "DerivX f32 %4 Coarse"),
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
        ("Compute", "DerivX f32 %4 Coarse"),
        ("Mesh", "DerivY f32 %4 Fine"),
        ("Amplification", "DerivX f32 %4 Default"),
        ("Compute", "Barrier Workgroup Workgroup Lds"),
        ("Hull", "Barrier Workgroup Workgroup UavBuffer"),
        ("Pixel", "Barrier Thread Global UavBuffer"),
    ] {
        let errs = text_errors(&text(stage, op), Level::Structural);
        assert!(errs.is_empty(), "{op} in a {stage} shader: {errs:?}");
    }
}

#[test]
fn rule_derivative_group() {
    // Shader Model 6.6: a compute, mesh or amplification shader derives over the quads its
    // workgroup forms, so its size must form some: X and Y even (2x2 quads) or X a multiple
    // of 4 with Y and Z 1 (rows of four).
    let text = |stage: &str, size: &str, code: &str| {
        format!(
            "%1 = EntryPoint %3 {stage}
%2 = SetCsWorkgroupSize %1 {size}
%6 = DclSrv f32 %1 0 0 1 Image2D
%7 = DclSampler %1 0 0 1
%4 = Constant f32 1.0
%9 = Constant u32 0
%10 = Constant vec2<f32> 0.5 0.5
%3 = Function void
%5 = Label None
%11 = DescriptorLoad srv %6 %9
%12 = DescriptorLoad sampler %7 %9
%8 = {code}
%24 = Return void null
%25 = FunctionEnd
"
        )
    };
    let codes = [
        "DerivX f32 %4 Coarse",
        "DerivY f32 %4 Fine",
        "ImageComputeLod vec2<f32> %11 %12 %10",
    ];
    for stage in ["Compute", "Mesh", "Amplification"] {
        for code in codes {
            for size in ["2 2 1", "8 8 1", "2 4 16", "4 1 1", "64 1 1"] {
                let errs = text_errors(&text(stage, size, code), Level::Structural);
                assert!(
                    errs.is_empty(),
                    "{code} in a {size} {stage} shader: {errs:?}"
                );
            }
            for size in ["1 1 1", "2 1 1", "6 1 1", "4 1 2", "4 3 1", "3 2 1"] {
                let errs = text_errors(&text(stage, size, code), Level::Structural);
                assert_eq!(
                    errs,
                    [(Rule::OpStage, 8)],
                    "{code} in a {size} {stage} shader"
                );
            }
        }
    }
    // An implicit-LOD sample is no error there: it is LOD 0 where no quads form.
    let sample = "ImageSample vec4<f32> %11 %12 null %10 null null null null null null null";
    let errs = text_errors(&text("Compute", "3 1 1", sample), Level::Structural);
    assert!(errs.is_empty(), "{errs:?}");
}
