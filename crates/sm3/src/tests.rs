//! Unit tests: each builds its own token stream for one feature of the format.

use crate::disasm::write_float;
use crate::error::{DecodeErrorKind as K, Error};
use crate::testutil::*;
use crate::*;

fn kind(e: Error) -> K {
    match e {
        Error::Decode { kind, .. } => kind,
        other => panic!("expected a decode error, got {other}"),
    }
}

const VS11: u32 = 0xFFFE_0101;
const VS20: u32 = 0xFFFE_0200;
const VS2X: u32 = 0xFFFE_0201;
const VS30: u32 = 0xFFFE_0300;
const PS11: u32 = 0xFFFF_0101;
const PS14: u32 = 0xFFFF_0104;
const PS20: u32 = 0xFFFF_0200;
const PS30: u32 = 0xFFFF_0300;

// ---------------------------------------------------------------- version token

#[test]
fn every_direct3d9_version_reads_with_its_profile_name() {
    let cases: &[(u32, &str)] = &[
        (0xFFFE_0100, "vs_1_0"),
        (0xFFFE_0101, "vs_1_1"),
        (0xFFFE_0200, "vs_2_0"),
        (0xFFFE_0201, "vs_2_x"),
        (0xFFFE_02FF, "vs_2_sw"),
        (0xFFFE_0300, "vs_3_0"),
        (0xFFFE_03FF, "vs_3_sw"),
        (0xFFFF_0100, "ps_1_0"),
        (0xFFFF_0101, "ps_1_1"),
        (0xFFFF_0102, "ps_1_2"),
        (0xFFFF_0103, "ps_1_3"),
        (0xFFFF_0104, "ps_1_4"),
        (0xFFFF_0200, "ps_2_0"),
        (0xFFFF_0201, "ps_2_x"),
        (0xFFFF_02FF, "ps_2_sw"),
        (0xFFFF_0300, "ps_3_0"),
        (0xFFFF_03FF, "ps_3_sw"),
    ];
    for &(token, name) in cases {
        let v = Version::from_token(token).expect(name);
        assert_eq!(v.to_string(), name);
        assert_eq!(v.token(), token);
        let data = bytes(&[token, END]);
        let shader = Shader::parse(&data).expect(name);
        assert_eq!(shader.version, v);
        assert_eq!(shader.instruction_count, 0);
    }
    assert!(Version::from_token(0xFFFE_03FF).unwrap().is_software());
    assert!(Version::from_token(0xFFFE_02FF).unwrap().at_least(2, 1));
}

#[test]
fn versions_direct3d9_does_not_define_are_errors() {
    for token in [
        0xFFFE_0102,
        0xFFFE_0202,
        0xFFFE_0301,
        0xFFFE_0400,
        0xFFFF_0105,
        0xFFFF_0301,
        0xFFFF_0000,
        0x4658_0200,
        0x0001_0040,
    ] {
        assert!(
            matches!(
                Shader::parse(&bytes(&[token, END])),
                Err(Error::Version { .. })
            ),
            "{token:08x}"
        );
    }
    assert!(matches!(
        Shader::parse(&[1, 2]),
        Err(Error::TooShort { len: 2 })
    ));
}

// ---------------------------------------------------------------- stream structure

#[test]
fn end_token_is_required_and_exact() {
    assert_eq!(
        kind(Shader::parse(&bytes(&[VS20, inst(op::NOP, 0, 0)])).unwrap_err()),
        K::MissingEndToken
    );
    assert_eq!(
        kind(Shader::parse(&bytes(&[VS20, 0x0001_FFFF])).unwrap_err()),
        K::BadEndToken(0x0001_FFFF)
    );
    // Data after the end token is not part of the shader.
    let data = bytes(&[VS20, END, 0xDEAD_BEEF, 7]);
    let s = Shader::parse(&data).unwrap();
    assert_eq!(s.tokens.len(), 2);
}

#[test]
fn model_1_lengths_come_from_parameter_bit_31() {
    // vs_1_1: mov r0, c0 / add r1, r0, v0 / nop
    let words = [
        VS11,
        inst1(op::MOV),
        dst(ty::TEMP, 0, 0xF),
        src(ty::CONST, 0, XYZW),
        inst1(op::ADD),
        dst(ty::TEMP, 1, 0xF),
        src(ty::TEMP, 0, XYZW),
        src(ty::INPUT, 0, XYZW),
        inst1(op::NOP),
        END,
    ];
    let all = decode_all(&words).unwrap();
    let lens: Vec<(Opcode, u32, u32)> = all.iter().map(|i| (i.opcode, i.offset, i.len)).collect();
    assert_eq!(
        lens,
        [
            (Opcode::Mov, 1, 3),
            (Opcode::Add, 4, 4),
            (Opcode::Nop, 8, 1)
        ]
    );
    assert_eq!(all[1].sources().len(), 2);
}

#[test]
fn model_1_def_takes_four_raw_values_whatever_their_sign_bit() {
    // def c0, -1, 0.5, -0, 2: -1 and -0 have bit 31 set, 0.5 and 2 do not.
    let v = [
        (-1.0f32).to_bits(),
        0.5f32.to_bits(),
        (-0.0f32).to_bits(),
        2.0f32.to_bits(),
    ];
    let words = [
        PS11,
        inst1(op::DEF),
        dst(ty::CONST, 0, 0xF),
        v[0],
        v[1],
        v[2],
        v[3],
        END,
    ];
    let i = decode_one(&words);
    assert_eq!(i.len, 6);
    assert_eq!(i.payload, Payload::Def(v));
    assert_eq!(disasm_body(&words), ["    def c0, -1, 0.5, -0, 2"]);
}

#[test]
fn model_2_lengths_come_from_the_length_field() {
    let words = [
        VS20,
        inst(op::MOV, 2, 0),
        dst(ty::TEMP, 0, 0xF),
        src(ty::CONST, 3, XYZW),
        END,
    ];
    let i = decode_one(&words);
    assert_eq!((i.opcode, i.len), (Opcode::Mov, 3));
    // A length past the data.
    let e = decode_error(&[VS20, inst(op::MOV, 9, 0), dst(ty::TEMP, 0, 0xF), END]);
    assert_eq!(kind(e), K::Truncated);
    // Too short for the destination.
    let e = decode_error(&[VS20, inst(op::MOV, 1, 0), dst(ty::TEMP, 0, 0xF), END]);
    assert_eq!(
        kind(e),
        K::OperandCount {
            opcode: Opcode::Mov,
            found: 0,
            expected: 1
        }
    );
    let e = decode_error(&[VS20, inst(op::MOV, 0, 0), END]);
    assert_eq!(kind(e), K::MissingParameter);
    // One parameter too many.
    let e = decode_error(&[
        VS20,
        inst(op::MOV, 3, 0),
        dst(ty::TEMP, 0, 0xF),
        src(ty::TEMP, 1, XYZW),
        src(ty::TEMP, 2, XYZW),
        END,
    ]);
    assert_eq!(
        kind(e),
        K::OperandCount {
            opcode: Opcode::Mov,
            found: 2,
            expected: 1
        }
    );
    // A def whose length field leaves a token over.
    let e = decode_error(&[
        VS20,
        inst(op::DEF, 6, 0),
        dst(ty::CONST, 0, 0xF),
        0,
        0,
        0,
        0,
        0,
        END,
    ]);
    assert_eq!(
        kind(e),
        K::LengthMismatch {
            declared: 6,
            used: 5
        }
    );
}

