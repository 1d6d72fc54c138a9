//! Tests of the validator: the helpers that build programs, whole valid programs, and error
//! reporting; one test per rule in the files by concept.

use super::*;
use crate::enums::{Construct, DenormMode, MemoryTypeMask, ResourceKind, RoundMode, ShaderStage};
use crate::op::Operand;
use crate::types::{BasicType, ScalarType};
use OpCode as O;
use ScalarType as S;

mod blocks;
mod functions;
mod images;
mod literals;
mod mesh;
mod operands;
mod scopes;
mod stages;
mod subgroups;
mod types;

/// Builds a program in order; ids can be reserved ahead for forward references.
struct P {
    b: Builder,
    next: u32,
}

impl P {
    fn new() -> Self {
        P {
            b: Builder::new(),
            next: 1,
        }
    }

    fn reserve(&mut self) -> SsaDef {
        let d = SsaDef::new(self.next).expect("ids start at 1");
        self.next += 1;
        d
    }

    fn put(&mut self, d: SsaDef, op: Op) -> SsaDef {
        self.b.add_with_id(d, op).expect("id is free");
        d
    }

    fn add(&mut self, op: Op) -> SsaDef {
        let d = self.reserve();
        self.put(d, op)
    }
}

/// Declarations shared by the test programs.
#[allow(dead_code)]
struct Ctx {
    ep: SsaDef,
    func: SsaDef,
    entry: SsaDef,
    f0: SsaDef,
    f1: SsaDef,
    i0: SsaDef,
    i1: SsaDef,
    i4: SsaDef,
    u0: SsaDef,
    t: SsaDef,
    inp: SsaDef,
    out: SsaDef,
    tmp: Option<SsaDef>,
    param: SsaDef,
    uav: SsaDef,
    sampler: SsaDef,
}

fn op(code: OpCode, ty: impl Into<Type>) -> Op {
    Op::new(code, ty)
}

fn void(code: OpCode) -> Op {
    Op::new(code, Type::VOID)
}

fn label(c: Construct) -> Op {
    void(O::Label).with_lit(c.to_literal())
}

fn ret() -> Op {
    void(O::Return).with_opt_ref(None)
}

fn f32c(v: f32) -> Op {
    op(O::Constant, S::F32).with_lit(u64::from(v.to_bits()))
}

/// Entry point, constants and declarations (a `DclTmp` if `tmp`); `func` is reserved but
/// not placed.
fn header_with(p: &mut P, tmp: bool) -> Ctx {
    let ep = p.reserve();
    let func = p.reserve();
    p.put(
        ep,
        void(O::EntryPoint)
            .with_ref(func)
            .with_lit(ShaderStage::Pixel.to_literal()),
    );
    let f0 = p.add(f32c(0.0));
    let f1 = p.add(f32c(1.0));
    let i0 = p.add(op(O::Constant, S::I32).with_lit(0));
    let i1 = p.add(op(O::Constant, S::I32).with_lit(1));
    let i4 = p.add(op(O::Constant, S::I32).with_lit(4));
    let u0 = p.add(op(O::Constant, S::U32).with_lit(0));
    let t = p.add(op(O::Constant, S::Bool).with_lit(1));
    let inp = p.add(
        op(O::DclInput, S::F32)
            .with_ref(ep)
            .with_lit(0)
            .with_lit(0)
            .with_lit(0),
    );
    let out = p.add(
        op(O::DclOutput, S::F32)
            .with_ref(ep)
            .with_lit(0)
            .with_lit(0)
            .with_lit(0),
    );
    let tmp = tmp.then(|| p.add(op(O::DclTmp, S::F32).with_ref(ep)));
    let param = p.add(op(O::DclParam, S::F32));
    let uav = p.add(
        op(O::DclUav, S::U32)
            .with_ref(ep)
            .with_lit(0)
            .with_lit(0)
            .with_lit(1)
            .with_lit(ResourceKind::BufferTyped.to_literal())
            .with_lit(0),
    );
    let sampler = p.add(
        void(O::DclSampler)
            .with_ref(ep)
            .with_lit(0)
            .with_lit(0)
            .with_lit(1),
    );
    Ctx {
        ep,
        func,
        entry: func,
        f0,
        f1,
        i0,
        i1,
        i4,
        u0,
        t,
        inp,
        out,
        tmp,
        param,
        uav,
        sampler,
    }
}

fn header(p: &mut P) -> Ctx {
    header_with(p, false)
}

/// `header`, then `Function`, an entry `Label`, `body`, `Return` and `FunctionEnd`.
fn build(body: impl FnOnce(&mut P, &Ctx)) -> Builder {
    build_with(false, body)
}

