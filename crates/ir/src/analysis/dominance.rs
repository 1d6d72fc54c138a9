//! [`DominatorTree`]: immediate dominators and O(1) dominance queries over a [`Cfg`].
//!
//! # Algorithm
//! Immediate dominators come from the iterative algorithm of Cooper, Harvey and Kennedy ("A
//! Simple, Fast Dominance Algorithm", 2001): blocks are visited in reverse post-order, each
//! block's idom is the intersection of its already-processed predecessors' idoms, where the
//! intersection walks two fingers up the tree by RPO number. For the reducible CFGs that
//! structured control flow produces one or two sweeps reach the fixed point.
//!
//! The tree is then numbered by an iterative depth-first walk (pre-order entry and post-order
//! exit counters), so `a` dominates `b` exactly when `a`'s interval contains `b`'s: one
//! comparison per query, no walk up the tree. Ops are compared by block, and within one block
//! by their position ([`Cfg::position`]).
//!
//! Every function's entry block is a root (a program with several functions gives a forest).
//! Unreachable blocks are in no tree: they dominate nothing and nothing dominates them except
//! themselves.

use crate::analysis::cfg::{BlockId, Cfg};
use crate::op::SsaDef;

const NONE: u32 = u32::MAX;

/// The dominator tree (forest, one tree per function) of a [`Cfg`].
#[derive(Clone, Debug, Default)]
pub struct DominatorTree {
    idom: Vec<u32>,
    pre: Vec<u32>,
    post: Vec<u32>,
    child_off: Vec<u32>,
    children: Vec<BlockId>,
    /// Scratch DFS stack, kept for [`DominatorTree::rebuild`].
    stack: Vec<(u32, u32)>,
}

impl DominatorTree {
    /// Computes the dominator tree of `cfg`.
    pub fn build(cfg: &Cfg) -> DominatorTree {
        let mut dom = DominatorTree::default();
        dom.rebuild(cfg);
        dom
    }

    /// Like [`DominatorTree::build`], into `self`, reusing its buffers: no allocation once
    /// they are large enough.
    pub fn rebuild(&mut self, cfg: &Cfg) {
        let n = cfg.len();
        let idom = &mut self.idom;
        idom.clear();
        idom.resize(n, NONE);
        for &e in cfg.entries() {
            idom[e.index()] = e.0;
        }
        let rpo_num = |b: u32| cfg.rpo_number(BlockId(b)).unwrap_or(NONE);
        let mut changed = true;
        while changed {
            changed = false;
            for &blk in cfg.rpo() {
                if cfg.is_entry(blk) {
                    continue;
                }
                let mut new_idom = NONE;
                for &p in cfg.preds(blk) {
                    if idom[p.index()] == NONE {
                        continue;
                    }
                    new_idom = if new_idom == NONE {
                        p.0
                    } else {
                        intersect(idom, &rpo_num, p.0, new_idom)
                    };
                }
                if new_idom != NONE && idom[blk.index()] != new_idom {
                    idom[blk.index()] = new_idom;
                    changed = true;
                }
            }
        }
        // Children lists (compressed rows), then interval numbering by an iterative DFS.
        // `post` serves as the fill cursor per parent before it gets its final values.
        let child_off = &mut self.child_off;
        child_off.clear();
        child_off.resize(n + 1, 0);
        for (b, &d) in idom.iter().enumerate() {
            if d != NONE && d as usize != b {
                child_off[d as usize + 1] += 1;
            }
        }
        for i in 0..n {
            child_off[i + 1] += child_off[i];
        }
        let cursor = &mut self.post;
        cursor.clear();
        cursor.extend_from_slice(&child_off[..n]);
        let children = &mut self.children;
        children.clear();
        children.resize(child_off[n] as usize, BlockId(0));
        for (b, &d) in idom.iter().enumerate() {
            if d != NONE && d as usize != b {
                children[cursor[d as usize] as usize] = BlockId(b as u32);
                cursor[d as usize] += 1;
            }
        }
        let pre = &mut self.pre;
        pre.clear();
        pre.resize(n, NONE);
        let post = &mut self.post;
        post.clear();
        post.resize(n, NONE);
        let mut clock = 0u32;
        let mut stack = std::mem::take(&mut self.stack);
        stack.clear();
        for &e in cfg.entries() {
            pre[e.index()] = clock;
            clock += 1;
            stack.push((e.0, child_off[e.index()]));
            while let Some(top) = stack.last_mut() {
                let (b, next) = *top;
                if next < child_off[b as usize + 1] {
                    top.1 += 1;
                    let c = children[next as usize];
                    pre[c.index()] = clock;
                    clock += 1;
                    stack.push((c.0, child_off[c.index()]));
                } else {
                    post[b as usize] = clock;
                    clock += 1;
                    stack.pop();
                }
            }
        }
        self.stack = stack;
    }

    /// The immediate dominator of `blk`; `None` for function entries and unreachable blocks.
    pub fn idom(&self, blk: BlockId) -> Option<BlockId> {
        let d = *self.idom.get(blk.index())?;
        (d != NONE && d != blk.0).then_some(BlockId(d))
    }

    /// The blocks `blk` immediately dominates.
    pub fn children(&self, blk: BlockId) -> &[BlockId] {
        let i = blk.index();
        match (self.child_off.get(i), self.child_off.get(i + 1)) {
            (Some(&lo), Some(&hi)) => &self.children[lo as usize..hi as usize],
            _ => &[],
        }
    }

    /// True if `blk` is in a dominator tree (reachable from its function's entry).
    pub fn is_reachable(&self, blk: BlockId) -> bool {
        self.pre.get(blk.index()).is_some_and(|&p| p != NONE)
    }