#[test]
fn errors_name_the_token_offset_and_instruction_index() {
    // The third instruction (index 2) reads register type 20 at token 6.
    let words = [
        VS20,
        inst(op::NOP, 0, 0),
        inst(op::MOV, 2, 0),
        dst(ty::TEMP, 0, 0xF),
        src(ty::TEMP, 1, XYZW),
        inst(op::MOV, 2, 0),
        dst(20, 0, 0xF),
        src(ty::TEMP, 1, XYZW),
        END,
    ];
    assert_eq!(
        decode_error(&words),
        Error::Decode {
            offset: 6,
            instruction: 2,
            kind: K::UnknownRegisterType(20)
        }
    );
    assert_eq!(
        decode_error(&words).to_string(),
        "token 6 (instruction 2): unknown register type 20"
    );
}

#[test]
fn unknown_opcodes_and_misplaced_token_kinds_are_errors() {
    assert_eq!(
        kind(decode_error(&[VS20, inst(75, 0, 0), END])),
        K::UnknownOpcode(75)
    );
    assert_eq!(
        kind(decode_error(&[VS20, inst(49, 0, 0), END])),
        K::UnknownOpcode(49)
    );
    let bad = 0x8000_0001;
    assert_eq!(
        kind(decode_error(&[VS20, bad, END])),
        K::NotAnInstructionToken(bad)
    );
    // A source token without bit 31.
    let e = decode_error(&[
        VS20,
        inst(op::MOV, 2, 0),
        dst(ty::TEMP, 0, 0xF),
        0x00E4_0000,
        END,
    ]);
    assert_eq!(kind(e), K::NotAParameterToken(0x00E4_0000));
}

#[test]
fn every_opcode_number_round_trips() {
    for &o in Opcode::ALL {
        assert_eq!(Opcode::from_raw(o as u32), Some(o));
    }
    assert_eq!(Opcode::ALL.len(), 49 + 33 - 1 + 3);
}

// ---------------------------------------------------------------- comments and CTAB

#[test]
fn comments_are_yielded_with_their_words_and_not_counted() {
    let fourcc = u32::from_le_bytes(*b"TEXT");
    let words = [
        VS20,
        0x0002_FFFE,
        fourcc,
        0x1234_5678,
        inst(op::NOP, 0, 0),
        0x0000_FFFE,
        inst(op::NOP, 0, 0),
        END,
    ];
    let all = decode_all(&words).unwrap();
    assert_eq!(all.len(), 4);
    assert!(all[0].is_comment());
    let Payload::Comment(c) = all[0].payload else {
        panic!("comment payload")
    };
    assert_eq!(c.fourcc(), Some(*b"TEXT"));
    assert_eq!(c.data.to_vec(), [fourcc, 0x1234_5678]);
    assert_eq!((all[1].index, all[3].index), (0, 1));
    assert_eq!(
        all[2].index, 1,
        "a comment carries the next instruction's index"
    );
    let data = bytes(&words);
    let shader = Shader::parse(&data).unwrap();
    assert_eq!(shader.instruction_count, 2);
    assert_eq!(shader.comments.len(), 2);
    assert!(shader.constant_table.is_none());
    // The disassembly shows no comment lines.
    assert_eq!(disasm_body(&words), ["    nop", "    nop"]);
    // A comment longer than the data.
    let e = Shader::parse(&bytes(&[VS20, 0x0009_FFFE, END])).unwrap_err();
    assert_eq!(kind(e), K::CommentTooLong(9));
}

/// A CTAB comment holding `table` (the bytes after the fourcc), padded to words.
fn ctab_shader(version: u32, table: &[u8]) -> Vec<u8> {
    let mut t = table.to_vec();
    while t.len() & 3 != 0 {
        t.push(0xAB);
    }
    let n = t.len() / 4 + 1;
    let mut out = bytes(&[version, (n as u32) << 16 | 0xFFFE, CTAB_FOURCC]);
    out.extend_from_slice(&t);
    out.extend_from_slice(&bytes(&[inst(op::NOP, 0, 0), END]));
    out
}

/// Little-endian table writer.
struct Table(Vec<u8>);

impl Table {
    fn u16(&mut self, v: u16) -> &mut Self {
        self.0.extend_from_slice(&v.to_le_bytes());
        self
    }
    fn u32(&mut self, v: u32) -> &mut Self {
        self.0.extend_from_slice(&v.to_le_bytes());
        self
    }
    fn str(&mut self, s: &str) -> &mut Self {
        self.0.extend_from_slice(s.as_bytes());
        self.0.push(0);
        self
    }
}

/// Header with `count` constants whose infos start at byte 28, creator and target at
/// `strings`.
fn header(t: &mut Table, count: u32, strings: u32) {
    t.u32(28)
        .u32(strings)
        .u32(VS30)
        .u32(count)
        .u32(28)
        .u32(0)
        .u32(strings);
}

