//! Inputs the fuzzers found crashing or miscompiling, kept as regression tests. Each must
//! compile to an error or to SPIR-V that `spirv-val` accepts (checked when installed).

// Tests may unwrap, panic and print (production code may not: see the workspace lints).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::print_stdout,
    clippy::print_stderr
)]
/// A DXBC input the fuzzers found, kept in `tests/fuzz_inputs/dxbc/`.
fn input(name: &str) -> Vec<u8> {
    let path = std::path::Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fuzz_inputs/dxbc"
    ))
    .join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// A Direct3D 9 input the fuzzers or the mutation test found, kept in
/// `tests/fuzz_inputs/d3d9/`.
fn d3d9_input(name: &str) -> Vec<u8> {
    let path = std::path::Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fuzz_inputs/d3d9"
    ))
    .join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

// Mutation test (a token of a vs_3_0 shader changed): `mad r1.x, r0.x, c3.x, r1.x` in a
// `rep`, with r0 never written (so 0): constant folding made the loop phi of r1.x name
// itself (`phi(init, phi)`), which the validator rejects. Such a phi is now replaced by its
// other value.
#[test]
fn loop_phi_folding_to_itself_is_removed() {
    let input = d3d9_input("loop_phi_folds_to_itself.d3d9");
    let mut opts = dxspv::Options::default();
    opts.passes.validate_each_pass = true;
    let out = dxspv::compile(&input, &opts).expect("compiles");
    assert_spirv_valid("loop-phi", &out);
}

fn check(name: &str, input: &[u8]) {
    let mut opts = dxspv::Options::default();
    opts.passes.validate_each_pass = true;
    check_result(name, dxspv::compile(input, &opts));
}

/// An error must not be a pass leaving invalid IR (what `validate_each_pass` catches); SPIR-V
/// must pass `spirv-val` (when installed).
fn check_result(name: &str, result: Result<dxspv::Output, dxspv::Error>) {
    let out = match result {
        Ok(out) => out,
        Err(dxspv::Error::Pass(e @ dxspv::ir::passes::PassError::Validation { pass, .. }, _))
            if pass != "input" =>
        {
            panic!("{name}: pass {pass} left invalid IR: {e}")
        }
        Err(_) => return,
    };
    assert_spirv_valid(name, &out);
}

/// Asserts that `spirv-val` (when installed) accepts the SPIR-V of `out`.
fn assert_spirv_valid(name: &str, out: &dxspv::Output) {
    dxspv_testkit::assert_spirv_valid(name, &out.spirv);
}

#[test]
fn emit_outside_a_geometry_shader_is_an_error() {
    let input = input("emit_outside_geometry.dxbc");
    assert!(!input.is_empty());
    match dxspv::compile(&input, &dxspv::Options::default()) {
        Ok(_) => panic!("expected an error"),
        Err(e) => assert!(e.to_string().contains("only allowed in"), "{e}"),
    }
    check("emit", &input);
}

// `dxbc_convert` fuzz target: `if … else … else … endif` gave two `ScopedElse` for one if,
// which the structural validator rejects. A second `else` is now a conversion error.
#[test]
fn second_else_for_one_if_is_an_error() {
    let input = input("second_else.dxbc");
    assert!(!input.is_empty());
    match dxspv::to_ir(&input, dxspv::IrStage::Raw, &dxspv::Options::default()) {
        Ok(b) => {
            if let Err(e) =
                dxspv::ir::validate::validate(&b, dxspv::ir::validate::Level::Structural)
            {
                panic!("converter output is invalid: {e:?}");
            }
        }
        Err(e) => assert!(e.to_string().contains("second else"), "{e}"),
    }
    check("second-else", &input);
}

