//! The translator from lowered IR to SPIR-V words, one module per concept.
//!
//! [`Emitter::run`] finds the entry point, sizes the buffers from the op count, then walks
//! the IR once in program order, handing each op to [`dispatch`], which sends it to the
//! module of its concept; at the end [`finish`] assembles the words. The [`Module`] and the
//! [`FunctionState`] are boxed and, with the per-def tables, left to the thread's next
//! emitter ([`Emitter::recycle`]), so their tables and buffers keep their memory from one
//! compile to the next. The state is kept in three places, as naga's
//! SPIR-V backend keeps its `Writer` apart from its `BlockContext`:
//! - [`Module`] (`module.rs`): the SPIR-V module being built, knowing nothing of the IR —
//!   section buffers, id allocation, capabilities and extensions, deduplicated types
//!   (`types.rs`) and constants (`constants.rs`) in id tables (`dedup.rs`), execution modes.
//! - [`FunctionState`] (`control_flow.rs`): the code being emitted — the merge its current
//!   header declared, its open constructs, whether the current access is coherent.
//! - [`Emitter`] itself: what each IR def is in SPIR-V ([`Slot`], [`Info`]) and what the
//!   declarations set up (interface locations, the push constant block, parameters,
//!   reflection).
//!
//! The concepts: `interface.rs` (inputs, outputs, built-ins, push data, spec constants),
//! `resources.rs` (descriptors and bindings), `memory.rs` (access chains, loads and stores
//! of variables and buffers), `images.rs`, `atomics.rs`, `alu.rs` (arithmetic, conversions,
//! comparisons, bit operations, composites), `control_flow.rs`, `modes.rs` (execution
//! modes), `subgroups.rs` (wave and quad ops), `mesh.rs` (mesh and amplification
//! shaders), `hull.rs` (the hull shader entry point),
//! `finish.rs` and `error.rs`.

use crate::{Reflection, SpirvOptions};
use dxspv_ir::{Builder, Op, OpCode, ShaderStage, SsaDef, Type};
use smallvec::SmallVec;
use spirv::Capability;
use std::cell::Cell;

mod alu;
mod atomics;
mod capability_names;
mod constants;
mod control_flow;
mod dedup;
mod dispatch;
mod error;
mod finish;
mod hull;
mod images;
mod interface;
mod memory;
mod mesh;
mod modes;
mod module;
mod resources;
mod subgroups;
mod types;
mod vertex;

use control_flow::FunctionState;
pub use error::SpirvError;
use error::{malformed, unsupported, R};
use interface::{VarInfo, MAX_LOCATIONS};
use modes::exec_model;
use module::Module;
use resources::{DescInfo, ResInfo};
use types::basic_bits;

/// What an IR def stands for beyond its SPIR-V id (see [`Slot::info`]).
#[derive(Clone, Copy)]
enum Info {
    /// An I/O, LDS, scratch or sample-count variable.
    Var(VarInfo),
    /// A resource declaration.
    Res(ResInfo),
    /// A `DescriptorLoad`.
    Desc(DescInfo),
    /// A constant read through `ConstantLoad`: its `Private` copy.
    ConstVar(u32),
    /// A `DclPushData`: its member index in the push constant block.
    PushMember(u32),
}

/// Per-IR-def state, indexed by [`SsaDef::index`].
#[derive(Clone, Copy, Default)]
struct Slot {
    /// The SPIR-V id of the def's value.
    id: u32,
    /// 1 + index into [`Emitter::infos`]; 0 when the def has no [`Info`].
    info: u32,
    /// Whether the def has a SPIR-V definition (for `OpName`).
    defined: bool,
    /// Whether the def is a label that a header named as its merge block and that has not
    /// been reached yet (see [`FunctionState::open_merges`]).
    merge_pending: bool,
}

