//! Image operands: which ops each image kind allows, and coordinate, layer, gradient and offset shapes.

use super::*;

#[test]
fn rule_image_operands() {
    // Coordinates, layers, gradients and offsets fit the image's kind (the backend
    // refused these only at the end, after every pass had run on them).
    let text = |kind: &str, code: &str| {
        format!(
            "%1 = EntryPoint %3 Pixel
%6 = DclSrv f32 %1 0 0 1 {kind}
%7 = DclSampler %1 0 0 1
%9 = DclInput vec2<i32> %1 0 0 Flat
%10 = Constant u32 0
%11 = Constant f32 0.5
%12 = Constant vec2<f32> 0.5 0.5
%13 = Constant vec3<f32> 0.5 0.5 0.5
%14 = Constant vec2<i32> 1 -1
%15 = Constant vec3<i32> 1 -1 0
%16 = Constant i32 1
%3 = Function void
%5 = Label None
%20 = InputLoad vec2<i32> %9 null
%21 = DescriptorLoad srv %6 %10
%22 = DescriptorLoad sampler %7 %10
%23 = {code}
%24 = Return void null
%25 = FunctionEnd
"
        )
    };
    let sample = "ImageSample vec4<f32> %21 %22";
    let ty = Rule::OperandType;
    // (image kind, op, the error: its rule and operand)
    type Case<'a> = (&'a str, String, Option<(Rule, usize)>);
    let cases: [Case; 19] = [
        (
            "Image2D",
            format!("{sample} null %12 %14 null null null %12 %12 null"),
            None,
        ),
        (
            "Image2D",
            format!("{sample} null %11 null null null null null null null"),
            Some((ty, 3)),
        ),
        (
            "Image2D",
            format!("{sample} %11 %12 null null null null null null null"),
            Some((ty, 2)),
        ),
        (
            "Image2DArray",
            format!("{sample} null %12 null null null null null null null"),
            Some((ty, 2)),
        ),
        (
            "Image2DArray",
            format!("{sample} %16 %12 null null null null null null null"),
            Some((ty, 2)),
        ),
        (
            "Image2D",
            format!("{sample} null %12 null null null null %13 %12 null"),
            Some((ty, 8)),
        ),
        (
            "Image2D",
            format!("{sample} null %12 %20 null null null null null null"),
            Some((Rule::OperandOpcode, 4)),
        ),
        (
            "Image2D",
            format!("{sample} null %12 %15 null null null null null null"),
            Some((ty, 4)),
        ),
        (
            "ImageCube",
            format!("{sample} null %13 %15 null null null null null null"),
            Some((ty, 4)),
        ),
        (
            "Image2D",
            "ImageGather vec4<f32> %21 %22 null %12 %20 null 0".into(),
            None,
        ),
        (
            "Image2D",
            "ImageGather vec4<f32> %21 %22 null %12 null null 4".into(),
            Some((Rule::LiteralValue, 6)),
        ),
        (
            "Image2DMS",
            format!("{sample} null %12 null null null null null null null"),
            Some((ty, 0)),
        ),
        ("Image2DMS", "ImageQueryMips u32 %21".into(), Some((ty, 0))),
        (
            "Image2DMS",
            "ImageLoad vec4<f32> %21 null null %20 null null".into(),
            Some((ty, 0)),
        ),
        (
            "Image2DMS",
            "ImageLoad vec4<f32> %21 null null %20 %10 null".into(),
            None,
        ),
        (
            "Image2D",
            "ImageLoad vec4<f32> %21 %10 null %20 null %14".into(),
            None,
        ),
        (
            "Image2D",
            "ImageLoad vec4<f32> %21 %10 null %12 null null".into(),
            Some((ty, 3)),
        ),
        (
            "Image2D",
            "ImageComputeLod vec2<f32> %21 %22 %12".into(),
            None,
        ),
        (
            "Image2D",
            "ImageComputeLod vec2<f32> %21 %22 %13".into(),
            Some((ty, 2)),
        ),
    ];
    for (kind, code, want) in cases {
        let b = crate::text::parse(&text(kind, &code)).expect("parse");
        let got: Vec<_> = errors(&b, Level::Structural)
            .iter()
            .map(|e| (e.rule, e.operand.unwrap_or(usize::MAX)))
            .collect();
        assert_eq!(got, Vec::from_iter(want), "{kind} {code}");
    }
}