// `compile` fuzz target: a pixel shader whose output signature holds `SV_InstanceID` got the
// vertex-only `InstanceIndex` built-in. First fixed by making `SV_VertexID`/`SV_InstanceID`
// varyings outside vertex shader inputs; now a system value as a pixel shader output (other
// than targets, depth, coverage and stencil reference) is a conversion error.
#[test]
fn pixel_shader_instance_id_output_is_an_error() {
    let input = input("pixel_instance_id.dxbc");
    assert!(!input.is_empty());
    match dxspv::compile(&input, &dxspv::Options::default()) {
        Ok(_) => panic!("expected an error"),
        Err(e) => assert!(
            e.to_string()
                .contains("InstanceId is not valid as a Pixel shader output"),
            "{e}"
        ),
    }
    check("pixel-instance-id", &input);
}

// `compile` fuzz target: a compute shader writing an (undeclared) output register got an
// Output-storage variable, which Vulkan forbids in compute. Input and output registers are
// now conversion errors in compute shaders.
#[test]
fn compute_shader_output_register_is_an_error() {
    let input = input("compute_output_register.dxbc");
    assert!(!input.is_empty());
    match dxspv::compile(&input, &dxspv::Options::default()) {
        Ok(_) => panic!("expected an error"),
        Err(e) => assert!(
            e.to_string().contains("do not exist in compute shaders"),
            "{e}"
        ),
    }
    check("compute-output", &input);
}

// `compile` fuzz target: a hull shader whose output signature holds
// `SV_ViewportArrayIndex` got the `ViewportIndex` built-in, which Vulkan forbids in
// tessellation control shaders. System values are now built-ins only where the system makes or
// consumes them (a per-stage table); elsewhere they are varyings or, where meaningless, errors.
#[test]
fn hull_shader_viewport_index_is_a_varying() {
    let input = input("hull_viewport_index.dxbc");
    assert!(!input.is_empty());
    let out = match dxspv::compile(&input, &dxspv::Options::default()) {
        Ok(out) => out,
        Err(e) => panic!("expected it to compile: {e}"),
    };
    assert!(
        out.reflection
            .outputs
            .iter()
            .all(|v| v.builtin != Some("ViewportIndex")),
        "{:?}",
        out.reflection.outputs
    );
    check("hull-viewport-index", &input);
}

// `compile` fuzz target: a pixel shader whose `SV_Target0` signature mask had a hole (`x_zw`)
// while `dcl_output o0.xyzw` declared all four: the element's variable spanned `y` and a
// second variable for `y` took the same location. Signature masks with holes are now errors.
#[test]
fn signature_mask_with_a_hole_is_an_error() {
    let input = input("target_mask_with_hole.dxbc");
    assert!(!input.is_empty());
    match dxspv::compile(&input, &dxspv::Options::default()) {
        Ok(_) => panic!("expected an error"),
        Err(e) => assert!(e.to_string().contains("non-adjacent components"), "{e}"),
    }
    check("target-mask-hole", &input);
}

// `compile` fuzz target: a vertex shader declaring `dcl_output vPrim1.w` got the
// `PrimitiveId` built-in (needs the Geometry capability, and Vulkan has none in vertex
// shaders). Special registers are now checked against the stage's table of built-ins.
#[test]
fn vertex_shader_primitive_id_register_is_an_error() {
    let input = input("vertex_primitive_id.dxbc");
    assert!(!input.is_empty());
    match dxspv::compile(&input, &dxspv::Options::default()) {
        Ok(_) => panic!("expected an error"),
        Err(e) => assert!(
            e.to_string()
                .contains("special register vPrim does not exist in Vertex shaders"),
            "{e}"
        ),
    }
    check("vertex-primitive-id", &input);
}

// `compile` fuzz target: a pixel shader writing the undeclared output `o2147483648` got a
// varying at that location, which wrapped onto `o0`. I/O registers past Direct3D's 32 per file
// are now errors.
#[test]
fn output_register_past_32_is_an_error() {
    let input = input("huge_output_register.dxbc");
    assert!(!input.is_empty());
    match dxspv::compile(&input, &dxspv::Options::default()) {
        Ok(_) => panic!("expected an error"),
        Err(e) => assert!(
            e.to_string()
                .contains("I/O register 2147483648 is past Direct3D's 32 registers"),
            "{e}"
        ),
    }
    check("huge-output-register", &input);
}

