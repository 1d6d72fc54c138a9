//! Keeps the program in SSA form after the blocks changed.
//!
//! Restructuring keeps every original block and the order in which they run, but the blocks
//! it adds change predecessors and dominance. Three kinds of variables need SSA values:
//!
//! - **A phi whose block has other predecessors now** (a loop header entered from its new
//!   header block, a join reached through a dispatch): its value is defined at the end of each
//!   original predecessor (the operand for that predecessor), and is needed at its block.
//! - **A value whose definition no longer dominates a use**: the paths through a dispatch
//!   block join paths that did not run the definition (they never reach the use, but the graph
//!   does not know). Defined at its block, needed at each such use.
//! - **The route**: defined by the stores `write` put on the edges that leave constructs,
//!   needed by the guards and loop merge blocks that dispatch on it.
//!
//! Each is updated like SSA construction does for one variable with given definitions
//! (Cytron et al.): phis go to the iterated dominance frontier of the defining blocks, and the
//! value at a block is the nearest definition or phi up the dominator tree. Phis are made on
//! demand, from the uses (so only where the variable is live), and a path that meets no
//! definition yields `Undef`: it is a path that never runs. Walking the dominator tree rather
//! than the predecessors keeps each variable's work to its frontier, whatever lies around it.
//! At the end, phis with one value besides themselves and `Undef` go (when that value
//! dominates them). The dominance frontiers are computed once, and only if needed.

use crate::analysis::{BlockId, Cfg, DominatorTree};
use crate::builder::Builder;
use crate::op::{Op, Operand, SsaDef};
use crate::opcode::OpCode;
use crate::passes::error::PassError;
use crate::types::Type;

use super::{Shared, NONE, PASS};