#[test]
fn constant_table_with_struct_members_and_default_values() {
    // One struct constant `s { float2 a; float b[2]; }` in c4-c6 with defaults.
    let mut t = Table(Vec::new());
    header(&mut t, 1, 0); // strings patched below
                          // constant info at 28: name, set, index, count, reserved, type, default
    t.u32(48).u16(2).u16(4).u16(3).u16(0).u32(52).u32(100);
    t.str("s\0\0"); // 48..52 (padded)
                    // struct type at 52: class 5, type 0, 1 row, 3 columns, 1 element, 2 members at 68
    t.u16(5).u16(0).u16(1).u16(3).u16(1).u16(2).u32(68);
    // members at 68: (name 84, type 88), (name 86, type 104 -> see below)
    t.u32(84).u32(88).u32(86).u32(148);
    t.str("a").str("b"); // 84, 86
                         // float2 at 88
    t.u16(1).u16(3).u16(1).u16(2).u16(1).u16(0).u32(0);
    // defaults at 104: 3 registers x 4 words, but placed at 100: pad to 100 first
    assert_eq!(t.0.len(), 104);
    t.0.truncate(100);
    for v in 0..12u32 {
        t.u32(v);
    }
    // float[2] at 148
    t.u16(0).u16(3).u16(1).u16(1).u16(2).u16(0).u32(0);
    t.str("vs_3_0"); // 164: creator/target
    let strings = 164u32;
    t.0[4..8].copy_from_slice(&strings.to_le_bytes());
    t.0[24..28].copy_from_slice(&strings.to_le_bytes());
    let data = ctab_shader(VS30, &t.0);
    let shader = Shader::parse(&data).unwrap();
    assert!(shader.warnings.is_empty(), "{:?}", shader.warnings);
    let ctab = shader.constant_table.as_ref().unwrap();
    assert_eq!(
        (ctab.creator.as_str(), ctab.target.as_str()),
        ("vs_3_0", "vs_3_0")
    );
    let c = ctab.constant("s").unwrap();
    assert_eq!(
        (c.register_set, c.register_index, c.register_count),
        (RegisterSet::Float4, 4, 3)
    );
    assert_eq!(
        c.default_value.as_deref(),
        Some(&(0..12).collect::<Vec<u32>>()[..])
    );
    let ty = ctab.type_info(c.ty.unwrap()).unwrap();
    assert_eq!(ty.class, ParameterClass::Struct);
    let members = ctab.members_of(ty);
    assert_eq!(members.len(), 2);
    assert_eq!(members[0].name, "a");
    let a = ctab.type_info(members[0].ty.unwrap()).unwrap();
    assert_eq!(
        (a.class, a.ty, a.rows, a.columns),
        (ParameterClass::Vector, ParameterType::Float, 1, 2)
    );
    let b = ctab.type_info(members[1].ty.unwrap()).unwrap();
    assert_eq!((b.class, b.elements), (ParameterClass::Scalar, 2));
    // The header block lists the constant and its registers.
    let text = disassemble(&data).unwrap();
    assert!(text.contains("//   s    c4       3\n"), "{text}");
    assert!(text.contains("//       float2 a;\n"), "{text}");
    assert!(text.contains("//       float b[2];\n"), "{text}");
}

#[test]
fn malformed_constant_tables_are_warnings_and_the_shader_still_reads() {
    let cases: Vec<(&str, Vec<u8>)> = vec![
        ("short header", vec![28, 0, 0, 0, 1]),
        ("size field", {
            let mut t = Table(Vec::new());
            t.u32(29).u32(0).u32(VS30).u32(0).u32(28).u32(0).u32(0);
            t.0
        }),
        ("constants past the end", {
            let mut t = Table(Vec::new());
            header(&mut t, 1000, 0);
            t.0
        }),
        ("unterminated name", {
            let mut t = Table(Vec::new());
            header(&mut t, 1, 0);
            t.u32(48).u16(2).u16(0).u16(1).u16(0).u32(0).u32(0);
            t.0.extend_from_slice(b"abcd");
            t.0
        }),
        ("type refers to itself", {
            let mut t = Table(Vec::new());
            header(&mut t, 1, 0);
            t.u32(0).u16(2).u16(0).u16(1).u16(0).u32(48).u32(0);
            // struct at 48 with one member whose type is 48 again
            t.u16(5).u16(0).u16(1).u16(1).u16(1).u16(1).u32(64);
            t.u32(0).u32(48);
            t.0
        }),
        ("default value past the end", {
            let mut t = Table(Vec::new());
            header(&mut t, 1, 0);
            t.u32(0).u16(2).u16(0).u16(4).u16(0).u32(0).u32(48);
            t.0
        }),
        ("unknown register set", {
            let mut t = Table(Vec::new());
            header(&mut t, 1, 0);
            t.u32(0).u16(9).u16(0).u16(1).u16(0).u32(0).u32(0);
            t.0
        }),
    ];
    for (what, table) in cases {
        let data = ctab_shader(VS30, &table);
        let shader = Shader::parse(&data).unwrap_or_else(|e| panic!("{what}: {e}"));
        assert!(!shader.warnings.is_empty(), "{what}: no warning");
        assert!(
            matches!(
                shader.warnings[0],
                Warning::ConstantTable {
                    comment_offset: 1,
                    ..
                }
            ),
            "{what}: {:?}",
            shader.warnings
        );
        assert_eq!(shader.instruction_count, 1, "{what}");
        disassemble(&data).unwrap_or_else(|e| panic!("{what}: {e}"));
    }
}

#[test]
fn shared_struct_types_print_with_bounded_output() {
    // A chain of 30 struct types, each with two members of the next: 2^30 leaves if
    // printed as a tree. The header stays small.
    let mut t = Table(Vec::new());
    header(&mut t, 1, 0);
    t.u32(0).u16(2).u16(0).u16(1).u16(0).u32(48).u32(0);
    let base = 48u32;
    for k in 0..30u32 {
        let at = base + k * 32;
        assert_eq!(t.0.len() as u32, at);
        let next = at + 32;
        t.u16(5).u16(0).u16(1).u16(1).u16(1).u16(2).u32(at + 16);
        t.u32(0).u32(next).u32(0).u32(next);
    }
    t.u16(0).u16(3).u16(1).u16(1).u16(1).u16(0).u32(0);
    let data = ctab_shader(VS30, &t.0);
    let shader = Shader::parse(&data).unwrap();
    assert_eq!(shader.constant_table.as_ref().unwrap().types.len(), 31);
    let text = disassemble(&data).unwrap();
    assert!(text.len() < 100_000, "{} bytes", text.len());
    assert!(text.contains("//   ...\n"));
}

// ---------------------------------------------------------------- registers

