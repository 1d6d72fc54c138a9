//! Shared by the control flow tests (`passes_cfg`, `structurize`): an interpreter for scoped and
//! block-form programs, and a checker of SPIR-V's structured control flow rules and SSA
//! dominance built on the CFG and the dominator tree (independent of the validator).

#![allow(dead_code)]

use std::collections::{HashMap, HashSet};

use dxspv_ir::analysis::{Cfg, DominatorTree};
use dxspv_ir::validate::{validate, Level};
use dxspv_ir::{text, Builder, Construct, Op, OpCode, SsaDef};

// ------------------------------------------------------------------------------------------
// Interpreter
// ------------------------------------------------------------------------------------------

/// How a run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Returned,
    Unreachable,
    OutOfFuel,
    /// A branch, switch or trace read a value computed from an `Undef`: what the program does
    /// is undefined, so no other run needs to match it.
    Undefined,
}

/// Marks a `Demote` in a trace.
pub const DEMOTE: u32 = u32::MAX;

/// Runs the first function of `b` (scoped or block form) with every `InputLoad` reading 0.
pub fn interpret(b: &Builder) -> (Vec<u32>, Outcome) {
    interpret_with(b, 0)
}

/// Runs the first function of `b` (scoped or block form), every `InputLoad` reading `input`;
/// returns the trace (values passed to `Drain` or stored by `OutputStore`, [`DEMOTE`] for each
/// `Demote`) and how the run ended.
pub fn interpret_with(b: &Builder, input: u32) -> (Vec<u32>, Outcome) {
    run_with(b, input, false, 2_000_000)
}

/// [`interpret_with`], giving up after `fuel` ops.
pub fn interpret_with_fuel(b: &Builder, input: u32, fuel: u32) -> (Vec<u32>, Outcome) {
    run_with(b, input, false, fuel)
}

/// The labels of the blocks a run passes (for debugging a failed comparison).
pub fn block_trace(b: &Builder, input: u32) -> Vec<u32> {
    run_with(b, input, true, 2_000_000).0
}

