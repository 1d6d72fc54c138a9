//! [`Cfg`]: the control flow graph of a structured program.
//!
//! # Algorithm
//! One walk over the program in order finds the blocks: every `Label` starts one, the next
//! `Branch`, `BranchConditional`, `Switch`, `Return` or `Unreachable` ends it. Each block gets a
//! dense number ([`BlockId`], program order); a side table indexed by [`SsaDef`] maps every op
//! inside a block to its block and its position in the block, so "which block is this op in" is
//! one array read. A second walk over the terminators collects the successor lists (duplicate
//! targets, e.g. several switch cases sharing a label, are listed once) and the predecessor lists
//! follow from them by counting. Both are stored flat (compressed-row form): one offset vector
//! and one target vector, no per-block allocation.
//!
//! Reverse post-order is computed per function from its entry block (the first block after
//! `Function`) with an explicit stack, so deeply nested or very long programs cannot overflow
//! the call stack. Blocks that no path from an entry reaches are *unreachable* and have no RPO
//! number. The whole analysis is linear in the size of the program.
//!
//! [`Cfg::rebuild_with`] builds two variants for the validator: it can leave functions out
//! (those still in scoped form), and it can add SPIR-V's *structural* edges ([`Edges`]), from a
//! construct header to its merge block and continue target, which SPIR-V's structured control
//! flow rules measure dominance and reachability by.

use crate::builder::Builder;
use crate::enums::Construct;
use crate::op::{Op, SsaDef};
use crate::opcode::{OpCode, Role};
use crate::passes::error::PassError;

const NONE: u32 = u32::MAX;
const ANALYSIS: &str = "cfg";

/// The dense number of a block within one [`Cfg`]: blocks are numbered in program order.
///
/// A `BlockId` is only meaningful for the `Cfg` (and [`crate::analysis::DominatorTree`]) it
/// came from; the accessors that take one index per-block tables and panic on an id from
/// another, larger CFG (a caller bug, never a property of the input program).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BlockId(pub u32);

impl BlockId {
    /// The number as an index into per-block tables.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// Which edges [`Cfg::rebuild_with`] records.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Edges {
    /// The targets of each block's terminator: the control flow of the program.
    #[default]
    Branches,
    /// The branch targets plus SPIR-V's structural successors of a construct header, listed
    /// first in the order SPIR-V's validator lists them: the merge block, then (for a loop) the
    /// continue target. Only headers the SPIR-V backend declares as such count: a
    /// `StructuredLoop` block ending in `Branch` or `BranchConditional` (an `OpLoopMerge`), a
    /// `StructuredSelection` block ending in `BranchConditional` or `Switch` (an
    /// `OpSelectionMerge`; one ending in a plain `Branch` gets none).
    Structural,
}

/// The blocks of a program, their edges, and reverse post-order.
#[derive(Clone, Debug, Default)]
pub struct Cfg {
    labels: Vec<SsaDef>,
    terminators: Vec<SsaDef>,
    function_of: Vec<u32>,
    functions: Vec<SsaDef>,
    entries: Vec<BlockId>,
    succ_off: Vec<u32>,
    succs: Vec<BlockId>,
    pred_off: Vec<u32>,
    preds: Vec<BlockId>,
    rpo: Vec<BlockId>,
    rpo_num: Vec<u32>,
    /// Per def id: block number of the op, or `NONE`.
    block_of: Vec<u32>,
    /// Per def id: position of the op within its block (the label is 0).
    pos: Vec<u32>,
    /// Scratch for building (edge de-duplication, counting, visited marks), kept so that
    /// [`Cfg::rebuild`] allocates nothing once the buffers are large enough.
    scratch: Vec<u32>,
    /// Scratch DFS stack for reverse post-order.
    stack: Vec<(BlockId, u32)>,
}

impl Cfg {
    /// Builds the CFG of every function of `b`.
    ///
    /// Fails if a block is not terminated before the next label or the end of its function, if
    /// code appears outside a block, or if a branch targets something other than a label of the
    /// same function.
    pub fn build(b: &Builder) -> Result<Cfg, PassError> {
        let mut cfg = Cfg::default();
        cfg.rebuild(b)?;
        Ok(cfg)
    }

