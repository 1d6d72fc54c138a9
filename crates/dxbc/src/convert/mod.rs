//! DXBC → dxspv IR: the SM 4.0–5.1 frontend.
//!
//! [`convert`] walks a decoded [`Shader`] once (after a cheap pre-scan for facts that
//! declarations need before they are seen: index ranges, control point counts, the GS input
//! primitive, ROV use) and appends IR to a [`Builder`] in the shape the IR contract
//! (`shared/spec/dxbc-ir.md`) expects from a frontend:
//!
//! - declarations (`EntryPoint`, `Set*`, `Dcl*`, constants, `Semantic`, `DebugName`) go to the
//!   declarative section through [`Builder::add_decl`], code is appended with [`Builder::add`];
//! - control flow is scoped (`ScopedIf`, `ScopedLoop`, `ScopedSwitch`), each opener patched to
//!   its end op once that exists;
//! - D3D's untyped registers become one `DclTmp` per register component (`Unknown` type), read
//!   with `TmpLoad` + `ConsumeAs <type>` where the instruction's type is known; in a program
//!   with subroutines (`label l#`, `label fb#`), whose functions share the registers, a
//!   module-scope `DclScratch unknown[1]` per register component instead (a `DclTmp` is local
//!   to its function);
//! - instructions are converted component by component: one IR op per written component.
//!
//! The work is split by concept: `registers` (operand loads and stores, modifiers,
//! saturation), `io` (signatures, inputs, outputs, system values, index ranges), `resources`
//! (declarations and descriptor loads), `alu` (arithmetic), `control_flow`, `memory`
//! (buffers, TGSM, atomics, barriers), `image` (sampling, loads, queries), `hull` (hull
//! shader phases and tessellator state) and `class_linkage` (interfaces, function bodies and
//! tables, `fcall`, `this`).
//!
//! [`convert_with`] takes [`ConvertOptions`]: what the shader alone does not say. Today that is
//! the class instances bound to the interface slots of a shader using SM 5.0 class linkage
//! ([`InterfaceBinding`]; see the `class_linkage` module for how calls are resolved); [`convert`]
//! uses the defaults.

mod alu;
mod block_cache;
mod class_linkage;
mod control_flow;
mod hull;
mod image;
mod io;
mod io_slots;
pub mod limits;
mod memory;
mod registers;
mod resources;

#[cfg(test)]
mod tests;

use dxspv_ir::{
    Builder, BuiltIn, DenormMode, Op, OpCode, OpFlags, PrimitiveType, RoundMode, ScalarType,
    SsaDef, TessPartitioning, Type,
};

use crate::decode::{Instruction, Stage};
use crate::opcode::Opcode;
use crate::{Payload, Shader};

pub use class_linkage::{
    ConvertOptions, InstanceData, InterfaceBinding, CONSTANT_BUFFER_SLOTS, MAX_INTERFACE_SLOTS,
    SAMPLER_SLOTS, TEXTURE_SLOTS,
};
pub(crate) use dxspv_ir::frontend::{lanes, NamePart};
use dxspv_ir::frontend::{FrontendBuilder, FrontendState, InstructionSite};
use dxspv_ir::small_map::SmallMap;
use io::IoFile;
use resources::Binding;

/// Why a shader could not be converted. Every instruction-level error names the instruction
/// index, its token offset and its opcode.
#[derive(Debug, thiserror::Error)]
pub enum ConvertError {
    /// The program could not be decoded.
    #[error(transparent)]
    Decode(#[from] crate::Error),
    /// The shader uses a D3D feature the converter does not handle.
    #[error("{at}: {feature} is not supported")]
    Unsupported {
        /// The instruction.
        at: InstructionSite,
        /// The feature, e.g. `abort`.
        feature: &'static str,
    },
    /// The program is malformed in a way the decoder does not check (missing operands,
    /// undeclared registers, unbalanced control flow, ...).
    #[error("{at}: {what}")]
    Invalid {
        /// The instruction.
        at: InstructionSite,
        /// What is wrong.
        what: String,
    },
}

impl ConvertError {
    /// The unsupported feature's name, if this error is [`ConvertError::Unsupported`].
    pub fn unsupported_feature(&self) -> Option<&'static str> {
        match self {
            Self::Unsupported { feature, .. } => Some(feature),
            _ => None,
        }
    }
}

/// Result type of the converter's internals: the error boxed, so that a result is a word or two
/// (an `R<SsaDef>` comes back in registers) rather than a [`ConvertError`]'s 48 bytes written
/// through memory by every call that can fail.
pub(crate) type R<T> = Result<T, Failure>;

/// A boxed [`ConvertError`] (see [`R`]).
#[derive(Debug)]
pub(crate) struct Failure(Box<ConvertError>);

impl From<ConvertError> for Failure {
    #[cold]
    fn from(e: ConvertError) -> Self {
        Failure(Box::new(e))
    }
}

impl From<crate::Error> for Failure {
    #[cold]
    fn from(e: crate::Error) -> Self {
        Failure(Box::new(ConvertError::Decode(e)))
    }
}

/// Converts a parsed DXBC shader into IR: scoped control flow, temporaries and `Unknown`
/// types, as the IR contract describes a frontend's output. Uses the default
/// [`ConvertOptions`] (for class linkage: every interface slot bound to the first function table
/// its declaration lists, with zero instance data).
pub fn convert(shader: &Shader<'_>) -> Result<Builder, ConvertError> {
    convert_with(shader, &ConvertOptions::default())
}