fn build_with(tmp: bool, body: impl FnOnce(&mut P, &Ctx)) -> Builder {
    let mut p = P::new();
    let mut c = header_with(&mut p, tmp);
    p.put(c.func, void(O::Function));
    c.entry = p.add(label(Construct::None));
    body(&mut p, &c);
    p.add(ret());
    p.add(void(O::FunctionEnd));
    p.b
}

fn errors(b: &Builder, level: Level) -> Vec<ValidationError> {
    validate(b, level).err().unwrap_or_default()
}

fn dump(errs: &[ValidationError]) -> String {
    errs.iter().map(|e| format!("  {e}\n")).collect::<String>()
}

/// Asserts an error of `rule` for `def` (and `operand`, if given) at `level`.
#[track_caller]
fn expect(b: &Builder, level: Level, rule: Rule, def: Option<SsaDef>, operand: Option<usize>) {
    let errs = errors(b, level);
    let hit = errs
        .iter()
        .any(|e| e.rule == rule && e.def == def && (operand.is_none() || e.operand == operand));
    assert!(
        hit,
        "expected {rule:?} at {def:?} operand {operand:?}, got:\n{}",
        dump(&errs)
    );
}

#[track_caller]
fn expect_ok(b: &Builder, level: Level) {
    let errs = errors(b, level);
    assert!(errs.is_empty(), "expected no errors, got:\n{}", dump(&errs));
}

fn fadd(a: SsaDef, b: SsaDef) -> Op {
    op(O::FAdd, S::F32).with_ref(a).with_ref(b)
}

