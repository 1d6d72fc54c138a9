//! `ssa_construction`: replaces the `DclTmp` registers and their `TmpLoad`/`TmpStore` ops by
//! SSA values and `Phi`s.
//!
//! # Algorithm
//! Braun, Buchwald, Hack, Leißa, Mallon and Zwinkau, "Simple and Efficient Construction of
//! Static Single Assignment Form" (CC 2013), on the structured CFG ([`Cfg`]):
//!
//! - Blocks are filled in program order. Within a block, a `TmpStore` records the stored value
//!   as the register's current definition in that block and a `TmpLoad` is replaced by the
//!   current definition (local value numbering); both ops are removed.
//! - A load with no definition in its block looks through the predecessors (global value
//!   numbering). A block with one predecessor asks that one; a block with several gets a phi
//!   whose operands are the predecessors' definitions; a block with none yields `Undef`, and so
//!   does a block no path from the entry reaches (its blocks need not come in dominance order).
//! - A block is *sealed* once all its predecessors are filled (a loop header once its continue
//!   block is filled). A lookup in an unsealed block creates an operand-less *incomplete* phi,
//!   completed when the block is sealed.
//! - A phi whose operands are all itself or one value `v` is *trivial*: its uses are replaced by
//!   `v` (or `Undef` if there is none), it is removed, and the phis that used it are checked
//!   again.
//!
//! No dominance frontiers are computed and nothing is walked more than a constant number of
//! times per lookup, so the pass is linear in practice. The paper's recursions (along
//! single-predecessor chains, into predecessors for phi operands, and the re-check of phi users)
//! are explicit work stacks here, so long chains or deep nesting cannot overflow the call stack.
//! Definitions recorded for a block are stored in a hash map keyed by (register, block);
//! replaced phis are tracked in a forwarding table so stale entries resolve to the current value.
//!
//! Phis and `Undef`s take the type of the `DclTmp` (possibly `Unknown`; typing is a later pass).
//! Registers are local to each function: at a function's entry every register is undefined.

use crate::census::Counted;
use crate::fxhash::FxHashMap;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use smallvec::SmallVec;

use crate::analysis::cfg::{BlockId, Cfg};
use crate::builder::Builder;
use crate::op::{Op, SsaDef};
use crate::opcode::OpCode;
use crate::passes::error::PassError;
use crate::passes::util::{insertion_point_after, replace_and_remove};
use crate::types::Type;

const PASS: &str = "ssa_construction";
const NONE: u32 = u32::MAX;

/// Runs SSA construction. Returns whether anything changed.
pub fn run(b: &mut Builder) -> Result<bool, PassError> {
    run_with_scratch(b, &mut Scratch::default())
}

/// [`run`] with caller-kept buffers.
pub fn run_with_scratch(b: &mut Builder, scratch: &mut Scratch) -> Result<bool, PassError> {
    run_counting_with(b, scratch).map(|(changed, _)| changed)
}

/// Like [`run`], and also returns the number of elementary work steps taken (ops visited, lookup
/// steps, phi operands, trivial-phi checks): a machine-independent measure for tests that check
/// the pass stays linear.
pub fn run_counting(b: &mut Builder) -> Result<(bool, u64), PassError> {
    run_counting_with(b, &mut Scratch::default())
}

/// The buffers of a run (CFG, lookup tables, work stacks), kept by callers that compile many
/// programs (the pipeline's workspace) so that later runs allocate nothing.
#[derive(Default)]
pub struct Scratch {
    cfg: Cfg,
    /// Whether the last run built `cfg` and succeeded.
    cfg_built: bool,
    var_of: Vec<u32>,
    var_def: Vec<SsaDef>,
    tmp_ops: Vec<SsaDef>,
    unfilled: Vec<u32>,
    tables: Tables,
}

