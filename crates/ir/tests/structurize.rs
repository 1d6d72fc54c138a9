//! `structurize` end to end: random reducible control flow graphs in unstructured block form
//! (nested loops with several exits and continues of outer loops, branches out of nested
//! selections, switches with shared targets, early returns, demotes in loops, phis at joins
//! and loop headers), and the classic shapes written as IR text.
//!
//! Every program is checked three ways:
//! - the validator accepts the input at `Level::Unstructured` and the output at
//!   `Level::Structural` and `Level::Lowered`, and an independent checker of SPIR-V's rules and
//!   SSA dominance (`common::check_structured`) agrees;
//! - the whole pass pipeline (validating after every pass) takes the unstructured input, and
//!   the SPIR-V backend's output passes `spirv-val --target-env vulkan1.3`;
//! - an interpreter runs the input, the structured output and the pipeline's output for
//!   several input values and must see the same trace (values passed to `Drain` or stored to
//!   the output, `Demote`s) and the same end.

// Tests may unwrap, panic and print (production code may not: see the workspace lints).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::print_stdout,
    clippy::print_stderr
)]
mod common;

use std::time::Instant;

use common::{check_structured, interpret_with, no_temporaries, validate_at, Outcome, DEMOTE};
use dxspv_ir::analysis::Cfg;
use dxspv_ir::passes::{run_pipeline, ssa_construction, structurize, Options};
use dxspv_ir::testgen::Rng;
use dxspv_ir::validate::{validate, Level};
use dxspv_ir::{
    text, Builder, Construct, InterpolationModes, Op, OpCode, ScalarType, ShaderStage, SsaDef, Type,
};

const U32: Type = Type::scalar(ScalarType::U32);
const BOOL: Type = Type::scalar(ScalarType::Bool);
const NONE: usize = usize::MAX;

/// The inputs every program runs with.
const INPUTS: [u32; 5] = [0, 1, 6, 13, 100];

// ------------------------------------------------------------------------------------------
// Generator of reducible CFGs
// ------------------------------------------------------------------------------------------

/// How a generated block ends.
#[derive(Clone, Debug)]
enum End {
    Return,
    Branch(usize),
    Cond(usize, usize),
    /// Default, then the target of each of the case values 0..=3 that has a case.
    Switch(usize, Vec<(u64, usize)>),
    /// A back edge to the header of loop `l` while its counter stays below `limit`, else to
    /// the forward target.
    Back(usize, u64, usize),
}

/// Shapes of the generated graphs.
#[derive(Clone, Copy)]
struct Shape {
    blocks: usize,
    max_depth: usize,
    /// Percent chance that a block starts a loop (when nesting allows).
    loop_chance: u64,
    /// Largest loop, in blocks.
    max_loop: usize,
    /// Percent of terminators that are back edges, returns, switches, conditionals.
    back: u64,
    ret: u64,
    switch: u64,
    cond: u64,
    /// Largest forward jump for most edges.
    near: usize,
    /// Percent of forward edges that go anywhere ahead instead.
    far: u64,
    /// Percent of blocks with one target replaced by any block but the entry (which may make
    /// the graph irreducible, or loop without end).
    wild: u64,
}

const SMALL: Shape = Shape {
    blocks: 24,
    max_depth: 4,
    loop_chance: 22,
    max_loop: 12,
    back: 22,
    ret: 5,
    switch: 14,
    cond: 42,
    near: 6,
    far: 16,
    wild: 0,
};

/// A random reducible CFG: blocks `0..n` in layout order, loops as nested intervals (the
/// first block of an interval is the header), forward edges only into a loop's header (or
/// within loops that contain the source), back edges to the headers of the loops around the
/// source, guarded by per-loop counters so every run ends.
struct CfgGen {
    rng: Rng,
    shape: Shape,
    /// Per loop: (header, end (exclusive), parent loop).
    loops: Vec<(usize, usize, usize)>,
    /// Per block: innermost loop.
    loop_of: Vec<usize>,
    ends: Vec<End>,
}

impl CfgGen {
    fn new(seed: u64, shape: Shape) -> CfgGen {
        let n = shape.blocks.max(2);
        let mut g = CfgGen {
            rng: Rng::new(seed),
            shape,
            loops: Vec::new(),
            loop_of: vec![NONE; n],
            ends: Vec::new(),
        };
        g.gen_loops(1, n, NONE, 0);
        g.gen_ends();
        g
    }

    fn gen_loops(&mut self, lo: usize, hi: usize, parent: usize, depth: usize) {
        let mut i = lo;
        while i < hi {
            if depth < self.shape.max_depth
                && hi - i >= 2
                && self.rng.chance(self.shape.loop_chance, 100)
            {
                let len = self.rng.range(2, (hi - i).min(self.shape.max_loop) as u64) as usize;
                let id = self.loops.len();
                self.loops.push((i, i + len, parent));
                for b in i..i + len {
                    self.loop_of[b] = id;
                }
                self.gen_loops(i + 1, i + len, id, depth + 1);
                i += len;
            } else {
                i += 1;
            }
        }
    }