fn run_with(b: &Builder, input: u32, blocks: bool, fuel: u32) -> (Vec<u32>, Outcome) {
    let mut vals: HashMap<SsaDef, u32> = HashMap::new();
    let mut regs: HashMap<SsaDef, u32> = HashMap::new();
    // Values computed from an `Undef` (and registers holding one).
    let mut tainted: HashSet<SsaDef> = HashSet::new();
    let mut trace = Vec::new();
    for (d, op) in b.iter() {
        if op.opcode == OpCode::Constant {
            vals.insert(d, op.operands[0].0 as u32);
        }
        if op.opcode == OpCode::Undef {
            vals.insert(d, 0xdead);
            tainted.insert(d);
        }
    }
    let func = b
        .iter()
        .find(|(_, op)| op.opcode == OpCode::Function)
        .unwrap()
        .0;
    let mut pc = b.next(func);
    let mut cur_block: Option<SsaDef> = None;
    let v = |vals: &HashMap<SsaDef, u32>, op: &Op, i: usize| -> u32 {
        *vals
            .get(&op.arg(i).unwrap())
            .unwrap_or_else(|| panic!("no value for {:?}", op.arg(i)))
    };
    let uses_of = |d: SsaDef, opcode: OpCode| -> Vec<SsaDef> {
        b.uses(d)
            .map(|u| u.user)
            .filter(|&u| b.op(u).opcode == opcode)
            .collect()
    };
    for _ in 0..fuel {
        let Some(p) = pc else {
            panic!("fell off the program")
        };
        let op = b.op(p);
        let mut next = b.next(p);
        // An op reading a tainted value is tainted; a branch, switch or trace reading one
        // makes the run undefined.
        if !matches!(
            op.opcode,
            OpCode::Label | OpCode::Phi | OpCode::TmpStore | OpCode::TmpLoad
        ) {
            let reads_taint = op.refs().flatten().any(|r| tainted.contains(&r));
            if reads_taint {
                if matches!(
                    op.opcode,
                    OpCode::BranchConditional
                        | OpCode::Switch
                        | OpCode::Drain
                        | OpCode::OutputStore
                        | OpCode::Return
                ) || op.opcode.is_scoped()
                {
                    return (trace, Outcome::Undefined);
                }
                tainted.insert(p);
            } else {
                tainted.remove(&p);
            }
        }
        match op.opcode {
            OpCode::Label => {
                if blocks {
                    trace.push(p.id());
                }
                let prev_block = cur_block;
                cur_block = Some(p);
                // All phis of the block read their operands at once.
                let mut phis = Vec::new();
                let mut q = b.next(p);
                while let Some(d) = q {
                    let phi = b.op(d);
                    if phi.opcode != OpCode::Phi {
                        break;
                    }
                    let pair = phi
                        .operands
                        .chunks(2)
                        .find(|c| c[0].def() == prev_block)
                        .unwrap_or_else(|| panic!("{d} has no operand for {prev_block:?}"));
                    let v = pair[1].def().unwrap();
                    phis.push((d, vals[&v], tainted.contains(&v)));
                    q = b.next(d);
                }
                for (d, v, t) in phis {
                    vals.insert(d, v);
                    if t {
                        tainted.insert(d);
                    } else {
                        tainted.remove(&d);
                    }
                }
                next = q;
            }
            OpCode::IAdd => {
                vals.insert(p, v(&vals, op, 0).wrapping_add(v(&vals, op, 1)));
            }
            OpCode::ISub => {
                vals.insert(p, v(&vals, op, 0).wrapping_sub(v(&vals, op, 1)));
            }
            OpCode::IMul => {
                vals.insert(p, v(&vals, op, 0).wrapping_mul(v(&vals, op, 1)));
            }
            OpCode::IAnd => {
                vals.insert(p, v(&vals, op, 0) & v(&vals, op, 1));
            }
            OpCode::IOr => {
                vals.insert(p, v(&vals, op, 0) | v(&vals, op, 1));
            }
            OpCode::IXor => {
                vals.insert(p, v(&vals, op, 0) ^ v(&vals, op, 1));
            }
            OpCode::ULt => {
                vals.insert(p, (v(&vals, op, 0) < v(&vals, op, 1)) as u32);
            }
            OpCode::ULe => {
                vals.insert(p, (v(&vals, op, 0) <= v(&vals, op, 1)) as u32);
            }
            OpCode::UGt => {
                vals.insert(p, (v(&vals, op, 0) > v(&vals, op, 1)) as u32);
            }
            OpCode::UGe => {
                vals.insert(p, (v(&vals, op, 0) >= v(&vals, op, 1)) as u32);
            }
            OpCode::IEq => {
                vals.insert(p, (v(&vals, op, 0) == v(&vals, op, 1)) as u32);
            }
            OpCode::INe => {
                vals.insert(p, (v(&vals, op, 0) != v(&vals, op, 1)) as u32);
            }
            OpCode::BNot => {
                vals.insert(p, (v(&vals, op, 0) == 0) as u32);
            }
            OpCode::BAnd => {
                vals.insert(p, (v(&vals, op, 0) != 0 && v(&vals, op, 1) != 0) as u32);
            }
            OpCode::BOr => {
                vals.insert(p, (v(&vals, op, 0) != 0 || v(&vals, op, 1) != 0) as u32);
            }
            OpCode::Select => {
                let x = if v(&vals, op, 0) != 0 {
                    v(&vals, op, 1)
                } else {
                    v(&vals, op, 2)
                };
                vals.insert(p, x);
            }
            OpCode::InputLoad => {
                vals.insert(p, input);
            }
            OpCode::OutputStore => {
                let i = op.refs().count() - 1;
                trace.push(v(&vals, op, i));
            }
            OpCode::Drain => {
                let x = v(&vals, op, 0);
                trace.push(x);
                vals.insert(p, x);
            }
            OpCode::Demote => trace.push(DEMOTE),
            OpCode::TmpLoad => {
                let r = op.arg(0).unwrap();
                let x = *regs.get(&r).unwrap_or(&0xdead);
                vals.insert(p, x);
                if !regs.contains_key(&r) || tainted.contains(&r) {
                    tainted.insert(p);
                } else {
                    tainted.remove(&p);
                }
            }
            OpCode::TmpStore => {
                let r = op.arg(0).unwrap();
                regs.insert(r, v(&vals, op, 1));
                if tainted.contains(&op.arg(1).unwrap()) {
                    tainted.insert(r);
                } else {
                    tainted.remove(&r);
                }
            }
            OpCode::Branch => next = op.arg(0),
            OpCode::BranchConditional => {
                next = if v(&vals, op, 0) != 0 {
                    op.arg(1)
                } else {
                    op.arg(2)
                };
            }
            OpCode::Switch => {
                let sel = v(&vals, op, 0);
                next = op.arg(1);
                for pair in op.operands[2..].chunks(2) {
                    if vals[&pair[0].def().unwrap()] == sel {
                        next = pair[1].def();
                    }
                }
            }
            OpCode::Return => return (trace, Outcome::Returned),
            OpCode::Unreachable => return (trace, Outcome::Unreachable),
            OpCode::ScopedIf if v(&vals, op, 1) == 0 => {
                let els = uses_of(p, OpCode::ScopedElse);
                next = b.next(*els.first().unwrap_or(&op.arg(0).unwrap()));
            }
            OpCode::ScopedElse => next = b.next(b.op(op.arg(0).unwrap()).arg(0).unwrap()),
            OpCode::ScopedEndLoop | OpCode::ScopedLoopContinue => next = b.next(op.arg(0).unwrap()),
            OpCode::ScopedLoopBreak | OpCode::ScopedSwitchBreak => {
                next = b.next(b.op(op.arg(0).unwrap()).arg(0).unwrap());
            }
            OpCode::ScopedSwitch => {
                let sel = v(&vals, op, 1);
                let case = uses_of(p, OpCode::ScopedSwitchCase)
                    .into_iter()
                    .find(|&c| b.op(c).lit(0) == Some(sel as u64));
                let target = case
                    .or_else(|| uses_of(p, OpCode::ScopedSwitchDefault).first().copied())
                    .unwrap_or(op.arg(0).unwrap());
                next = b.next(target);
            }
            OpCode::ScopedIf
            | OpCode::ScopedEndIf
            | OpCode::ScopedLoop
            | OpCode::ScopedSwitchCase
            | OpCode::ScopedSwitchDefault
            | OpCode::ScopedEndSwitch
            | OpCode::Phi => {}
            other if other.is_declarative() => {}
            other => panic!("the interpreter does not know {other:?} ({p})"),
        }
        pc = next;
    }
    (trace, Outcome::OutOfFuel)
}

