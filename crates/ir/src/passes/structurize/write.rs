//! Writes a [`Plan`] into the program: labels and terminators of the new blocks, rewritten
//! terminators and labels of the old ones, the route stores, and the block order.
//!
//! # The route
//! One `u32` temporary per program, `route`, says where a branch that leaves constructs is
//! going: the plan's node number of its landing node. It is stored on the edge where such a
//! branch starts (in the block itself before its terminator: a constant, or a `Select` on the
//! branch condition when both edges of a conditional branch need different values; in an edge
//! block for a switch case), and only where a block that reads it (a guard, a loop merge that
//! dispatches) lies ahead on the chain of merge blocks the branch goes through. Nothing between
//! that store and the read is an original block, so no other store intervenes. The stores and
//! loads are written as a temporary's, which `repair` turns into SSA values and phis.

use smallvec::SmallVec;

use crate::builder::Builder;
use crate::enums::Construct;
use crate::op::{Op, SsaDef};
use crate::opcode::OpCode;
use crate::passes::error::PassError;
use crate::types::{ScalarType, Type};

use super::plan::{Kind, Plan, UP};
use super::{Shared, NONE, PASS};

const U32: Type = Type::scalar(ScalarType::U32);
const BOOL: Type = Type::scalar(ScalarType::Bool);

/// The function's blocks as the plan numbers them.
pub(super) struct Blocks<'a> {
    /// Per original node: its label and terminator.
    pub labels: &'a [SsaDef],
    pub terminators: &'a [SsaDef],
    /// The function's `FunctionEnd`, before which new blocks are created.
    pub end: SsaDef,
    /// Maps a label of an original block to its node (`NONE` for others), indexed by def.
    pub node_of_label: &'a dyn Fn(SsaDef) -> u32,
}

/// Writes `plan` into `b`. Returns the number of blocks the function has now.
pub(super) fn write(
    b: &mut Builder,
    plan: &Plan,
    blocks: &Blocks,
    shared: &mut Shared,
) -> Result<usize, PassError> {
    let total = plan.nodes.len();
    let needs = route_needs(plan);
    // Labels of the new blocks first, so that every terminator can name every block.
    let mut label = vec![None; total];
    for (x, node) in plan.nodes.iter().enumerate() {
        label[x] = Some(if node.kind == Kind::Block {
            blocks.labels[x]
        } else {
            b.add_before(blocks.end, plain_label())
        });
    }
    let label_of =
        |x: u32| -> Result<SsaDef, PassError> {
            label.get(x as usize).copied().flatten().ok_or_else(|| {
                PassError::invalid(PASS, None, "plan names a block that does not exist")
            })
        };
    // Per node: its terminator, and the edge blocks placed right after it.
    let mut term: Vec<Option<SsaDef>> = vec![None; total];
    let mut after: Vec<(u32, SsaDef, SsaDef)> = Vec::new();
    let mut w = Writer {
        b,
        shared,
        label_of: &label_of,
        end: blocks.end,
        after: &mut after,
    };
    for (x, node) in plan.nodes.iter().enumerate() {
        let x32 = x as u32;
        let lbl = label_of(x32)?;
        let merge = if node.merge != NONE {
            Some(label_of(node.merge)?)
        } else {
            None
        };
        let t = match node.kind {
            Kind::Block => {
                let t = blocks.terminators[x];
                w.rewrite_block(x32, node, lbl, t, merge, &needs, blocks)?;
                t
            }
            Kind::LoopHeader(l) => {
                let (m, c) = (
                    label_of(plan.loop_merge(l))?,
                    label_of(plan.loop_continue(l))?,
                );
                let body = label_of(plan.body[l as usize])?;
                w.b.rewrite(
                    lbl,
                    Op::new(OpCode::Label, Type::VOID)
                        .with_ref(m)
                        .with_ref(c)
                        .with_lit(Construct::StructuredLoop.to_literal()),
                );
                w.b.add_after(lbl, branch(body))
            }
            Kind::Continue(l) => {
                let h = label_of(plan.loop_header(l))?;
                w.b.add_after(lbl, branch(h))
            }
            Kind::LoopMerge(_) => w.write_dispatch(x32, node, lbl, merge)?,
            Kind::Guard {
                label: y,
                then,
                els,
            } => {
                let (then, els) = (label_of(then)?, label_of(els)?);
                let t = w.b.add_after(lbl, Op::new(OpCode::Unreachable, Type::VOID));
                let c = w.route_equals(t, y);
                w.b.rewrite(
                    t,
                    Op::new(OpCode::BranchConditional, Type::VOID)
                        .with_ref(c)
                        .with_ref(then)
                        .with_ref(els),
                );
                if let Some(m) = merge {
                    w.b.rewrite(lbl, selection_label(m));
                }
                t
            }
            Kind::Forward(to) => {
                let to = label_of(to)?;
                w.b.add_after(lbl, branch(to))
            }
            Kind::Unreachable => w.b.add_after(lbl, Op::new(OpCode::Unreachable, Type::VOID)),
        };
        term[x] = Some(t);
    }
    // Block order: the plan's, each edge block right after the block it leaves.
    after.sort_by_key(|&(x, _, _)| x);
    let mut pos: Option<SsaDef> = None;
    let mut count = 0;
    for &x in &plan.order {
        let (Some(l), Some(t)) = (label[x as usize], term[x as usize].take()) else {
            return Err(PassError::invalid(
                PASS,
                None,
                "plan places a block twice or never",
            ));
        };
        if pos.is_none() && x != 0 {
            return Err(PassError::invalid(
                PASS,
                l,
                "the entry block is not placed first",
            ));
        }
        let lo = after.partition_point(|e| e.0 < x);
        let hi = after.partition_point(|e| e.0 <= x);
        for (l, t) in std::iter::once((l, t)).chain(after[lo..hi].iter().map(|e| (e.1, e.2))) {
            if let Some(p) = pos {
                b.move_range_after(l, t, p);
            }
            pos = Some(t);
            count += 1;
        }
    }
    if count != total + after.len() {
        return Err(PassError::invalid(PASS, None, "plan leaves a block out"));
    }
    Ok(count)
}

