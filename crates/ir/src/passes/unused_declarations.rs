//! Removes declarations nothing uses any more.
//!
//! Removed when only debug ops refer to them: constants (`Constant`, `Undef`, `MinValue`,
//! `MaxValue` in the declaration section), `DclTmp`, `DclScratch`, `DclLds` and `DclParam`s no
//! function lists. Their debug ops go with them. Kept even when unused, because they are the
//! shader's interface: inputs, outputs, built-ins, resources, samplers, constant buffers,
//! push data, spec constants, UAV counters, transform feedback, `Semantic`s and mode settings.

use crate::op::SsaDef;
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
    let dead: Vec<SsaDef> = b
        .iter()
        .filter(|(def, op)| is_internal(op.opcode) && only_debug_uses(b, *def))
        .map(|(def, _)| def)
        .collect();
    for &def in &dead {
        remove_with_debug(b, def);
    }
    Ok(!dead.is_empty())
}

#[cfg(test)]
mod tests {
    use super::run;
    use crate::passes::test_util::check;

    /// Unused temps, scratch, LDS and constants go (with their names); unused inputs,
    /// outputs and resources stay: they are the interface.
    #[test]
    fn removes_internal_keeps_interface() {
        let input = "
%1 = EntryPoint %10 Pixel
%2 = DclInput f32 %1 0 0 None
%3 = Semantic %2 0 \"TEXCOORD\"
%4 = DclOutput f32 %1 0 0 0
%5 = DclTmp unknown %1
%6 = DebugName %5 \"r0\"
%7 = DclScratch u32[4] %1
%8 = Constant f32 1.0
%9 = Constant f32 2.0
%12 = DclSrv f32 %1 0 0 1 BufferTyped
%10 = Function void
%11 = Label None
%13 = OutputStore %4 null %9
%14 = Return void null
%15 = FunctionEnd
";
        check(
            input,
            r#"
%1 = EntryPoint %10 Pixel
%2 = DclInput f32 %1 0 0 None
%3 = Semantic %2 0 "TEXCOORD"
%4 = DclOutput f32 %1 0 0 0
%9 = Constant f32 2.0
%12 = DclSrv f32 %1 0 0 1 BufferTyped
%10 = Function void
%11 = Label None
%13 = OutputStore %4 null %9
%14 = Return void null
%15 = FunctionEnd
"#,
            run,
        );
    }
}
