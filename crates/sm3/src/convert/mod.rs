//! Direct3D 9 (SM 1.x–3.0) → dxspv IR.
//!
//! [`convert`] turns a parsed [`Shader`] into the raw IR a frontend hands to the pass
//! pipeline (`shared/spec/dxbc-ir.md`): scoped control flow, temporaries, and one IR op
//! per written component. It makes two walks over the token stream:
//!
//! 1. the prescan: `def`/`defi`/`defb` values, `dcl`s, where each `label` starts, and
//!    the checks that refuse what no Direct3D 9 device runs (a register past the model's
//!    [`Limits`], flow control the model lacks), and, for straight-line code, which
//!    components of each instruction's result are read later (`liveness`: instructions
//!    computing nothing that is read are skipped, write masks narrowed to what is read);
//! 2. the conversion of `main`, from the first instruction to its `ret` (or the first
//!    `label`, or the end). `call`/`callnz` inline the subroutine: Direct3D 9 subroutines
//!    share every register with their caller and cannot recurse (calls nest at most
//!    [`MAX_CALL_DEPTH`] deep), so inlining keeps every register an SSA-friendly `DclTmp`.
//!
//! Registers become temporaries (`Tmp`), one per component, created on first use and
//! initialised at the entry of `main` (Direct3D 9 reads an unwritten register as 0): `r#`
//! and the `ps_1_x` texture registers `t#` as `f32`, `a0` and the loop counters as `i32`,
//! `p0` as `bool`. Between two control-flow ops the converter keeps each temporary's value
//! at hand (`TmpValues`) and emits `TmpLoad`/`TmpStore` (and the `DclTmp`) only where a
//! block boundary needs them, so straight-line code reaches the passes in SSA form.
//! The entry code (descriptor loads, register initialisation, each input and `c#` row
//! loaded once as a `vec4`) is inserted at a cursor after `main`'s first label as the body
//! needs it, so nothing has to be known in advance.
//! Outputs are shadowed by temporaries too; the epilogue at the end of `main` writes them
//! to the real outputs and applies the fixed-function state (colour saturation, point size,
//! and with [`crate::Options::dynamic_state`] fog, alpha test and clip planes; see
//! [`crate::options`] and `state`). The binding model,
//! varying locations and state layout are those of `docs/d3d9.md`, documented
//! in the crate root.
//!
//! Work is split by concept: `liveness` (dead code before conversion), `registers` (source and destination operands, constants,
//! modifiers, predication, co-issue), `io` (inputs, outputs, varyings, built-ins), `alu`
//! (arithmetic), `texture` (samplers and every texture instruction), `flow` (control
//! flow, loops, calls) and `state` (specialization and push constants, the epilogue).

mod alu;
mod flow;
mod io;
mod liveness;
pub(crate) mod prescan;
mod registers;
mod state;
mod texture;

#[cfg(test)]
mod eval;
#[cfg(test)]
mod exec_cases;
#[cfg(test)]
mod tests;

use dxspv_ir::frontend::{FrontendBuilder, FrontendState, InstructionSite};
use dxspv_ir::{
    Builder, Construct, DenormMode, Op, OpCode, Operand, RoundMode, ScalarType, SsaDef, Type,
};

use smallvec::SmallVec;

use crate::decode::{Instruction, Instructions, Shader};
use crate::limits::Limits;
use crate::opcode::Opcode;
use crate::options::Options;
use crate::version::Version;

pub use prescan::MAX_INSTRUCTIONS;

/// Deepest nesting of `call`/`callnz` (Direct3D 9's limit in every model that has calls).
pub const MAX_CALL_DEPTH: u32 = 4;
/// Deepest nesting of `if` blocks (Direct3D 9's static and dynamic limit, 24).
pub const MAX_IF_DEPTH: u32 = 24;
/// Deepest nesting of `loop`/`rep` blocks (Direct3D 9's limit, 4).
pub const MAX_LOOP_DEPTH: u32 = 4;
/// Most iterations of one `rep` or `loop` (Direct3D 9 clamps the count to 255).
pub const MAX_LOOP_ITERATIONS: i32 = 255;

