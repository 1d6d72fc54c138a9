//! DXIL → dxspv IR: the SM 6 frontend.
//!
//! [`convert`] turns a read [`Shader`] into IR in the *unstructured block form* the IR
//! contract allows a frontend to write (`shared/spec/dxbc-ir.md`): DXIL is SSA already, so
//! every LLVM value becomes one IR value (no temporaries, no `Unknown` types), every basic
//! block a `Label` without a construct, `br`/`switch` the IR's `Branch`,
//! `BranchConditional` and `Switch`, and `phi` the IR's `Phi`; the pipeline's structurizer
//! turns that into structured control flow.
//!
//! ## Data flow
//!
//! ```text
//! Shader ─▶ declarations: entry point and modes (stages), dx.resources (resources),
//!           signatures (io), groupshared/static/constant globals (memory)
//!        ─▶ per function, blocks in reverse post-order (so definitions come before uses):
//!             Label, phis (incoming values patched once defined), instructions
//!             (llvm: arithmetic, casts, compares, …; memory: alloca, getelementptr,
//!             load/store, atomics; dx ops: arith, buffers, image, io, resources, stages,
//!             wave, mesh)
//!        ─▶ EntryPoint patched with its functions (hull shaders: the control point and
//!           patch constant functions)
//! ```
//!
//! Each LLVM value maps to a [`values::Val`]: an IR def, or for the things the IR has no
//! value for, a handle (a loaded descriptor and what it is), a pointer (a variable and an
//! address) or the struct a DXIL operation returned (read at each `extractvalue`). Integers
//! are unsigned in the IR (LLVM's are signless): signed operations cast their operands.
//! `half` and `i16` are native 16-bit types when the module says so (shader flag
//! `UseNativeLowPrecision`), else the min-precision types.
//!
//! ## Choices
//!
//! * Resource ranges of `dx.resources` become `Dcl*` with their space, lower bound and count
//!   (unbounded: 0); `createHandle`'s index, absolute in the register space, is made
//!   relative to the range. SM 6.6 heap indexing (`CreateHandleFromHeap`) goes through
//!   unbounded arrays in the register spaces [`RESOURCE_HEAP_SPACE`] and
//!   [`SAMPLER_HEAP_SPACE`]: one declaration per kind of view, at a register derived from the
//!   view's kind and element type ([`resources::heap_register`]), each indexed by the heap
//!   index, so a host binds the whole heap at each of those bindings.
//! * Signature elements become one declaration each, at location = start row and
//!   component = start column, with 32-bit types (16-bit elements are converted at the
//!   load or store); system values become built-ins where the stage makes or consumes them.
//! * Waves and quads map op for op onto the IR's `Wave*`/`Quad*` ops (`wave.rs`). Mesh
//!   shader outputs are arrays per vertex (stream 0) and per primitive (stream 1, placed
//!   after the vertex rows); the mesh payload is an array of 32-bit words both the
//!   amplification and the mesh shader lay out the same way (`mesh.rs`).
//! * What stays out is refused by name ([`ConvertError::Unsupported`]): DXIL libraries (ray
//!   tracing and work graphs), AMD AGS driver intrinsics, and the operation families of
//!   [`dx_op::refusal`].

mod arith;
mod buffers;
mod control_flow;
pub mod dx_op;
mod error;
mod feedback;
mod image;
mod io;
pub mod limits;
mod llvm;
mod memory;
mod mesh;
mod resources;
mod stages;
#[cfg(test)]
mod tests;
mod values;
mod wave;

pub use error::{ConvertError, Where};

use dxspv_ir::frontend::{FrontendBuilder, FrontendState};
use dxspv_ir::small_map::SmallMap;
use dxspv_ir::{Builder, Op, OpCode, ScalarType, SsaDef, Type};

use crate::dx::{DxilMetadata, EntryPoint, ShaderKind};
use crate::module::{FunctionBody, Instruction, Module, Op as LlOp, ValueId};
use crate::Shader;
use values::{Handle, HeapHandle, PtrInfo, Val};

/// The register space of the CBV/SRV/UAV descriptor heap (`ResourceDescriptorHeap[i]`):
/// the first of Direct3D 12's reserved system spaces, which no application range can use.
pub const RESOURCE_HEAP_SPACE: u32 = 0xffff_fff0;

