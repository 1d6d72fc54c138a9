//! The module being built ([`Module`]): section buffers, id allocation, capabilities and
//! extensions, decorations, global variables, the `GLSL.std.450` import, and the writers of
//! function-body instructions.
//!
//! The rules it keeps: ids past the IR's id bound are allocated here (an IR def keeps its
//! number as its result id); capabilities and extensions are recorded when the instruction
//! needing them is written and kept sorted, so output is deterministic, and a capability
//! that is not core in the target's SPIR-V version brings the extension that provides it
//! ([`crate::TargetEnv`]); every `OpVariable` goes to the globals section, where
//! [`super::finish`] collects the entry point interface (SPIR-V 1.4 and later list every
//! global variable there, earlier versions the `Input` and `Output` ones); the memory
//! model's forms (global scope, buffer storage class) are asked of the module, which knows
//! the target; the `GLSL.std.450` import id is taken on first use and the import written at
//! the end. Instructions are written in place with [`crate::words`]: nothing is allocated
//! per instruction.

use super::dedup::IdTable;
use super::types::TyKey;
use crate::words::{inst_tail, Sections};
use crate::TargetEnv;
use smallvec::SmallVec;
use spirv::{Capability, Decoration, GLOp, Op as S, StorageClass as SC};

/// Capabilities recorded so far: a small sorted set.
#[derive(Default)]
pub(super) struct CapSet(pub(super) Vec<Capability>);

/// `u32` constants below this are cached by value ([`Module::small_u32`]).
pub(super) const SMALL_U32: usize = 16;

/// The SPIR-V module being built, apart from anything about the IR: the section buffers, the
/// id counter, the capabilities and extensions, the deduplicated types and constants, the
/// `GLSL.std.450` import and the execution modes. [`Emitter`](super::Emitter) maps IR defs
/// onto it.
pub(super) struct Module {
    /// The annotation, global and function-body sections (the others are written at the end).
    pub(super) sections: Sections,
    /// Capabilities, sorted.
    pub(super) caps: CapSet,
    /// Extensions, sorted.
    pub(super) exts: Vec<&'static str>,
    /// The next free id (the module's id bound at the end).
    pub(super) next_id: u32,
    /// SPIR-V type id per IR basic type ([`basic_index`](super::types::basic_index)); 0
    /// until declared.
    pub(super) basic: [u32; 128],
    /// Types other than scalars, vectors and pointers.
    pub(super) types: IdTable<TyKey>,
    /// Pointer types by `(storage class, pointee)`.
    pub(super) ptrs: IdTable<(u32, u32)>,
    /// Scalar constants by `(type, bits)`.
    pub(super) consts: IdTable<(u32, u64)>,
    /// The `u32` constants below [`SMALL_U32`] by value, once declared (0 before): a cache
    /// of [`Self::consts`] for the constants asked for most.
    pub(super) small_u32: [u32; SMALL_U32],
    /// Composite constants of at most four constituents by type and constituents (0 past
    /// the last: no id is 0).
    pub(super) composites: IdTable<[u32; 5]>,
    /// Composite constants of more constituents by type and constituents.
    pub(super) long_composites: IdTable<SmallVec<[u32; 8]>>,
    /// The module-scope variables in declaration order, each with whether it is an input or
    /// output (for the entry point's interface, see [`Self::global_var`]).
    pub(super) global_vars: Vec<(u32, bool)>,
    /// The `GLSL.std.450` import id; 0 until an instruction needs it.
    pub(super) glsl: u32,
    /// `Private` variables declared so far (SPIR-V allows
    /// [`MAX_PRIVATE_VARIABLES`](super::finish::MAX_PRIVATE_VARIABLES)).
    pub(super) private_vars: usize,
    /// Execution modes: mode, literal operands and how many of them there are.
    pub(super) modes: Vec<(u32, [u32; 3], usize)>,
    /// The target environment: what capabilities need extensions, which forms exist.
    pub(super) target: TargetEnv,
}

impl CapSet {
    /// Adds capability `c`.
    pub(super) fn insert(&mut self, c: Capability) {
        if let Err(at) = self.0.binary_search(&c) {
            self.0.insert(at, c);
        }
    }
}

impl Module {
    /// An empty module for `target` whose own ids start at `first_id` (past the IR's ids).
    #[inline]
    pub(super) fn new(first_id: u32, target: TargetEnv) -> Self {
        Self {
            sections: Sections::default(),
            caps: CapSet::default(),
            exts: Vec::new(),
            next_id: first_id,
            basic: [0; 128],
            types: IdTable::default(),
            ptrs: IdTable::default(),
            consts: IdTable::default(),
            small_u32: [0; SMALL_U32],
            composites: IdTable::default(),
            long_composites: IdTable::default(),
            global_vars: Vec::new(),
            glsl: 0,
            private_vars: 0,
            modes: Vec::new(),
            target,
        }
    }

    /// Empties the module for a new one for `target` whose own ids start at `first_id`,
    /// keeping the memory its tables and buffers hold (see [`Module::new`]).
    pub(super) fn reset(&mut self, first_id: u32, target: TargetEnv) {
        self.caps.0.clear();
        self.exts.clear();
        self.next_id = first_id;
        self.basic = [0; 128];
        self.types.clear();
        self.ptrs.clear();
        self.consts.clear();
        self.small_u32 = [0; SMALL_U32];
        self.composites.clear();
        self.long_composites.clear();
        self.global_vars.clear();
        self.glsl = 0;
        self.private_vars = 0;
        self.modes.clear();
        self.target = target;
    }