    /// True if loop `l` is loop `inner` or around it (`NONE` is the function body).
    fn contains(&self, l: usize, mut inner: usize) -> bool {
        if l == NONE {
            return true;
        }
        while inner != NONE {
            if inner == l {
                return true;
            }
            inner = self.loops[inner].2;
        }
        false
    }

    fn heads(&self, v: usize) -> Option<usize> {
        let l = self.loop_of[v];
        (l != NONE && self.loops[l].0 == v).then_some(l)
    }

    /// True if `u -> v` (v > u) enters no loop other than at its header.
    fn forward_ok(&self, u: usize, v: usize) -> bool {
        let lv = match self.heads(v) {
            Some(l) => self.loops[l].2,
            None => self.loop_of[v],
        };
        self.contains(lv, self.loop_of[u])
    }

    fn forward(&mut self, u: usize) -> usize {
        let n = self.loop_of.len();
        for _ in 0..8 {
            let v = if self.rng.chance(self.shape.far, 100) {
                self.rng.range(u as u64 + 1, n as u64 - 1) as usize
            } else {
                (u + 1 + self.rng.below(self.shape.near as u64) as usize).min(n - 1)
            };
            if self.forward_ok(u, v) {
                return v;
            }
        }
        u + 1
    }

    fn gen_ends(&mut self) {
        let n = self.loop_of.len();
        let mut has_pred = vec![false; n];
        has_pred[0] = true;
        for u in 0..n {
            if u == n - 1 {
                self.ends.push(End::Return);
                break;
            }
            let need_next = !has_pred[u + 1];
            let r = self.rng.below(100);
            let s = self.shape;
            let mut end = if r < s.back && self.loop_of[u] != NONE {
                let mut l = self.loop_of[u];
                while self.loops[l].2 != NONE && self.rng.chance(1, 3) {
                    l = self.loops[l].2;
                }
                let limit = self.rng.range(1, 3);
                End::Back(l, limit, self.forward(u))
            } else if r < s.back + s.ret && !need_next {
                End::Return
            } else if r < s.back + s.ret + s.switch {
                let default = self.forward(u);
                let mut cases = Vec::new();
                for v in 0..4u64 {
                    if self.rng.chance(2, 3) {
                        let t = if self.rng.chance(1, 3) {
                            default
                        } else {
                            self.forward(u)
                        };
                        cases.push((v, t));
                    }
                }
                End::Switch(default, cases)
            } else if r < s.back + s.ret + s.switch + s.cond {
                let a = self.forward(u);
                let b = self.forward(u);
                if a != b {
                    End::Cond(a, b)
                } else {
                    End::Branch(a)
                }
            } else {
                End::Branch(self.forward(u))
            };
            if need_next {
                end = match end {
                    End::Return => End::Branch(u + 1),
                    End::Branch(_) => End::Branch(u + 1),
                    End::Cond(a, b) if a != u + 1 && b != u + 1 => End::Cond(a, u + 1),
                    End::Switch(d, c) if d != u + 1 && !c.iter().any(|x| x.1 == u + 1) => {
                        End::Switch(u + 1, c)
                    }
                    End::Back(l, k, f) if f != u + 1 => End::Back(l, k, u + 1),
                    e => e,
                };
            }
            if self.shape.wild > 0 && self.rng.chance(self.shape.wild, 100) {
                let w = self.rng.range(1, n as u64 - 1) as usize;
                end = match end {
                    End::Branch(_) => End::Branch(w),
                    End::Cond(a, b) if a != w && b != w => {
                        if self.rng.chance(1, 2) {
                            End::Cond(w, b)
                        } else {
                            End::Cond(a, w)
                        }
                    }
                    End::Switch(_, c) => End::Switch(w, c),
                    e => e,
                };
            }
            for t in targets(&end, &self.loops) {
                has_pred[t] = true;
            }
            self.ends.push(end);
        }
    }
}

fn targets(end: &End, loops: &[(usize, usize, usize)]) -> Vec<usize> {
    match end {
        End::Return => vec![],
        End::Branch(a) => vec![*a],
        End::Cond(a, b) => vec![*a, *b],
        End::Switch(d, c) => std::iter::once(*d).chain(c.iter().map(|x| x.1)).collect(),
        End::Back(l, _, f) => vec![loops[*l].0, *f],
    }
}