// `compile` fuzz target: a geometry shader without `dcl_inputprimitive` gave an entry point
// without an input primitive mode. The converter now refuses it; the backend refuses IR
// without exactly one `SetGsInputPrimitive`.
#[test]
fn geometry_shader_without_input_primitive_is_an_error() {
    let input = input("gs_without_input_primitive.dxbc");
    assert!(!input.is_empty());
    match dxspv::compile(&input, &dxspv::Options::default()) {
        Ok(_) => panic!("expected an error"),
        Err(e) => assert!(
            e.to_string()
                .contains("geometry shader without dcl_inputprimitive"),
            "{e}"
        ),
    }
    check("gs-without-input-primitive", &input);
}

// `compile` fuzz target: `atomic_iadd` on a typed UAV declared with unorm elements gave
// `OpAtomicIAdd` with a float result. Atomics on typed UAVs of non-32-bit-integer elements are
// now conversion errors (and the backend refuses image atomics on non-integer texels).
#[test]
fn atomic_on_a_float_typed_uav_is_an_error() {
    let input = input("atomic_on_float_uav.dxbc");
    assert!(!input.is_empty());
    match dxspv::compile(&input, &dxspv::Options::default()) {
        Ok(_) => panic!("expected an error"),
        Err(e) => assert!(
            e.to_string().contains("atomics need 32-bit integers"),
            "{e}"
        ),
    }
    check("atomic-on-float-uav", &input);
}

// `compile` fuzz target: an `if`/`else` whose arms compute only discarded values (`imul null`)
// lost both arms to DCE and cfg_cleanup, leaving `OpBranchConditional %c %m %m` (SPIR-V 1.6
// forbids equal labels). cfg_cleanup now turns such a header into a plain branch.
#[test]
fn if_with_emptied_arms_compiles_to_valid_spirv() {
    let input = input("if_with_emptied_arms.dxbc");
    assert!(!input.is_empty());
    if let Err(e) = dxspv::compile(&input, &dxspv::Options::default()) {
        panic!("expected it to compile: {e}");
    }
    check("if-with-emptied-arms", &input);
}

// From the `compile` fuzz target: nested loops after a `ret`, the inner one with code after an
// unconditional `continue` (a dead block entering the unreachable loop).
#[test]
fn dead_code_after_continue_keeps_every_pass_valid() {
    let input = input("dead_code_after_continue.dxbc");
    assert!(!input.is_empty());
    let mut opts = dxspv::Options::default();
    opts.passes.validate_each_pass = true;
    if let Err(e) = dxspv::compile(&input, &opts) {
        panic!("expected it to compile with validation after every pass: {e}");
    }
    check("dead-code-after-continue", &input);
}

// `pipeline` fuzz target: a `ret` in the middle of a loop body left the rest of the body and an
// inner loop unreachable; SSA construction followed their edges and read a phi placed later in
// program order (validation after ssa_construction: forward reference). Reads in unreachable
// blocks are now `Undef`.
#[test]
fn unreachable_loop_after_ret_keeps_every_pass_valid() {
    let input = input("unreachable_loop_after_ret.dxbc");
    assert!(!input.is_empty());
    let mut opts = dxspv::Options::default();
    opts.passes.validate_each_pass = true;
    if let Err(e) = dxspv::compile(&input, &opts) {
        panic!("expected it to compile with validation after every pass: {e}");
    }
    check("unreachable-loop-after-ret", &input);
}