/// [`convert`] with options: the class instances bound to the shader's interface slots.
pub fn convert_with(
    shader: &Shader<'_>,
    options: &ConvertOptions<'_>,
) -> Result<Builder, ConvertError> {
    let mut c = Converter::new(shader, *options);
    // One instruction buffer for both walks.
    let mut inst = Instruction::default();
    let done = c
        .prescan(&mut inst)
        .and_then(|()| c.run(&mut inst))
        .and_then(|()| c.finish());
    match done {
        Ok(()) => Ok(c.b),
        Err(Failure(e)) => Err(*e),
    }
}

/// Where in the program the converter is, for error messages: an [`InstructionSite`] with
/// the opcode kept as an [`Opcode`], whose mnemonic is looked up only when an error is made
/// (the lookup per instruction cost time and, in a fresh process, a page of the name table).
#[derive(Clone, Copy, Debug)]
pub(crate) struct At {
    index: u32,
    offset: u32,
    /// `None` before the first instruction.
    opcode: Option<Opcode>,
}

impl At {
    /// The site as errors report it.
    #[cold]
    #[inline(never)]
    fn site(self) -> InstructionSite {
        InstructionSite {
            index: self.index,
            offset: self.offset,
            opcode: self.opcode.map_or("", Opcode::mnemonic),
        }
    }
}

/// One open scoped construct.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Cf {
    /// `if`, with the `ScopedIf` op and whether its `else` was seen.
    If(SsaDef, bool),
    /// `loop`, with the `ScopedLoop` op.
    Loop(SsaDef),
    /// `switch`, with the `ScopedSwitch` op.
    Switch(SsaDef),
}

/// A declared index range (`dcl_indexrange`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct IndexRange {
    file: IoFile,
    start: u32,
    count: u32,
}

/// A constant buffer or input read: descriptor or declaration, address and the type read as.
pub(crate) type CbRead = (SsaDef, Option<SsaDef>, ScalarType);

/// The conversion state. Submodules add `impl Converter` blocks for their concern.
pub(crate) struct Converter<'a, 's> {
    shader: &'a Shader<'s>,
    options: ConvertOptions<'a>,
    pub(crate) b: Builder,
    stage: Stage,
    sm51: bool,
    ep: SsaDef,
    at: At,
    // Functions.
    func: Option<SsaDef>,
    last_return: bool,
    /// The first constant address past the end of what it indexes (`vicp[250]` of three
    /// control points), reported once the instruction that made it is converted.
    bad_address: Option<Failure>,
    main: Option<SsaDef>,
    cf: Vec<Cf>,
    label_fns: SmallMap<u32, SsaDef, 2>,
    pending_calls: Vec<(SsaDef, u32)>,
    // Registers.
    /// Each `r#` component (index `4 * reg + component`), sized by `dcl_temps`.
    temps: Vec<registers::TempSlot>,
    /// The indices of `temps` whose `value` is set.
    temp_dirty: Vec<u32>,
    /// Whether `r#` live in module-scope scratch instead of `DclTmp`s: in a program with
    /// subroutines (`label`), whose registers are shared by every function, while a `DclTmp`
    /// is local to one.
    shared_temps: bool,
    itemps: SmallMap<u32, (SsaDef, u32, u32), 2>,
    icb: Option<(SsaDef, Vec<u32>)>,
    // I/O.
    io: io::IoMap,
    builtins: SmallMap<(bool, u32, BuiltIn), (SsaDef, Type), 4>,
    fresh_builtin: bool,
    index_ranges: Vec<IndexRange>,
    stream: u32,
    stream_mask: u32,
    gs_vertices: u32,
    gs_input: Option<PrimitiveType>,
    gs_output: Option<PrimitiveType>,
    /// Whether `dcl_maxout` was seen (a geometry shader needs exactly one).
    gs_max_vertices_declared: bool,
    /// Whether `dcl_thread_group` was seen (a compute shader needs exactly one).
    thread_group_declared: bool,
    hs_in: u32,
    hs_out: u32,
    // Resources.
    cbvs: SmallMap<u32, Binding, 4>,
    srvs: SmallMap<u32, Binding, 4>,
    uavs: SmallMap<u32, Binding, 4>,
    samplers: SmallMap<u32, Binding, 4>,
    /// The `DescriptorLoad`s of the current stretch of straight-line code, by declaration,
    /// index and `NonUniform` flag: a resource read again in the same block reuses its
    /// descriptor (what CSE would make of it) instead of loading it again. Cleared where
    /// control flow begins or ends (see [`FrontendBuilder::code`] below).
    descriptors: block_cache::BlockCache<(SsaDef, SsaDef, bool), 8>,
    /// The constant buffer reads of the current stretch of straight-line code, by descriptor,
    /// address and the type read as (the `BufferLoad` itself under `f32`): a constant buffer
    /// does not change while a shader runs, so a component read again in the same block
    /// reuses the value. Cleared with `descriptors` (each entry's descriptor is one of them).
    cb_loads: block_cache::BlockCache<CbRead, 16>,
    /// The input reads of the current stretch of straight-line code, by declaration, address
    /// and the type read as (the `InputLoad` itself under the declaration's type): inputs do
    /// not change while a shader runs. Cleared where control flow begins or ends.
    input_loads: block_cache::BlockCache<CbRead, 16>,
    /// Constant address vectors made so far.
    addresses: registers::AddressCache,
    lds: SmallMap<u32, (SsaDef, u32), 2>,
    counters: SmallMap<u32, SsaDef, 2>,
    rov: bool,
    sample_rate: bool,
    // Hull and domain shaders.
    hs: hull::HullState,
    // Class linkage.
    cl: class_linkage::State,
    // Flags.
    global_flags: u32,
    /// The shared frontend helpers' state (constant cache, name buffer).
    fe: FrontendState,
}