/// The lookup state of [`Ssa`], kept in [`Scratch`] between runs.
#[derive(Default)]
struct Tables {
    var_ty: Vec<Type>,
    defs: HashMap<u64, SsaDef, BuildHasherDefault<KeyHasher>>,
    sealed: Vec<bool>,
    incomplete: Vec<Vec<(u32, SsaDef)>>,
    forward: Vec<u32>,
    pending: Vec<bool>,
    mark: Vec<u32>,
    undefs: FxHashMap<Type, SsaDef>,
    chain: Vec<BlockId>,
    frames: Vec<Frame>,
    work: Vec<SsaDef>,
}

/// [`run_counting`] with caller-kept buffers.
fn run_counting_with(b: &mut Builder, scratch: &mut Scratch) -> Result<(bool, u64), PassError> {
    let bound = b.id_bound();
    let Scratch {
        cfg,
        cfg_built,
        var_of,
        var_def,
        tmp_ops,
        unfilled,
        tables,
    } = scratch;
    *cfg_built = false;
    let census = b.census();
    if !census.has(Counted::Temporary) && !census.has(Counted::Scoped) {
        // Nothing to do and nothing to refuse: the walk below would find exactly that, in
        // one step per op.
        return Ok((false, b.len() as u64));
    }
    var_of.clear();
    var_of.resize(bound, NONE);
    let mut var_ty = std::mem::take(&mut tables.var_ty);
    var_ty.clear();
    var_def.clear();
    tmp_ops.clear();
    let mut steps = 0u64;
    for (def, op) in b.iter() {
        steps += 1;
        match op.opcode {
            OpCode::DclTmp => {
                var_of[def.index()] = var_ty.len() as u32;
                var_ty.push(op.ty);
                var_def.push(def);
            }
            OpCode::TmpLoad | OpCode::TmpStore => tmp_ops.push(def),
            o if o.is_scoped() => {
                return Err(PassError::invalid(
                    PASS,
                    def,
                    "scoped control flow must be lowered before SSA construction",
                ))
            }
            _ => {}
        }
    }
    if var_def.is_empty() && tmp_ops.is_empty() {
        tables.var_ty = var_ty;
        return Ok((false, steps));
    }
    cfg.rebuild(b)?;
    let cfg = &*cfg;
    let mut ssa = Ssa::new(
        cfg,
        var_ty,
        std::mem::take(tables),
        bound,
        tmp_ops.len(),
        steps,
    );
    unfilled.clear();
    unfilled.extend(cfg.blocks().map(|blk| cfg.preds(blk).len() as u32));
    for blk in cfg.blocks() {
        if unfilled[blk.index()] == 0 {
            ssa.sealed[blk.index()] = true;
        }
    }
    let mut next_op = 0usize;
    for blk in cfg.blocks() {
        while let Some(&def) = tmp_ops.get(next_op) {
            let Some(op_blk) = cfg.block_of(def) else {
                return Err(PassError::invalid(
                    PASS,
                    def,
                    "temporary access outside a block",
                ));
            };
            if op_blk != blk {
                break;
            }
            next_op += 1;
            ssa.steps += 1;
            let op = b
                .get(def)
                .ok_or_else(|| PassError::invalid(PASS, def, "op is not live"))?;
            let var = op
                .arg(0)
                .map_or(NONE, |d| var_of.get(d.index()).copied().unwrap_or(NONE));
            if var == NONE {
                return Err(PassError::invalid(PASS, def, "operand is not a DclTmp"));
            }
            if op.opcode == OpCode::TmpStore {
                let value = op
                    .arg(1)
                    .ok_or_else(|| PassError::invalid(PASS, def, "TmpStore without a value"))?;
                ssa.write(var, blk, value);
                // Only debug ops can name a store (it has no value); they go with it.
                let named: SmallVec<[SsaDef; 2]> = b.uses(def).map(|u| u.user).collect();
                for u in named {
                    b.remove(u);
                }
                b.remove(def);
            } else {
                let load_ty = op.ty;
                let value = ssa.read(b, var, blk)?;
                // Temporaries are untyped: a load read directly by an op that interprets it
                // (not retyped by ConsumeAs first) reinterprets the stored bits, so it becomes
                // a ConsumeAs of the value when their types differ. Uses that only move the
                // value (stores, phis, a select's values) are typed by resolve_types.
                let retype = b.get(value).is_some_and(|v| v.ty != load_ty)
                    && b.uses(def).any(|u| interprets(b, u.user, u.operand));
                if retype {
                    b.rewrite(def, Op::new(OpCode::ConsumeAs, load_ty).with_ref(value));
                } else {
                    // (A constant that lands in an address past its composite's end leaves
                    // no such address: see `replace_and_remove`.)
                    replace_and_remove(b, def, value);
                }
            }
        }
        for &s in cfg.succs(blk) {
            let u = &mut unfilled[s.index()];
            *u = u.saturating_sub(1);
            if *u == 0 && !ssa.sealed[s.index()] {
                ssa.seal(b, s)?;
            }
        }
    }
    if let Some(&def) = tmp_ops.get(next_op) {
        return Err(PassError::invalid(
            PASS,
            def,
            "temporary access outside a block",
        ));
    }
    for blk in cfg.blocks() {
        if !ssa.sealed[blk.index()] {
            ssa.seal(b, blk)?;
        }
    }
    let steps = ssa.steps;
    *tables = ssa.into_tables();
    for &d in var_def.iter() {
        let mut debug: SmallVec<[SsaDef; 4]> = SmallVec::new();
        for u in b.uses(d) {
            let user = b.get(u.user).map(|op| op.opcode);
            if user.is_some_and(OpCode::is_annotation) {
                debug.push(u.user);
            } else {
                return Err(PassError::invalid(
                    PASS,
                    u.user,
                    format!("uses the temporary {d} other than by TmpLoad/TmpStore"),
                ));
            }
        }
        for u in debug {
            b.remove(u);
        }
        b.remove(d);
    }
    *cfg_built = true;
    Ok((true, steps))
}