    /// Like [`Cfg::build`], into `self`, reusing its buffers: no allocation once they are
    /// large enough (the pipeline rebuilds one `Cfg` for every pass and every compile). On
    /// error `self` holds a partial graph and must be rebuilt before use.
    pub fn rebuild(&mut self, b: &Builder) -> Result<(), PassError> {
        self.rebuild_with(b, Edges::Branches, |_| false)
    }

    /// Like [`Cfg::rebuild`], with the given `edges`, leaving out every function for which
    /// `skip_function` (called once per `Function` op, in program order) returns true: its ops
    /// belong to no block, and a branch into it is an error like any other bad target.
    pub fn rebuild_with(
        &mut self,
        b: &Builder,
        edges: Edges,
        mut skip_function: impl FnMut(SsaDef) -> bool,
    ) -> Result<(), PassError> {
        let bound = b.id_bound();
        let cfg = self;
        cfg.labels.clear();
        cfg.terminators.clear();
        cfg.function_of.clear();
        cfg.functions.clear();
        cfg.entries.clear();
        cfg.succ_off.clear();
        cfg.succs.clear();
        cfg.pred_off.clear();
        cfg.preds.clear();
        cfg.rpo.clear();
        cfg.rpo_num.clear();
        cfg.block_of.clear();
        cfg.block_of.resize(bound, NONE);
        // Positions are only read for ops with a block, each of which is written below.
        cfg.pos.resize(bound, 0);
        let mut in_function = false;
        let mut skipping = false;
        let mut open: Option<u32> = None;
        let mut pos = 0u32;
        // Declarations stand outside functions: the walk starts at the first code op.
        for (def, op) in b.first_code().into_iter().flat_map(|c| b.iter_from(c)) {
            match op.opcode {
                OpCode::Function => {
                    if in_function {
                        return Err(PassError::invalid(
                            ANALYSIS,
                            def,
                            "function begins inside another function",
                        ));
                    }
                    in_function = true;
                    skipping = skip_function(def);
                    if !skipping {
                        cfg.functions.push(def);
                    }
                }
                OpCode::FunctionEnd if skipping => {
                    in_function = false;
                    skipping = false;
                }
                _ if skipping => {}
                OpCode::FunctionEnd => {
                    if let Some(blk) = open {
                        return Err(PassError::invalid(
                            ANALYSIS,
                            cfg.labels[blk as usize],
                            "block is not terminated at the end of its function",
                        ));
                    }
                    in_function = false;
                }
                OpCode::Label if in_function => {
                    if let Some(blk) = open {
                        return Err(PassError::invalid(
                            ANALYSIS,
                            cfg.labels[blk as usize],
                            format!("block is not terminated before label {def}"),
                        ));
                    }
                    let blk = cfg.labels.len() as u32;
                    let func = cfg.functions.len() as u32 - 1;
                    if cfg.function_of.last() != Some(&func) {
                        cfg.entries.push(BlockId(blk));
                    }
                    cfg.labels.push(def);
                    cfg.terminators.push(def);
                    cfg.function_of.push(func);
                    cfg.block_of[def.index()] = blk;
                    cfg.pos[def.index()] = 0;
                    pos = 1;
                    open = Some(blk);
                }
                _ if in_function && !op.opcode.is_declarative() => {
                    let Some(blk) = open else {
                        return Err(PassError::invalid(ANALYSIS, def, "code outside of a block"));
                    };
                    cfg.block_of[def.index()] = blk;
                    cfg.pos[def.index()] = pos;
                    pos += 1;
                    if op.opcode.is_terminator() {
                        cfg.terminators[blk as usize] = def;
                        open = None;
                    }
                }
                _ => {}
            }
        }
        if let Some(blk) = open {
            return Err(PassError::invalid(
                ANALYSIS,
                cfg.labels[blk as usize],
                "block is not terminated at the end of the program",
            ));
        }
        cfg.collect_edges(b, edges)?;
        cfg.compute_rpo();
        Ok(())
    }

