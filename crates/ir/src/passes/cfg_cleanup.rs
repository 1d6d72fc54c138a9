//! `cfg_cleanup`: removes unreachable blocks and bypasses empty blocks, keeping the structured
//! constructs intact.
//!
//! # Algorithm
//! Three linear steps, each on a freshly built [`Cfg`]:
//!
//! 1. **Bypass empty blocks.** A reachable block that is only `Label None` + `Branch %t`, is no
//!    function entry, is not named by any construct (merge block or continue target), and whose
//!    target has no phis, is *forwardable* (chains of them are followed to their end, with a
//!    cycle guard). A branch into such a block is redirected to the final target when that keeps
//!    the construct rules of SPIR-V: from a plain block (`Label None`) always; from a selection
//!    header only when the final target is the header's own merge block (an empty then, else or
//!    case body). Loop headers keep their body block, and a switch keeps a case target that
//!    another case falls through to.
//! 2. **Remove unreachable blocks.** Blocks no path from the entry reaches are deleted with
//!    everything in them (and the debug names of what they define), except those a reachable
//!    construct names: an unreachable merge block is reduced to `Label None` + `Unreachable`,
//!    an unreachable continue target to `Label None` + `Branch %header` (SPIR-V needs both to
//!    exist).
//! 3. **Fix phis.** Every remaining phi gets exactly one operand per predecessor: operands from
//!    blocks that are no longer predecessors are dropped, unreachable predecessors contribute
//!    `Undef`. A phi left with a single distinct value (besides itself) is replaced by it, and
//!    the phis using it are checked again (a worklist).
//!
//! Removing phis can make further blocks empty, so the three steps repeat until nothing changes
//! (at most a few rounds).

use crate::census::Counted;
use crate::fxhash::FxHashMap;

use crate::analysis::cfg::{BlockId, Cfg};
use crate::builder::Builder;
use crate::enums::Construct;
use crate::op::{Op, Operand, SsaDef};
use crate::opcode::OpCode;
use crate::passes::error::PassError;
use crate::passes::util::{phi_value, PhiValue};
use crate::types::Type;

const PASS: &str = "cfg_cleanup";
const NONE: u32 = u32::MAX;
/// Most rounds of the three steps per run (each round is linear).
const MAX_ROUNDS: usize = 8;

/// Runs CFG cleanup. Returns whether anything changed.
pub fn run(b: &mut Builder) -> Result<bool, PassError> {
    run_with_cfg(b, None)
}

/// [`run`] starting from `cfg` if given: a [`Cfg`] built from `b` earlier, with no block,
/// label or terminator added, removed or changed since (ops inside blocks may have changed).
/// The pipeline passes the one CSE built, saving a rebuild.
pub fn run_with_cfg(b: &mut Builder, cfg: Option<Cfg>) -> Result<bool, PassError> {
    let valid = cfg.is_some();
    let mut cfg = cfg.unwrap_or_default();
    run_in_cfg(b, &mut cfg, valid)
}

/// [`run`] with `cfg` as the CFG buffer: used as it is if `valid` (then it must describe `b`
/// as [`run_with_cfg`] requires), else rebuilt first; rebuilt in place whenever blocks change,
/// so a caller that keeps `cfg` between compiles allocates nothing for it. On return `cfg` may
/// be out of date.
pub fn run_in_cfg(b: &mut Builder, cfg: &mut Cfg, valid: bool) -> Result<bool, PassError> {
    if b.census().has(Counted::Scoped) {
        return Err(PassError::invalid(
            PASS,
            None,
            "scoped control flow must be lowered first",
        ));
    }
    let mut changed = false;
    if !valid {
        cfg.rebuild(b)?;
    }
    // Removing phis can make more blocks empty and bypassable: repeat while phis go (rarely
    // more than twice). The CFG is rebuilt only after a step changed blocks or branches.
    for _ in 0..MAX_ROUNDS {
        let (bypassed, collapsed) = bypass_empty_blocks(b, cfg);
        if bypassed {
            changed = true;
            cfg.rebuild(b)?;
        }
        if remove_unreachable(b, cfg)? {
            changed = true;
            cfg.rebuild(b)?;
        }
        let (phis_changed, phis_removed) = fix_phis(b, cfg);
        changed |= phis_changed;
        // A collapsed header is a plain block now, maybe an empty one to bypass.
        if !phis_removed && !collapsed {
            break;
        }
    }
    Ok(changed)
}

