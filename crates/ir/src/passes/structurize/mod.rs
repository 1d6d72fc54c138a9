//! `structurize`: turns functions in *unstructured block form* (any reducible control flow
//! graph of `Label None` blocks, as a DXIL frontend produces from LLVM IR) into SPIR-V's
//! structured control flow, keeping SSA values and phis right.
//!
//! # Input
//! A function is in unstructured block form when it is in block form (no `Scoped*` op, two or
//! more `Label`s) and none of its labels declares a construct: every label is `Label None`.
//! Its terminators are `Branch`, `BranchConditional`, `Switch`, `Return` and `Unreachable`;
//! values are SSA values and `Phi`s; the entry block comes first and no branch targets it;
//! the other blocks may come in any order, and values of other blocks may be referenced before
//! their definition in program order. The validator checks this form at
//! [`Level::Unstructured`](crate::validate::Level::Unstructured): SSA dominance and phis, but
//! not block order or SPIR-V's structure rules. Functions in any other form are left alone, so
//! the pass is a no-op on structured and scoped programs. Blocks no path reaches are removed.
//!
//! # Output
//! The same function in structured block form (valid at
//! [`Level::Structural`](crate::validate::Level::Structural), with SPIR-V's rules): a
//! selection header with a merge block before every conditional branch and switch, a loop
//! header with a merge block and a continue target before every loop, one back edge per loop
//! (from its continue target), branches out of a construct only to its merge block or to the
//! innermost loop's merge block or continue target, no switch fall-through, blocks in an
//! order where every block follows its dominators, and still in SSA form. What the pass adds
//! are blocks (loop headers, continue targets, merge blocks, dispatch blocks, edge blocks), a
//! `u32` value, the *route*, that says where a branch leaving several constructs is going, and
//! phis for the route and for the values and phis the new blocks disturb (module `repair`).
//!
//! # Algorithm
//! A loop-nest plus dominator-tree structurization, in three steps per function:
//!
//! 1. **Loops** (module `loops`): reverse post-order, back edges by dominance, natural loops by
//!    a union-find walk. A retreating edge whose target does not dominate its source means the
//!    graph is *irreducible*: the pass refuses it with an error naming the block entered from
//!    outside its loop (node splitting is not implemented; DXIL from `dxc` is reducible).
//! 2. **Plan** (module `plan`): every loop gets a new header, continue target and merge block;
//!    all back edges go to the continue target, all exits to the merge block, which dispatches
//!    on the route to the exit's target, through the merge blocks of the loops around it when
//!    it leaves several (a ladder). Each loop body and the function body is then a DAG, laid
//!    out by walking its dominator tree as in Ramsey's "Beyond Relooper" (ICFP 2022): a node,
//!    the arms of its branch inside its selection construct, then its join children one after
//!    another. Where Ramsey's labelled blocks allow a `br` out of many of them, SPIR-V only lets
//!    a branch leave its innermost selection, so such branches set the route and leave
//!    construct by construct through merge blocks, and a guard (`route == y`) before each join
//!    child that not every arriving path is bound for picks them up. The same idea as the
//!    Relooper's label variable and the ladders of `dxil-spirv`, with the guards placed by the
//!    dominator tree, so no guard is made where every path goes to the same place.
//! 3. **Write and repair** (modules `write`, `repair`): new blocks and terminators, the route
//!    stores, the new block order (the walk's, which puts every block after its dominators and
//!    every construct before its merge block), then SSA values for the route and for the phis
//!    and values whose predecessors or dominance changed, by an SSA updater on the iterated
//!    dominance frontiers of the new graph.
//!
//! # Cost
//! Linear in the size of the function apart from sorts of the loop exits that cross loops
//! and of the dominance frontiers, the dominator intersections of the region DAGs, and the
//! SSA repair, which walks the dominator tree from each disturbed use to its nearest
//! definition: every dominance question is an O(1) query on a numbered tree, every walk is
//! iterative (deep nesting cannot overflow the stack).
//! The output grows by a few blocks per loop and per fork whose paths do not all meet again in
//! the fork's dominator subtree; a branch that leaves `d` nested constructs passes `d` merge
//! blocks, as SPIR-V requires.

mod loops;
mod plan;
mod repair;
mod write;

#[cfg(test)]
mod tests;

use smallvec::SmallVec;

use crate::analysis::{BlockId, Cfg, DominatorTree, Edges};
use crate::builder::Builder;
use crate::enums::Construct;
use crate::op::{Op, SsaDef};
use crate::opcode::OpCode;
use crate::passes::error::PassError;
use crate::types::{ScalarType, Type};

const PASS: &str = "structurize";
const NONE: u32 = u32::MAX;