#[test]
fn register_types_split_over_two_fields_resolve_per_file() {
    let cases: &[(u32, u32, u32, RegisterType, u32, &str)] = &[
        (VS30, ty::CONSTBOOL, 5, RegisterType::ConstBool, 5, "b5"),
        (VS30, ty::CONSTINT, 3, RegisterType::ConstInt, 3, "i3"),
        (VS30, ty::LOOP, 0, RegisterType::Loop, 0, "aL"),
        (VS30, ty::LABEL, 7, RegisterType::Label, 7, "l7"),
        (VS30, ty::PREDICATE, 0, RegisterType::Predicate, 0, "p0"),
        (VS30, ty::SAMPLER, 3, RegisterType::Sampler, 3, "s3"),
        (VS30, ty::CONST2, 5, RegisterType::Const, 2053, "c2053"),
        (VS30, ty::CONST3, 0, RegisterType::Const, 4096, "c4096"),
        (VS30, ty::CONST4, 2047, RegisterType::Const, 8191, "c8191"),
        (VS30, ty::ADDR, 0, RegisterType::Address, 0, "a0"),
        (PS14, ty::TEXTURE, 5, RegisterType::Texture, 5, "t5"),
        (VS20, ty::TEXCRDOUT, 7, RegisterType::TexCrdOut, 7, "oT7"),
        (VS30, ty::OUTPUT, 11, RegisterType::Output, 11, "o11"),
        (VS20, ty::RASTOUT, 0, RegisterType::RastOut, 0, "oPos"),
        (VS20, ty::RASTOUT, 1, RegisterType::RastOut, 1, "oFog"),
        (VS20, ty::RASTOUT, 2, RegisterType::RastOut, 2, "oPts"),
        (VS20, ty::ATTROUT, 1, RegisterType::AttrOut, 1, "oD1"),
        (PS30, ty::COLOROUT, 3, RegisterType::ColorOut, 3, "oC3"),
        (PS30, ty::DEPTHOUT, 0, RegisterType::DepthOut, 0, "oDepth"),
        (PS30, ty::MISCTYPE, 0, RegisterType::MiscType, 0, "vPos"),
        (PS30, ty::MISCTYPE, 1, RegisterType::MiscType, 1, "vFace"),
        (PS30, ty::INPUT, 9, RegisterType::Input, 9, "v9"),
        (PS30, ty::TEMP, 31, RegisterType::Temp, 31, "r31"),
    ];
    for &(version, raw, num, want, index, name) in cases {
        let words = [
            version,
            inst(op::MOV, 2, 0),
            dst(ty::TEMP, 0, 0xF),
            src(raw, num, XYZW),
            END,
        ];
        let i = decode_one(&words);
        let s = i.src(0).unwrap();
        assert_eq!(s.register, Register::new(want, index), "{name}");
        assert_eq!(s.register.to_string(), name);
        assert_eq!(s.register.raw(), (raw, num), "{name}");
        assert_eq!(disasm_body(&words), [format!("    mov r0, {name}")]);
    }
}

#[test]
fn register_types_and_numbers_direct3d9_lacks_are_errors() {
    let read = |version: u32, raw: u32, num: u32| {
        decode_error(&[
            version,
            inst(op::MOV, 2, 0),
            dst(ty::TEMP, 0, 0xF),
            src(raw, num, XYZW),
            END,
        ])
    };
    assert_eq!(kind(read(VS30, 20, 0)), K::UnknownRegisterType(20));
    assert_eq!(kind(read(VS30, 31, 0)), K::UnknownRegisterType(31));
    assert!(matches!(
        kind(read(VS30, ty::TEMPFLOAT16, 0)),
        K::UnsupportedRegisterType(_)
    ));
    assert!(matches!(
        kind(read(VS20, ty::RASTOUT, 3)),
        K::RegisterNumberOutOfRange { number: 3, .. }
    ));
    assert!(matches!(
        kind(read(PS30, ty::MISCTYPE, 2)),
        K::RegisterNumberOutOfRange { number: 2, .. }
    ));
    assert!(matches!(
        kind(read(VS30, ty::LOOP, 1)),
        K::RegisterNumberOutOfRange { .. }
    ));
}

// ---------------------------------------------------------------- masks, swizzles, modifiers

#[test]
fn write_masks_and_swizzles() {
    let words = [
        VS20,
        inst(op::MOV, 2, 0),
        dst(ty::TEMP, 0, 0b1011),
        src(ty::TEMP, 1, 0x1B), // .wzyx
        inst(op::MOV, 2, 0),
        dst(ty::TEMP, 0, 0b0100),
        src(ty::TEMP, 1, 0xAA), // .z
        inst(op::MOV, 2, 0),
        dst(ty::TEMP, 0, 0b0011),
        src(ty::TEMP, 1, 0x54), // .xyyy: printed in full
        END,
    ];
    let all = decode_all(&words).unwrap();
    assert_eq!(all[0].dst.unwrap().write_mask, WriteMask(0b1011));
    assert_eq!(all[0].src(0).unwrap().swizzle.lanes(), [3, 2, 1, 0]);
    assert_eq!(all[1].src(0).unwrap().swizzle.replicated(), Some(2));
    assert_eq!(
        disasm_body(&words),
        [
            "    mov r0.xyw, r1.wzyx",
            "    mov r0.z, r1.z",
            "    mov r0.xy, r1.xyyy"
        ]
    );
    assert_eq!(Swizzle::new([0, 1, 1, 1]), Swizzle(0x54));
    assert_eq!(Swizzle(0x54).read_mask(WriteMask(0b0011)), 0b0011);
}

#[test]
fn every_source_modifier() {
    let cases: &[(u32, SourceModifier, &str)] = &[
        (0, SourceModifier::None, "r1"),
        (1, SourceModifier::Negate, "-r1"),
        (2, SourceModifier::Bias, "r1_bias"),
        (3, SourceModifier::BiasNegate, "-r1_bias"),
        (4, SourceModifier::Sign, "r1_bx2"),
        (5, SourceModifier::SignNegate, "-r1_bx2"),
        (6, SourceModifier::Complement, "1 - r1"),
        (7, SourceModifier::X2, "r1_x2"),
        (8, SourceModifier::X2Negate, "-r1_x2"),
        (9, SourceModifier::Dz, "r1_dz"),
        (10, SourceModifier::Dw, "r1_dw"),
        (11, SourceModifier::Abs, "r1_abs"),
        (12, SourceModifier::AbsNegate, "-r1_abs"),
        (13, SourceModifier::Not, "!r1"),
    ];
    for &(raw, modifier, text) in cases {
        let words = [
            PS14,
            inst1(op::MOV),
            dst(ty::TEMP, 0, 0xF),
            with_srcmod(src(ty::TEMP, 1, 0xFF), raw),
            END,
        ];
        let i = decode_one(&words);
        assert_eq!(i.src(0).unwrap().modifier, modifier);
        assert_eq!(modifier.raw(), raw);
        assert_eq!(disasm_body(&words), [format!("    mov r0, {text}.w")]);
    }
    for raw in [14, 15] {
        let e = decode_error(&[
            PS14,
            inst1(op::MOV),
            dst(ty::TEMP, 0, 0xF),
            with_srcmod(src(ty::TEMP, 1, XYZW), raw),
            END,
        ]);
        assert_eq!(kind(e), K::BadSourceModifier(raw));
    }
}