impl<'a, 's> Converter<'a, 's> {
    fn new(shader: &'a Shader<'s>, options: ConvertOptions<'a>) -> Self {
        let version = shader.program.version;
        let stage = version.stage;
        // Over the corpus the lowered IR has 1.15 ops per token at the median (1.9 at p90):
        // room for most shaders without regrowing, and no more, since every page a first
        // compile touches is a page fault (~1.6 us).
        let tokens = shader.program.tokens.len();
        let mut b = Builder::with_capacities(tokens * 5 / 4 + 8, tokens * 3 / 2, 16);
        let ir_stage = stage.ir();
        // Functions are patched in by `finish`.
        let ep =
            b.add_decl(Op::new(OpCode::EntryPoint, Type::VOID).with_lit(ir_stage.to_literal()));
        b.add_decl(
            Op::new(OpCode::DebugName, Type::VOID)
                .with_ref(ep)
                .with_str("main"),
        );
        Converter {
            shader,
            options,
            b,
            stage,
            sm51: version.is_sm51(),
            ep,
            at: At {
                index: 0,
                offset: 0,
                opcode: None,
            },
            func: None,
            last_return: false,
            bad_address: None,
            main: None,
            cf: Vec::new(),
            label_fns: SmallMap::default(),
            pending_calls: Vec::new(),
            temps: Vec::new(),
            temp_dirty: Vec::new(),
            shared_temps: false,
            itemps: SmallMap::default(),
            icb: None,
            io: io::IoMap::default(),
            builtins: SmallMap::default(),
            fresh_builtin: false,
            index_ranges: Vec::new(),
            stream: 0,
            stream_mask: 0,
            gs_vertices: 0,
            gs_input: None,
            gs_output: None,
            gs_max_vertices_declared: false,
            thread_group_declared: false,
            hs_in: 0,
            hs_out: 0,
            cbvs: SmallMap::default(),
            srvs: SmallMap::default(),
            uavs: SmallMap::default(),
            samplers: SmallMap::default(),
            descriptors: Default::default(),
            cb_loads: Default::default(),
            input_loads: Default::default(),
            addresses: registers::AddressCache::default(),
            lds: SmallMap::default(),
            counters: SmallMap::default(),
            rov: false,
            sample_rate: false,
            hs: hull::HullState::default(),
            cl: class_linkage::State::default(),
            global_flags: 0,
            fe: FrontendState::default(),
        }
    }

    // ---------------------------------------------------------------------------------------
    // Errors
    // ---------------------------------------------------------------------------------------

    /// An [`ConvertError::Invalid`] at the current instruction.
    #[cold]
    #[inline(never)]
    pub(crate) fn invalid(&self, what: impl Into<String>) -> Failure {
        Failure(Box::new(ConvertError::Invalid {
            at: self.at.site(),
            what: what.into(),
        }))
    }

    /// An [`ConvertError::Unsupported`] at the current instruction.
    #[cold]
    #[inline(never)]
    pub(crate) fn unsupported(&self, feature: &'static str) -> Failure {
        Failure(Box::new(ConvertError::Unsupported {
            at: self.at.site(),
            feature,
        }))
    }

    fn set_at(&mut self, inst: &Instruction<'_>) {
        self.at = At {
            index: inst.index,
            offset: inst.offset,
            opcode: Some(inst.opcode),
        };
    }

    // ---------------------------------------------------------------------------------------
    // Emission helpers
    // ---------------------------------------------------------------------------------------

    /// Records an error if `op` indexes its operand (a register array, a vector) with a
    /// constant address past its end: Direct3D leaves such an access undefined and fxc never
    /// writes one, so it is refused rather than guessed at.
    #[inline(never)]
    fn check_address(&mut self, op: &Op) {
        let (Some(target), Some(addr)) = (op.arg(0), op.arg(1)) else {
            return;
        };
        let (Some(target), Some(addr)) = (self.b.get(target), self.b.get(addr)) else {
            return;
        };
        if addr.opcode != OpCode::Constant {
            return;
        }
        let n = addr.ty.as_basic().map_or(0, |b| b.vec_size() as usize);
        // The usual case first: one component of a register.
        if let (1, Some(b), Some(i)) = (n, target.ty.as_basic(), addr.lit(0)) {
            if target.ty.dims().is_empty() && i < u64::from(b.vec_size()) {
                return;
            }
        }
        if let Err(k) = target.ty.at_address((0..n).map(|k| addr.lit(k))) {
            let index = addr.lit(k).unwrap_or(0);
            let what = format!("constant index {index} is outside {}", target.ty);
            self.bad_address = Some(self.invalid(what));
        }
    }