// `compile` fuzz target: `dcl_maxout` in a compute shader gave an `OutputVertices` execution
// mode without the Geometry capability. Stage-specific declarations (geometry, hull/domain,
// pixel input, thread group and TGSM) are now checked like stage-specific instructions.
#[test]
fn geometry_declaration_in_compute_is_an_error() {
    let input = input("compute_maxout.dxbc");
    assert!(!input.is_empty());
    match dxspv::compile(&input, &dxspv::Options::default()) {
        Ok(_) => panic!("expected an error"),
        Err(e) => assert!(
            e.to_string()
                .contains("`dcl_maxout` is only allowed in Geometry shaders"),
            "{e}"
        ),
    }
    check("compute-maxout", &input);
}

// `compile` fuzz target: `gather4` on a `texture1darray` gave `OpImageGather` on a 1D image,
// which Vulkan forbids. Gathers need a 2D, 2D array, cube or cube array texture (converter
// error; the backend refuses such IR too).
#[test]
fn gather_from_a_1d_texture_is_an_error() {
    let input = input("gather_from_1d.dxbc");
    assert!(!input.is_empty());
    match dxspv::compile(&input, &dxspv::Options::default()) {
        Ok(_) => panic!("expected an error"),
        Err(e) => assert!(e.to_string().contains("gather needs a 2D"), "{e}"),
    }
    check("gather-from-1d", &input);
}

// `compile` fuzz target: a compute shader without `dcl_thread_group` gave an entry point
// without `LocalSize`, which Vulkan requires. The converter now refuses it (and a second or
// zero-sized thread group); the backend refuses compute IR without `SetCsWorkgroupSize`.
#[test]
fn compute_shader_without_thread_group_is_an_error() {
    let input = input("compute_without_thread_group.dxbc");
    assert!(!input.is_empty());
    match dxspv::compile(&input, &dxspv::Options::default()) {
        Ok(_) => panic!("expected an error"),
        Err(e) => assert!(
            e.to_string()
                .contains("compute shader without dcl_thread_group"),
            "{e}"
        ),
    }
    check("compute-without-thread-group", &input);
}

// `compile` fuzz target: a vertex shader whose output signature put `TEXCOORD1.zw` and
// `TEXCOORD3.xyz` in the same register gave two variables at location 3, component 2.
// Signature elements sharing a component are now conversion errors.
#[test]
fn overlapping_signature_elements_are_an_error() {
    let input = input("overlapping_output_elements.dxbc");
    assert!(!input.is_empty());
    match dxspv::compile(&input, &dxspv::Options::default()) {
        Ok(_) => panic!("expected an error"),
        Err(e) => assert!(e.to_string().contains("overlaps another element"), "{e}"),
    }
    check("overlapping-output-elements", &input);
}

// `compile` fuzz target: `store_uav_typed` on a structured UAV stored a vector into a
// structure pointer (spirv-val: OpStore type mismatch). Typed loads/stores need typed
// resources, raw/structured loads/stores raw or structured buffers.
#[test]
fn typed_store_to_a_structured_buffer_is_an_error() {
    let input = input("typed_store_to_structured.dxbc");
    assert!(!input.is_empty());
    match dxspv::compile(&input, &dxspv::Options::default()) {
        Ok(_) => panic!("expected an error"),
        Err(e) => assert!(
            e.to_string().contains("needs a typed buffer or texture"),
            "{e}"
        ),
    }
    check("typed-store-to-structured", &input);
}

// `compile` fuzz target: a thread-group `sync` outside a compute shader gave a workgroup
// `OpControlBarrier`, which Vulkan forbids there. Thread-group-scope syncs are now conversion
// errors outside compute shaders (the backend refuses such barriers too).
#[test]
fn group_sync_outside_compute_is_an_error() {
    let input = input("group_sync_outside_compute.dxbc");
    assert!(!input.is_empty());
    match dxspv::compile(&input, &dxspv::Options::default()) {
        Ok(_) => panic!("expected an error"),
        Err(e) => assert!(e.to_string().contains("thread-group scope"), "{e}"),
    }
    check("group-sync-outside-compute", &input);
}