/// Labels named by reachable construct headers: 1 = merge block, 2 = continue target (with the
/// header it belongs to).
fn structural_refs(b: &Builder, cfg: &Cfg) -> FxHashMap<SsaDef, (u8, SsaDef)> {
    let mut refs = FxHashMap::default();
    for &blk in cfg.rpo() {
        let l = cfg.label(blk);
        let Some(op) = b.get(l) else { continue };
        match op.construct() {
            Some(Construct::StructuredSelection) => {
                if let Some(m) = op.arg(0) {
                    refs.entry(m).or_insert((1, l));
                }
            }
            Some(Construct::StructuredLoop) => {
                if let Some(m) = op.arg(0) {
                    refs.entry(m).or_insert((1, l));
                }
                if let Some(c) = op.arg(1) {
                    refs.insert(c, (2, l));
                }
            }
            _ => {}
        }
    }
    refs
}

fn is_named_by_construct(b: &Builder, label: SsaDef) -> bool {
    b.uses(label).any(|u| {
        b.get(u.user)
            .is_some_and(|op| op.opcode == OpCode::Label && u.operand < op.ref_count())
    })
}

/// Returns whether anything changed, and whether a conditional branch was collapsed.
fn bypass_empty_blocks(b: &mut Builder, cfg: &Cfg) -> (bool, bool) {
    let n = cfg.len();
    // Per block, in one allocation: the forwarding target (block number, NONE if the block is
    // not forwardable), the final target of its chain, and the chain walk's cycle mark.
    // Inline for up to 16 blocks: most shaders have a handful.
    let mut tables: smallvec::SmallVec<[u32; 48]> = smallvec::smallvec![NONE; 3 * n];
    let (fwd, rest) = tables.split_at_mut(n);
    let (fin, mark) = rest.split_at_mut(n);
    for blk in cfg.blocks() {
        if !cfg.is_reachable(blk) || cfg.is_entry(blk) {
            continue;
        }
        let l = cfg.label(blk);
        let term = cfg.terminator(blk);
        let plain = b.get(l).and_then(Op::construct) == Some(Construct::None);
        if !plain || b.next(l) != Some(term) || is_named_by_construct(b, l) {
            continue;
        }
        let Some(op) = b.get(term) else { continue };
        if op.opcode != OpCode::Branch {
            continue;
        }
        let Some(t) = op.arg(0).and_then(|t| cfg.block_of_label(t)) else {
            continue;
        };
        let target_has_phi = b
            .next(cfg.label(t))
            .and_then(|d| b.get(d))
            .is_some_and(|o| o.opcode == OpCode::Phi);
        if t != blk && !target_has_phi {
            fwd[blk.index()] = t.0;
        }
    }
    // A switch's case target that another block falls through to stays: bypassing it would
    // leave the fall-through edge leading into no case, or the target after its only
    // remaining predecessor.
    for blk in cfg.blocks() {
        let term = cfg.terminator(blk);
        let Some(op) = b.get(term).filter(|o| o.opcode == OpCode::Switch) else {
            continue;
        };
        for i in (1..op.operands.len()).step_by(2) {
            let Some(t) = op.operands[i].def().and_then(|t| cfg.block_of_label(t)) else {
                continue;
            };
            if cfg.preds(t).iter().any(|&p| p != blk) {
                fwd[t.index()] = NONE;
            }
        }
    }
    // Follow chains to their final target; a cycle of empty blocks stays as it is.
    let mut path = Vec::new();
    for start in 0..n {
        if fwd[start] == NONE || fin[start] != NONE {
            continue;
        }
        let mut cur = start;
        path.clear();
        while fwd[cur] != NONE && fin[cur] == NONE && mark[cur] != start as u32 {
            mark[cur] = start as u32;
            path.push(cur);
            cur = fwd[cur] as usize;
        }
        let end = if fwd[cur] == NONE {
            cur as u32
        } else if fin[cur] != NONE {
            fin[cur]
        } else {
            NONE
        };
        for &p in &path {
            fin[p] = if end == NONE { NONE } else { end };
            if end == NONE {
                fwd[p] = NONE;
            }
        }
    }
    let mut changed = false;
    let mut collapsed = false;
    for blk in cfg.blocks() {
        if !cfg.is_reachable(blk) {
            continue;
        }
        let Some(label_op) = b.get(cfg.label(blk)) else {
            continue;
        };
        let merge = match label_op.construct() {
            Some(Construct::None) => None,
            Some(Construct::StructuredSelection) => label_op.arg(0),
            _ => continue,
        };
        let plain = merge.is_none();
        let term = cfg.terminator(blk);
        let Some(op) = b.get(term) else { continue };
        // The target operands: first, step.
        let (first, step) = match op.opcode {
            OpCode::Branch => (0, 1),
            OpCode::BranchConditional => (1, 1),
            OpCode::Switch => (1, 2),
            _ => continue,
        };
        let end = match op.opcode {
            OpCode::Branch => 1,
            OpCode::BranchConditional => 3,
            _ => op.operands.len(),
        };
        let mut edits: smallvec::SmallVec<[(usize, SsaDef); 4]> = smallvec::SmallVec::new();
        for i in (first..end).step_by(step) {
            let Some(t) = op.operands.get(i).and_then(|o| o.def()) else {
                continue;
            };
            let Some(tb) = cfg.block_of_label(t) else {
                continue;
            };
            let f = fin[tb.index()];
            if fwd[tb.index()] == NONE || f == NONE {
                continue;
            }
            let final_label = cfg.label(BlockId(f));
            if plain || merge == Some(final_label) {
                edits.push((i, final_label));
            }
        }
        for (i, l) in edits {
            b.set_operand(term, i, Operand::from_def(l));
            changed = true;
        }
        if collapse_same_target_branch(b, cfg.label(blk), term) {
            changed = true;
            collapsed = true;
        }
    }
    (changed, collapsed)
}

