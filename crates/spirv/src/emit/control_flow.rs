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
use dxspv_ir::{Construct, Op, SsaDef};
use smallvec::SmallVec;
use spirv::{Capability, Op as S};

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
    /// Set by the `Function` of a vertex shader's entry point that must write `PointSize`,
    /// taken by its first `Label` (see `vertex.rs`).
    pub(super) point_size_pending: bool,
    /// How the load being emitted may read a component through a whole-vector load (set by
    /// the emitter of the load, see `memory.rs`).
    pub(super) vector_loads: VectorLoads,
    /// Vectors loaded in the current block from memory that does not change while the
    /// shader runs: the access key and the loaded value (see `memory.rs`).
    pub(super) loaded_vectors: Vec<(VectorKey, u32)>,
    /// Recent values of the function that are one component of a vector, so that a
    /// construct of a whole vector's components in order is the vector itself.
    pub(super) components: RecentComponents,
    /// The `OpSampledImage`s of the current block by image and sampler value: one serves
    /// every sample of the block that pairs the two (it must be in the block that uses it).
    pub(super) sampled_images: Vec<([u32; 2], u32)>,
    /// Output vectors whose components the block stored one at a time, not written yet
    /// (see `interface.rs`).
    pub(super) pending_outputs: Vec<PendingOutput>,
}

impl FunctionState {
    /// Words of memory the state's lists hold.
    pub(super) fn capacity(&self) -> usize {
        (self.loaded_vectors.capacity() * size_of::<(VectorKey, u32)>()
            + self.sampled_images.capacity() * size_of::<([u32; 2], u32)>()
            + self.pending_outputs.capacity() * size_of::<PendingOutput>())
            / 4
    }

    /// Empties the state for a new module, keeping the memory of its lists (the thread's
    /// next emitter takes it over, see `Emitter::recycle`).
    pub(super) fn reset(&mut self) {
        self.merge = None;
        self.open_merges = 0;
        self.coherent_access = false;
        self.point_size_pending = false;
        self.vector_loads = VectorLoads::default();
        self.loaded_vectors.clear();
        self.components.clear();
        self.sampled_images.clear();
        self.pending_outputs.clear();
    }
}

/// An output vector whose components the current block stored one at a time: written when
/// something could see it (see [`Emitter::flush_outputs`]), whole where every component was
/// stored.
///
/// [`Emitter::flush_outputs`]: super::Emitter::flush_outputs
#[derive(Clone, Copy)]
pub(super) struct PendingOutput {
    /// The output variable.
    pub(super) var: u32,
    /// Its vector type.
    pub(super) ty: dxspv_ir::BasicType,
    /// The value stored to each component, of the vector's scalar type; 0 where none was.
    pub(super) values: [u32; 4],
    /// The `OutputStore` of each component.
    pub(super) stores: [Option<SsaDef>; 4],
}

/// The last [`RECENT_COMPONENTS`] values known to be components of vectors, in a ring (the
/// oldest is overwritten), so recording one never moves the others.
#[derive(Clone, Copy, Default)]
pub(super) struct RecentComponents {
    /// The entries; a value of 0 marks an empty one (whose other fields mean nothing).
    entries: [Component; RECENT_COMPONENTS],
    /// Where the next entry goes.
    next: usize,
}

/// Values [`RecentComponents`] keeps.
const RECENT_COMPONENTS: usize = 16;

impl RecentComponents {
    /// Forgets every entry.
    pub(super) fn clear(&mut self) {
        for e in &mut self.entries {
            e.value = 0;
        }
        self.next = 0;
    }

    /// Records `c`, forgetting the oldest entry when all are taken.
    pub(super) fn push(&mut self, c: Component) {
        if let Some(e) = self.entries.get_mut(self.next) {
            *e = c;
        }
        self.next = (self.next + 1) % RECENT_COMPONENTS;
    }

    /// The entry of `value` and its slot.
    pub(super) fn find(&self, value: u32) -> Option<(usize, Component)> {
        if value == 0 {
            return None;
        }
        self.entries
            .iter()
            .position(|c| c.value == value)
            .and_then(|i| Some((i, *self.entries.get(i)?)))
    }

    /// Forgets the entry in `slot` and moves the extracts recorded after word `at` of the
    /// function section `words` words back (they were taken out before them).
    pub(super) fn remove(&mut self, slot: usize, at: usize, words: usize) {
        if let Some(e) = self.entries.get_mut(slot) {
            *e = Component::default();
        }
        for e in self
            .entries
            .iter_mut()
            .filter(|e| e.value != 0 && e.at > at)
        {
            e.at -= words;
        }
    }
}