/// Repairs the blocks of `cfg` (the structured functions only) whose original phis are `phis`,
/// and turns the route into SSA values.
pub(super) fn repair(
    b: &mut Builder,
    cfg: &Cfg,
    dom: &DominatorTree,
    phis: &[SsaDef],
    shared: &mut Shared,
) -> Result<(), PassError> {
    let mut u = Updater::new(cfg, dom);
    for blk in cfg.blocks() {
        u.loop_header[blk.index()] = b
            .get(cfg.label(blk))
            .and_then(Op::construct)
            .is_some_and(|c| c == crate::enums::Construct::StructuredLoop);
    }
    // Phis of blocks whose predecessors changed.
    let mut mark = vec![NONE; cfg.len()];
    let mut defs: Vec<(BlockId, u32)> = Vec::new();
    let mut i = 0;
    while i < phis.len() {
        let phi = phis[i];
        let Some(blk) = cfg.block_of(phi) else {
            return Err(PassError::invalid(PASS, phi, "phi outside a block"));
        };
        let mut j = i + 1;
        while j < phis.len() && cfg.block_of(phis[j]) == Some(blk) {
            j += 1;
        }
        let group = &phis[i..j];
        i = j;
        // The phis of one block name the same predecessors; did they change?
        let preds = cfg.preds(blk);
        let serial = blk.0;
        for &p in preds {
            mark[p.index()] = serial;
        }
        let op = live(b, group[0])?;
        let mut same = op.operands.len() / 2 == preds.len();
        defs.clear();
        for c in op.operands.chunks(2) {
            let Some(p) = c[0].def().and_then(|l| cfg.block_of_label(l)) else {
                return Err(PassError::invalid(PASS, group[0], "phi names no block"));
            };
            same &= mark[p.index()] == serial;
            defs.push((p, p.0));
        }
        if same {
            continue;
        }
        u.frontier_of(defs.iter().map(|d| d.0));
        u.scope(defs.iter().map(|d| d.0).chain([blk]));
        // The old header of a loop: its phis become the new header's.
        u.wanted_header = match preds {
            [h] if u.loop_header[h.index()] => Some(*h),
            _ => None,
        };
        for &phi in group {
            let op = live(b, phi)?.clone();
            let ty = op.ty;
            u.begin_values();
            for c in op.operands.chunks(2) {
                let (Some(l), Some(v)) = (c[0].def(), c.get(1).and_then(|v| v.def())) else {
                    return Err(PassError::invalid(PASS, phi, "phi operand is null"));
                };
                let p = cfg
                    .block_of_label(l)
                    .ok_or_else(|| PassError::invalid(PASS, phi, format!("{l} is not a block")))?;
                u.define(p, v);
            }
            let value = u.top(b, shared, blk, ty);
            u.finish(b, shared, ty);
            b.replace_uses(phi, value);
            b.remove(phi);
        }
    }
    // The route: stores are definitions at the ends of their blocks, loads uses.
    if let Some(route) = shared.route {
        let ty = Type::scalar(crate::types::ScalarType::U32);
        let mut stores: Vec<(BlockId, SsaDef)> = Vec::new();
        for &s in &shared.route_stores {
            let blk = cfg
                .block_of(s)
                .ok_or_else(|| PassError::invalid(PASS, s, "route store outside a block"))?;
            let v = b
                .get(s)
                .and_then(|op| op.arg(1))
                .ok_or_else(|| PassError::invalid(PASS, s, "route store without a value"))?;
            stores.push((blk, v));
        }
        u.begin(&stores);
        u.wanted_header = None;
        let mut load_blocks = Vec::with_capacity(shared.route_loads.len());
        for &l in &shared.route_loads {
            load_blocks.push(
                cfg.block_of(l)
                    .ok_or_else(|| PassError::invalid(PASS, l, "route load outside a block"))?,
            );
        }
        u.scope(
            stores
                .iter()
                .map(|d| d.0)
                .chain(load_blocks.iter().copied()),
        );
        let loads = std::mem::take(&mut shared.route_loads);
        for &l in &loads {
            let blk = cfg
                .block_of(l)
                .ok_or_else(|| PassError::invalid(PASS, l, "route load outside a block"))?;
            let value = u.top(b, shared, blk, ty);
            u.finish(b, shared, ty);
            b.replace_uses(l, value);
            b.remove(l);
        }
        for &s in &shared.route_stores {
            b.remove(s);
        }
        shared.route_stores.clear();
        b.remove(route);
    }
    // Uses their definitions no longer dominate: the block of every op first (new ones
    // included), then every use of every value of a reachable block.
    let mut block_of = vec![NONE; b.id_bound()];
    for blk in cfg.blocks() {
        let mut d = Some(cfg.label(blk));
        while let Some(def) = d {
            block_of[def.index()] = blk.0;
            if def == cfg.terminator(blk) {
                break;
            }
            d = b.next(def);
        }
    }
    let blk_of = |d: SsaDef| block_of.get(d.index()).copied().unwrap_or(NONE);
    let mut broken: Vec<(SsaDef, SsaDef, usize, u32)> = Vec::new();
    for blk in cfg.blocks() {
        if !dom.is_reachable(blk) {
            continue;
        }
        let mut d = b.next(cfg.label(blk));
        while let Some(def) = d {
            if def == cfg.terminator(blk) {
                break;
            }
            for use_ in b.uses(def) {
                let Some(user) = b.get(use_.user) else {
                    continue;
                };
                let phi = user.opcode == OpCode::Phi;
                let ub = if phi {
                    user.operands
                        .get(use_.operand.wrapping_sub(1))
                        .and_then(|l| l.def())
                        .map_or(NONE, blk_of)
                } else {
                    blk_of(use_.user)
                };
                if ub == NONE || (ub == blk.0 && !phi) || !dom.is_reachable(BlockId(ub)) {
                    continue;
                }
                if ub != blk.0 && !dom.dominates(blk, BlockId(ub)) {
                    broken.push((def, use_.user, use_.operand, ub));
                }
            }
            d = b.next(def);
        }
    }
    let mut i = 0;
    while i < broken.len() {
        let (def, _, _, _) = broken[i];
        let ty = live(b, def)?.ty;
        if ty.members().iter().any(|m| m.base().is_descriptor()) {
            return Err(PassError::invalid(
                PASS,
                def,
                format!(
                    "a value of type {ty} is used where its definition no longer dominates \
                     after structuring, and a phi cannot merge that type"
                ),
            ));
        }
        let blk = BlockId(blk_of(def));
        u.begin(&[(blk, def)]);
        u.wanted_header = None;
        let uses = broken[i..]
            .iter()
            .take_while(|x| x.0 == def)
            .map(|x| BlockId(x.3));
        u.scope(uses.chain([blk]));
        while i < broken.len() && broken[i].0 == def {
            let (_, user, operand, ub) = broken[i];
            let value = if live(b, user)?.opcode == OpCode::Phi {
                u.end(b, shared, BlockId(ub), ty)
            } else {
                u.top(b, shared, BlockId(ub), ty)
            };
            u.finish(b, shared, ty);
            b.set_operand(user, operand, Operand::from_def(value));
            i += 1;
        }
    }
    u.remove_trivial_phis(b, shared);
    Ok(())
}

/// The op of `def`, which the repair knows to be live.
fn live(b: &Builder, def: SsaDef) -> Result<&Op, PassError> {
    b.get(def)
        .ok_or_else(|| PassError::invalid(PASS, def, "op is not live"))
}