    // ---------------------------------------------------------------------------------------
    // Functions
    // ---------------------------------------------------------------------------------------

    /// Opens a function with the given parameters and its first block.
    pub(crate) fn begin_function(&mut self, params: &[SsaDef], name: &str) -> R<SsaDef> {
        self.end_function()?;
        let mut op = Op::new(OpCode::Function, Type::VOID);
        for &p in params {
            op = op.with_ref(p);
        }
        let f = self.code(op);
        self.name(f, name);
        self.code(
            Op::new(OpCode::Label, Type::VOID).with_lit(dxspv_ir::Construct::None.to_literal()),
        );
        self.func = Some(f);
        Ok(f)
    }

    /// Closes the open function, if any, adding a final `Return` where missing.
    pub(crate) fn end_function(&mut self) -> R<()> {
        if self.func.is_none() {
            return Ok(());
        }
        if let Some(open) = self.cf.last() {
            return Err(self.invalid(format!("function ends inside an open {open:?} block")));
        }
        if !self.last_return {
            self.emit_return();
        }
        self.code(Op::new(OpCode::FunctionEnd, Type::VOID));
        self.func = None;
        Ok(())
    }

    /// Emits `Return` from the current function (closing a ROV critical section first).
    pub(crate) fn emit_return(&mut self) {
        if self.rov && self.func.is_some() && self.func == self.main {
            self.rov_lock_end();
        }
        self.code(Op::new(OpCode::Return, Type::VOID).with_opt_ref(None));
    }

    /// Makes sure code can be emitted: opens the main function if none is open.
    fn ensure_function(&mut self) -> R<()> {
        if self.func.is_some() {
            return Ok(());
        }
        if self.stage == Stage::Hull {
            // Code before any phase: treat it as the control point phase.
            return self.begin_hs_phase(Opcode::HsControlPointPhase);
        }
        if self.main.is_some() {
            return Err(self.invalid("code after the end of the program"));
        }
        // `main` is set before the Function op so that `begin_function` sees it.
        let f = self.begin_function_main()?;
        self.main = Some(f);
        Ok(())
    }

    fn begin_function_main(&mut self) -> R<SsaDef> {
        // Reserve the name: main is the entry function.
        let f = self.begin_function(&[], "main")?;
        self.main = Some(f);
        if self.rov {
            self.rov_lock_begin();
        }
        Ok(f)
    }

    // ---------------------------------------------------------------------------------------
    // Driver
    // ---------------------------------------------------------------------------------------

    /// First walk: facts declarations need before they are seen.
    fn prescan(&mut self, inst: &mut Instruction<'s>) -> R<()> {
        let mut insts = self.shader.program.instructions();
        // Only the declarations read below are taken apart here (everything is decoded by
        // `run`, which reports what is wrong with the rest); the others are stepped over by
        // their opcode tokens.
        loop {
            if let Some(bare) = insts.skip_unselected(prescan_reads) {
                self.at = At {
                    index: bare.index,
                    offset: bare.offset,
                    opcode: Some(bare.opcode),
                };
                self.prescan_opcode(bare.opcode, bare.token);
                continue;
            }
            let Some(r) = insts.next_into(inst) else {
                break;
            };
            r?;
            self.set_at(inst);
            match (inst.opcode, &inst.payload) {
                (Opcode::DclIndexRange, Payload::IndexRange { count }) => {
                    let Some(op) = inst.operands().first() else {
                        return Err(self.invalid("index range without a register"));
                    };
                    let file = self.io_file_of(op.ty)?;
                    let start = match op.indices() {
                        [reg] | [_, reg] => reg.imm as u32,
                        _ => return Err(self.invalid("index range register has no index")),
                    };
                    self.index_ranges.push(IndexRange {
                        file,
                        start,
                        count: *count,
                    });
                }
                (Opcode::DclGsInputPrimitive, Payload::GsInputPrimitive(p)) => {
                    self.gs_input = io::gs_primitive(*p);
                    self.gs_vertices = self.gs_input.map_or(1, PrimitiveType::vertex_count);
                }
                (Opcode::DclInputControlPointCount, Payload::ControlPointCount(n)) => {
                    self.hs_in = *n;
                }
                (Opcode::DclOutputControlPointCount, Payload::ControlPointCount(n)) => {
                    self.hs_out = *n;
                }
                (Opcode::DclFunctionTable | Opcode::DclInterface, _) => {
                    self.prescan_class_linkage(inst)?;
                }
                _ => {
                    let token = self.shader.program.tokens.get(inst.offset as usize);
                    self.prescan_opcode(inst.opcode, token.unwrap_or(0));
                }
            }
        }
        if self.stage != Stage::Pixel {
            self.rov = false;
        }
        self.hs.in_patch_phase = false;
        self.resolve_class_linkage()
    }