// `compile` fuzz target: `store_raw` to a structured UAV addressed it with a single dword
// index, giving an access chain that stops at the structure (spirv-val: OpStore type
// mismatch). Raw ops need raw buffers (or raw TGSM), structured ops structured ones.
#[test]
fn raw_store_to_a_structured_buffer_is_an_error() {
    let input = input("raw_store_to_structured.dxbc");
    assert!(!input.is_empty());
    match dxspv::compile(&input, &dxspv::Options::default()) {
        Ok(_) => panic!("expected an error"),
        Err(e) => assert!(e.to_string().contains("needs a raw buffer"), "{e}"),
    }
    check("raw-store-to-structured", &input);
}

// `compile` fuzz target: a multisampled typed UAV gave `OpImageRead`/`OpImageWrite` without a
// sample operand. UAVs cannot be multisampled in Direct3D: now a declaration error (and `ld`
// vs `ldms` must match the texture's sample count).
#[test]
fn multisampled_uav_is_an_error() {
    let input = input("multisampled_uav.dxbc");
    assert!(!input.is_empty());
    match dxspv::compile(&input, &dxspv::Options::default()) {
        Ok(_) => panic!("expected an error"),
        Err(e) => assert!(
            e.to_string().contains("a UAV cannot be multisampled"),
            "{e}"
        ),
    }
    check("multisampled-uav", &input);
}

// `compile` fuzz target: `sample_c_lz` on a 3D texture gave a depth-compare sample on a 3D
// image, which Vulkan forbids. Depth comparisons on 3D textures are now conversion errors.
#[test]
fn compare_sample_on_a_3d_texture_is_an_error() {
    let input = input("compare_sample_3d.dxbc");
    assert!(!input.is_empty());
    match dxspv::compile(&input, &dxspv::Options::default()) {
        Ok(_) => panic!("expected an error"),
        Err(e) => assert!(e.to_string().contains("a 3D texture cannot"), "{e}"),
    }
    check("compare-sample-3d", &input);
}

// `compile` fuzz target: `ld` on a cube texture gave `OpImageFetch` on a cube image, which
// SPIR-V forbids. Texel loads from cube textures are now conversion errors.
#[test]
fn load_from_a_cube_texture_is_an_error() {
    let input = input("load_from_cube.dxbc");
    assert!(!input.is_empty());
    match dxspv::compile(&input, &dxspv::Options::default()) {
        Ok(_) => panic!("expected an error"),
        Err(e) => assert!(e.to_string().contains("from a cube texture"), "{e}"),
    }
    check("load-from-cube", &input);
}

// `compile` fuzz target: `samplepos` on a single-sampled 2D array texture gave
// `OpImageQuerySamples` on a non-multisampled image. `sampleinfo`/`samplepos` on a resource
// are valid only for multisampled textures (Direct3D's rule): now a conversion error.
#[test]
fn sample_count_of_a_single_sampled_texture_is_an_error() {
    let input = input("sample_query_single_sampled.dxbc");
    assert!(!input.is_empty());
    match dxspv::compile(&input, &dxspv::Options::default()) {
        Ok(_) => panic!("expected an error"),
        Err(e) => assert!(
            e.to_string()
                .contains("only multisampled textures have one"),
            "{e}"
        ),
    }
    check("sample-query-single-sampled", &input);
}

// `compile` fuzz target: `eval_sample_index` on an `SV_ViewportArrayIndex` input gave
// `InterpolateAtSample` on a uint built-in. `eval_*` now needs an interpolated float input.
#[test]
fn eval_on_an_integer_builtin_is_an_error() {
    let input = input("eval_on_integer_builtin.dxbc");
    assert!(!input.is_empty());
    match dxspv::compile(&input, &dxspv::Options::default()) {
        Ok(_) => panic!("expected an error"),
        Err(e) => assert!(
            e.to_string().contains("needs an interpolated float input"),
            "{e}"
        ),
    }
    check("eval-on-integer-builtin", &input);
}