/// Writes the generated graph as a pixel shader: blocks in layout order over `u32`
/// temporaries seeded from a flat input, then `ssa_construction` makes the SSA values and
/// phis a frontend would produce, and the blocks after the entry are shuffled.
fn build(g: &mut CfgGen, shuffle: bool) -> Builder {
    let n = g.loop_of.len();
    let mut b = Builder::new();
    let func = b.add(Op::new(OpCode::Function, Type::VOID));
    let ep = b.add_decl(
        Op::new(OpCode::EntryPoint, Type::VOID)
            .with_ref(func)
            .with_lit(ShaderStage::Pixel.to_literal()),
    );
    let input = b.add_decl(
        Op::new(OpCode::DclInput, U32)
            .with_ref(ep)
            .with_lit(0)
            .with_lit(0)
            .with_lit(InterpolationModes::Flat.to_literal()),
    );
    let output = b.add_decl(
        Op::new(OpCode::DclOutput, U32)
            .with_ref(ep)
            .with_lit(0)
            .with_lit(0)
            .with_lit(0),
    );
    let tmp = |b: &mut Builder| b.add_decl(Op::new(OpCode::DclTmp, U32).with_ref(ep));
    let temps: Vec<SsaDef> = (0..4).map(|_| tmp(&mut b)).collect();
    let counters: Vec<SsaDef> = (0..g.loops.len()).map(|_| tmp(&mut b)).collect();
    let labels: Vec<SsaDef> = (0..n)
        .map(|_| b.add(Op::new(OpCode::Label, Type::VOID).with_lit(Construct::None.to_literal())))
        .collect();
    // Bodies are added after each label in turn: `cursor` is the op to add after.
    let c = |b: &mut Builder, v: u64| b.add_constant(U32, &[v]);
    let mut rng = g.rng.clone();
    let rng = &mut rng;
    for u in 0..n {
        let mut cursor = labels[u];
        let mut put = |b: &mut Builder, op: Op| {
            cursor = b.add_after(cursor, op);
            cursor
        };
        if u == 0 {
            let x = put(
                &mut b,
                Op::new(OpCode::InputLoad, U32)
                    .with_ref(input)
                    .with_opt_ref(None),
            );
            for (i, &t) in temps.iter().enumerate() {
                let k = c(&mut b, rng.range(0, 7) + i as u64);
                let v = put(&mut b, Op::new(OpCode::IAdd, U32).with_ref(x).with_ref(k));
                put(
                    &mut b,
                    Op::new(OpCode::TmpStore, Type::VOID)
                        .with_ref(t)
                        .with_ref(v),
                );
            }
        }
        for _ in 0..rng.range(0, 3) {
            let t = temps[rng.below(4) as usize];
            let d = temps[rng.below(4) as usize];
            let x = put(&mut b, Op::new(OpCode::TmpLoad, U32).with_ref(t));
            match rng.below(10) {
                0..=4 => {
                    let k = c(&mut b, rng.range(1, 5));
                    let v = put(&mut b, Op::new(OpCode::IAdd, U32).with_ref(x).with_ref(k));
                    put(
                        &mut b,
                        Op::new(OpCode::TmpStore, Type::VOID)
                            .with_ref(d)
                            .with_ref(v),
                    );
                }
                5 => {
                    let y = put(&mut b, Op::new(OpCode::TmpLoad, U32).with_ref(d));
                    let v = put(&mut b, Op::new(OpCode::IXor, U32).with_ref(x).with_ref(y));
                    put(
                        &mut b,
                        Op::new(OpCode::TmpStore, Type::VOID)
                            .with_ref(d)
                            .with_ref(v),
                    );
                }
                6 | 7 => {
                    put(&mut b, Op::new(OpCode::Drain, U32).with_ref(x));
                }
                8 => {
                    put(
                        &mut b,
                        Op::new(OpCode::OutputStore, Type::VOID)
                            .with_ref(output)
                            .with_opt_ref(None)
                            .with_ref(x),
                    );
                }
                _ => {
                    put(&mut b, Op::new(OpCode::Demote, Type::VOID));
                }
            }
        }
        // Counters of the loops entered from here start at 0.
        let end = g.ends[u].clone();
        for t in targets(&end, &g.loops) {
            if let Some(l) = g.heads(t) {
                if !g.contains(l, g.loop_of[u]) {
                    let z = c(&mut b, 0);
                    put(
                        &mut b,
                        Op::new(OpCode::TmpStore, Type::VOID)
                            .with_ref(counters[l])
                            .with_ref(z),
                    );
                }
            }
        }
        let mut cond = |b: &mut Builder, rng: &mut Rng| {
            let t = temps[rng.below(4) as usize];
            let x = put(b, Op::new(OpCode::TmpLoad, U32).with_ref(t));
            let k = c(b, rng.range(0, 16));
            put(b, Op::new(OpCode::ULt, BOOL).with_ref(x).with_ref(k))
        };
        let term = match end {
            End::Return => Op::new(OpCode::Return, Type::VOID).with_opt_ref(None),
            End::Branch(a) => Op::new(OpCode::Branch, Type::VOID).with_ref(labels[a]),
            End::Cond(a, t2) => {
                let cv = cond(&mut b, rng);
                Op::new(OpCode::BranchConditional, Type::VOID)
                    .with_ref(cv)
                    .with_ref(labels[a])
                    .with_ref(labels[t2])
            }
            End::Switch(d, cases) => {
                let t = temps[rng.below(4) as usize];
                let x = put(&mut b, Op::new(OpCode::TmpLoad, U32).with_ref(t));
                let three = c(&mut b, 3);
                let s = put(
                    &mut b,
                    Op::new(OpCode::IAnd, U32).with_ref(x).with_ref(three),
                );
                let mut op = Op::new(OpCode::Switch, Type::VOID)
                    .with_ref(s)
                    .with_ref(labels[d]);
                for (v, t) in cases {
                    let k = c(&mut b, v);
                    op = op.with_ref(k).with_ref(labels[t]);
                }
                op
            }
            End::Back(l, limit, f) => {
                let cnt = counters[l];
                let x = put(&mut b, Op::new(OpCode::TmpLoad, U32).with_ref(cnt));
                let one = c(&mut b, 1);
                let x1 = put(&mut b, Op::new(OpCode::IAdd, U32).with_ref(x).with_ref(one));
                put(
                    &mut b,
                    Op::new(OpCode::TmpStore, Type::VOID)
                        .with_ref(cnt)
                        .with_ref(x1),
                );
                let k = c(&mut b, limit);
                let again = put(&mut b, Op::new(OpCode::ULt, BOOL).with_ref(x1).with_ref(k));
                Op::new(OpCode::BranchConditional, Type::VOID)
                    .with_ref(again)
                    .with_ref(labels[g.loops[l].0])
                    .with_ref(labels[f])
            }
        };
        put(&mut b, term);
    }
    b.add(Op::new(OpCode::FunctionEnd, Type::VOID));
    g.rng = rng.clone();
    ssa_construction::run(&mut b).unwrap_or_else(|e| panic!("{e}\n{}", text::print(&b)));
    if shuffle {
        shuffle_blocks(&mut b, &mut g.rng);
    }
    b
}