/// A conditional branch whose two targets are one block (both arms of an `if` emptied and
/// bypassed) becomes an unconditional branch, and a selection header ending in it a plain
/// block: SPIR-V 1.6 forbids equal true and false labels, and a header must end in a
/// conditional branch or switch.
/// Returns whether it changed anything.
fn collapse_same_target_branch(b: &mut Builder, label: SsaDef, term: SsaDef) -> bool {
    let Some(op) = b.get(term) else { return false };
    if op.opcode != OpCode::BranchConditional {
        return false;
    }
    let (Some(t), Some(f)) = (op.arg(1), op.arg(2)) else {
        return false;
    };
    if t != f {
        return false;
    }
    b.rewrite(term, Op::new(OpCode::Branch, Type::VOID).with_ref(t));
    if b.get(label).and_then(Op::construct) == Some(Construct::StructuredSelection) {
        b.rewrite(
            label,
            Op::new(OpCode::Label, Type::VOID).with_lit(Construct::None.to_literal()),
        );
    }
    true
}

/// Step 2 alone, on a CFG built here: for `scoped_to_structured`, whose dead code would
/// otherwise break the back-edge rules until this pass runs.
pub(crate) fn remove_unreachable_blocks(b: &mut Builder) -> Result<bool, PassError> {
    let mut cfg = Cfg::default();
    cfg.rebuild(b)?;
    remove_unreachable(b, &cfg)
}