/// The SSA updater: one variable at a time ([`Updater::begin`]), queried for its value at
/// the top or end of blocks.
struct Updater<'a> {
    cfg: &'a Cfg,
    dom: &'a DominatorTree,
    /// Dominance frontiers (compressed rows), built on first use.
    df_off: Vec<u32>,
    df: Vec<BlockId>,
    /// The current variable's number, and that of its set of defining blocks; the per-block
    /// tables hold them where they apply.
    serial: u32,
    idf_serial: u32,
    /// Per block: in the iterated dominance frontier of the current variable's definitions.
    idf: Vec<u32>,
    /// Per block: the current variable's value at its end, once a walk found it.
    end_at: Vec<u32>,
    end_val: Vec<Option<SsaDef>>,
    /// The blocks a walk passed, to remember its result for.
    path: Vec<BlockId>,
    /// The current variable's scope: the nearest common dominator of its definitions and
    /// uses. Nothing above it matters (see [`Updater::scope`]).
    top_block: BlockId,
    /// Per block: a loop header. A loop header's phi carries a value from one iteration to the
    /// next, which only the phis of the loop's old header need: a phi's predecessor runs right
    /// before its block, a route store right before its dispatch, and a value defined in a
    /// loop is defined again on every path from the header to a use it dominated. So other
    /// variables walk past loop headers (the value found is never read on a path that runs).
    loop_header: Vec<bool>,
    /// The loop header whose phi the current variable needs, if any.
    wanted_header: Option<BlockId>,
    /// Dominator tree depth and jump pointers (`up[k][x]` is the ancestor 2^k levels up, the
    /// root for less), for nearest common dominators in O(log n); built with the frontiers.
    depth: Vec<u32>,
    up: Vec<Vec<u32>>,
    /// Per block: the current variable's definition at its end.
    def_at: Vec<u32>,
    def_val: Vec<Option<SsaDef>>,
    /// Per block: the current variable's phi.
    phi_at: Vec<u32>,
    phi_val: Vec<Option<SsaDef>>,
    /// Phis made but not yet given operands.
    pending: Vec<(BlockId, SsaDef)>,
    work: Vec<BlockId>,
    /// Every phi made, with its block.
    made: Vec<(SsaDef, BlockId)>,
}

impl<'a> Updater<'a> {
    fn new(cfg: &'a Cfg, dom: &'a DominatorTree) -> Self {
        let n = cfg.len();
        Updater {
            cfg,
            dom,
            df_off: Vec::new(),
            df: Vec::new(),
            serial: 0,
            idf_serial: 0,
            idf: vec![0; n],
            end_at: vec![0; n],
            end_val: vec![None; n],
            path: Vec::new(),
            top_block: BlockId(0),
            loop_header: vec![false; n],
            wanted_header: None,
            depth: Vec::new(),
            up: Vec::new(),
            def_at: vec![0; n],
            def_val: vec![None; n],
            phi_at: vec![0; n],
            phi_val: vec![None; n],
            pending: Vec::new(),
            work: Vec::new(),
            made: Vec::new(),
        }
    }

    /// Dominance frontiers (Cooper, Harvey and Kennedy): for every join, each predecessor and
    /// its dominators up to the join's immediate dominator have the join in their frontier.
    fn build_frontiers(&mut self) {
        let (cfg, dom) = (self.cfg, self.dom);
        let n = cfg.len();
        let mut pairs: Vec<(u32, u32)> = Vec::new();
        let mut last = vec![NONE; n];
        for blk in cfg.blocks() {
            if !dom.is_reachable(blk) {
                continue;
            }
            let preds = cfg.preds(blk);
            if preds.len() < 2 {
                continue;
            }
            let stop = dom.idom(blk);
            for &p in preds {
                if !dom.is_reachable(p) {
                    continue;
                }
                let mut runner = Some(p);
                while let Some(r) = runner.filter(|&r| Some(r) != stop) {
                    if last[r.index()] == blk.0 {
                        break;
                    }
                    last[r.index()] = blk.0;
                    pairs.push((r.0, blk.0));
                    runner = dom.idom(r);
                }
            }
        }
        pairs.sort_unstable();
        self.df_off = vec![0; n + 1];
        for &(r, _) in &pairs {
            self.df_off[r as usize + 1] += 1;
        }
        for i in 0..n {
            self.df_off[i + 1] += self.df_off[i];
        }
        self.df = pairs.iter().map(|&(_, j)| BlockId(j)).collect();
        self.build_lifting();
    }