/// Structures every function of `b` that is in unstructured block form (see the module
/// documentation), in SSA form; other functions are not touched. Returns whether anything
/// changed.
pub fn run(b: &mut Builder) -> Result<bool, PassError> {
    let funcs = unstructured_functions(b);
    if funcs.is_empty() {
        return Ok(false);
    }
    let entry_point = b
        .iter()
        .take_while(|(_, op)| op.opcode != OpCode::Function)
        .find(|(_, op)| op.opcode == OpCode::EntryPoint)
        .map(|(d, _)| d)
        .ok_or_else(|| PassError::invalid(PASS, None, "the program has no EntryPoint"))?;
    let mut shared = Shared {
        entry_point,
        route: None,
        route_stores: Vec::new(),
        route_loads: Vec::new(),
        undefs: SmallVec::new(),
    };
    let skip = |funcs: &[SsaDef]| {
        let mut k = 0;
        let funcs = funcs.to_vec();
        move |f: SsaDef| {
            let target = funcs.get(k) == Some(&f);
            if target {
                k += 1;
            }
            !target
        }
    };
    let mut cfg = Cfg::default();
    cfg.rebuild_with(b, Edges::Branches, skip(&funcs))?;
    let dom = DominatorTree::build(&cfg);
    let mut phis = Vec::new();
    let entries = cfg.entries().to_vec();
    for (i, &entry) in entries.iter().enumerate() {
        let end = entries.get(i + 1).map_or(cfg.len(), |e| e.index());
        structurize_function(b, &cfg, &dom, entry, end, &mut shared, &mut phis)?;
    }
    cfg.rebuild_with(b, Edges::Branches, skip(&funcs))?;
    let dom = DominatorTree::build(&cfg);
    repair::repair(b, &cfg, &dom, &phis, &mut shared)?;
    Ok(true)
}

/// The functions of `b` in unstructured block form, in program order: block form (no scoped
/// op, two or more labels) with no label declaring a construct.
pub fn unstructured_functions(b: &Builder) -> Vec<SsaDef> {
    let mut out = Vec::new();
    let mut cur: Option<(SsaDef, u32, bool)> = None;
    for (def, op) in b.iter() {
        match op.opcode {
            OpCode::Function => cur = Some((def, 0, false)),
            OpCode::FunctionEnd => {
                if let Some((f, labels, other)) = cur.take() {
                    if labels > 1 && !other {
                        out.push(f);
                    }
                }
            }
            OpCode::Label => {
                if let Some(c) = cur.as_mut() {
                    c.1 += 1;
                    c.2 |= op.construct() != Some(Construct::None);
                }
            }
            o if o.is_scoped() => {
                if let Some(c) = cur.as_mut() {
                    c.2 = true;
                }
            }
            _ => {}
        }
    }
    out
}

/// State shared by the functions of one run: the entry point (which the route temporary
/// names), the route's stores and loads, and the `Undef`s made.
pub(super) struct Shared {
    entry_point: SsaDef,
    route: Option<SsaDef>,
    route_stores: Vec<SsaDef>,
    route_loads: Vec<SsaDef>,
    undefs: SmallVec<[(Type, SsaDef); 4]>,
}

impl Shared {
    /// The route temporary (a `u32` `DclTmp`, gone again after `repair`), declared on first
    /// use.
    fn route(&mut self, b: &mut Builder) -> SsaDef {
        if let Some(r) = self.route {
            return r;
        }
        let ty = Type::scalar(ScalarType::U32);
        let r = b.add_decl(Op::new(OpCode::DclTmp, ty).with_ref(self.entry_point));
        self.route = Some(r);
        r
    }

    /// An `Undef` of type `ty`.
    fn undef(&mut self, b: &mut Builder, ty: Type) -> SsaDef {
        if let Some(&(_, u)) = self.undefs.iter().find(|(t, _)| *t == ty) {
            return u;
        }
        let u = b.add_decl(Op::new(OpCode::Undef, ty));
        self.undefs.push((ty, u));
        u
    }
}