#[test]
fn result_modifiers_and_shifts() {
    let cases: &[(u32, u32, &str)] = &[
        (1, 0, "mov_sat"),
        (2, 0, "mov_pp"),
        (3, 0, "mov_sat_pp"),
        (4, 0, "mov_centroid"),
        (0, 1, "mov_x2"),
        (0, 2, "mov_x4"),
        (1, 3, "mov_x8_sat"),
        (0, 15, "mov_d2"),
        (0, 14, "mov_d4"),
        (0, 13, "mov_d8"),
    ];
    for &(mods, shift, name) in cases {
        let words = [
            PS11,
            inst1(op::MOV),
            with_result(dst(ty::TEMP, 0, 0xF), mods, shift),
            src(ty::TEMP, 1, XYZW),
            END,
        ];
        let d = decode_one(&words).dst.unwrap();
        assert_eq!(d.saturate, mods & 1 != 0);
        assert_eq!(d.partial_precision, mods & 2 != 0);
        assert_eq!(d.centroid, mods & 4 != 0);
        assert_eq!(
            d.shift,
            if shift >= 8 {
                shift as i8 - 16
            } else {
                shift as i8
            }
        );
        assert_eq!(disasm_body(&words), [format!("    {name} r0, r1")]);
    }
    let bad = |mods, shift| {
        kind(decode_error(&[
            PS11,
            inst1(op::MOV),
            with_result(dst(ty::TEMP, 0, 0xF), mods, shift),
            src(ty::TEMP, 1, XYZW),
            END,
        ]))
    };
    assert_eq!(bad(8, 0), K::BadResultModifier(8));
    assert_eq!(bad(0, 4), K::BadResultShift(4));
    assert_eq!(bad(0, 12), K::BadResultShift(12));
}

// ---------------------------------------------------------------- relative addressing

#[test]
fn vs_1_x_relative_addressing_implies_a0_x_without_a_token() {
    // mov r0, c[a0.x + 3] / mov r1, c0
    let words = [
        VS11,
        inst1(op::MOV),
        dst(ty::TEMP, 0, 0xF),
        relative(src(ty::CONST, 3, XYZW)),
        inst1(op::MOV),
        dst(ty::TEMP, 1, 0xF),
        src(ty::CONST, 0, XYZW),
        END,
    ];
    let all = decode_all(&words).unwrap();
    assert_eq!(all[0].len, 3);
    let s = all[0].src(0).unwrap();
    assert_eq!(s.register, Register::new(RegisterType::Const, 3));
    assert_eq!(s.relative, Some(RelativeAddress::A0X_IMPLICIT));
    assert_eq!(
        disasm_body(&words),
        ["    mov r0, c3[a0.x]", "    mov r1, c0"]
    );
    // Destinations have no relative addressing in model 1.
    let e = decode_error(&[
        VS11,
        inst1(op::MOV),
        relative(dst(ty::TEMP, 0, 0xF)),
        src(ty::CONST, 0, XYZW),
        END,
    ]);
    assert_eq!(kind(e), K::BadRelativeAddressing);
}

#[test]
fn model_2_and_3_relative_addressing_reads_the_extra_token() {
    // vs_2_0: add r0, c5[a0.y], c1  (a0.y via the token's swizzle)
    let words = [
        VS20,
        inst(op::ADD, 4, 0),
        dst(ty::TEMP, 0, 0xF),
        relative(src(ty::CONST, 5, XYZW)),
        src(ty::ADDR, 0, 0x55),
        src(ty::CONST, 1, XYZW),
        END,
    ];
    let i = decode_one(&words);
    let r = i.src(0).unwrap().relative.unwrap();
    assert_eq!(
        (r.register, r.component(), r.implicit),
        (Register::new(RegisterType::Address, 0), 1, false)
    );
    assert_eq!(disasm_body(&words), ["    add r0, c5[a0.y], c1"]);
    // ps_3_0: mov r0, v2[aL]; vs_3_0: mov o[a0.x + 4].xy, r0
    let words = [
        PS30,
        inst(op::MOV, 3, 0),
        dst(ty::TEMP, 0, 0xF),
        relative(src(ty::INPUT, 2, XYZW)),
        src(ty::LOOP, 0, XYZW),
        END,
    ];
    assert_eq!(disasm_body(&words), ["    mov r0, v2[aL]"]);
    let words = [
        VS30,
        inst(op::MOV, 3, 0),
        relative(dst(ty::OUTPUT, 4, 0b0011)),
        src(ty::ADDR, 0, 0x00),
        src(ty::TEMP, 0, XYZW),
        END,
    ];
    let d = decode_one(&words).dst.unwrap();
    assert_eq!(d.relative.unwrap().register.ty, RegisterType::Address);
    assert_eq!(disasm_body(&words), ["    mov o4[a0.x].xy, r0"]);
}

#[test]
fn relative_addressing_where_the_model_has_none_is_an_error() {
    // ps_2_0 sources have no relative addressing.
    let e = decode_error(&[
        PS20,
        inst(op::MOV, 2, 0),
        dst(ty::TEMP, 0, 0xF),
        relative(src(ty::CONST, 0, XYZW)),
        END,
    ]);
    assert_eq!(kind(e), K::BadRelativeAddressing);
    // The relative-address token must name a0 or aL.
    let e = decode_error(&[
        VS20,
        inst(op::MOV, 3, 0),
        dst(ty::TEMP, 0, 0xF),
        relative(src(ty::CONST, 0, XYZW)),
        src(ty::TEMP, 0, 0),
        END,
    ]);
    assert_eq!(kind(e), K::BadRelativeAddressing);
}

// ---------------------------------------------------------------- controls, predication, co-issue

#[test]
fn comparisons_of_ifc_breakc_and_setp() {
    let names = ["gt", "eq", "ge", "lt", "ne", "le"];
    for (c, name) in (1u32..=6).zip(names) {
        let words = [
            VS2X,
            inst(op::IFC, 2, c),
            src(ty::TEMP, 0, 0x00),
            src(ty::CONST, 0, 0x00),
            inst(op::BREAKC, 2, c),
            src(ty::TEMP, 0, 0x00),
            src(ty::CONST, 0, 0x00),
            inst(op::SETP, 3, c),
            dst(ty::PREDICATE, 0, 0xF),
            src(ty::TEMP, 0, XYZW),
            src(ty::TEMP, 1, XYZW),
            END,
        ];
        let all = decode_all(&words).unwrap();
        assert!(all
            .iter()
            .all(|i| i.comparison.map(Comparison::suffix) == Some(name)));
        assert_eq!(
            disasm_body(&words),
            [
                format!("    if_{name} r0.x, c0.x"),
                format!("    break_{name} r0.x, c0.x"),
                format!("    setp_{name} p0, r0, r1"),
            ]
        );
    }
    for c in [0, 7] {
        let e = decode_error(&[
            VS2X,
            inst(op::IFC, 2, c),
            src(ty::TEMP, 0, 0),
            src(ty::CONST, 0, 0),
            END,
        ]);
        assert_eq!(kind(e), K::BadComparison(c));
    }
}