/// The register space of the sampler descriptor heap (`SamplerDescriptorHeap[i]`).
pub const SAMPLER_HEAP_SPACE: u32 = 0xffff_fff1;

/// The register space of AMD's AGS driver-intrinsic UAV (refused).
const AGS_SPACE: u32 = 0x7fff_0ade;

/// Result type of the converter.
pub(crate) type R<T> = Result<T, ConvertError>;

/// Converts a DXIL shader to IR in unstructured block form.
pub fn convert(shader: &Shader<'_>) -> Result<Builder, ConvertError> {
    let mut c = Converter::new(&shader.module, &shader.metadata)?;
    c.run()?;
    // The converter checks what it reads where the IR needs it, but not every operand type
    // of every operation (a damaged module can give a float operation integers): the IR's
    // validator decides, so what leaves here is IR the passes may trust.
    if let Err(errors) = dxspv_ir::validate(&c.b, dxspv_ir::Level::Unstructured) {
        let first = errors.first().map(|e| e.to_string()).unwrap_or_default();
        return Err(ConvertError::Invalid {
            at: Where {
                function: String::new(),
                block: None,
                instruction: None,
                what: "converted IR",
            },
            what: format!("operations on values of types they do not take: {first}"),
        });
    }
    Ok(c.b)
}

/// Where the converter is, kept cheap: the message's strings are looked up on error.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct At {
    /// Function index, when in a function.
    function: Option<u32>,
    block: Option<u32>,
    instruction: Option<u32>,
    what: &'static str,
}

/// Per-function state, its buffers reused from one function to the next.
#[derive(Default)]
pub(crate) struct Func {
    /// The function being converted (index into the module's functions).
    pub body: Option<u32>,
    /// The IR function.
    pub def: Option<SsaDef>,
    /// Converted values, by local value number.
    pub vals: Vec<Val>,
    /// The IR label starting each block.
    pub labels: Vec<Option<SsaDef>>,
    /// The IR label of each block's last part (a block split by `discard` ends in a later
    /// label, which phis in its successors name).
    pub ends: Vec<Option<SsaDef>>,
    /// Blocks in reverse post-order from the entry.
    pub order: Vec<u32>,
    /// How many distinct reachable blocks branch to each block.
    pub pred_count: Vec<u32>,
    /// Operands to patch once the function is done.
    pub fixups: Vec<control_flow::Fixup>,
    /// The members `extractvalue`s read of each value (bit `k` for member `k`, bit 7 for
    /// members past 6), by local value number.
    pub members_used: Vec<u8>,
    /// Members of [`Val::Parts`] results.
    pub parts: Vec<SsaDef>,
    /// Resource handles.
    pub handles: Vec<Handle>,
    /// Descriptor heap handles.
    pub heap_handles: Vec<HeapHandle>,
    /// Pointers.
    pub ptrs: Vec<PtrInfo>,
}

/// The conversion state. Submodules add `impl Converter` blocks for their concern.
pub(crate) struct Converter<'s> {
    pub m: &'s Module,
    pub md: &'s DxilMetadata,
    pub entry: &'s EntryPoint,
    pub stage: ShaderKind,
    pub b: Builder,
    pub fe: FrontendState,
    /// The `EntryPoint` op.
    pub ep: SsaDef,
    /// `half` and `i16` are native 16-bit types.
    pub native16: bool,
    /// The `dx.precise` metadata kind.
    pub precise_kind: Option<u32>,
    pub at: At,
    /// Converted module-level values, by value number.
    pub module_vals: Vec<Option<Val>>,
    /// Undefined values, one per type.
    pub undefs: SmallMap<Type, SsaDef, 4>,
    /// Reused buffer for constant literals.
    pub lit_buf: Vec<u64>,
    /// The IR function of each converted module function.
    pub fn_defs: Vec<Option<SsaDef>>,
    /// Whether each module function is queued or converted.
    pub fn_state: Vec<bool>,
    /// How many functions were queued.
    pub queued_count: usize,
    /// Functions waiting to be converted.
    pub fn_queue: Vec<u32>,
    /// The entry point's functions (the hull shader's patch constant function second).
    pub entry_fns: smallvec::SmallVec<[u32; 2]>,
    /// Scratch for the block walk.
    pub scratch_u8: Vec<u8>,
    pub scratch_stack: Vec<(u32, u32)>,
    /// `FunctionCall` ops and the module function they call, patched at the end.
    pub calls: Vec<(SsaDef, u32)>,
    pub f: Func,
    pub res: resources::Resources,
    pub io: io::Io,
    pub mem: memory::Memory,
    pub hs: stages::HullState,
    pub mesh: mesh::MeshState,
}

