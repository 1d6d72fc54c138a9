//! Round trips of the binary and text forms: every opcode, random programs, programs with
//! sparse ids, and hostile input for both readers.

// Tests may unwrap, panic and print (production code may not: see the workspace lints).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::print_stdout,
    clippy::print_stderr
)]
use dxspv_ir::testgen::{self, Rng};
use dxspv_ir::{
    serialize, text, BasicType, Builder, LitKind, Op, OpCode, OpFlags, Operand, RefKind,
    ResultRule, ScalarType, SsaDef, Type,
};

fn def(id: u32) -> SsaDef {
    SsaDef::new(id).expect("non-zero id")
}

/// The ops of a builder in program order, with their ids.
fn ops(b: &Builder) -> Vec<(SsaDef, Op)> {
    b.iter().map(|(d, op)| (d, op.clone())).collect()
}

/// Serialize → deserialize gives the same ops, types and ids (for builders with dense ids in
/// program order), and serializing again gives the same bytes.
fn check_binary(b: &Builder, what: &str) {
    let bytes = serialize::serialize(b);
    let back = match serialize::deserialize(&bytes) {
        Ok(back) => back,
        Err(e) => panic!("{what}: {e}\n{}", text::print(b)),
    };
    assert_eq!(ops(&back), ops(b), "{what}");
    assert_eq!(serialize::serialize(&back), bytes, "{what}");
}

/// Print → parse keeps ops and ids, and print → parse → print is the identity.
fn check_text(b: &Builder, what: &str) {
    let printed = text::print(b);
    let back = match text::parse(&printed) {
        Ok(back) => back,
        Err(e) => panic!("{what}: {e}\n{printed}"),
    };
    assert_eq!(ops(&back), ops(b), "{what}\n{printed}");
    assert_eq!(text::print(&back), printed, "{what}");
}

/// A valid literal of each kind.
fn literal(kind: LitKind, i: usize) -> u64 {
    match kind {
        LitKind::Int => [0, 7, u32::MAX as u64, u64::MAX][i % 4],
        LitKind::CaseValue => 0xffff_fffe,
        LitKind::Str | LitKind::Data => 0x1234,
        LitKind::ShaderStage => 5,
        LitKind::ShaderStageMask => 0b1010,
        LitKind::BuiltIn => 19,
        LitKind::ResourceKind => 7,
        LitKind::PrimitiveType => 0x103,
        LitKind::InterpolationModes => 0b0110,
        LitKind::AtomicOp => 3,
        LitKind::RoundMode => 2,
        LitKind::DenormMode => 1,
        LitKind::Scope => 4,
        LitKind::MemoryTypeMask => 0b111,
        LitKind::UavFlags => 0b10001,
        LitKind::Construct => 2,
        LitKind::DerivativeMode => 2,
        LitKind::RovScope => 1,
        LitKind::TessWindingOrder => 1,
        LitKind::TessPartitioning => 3,
        LitKind::WaveOp => 12,
        LitKind::QuadDirection => 2,
    }
}

/// A small program around one op of `opcode`: operands before it, a forward target after it,
/// a name on it.
fn program_for(opcode: OpCode, variant: usize) -> Builder {
    let info = opcode.info();
    // Ids are given explicitly: `Builder::add` after a forward reference would skip ids.
    let mut b = Builder::new();
    let put = |b: &mut Builder, id: u32, op: Op| {
        b.add_with_id(def(id), op).expect("fresh id");
        def(id)
    };
    let c = put(
        &mut b,
        1,
        Op::new(OpCode::Constant, ScalarType::F32).with_lit(1.5f32.to_bits() as u64),
    );
    let u = put(
        &mut b,
        2,
        Op::new(OpCode::Constant, ScalarType::U32).with_lit(2),
    );
    let ty = match (info.result, variant) {
        (ResultRule::Void, _) => Type::VOID,
        (_, 0) => Type::vector(ScalarType::F32, 4),
        (_, 1) => Type::structure(&[
            BasicType::scalar(ScalarType::U32),
            BasicType::vector(ScalarType::I16, 3),
        ])
        .and_then(|t| t.array_of(2))
        .expect("valid type"),
        _ => Type::scalar(ScalarType::U32)
            .array_of(4)
            .and_then(|t| t.array_of(0))
            .expect("valid type"),
    };
    let mut op = Op::new(opcode, ty);
    op.flags = OpFlags((variant as u8 * 0x15) & OpFlags::ALL_BITS);
    let forward = def(5);
    for (i, r) in info.refs.iter().enumerate() {
        let r = match (r.kind, (i + variant) % 3) {
            (RefKind::Optional, 0) => Operand::NULL,
            (_, 1) => Operand::from_def(forward),
            (_, 2) => Operand::from_def(u),
            _ => Operand::from_def(c),
        };
        op.operands.push(r);
    }
    if info.var_refs() {
        for i in 0..variant + 1 {
            op.operands
                .push(Operand::from_def(if i % 2 == 0 { c } else { forward }));
        }
    }
    for (i, kind) in info.lits.iter().enumerate() {
        op.operands.push(Operand(literal(*kind, i + variant)));
    }
    match info.var_lits {
        Some(LitKind::Str) => {
            let name = ["", "exactly8", "x \"quoted\" \\ é"][variant % 3];
            op = op.with_str(name);
        }
        Some(LitKind::Data) => {
            let n = op.ty.flattened_scalar_count().unwrap_or(1);
            for i in 0..n {
                let v = match op.ty.flattened_scalar_type(i as usize) {
                    Some(ScalarType::F32) => {
                        [0.5f32, -0.0, f32::NAN, 1e-40][i as usize % 4].to_bits() as u64
                    }
                    Some(ScalarType::I16) => 0xfff0,
                    _ => i * 3,
                };
                op.operands.push(Operand(v));
            }
        }
        Some(kind) => op.operands.push(Operand(literal(kind, 0))),
        None => {}
    }
    let target = put(&mut b, 3, op);
    put(&mut b, 4, Op::new(OpCode::Unreachable, Type::VOID));
    put(&mut b, 5, Op::new(OpCode::Label, Type::VOID).with_lit(0));
    put(
        &mut b,
        6,
        Op::new(OpCode::DebugName, Type::VOID)
            .with_ref(target)
            .with_str("the op"),
    );
    b
}