impl Scratch {
    /// The CFG the last run built, if it built one (the program had temporaries) and
    /// succeeded. Its blocks, labels, terminators and edges are the program's after the run:
    /// SSA construction adds phis and removes temporaries, never a block, label or
    /// terminator. Block numbers and positions of other ops are those from before the run.
    pub fn cfg(&mut self) -> Option<&mut Cfg> {
        self.cfg_built.then_some(&mut self.cfg)
    }
}

/// Hashes the packed (register, block) keys: one multiply, no SipHash.
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.write_u64(self.0 ^ u64::from(byte));
        }
    }

    fn write_u64(&mut self, n: u64) {
        let h = (n ^ self.0.rotate_left(5)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        self.0 = h ^ (h >> 32);
    }
}

/// A phi whose operands are being collected: the value of the register at the end of each
/// predecessor of `blk`, in predecessor order.
struct Frame {
    phi: SsaDef,
    var: u32,
    blk: BlockId,
    next: usize,
    vals: SmallVec<[SsaDef; 4]>,
}

struct Ssa<'a> {
    cfg: &'a Cfg,
    var_ty: Vec<Type>,
    /// Current definition of (register, block) at the end of what was filled so far.
    defs: HashMap<u64, SsaDef, BuildHasherDefault<KeyHasher>>,
    sealed: Vec<bool>,
    incomplete: Vec<Vec<(u32, SsaDef)>>,
    /// Per def id: the value a removed trivial phi was replaced by (0: not replaced).
    forward: Vec<u32>,
    /// Per def id: a phi whose operands are not all known yet.
    pending: Vec<bool>,
    /// Per block: the lookup that last walked through it (cycle guard on single-pred chains).
    mark: Vec<u32>,
    epoch: u32,
    undefs: FxHashMap<Type, SsaDef>,
    chain: Vec<BlockId>,
    frames: Vec<Frame>,
    work: Vec<SsaDef>,
    steps: u64,
}

fn key(var: u32, blk: BlockId) -> u64 {
    (u64::from(var) << 32) | u64::from(blk.0)
}