impl<'s> Converter<'s> {
    fn new(m: &'s Module, md: &'s DxilMetadata) -> R<Self> {
        let at = At {
            what: "dx.entryPoints",
            ..At::default()
        };
        let sm = md.shader_model.ok_or_else(|| ConvertError::Invalid {
            at: Where {
                function: String::new(),
                block: None,
                instruction: None,
                what: "dx.shaderModel",
            },
            what: "the module has no shader model".into(),
        })?;
        let unsupported = |feature| ConvertError::Unsupported {
            at: Where {
                function: String::new(),
                block: None,
                instruction: None,
                what: "dx.shaderModel",
            },
            feature,
        };
        let stage = match sm.kind {
            ShaderKind::Library => {
                return Err(unsupported(
                    "DXIL libraries (ray tracing and work graph shaders)",
                ))
            }
            ShaderKind::Pixel
            | ShaderKind::Vertex
            | ShaderKind::Geometry
            | ShaderKind::Hull
            | ShaderKind::Domain
            | ShaderKind::Compute
            | ShaderKind::Mesh
            | ShaderKind::Amplification => sm.kind,
            _ => return Err(unsupported("ray tracing and work graph shader stages")),
        };
        let entry = match md.entry_points.as_slice() {
            [e] if e.function.is_some() => e,
            _ => {
                return Err(ConvertError::Invalid {
                    at: Where {
                        function: String::new(),
                        block: None,
                        instruction: None,
                        what: "dx.entryPoints",
                    },
                    what: format!(
                    "a {} shader needs exactly one entry point with a function, the module has {}",
                    stage.name(),
                    md.entry_points.len()
                ),
                })
            }
        };
        let flags = entry.properties.shader_flags;
        let native16 = flags & (1 << 23) != 0;
        let ir_stage = stages::ir_stage(stage);
        let n = m
            .definitions()
            .map(|(_, b)| b.instructions.len())
            .sum::<usize>();
        // A dx.op call becomes several IR ops (a sample: descriptor loads, coordinate
        // vectors, the sample and its component extracts) and the passes add more; room for
        // two per instruction keeps the builder's tables from being copied as they grow.
        let mut b = Builder::with_capacities(n * 2 + 64, n * 3 + 64, 32);
        let ep =
            b.add_decl(Op::new(OpCode::EntryPoint, Type::VOID).with_lit(ir_stage.to_literal()));
        let fe = FrontendState::default();
        let c = Converter {
            m,
            md,
            entry,
            stage,
            b,
            fe,
            ep,
            native16,
            precise_kind: m.metadata_kind("dx.precise"),
            at,
            module_vals: Vec::new(),
            undefs: SmallMap::default(),
            lit_buf: Vec::new(),
            fn_defs: vec![None; m.functions.len()],
            fn_state: vec![false; m.functions.len()],
            queued_count: 0,
            fn_queue: Vec::new(),
            entry_fns: smallvec::SmallVec::new(),
            scratch_u8: Vec::new(),
            scratch_stack: Vec::new(),
            calls: Vec::new(),
            f: Func::default(),
            res: resources::Resources::default(),
            io: io::Io::default(),
            mem: memory::Memory::default(),
            hs: stages::HullState::default(),
            mesh: mesh::MeshState::default(),
        };
        Ok(c)
    }