#[test]
fn every_opcode_round_trips() {
    for &opcode in OpCode::ALL {
        for variant in 0..3 {
            let b = program_for(opcode, variant);
            let what = format!("{opcode} variant {variant}");
            check_binary(&b, &what);
            check_text(&b, &what);
            let line = text::print_op(&b, def(3));
            assert!(line.starts_with(&format!("%3 = {opcode}")), "{line}");
            assert!(line.ends_with("   ; the op"), "{line}");
        }
    }
}

#[test]
fn random_programs_round_trip() {
    for seed in 0..300 {
        let b = testgen::random_program(seed, 200);
        let what = format!("seed {seed}");
        check_binary(&b, &what);
        check_text(&b, &what);
    }
}

#[test]
fn large_program_round_trips() {
    let b = testgen::large_program(20_000);
    check_binary(&b, "large");
    check_text(&b, "large");
}

#[test]
fn sparse_ids_and_edited_order() {
    let mut b = testgen::large_program(500);
    // Remove some ops nothing uses and insert others out of id order.
    let removable: Vec<SsaDef> = b
        .iter()
        .filter(|(d, op)| op.opcode == OpCode::FAdd && !b.has_uses(*d))
        .map(|(d, _)| d)
        .take(10)
        .collect();
    assert!(!removable.is_empty());
    for d in &removable {
        b.remove(*d);
    }
    let first = b.first().expect("non-empty");
    let label = b
        .iter()
        .find(|(_, op)| op.opcode == OpCode::Label)
        .map(|(d, _)| d)
        .expect("a label");
    let c = b.add_before(
        first,
        Op::new(OpCode::Constant, ScalarType::F32).with_lit(0x4000_0000),
    );
    b.add_after(label, Op::new(OpCode::FNeg, ScalarType::F32).with_ref(c));
    // Text keeps the ids.
    check_text(&b, "edited");
    // Binary renumbers densely in program order; the shape is the same.
    let back = serialize::deserialize(&serialize::serialize(&b)).expect("valid stream");
    assert_eq!(back.len(), b.len());
    let mut new_id = std::collections::HashMap::new();
    for (i, (d, _)) in b.iter().enumerate() {
        new_id.insert(d.id() as u64, i as u64 + 1);
    }
    for ((d1, a), (d2, o)) in b.iter().zip(back.iter()) {
        assert_eq!(new_id[&(d1.id() as u64)], d2.id() as u64);
        assert_eq!((a.opcode, a.flags, a.ty), (o.opcode, o.flags, o.ty));
        let nrefs = a.ref_count();
        for (i, (x, y)) in a.operands.iter().zip(&o.operands).enumerate() {
            if i < nrefs && x.0 != 0 {
                assert_eq!(new_id[&x.0], y.0);
            } else {
                assert_eq!(x, y);
            }
        }
    }
}

#[test]
fn dangling_references_serialize_as_null() {
    let mut b = Builder::new();
    let c = b.add(Op::new(OpCode::Constant, ScalarType::U32).with_lit(1));
    let n = b.add(Op::new(OpCode::INeg, ScalarType::U32).with_ref(c));
    b.remove(c);
    let back = serialize::deserialize(&serialize::serialize(&b)).expect("valid stream");
    let (_, op) = back.iter().next().expect("one op");
    assert_eq!(op.operands[0], Operand::NULL);
    assert_eq!(back.len(), 1);
    let _ = n;
}

