use super::*;
use crate::{text, Builder, BuiltIn, Op, OpCode, ScalarType, ShaderStage, SsaDef, Type};

/// A converter in miniature: a builder, the helpers' state, and a count of code ops.
#[derive(Default)]
struct Mini {
    b: Builder,
    state: FrontendState,
    code_ops: usize,
}

impl FrontendBuilder for Mini {
    fn ir(&mut self) -> (&mut Builder, &mut FrontendState) {
        (&mut self.b, &mut self.state)
    }

    fn code(&mut self, op: Op) -> SsaDef {
        self.code_ops += 1;
        self.b.add(op)
    }
}

#[test]
fn constants_are_made_once_and_collisions_never_return_a_wrong_def() {
    let mut m = Mini::default();
    let a = m.c_u32(7);
    assert_eq!(m.c_u32(7), a);
    assert_ne!(m.c_i32(7), a, "another type is another constant");
    assert_ne!(m.c_f32(7.0), a);
    // More constants than slots: every def still holds its own value.
    let defs: Vec<_> = (0..500u32).map(|v| (v, m.c_u32(v))).collect();
    for (v, d) in defs {
        assert_eq!(m.c_u32(v), d);
        let op = m.b.get(d).expect("constant");
        assert_eq!(op.lit(0), Some(u64::from(v)));
    }
    assert_eq!(m.code_ops, 0, "constants are declarations");
}

#[test]
fn helpers_write_the_ops_they_name_through_code() {
    let mut m = Mini::default();
    let ep =
        m.decl(Op::new(OpCode::EntryPoint, Type::VOID).with_lit(ShaderStage::Compute.to_literal()));
    let x = m.c_f32(1.0);
    let y = m.c_f32(2.0);
    let v = m.vector(ScalarType::F32, &[x, y]);
    assert_eq!(
        m.vector(ScalarType::F32, &[x]),
        x,
        "one scalar is no vector"
    );
    let e = m.extract(ScalarType::F32, v, 1);
    let cond = m.op2(OpCode::FLt, ScalarType::Bool, x, e);
    let mask = m.bool_to_mask(cond);
    m.name_parts(
        mask,
        &[NamePart::S("r"), NamePart::N(12), NamePart::S("_x")],
    );
    assert_eq!(m.code_ops, 4);
    let printed = text::print(&m.b);
    for want in [
        "CompositeConstruct vec2<f32>",
        "CompositeExtract f32",
        "FLt bool",
        "Select u32",
        "DebugName",
        "\"r12_x\"",
    ] {
        assert!(printed.contains(want), "{want} missing from\n{printed}");
    }
    assert!(m.b.get(ep).is_some());
}

#[test]
fn write_masks_and_system_values() {
    assert_eq!(lanes(0b1010).collect::<Vec<_>>(), [1, 3]);
    assert_eq!(lanes(0).count(), 0);
    assert_eq!(builtin_of_d3d_name(1, 0), Some((BuiltIn::Position, None)));
    assert_eq!(
        builtin_of_d3d_name(11, 2),
        Some((BuiltIn::TessFactorOuter, Some(2)))
    );
    assert_eq!(builtin_of_d3d_name(0, 0), None, "undefined is no built-in");
    assert_eq!(
        builtin_of_d3d_name(64, 0),
        None,
        "a render target is no built-in"
    );
    assert_eq!(
        builtin_shape(BuiltIn::ClipDistance, 6),
        (ScalarType::F32, 1, 6)
    );
    assert_eq!(builtin_shape(BuiltIn::Position, 0), (ScalarType::F32, 4, 0));
}

#[test]
fn name_parts_packs_as_the_whole_string_would() {
    // Short names are gathered in a buffer, long ones packed piece by piece: both as
    // `with_str` of the concatenation, at every length around the word and buffer edges.
    for len in 0..70usize {
        let text: String = (0..len).map(|i| (b'a' + (i % 26) as u8) as char).collect();
        for n in [None, Some(0u64), Some(7), Some(12345), Some(u64::MAX)] {
            let mut m = Mini::default();
            let ep = m.decl(
                Op::new(OpCode::EntryPoint, Type::VOID).with_lit(ShaderStage::Compute.to_literal()),
            );
            let mut parts = vec![NamePart::S("v"), NamePart::S(&text)];
            let mut whole = format!("v{text}");
            if let Some(n) = n {
                parts.push(NamePart::N(n));
                whole.push_str(&n.to_string());
            }
            m.name_parts(ep, &parts);
            let want = Op::new(OpCode::DebugName, Type::VOID)
                .with_ref(ep)
                .with_str(&whole);
            let got = m.b.iter().map(|(_, op)| op.clone()).last();
            assert_eq!(got.as_ref(), Some(&want), "{whole}");
        }
    }
}