/// A value that is one component of a vector (see [`FunctionState::components`]).
#[derive(Clone, Copy, Default)]
pub(super) struct Component {
    /// The value.
    pub(super) value: u32,
    /// The vector.
    pub(super) vector: u32,
    /// The component.
    pub(super) index: u8,
    /// The vector's size.
    pub(super) size: u8,
    /// The IR def whose value it is, where the value is an `OpCompositeExtract` of its own
    /// that may go when nothing uses it.
    pub(super) def: Option<SsaDef>,
    /// Where that `OpCompositeExtract` is in the function section.
    pub(super) at: usize,
}

/// When a load of one component of a vector in memory loads the whole vector instead and
/// extracts the component (the loaded vector then serves later loads of the block).
#[derive(Clone, Copy, Default, PartialEq, Eq)]
pub(super) enum VectorLoads {
    /// Never: the memory may change (outputs, shared and storage memory).
    #[default]
    Never,
    /// Always: the memory does not change while the shader runs, and a whole-vector load
    /// and an extract take no more words than an access chain and a load (inputs).
    Always,
    /// When the block reads another component of the vector soon after: the memory does
    /// not change (constant buffers), but one component alone is shorter through an access
    /// chain.
    WhenReused,
}

/// What a whole-vector load read: the base pointer, then the ids of the access chain's
/// indices up to the vector (constants, deduplicated, so equal ids are equal values).
pub(super) type VectorKey = [u32; 5];

/// SPIR-V's universal limit on the `(literal, label)` pairs of one `OpSwitch`.
pub(super) const MAX_SWITCH_CASES: usize = 16_383;

/// SPIR-V's universal limit on the parameters of one function.
pub(super) const MAX_FUNCTION_PARAMS: usize = 255;

/// SPIR-V's universal limit on control-flow nesting (headers whose merge block is not yet
/// reached, in program order).
pub(super) const MAX_NESTING_DEPTH: usize = 1023;