#[test]
fn texld_project_and_bias_flags() {
    for (control, load, name) in [
        (0, TexLoad::Plain, "texld"),
        (1, TexLoad::Project, "texldp"),
        (2, TexLoad::Bias, "texldb"),
    ] {
        let words = [
            PS20,
            inst(op::TEX, 3, control),
            dst(ty::TEMP, 0, 0xF),
            src(ty::TEXTURE, 0, XYZW),
            src(ty::SAMPLER, 1, XYZW),
            END,
        ];
        assert_eq!(decode_one(&words).texld, load);
        assert_eq!(disasm_body(&words), [format!("    {name} r0, t0, s1")]);
    }
    let e = decode_error(&[
        PS20,
        inst(op::TEX, 3, 3),
        dst(ty::TEMP, 0, 0xF),
        src(ty::TEXTURE, 0, XYZW),
        src(ty::SAMPLER, 1, XYZW),
        END,
    ]);
    assert_eq!(kind(e), K::BadTexldControl(3));
}

#[test]
fn predicated_instructions_carry_the_predicate_token() {
    // (p0.y) add r0, r1, r2 / (!p0) callnz l1, b0
    let words = [
        VS2X,
        inst(op::ADD, 4, 0) | 1 << 28,
        dst(ty::TEMP, 0, 0xF),
        src(ty::PREDICATE, 0, 0x55),
        src(ty::TEMP, 1, XYZW),
        src(ty::TEMP, 2, XYZW),
        inst(op::CALLNZ, 3, 0) | 1 << 28,
        with_srcmod(src(ty::PREDICATE, 0, XYZW), 13),
        src(ty::LABEL, 1, XYZW),
        src(ty::CONSTBOOL, 0, XYZW),
        END,
    ];
    let all = decode_all(&words).unwrap();
    let p = all[0].predicate.unwrap();
    assert_eq!(
        (p.register.ty, p.swizzle.replicated()),
        (RegisterType::Predicate, Some(1))
    );
    assert_eq!(all[0].sources().len(), 2);
    assert_eq!(all[1].predicate.unwrap().modifier, SourceModifier::Not);
    assert_eq!(
        disasm_body(&words),
        ["    (p0.y) add r0, r1, r2", "    (!p0) callnz l1, b0"]
    );
    // The predicate token must name p0 with no modifier but `!`.
    let e = decode_error(&[
        VS2X,
        inst(op::ADD, 4, 0) | 1 << 28,
        dst(ty::TEMP, 0, 0xF),
        src(ty::TEMP, 3, XYZW),
        src(ty::TEMP, 1, XYZW),
        src(ty::TEMP, 2, XYZW),
        END,
    ]);
    assert_eq!(kind(e), K::BadPredicate);
    let e = decode_error(&[
        VS2X,
        inst(op::ADD, 4, 0) | 1 << 28,
        dst(ty::TEMP, 0, 0xF),
        with_srcmod(src(ty::PREDICATE, 0, XYZW), 1),
        src(ty::TEMP, 1, XYZW),
        src(ty::TEMP, 2, XYZW),
        END,
    ]);
    assert_eq!(kind(e), K::BadPredicate);
    // Model 1 has no predication.
    let e = decode_error(&[
        VS11,
        inst1(op::MOV) | 1 << 28,
        dst(ty::TEMP, 0, 0xF),
        src(ty::TEMP, 1, XYZW),
        END,
    ]);
    assert_eq!(kind(e), K::PredicationNotSupported);
}

#[test]
fn co_issued_pixel_shader_1_x_instructions() {
    let words = [
        PS11,
        inst1(op::MOV),
        dst(ty::TEMP, 0, 0x7),
        src(ty::TEXTURE, 0, XYZW),
        inst1(op::ADD) | 1 << 30,
        dst(ty::TEMP, 0, 0x8),
        src(ty::TEMP, 1, 0xFF),
        with_srcmod(src(ty::CONST, 0, 0xFF), 6),
        END,
    ];
    let all = decode_all(&words).unwrap();
    assert!(!all[0].coissue && all[1].coissue);
    assert_eq!(
        disasm_body(&words),
        ["    mov r0.xyz, t0", "  + add r0.w, r1.w, 1 - c0.w"]
    );
}

// ---------------------------------------------------------------- per-model operand shapes

#[test]
fn tex_and_texcoord_shapes_per_pixel_shader_model() {
    // ps_1_1: tex t0 / texcoord t1; ps_1_4: texld r0, t0 / texcrd r1.xy, t1_dw.xyw;
    // ps_2_0: texld r0, t0, s0.
    let ps11 = [
        PS11,
        inst1(op::TEX),
        dst(ty::TEXTURE, 0, 0xF),
        inst1(op::TEXCOORD),
        dst(ty::TEXTURE, 1, 0xF),
        END,
    ];
    assert_eq!(disasm_body(&ps11), ["    tex t0", "    texcoord t1"]);
    let ps14 = [
        PS14,
        inst1(op::TEX),
        dst(ty::TEMP, 0, 0xF),
        with_srcmod(src(ty::TEXTURE, 0, XYZW), 9),
        inst1(op::TEXCOORD),
        dst(ty::TEMP, 1, 0x3),
        with_srcmod(src(ty::TEXTURE, 1, 0xF4), 10),
        inst1(op::PHASE),
        inst1(op::TEXKILL),
        dst(ty::TEMP, 0, 0xF),
        END,
    ];
    assert_eq!(
        disasm_body(&ps14),
        [
            "    texld r0, t0_dz",
            "    texcrd r1.xy, t1_dw.xyww",
            "    phase",
            "    texkill r0"
        ]
    );
    // A ps_1_1 tex with a source is malformed.
    let e = decode_error(&[
        PS11,
        inst1(op::TEX),
        dst(ty::TEXTURE, 0, 0xF),
        src(ty::TEXTURE, 1, XYZW),
        END,
    ]);
    assert_eq!(
        kind(e),
        K::OperandCount {
            opcode: Opcode::Tex,
            found: 1,
            expected: 0
        }
    );
}

