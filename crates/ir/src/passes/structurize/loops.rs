//! The loop nest of one function's reachable blocks, and the refusal of irreducible graphs.
//!
//! Nodes are the function's reachable blocks numbered in reverse post-order (node 0 is the
//! entry). An edge `u -> v` with `v <= u` is *retreating*; on a reducible graph every retreating
//! edge is a back edge, whose target dominates its source (the classic characterisation: a CFG
//! is reducible exactly when every retreating edge of a depth-first walk is a back edge). One
//! that is not is refused, naming the block it enters, so nothing after this ever sees an
//! irreducible graph. The test is one O(1) dominance query per edge.
//!
//! The targets of back edges are the loop headers; each header's natural loop is what reaches
//! one of its back-edge sources without passing the header. Headers are taken innermost first
//! (in decreasing reverse post-order: a loop's header is dominated by the headers of the loops
//! around it) and each loop is found by a backward walk from its back-edge sources over a
//! union-find forest, in which a finished inner loop is one node (its header), so every block
//! is walked once per loop that *directly* contains it (Havlak's scheme for reducible graphs):
//! near-linear in all.

use super::NONE;

/// The loops of one function.
pub(super) struct LoopNest {
    /// Per node: the innermost loop containing it (a header is in its own loop); `NONE` for
    /// nodes in no loop.
    pub loop_of: Vec<u32>,
    /// Per node: the loop it heads, `NONE` if it is no header.
    pub heads: Vec<u32>,
    /// Per loop: its header node.
    pub header: Vec<u32>,
    /// Per loop: the loop directly around it, `NONE` for a top-level loop.
    pub parent: Vec<u32>,
    /// Per loop: the nesting depth (1 for a top-level loop; the function body is depth 0).
    pub depth: Vec<u32>,
    /// Per loop: pre- and post-order numbers in the loop tree, for ancestor tests.
    pre: Vec<u32>,
    post: Vec<u32>,
    /// Per loop: its children in the loop tree (compressed rows), in loop number order.
    child_off: Vec<u32>,
    children: Vec<u32>,
}