/// Structures the function whose blocks are `entry..end` in `cfg`, appending its phis (which
/// `repair` checks afterwards) to `phis`.
fn structurize_function(
    b: &mut Builder,
    cfg: &Cfg,
    dom: &DominatorTree,
    entry: BlockId,
    end: usize,
    shared: &mut Shared,
    phis: &mut Vec<SsaDef>,
) -> Result<(), PassError> {
    let start = entry.index();
    let last = BlockId(end as u32 - 1);
    let function_end = b
        .next(cfg.terminator(last))
        .filter(|&d| b.get(d).is_some_and(|op| op.opcode == OpCode::FunctionEnd))
        .ok_or_else(|| PassError::invalid(PASS, cfg.terminator(last), "no FunctionEnd after"))?;
    // Reachable blocks in reverse post-order: the plan's nodes.
    let first_rpo = cfg
        .rpo_number(entry)
        .ok_or_else(|| PassError::invalid(PASS, cfg.label(entry), "entry is unreachable"))?
        as usize;
    let rpo = cfg.rpo();
    let mut nodes: Vec<BlockId> = Vec::new();
    for &blk in &rpo[first_rpo..] {
        if blk.index() < start || blk.index() >= end {
            break;
        }
        nodes.push(blk);
    }
    let n = nodes.len();
    let mut node_of = vec![NONE; end - start];
    for (i, blk) in nodes.iter().enumerate() {
        node_of[blk.index() - start] = i as u32;
    }
    if let Some(&p) = cfg.preds(entry).iter().find(|p| cfg.is_reachable(**p)) {
        return Err(PassError::invalid(
            PASS,
            cfg.terminator(p),
            format!(
                "branches to the entry block {} of its function",
                cfg.label(entry)
            ),
        ));
    }
    remove_unreachable(b, cfg, start, end, &node_of)?;
    // Successors and predecessors as node numbers.
    let mut succs: Vec<SmallVec<[u32; 2]>> = Vec::with_capacity(n);
    let mut preds: Vec<SmallVec<[u32; 2]>> = Vec::with_capacity(n);
    for &blk in &nodes {
        let local = |s: &BlockId| node_of[s.index() - start];
        succs.push(cfg.succs(blk).iter().map(local).collect());
        preds.push(
            cfg.preds(blk)
                .iter()
                .map(local)
                .filter(|&p| p != NONE)
                .collect(),
        );
        let mut d = b.next(cfg.label(blk));
        while let Some(def) = d.filter(|&d| b.get(d).is_some_and(|o| o.opcode == OpCode::Phi)) {
            phis.push(def);
            d = b.next(def);
        }
    }
    let nest = loops::LoopNest::build(
        n,
        |u| &succs[u as usize],
        |u| &preds[u as usize],
        |a, c| dom.dominates(nodes[a as usize], nodes[c as usize]),
    )
    .map_err(|(v, u)| {
        PassError::invalid(
            PASS,
            cfg.label(nodes[v as usize]),
            format!(
                "irreducible control flow: this block is a loop entered from block {} without \
                 passing a header that dominates the loop (node splitting is not supported)",
                cfg.label(nodes[u as usize])
            ),
        )
    })?;
    let switches: Vec<bool> = nodes
        .iter()
        .map(|&blk| {
            b.get(cfg.terminator(blk))
                .is_some_and(|op| op.opcode == OpCode::Switch)
        })
        .collect();
    let plan = plan::Plan::build(&succs, &switches, &nest)
        .map_err(|e| PassError::invalid(PASS, cfg.label(entry), format!("internal error: {e}")))?;
    let labels: Vec<SsaDef> = nodes.iter().map(|&blk| cfg.label(blk)).collect();
    let terminators: Vec<SsaDef> = nodes.iter().map(|&blk| cfg.terminator(blk)).collect();
    let node_of_label = |l: SsaDef| {
        cfg.block_of_label(l)
            .filter(|blk| blk.index() >= start && blk.index() < end)
            .map_or(NONE, |blk| node_of[blk.index() - start])
    };
    let blocks = write::Blocks {
        labels: &labels,
        terminators: &terminators,
        end: function_end,
        node_of_label: &node_of_label,
    };
    write::write(b, &plan, &blocks, shared)?;
    Ok(())
}

/// Removes the blocks of `start..end` that no path from the entry reaches (`node_of` is
/// `NONE` for them), with the phi operands naming them and the debug ops naming their values.
fn remove_unreachable(
    b: &mut Builder,
    cfg: &Cfg,
    start: usize,
    end: usize,
    node_of: &[u32],
) -> Result<(), PassError> {
    let dead = |blk: BlockId| {
        blk.index() >= start && blk.index() < end && node_of[blk.index() - start] == NONE
    };
    if !(start..end).any(|i| dead(BlockId(i as u32))) {
        return Ok(());
    }
    for i in start..end {
        let blk = BlockId(i as u32);
        if !dead(blk) {
            continue;
        }
        let l = cfg.label(blk);
        for &s in cfg.succs(blk) {
            if dead(s) {
                continue;
            }
            let mut d = b.next(cfg.label(s));
            while let Some(phi) = d.filter(|&d| b.get(d).is_some_and(|o| o.opcode == OpCode::Phi)) {
                let Some(mut op) = b.get(phi).cloned() else {
                    break;
                };
                let before = op.operands.len();
                let kept: SmallVec<[crate::Operand; 4]> = op
                    .operands
                    .chunks(2)
                    .filter(|c| c[0].def() != Some(l))
                    .flatten()
                    .copied()
                    .collect();
                if kept.len() != before {
                    op.operands = kept;
                    b.rewrite(phi, op);
                }
                d = b.next(phi);
            }
        }
    }
    let mut doomed: Vec<SsaDef> = Vec::new();
    for i in start..end {
        let blk = BlockId(i as u32);
        if !dead(blk) {
            continue;
        }
        let mut d = Some(cfg.label(blk));
        while let Some(def) = d {
            doomed.push(def);
            if def == cfg.terminator(blk) {
                break;
            }
            d = b.next(def);
        }
    }
    let mut debug: Vec<SsaDef> = Vec::new();
    for &def in &doomed {
        for u in b.uses(def) {
            let Some(user) = b.get(u.user) else { continue };
            if user.opcode.is_annotation() {
                debug.push(u.user);
            } else if !cfg.block_of(u.user).is_some_and(dead) {
                return Err(PassError::invalid(
                    PASS,
                    u.user,
                    format!("uses {def}, which only an unreachable block defines"),
                ));
            }
        }
    }
    for d in debug.into_iter().chain(doomed) {
        b.remove(d);
    }
    Ok(())
}
