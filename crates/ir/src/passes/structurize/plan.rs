//! The plan: which blocks one function gets, where every edge goes, which block heads which
//! construct, and the order of the blocks. Nothing here touches the [`crate::Builder`]; the
//! plan is written back by `write`.
//!
//! # Nodes
//! Nodes `0..n` are the function's reachable blocks in reverse post-order. Every loop `l` gets
//! three new nodes: its header `H` (`StructuredLoop`, holding only a branch to the old header),
//! its continue target `C` (the one back edge, `Branch H`) and its merge block `M`. Planning
//! adds guards, forwards and unreachable merge blocks; `write` adds edge blocks.
//!
//! # Regions
//! The function body and each loop body is a *region*: a directed acyclic graph (DAG) once
//! back edges go to `C` and every inner loop is one node `H -> M`. Edges into a region's own
//! `C` or `M` are *free exits*, allowed from anywhere in the loop's constructs, so they are no
//! DAG edges. A loop exit that lands in a region further out (a break out of several loops, a
//! continue of an outer loop from an inner one) goes to the innermost loop's `M` with the
//! route set to its landing node, and from `M` to the next `M` outwards ("up") until the
//! region it lands in, where that `M` has a DAG edge to the landing node: a ladder.
//!
//! # Structuring a region (the dominator tree walk)
//! Following Ramsey's "Beyond Relooper" (ICFP 2022), each region's dominator tree is walked
//! from the root, and a node `x` lays out its dominator subtree: `x`, the subtrees of its *arms*
//! (successors with `x` as their only predecessor) inside `x`'s construct, then the subtrees of
//! its *join children* `y1 < ... < yk` (the other children, in reverse post-order) one after
//! another. Ramsey wraps each join child in a labelled block left by a multi-level `br`; SPIR-V
//! only lets a branch leave its innermost selection to that selection's merge block. So the
//! branches to join children and to join children further out (*labels*) leave every construct
//! they are in through its merge block with the route set to the label, and the merge blocks
//! dispatch: after `x`'s construct comes dispatch point `P0`, before `yi` dispatch point
//! `P(i-1)`, which is either `yi` itself (*natural*: every path arriving there goes to `yi`) or
//! a guard `route == yi ? yi : Pi` heading a selection with merge `Pi`. After `yk` (or after a
//! fork without join children) a forward block passes the route on to the exit of the
//! construct around `x`. Whether `P(i-1)` is natural follows from two numbers per segment
//! (`x`'s construct, each `yi`'s subtree): whether it has an edge leaving `x`'s subtree, and the
//! largest join child index it branches to, both gathered in one pass over the edges and the
//! tree. A fork whose construct nothing leaves takes its largest arm as merge block (so that
//! `if (c) return;` does not nest the rest of the shader), or an unreachable block if it has
//! no arm.

use smallvec::SmallVec;

use super::loops::LoopNest;
use super::NONE;

/// The route label of a loop merge's "up" edge: any landing further out.
pub(super) const UP: u32 = NONE - 1;

/// What a node is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    /// An original block.
    Block,
    /// The new header of loop `l`.
    LoopHeader(u32),
    /// The new continue target of loop `l`.
    Continue(u32),
    /// The new merge block of loop `l`; it dispatches on the route to the loop's exits.
    LoopMerge(u32),
    /// A dispatch point: `route == label ? then : els`.
    Guard { label: u32, then: u32, els: u32 },
    /// A merge block that passes every route on to the given node.
    Forward(u32),
    /// A merge block no path reaches.
    Unreachable,
}

/// One outgoing edge of a node.
#[derive(Clone, Copy, Debug)]
pub(super) struct Out {
    /// Where the edge goes before structuring: a node of the region's DAG, or a free exit.
    pub to: u32,
    /// The edge's route value: its landing node (for a loop exit the node outside the loop it
    /// lands on), or [`UP`].
    pub label: u32,
    /// True if `to` is a node of the same region's DAG.
    pub dag: bool,
    /// Where the edge goes after structuring.
    pub target: u32,
}

