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
    for (def, op) in b.iter() {
        if !removable(op.opcode) && !op.opcode.is_annotation() {
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
    dead.extend(
        b.iter()
            .filter(|(def, op)| removable(op.opcode) && !live[def.index()])
            .map(|(def, _)| def),
    );
    for &def in dead.iter() {
        remove_with_debug(b, def);
    }
    Ok(!dead.is_empty())
}

#[cfg(test)]
mod tests {
    use super::run;
    use crate::passes::test_util::check;

    /// A dead chain goes with its debug name; stores, atomics and barriers stay, and so do the
    /// values they need. The dead loop counter (phi and update feeding only each other) goes.
    #[test]
    fn removes_dead_code_keeps_side_effects() {
        let input = "
%1 = EntryPoint %10 Compute
%2 = DclLds u32[16] %1
%3 = Constant u32 1
%4 = Constant u32 0
%25 = Constant bool false
%5 = DebugName %13 \"dead\"
%6 = DebugName %12 \"live\"
%10 = Function void
%11 = Label None
%12 = IAdd u32 %3 %3
%13 = IMul u32 %12 %12
%14 = LdsStore %2 %4 %12
%15 = LdsAtomic u32 %2 %4 %3 Add
%16 = Barrier Workgroup Workgroup Lds
%17 = Branch %18
%18 = Label %22 %20 StructuredLoop
%19 = Phi u32 %11 %4 %20 %21
%23 = Branch %20
%20 = Label None
%21 = IAdd u32 %19 %3
%24 = BranchConditional %25 %18 %22
%22 = Label None
%26 = Return void null
%27 = FunctionEnd
";
        check(
            input,
            r#"
%1 = EntryPoint %10 Compute
%2 = DclLds u32[16] %1
%3 = Constant u32 1
%4 = Constant u32 0
%25 = Constant bool false
%6 = DebugName %12 "live"
%10 = Function void
%11 = Label None
%12 = IAdd u32 %3 %3   ; live
%14 = LdsStore %2 %4 %12
%15 = LdsAtomic u32 %2 %4 %3 Add
%16 = Barrier Workgroup Workgroup Lds
%17 = Branch %18
%18 = Label %22 %20 StructuredLoop
%23 = Branch %20
%20 = Label None
%24 = BranchConditional %25 %18 %22
%22 = Label None
%26 = Return void null
%27 = FunctionEnd
"#,
            run,
        );
    }
}