/// Buffers an [`Emitter`] leaves to the next one on the same thread (see
/// [`Emitter::recycle`]): a warm compile allocates little beyond its output.
#[derive(Default)]
struct Scratch {
    /// [`Emitter::slots`].
    slots: Vec<Slot>,
    /// [`Emitter::infos`].
    infos: Vec<Info>,
    /// The module, whose tables and [`Module::sections`] keep their memory.
    module: Option<Box<Module>>,
    /// [`Emitter::function_state`], whose lists keep their memory.
    function_state: Option<Box<FunctionState>>,
    /// [`Emitter::io_slots`].
    io_slots: Vec<u8>,
    /// [`Emitter::push`].
    push: Vec<(u32, Type)>,
}

/// Largest buffers (in words) kept for reuse, so one huge shader does not pin its memory.
const SCRATCH_LIMIT: usize = 1 << 16;

thread_local! {
    static SCRATCH: Cell<Scratch> = Cell::new(Scratch::default());
}

/// The error of [`Emitter::arg`] for a missing operand.
#[cold]
#[inline(never)]
fn arg_missing(def: SsaDef, op: &Op, i: usize) -> R<SsaDef> {
    malformed(def, op, format!("operand {i} missing"))
}

/// The literals of a `Constant` op: all its operands, as it has no references (what
/// [`Op::literals`] gives, without working out the reference count).
#[inline]
fn constant_literals(c: &Op) -> &[dxspv_ir::Operand] {
    debug_assert!(c.opcode == OpCode::Constant && c.operands[..] == *c.literals());
    &c.operands
}

/// The error of [`Emitter::lit`] for a missing literal.
#[cold]
#[inline(never)]
fn lit_missing(def: SsaDef, op: &Op, i: usize) -> R<u64> {
    malformed(def, op, format!("literal {i} missing"))
}

/// The translator: walks the IR and writes the [`Module`], keeping per-def state (the SPIR-V
/// id of each IR def and what it stands for) and what the declarations set up.
pub(crate) struct Emitter<'a> {
    /// The IR.
    b: &'a Builder,
    /// The options.
    opts: &'a SpirvOptions,
    /// The module being built (boxed, so that it moves to and from the thread's
    /// [`Scratch`] without a copy).
    module: Box<Module>,
    /// The function being emitted.
    function_state: Box<FunctionState>,
    /// Per-def state, indexed by [`SsaDef::index`].
    slots: Vec<Slot>,
    /// What defs stand for beyond their ids (see [`Slot::info`]).
    infos: Vec<Info>,
    /// The shader stage (from the `EntryPoint`).
    stage: ShaderStage,
    /// The `EntryPoint` op.
    entry: Option<SsaDef>,
    /// Its functions (two for a hull shader: control point and patch constant phases).
    entry_fns: SmallVec<[SsaDef; 2]>,
    /// `(function, DclParam, OpFunctionParameter id)`.
    params: Vec<(SsaDef, SsaDef, u32)>,
    /// Upper bound of the words of the `OpName`s (written at the end from the IR).
    names_words: usize,
    /// `DebugName` (unless stripped) and `Semantic` ops, applied at the end.
    late: SmallVec<[&'a Op; 16]>,
    /// A geometry shader writing several streams (vertex emission names its stream).
    multi_stream: bool,
    /// Sparse-feedback buffer loads whose feedback is the constant "fully resident" code.
    resident_feedback: Vec<SsaDef>,
    /// The push constant block variable (0 until a `DclPushData` is seen).
    push_var: u32,
    /// The push constant block's struct type (allocated with [`Self::push_var`], declared at
    /// the end when its members are all known).
    push_struct: u32,
    /// Push constant block members: offset and IR type, in declaration order.
    push: Vec<(u32, Type)>,
    /// The `InvocationId` built-in's variable and the SPIR-V type it holds (`i32` or `u32`).
    invocation_id_var: Option<(u32, u32)>,
    /// Components taken per location by the interface variables so far, so that two
    /// declarations cannot share one: inputs at `0..MAX_LOCATIONS`, outputs after them.
    io_slots: Vec<u8>,
    /// The reflection, filled as declarations are emitted.
    refl: Reflection,
    /// What the wave and quad ops keep: their helper functions, the lane index input.
    subgroup: subgroups::SubgroupState,
    /// What the mesh and amplification ops keep: the payload, the dispatched group counts,
    /// the output arrays.
    mesh: mesh::MeshState,
    /// Views of raw and structured buffers as 64-bit integer arrays, for 64-bit atomics:
    /// the buffer's variable, the integer type, the view's variable and its block type.
    wide_views: SmallVec<[(u32, dxspv_ir::ScalarType, u32, u32); 1]>,
    /// Whether the program calls functions (recursion is checked only then, once every op
    /// is emitted).
    calls: bool,
    /// What the dispatch asks of each opcode ([`dispatch::op_traits`]).
    op_traits: dispatch::OpTraits,
    /// The buffers the thread's previous emitter left ([`Self::reserve`] takes them).
    scratch: Scratch,
}

