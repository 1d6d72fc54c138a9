//! Converter unit tests: tiny programs built with the token writer, one group per family.
//! Each conversion is printed as IR text (asserting on the relevant lines) and must pass the
//! structural validator.

use crate::opcode::Opcode as O;
use crate::operand::OperandType as T;
use crate::testutil::*;
use crate::Shader;
use dxspv_ir::{validate, Level};

pub(super) const PS: u32 = 0;
const VS: u32 = 1;
const GS: u32 = 2;
const HS: u32 = 3;
const DS: u32 = 4;
const CS: u32 = 5;

/// Signature rows: (name, index, sysval, type, register, mask, rw).
pub(super) type Rows<'a> = &'a [(&'a str, u32, u32, u32, u32, u8, u8)];

pub(super) fn container_for(
    stage: u32,
    minor: u32,
    body: &[Vec<u32>],
    sigs: &[(&[u8; 4], Rows<'_>)],
) -> Vec<u8> {
    let mut parts: Vec<(&[u8; 4], Vec<u8>)> = sigs
        .iter()
        .map(|(cc, rows)| (*cc, signature(rows)))
        .collect();
    // A compute shader needs its thread group size; tests that do not state one get 1x1x1.
    let group = op_token(O::DclThreadGroup, 4, 0);
    let mut body = body.to_vec();
    if stage == CS && !body.iter().any(|i| i.first() == Some(&group)) {
        body.insert(0, vec![group, 1, 1, 1]);
    }
    parts.push((b"SHEX", program(stage, 5, minor, &body)));
    container(&parts)
}

/// Converts a program and returns its IR text; panics if conversion or validation fails.
fn ir_sig(stage: u32, minor: u32, body: &[Vec<u32>], sigs: &[(&[u8; 4], Rows<'_>)]) -> String {
    let bytes = container_for(stage, minor, body, sigs);
    let shader = Shader::parse(&bytes).expect("parses");
    let b = match super::convert(&shader) {
        Ok(b) => b,
        Err(e) => panic!("conversion failed: {e}"),
    };
    let text = dxspv_ir::text::print(&b);
    if let Err(errs) = validate(&b, Level::Structural) {
        let list: Vec<String> = errs.iter().map(|e| e.to_string()).collect();
        panic!("invalid IR:\n{}\n{text}", list.join("\n"));
    }
    text
}

fn ir(stage: u32, body: &[Vec<u32>]) -> String {
    ir_sig(stage, 0, body, &[])
}

fn err(stage: u32, body: &[Vec<u32>]) -> super::ConvertError {
    let bytes = container_for(stage, 0, body, &[]);
    let shader = Shader::parse(&bytes).expect("parses");
    match super::convert(&shader) {
        Ok(b) => panic!("expected an error, got:\n{}", dxspv_ir::text::print(&b)),
        Err(e) => e,
    }
}

/// True if `needle` occurs in `line` at `at`, where `#` in the needle stands for `%<digits>`.
fn matches_at(line: &[u8], needle: &[u8]) -> bool {
    let (mut i, mut j) = (0, 0);
    while j < needle.len() {
        if needle[j] == b'#' {
            if line.get(i) != Some(&b'%') {
                return false;
            }
            i += 1;
            let start = i;
            while line.get(i).is_some_and(u8::is_ascii_digit) {
                i += 1;
            }
            if i == start {
                return false;
            }
        } else {
            if line.get(i) != Some(&needle[j]) {
                return false;
            }
            i += 1;
        }
        j += 1;
    }
    true
}

/// Asserts that every needle occurs in one line of the text; `#` in a needle matches any
/// `%<id>`.
#[track_caller]
pub(super) fn has(text: &str, needles: &[&str]) {
    for n in needles {
        let found = text
            .lines()
            .any(|l| (0..l.len()).any(|at| matches_at(&l.as_bytes()[at..], n.as_bytes())));
        assert!(found, "missing `{n}` in:\n{text}");
    }
}

/// Appends words to an instruction, fixing its length field.
fn plus(mut v: Vec<u32>, extra: &[u32]) -> Vec<u32> {
    v.extend_from_slice(extra);
    let len = v.len() as u32;
    v[0] = (v[0] & !(0x7f << 24)) | (len << 24);
    v
}

pub(super) fn temps(n: u32) -> Vec<u32> {
    vec![op_token(O::DclTemps, 2, 0), n]
}

fn ret() -> Vec<u32> {
    inst(O::Ret, 0, &[], &[])
}

fn r(reg: u32, mask: u32) -> Vec<u32> {
    dst(T::Temp, reg, mask)
}

fn rs(reg: u32, swz: [u32; 4]) -> Vec<u32> {
    src(T::Temp, reg, swz)
}

fn o(reg: u32, mask: u32) -> Vec<u32> {
    dst(T::Output, reg, mask)
}

fn one(ty: T, sel: Sel, i: u32) -> Vec<u32> {
    operand(ty, sel, &[Idx::Imm(i)], None)
}

/// A source register with an extended operand token (modifier / min precision).
fn rs_ext(reg: u32, swz: [u32; 4], modifier: u32, min_precision: u32) -> Vec<u32> {
    operand(
        T::Temp,
        Sel::Swz(swz),
        &[Idx::Imm(reg)],
        Some(1 | (modifier << 6) | (min_precision << 14)),
    )
}

fn dcl_output_siv(reg: u32, mask: u32, sv: u32) -> Vec<u32> {
    plus(inst(O::DclOutputSiv, 0, &[], &[o(reg, mask)]), &[sv])
}

fn dcl_texture2d(reg: u32) -> Vec<u32> {
    plus(
        inst(O::DclResource, 3, &[], &[one(T::Resource, Sel::Zero, reg)]),
        &[0x5555],
    )
}

fn dcl_sampler(reg: u32, mode: u32) -> Vec<u32> {
    inst(O::DclSampler, mode, &[], &[one(T::Sampler, Sel::Zero, reg)])
}

const XYZW: [u32; 4] = [0, 1, 2, 3];
const XXXX: [u32; 4] = [0, 0, 0, 0];

// ---------------------------------------------------------------------------------------------
// Stages and modes
// ---------------------------------------------------------------------------------------------

#[test]
fn vertex_shader_has_entry_point_and_function() {
    let t = ir(VS, &[ret()]);
    has(
        &t,
        &[
            "EntryPoint %",
            " Vertex",
            "DebugName %1 \"main\"",
            "Function void",
            "Label None",
            "Return void null",
            "FunctionEnd",
        ],
    );
}

#[test]
fn compute_workgroup_size_and_tgsm() {
    let t = ir(
        CS,
        &[
            vec![op_token(O::DclThreadGroup, 4, 0), 8, 4, 1],
            plus(
                inst(
                    O::DclThreadGroupSharedMemoryRaw,
                    0,
                    &[],
                    &[one(T::ThreadGroupSharedMemory, Sel::Zero, 0)],
                ),
                &[64],
            ),
            plus(
                inst(
                    O::DclThreadGroupSharedMemoryStructured,
                    0,
                    &[],
                    &[one(T::ThreadGroupSharedMemory, Sel::Zero, 1)],
                ),
                &[8, 16],
            ),
            ret(),
        ],
    );
    has(
        &t,
        &[
            "SetCsWorkgroupSize %1 8 4 1",
            "DclLds u32[16] %1",
            "DclLds u32[2][16] %1",
            " Compute",
        ],
    );
}

#[test]
fn geometry_shader_modes_and_streams() {
    let t = ir(
        GS,
        &[
            inst(O::DclGsInputPrimitive, 3, &[], &[]),
            inst(O::DclGsOutputPrimitiveTopology, 5, &[], &[]),
            vec![op_token(O::DclMaxOutputVertexCount, 2, 0), 3],
            vec![op_token(O::DclGsInstanceCount, 2, 0), 2],
            inst(O::DclStream, 0, &[], &[one(T::Stream, Sel::Zero, 0)]),
            inst(
                O::DclInput,
                0,
                &[],
                &[operand(
                    T::Input,
                    Sel::Mask(0xf),
                    &[Idx::Imm(3), Idx::Imm(0)],
                    None,
                )],
            ),
            dcl_output_siv(0, 0xf, 1),
            inst(O::DclStream, 0, &[], &[one(T::Stream, Sel::Zero, 1)]),
            inst(
                O::Mov,
                0,
                &[],
                &[
                    o(0, 0xf),
                    operand(T::Input, Sel::Swz(XYZW), &[Idx::Imm(1), Idx::Imm(0)], None),
                ],
            ),
            inst(O::EmitStream, 0, &[], &[one(T::Stream, Sel::Zero, 0)]),
            inst(O::CutStream, 0, &[], &[one(T::Stream, Sel::Zero, 1)]),
            inst(O::EmitThenCut, 0, &[], &[]),
            ret(),
        ],
    );
    has(
        &t,
        &[
            "SetGsInputPrimitive %1 Triangle",
            "SetGsOutputPrimitive %1 Triangle 3",
            "SetGsOutputVertices %1 3",
            "SetGsInstances %1 2",
            "DclInput vec4<f32>[3] %1 0 0 None",
            "DclOutputBuiltIn vec4<f32> %1 Position 0",
            "Constant vec2<u32> 1 0",
            "EmitVertex 0",
            "EmitPrimitive 1",
        ],
    );
}

#[test]
fn global_flags_set_float_modes_and_early_depth() {
    // forceEarlyDepthStencil | enableDoublePrecisionFloatOps, no refactoringAllowed.
    let t = ir(PS, &[inst(O::DclGlobalFlags, 2 | 4, &[], &[]), ret()]);
    has(
        &t,
        &[
            "SetPsEarlyFragmentTest %1",
            "SetFpMode [precise] f32 %1 NearestEven Flush",
            "SetFpMode [precise] f64 %1 NearestEven Preserve",
        ],
    );
    let t = ir(PS, &[inst(O::DclGlobalFlags, 1 | 32, &[], &[]), ret()]);
    has(
        &t,
        &[
            "SetFpMode f32 %1 NearestEven Flush",
            "SetFpMode f16 %1 NearestEven Preserve",
        ],
    );
    assert!(!t.contains("SetPsEarlyFragmentTest"));
}

#[test]
fn conservative_depth_and_special_outputs() {
    let t = ir(
        PS,
        &[
            inst(
                O::DclOutput,
                0,
                &[],
                &[operand(T::OutputDepthGreaterEqual, Sel::One, &[], None)],
            ),
            inst(
                O::DclOutput,
                0,
                &[],
                &[operand(T::OutputCoverageMask, Sel::One, &[], None)],
            ),
            inst(
                O::DclOutput,
                0,
                &[],
                &[operand(T::OutputStencilRef, Sel::One, &[], None)],
            ),
            inst(
                O::Mov,
                0,
                &[],
                &[
                    operand(T::OutputDepthGreaterEqual, Sel::One, &[], None),
                    imm1(0x3f00_0000),
                ],
            ),
            inst(
                O::Mov,
                0,
                &[],
                &[operand(T::OutputCoverageMask, Sel::One, &[], None), imm1(3)],
            ),
            inst(
                O::Mov,
                0,
                &[],
                &[operand(T::OutputStencilRef, Sel::One, &[], None), imm1(7)],
            ),
            ret(),
        ],
    );
    has(
        &t,
        &[
            "SetPsDepthGreaterEqual %1",
            "DclOutputBuiltIn f32 %1 Depth 0",
            "DclOutputBuiltIn u32 %1 SampleMask 0",
            "DclOutputBuiltIn u32 %1 StencilRef 0",
            "OutputStore %",
        ],
    );
}

fn hull_program(body_cp: bool) -> Vec<Vec<u32>> {
    let mut v = vec![
        inst(O::HsDecls, 0, &[], &[]),
        inst(O::DclInputControlPointCount, 3, &[], &[]),
        inst(O::DclOutputControlPointCount, 3, &[], &[]),
        inst(O::DclTessDomain, 2, &[], &[]),
        inst(O::DclTessPartitioning, 3, &[], &[]),
        inst(O::DclTessOutputPrimitive, 3, &[], &[]),
        vec![op_token(O::DclHsMaxTessFactor, 2, 0), 16f32.to_bits()],
    ];
    if body_cp {
        v.push(inst(O::HsControlPointPhase, 0, &[], &[]));
        v.push(inst(
            O::DclInput,
            0,
            &[],
            &[operand(
                T::InputControlPoint,
                Sel::Mask(0xf),
                &[Idx::Imm(3), Idx::Imm(0)],
                None,
            )],
        ));
        v.push(inst(
            O::DclInput,
            0,
            &[],
            &[operand(T::OutputControlPointId, Sel::Zero, &[], None)],
        ));
        v.push(inst(O::DclOutput, 0, &[], &[o(0, 0xf)]));
        v.push(inst(
            O::Mov,
            0,
            &[],
            &[
                o(0, 0xf),
                operand(
                    T::InputControlPoint,
                    Sel::Swz(XYZW),
                    &[
                        Idx::Rel(operand(T::OutputControlPointId, Sel::One, &[], None)),
                        Idx::Imm(0),
                    ],
                    None,
                ),
            ],
        ));
        v.push(ret());
    }
    v.extend([
        inst(O::HsForkPhase, 0, &[], &[]),
        vec![op_token(O::DclHsForkPhaseInstanceCount, 2, 0), 3],
        inst(
            O::DclInput,
            0,
            &[],
            &[operand(T::InputForkInstanceId, Sel::Zero, &[], None)],
        ),
        dcl_output_siv(0, 1, 17),
        dcl_output_siv(1, 1, 18),
        dcl_output_siv(2, 1, 19),
        temps(1),
        plus(inst(O::DclIndexRange, 0, &[], &[o(0, 1)]), &[3]),
        inst(
            O::Mov,
            0,
            &[],
            &[
                r(0, 1),
                operand(T::InputForkInstanceId, Sel::One, &[], None),
            ],
        ),
        inst(
            O::Mov,
            0,
            &[],
            &[
                operand(T::Output, Sel::Mask(1), &[Idx::Rel(rs(0, XXXX))], None),
                imm1(4f32.to_bits()),
            ],
        ),
        ret(),
        inst(O::HsJoinPhase, 0, &[], &[]),
        dcl_output_siv(3, 1, 20),
        inst(O::Mov, 0, &[], &[o(3, 1), imm1(2f32.to_bits())]),
        ret(),
    ]);
    v
}

#[test]
fn hull_shader_phases_merge_into_patch_constant_function() {
    let t = ir_sig(
        HS,
        0,
        &hull_program(true),
        &[
            (b"ISGN", &[("SV_Position", 0, 1, 3, 0, 0xf, 0xf)]),
            (b"OSGN", &[("SV_Position", 0, 1, 3, 0, 0xf, 0)]),
            (
                b"PCSG",
                &[
                    ("SV_TessFactor", 0, 13, 3, 0, 1, 0),
                    ("SV_TessFactor", 1, 13, 3, 1, 1, 0),
                    ("SV_TessFactor", 2, 13, 3, 2, 1, 0),
                    ("SV_InsideTessFactor", 0, 14, 3, 3, 1, 0),
                ],
            ),
        ],
    );
    has(
        &t,
        &[
            " Hull",
            "SetTessDomain %1 Triangle",
            "SetTessPrimitive %1 Triangle Cw FractOdd",
            "SetTessControlPoints %1 3 3",
            "DclInputBuiltIn vec4<f32>[3] %1 Position None",
            "DclOutputBuiltIn vec4<f32>[3] %1 Position 0",
            "DclInputBuiltIn u32 %1 TessControlPointId None",
            "DclOutputBuiltIn f32[4] %1 TessFactorOuter 0",
            "DclOutputBuiltIn f32[2] %1 TessFactorInner 0",
            "DclParam u32",
            "ParamLoad u32",
            "ScopedSwitch",
            "FMin f32",
            "hs_control_point_phase",
            "hs_fork_phase0",
            "hs_join_phase1",
            "hs_patch_constant",
        ],
    );
    // Three fork instances and one join instance.
    assert_eq!(t.matches("FunctionCall void").count(), 4, "{t}");
}

#[test]
fn hull_shader_without_control_point_phase_passes_through() {
    let t = ir_sig(
        HS,
        0,
        &hull_program(false),
        &[
            (b"ISGN", &[("TEXCOORD", 0, 0, 3, 0, 0xf, 0xf)]),
            (b"OSGN", &[("TEXCOORD", 0, 0, 3, 0, 0xf, 0)]),
        ],
    );
    has(
        &t,
        &[
            "hs_control_point_passthrough",
            "DclInput vec4<f32>[3] %1 0 0 None",
            "DclOutput vec4<f32>[3] %1 0 0 0",
            "Semantic %",
        ],
    );
}

#[test]
fn domain_shader_reads_tess_coord_and_patch_constants() {
    let t = ir_sig(
        DS,
        0,
        &[
            inst(O::DclTessDomain, 3, &[], &[]),
            inst(O::DclInputControlPointCount, 4, &[], &[]),
            inst(
                O::DclInput,
                0,
                &[],
                &[operand(T::InputDomainPoint, Sel::Mask(3), &[], None)],
            ),
            inst(
                O::DclInput,
                0,
                &[],
                &[one(T::InputPatchConstant, Sel::Mask(1), 0)],
            ),
            dcl_output_siv(0, 0xf, 1),
            inst(
                O::Mov,
                0,
                &[],
                &[
                    o(0, 3),
                    operand(T::InputDomainPoint, Sel::Swz(XYZW), &[], None),
                ],
            ),
            inst(
                O::Mov,
                0,
                &[],
                &[o(0, 4), one(T::InputPatchConstant, Sel::Swz(XXXX), 0)],
            ),
            inst(
                O::Mov,
                0,
                &[],
                &[
                    o(0, 8),
                    operand(
                        T::InputControlPoint,
                        Sel::Swz(XXXX),
                        &[Idx::Imm(2), Idx::Imm(0)],
                        None,
                    ),
                ],
            ),
            ret(),
        ],
        &[
            (b"ISGN", &[("POS", 0, 0, 3, 0, 0xf, 0xf)]),
            (b"PCSG", &[("SV_TessFactor", 0, 11, 3, 0, 1, 1)]),
            (b"OSGN", &[("SV_Position", 0, 1, 3, 0, 0xf, 0)]),
        ],
    );
    has(
        &t,
        &[
            " Domain",
            "SetTessDomain %1 Quad",
            "DclInputBuiltIn vec3<f32> %1 TessCoord None",
            "DclInputBuiltIn f32[4] %1 TessFactorOuter None",
            "DclInput vec4<f32>[4] %1 0 0 None",
            "Constant vec2<u32> 2 0",
        ],
    );
}

// ---------------------------------------------------------------------------------------------
// I/O
// ---------------------------------------------------------------------------------------------

#[test]
fn signature_elements_become_typed_declarations_with_semantics() {
    let t = ir_sig(
        VS,
        0,
        &[
            inst(O::DclInput, 0, &[], &[dst(T::Input, 0, 0xf)]),
            inst(O::DclInput, 0, &[], &[dst(T::Input, 1, 3)]),
            plus(inst(O::DclInputSgv, 0, &[], &[dst(T::Input, 2, 1)]), &[6]),
            dcl_output_siv(0, 0xf, 1),
            inst(O::DclOutput, 0, &[], &[o(1, 3)]),
            inst(O::DclOutput, 0, &[], &[o(1, 0xc)]),
            inst(O::Mov, 0, &[], &[o(0, 0xf), src(T::Input, 0, XYZW)]),
            inst(O::Mov, 0, &[], &[o(1, 3), src(T::Input, 1, XYZW)]),
            inst(O::Utof, 0, &[], &[o(1, 4), src(T::Input, 2, XXXX)]),
            ret(),
        ],
        &[
            (
                b"ISGN",
                &[
                    ("POSITION", 0, 0, 3, 0, 0xf, 0xf),
                    ("TEXCOORD", 3, 0, 1, 1, 3, 3),
                    ("SV_VertexID", 0, 6, 1, 2, 1, 1),
                ],
            ),
            (
                b"OSGN",
                &[
                    ("SV_Position", 0, 1, 3, 0, 0xf, 0),
                    ("TEXCOORD", 0, 0, 1, 1, 3, 0),
                    ("COLOR", 2, 0, 3, 1, 0xc, 0),
                ],
            ),
        ],
    );
    has(
        &t,
        &[
            "DclInput vec4<f32> %1 0 0 None",
            "Semantic %",
            "\"POSITION\"",
            "DclInput vec2<u32> %1 1 0 None",
            " 3 \"TEXCOORD\"",
            "DclInputBuiltIn u32 %1 VertexId None",
            "DclOutputBuiltIn vec4<f32> %1 Position 0",
            "DclOutput vec2<u32> %1 1 0 0",
            "DclOutput vec2<f32> %1 1 2 0",
            " 2 \"COLOR\"",
            "ConvertItoF f32",
            "; o1_COLOR2",
        ],
    );
}

#[test]
fn pixel_inputs_interpolation_and_system_values() {
    let t = ir_sig(
        PS,
        0,
        &[
            plus(
                inst(O::DclInputPsSiv, 4, &[], &[dst(T::Input, 0, 0xf)]),
                &[1],
            ),
            inst(O::DclInputPs, 3, &[], &[dst(T::Input, 1, 3)]),
            inst(O::DclInputPs, 1, &[], &[dst(T::Input, 2, 1)]),
            inst(O::DclInputPs, 6, &[], &[dst(T::Input, 2, 2)]),
            plus(inst(O::DclInputPsSgv, 1, &[], &[dst(T::Input, 3, 1)]), &[9]),
            plus(
                inst(O::DclInputPsSgv, 1, &[], &[dst(T::Input, 3, 2)]),
                &[10],
            ),
            inst(
                O::DclInput,
                0,
                &[],
                &[operand(T::InputCoverageMask, Sel::One, &[], None)],
            ),
            inst(O::DclOutput, 0, &[], &[o(0, 0xf)]),
            inst(O::Mov, 0, &[], &[o(0, 1), src(T::Input, 3, XXXX)]),
            inst(
                O::Mov,
                0,
                &[],
                &[o(0, 2), operand(T::InputCoverageMask, Sel::One, &[], None)],
            ),
            inst(
                O::Add,
                0,
                &[],
                &[
                    o(0, 4),
                    src(T::Input, 1, XXXX),
                    src(T::Input, 2, [1, 1, 1, 1]),
                ],
            ),
            inst(O::Mov, 0, &[], &[o(0, 8), src(T::Input, 2, XXXX)]),
            ret(),
        ],
        &[
            (
                b"ISGN",
                &[
                    ("SV_Position", 0, 1, 3, 0, 0xf, 0xf),
                    ("TEXCOORD", 0, 0, 3, 1, 3, 3),
                    ("INDEX", 0, 0, 1, 2, 1, 1),
                    ("WEIGHT", 0, 0, 3, 2, 2, 2),
                    ("SV_IsFrontFace", 0, 9, 1, 3, 1, 1),
                    ("SV_SampleIndex", 0, 10, 1, 3, 2, 2),
                ],
            ),
            (b"OSGN", &[("SV_Target", 0, 0, 1, 0, 0xf, 0)]),
        ],
    );
    has(
        &t,
        &[
            "DclInputBuiltIn vec4<f32> %1 Position NoPerspective",
            "DclInput vec2<f32> %1 1 0 Centroid",
            "DclInput u32 %1 2 0 Flat",
            "DclInput f32 %1 2 1 Sample",
            "DclInputBuiltIn bool %1 IsFrontFace Flat",
            "DclInputBuiltIn u32 %1 SampleId Flat",
            "DclInputBuiltIn u32 %1 SampleMask Flat",
            "Select u32",
            "DclOutput vec4<u32> %1 0 0 0",
        ],
    );
}

#[test]
fn clip_distances_pack_into_one_array() {
    let t = ir_sig(
        VS,
        0,
        &[
            dcl_output_siv(1, 0xf, 2),
            dcl_output_siv(2, 3, 2),
            inst(O::Mov, 0, &[], &[o(2, 2), imm1(0)]),
            inst(O::Mov, 0, &[], &[o(1, 1), imm1(0)]),
            ret(),
        ],
        &[(
            b"OSGN",
            &[
                ("SV_Position", 0, 1, 3, 0, 0xf, 0),
                ("SV_ClipDistance", 0, 2, 3, 1, 0xf, 0),
                ("SV_ClipDistance", 1, 2, 3, 2, 3, 0),
            ],
        )],
    );
    has(
        &t,
        &[
            "DclOutputBuiltIn f32[6] %1 ClipDistance 0",
            "Constant u32 5",
        ],
    );
    assert_eq!(t.matches("DclOutputBuiltIn").count(), 1, "{t}");
}

#[test]
fn dynamically_indexed_inputs_use_a_switch_over_the_range() {
    let t = ir_sig(
        VS,
        0,
        &[
            inst(O::DclInput, 0, &[], &[dst(T::Input, 1, 0xf)]),
            inst(O::DclInput, 0, &[], &[dst(T::Input, 2, 0xf)]),
            inst(O::DclInput, 0, &[], &[dst(T::Input, 3, 0xf)]),
            plus(
                inst(O::DclIndexRange, 0, &[], &[dst(T::Input, 1, 0xf)]),
                &[3],
            ),
            inst(O::DclOutput, 0, &[], &[o(0, 0xf)]),
            temps(1),
            inst(
                O::Mov,
                0,
                &[],
                &[
                    o(0, 0xf),
                    operand(
                        T::Input,
                        Sel::Swz(XYZW),
                        &[Idx::ImmRel(1, rs(0, XXXX))],
                        None,
                    ),
                ],
            ),
            ret(),
        ],
        &[],
    );
    has(
        &t,
        &[
            "ScopedSwitch %",
            "ScopedSwitchCase %",
            " 3",
            "ScopedEndSwitch",
            "IAdd u32",
        ],
    );
    assert_eq!(t.matches("ScopedSwitchCase").count(), 3, "{t}");
}

// ---------------------------------------------------------------------------------------------
// Resources
// ---------------------------------------------------------------------------------------------

#[test]
fn constant_buffers_and_immediate_constant_buffers() {
    let icb = {
        let data = [1u32, 2, 3, 4, 5, 6, 7, 8];
        let mut v = vec![O::CustomData as u32 | (3 << 11), 2 + data.len() as u32];
        v.extend_from_slice(&data);
        v
    };
    let t = ir(
        PS,
        &[
            inst(
                O::DclConstantBuffer,
                1,
                &[],
                &[operand(
                    T::ConstantBuffer,
                    Sel::Swz(XYZW),
                    &[Idx::Imm(2), Idx::Imm(8)],
                    None,
                )],
            ),
            icb,
            temps(1),
            inst(
                O::Mov,
                0,
                &[],
                &[
                    r(0, 3),
                    operand(
                        T::ConstantBuffer,
                        Sel::Swz(XYZW),
                        &[Idx::Imm(2), Idx::ImmRel(1, rs(0, [2, 2, 2, 2]))],
                        None,
                    ),
                ],
            ),
            inst(
                O::Iadd,
                0,
                &[],
                &[
                    r(0, 4),
                    operand(
                        T::ImmediateConstantBuffer,
                        Sel::Swz([1, 1, 1, 1]),
                        &[Idx::Rel(rs(0, XXXX))],
                        None,
                    ),
                    operand(
                        T::ImmediateConstantBuffer,
                        Sel::Swz(XXXX),
                        &[Idx::Imm(1)],
                        None,
                    ),
                ],
            ),
            ret(),
        ],
    );
    has(
        &t,
        &[
            "DclCbv vec4<f32>[8] %1 0 2 1",
            "DescriptorLoad cbv",
            "BufferLoad f32",
            "Constant vec4<u32>[2] 1 2 3 4 5 6 7 8",
            "ConstantLoad u32",
            "Constant u32 5",
        ],
    );
}

#[test]
fn srv_and_uav_declarations_of_every_kind() {
    let t = ir(
        CS,
        &[
            dcl_texture2d(0),
            plus(
                inst(O::DclResource, 10, &[], &[one(T::Resource, Sel::Zero, 1)]),
                &[0x3333],
            ),
            plus(
                inst(
                    O::DclResource,
                    4 | (4 << 5),
                    &[],
                    &[one(T::Resource, Sel::Zero, 2)],
                ),
                &[0x4444],
            ),
            inst(O::DclResourceRaw, 0, &[], &[one(T::Resource, Sel::Zero, 3)]),
            plus(
                inst(
                    O::DclResourceStructured,
                    0,
                    &[],
                    &[one(T::Resource, Sel::Zero, 4)],
                ),
                &[16],
            ),
            plus(
                inst(
                    O::DclUnorderedAccessViewTyped,
                    5 | (1 << 5),
                    &[],
                    &[one(T::UnorderedAccessView, Sel::Zero, 0)],
                ),
                &[0x4444],
            ),
            inst(
                O::DclUnorderedAccessViewRaw,
                0,
                &[],
                &[one(T::UnorderedAccessView, Sel::Zero, 1)],
            ),
            plus(
                inst(
                    O::DclUnorderedAccessViewStructured,
                    1 << 12,
                    &[],
                    &[one(T::UnorderedAccessView, Sel::Zero, 2)],
                ),
                &[12],
            ),
            dcl_sampler(0, 0),
            dcl_sampler(1, 1),
            ret(),
        ],
    );
    has(
        &t,
        &[
            "DclSrv f32 %1 0 0 1 Image2D",
            "DclSrv i32 %1 0 1 1 ImageCubeArray",
            "DclSrv u32 %1 0 2 1 Image2DMS",
            "DclSrv u32[] %1 0 3 1 BufferRaw",
            "DclSrv u32[4][] %1 0 4 1 BufferStructured",
            "DclUav u32 %1 0 0 1 Image3D Coherent",
            "DclUav u32[] %1 0 1 1 BufferRaw None",
            "DclUav u32[3][] %1 0 2 1 BufferStructured None",
            "DclSampler %1 0 0 1",
            "DclSampler %1 0 1 1",
        ],
    );
}

#[test]
fn sm51_ranges_spaces_and_non_uniform_indexing() {
    let body = [
        plus(
            inst(
                O::DclResource,
                3,
                &[],
                &[operand(
                    T::Resource,
                    Sel::Zero,
                    &[Idx::Imm(0), Idx::Imm(4), Idx::Imm(u32::MAX)],
                    None,
                )],
            ),
            &[0x5555, 2],
        ),
        plus(
            inst(
                O::DclConstantBuffer,
                1,
                &[],
                &[operand(
                    T::ConstantBuffer,
                    Sel::Swz(XYZW),
                    &[Idx::Imm(0), Idx::Imm(1), Idx::Imm(3)],
                    None,
                )],
            ),
            &[4, 5],
        ),
        plus(
            inst(
                O::DclSampler,
                0,
                &[],
                &[operand(
                    T::Sampler,
                    Sel::Zero,
                    &[Idx::Imm(0), Idx::Imm(0), Idx::Imm(0)],
                    None,
                )],
            ),
            &[0],
        ),
        temps(2),
        inst(
            O::Sample,
            0,
            &[],
            &[
                r(0, 0xf),
                rs(1, XYZW),
                operand(
                    T::Resource,
                    Sel::Swz(XYZW),
                    &[Idx::Imm(0), Idx::ImmRel(4, rs(0, [3, 3, 3, 3]))],
                    Some(1 | (1 << 17)),
                ),
                operand(T::Sampler, Sel::Zero, &[Idx::Imm(0), Idx::Imm(0)], None),
            ],
        ),
        inst(
            O::Mov,
            0,
            &[],
            &[
                r(1, 1),
                operand(
                    T::ConstantBuffer,
                    Sel::Swz(XXXX),
                    &[Idx::Imm(0), Idx::Imm(2), Idx::Imm(3)],
                    None,
                ),
            ],
        ),
        ret(),
    ];
    let t = ir_sig(PS, 1, &body, &[]);
    has(
        &t,
        &[
            "DclSrv f32 %1 2 4 0 Image2D",
            "DclCbv vec4<f32>[4] %1 5 1 3",
            "DescriptorLoad [nonuniform] srv",
            "ISub u32",
            "DescriptorLoad cbv",
            "Constant vec2<u32> 3 0",
        ],
    );
}

#[test]
fn uav_counters_increment_and_decrement() {
    let t = ir(
        CS,
        &[
            plus(
                inst(
                    O::DclUnorderedAccessViewStructured,
                    1 << 12,
                    &[],
                    &[one(T::UnorderedAccessView, Sel::Zero, 0)],
                ),
                &[4],
            ),
            temps(1),
            inst(
                O::ImmAtomicAlloc,
                0,
                &[],
                &[r(0, 1), one(T::UnorderedAccessView, Sel::Zero, 0)],
            ),
            inst(
                O::ImmAtomicConsume,
                0,
                &[],
                &[r(0, 2), one(T::UnorderedAccessView, Sel::Zero, 0)],
            ),
            ret(),
        ],
    );
    has(
        &t,
        &[
            "DclUavCounter u32 %1 %",
            "DescriptorLoad uav_counter",
            "CounterAtomic u32 # Inc",
            "CounterAtomic u32 # Dec",
            "ISub u32",
        ],
    );
    assert_eq!(t.matches("DclUavCounter").count(), 1);
}

// ---------------------------------------------------------------------------------------------
// Instructions
// ---------------------------------------------------------------------------------------------

#[test]
fn float_alu_with_modifiers_saturate_and_precise() {
    let t = ir(
        PS,
        &[
            temps(2),
            // add_sat r0.xy, -r1.xy, |r1.zw|, precise on x.
            inst(
                O::Add,
                (1 << 2) | (1 << 8),
                &[],
                &[
                    r(0, 3),
                    rs_ext(1, XYZW, 1, 0),
                    rs_ext(1, [2, 3, 2, 3], 2, 0),
                ],
            ),
            inst(O::Dp3, 0, &[], &[r(1, 1), rs(0, XYZW), rs(0, XYZW)]),
            inst(O::RoundNi, 0, &[], &[r(1, 2), rs(0, XXXX)]),
            inst(O::Exp, 0, &[], &[r(1, 4), rs(0, XXXX)]),
            inst(O::DerivRtxFine, 0, &[], &[r(1, 8), rs(0, XXXX)]),
            inst(O::Sincos, 0, &[], &[r(0, 1), r(0, 2), rs(1, XXXX)]),
            ret(),
        ],
    );
    has(
        &t,
        &[
            "FNeg f32",
            "FAbs f32",
            "FAdd [precise] f32",
            "FClamp f32",
            "FMul f32",
            "FMad f32",
            "FRound f32 # NegativeInf",
            "FExp2 f32",
            "DerivX f32 # Fine",
            "FSin f32",
            "FCos f32",
        ],
    );
}

#[test]
fn min_precision_operands_use_min_types() {
    let t = ir(
        PS,
        &[
            temps(2),
            inst(
                O::Mul,
                0,
                &[],
                &[
                    operand(T::Temp, Sel::Mask(1), &[Idx::Imm(0)], Some(1 | (1 << 14))),
                    rs_ext(1, XXXX, 0, 1),
                    rs_ext(1, [1, 1, 1, 1], 0, 1),
                ],
            ),
            inst(
                O::Iadd,
                0,
                &[],
                &[
                    operand(T::Temp, Sel::Mask(2), &[Idx::Imm(0)], Some(1 | (5 << 14))),
                    rs(1, XXXX),
                    imm1(1),
                ],
            ),
            ret(),
        ],
    );
    has(
        &t,
        &[
            "FMul min16f",
            "ConsumeAs min16f",
            "IAdd min16u",
            "Constant min16u 1",
        ],
    );
}

#[test]
fn integer_and_bit_instructions() {
    let t = ir(
        CS,
        &[
            temps(3),
            inst(O::Ishl, 0, &[], &[r(0, 1), rs(1, XXXX), imm1(33)]),
            inst(O::Ushr, 0, &[], &[r(0, 1), rs(1, XXXX), rs(1, XXXX)]),
            inst(
                O::Udiv,
                0,
                &[],
                &[r(0, 2), r(0, 4), rs(1, XXXX), rs(1, [1, 1, 1, 1])],
            ),
            inst(
                O::Imul,
                0,
                &[],
                &[r(2, 1), r(2, 2), rs(1, XXXX), rs(1, XXXX)],
            ),
            inst(
                O::Uaddc,
                0,
                &[],
                &[r(2, 4), r(2, 8), rs(1, XXXX), rs(1, XXXX)],
            ),
            inst(O::FirstBitHi, 0, &[], &[r(1, 1), rs(0, XXXX)]),
            inst(O::FirstBitShi, 0, &[], &[r(1, 2), rs(0, XXXX)]),
            inst(O::FirstBitLo, 0, &[], &[r(1, 4), rs(0, XXXX)]),
            inst(O::Ubfe, 0, &[], &[r(1, 8), imm1(4), imm1(8), rs(0, XXXX)]),
            inst(
                O::Ubfe,
                0,
                &[],
                &[r(1, 8), rs(0, XXXX), rs(0, XXXX), rs(0, XXXX)],
            ),
            inst(O::Ibfe, 0, &[], &[r(0, 8), imm1(4), imm1(8), rs(0, XXXX)]),
            inst(
                O::Bfi,
                0,
                &[],
                &[r(2, 1), imm1(4), imm1(8), rs(0, XXXX), rs(1, XXXX)],
            ),
            inst(O::CountBits, 0, &[], &[r(2, 2), rs(0, XXXX)]),
            inst(O::Bfrev, 0, &[], &[r(2, 4), rs(0, XXXX)]),
            inst(
                O::Msad,
                0,
                &[],
                &[r(2, 8), rs(0, XXXX), rs(1, XXXX), rs(2, XXXX)],
            ),
            inst(
                O::Imad,
                0,
                &[],
                &[r(0, 1), rs(0, XXXX), rs(1, XXXX), rs(2, XXXX)],
            ),
            ret(),
        ],
    );
    has(
        &t,
        &[
            "Constant u32 31",
            "IShl u32",
            "UDiv u32",
            "UMod u32",
            "Select u32",
            "SMulExtended vec2<i32>",
            "IAddCarry vec2<u32>",
            "UFindMsb u32",
            "SFindMsb i32",
            "IFindLsb u32",
            "UBitExtract u32",
            "SBitExtract i32",
            "UMin u32",
            "IBitInsert u32",
            "IBitCount u32",
            "IBitReverse u32",
            "UMsad u32",
            "IMul i32",
        ],
    );
    // The constant count 33 is masked to 1 at once; a register count is masked in the IR.
    let id_of = |needle: &str| {
        t.lines()
            .find(|l| l.contains(needle))
            .and_then(|l| l.split_whitespace().next())
            .map(str::to_owned)
    };
    let one = id_of("= Constant u32 1").expect("constant 1");
    let shl = t.lines().find(|l| l.contains("IShl u32")).expect("ishl");
    assert!(shl.ends_with(&format!(" {one}")), "{shl}\n{t}");
    has(&t, &["Constant u32 31", "IAnd u32", "UShr u32"]);
}

#[test]
fn comparisons_give_all_ones_or_zero() {
    let t = ir(
        PS,
        &[
            temps(2),
            inst(O::Lt, 0, &[], &[r(0, 1), rs(1, XXXX), rs(1, [1, 1, 1, 1])]),
            inst(O::Ige, 0, &[], &[r(0, 2), rs(1, XXXX), imm1(0)]),
            inst(
                O::Movc,
                0,
                &[],
                &[r(0, 4), rs(0, XXXX), rs(1, XXXX), imm1(0)],
            ),
            ret(),
        ],
    );
    has(
        &t,
        &[
            "FLt bool",
            "SGe bool",
            "Constant u32 4294967295",
            "Select u32",
            "INe bool",
            "Select unknown",
        ],
    );
}

#[test]
fn conversions_and_half_packing() {
    let t = ir(
        PS,
        &[
            temps(2),
            inst(O::Ftoi, 0, &[], &[r(0, 1), rs(1, XXXX)]),
            inst(O::Utof, 0, &[], &[r(0, 2), rs(1, XXXX)]),
            inst(O::F32toF16, 0, &[], &[r(0, 4), rs(1, XXXX)]),
            inst(O::F16toF32, 0, &[], &[r(0, 8), rs(1, XXXX)]),
            ret(),
        ],
    );
    has(
        &t,
        &[
            "ConvertFtoI i32",
            "ConvertItoF f32",
            "ConvertF32toPackedF16 u32",
            "ConvertPackedF16toF32 vec2<f32>",
        ],
    );
}

#[test]
fn double_instructions_pair_components() {
    let d = |v: f64| {
        let b = v.to_bits();
        let mut t = vec![2 | ((T::Immediate64 as u32) << 12)];
        t.extend_from_slice(&[b as u32, (b >> 32) as u32, b as u32, (b >> 32) as u32]);
        t
    };
    let t = ir(
        CS,
        &[
            temps(2),
            inst(O::Dadd, 0, &[], &[r(0, 0xf), rs(1, XYZW), d(1.5)]),
            inst(O::Dlt, 0, &[], &[r(1, 1), rs(0, XYZW), d(0.0)]),
            inst(O::Dtof, 0, &[], &[r(1, 2), rs(0, [2, 3, 2, 3])]),
            inst(O::Ftod, 0, &[], &[r(0, 3), rs(1, XXXX)]),
            ret(),
        ],
    );
    has(
        &t,
        &[
            "Cast f64",
            "FAdd f64",
            "Cast vec2<u32>",
            "FLt bool",
            "ConvertFtoF f32",
            "ConvertFtoF f64",
            "Constant f64 1.5",
        ],
    );
}

#[test]
fn control_flow_is_scoped() {
    let t = ir(
        PS,
        &[
            temps(2),
            inst(O::If, 1 << 7, &[], &[rs(0, XXXX)]),
            inst(O::Mov, 0, &[], &[r(1, 1), imm1(1)]),
            inst(O::Else, 0, &[], &[]),
            inst(O::Discard, 0, &[], &[rs(0, [1, 1, 1, 1])]),
            inst(O::EndIf, 0, &[], &[]),
            inst(O::Loop, 0, &[], &[]),
            inst(O::Breakc, 1 << 7, &[], &[rs(0, XXXX)]),
            inst(O::Switch, 0, &[], &[rs(1, XXXX)]),
            inst(O::Case, 0, &[], &[imm1(1)]),
            inst(O::Case, 0, &[], &[imm1(u32::MAX)]),
            inst(O::Break, 0, &[], &[]),
            inst(O::Default, 0, &[], &[]),
            inst(O::Continue, 0, &[], &[]),
            inst(O::EndSwitch, 0, &[], &[]),
            inst(O::Retc, 1 << 7, &[], &[rs(0, XXXX)]),
            inst(O::EndLoop, 0, &[], &[]),
            ret(),
        ],
    );
    has(
        &t,
        &[
            "ScopedIf %",
            "ScopedElse %",
            "Demote",
            "ScopedEndIf %",
            "ScopedLoop %",
            "ScopedLoopBreak %",
            "ScopedSwitch %",
            "ScopedSwitchCase # 1",
            "ScopedSwitchCase # 4294967295",
            "ScopedSwitchBreak %",
            "ScopedSwitchDefault %",
            "ScopedLoopContinue %",
            "ScopedEndSwitch %",
            "ScopedEndLoop %",
            "IEq bool",
        ],
    );
}

#[test]
fn subroutines_become_functions() {
    let t = ir(
        VS,
        &[
            temps(1),
            inst(O::Call, 0, &[], &[one(T::Label, Sel::Zero, 1)]),
            ret(),
            inst(O::Label, 0, &[], &[one(T::Label, Sel::Zero, 1)]),
            inst(O::Mov, 0, &[], &[r(0, 1), imm1(1)]),
            ret(),
        ],
    );
    has(&t, &["FunctionCall void %", "; l1"]);
    assert_eq!(t.matches("= Function void").count(), 2, "{t}");
    // The call refers to the subroutine, defined after it.
    let call = t
        .lines()
        .find(|l| l.contains("FunctionCall"))
        .expect("call");
    let target = call.rsplit('%').next().expect("target").trim();
    assert!(
        t.contains(&format!("%{target} = Function void   ; l1")),
        "{t}"
    );
    // The registers are shared by the functions: module-scope scratch, not DclTmp (local to
    // one function), written by the subroutine and read by main after the call.
    has(
        &t,
        &[
            "= DclScratch unknown[1] %1   ; r0.x",
            "= ScratchStore # # #",
        ],
    );
    assert!(!t.contains("DclTmp"), "{t}");
}

#[test]
fn registers_without_subroutines_stay_function_local() {
    // The store is written where the straight-line code ends (at the `if`).
    let t = ir(
        PS,
        &[
            temps(1),
            inst(O::Mov, 0, &[], &[r(0, 1), imm1(1)]),
            inst(O::If, 1 << 7, &[], &[rs(0, XXXX)]),
            inst(O::EndIf, 0, &[], &[]),
            ret(),
        ],
    );
    has(&t, &["= DclTmp unknown %1   ; r0.x", "= TmpStore # #"]);
    assert!(!t.contains("DclScratch"), "{t}");
}

/// The ops of `t` between the first line containing `from` and the next containing `to`.
fn between<'t>(t: &'t str, from: &str, to: &str) -> Vec<&'t str> {
    t.lines()
        .skip_while(|l| !l.contains(from))
        .skip(1)
        .take_while(|l| !l.contains(to))
        .collect()
}

#[test]
fn straight_line_registers_are_stored_only_where_control_flow_begins_or_ends() {
    let t = ir(
        PS,
        &[
            inst(O::DclOutput, 0, &[], &[o(0, 0xf)]),
            temps(2),
            // r0.x = 1, r0.x = r0.x + r0.x, r1.x = r0.x: straight-line code reads the values
            // themselves, and only the last value of each component is stored, at the `if`.
            inst(O::Mov, 0, &[], &[r(0, 1), imm1(1)]),
            inst(O::Iadd, 0, &[], &[r(0, 1), rs(0, XXXX), rs(0, XXXX)]),
            inst(O::Mov, 0, &[], &[r(1, 1), rs(0, XXXX)]),
            inst(O::If, 1 << 7, &[], &[rs(1, XXXX)]),
            // Inside the block: r0.x is read through memory, the new value stored at `else`.
            inst(O::Iadd, 0, &[], &[r(0, 1), rs(0, XXXX), imm1(5)]),
            inst(O::Else, 0, &[], &[]),
            // A value given before a `ret` is never stored.
            inst(O::Mov, 0, &[], &[r(1, 1), imm1(7)]),
            inst(O::Ret, 0, &[], &[]),
            inst(O::EndIf, 0, &[], &[]),
            // After the block: loaded again.
            inst(O::Mov, 0, &[], &[o(0, 0xf), rs(0, XXXX)]),
            ret(),
        ],
    );
    let before_if = between(&t, "= Label None", "= ScopedIf ");
    let loads = |ops: &[&str]| ops.iter().filter(|l| l.contains("TmpLoad")).count();
    let stores = |ops: &[&str]| ops.iter().filter(|l| l.contains("TmpStore")).count();
    assert_eq!(loads(&before_if), 0, "{t}");
    assert_eq!(stores(&before_if), 2, "r0.x and r1.x, once each:\n{t}");
    let then = between(&t, "= ScopedIf ", "= ScopedElse ");
    assert_eq!((loads(&then), stores(&then)), (1, 1), "{t}");
    let els = between(&t, "= ScopedElse ", "= ScopedEndIf ");
    assert_eq!(stores(&els), 0, "{t}");
    let after = between(&t, "= ScopedEndIf ", "= FunctionEnd");
    assert_eq!((loads(&after), stores(&after)), (1, 0), "{t}");
}

#[test]
fn malformed_fcall_is_an_error() {
    // (Class linkage itself is tested in `class_linkage::tests`.)
    let e = err(PS, &[plus(inst(O::InterfaceCall, 0, &[], &[]), &[0])]);
    assert!(e.unsupported_feature().is_none(), "{e}");
    assert!(e.to_string().contains("instruction 0 (`fcall`"), "{e}");
    let fp0 = operand(T::Interface, Sel::Zero, &[Idx::Imm(0), Idx::Imm(0)], None);
    let e = err(
        PS,
        &[plus(
            inst(O::InterfaceCall, 0, &[], &[]),
            &[&[0][..], &fp0].concat(),
        )],
    );
    assert!(e.to_string().contains("fp0 is not declared"), "{e}");
}

#[test]
fn malformed_control_flow_is_an_error() {
    let e = err(PS, &[inst(O::EndIf, 0, &[], &[]), ret()]);
    assert!(e.to_string().contains("endif without if"), "{e}");
    let e = err(PS, &[inst(O::Loop, 0, &[], &[]), ret()]);
    assert!(e.to_string().contains("open"), "{e}");
    let e = err(PS, &[inst(O::Mov, 0, &[], &[r(5, 1), imm1(0)]), ret()]);
    assert!(e.to_string().contains("r5 is not declared"), "{e}");
}

#[test]
fn indexable_temps_are_scratch_arrays() {
    let t = ir(
        PS,
        &[
            temps(1),
            vec![op_token(O::DclIndexableTemp, 4, 0), 0, 8, 4],
            inst(
                O::Mov,
                0,
                &[],
                &[
                    operand(
                        T::IndexableTemp,
                        Sel::Mask(3),
                        &[Idx::Imm(0), Idx::Rel(rs(0, XXXX))],
                        None,
                    ),
                    imm4([1, 2, 3, 4]),
                ],
            ),
            read_x0_y(3),
            ret(),
        ],
    );
    has(
        &t,
        &[
            "DclScratch vec4<unknown>[8] %1",
            "ScratchStore %",
            "ScratchLoad unknown",
            "Constant vec2<u32> 3 1",
            "; x0",
        ],
    );
}

/// `mov r0.y, x0[index].y`.
fn read_x0_y(index: u32) -> Vec<u32> {
    inst(
        O::Mov,
        0,
        &[],
        &[
            r(0, 2),
            operand(
                T::IndexableTemp,
                Sel::Swz([1, 1, 1, 1]),
                &[Idx::Imm(0), Idx::Imm(index)],
                None,
            ),
        ],
    )
}

#[test]
fn constant_indices_past_an_array_are_refused() {
    // x0 has 8 elements: x0[7] is the last one, x0[8] an error naming the index (it reached
    // the backend as an address that did not fit before).
    let read = |index: u32| {
        vec![
            temps(1),
            vec![op_token(O::DclIndexableTemp, 4, 0), 0, 8, 4],
            read_x0_y(index),
            ret(),
        ]
    };
    ir(PS, &read(7));
    let e = err(PS, &read(8));
    assert!(
        e.to_string()
            .contains("constant index 8 is outside vec4<unknown>[8]"),
        "{e}"
    );
}

#[test]
fn raw_structured_and_tgsm_memory_with_atomics() {
    let t = ir(
        CS,
        &[
            plus(
                inst(
                    O::DclThreadGroupSharedMemoryRaw,
                    0,
                    &[],
                    &[one(T::ThreadGroupSharedMemory, Sel::Zero, 0)],
                ),
                &[64],
            ),
            plus(
                inst(
                    O::DclUnorderedAccessViewStructured,
                    0,
                    &[],
                    &[one(T::UnorderedAccessView, Sel::Zero, 0)],
                ),
                &[16],
            ),
            plus(
                inst(
                    O::DclUnorderedAccessViewTyped,
                    3,
                    &[],
                    &[one(T::UnorderedAccessView, Sel::Zero, 1)],
                ),
                &[0x4444],
            ),
            inst(O::DclResourceRaw, 0, &[], &[one(T::Resource, Sel::Zero, 0)]),
            temps(2),
            inst(
                O::LdRaw,
                0,
                &[],
                &[r(0, 3), imm1(16), src(T::Resource, 0, [2, 3, 0, 0])],
            ),
            inst(
                O::StoreStructured,
                0,
                &[],
                &[
                    dst(T::UnorderedAccessView, 0, 3),
                    imm1(1),
                    imm1(8),
                    rs(0, XYZW),
                ],
            ),
            inst(
                O::AtomicIadd,
                0,
                &[],
                &[dst(T::ThreadGroupSharedMemory, 0, 1), imm1(4), imm1(1)],
            ),
            inst(
                O::ImmAtomicCmpExch,
                0,
                &[],
                &[
                    r(1, 1),
                    dst(T::UnorderedAccessView, 1, 1),
                    rs(0, XYZW),
                    imm1(0),
                    imm1(1),
                ],
            ),
            inst(
                O::LdStructured,
                0,
                &[],
                &[
                    r(1, 2),
                    imm1(0),
                    imm1(4),
                    src(T::UnorderedAccessView, 0, XXXX),
                ],
            ),
            inst(O::BufInfo, 0, &[], &[r(1, 4), src(T::Resource, 0, XXXX)]),
            // A byte offset in a register: its dword index is computed.
            inst(
                O::LdRaw,
                0,
                &[],
                &[r(1, 8), rs(0, XXXX), src(T::Resource, 0, XXXX)],
            ),
            inst(O::Sync, 1 | 2, &[], &[]),
            inst(O::Sync, 8, &[], &[]),
            ret(),
        ],
    );
    has(
        &t,
        &[
            "UShr u32",
            // l(16) is dword 4: the constant offset's dwords z and w are made at once.
            "Constant u32 6",
            "Constant u32 7",
            // Structure 1, byte 8 (dword 2) and the next dword: constant addresses.
            "Constant vec2<u32> 1 2",
            "Constant vec2<u32> 1 3",
            "BufferLoad u32",
            "BufferStore %",
            "LdsAtomic void # # # Add",
            "ImageAtomic u32 # null # # CompareExchange",
            "DclUav u32 %1 0 1 1 Image2D FixedFormat",
            "BufferQuerySize u32",
            "IShl u32",
            "Barrier Workgroup Workgroup Lds",
            "Barrier Thread Global UavBuffer|UavImage",
        ],
    );
}

#[test]
fn sampling_variants() {
    let aoff = 1 | (1 << 9) | (0xf << 13); // offset (1, -1)
    let t = ir(
        PS,
        &[
            dcl_texture2d(0),
            plus(
                inst(O::DclResource, 8, &[], &[one(T::Resource, Sel::Zero, 1)]),
                &[0x5555],
            ),
            dcl_sampler(0, 0),
            dcl_sampler(1, 1),
            temps(2),
            inst(
                O::Sample,
                0,
                &[aoff],
                &[
                    r(0, 0xf),
                    rs(1, XYZW),
                    src(T::Resource, 0, XYZW),
                    one(T::Sampler, Sel::Zero, 0),
                ],
            ),
            inst(
                O::SampleB,
                0,
                &[],
                &[
                    r(0, 0xf),
                    rs(1, XYZW),
                    src(T::Resource, 0, XYZW),
                    one(T::Sampler, Sel::Zero, 0),
                    imm1(0),
                ],
            ),
            inst(
                O::SampleL,
                0,
                &[],
                &[
                    r(0, 0xf),
                    rs(1, XYZW),
                    src(T::Resource, 1, XYZW),
                    one(T::Sampler, Sel::Zero, 0),
                    imm1(0),
                ],
            ),
            inst(
                O::SampleD,
                0,
                &[],
                &[
                    r(0, 0xf),
                    rs(1, XYZW),
                    src(T::Resource, 0, XYZW),
                    one(T::Sampler, Sel::Zero, 0),
                    rs(1, XYZW),
                    rs(1, XYZW),
                ],
            ),
            inst(
                O::SampleCLz,
                0,
                &[],
                &[
                    r(0, 1),
                    rs(1, XYZW),
                    src(T::Resource, 1, XXXX),
                    one(T::Sampler, Sel::Zero, 1),
                    rs(1, [3, 3, 3, 3]),
                ],
            ),
            inst(
                O::Gather4PoC,
                0,
                &[],
                &[
                    r(0, 0xf),
                    rs(1, XYZW),
                    rs(0, XYZW),
                    src(T::Resource, 0, XYZW),
                    one(T::Sampler, Sel::Zero, 1),
                    imm1(0),
                ],
            ),
            inst(
                O::Gather4,
                0,
                &[],
                &[
                    r(0, 0xf),
                    rs(1, XYZW),
                    src(T::Resource, 0, XYZW),
                    one(T::Sampler, Sel::One1(1), 0),
                ],
            ),
            inst(
                O::SampleClampFeedback,
                0,
                &[],
                &[
                    r(0, 0xf),
                    r(1, 1),
                    rs(1, XYZW),
                    src(T::Resource, 0, XYZW),
                    one(T::Sampler, Sel::Zero, 0),
                    imm1(0),
                ],
            ),
            inst(O::CheckAccessFullyMapped, 0, &[], &[r(1, 2), rs(1, XXXX)]),
            inst(
                O::Lod,
                0,
                &[],
                &[
                    r(0, 3),
                    rs(1, XYZW),
                    src(T::Resource, 0, XYZW),
                    one(T::Sampler, Sel::Zero, 0),
                ],
            ),
            ret(),
        ],
    );
    has(
        &t,
        &[
            "Constant vec2<i32> 1 -1",
            "ImageSample vec4<f32> # # null # # null null null null null null",
            "ImageSample vec4<f32> # # # # null # null null null null null",
            "ImageSample f32 # # # # null # null null null null %",
            "ImageGather vec4<f32> # # null # # # 0",
            "ImageGather vec4<f32> # # null # null null 1",
            "ImageSample [sparse] struct{u32, vec4<f32>}",
            "CheckSparseAccess bool",
            "ImageComputeLod vec2<f32>",
            "DclSrv f32 %1 0 1 1 Image2DArray",
        ],
    );
}

#[test]
fn loads_stores_and_queries() {
    let t = ir(
        PS,
        &[
            dcl_texture2d(0),
            plus(
                inst(O::DclResource, 4, &[], &[one(T::Resource, Sel::Zero, 1)]),
                &[0x5555],
            ),
            plus(
                inst(O::DclResource, 1, &[], &[one(T::Resource, Sel::Zero, 2)]),
                &[0x4444],
            ),
            plus(
                inst(
                    O::DclUnorderedAccessViewTyped,
                    8,
                    &[],
                    &[one(T::UnorderedAccessView, Sel::Zero, 0)],
                ),
                &[0x5555],
            ),
            temps(2),
            inst(
                O::Ld,
                0,
                &[1 | (2 << 9)],
                &[r(0, 0xf), rs(1, XYZW), src(T::Resource, 0, XYZW)],
            ),
            inst(
                O::LdMs,
                0,
                &[],
                &[r(0, 0xf), rs(1, XYZW), src(T::Resource, 1, XYZW), imm1(2)],
            ),
            inst(
                O::Ld,
                0,
                &[],
                &[r(0, 0xf), rs(1, XYZW), src(T::Resource, 2, XYZW)],
            ),
            inst(
                O::LdUavTyped,
                0,
                &[],
                &[r(0, 0xf), rs(1, XYZW), src(T::UnorderedAccessView, 0, XYZW)],
            ),
            inst(
                O::StoreUavTyped,
                0,
                &[],
                &[
                    dst(T::UnorderedAccessView, 0, 0xf),
                    rs(1, XYZW),
                    rs(0, XYZW),
                ],
            ),
            inst(
                O::ResInfo,
                2,
                &[],
                &[r(0, 0xf), imm1(0), src(T::Resource, 0, XYZW)],
            ),
            inst(
                O::SampleInfo,
                0,
                &[],
                &[r(1, 1), operand(T::Rasterizer, Sel::Swz(XXXX), &[], None)],
            ),
            inst(
                O::SamplePos,
                0,
                &[],
                &[r(1, 6), src(T::Resource, 1, [0, 0, 1, 0]), imm1(1)],
            ),
            ret(),
        ],
    );
    has(
        &t,
        &[
            "ImageLoad vec4<f32> # # null # null %",
            "Constant vec2<i32> 2 0",
            "ImageLoad vec4<f32> # null null # # null",
            "BufferLoad vec4<u32>",
            "ImageLoad vec4<f32> # null # # null null",
            "ImageStore %",
            "ImageQuerySize struct{vec2<u32>, u32}",
            "ImageQueryMips u32",
            "DclInputBuiltIn u32 %1 SampleCount",
            "ConvertItoF f32",
            "ImageQuerySamples u32",
            "ConstantLoad f32",
        ],
    );
}

#[test]
fn eval_interpolation() {
    let t = ir_sig(
        PS,
        0,
        &[
            inst(O::DclInputPs, 2, &[], &[dst(T::Input, 0, 3)]),
            temps(1),
            inst(O::EvalCentroid, 0, &[], &[r(0, 3), src(T::Input, 0, XYZW)]),
            inst(
                O::EvalSampleIndex,
                0,
                &[],
                &[r(0, 1), src(T::Input, 0, XXXX), imm1(1)],
            ),
            inst(
                O::EvalSnapped,
                0,
                &[],
                &[r(0, 2), src(T::Input, 0, [1, 1, 1, 1]), imm4([1, 2, 0, 0])],
            ),
            ret(),
        ],
        &[(b"ISGN", &[("TEXCOORD", 0, 0, 3, 0, 3, 3)])],
    );
    has(
        &t,
        &[
            "InterpolateAtCentroid f32",
            "InterpolateAtSample f32",
            "InterpolateAtOffset f32",
            "SBitExtract i32",
        ],
    );
}

#[test]
fn debug_names_for_registers_and_io() {
    let t = ir_sig(
        VS,
        0,
        &[
            inst(O::DclOutput, 0, &[], &[o(1, 0xf)]),
            temps(1),
            inst(O::Mov, 0, &[], &[r(0, 1), imm1(0)]),
            // A block, so that r0.x is stored (and declared) at all.
            inst(O::If, 1 << 7, &[], &[rs(0, XXXX)]),
            inst(O::EndIf, 0, &[], &[]),
            inst(O::Mov, 0, &[], &[o(1, 0xf), rs(0, XXXX)]),
            ret(),
        ],
        &[(b"OSGN", &[("TEXCOORD", 4, 0, 3, 1, 0xf, 0)])],
    );
    has(
        &t,
        &[
            "DebugName %1 \"main\"",
            "\"r0.x\"",
            "\"o1_TEXCOORD4\"",
            "Semantic %",
            " 4 \"TEXCOORD\"",
        ],
    );
}

/// Mutating any token of a valid program must give an error or a program, never a panic.
#[test]
fn mutated_programs_never_panic() {
    let body = vec![
        inst(
            O::DclConstantBuffer,
            1,
            &[],
            &[operand(
                T::ConstantBuffer,
                Sel::Swz(XYZW),
                &[Idx::Imm(0), Idx::Imm(4)],
                None,
            )],
        ),
        dcl_texture2d(0),
        dcl_sampler(0, 0),
        inst(O::DclOutput, 0, &[], &[o(0, 0xf)]),
        temps(2),
        vec![op_token(O::DclIndexableTemp, 4, 0), 0, 4, 4],
        inst(O::Loop, 0, &[], &[]),
        inst(
            O::Sample,
            0,
            &[],
            &[
                r(0, 0xf),
                rs(1, XYZW),
                src(T::Resource, 0, XYZW),
                one(T::Sampler, Sel::Zero, 0),
            ],
        ),
        inst(
            O::Mov,
            0,
            &[],
            &[
                r(1, 0xf),
                operand(
                    T::ConstantBuffer,
                    Sel::Swz(XYZW),
                    &[Idx::Imm(0), Idx::ImmRel(1, rs(0, XXXX))],
                    None,
                ),
            ],
        ),
        inst(O::Breakc, 1 << 7, &[], &[rs(1, XXXX)]),
        inst(O::EndLoop, 0, &[], &[]),
        inst(O::Mov, 0, &[], &[o(0, 0xf), rs(0, XYZW)]),
        ret(),
    ];
    let words: Vec<u32> = body.iter().flatten().copied().collect();
    let values = [
        0u32,
        1,
        2,
        0xff,
        0x7fff_ffff,
        0x8000_0000,
        0xffff_ffff,
        0x0010_0000,
        0x00f0_0000,
    ];
    for i in 0..words.len() {
        for &v in &values {
            let mut w = words.clone();
            w[i] ^= v;
            let c = container(&[(b"SHEX", program(PS, 5, 0, &[w]))]);
            if let Ok(shader) = Shader::parse(&c) {
                let _ = super::convert(&shader);
            }
        }
    }
}

#[test]
fn rasterizer_ordered_views_lock_the_entry_function() {
    let t = ir(
        PS,
        &[
            plus(
                inst(
                    O::DclUnorderedAccessViewTyped,
                    3 | (1 << 6),
                    &[],
                    &[one(T::UnorderedAccessView, Sel::Zero, 0)],
                ),
                &[0x5555],
            ),
            ret(),
        ],
    );
    has(
        &t,
        &[
            "DclUav f32 %1 0 0 1 Image2D RasterizerOrdered",
            "RovScopedLockBegin UavBuffer|UavImage Pixel",
            "RovScopedLockEnd UavBuffer|UavImage",
        ],
    );
}

// ---------------------------------------------------------------------------------------------
// Limits
// ---------------------------------------------------------------------------------------------

#[test]
fn nesting_deeper_than_the_limit_is_refused() {
    use super::limits::MAX_NESTING_DEPTH;
    let nested = |depth: usize| {
        let mut body = Vec::new();
        body.extend((0..depth).map(|_| inst(O::Loop, 0, &[], &[])));
        body.extend((0..depth).map(|_| inst(O::EndLoop, 0, &[], &[])));
        body.push(ret());
        body
    };
    // At the limit it converts and survives the whole pass pipeline (no recursion blow-up);
    // one deeper is an error naming the limit.
    ir(PS, &nested(MAX_NESTING_DEPTH));
    let bytes = container_for(PS, 0, &nested(MAX_NESTING_DEPTH), &[]);
    let shader = Shader::parse(&bytes).expect("parses");
    let mut b = super::convert(&shader).expect("converts");
    let opts = dxspv_ir::passes::options::Options {
        validate_each_pass: true,
        ..Default::default()
    };
    if let Err(e) = dxspv_ir::passes::pipeline::run_pipeline(&mut b, &opts) {
        panic!("pipeline failed at the nesting limit: {e}");
    }
    let e = err(PS, &nested(MAX_NESTING_DEPTH + 1));
    assert!(
        e.to_string().contains("nested deeper than the limit"),
        "{e}"
    );
}

#[test]
fn oversized_declarations_are_refused() {
    use super::limits::{MAX_INDEXABLE_TEMP_ELEMENTS, MAX_TGSM_BYTES};
    let itemp = |n: u32| vec![op_token(O::DclIndexableTemp, 4, 0), 0, n, 4];
    ir(PS, &[itemp(MAX_INDEXABLE_TEMP_ELEMENTS), ret()]);
    let e = err(PS, &[itemp(MAX_INDEXABLE_TEMP_ELEMENTS + 1), ret()]);
    assert!(e.to_string().contains("exceeds the limit"), "{e}");

    let tgsm = |bytes: u32| {
        plus(
            inst(
                O::DclThreadGroupSharedMemoryRaw,
                0,
                &[],
                &[one(T::ThreadGroupSharedMemory, Sel::Zero, 0)],
            ),
            &[bytes],
        )
    };
    let group = vec![op_token(O::DclThreadGroup, 4, 0), 1, 1, 1];
    ir(CS, &[group.clone(), tgsm(MAX_TGSM_BYTES as u32), ret()]);
    let e = err(CS, &[group, tgsm(MAX_TGSM_BYTES as u32 + 4), ret()]);
    assert!(e.to_string().contains("thread group shared memory"), "{e}");
}

#[test]
fn stage_modes_past_direct3d_limits_are_refused() {
    // Thread groups: 1024x1024x64 and 1024 threads at most (found by the mode probe: a
    // 65536x1x1 group compiled to SPIR-V no Vulkan device takes).
    let group = |x: u32, y: u32, z: u32| vec![op_token(O::DclThreadGroup, 4, 0), x, y, z];
    ir(CS, &[group(1024, 1, 1), ret()]);
    ir(CS, &[group(16, 1, 64), ret()]);
    for (x, y, z) in [
        (1025, 1, 1),
        (1, 1, 65),
        (32, 32, 2),
        (65536, 65536, 64),
        (u32::MAX, u32::MAX, u32::MAX),
    ] {
        let e = err(CS, &[group(x, y, z), ret()]);
        assert!(e.to_string().contains("past Direct3D's limits"), "{e}");
    }
    // Geometry shaders: 1 to 1024 vertices, 1 to 32 instances.
    let gs = |maxout: u32, instances: u32| {
        vec![
            inst(O::DclGsInputPrimitive, 3, &[], &[]),
            inst(O::DclGsOutputPrimitiveTopology, 5, &[], &[]),
            vec![op_token(O::DclMaxOutputVertexCount, 2, 0), maxout],
            vec![op_token(O::DclGsInstanceCount, 2, 0), instances],
            ret(),
        ]
    };
    ir(GS, &gs(1024, 32));
    for (maxout, instances, want) in [
        (0, 1, "dcl_maxout 0 is outside 1 to 1024"),
        (1025, 1, "dcl_maxout 1025 is outside"),
        (3, 0, "dcl_gsinstances 0 is outside 1 to 32"),
        (3, 33, "dcl_gsinstances 33 is outside"),
    ] {
        let e = err(GS, &gs(maxout, instances));
        assert!(e.to_string().contains(want), "{e}");
    }
    // Hull shaders: 32 control points at most, and at least one out.
    let hs = |count_in: u32, count_out: u32| {
        let mut p = hull_program(false);
        for i in &mut p {
            if i == &inst(O::DclInputControlPointCount, 3, &[], &[]) {
                *i = inst(O::DclInputControlPointCount, count_in, &[], &[]);
            } else if i == &inst(O::DclOutputControlPointCount, 3, &[], &[]) {
                *i = inst(O::DclOutputControlPointCount, count_out, &[], &[]);
            }
        }
        container_for(HS, 0, &p, &[])
    };
    for (count_in, count_out, want) in [
        (33, 3, "control point count 33 is outside 0 to 32"),
        (3, 33, "control point count 33 is outside 1 to 32"),
        (3, 0, "control point count 0 is outside 1 to 32"),
    ] {
        let bytes = hs(count_in, count_out);
        let shader = Shader::parse(&bytes).expect("parses");
        match super::convert(&shader) {
            Ok(_) => panic!("{count_in} -> {count_out} control points converted"),
            Err(e) => assert!(e.to_string().contains(want), "{e}"),
        }
    }
}

#[test]
fn stage_specific_instructions_outside_their_stage_are_refused() {
    let group = vec![op_token(O::DclThreadGroup, 4, 0), 1, 1, 1];
    let e = err(
        CS,
        &[
            group,
            vec![op_token(O::DclTemps, 2, 0), 1],
            inst(O::Discard, 0, &[], &[rs(0, [0, 0, 0, 0])]),
            ret(),
        ],
    );
    assert!(
        e.to_string().contains("only allowed in Pixel shaders"),
        "{e}"
    );
    let e = err(VS, &[inst(O::Emit, 0, &[], &[]), ret()]);
    assert!(
        e.to_string().contains("only allowed in Geometry shaders"),
        "{e}"
    );
}

#[test]
fn a_second_else_is_refused() {
    let e = err(
        PS,
        &[
            vec![op_token(O::DclTemps, 2, 0), 1],
            inst(O::If, 1 << 7, &[], &[rs(0, [0, 0, 0, 0])]),
            inst(O::Else, 0, &[], &[]),
            inst(O::Else, 0, &[], &[]),
            inst(O::EndIf, 0, &[], &[]),
            ret(),
        ],
    );
    assert!(e.to_string().contains("second else"), "{e}");
}

#[test]
fn sampling_a_buffer_or_multisampled_texture_is_an_error() {
    // Resource dimensions: 1 = buffer, 4 = 2D multisampled.
    for dim in [1, 4] {
        let e = err(
            PS,
            &[
                plus(
                    inst(O::DclResource, dim, &[], &[one(T::Resource, Sel::Zero, 0)]),
                    &[0x5555],
                ),
                dcl_sampler(0, 0),
                temps(2),
                inst(
                    O::Sample,
                    0,
                    &[],
                    &[
                        r(0, 0xf),
                        rs(1, XYZW),
                        src(T::Resource, 0, XYZW),
                        one(T::Sampler, Sel::Zero, 0),
                    ],
                ),
                ret(),
            ],
        );
        assert!(e.to_string().contains("cannot sample"), "{e}");
    }
}

#[test]
fn a_whole_output_vector_is_one_store() {
    let t = ir_sig(
        VS,
        0,
        &[
            inst(O::DclOutput, 0, &[], &[o(1, 0xf)]),
            inst(O::DclOutput, 0, &[], &[o(2, 0xf)]),
            // o1.xyzw in one write: one vector store; o2 in two: a store per component.
            inst(O::Mov, 0, &[], &[o(1, 0xf), imm4([1, 2, 3, 4])]),
            inst(O::Mov, 0, &[], &[o(2, 0x3), imm4([5, 6, 7, 8])]),
            inst(O::Mov, 0, &[], &[o(2, 0xc), imm4([5, 6, 7, 8])]),
            ret(),
        ],
        &[(
            b"OSGN",
            &[
                ("TEXCOORD", 0, 0, 3, 1, 0xf, 0),
                ("TEXCOORD", 1, 0, 3, 2, 0xf, 0),
            ],
        )],
    );
    // The immediates are stored as constants of the outputs' type (the same bits: 1, 2, 3, 4
    // are f32 denormals), the whole vector as one vector constant: nothing untyped is left
    // for type resolution or constant folding.
    has(
        &t,
        &[
            "= Constant vec4<f32> 1e-45 3e-45 4e-45 6e-45",
            "= OutputStore # null #",
        ],
    );
    assert!(!t.contains("CompositeConstruct"), "{t}");
    assert!(!t.contains("unknown") && !t.contains("ConsumeAs"), "{t}");
    let stores = t.lines().filter(|l| l.contains("OutputStore")).count();
    assert_eq!(stores, 5, "{t}");

    // From a register the whole vector is built from its components.
    let t = ir_sig(
        VS,
        0,
        &[
            temps(1),
            inst(O::DclOutput, 0, &[], &[o(1, 0xf)]),
            inst(
                O::Add,
                0,
                &[],
                &[r(0, 0xf), imm4([1, 2, 3, 4]), imm4([1, 2, 3, 4])],
            ),
            inst(O::Mov, 0, &[], &[o(1, 0xf), rs(0, XYZW)]),
            ret(),
        ],
        &[(b"OSGN", &[("TEXCOORD", 0, 0, 3, 1, 0xf, 0)])],
    );
    has(
        &t,
        &[
            "= CompositeConstruct vec4<f32> # # # #",
            "= OutputStore # null #",
        ],
    );
}

#[test]
fn a_constant_buffer_read_again_in_a_block_reuses_the_value() {
    let cb = |c: u32| {
        operand(
            T::ConstantBuffer,
            Sel::Swz([c; 4]),
            &[Idx::Imm(2), Idx::Imm(1)],
            None,
        )
    };
    let dcl = operand(
        T::ConstantBuffer,
        Sel::Swz(XYZW),
        &[Idx::Imm(2), Idx::Imm(8)],
        None,
    );
    let t = ir(
        PS,
        &[
            inst(O::DclConstantBuffer, 1, &[], &[dcl]),
            temps(1),
            // cb2[1].x three times and cb2[1].y once in one block: one descriptor, two loads.
            inst(O::Iadd, 0, &[], &[r(0, 1), cb(0), cb(0)]),
            inst(O::Iadd, 0, &[], &[r(0, 2), cb(0), cb(1)]),
            inst(O::If, 1 << 7, &[], &[rs(0, XXXX)]),
            // Another block: loaded again.
            inst(O::Iadd, 0, &[], &[r(0, 4), cb(0), rs(0, [1, 1, 1, 1])]),
            inst(O::EndIf, 0, &[], &[]),
            ret(),
        ],
    );
    let count = |what: &str| t.lines().filter(|l| l.contains(what)).count();
    assert_eq!(count("DescriptorLoad cbv"), 2, "{t}");
    assert_eq!(count("BufferLoad f32"), 3, "{t}");
    // The u32 reading of a loaded value is made once per block too.
    assert_eq!(count("Cast u32"), 3, "{t}");
}