impl<'a> Ssa<'a> {
    /// The lookup state for `cfg`, in the buffers of `t` (every table reset); `bound` is the
    /// program's id bound, `accesses` the number of `TmpLoad`/`TmpStore` ops.
    fn new(
        cfg: &'a Cfg,
        var_ty: Vec<Type>,
        t: Tables,
        bound: usize,
        accesses: usize,
        steps: u64,
    ) -> Self {
        let n = cfg.len();
        let Tables {
            var_ty: _,
            mut defs,
            mut sealed,
            mut incomplete,
            mut forward,
            mut pending,
            mut mark,
            mut undefs,
            mut chain,
            mut frames,
            mut work,
        } = t;
        chain.clear();
        frames.clear();
        work.clear();
        defs.clear();
        // About one definition per access and block it is looked up through.
        defs.reserve(accesses);
        sealed.clear();
        sealed.resize(n, false);
        incomplete.truncate(n);
        for v in &mut incomplete {
            v.clear();
        }
        incomplete.resize_with(n, Vec::new);
        forward.clear();
        forward.resize(bound, 0);
        pending.clear();
        pending.resize(bound, false);
        mark.clear();
        mark.resize(n, 0);
        undefs.clear();
        Ssa {
            cfg,
            var_ty,
            defs,
            sealed,
            incomplete,
            forward,
            pending,
            mark,
            epoch: 0,
            undefs,
            chain,
            frames,
            work,
            steps,
        }
    }

    /// The buffers back, for the next run.
    fn into_tables(self) -> Tables {
        Tables {
            var_ty: self.var_ty,
            defs: self.defs,
            sealed: self.sealed,
            incomplete: self.incomplete,
            forward: self.forward,
            pending: self.pending,
            mark: self.mark,
            undefs: self.undefs,
            chain: self.chain,
            frames: self.frames,
            work: self.work,
        }
    }

    fn resolve(&mut self, mut d: SsaDef) -> SsaDef {
        let start = d;
        while let Some(next) = self.forward.get(d.index()).and_then(|&f| SsaDef::new(f)) {
            self.steps += 1;
            d = next;
        }
        // Path compression: point the start straight at the final value.
        if d != start {
            if let Some(f) = self.forward.get_mut(start.index()) {
                *f = d.id();
            }
        }
        d
    }

    fn set_forward(&mut self, d: SsaDef, to: SsaDef) {
        if self.forward.len() <= d.index() {
            self.forward.resize(d.index() + 1, 0);
        }
        self.forward[d.index()] = to.id();
    }

    fn is_pending(&self, d: SsaDef) -> bool {
        self.pending.get(d.index()).copied().unwrap_or(false)
    }

    fn set_pending(&mut self, d: SsaDef, v: bool) {
        if self.pending.len() <= d.index() {
            self.pending.resize(d.index() + 1, false);
        }
        self.pending[d.index()] = v;
    }

    fn write(&mut self, var: u32, blk: BlockId, value: SsaDef) {
        self.defs.insert(key(var, blk), value);
    }

    fn lookup(&mut self, var: u32, blk: BlockId) -> Option<SsaDef> {
        let d = *self.defs.get(&key(var, blk))?;
        Some(self.resolve(d))
    }

    fn ty(&self, var: u32) -> Type {
        self.var_ty.get(var as usize).copied().unwrap_or_default()
    }

    fn undef(&mut self, b: &mut Builder, ty: Type) -> SsaDef {
        *self
            .undefs
            .entry(ty)
            .or_insert_with(|| b.add_decl(Op::new(OpCode::Undef, ty)))
    }

    fn new_phi(&mut self, b: &mut Builder, var: u32, blk: BlockId) -> SsaDef {
        let ty = self.ty(var);
        let phi = b.add_after(self.cfg.label(blk), Op::new(OpCode::Phi, ty));
        self.set_pending(phi, true);
        self.write(var, blk, phi);
        phi
    }

    /// The value of `var` at the start of the reading op in `blk` (its current definition).
    fn read(&mut self, b: &mut Builder, var: u32, blk: BlockId) -> Result<SsaDef, PassError> {
        let mut frames = std::mem::take(&mut self.frames);
        let result = match self.start(b, var, blk, &mut frames) {
            Some(v) => Some(v),
            None => self.drive(b, &mut frames),
        };
        self.frames = frames;
        result.ok_or_else(|| PassError::invalid(PASS, self.cfg.label(blk), "lookup failed"))
    }