#[test]
fn truncation_errors_or_gives_a_prefix() {
    for seed in 0..20 {
        let b = testgen::random_program(seed, 60);
        let bytes = serialize::serialize(&b);
        let all = ops(&b);
        for len in 0..bytes.len() {
            match serialize::deserialize(&bytes[..len]) {
                Err(e) => assert!(e.offset <= len, "seed {seed} len {len}: {e}"),
                // Only a cut at an op boundary can read, and then it is a prefix of the ops.
                Ok(prefix) => {
                    let got = ops(&prefix);
                    assert!(got.len() < all.len());
                    assert_eq!(got, all[..got.len()], "seed {seed} len {len}");
                }
            }
        }
    }
}

#[test]
fn corrupted_streams_never_panic() {
    let mut rng = Rng::new(42);
    for seed in 0..50 {
        let bytes = serialize::serialize(&testgen::random_program(seed, 80));
        for _ in 0..200 {
            let mut bad = bytes.clone();
            for _ in 0..rng.range(1, 4) {
                let i = rng.below(bad.len() as u64) as usize;
                match rng.below(3) {
                    0 => bad[i] = rng.next_u64() as u8,
                    1 => {
                        bad.remove(i);
                    }
                    _ => bad.insert(i, rng.next_u64() as u8),
                }
            }
            let _ = serialize::deserialize(&bad);
        }
    }
    for _ in 0..20_000 {
        let len = rng.below(64) as usize;
        let junk: Vec<u8> = (0..len).map(|_| rng.next_u64() as u8).collect();
        let _ = serialize::deserialize(&junk);
    }
}

#[test]
fn hostile_streams_are_rejected_with_a_reason() {
    use dxspv_ir::DeserializeErrorKind as K;
    let tok = |out: &mut Vec<u8>, v: i64| serialize::write_token(out, v);
    let op_header = |count: i64| {
        let mut out = Vec::new();
        tok(&mut out, OpCode::FNeg.code() as i64);
        tok(&mut out, count);
        out
    };
    // Operand count far beyond the input.
    let mut s = op_header(1 << 40);
    tok(&mut s, 4);
    assert!(matches!(
        serialize::deserialize(&s).map(|_| ()).unwrap_err().kind,
        K::BadOperandCount(_)
    ));
    // Count that does not fit the shape.
    let mut s = op_header(2);
    tok(&mut s, 4);
    tok(&mut s, 0);
    tok(&mut s, 0);
    assert!(matches!(
        serialize::deserialize(&s).map(|_| ()).unwrap_err().kind,
        K::OperandCountMismatch { .. }
    ));
    // Bad type header, too many members, unknown scalar, void member.
    for (header, extra, expect) in [
        (-1i64, vec![], "bad type header"),
        (17 << 2, vec![], "members"),
        (1 << 2, vec![0x1f], "bad struct member"),
        (1 << 2, vec![0], "bad struct member"),
        (1 << 2, vec![0x80], "bad struct member"),
        (2 | 1 << 2, vec![0, 4, 9], "invalid type"),
        (1 | 1 << 2, vec![-1, 9], "bad array size"),
        (1, vec![3], "invalid type"),
    ] {
        let mut s = op_header(1);
        tok(&mut s, header);
        for e in extra {
            tok(&mut s, e);
        }
        tok(&mut s, 0);
        let e = serialize::deserialize(&s).map(|_| ()).unwrap_err();
        assert!(e.to_string().contains(expect), "{header}: {e}");
    }
    // References before the first op and far past the end.
    for delta in [1i64, -1, -(1 << 40), i64::MIN, i64::MAX] {
        let mut s = op_header(1);
        tok(&mut s, 1 << 2);
        tok(&mut s, ScalarType::F32 as i64);
        tok(&mut s, delta);
        let e = serialize::deserialize(&s).map(|_| ()).unwrap_err();
        assert!(
            matches!(e.kind, K::RefOutOfRange { .. } | K::UndefinedRef { .. }),
            "{delta}: {e}"
        );
    }
    // A negative opcode token, a too wide one, a truncated 9-byte token.
    for bytes in [vec![0x7f], vec![0xc4, 0, 0], vec![0xff, 1, 2]] {
        let e = serialize::deserialize(&bytes).map(|_| ()).unwrap_err();
        assert_eq!(e.op_index, 0);
    }
}

/// Valid text to mutate.
fn sample_text(seed: u64) -> String {
    text::print(&testgen::random_program(seed, 40))
}