/// Moves the blocks after the entry into a random order.
fn shuffle_blocks(b: &mut Builder, rng: &mut Rng) {
    let cfg = Cfg::build(b).unwrap();
    let mut blocks: Vec<(SsaDef, SsaDef)> = cfg
        .blocks()
        .skip(1)
        .map(|blk| (cfg.label(blk), cfg.terminator(blk)))
        .collect();
    for i in (1..blocks.len()).rev() {
        let j = rng.below(i as u64 + 1) as usize;
        blocks.swap(i, j);
    }
    let mut pos = cfg.terminator(cfg.blocks().next().unwrap());
    for (l, t) in blocks {
        b.move_range_after(l, t, pos);
        pos = t;
    }
}

fn random_cfg(seed: u64, shape: Shape) -> Builder {
    let mut g = CfgGen::new(seed, shape);
    build(&mut g, true)
}

// ------------------------------------------------------------------------------------------
// Checks
// ------------------------------------------------------------------------------------------

fn runs(b: &Builder) -> Vec<(Vec<u32>, Outcome)> {
    INPUTS.iter().map(|&i| interpret_with(b, i)).collect()
}

/// Structures `input` and checks everything; returns the structured program.
fn structure_and_check(input: &Builder, expected: &[(Vec<u32>, Outcome)]) -> Builder {
    let mut b = input.clone();
    structurize::run(&mut b)
        .unwrap_or_else(|e| panic!("{e}\n--- input ---\n{}", text::print(input)));
    let show = || {
        format!(
            "--- input ---\n{}\n--- output ---\n{}",
            text::print(input),
            text::print(&b)
        )
    };
    if let Err(errs) = validate(&b, Level::Structural) {
        let msgs: Vec<String> = errs.iter().map(ToString::to_string).collect();
        panic!("structural: {msgs:#?}\n{}", show());
    }
    if let Err(errs) = validate(&b, Level::Lowered) {
        let msgs: Vec<String> = errs.iter().map(ToString::to_string).collect();
        panic!("lowered: {msgs:#?}\n{}", show());
    }
    no_temporaries(&b);
    check_structured(&b);
    let got = runs(&b);
    assert!(
        same_runs(&got, expected),
        "structured program computes otherwise\n{got:?}\n{expected:?}\n{}",
        show()
    );
    b
}

/// True if `got` matches `expected` wherever `expected` is defined.
fn same_runs(got: &[(Vec<u32>, Outcome)], expected: &[(Vec<u32>, Outcome)]) -> bool {
    got.len() == expected.len()
        && got
            .iter()
            .zip(expected)
            .all(|(g, e)| e.1 == Outcome::Undefined || g == e)
}

/// The whole pipeline on `input`, validating after every pass; the result computes the same.
fn pipeline_and_check(input: &Builder, expected: &[(Vec<u32>, Outcome)]) -> Builder {
    let mut b = input.clone();
    let opts = Options {
        validate_each_pass: true,
        ..Options::default()
    };
    run_pipeline(&mut b, &opts)
        .unwrap_or_else(|e| panic!("{e}\n--- input ---\n{}", text::print(input)));
    validate_at(&b, Level::Lowered, "the pipeline");
    let got = runs(&b);
    assert!(
        same_runs(&got, expected),
        "pipeline output computes otherwise\n--- input ---\n{}\n--- output ---\n{}",
        text::print(input),
        text::print(&b)
    );
    b
}