impl<'a> Emitter<'a> {
    /// An emitter of the module `b` with the options `opts`.
    #[inline]
    pub(crate) fn new(b: &'a Builder, opts: &'a SpirvOptions) -> Self {
        let bound = b.id_bound().max(1) as u32;
        let mut scratch = SCRATCH.try_with(Cell::take).unwrap_or_default();
        let function_state = match scratch.function_state.take() {
            Some(mut f) => {
                f.reset();
                f
            }
            None => Box::default(),
        };
        let module = match scratch.module.take() {
            Some(mut m) => {
                m.reset(bound, opts.target_env);
                m
            }
            None => Box::new(Module::new(bound, opts.target_env)),
        };
        Self {
            b,
            opts,
            module,
            calls: false,
            op_traits: dispatch::op_traits(),
            scratch,
            function_state,
            slots: Vec::new(),
            infos: Vec::new(),
            stage: ShaderStage::Compute,
            entry: None,
            entry_fns: SmallVec::new(),
            params: Vec::new(),
            names_words: 0,
            late: SmallVec::new(),
            multi_stream: false,
            resident_feedback: Vec::new(),
            push_var: 0,
            push_struct: 0,
            push: Vec::new(),
            invocation_id_var: None,
            io_slots: Vec::new(),
            refl: Reflection::default(),
            subgroup: subgroups::SubgroupState::default(),
            mesh: mesh::MeshState::default(),
            wide_views: SmallVec::new(),
        }
    }

    /// Sizes the buffers and tables for the module, reusing the ones the thread's previous
    /// module left behind.
    fn reserve(&mut self) {
        let scratch = std::mem::take(&mut self.scratch);
        self.slots = scratch.slots;
        self.infos = scratch.infos;
        self.io_slots = scratch.io_slots;
        self.push = scratch.push;
        self.push.clear();
        self.io_slots.clear();
        self.io_slots.resize(2 * MAX_LOCATIONS, 0);
        let bound = self.module.next_id as usize;
        // Zeroed in one fill, then numbered: each def is its own SPIR-V value until mapped.
        self.slots.clear();
        self.slots.resize(bound, Slot::default());
        for (id, s) in self.slots.iter_mut().enumerate() {
            s.id = id as u32;
        }
        self.infos.clear();
        self.module.sections.reset(self.b.len());
    }

    /// Leaves the reusable buffers to the next emitter on this thread and gives the
    /// reflection (moved out, not copied into a fresh one).
    pub(crate) fn recycle(self) -> Reflection {
        let Emitter {
            module,
            function_state,
            slots,
            infos,
            io_slots,
            push,
            refl,
            ..
        } = self;
        let words = slots.capacity() * (size_of::<Slot>() / 4)
            + infos.capacity() * (size_of::<Info>() / 4)
            + push.capacity() * (size_of::<(u32, Type)>() / 4)
            + module.capacity()
            + function_state.capacity();
        if words <= SCRATCH_LIMIT {
            let scratch = Scratch {
                slots,
                infos,
                module: Some(module),
                function_state: Some(function_state),
                io_slots,
                push,
            };
            // Fails only while the thread is being torn down; the buffers are then just
            // dropped.
            let _ = SCRATCH.try_with(|c| c.set(scratch));
        }
        refl
    }

    /// SPIR-V id of an IR value.
    #[inline]
    fn v(&self, def: SsaDef) -> u32 {
        self.slots.get(def.index()).map_or(def.id(), |s| s.id)
    }

