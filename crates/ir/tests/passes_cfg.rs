//! Control flow passes end to end: `scoped_to_structured`, `ssa_construction` and `cfg_cleanup`
//! on generated programs with nasty control flow.
//!
//! Every program is checked three ways after each pass:
//! - the validator (`Level::Structural`) accepts it;
//! - a structure checker built on the CFG and dominator tree: branches and switches only in
//!   selection headers, back edges only from a loop's continue target to its header, merge
//!   blocks unique and dominated by their headers, phis with one operand per predecessor, and
//!   every SSA use dominated by its definition;
//! - an interpreter runs the scoped original and each lowered form and must see the same trace
//!   (values passed to `Drain`, `Demote`s) and the same return.

// Tests may unwrap, panic and print (production code may not: see the workspace lints).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::print_stdout,
    clippy::print_stderr
)]
mod common;

use std::time::{Duration, Instant};

use common::{check_structured, interpret, no_temporaries, validate_at, Outcome};
use dxspv_ir::passes::{cfg_cleanup, scoped_to_structured, ssa_construction};
use dxspv_ir::testgen::Rng;
use dxspv_ir::validate::Level;
use dxspv_ir::{
    text, Builder, Construct, Op, OpCode, Operand, ScalarType, ShaderStage, SsaDef, Type,
};

const U32: Type = Type::scalar(ScalarType::U32);
const BOOL: Type = Type::scalar(ScalarType::Bool);

// ------------------------------------------------------------------------------------------
// Generator of scoped programs
// ------------------------------------------------------------------------------------------

/// Builds random scoped shaders over `u32` temporaries. Every loop has its own counter and
/// leaves after a few iterations, so every program terminates.
struct Gen {
    b: Builder,
    rng: Rng,
    ep: SsaDef,
    temps: Vec<SsaDef>,
    /// Loop counters, one per nesting depth (kept apart from `temps`, so the number of
    /// registers does not grow with the program).
    counters: Vec<SsaDef>,
    /// Open breakable constructs, innermost last: (op, is_loop).
    breakable: Vec<(SsaDef, bool)>,
    budget: usize,
}

impl Gen {
    fn new(seed: u64, ntemps: usize) -> Gen {
        let mut b = Builder::new();
        let func = b.add(Op::new(OpCode::Function, Type::VOID));
        let ep = b.add_decl(
            Op::new(OpCode::EntryPoint, Type::VOID)
                .with_ref(func)
                .with_lit(ShaderStage::Pixel.to_literal()),
        );
        b.add(Op::new(OpCode::Label, Type::VOID).with_lit(Construct::None.to_literal()));
        let mut g = Gen {
            b,
            rng: Rng::new(seed),
            ep,
            temps: Vec::new(),
            counters: Vec::new(),
            breakable: Vec::new(),
            budget: 0,
        };
        let zero = g.c(0);
        for _ in 0..ntemps {
            let t = g.new_temp();
            g.b.add(
                Op::new(OpCode::TmpStore, Type::VOID)
                    .with_ref(t)
                    .with_ref(zero),
            );
        }
        g
    }

    fn new_temp(&mut self) -> SsaDef {
        let t = self
            .b
            .add_decl(Op::new(OpCode::DclTmp, U32).with_ref(self.ep));
        self.temps.push(t);
        t
    }

    fn c(&mut self, v: u64) -> SsaDef {
        self.b.add_constant(U32, &[v])
    }

    fn finish(mut self) -> Builder {
        self.b
            .add(Op::new(OpCode::Return, Type::VOID).with_opt_ref(None));
        self.b.add(Op::new(OpCode::FunctionEnd, Type::VOID));
        self.b
    }

    fn temp(&mut self) -> SsaDef {
        let i = self.rng.below(self.temps.len() as u64) as usize;
        self.temps[i]
    }

    fn load(&mut self, t: SsaDef) -> SsaDef {
        self.b.add(Op::new(OpCode::TmpLoad, U32).with_ref(t))
    }

    fn store(&mut self, t: SsaDef, v: SsaDef) {
        self.b.add(
            Op::new(OpCode::TmpStore, Type::VOID)
                .with_ref(t)
                .with_ref(v),
        );
    }

    fn random_cond(&mut self) -> SsaDef {
        let t = self.temp();
        let v = self.load(t);
        let k = self.rng.range(0, 12);
        let k = self.c(k);
        self.b
            .add(Op::new(OpCode::ULt, BOOL).with_ref(v).with_ref(k))
    }

