//! Dead code elimination: removes code ops whose results nothing live needs.
//!
//! Mark and sweep with a worklist, so dead cycles (a loop phi feeding only its own update)
//! go too. Roots are every op that is not removable ([`OpCode::is_removable`]) code:
//! declarations, control flow, stores, atomics, barriers, emits, `Demote`, calls and `Drain`.
//! Marking follows reference operands from the roots; every removable op left unmarked is
//! removed together with the annotations (`DebugName`, `DebugMemberName`, `Semantic`) that
//! name it. Annotations themselves are not roots: they keep nothing alive. Declarations (constants included) are left to
//! [`crate::passes::unused_declarations`].
//!
//! Programs with one block per function (most small shaders) define every value before its
//! uses in program order, so one backward walk over the code marks and sweeps at once (an op
//! is live if it is a root or a live op after it uses it); the walk hands over to the
//! worklist if it meets a use of a value it already found dead. Marks are stamps of the run
//! in a table that is only ever grown, never cleared.

use crate::census::Counted;
use crate::op::SsaDef;
use crate::opcode::{OpClass, OpCode, Traits};
use crate::passes::error::PassError;
use crate::passes::util::remove_with_debug;
use crate::Builder;

/// What DCE makes of an op of each opcode (by discriminant, masked to the table's size):
/// [`ROOT`], [`REMOVABLE`] or [`ANNOTATION`]; one lookup per op instead of three queries.
static KINDS: [u8; 1024] = {
    let mut table = [ROOT; 1024];
    let mut i = 0;
    while i < OpCode::ALL.len() {
        let op = OpCode::ALL[i];
        table[op as usize] = kind_of(op);
        i += 1;
    }
    table
};

/// Kept, and keeps what it refers to alive.
const ROOT: u8 = 0;
/// Removable code: what DCE may remove (declarations, even removable ones, are left to
/// [`crate::passes::unused_declarations`], which knows which are the interface).
const REMOVABLE: u8 = 1;
/// An annotation (not removable code): kept here, keeps nothing alive.
const ANNOTATION: u8 = 2;

const fn kind_of(op: OpCode) -> u8 {
    let info = op.const_info();
    let declarative = matches!(info.class, OpClass::Declaration);
    if info.traits.contains(Traits::REMOVABLE) && !declarative {
        REMOVABLE
    } else if info.traits.contains(Traits::ANNOTATION) {
        ANNOTATION
    } else {
        ROOT
    }
}

/// The [`KINDS`] entry of `opcode`.
#[inline(always)]
fn kind(opcode: OpCode) -> u8 {
    KINDS[opcode as usize & (KINDS.len() - 1)]
}


/// Runs dead code elimination; returns whether anything was removed.
pub fn run(b: &mut Builder) -> Result<bool, PassError> {
    run_with_scratch(b, &mut Scratch::default())
}

/// The buffers of a DCE run, kept by callers that run DCE several times (the pipeline) so
/// that later runs allocate nothing.
#[derive(Clone, Debug, Default)]
pub struct Scratch {
    /// Per def id, the stamp of the run that last marked it: [`Marks::live`] or
    /// [`Marks::dead`] of this run, anything else meaning unmarked. Stamps grow from run to
    /// run, so the table is never cleared (only grown), whatever the program's id bound.
    mark: Vec<u32>,
    /// The last stamp handed out.
    stamp: u32,
    work: Vec<SsaDef>,
    dead: Vec<SsaDef>,
}

/// The two stamps of one run.
#[derive(Clone, Copy)]
struct Marks {
    /// Marked live.
    live: u32,
    /// Seen by the backward walk and (so far) dead.
    dead: u32,
}

impl Scratch {
    /// This run's stamps, with `mark` covering every def id of `b`.
    fn start(&mut self, b: &Builder) -> Marks {
        let bound = b.id_bound();
        if self.mark.len() < bound {
            self.mark.resize(bound, 0);
        }
        if self.stamp >= u32::MAX - 2 {
            self.mark.fill(0);
            self.stamp = 0;
        }
        self.stamp += 2;
        self.work.clear();
        self.dead.clear();
        Marks {
            live: self.stamp - 1,
            dead: self.stamp,
        }
    }
}

/// [`run`] with caller-kept buffers.
pub fn run_with_scratch(b: &mut Builder, scratch: &mut Scratch) -> Result<bool, PassError> {
    let Some(code) = b.first_code() else {
        return Ok(false);
    };
    let census = b.census();
    let one_block = census.count(Counted::Label) == census.count(Counted::Function)
        && !census.has(Counted::Scoped);
    if !(one_block && sweep_backwards(b, code, scratch)) {
        mark_and_sweep(b, code, scratch);
    }
    for &def in scratch.dead.iter() {
        remove_with_debug(b, def);
    }
    Ok(!scratch.dead.is_empty())
}

/// Mark and sweep in one backward walk over the code, for programs whose values are all
/// defined before their uses in program order (one block per function: no phi, no back
/// edge): an op is live if it is a root or a live op later in the program uses it. Leaves
/// the dead ops in `scratch.dead` in program order and returns true; returns false (the
/// result left unfinished) if a live op names a later op that the walk already found dead,
/// which only a program with values used before their definition has.
fn sweep_backwards(b: &Builder, code: SsaDef, scratch: &mut Scratch) -> bool {
    let marks = scratch.start(b);
    let Scratch { mark, dead, .. } = scratch;
    let mut cur = b.last();
    while let Some(def) = cur {
        let Some(op) = b.get(def) else { return false };
        let kind = kind(op.opcode);
        let live = if kind == REMOVABLE {
            let slot = def.index();
            if mark.get(slot) == Some(&marks.live) {
                true
            } else {
                if let Some(m) = mark.get_mut(slot) {
                    *m = marks.dead;
                }
                dead.push(def);
                false
            }
        } else {
            kind == ROOT
        };
        if live {
            for r in op.refs().flatten() {
                if let Some(m) = mark.get_mut(r.index()) {
                    if *m == marks.dead {
                        return false;
                    }
                    *m = marks.live;
                }
            }
        }
        if def == code {
            dead.reverse();
            return true;
        }
        cur = b.prev(def);
    }
    false
}