fn plain_label() -> Op {
    Op::new(OpCode::Label, Type::VOID).with_lit(Construct::None.to_literal())
}

fn selection_label(merge: SsaDef) -> Op {
    Op::new(OpCode::Label, Type::VOID)
        .with_ref(merge)
        .with_lit(Construct::StructuredSelection.to_literal())
}

fn branch(to: SsaDef) -> Op {
    Op::new(OpCode::Branch, Type::VOID).with_ref(to)
}

/// Per node: whether a branch into it must carry the route, because a block ahead on its
/// chain of forwards reads it.
fn route_needs(plan: &Plan) -> Vec<bool> {
    let total = plan.nodes.len();
    // 0 unknown, 1 no, 2 yes, 3 being resolved.
    let mut state = vec![0u8; total];
    let mut chain: Vec<u32> = Vec::new();
    for start in 0..total as u32 {
        let mut x = start;
        let verdict = loop {
            match state[x as usize] {
                1 => break false,
                2 => break true,
                3 => break false, // a cycle of forwards: nothing reads
                _ => {}
            }
            let node = &plan.nodes[x as usize];
            let next = match node.kind {
                Kind::Guard { .. } => break true,
                Kind::Forward(to) => to,
                Kind::LoopMerge(_) => {
                    let mut targets: SmallVec<[u32; 4]> =
                        node.outs.iter().map(|o| o.target).collect();
                    targets.sort_unstable();
                    targets.dedup();
                    match targets.as_slice() {
                        [] => break false,
                        [t] => *t,
                        _ => break true,
                    }
                }
                _ => break false,
            };
            state[x as usize] = 3;
            chain.push(x);
            x = next;
        };
        state[start as usize] = if verdict { 2 } else { 1 };
        for c in chain.drain(..) {
            state[c as usize] = if verdict { 2 } else { 1 };
        }
    }
    state.iter().map(|&s| s == 2).collect()
}

/// The outs of a dispatch that go to one block: (target node, a free exit, route values).
type Group = (u32, bool, SmallVec<[u32; 2]>);

struct Writer<'a, 'b> {
    b: &'a mut Builder,
    shared: &'a mut Shared,
    label_of: &'a dyn Fn(u32) -> Result<SsaDef, PassError>,
    end: SsaDef,
    /// Edge blocks: (node they leave, label, terminator).
    after: &'b mut Vec<(u32, SsaDef, SsaDef)>,
}

impl Writer<'_, '_> {
    fn route(&mut self) -> SsaDef {
        self.shared.route(self.b)
    }

    fn constant(&mut self, v: u32) -> SsaDef {
        self.b.add_scalar_constant(ScalarType::U32, u64::from(v))
    }