    fn assign(&mut self) {
        let (a, d) = (self.temp(), self.temp());
        let v = self.load(a);
        let k = self.rng.range(1, 5);
        let k = self.c(k);
        let s = self
            .b
            .add(Op::new(OpCode::IAdd, U32).with_ref(v).with_ref(k));
        self.store(d, s);
    }

    fn trace(&mut self) {
        let t = self.temp();
        let v = self.load(t);
        self.b.add(Op::new(OpCode::Drain, U32).with_ref(v));
    }

    /// `ScopedX` whose first operand (its end op) is patched by `close`.
    fn open(&mut self, opcode: OpCode, second: Option<SsaDef>) -> SsaDef {
        let mut op = Op::new(opcode, Type::VOID).with_opt_ref(None);
        if let Some(s) = second {
            op = op.with_ref(s);
        }
        self.b.add(op)
    }

    fn close(&mut self, opener: SsaDef, opcode: OpCode) {
        let end = self.b.add(Op::new(opcode, Type::VOID).with_ref(opener));
        self.b.set_operand(opener, 0, Operand::from_def(end));
    }

    fn block(&mut self, depth: u32) {
        let n = self.rng.range(1, 4);
        for _ in 0..n {
            if self.budget == 0 {
                return;
            }
            self.budget -= 1;
            self.stmt(depth);
        }
    }

    fn stmt(&mut self, depth: u32) {
        let nested = depth < 5;
        match self.rng.below(100) {
            0..=29 => self.assign(),
            30..=39 => self.trace(),
            40..=54 if nested => self.if_stmt(depth),
            55..=64 if nested => self.loop_stmt(depth),
            65..=72 if nested => self.switch_stmt(depth),
            73..=78 => self.jump(),
            79..=80 => {
                self.b.add(Op::new(OpCode::Demote, Type::VOID));
            }
            81 => {
                // A return, usually under a condition.
                let cond = self.random_cond();
                let i = self.open(OpCode::ScopedIf, Some(cond));
                self.b
                    .add(Op::new(OpCode::Return, Type::VOID).with_opt_ref(None));
                if self.rng.chance(1, 2) {
                    self.trace(); // dead code after the return
                }
                self.close(i, OpCode::ScopedEndIf);
            }
            _ => self.assign(),
        }
    }

    fn if_stmt(&mut self, depth: u32) {
        let cond = self.random_cond();
        let i = self.open(OpCode::ScopedIf, Some(cond));
        self.block(depth + 1);
        if self.rng.chance(1, 2) {
            self.b
                .add(Op::new(OpCode::ScopedElse, Type::VOID).with_ref(i));
            self.block(depth + 1);
        }
        self.close(i, OpCode::ScopedEndIf);
    }

    fn loop_stmt(&mut self, depth: u32) {
        while self.counters.len() <= depth as usize {
            let t = self
                .b
                .add_decl(Op::new(OpCode::DclTmp, U32).with_ref(self.ep));
            self.counters.push(t);
        }
        let counter = self.counters[depth as usize];
        let zero = self.c(0);
        self.store(counter, zero);
        let l = self.open(OpCode::ScopedLoop, None);
        // counter += 1; if (counter >= limit) break;
        let v = self.load(counter);
        let one = self.c(1);
        let v = self
            .b
            .add(Op::new(OpCode::IAdd, U32).with_ref(v).with_ref(one));
        self.store(counter, v);
        let limit = self.rng.range(1, 4);
        let limit = self.c(limit);
        let done = self
            .b
            .add(Op::new(OpCode::UGe, BOOL).with_ref(v).with_ref(limit));
        let i = self.open(OpCode::ScopedIf, Some(done));
        self.b
            .add(Op::new(OpCode::ScopedLoopBreak, Type::VOID).with_ref(l));
        self.close(i, OpCode::ScopedEndIf);
        self.breakable.push((l, true));
        self.block(depth + 1);
        self.breakable.pop();
        self.close(l, OpCode::ScopedEndLoop);
    }