    /// Words of memory the module's buffers and lists hold (those that grow with the
    /// program; the tables of types and constants move to a hash map when they would).
    pub(super) fn capacity(&self) -> usize {
        self.sections.capacity() + self.global_vars.capacity() * 2 + self.modes.capacity() * 5
    }

    /// A fresh id.
    #[inline]
    pub(super) fn id(&mut self) -> u32 {
        let i = self.next_id;
        self.next_id += 1;
        i
    }

    /// Records that the module needs capability `c`: in the target's version, that is the
    /// capability it names there and the extension it needs there, if any
    /// ([`TargetEnv::capability`]).
    #[inline]
    pub(super) fn cap(&mut self, c: Capability) {
        let (c, ext) = self.target.capability(c);
        self.caps.insert(c);
        if let Some(e) = ext {
            self.ext(e);
        }
    }

    /// True if the module uses the Vulkan memory model (else `GLSL450`).
    pub(super) fn vulkan_memory_model(&self) -> bool {
        self.target.vulkan_memory_model()
    }

    /// The scope of D3D's global (device-wide) memory: `QueueFamily` under the Vulkan memory
    /// model, `Device` under `GLSL450`, which has no `QueueFamily` scope.
    pub(super) fn global_scope(&self) -> spirv::Scope {
        if self.vulkan_memory_model() {
            spirv::Scope::QueueFamily
        } else {
            spirv::Scope::Device
        }
    }

    /// The storage class of raw and structured buffers and UAV counters: `StorageBuffer`,
    /// or `Uniform` (with `BufferBlock` structs) before SPIR-V 1.3.
    pub(super) fn buffer_class(&self) -> SC {
        if self.target.storage_buffer_class() {
            SC::StorageBuffer
        } else {
            SC::Uniform
        }
    }

    /// Records that the module needs extension `e`.
    pub(super) fn ext(&mut self, e: &'static str) {
        if let Err(at) = self.exts.binary_search(&e) {
            self.exts.insert(at, e);
        }
    }

    /// The `GLSL.std.450` import (declared at the end, see
    /// [`Emitter::finish`](super::Emitter::finish)).
    pub(super) fn glsl(&mut self) -> u32 {
        if self.glsl == 0 {
            self.glsl = self.id();
        }
        self.glsl
    }

    /// The function-body section, where code is written.
    pub(super) fn body(&mut self) -> &mut Vec<u32> {
        &mut self.sections.functions
    }

    /// Emits `result = op(args)` with a fresh id.
    #[inline]
    pub(super) fn un(&mut self, op: S, ty: u32, args: &[u32]) -> u32 {
        let id = self.id();
        self.emit_to(op, ty, id, args);
        id
    }

    /// Emits `id = op(args)` of type `ty`.
    #[inline]
    pub(super) fn emit_to(&mut self, op: S, ty: u32, id: u32, args: &[u32]) {
        inst_tail(&mut self.sections.functions, op, [ty, id], args);
    }

    /// Emits `id = GLSL.std.450 gl(args)` of type `ty`.
    #[inline]
    pub(super) fn ext_to(&mut self, gl: GLOp, ty: u32, id: u32, args: &[u32]) {
        let set = self.glsl();
        inst_tail(
            &mut self.sections.functions,
            S::ExtInst,
            [ty, id, set, gl as u32],
            args,
        );
    }

    /// Decorates `id` with `d` and its extra operands.
    #[inline]
    pub(super) fn decorate(&mut self, id: u32, d: Decoration, extra: &[u32]) {
        inst_tail(
            &mut self.sections.annotations,
            S::Decorate,
            [id, d as u32],
            extra,
        );
    }

    /// Declares a module-scope variable. Every `OpVariable` in the globals section is listed
    /// in the entry point's interface (from SPIR-V 1.4; only `Input` and `Output` ones
    /// before), which [`Emitter::finish`](super::Emitter::finish) writes from
    /// [`Self::global_vars`]: every module-scope variable is declared here.
    #[inline(always)]
    pub(super) fn global_var(&mut self, ptr_ty: u32, sc: SC, id: u32, init: Option<u32>) {
        if sc == SC::Private {
            self.private_vars += 1;
        }
        self.global_vars
            .push((id, matches!(sc, SC::Input | SC::Output)));
        let g = &mut self.sections.globals;
        match init {
            Some(i) => inst_tail(g, S::Variable, [ptr_ty, id, sc as u32, i], &[]),
            None => inst_tail(g, S::Variable, [ptr_ty, id, sc as u32], &[]),
        }
    }

    /// Records the execution mode `mode` with its literal operands (at most three).
    #[inline]
    pub(super) fn execution_mode(&mut self, mode: spirv::ExecutionMode, operands: &[u32]) {
        let mut words = [0; 3];
        for (w, o) in words.iter_mut().zip(operands) {
            *w = *o;
        }
        self.modes
            .push((mode as u32, words, operands.len().min(words.len())));
    }
}