/// One node of the plan.
#[derive(Clone, Debug)]
pub(super) struct Node {
    pub kind: Kind,
    /// For an original block: the original successor each out stands for (parallel to
    /// `outs`, local node numbers).
    pub succ: SmallVec<[u32; 2]>,
    pub outs: SmallVec<[Out; 2]>,
    /// The construct's merge block if the node heads one (a fork or a loop header).
    pub merge: u32,
    /// For an original block: it ends in a `Switch` (which SPIR-V only allows in a header).
    pub switch: bool,
}

impl Node {
    fn new(kind: Kind) -> Node {
        Node {
            kind,
            succ: SmallVec::new(),
            outs: SmallVec::new(),
            merge: NONE,
            switch: false,
        }
    }
}

/// The plan of one function.
pub(super) struct Plan {
    /// Number of original (reachable) blocks.
    pub n: usize,
    pub nodes: Vec<Node>,
    /// Every node once, in the order the blocks are to be laid out.
    pub order: Vec<u32>,
    /// Per loop: its old header node, where its body starts.
    pub body: Vec<u32>,
}

/// An internal inconsistency (a bug, never a property of valid input).
pub(super) type PlanError = &'static str;

impl Plan {
    /// The new header node of loop `l`.
    pub fn loop_header(&self, l: u32) -> u32 {
        self.n as u32 + 3 * l
    }

    /// The new continue target of loop `l`.
    pub fn loop_continue(&self, l: u32) -> u32 {
        self.n as u32 + 3 * l + 1
    }

    /// The new merge node of loop `l`.
    pub fn loop_merge(&self, l: u32) -> u32 {
        self.n as u32 + 3 * l + 2
    }

    fn add(&mut self, kind: Kind) -> u32 {
        self.nodes.push(Node::new(kind));
        self.nodes.len() as u32 - 1
    }

    /// Plans the function whose `n` reachable blocks (in reverse post-order, entry first) have
    /// the distinct successors `succs` (in terminator order), end in a `Switch` where
    /// `switches` says so, and have the loops `nest`.
    pub fn build(
        succs: &[SmallVec<[u32; 2]>],
        switches: &[bool],
        nest: &LoopNest,
    ) -> Result<Plan, PlanError> {
        let n = succs.len();
        let nloops = nest.len();
        let mut plan = Plan {
            n,
            nodes: Vec::with_capacity(n + 3 * nloops + n / 4 + 4),
            order: Vec::with_capacity(n + 3 * nloops + n / 4 + 4),
            body: nest.header.clone(),
        };
        for &switch in switches.iter().take(n) {
            let mut node = Node::new(Kind::Block);
            node.switch = switch;
            plan.nodes.push(node);
        }
        for l in 0..nloops as u32 {
            plan.nodes.push(Node::new(Kind::LoopHeader(l)));
            plan.nodes.push(Node::new(Kind::Continue(l)));
            plan.nodes.push(Node::new(Kind::LoopMerge(l)));
        }
        plan.connect(succs, nest)?;
        let mut dag = Dag::build(&plan, nest)?;
        dag.gather_labels(&plan);
        plan.walk(&dag, nest)?;
        if plan.order.len() != plan.nodes.len() {
            return Err("a node was not placed");
        }
        Ok(plan)
    }

