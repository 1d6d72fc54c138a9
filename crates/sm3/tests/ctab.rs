//! Constant tables checked against Wine's `dlls/d3dx9_36/tests/shader.c`.
//!
//! The arrays below are that file's `ctab_*` shaders, and the expectations its
//! `ctab_*_expected` `D3DXCONSTANT_DESC` tables: name, register set, register index and
//! count, class, type, rows, columns, elements, struct members, default value. Wine's test
//! checks those descriptions against native d3dx9 on Windows. (The tables are parsed from
//! the bytes after the `CTAB` fourcc: some of these test arrays declare a comment size
//! larger than the data they hold, which Wine's test never feeds to a device.)

// Tests may unwrap, panic and print (production code may not: see the workspace lints).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::print_stdout,
    clippy::print_stderr
)]
use dxspv_sm3::{
    ConstantTable, ParameterClass as C, ParameterType as T, RegisterSet as S, Shader, Warning,
};

const FCC_CTAB: u32 = 0x4241_5443;

/// The table bytes: the words after the `CTAB` fourcc, up to the end token.
fn table_of(words: &[u32]) -> Vec<u8> {
    let start = words
        .iter()
        .position(|&w| w == FCC_CTAB)
        .expect("CTAB fourcc")
        + 1;
    let end = words.len() - 1;
    words[start..end]
        .iter()
        .flat_map(|w| w.to_le_bytes())
        .collect()
}

fn parse(words: &[u32]) -> ConstantTable {
    let mut warnings = Vec::new();
    let t = ConstantTable::parse(&table_of(words), 1, &mut warnings).expect("table");
    assert!(warnings.is_empty(), "{warnings:?}");
    t
}