    /// True if every path from the entry to `b` passes through `a` (a block dominates itself).
    /// O(1).
    pub fn dominates(&self, a: BlockId, b: BlockId) -> bool {
        if a == b {
            return true;
        }
        match (
            self.pre.get(a.index()),
            self.pre.get(b.index()),
            self.post.get(a.index()),
            self.post.get(b.index()),
        ) {
            (Some(&pa), Some(&pb), Some(&qa), Some(&qb)) => {
                pa != NONE && pb != NONE && pa <= pb && qb <= qa
            }
            _ => false,
        }
    }

    /// True if `a` dominates `b` and `a != b`.
    pub fn strictly_dominates(&self, a: BlockId, b: BlockId) -> bool {
        a != b && self.dominates(a, b)
    }

    /// True if the op `a` dominates the op `b`: `a`'s block strictly dominates `b`'s, or both
    /// are in the same block and `a` comes first (an op dominates itself). False if either op
    /// is not inside a block. For a phi operand, ask about the matching predecessor's
    /// terminator instead of the phi.
    pub fn op_dominates(&self, cfg: &Cfg, a: SsaDef, b: SsaDef) -> bool {
        match (cfg.block_of(a), cfg.block_of(b)) {
            (Some(ba), Some(bb)) if ba == bb => cfg.position(a) <= cfg.position(b),
            (Some(ba), Some(bb)) => self.dominates(ba, bb),
            _ => false,
        }
    }
}

fn intersect(idom: &[u32], rpo_num: &impl Fn(u32) -> u32, mut a: u32, mut b: u32) -> u32 {
    while a != b {
        while rpo_num(a) > rpo_num(b) {
            a = idom[a as usize];
        }
        while rpo_num(b) > rpo_num(a) {
            b = idom[b as usize];
        }
    }
    a
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::parse;

    fn tree(text: &str) -> (crate::Builder, Cfg, DominatorTree) {
        let b = parse(text).unwrap();
        let cfg = Cfg::build(&b).unwrap();
        let dom = DominatorTree::build(&cfg);
        (b, cfg, dom)
    }

    #[test]
    fn loop_with_diamond() {
        // 3: entry -> 5: loop header -> 7: body (if) -> 9 | 11 -> 13: continue -> 5; merge 15.
        let (_, cfg, dom) = tree(
            "%1 = Constant bool true
%2 = Function void
%3 = Label None
%4 = Branch %5
%5 = Label %15 %13 StructuredLoop
%6 = Branch %7
%7 = Label %13 StructuredSelection
%8 = BranchConditional %1 %9 %11
%9 = Label None
%10 = Branch %13
%11 = Label None
%12 = Branch %15
%13 = Label None
%14 = BranchConditional %1 %5 %15
%15 = Label None
%16 = Return void null
%17 = Label None
%18 = Branch %13
%19 = FunctionEnd
",
        );
        let d = |i| SsaDef::new(i).unwrap();
        let blk = |i| cfg.block_of_label(d(i)).unwrap();
        assert_eq!(dom.idom(blk(3)), None);
        assert_eq!(dom.idom(blk(5)), Some(blk(3)));
        assert_eq!(dom.idom(blk(7)), Some(blk(5)));
        assert_eq!(dom.idom(blk(9)), Some(blk(7)));
        assert_eq!(dom.idom(blk(13)), Some(blk(9)));
        assert_eq!(dom.idom(blk(15)), Some(blk(7)));
        assert!(dom.dominates(blk(3), blk(15)));
        assert!(dom.dominates(blk(5), blk(13)));
        assert!(!dom.dominates(blk(11), blk(15)));
        assert!(!dom.dominates(blk(13), blk(5)));
        assert!(dom.strictly_dominates(blk(7), blk(9)));
        assert!(!dom.strictly_dominates(blk(7), blk(7)));
        // The unreachable block 17 is in no tree, though it branches into one.
        assert!(!dom.is_reachable(blk(17)));
        assert!(!dom.dominates(blk(3), blk(17)));
        assert!(dom.dominates(blk(17), blk(17)));
        assert_eq!(dom.idom(blk(13)), Some(blk(9)));
        assert_eq!(dom.children(blk(7)).len(), 3);
        // Ops: same block by position, else by block.
        assert!(dom.op_dominates(&cfg, d(7), d(8)));
        assert!(!dom.op_dominates(&cfg, d(8), d(7)));
        assert!(dom.op_dominates(&cfg, d(4), d(16)));
        assert!(!dom.op_dominates(&cfg, d(10), d(16)));
        assert!(
            !dom.op_dominates(&cfg, d(1), d(16)),
            "constants are in no block"
        );
    }

    #[test]
    fn long_chain_does_not_recurse() {
        // 100k blocks in a straight line: numbering must not use the call stack.
        let n = 100_000;
        let mut text = String::from("%1 = Function void\n");
        for i in 0..n {
            let l = 2 + 2 * i;
            text.push_str(&format!(
                "%{l} = Label None\n%{} = Branch %{}\n",
                l + 1,
                l + 2
            ));
        }
        let last = 2 + 2 * n;
        text.push_str(&format!(
            "%{last} = Label None\n%{} = Return void null\n%{} = FunctionEnd\n",
            last + 1,
            last + 2
        ));
        let (_, cfg, dom) = tree(&text);
        let first = BlockId(0);
        let end = BlockId(n as u32);
        assert!(dom.dominates(first, end));
        assert!(!dom.dominates(end, first));
        assert_eq!(dom.idom(end), Some(BlockId(n as u32 - 1)));
        assert_eq!(cfg.rpo().len(), n + 1);
    }
}