    /// The outs of the original blocks and of the loop nodes: every edge classified by where
    /// it lands, loop exits routed through the merge nodes.
    fn connect(&mut self, succs: &[SmallVec<[u32; 2]>], nest: &LoopNest) -> Result<(), PlanError> {
        let n = self.n;
        let nloops = nest.len();
        // Loop exits: (innermost loop left, depth of the landing region, landing node).
        let mut crossings: Vec<(u32, u32, u32)> = Vec::new();
        for (u, ss) in succs.iter().enumerate() {
            let r = nest.loop_of[u];
            for &t in ss {
                let th = nest.heads[t as usize];
                let (q, landing) = if th != NONE && nest.contains(th, r) {
                    (th, self.loop_continue(th))
                } else if th != NONE {
                    (nest.parent_of(th), self.loop_header(th))
                } else {
                    (nest.loop_of[t as usize], t)
                };
                let out = if q == r {
                    let is_continue = th != NONE && landing == self.loop_continue(th);
                    Out {
                        to: landing,
                        label: landing,
                        dag: !is_continue,
                        target: NONE,
                    }
                } else {
                    if r == NONE || !nest.contains(q, r) {
                        return Err("an edge enters a loop other than at its header");
                    }
                    crossings.push((r, nest.depth_of(q), landing));
                    Out {
                        to: self.loop_merge(r),
                        label: landing,
                        dag: false,
                        target: NONE,
                    }
                };
                let node = &mut self.nodes[u];
                node.succ.push(t);
                node.outs.push(out);
            }
        }
        // Where each crossing leaves its last loop before landing: the ancestor of the loop it
        // starts in at the landing depth + 1, found with the ancestor stack of one walk over
        // the loop tree. `low` is the shallowest landing per loop subtree.
        let mut by_loop = vec![0u32; nloops + 1];
        for &(r, _, _) in &crossings {
            by_loop[r as usize + 1] += 1;
        }
        for i in 0..nloops {
            by_loop[i + 1] += by_loop[i];
        }
        let mut fill = by_loop.clone();
        let mut sorted = vec![(0u32, 0u32); crossings.len()];
        for &(r, qd, landing) in &crossings {
            sorted[fill[r as usize] as usize] = (qd, landing);
            fill[r as usize] += 1;
        }
        let mut low = vec![u32::MAX; nloops];
        let mut pairs: Vec<(u32, u32)> = Vec::with_capacity(crossings.len());
        let mut path: Vec<u32> = Vec::new();
        let mut stack: Vec<(u32, usize)> = Vec::new();
        for root in 0..nloops as u32 {
            if nest.parent_of(root) != NONE {
                continue;
            }
            stack.push((root, 0));
            while let Some(top) = stack.last_mut() {
                let (l, next) = *top;
                if next == 0 {
                    path.push(l);
                    let (lo, hi) = (by_loop[l as usize], by_loop[l as usize + 1]);
                    for &(qd, landing) in &sorted[lo as usize..hi as usize] {
                        let km = *path.get(qd as usize).ok_or("a loop exit lands inside")?;
                        pairs.push((km, landing));
                        low[l as usize] = low[l as usize].min(qd);
                    }
                }
                if let Some(&c) = nest.children(l).get(next) {
                    top.1 += 1;
                    stack.push((c, 0));
                } else {
                    path.pop();
                    stack.pop();
                }
            }
        }
        // Children have smaller loop numbers than their parents.
        for l in 0..nloops {
            let p = nest.parent[l];
            if p != NONE {
                low[p as usize] = low[p as usize].min(low[l]);
            }
        }
        pairs.sort_unstable();
        pairs.dedup();
        for &(km, landing) in &pairs {
            let m = self.loop_merge(km);
            let is_continue = matches!(
                self.nodes.get(landing as usize).map(|x| x.kind),
                Some(Kind::Continue(_))
            );
            self.nodes[m as usize].outs.push(Out {
                to: landing,
                label: landing,
                dag: !is_continue,
                target: NONE,
            });
        }
        for l in 0..nloops as u32 {
            let (h, m) = (self.loop_header(l), self.loop_merge(l));
            self.nodes[h as usize].outs.push(Out {
                to: m,
                label: m,
                dag: true,
                target: m,
            });
            if low[l as usize] < nest.depth[l as usize] - 1 {
                let up = self.loop_merge(nest.parent[l as usize]);
                self.nodes[m as usize].outs.push(Out {
                    to: up,
                    label: UP,
                    dag: false,
                    target: NONE,
                });
            }
        }
        let _ = n;
        Ok(())
    }