#[test]
fn mutated_text_never_panics() {
    let mut rng = Rng::new(7);
    const NOISE: &[&str] = &[
        "%",
        "%0",
        "%99999999999999999999",
        "\"",
        "\\",
        "[",
        "]",
        "<",
        ">",
        "{",
        "}",
        ";",
        " ",
        "\n",
        "null",
        "vec4<",
        "struct{",
        "0x",
        "-",
        "1e999",
        "é",
        "Patch99",
        "|",
        ",",
        "=",
    ];
    for seed in 0..30 {
        let s = sample_text(seed);
        let boundaries: Vec<usize> = s.char_indices().map(|(i, _)| i).collect();
        // Every truncation.
        for &i in boundaries.iter().step_by(3) {
            let _ = text::parse(&s[..i]);
        }
        // Random insertions and deletions.
        for _ in 0..200 {
            let mut t = s.clone();
            for _ in 0..rng.range(1, 3) {
                let cut: Vec<usize> = t.char_indices().map(|(i, _)| i).collect();
                let at = cut
                    .get(rng.below(cut.len() as u64) as usize)
                    .copied()
                    .unwrap_or(0);
                if rng.chance(1, 2) {
                    t.insert_str(at, rng.pick(NOISE).unwrap_or("%"));
                } else {
                    let end = t[at..].chars().next().map_or(at, |c| at + c.len_utf8());
                    t.replace_range(at..end, "");
                }
            }
            if let Ok(b) = text::parse(&t) {
                // Whatever parses prints and parses again.
                let p = text::print(&b);
                assert_eq!(text::print(&text::parse(&p).expect("reparse")), p);
            }
        }
    }
}

#[test]
fn bad_text_is_rejected_with_a_position() {
    let cases: &[(&str, &str)] = &[
        ("garbage", "1:1: expected `%ID = ...`"),
        ("%1 = ", "1:6: expected an opcode name"),
        ("%x = Unreachable", "1:2: expected an id number"),
        ("%0 = Unreachable", "1:2: id 0 is out of range"),
        ("%1 = NoSuchOp f32", "1:6: unknown opcode `NoSuchOp`"),
        ("%1 = FNeg", "1:10: bad type"),
        ("%1 = FNeg vec5<f32> null", "1:11: bad type"),
        ("%1 = FNeg vec4<void> null", "1:16: bad type"),
        ("%1 = FNeg vec4<f32 null", "1:20: expected `>`"),
        (
            "%1 = FNeg struct{f32 u32} null",
            "1:22: expected `,` or `}`",
        ),
        ("%1 = FNeg u32[4 null", "1:17: expected `]`"),
        ("%1 = FNeg u32[][4] null", "1:16: invalid type"),
        ("%1 = FNeg u32[1][2][3][4] null", "1:23: invalid type"),
        ("%1 = FNeg f32", "1:14: expected a reference"),
        ("%1 = FNeg f32 null null", "1:20: expected end of line"),
        ("%1 = FNeg f32 7", "1:15: expected a reference"),
        ("%1 = EntryPoint", "1:16: expected a ShaderStage literal"),
        ("%1 = DebugName null \"a", "1:21: unterminated string"),
        (
            "%1 = DebugName null \"a\\q\"",
            "1:23: bad escape sequence `\\q`",
        ),
        (
            "%1 = DebugName null \"a\\x00\"",
            "1:23: strings cannot contain NUL",
        ),
        ("%1 = DebugName null \"a\\x4\"", "1:23: bad escape"),
        ("%1 = DebugName null \"a\"b", "1:24: expected whitespace"),
        (
            "%1 = DebugName null 1 \"a\"",
            "1:23: expected a string literal",
        ),
        ("%1 = Constant f32 1.0x", "1:19: bad f32 literal `1.0x`"),
        ("%1 = Constant f32 inf", "1:19: bad f32 literal"),
        ("%1 = Constant f32 1e999", "1:19: bad f32 literal"),
        ("%1 = Constant i8 -129", "1:18: bad i8 literal"),
        ("%1 = Constant u32 -1", "1:19: bad u32 literal"),
        ("%1 = Constant bool 1", "1:20: bad bool literal"),
        ("%1 = Constant f16 70000.0", "1:19: bad f16 literal"),
        ("%1 = Label 0x", "1:12: bad Construct literal"),
        (
            "%1 = SetGsInputPrimitive null Patch33",
            "1:31: bad PrimitiveType literal",
        ),
        ("%1 = Unreachable [precise", "1:18: expected `]`"),
        ("%1 = Unreachable [precise]x", "1:27: expected whitespace"),
        (
            "%1 = Unreachable\n%2 = Branch %3",
            "2:13: %3 is referenced but never defined",
        ),
    ];
    for (text, msg) in cases {
        match text::parse(text) {
            Ok(b) => panic!("{text:?} parsed:\n{}", text::print(&b)),
            Err(e) => assert!(e.to_string().starts_with(msg), "{text:?}: {e}"),
        }
    }
}