    /// Depths and jump pointers of the dominator tree.
    fn build_lifting(&mut self) {
        let (cfg, dom) = (self.cfg, self.dom);
        let n = cfg.len();
        let mut depth = vec![0u32; n];
        let mut parent: Vec<u32> = (0..n as u32).collect();
        for &blk in cfg.rpo() {
            if let Some(d) = dom.idom(blk) {
                depth[blk.index()] = depth[d.index()] + 1;
                parent[blk.index()] = d.0;
            }
        }
        let levels = (u32::BITS - (n as u32).leading_zeros()).max(1) as usize;
        let mut up = vec![parent];
        for k in 1..levels {
            let prev = &up[k - 1];
            let next: Vec<u32> = (0..n).map(|x| prev[prev[x] as usize]).collect();
            up.push(next);
        }
        self.depth = depth;
        self.up = up;
    }

    /// The nearest common dominator of `a` and `b` (same function, both reachable).
    fn lca(&self, mut a: BlockId, mut b: BlockId) -> BlockId {
        let (da, db) = (self.depth[a.index()], self.depth[b.index()]);
        if da < db {
            std::mem::swap(&mut a, &mut b);
        }
        let mut diff = self.depth[a.index()] - self.depth[b.index()];
        let mut k = 0;
        while diff > 0 {
            if diff & 1 == 1 {
                a = BlockId(self.up[k][a.index()]);
            }
            diff >>= 1;
            k += 1;
        }
        if a == b {
            return a;
        }
        for k in (0..self.up.len()).rev() {
            let (ua, ub) = (self.up[k][a.index()], self.up[k][b.index()]);
            if ua != ub {
                a = BlockId(ua);
                b = BlockId(ub);
            }
        }
        BlockId(self.up[0][a.index()])
    }

    /// Sets the current variable's scope to the nearest common dominator of `blocks` (its
    /// definitions and uses). Walks stop there: its value at the end of that block is its
    /// definition there or `Undef`. What lies above can only arrive around a loop from an
    /// earlier iteration, and no use reads that: between a phi's predecessor and its block,
    /// and between a route store and its dispatch, no loop header runs; and a value whose
    /// definition dominated a use inside a loop is defined again on every path from the loop's
    /// header to that use.
    fn scope(&mut self, mut blocks: impl Iterator<Item = BlockId>) {
        let Some(first) = blocks.next() else { return };
        let mut w = first;
        for x in blocks {
            if self.dom.is_reachable(x) {
                w = self.lca(w, x);
            }
        }
        self.top_block = w;
    }

    /// Starts a variable defined at the ends of the given blocks by the given values.
    fn begin(&mut self, defs: &[(BlockId, SsaDef)]) {
        self.frontier_of(defs.iter().map(|d| d.0));
        self.begin_values();
        for &(blk, v) in defs {
            self.define(blk, v);
        }
    }

    /// Marks the iterated dominance frontier of `blocks`, the defining blocks of the variables
    /// to come.
    fn frontier_of(&mut self, blocks: impl Iterator<Item = BlockId>) {
        if self.df_off.is_empty() {
            self.build_frontiers();
        }
        self.idf_serial += 1;
        let s = self.idf_serial;
        self.work.clear();
        self.work.extend(blocks);
        while let Some(x) = self.work.pop() {
            let (lo, hi) = (self.df_off[x.index()], self.df_off[x.index() + 1]);
            for i in lo..hi {
                let f = self.df[i as usize];
                if self.idf[f.index()] != s {
                    self.idf[f.index()] = s;
                    self.work.push(f);
                }
            }
        }
    }

    /// Starts a variable whose defining blocks [`Updater::frontier_of`] marked; its values
    /// follow by [`Updater::define`].
    fn begin_values(&mut self) {
        self.serial += 1;
    }

    /// The current variable is `v` at the end of `blk`.
    fn define(&mut self, blk: BlockId, v: SsaDef) {
        self.def_at[blk.index()] = self.serial;
        self.def_val[blk.index()] = Some(v);
    }

    /// The variable's value at the end of `blk`: its definition there, else its phi there,
    /// else the value at the end of the immediate dominator. Every block a walk passes
    /// remembers the result, so walks of one variable never repeat.
    fn end(&mut self, b: &mut Builder, shared: &mut Shared, blk: BlockId, ty: Type) -> SsaDef {
        let s = self.serial;
        let mut x = blk;
        self.path.clear();
        let v = loop {
            if self.end_at[x.index()] == s {
                if let Some(v) = self.end_val[x.index()] {
                    break v;
                }
            }
            if self.def_at[x.index()] == s {
                if let Some(v) = self.def_val[x.index()] {
                    break v;
                }
            }
            if x == self.top_block {
                break shared.undef(b, ty);
            }
            if self.needs_phi(x) {
                break self.phi(b, x, ty);
            }
            self.path.push(x);
            match self.dom.idom(x) {
                Some(d) => x = d,
                None => break shared.undef(b, ty),
            }
        };
        for &y in &self.path {
            self.end_at[y.index()] = s;
            self.end_val[y.index()] = Some(v);
        }
        v
    }