    /// Lays out every region from its root (see the module documentation), deciding merge
    /// blocks and dispatch points and where every out goes.
    fn walk(&mut self, dag: &Dag, nest: &LoopNest) -> Result<(), PlanError> {
        let mut tasks: Vec<Task> = vec![Task::Visit(0, NONE)];
        let mut later: Vec<Task> = Vec::new();
        while let Some(task) = tasks.pop() {
            let (x, exit) = match task {
                Task::Place(x) => {
                    self.order.push(x);
                    continue;
                }
                Task::Visit(x, exit) => (x, exit),
            };
            self.order.push(x);
            later.clear();
            if let Kind::LoopHeader(l) = self.nodes[x as usize].kind {
                let (c, m) = (self.loop_continue(l), self.loop_merge(l));
                self.nodes[x as usize].merge = m;
                later.push(Task::Visit(nest.header[l as usize], NONE));
                later.push(Task::Place(c));
                later.push(Task::Visit(m, exit));
            } else if self.nodes[x as usize].outs.len() < 2 {
                if let Some(o) = self.nodes[x as usize].outs.first().copied() {
                    let target = if o.dag && dag.is_arm(x, o.to) {
                        later.push(Task::Visit(o.to, exit));
                        o.to
                    } else if o.dag {
                        if exit == NONE {
                            return Err("a branch leaves the root of its region");
                        }
                        exit
                    } else {
                        o.to
                    };
                    self.nodes[x as usize].outs[0].target = target;
                }
            } else {
                self.plan_fork(dag, x, exit, &mut later)?;
            }
            tasks.extend(later.drain(..).rev());
        }
        Ok(())
    }

    /// Plans the fork `x` (two or more outs) whose construct is left through `exit`: its merge
    /// block, the dispatch points of its join children and where its outs go; queues (in
    /// layout order) what comes after `x` in `later`.
    fn plan_fork(
        &mut self,
        dag: &Dag,
        x: u32,
        exit: u32,
        later: &mut Vec<Task>,
    ) -> Result<(), PlanError> {
        let joins = dag.joins(x);
        let k = joins.len();
        let segs = dag.segments(x);
        let mut merge_arm = NONE;
        // A conditional branch to the loop's continue target and merge block (a loop's latch,
        // say) needs no construct of its own: SPIR-V allows it outside a header.
        let node = &mut self.nodes[x as usize];
        if node.outs.len() == 2 && !node.switch && node.outs.iter().all(|o| !o.dag) {
            for o in node.outs.iter_mut() {
                o.target = o.to;
            }
            return Ok(());
        }
        // Dispatch points P0..Pk; `fresh[i]` when Pi is a new block.
        let mut points: SmallVec<[u32; 4]> = SmallVec::new();
        let mut fresh: SmallVec<[bool; 4]> = SmallVec::new();
        if k == 0 {
            let p0 = if segs[0].leaves {
                if exit == NONE {
                    return Err("a branch leaves the root of its region");
                }
                self.add(Kind::Forward(exit))
            } else {
                // Nothing leaves the construct: the largest arm is the merge block.
                merge_arm = self.nodes[x as usize]
                    .outs
                    .iter()
                    .filter(|o| o.dag && dag.is_arm(x, o.to))
                    .map(|o| o.to)
                    .max_by_key(|&a| (dag.size[a as usize], dag.rpo[a as usize]))
                    .unwrap_or(NONE);
                if merge_arm != NONE {
                    merge_arm
                } else {
                    self.add(Kind::Unreachable)
                }
            };
            fresh.push(p0 != merge_arm);
            points.push(p0);
        } else {
            let mut leaves = segs[0].leaves;
            let mut max = segs[0].max_join;
            for i in 1..=k {
                let y = joins[i - 1];
                if !leaves && max == i as u32 {
                    points.push(y);
                    fresh.push(false);
                } else {
                    // The `els` target is set below, once the next point is known.
                    points.push(self.add(Kind::Guard {
                        label: y,
                        then: y,
                        els: NONE,
                    }));
                    fresh.push(true);
                }
                leaves |= segs[i].leaves;
                max = max.max(segs[i].max_join);
            }
            if fresh[k - 1] {
                if exit == NONE {
                    return Err("a branch leaves the root of its region");
                }
                points.push(self.add(Kind::Forward(exit)));
                fresh.push(true);
            } else {
                points.push(exit);
                fresh.push(false);
            }
            for i in 0..k {
                if fresh[i] {
                    let next = points[i + 1];
                    let g = &mut self.nodes[points[i] as usize];
                    if let Kind::Guard { els, .. } = &mut g.kind {
                        *els = next;
                    }
                    g.merge = next;
                }
            }
        }
        let p0 = points[0];
        self.nodes[x as usize].merge = p0;
        let node = &mut self.nodes[x as usize];
        for o in node.outs.iter_mut() {
            o.target = if !o.dag || dag.is_arm(x, o.to) {
                o.to
            } else {
                p0
            };
        }
        for o in node.outs.iter() {
            if o.dag && dag.is_arm(x, o.to) && o.to != merge_arm {
                later.push(Task::Visit(o.to, p0));
            }
        }
        if k == 0 {
            if merge_arm != NONE {
                later.push(Task::Visit(merge_arm, exit));
            } else {
                later.push(Task::Place(p0));
            }
        } else {
            for i in 1..=k {
                if fresh[i - 1] {
                    later.push(Task::Place(points[i - 1]));
                }
                later.push(Task::Visit(joins[i - 1], points[i]));
            }
            if fresh[k] {
                later.push(Task::Place(points[k]));
            }
        }
        Ok(())
    }
}