    /// The prescan's facts that an instruction's opcode token gives (`token`).
    #[inline]
    fn prescan_opcode(&mut self, opcode: Opcode, token: u32) {
        match opcode {
            Opcode::HsControlPointPhase => {
                self.hs.has_cp_phase = true;
                self.hs.in_patch_phase = false;
            }
            Opcode::HsForkPhase | Opcode::HsJoinPhase => self.hs.in_patch_phase = true,
            Opcode::Label => self.shared_temps = true,
            Opcode::DclUnorderedAccessViewTyped
            | Opcode::DclUnorderedAccessViewRaw
            | Opcode::DclUnorderedAccessViewStructured => {
                // The rasterizer-ordered flag is bit 17 of the opcode token (as the decoder
                // reads it): the declaration is decoded once, by `run`.
                self.rov |= token & (1 << 17) != 0;
            }
            Opcode::DclInputPs | Opcode::DclInputPsSiv | Opcode::DclInputPsSgv => {
                // The interpolation mode is a field of the opcode token: the declaration is
                // not decoded twice for it (`run` decodes it and checks the mode).
                use crate::enums::Interpolation as I;
                let mode = I::from_raw((token >> 11) & 0xf);
                self.sample_rate |=
                    matches!(mode, Some(I::LinearSample | I::LinearNoPerspectiveSample));
            }
            _ => {}
        }
    }

    /// Refuses instructions Direct3D allows only in one stage (emit/cut in geometry shaders;
    /// discard, derivatives, implicit-LOD sampling and `eval_*` in pixel shaders): Vulkan has
    /// no meaning for them elsewhere, so a program using them is malformed.
    fn check_stage(&self, opcode: Opcode) -> R<()> {
        use Opcode as O;
        use Stage::{Compute, Domain, Geometry, Hull, Pixel};
        let allowed: &[Stage] = match opcode {
            O::Emit
            | O::Cut
            | O::EmitThenCut
            | O::EmitStream
            | O::CutStream
            | O::EmitThenCutStream
            | O::DclGsInputPrimitive
            | O::DclGsOutputPrimitiveTopology
            | O::DclMaxOutputVertexCount
            | O::DclGsInstanceCount
            | O::DclStream => &[Geometry],
            O::Discard
            | O::DerivRtx
            | O::DerivRty
            | O::DerivRtxCoarse
            | O::DerivRtxFine
            | O::DerivRtyCoarse
            | O::DerivRtyFine
            | O::Sample
            | O::SampleB
            | O::SampleC
            | O::Lod
            | O::SampleClampFeedback
            | O::SampleBClampFeedback
            | O::SampleCClampFeedback
            | O::EvalSnapped
            | O::EvalSampleIndex
            | O::EvalCentroid
            | O::DclInputPs
            | O::DclInputPsSgv
            | O::DclInputPsSiv => &[Pixel],
            O::HsDecls
            | O::HsControlPointPhase
            | O::HsForkPhase
            | O::HsJoinPhase
            | O::DclHsForkPhaseInstanceCount
            | O::DclHsJoinPhaseInstanceCount
            | O::DclHsMaxTessFactor
            | O::DclOutputControlPointCount
            | O::DclTessPartitioning
            | O::DclTessOutputPrimitive => &[Hull],
            O::DclTessDomain | O::DclInputControlPointCount => &[Hull, Domain],
            O::DclThreadGroup
            | O::DclThreadGroupSharedMemoryRaw
            | O::DclThreadGroupSharedMemoryStructured => &[Compute],
            _ => return Ok(()),
        };
        if allowed.contains(&self.stage) {
            Ok(())
        } else {
            let names: Vec<String> = allowed.iter().map(|s| format!("{s:?}")).collect();
            Err(self.invalid(format!(
                "`{}` is only allowed in {} shaders",
                opcode.mnemonic(),
                names.join(" and ")
            )))
        }
    }

    /// Second walk: converts every instruction.
    fn run(&mut self, inst: &mut Instruction<'s>) -> R<()> {
        if self.stage != Stage::Hull {
            self.ensure_function()?;
        }
        let mut insts = self.shader.program.instructions();
        while let Some(r) = insts.next_into(inst) {
            r?;
            self.set_at(inst);
            if inst.index >= limits::MAX_INSTRUCTIONS {
                return Err(self.invalid(format!(
                    "more than {} instructions (limit)",
                    limits::MAX_INSTRUCTIONS
                )));
            }
            self.instruction(inst)?;
            if let Some(e) = self.bad_address.take() {
                return Err(e);
            }
        }
        Ok(())
    }

    /// Closes functions and emits the state only known at the end.
    fn finish(&mut self) -> R<()> {
        self.end_function()?;
        // (No heap: at most two functions.)
        let mut functions = [None; 2];
        if self.stage == Stage::Hull {
            let (cp, pc) = self.finish_hull()?;
            functions = [Some(cp), Some(pc)];
        } else if let Some(m) = self.main {
            functions[0] = Some(m);
        }
        for &(call, label) in &self.pending_calls {
            let Some(&f) = self.label_fns.get(&label) else {
                return Err(self.invalid(format!("call to undefined label l{label}")));
            };
            self.b.set_operand(call, 0, dxspv_ir::Operand::from_def(f));
        }
        self.finish_class_linkage()?;
        self.finish_modes()?;
        let stage_lit = self.b.get(self.ep).and_then(|op| op.lit(0)).unwrap_or(0);
        let mut op = Op::new(OpCode::EntryPoint, Type::VOID);
        for f in functions.into_iter().flatten() {
            op.operands.push(dxspv_ir::Operand::from_def(f));
        }
        let op = op.with_lit(stage_lit);
        self.b.rewrite(self.ep, op);
        Ok(())
    }