// `compile` fuzz target: a hull shader whose patch-constant signature held an
// `SV_ClipDistance` element declared the `ClipDistance` built-in per patch; the control-point
// `SV_ClipDistance` output then reused that unarrayed variable (spirv-val: OpStore type
// mismatch). Per-patch values other than tessellation factors are now plain patch varyings.
#[test]
fn patch_constant_clip_distance_is_a_patch_varying() {
    let input = input("patch_constant_clip_distance.dxbc");
    assert!(!input.is_empty());
    if let Err(e) = dxspv::compile(&input, &dxspv::Options::default()) {
        panic!("expected it to compile: {e}");
    }
    check("patch-constant-clip-distance", &input);
}

// `compile` fuzz target: a hull shader whose control-point input signature marked an element
// `SV_PrimitiveID` declared `PrimitiveId` as a per-vertex array, clashing with the scalar
// built-in `vPrim` reads (spirv-val: OpLoad type mismatch). Per-vertex elements are never
// the primitive id; they are now plain varyings.
#[test]
fn per_vertex_primitive_id_is_a_varying() {
    let input = input("per_vertex_primitive_id.dxbc");
    assert!(!input.is_empty());
    if let Err(e) = dxspv::compile(&input, &dxspv::Options::default()) {
        panic!("expected it to compile: {e}");
    }
    check("per-vertex-primitive-id", &input);
}

/// Compiles IR text with validation after every pass; SPIR-V it returns must pass `spirv-val`
/// (when installed). Returns the error text, if any.
fn compile_ir_checked(name: &str, text: &str) -> Option<String> {
    let mut opts = dxspv::Options::default();
    opts.passes.validate_each_pass = true;
    match dxspv::compile_ir_text(text, &opts) {
        Ok(out) => {
            assert_spirv_valid(name, &out);
            None
        }
        Err(e) => Some(e.to_string()),
    }
}

/// `ir_compile` fuzz target: block-form IR text whose control flow breaks SPIR-V's structured
/// control flow or SSA dominance got past the input validation and came out as SPIR-V that
/// `spirv-val` rejects. The validator now refuses it: each case is a small loop with the
/// fault of one group of crashing inputs, and the rule it breaks (`body` and `cont` end the
/// loop body and the continue target, `after` follows the merge block).
#[test]
fn ir_text_breaking_structured_control_flow_is_refused() {
    let program = |body: &str, cont: &str, after: &str| {
        format!(
            "%1 = EntryPoint %2 Pixel
%3 = DclInput f32 %1 1 0 None
%4 = DclOutput f32 %1 0 0 0
%5 = Constant f32 0.5
%2 = Function void
%10 = Label None
%6 = InputLoad f32 %3 null
%7 = FLt bool %6 %5
%11 = Branch %12
%12 = Label %18 %16 StructuredLoop
%13 = Branch %14
%14 = Label None
{body}
%16 = Label None
{cont}
%18 = Label None
{after}
%19 = Return void null
%20 = FunctionEnd
"
        )
    };
    let cases = [
        (
            "phi-value-from-the-merge-block",
            program(
                "%15 = BranchConditional %7 %18 %16",
                "%17 = BranchConditional %7 %12 %18",
                "%31 = Phi f32 %14 %5 %16 %33\n%33 = FAdd f32 %6 %5\n%32 = OutputStore %4 null %31",
            ),
            "Phi value does not dominate its predecessor",
        ),
        (
            "value-of-the-loop-body-after-it",
            program(
                "%30 = FAdd f32 %6 %5\n%15 = Branch %16",
                "%17 = Branch %12",
                "%32 = OutputStore %4 null %30",
            )
            .replace("%13 = Branch %14", "%13 = BranchConditional %7 %14 %18"),
            "definition does not dominate its use",
        ),
        (
            "second-back-edge",
            program(
                "%15 = BranchConditional %7 %12 %16",
                "%17 = BranchConditional %7 %12 %18",
                "",
            ),
            "loop header needs exactly one back-edge block",
        ),
        (
            "back-edge-to-a-plain-block",
            program(
                "%15 = BranchConditional %7 %14 %16",
                "%17 = BranchConditional %7 %12 %18",
                "",
            ),
            "back edge to a block that is not a loop header",
        ),
        (
            "continue-target-after-the-loop",
            program(
                "%15 = BranchConditional %7 %18 %16",
                "%17 = Branch %12",
                "%30 = BranchConditional %7 %16 %31\n%31 = Label None",
            ),
            "branch to a continue target from outside its loop",
        ),
        (
            "into-the-loop-body-from-after-the-loop",
            program(
                "%15 = BranchConditional %7 %21 %18\n%21 = Label None\n%22 = Branch %16",
                "%17 = Branch %12",
                "%30 = BranchConditional %7 %21 %31\n%31 = Label None",
            ),
            "branch into a construct past its header",
        ),
    ];
    for (name, text, expected) in cases {
        let Some(err) = compile_ir_checked(name, &text) else {
            panic!("{name}: expected an error");
        };
        assert!(
            err.contains("after input") && err.contains(expected),
            "{name}: {err}"
        );
    }
    // The neighbour without a broken rule compiles.
    let fine = program(
        "%30 = FAdd f32 %6 %5\n%15 = BranchConditional %7 %18 %16",
        "%17 = Branch %12",
        "%31 = Phi f32 %14 %30\n%32 = OutputStore %4 null %31",
    )
    .replace("%31 = Phi f32 %14 %30", "%31 = Phi f32 %14 %30 %16 %5")
    .replace("%17 = Branch %12", "%17 = BranchConditional %7 %12 %18");
    if let Some(err) = compile_ir_checked("loop-with-phi", &fine) {
        panic!("expected it to compile: {err}");
    }
}

