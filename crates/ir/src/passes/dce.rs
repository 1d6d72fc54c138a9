//! Dead code elimination: removes code ops whose results nothing live needs.
//!
//! Mark and sweep with a worklist, so dead cycles (a loop phi feeding only its own update)
//! go too. Roots are every op that is not removable ([`OpCode::is_removable`]) code:
//! declarations, control flow, stores, atomics, barriers, emits, `Demote`, calls and `Drain`.
//! Marking follows reference operands from the roots; every removable op left unmarked is
//! removed together with the annotations (`DebugName`, `DebugMemberName`, `Semantic`) that
//! name it. Annotations themselves are not roots: they keep nothing alive. Declarations (constants included) are left to
//! [`crate::passes::unused_declarations`].

use crate::op::SsaDef;
use crate::opcode::OpCode;
use crate::passes::error::PassError;
use crate::passes::util::remove_with_debug;
use crate::Builder;

/// True for the ops DCE may remove: removable code (declarations, even removable ones, are
/// left to [`crate::passes::unused_declarations`], which knows which are the interface).
#[inline]
fn removable(opcode: OpCode) -> bool {
    opcode.is_removable() && !opcode.is_declarative()
}

/// Runs dead code elimination; returns whether anything was removed.
pub fn run(b: &mut Builder) -> Result<bool, PassError> {
    run_with_scratch(b, &mut Scratch::default())
}

/// The buffers of a DCE run, kept by callers that run DCE several times (the pipeline) so
/// that later runs allocate nothing.
#[derive(Clone, Debug, Default)]
pub struct Scratch {
    live: Vec<bool>,
    work: Vec<SsaDef>,
    dead: Vec<SsaDef>,
}

/// [`run`] with caller-kept buffers.
pub fn run_with_scratch(b: &mut Builder, scratch: &mut Scratch) -> Result<bool, PassError> {
    let Scratch { live, work, dead } = scratch;
    live.clear();
    live.resize(b.id_bound(), false);
    work.clear();
    dead.clear();
    // Declarations are never removed here, and (in valid IR) refer to no code op but
    // functions and labels, which are roots anyway: only code needs marking and sweeping.
    // The removable ops are gathered on the way (in program order) and the live ones dropped
    // after marking: no second walk.
    let code = b.first_code();
    for (def, op) in code.into_iter().flat_map(|c| b.iter_from(c)) {
        if removable(op.opcode) {
            dead.push(def);
        } else if !op.opcode.is_annotation() {
            live[def.index()] = true;
            work.push(def);
        }
    }
    while let Some(def) = work.pop() {
        let Some(op) = b.get(def) else { continue };
        for r in op.refs().flatten() {
            if let Some(slot) = live.get_mut(r.index()) {
                if !*slot {
                    *slot = true;
                    work.push(r);
                }
            }
        }
    }
    dead.retain(|d| !live[d.index()]);
    for &def in dead.iter() {
        remove_with_debug(b, def);
    }
    Ok(!dead.is_empty())
}
