//! Removes declarations nothing uses any more.
//!
//! Removed when only debug ops refer to them: constants (`Constant`, `Undef`, `MinValue`,
//! `MaxValue` in the declaration section), `DclTmp`, `DclScratch`, `DclLds` and `DclParam`s no
//! function lists. Their debug ops go with them. Kept even when unused, because they are the
//! shader's interface: inputs, outputs, built-ins, resources, samplers, constant buffers,
//! push data, spec constants, UAV counters, transform feedback, `Semantic`s and mode settings.

use crate::census::Counted;
use crate::op::{Op, SsaDef};
use crate::opcode::{OpClass, OpCode};
use crate::passes::error::PassError;
use crate::passes::util::{only_debug_uses, remove_with_debug};
use crate::Builder;

/// True for declarations that are not part of the interface and may go when unused: the
/// removable ops ([`OpCode::is_removable`]) outside code.
fn is_internal(opcode: OpCode) -> bool {
    opcode.is_removable() && opcode.info().class != OpClass::Code
}

/// Runs the pass; returns whether anything was removed.
pub fn run(b: &mut Builder) -> Result<bool, PassError> {
    // The only internal ops that may stand in code are `MinValue` and `MaxValue` (counted
    // as legacy ops); without them only the declaration section needs a look.
    let dead: Vec<SsaDef> = if b.census().has(Counted::Legacy) {
        dead_internal(b, b.iter())
    } else {
        dead_internal(b, b.declarations())
    };
    for &def in &dead {
        remove_with_debug(b, def);
    }
    Ok(!dead.is_empty())
}

/// The internal ops of `ops` that only debug ops refer to.
fn dead_internal<'a>(b: &Builder, ops: impl Iterator<Item = (SsaDef, &'a Op)>) -> Vec<SsaDef> {
    ops.filter(|(def, op)| is_internal(op.opcode) && only_debug_uses(b, *def))
        .map(|(def, _)| def)
        .collect()
}
