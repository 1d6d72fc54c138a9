//! Unit tests for each opcode family, built with the token writer.

use crate::testutil::*;
use crate::*;

const PS: u32 = 0;
const VS: u32 = 1;
const GS: u32 = 2;
const HS: u32 = 3;
const CS: u32 = 5;

fn decode_all(bytes: &[u8]) -> Result<Vec<Instruction<'_>>, Error> {
    Program::parse(bytes)?.instructions().collect()
}

fn shader_text(stage: u32, major: u32, minor: u32, body: &[Vec<u32>]) -> String {
    let c = container(&[(b"SHEX", program(stage, major, minor, body))]);
    disassemble(&c).expect("disassembles")
}

/// The instruction lines of a disassembly (after the profile line).
fn body_lines(text: &str) -> Vec<String> {
    let mut lines = text.lines();
    for l in lines.by_ref() {
        if !l.starts_with("//") {
            break;
        }
    }
    lines.map(|l| l.trim_end().to_string()).collect()
}

fn one(ty: OperandType, sel: Sel, i: u32) -> Vec<u32> {
    operand(ty, sel, &[Idx::Imm(i)], None)
}

#[test]
fn declarations() {
    use OperandType as T;
    let body = vec![
        inst(Opcode::DclGlobalFlags, 1 | 4, &[], &[]),
        inst(
            Opcode::DclConstantBuffer,
            0,
            &[],
            &[operand(
                T::ConstantBuffer,
                Sel::Swz([0, 1, 2, 3]),
                &[Idx::Imm(0), Idx::Imm(4)],
                None,
            )],
        ),
        inst(Opcode::DclSampler, 1, &[], &[one(T::Sampler, Sel::Zero, 0)]),
        {
            let mut v = inst(
                Opcode::DclResource,
                3,
                &[],
                &[one(T::Resource, Sel::Zero, 0)],
            );
            v.push(0x5555);
            v[0] += 1 << 24;
            v
        },
        inst(Opcode::DclInputPs, 2, &[], &[dst(T::Input, 1, 0b0011)]),
        {
            let mut v = inst(Opcode::DclOutputSiv, 0, &[], &[dst(T::Output, 0, 0xf)]);
            v.push(1);
            v[0] += 1 << 24;
            v
        },
        vec![op_token(Opcode::DclTemps, 2, 0), 3],
        vec![op_token(Opcode::DclIndexableTemp, 4, 0), 0, 4, 4],
        vec![op_token(Opcode::DclThreadGroup, 4, 0), 8, 8, 1],
        {
            let mut v = inst(
                Opcode::DclUnorderedAccessViewStructured,
                (1 << 5) | (1 << 12),
                &[],
                &[one(T::UnorderedAccessView, Sel::Zero, 1)],
            );
            v.push(16);
            v[0] += 1 << 24;
            v
        },
        {
            let mut v = inst(
                Opcode::DclThreadGroupSharedMemoryStructured,
                0,
                &[],
                &[one(T::ThreadGroupSharedMemory, Sel::Zero, 0)],
            );
            v.extend([4, 64]);
            v[0] += 2 << 24;
            v
        },
        vec![op_token(Opcode::DclFunctionBody, 2, 0), 0],
        vec![op_token(Opcode::DclFunctionTable, 5, 0), 0, 2, 0, 1],
        vec![op_token(Opcode::DclInterface, 5, 1), 0, 2, 1 | (1 << 16), 0],
    ];
    let bytes = program(PS, 5, 0, &body);
    let insts = decode_all(&bytes).expect("decodes");
    assert_eq!(insts.len(), body.len());
    assert_eq!(insts[0].payload, Payload::GlobalFlags(GlobalFlags(0b101)));
    assert!(matches!(
        insts[1].payload,
        Payload::ConstantBuffer {
            dynamic_indexed: false,
            size: 4,
            space: 0
        }
    ));
    assert!(matches!(
        insts[3].payload,
        Payload::Resource {
            dimension: ResourceDimension::Texture2D,
            return_type: [
                ReturnType::Float,
                ReturnType::Float,
                ReturnType::Float,
                ReturnType::Float
            ],
            ..
        }
    ));
    assert_eq!(insts[6].payload, Payload::Temps(3));
    assert_eq!(insts[8].payload, Payload::ThreadGroup([8, 8, 1]));
    match insts[9].payload {
        Payload::UavStructured { flags, stride, .. } => {
            assert!(flags.globally_coherent && flags.order_preserving_counter);
            assert!(!flags.rasterizer_ordered);
            assert_eq!(stride, 16);
        }
        ref p => panic!("unexpected {p:?}"),
    }
    match insts[12].payload {
        Payload::FunctionTable { id, bodies } => {
            assert_eq!(id, 0);
            assert_eq!(bodies.to_vec(), vec![0, 1]);
        }
        ref p => panic!("unexpected {p:?}"),
    }
    let text = shader_text(PS, 5, 0, &body);
    let lines = body_lines(&text);
    let expected = [
        "dcl_globalFlags refactoringAllowed | forceEarlyDepthStencil",
        "dcl_constantbuffer CB0[4], immediateIndexed",
        "dcl_sampler s0, mode_comparison",
        "dcl_resource_texture2d (float,float,float,float) t0",
        "dcl_input_ps linear v1.xy",
        "dcl_output_siv o0.xyzw, position",
        "dcl_temps 3",
        "dcl_indexableTemp x0[4], 4",
        "dcl_thread_group 8, 8, 1",
        "dcl_uav_structured_glc_opc u1, 16",
        "dcl_tgsm_structured g0, 4, 64",
        "dcl_function_body fb0",
        "dcl_function_table ft0 = {fb0, fb1}",
        "dcl_interface_dynamicindexed fp0[1][2] = {ft0}",
    ];
    assert_eq!(lines, expected);
}