    fn collect_edges(&mut self, b: &Builder, edges: Edges) -> Result<(), PassError> {
        let n = self.labels.len();
        let mut seen = std::mem::take(&mut self.scratch);
        seen.clear();
        seen.resize(n, NONE);
        self.succ_off.reserve(n + 1);
        self.succ_off.push(0);
        for blk in 0..n {
            let term = self.terminators[blk];
            let op = b
                .get(term)
                .ok_or_else(|| PassError::invalid(ANALYSIS, term, "terminator is not live"))?;
            // Structural successors first: merge block, then continue target.
            let structural: &[crate::Operand] = match edges {
                Edges::Branches => &[],
                Edges::Structural => {
                    let label = b.get(self.labels[blk]);
                    let construct = label.and_then(Op::construct);
                    let n = match (construct, op.opcode) {
                        (
                            Some(Construct::StructuredLoop),
                            OpCode::Branch | OpCode::BranchConditional,
                        ) => 2,
                        (
                            Some(Construct::StructuredSelection),
                            OpCode::BranchConditional | OpCode::Switch,
                        ) => 1,
                        _ => 0,
                    };
                    label.and_then(|l| l.operands.get(..n)).unwrap_or(&[])
                }
            };
            // The branch targets: the terminator's operands whose role is a block.
            let info = op.opcode.info();
            let branches = op.operands.get(..op.ref_count()).unwrap_or(&[]);
            let targets = structural.iter().chain(
                branches
                    .iter()
                    .enumerate()
                    .filter(|&(i, _)| info.ref_info(i).is_some_and(|r| r.role == Role::Block))
                    .map(|(_, t)| t),
            );
            for target in targets {
                let t = target.def().map_or(NONE, |d| {
                    self.block_of.get(d.index()).copied().unwrap_or(NONE)
                });
                let is_label = t != NONE && target.def() == Some(self.labels[t as usize]);
                if !is_label || self.function_of[t as usize] != self.function_of[blk] {
                    self.scratch = seen;
                    return Err(PassError::invalid(
                        ANALYSIS,
                        term,
                        format!(
                            "branch target {} is not a label of the same function",
                            target.0
                        ),
                    ));
                }
                if seen[t as usize] != blk as u32 {
                    seen[t as usize] = blk as u32;
                    self.succs.push(BlockId(t));
                }
            }
            self.succ_off.push(self.succs.len() as u32);
        }
        // Predecessors by counting sort over the successor lists.
        let mut count = seen;
        count.clear();
        count.resize(n + 1, 0);
        for s in &self.succs {
            count[s.index() + 1] += 1;
        }
        for i in 0..n {
            count[i + 1] += count[i];
        }
        self.pred_off.extend_from_slice(&count);
        self.preds.resize(self.succs.len(), BlockId(0));
        for blk in 0..n {
            let (lo, hi) = (self.succ_off[blk] as usize, self.succ_off[blk + 1] as usize);
            for s in lo..hi {
                let t = self.succs[s].index();
                self.preds[count[t] as usize] = BlockId(blk as u32);
                count[t] += 1;
            }
        }
        self.scratch = count;
        Ok(())
    }

    fn compute_rpo(&mut self) {
        let n = self.labels.len();
        // `rpo_num` doubles as the visited mark (`VISITED`) until the numbers are written.
        const VISITED: u32 = NONE - 1;
        let mut mark = std::mem::take(&mut self.rpo_num);
        mark.clear();
        mark.resize(n, NONE);
        let mut post = std::mem::take(&mut self.rpo);
        post.clear();
        post.reserve(n);
        let mut stack = std::mem::take(&mut self.stack);
        stack.clear();
        for e in 0..self.entries.len() {
            let entry = self.entries[e];
            let start = post.len();
            mark[entry.index()] = VISITED;
            stack.push((entry, self.succ_off[entry.index()]));
            while let Some(top) = stack.last_mut() {
                let (blk, next) = *top;
                if next < self.succ_off[blk.index() + 1] {
                    top.1 += 1;
                    let s = self.succs[next as usize];
                    if mark[s.index()] == NONE {
                        mark[s.index()] = VISITED;
                        stack.push((s, self.succ_off[s.index()]));
                    }
                } else {
                    post.push(blk);
                    stack.pop();
                }
            }
            post[start..].reverse();
        }
        // Every visited block is in `post`, so every `VISITED` mark is overwritten here.
        for (i, blk) in post.iter().enumerate() {
            mark[blk.index()] = i as u32;
        }
        self.rpo_num = mark;
        self.rpo = post;
        self.stack = stack;
    }