/// `spirv-val`'s verdict on the backend's output for `b` (a lowered program).
fn spirv_valid(b: &Builder, name: &str) {
    let words = dxspv_spirv::emit(b, &dxspv_spirv::SpirvOptions::default())
        .unwrap_or_else(|e| panic!("{name}: backend: {e}\n{}", text::print(b)));
    match dxspv_testkit::spirv_val(&words) {
        None => println!("spirv-val not installed: {name} not validated"),
        Some(Err(msg)) => panic!("{name}: spirv-val: {msg}\n{}", text::print(b)),
        Some(Ok(())) => {}
    }
}

/// Generates, checks the input and what it computes, structures and checks.
fn check_seed(seed: u64, shape: Shape) -> (Builder, Vec<(Vec<u32>, Outcome)>) {
    let input = random_cfg(seed, shape);
    validate_at(
        &input,
        Level::Unstructured,
        &format!("generation (seed {seed})"),
    );
    let expected = runs(&input);
    for (_, outcome) in &expected {
        assert_eq!(
            *outcome,
            Outcome::Returned,
            "seed {seed}\n{}",
            text::print(&input)
        );
    }
    (input, expected)
}

// ------------------------------------------------------------------------------------------
// Random graphs
// ------------------------------------------------------------------------------------------

#[test]
fn random_reducible_graphs_keep_their_meaning() {
    let mut loops = 0;
    let mut demotes = 0;
    for seed in 0..2000 {
        let (input, expected) = check_seed(seed, SMALL);
        let out = structure_and_check(&input, &expected);
        let printed = text::print(&out);
        loops += printed.matches("StructuredLoop").count();
        demotes += expected.iter().filter(|r| r.0.contains(&DEMOTE)).count();
    }
    // The generator makes what it promises.
    assert!(loops > 2000, "only {loops} loops");
    assert!(demotes > 500, "only {demotes} runs demote");
}

#[test]
fn random_graphs_through_the_pipeline() {
    for seed in 5000..5400 {
        let (input, expected) = check_seed(seed, SMALL);
        pipeline_and_check(&input, &expected);
    }
}

#[test]
fn random_graphs_make_valid_spirv() {
    for seed in 9000..9150 {
        let (input, expected) = check_seed(seed, SMALL);
        let out = pipeline_and_check(&input, &expected);
        spirv_valid(&out, &format!("seed {seed}"));
    }
}

#[test]
fn larger_random_graphs() {
    let shape = Shape {
        blocks: 300,
        max_depth: 6,
        max_loop: 60,
        ..SMALL
    };
    for seed in 100..130 {
        let (input, expected) = check_seed(seed, shape);
        structure_and_check(&input, &expected);
    }
}

#[test]
fn arbitrary_graphs_are_structured_or_refused_as_irreducible() {
    // Edges to any block: some graphs stay reducible (and must be structured right), others
    // are irreducible (and must be refused with an error saying so), none may panic.
    let shape = Shape { wild: 12, ..SMALL };
    let (mut structured, mut refused, mut compared) = (0, 0, 0);
    for seed in 20_000..21_000 {
        let input = random_cfg(seed, shape);
        validate_at(
            &input,
            Level::Unstructured,
            &format!("generation (seed {seed})"),
        );
        let mut b = input.clone();
        match structurize::run(&mut b) {
            Err(e) => {
                let msg = e.to_string();
                assert!(msg.contains("irreducible"), "seed {seed}: {msg}");
                refused += 1;
            }
            Ok(_) => {
                structured += 1;
                let expected: Vec<_> = INPUTS
                    .iter()
                    .map(|&i| common::interpret_with_fuel(&input, i, 50_000))
                    .collect();
                if expected.iter().all(|r| r.1 != Outcome::OutOfFuel) {
                    structure_and_check(&input, &expected);
                    compared += 1;
                } else {
                    validate_at(&b, Level::Lowered, &format!("seed {seed}"));
                    check_structured(&b);
                }
            }
        }
    }
    assert!(
        structured > 100 && refused > 100,
        "{structured} structured, {refused} refused"
    );
    assert!(compared > 50, "only {compared} compared");
}

// ------------------------------------------------------------------------------------------
// Classic shapes
// ------------------------------------------------------------------------------------------

/// A pixel shader around `body`: the entry block `%10` has loaded the flat `u32` input into
/// `%11`; `%5..%9` are the `u32` constants 0, 1, 2, 3, 10 and `%15..%17` 4, 5, 7.
fn shader(body: &str) -> String {
    format!(
        "%1 = EntryPoint %2 Pixel
%3 = DclInput u32 %1 0 0 Flat
%4 = DclOutput u32 %1 0 0 0
%5 = Constant u32 0
%6 = Constant u32 1
%7 = Constant u32 2
%8 = Constant u32 3
%9 = Constant u32 10
%15 = Constant u32 4
%16 = Constant u32 5
%17 = Constant u32 7
%2 = Function void
%10 = Label None
%11 = InputLoad u32 %3 null
{body}%999 = FunctionEnd
"
    )
}