    /// Mode-setting ops whose operands are only known at the end.
    fn finish_modes(&mut self) -> R<()> {
        let ep = self.ep;
        if self.stage == Stage::Geometry {
            // Output topology and vertex count may be left out by a shader that emits
            // nothing (the backend then declares points, 1 vertex); the input primitive shapes
            // every input and must be there.
            if self.gs_input.is_none() {
                return Err(self.invalid("geometry shader without dcl_inputprimitive"));
            }
        }
        if self.stage == Stage::Compute && !self.thread_group_declared {
            return Err(self.invalid("compute shader without dcl_thread_group"));
        }
        if self.stage == Stage::Geometry {
            if let Some(p) = self.gs_output {
                let mask = if self.stream_mask == 0 {
                    1
                } else {
                    self.stream_mask
                };
                self.decl(
                    Op::new(OpCode::SetGsOutputPrimitive, Type::VOID)
                        .with_ref(ep)
                        .with_lit(p.to_literal())
                        .with_lit(mask as u64),
                );
            }
            if let Some(p) = self.gs_input {
                self.decl(
                    Op::new(OpCode::SetGsInputPrimitive, Type::VOID)
                        .with_ref(ep)
                        .with_lit(p.to_literal()),
                );
            }
        }
        if matches!(self.stage, Stage::Hull | Stage::Domain) {
            self.finish_tess_modes();
        }
        // Float modes from the global flags.
        let mut flags = OpFlags::empty();
        if self.global_flags & 1 == 0 {
            flags |= OpFlags::PRECISE;
        }
        // (No heap: a fixed list, filtered by the flags.)
        let types = [
            (ScalarType::F32, DenormMode::Flush, true),
            (
                ScalarType::F64,
                DenormMode::Preserve,
                self.global_flags & ((1 << 1) | (1 << 6)) != 0,
            ),
            (
                ScalarType::F16,
                DenormMode::Preserve,
                self.global_flags & (1 << 5) != 0,
            ),
        ];
        for (ty, denorm, _) in types.into_iter().filter(|t| t.2) {
            self.decl(
                Op::new(OpCode::SetFpMode, ty)
                    .with_ref(ep)
                    .with_lit(RoundMode::NearestEven.to_literal())
                    .with_lit(denorm.to_literal())
                    .with_flags(flags),
            );
        }
        Ok(())
    }