    /// True if `other` has the same blocks (labels and terminators), functions and edges:
    /// what a CFG kept across passes must still match (checked in validating builds).
    pub fn same_blocks(&self, other: &Cfg) -> bool {
        self.labels == other.labels
            && self.terminators == other.terminators
            && self.function_of == other.function_of
            && self.functions == other.functions
            && self.entries == other.entries
            && self.succ_off == other.succ_off
            && self.succs == other.succs
    }

    /// Number of blocks.
    pub fn len(&self) -> usize {
        self.labels.len()
    }

    /// True if the program has no blocks.
    pub fn is_empty(&self) -> bool {
        self.labels.is_empty()
    }

    /// All blocks in program order.
    pub fn blocks(&self) -> impl Iterator<Item = BlockId> + '_ {
        (0..self.labels.len() as u32).map(BlockId)
    }

    /// The `Label` op that starts `blk`.
    pub fn label(&self, blk: BlockId) -> SsaDef {
        self.labels[blk.index()]
    }

    /// The op that ends `blk`.
    pub fn terminator(&self, blk: BlockId) -> SsaDef {
        self.terminators[blk.index()]
    }

    /// The `Function` op that `blk` belongs to.
    pub fn function(&self, blk: BlockId) -> SsaDef {
        self.functions[self.function_of[blk.index()] as usize]
    }

    /// The entry block of every function that has blocks, in program order.
    pub fn entries(&self) -> &[BlockId] {
        &self.entries
    }

    /// True if `blk` is the entry block of its function.
    pub fn is_entry(&self, blk: BlockId) -> bool {
        // Blocks are numbered in program order, so an entry is the first block of its function.
        let i = blk.index();
        i == 0 || self.function_of[i - 1] != self.function_of[i]
    }

    /// The distinct successors of `blk`, in terminator operand order.
    pub fn succs(&self, blk: BlockId) -> &[BlockId] {
        let i = blk.index();
        &self.succs[self.succ_off[i] as usize..self.succ_off[i + 1] as usize]
    }

    /// The distinct predecessors of `blk`, in program order.
    pub fn preds(&self, blk: BlockId) -> &[BlockId] {
        let i = blk.index();
        &self.preds[self.pred_off[i] as usize..self.pred_off[i + 1] as usize]
    }

    /// The reachable blocks in reverse post-order, function by function.
    pub fn rpo(&self) -> &[BlockId] {
        &self.rpo
    }

    /// The position of `blk` in [`Cfg::rpo`], `None` if it is unreachable.
    pub fn rpo_number(&self, blk: BlockId) -> Option<u32> {
        let n = self.rpo_num[blk.index()];
        (n != NONE).then_some(n)
    }

    /// True if a path from its function's entry reaches `blk`.
    pub fn is_reachable(&self, blk: BlockId) -> bool {
        self.rpo_num[blk.index()] != NONE
    }

    /// The block whose label is `label`.
    pub fn block_of_label(&self, label: SsaDef) -> Option<BlockId> {
        let blk = self.block_of(label)?;
        (self.labels[blk.index()] == label).then_some(blk)
    }

    /// The block that contains the op `def` (a label belongs to its own block).
    pub fn block_of(&self, def: SsaDef) -> Option<BlockId> {
        let b = *self.block_of.get(def.index())?;
        (b != NONE).then_some(BlockId(b))
    }

    /// The position of `def` within its block (the label is 0), if it is in a block.
    pub fn position(&self, def: SsaDef) -> Option<u32> {
        self.block_of(def)?;
        self.pos.get(def.index()).copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::passes::scoped_to_structured;
    use crate::text::parse;

    #[test]
    fn diamond_edges_and_rpo() {
        let mut b = parse(
            "%1 = Constant bool true
%2 = Function void
%3 = Label None
%4 = BranchConditional %1 %5 %7
%5 = Label None
%6 = Branch %9
%7 = Label None
%8 = Branch %9
%9 = Label None
%10 = Return void null
%11 = FunctionEnd
%12 = Function void
%13 = Label None
%14 = Return void null
%15 = Label None
%16 = Branch %15
%17 = FunctionEnd
",
        )
        .unwrap();
        assert!(!scoped_to_structured::run(&mut b).unwrap());
        let cfg = Cfg::build(&b).unwrap();
        let d = |i| SsaDef::new(i).unwrap();
        let blk = |i| cfg.block_of_label(d(i)).unwrap();
        assert_eq!(cfg.len(), 6);
        assert_eq!(cfg.succs(blk(3)), &[blk(5), blk(7)]);
        assert_eq!(cfg.preds(blk(9)), &[blk(5), blk(7)]);
        assert_eq!(cfg.entries(), &[blk(3), blk(13)]);
        assert_eq!(cfg.rpo_number(blk(3)), Some(0));
        assert_eq!(cfg.rpo_number(blk(9)), Some(3));
        assert!(!cfg.is_reachable(blk(15)));
        assert_eq!(
            cfg.preds(blk(15)),
            &[blk(15)],
            "a self loop is its own predecessor"
        );
        assert_eq!(cfg.block_of(d(8)), Some(blk(7)));
        assert_eq!(cfg.position(d(8)), Some(1));
        assert_eq!(cfg.function(blk(15)), d(12));
    }

    #[test]
    fn switch_targets_are_listed_once() {
        let b = parse(
            "%1 = Constant u32 1
%2 = Constant u32 2
%3 = Function void
%4 = Label %7 StructuredSelection
%5 = Switch %1 %7 %1 %6 %2 %6
%6 = Label None
%8 = Branch %7
%7 = Label None
%9 = Return void null
%10 = FunctionEnd
",
        )
        .unwrap();
        let cfg = Cfg::build(&b).unwrap();
        let d = |i| SsaDef::new(i).unwrap();
        let blk = |i| cfg.block_of_label(d(i)).unwrap();
        assert_eq!(cfg.succs(blk(4)), &[blk(7), blk(6)]);
        assert_eq!(cfg.preds(blk(7)), &[blk(4), blk(6)]);
    }

    #[test]
    fn structural_edges_and_skipped_functions() {
        // A loop whose body always leaves: its continue target is reached only structurally.
        let b = parse(
            "%1 = Function void
%2 = Label None
%3 = Branch %4
%4 = Label %8 %6 StructuredLoop
%5 = Branch %8
%6 = Label None
%7 = Branch %4
%8 = Label None
%9 = Return void null
%10 = FunctionEnd
%11 = Function void
%12 = Label None
%13 = Return void null
%14 = FunctionEnd
",
        )
        .unwrap();
        let d = |i| SsaDef::new(i).unwrap();
        let real = Cfg::build(&b).unwrap();
        let mut cfg = Cfg::default();
        let mut calls = 0;
        cfg.rebuild_with(&b, Edges::Structural, |_| {
            calls += 1;
            calls == 2
        })
        .unwrap();
        let blk = |i| cfg.block_of_label(d(i)).unwrap();
        assert!(!real.is_reachable(real.block_of_label(d(6)).unwrap()));
        assert!(cfg.is_reachable(blk(6)));
        assert_eq!(
            cfg.succs(blk(4)),
            &[blk(8), blk(6)],
            "merge block, continue target; the branch to the merge block is listed once"
        );
        assert_eq!(cfg.preds(blk(4)), &[blk(2), blk(6)]);
        assert_eq!(cfg.len(), 4, "the second function is left out");
        assert_eq!(cfg.block_of(d(12)), None);
        assert_eq!(cfg.entries(), &[blk(2)]);
    }

    #[test]
    fn bad_cfgs_are_errors() {
        for text in [
            // branch to a non-label
            "%1 = Function void\n%2 = Label None\n%3 = Branch %1\n%4 = FunctionEnd\n",
            // unterminated block
            "%1 = Function void\n%2 = Label None\n%3 = Label None\n%4 = Return void null\n%5 = FunctionEnd\n",
            // code outside a block
            "%1 = Function void\n%2 = Label None\n%3 = Return void null\n%4 = Return void null\n%5 = FunctionEnd\n",
            // missing terminator at the end
            "%1 = Function void\n%2 = Label None\n%3 = FunctionEnd\n",
        ] {
            let b = parse(text).unwrap();
            assert!(Cfg::build(&b).is_err(), "{text}");
        }
    }
}