/// One step of the layout walk.
enum Task {
    /// Lay out the node's dominator subtree; branches leaving it go to the second node.
    Visit(u32, u32),
    /// Place a new block.
    Place(u32),
}

/// What the walk needs to know about one segment of a fork (its construct, or one join
/// child's subtree).
#[derive(Clone, Copy, Debug, Default)]
struct Segment {
    /// An edge from the segment leaves the fork's dominator subtree.
    leaves: bool,
    /// The largest index (1-based) among the fork's join children the segment branches to.
    max_join: u32,
}

/// The region DAGs of a plan: dominator trees and what the walk asks of them.
struct Dag {
    /// Per node: position in reverse post-order of its region's DAG.
    rpo: Vec<u32>,
    /// Per node: number of distinct DAG predecessors.
    npreds: Vec<u32>,
    idom: Vec<u32>,
    /// Per node: dominator tree depth (a region root is 0).
    depth: Vec<u32>,
    /// Per node: size of its dominator subtree.
    size: Vec<u32>,
    /// Per node: its join children, in reverse post-order (compressed rows).
    join_off: Vec<u32>,
    joins: Vec<u32>,
    /// Per join child: its index (1-based) among its dominator's join children.
    join_index: Vec<u32>,
    /// Per node: its segments, `joins + 1` of them (compressed rows; offsets `join_off[x] + x`).
    segments: Vec<Segment>,
    /// DAG successors (compressed rows).
    succ_off: Vec<u32>,
    succs: Vec<u32>,
    /// Dominator tree children in reverse post-order (compressed rows).
    child_off: Vec<u32>,
    children: Vec<u32>,
}