/// Checks the shape end to end (see the file's documentation) for the inputs 0, 1, 6, 13 and
/// 100; returns the structured program.
fn shape(body: &str) -> Builder {
    let text = shader(body);
    let input = text::parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    validate_at(&input, Level::Unstructured, "parsing");
    let expected: Vec<_> = INPUTS.iter().map(|&i| interpret_with(&input, i)).collect();
    for (_, outcome) in &expected {
        assert_eq!(*outcome, Outcome::Returned, "{text}");
    }
    let out = structure_and_check(&input, &expected);
    let lowered = pipeline_and_check(&input, &expected);
    spirv_valid(&lowered, "shape");
    out
}

fn count(b: &Builder, what: &str) -> usize {
    text::print(b).matches(what).count()
}

#[test]
fn if_else_diamond_keeps_its_phi_and_blocks() {
    let out = shape(
        "%12 = ULt bool %11 %7
%13 = BranchConditional %12 %20 %30
%30 = Label None
%31 = IAdd u32 %11 %9
%32 = Branch %40
%20 = Label None
%21 = IAdd u32 %11 %6
%22 = Branch %40
%40 = Label None
%41 = Phi u32 %20 %21 %30 %31
%42 = Drain u32 %41
%43 = Return void null
",
    );
    assert_eq!(
        count(&out, "Label"),
        4,
        "no block added\n{}",
        text::print(&out)
    );
    assert_eq!(count(&out, "%10 = Label %40 StructuredSelection"), 1);
    assert_eq!(count(&out, "Phi"), 1);
    assert_eq!(count(&out, "DclTmp"), 0);
}

#[test]
fn if_without_else() {
    let out = shape(
        "%12 = ULt bool %11 %7
%13 = BranchConditional %12 %20 %40
%40 = Label None
%41 = Phi u32 %10 %11 %20 %21
%42 = Drain u32 %41
%43 = Return void null
%20 = Label None
%21 = IAdd u32 %11 %6
%22 = Branch %40
",
    );
    assert_eq!(count(&out, "Label"), 3);
    assert_eq!(count(&out, "%10 = Label %40 StructuredSelection"), 1);
}

#[test]
fn loop_with_break_and_continue() {
    // i = 0; while (i < 10) { i++; if (i & 1) continue; demote; drain(i); if (i == x + 3)
    // break; } drain(i)
    let out = shape(
        "%13 = Branch %20
%20 = Label None
%21 = Phi u32 %10 %5 %30 %25 %40 %25
%22 = ULt bool %21 %9
%23 = BranchConditional %22 %24 %50
%24 = Label None
%25 = IAdd u32 %21 %6
%26 = IAnd u32 %25 %6
%27 = INe bool %26 %5
%28 = BranchConditional %27 %30 %40
%30 = Label None
%31 = Branch %20
%40 = Label None
%39 = Demote
%41 = Drain u32 %25
%42 = IAdd u32 %11 %8
%43 = IEq bool %25 %42
%44 = BranchConditional %43 %50 %20
%50 = Label None
%51 = Phi u32 %20 %21 %40 %25
%52 = Drain u32 %51
%53 = Return void null
",
    );
    assert_eq!(count(&out, "StructuredLoop"), 1);
}

#[test]
fn nested_loops_with_a_break_out_of_both() {
    // for (i < 4) { for (j < 4) { t = 4i + j; if (t == x) goto done; drain(j) } drain(i) }
    // drain(10)... done: drain(t or 10)
    let out = shape(
        "%13 = Branch %20
%20 = Label None
%21 = Phi u32 %10 %5 %45 %47
%22 = ULt bool %21 %15
%23 = BranchConditional %22 %30 %60
%30 = Label None
%32 = Branch %31
%31 = Label None
%34 = Phi u32 %30 %5 %40 %42
%35 = ULt bool %34 %15
%36 = BranchConditional %35 %33 %45
%33 = Label None
%37 = IMul u32 %21 %15
%38 = IAdd u32 %37 %34
%39 = IEq bool %38 %11
%43 = BranchConditional %39 %70 %40
%40 = Label None
%41 = Drain u32 %34
%42 = IAdd u32 %34 %6
%44 = Branch %31
%45 = Label None
%46 = Drain u32 %21
%47 = IAdd u32 %21 %6
%48 = Branch %20
%60 = Label None
%61 = Branch %70
%70 = Label None
%71 = Phi u32 %33 %38 %60 %9
%72 = Drain u32 %71
%73 = Return void null
",
    );
    assert_eq!(count(&out, "StructuredLoop"), 2);
    // The inner loop's merge block dispatches: out of the outer loop too, or on in it.
    assert!(count(&out, "IEq") >= 2, "{}", text::print(&out));
}