#[test]
fn gs_and_hs_declarations() {
    use OperandType as T;
    let gs = vec![
        inst(Opcode::DclGsInputPrimitive, 3, &[], &[]),
        inst(Opcode::DclGsOutputPrimitiveTopology, 5, &[], &[]),
        vec![op_token(Opcode::DclMaxOutputVertexCount, 2, 0), 3],
        inst(Opcode::DclStream, 0, &[], &[one(T::Stream, Sel::Zero, 0)]),
        vec![op_token(Opcode::DclGsInstanceCount, 2, 0), 2],
        inst(
            Opcode::DclInput,
            0,
            &[],
            &[operand(
                T::Input,
                Sel::Mask(0xf),
                &[Idx::Imm(3), Idx::Imm(0)],
                None,
            )],
        ),
        inst(Opcode::EmitStream, 0, &[], &[one(T::Stream, Sel::Zero, 0)]),
    ];
    let lines = body_lines(&shader_text(GS, 5, 0, &gs));
    assert_eq!(
        lines,
        [
            "dcl_inputprimitive triangle",
            "dcl_outputtopology trianglestrip",
            "dcl_maxout 3",
            "dcl_stream m0",
            "dcl_gsinstances 2",
            "dcl_input v[3][0].xyzw",
            "emit_stream m0",
        ]
    );
    let hs = vec![
        inst(Opcode::HsDecls, 0, &[], &[]),
        inst(Opcode::DclInputControlPointCount, 3, &[], &[]),
        inst(Opcode::DclTessDomain, 2, &[], &[]),
        inst(Opcode::DclTessPartitioning, 3, &[], &[]),
        inst(Opcode::DclTessOutputPrimitive, 3, &[], &[]),
        vec![op_token(Opcode::DclHsMaxTessFactor, 2, 0), 64f32.to_bits()],
        inst(Opcode::HsForkPhase, 0, &[], &[]),
        vec![op_token(Opcode::DclHsForkPhaseInstanceCount, 2, 0), 4],
        inst(Opcode::Ret, 0, &[], &[]),
    ];
    let lines = body_lines(&shader_text(HS, 5, 0, &hs));
    assert_eq!(
        lines,
        [
            "hs_decls",
            "dcl_input_control_point_count 3",
            "dcl_tessellator_domain domain_tri",
            "dcl_tessellator_partitioning partitioning_fractional_odd",
            "dcl_tessellator_output_primitive output_triangle_cw",
            "dcl_hs_max_tessfactor l(64.000000)",
            "hs_fork_phase",
            "dcl_hs_fork_phase_instance_count 4",
            "ret",
        ]
    );
}

#[test]
fn sm51_declarations_with_space() {
    use OperandType as T;
    let range = |ty, id, lo, hi| {
        operand(
            ty,
            Sel::Zero,
            &[Idx::Imm(id), Idx::Imm(lo), Idx::Imm(hi)],
            None,
        )
    };
    let body = vec![
        {
            let mut v = inst(
                Opcode::DclConstantBuffer,
                0,
                &[],
                &[range(T::ConstantBuffer, 0, 2, 2)],
            );
            v.extend([16, 3]);
            v[0] += 2 << 24;
            v
        },
        {
            let mut v = inst(
                Opcode::DclResource,
                3,
                &[],
                &[range(T::Resource, 1, 0, u32::MAX)],
            );
            v.extend([0x5555, 1]);
            v[0] += 2 << 24;
            v
        },
        {
            let mut v = inst(Opcode::DclSampler, 0, &[], &[range(T::Sampler, 0, 0, 0)]);
            v.push(2);
            v[0] += 1 << 24;
            v
        },
    ];
    let bytes = program(CS, 5, 1, &body);
    let insts = decode_all(&bytes).expect("decodes");
    assert!(matches!(
        insts[0].payload,
        Payload::ConstantBuffer {
            size: 16,
            space: 3,
            ..
        }
    ));
    assert_eq!(insts[1].operands()[0].imm_index(2), Some(u32::MAX as u64));
    let lines = body_lines(&shader_text(CS, 5, 1, &body));
    assert_eq!(
        lines,
        [
            "dcl_constantbuffer CB0[2:2][16], immediateIndexed, space=3",
            "dcl_resource_texture2d (float,float,float,float) T1[0:*], space=1",
            "dcl_sampler S0[0:0], mode_default, space=2",
        ]
    );
}

