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

mod common;

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
const INPUTS: [u32; 4] = [0, 1, 6, 13];

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
    /// Largest forward jump for most edges (some go anywhere ahead).
    near: usize,
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
            let v = if self.rng.chance(1, 6) {
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
    structurize::run_to_ssa(&mut b)
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
    assert_eq!(
        got,
        expected,
        "structured program computes otherwise\n{}",
        show()
    );
    b
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
    assert_eq!(
        got,
        expected,
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