    /// The variable's value at the top of `blk`.
    fn top(&mut self, b: &mut Builder, shared: &mut Shared, blk: BlockId, ty: Type) -> SsaDef {
        if blk == self.top_block {
            return shared.undef(b, ty);
        }
        if self.needs_phi(blk) {
            return self.phi(b, blk, ty);
        }
        match self.dom.idom(blk) {
            Some(d) => self.end(b, shared, d, ty),
            None => shared.undef(b, ty),
        }
    }

    /// True if the current variable has a phi at `blk`: it is in the iterated dominance
    /// frontier, and no loop header other than the one wanted.
    fn needs_phi(&self, blk: BlockId) -> bool {
        self.idf[blk.index()] == self.idf_serial
            && (!self.loop_header[blk.index()] || self.wanted_header == Some(blk))
    }

    /// The variable's phi at `blk`, made (without operands yet) on first use.
    fn phi(&mut self, b: &mut Builder, blk: BlockId, ty: Type) -> SsaDef {
        if self.phi_at[blk.index()] == self.serial {
            if let Some(p) = self.phi_val[blk.index()] {
                return p;
            }
        }
        let p = b.add_after(self.cfg.label(blk), Op::new(OpCode::Phi, ty));
        self.phi_at[blk.index()] = self.serial;
        self.phi_val[blk.index()] = Some(p);
        self.pending.push((blk, p));
        self.made.push((p, blk));
        p
    }

    /// Gives the phis made so far their operands (which may make more phis).
    fn finish(&mut self, b: &mut Builder, shared: &mut Shared, ty: Type) {
        while let Some((blk, p)) = self.pending.pop() {
            let mut op = Op::new(OpCode::Phi, ty);
            for i in 0..self.cfg.preds(blk).len() {
                let pred = self.cfg.preds(blk)[i];
                let v = if self.dom.is_reachable(pred) {
                    self.end(b, shared, pred, ty)
                } else {
                    shared.undef(b, ty)
                };
                op = op.with_ref(self.cfg.label(pred)).with_ref(v);
            }
            b.rewrite(p, op);
        }
    }

    /// Removes the phis made whose operands are one value besides themselves and `Undef`s,
    /// when that value dominates them (or all `Undef`: the phi becomes `Undef`), and then the
    /// phis that used them and became so.
    fn remove_trivial_phis(&mut self, b: &mut Builder, shared: &mut Shared) {
        let mut made_block = vec![NONE; b.id_bound()];
        for &(p, blk) in &self.made {
            made_block[p.index()] = blk.0;
        }
        let mut work: Vec<SsaDef> = self.made.iter().map(|&(p, _)| p).collect();
        while let Some(p) = work.pop() {
            let Some(op) = b.get(p) else { continue };
            if op.opcode != OpCode::Phi {
                continue;
            }
            let blk = BlockId(made_block[p.index()]);
            let mut value: Option<SsaDef> = None;
            let mut unique = true;
            for c in op.operands.chunks(2) {
                let Some(v) = c.get(1).and_then(|v| v.def()) else {
                    continue;
                };
                let undef = b.get(v).is_some_and(|o| o.opcode == OpCode::Undef);
                if v == p || undef {
                    continue;
                }
                match value {
                    None => value = Some(v),
                    Some(w) if w == v => {}
                    Some(_) => unique = false,
                }
            }
            if !unique {
                continue;
            }
            let replacement = match value {
                None => shared.undef(b, op.ty),
                Some(v) => {
                    let vb = match made_block.get(v.index()).copied() {
                        Some(x) if x != NONE => Some(BlockId(x)),
                        _ => self.cfg.block_of(v),
                    };
                    if vb.is_some_and(|vb| vb == blk || !self.dom.dominates(vb, blk)) {
                        continue;
                    }
                    v
                }
            };
            let users: Vec<SsaDef> = b.uses(p).map(|u| u.user).collect();
            b.replace_uses(p, replacement);
            b.remove(p);
            for user in users {
                if made_block.get(user.index()).is_some_and(|&x| x != NONE) {
                    work.push(user);
                }
            }
        }
    }
}