fn remove_unreachable(b: &mut Builder, cfg: &Cfg) -> Result<bool, PassError> {
    if cfg.blocks().all(|blk| cfg.is_reachable(blk)) {
        return Ok(false);
    }
    let refs = structural_refs(b, cfg);
    let mut changed = false;
    for blk in cfg.blocks() {
        if cfg.is_reachable(blk) {
            continue;
        }
        let label = cfg.label(blk);
        let term = cfg.terminator(blk);
        let keep = refs.get(&label).copied();
        // Collect the block's ops: label to terminator.
        let mut ops = Vec::new();
        let mut cur = Some(label);
        while let Some(d) = cur {
            ops.push(d);
            if d == term {
                break;
            }
            cur = b.next(d);
        }
        let new_term = match keep {
            None => None,
            Some((2, header)) => Some(Op::new(OpCode::Branch, Type::VOID).with_ref(header)),
            Some(_) => Some(Op::new(OpCode::Unreachable, Type::VOID)),
        };
        if let Some(t) = &new_term {
            let is_reduced = ops.len() == 2
                && b.get(label).and_then(Op::construct) == Some(Construct::None)
                && b.get(term) == Some(t);
            if is_reduced {
                continue;
            }
        }
        changed = true;
        // Debug names of anything removed go too.
        let removed: Vec<SsaDef> = match &new_term {
            None => ops.clone(),
            Some(_) => ops.iter().copied().filter(|&d| d != label).collect(),
        };
        for &d in &removed {
            let debug: Vec<SsaDef> = b
                .uses(d)
                .filter(|u| b.get(u.user).is_some_and(|o| o.opcode.is_annotation()))
                .map(|u| u.user)
                .collect();
            for u in debug {
                b.remove(u);
            }
        }
        match new_term {
            None => {
                for d in removed {
                    b.remove(d);
                }
            }
            Some(t) => {
                b.rewrite(
                    label,
                    Op::new(OpCode::Label, Type::VOID).with_lit(Construct::None.to_literal()),
                );
                b.add_after(term, t);
                for d in removed {
                    b.remove(d);
                }
            }
        }
    }
    Ok(changed)
}

fn fix_phis(b: &mut Builder, cfg: &Cfg) -> (bool, bool) {
    let mut changed = false;
    let mut removed = false;
    let mut undefs: FxHashMap<Type, SsaDef> = FxHashMap::default();
    let mut work = Vec::new();
    for blk in cfg.blocks() {
        let preds = cfg.preds(blk);
        let mut cur = b.next(cfg.label(blk));
        while let Some(phi) = cur {
            let Some(op) = b.get(phi) else { break };
            if op.opcode != OpCode::Phi {
                break;
            }
            cur = b.next(phi);
            let op = op.clone();
            let ty = op.ty;
            let mut new_op = Op::new(OpCode::Phi, ty).with_flags(op.flags);
            for &p in preds {
                let l = cfg.label(p);
                // Linear search: phis have few operands, and this avoids a map per phi.
                let incoming = op
                    .operands
                    .chunks(2)
                    .find(|pair| pair.first().and_then(|o| o.def()) == Some(l))
                    .and_then(|pair| pair.get(1).and_then(|o| o.def()));
                let v = match incoming {
                    Some(v)
                        if b.get(v)
                            .is_some_and(|o| cfg.is_reachable(p) || o.opcode == OpCode::Undef) =>
                    {
                        v
                    }
                    _ => *undefs
                        .entry(ty)
                        .or_insert_with(|| b.add_decl(Op::new(OpCode::Undef, ty))),
                };
                new_op = new_op.with_ref(l).with_ref(v);
            }
            if preds.is_empty() {
                let u = *undefs
                    .entry(ty)
                    .or_insert_with(|| b.add_decl(Op::new(OpCode::Undef, ty)));
                b.replace_uses(phi, u);
                b.remove(phi);
                changed = true;
                removed = true;
                continue;
            }
            if new_op != op {
                b.rewrite(phi, new_op);
                changed = true;
            }
            work.push(phi);
        }
    }
    // Phis left with one distinct value (besides themselves) are replaced by it; the phis
    // using them are checked again.
    while let Some(phi) = work.pop() {
        let Some(op) = b.get(phi) else { continue };
        if op.opcode != OpCode::Phi {
            continue;
        }
        let ty = op.ty;
        let value = match phi_value(op, phi, phi) {
            PhiValue::Several => continue,
            PhiValue::Only(v) => v,
            PhiValue::Nothing => *undefs
                .entry(ty)
                .or_insert_with(|| b.add_decl(Op::new(OpCode::Undef, ty))),
        };
        for u in b.uses(phi) {
            if u.user != phi && b.get(u.user).is_some_and(|o| o.opcode == OpCode::Phi) {
                work.push(u.user);
            }
        }
        b.replace_uses(phi, value);
        b.remove(phi);
        changed = true;
        removed = true;
    }
    (changed, removed)
}