/// Mark and sweep with a worklist (any control flow graph, dead cycles included). Leaves the
/// dead ops in `scratch.dead` in program order.
fn mark_and_sweep(b: &Builder, code: SsaDef, scratch: &mut Scratch) {
    let marks = scratch.start(b);
    let Scratch {
        mark, work, dead, ..
    } = scratch;
    // Declarations are never removed here, and (in valid IR) refer to no code op but
    // functions and labels, which are roots anyway: only code needs marking and sweeping.
    // The removable ops are gathered on the way (in program order) and the live ones dropped
    // after marking: no second walk.
    for (def, op) in b.iter_from(code) {
        let kind = kind(op.opcode);
        if kind == REMOVABLE {
            dead.push(def);
        } else if kind == ROOT {
            if let Some(m) = mark.get_mut(def.index()) {
                *m = marks.live;
            }
            work.push(def);
        }
    }
    while let Some(def) = work.pop() {
        let Some(op) = b.get(def) else { continue };
        for r in op.refs().flatten() {
            if let Some(m) = mark.get_mut(r.index()) {
                if *m != marks.live {
                    *m = marks.live;
                    work.push(r);
                }
            }
        }
    }
    dead.retain(|d| mark.get(d.index()) != Some(&marks.live));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_follow_the_opcode_table() {
        for &op in OpCode::ALL {
            let removable = op.is_removable() && !op.is_declarative();
            assert_eq!(kind(op) == REMOVABLE, removable, "{op:?}");
            assert_eq!(kind(op) == ANNOTATION, !removable && op.is_annotation(), "{op:?}");
        }
    }
    use crate::text::parse;

    /// A one-block program (the backward walk), and the same DCE on a worklist.
    const ONE_BLOCK: &str = "\
%1 = EntryPoint %10 Compute
%2 = DclLds u32[16] %1
%3 = Constant u32 1
%4 = Constant u32 0
%5 = DebugName %13 \"dead\"
%6 = DebugName %12 \"live\"
%10 = Function void
%11 = Label None
%12 = IAdd u32 %3 %3
%13 = IMul u32 %12 %12
%14 = IAdd u32 %13 %3
%15 = IMul u32 %12 %3
%16 = LdsStore %2 %4 %15
%17 = Return void null
%18 = FunctionEnd
";

    fn live_ids(b: &Builder) -> Vec<u32> {
        b.iter().map(|(d, _)| d.id()).collect()
    }

    #[test]
    fn backward_walk_and_worklist_remove_the_same_ops() {
        let mut scratch = Scratch::default();
        let mut b = parse(ONE_BLOCK).unwrap();
        let code = b.first_code().unwrap();
        assert!(sweep_backwards(&b, code, &mut scratch));
        let backward = scratch.dead.clone();
        mark_and_sweep(&b, code, &mut scratch);
        assert_eq!(backward, scratch.dead);
        let ids: Vec<u32> = backward.iter().map(|d| d.id()).collect();
        assert_eq!(ids, vec![13, 14]);
        // Several runs on one scratch: the second finds nothing left.
        assert!(run_with_scratch(&mut b, &mut scratch).unwrap());
        assert_eq!(
            live_ids(&b),
            vec![1, 2, 3, 4, 6, 10, 11, 12, 15, 16, 17, 18]
        );
        assert!(!run_with_scratch(&mut b, &mut scratch).unwrap());
    }

    #[test]
    fn a_later_value_used_before_its_definition_falls_back_to_the_worklist() {
        // Not valid IR (a use before the definition in one block), but DCE must not remove
        // a value a live op uses: the backward walk finds %13 dead before the store names it.
        let text = "\
%1 = EntryPoint %10 Compute
%2 = DclLds u32[16] %1
%3 = Constant u32 1
%4 = Constant u32 0
%10 = Function void
%11 = Label None
%12 = LdsStore %2 %4 %13
%13 = IAdd u32 %3 %3
%14 = IMul u32 %3 %3
%17 = Return void null
%18 = FunctionEnd
";
        let mut scratch = Scratch::default();
        let mut b = parse(text).unwrap();
        let code = b.first_code().unwrap();
        assert!(!sweep_backwards(&b, code, &mut scratch));
        assert!(run_with_scratch(&mut b, &mut scratch).unwrap());
        assert_eq!(live_ids(&b), vec![1, 2, 3, 4, 10, 11, 12, 13, 17, 18]);
    }

    #[test]
    fn stamps_wrap_around() {
        let mut scratch = Scratch {
            stamp: u32::MAX - 2,
            ..Scratch::default()
        };
        let mut b = parse(ONE_BLOCK).unwrap();
        // Marks of old runs equal to the stamps after the wrap: the table must be cleared.
        scratch.mark = vec![1; b.id_bound()];
        assert!(run_with_scratch(&mut b, &mut scratch).unwrap());
        assert_eq!(scratch.stamp, 2);
        assert_eq!(
            live_ids(&b),
            vec![1, 2, 3, 4, 6, 10, 11, 12, 15, 16, 17, 18]
        );
    }
}