#[test]
fn alu_and_saturate() {
    use OperandType as T;
    let body = vec![
        inst(
            Opcode::Mov,
            1 << 2, // saturate is bit 13 = controls bit 2
            &[],
            &[dst(T::Output, 0, 0xf), imm4([1f32.to_bits(), 0, 0, 0])],
        ),
        inst(
            Opcode::Mad,
            0,
            &[],
            &[
                dst(T::Temp, 0, 0b0111),
                src(T::Temp, 1, [0, 1, 2, 2]),
                src(T::Input, 2, [3, 3, 3, 3]),
                imm1(0.5f32.to_bits()),
            ],
        ),
        inst(
            Opcode::Iadd,
            0,
            &[],
            &[dst(T::Temp, 0, 1), src(T::Temp, 0, [0; 4]), imm1(u32::MAX)],
        ),
        inst(
            Opcode::And,
            0,
            &[],
            &[
                dst(T::Temp, 0, 1),
                src(T::Temp, 0, [0; 4]),
                imm1(0x3f80_0000),
            ],
        ),
        inst(
            Opcode::Mov,
            0,
            &[],
            &[
                operand(T::OutputDepth, Sel::One, &[], None),
                imm1(0.5f32.to_bits()),
            ],
        ),
        inst(Opcode::Ret, 0, &[], &[]),
    ];
    let bytes = program(PS, 4, 0, &body);
    let insts = decode_all(&bytes).expect("decodes");
    assert!(insts[0].modifiers.saturate);
    assert_eq!(insts[1].operands().len(), 4);
    assert_eq!(
        insts[1].operands()[1].components,
        Components::Swizzle([0, 1, 2, 2])
    );
    assert_eq!(
        body_lines(&shader_text(PS, 4, 0, &body)),
        [
            "mov_sat o0.xyzw, l(1.000000, 0, 0, 0)",
            "mad r0.xyz, r1.xyzz, v2.wwww, l(0.500000)",
            "iadd r0.x, r0.xxxx, l(-1)",
            "and r0.x, r0.xxxx, l(0x3f800000)",
            "mov oDepth, l(0.500000)",
            "ret",
        ]
    );
}

#[test]
fn resource_and_sample_instructions() {
    use OperandType as T;
    // Extended tokens: sample offsets (-1, 2, 0), resource dim texture2d,
    // return type float x4.
    let offsets = 1 | ((0xf) << 9) | (2 << 13);
    let dim = 2 | (3 << 6);
    let rt = 3 | (0x5555 << 6);
    let body = vec![
        inst(
            Opcode::Sample,
            0,
            &[offsets, dim, rt],
            &[
                dst(T::Temp, 0, 0xf),
                src(T::Input, 1, [0, 1, 0, 0]),
                src(T::Resource, 0, [0, 1, 2, 3]),
                one(T::Sampler, Sel::Zero, 0),
            ],
        ),
        inst(
            Opcode::LdStructured,
            0,
            &[2 | (12 << 6) | (16 << 11), 3 | (0x6666 << 6)],
            &[
                dst(T::Temp, 0, 1),
                imm1(0),
                imm1(4),
                src(T::Resource, 1, [0; 4]),
            ],
        ),
        inst(
            Opcode::ResInfo,
            2,
            &[],
            &[
                dst(T::Temp, 0, 3),
                imm1(0),
                src(T::Resource, 0, [0, 1, 2, 3]),
            ],
        ),
        inst(Opcode::Sync, 0b0011, &[], &[]),
    ];
    let bytes = program(PS, 5, 0, &body);
    let insts = decode_all(&bytes).expect("decodes");
    let m = insts[0].modifiers;
    assert_eq!(m.sample_offset, Some([-1, 2, 0]));
    assert_eq!(m.resource_dim, Some(ResourceDimension::Texture2D));
    assert_eq!(m.resource_return, Some([ReturnType::Float; 4]));
    assert_eq!(insts[1].modifiers.structure_stride, 16);
    assert_eq!(
        insts[2].modifiers.resinfo_return,
        Some(ResInfoReturnType::Uint)
    );
    assert_eq!(
        body_lines(&shader_text(PS, 5, 0, &body)),
        [
            "sample_aoffimmi(-1,2,0)_indexable(texture2d)(float,float,float,float) r0.xyzw, v1.xyxx, t0.xyzw, s0",
            "ld_structured_indexable(structured_buffer, stride=16)(mixed,mixed,mixed,mixed) r0.x, l(0), l(4), t1.xxxx",
            "resinfo_uint r0.xy, l(0), t0.xyzw",
            "sync_g_t",
        ]
    );
}