    /// Converts one instruction.
    fn instruction(&mut self, inst: &Instruction<'_>) -> R<()> {
        use Opcode as O;
        self.check_stage(inst.opcode)?;
        match inst.opcode {
            // Declarations.
            O::DclGlobalFlags => {
                if let Payload::GlobalFlags(f) = inst.payload {
                    self.global_flags = f.0;
                    if f.0 & (1 << 2) != 0 && self.stage == Stage::Pixel {
                        let ep = self.ep;
                        self.decl(Op::new(OpCode::SetPsEarlyFragmentTest, Type::VOID).with_ref(ep));
                    }
                }
                Ok(())
            }
            O::DclTemps => {
                if let Payload::Temps(n) = inst.payload {
                    self.declare_temps(n)?;
                }
                Ok(())
            }
            O::DclIndexableTemp => self.declare_indexable_temp(inst),
            O::DclConstantBuffer
            | O::DclSampler
            | O::DclResource
            | O::DclResourceRaw
            | O::DclResourceStructured
            | O::DclUnorderedAccessViewTyped
            | O::DclUnorderedAccessViewRaw
            | O::DclUnorderedAccessViewStructured
            | O::DclThreadGroupSharedMemoryRaw
            | O::DclThreadGroupSharedMemoryStructured => self.declare_resource(inst),
            O::DclInput
            | O::DclInputSgv
            | O::DclInputSiv
            | O::DclInputPs
            | O::DclInputPsSgv
            | O::DclInputPsSiv
            | O::DclOutput
            | O::DclOutputSgv
            | O::DclOutputSiv => self.declare_io(inst),
            O::DclIndexRange => Ok(()),
            O::DclGsInputPrimitive => Ok(()),
            O::DclGsOutputPrimitiveTopology => {
                if let Payload::GsOutputTopology(t) = inst.payload {
                    self.gs_output = io::gs_topology(t);
                }
                Ok(())
            }
            O::DclMaxOutputVertexCount => {
                if let Payload::MaxOutputVertexCount(n) = inst.payload {
                    if std::mem::replace(&mut self.gs_max_vertices_declared, true) {
                        return Err(self.invalid("second dcl_maxout"));
                    }
                    if n == 0 || n > limits::MAX_GS_OUTPUT_VERTICES {
                        return Err(self.invalid(format!(
                            "dcl_maxout {n} is outside 1 to {}",
                            limits::MAX_GS_OUTPUT_VERTICES
                        )));
                    }
                    let ep = self.ep;
                    self.decl(
                        Op::new(OpCode::SetGsOutputVertices, Type::VOID)
                            .with_ref(ep)
                            .with_lit(n as u64),
                    );
                }
                Ok(())
            }
            O::DclGsInstanceCount => {
                if let Payload::GsInstanceCount(n) = inst.payload {
                    if n == 0 || n > limits::MAX_GS_INSTANCES {
                        return Err(self.invalid(format!(
                            "dcl_gsinstances {n} is outside 1 to {}",
                            limits::MAX_GS_INSTANCES
                        )));
                    }
                    let ep = self.ep;
                    self.decl(
                        Op::new(OpCode::SetGsInstances, Type::VOID)
                            .with_ref(ep)
                            .with_lit(n as u64),
                    );
                }
                Ok(())
            }
            O::DclStream => {
                let Some(op) = inst.operands().first() else {
                    return Err(self.invalid("dcl_stream without a stream operand"));
                };
                let s = op.imm_index(0).unwrap_or(0);
                if s > 3 {
                    return Err(self.invalid(format!("stream {s} is out of range")));
                }
                self.stream = s as u32;
                self.stream_mask |= 1 << s;
                Ok(())
            }
            O::DclThreadGroup => {
                if let Payload::ThreadGroup([x, y, z]) = inst.payload {
                    if std::mem::replace(&mut self.thread_group_declared, true) {
                        return Err(self.invalid("second dcl_thread_group"));
                    }
                    if x == 0 || y == 0 || z == 0 {
                        return Err(self.invalid(format!(
                            "thread group size {x}x{y}x{z} has a zero dimension"
                        )));
                    }
                    let [mx, my, mz] = limits::MAX_THREAD_GROUP;
                    // (Each dimension is checked first, so the product cannot overflow.)
                    if x > mx
                        || y > my
                        || z > mz
                        || u64::from(x * y) * u64::from(z) > limits::MAX_THREADS_PER_GROUP
                    {
                        return Err(self.invalid(format!(
                            "thread group size {x}x{y}x{z} is past Direct3D's limits \
                             ({mx}x{my}x{mz}, {} threads)",
                            limits::MAX_THREADS_PER_GROUP
                        )));
                    }
                    let ep = self.ep;
                    self.decl(
                        Op::new(OpCode::SetCsWorkgroupSize, Type::VOID)
                            .with_ref(ep)
                            .with_lit(x as u64)
                            .with_lit(y as u64)
                            .with_lit(z as u64),
                    );
                }
                Ok(())
            }
            O::DclInputControlPointCount
            | O::DclOutputControlPointCount
            | O::DclTessDomain
            | O::DclTessPartitioning
            | O::DclTessOutputPrimitive
            | O::DclHsMaxTessFactor
            | O::DclHsForkPhaseInstanceCount
            | O::DclHsJoinPhaseInstanceCount => self.hull_declaration(inst),
            O::HsDecls => Ok(()),
            O::HsControlPointPhase | O::HsForkPhase | O::HsJoinPhase => {
                self.begin_hs_phase(inst.opcode)
            }
            // Read by the prescan.
            O::DclFunctionBody | O::DclFunctionTable | O::DclInterface => Ok(()),
            O::InterfaceCall => {
                self.ensure_function()?;
                self.interface_call(inst)
            }
            O::CustomData => self.custom_data(inst),
            O::Nop => Ok(()),
            _ => {
                self.ensure_function()?;
                self.code_instruction(inst)
            }
        }
    }

    /// Converts a non-declaration instruction.
    pub(crate) fn code_instruction(&mut self, inst: &Instruction<'_>) -> R<()> {
        use Opcode as O;
        if self.cl.any() && self.has_instance_resource(inst) {
            return self.instance_resource_instruction(inst);
        }
        match inst.opcode {
            O::If
            | O::Else
            | O::EndIf
            | O::Loop
            | O::EndLoop
            | O::Break
            | O::Breakc
            | O::Continue
            | O::Continuec
            | O::Switch
            | O::Case
            | O::Default
            | O::EndSwitch
            | O::Ret
            | O::Retc
            | O::Discard
            | O::Call
            | O::Callc
            | O::Label => self.control_flow(inst),
            O::Emit
            | O::Cut
            | O::EmitThenCut
            | O::EmitStream
            | O::CutStream
            | O::EmitThenCutStream => self.gs_emit(inst),
            O::Sync => self.sync(inst),
            O::LdRaw
            | O::LdRawFeedback
            | O::LdStructured
            | O::LdStructuredFeedback
            | O::StoreRaw
            | O::StoreStructured
            | O::AtomicAnd
            | O::AtomicOr
            | O::AtomicXor
            | O::AtomicCmpStore
            | O::AtomicIadd
            | O::AtomicImax
            | O::AtomicImin
            | O::AtomicUmax
            | O::AtomicUmin
            | O::ImmAtomicIadd
            | O::ImmAtomicAnd
            | O::ImmAtomicOr
            | O::ImmAtomicXor
            | O::ImmAtomicExch
            | O::ImmAtomicCmpExch
            | O::ImmAtomicImax
            | O::ImmAtomicImin
            | O::ImmAtomicUmax
            | O::ImmAtomicUmin
            | O::ImmAtomicAlloc
            | O::ImmAtomicConsume
            | O::BufInfo => self.memory(inst),
            O::Sample
            | O::SampleC
            | O::SampleCLz
            | O::SampleL
            | O::SampleD
            | O::SampleB
            | O::SampleLFeedback
            | O::SampleCLzFeedback
            | O::SampleClampFeedback
            | O::SampleBClampFeedback
            | O::SampleDClampFeedback
            | O::SampleCClampFeedback
            | O::Gather4
            | O::Gather4C
            | O::Gather4Po
            | O::Gather4PoC
            | O::Gather4Feedback
            | O::Gather4CFeedback
            | O::Gather4PoFeedback
            | O::Gather4PoCFeedback
            | O::Ld
            | O::LdMs
            | O::LdFeedback
            | O::LdMsFeedback
            | O::LdUavTyped
            | O::LdUavTypedFeedback
            | O::StoreUavTyped
            | O::ResInfo
            | O::SampleInfo
            | O::SamplePos
            | O::Lod
            | O::CheckAccessFullyMapped => self.image(inst),
            O::EvalCentroid | O::EvalSampleIndex | O::EvalSnapped => self.eval(inst),
            O::Abort => Err(self.unsupported("abort")),
            O::DebugBreak => Ok(()),
            _ => self.alu(inst),
        }
    }