impl<'a> Emitter<'a> {
    /// `Function`: `OpFunction` with its type and an `OpFunctionParameter` per `DclParam`;
    /// starts a new [`FunctionState`].
    pub(super) fn function(&mut self, def: SsaDef, op: &Op) -> R<()> {
        self.function_state.open_merges = 0;
        self.function_state.point_size_pending = self.needs_point_size(def);
        self.function_state.components.clear();
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

    /// `FunctionEnd`: `OpFunctionEnd`.
    pub(super) fn function_end(&mut self) -> R<()> {
        inst(self.module.body(), S::FunctionEnd, &[]);
        Ok(())
    }

    /// `ParamLoad`: the parameter's `OpFunctionParameter` id is the value.
    pub(super) fn param_load(&mut self, def: SsaDef, op: &Op) -> R<()> {
        let func = self.arg(def, op, 0)?;
        let p = self.arg(def, op, 1)?;
        let Some(&(_, _, pid)) = self.params.iter().find(|x| x.0 == func && x.1 == p) else {
            return malformed(def, op, "parameter of another function");
        };
        self.set_map(def, pid);
        Ok(())
    }

    /// `FunctionCall`: `OpFunctionCall`.
    pub(super) fn function_call(&mut self, def: SsaDef, op: &Op) -> R<()> {
        self.calls = true;
        let t = self.module.val_ty(def, op)?;
        let f = &mut self.module.sections.functions;
        let start = begin(f, S::FunctionCall);
        f.extend_from_slice(&[t, def.id()]);
        for a in op.refs() {
            match a {
                Some(a) => f.push(self.slots.get(a.index()).map_or(a.id(), |s| s.id)),
                None => return malformed(def, op, "null call operand"),
            }
        }
        end(f, start);
        Ok(())
    }

    /// `Return`: `OpReturnValue` or `OpReturn`.
    pub(super) fn function_return(&mut self, op: &Op) -> R<()> {
        match op.arg(0) {
            Some(v) => {
                let v = self.v(v);
                inst(self.module.body(), S::ReturnValue, &[v]);
            }
            None => inst(self.module.body(), S::Return, &[]),
        }
        Ok(())
    }

    /// `Label`: `OpLabel`; reaching a merge block closes its construct, and a header's
    /// construct waits in [`FunctionState::merge`] for the block's terminator.
    pub(super) fn label(&mut self, def: SsaDef, op: &Op) -> R<()> {
        inst(self.module.body(), S::Label, &[def.id()]);
        self.mark(def);
        self.function_state.loaded_vectors.clear();
        self.function_state.sampled_images.clear();
        if self.function_state.point_size_pending {
            self.function_state.point_size_pending = false;
            self.store_point_size();
        }
        // Reaching a merge block closes its construct.
        if let Some(s) = self.slots.get_mut(def.index()).filter(|s| s.merge_pending) {
            s.merge_pending = false;
            self.function_state.open_merges -= 1;
        }
        let c = op.construct();
        self.function_state.merge = match c {
            Some(Construct::StructuredSelection) => {
                let label = self.arg(def, op, 0)?;
                Some(PendingMerge {
                    merge: self.v(label),
                    continue_target: None,
                    label,
                })
            }
            Some(Construct::StructuredLoop) => {
                let label = self.arg(def, op, 0)?;
                Some(PendingMerge {
                    merge: self.v(label),
                    continue_target: Some(self.v(self.arg(def, op, 1)?)),
                    label,
                })
            }
            _ => None,
        };
        Ok(())
    }

    /// The merge instruction of the current block, if it is a header, written before its
    /// terminator: `OpLoopMerge` for a loop, `OpSelectionMerge` for a selection that branches
    /// conditionally (`unconditional` is false). Counts the construct as open until its merge
    /// block is reached.
    fn merge_instruction(&mut self, def: SsaDef, op: &Op, unconditional: bool) -> R<()> {
        let Some(PendingMerge {
            merge: m,
            continue_target: cont,
            label: merge_def,
        }) = self.function_state.merge.take()
        else {
            return Ok(());
        };
        match cont {
            Some(c) => inst(self.module.body(), S::LoopMerge, &[m, c, 0]),
            None => {
                if !unconditional {
                    inst(self.module.body(), S::SelectionMerge, &[m, 0]);
                }
            }
        }
        let slot = self.slots.get_mut(merge_def.index());
        if let Some(s) = slot.filter(|_| cont.is_some() || !unconditional) {
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
        Ok(())
    }

    /// `Branch`: `OpBranch`.
    pub(super) fn branch(&mut self, def: SsaDef, op: &Op) -> R<()> {
        self.merge_instruction(def, op, true)?;
        let t = self.v(self.arg(def, op, 0)?);
        inst(self.module.body(), S::Branch, &[t]);
        Ok(())
    }

    /// `BranchConditional`: `OpBranchConditional`.
    pub(super) fn branch_conditional(&mut self, def: SsaDef, op: &Op) -> R<()> {
        self.merge_instruction(def, op, false)?;
        let c = self.v(self.arg(def, op, 0)?);
        let t = self.v(self.arg(def, op, 1)?);
        let e = self.v(self.arg(def, op, 2)?);
        inst(self.module.body(), S::BranchConditional, &[c, t, e]);
        Ok(())
    }

    /// `Switch`: `OpSwitch` with the case values as literals (two words each for a 64-bit
    /// selector).
    pub(super) fn switch(&mut self, def: SsaDef, op: &Op) -> R<()> {
        self.merge_instruction(def, op, false)?;
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
        Ok(())
    }

    /// `Unreachable`: `OpUnreachable`.
    pub(super) fn unreachable(&mut self) -> R<()> {
        inst(self.module.body(), S::Unreachable, &[]);
        Ok(())
    }

    /// `Phi`: `OpPhi`, whose operands are `(value, parent block)` pairs where the IR's are
    /// `(block, value)`.
    pub(super) fn phi(&mut self, def: SsaDef, op: &Op) -> R<()> {
        let t = self.module.val_ty(def, op)?;
        let refs = op.operands.get(..op.ref_count()).unwrap_or(&[]);
        let f = &mut self.module.sections.functions;
        let start = begin(f, S::Phi);
        f.extend_from_slice(&[t, def.id()]);
        for pair in refs.chunks(2) {
            let (Some(l), Some(v)) = (
                pair.first().and_then(|o| o.def()),
                pair.get(1).and_then(|o| o.def()),
            ) else {
                return malformed(def, op, "phi operand pair");
            };
            let slots = &self.slots;
            let v = slots.get(v.index()).map_or(v.id(), |s| s.id);
            let l = slots.get(l.index()).map_or(l.id(), |s| s.id);
            f.extend_from_slice(&[v, l]);
        }
        end(f, start);
        Ok(())
    }

    /// `Demote` (`discard`): `OpDemoteToHelperInvocation`; the invocation goes on as a
    /// helper, so derivatives of its quad stay defined.
    pub(super) fn demote(&mut self) -> R<()> {
        self.module.cap(Capability::DemoteToHelperInvocation);
        inst(self.module.body(), S::DemoteToHelperInvocation, &[]);
        Ok(())
    }
}