impl Dag {
    /// The DAG edges, reverse post-order, dominator trees (Cooper, Harvey and Kennedy's
    /// intersection, one pass in reverse post-order as the graphs are acyclic), subtree sizes
    /// and join children of every region.
    fn build(plan: &Plan, nest: &LoopNest) -> Result<Dag, PlanError> {
        let total = plan.nodes.len();
        let mut succ_off = vec![0u32; total + 1];
        let mut succs: Vec<u32> = Vec::new();
        for (x, node) in plan.nodes.iter().enumerate() {
            for o in node.outs.iter().filter(|o| o.dag) {
                succs.push(o.to);
            }
            succ_off[x + 1] = succs.len() as u32;
        }
        let mut npreds = vec![0u32; total];
        for &s in &succs {
            npreds[s as usize] += 1;
        }
        let mut pred_off = vec![0u32; total + 1];
        for x in 0..total {
            pred_off[x + 1] = pred_off[x] + npreds[x];
        }
        let mut fill = pred_off.clone();
        let mut preds = vec![0u32; succs.len()];
        for x in 0..total {
            for &s in &succs[succ_off[x] as usize..succ_off[x + 1] as usize] {
                preds[fill[s as usize] as usize] = x as u32;
                fill[s as usize] += 1;
            }
        }
        // Roots: the entry and each loop's old header.
        let mut roots: Vec<u32> = vec![0];
        roots.extend(nest.header.iter().copied());
        let mut rpo = vec![NONE; total];
        let mut order: Vec<u32> = Vec::with_capacity(total);
        let mut post: Vec<u32> = Vec::with_capacity(total);
        let mut stack: Vec<(u32, u32)> = Vec::new();
        const SEEN: u32 = NONE - 1;
        for &root in &roots {
            if npreds[root as usize] != 0 {
                return Err("a region root has predecessors");
            }
            post.clear();
            rpo[root as usize] = SEEN;
            stack.push((root, succ_off[root as usize]));
            while let Some(top) = stack.last_mut() {
                let (x, next) = *top;
                if next < succ_off[x as usize + 1] {
                    top.1 += 1;
                    let s = succs[next as usize];
                    if rpo[s as usize] == NONE {
                        rpo[s as usize] = SEEN;
                        stack.push((s, succ_off[s as usize]));
                    }
                } else {
                    post.push(x);
                    stack.pop();
                }
            }
            order.extend(post.iter().rev());
        }
        for (i, &x) in order.iter().enumerate() {
            rpo[x as usize] = i as u32;
        }
        let dag_nodes = plan
            .nodes
            .iter()
            .filter(|nd| !matches!(nd.kind, Kind::Continue(_)))
            .count();
        if order.len() != dag_nodes {
            return Err("a node is unreachable in its region");
        }
        // Immediate dominators, one pass in reverse post-order (every predecessor of a node
        // comes before it in an acyclic graph).
        let mut idom = vec![NONE; total];
        for &x in &order {
            let ps = &preds[pred_off[x as usize] as usize..pred_off[x as usize + 1] as usize];
            let mut d = NONE;
            for &p in ps {
                d = if d == NONE {
                    p
                } else {
                    intersect(&idom, &rpo, p, d)
                };
            }
            idom[x as usize] = if d == NONE { x } else { d };
        }
        // Children in reverse post-order.
        let mut child_off = vec![0u32; total + 1];
        for &x in &order {
            let d = idom[x as usize];
            if d != x {
                child_off[d as usize + 1] += 1;
            }
        }
        for i in 0..total {
            child_off[i + 1] += child_off[i];
        }
        let mut fill = child_off.clone();
        let mut children = vec![0u32; child_off[total] as usize];
        for &x in &order {
            let d = idom[x as usize];
            if d != x {
                children[fill[d as usize] as usize] = x;
                fill[d as usize] += 1;
            }
        }
        // Depth in order (parents first), sizes in reverse order.
        let mut depth = vec![0u32; total];
        for &x in &order {
            let d = idom[x as usize];
            if d != x {
                depth[x as usize] = depth[d as usize] + 1;
            }
        }
        let mut size = vec![1u32; total];
        for &x in order.iter().rev() {
            let d = idom[x as usize];
            if d != x {
                size[d as usize] += size[x as usize];
            }
        }
        let mut dag = Dag {
            rpo,
            npreds,
            idom,
            depth,
            size,
            join_off: Vec::new(),
            joins: Vec::new(),
            join_index: vec![0; total],
            segments: Vec::new(),
            succ_off,
            succs,
            child_off,
            children,
        };
        let mut join_off = vec![0u32; total + 1];
        let mut joins = Vec::new();
        for x in 0..total as u32 {
            for i in dag.child_off[x as usize]..dag.child_off[x as usize + 1] {
                let c = dag.children[i as usize];
                if !dag.is_arm(x, c) {
                    joins.push(c);
                    dag.join_index[c as usize] = (joins.len() as u32) - join_off[x as usize];
                }
            }
            join_off[x as usize + 1] = joins.len() as u32;
        }
        dag.join_off = join_off;
        dag.joins = joins;
        dag.segments = vec![Segment::default(); dag.joins.len() + total];
        Ok(dag)
    }

    /// True if `c` is an arm of `x`: a successor whose only predecessor is `x`.
    fn is_arm(&self, x: u32, c: u32) -> bool {
        self.idom[c as usize] == x && self.npreds[c as usize] == 1 && c != x
    }

    /// The join children of `x`, in reverse post-order.
    fn joins(&self, x: u32) -> &[u32] {
        let (lo, hi) = (self.join_off[x as usize], self.join_off[x as usize + 1]);
        &self.joins[lo as usize..hi as usize]
    }

