//! Marks descriptor loads whose index differs between invocations `NonUniform`, where the
//! shader forgot to.
//!
//! Direct3D requires `NonUniformResourceIndex` around a descriptor index that is not the same
//! for every invocation that runs together; without it the result is undefined, and on real
//! hardware such a load reads the descriptor of one invocation for all of them. Games get this
//! wrong, and translation layers carry per-game workarounds that force every index
//! non-uniform. This pass does it only where it matters: it runs the [`Divergence`] analysis
//! and sets [`OpFlags::NON_UNIFORM`] on each `DescriptorLoad` whose index the analysis finds
//! divergent. A uniform index stays as it was (non-uniform access costs a loop on some
//! hardware), and a shader without a run-time descriptor index is not analysed at all.
//!
//! It is off by default ([`crate::passes::options::Options::infer_non_uniform`]): Direct3D's
//! rule makes the frontends' flags correct for conforming shaders.

use crate::analysis::{Cfg, Divergence, DominatorTree};
use crate::op::{OpFlags, SsaDef};
use crate::opcode::OpCode;
use crate::passes::error::PassError;
use crate::Builder;

/// The descriptor loads with a run-time index not yet marked non-uniform.
fn candidates(b: &Builder) -> Vec<SsaDef> {
    b.iter()
        .filter(|(_, op)| {
            op.opcode == OpCode::DescriptorLoad
                && !op.flags.contains(OpFlags::NON_UNIFORM)
                && op
                    .arg(1)
                    .and_then(|i| b.get(i))
                    .is_some_and(|i| i.opcode != OpCode::Constant)
        })
        .map(|(def, _)| def)
        .collect()
}

/// Runs the pass on lowered IR; returns whether a load was marked.
pub fn run(b: &mut Builder) -> Result<bool, PassError> {
    let loads = candidates(b);
    if loads.is_empty() {
        return Ok(false);
    }
    let cfg = Cfg::build(b)?;
    let dom = DominatorTree::build(&cfg);
    let div = Divergence::analyze(b, &cfg, &dom);
    let mut changed = false;
    for load in loads {
        let Some(op) = b.get(load) else { continue };
        let index = op.arg(1);
        let flags = op.flags;
        if index.is_some_and(|i| !div.is_uniform(i)) {
            b.set_flags(load, flags | OpFlags::NON_UNIFORM);
            changed = true;
        }
    }
    Ok(changed)
}