    /// Immediate constant buffers; other custom data is ignored.
    fn custom_data(&mut self, inst: &Instruction<'_>) -> R<()> {
        let Payload::CustomData { class, data } = inst.payload else {
            return Ok(());
        };
        if class != crate::enums::CustomDataClass::ImmediateConstantBuffer {
            return Ok(());
        }
        if data.len() / 4 > limits::MAX_ICB_ROWS {
            return Err(self.invalid(format!(
                "immediate constant buffer of {} rows exceeds the limit of {}",
                data.len() / 4,
                limits::MAX_ICB_ROWS
            )));
        }
        let mut words: Vec<u32> = data.iter().collect();
        while words.len() % 4 != 0 {
            words.push(0);
        }
        let n = (words.len() / 4).max(1) as u32;
        if words.is_empty() {
            words.resize(4, 0);
        }
        let ty = Type::vector(ScalarType::U32, 4)
            .array_of(n)
            .map_err(|e| self.invalid(e.to_string()))?;
        let lits: Vec<u64> = words.iter().map(|&w| w as u64).collect();
        let c = self.b.add_constant(ty, &lits);
        self.name(c, "icb");
        self.icb = Some((c, words));
        Ok(())
    }

    /// True if the shader is of stage `s`.
    pub(crate) fn is_stage(&self, s: Stage) -> bool {
        self.stage == s
    }
}

/// The shared frontend helpers ([`FrontendBuilder`]), with the converter's own bookkeeping on
/// every code op.
impl FrontendBuilder for Converter<'_, '_> {
    #[inline(always)]
    fn ir(&mut self) -> (&mut Builder, &mut FrontendState) {
        (&mut self.b, &mut self.fe)
    }

    /// Appends a code op, tracking whether the function's last op is a `Return`.
    #[inline(always)]
    fn code(&mut self, op: Op) -> SsaDef {
        // Register arrays are what DXBC indexes with immediates (the converter's own extracts
        // and inserts pick swizzle components, always in range).
        if op.opcode.addresses_operand_type()
            && !matches!(
                op.opcode,
                OpCode::CompositeExtract | OpCode::CompositeInsert
            )
            && self.bad_address.is_none()
        {
            self.check_address(&op);
        }
        self.code_in_range(op)
    }
}

impl Converter<'_, '_> {
    /// [`FrontendBuilder::code`] for an op whose address, if it has one, the converter made
    /// itself from declarations (an I/O slot's component or built-in array index): in range
    /// by construction, so not checked again.
    #[inline(always)]
    pub(crate) fn code_in_range(&mut self, op: Op) -> SsaDef {
        if (!self.temp_dirty.is_empty()
            || !self.descriptors.is_empty()
            || !self.input_loads.is_empty())
            && starts_or_ends_block(op.opcode)
        {
            if !self.temp_dirty.is_empty() {
                self.flush_temps(op.opcode);
            }
            self.descriptors.clear();
            self.cb_loads.clear();
            self.input_loads.clear();
        }
        self.last_return = op.opcode == OpCode::Return;
        self.b.add(op)
    }
}

/// Whether the prescan reads the operands or payload of an instruction with this opcode (it
/// sees the opcodes of all).
fn prescan_reads(opcode: Opcode) -> bool {
    use Opcode as O;
    matches!(
        opcode,
        O::DclIndexRange
            | O::DclGsInputPrimitive
            | O::DclInputControlPointCount
            | O::DclOutputControlPointCount
            | O::DclFunctionTable
            | O::DclInterface
    )
}

/// True for the ops at which a stretch of straight-line code ends: scoped and block-form
/// control flow, calls and function boundaries (see [`Converter::flush_temps`]).
#[inline]
fn starts_or_ends_block(opcode: OpCode) -> bool {
    opcode.is_scoped()
        || opcode.is_terminator()
        || opcode.is_control_flow()
        || matches!(
            opcode,
            OpCode::FunctionCall | OpCode::Function | OpCode::FunctionEnd
        )
}

/// Partitioning as the IR names it.
pub(crate) fn partitioning(p: crate::enums::TessPartitioning) -> TessPartitioning {
    use crate::enums::TessPartitioning as P;
    match p {
        P::Pow2 => TessPartitioning::Pow2,
        P::FractionalOdd => TessPartitioning::FractOdd,
        P::FractionalEven => TessPartitioning::FractEven,
        P::Integer | P::Undefined => TessPartitioning::Integer,
    }
}
