//! Mesh and amplification shaders, and the pixel shader inputs read per vertex or primitive:
//! every output declaration (each built-in, user outputs, both streams, assorted types and
//! array sizes) of a mesh shader, the payload, the output counts and the mesh dispatch, and
//! the `PerVertex`/`PerPrimitive` inputs of a pixel shader that the validator accepts at the
//! lowered level emit as SPIR-V that `spirv-val` accepts at every target, or are refused with
//! an error (a target without mesh shaders naming itself).

// Tests may unwrap, panic and print (production code may not: see the workspace lints).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::print_stdout,
    clippy::print_stderr
)]
mod common;

use dxspv_ir::validate::{validate, Level};
use dxspv_ir::BuiltIn;
use dxspv_spirv::{emit, SpirvError, SpirvOptions, TargetEnv};

/// Element types tried for outputs and inputs.
const ELEMENTS: &[&str] = &[
    "bool",
    "u32",
    "i32",
    "f32",
    "f16",
    "vec2<u32>",
    "vec3<u32>",
    "vec4<f32>",
    "f32[2]",
    "f64",
];

/// Checks `text` at every target: where the default target emits it, every other emits
/// SPIR-V `spirv-val` accepts or refuses it naming itself (any error of the default target
/// is the backend declining the input, which the contract allows). Returns the failures.
fn check(text: &str) -> Vec<String> {
    let b = dxspv_ir::text::parse(text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    if validate(&b, Level::Lowered).is_err() {
        return Vec::new();
    }
    let emit_for = |target| {
        let opts = SpirvOptions {
            target_env: target,
            ..SpirvOptions::default()
        };
        emit(&b, &opts)
    };
    if emit_for(TargetEnv::default()).is_err() {
        return Vec::new();
    }
    let mut failures = Vec::new();
    for target in TargetEnv::ALL {
        match emit_for(target) {
            Ok(words) => {
                if let Some(Err(msg)) = common::spirv_val_env(&words, target.spirv_val_name()) {
                    let first = msg.lines().next().unwrap_or("");
                    failures.push(format!("{target}: {first}\n{text}"));
                }
            }
            Err(e @ SpirvError::Unsupported { .. }) if e.to_string().contains(target.name()) => {}
            Err(e) => failures.push(format!("{target}: {e}\n{text}")),
        }
    }
    failures
}

/// A mesh shader of 8 vertices and 4 primitives (`topology`) declaring `decl` (`%8`) and
/// running `code` (may be empty); `%13` is an undefined value of `value` (if not empty).
fn mesh(topology: &str, decl: &str, value: &str, code: &str) -> String {
    let value = if value.is_empty() {
        String::new()
    } else {
        format!("%13 = Undef {value}\n")
    };
    format!(
        "%1 = EntryPoint %3 Mesh
%2 = SetCsWorkgroupSize %1 4 1 1
%4 = SetMsOutputs %1 8 4 {topology}
%8 = {decl}
%10 = Constant u32 0
%11 = Constant u32 3
{value}%3 = Function void
%5 = Label None
%12 = MeshSetOutputCounts void %11 %11
{code}%6 = Return void null
%7 = FunctionEnd
"
    )
}

#[test]
fn mesh_outputs_the_validator_accepts_emit_valid_spirv() {
    if common::spirv_val_env(&[], "vulkan1.3").is_none() {
        return println!("spirv-val not installed: nothing checked");
    }
    let (mut failures, mut valid) = (Vec::new(), 0);
    let mut decls = Vec::new();
    for bi in BuiltIn::ALL {
        // spirv-val 2023.1 wants `PrimitiveShadingRateKHR` a scalar even in a mesh shader,
        // where it is per primitive (GLSL's gl_MeshPrimitivesEXT[].gl_PrimitiveShadingRateEXT).
        if *bi == BuiltIn::ShadingRate {
            continue;
        }
        for e in ELEMENTS {
            for (n, stream) in [(8, 0), (4, 1), (4, 0), (8, 1)] {
                decls.push(format!("DclOutputBuiltIn {e}[{n}] %1 {bi} {stream}"));
            }
        }
    }
    for e in ELEMENTS {
        for (n, stream) in [(8, 0), (4, 1), (8, 1)] {
            decls.push(format!("DclOutput {e}[{n}] %1 1 0 {stream}"));
        }
    }
    for topology in ["Triangle", "Line"] {
        for d in &decls {
            let text = mesh(topology, d, "", "");
            let b = dxspv_ir::text::parse(&text).expect("parses");
            if validate(&b, Level::Lowered).is_err() {
                continue;
            }
            valid += 1;
            failures.extend(check(&text));
        }
    }
    assert!(valid > 50, "only {valid} declarations are valid IR");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn mesh_code_and_payloads_emit_valid_spirv() {
    let cases = [
        // Stores to each stream.
        mesh(
            "Triangle",
            "DclOutputBuiltIn vec3<u32>[4] %1 PrimitiveIndices 1",
            "vec3<u32>",
            "%14 = OutputStore void %8 %10 %13\n",
        ),
        mesh(
            "Line",
            "DclOutputBuiltIn vec2<u32>[4] %1 PrimitiveIndices 1",
            "vec2<u32>",
            "%14 = OutputStore void %8 %11 %13\n",
        ),
        mesh(
            "Triangle",
            "DclOutput vec4<f32>[4] %1 0 0 1",
            "vec4<f32>",
            "%14 = OutputStore void %8 %10 %13\n",
        ),
        mesh(
            "Triangle",
            "DclOutputBuiltIn bool[4] %1 CullPrimitive 1",
            "bool",
            "%14 = OutputStore void %8 %11 %13\n",
        ),
        // The payload, read.
        mesh(
            "Triangle",
            "DclMeshPayload u32[8] %1",
            "",
            "%14 = LdsLoad u32 %8 %11\n",
        ),
        // An amplification shader's payload, written, and its dispatch.
        "%1 = EntryPoint %3 Amplification
%2 = SetCsWorkgroupSize %1 4 1 1
%8 = DclMeshPayload vec4<f32>[2] %1
%10 = Constant u32 1
%11 = Undef vec4<f32>
%12 = Undef i32
%3 = Function void
%5 = Label None
%13 = LdsStore void %8 %10 %11
%14 = DispatchMesh void %12 %10 %10
%6 = Return void null
%7 = FunctionEnd
"
        .to_string(),
        // No dispatch: no mesh workgroups.
        "%1 = EntryPoint %3 Amplification
%2 = SetCsWorkgroupSize %1 4 1 1
%3 = Function void
%5 = Label None
%6 = Return void null
%7 = FunctionEnd
"
        .to_string(),
    ];
    let mut failures = Vec::new();
    for text in &cases {
        let b = dxspv_ir::text::parse(text).expect("parses");
        if let Err(e) = validate(&b, Level::Lowered) {
            panic!("{e:?}\n{text}");
        }
        let b = emit(&b, &SpirvOptions::default());
        assert!(b.is_ok(), "{b:?}\n{text}");
        failures.extend(check(text));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn mesh_outputs_must_have_the_declared_counts() {
    // An output array of another size than its stream's count, or indices of the other
    // topology, are refused (Direct3D's arrays define the counts).
    for (topology, decl) in [
        ("Triangle", "DclOutput vec4<f32>[4] %1 0 0 0"),
        ("Triangle", "DclOutputBuiltIn u32[8] %1 PrimitiveId 1"),
        (
            "Line",
            "DclOutputBuiltIn vec3<u32>[4] %1 PrimitiveIndices 1",
        ),
        (
            "Triangle",
            "DclOutputBuiltIn vec2<u32>[4] %1 PrimitiveIndices 1",
        ),
    ] {
        let text = mesh(topology, decl, "", "");
        let b = dxspv_ir::text::parse(&text).expect("parses");
        assert!(validate(&b, Level::Lowered).is_ok(), "{decl}");
        let err = emit(&b, &SpirvOptions::default()).expect_err(decl);
        assert!(matches!(err, SpirvError::Malformed { .. }), "{decl}: {err}");
    }
}

#[test]
fn pixel_inputs_read_per_vertex_or_primitive_emit_valid_spirv() {
    if common::spirv_val_env(&[], "vulkan1.3").is_none() {
        return println!("spirv-val not installed: nothing checked");
    }
    let mut failures = Vec::new();
    let mut valid = 0;
    for e in ELEMENTS {
        for (dims, modes) in [
            ("[3]", "PerVertex"),
            ("[3]", "Flat|PerVertex"),
            ("", "PerPrimitive"),
            ("", "Flat|PerPrimitive"),
            ("[2]", "PerPrimitive"),
        ] {
            for load in ["", "%12 = InputLoad ELEM %8 ADDR\n"] {
                let elem = e.to_string();
                let addr = if dims == "[3]" { "%11" } else { "null" };
                let code = load.replace("ELEM", &elem).replace("ADDR", addr);
                let text = format!(
                    "%1 = EntryPoint %3 Pixel
%8 = DclInput {e}{dims} %1 0 0 {modes}
%11 = Constant u32 2
%3 = Function void
%5 = Label None
{code}%6 = Return void null
%7 = FunctionEnd
"
                );
                let b = dxspv_ir::text::parse(&text).expect("parses");
                if validate(&b, Level::Lowered).is_err() {
                    continue;
                }
                valid += 1;
                failures.extend(check(&text));
            }
        }
    }
    assert!(valid > 20, "only {valid} inputs are valid IR");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn a_mesh_shader_of_no_vertices_or_primitives_declares_one_of_each() {
    // Direct3D allows `[outputtopology] numverts 0, numprims 0` (a shader that outputs
    // nothing); Vulkan wants OutputVertices and OutputPrimitivesEXT above 0.
    let text = "%1 = EntryPoint %3 Mesh
%2 = SetCsWorkgroupSize %1 4 1 1
%4 = SetMsOutputs %1 0 0 Triangle
%10 = Constant u32 0
%3 = Function void
%5 = Label None
%12 = MeshSetOutputCounts void %10 %10
%6 = Return void null
%7 = FunctionEnd
";
    let b = dxspv_ir::text::parse(text).expect("parses");
    assert!(validate(&b, Level::Lowered).is_ok());
    let words = emit(&b, &SpirvOptions::default()).expect("emits");
    let Some(dis) = common::spirv_dis(&words) else {
        return println!("spirv-dis not installed: nothing checked");
    };
    assert!(dis.contains("OutputVertices 1"), "{dis}");
    assert!(
        dis.contains("OutputPrimitivesNV 1") || dis.contains("OutputPrimitivesEXT 1"),
        "{dis}"
    );
    if let Some(Err(msg)) = common::spirv_val_env(&words, "vulkan1.3") {
        panic!("{msg}\n{dis}");
    }
    assert!(check(text).is_empty());
}