#[test]
fn control_flow_indentation_and_tests() {
    use OperandType as T;
    let sel = |r| one(T::Temp, Sel::One1(0), r);
    let body = vec![
        inst(Opcode::If, 1 << 7, &[], &[sel(0)]), // nonzero test: bit 18 = controls bit 7
        inst(Opcode::Loop, 0, &[], &[]),
        inst(Opcode::Breakc, 0, &[], &[sel(1)]),
        inst(Opcode::EndLoop, 0, &[], &[]),
        inst(Opcode::Else, 0, &[], &[]),
        inst(Opcode::Discard, 1 << 7, &[], &[sel(2)]),
        inst(Opcode::EndIf, 0, &[], &[]),
        inst(Opcode::Switch, 0, &[], &[sel(0)]),
        inst(Opcode::Case, 0, &[], &[imm1(3)]),
        inst(Opcode::Break, 0, &[], &[]),
        inst(Opcode::EndSwitch, 0, &[], &[]),
        inst(Opcode::Ret, 0, &[], &[]),
    ];
    let bytes = program(PS, 4, 0, &body);
    let insts = decode_all(&bytes).expect("decodes");
    assert_eq!(insts[0].modifiers.test, Some(Test::NonZero));
    assert_eq!(insts[2].modifiers.test, Some(Test::Zero));
    assert_eq!(
        body_lines(&shader_text(PS, 4, 0, &body)),
        [
            "if_nz r0.x",
            "  loop",
            "    breakc_z r1.x",
            "  endloop",
            "else",
            "  discard_nz r2.x",
            "endif",
            "switch r0.x",
            "  case l(3)",
            "  break",
            "endswitch",
            "ret",
        ]
    );
}

#[test]
fn custom_data_blocks() {
    let icb_class = 3u32 << 11;
    let comment_class = 0u32;
    let body = vec![
        vec![53 | icb_class, 10, 1, 2, 3, 4, 0x3f80_0000, 0, 0, 0],
        vec![53 | comment_class, 3, 0x6968],
        inst(Opcode::Ret, 0, &[], &[]),
    ];
    let bytes = program(PS, 4, 0, &body);
    let insts = decode_all(&bytes).expect("decodes");
    match insts[0].payload {
        Payload::CustomData { class, data } => {
            assert_eq!(class, CustomDataClass::ImmediateConstantBuffer);
            assert_eq!(data.to_vec(), vec![1, 2, 3, 4, 0x3f80_0000, 0, 0, 0]);
        }
        ref p => panic!("unexpected {p:?}"),
    }
    assert!(insts[0].is_declaration());
    assert_eq!(insts[1].len, 3);
    let text = shader_text(PS, 4, 0, &body);
    assert!(text.contains(
        "dcl_immediateConstantBuffer { { 1, 2, 3, 4},\n                              { 1.000000, 0, 0, 0} }"
    ));
}

#[test]
fn extended_operands() {
    use OperandType as T;
    let neg = 1 | (1 << 6);
    let absneg_min16 = 1 | (3 << 6) | (1 << 14);
    let nonuniform = 1 | (1 << 17);
    let body = vec![
        inst(
            Opcode::Add,
            0,
            &[],
            &[
                dst(T::Temp, 0, 0xf),
                operand(T::Temp, Sel::Swz([0, 1, 2, 3]), &[Idx::Imm(1)], Some(neg)),
                operand(
                    T::Temp,
                    Sel::Swz([0, 1, 2, 3]),
                    &[Idx::Imm(2)],
                    Some(absneg_min16),
                ),
            ],
        ),
        inst(
            Opcode::Mov,
            0,
            &[],
            &[
                dst(T::Temp, 0, 1),
                operand(
                    T::Resource,
                    Sel::Swz([0; 4]),
                    &[Idx::Imm(0), Idx::ImmRel(4, one(T::Temp, Sel::One1(0), 1))],
                    Some(nonuniform),
                ),
            ],
        ),
    ];
    let bytes = program(PS, 5, 1, &body);
    let insts = decode_all(&bytes).expect("decodes");
    let ops = insts[0].operands();
    assert_eq!(ops[1].modifier, OperandModifier::Neg);
    assert_eq!(ops[2].modifier, OperandModifier::AbsNeg);
    assert_eq!(ops[2].min_precision, MinPrecision::Float16);
    assert!(insts[1].operands()[1].non_uniform);
    assert_eq!(
        body_lines(&shader_text(PS, 5, 1, &body)),
        [
            "add r0.xyzw, -r1.xyzw, -|r2.xyzw| {min16f}",
            "mov r0.x, T0[r1.x + 4].xxxx {nonuniform}",
        ]
    );
}