    /// Starts a lookup of `var` in `blk`: follows single-predecessor chains, and either finds a
    /// value or pushes a frame for a new phi whose operands still have to be read.
    fn start(
        &mut self,
        b: &mut Builder,
        var: u32,
        blk: BlockId,
        frames: &mut Vec<Frame>,
    ) -> Option<SsaDef> {
        let cfg = self.cfg;
        self.epoch = self.epoch.wrapping_add(1);
        let epoch = self.epoch;
        let mut chain = std::mem::take(&mut self.chain);
        chain.clear();
        let mut cur = blk;
        let result = loop {
            self.steps += 1;
            if let Some(v) = self.lookup(var, cur) {
                break Some(v);
            }
            // Code no path reaches reads nothing: its blocks need not come in dominance order,
            // so following its edges could reach a phi defined later in program order.
            if !cfg.is_reachable(cur) {
                let u = self.undef(b, self.ty(var));
                break Some(u);
            }
            if self.mark[cur.index()] == epoch {
                // A cycle of single-predecessor blocks without a definition: unreachable.
                let u = self.undef(b, self.ty(var));
                break Some(u);
            }
            self.mark[cur.index()] = epoch;
            if !self.sealed[cur.index()] {
                let phi = self.new_phi(b, var, cur);
                self.incomplete[cur.index()].push((var, phi));
                break Some(phi);
            }
            match cfg.preds(cur) {
                [] => {
                    let u = self.undef(b, self.ty(var));
                    self.write(var, cur, u);
                    break Some(u);
                }
                [single] => {
                    chain.push(cur);
                    cur = *single;
                }
                _ => {
                    let phi = self.new_phi(b, var, cur);
                    frames.push(Frame {
                        phi,
                        var,
                        blk: cur,
                        next: 0,
                        vals: SmallVec::new(),
                    });
                    break None;
                }
            }
        };
        let value = match (result, frames.last()) {
            (Some(v), _) => v,
            (None, Some(f)) => f.phi,
            (None, None) => {
                self.chain = chain;
                return None;
            }
        };
        for &c in &chain {
            self.steps += 1;
            self.write(var, c, value);
        }
        self.chain = chain;
        result
    }

    /// Completes the phi frames on `frames` (reading each predecessor, which may push further
    /// frames) until the bottom one is done; returns the bottom frame's value.
    fn drive(&mut self, b: &mut Builder, frames: &mut Vec<Frame>) -> Option<SsaDef> {
        let cfg = self.cfg;
        let mut ret: Option<SsaDef> = None;
        loop {
            self.steps += 1;
            let top = frames.last_mut()?;
            if let Some(v) = ret.take() {
                top.vals.push(v);
            }
            let preds = cfg.preds(top.blk);
            if let Some(&pred) = preds.get(top.next) {
                top.next += 1;
                let var = top.var;
                ret = self.start(b, var, pred, frames);
            } else {
                let frame = frames.pop()?;
                let v = self.finish_phi(b, frame);
                if frames.is_empty() {
                    return Some(v);
                }
                ret = Some(v);
            }
        }
    }

    /// Gives a phi its operands, then removes it if it is trivial. Returns its value.
    fn finish_phi(&mut self, b: &mut Builder, frame: Frame) -> SsaDef {
        let cfg = self.cfg;
        let ty = b.get(frame.phi).map_or(Type::VOID, |op| op.ty);
        let mut op = Op::new(OpCode::Phi, ty);
        for (&pred, &v) in cfg.preds(frame.blk).iter().zip(frame.vals.iter()) {
            self.steps += 1;
            let v = self.resolve(v);
            op = op.with_ref(cfg.label(pred)).with_ref(v);
        }
        b.rewrite(frame.phi, op);
        self.set_pending(frame.phi, false);
        self.remove_trivial(b, frame.phi)
    }