/// Why a shader could not be converted. Every error names the instruction index, its token
/// offset and its opcode.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ConvertError {
    /// The shader could not be decoded.
    #[error(transparent)]
    Decode(#[from] crate::Error),
    /// The shader passes a limit of its model (a register or constant index, flow control
    /// the model lacks, a nesting depth): no Direct3D 9 device accepts it.
    #[error("{at}: {what}")]
    Limit {
        /// The instruction.
        at: InstructionSite,
        /// The limit passed.
        what: String,
    },
    /// The shader uses something the converter does not handle.
    #[error("{at}: {feature} is not supported")]
    Unsupported {
        /// The instruction.
        at: InstructionSite,
        /// The feature.
        feature: &'static str,
    },
    /// The shader is malformed in a way the reader does not check (a register an
    /// instruction cannot use, unbalanced flow control, a call to no label).
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

/// Result type of the converter.
pub(crate) type R<T> = Result<T, ConvertError>;

/// Converts a parsed shader into raw IR for the pass pipeline.
pub fn convert(shader: &Shader<'_>, opts: &Options) -> Result<Builder, ConvertError> {
    let mut limits = Limits::for_version(shader.version);
    if shader.version.is_vertex() && opts.software_vertex_processing {
        limits.float_const = crate::Limit::exactly(8192);
    }
    // The instructions of `main`, decoded once by the prescan and read again by the
    // conversion.
    let mut main_code = prescan::MainCode::new();
    let mut walk = prescan::Walk {
        shader,
        limits,
        p: prescan::Prescan::default(),
        at: Site::default(),
    };
    walk.run(&mut main_code)?;
    let mut c = Converter::new(shader, opts, limits, &walk.p, &main_code);
    c.run()?;
    Ok(c.b)
}

/// Debug names of the registers the converter names, from static tables: a name costs no
/// string building. Vertex inputs `v0`-`v15`.
pub(crate) const INPUT_NAMES: [&str; 16] = [
    "v0", "v1", "v2", "v3", "v4", "v5", "v6", "v7", "v8", "v9", "v10", "v11", "v12", "v13", "v14",
    "v15",
];
/// Textures `t0`-`t15` (the image a sampler reads).
pub(crate) const TEXTURE_NAMES: [&str; 16] = [
    "t0", "t1", "t2", "t3", "t4", "t5", "t6", "t7", "t8", "t9", "t10", "t11", "t12", "t13", "t14",
    "t15",
];
/// Samplers `s0`-`s15`.
pub(crate) const SAMPLER_NAMES: [&str; 16] = [
    "s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11", "s12", "s13", "s14",
    "s15",
];
/// Pixel shader colour outputs `oC0`-`oC3`.
pub(crate) const COLOR_NAMES: [&str; 4] = ["oC0", "oC1", "oC2", "oC3"];

/// A reference operand.
#[inline(always)]
pub(crate) fn r(d: SsaDef) -> Operand {
    Operand::from_def(d)
}

/// A literal operand.
#[inline(always)]
pub(crate) fn l(v: u64) -> Operand {
    Operand(v)
}

/// An op of `opcode` (type void) with the operands `head` and then the string `s`, packed
/// as [`Op::with_str`] packs it.
pub(crate) fn string_op(opcode: OpCode, head: &[Operand], s: &str) -> Op {
    let mut op = Op::new(opcode, Type::VOID);
    op.operands.extend_from_slice(head);
    op.with_str(s)
}

/// Where in the program the converter is, for error messages.
pub(crate) type At = InstructionSite;

/// Where the converter is: the current instruction, noted cheaply per instruction; its
/// [`At`] (with the mnemonic) is made only for an error.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Site {
    index: u32,
    offset: u32,
    /// `None` before the first instruction.
    opcode: Option<Opcode>,
    sources: u8,
}