#[test]
fn immediate_64_bit_values_and_indices() {
    use OperandType as T;
    let d = |v: f64| {
        let b = v.to_bits();
        [b as u32, (b >> 32) as u32]
    };
    let [a0, a1] = d(1.5);
    let [b0, b1] = d(-2.0);
    let imm64 = vec![2 | ((T::Immediate64 as u32) << 12), a0, a1, b0, b1];
    let body = vec![
        inst(Opcode::Dmov, 0, &[], &[dst(T::Temp, 0, 0xf), imm64]),
        inst(
            Opcode::Mov,
            0,
            &[],
            &[
                dst(T::Temp, 0, 1),
                operand(
                    T::IndexableTemp,
                    Sel::One1(0),
                    &[Idx::Imm(0), Idx::Imm64(7)],
                    None,
                ),
            ],
        ),
    ];
    let bytes = program(VS, 5, 0, &body);
    let insts = decode_all(&bytes).expect("decodes");
    let op = &insts[0].operands()[1];
    assert_eq!(op.imm_count(), 2);
    assert_eq!(f64::from_bits(op.imm64(0)), 1.5);
    assert_eq!(f64::from_bits(op.imm64(1)), -2.0);
    assert_eq!(insts[1].operands()[1].imm_index(1), Some(7));
    assert_eq!(
        body_lines(&shader_text(VS, 5, 0, &body)),
        ["dmov r0.xyzw, d(1.500000, -2.000000)", "mov r0.x, x0[7].x"]
    );
}

#[test]
fn relative_indexing() {
    use OperandType as T;
    let rel = |r, c| one(T::Temp, Sel::One1(c), r);
    let body = vec![
        inst(
            Opcode::Mov,
            0,
            &[],
            &[
                dst(T::Temp, 0, 0xf),
                operand(
                    T::ConstantBuffer,
                    Sel::Swz([0, 1, 2, 3]),
                    &[Idx::Imm(0), Idx::ImmRel(3, rel(0, 0))],
                    None,
                ),
            ],
        ),
        inst(
            Opcode::Mov,
            0,
            &[],
            &[
                operand(
                    T::Output,
                    Sel::Mask(0xf),
                    &[Idx::ImmRel(1, rel(1, 1))],
                    None,
                ),
                operand(
                    T::IndexableTemp,
                    Sel::Swz([0, 1, 2, 3]),
                    &[Idx::Imm(0), Idx::Rel(rel(2, 3))],
                    None,
                ),
            ],
        ),
    ];
    let bytes = program(VS, 4, 0, &body);
    let insts = decode_all(&bytes).expect("decodes");
    let idx = insts[0].operands()[1].indices()[1];
    assert_eq!(idx.imm, 3);
    let r = idx.relative.expect("relative");
    assert_eq!(
        (r.ty, r.component(), r.indices()),
        (T::Temp, 0, &[0u32][..])
    );
    assert_eq!(
        body_lines(&shader_text(VS, 4, 0, &body)),
        [
            "mov r0.xyzw, cb0[r0.x + 3].xyzw",
            "mov o[r1.y + 1].xyzw, x0[r2.w + 0].xyzw",
        ]
    );
    // A relative register that is itself relatively indexed is refused.
    let nested = operand(T::Temp, Sel::One1(0), &[Idx::Rel(rel(0, 0))], None);
    let body = vec![inst(
        Opcode::Mov,
        0,
        &[],
        &[
            dst(T::Temp, 0, 1),
            operand(
                T::ConstantBuffer,
                Sel::Swz([0; 4]),
                &[Idx::Imm(0), Idx::Rel(nested)],
                None,
            ),
        ],
    )];
    let bytes = program(VS, 4, 0, &body);
    let err = decode_all(&bytes).expect_err("nested relative index");
    assert!(matches!(
        err,
        Error::Decode {
            instruction: 0,
            kind: DecodeErrorKind::NestingTooDeep,
            ..
        }
    ));
}