/// `(name, set, index, count, class, type, rows, columns, elements, members)`.
type Expected = (&'static str, S, u16, u16, C, T, u16, u16, u16, usize);

fn check(table: &ConstantTable, expected: &[Expected]) {
    assert_eq!(table.constants.len(), expected.len());
    for &(name, set, index, count, class, ty, rows, columns, elements, members) in expected {
        let c = table
            .constant(name)
            .unwrap_or_else(|| panic!("{name} missing"));
        assert_eq!(
            (c.register_set, c.register_index, c.register_count),
            (set, index, count),
            "{name}"
        );
        let t = table.type_info(c.ty.expect("type")).expect("type index");
        assert_eq!(
            (
                t.class,
                t.ty,
                t.rows,
                t.columns,
                t.elements,
                table.members_of(t).len()
            ),
            (class, ty, rows, columns, elements, members),
            "{name}"
        );
    }
}

const CTAB_BASIC: &[u32] = &[
    0xfffe0300, 0x0040fffe, FCC_CTAB, 0x0000001c, 0x000000ec, 0xfffe0300, 0x00000005, 0x0000001c,
    0x20008100, 0x000000e4, 0x00000080, 0x00060002, 0x00000001, 0x00000084, 0x00000000, 0x00000094,
    0x00070002, 0x00000001, 0x00000098, 0x00000000, 0x000000A8, 0x00040002, 0x00000001, 0x000000AC,
    0x00000000, 0x000000BC, 0x00050002, 0x00000001, 0x000000C0, 0x00000000, 0x000000D0, 0x00000002,
    0x00000004, 0x000000D4, 0x00000000, 0xabab0066, 0x00030000, 0x00010001, 0x00000001, 0x00000000,
    0xab003466, 0x00030001, 0x00040001, 0x00000001, 0x00000000, 0xabab0069, 0x00020000, 0x00010001,
    0x00000001, 0x00000000, 0xab003469, 0x00020001, 0x00040001, 0x00000001, 0x00000000, 0x0070766d,
    0x00030003, 0x00040004, 0x00000001, 0x00000000, 0x335f7376, 0xab00305f, 0x656e6957, 0x6f727020,
    0x7463656a, 0xababab00, 0x0000ffff,
];

#[test]
fn ctab_basic() {
    let t = parse(CTAB_BASIC);
    assert_eq!(t.creator, "Wine project");
    assert_eq!(t.target, "vs_3_0");
    assert_eq!(t.version, 0xfffe0300);
    check(
        &t,
        &[
            (
                "mvp",
                S::Float4,
                0,
                4,
                C::MatrixColumns,
                T::Float,
                4,
                4,
                1,
                0,
            ),
            ("i", S::Float4, 4, 1, C::Scalar, T::Int, 1, 1, 1, 0),
            ("i4", S::Float4, 5, 1, C::Vector, T::Int, 1, 4, 1, 0),
            ("f", S::Float4, 6, 1, C::Scalar, T::Float, 1, 1, 1, 0),
            ("f4", S::Float4, 7, 1, C::Vector, T::Float, 1, 4, 1, 0),
        ],
    );
    assert!(t.constants.iter().all(|c| c.default_value.is_none()));
    // Through Shader::parse: the comment is well formed here.
    let bytes: Vec<u8> = CTAB_BASIC.iter().flat_map(|w| w.to_le_bytes()).collect();
    let shader = Shader::parse(&bytes).expect("reads");
    assert_eq!(shader.constant_table.as_ref(), Some(&t));
    assert_eq!(shader.instruction_count, 0);
}

#[test]
fn ctab_matrices() {
    let t = parse(&[
        0xfffe0300, 0x0032fffe, FCC_CTAB, 0x0000001c, 0x000000b4, 0xfffe0300, 0x00000003,
        0x0000001c, 0x20008100, 0x000000ac, 0x00000058, 0x00070002, 0x00000001, 0x00000064,
        0x00000000, 0x00000074, 0x00000002, 0x00000004, 0x00000080, 0x00000000, 0x00000090,
        0x00040002, 0x00000002, 0x0000009c, 0x00000000, 0x74616D66, 0x33786972, 0xab003178,
        0x00030003, 0x00010003, 0x00000001, 0x00000000, 0x74616D66, 0x34786972, 0xab003478,
        0x00030003, 0x00040004, 0x00000001, 0x00000000, 0x74616D69, 0x32786972, 0xab003378,
        0x00020002, 0x00030002, 0x00000001, 0x00000000, 0x335f7376, 0xab00305f, 0x656e6957,
        0x6f727020, 0x7463656a, 0xababab00, 0x0000ffff,
    ]);
    check(
        &t,
        &[
            (
                "fmatrix4x4",
                S::Float4,
                0,
                4,
                C::MatrixColumns,
                T::Float,
                4,
                4,
                1,
                0,
            ),
            (
                "imatrix2x3",
                S::Float4,
                4,
                2,
                C::MatrixRows,
                T::Int,
                2,
                3,
                1,
                0,
            ),
            (
                "fmatrix3x1",
                S::Float4,
                7,
                1,
                C::MatrixColumns,
                T::Float,
                3,
                1,
                1,
                0,
            ),
        ],
    );
}

#[test]
fn ctab_matrices2() {
    let t = parse(&[
        0xfffe0200, 0x0058fffe, FCC_CTAB, 0x0000001c, 0x0000012b, 0xfffe0200, 0x00000006,
        0x0000001c, 0x00000100, 0x00000124, 0x00000094, 0x00070002, 0x00000003, 0x0000009c,
        0x00000000, 0x000000ac, 0x000d0002, 0x00000002, 0x000000b4, 0x00000000, 0x000000c4,
        0x000a0002, 0x00000003, 0x000000cc, 0x00000000, 0x000000dc, 0x000f0002, 0x00000002,
        0x000000e4, 0x00000000, 0x000000f4, 0x00040002, 0x00000003, 0x000000fc, 0x00000000,
        0x0000010c, 0x00000002, 0x00000004, 0x00000114, 0x00000000, 0x33783263, 0xababab00,
        0x00030003, 0x00030002, 0x00000001, 0x00000000, 0x32783363, 0xababab00, 0x00030003,
        0x00020003, 0x00000001, 0x00000000, 0x33783363, 0xababab00, 0x00030003, 0x00030003,
        0x00000001, 0x00000000, 0x33783272, 0xababab00, 0x00030002, 0x00030002, 0x00000001,
        0x00000000, 0x32783372, 0xababab00, 0x00030002, 0x00020003, 0x00000001, 0x00000000,
        0x34783472, 0xababab00, 0x00030002, 0x00040004, 0x00000001, 0x00000000, 0x325f7376,
        0x4100305f, 0x41414141, 0x00414141, 0x0000ffff,
    ]);
    check(
        &t,
        &[
            (
                "c2x3",
                S::Float4,
                7,
                3,
                C::MatrixColumns,
                T::Float,
                2,
                3,
                1,
                0,
            ),
            (
                "c3x2",
                S::Float4,
                13,
                2,
                C::MatrixColumns,
                T::Float,
                3,
                2,
                1,
                0,
            ),
            (
                "c3x3",
                S::Float4,
                10,
                3,
                C::MatrixColumns,
                T::Float,
                3,
                3,
                1,
                0,
            ),
            (
                "r2x3",
                S::Float4,
                15,
                2,
                C::MatrixRows,
                T::Float,
                2,
                3,
                1,
                0,
            ),
            ("r3x2", S::Float4, 4, 3, C::MatrixRows, T::Float, 3, 2, 1, 0),
            ("r4x4", S::Float4, 0, 4, C::MatrixRows, T::Float, 4, 4, 1, 0),
        ],
    );
    assert_eq!(
        (t.target.as_str(), t.creator.as_str()),
        ("vs_2_0", "AAAAAAAA")
    );
}

#[test]
fn ctab_arrays() {
    let t = parse(&[
        0xfffe0300, 0x0052fffe, FCC_CTAB, 0x0000001c, 0x0000013c, 0xfffe0300, 0x00000006,
        0x0000001c, 0x20008100, 0x00000134, 0x00000094, 0x000E0002, 0x00000002, 0x0000009c,
        0x00000000, 0x000000ac, 0x00100002, 0x00000002, 0x000000b8, 0x00000000, 0x000000c8,
        0x00080002, 0x00000004, 0x000000d0, 0x00000000, 0x000000e0, 0x00000002, 0x00000008,
        0x000000ec, 0x00000000, 0x000000fc, 0x000C0002, 0x00000002, 0x00000108, 0x00000000,
        0x00000118, 0x00120002, 0x00000001, 0x00000124, 0x00000000, 0x72726162, 0xab007961,
        0x00010000, 0x00010001, 0x00000002, 0x00000000, 0x63657662, 0x61727261, 0xabab0079,
        0x00010001, 0x00030001, 0x00000003, 0x00000000, 0x72726166, 0xab007961, 0x00030000,
        0x00010001, 0x00000004, 0x00000000, 0x78746d66, 0x61727261, 0xabab0079, 0x00030002,
        0x00040004, 0x00000002, 0x00000000, 0x63657666, 0x61727261, 0xabab0079, 0x00030001,
        0x00040001, 0x00000002, 0x00000000, 0x63657669, 0x61727261, 0xabab0079, 0x00020001,
        0x00040001, 0x00000001, 0x00000000, 0x335f7376, 0xab00305f, 0x656e6957, 0x6f727020,
        0x7463656a, 0xababab00, 0x0000ffff,
    ]);
    check(
        &t,
        &[
            (
                "fmtxarray",
                S::Float4,
                0,
                8,
                C::MatrixRows,
                T::Float,
                4,
                4,
                2,
                0,
            ),
            ("farray", S::Float4, 8, 4, C::Scalar, T::Float, 1, 1, 4, 0),
            (
                "fvecarray",
                S::Float4,
                12,
                2,
                C::Vector,
                T::Float,
                1,
                4,
                2,
                0,
            ),
            ("barray", S::Float4, 14, 2, C::Scalar, T::Bool, 1, 1, 2, 0),
            (
                "bvecarray",
                S::Float4,
                16,
                2,
                C::Vector,
                T::Bool,
                1,
                3,
                3,
                0,
            ),
            ("ivecarray", S::Float4, 18, 1, C::Vector, T::Int, 1, 4, 1, 0),
        ],
    );
}

#[test]
fn ctab_with_default_values() {
    let t = parse(&[
        0xfffe0200, 0x007bfffe, FCC_CTAB, 0x0000001c, 0x000001b7, 0xfffe0200, 0x00000005,
        0x0000001c, 0x00000100, 0x000001b0, 0x00000080, 0x00080002, 0x00000003, 0x00000084,
        0x00000094, 0x000000c4, 0x000c0002, 0x00000001, 0x000000c8, 0x000000d8, 0x000000e8,
        0x00040002, 0x00000004, 0x000000f0, 0x00000100, 0x00000140, 0x00000002, 0x00000004,
        0x000000f0, 0x00000148, 0x00000188, 0x000b0002, 0x00000001, 0x00000190, 0x000001a0,
        0x00727261, 0x00030000, 0x00010001, 0x00000003, 0x00000000, 0x42c80000, 0x00000000,
        0x00000000, 0x00000000, 0x43480000, 0x00000000, 0x00000000, 0x00000000, 0x43960000,
        0x00000000, 0x00000000, 0x00000000, 0x00746c66, 0x00030000, 0x00010001, 0x00000001,
        0x00000000, 0x411fd70a, 0x00000000, 0x00000000, 0x00000000, 0x3374616d, 0xababab00,
        0x00030003, 0x00040004, 0x00000001, 0x00000000, 0x41300000, 0x425c0000, 0x42c60000,
        0x44a42000, 0x41b00000, 0x42840000, 0x447c8000, 0x44b0c000, 0x42040000, 0x429a0000,
        0x448ae000, 0x44bd6000, 0x42300000, 0x42b00000, 0x44978000, 0x44ca0000, 0x3474616d,
        0xababab00, 0x3f800000, 0x40a00000, 0x41100000, 0x41500000, 0x40000000, 0x40c00000,
        0x41200000, 0x41600000, 0x40400000, 0x40e00000, 0x41300000, 0x41700000, 0x40800000,
        0x41000000, 0x41400000, 0x41800000, 0x34636576, 0xababab00, 0x00030001, 0x00040001,
        0x00000001, 0x00000000, 0x41200000, 0x41a00000, 0x41f00000, 0x42200000, 0x325f7376,
        0x4d004141, 0x41414141, 0x00000000, 0x0000ffff,
    ]);
    check(
        &t,
        &[
            (
                "mat4",
                S::Float4,
                0,
                4,
                C::MatrixColumns,
                T::Float,
                4,
                4,
                1,
                0,
            ),
            (
                "mat3",
                S::Float4,
                4,
                4,
                C::MatrixColumns,
                T::Float,
                4,
                4,
                1,
                0,
            ),
            ("arr", S::Float4, 8, 3, C::Scalar, T::Float, 1, 1, 3, 0),
            ("vec4", S::Float4, 11, 1, C::Vector, T::Float, 1, 4, 1, 0),
            ("flt", S::Float4, 12, 1, C::Scalar, T::Float, 1, 1, 1, 0),
        ],
    );
    let floats = |name: &str| -> Vec<f32> {
        t.constant(name)
            .and_then(|c| c.default_value.as_ref())
            .expect("default value")
            .iter()
            .map(|&w| f32::from_bits(w))
            .collect()
    };
    assert_eq!(
        floats("mat4"),
        [1., 5., 9., 13., 2., 6., 10., 14., 3., 7., 11., 15., 4., 8., 12., 16.]
    );
    assert_eq!(
        floats("mat3"),
        [
            11., 55., 99., 1313., 22., 66., 1010., 1414., 33., 77., 1111., 1515., 44., 88., 1212.,
            1616.
        ]
    );
    assert_eq!(
        floats("arr"),
        [100., 0., 0., 0., 200., 0., 0., 0., 300., 0., 0., 0.]
    );
    assert_eq!(floats("vec4"), [10., 20., 30., 40.]);
    assert_eq!(floats("flt"), [9.99, 0., 0., 0.]);
}

#[test]
fn ctab_samplers() {
    let t = parse(&[
        0xfffe0300, 0x0032fffe, FCC_CTAB, 0x0000001c, 0x000000b4, 0xfffe0300, 0x00000003,
        0x0000001c, 0x20008100, 0x000000ac, 0x00000058, 0x00020002, 0x00000001, 0x00000064,
        0x00000000, 0x00000074, 0x00000003, 0x00000001, 0x00000080, 0x00000000, 0x00000090,
        0x00030003, 0x00000001, 0x0000009c, 0x00000000, 0x73746f6e, 0x6c706d61, 0xab007265,
        0x00030001, 0x00040001, 0x00000001, 0x00000000, 0x706d6173, 0x3172656c, 0xababab00,
        0x000c0004, 0x00010001, 0x00000001, 0x00000000, 0x706d6173, 0x3272656c, 0xababab00,
        0x000d0004, 0x00010001, 0x00000001, 0x00000000, 0x335f7376, 0xab00305f, 0x656e6957,
        0x6f727020, 0x7463656a, 0xababab00, 0x0000ffff,
    ]);
    check(
        &t,
        &[
            (
                "sampler1",
                S::Sampler,
                0,
                1,
                C::Object,
                T::Sampler2D,
                1,
                1,
                1,
                0,
            ),
            (
                "sampler2",
                S::Sampler,
                3,
                1,
                C::Object,
                T::Sampler3D,
                1,
                1,
                1,
                0,
            ),
            (
                "notsampler",
                S::Float4,
                2,
                1,
                C::Vector,
                T::Float,
                1,
                4,
                1,
                0,
            ),
        ],
    );
}

#[test]
fn shader_with_ctab_and_text_comments() {
    // `shader_with_ctab`: a header-only table whose creator offset points at a zero word;
    // D3DX reports version vs_3_0 and no constants.
    let tx = u32::from_le_bytes(*b"TEXT");
    let words = [
        0xfffe0300, 0x0002fffe, tx, 0x00000000, 0x0008fffe, FCC_CTAB, 0x0000001c, 0x00000010,
        0xfffe0300, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x0004fffe, tx, 0x00000000,
        0x00000000, 0x00000000, 0x0000ffff,
    ];
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    let shader = Shader::parse(&bytes).expect("reads");
    assert_eq!(shader.comments.len(), 3);
    let t = shader.constant_table.expect("table");
    assert_eq!(
        (t.creator.as_str(), t.version, t.constants.len()),
        ("", 0xfffe0300, 0)
    );
}

#[test]
fn shader_with_invalid_ctab_still_reads() {
    // `shader_with_invalid_ctab`: the comment holds only four words of the header (D3DX
    // refuses the table); what follows the comment is a `nop`.
    let words = [
        0xfffe0300, 0x0005fffe, FCC_CTAB, 0x0000001c, 0x000000a9, 0xfffe0300, 0x00000000,
        0x00000000, 0x0000ffff,
    ];
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    let shader = Shader::parse(&bytes).expect("reads");
    assert!(shader.constant_table.is_none());
    assert!(matches!(
        shader.warnings.as_slice(),
        [Warning::ConstantTable {
            comment_offset: 1,
            byte: 0,
            ..
        }]
    ));
    assert_eq!(shader.instruction_count, 1);
}