// ------------------------------------------------------------------------------------------
// Structure checker
// ------------------------------------------------------------------------------------------

fn construct(op: &Op) -> Construct {
    Construct::from_literal(op.literals()[0].0).unwrap()
}

/// Checks the SPIR-V structured control flow rules our passes promise, and SSA dominance.
pub fn check_structured(b: &Builder) {
    let show = || text::print(b);
    let cfg = Cfg::build(b).unwrap_or_else(|e| panic!("{e}\n{}", show()));
    let dom = DominatorTree::build(&cfg);
    let mut merges = HashSet::new();
    // Loops' merge blocks and continue targets: a conditional branch between two of them (a
    // break or continue either way) needs no header.
    let mut loop_exits = HashSet::new();
    for blk in cfg.blocks() {
        let label = b.op(cfg.label(blk));
        if construct(label) == Construct::StructuredLoop {
            loop_exits.extend(label.refs().flatten());
        }
    }
    for blk in cfg.blocks() {
        let label = b.op(cfg.label(blk));
        let term = b.op(cfg.terminator(blk));
        let kind = construct(label);
        let reachable = cfg.is_reachable(blk);
        let loop_exit_only = term.opcode == OpCode::BranchConditional
            && term
                .refs()
                .skip(1)
                .flatten()
                .all(|t| loop_exits.contains(&t));
        if reachable
            && matches!(term.opcode, OpCode::BranchConditional | OpCode::Switch)
            && !loop_exit_only
        {
            assert_eq!(
                kind,
                Construct::StructuredSelection,
                "{blk:?} branches without a header\n{}",
                show()
            );
        }
        if kind != Construct::None && reachable {
            let merge = label.arg(0).unwrap();
            assert!(
                merges.insert(merge),
                "{merge} merges two constructs\n{}",
                show()
            );
            let mb = cfg.block_of_label(merge).unwrap();
            if cfg.is_reachable(mb) {
                assert!(
                    dom.strictly_dominates(blk, mb),
                    "header {blk:?} does not dominate {merge}\n{}",
                    show()
                );
            }
            if kind == Construct::StructuredLoop {
                let cont = label.arg(1).unwrap();
                assert!(
                    merges.insert(cont),
                    "{cont} is a merge and continue target\n{}",
                    show()
                );
                let cb = cfg.block_of_label(cont).unwrap();
                if cfg.is_reachable(cb) {
                    assert!(
                        dom.dominates(blk, cb),
                        "loop header does not dominate continue\n{}",
                        show()
                    );
                }
            }
        }
        for &s in cfg.succs(blk) {
            if reachable && dom.dominates(s, blk) {
                let header = b.op(cfg.label(s));
                assert_eq!(
                    construct(header),
                    Construct::StructuredLoop,
                    "back edge to a non-loop\n{}",
                    show()
                );
                assert_eq!(
                    header.arg(1),
                    Some(cfg.label(blk)),
                    "back edge not from the continue target\n{}",
                    show()
                );
            }
        }
        // Phis: one operand per predecessor; SSA: definitions dominate uses.
        let preds: HashSet<SsaDef> = cfg.preds(blk).iter().map(|&p| cfg.label(p)).collect();
        let mut d = Some(cfg.label(blk));
        while let Some(def) = d {
            let op = b.op(def);
            if op.opcode == OpCode::Phi {
                let labels: Vec<SsaDef> =
                    op.operands.chunks(2).map(|c| c[0].def().unwrap()).collect();
                assert_eq!(
                    labels.len(),
                    preds.len(),
                    "{def}: phi operands vs preds\n{}",
                    show()
                );
                assert_eq!(
                    labels.iter().copied().collect::<HashSet<_>>(),
                    preds,
                    "{def}\n{}",
                    show()
                );
                if reachable {
                    for c in op.operands.chunks(2) {
                        let (l, v) = (c[0].def().unwrap(), c[1].def().unwrap());
                        let pb = cfg.block_of_label(l).unwrap();
                        if let (Some(vb), true) = (cfg.block_of(v), cfg.is_reachable(pb)) {
                            assert!(
                                dom.dominates(vb, pb),
                                "{def}: {v} does not reach {l}\n{}",
                                show()
                            );
                        }
                    }
                }
            } else if reachable && op.opcode != OpCode::Label && !op.opcode.is_terminator() {
                for r in op.refs().flatten() {
                    if cfg.block_of(r).is_some() && b.op(r).opcode != OpCode::Label {
                        assert!(
                            dom.op_dominates(&cfg, r, def),
                            "{r} does not dominate its use {def}\n{}",
                            show()
                        );
                    }
                }
            }
            if def == cfg.terminator(blk) {
                break;
            }
            d = b.next(def);
        }
    }
}

/// Asserts that the validator accepts `b` at `level`, naming the step that made it.
pub fn validate_at(b: &Builder, level: Level, after: &str) {
    if let Err(errs) = validate(b, level) {
        let msgs: Vec<String> = errs.iter().map(ToString::to_string).collect();
        panic!("after {after}: {msgs:#?}\n{}", text::print(b));
    }
}

/// Asserts that no temporaries are left.
pub fn no_temporaries(b: &Builder) {
    for (d, op) in b.iter() {
        assert!(
            !matches!(
                op.opcode,
                OpCode::TmpLoad | OpCode::TmpStore | OpCode::DclTmp
            ),
            "{d} {:?} left\n{}",
            op.opcode,
            text::print(b)
        );
    }
}