    /// Declarations, then every function reachable from the entry point.
    fn run(&mut self) -> R<()> {
        let name = self.entry.name.clone();
        let ep = self.ep;
        self.decl(
            Op::new(OpCode::DebugName, Type::VOID)
                .with_ref(ep)
                .with_str(if name.is_empty() { "main" } else { &name }),
        );
        self.scan_mesh_uses()?;
        self.declare_modes()?;
        self.declare_resources()?;
        self.declare_signatures()?;
        self.declare_globals()?;
        let main = self.entry_function()?;
        let mut entry_fns = smallvec::SmallVec::<[u32; 2]>::new();
        entry_fns.push(main);
        if self.stage == ShaderKind::Hull {
            entry_fns.push(self.patch_constant_function()?);
        }
        self.entry_fns = entry_fns.clone();
        // The patch constant function is converted second (the queue is a stack).
        for &f in entry_fns.iter().rev() {
            self.queue_function(f)?;
        }
        while let Some(f) = self.fn_queue.pop() {
            self.convert_function(f)?;
        }
        let mut functions = smallvec::SmallVec::<[SsaDef; 2]>::new();
        for &f in &entry_fns {
            let d = self.fn_defs[f as usize]
                .ok_or_else(|| self.invalid("entry function not converted"))?;
            functions.push(d);
        }
        for i in 0..self.calls.len() {
            let (call, f) = self.calls[i];
            let def = self
                .fn_defs
                .get(f as usize)
                .copied()
                .flatten()
                .ok_or_else(|| {
                    self.invalid(format!("call of function {f}, which was not converted"))
                })?;
            self.b
                .set_operand(call, 0, dxspv_ir::Operand::from_def(def));
        }
        self.at = At {
            what: "dx.entryPoints",
            ..At::default()
        };
        self.finish_modes()?;
        let stage = self.b.op(self.ep).lit(0).unwrap_or(0);
        let mut op = Op::new(OpCode::EntryPoint, Type::VOID);
        for f in functions {
            op = op.with_ref(f);
        }
        self.b.rewrite(self.ep, op.with_lit(stage));
        Ok(())
    }

    /// The module function index of the entry point.
    fn entry_function(&self) -> R<u32> {
        let v = self
            .entry
            .function
            .ok_or_else(|| self.invalid("the entry point names no function"))?;
        self.function_index(v)
    }

    /// The module function index of a function value.
    pub(crate) fn function_index(&self, v: ValueId) -> R<u32> {
        match self.m.values.get(v.index()).map(|i| i.kind) {
            Some(crate::module::ValueKind::Function(i)) => Ok(i),
            _ => Err(self.invalid(format!("%{} is not a function", v.0))),
        }
    }