#[test]
fn sincos_takes_scratch_registers_before_model_3() {
    let v2 = [
        VS20,
        inst(op::SINCOS, 4, 0),
        dst(ty::TEMP, 0, 0x3),
        src(ty::TEMP, 1, 0x00),
        src(ty::CONST, 0, XYZW),
        src(ty::CONST, 1, XYZW),
        END,
    ];
    assert_eq!(disasm_body(&v2), ["    sincos r0.xy, r1.x, c0, c1"]);
    let v3 = [
        VS30,
        inst(op::SINCOS, 2, 0),
        dst(ty::TEMP, 0, 0x3),
        src(ty::TEMP, 1, 0x00),
        END,
    ];
    assert_eq!(disasm_body(&v3), ["    sincos r0.xy, r1.x"]);
    let bad = [
        VS30,
        inst(op::SINCOS, 4, 0),
        dst(ty::TEMP, 0, 0x3),
        src(ty::TEMP, 1, 0),
        src(ty::CONST, 0, XYZW),
        src(ty::CONST, 1, XYZW),
        END,
    ];
    assert_eq!(
        kind(decode_error(&bad)),
        K::OperandCount {
            opcode: Opcode::SinCos,
            found: 3,
            expected: 1
        }
    );
}

#[test]
fn flow_control_operands() {
    let words = [
        VS30,
        inst(op::IF, 1, 0),
        with_srcmod(src(ty::CONSTBOOL, 2, XYZW), 13),
        inst(42, 0, 0),
        inst(43, 0, 0),
        inst(27, 2, 0),
        src(ty::LOOP, 0, XYZW),
        src(ty::CONSTINT, 1, XYZW),
        inst(29, 0, 0),
        inst(38, 1, 0),
        src(ty::CONSTINT, 0, XYZW),
        inst(96, 1, 0),
        src(ty::PREDICATE, 0, 0xFF),
        inst(39, 0, 0),
        inst(25, 1, 0),
        src(ty::LABEL, 2, XYZW),
        inst(28, 0, 0),
        inst(30, 1, 0),
        src(ty::LABEL, 2, XYZW),
        inst(28, 0, 0),
        END,
    ];
    assert_eq!(
        disasm_body(&words),
        [
            "    if !b2",
            "    else",
            "    endif",
            "    loop aL, i1",
            "    endloop",
            "    rep i0",
            "    breakp p0.w",
            "    endrep",
            "    call l2",
            "    ret",
            "    label l2",
            "    ret",
        ]
    );
    let all = decode_all(&words).unwrap();
    assert!(all
        .iter()
        .all(|i| i.opcode.is_flow_control() && i.dst.is_none()));
}

// ---------------------------------------------------------------- def, defi, defb, dcl

#[test]
fn defi_and_defb_values() {
    let words = [
        VS20,
        inst(op::DEFI, 5, 0),
        dst(ty::CONSTINT, 3, 0xF),
        (-7i32) as u32,
        255,
        0,
        1,
        inst(op::DEFB, 2, 0),
        dst(ty::CONSTBOOL, 1, 0xF),
        1,
        inst(op::DEFB, 2, 0),
        dst(ty::CONSTBOOL, 2, 0xF),
        0,
        END,
    ];
    let all = decode_all(&words).unwrap();
    assert_eq!(all[0].payload, Payload::DefI([-7, 255, 0, 1]));
    assert_eq!(all[1].payload, Payload::DefB(true));
    assert_eq!(all[2].payload, Payload::DefB(false));
    assert!(all.iter().all(|i| i.opcode.is_declaration()));
    assert_eq!(
        disasm_body(&words),
        [
            "    defi i3, -7, 255, 0, 1",
            "    defb b1, true",
            "    defb b2, false"
        ]
    );
}

fn dcl(version: u32, token: u32, dest: u32) -> (Instruction<'static>, String) {
    let len = if version >> 8 & 0xFF >= 2 { 2 } else { 0 };
    let words = [
        version,
        inst(op::DCL, len, 0),
        0x8000_0000 | token,
        dest,
        END,
    ];
    let body = disasm_body(&words);
    (decode_one(&words), body[0].clone())
}

#[test]
fn dcl_semantics_and_sampler_types() {
    let (i, text) = dcl(VS20, 5 | 3 << 16, dst(ty::INPUT, 2, 0xF));
    assert_eq!(
        i.payload,
        Payload::Dcl(Declaration::Semantic {
            usage: Usage::TexCoord,
            index: 3
        })
    );
    assert_eq!(text, "    dcl_texcoord3 v2");
    assert_eq!(
        dcl(VS11, 0, dst(ty::INPUT, 0, 0xF)).1,
        "    dcl_position v0"
    );
    assert_eq!(
        dcl(VS30, 4, dst(ty::OUTPUT, 1, 0x1)).1,
        "    dcl_psize o1.x"
    );
    assert_eq!(
        dcl(VS30, 10 | 1 << 16, dst(ty::OUTPUT, 3, 0xF)).1,
        "    dcl_color1 o3"
    );
    // ps_3_0 inputs have semantics; vPos / vFace and pre-3.0 registers do not.
    assert_eq!(
        dcl(PS30, 5 | 1 << 16, with_result(dst(ty::INPUT, 1, 0x3), 2, 0)).1,
        "    dcl_texcoord1_pp v1.xy"
    );
    assert_eq!(dcl(PS30, 0, dst(ty::MISCTYPE, 0, 0x3)).1, "    dcl vPos.xy");
    assert_eq!(dcl(PS30, 0, dst(ty::MISCTYPE, 1, 0xF)).1, "    dcl vFace");
    assert_eq!(dcl(PS20, 0, dst(ty::TEXTURE, 0, 0x3)).1, "    dcl t0.xy");
    assert_eq!(dcl(PS20, 0, dst(ty::INPUT, 1, 0xF)).1, "    dcl v1");
    for (raw, t, text) in [
        (0, TextureType::Unknown, "    dcl s0"),
        (1, TextureType::Texture1D, "    dcl_1d s0"),
        (2, TextureType::Texture2D, "    dcl_2d s0"),
        (3, TextureType::Cube, "    dcl_cube s0"),
        (4, TextureType::Volume, "    dcl_volume s0"),
    ] {
        let (i, s) = dcl(PS20, raw << 27, dst(ty::SAMPLER, 0, 0xF));
        assert_eq!(i.payload, Payload::Dcl(Declaration::Sampler(t)));
        assert_eq!(s, text);
    }
    let words = [
        PS30,
        inst(op::DCL, 2, 0),
        0x8000_0000 | 2 << 27,
        with_result(dst(ty::SAMPLER, 3, 0xF), 4, 0),
        END,
    ];
    assert_eq!(disasm_body(&words), ["    dcl_2d_centroid s3"]);
    // Usages past 13 and texture types past 4 are not defined.
    let e = decode_error(&[
        VS20,
        inst(op::DCL, 2, 0),
        0x8000_000E,
        dst(ty::INPUT, 0, 0xF),
        END,
    ]);
    assert_eq!(kind(e), K::BadUsage(14));
    let e = decode_error(&[
        PS20,
        inst(op::DCL, 2, 0),
        0x8000_0000 | 5 << 27,
        dst(ty::SAMPLER, 0, 0xF),
        END,
    ]);
    assert_eq!(kind(e), K::BadTextureType(5));
    // The declaration token is a parameter-like token with bit 31 set.
    let e = decode_error(&[
        VS20,
        inst(op::DCL, 2, 0),
        0x0000_0000,
        dst(ty::INPUT, 0, 0xF),
        END,
    ]);
    assert_eq!(kind(e), K::NotAParameterToken(0));
}