/// Validation errors of IR text, as `(rule, op id)`.
fn text_errors(text: &str, level: Level) -> Vec<(Rule, u32)> {
    let b = crate::text::parse(text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    errors(&b, level)
        .iter()
        .map(|e| (e.rule, e.def.map_or(0, |d| d.id())))
        .collect()
}

#[test]
fn minimal_program_is_valid_at_both_levels() {
    let b = build(|p, c| {
        let x = p.add(fadd(c.f0, c.f1));
        p.add(
            void(O::OutputStore)
                .with_ref(c.out)
                .with_opt_ref(None)
                .with_ref(x),
        );
    });
    expect_ok(&b, Level::Structural);
    expect_ok(&b, Level::Lowered);
}

/// A frontend-style program: scoped control flow, temporaries, untyped values.
fn scoped_program() -> Builder {
    build_with(true, |p, c| {
        let tmp = c.tmp.expect("tmp");
        let v = p.add(op(O::InputLoad, S::F32).with_ref(c.inp).with_opt_ref(None));
        p.add(void(O::TmpStore).with_ref(tmp).with_ref(v));
        let x = p.add(op(O::TmpLoad, S::Unknown).with_ref(tmp));
        let y = p.add(op(O::ConsumeAs, S::F32).with_ref(x));
        let cond = p.add(op(O::FLt, S::Bool).with_ref(y).with_ref(c.f0));
        let endif = p.reserve();
        let if1 = p.add(void(O::ScopedIf).with_ref(endif).with_ref(cond));
        p.add(void(O::TmpStore).with_ref(tmp).with_ref(c.f1));
        p.add(void(O::ScopedElse).with_ref(if1));
        p.add(void(O::TmpStore).with_ref(tmp).with_ref(c.f0));
        p.put(endif, void(O::ScopedEndIf).with_ref(if1));
        let endloop = p.reserve();
        let lp = p.add(void(O::ScopedLoop).with_ref(endloop));
        let endif2 = p.reserve();
        let if2 = p.add(void(O::ScopedIf).with_ref(endif2).with_ref(cond));
        p.add(void(O::ScopedLoopBreak).with_ref(lp));
        p.put(endif2, void(O::ScopedEndIf).with_ref(if2));
        let endsw = p.reserve();
        let sw = p.add(void(O::ScopedSwitch).with_ref(endsw).with_ref(c.i0));
        p.add(void(O::ScopedSwitchCase).with_ref(sw).with_lit(1));
        p.add(void(O::ScopedLoopContinue).with_ref(lp));
        p.add(void(O::ScopedSwitchCase).with_ref(sw).with_lit(u64::MAX)); // -1
        let endif3 = p.reserve();
        let if3 = p.add(void(O::ScopedIf).with_ref(endif3).with_ref(cond));
        p.add(void(O::ScopedSwitchBreak).with_ref(sw));
        p.put(endif3, void(O::ScopedEndIf).with_ref(if3));
        p.add(void(O::ScopedSwitchDefault).with_ref(sw));
        p.add(void(O::ScopedSwitchBreak).with_ref(sw));
        p.put(endsw, void(O::ScopedEndSwitch).with_ref(sw));
        p.add(ret()); // early return inside scoped code
        p.put(endloop, void(O::ScopedEndLoop).with_ref(lp));
        let z = p.add(op(O::TmpLoad, S::F32).with_ref(tmp));
        p.add(
            void(O::OutputStore)
                .with_ref(c.out)
                .with_opt_ref(None)
                .with_ref(z),
        );
    })
}

#[test]
fn scoped_program_is_structural_but_not_lowered() {
    let b = scoped_program();
    expect_ok(&b, Level::Structural);
    let errs = errors(&b, Level::Lowered);
    let mut rules: Vec<Rule> = errs.iter().map(|e| e.rule).collect();
    rules.sort();
    rules.dedup();
    assert_eq!(
        rules,
        vec![Rule::CodeOutsideBlock, Rule::NotLowered, Rule::UnknownType],
        "{}",
        dump(&errs)
    );
    // Every scoped op, temporary and ConsumeAs is named.
    let not_lowered = errs.iter().filter(|e| e.rule == Rule::NotLowered).count();
    let expected = b.iter().filter(|(_, o)| o.opcode.must_be_lowered()).count();
    assert_eq!(not_lowered, expected);
}

/// Structured SSA: if/else with merge, a loop with continue/merge and phis, a switch.
fn structured_program() -> Builder {
    let mut p = P::new();
    let c = header(&mut p);
    p.put(c.func, void(O::Function));
    let [lthen, lelse, lmerge, lhead, lbody, lcase, ldef, lsm, lcont, lexit, inext] =
        std::array::from_fn(|_| p.reserve());
    p.add(
        void(O::Label)
            .with_ref(lmerge)
            .with_lit(Construct::StructuredSelection.to_literal()),
    );
    let v = p.add(op(O::InputLoad, S::F32).with_ref(c.inp).with_opt_ref(None));
    let cond = p.add(op(O::FLt, S::Bool).with_ref(v).with_ref(c.f0));
    p.add(
        void(O::BranchConditional)
            .with_ref(cond)
            .with_ref(lthen)
            .with_ref(lelse),
    );
    p.put(lthen, label(Construct::None));
    let a = p.add(fadd(v, c.f1));
    p.add(void(O::Branch).with_ref(lmerge));
    p.put(lelse, label(Construct::None));
    let m = p.add(op(O::FMul, S::F32).with_ref(v).with_ref(c.f1));
    p.add(void(O::Branch).with_ref(lmerge));
    p.put(lmerge, label(Construct::None));
    let ph = p.add(
        op(O::Phi, S::F32)
            .with_ref(lthen)
            .with_ref(a)
            .with_ref(lelse)
            .with_ref(m),
    );
    p.add(void(O::Branch).with_ref(lhead));
    p.put(
        lhead,
        void(O::Label)
            .with_ref(lexit)
            .with_ref(lcont)
            .with_lit(Construct::StructuredLoop.to_literal()),
    );
    let i = p.add(
        op(O::Phi, S::I32)
            .with_ref(lmerge)
            .with_ref(c.i0)
            .with_ref(lcont)
            .with_ref(inext),
    );
    let cmp = p.add(op(O::SLt, S::Bool).with_ref(i).with_ref(c.i4));
    p.add(
        void(O::BranchConditional)
            .with_ref(cmp)
            .with_ref(lbody)
            .with_ref(lexit),
    );
    p.put(
        lbody,
        void(O::Label)
            .with_ref(lsm)
            .with_lit(Construct::StructuredSelection.to_literal()),
    );
    p.add(
        void(O::Switch)
            .with_ref(i)
            .with_ref(ldef)
            .with_ref(c.i1)
            .with_ref(lcase),
    );
    p.put(lcase, label(Construct::None));
    p.add(void(O::Branch).with_ref(lsm));
    p.put(ldef, label(Construct::None));
    p.add(void(O::Branch).with_ref(lsm));
    p.put(lsm, label(Construct::None));
    p.add(void(O::Branch).with_ref(lcont));
    p.put(lcont, label(Construct::None));
    p.put(inext, op(O::IAdd, S::I32).with_ref(i).with_ref(c.i1));
    p.add(void(O::Branch).with_ref(lhead));
    p.put(lexit, label(Construct::None));
    p.add(
        void(O::OutputStore)
            .with_ref(c.out)
            .with_opt_ref(None)
            .with_ref(ph),
    );
    p.add(ret());
    p.add(void(O::FunctionEnd));
    p.b
}

#[test]
fn structured_program_is_lowered() {
    let b = structured_program();
    expect_ok(&b, Level::Structural);
    expect_ok(&b, Level::Lowered);
}

#[test]
fn large_straight_line_function_validates() {
    let n = 200_000;
    let mut p = P::new();
    let c = header(&mut p);
    p.put(c.func, void(O::Function));
    p.add(label(Construct::None));
    let mut x = c.f0;
    for _ in 0..n {
        x = p.add(fadd(x, c.f1));
    }
    p.add(
        void(O::OutputStore)
            .with_ref(c.out)
            .with_opt_ref(None)
            .with_ref(x),
    );
    p.add(ret());
    p.add(void(O::FunctionEnd));
    assert!(p.b.len() > n);
    expect_ok(&p.b, Level::Structural);
    expect_ok(&p.b, Level::Lowered);
}

#[test]
fn break_and_continue_nesting() {
    // Continue from inside a switch nested in a loop, break from nested ifs: valid.
    let b = scoped_program();
    expect_ok(&b, Level::Structural);
    // Switch break from inside a loop nested in the switch: invalid.
    let mut bad = None;
    let b = build(|p, c| {
        let endsw = p.reserve();
        let sw = p.add(void(O::ScopedSwitch).with_ref(endsw).with_ref(c.i0));
        p.add(void(O::ScopedSwitchDefault).with_ref(sw));
        let endloop = p.reserve();
        let lp = p.add(void(O::ScopedLoop).with_ref(endloop));
        bad = Some(p.add(void(O::ScopedSwitchBreak).with_ref(sw)));
        p.put(endloop, void(O::ScopedEndLoop).with_ref(lp));
        p.put(endsw, void(O::ScopedEndSwitch).with_ref(sw));
    });
    expect(
        &b,
        Level::Structural,
        Rule::BreakOutsideConstruct,
        bad,
        Some(0),
    );
}

#[test]
fn every_rule_has_a_description() {
    for r in Rule::ALL {
        assert!(!r.description().is_empty());
    }
}

#[test]
fn error_display_format() {
    let e = ValidationError {
        def: SsaDef::new(12),
        opcode: Some(O::FAdd),
        rule: Rule::OperandType,
        operand: Some(1),
        detail: "expected f32, found i32".into(),
    };
    assert_eq!(
        e.to_string(),
        "%12 FAdd: operand 1: invalid operand type: expected f32, found i32"
    );
    let e = ValidationError {
        def: None,
        opcode: None,
        rule: Rule::EntryPointCount,
        operand: None,
        detail: String::new(),
    };
    assert_eq!(e.to_string(), "program needs exactly one EntryPoint");
}

#[test]
fn errors_are_capped() {
    let b = build(|p, c| {
        for _ in 0..500 {
            p.add(fadd(c.f0, c.i0));
        }
    });
    assert_eq!(errors(&b, Level::Structural).len(), MAX_ERRORS);
}

#[test]
fn garbage_never_panics() {
    // Every opcode with every small operand count, operands drawn from live ids, null,
    // out-of-range ids and huge literals, with assorted types, in code and in declarations.
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut rnd = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let types = [
        Type::VOID,
        Type::scalar(S::Unknown),
        Type::scalar(S::Bool),
        Type::scalar(S::F32),
        Type::vector(S::I32, 3),
        Type::scalar(S::Uav),
        Type::structure(&[BasicType::scalar(S::U32), BasicType::vector(S::F32, 4)]).expect("valid"),
        Type::scalar(S::U32).array_of(0).expect("valid"),
    ];
    for round in 0..4 {
        let b = build_with(true, |p, c| {
            let live = [
                c.ep, c.func, c.entry, c.f0, c.i0, c.t, c.inp, c.param, c.uav,
            ];
            for &code in OpCode::ALL {
                for n in 0..6 {
                    let mut o = op(code, types[(rnd() % types.len() as u64) as usize]);
                    o.flags = OpFlags((rnd() & 0xff) as u8);
                    for _ in 0..n {
                        let v = match rnd() % 5 {
                            0 => 0,
                            1 => u64::from(live[(rnd() % live.len() as u64) as usize].id()),
                            2 => rnd(),
                            3 => rnd() % 64,
                            _ => u64::from(p.next.saturating_sub(1)),
                        };
                        o.operands.push(Operand(v));
                    }
                    if round % 2 == 0 {
                        p.add(o);
                    } else {
                        let d = p.reserve();
                        p.put(d, o);
                    }
                }
            }
        });
        let _ = validate(&b, Level::Structural);
        let _ = validate(&b, Level::Lowered);
    }
}