    fn switch_stmt(&mut self, depth: u32) {
        let t = self.temp();
        let v = self.load(t);
        let three = self.c(3);
        let sel = self
            .b
            .add(Op::new(OpCode::IAnd, U32).with_ref(v).with_ref(three));
        let s = self.open(OpCode::ScopedSwitch, Some(sel));
        self.breakable.push((s, false));
        let mut values: Vec<u64> = (0..3).collect();
        let ncases = self.rng.range(0, 3) as usize;
        let default_at = if self.rng.chance(2, 3) {
            Some(self.rng.below(ncases as u64 + 1) as usize)
        } else {
            None
        };
        for k in 0..=ncases {
            if default_at == Some(k) {
                self.b
                    .add(Op::new(OpCode::ScopedSwitchDefault, Type::VOID).with_ref(s));
                self.case_body(depth);
            }
            if k < ncases {
                let i = self.rng.below(values.len() as u64) as usize;
                let value = values.swap_remove(i);
                self.b.add(
                    Op::new(OpCode::ScopedSwitchCase, Type::VOID)
                        .with_ref(s)
                        .with_lit(value),
                );
                self.case_body(depth);
            }
        }
        self.breakable.pop();
        self.close(s, OpCode::ScopedEndSwitch);
    }

    fn case_body(&mut self, depth: u32) {
        match self.rng.below(4) {
            0 => {}                     // empty: falls through
            1 => self.block(depth + 1), // falls through
            _ => {
                self.block(depth + 1);
                self.jump_to_innermost();
            }
        }
    }

    /// A break or continue, usually under a condition, sometimes with dead code after it.
    fn jump(&mut self) {
        if self.breakable.is_empty() {
            return self.assign();
        }
        let conditional = self.rng.chance(3, 4);
        let i = if conditional {
            let cond = self.random_cond();
            Some(self.open(OpCode::ScopedIf, Some(cond)))
        } else {
            None
        };
        self.jump_to_innermost();
        if self.rng.chance(1, 3) {
            self.assign(); // dead code after the jump
        }
        if let Some(i) = i {
            self.close(i, OpCode::ScopedEndIf);
        }
    }

    fn jump_to_innermost(&mut self) {
        let Some(&(target, is_loop)) = self.breakable.last() else {
            return;
        };
        let innermost_loop = self
            .breakable
            .iter()
            .rev()
            .find(|(_, l)| *l)
            .map(|(d, _)| *d);
        let opcode = match (is_loop, self.rng.below(3)) {
            (true, 0) => OpCode::ScopedLoopContinue,
            (true, _) => OpCode::ScopedLoopBreak,
            (false, 0) if innermost_loop.is_some() => {
                // Break out of the enclosing loop straight from the switch.
                let Some(l) = innermost_loop else { return };
                self.b
                    .add(Op::new(OpCode::ScopedLoopBreak, Type::VOID).with_ref(l));
                return;
            }
            (false, _) => OpCode::ScopedSwitchBreak,
        };
        self.b.add(Op::new(opcode, Type::VOID).with_ref(target));
    }
}

fn random_program(seed: u64, statements: usize) -> Builder {
    let mut g = Gen::new(seed, 4);
    g.budget = statements;
    while g.budget > 0 {
        g.block(0);
    }
    g.finish()
}

fn validate_ok(b: &Builder, after: &str) {
    validate_at(b, Level::Structural, after);
}

/// Runs the three passes on `b`, checking everything after each one; returns the final program.
fn lower_and_check(mut b: Builder) -> Builder {
    validate_ok(&b, "generation");
    let expected = interpret(&b);
    assert_ne!(expected.1, Outcome::OutOfFuel);
    scoped_to_structured::run(&mut b).unwrap_or_else(|e| panic!("{e}\n{}", text::print(&b)));
    validate_ok(&b, "scoped_to_structured");
    check_structured(&b);
    assert_eq!(interpret(&b), expected, "structured\n{}", text::print(&b));
    ssa_construction::run(&mut b).unwrap_or_else(|e| panic!("{e}\n{}", text::print(&b)));
    validate_ok(&b, "ssa_construction");
    no_temporaries(&b);
    check_structured(&b);
    assert_eq!(interpret(&b), expected, "ssa\n{}", text::print(&b));
    cfg_cleanup::run(&mut b).unwrap_or_else(|e| panic!("{e}\n{}", text::print(&b)));
    validate_ok(&b, "cfg_cleanup");
    check_structured(&b);
    assert_eq!(interpret(&b), expected, "cleanup\n{}", text::print(&b));
    assert!(
        !cfg_cleanup::run(&mut b).unwrap(),
        "cleanup is not idempotent"
    );
    b
}

// ------------------------------------------------------------------------------------------
// Tests
// ------------------------------------------------------------------------------------------

#[test]
fn random_programs_keep_their_meaning() {
    for seed in 0..300 {
        let b = random_program(seed, 40);
        lower_and_check(b);
    }
}