#[test]
fn malformed_programs_report_offsets() {
    use OperandType as T;
    // Unknown opcode at token 4 (second instruction).
    let body = vec![inst(Opcode::Ret, 0, &[], &[]), vec![(1 << 24) | 0x7ff]];
    let bytes = program(PS, 4, 0, &body);
    assert_eq!(
        decode_all(&bytes).expect_err("unknown opcode"),
        Error::Decode {
            offset: 3,
            instruction: 1,
            kind: DecodeErrorKind::UnknownOpcode(0x7ff)
        }
    );
    // Instruction length running past the program.
    let body = vec![vec![op_token(Opcode::Mov, 9, 0), 0]];
    let err = decode_all(&program(PS, 4, 0, &body)).expect_err("bad length");
    assert!(matches!(
        err,
        Error::Decode {
            offset: 2,
            kind: DecodeErrorKind::BadLength(9),
            ..
        }
    ));
    // Operand running past its instruction: mov with a 4-component
    // immediate but length 3.
    let mut v = inst(Opcode::Mov, 0, &[], &[dst(T::Temp, 0, 1), imm4([0; 4])]);
    v[0] = op_token(Opcode::Mov, 4, 0);
    let err = decode_all(&program(PS, 4, 0, &[v])).expect_err("truncated operand");
    assert!(matches!(
        err,
        Error::Decode {
            kind: DecodeErrorKind::Truncated,
            ..
        }
    ));
    // Unknown operand type.
    let body = vec![vec![op_token(Opcode::Mov, 2, 0), 0xff << 12]];
    let err = decode_all(&program(PS, 4, 0, &body)).expect_err("operand type");
    assert_eq!(
        err,
        Error::Decode {
            offset: 3,
            instruction: 0,
            kind: DecodeErrorKind::UnknownOperandType(0xff)
        }
    );
    // Bad declaration enum.
    let body = vec![inst(Opcode::DclTessDomain, 0, &[], &[]), {
        let mut v = inst(Opcode::DclSampler, 9, &[], &[one(T::Sampler, Sel::Zero, 0)]);
        v[0] |= 0;
        v
    }];
    let err = decode_all(&program(HS, 5, 0, &body)).expect_err("sampler mode");
    assert!(matches!(
        err,
        Error::Decode {
            instruction: 1,
            kind: DecodeErrorKind::BadEnum { .. },
            ..
        }
    ));
    // Unknown extended opcode type.
    let body = vec![inst(Opcode::Ret, 0, &[0x3f], &[])];
    let err = decode_all(&program(PS, 5, 0, &body)).expect_err("extended opcode");
    assert!(matches!(
        err,
        Error::Decode {
            kind: DecodeErrorKind::UnknownExtendedOpcode(0x3f),
            ..
        }
    ));
    // Too many operands.
    let ops: Vec<Vec<u32>> = (0..10).map(|_| imm1(0)).collect();
    let err =
        decode_all(&program(PS, 5, 0, &[inst(Opcode::Mov, 0, &[], &ops)])).expect_err("operands");
    assert!(matches!(
        err,
        Error::Decode {
            kind: DecodeErrorKind::TooManyOperands,
            ..
        }
    ));
    // Program header problems.
    assert!(Program::parse(&[0; 4]).is_err());
    assert!(Program::parse(&to_bytes(&[version(7, 5, 0), 2])).is_err());
    assert!(Program::parse(&to_bytes(&[version(0, 3, 0), 2])).is_err());
    assert!(Program::parse(&to_bytes(&[version(0, 5, 0), 100])).is_err());
}