    /// Stores `value` (a def) to the route before `pos`.
    fn store_before(&mut self, pos: SsaDef, value: SsaDef) {
        let r = self.route();
        let s = self.b.add_before(
            pos,
            Op::new(OpCode::TmpStore, Type::VOID)
                .with_ref(r)
                .with_ref(value),
        );
        self.shared.route_stores.push(s);
    }

    /// Loads the route before `pos`.
    fn load_before(&mut self, pos: SsaDef) -> SsaDef {
        let r = self.route();
        let l = self
            .b
            .add_before(pos, Op::new(OpCode::TmpLoad, U32).with_ref(r));
        self.shared.route_loads.push(l);
        l
    }

    /// `route == v`, computed right before `pos`.
    fn route_equals(&mut self, pos: SsaDef, v: u32) -> SsaDef {
        let k = self.constant(v);
        let load = self.load_before(pos);
        self.b
            .add_before(pos, Op::new(OpCode::IEq, BOOL).with_ref(load).with_ref(k))
    }

    /// A new block leaving node `from` for `to`, storing `store` to the route first.
    fn edge_block(&mut self, from: u32, to: SsaDef, store: Option<u32>) -> SsaDef {
        let l = self.b.add_before(self.end, plain_label());
        let t = self.b.add_after(l, branch(to));
        if let Some(v) = store {
            let k = self.constant(v);
            self.store_before(t, k);
        }
        self.after.push((from, l, t));
        l
    }

