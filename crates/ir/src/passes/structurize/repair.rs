//! Keeps the program's values and phis right after the blocks changed.
//!
//! Restructuring keeps every original block and the order in which they run, but the merge
//! blocks, guards and loop blocks it adds change predecessors and dominance:
//!
//! - A phi whose block has other predecessors now (a loop header entered from its new header
//!   block, a join reached through a dispatch) becomes a temporary: each original predecessor
//!   stores its value at its end, the phi's block loads it. This is right because between a
//!   predecessor and the block only new blocks run, which store nothing but the route.
//! - A value whose definition no longer dominates a use (the paths through a dispatch block
//!   join paths that did not run the definition; they never reach the use, but the graph does
//!   not know) also becomes a temporary: stored after its definition, loaded at each such use.
//!
//! `ssa_construction` then turns these temporaries into SSA values and phis, with `Undef`
//! only on the paths that never run. Dominance is one O(1) query per use, so the repair is
//! linear. A value of a descriptor type cannot live in a temporary (SPIR-V has no phi of
//! images); that case is an error naming the value.

use crate::analysis::{BlockId, Cfg, DominatorTree};
use crate::builder::Builder;
use crate::op::{Op, Operand, SsaDef};
use crate::opcode::OpCode;
use crate::passes::error::PassError;
use crate::passes::util::insertion_point_after;
use crate::types::Type;

use super::{Shared, NONE, PASS};

/// Repairs the values of the blocks in `cfg` (the structured functions only) whose original
/// phis are `phis`.
pub(super) fn repair(
    b: &mut Builder,
    cfg: &Cfg,
    dom: &DominatorTree,
    phis: &[SsaDef],
    shared: &mut Shared,
) -> Result<(), PassError> {
    // Phis of blocks whose predecessors changed.
    let mut mark = vec![NONE; cfg.len()];
    for (serial, &phi) in phis.iter().enumerate() {
        let Some(op) = b.get(phi) else { continue };
        let Some(blk) = cfg.block_of(phi) else {
            return Err(PassError::invalid(PASS, phi, "phi outside a block"));
        };
        let preds = cfg.preds(blk);
        for &p in preds {
            mark[p.index()] = serial as u32;
        }
        let pairs = op.operands.len() / 2;
        let same = pairs == preds.len()
            && op.operands.chunks(2).all(|c| {
                c[0].def()
                    .and_then(|l| cfg.block_of_label(l))
                    .is_some_and(|p| mark[p.index()] == serial as u32)
            });
        if !same {
            demote_phi(b, cfg, phi, shared)?;
        }
    }
    // The block of every op, new ones included.
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
    // Uses their definitions no longer dominate.
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
            for u in b.uses(def) {
                let Some(user) = b.get(u.user) else { continue };
                let mut ub = blk_of(u.user);
                if user.opcode == OpCode::Phi {
                    ub = user
                        .operands
                        .get(u.operand.wrapping_sub(1))
                        .and_then(|l| l.def())
                        .map_or(NONE, blk_of);
                }
                if ub == NONE || ub == blk.0 || !dom.is_reachable(BlockId(ub)) {
                    continue;
                }
                if !dom.dominates(blk, BlockId(ub)) {
                    broken.push((def, u.user, u.operand, ub));
                }
            }
            d = b.next(def);
        }
    }
    let mut i = 0;
    while i < broken.len() {
        let def = broken[i].0;
        let ty = b.op(def).ty;
        let tmp = temporary(b, shared, def, ty)?;
        let at = insertion_point_after(b, def);
        b.add_after(
            at,
            Op::new(OpCode::TmpStore, Type::VOID)
                .with_ref(tmp)
                .with_ref(def),
        );
        while i < broken.len() && broken[i].0 == def {
            let (_, user, operand, ub) = broken[i];
            let pos = if b.op(user).opcode == OpCode::Phi {
                cfg.terminator(BlockId(ub))
            } else {
                user
            };
            let load = b.add_before(pos, Op::new(OpCode::TmpLoad, ty).with_ref(tmp));
            b.set_operand(user, operand, Operand::from_def(load));
            i += 1;
        }
    }
    Ok(())
}

/// A temporary for `value` of type `ty`.
fn temporary(
    b: &mut Builder,
    shared: &mut Shared,
    value: SsaDef,
    ty: Type,
) -> Result<SsaDef, PassError> {
    if ty.is_void() || ty.members().iter().any(|m| m.base().is_descriptor()) {
        return Err(PassError::invalid(
            PASS,
            value,
            format!(
                "a value of type {ty} is used where its definition no longer dominates after \
                 structuring, and that type cannot be carried in a temporary"
            ),
        ));
    }
    Ok(shared.temporary(b, ty))
}

/// Replaces `phi` by a temporary: stores at the ends of its predecessors, a load at its place.
fn demote_phi(
    b: &mut Builder,
    cfg: &Cfg,
    phi: SsaDef,
    shared: &mut Shared,
) -> Result<(), PassError> {
    let op = b.op(phi).clone();
    let tmp = temporary(b, shared, phi, op.ty)?;
    for c in op.operands.chunks(2) {
        let (Some(l), Some(v)) = (c[0].def(), c.get(1).and_then(|v| v.def())) else {
            return Err(PassError::invalid(PASS, phi, "phi operand is null"));
        };
        let pred = cfg
            .block_of_label(l)
            .ok_or_else(|| PassError::invalid(PASS, phi, format!("{l} is not a block")))?;
        b.add_before(
            cfg.terminator(pred),
            Op::new(OpCode::TmpStore, Type::VOID)
                .with_ref(tmp)
                .with_ref(v),
        );
    }
    let at = insertion_point_after(b, phi);
    let load = b.add_after(at, Op::new(OpCode::TmpLoad, op.ty).with_ref(tmp));
    b.replace_uses(phi, load);
    b.remove(phi);
    Ok(())
}