#[test]
fn larger_random_programs() {
    for seed in 1000..1010 {
        lower_and_check(random_program(seed, 600));
    }
}

#[test]
fn two_hundred_nested_ifs() {
    let mut g = Gen::new(7, 3);
    let mut ifs = Vec::new();
    for i in 0..200 {
        g.assign();
        let cond = g.random_cond();
        ifs.push(g.open(OpCode::ScopedIf, Some(cond)));
        if i % 3 == 0 {
            g.trace();
        }
    }
    g.assign();
    g.trace();
    for (i, f) in ifs.into_iter().rev().enumerate() {
        if i % 2 == 0 {
            g.b.add(Op::new(OpCode::ScopedElse, Type::VOID).with_ref(f));
            g.assign();
        }
        g.close(f, OpCode::ScopedEndIf);
        g.trace();
    }
    let b = lower_and_check(g.finish());
    let printed = text::print(&b);
    assert_eq!(printed.matches("StructuredSelection").count(), 200);
}

#[test]
fn fifty_nested_loops_with_breaks_from_switches_and_continues_from_ifs() {
    let mut g = Gen::new(11, 3);
    let entry =
        g.b.iter()
            .find(|(_, op)| op.opcode == OpCode::Label)
            .unwrap()
            .0;
    let mut loops = Vec::new();
    for _ in 0..50 {
        // Counters start at 0 once per run, so a loop entered again leaves at once and the
        // whole program stays linear to interpret.
        let counter = g.new_temp();
        let zero = g.c(0);
        g.b.add_after(
            entry,
            Op::new(OpCode::TmpStore, Type::VOID)
                .with_ref(counter)
                .with_ref(zero),
        );
        let l = g.open(OpCode::ScopedLoop, None);
        g.breakable.push((l, true));
        let v = g.load(counter);
        let one = g.c(1);
        let v =
            g.b.add(Op::new(OpCode::IAdd, U32).with_ref(v).with_ref(one));
        g.store(counter, v);
        // if (v >= 3) { if (v < 4) { assign } break; }
        let three = g.c(3);
        let done =
            g.b.add(Op::new(OpCode::UGe, BOOL).with_ref(v).with_ref(three));
        let i = g.open(OpCode::ScopedIf, Some(done));
        let four = g.c(4);
        let first =
            g.b.add(Op::new(OpCode::ULt, BOOL).with_ref(v).with_ref(four));
        let j = g.open(OpCode::ScopedIf, Some(first));
        g.assign();
        g.close(j, OpCode::ScopedEndIf);
        g.b.add(Op::new(OpCode::ScopedLoopBreak, Type::VOID).with_ref(l));
        g.close(i, OpCode::ScopedEndIf);
        // if (v < 2) { trace; continue; }
        let two = g.c(2);
        let early =
            g.b.add(Op::new(OpCode::ULt, BOOL).with_ref(v).with_ref(two));
        let k = g.open(OpCode::ScopedIf, Some(early));
        g.trace();
        g.b.add(Op::new(OpCode::ScopedLoopContinue, Type::VOID).with_ref(l));
        g.close(k, OpCode::ScopedEndIf);
        g.trace();
        loops.push(l);
    }
    g.assign();
    g.trace();
    for l in loops.into_iter().rev() {
        // A random switch, then one whose case breaks the loop and whose default demotes.
        g.switch_stmt(10);
        let t = g.temp();
        let v = g.load(t);
        let s = g.open(OpCode::ScopedSwitch, Some(v));
        g.b.add(
            Op::new(OpCode::ScopedSwitchCase, Type::VOID)
                .with_ref(s)
                .with_lit(1),
        );
        g.b.add(Op::new(OpCode::ScopedLoopBreak, Type::VOID).with_ref(l));
        g.b.add(Op::new(OpCode::ScopedSwitchDefault, Type::VOID).with_ref(s));
        g.b.add(Op::new(OpCode::Demote, Type::VOID));
        g.close(s, OpCode::ScopedEndSwitch);
        g.close(l, OpCode::ScopedEndLoop);
        g.breakable.pop();
        g.trace();
    }
    let b = lower_and_check(g.finish());
    assert_eq!(text::print(&b).matches("StructuredLoop").count(), 50);
}