    /// Rewrites an original block: its terminator's targets, the route stores before it, and
    /// its label if it now heads a selection.
    #[allow(clippy::too_many_arguments)]
    fn rewrite_block(
        &mut self,
        x: u32,
        node: &super::plan::Node,
        lbl: SsaDef,
        t: SsaDef,
        merge: Option<SsaDef>,
        needs: &[bool],
        blocks: &Blocks,
    ) -> Result<(), PassError> {
        let Some(op) = self.b.get(t).cloned() else {
            return Err(PassError::invalid(PASS, t, "terminator is not live"));
        };
        // Per out: final target label and the route value to store (if any).
        let mut outs: SmallVec<[(SsaDef, Option<u32>, bool); 4]> = SmallVec::new();
        for o in &node.outs {
            let store = (needs[o.target as usize] && o.label != UP).then_some(o.label);
            outs.push(((self.label_of)(o.target)?, store, o.dag));
        }
        let out_of = |target: Option<SsaDef>| -> Result<usize, PassError> {
            let local = target.map_or(NONE, |l| (blocks.node_of_label)(l));
            node.succ
                .iter()
                .position(|&s| s == local)
                .ok_or_else(|| PassError::invalid(PASS, t, "branch target is not a successor"))
        };
        match op.opcode {
            OpCode::Branch => {
                let i = out_of(op.arg(0))?;
                let (to, store, _) = outs[i];
                if let Some(v) = store {
                    let k = self.constant(v);
                    self.store_before(t, k);
                }
                self.b.rewrite(t, branch(to));
            }
            OpCode::BranchConditional => {
                let c = op
                    .arg(0)
                    .ok_or_else(|| PassError::invalid(PASS, t, "condition is null"))?;
                let (i, j) = (out_of(op.arg(1))?, out_of(op.arg(2))?);
                let ((tt, st, _), (tf, sf, _)) = (outs[i], outs[j]);
                match (st, sf) {
                    (Some(a), Some(bv)) if a != bv => {
                        let (ka, kb) = (self.constant(a), self.constant(bv));
                        let sel = self.b.add_before(
                            t,
                            Op::new(OpCode::Select, U32)
                                .with_ref(c)
                                .with_ref(ka)
                                .with_ref(kb),
                        );
                        self.store_before(t, sel);
                    }
                    (Some(v), _) | (None, Some(v)) => {
                        let k = self.constant(v);
                        self.store_before(t, k);
                    }
                    (None, None) => {}
                }
                if tt == tf {
                    self.b.rewrite(t, branch(tt));
                } else {
                    self.b.rewrite(
                        t,
                        Op::new(OpCode::BranchConditional, Type::VOID)
                            .with_ref(c)
                            .with_ref(tt)
                            .with_ref(tf),
                    );
                    // (Without a merge block: both targets are the loop's continue target
                    // and merge block, which needs no construct.)
                    if let Some(m) = merge {
                        self.b.rewrite(lbl, selection_label(m));
                    }
                }
            }
            OpCode::Switch => {
                let mut stores: SmallVec<[u32; 4]> = outs.iter().filter_map(|o| o.1).collect();
                stores.sort_unstable();
                stores.dedup();
                let separate = stores.len() > 1;
                // Final label per out: direct, or an edge block (for a free exit, which a case
                // may not name, or for its own route value).
                let mut finals: SmallVec<[SsaDef; 4]> = SmallVec::new();
                for &(to, store, dag) in &outs {
                    if !dag || (separate && store.is_some()) {
                        let s = if separate { store } else { None };
                        finals.push(self.edge_block(x, to, s));
                    } else {
                        finals.push(to);
                    }
                }
                if !separate {
                    if let Some(&v) = stores.first() {
                        let k = self.constant(v);
                        self.store_before(t, k);
                    }
                }
                let mut new = Op::new(OpCode::Switch, Type::VOID);
                let mut all_same = true;
                for (i, operand) in op.operands.iter().enumerate() {
                    let is_label = i == 1 || (i >= 3 && i % 2 == 1);
                    if is_label {
                        let f = finals[out_of(operand.def())?];
                        all_same &= f == finals[0];
                        new = new.with_ref(f);
                    } else {
                        new.operands.push(*operand);
                    }
                }
                if all_same {
                    self.b.rewrite(t, branch(finals[0]));
                } else {
                    self.b.rewrite(t, new);
                    let m = merge.ok_or_else(|| {
                        PassError::invalid(PASS, t, "switch without a merge block")
                    })?;
                    self.b.rewrite(lbl, selection_label(m));
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// The terminator of a loop's merge node: a dispatch on the route over its outs.
    fn write_dispatch(
        &mut self,
        x: u32,
        node: &super::plan::Node,
        lbl: SsaDef,
        merge: Option<SsaDef>,
    ) -> Result<SsaDef, PassError> {
        // Groups: (target, free exit, labels); "up" takes every other value, so it must be
        // the default.
        let mut groups: SmallVec<[Group; 4]> = SmallVec::new();
        for o in &node.outs {
            match groups.iter_mut().find(|g| g.0 == o.target) {
                Some(g) => g.2.push(o.label),
                None => groups.push((o.target, !o.dag, SmallVec::from_slice(&[o.label]))),
            }
        }
        let t = self
            .b
            .add_after(lbl, Op::new(OpCode::Unreachable, Type::VOID));
        match groups.len() {
            0 => return Ok(t),
            1 => {
                let to = (self.label_of)(groups[0].0)?;
                self.b.rewrite(t, branch(to));
                return Ok(t);
            }
            _ => {}
        }
        let d = groups
            .iter()
            .position(|g| g.2.contains(&UP))
            .unwrap_or_else(|| {
                (0..groups.len())
                    .max_by_key(|&i| groups[i].2.len())
                    .unwrap_or(0)
            });
        let default = groups.remove(d);
        let two_way = groups.len() == 1 && groups[0].2.len() == 1;
        let m = match merge {
            Some(m) => Some(m),
            None if two_way => None,
            None => {
                return Err(PassError::invalid(
                    PASS,
                    lbl,
                    "dispatch without a merge block",
                ))
            }
        };
        if two_way {
            let (then, els) = ((self.label_of)(groups[0].0)?, (self.label_of)(default.0)?);
            let c = self.route_equals(t, groups[0].2[0]);
            self.b.rewrite(
                t,
                Op::new(OpCode::BranchConditional, Type::VOID)
                    .with_ref(c)
                    .with_ref(then)
                    .with_ref(els),
            );
        } else {
            let load = self.load_before(t);
            let target = |w: &mut Self, g: &Group| {
                let to = (w.label_of)(g.0)?;
                Ok::<SsaDef, PassError>(if g.1 { w.edge_block(x, to, None) } else { to })
            };
            let dl = target(self, &default)?;
            let mut sw = Op::new(OpCode::Switch, Type::VOID)
                .with_ref(load)
                .with_ref(dl);
            for g in &groups {
                let to = target(self, g)?;
                for &v in &g.2 {
                    let k = self.constant(v);
                    sw = sw.with_ref(k).with_ref(to);
                }
            }
            self.b.rewrite(t, sw);
        }
        if let Some(m) = m {
            self.b.rewrite(lbl, selection_label(m));
        }
        Ok(t)
    }
}
