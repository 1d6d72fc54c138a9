//! Mesh and amplification shaders, and the inputs pixel shaders read per vertex or primitive.

use super::*;

/// A shader of `stage` with the declarations `decls` (from `%8` on) and `code` at `%20`.
fn program(stage: &str, decls: &str, code: &str) -> String {
    format!(
        "%1 = EntryPoint %3 {stage}
%2 = SetCsWorkgroupSize %1 32 1 1
{decls}
%10 = Constant u32 0
%11 = Constant u32 3
%12 = Constant vec3<u32> 0 1 2
%13 = Constant vec4<f32> 0.0 0.0 0.0 1.0
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
fn a_mesh_shader_writes_its_two_output_streams() {
    let decls = "%8 = SetMsOutputs %1 64 126 Triangle
%9 = DclOutputBuiltIn vec4<f32>[64] %1 Position 0
%21 = DclOutputBuiltIn vec3<u32>[126] %1 PrimitiveIndices 1
%22 = DclOutputBuiltIn bool[126] %1 CullPrimitive 1
%23 = DclOutputBuiltIn u32[126] %1 PrimitiveId 1
%24 = DclOutput vec4<f32>[64] %1 0 0 0
%25 = DclOutput vec4<f32>[126] %1 1 0 1
%26 = DclMeshPayload u32[4] %1";
    for code in [
        "MeshSetOutputCounts void %11 %11",
        "OutputStore void %9 %10 %13",
        "OutputStore void %21 %10 %12",
        "OutputStore void %25 %11 %13",
        "LdsLoad u32 %26 %10",
    ] {
        assert_eq!(rules("Mesh", decls, code), [], "{code}");
    }
    // Only mesh shaders have these.
    let errs = rules(
        "Compute",
        "%8 = SetMsOutputs %1 64 126 Triangle",
        "DispatchMesh void %11 %11 %11",
    );
    assert_eq!(errs, [(Rule::OpStage, 8), (Rule::OpStage, 20)]);
    let errs = rules("Compute", "", "MeshSetOutputCounts void %11 %11");
    assert_eq!(errs, [(Rule::OpStage, 20)]);
}

#[test]
fn mesh_outputs_are_arrays_in_the_stream_of_their_kind() {
    for (decl, rule) in [
        // Per-primitive built-ins in stream 1, per-vertex ones in stream 0.
        (
            "DclOutputBuiltIn u32[8] %1 PrimitiveId 0",
            Rule::LiteralValue,
        ),
        (
            "DclOutputBuiltIn vec4<f32>[8] %1 Position 1",
            Rule::LiteralValue,
        ),
        (
            "DclOutputBuiltIn vec3<u32>[8] %1 PrimitiveIndices 0",
            Rule::LiteralValue,
        ),
        ("DclOutput vec4<f32>[8] %1 0 0 2", Rule::LiteralValue),
        // One element per vertex or primitive.
        ("DclOutput vec4<f32> %1 0 0 0", Rule::ResultType),
        ("DclOutputBuiltIn bool %1 CullPrimitive 1", Rule::ResultType),
    ] {
        let decls = format!("%8 = {decl}");
        assert_eq!(
            rules("Mesh", &decls, "MeshSetOutputCounts void %11 %11"),
            [(rule, 8)],
            "{decl}"
        );
    }
    // Output limits and topology.
    for (mode, bad) in [
        ("SetMsOutputs %1 256 256 Line", false),
        ("SetMsOutputs %1 257 1 Triangle", true),
        ("SetMsOutputs %1 3 300 Triangle", true),
        ("SetMsOutputs %1 3 1 Point", true),
        ("SetMsOutputs %1 3 1 Patch3", true),
    ] {
        let errs = rules(
            "Mesh",
            &format!("%8 = {mode}"),
            "MeshSetOutputCounts void %11 %11",
        );
        let want: &[(Rule, u32)] = if bad { &[(Rule::LiteralValue, 8)] } else { &[] };
        assert_eq!(errs, want, "{mode}");
    }
}

#[test]
fn only_the_amplification_shader_writes_the_payload() {
    let decls = "%8 = DclMeshPayload u32[4] %1";
    for code in [
        "LdsStore void %8 %10 %11",
        "LdsAtomic u32 %8 %10 %11 Add",
        "DispatchMesh void %11 %10 %10",
    ] {
        assert_eq!(rules("Amplification", decls, code), [], "{code}");
    }
    for code in ["LdsStore void %8 %10 %11", "LdsAtomic void %8 %10 %11 Or"] {
        assert_eq!(rules("Mesh", decls, code), [(Rule::OpStage, 20)], "{code}");
    }
    let two = "%8 = DclMeshPayload u32[4] %1\n%9 = DclMeshPayload f32 %1";
    assert_eq!(
        rules("Amplification", two, "DispatchMesh void %11 %10 %10"),
        [(Rule::MeshPayloadCount, 9)]
    );
    assert_eq!(
        rules("Vertex", decls, "DispatchMesh void %11 %10 %10"),
        // The workgroup size, the payload and the dispatch.
        [(Rule::OpStage, 2), (Rule::OpStage, 8), (Rule::OpStage, 20)]
    );
}

#[test]
fn inputs_read_per_vertex_or_primitive() {
    let ps = |decl: &str| {
        let text = format!(
            "%1 = EntryPoint %3 Pixel
%8 = {decl}
%3 = Function void
%5 = Label None
%6 = Return void null
%7 = FunctionEnd
"
        );
        text_errors(&text, Level::Lowered)
    };
    for ok in [
        "DclInput vec4<f32>[3] %1 0 0 PerVertex",
        "DclInput u32[3] %1 1 0 Flat|PerVertex",
        "DclInput vec4<f32> %1 2 0 PerPrimitive",
        "DclInput i32 %1 3 0 Flat|PerPrimitive",
    ] {
        assert_eq!(ps(ok), [], "{ok}");
    }
    for (bad, rule) in [
        ("DclInput vec4<f32> %1 0 0 PerVertex", Rule::ResultType),
        ("DclInput vec4<f32>[4] %1 0 0 PerVertex", Rule::ResultType),
        (
            "DclInput vec4<f32>[3] %1 0 0 Centroid|PerVertex",
            Rule::LiteralValue,
        ),
        (
            "DclInput vec4<f32> %1 0 0 Sample|PerPrimitive",
            Rule::LiteralValue,
        ),
        (
            "DclInput vec4<f32>[3] %1 0 0 PerVertex|PerPrimitive",
            Rule::LiteralValue,
        ),
        (
            "DclInputBuiltIn vec3<f32> %1 Barycentrics PerVertex",
            Rule::OpStage,
        ),
    ] {
        assert_eq!(ps(bad), [(rule, 8)], "{bad}");
    }
    // Only pixel shaders read inputs so.
    let vs = "%1 = EntryPoint %3 Vertex
%8 = DclInput vec4<f32>[3] %1 0 0 PerVertex
%3 = Function void
%5 = Label None
%6 = Return void null
%7 = FunctionEnd
";
    assert_eq!(text_errors(vs, Level::Lowered), [(Rule::OpStage, 8)]);
}