    /// Removes `phi` if it is trivial, then re-checks the phis that used it, and so on.
    /// Returns the value that now stands for `phi`.
    fn remove_trivial(&mut self, b: &mut Builder, phi: SsaDef) -> SsaDef {
        let mut work = std::mem::take(&mut self.work);
        work.clear();
        work.push(phi);
        while let Some(p) = work.pop() {
            self.steps += 1;
            if self.is_pending(p) {
                continue;
            }
            let Some(op) = b.get(p) else { continue };
            if op.opcode != OpCode::Phi {
                continue;
            }
            let ty = op.ty;
            let vals: SmallVec<[SsaDef; 8]> = op
                .operands
                .iter()
                .skip(1)
                .step_by(2)
                .filter_map(|o| o.def())
                .collect();
            let mut same = None;
            let mut trivial = true;
            for v in vals {
                self.steps += 1;
                let v = self.resolve(v);
                if v == p || same == Some(v) {
                    continue;
                }
                if same.is_some() {
                    trivial = false;
                    break;
                }
                same = Some(v);
            }
            if !trivial {
                continue;
            }
            let same = match same {
                Some(s) => s,
                None => self.undef(b, ty),
            };
            // Like a load (see `interprets`): where `same` has another type than the phi and
            // an op interprets the phi, the bits are reinterpreted after the block's phis.
            let mut to = same;
            if b.get(same).is_some_and(|v| v.ty != ty)
                && b.uses(p)
                    .any(|u| u.user != p && interprets(b, u.user, u.operand))
            {
                let pos = insertion_point_after(b, p);
                to = b.add_after(pos, Op::new(OpCode::ConsumeAs, ty).with_ref(same));
            }
            for u in b.uses(p) {
                self.steps += 1;
                if u.user != p && b.get(u.user).is_some_and(|o| o.opcode == OpCode::Phi) {
                    work.push(u.user);
                }
            }
            replace_and_remove(b, p, to);
            self.set_forward(p, same);
        }
        self.work = work;
        self.resolve(phi)
    }

    /// Marks `blk` sealed and completes its incomplete phis.
    fn seal(&mut self, b: &mut Builder, blk: BlockId) -> Result<(), PassError> {
        let mut frames = std::mem::take(&mut self.frames);
        while let Some((var, phi)) = self.incomplete[blk.index()].pop() {
            frames.push(Frame {
                phi,
                var,
                blk,
                next: 0,
                vals: SmallVec::new(),
            });
            if self.drive(b, &mut frames).is_none() {
                return Err(PassError::invalid(PASS, phi, "phi completion failed"));
            }
        }
        self.frames = frames;
        self.sealed[blk.index()] = true;
        Ok(())
    }
}

/// True if `user` interprets the value in operand `operand` (reads its bits as its own
/// type) rather than only moving it: stores, `ConsumeAs` (which retypes explicitly) and debug
/// ops move; so do phis and a select's values while their own type is still to be resolved
/// (a typed phi or select needs values of its type).
fn interprets(b: &Builder, user: SsaDef, operand: usize) -> bool {
    !b.get(user).is_some_and(|o| match o.opcode {
        OpCode::ConsumeAs | OpCode::TmpStore | OpCode::DebugName | OpCode::Semantic => true,
        OpCode::Phi => o.ty.has_unknown(),
        OpCode::Select => operand > 0 && o.ty.has_unknown(),
        _ => false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::parse;

    #[test]
    fn bad_input_is_an_error() {
        for text in [
            // TmpLoad of something that is not a DclTmp
            "%1 = Constant u32 0\n%2 = Function void\n%3 = Label None\n%4 = TmpLoad u32 %1\n%5 = Return void null\n%6 = FunctionEnd\n",
            // scoped control flow left
            "%1 = EntryPoint %3 Pixel\n%2 = DclTmp u32 %1\n%3 = Function void\n%4 = Label None\n%5 = ScopedLoop %6\n%6 = ScopedEndLoop %5\n%7 = Return void null\n%8 = FunctionEnd\n",
        ] {
            let mut b = parse(text).unwrap();
            let e = run(&mut b).unwrap_err();
            assert_eq!(e.pass(), PASS, "{e}");
        }
    }
}