#[test]
fn switch_with_fall_through() {
    // switch (x & 3) { case 0: a = x + 1; (falls through) case 1: a += 2; break;
    // case 2: drain(10); return; default: a = x + 7 } drain(a)
    let out = shape(
        "%12 = IAnd u32 %11 %8
%13 = Switch %12 %50 %5 %20 %6 %30 %7 %40
%20 = Label None
%21 = IAdd u32 %11 %6
%22 = Branch %30
%30 = Label None
%31 = Phi u32 %10 %11 %20 %21
%32 = IAdd u32 %31 %7
%33 = Branch %60
%40 = Label None
%41 = Drain u32 %9
%42 = Return void null
%50 = Label None
%51 = IAdd u32 %11 %17
%52 = Branch %60
%60 = Label None
%61 = Phi u32 %30 %32 %50 %51
%62 = Drain u32 %61
%63 = Return void null
",
    );
    assert_eq!(count(&out, "Switch"), 1);
}

#[test]
fn return_from_inside_a_loop() {
    // i = 0; loop { if (i == x) { drain(i); return } i++; if (i >= 5) break } drain(7)
    shape(
        "%13 = Branch %20
%20 = Label None
%21 = Phi u32 %10 %5 %30 %31
%22 = IEq bool %21 %11
%23 = BranchConditional %22 %25 %30
%25 = Label None
%26 = Drain u32 %21
%27 = Return void null
%30 = Label None
%31 = IAdd u32 %21 %6
%32 = UGe bool %31 %16
%33 = BranchConditional %32 %40 %20
%40 = Label None
%41 = Drain u32 %17
%42 = Return void null
",
    );
}

#[test]
fn early_returns_through_one_exit_block() {
    // As dxc emits returns: every return branches to one exit block, whose phi picks the
    // value to store. Two early returns, one from inside a loop.
    shape(
        "%12 = ULt bool %11 %6
%13 = BranchConditional %12 %90 %20
%20 = Label None
%21 = Phi u32 %10 %5 %30 %31
%22 = IEq bool %21 %11
%23 = BranchConditional %22 %90 %30
%30 = Label None
%31 = IAdd u32 %21 %6
%32 = UGe bool %31 %9
%33 = BranchConditional %32 %40 %20
%40 = Label None
%41 = Drain u32 %31
%42 = Branch %90
%90 = Label None
%91 = Phi u32 %10 %17 %20 %21 %40 %9
%92 = OutputStore %4 null %91
%93 = Return void null
",
    );
}

#[test]
fn loop_with_three_exits() {
    let out = shape(
        "%13 = Branch %20
%20 = Label None
%21 = Phi u32 %10 %5 %34 %35
%22 = IEq bool %21 %11
%23 = BranchConditional %22 %40 %30
%30 = Label None
%31 = IAdd u32 %21 %11
%32 = IEq bool %31 %9
%33 = BranchConditional %32 %50 %34
%34 = Label None
%35 = IAdd u32 %21 %6
%36 = ULt bool %35 %17
%37 = BranchConditional %36 %20 %60
%40 = Label None
%41 = Drain u32 %21
%42 = Branch %70
%50 = Label None
%51 = Drain u32 %31
%52 = Branch %70
%60 = Label None
%61 = Drain u32 %35
%62 = Branch %70
%70 = Label None
%71 = Phi u32 %40 %21 %50 %31 %60 %35
%72 = Drain u32 %71
%73 = Return void null
",
    );
    // The loop's merge block dispatches to the three exits.
    assert_eq!(count(&out, "StructuredLoop"), 1);
    assert_eq!(count(&out, "Switch"), 1, "{}", text::print(&out));
}

#[test]
fn continue_of_the_outer_loop_from_the_inner_one() {
    shape(
        "%13 = Branch %20
%20 = Label None
%21 = Phi u32 %10 %5 %35 %24 %45 %24
%22 = ULt bool %21 %8
%23 = BranchConditional %22 %25 %60
%25 = Label None
%24 = IAdd u32 %21 %6
%26 = Branch %30
%30 = Label None
%31 = Phi u32 %25 %5 %40 %41
%32 = IAdd u32 %11 %21
%33 = IAnd u32 %32 %6
%34 = IEq bool %31 %33
%36 = BranchConditional %34 %35 %40
%35 = Label None
%37 = Drain u32 %9
%38 = Branch %20
%40 = Label None
%42 = Drain u32 %31
%41 = IAdd u32 %31 %6
%43 = ULt bool %41 %8
%44 = BranchConditional %43 %30 %45
%45 = Label None
%46 = Drain u32 %21
%47 = Branch %20
%60 = Label None
%61 = Drain u32 %21
%62 = Return void null
",
    );
}

#[test]
fn a_phi_carrying_itself_and_unreachable_blocks() {
    // v = x; loop { if (i == 3) break; i++ } with v carried unchanged (v = phi(x, v)); a dead
    // block branches into the exit and names itself in its phi.
    let out = shape(
        "%13 = Branch %20
%20 = Label None
%21 = Phi u32 %10 %11 %30 %21
%22 = Phi u32 %10 %5 %30 %31
%23 = IEq bool %22 %8
%24 = BranchConditional %23 %40 %30
%30 = Label None
%31 = IAdd u32 %22 %6
%32 = Branch %20
%80 = Label None
%81 = Branch %40
%40 = Label None
%41 = Phi u32 %20 %21 %80 %5
%42 = Drain u32 %41
%43 = Return void null
",
    );
    assert_eq!(count(&out, "%80"), 0, "{}", text::print(&out));
}