#[test]
fn loops_without_exit_keep_an_unreachable_merge() {
    let mut g = Gen::new(3, 2);
    let l = g.open(OpCode::ScopedLoop, None);
    g.assign();
    let inner = g.open(OpCode::ScopedLoop, None);
    g.b.add(Op::new(OpCode::Demote, Type::VOID));
    g.b.add(Op::new(OpCode::Return, Type::VOID).with_opt_ref(None));
    g.close(inner, OpCode::ScopedEndLoop);
    g.close(l, OpCode::ScopedEndLoop);
    g.trace();
    let mut b = g.finish();
    scoped_to_structured::run(&mut b).unwrap();
    ssa_construction::run(&mut b).unwrap();
    cfg_cleanup::run(&mut b).unwrap();
    validate_ok(&b, "cleanup");
    no_temporaries(&b);
    check_structured(&b);
    let printed = text::print(&b);
    assert_eq!(printed.matches("StructuredLoop").count(), 2, "{printed}");
    // Both merge blocks stay, reduced to Unreachable; nothing else after the return survives.
    assert_eq!(printed.matches("Unreachable").count(), 2, "{printed}");
    assert!(!printed.contains("Drain"), "{printed}");
}

#[test]
fn long_straight_chains_do_not_overflow_the_stack() {
    // 20k ifs in sequence, one temp read at the very end: the SSA lookup walks a long chain of
    // merge blocks and phis.
    let mut g = Gen::new(5, 1);
    let t = g.temps[0];
    for i in 0..20_000u64 {
        let cond = g.random_cond();
        let f = g.open(OpCode::ScopedIf, Some(cond));
        if i % 1000 == 0 {
            let one = g.c(1);
            let v = g.load(t);
            let s =
                g.b.add(Op::new(OpCode::IAdd, U32).with_ref(v).with_ref(one));
            g.store(t, s);
        }
        g.close(f, OpCode::ScopedEndIf);
    }
    g.trace();
    let mut b = g.finish();
    scoped_to_structured::run(&mut b).unwrap();
    ssa_construction::run(&mut b).unwrap();
    cfg_cleanup::run(&mut b).unwrap();
    no_temporaries(&b);
    check_structured(&b);
}

/// A flat shader of about `ops` ops: a sequence of random statements of bounded depth.
fn sized_program(ops: usize) -> Builder {
    let mut g = Gen::new(42, 16);
    while g.b.len() < ops {
        g.budget = 50;
        g.block(0);
    }
    g.finish()
}

/// (ops, SSA work steps, time per pass).
fn measure(ops: usize) -> (usize, u64, [Duration; 3]) {
    let mut b = sized_program(ops);
    let n = b.len();
    let t0 = Instant::now();
    scoped_to_structured::run(&mut b).unwrap();
    let t1 = Instant::now();
    let (_, steps) = ssa_construction::run_counting(&mut b).unwrap();
    let t2 = Instant::now();
    cfg_cleanup::run(&mut b).unwrap();
    let t3 = Instant::now();
    (n, steps, [t1 - t0, t2 - t1, t3 - t2])
}

#[test]
fn work_grows_linearly() {
    let (n1, s1, t1) = measure(12_500);
    let (n8, s8, t8) = measure(100_000);
    let ratio_ops = n8 as f64 / n1 as f64;
    let ratio_steps = s8 as f64 / s1 as f64;
    assert!(
        ratio_steps < ratio_ops * 1.5,
        "SSA work steps grew {ratio_steps:.1}x for {ratio_ops:.1}x ops"
    );
    // Time is the best of three runs per size (a loaded machine preempts single runs), and a
    // large program done within 0.3 s counts as linear whatever the ratio of two short times.
    let total = |t: [Duration; 3]| t.iter().sum::<Duration>().as_secs_f64();
    let best = |ops: usize, first: f64| (0..2).fold(first, |b, _| b.min(total(measure(ops).2)));
    let (small, large) = (best(12_500, total(t1)), best(100_000, total(t8)));
    let ratio_time = large / small.max(1e-6);
    assert!(
        ratio_time < 30.0 || large < 0.3,
        "time grew {ratio_time:.1}x for {ratio_ops:.1}x ops ({large:.3} s for the large program)"
    );
}

/// Per-pass timing on a 100k-op program: `cargo test --release --test passes_cfg -- --ignored
/// --nocapture timing`.
#[test]
#[ignore]
fn timing_100k() {
    for _ in 0..3 {
        let (n, steps, t) = measure(100_000);
        println!(
            "{n} ops: scoped_to_structured {:?}, ssa_construction {:?} ({steps} steps), cfg_cleanup {:?}",
            t[0], t[1], t[2]
        );
    }
}