#[test]
fn container_parts_and_checks() {
    let prog = program(PS, 4, 0, &[inst(Opcode::Ret, 0, &[], &[])]);
    let isgn = signature(&[("TEXCOORD", 0, 0, 3, 1, 0b0011, 0b0011)]);
    let osgn = signature(&[("SV_Target", 0, 64, 3, 0, 0xf, 0)]);
    let c = container(&[
        (b"ISGN", isgn),
        (b"OSGN", osgn),
        (b"Aon9", vec![1, 2, 3, 4]),
        (b"SHDR", prog.clone()),
    ]);
    let s = Shader::parse(&c).expect("parses");
    assert!(s.warnings.is_empty());
    assert_eq!(s.skipped, vec![FourCC(*b"Aon9")]);
    let input = s.input_signature.as_ref().expect("ISGN");
    assert_eq!(input.elements[0].semantic_name, "TEXCOORD");
    assert_eq!(input.elements[0].register, 1);
    let text = disassemble(&c).expect("disassembles");
    assert!(
        text.contains("// TEXCOORD                 0   xy          1     NONE   float   xy  \n")
    );
    assert!(
        text.contains("// SV_Target                0   xyzw        0   TARGET   float   xyzw\n")
    );

    // Checksum mismatch is a warning.
    let mut bad = c.clone();
    bad[4] ^= 1;
    let s = Shader::parse(&bad).expect("still parses");
    assert!(matches!(s.warnings[0], Warning::ChecksumMismatch { .. }));
    assert_eq!(s.container.checksum_ok(), Some(false));
    assert_eq!(
        Shader::parse(&c).expect("parses").container.checksum_ok(),
        Some(true)
    );
    // Without verification the checksum is not computed and no mismatch is reported; the
    // rest of the result is the same.
    let fast = ParseOptions {
        verify_checksum: false,
    };
    let s = Shader::parse_with(&bad, &fast).expect("still parses");
    assert!(s.warnings.is_empty());
    assert_eq!(s.container.computed_checksum, None);
    assert_eq!(s.container.checksum_ok(), None);
    assert_eq!(s.skipped, vec![FourCC(*b"Aon9")]);
    assert_eq!(
        s.input_signature.as_ref().map(|i| i.elements.len()),
        Some(1)
    );
    assert!(Shader::parse_with(&bad[..20], &fast).is_err());
    assert!(matches!(
        Shader::parse_with(&container(&[(b"DXIL", vec![0; 16])]), &fast),
        Err(Error::Dxil { .. })
    ));

    // DXIL is refused with a clear error.
    let dxil = container(&[(b"DXIL", vec![0; 16])]);
    let err = Shader::parse(&dxil).expect_err("dxil");
    assert!(err.to_string().contains("DXIL: not supported yet"));

    // Bounds checks.
    assert!(Container::parse(&c[..20]).is_err());
    let mut wrong = c.clone();
    wrong[0] = b'X';
    assert!(Container::parse(&wrong).is_err());
    let mut huge = c.clone();
    huge[28..32].copy_from_slice(&u32::MAX.to_le_bytes());
    assert!(Container::parse(&huge).is_err());
    let mut out_of_range = c.clone();
    out_of_range[32..36].copy_from_slice(&0xffff_fff0u32.to_le_bytes());
    assert!(Container::parse(&out_of_range).is_err());
    assert!(matches!(
        Shader::parse(&container(&[(b"ISGN", signature(&[]))])),
        Err(Error::NoProgram)
    ));
    // Huge element counts are rejected before allocating.
    let mut sig = signature(&[]);
    sig[..4].copy_from_slice(&u32::MAX.to_le_bytes());
    assert!(Signature::parse(FourCC::ISGN, &sig).is_err());
}

/// Deterministic pseudo-random corruption of a valid container must never
/// panic: every outcome is Ok or Err.
#[test]
fn corrupted_inputs_never_panic() {
    use OperandType as T;
    let prog = program(
        PS,
        5,
        0,
        &[
            inst(
                Opcode::Sample,
                0,
                &[2 | (3 << 6), 3 | (0x5555 << 6)],
                &[
                    dst(T::Temp, 0, 0xf),
                    src(T::Input, 1, [0, 1, 0, 0]),
                    src(T::Resource, 0, [0, 1, 2, 3]),
                    one(T::Sampler, Sel::Zero, 0),
                ],
            ),
            vec![53 | (3 << 11), 6, 1, 2, 3, 4],
            inst(Opcode::Ret, 0, &[], &[]),
        ],
    );
    let c = container(&[
        (b"ISGN", signature(&[("A", 0, 0, 3, 0, 1, 1)])),
        (b"SHEX", prog),
    ]);
    let mut seed = 0x1234_5678u32;
    let mut rnd = || {
        seed ^= seed << 13;
        seed ^= seed >> 17;
        seed ^= seed << 5;
        seed
    };
    for _ in 0..3000 {
        let mut m = c.clone();
        for _ in 0..(rnd() % 4 + 1) {
            let i = rnd() as usize % m.len();
            m[i] = rnd() as u8;
        }
        let cut = m.len() - (rnd() as usize % 8);
        let _ = disassemble(&m[..cut]);
        if let Ok(s) = Shader::parse(&m[..cut]) {
            for i in s.program.instructions() {
                let _ = i;
            }
        }
    }
}

/// Operands are stored inline; keep them small so decoding stays fast.
#[test]
fn operand_stays_small() {
    assert!(core::mem::size_of::<Operand>() <= 128);
}

/// Fuzz regression (`dxbc_convert`): a relatively indexed input read whose immediate
/// base is near `u32::MAX` made `dynamic_range` return a range whose end overflowed
/// `u32` (`start + count` in `load_io_comps` / the output store). It must be an error.
#[test]
fn fuzz_dynamic_io_range_end_overflow() {
    let bytes = include_bytes!("../tests/fuzz_inputs/dynamic_io_range_end_overflow.dxbc");
    let shader = Shader::parse(bytes).expect("container parses");
    if let Ok(b) = convert(&shader) {
        assert!(dxspv_ir::validate(&b, dxspv_ir::Level::Structural).is_ok());
    }
}