impl LoopNest {
    /// Finds the loops of the graph with `n` nodes, successors `succs(u)` and predecessors
    /// `preds(u)` (reachable nodes only, numbered in reverse post-order), where
    /// `dominates(a, b)` answers dominance in O(1). An irreducible graph is an error holding
    /// the retreating edge `(target, source)` whose target does not dominate its source (the
    /// node entered from outside its loop).
    pub fn build<'g>(
        n: usize,
        succs: impl Fn(u32) -> &'g [u32],
        preds: impl Fn(u32) -> &'g [u32],
        dominates: impl Fn(u32, u32) -> bool,
    ) -> Result<LoopNest, (u32, u32)> {
        let mut heads = vec![NONE; n];
        let mut header = Vec::new();
        for u in 0..n as u32 {
            for &v in succs(u) {
                if v > u {
                    continue;
                }
                if !dominates(v, u) {
                    return Err((v, u));
                }
                if heads[v as usize] == NONE {
                    heads[v as usize] = 0;
                    header.push(v);
                }
            }
        }
        // Innermost first: decreasing reverse post-order.
        header.sort_unstable_by(|a, b| b.cmp(a));
        for (l, &h) in header.iter().enumerate() {
            heads[h as usize] = l as u32;
        }
        let nloops = header.len();
        let mut loop_of = vec![NONE; n];
        let mut parent = vec![NONE; nloops];
        // Union-find over nodes: `uf[u] == u` for a representative.
        let mut uf: Vec<u32> = (0..n as u32).collect();
        let mut work: Vec<u32> = Vec::new();
        for (l, &h) in header.iter().enumerate() {
            let l = l as u32;
            loop_of[h as usize] = l;
            for &p in preds(h) {
                // Back-edge sources: the preds the header dominates.
                if dominates(h, p) {
                    let r = find(&mut uf, p);
                    if r != h {
                        uf[r as usize] = h;
                        work.push(r);
                    }
                }
            }
            while let Some(r) = work.pop() {
                let inner = heads[r as usize];
                if inner != NONE && inner != l {
                    // A finished inner loop, seen through its header.
                    if parent[inner as usize] == NONE {
                        parent[inner as usize] = l;
                    }
                } else if loop_of[r as usize] == NONE {
                    loop_of[r as usize] = l;
                }
                for &q in preds(r) {
                    let rq = find(&mut uf, q);
                    if rq != h {
                        uf[rq as usize] = h;
                        work.push(rq);
                    }
                }
            }
        }
        // Depth: a loop's parent has a smaller header, so a higher loop number.
        let mut depth = vec![0u32; nloops];
        for l in (0..nloops).rev() {
            depth[l] = match parent[l] {
                NONE => 1,
                p => depth[p as usize] + 1,
            };
        }
        // Loop tree children and intervals.
        let mut child_off = vec![0u32; nloops + 1];
        for &p in &parent {
            if p != NONE {
                child_off[p as usize + 1] += 1;
            }
        }
        for i in 0..nloops {
            child_off[i + 1] += child_off[i];
        }
        let mut fill = child_off.clone();
        let mut children = vec![0u32; child_off[nloops] as usize];
        for (l, &p) in parent.iter().enumerate() {
            if p != NONE {
                children[fill[p as usize] as usize] = l as u32;
                fill[p as usize] += 1;
            }
        }
        let mut nest = LoopNest {
            loop_of,
            heads,
            header,
            parent,
            depth,
            pre: vec![0; nloops],
            post: vec![0; nloops],
            child_off,
            children,
        };
        nest.number();
        Ok(nest)
    }

    fn number(&mut self) {
        let mut clock = 0u32;
        let mut stack: Vec<(u32, u32)> = Vec::new();
        for root in 0..self.header.len() as u32 {
            if self.parent[root as usize] != NONE {
                continue;
            }
            self.pre[root as usize] = clock;
            clock += 1;
            stack.push((root, self.child_off[root as usize]));
            while let Some(top) = stack.last_mut() {
                let (l, next) = *top;
                if next < self.child_off[l as usize + 1] {
                    top.1 += 1;
                    let c = self.children[next as usize];
                    self.pre[c as usize] = clock;
                    clock += 1;
                    stack.push((c, self.child_off[c as usize]));
                } else {
                    self.post[l as usize] = clock;
                    clock += 1;
                    stack.pop();
                }
            }
        }
    }

    /// Number of loops.
    pub fn len(&self) -> usize {
        self.header.len()
    }

    /// The children of loop `l` in the loop tree.
    pub fn children(&self, l: u32) -> &[u32] {
        let (lo, hi) = (self.child_off[l as usize], self.child_off[l as usize + 1]);
        &self.children[lo as usize..hi as usize]
    }

    /// True if loop `a` is loop `b` or contains it (`NONE` is the function body, around all).
    pub fn contains(&self, a: u32, b: u32) -> bool {
        if a == NONE {
            return true;
        }
        if b == NONE {
            return false;
        }
        let (a, b) = (a as usize, b as usize);
        self.pre[a] <= self.pre[b] && self.post[b] <= self.post[a]
    }

    /// The depth of loop `l` (0 for `NONE`, the function body).
    pub fn depth_of(&self, l: u32) -> u32 {
        if l == NONE {
            0
        } else {
            self.depth[l as usize]
        }
    }

    /// The loop around `l` (`NONE` for a top-level loop).
    pub fn parent_of(&self, l: u32) -> u32 {
        self.parent[l as usize]
    }
}

/// The representative of `u`, compressing the path.
fn find(uf: &mut [u32], u: u32) -> u32 {
    let mut r = u;
    while uf[r as usize] != r {
        r = uf[r as usize];
    }
    let mut c = u;
    while uf[c as usize] != r {
        let next = uf[c as usize];
        uf[c as usize] = r;
        c = next;
    }
    r
}