/// `ir_compile` fuzz target (IR text, fuzz/README.md rounds four and five): one input per kind
/// of failure found, kept as files in `tests/fuzz_inputs/ir_compile` (IR text is too long to
/// inline). Each must be refused — by input validation or with a pass error — or compile to
/// valid SPIR-V, with the validator run after every pass.
#[test]
fn ir_compile_inputs_are_refused_or_compile_to_valid_spirv() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fuzz_inputs/ir_compile");
    let mut n = 0;
    let mut opts = dxspv::Options::default();
    opts.passes.validate_each_pass = true;
    for entry in std::fs::read_dir(&dir).expect("the inputs directory") {
        let path = entry.expect("a directory entry").path();
        let bytes = std::fs::read(&path).expect("an input");
        let text = String::from_utf8_lossy(&bytes);
        let name = path
            .file_stem()
            .map_or_else(String::new, |s| s.to_string_lossy().into());
        check_result(&name, dxspv::compile_ir_text(&text, &opts));
        n += 1;
    }
    assert!(n >= 33, "{n} inputs in {}", dir.display());
}

// `compile` fuzz find: `dcl_thread_group` with dimensions near 2^32 overflowed the thread
// count (a debug-build panic) in the new Direct3D-limit check.
// `compile` fuzz find: `x0[258560]` of an indexable temp of three elements, a constant index
// past the end (the validator, newly checking constant addresses, refused the converter's IR).
// `compile` fuzz find: an input register array read at a constant index past its end.
#[test]
fn thread_groups_and_constant_indices_past_their_limits_are_errors() {
    for (name, hex, want) in [
        (
            "huge_group",
            "huge_thread_group.dxbc",
            "past Direct3D's limits",
        ),
        (
            "x_past_end",
            "indexable_temp_past_its_end.dxbc",
            "constant index 258560 is outside",
        ),
        (
            "v_past_end",
            "input_past_its_end.dxbc",
            "constant index 65536 is outside",
        ),
    ] {
        let input = input(hex);
        match dxspv::compile(&input, &dxspv::Options::default()) {
            Ok(_) => panic!("{name}: expected an error"),
            Err(e) => assert!(e.to_string().contains(want), "{name}: {e}"),
        }
        check(name, &input);
    }
}