impl Site {
    /// The site of `inst`.
    #[inline]
    pub(crate) fn of(inst: &Instruction<'_>) -> Self {
        Site {
            index: inst.index,
            offset: inst.offset,
            opcode: Some(inst.opcode),
            sources: inst.sources().len() as u8,
        }
    }

    /// The site of instruction `index` at token `offset` with `opcode` and `sources`.
    pub(crate) fn new(index: u32, offset: u32, opcode: Opcode, sources: u8) -> Self {
        Site {
            index,
            offset,
            opcode: Some(opcode),
            sources,
        }
    }

    /// The site as errors name it.
    #[cold]
    pub(crate) fn at(self) -> At {
        match self.opcode {
            Some(op) => At {
                index: self.index,
                offset: self.offset,
                opcode: op.name_for(usize::from(self.sources)),
            },
            None => At::default(),
        }
    }
}

/// One value per component (x, y, z, w); `None` where not loaded or not written.
pub(crate) type Lanes = [Option<SsaDef>; 4];

/// A `vec4` loaded once at the entry of `main`: what it was loaded from (a declaration or
/// a register number), the loaded value, and the components extracted from it there.
pub(crate) type EntryVec4<K> = (K, SsaDef, Lanes);

/// The conversion state. Submodules add `impl Converter` blocks for their concern.
pub(crate) struct Converter<'a, 's> {
    shader: &'a Shader<'s>,
    opts: &'a Options,
    version: Version,
    pre: &'a prescan::Prescan,
    /// The instructions of `main` (comments left out), as the prescan decoded them.
    main_code: &'a [Instruction<'s>],
    limits: Limits,
    pub(crate) b: Builder,
    fe: FrontendState,
    ep: SsaDef,
    at: Site,
    /// The last op of the entry code; entry code is inserted after it.
    prologue: SsaDef,
    /// Instructions converted so far, inlined subroutines included.
    converted: u32,
    // Registers.
    regs: registers::RegisterFiles,
    // Constants, samplers.
    consts: registers::ConstantFiles,
    samplers: texture::Samplers,
    // I/O.
    io: io::Io,
    // Flow control.
    flow: flow::Flow,
    // Application state.
    state: state::State,
    /// Values of temporaries not stored yet (see [`TmpValues`]).
    tmp_values: TmpValues,
    /// The `vec4<f32>` constants made so far (the epilogue's defaults and clamp bounds
    /// come back several times: a look here is cheaper than the builder's hash table).
    vec4_constants: SmallVec<[([u64; 4], SsaDef); 6]>,
    /// Components extracted from results used whole as often as per component (samples):
    /// removed at the end where nothing uses them.
    spare_extracts: Vec<SsaDef>,
}

/// A temporary of the converter (a register component, an output shadow, a loop counter):
/// an index into [`TmpValues`].
///
/// It holds its index plus one, so an `Option<Tmp>` is four bytes and `None` is zero: the
/// tables of them in the converter start zeroed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Tmp(std::num::NonZeroU32);

impl Tmp {
    /// The index into [`TmpValues`].
    #[inline]
    fn index(self) -> usize {
        self.0.get() as usize - 1
    }
}

/// The current value of each temporary the code since the last control-flow op loaded or
/// stored. Between two control-flow ops the code is one block, so a `TmpLoad` after a store
/// or load of the same temporary reads the value already at hand: the converter uses it
/// instead of emitting the load, and emits the stores only before the next control-flow op
/// (the last store of each temporary), where the block ends. Straight-line code then has no
/// `TmpLoad` and almost no `TmpStore` for SSA construction to remove.
///
/// A temporary is a [`Tmp`]; its `DclTmp` is declared only when a load or store of it must
/// be emitted, so straight-line code declares none.
#[derive(Debug, Default)]
pub(crate) struct TmpValues {
    /// By temporary: its type, its `DclTmp` once declared, and its value at hand with
    /// whether the temporary lacks it (a store is due). Both lists are inline for the few
    /// temporaries most shaders have: no allocation per compile.
    tmps: SmallVec<[TmpState; 24]>,
    /// The temporaries with a slot.
    live: SmallVec<[Tmp; 24]>,
    /// A control-flow op was emitted: the code is past the entry block of `main`.
    left_entry: bool,
}