#[test]
fn irreducible_graphs_are_refused_naming_the_block() {
    // Two entries into the cycle %20 <-> %30.
    let text = shader(
        "%12 = ULt bool %11 %7
%13 = BranchConditional %12 %20 %30
%20 = Label None
%21 = Branch %30
%30 = Label None
%31 = BranchConditional %12 %20 %40
%40 = Label None
%41 = Return void null
",
    );
    let mut b = text::parse(&text).unwrap();
    validate_at(&b, Level::Unstructured, "parsing");
    let err = structurize::run(&mut b).unwrap_err().to_string();
    assert!(err.contains("irreducible"), "{err}");
    assert!(err.contains("%20"), "{err}");
    assert!(err.contains("%30"), "{err}");
}

#[test]
fn structured_and_scoped_programs_are_left_alone() {
    // A structured diamond, and the same with the header's construct: no unstructured
    // function, nothing changes.
    let structured = shader(
        "%12 = ULt bool %11 %7
%13 = BranchConditional %12 %20 %40
%20 = Label None
%21 = Branch %40
%40 = Label None
%41 = Return void null
",
    )
    .replace("%10 = Label None", "%10 = Label %40 StructuredSelection");
    let mut b = text::parse(&structured).unwrap();
    assert!(structurize::unstructured_functions(&b).is_empty());
    assert!(!structurize::run(&mut b).unwrap());
    assert_eq!(
        text::print(&b),
        text::print(&text::parse(&structured).unwrap())
    );
    // One block: nothing to structure either.
    let single = shader("%41 = Return void null\n");
    let mut b = text::parse(&single).unwrap();
    assert!(!structurize::run(&mut b).unwrap());
}

// ------------------------------------------------------------------------------------------
// Scale
// ------------------------------------------------------------------------------------------

/// Seconds `structurize::run` takes on a generated graph of `blocks` blocks with `far` percent
/// of far jumps (the best of three runs), and the number of blocks of the result.
fn time_structurize(blocks: usize, far: u64) -> (f64, usize) {
    let shape = Shape {
        blocks,
        max_depth: 6,
        max_loop: 40,
        far,
        ..SMALL
    };
    let input = random_cfg(77, shape);
    let mut best = f64::MAX;
    let mut out_blocks = 0;
    for _ in 0..3 {
        let mut b = input.clone();
        let t = Instant::now();
        structurize::run(&mut b).unwrap();
        best = best.min(t.elapsed().as_secs_f64());
        out_blocks = count(&b, "Label");
    }
    (best, out_blocks)
}

#[test]
fn ten_thousand_blocks_take_linear_time() {
    // Mostly nested shapes (2% far jumps), then a stress shape where one forward edge in six
    // jumps anywhere ahead (long ladders everywhere).
    for far in [2, 16] {
        let (t1, n1) = time_structurize(2_500, far);
        let (t4, n4) = time_structurize(10_000, far);
        println!(
            "structurize ({far}% far jumps): 2,500 blocks in {t1:.4} s ({n1} after), \
             10,000 in {t4:.4} s ({n4} after)"
        );
        // Four times the blocks: well under 16 times the time (quadratic), or fast anyway (a
        // second on a loaded machine; the repair through temporaries this replaced took 90).
        assert!(
            t4 < 1.0 || t4 < 8.0 * t1,
            "2,500 blocks: {t1:.4} s, 10,000 blocks: {t4:.4} s"
        );
        assert!(n4 < 4 * 10_000, "{n4} blocks after structuring 10,000");
    }
}

#[test]
fn ten_thousand_blocks_are_structured_correctly() {
    let shape = Shape {
        blocks: 10_000,
        max_depth: 6,
        max_loop: 40,
        ..SMALL
    };
    let (input, expected) = check_seed(4242, shape);
    structure_and_check(&input, &expected);
}

/// For profilers: structures one generated graph of `STRUCTURIZE_BLOCKS` blocks (default
/// 10,000) with `STRUCTURIZE_FAR` percent of far jumps (default 2):
/// `valgrind --tool=callgrind <test binary> --ignored --exact profile_one_graph`.
#[test]
#[ignore]
fn profile_one_graph() {
    let var = |name: &str, default: u64| {
        std::env::var(name)
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(default)
    };
    let shape = Shape {
        blocks: var("STRUCTURIZE_BLOCKS", 10_000) as usize,
        max_depth: 6,
        max_loop: 40,
        far: var("STRUCTURIZE_FAR", 2),
        ..SMALL
    };
    let mut b = random_cfg(77, shape);
    structurize::run(&mut b).unwrap();
}
