//! Functions and structured control flow: `OpFunction`, parameters and `OpFunctionEnd`,
//! labels, branches, switches, merge instructions, and the per-function state
//! ([`FunctionState`]).
//!
//! The IR declares a construct on its header's `Label` (merge block, and continue target for
//! a loop); SPIR-V wants the merge instruction (`OpSelectionMerge`, `OpLoopMerge`) right
//! before the header's terminator, so the label's construct waits in
//! [`FunctionState::merge`] for it. A selection header that ends in an unconditional branch
//! needs no merge instruction. SPIR-V's universal limits (section 2.17) are checked here:
//! control-flow nesting depth, `(literal, label)` pairs of one `OpSwitch`, parameters of
//! one function. A 64-bit switch selector takes two-word case literals.

use super::error::{malformed, unsupported, R};
use super::types::{scalar_bits, TyKey};
use super::Emitter;
use crate::words::{begin, end, inst};
use dxspv_ir::{Op, OpCode, SsaDef};
use smallvec::SmallVec;
use spirv::Op as S;

/// The merge block (and continue target, for a loop) that the current block's header
/// declared, written with the block's terminator.
#[derive(Clone, Copy)]
pub(super) struct PendingMerge {
    /// The merge block's id.
    pub(super) merge: u32,
    /// The continue target's id, for a loop header.
    pub(super) continue_target: Option<u32>,
    /// The merge block's label in the IR.
    pub(super) label: SsaDef,
}

/// State of the code being emitted, apart from the module: what the current block's header
/// declared, the function's open constructs, and the current access.
#[derive(Default)]
pub(super) struct FunctionState {
    /// Set by a header `Label`, taken by its terminator.
    pub(super) merge: Option<PendingMerge>,
    /// How many merge blocks the current function's headers declared that are not reached
    /// yet, in program order: SPIR-V's control-flow nesting depth, which may not pass
    /// [`MAX_NESTING_DEPTH`]. Each such label is marked in its slot, so reaching one is O(1).
    pub(super) open_merges: usize,
    /// Set while emitting an access to a `Coherent` UAV.
    pub(super) coherent_access: bool,
}

pub(super) const MAX_SWITCH_CASES: usize = 16_383;

pub(super) const MAX_FUNCTION_PARAMS: usize = 255;

/// SPIR-V's universal limit on control-flow nesting (headers whose merge block is not yet
/// reached, in program order).
pub(super) const MAX_NESTING_DEPTH: usize = 1023;

impl<'a> Emitter<'a> {
    pub(super) fn function(&mut self, def: SsaDef, op: &Op) -> R<()> {
        if op.refs().count() > MAX_FUNCTION_PARAMS {
            return unsupported(
                def,
                op,
                format!(
                    "a function of {} parameters (SPIR-V allows {MAX_FUNCTION_PARAMS})",
                    op.refs().count()
                ),
            );
        }
        let ret = self.module.val_ty(def, op)?;
        let mut sig = SmallVec::<[u32; 4]>::new();
        sig.push(ret);
        for p in op.refs().flatten() {
            let Some(pop) = self.op_of(p) else {
                return malformed(def, op, "missing parameter");
            };
            sig.push(self.module.val_ty(p, pop)?);
        }
        let fty = self.module.ty_key(TyKey::Func(sig.clone()));
        inst(self.module.body(), S::Function, &[ret, def.id(), 0, fty]);
        self.mark(def);
        for (p, &t) in op.refs().flatten().zip(sig.get(1..).unwrap_or(&[])) {
            let id = self.module.id();
            inst(self.module.body(), S::FunctionParameter, &[t, id]);
            self.params.push((def, p, id));
        }
        Ok(())
    }

    pub(super) fn terminator(&mut self, def: SsaDef, op: &Op) -> R<()> {
        if let Some(PendingMerge {
            merge: m,
            continue_target: cont,
            label: merge_def,
        }) = self.function_state.merge.take()
        {
            match cont {
                Some(c) => inst(self.module.body(), S::LoopMerge, &[m, c, 0]),
                None => {
                    if op.opcode != OpCode::Branch {
                        inst(self.module.body(), S::SelectionMerge, &[m, 0]);
                    }
                }
            }
            let slot = self.slots.get_mut(merge_def.index());
            if let Some(s) = slot.filter(|_| cont.is_some() || op.opcode != OpCode::Branch) {
                if !s.merge_pending {
                    s.merge_pending = true;
                    self.function_state.open_merges += 1;
                }
                if self.function_state.open_merges > MAX_NESTING_DEPTH {
                    return unsupported(
                        def,
                        op,
                        format!("control flow nested deeper than SPIR-V's {MAX_NESTING_DEPTH}"),
                    );
                }
            }
        }
        match op.opcode {
            OpCode::Branch => {
                let t = self.v(self.arg(def, op, 0)?);
                inst(self.module.body(), S::Branch, &[t]);
            }
            OpCode::BranchConditional => {
                let c = self.v(self.arg(def, op, 0)?);
                let t = self.v(self.arg(def, op, 1)?);
                let e = self.v(self.arg(def, op, 2)?);
                inst(self.module.body(), S::BranchConditional, &[c, t, e]);
            }
            _ => {
                let sel = self.arg(def, op, 0)?;
                let wide = self
                    .op_of(sel)
                    .and_then(|o| o.ty.base_type())
                    .is_some_and(|t| scalar_bits(t) == 64);
                let selv = self.v(sel);
                let dflt = self.v(self.arg(def, op, 1)?);
                let refs = op.operands.get(2..op.ref_count()).unwrap_or(&[]);
                if refs.len() / 2 > MAX_SWITCH_CASES {
                    return unsupported(
                        def,
                        op,
                        format!(
                            "a switch of {} cases (SPIR-V allows {MAX_SWITCH_CASES})",
                            refs.len() / 2
                        ),
                    );
                }
                let start = begin(&mut self.module.sections.functions, S::Switch);
                self.module
                    .sections
                    .functions
                    .extend_from_slice(&[selv, dflt]);
                for pair in refs.chunks(2) {
                    let (Some(cv), Some(lbl)) = (
                        pair.first().and_then(|o| o.def()),
                        pair.get(1).and_then(|o| o.def()),
                    ) else {
                        return malformed(def, op, "switch case pair");
                    };
                    let Some(val) = self.op_of(cv).and_then(|o| o.lit(0)) else {
                        return malformed(def, op, "switch case value is not a constant");
                    };
                    let lbl = self.v(lbl);
                    let f = &mut self.module.sections.functions;
                    f.push(val as u32);
                    if wide {
                        f.push((val >> 32) as u32);
                    }
                    f.push(lbl);
                }
                end(&mut self.module.sections.functions, start);
            }
        }
        Ok(())
    }
}