    /// The body of module function `f` (which has one: only defined functions are queued).
    pub(crate) fn body_of(&self, f: u32) -> &'s FunctionBody {
        static EMPTY: std::sync::OnceLock<FunctionBody> = std::sync::OnceLock::new();
        let m: &'s Module = self.m;
        m.functions
            .get(f as usize)
            .and_then(|f| f.body.as_ref())
            .unwrap_or_else(|| EMPTY.get_or_init(FunctionBody::default))
    }

    /// The body of the function being converted.
    pub(crate) fn body(&self) -> R<&'s FunctionBody> {
        match self.f.body {
            Some(f) => Ok(self.body_of(f)),
            None => Err(self.invalid("code outside a function")),
        }
    }

    /// Converts one instruction.
    fn instruction(&mut self, index: u32, inst: &'s Instruction) -> R<()> {
        self.at.instruction = Some(index);
        self.at.what = inst.op.opcode_name();
        match inst.op {
            LlOp::Call { .. } => self.call(inst),
            LlOp::Phi { .. } => Ok(()),
            LlOp::Ret { .. }
            | LlOp::Br { .. }
            | LlOp::CondBr { .. }
            | LlOp::Switch { .. }
            | LlOp::Unreachable => self.terminator(inst),
            LlOp::Alloca { .. }
            | LlOp::GetElementPtr { .. }
            | LlOp::Load { .. }
            | LlOp::Store { .. }
            | LlOp::AtomicRmw { .. }
            | LlOp::CmpXchg { .. }
            | LlOp::Fence { .. } => self.memory(index, inst),
            LlOp::IndirectBr { .. } => Err(self.unsupported("indirectbr")),
            LlOp::Invoke { .. } | LlOp::Resume { .. } | LlOp::LandingPad { .. } => {
                Err(self.unsupported("exception handling"))
            }
            LlOp::VaArg { .. } => Err(self.unsupported("va_arg")),
            _ => self.llvm(index, inst),
        }
    }

    /// A `call`: of a DXIL operation, an LLVM intrinsic without effect, or a function.
    fn call(&mut self, inst: &'s Instruction) -> R<()> {
        let LlOp::Call { callee, args, .. } = inst.op else {
            return Ok(());
        };
        let body = self.body()?;
        if let Some((code, _)) = self.m.dx_op(body, &inst.op) {
            self.at.what = dx_op::name(code);
            return self.dx_op(code, inst);
        }
        let name = self.m.global_name(callee);
        if name.starts_with(b"llvm.lifetime.")
            || name.starts_with(b"llvm.dbg.")
            || name == b"llvm.donothing"
        {
            return Ok(());
        }
        if name.starts_with(b"dx.op.") {
            return Err(self.invalid("a DXIL operation whose opcode is not a constant"));
        }
        if name.starts_with(b"AmdExt") || name.starts_with(b"dx.ags") {
            return Err(self.unsupported("AMD AGS driver intrinsics"));
        }
        let f = match self.value(callee)? {
            Val::Function(f) => f,
            _ => return Err(self.unsupported("indirect calls")),
        };
        if self
            .m
            .functions
            .get(f as usize)
            .is_some_and(|f| f.body.is_none())
        {
            let what = if name.starts_with(b"dx.") {
                "DXIL functions other than dx.op"
            } else {
                "calls of external functions"
            };
            return Err(self.unsupported(what));
        }
        self.call_function(f, args, inst)
    }

    /// Converts a DXIL operation.
    fn dx_op(&mut self, code: u32, inst: &'s Instruction) -> R<()> {
        let args = self.call_args(inst)?;
        use dx_op::code as C;
        match code {
            C::LOAD_INPUT
            | C::STORE_OUTPUT
            | C::LOAD_OUTPUT_CONTROL_POINT
            | C::LOAD_PATCH_CONSTANT
            | C::STORE_PATCH_CONSTANT
            | C::EVAL_SNAPPED
            | C::EVAL_SAMPLE_INDEX
            | C::EVAL_CENTROID => self.io_op(code, &args, inst),
            C::SAMPLE_INDEX
            | C::COVERAGE
            | C::INNER_COVERAGE
            | C::THREAD_ID
            | C::GROUP_ID
            | C::THREAD_ID_IN_GROUP
            | C::FLATTENED_THREAD_ID_IN_GROUP
            | C::GS_INSTANCE_ID
            | C::DOMAIN_LOCATION
            | C::OUTPUT_CONTROL_POINT_ID
            | C::PRIMITIVE_ID
            | C::START_VERTEX_LOCATION
            | C::START_INSTANCE_LOCATION
            | C::VIEW_ID => self.system_value_op(code, &args, inst),
            C::CREATE_HANDLE
            | C::CREATE_HANDLE_FROM_BINDING
            | C::CREATE_HANDLE_FROM_HEAP
            | C::ANNOTATE_HANDLE => self.handle_op(code, &args, inst),
            C::CBUFFER_LOAD
            | C::CBUFFER_LOAD_LEGACY
            | C::BUFFER_LOAD
            | C::BUFFER_STORE
            | C::RAW_BUFFER_LOAD
            | C::RAW_BUFFER_STORE
            | C::BUFFER_UPDATE_COUNTER
            | C::ATOMIC_BIN_OP
            | C::ATOMIC_COMPARE_EXCHANGE
            | C::CHECK_ACCESS_FULLY_MAPPED => self.buffer_op(code, &args, inst),
            C::SAMPLE
            | C::SAMPLE_BIAS
            | C::SAMPLE_LEVEL
            | C::SAMPLE_GRAD
            | C::SAMPLE_CMP
            | C::SAMPLE_CMP_LEVEL_ZERO
            | C::SAMPLE_CMP_LEVEL
            | C::SAMPLE_CMP_GRAD
            | C::SAMPLE_CMP_BIAS
            | C::TEXTURE_LOAD
            | C::TEXTURE_STORE
            | C::TEXTURE_STORE_SAMPLE
            | C::TEXTURE_GATHER
            | C::TEXTURE_GATHER_CMP
            | C::TEXTURE_GATHER_RAW
            | C::GET_DIMENSIONS
            | C::CALCULATE_LOD
            | C::TEXTURE_2DMS_GET_SAMPLE_POSITION
            | C::RENDER_TARGET_GET_SAMPLE_POSITION
            | C::RENDER_TARGET_GET_SAMPLE_COUNT => self.image_op(code, &args, inst),
            C::WRITE_SAMPLER_FEEDBACK..=C::WRITE_SAMPLER_FEEDBACK_GRAD => {
                self.sampler_feedback_op(code, &args)
            }
            C::BARRIER
            | C::BARRIER_BY_MEMORY_TYPE
            | C::BARRIER_BY_MEMORY_HANDLE
            | C::DISCARD
            | C::EMIT_STREAM
            | C::CUT_STREAM
            | C::EMIT_THEN_CUT_STREAM => self.stage_op(code, &args, inst),
            C::FABS..=C::DOT4
            | C::DERIV_COARSE_X..=C::DERIV_FINE_Y
            | C::MAKE_DOUBLE
            | C::SPLIT_DOUBLE
            | C::BITCAST_I16_TO_F16..=C::LEGACY_DOUBLE_TO_UINT32
            | C::DOT2_ADD_HALF
            | C::DOT4_ADD_I8_PACKED
            | C::DOT4_ADD_U8_PACKED
            | C::UNPACK_4X8
            | C::PACK_4X8 => self.arith_op(code, &args, inst),
            C::WAVE_IS_FIRST_LANE..=C::QUAD_OP
            | C::WAVE_ALL_BIT_COUNT
            | C::WAVE_PREFIX_BIT_COUNT
            | C::WAVE_MATCH
            | C::WAVE_MULTI_PREFIX_OP
            | C::WAVE_MULTI_PREFIX_BIT_COUNT
            | C::IS_HELPER_LANE
            | C::QUAD_VOTE => self.wave_op(code, &args, inst),
            C::SET_MESH_OUTPUT_COUNTS..=C::DISPATCH_MESH | C::ATTRIBUTE_AT_VERTEX => {
                self.mesh_op(code, &args, inst)
            }
            _ => Err(self.unsupported(dx_op::refusal(code))),
        }
    }

    /// The arguments of a call (after the opcode for DXIL operations, the opcode included).
    pub(crate) fn call_args(&self, inst: &Instruction) -> R<Args<'s>> {
        let LlOp::Call { args, .. } = inst.op else {
            return Err(self.invalid("not a call"));
        };
        let body = self.body()?;
        let ops = body.operands(args);
        if ops.len() > MAX_ARGS {
            return Err(self.limit("call arguments", MAX_ARGS as u64));
        }
        if ops
            .iter()
            .any(|&o| o & crate::module::instructions::METADATA_OPERAND != 0)
        {
            return Err(self.unsupported("metadata arguments"));
        }
        Ok(Args { ids: ops })
    }

    /// Whether instruction `index` of the current function carries `!dx.precise`.
    pub(crate) fn is_precise_call(&self, index: u32) -> bool {
        let (Some(kind), Ok(body)) = (self.precise_kind, self.body()) else {
            return false;
        };
        body.instruction_attachments(index)
            .iter()
            .any(|a| a.kind == kind)
    }

    // -----------------------------------------------------------------------------------
    // Errors
    // -----------------------------------------------------------------------------------

    /// Where the converter is, with names.
    #[cold]
    fn here(&self) -> Where {
        let function = self
            .at
            .function
            .and_then(|f| self.m.functions.get(f as usize))
            .map(|f| self.m.text(f.name).into_owned())
            .unwrap_or_default();
        Where {
            function,
            block: self.at.block,
            instruction: self.at.instruction,
            what: self.at.what,
        }
    }

    /// A [`ConvertError::Invalid`] here.
    #[cold]
    #[inline(never)]
    pub(crate) fn invalid(&self, what: impl Into<String>) -> ConvertError {
        ConvertError::Invalid {
            at: self.here(),
            what: what.into(),
        }
    }

    /// A [`ConvertError::Unsupported`] here.
    #[cold]
    #[inline(never)]
    pub(crate) fn unsupported(&self, feature: &'static str) -> ConvertError {
        ConvertError::Unsupported {
            at: self.here(),
            feature,
        }
    }

    /// A [`ConvertError::Limit`] here.
    #[cold]
    #[inline(never)]
    pub(crate) fn limit(&self, what: &'static str, limit: u64) -> ConvertError {
        ConvertError::Limit {
            at: self.here(),
            what,
            limit,
        }
    }

    /// An IR type error as a converter error.
    #[cold]
    pub(crate) fn type_error(&self, e: dxspv_ir::TypeError) -> ConvertError {
        self.invalid(format!("type: {e}"))
    }

    /// Is the shader of stage `s`?
    pub(crate) fn is(&self, s: ShaderKind) -> bool {
        self.stage == s
    }

    /// A `u32` constant vector.
    pub(crate) fn const_u32_vec(&mut self, v: &[u32]) -> SsaDef {
        if let [one] = v {
            return self.c_u32(*one);
        }
        let mut lits = [0u64; 4];
        for (l, &x) in lits.iter_mut().zip(v) {
            *l = u64::from(x);
        }
        let n = v.len().min(4);
        self.b
            .add_constant(Type::vector(ScalarType::U32, n as u8), &lits[..n])
    }

    /// An address from parts (`u32` defs): `None` for none, the part itself for one, else a
    /// vector (a constant one when all parts are constants).
    pub(crate) fn address(&mut self, parts: &[SsaDef]) -> Option<SsaDef> {
        match parts {
            [] => None,
            [one] => Some(*one),
            _ => {
                let mut lits = [0u32; 4];
                let mut all_const = parts.len() <= 4;
                for (l, &p) in lits.iter_mut().zip(parts) {
                    match self.b.get(p) {
                        Some(op)
                            if op.opcode == OpCode::Constant && op.ty == ScalarType::U32.into() =>
                        {
                            *l = op.lit(0).unwrap_or(0) as u32;
                        }
                        _ => all_const = false,
                    }
                }
                if all_const {
                    return Some(self.const_u32_vec(&lits[..parts.len()]));
                }
                Some(self.vector(ScalarType::U32, parts))
            }
        }
    }
}