/// One temporary of [`TmpValues`].
#[derive(Clone, Copy, Debug)]
struct TmpState {
    ty: ScalarType,
    decl: Option<SsaDef>,
    value: Option<(SsaDef, bool)>,
}

impl<'a, 's> Converter<'a, 's> {
    /// (Inlined into [`convert`], so the converter's tables are made where they stay.)
    #[inline(always)]
    fn new(
        shader: &'a Shader<'s>,
        opts: &'a Options,
        limits: Limits,
        pre: &'a prescan::Prescan,
        main_code: &'a [Instruction<'s>],
    ) -> Self {
        // Fewer IR ops than tokens on most D3D9 shaders (the corpus: a median of 44 raw ops,
        // at most about one per token plus the prologue and epilogue), so the buffers start
        // small: growing them is cheaper than allocating (and touching) many times what
        // the shader needs.
        let tokens = shader.tokens.len();
        let mut b = Builder::with_capacities(tokens * 2 + 96, tokens * 3 + 160, 32);
        let stage = if shader.version.is_vertex() {
            dxspv_ir::ShaderStage::Vertex
        } else {
            dxspv_ir::ShaderStage::Pixel
        };
        // The function is set as the first operand once it exists.
        let ep = b.add_decl(
            Op::new(OpCode::EntryPoint, Type::VOID)
                .with_opt_ref(None)
                .with_lit(stage.to_literal()),
        );
        b.add_decl(string_op(OpCode::DebugName, &[r(ep)], "main"));
        Converter {
            shader,
            opts,
            version: shader.version,
            pre,
            main_code,
            limits,
            b,
            fe: FrontendState::default(),
            ep,
            at: Site::default(),
            prologue: ep,
            converted: 0,
            regs: registers::RegisterFiles::default(),
            consts: registers::ConstantFiles::default(),
            samplers: texture::Samplers::default(),
            io: io::Io::default(),
            flow: flow::Flow::default(),
            state: state::State::default(),
            tmp_values: TmpValues::default(),
            vec4_constants: SmallVec::new(),
            spare_extracts: Vec::new(),
        }
    }

    // -------------------------------------------------------------------------------------
    // Errors
    // -------------------------------------------------------------------------------------

    /// A [`ConvertError::Invalid`] at the current instruction.
    #[cold]
    #[inline(never)]
    pub(crate) fn invalid(&self, what: impl Into<String>) -> ConvertError {
        ConvertError::Invalid {
            at: self.at.at(),
            what: what.into(),
        }
    }

    /// A [`ConvertError::Limit`] at the current instruction.
    #[cold]
    #[inline(never)]
    pub(crate) fn limit(&self, what: impl Into<String>) -> ConvertError {
        ConvertError::Limit {
            at: self.at.at(),
            what: what.into(),
        }
    }

    /// A [`ConvertError::Unsupported`] at the current instruction.
    #[cold]
    #[inline(never)]
    pub(crate) fn unsupported(&self, feature: &'static str) -> ConvertError {
        ConvertError::Unsupported {
            at: self.at.at(),
            feature,
        }
    }

    // -------------------------------------------------------------------------------------
    // Emission helpers
    // -------------------------------------------------------------------------------------

    /// Inserts `op` at the end of the entry code of `main` (after its label and the entry
    /// code inserted so far) and returns it.
    pub(crate) fn entry(&mut self, op: Op) -> SsaDef {
        let d = self.b.add_after(self.prologue, op);
        self.prologue = d;
        d
    }

    /// A new temporary of `ty`, declared (a `DclTmp`) only once a load or store of it is
    /// emitted. Temporaries get no debug name: SSA construction removes them before
    /// anything could show one.
    pub(crate) fn tmp(&mut self, ty: ScalarType) -> Tmp {
        let t = Tmp(std::num::NonZeroU32::MIN.saturating_add(self.tmp_values.tmps.len() as u32));
        self.tmp_values.tmps.push(TmpState {
            ty,
            decl: None,
            value: None,
        });
        t
    }

    /// The `DclTmp` of `t`, declared on first use.
    fn tmp_decl(&mut self, t: Tmp) -> SsaDef {
        let TmpState { ty, decl, .. } = self.tmp_values.tmps[t.index()];
        if let Some(d) = decl {
            return d;
        }
        let ep = self.ep;
        let d = self.decl(Op::new(OpCode::DclTmp, ty).with_ref(ep));
        self.tmp_values.tmps[t.index()].decl = Some(d);
        d
    }

    /// A temporary initialised to `init` at the entry of `main` (before the first
    /// control-flow op, the value is just at hand: the code so far is the entry block).
    pub(crate) fn init_tmp(&mut self, ty: ScalarType, init: SsaDef) -> Tmp {
        let t = self.tmp(ty);
        if !self.tmp_values.left_entry {
            self.set_tmp_value(t, init, true);
            return t;
        }
        let d = self.tmp_decl(t);
        self.entry(
            Op::new(OpCode::TmpStore, Type::VOID)
                .with_ref(d)
                .with_ref(init),
        );
        t
    }

    /// The value of a temporary of type `ty`: the one at hand since the last control-flow
    /// op, else a `TmpLoad`.
    #[inline]
    pub(crate) fn load_tmp(&mut self, t: Tmp, ty: ScalarType) -> SsaDef {
        if let Some((v, _)) = self.tmp_values.tmps.get(t.index()).and_then(|s| s.value) {
            return v;
        }
        let d = self.tmp_decl(t);
        let v = self.op1(OpCode::TmpLoad, ty, d);
        self.set_tmp_value(t, v, false);
        v
    }

    /// Stores `v` in a temporary (emitted before the next control-flow op).
    #[inline]
    pub(crate) fn store_tmp(&mut self, t: Tmp, v: SsaDef) {
        self.set_tmp_value(t, v, true);
    }

    fn set_tmp_value(&mut self, t: Tmp, v: SsaDef, dirty: bool) {
        if let Some(slot) = self.tmp_values.tmps.get_mut(t.index()) {
            if slot.value.is_none() {
                self.tmp_values.live.push(t);
            }
            slot.value = Some((v, dirty));
        }
    }

    /// Emits the stores due and forgets the values at hand: the block ends.
    fn flush_tmps(&mut self) {
        let mut live = std::mem::take(&mut self.tmp_values.live);
        for &t in &live {
            if let Some((v, dirty)) = self
                .tmp_values
                .tmps
                .get_mut(t.index())
                .and_then(|s| s.value.take())
            {
                if dirty {
                    let d = self.tmp_decl(t);
                    self.code(
                        Op::new(OpCode::TmpStore, Type::VOID)
                            .with_ref(d)
                            .with_ref(v),
                    );
                }
            }
        }
        live.clear();
        self.tmp_values.live = live;
    }

    /// Emits a control-flow op (`Scoped*`), the stores due before it first.
    pub(crate) fn cf(&mut self, op: Op) -> SsaDef {
        self.flush_tmps();
        self.tmp_values.left_entry = true;
        self.code(op)
    }

    /// A vector of `f32` components: the vector they were extracted from, in order, if so
    /// (an output written straight from a sample or an input, a `dp4` of a whole input and
    /// constant row, needs no rebuild); a constant vector if every component is a
    /// constant; else a `CompositeConstruct`.
    pub(crate) fn f32_vector(&mut self, v: &[SsaDef]) -> SsaDef {
        let want = Type::vector(ScalarType::F32, v.len() as u8);
        let source = |i: usize| -> Option<SsaDef> {
            let op = self
                .b
                .get(*v.get(i)?)
                .filter(|op| op.opcode == OpCode::CompositeExtract)?;
            let index = self.b.get(op.arg(1)?)?;
            (index.opcode == OpCode::Constant && index.lit(0) == Some(i as u64))
                .then_some(op.arg(0)?)
        };
        if v.len() > 1 {
            if let Some(src) = source(0) {
                if (1..v.len()).all(|i| source(i) == Some(src))
                    && self.b.get(src).is_some_and(|o| o.ty == want)
                {
                    return src;
                }
            }
            // Constants (an unwritten output, a `def`'d register): one constant vector.
            let mut lits = [0u64; 4];
            let constant = v.len() <= 4
                && v.iter().zip(&mut lits).all(|(x, l)| {
                    let Some(op) = self.b.get(*x) else {
                        return false;
                    };
                    *l = op.lit(0).unwrap_or(0);
                    op.opcode == OpCode::Constant && op.ty == Type::scalar(ScalarType::F32)
                });
            if constant {
                if v.len() == 4 {
                    return self.vec4_constant(lits);
                }
                return self.b.add_constant(want, &lits[..v.len()]);
            }
        }
        self.vector(ScalarType::F32, v)
    }

    /// The `vec4<f32>` constant of the raw bits `lits`, made once.
    pub(crate) fn vec4_constant(&mut self, lits: [u64; 4]) -> SsaDef {
        if let Some((_, d)) = self.vec4_constants.iter().find(|(l, _)| *l == lits) {
            return *d;
        }
        let d = self.b.add_constant(Type::vector(ScalarType::F32, 4), &lits);
        self.vec4_constants.push((lits, d));
        d
    }

    /// `Select` of two f32 values.
    #[inline]
    pub(crate) fn select_f(&mut self, c: SsaDef, a: SsaDef, b: SsaDef) -> SsaDef {
        self.op3(OpCode::Select, ScalarType::F32, c, a, b)
    }

    // -------------------------------------------------------------------------------------
    // Driver
    // -------------------------------------------------------------------------------------

    /// Converts `main` and closes the program.
    fn run(&mut self) -> R<()> {
        let ep = self.ep;
        self.decl(
            Op::new(OpCode::SetFpMode, ScalarType::F32)
                .with_ref(ep)
                .with_lit(RoundMode::NearestEven.to_literal())
                .with_lit(DenormMode::Flush.to_literal()),
        );
        // The function gets no `DebugName`: the entry point's name ("main", given above)
        // is the module's, and a function name equal to it would say nothing more.
        let main = self.code(Op::new(OpCode::Function, Type::VOID));
        self.prologue =
            self.code(Op::new(OpCode::Label, Type::VOID).with_lit(Construct::None.to_literal()));
        self.walk_main()?;
        if let Some(open) = self.flow.open_block() {
            return Err(self.invalid(format!("main ends inside an open {open} block")));
        }
        self.epilogue()?;
        self.remove_unused_entry_values();
        self.code(Op::new(OpCode::Return, Type::VOID).with_opt_ref(None));
        self.code(Op::new(OpCode::FunctionEnd, Type::VOID));
        self.finish_declarations()?;
        let ep = self.ep;
        self.b.set_operand(ep, 0, Operand::from_def(main));
        Ok(())
    }

    /// Converts instructions from `it` until the end of the function they belong to: the
    /// first `ret` outside flow control, a `label` (a subroutine's start ends `main`, or
    /// a subroutine without `ret`), or the end token. Returns at the first error.
    fn walk(&mut self, mut it: Instructions<'s>, subroutine: bool) -> R<()> {
        let base_depth = self.flow.depth();
        let mut inst = Instruction::default();
        let mut first = true;
        while let Some(r) = it.next_into(&mut inst) {
            r?;
            if self.visit(&inst, subroutine, &mut first, base_depth)? {
                break;
            }
        }
        self.end_walk(base_depth)
    }

    /// [`Converter::walk`] over `main`, from the instructions the prescan decoded (their
    /// write masks already narrowed to what is read).
    fn walk_main(&mut self) -> R<()> {
        let base_depth = self.flow.depth();
        let code = self.main_code;
        let mut first = true;
        for inst in code {
            if self.visit(inst, false, &mut first, base_depth)? {
                break;
            }
        }
        self.end_walk(base_depth)
    }

    /// Converts one instruction of a walk; `true` where the function ends before it.
    fn visit(
        &mut self,
        inst: &Instruction<'s>,
        subroutine: bool,
        first: &mut bool,
        base_depth: usize,
    ) -> R<bool> {
        if inst.is_comment() {
            return Ok(false);
        }
        self.at = Site::of(inst);
        match inst.opcode {
            Opcode::Label => {
                // The subroutine's own label starts its walk.
                if subroutine && *first {
                    *first = false;
                    return Ok(false);
                }
                return Ok(true);
            }
            Opcode::Ret => {
                if self.flow.depth() != base_depth {
                    return Err(self.unsupported(
                        "ret inside flow control (Direct3D 9's ret ends the function)",
                    ));
                }
                return Ok(true);
            }
            _ => {}
        }
        *first = false;
        self.converted += 1;
        if self.converted > MAX_INSTRUCTIONS {
            return Err(self.invalid(format!(
                "more than {MAX_INSTRUCTIONS} instructions with subroutines inlined (limit)"
            )));
        }
        // Nothing reads what it computes (the prescan narrowed the other write masks).
        if self.pre.liveness.mask(inst.index) == Some(0) {
            return Ok(false);
        }
        self.instruction(inst)?;
        Ok(false)
    }

    /// The checks and the pending writes at the end of a walk.
    fn end_walk(&mut self, base_depth: usize) -> R<()> {
        if self.flow.depth() != base_depth {
            return Err(self.invalid("the function ends inside an open flow-control block"));
        }
        self.flush_coissue();
        Ok(())
    }

    /// Converts one instruction.
    fn instruction(&mut self, inst: &Instruction<'_>) -> R<()> {
        use Opcode as O;
        // A co-issued instruction reads its sources before the one it pairs with writes.
        if !inst.coissue {
            self.flush_coissue();
            self.hold_if_coissued(inst);
        }
        match inst.opcode {
            O::Nop | O::Phase | O::Dcl | O::Def | O::DefI | O::DefB | O::Comment | O::End => Ok(()),
            O::Call
            | O::CallNz
            | O::Loop
            | O::EndLoop
            | O::Rep
            | O::EndRep
            | O::If
            | O::IfC
            | O::Else
            | O::EndIf
            | O::Break
            | O::BreakC
            | O::BreakP
            | O::Ret
            | O::Label => self.flow_control(inst),
            op if liveness::is_texture(op) => self.texture(inst),
            O::SetP => self.setp(inst),
            _ => self.alu(inst),
        }
    }

    /// The outputs, and the fixed-function state computed from them.
    fn epilogue(&mut self) -> R<()> {
        self.flush_coissue();
        if self.version.is_vertex() {
            self.vertex_epilogue()
        } else {
            self.pixel_epilogue()
        }
    }

    /// Adds the declarations whose shape is only known at the end (constant buffer sizes).
    fn finish_declarations(&mut self) -> R<()> {
        self.finish_constants()
    }
}

/// The shared frontend helpers ([`FrontendBuilder`]).
impl FrontendBuilder for Converter<'_, '_> {
    #[inline(always)]
    fn ir(&mut self) -> (&mut Builder, &mut FrontendState) {
        (&mut self.b, &mut self.fe)
    }
}