// ---------------------------------------------------------------- def value formatting

#[test]
fn def_values_print_like_fxc() {
    // Each string is how fxc printed the f32 it stands for, in a ps_3_0 listing quoted
    // in a public repository (`def c27, -0.5, 4.99999987e-006, -0.400000006, 1.66666663`,
    // `def c31, -9.99999975e-005, -13.2877121, 0, 0`, `def c28, 128, -2000,
    // -0.000500000024, 4`, `def c30, 0.800000012, 0.349999994, 0.649999976, 0.25`) and
    // in the listings of Wine's tests (`def c2, 3.14159274, …`); the f32 is the value the
    // string parses to.
    for text in [
        "-0.5",
        "4.99999987e-006",
        "-0.400000006",
        "1.66666663",
        "-9.99999975e-005",
        "-13.2877121",
        "128",
        "-2000",
        "-0.000500000024",
        "0.800000012",
        "0.349999994",
        "0.649999976",
        "0.25",
        "1",
        "0",
        "0.212500006",
        "0.0199999996",
    ] {
        let v: f32 = text.replace("e-0", "e-").parse().unwrap();
        let mut out = String::new();
        write_float(&mut out, v);
        assert_eq!(out, text);
    }
    let fmt = |v: f32| {
        let mut s = String::new();
        write_float(&mut s, v);
        s
    };
    assert_eq!(fmt(-0.0), "-0");
    assert_eq!(fmt(1e10), "1e+010");
    assert_eq!(fmt(123456789.0), "123456792");
    assert_eq!(fmt(1234567936.0), "1.23456794e+009");
    assert_eq!(fmt(f32::INFINITY), "1.#INF");
    assert_eq!(fmt(f32::NEG_INFINITY), "-1.#INF");
    assert_eq!(fmt(f32::NAN), "1.#QNAN");
}

// ---------------------------------------------------------------- limits

#[test]
fn register_limits_per_model() {
    let l = |t| Limits::for_version(Version::from_token(t).unwrap());
    let vs11 = l(VS11);
    assert_eq!(vs11.float_const, Limit::range(96, 256));
    assert_eq!(
        (vs11.temp.max, vs11.input.max, vs11.address.max),
        (12, 16, 1)
    );
    assert_eq!(
        (vs11.texcoord_out.max, vs11.attr_out.max, vs11.rast_out.max),
        (8, 2, 3)
    );
    assert_eq!(
        (vs11.int_const.max, vs11.sampler.max, vs11.output.max),
        (0, 0, 0)
    );
    let vs30 = l(VS30);
    assert_eq!(
        (vs30.temp.max, vs30.output.max, vs30.sampler.max),
        (32, 12, 4)
    );
    assert_eq!(vs30.float_const.guaranteed, 256);
    assert_eq!(vs30.of(RegisterType::TexCrdOut).max, 0);
    let vs3sw = l(0xFFFE_03FF);
    assert_eq!(
        (vs3sw.float_const.max, vs3sw.int_const.max, vs3sw.output.max),
        (8192, 2048, 16)
    );
    let vs2x = l(VS2X);
    assert_eq!(
        (vs2x.temp, vs2x.predicate),
        (Limit::range(12, 32), Limit::range(0, 1))
    );
    let ps11 = l(PS11);
    assert_eq!(
        (
            ps11.temp.max,
            ps11.float_const.max,
            ps11.texture.max,
            ps11.input.max
        ),
        (2, 8, 4, 2)
    );
    assert_eq!(ps11.color_out.max, 0);
    let ps14 = l(PS14);
    assert_eq!((ps14.temp.max, ps14.texture.max), (6, 6));
    let ps20 = l(PS20);
    assert_eq!(
        (
            ps20.temp.max,
            ps20.float_const.max,
            ps20.sampler.max,
            ps20.texture.max
        ),
        (12, 32, 16, 8)
    );
    assert_eq!(
        (ps20.int_const.max, ps20.bool_const.max, ps20.label.max),
        (0, 0, 0)
    );
    assert_eq!(ps20.color_out, Limit::range(1, 4));
    let ps30 = l(PS30);
    assert_eq!(
        (
            ps30.input.max,
            ps30.float_const.max,
            ps30.misc.max,
            ps30.loop_counter.max
        ),
        (10, 224, 2, 1)
    );
    assert!(ps30.of(RegisterType::Const).allows(223) && !ps30.of(RegisterType::Const).allows(224));
    assert_eq!(l(0xFFFF_03FF).float_const.max, 8192);
}

// ---------------------------------------------------------------- iterator

#[test]
fn next_into_reuses_one_buffer_and_stops_at_the_end_token() {
    let words = [
        VS20,
        inst(op::MAD, 4, 0),
        dst(ty::TEMP, 0, 0xF),
        src(ty::TEMP, 1, XYZW),
        src(ty::TEMP, 2, XYZW),
        src(ty::TEMP, 3, XYZW),
        inst(op::MOV, 2, 0),
        dst(ty::TEMP, 4, 0xF),
        src(ty::TEMP, 5, XYZW),
        END,
    ];
    let data = bytes(&words);
    let shader = Shader::parse(&data).unwrap();
    let mut it = shader.instructions();
    let mut inst = Instruction::default();
    assert!(matches!(it.next_into(&mut inst), Some(Ok(()))));
    assert_eq!(inst.sources().len(), 3);
    assert!(matches!(it.next_into(&mut inst), Some(Ok(()))));
    // The stale third source of `mad` is hidden.
    assert_eq!(inst.sources().len(), 1);
    assert_eq!(inst.src(0).unwrap().register.index, 5);
    assert!(it.next_into(&mut inst).is_none());
    assert!(it.next_into(&mut inst).is_none());
}

#[test]
fn decoding_stops_after_the_first_error() {
    let words = [VS20, inst(75, 0, 0), inst(op::NOP, 0, 0), END];
    let data = bytes(&words);
    let shader = Shader::parse(&data).unwrap();
    let results: Vec<_> = shader.instructions().collect();
    assert_eq!(results.len(), 1);
    assert!(results[0].is_err());
    assert!(disassemble(&data).is_err());
}