    /// Reference operand `i` of `op`, which must be there.
    #[inline]
    fn arg(&self, def: SsaDef, op: &Op, i: usize) -> R<SsaDef> {
        match op.arg(i) {
            Some(a) => Ok(a),
            None => arg_missing(def, op, i),
        }
    }

    /// Literal operand `i` of `op`, which must be there.
    #[inline]
    fn lit(&self, def: SsaDef, op: &Op, i: usize) -> R<u64> {
        match op.lit(i) {
            Some(a) => Ok(a),
            None => lit_missing(def, op, i),
        }
    }

    /// Literal `i` as a count of at least one that fits a SPIR-V word: workgroup sizes,
    /// instance and vertex counts (Vulkan refuses zero for each).
    fn count_lit(&self, def: SsaDef, op: &Op, i: usize) -> R<u32> {
        match u32::try_from(self.lit(def, op, i)?) {
            Ok(n) if n > 0 => Ok(n),
            _ => unsupported(def, op, format!("count {}", op.lit(i).unwrap_or(0))),
        }
    }

    /// The op defining `def`.
    fn op_of(&self, def: SsaDef) -> Option<&'a Op> {
        self.b.get(def)
    }

    /// Marks `def` as having a SPIR-V definition (a `DebugName` on it becomes an `OpName`).
    fn mark(&mut self, def: SsaDef) {
        if let Some(s) = self.slots.get_mut(def.index()) {
            s.defined = true;
        }
    }

    /// Makes `id` the SPIR-V value of `def`.
    fn set_map(&mut self, def: SsaDef, id: u32) {
        if let Some(s) = self.slots.get_mut(def.index()) {
            s.id = id;
        }
    }

    /// Attaches `info` to `def`.
    fn set_info(&mut self, def: SsaDef, info: Info) {
        if let Some(s) = self.slots.get_mut(def.index()) {
            self.infos.push(info);
            s.info = self.infos.len() as u32;
        }
    }

    /// The first `DebugName` of `def` (the one with the lowest id, as
    /// [`dxspv_ir::text::debug_name`] finds it), decoded a literal at a time.
    fn debug_name(&self, def: SsaDef) -> Option<String> {
        let mut first: Option<(SsaDef, &Op)> = None;
        for u in self.b.uses(def) {
            if u.operand != 0 || first.is_some_and(|(d, _)| d <= u.user) {
                continue;
            }
            if let Some(op) = self.b.get(u.user).filter(|o| o.opcode == OpCode::DebugName) {
                first = Some((u.user, op));
            }
        }
        first.map(|(_, op)| crate::words::decode_packed_str(op.literals()))
    }

    /// True when `def`, a vector (or a scalar constant), is used only as the address (operand 1) of accesses whose
    /// emitters take a constant or `CompositeConstruct` address apart into access chain
    /// indices ([`Self::indices`], [`Self::composite_access`]) and never read the vector
    /// itself: such a def needs no SPIR-V definition. `composite` admits `CompositeExtract`
    /// and `CompositeInsert` users (which take only constant addresses apart).
    fn only_taken_apart(&self, def: SsaDef, composite: bool) -> bool {
        let mut any = false;
        for u in self.b.uses(def) {
            any = true;
            // Only the address (operand 1) is taken apart.
            if u.operand != 1 {
                return false;
            }
            let Some(user) = self.op_of(u.user) else {
                return false;
            };
            let ok = match user.opcode {
                OpCode::CompositeExtract | OpCode::CompositeInsert => composite,
                OpCode::ScratchLoad
                | OpCode::ScratchStore
                | OpCode::LdsLoad
                | OpCode::LdsStore
                | OpCode::LdsAtomic
                | OpCode::ConstantLoad
                | OpCode::InputLoad
                | OpCode::OutputLoad
                | OpCode::OutputStore => true,
                // Through a block (constant, raw or structured buffer: a declaration of
                // an aggregate type), not a typed buffer, which takes the index as is.
                // A 64-bit atomic takes its word index apart in code (`word_index`).
                OpCode::BufferAtomic
                    if [
                        Some(user.ty),
                        user.arg(2).and_then(|v| self.op_of(v)).map(|v| v.ty),
                    ]
                    .into_iter()
                    .flatten()
                    .any(|t| t.as_basic().is_some_and(|t| basic_bits(t) == 64)) =>
                {
                    false
                }
                OpCode::BufferLoad | OpCode::BufferStore | OpCode::BufferAtomic => user
                    .arg(0)
                    .and_then(|d| self.op_of(d))
                    .filter(|d| d.opcode == OpCode::DescriptorLoad)
                    .and_then(|d| d.arg(0))
                    .and_then(|d| self.op_of(d))
                    .is_some_and(|dcl| dcl.opcode.is_dcl() && dcl.ty.as_basic().is_none()),
                _ => false,
            };
            if !ok {
                return false;
            }
        }
        any
    }

    /// What `def` stands for, if anything beyond its id.
    fn info(&self, def: SsaDef) -> Option<&Info> {
        let i = self.slots.get(def.index())?.info;
        self.infos.get(i.checked_sub(1)? as usize)
    }

    /// The variable `def` declared, if it declared one.
    fn var_info(&self, def: SsaDef) -> Option<VarInfo> {
        match self.info(def) {
            Some(Info::Var(v)) => Some(*v),
            _ => None,
        }
    }

    /// The resource `def` declared, if it declared one.
    fn res_info(&self, def: SsaDef) -> Option<ResInfo> {
        match self.info(def) {
            Some(Info::Res(r)) => Some(*r),
            _ => None,
        }
    }

    /// Emits the whole module: finds the entry point, walks every op through [`Self::op`] and
    /// [`Self::finish`]es, giving the words (the reflection stays in the emitter until
    /// [`Self::recycle`] hands it out).
    pub(crate) fn run(&mut self) -> R<Vec<u32>> {
        self.module.cap(Capability::Shader);
        if self.module.vulkan_memory_model() {
            self.module.cap(Capability::VulkanMemoryModel);
        }
        // Find the entry point first (the stage decides the built-in mapping): valid IR has
        // one, its first op (a second one is refused when the walk reaches it).
        if let Some((def, op)) = self
            .b
            .iter()
            .find(|(_, op)| op.opcode == OpCode::EntryPoint)
        {
            self.entry_point(def, op)?;
        }
        self.reserve();
        let Some(entry) = self.entry else {
            return Err(Box::new(SpirvError::NoEntryPoint));
        };
        self.refl.stage = Some(self.stage);
        self.refl.entry_point = match self.opts.entry_point_name.as_str() {
            "main" => "main".into(),
            name => name.to_owned().into(),
        };
        self.refl.target_env = self.opts.target_env;
        let Some(model) = exec_model(self.stage) else {
            let op = self.b.op(entry);
            return unsupported(entry, op, format!("{} shaders", self.stage));
        };
        match self.stage {
            ShaderStage::Geometry => self.module.cap(Capability::Geometry),
            ShaderStage::Mesh | ShaderStage::Amplification => {
                let op = self.b.op(entry);
                self.need_mesh_shading(entry, op, &format!("{} shaders", self.stage))?;
            }
            ShaderStage::Hull | ShaderStage::Domain => self.module.cap(Capability::Tessellation),
            _ => {}
        }
        for (def, op) in self.b.iter() {
            self.op(def, op)?;
        }
        if self.calls {
            if let Some(call) = dxspv_ir::analysis::recursive_call(self.b) {
                return malformed(call, self.b.op(call), "recursion (Vulkan has none)");
            }
        }
        self.finish(entry, model)
    }

    /// `EntryPoint`: the shader stage and the entry functions.
    fn entry_point(&mut self, def: SsaDef, op: &Op) -> R<()> {
        let lit = op.literals().first().map(|l| l.0).unwrap_or(u64::MAX);
        let Some(stage) = ShaderStage::from_literal(lit) else {
            return malformed(def, op, "bad shader stage");
        };
        self.stage = stage;
        self.entry = Some(def);
        self.entry_fns.clear();
        for f in op.refs().flatten() {
            self.entry_fns.push(f);
        }
        Ok(())
    }
}

impl Module {}