/// Most call arguments (the opcode included): `SampleCmpGrad` has 19.
const MAX_ARGS: usize = 24;

/// The arguments of a call, borrowed from the function body (checked to hold no
/// metadata operands), without allocation or copying.
#[derive(Clone, Copy)]
pub(crate) struct Args<'s> {
    ids: &'s [u32],
}

impl Args<'_> {
    /// Argument `i` (0 is the opcode of a DXIL operation).
    pub(crate) fn get(&self, i: usize) -> Option<ValueId> {
        self.ids.get(i).map(|&o| ValueId(o))
    }

    /// Number of arguments.
    pub(crate) fn len(&self) -> usize {
        self.ids.len()
    }
}

impl<'s> Converter<'s> {
    /// Argument `i` of a call, or an error naming it.
    pub(crate) fn arg(&self, args: &Args, i: usize) -> R<ValueId> {
        args.get(i)
            .ok_or_else(|| self.invalid(format!("operand {i} is missing")))
    }

    /// Argument `i` as an IR value.
    pub(crate) fn arg_def(&mut self, args: &Args, i: usize) -> R<SsaDef> {
        let a = self.arg(args, i)?;
        self.def(a)
    }

    /// Argument `i` as an IR value, `None` if `undef`.
    pub(crate) fn arg_opt(&mut self, args: &Args, i: usize) -> R<Option<SsaDef>> {
        let a = self.arg(args, i)?;
        self.def_or_undef(a)
    }

    /// Argument `i` as an integer constant.
    pub(crate) fn arg_const(&self, args: &Args, i: usize, what: &str) -> R<i64> {
        let a = self.arg(args, i)?;
        self.const_int(a)
            .ok_or_else(|| self.invalid(format!("{what} (operand {i}) must be a constant")))
    }
}

/// The shared frontend helpers ([`FrontendBuilder`]).
impl FrontendBuilder for Converter<'_> {
    #[inline(always)]
    fn ir(&mut self) -> (&mut Builder, &mut FrontendState) {
        (&mut self.b, &mut self.fe)
    }
}