    /// The segments of `x`: its construct, then each join child's subtree.
    fn segments(&self, x: u32) -> &[Segment] {
        let lo = (self.join_off[x as usize] + x) as usize;
        let hi = (self.join_off[x as usize + 1] + x + 1) as usize;
        &self.segments[lo..hi]
    }

    fn segment_mut(&mut self, x: u32, s: u32) -> &mut Segment {
        let i = (self.join_off[x as usize] + x + s) as usize;
        &mut self.segments[i]
    }

    fn children(&self, x: u32) -> &[u32] {
        let (lo, hi) = (self.child_off[x as usize], self.child_off[x as usize + 1]);
        &self.children[lo as usize..hi as usize]
    }

    fn dag_succs(&self, x: u32) -> &[u32] {
        let (lo, hi) = (self.succ_off[x as usize], self.succ_off[x as usize + 1]);
        &self.succs[lo as usize..hi as usize]
    }

    /// Fills the segments: for every edge to a label `t` (a target that is not an arm of the
    /// source), the segment of `idom(t)` it leaves from records `t`'s join index, and the
    /// edge lowers the `low` of every node from its source up to `idom(t)` (exclusive), so
    /// that a subtree has an edge leaving it exactly when its `low` is above its depth. One
    /// walk of each dominator tree with its ancestor stack finds each edge's segment in O(1).
    fn gather_labels(&mut self, plan: &Plan) {
        let total = plan.nodes.len();
        let mut low = vec![u32::MAX; total];
        let mut path: Vec<u32> = Vec::new();
        let mut stack: Vec<(u32, u32)> = Vec::new();
        let mut order: Vec<u32> = Vec::with_capacity(total);
        for root in 0..total as u32 {
            if self.idom[root as usize] != root {
                continue;
            }
            stack.push((root, 0));
            while let Some(top) = stack.last_mut() {
                let (u, next) = *top;
                if next == 0 {
                    path.push(u);
                    order.push(u);
                    for i in self.succ_off[u as usize]..self.succ_off[u as usize + 1] {
                        let t = self.succs[i as usize];
                        if self.is_arm(u, t) {
                            continue;
                        }
                        let p = self.idom[t as usize];
                        let dp = self.depth[p as usize];
                        low[u as usize] = low[u as usize].min(dp);
                        let c = if u == p {
                            p
                        } else {
                            path.get(dp as usize + 1).copied().unwrap_or(p)
                        };
                        let seg = if c == p || self.is_arm(p, c) {
                            0
                        } else {
                            self.join_index[c as usize]
                        };
                        let ji = self.join_index[t as usize];
                        let s = self.segment_mut(p, seg);
                        s.max_join = s.max_join.max(ji);
                    }
                }
                if let Some(&c) = self.children(u).get(next as usize) {
                    top.1 += 1;
                    stack.push((c, 0));
                } else {
                    path.pop();
                    stack.pop();
                }
            }
        }
        // Subtree minimums, children before parents.
        for &x in order.iter().rev() {
            let d = self.idom[x as usize];
            if d != x {
                low[d as usize] = low[d as usize].min(low[x as usize]);
            }
        }
        // A segment leaves when an edge from it lands above the fork.
        for x in 0..total as u32 {
            let dx = self.depth[x as usize];
            let mut own = plan.nodes[x as usize]
                .outs
                .iter()
                .filter(|o| o.dag && !self.is_arm(x, o.to))
                .map(|o| self.depth[self.idom[o.to as usize] as usize])
                .min()
                .unwrap_or(u32::MAX);
            for &s in self.dag_succs(x) {
                if self.is_arm(x, s) {
                    own = own.min(low[s as usize]);
                }
            }
            self.segment_mut(x, 0).leaves = own < dx;
            for i in 0..self.joins(x).len() {
                let y = self.joins(x)[i];
                let leaves = low[y as usize] < dx;
                self.segment_mut(x, i as u32 + 1).leaves = leaves;
            }
        }
    }
}

fn intersect(idom: &[u32], rpo: &[u32], mut a: u32, mut b: u32) -> u32 {
    while a != b {
        while rpo[a as usize] > rpo[b as usize] {
            a = idom[a as usize];
        }
        while rpo[b as usize] > rpo[a as usize] {
            b = idom[b as usize];
        }
    }
    a
}