/// Fuzz regression (`pipeline`, bug in `dxspv_ir::passes::simplify_arith::run`): a value
/// that simplified to a loop phi which used it on its back edge was replaced by that phi,
/// leaving the phi referencing itself and failing validation after `simplify_arith`.
#[test]
fn fuzz_simplify_arith_self_referencing_phi() {
    let bytes = include_bytes!("../tests/fuzz_inputs/simplify_arith_self_referencing_phi.dxbc");
    let shader = Shader::parse(bytes).expect("container parses");
    let Ok(mut b) = convert(&shader) else {
        return;
    };
    let opts = dxspv_ir::passes::options::Options {
        validate_each_pass: true,
        ..Default::default()
    };
    if let Err(e) = dxspv_ir::passes::pipeline::run_pipeline(&mut b, &opts) {
        assert!(
            !matches!(e, dxspv_ir::passes::error::PassError::Validation { .. }),
            "a pass corrupted the IR: {e}"
        );
    }
}

#[test]
fn declaration_only_decoding_skips_code_and_keeps_step() {
    use OperandType as T;
    let body = vec![
        inst(Opcode::DclTemps, 0, &[], &[vec![2]]),
        inst(
            Opcode::Add,
            0,
            &[],
            &[
                dst(T::Temp, 0, 0xf),
                src(T::Temp, 1, [0, 1, 2, 3]),
                src(T::Temp, 0, [0, 1, 2, 3]),
            ],
        ),
        inst(
            Opcode::DclIndexRange,
            0,
            &[],
            &[dst(T::Input, 1, 0xf), vec![3]],
        ),
        inst(Opcode::Ret, 0, &[], &[]),
    ];
    let bytes = program(PS, 5, 0, &body);
    let full = decode_all(&bytes).expect("decodes");
    let program = Program::parse(&bytes).expect("parses");
    let mut insts = program.instructions();
    let mut inst = Instruction::default();
    let mut seen = Vec::new();
    while let Some(r) = insts.next_declaration_into(&mut inst) {
        r.expect("decodes");
        seen.push((
            inst.opcode,
            inst.offset,
            inst.len,
            inst.index,
            inst.operands().len(),
        ));
    }
    let expected: Vec<_> = full
        .iter()
        .map(|i| {
            let operands = if i.is_declaration() {
                i.operands().len()
            } else {
                0
            };
            (i.opcode, i.offset, i.len, i.index, operands)
        })
        .collect();
    assert_eq!(seen, expected);
    // The declarations keep their operands and payload; the `add` comes back bare.
    assert_eq!(seen[1], (Opcode::Add, full[1].offset, full[1].len, 1, 0));
    assert_eq!(seen[2].4, full[2].operands().len());
    assert!(full[2].operands().len() == 1);
}

#[test]
fn declaration_only_decoding_reports_a_bad_length() {
    // An `add` whose length field runs past the program is an error either way.
    let mut body = vec![inst(Opcode::Ret, 0, &[], &[])];
    body.insert(0, vec![op_token(Opcode::Add, 100, 0)]);
    let bytes = program(PS, 5, 0, &body);
    let program = Program::parse(&bytes).expect("parses");
    let mut insts = program.instructions();
    let mut inst = Instruction::default();
    let first = insts
        .next_declaration_into(&mut inst)
        .expect("an instruction");
    assert!(first.is_err());
    assert!(insts.next_declaration_into(&mut inst).is_none());
}

#[test]
fn selected_decoding_skips_unselected_declarations() {
    use OperandType as T;
    let body = vec![
        inst(Opcode::DclTemps, 0, &[], &[vec![2]]),
        inst(
            Opcode::DclIndexRange,
            0,
            &[],
            &[dst(T::Input, 1, 0xf), vec![3]],
        ),
        inst(Opcode::Ret, 0, &[], &[]),
    ];
    let bytes = program(PS, 5, 0, &body);
    let full = decode_all(&bytes).expect("decodes");
    let program = Program::parse(&bytes).expect("parses");
    let mut insts = program.instructions();
    let mut inst = Instruction::default();
    let mut seen = Vec::new();
    while let Some(r) = insts.next_selected_into(&mut inst, |o| o == Opcode::DclIndexRange) {
        r.expect("decodes");
        seen.push((
            inst.opcode,
            inst.offset,
            inst.len,
            inst.index,
            inst.operands().len(),
            inst.payload == Payload::None,
        ));
    }
    // `dcl_temps` comes back bare (no payload), the index range in full.
    assert_eq!(
        seen,
        vec![
            (Opcode::DclTemps, full[0].offset, full[0].len, 0, 0, true),
            (
                Opcode::DclIndexRange,
                full[1].offset,
                full[1].len,
                1,
                1,
                false
            ),
            (Opcode::Ret, full[2].offset, full[2].len, 2, 0, true),
        ]
    );
    assert_eq!(full[0].payload, Payload::Temps(2));
}
