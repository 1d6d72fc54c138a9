//! The SM 4.0–5.1 instruction decoder.
//!
//! [`Program`] wraps the SHDR/SHEX token stream (version token, length
//! token, instructions) without copying it; [`Program::instructions`]
//! decodes lazily, one [`Instruction`] per step. An instruction is the opcode
//! token, optional extended opcode tokens, then either operands (ordinary
//! instructions) or a declaration-specific mix of operands and plain words
//! (declarations), which land in [`Payload`]. Custom-data blocks (immediate
//! constant buffers, comments, debug info, shader messages) carry their own
//! length and are returned as [`Payload::CustomData`] borrowing the words.

use crate::enums::{
    CustomDataClass, Interpolation, Primitive, PrimitiveTopology, ResInfoReturnType,
    ResourceDimension, ReturnType, SamplerMode, SystemValue, TessDomain, TessOutputPrimitive,
    TessPartitioning,
};
use crate::error::{DecodeErrorKind, Error};
use crate::opcode::Opcode;
use crate::operand::{decode_operand, Operand};
use crate::Words;

/// Maximum operands per instruction. The feedback sample instructions use
/// 8; one corpus `sample_d_cl_s` carries a trailing ninth (0-component `o`)
/// operand, so one spare slot is kept.
pub const MAX_OPERANDS: usize = 9;

/// Program type from the version token.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Stage {
    /// Pixel shader.
    Pixel,
    /// Vertex shader.
    Vertex,
    /// Geometry shader.
    Geometry,
    /// Hull shader.
    Hull,
    /// Domain shader.
    Domain,
    /// Compute shader.
    Compute,
}

impl Stage {
    /// The IR's name for this stage.
    pub fn ir(self) -> dxspv_ir::ShaderStage {
        use dxspv_ir::ShaderStage as S;
        match self {
            Stage::Pixel => S::Pixel,
            Stage::Vertex => S::Vertex,
            Stage::Geometry => S::Geometry,
            Stage::Hull => S::Hull,
            Stage::Domain => S::Domain,
            Stage::Compute => S::Compute,
        }
    }

    /// Two-letter profile prefix (`ps`, `vs`, `gs`, `hs`, `ds`, `cs`).
    pub fn prefix(self) -> &'static str {
        match self {
            Stage::Pixel => "ps",
            Stage::Vertex => "vs",
            Stage::Geometry => "gs",
            Stage::Hull => "hs",
            Stage::Domain => "ds",
            Stage::Compute => "cs",
        }
    }
}

/// Shader stage and model from the version token.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Version {
    /// Stage.
    pub stage: Stage,
    /// Major model number (4 or 5).
    pub major: u8,
    /// Minor model number (0 or 1).
    pub minor: u8,
}

impl Version {
    /// Whether the SM 5.1 operand and declaration layouts apply.
    pub fn is_sm51(self) -> bool {
        (self.major, self.minor) >= (5, 1)
    }
}

impl core::fmt::Display for Version {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{}_{}_{}", self.stage.prefix(), self.major, self.minor)
    }
}

/// A tokenized SM 4.0–5.1 program (the SHDR/SHEX part body).
#[derive(Clone, Copy, Debug)]
pub struct Program<'a> {
    /// Stage and model.
    pub version: Version,
    /// All tokens of the program, from the version token to the declared
    /// length; token offsets in errors and instructions index this.
    pub tokens: Words<'a>,
}

impl<'a> Program<'a> {
    /// Reads the version and length tokens. Bytes after the declared length
    /// are ignored; a length past the data is an error.
    pub fn parse(bytes: &'a [u8]) -> Result<Self, Error> {
        let words = Words::new(bytes);
        let (Some(ver), Some(len)) = (words.get(0), words.get(1)) else {
            return Err(Error::ProgramHeader {
                what: "shorter than the version and length tokens",
            });
        };
        let stage = match ver >> 16 {
            0 => Stage::Pixel,
            1 => Stage::Vertex,
            2 => Stage::Geometry,
            3 => Stage::Hull,
            4 => Stage::Domain,
            5 => Stage::Compute,
            _ => {
                return Err(Error::ProgramHeader {
                    what: "unknown program type",
                })
            }
        };
        let major = ((ver >> 4) & 0xf) as u8;
        let minor = (ver & 0xf) as u8;
        if !matches!((major, minor), (4, 0) | (4, 1) | (5, 0) | (5, 1)) {
            return Err(Error::ProgramHeader {
                what: "shader model is not 4.0, 4.1, 5.0 or 5.1",
            });
        }
        let len = len as usize;
        if len < 2 || len > words.len() {
            return Err(Error::ProgramHeader {
                what: "length token is below 2 or past the part end",
            });
        }
        Ok(Program {
            version: Version {
                stage,
                major,
                minor,
            },
            tokens: words.slice(0, len),
        })
    }

    /// Iterates over the instructions, decoding lazily. After the first
    /// error the iterator ends.
    pub fn instructions(&self) -> Instructions<'a> {
        Instructions {
            tokens: self.tokens,
            version: self.version,
            pos: 2,
            index: 0,
            done: false,
        }
    }
}

/// The `_z` / `_nz` test of conditional instructions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Test {
    /// Taken when the value is zero (`_z`).
    Zero,
    /// Taken when the value is non-zero (`_nz`).
    NonZero,
}

/// `sync` flags (bits of the opcode token).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct SyncFlags {
    /// Wait for all threads of the group (`_t`).
    pub threads_in_group: bool,
    /// Thread-group shared memory barrier (`_g`).
    pub shared_memory: bool,
    /// UAV barrier, group scope (`_ugroup`).
    pub uav_group: bool,
    /// UAV barrier, global scope (`_uglobal`).
    pub uav_global: bool,
}

/// Instruction modifiers from the opcode token and extended opcode tokens.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Modifiers {
    /// `_sat`: clamp the result to [0, 1].
    pub saturate: bool,
    /// `_z` / `_nz` for `if`, `breakc`, `continuec`, `retc`, `callc`, `discard`.
    pub test: Option<Test>,
    /// Precise mask (bit 0 = x), SM 5.0+.
    pub precise_mask: u8,
    /// Return type of `resinfo`.
    pub resinfo_return: Option<ResInfoReturnType>,
    /// `_uint` of `sample_info`.
    pub uint_result: bool,
    /// `sync` flags.
    pub sync: SyncFlags,
    /// Immediate texel offsets (`_aoffimmi(u,v,w)`).
    pub sample_offset: Option<[i8; 3]>,
    /// Resource dimension from an extended opcode token (`_indexable(...)`).
    pub resource_dim: Option<ResourceDimension>,
    /// Structure stride from the resource-dimension token (structured buffers).
    pub structure_stride: u32,
    /// Return types from an extended opcode token.
    pub resource_return: Option<[ReturnType; 4]>,
}

/// UAV declaration flags.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct UavFlags {
    /// `_glc`: globally coherent.
    pub globally_coherent: bool,
    /// `_rov`: rasterizer ordered.
    pub rasterizer_ordered: bool,
    /// `_opc`: has an order-preserving counter (structured UAVs).
    pub order_preserving_counter: bool,
}

/// `dcl_globalFlags` bits (`D3D10_SB_GLOBAL_FLAG_*`, already shifted down by 11).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct GlobalFlags(pub u32);

impl GlobalFlags {
    /// fxc names of the set flags, in bit order.
    pub fn names(self) -> Vec<&'static str> {
        const NAMES: [&str; 9] = [
            "refactoringAllowed",
            "enableDoublePrecisionFloatOps",
            "forceEarlyDepthStencil",
            "enableRawAndStructuredBuffers",
            "skipOptimization",
            "enableMinimumPrecision",
            "enable11_1DoubleExtensions",
            "enable11_1ShaderExtensions",
            "allResourcesBound",
        ];
        NAMES
            .iter()
            .enumerate()
            .filter(|(i, _)| self.0 & (1 << i) != 0)
            .map(|(_, n)| *n)
            .collect()
    }
}

/// Non-operand data carried by declarations and a few special instructions.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub enum Payload<'a> {
    /// Nothing beyond the operands.
    #[default]
    None,
    /// `dcl_temps n`.
    Temps(u32),
    /// `dcl_indexableTemp x#[size], components`.
    IndexableTemp {
        /// Register number.
        register: u32,
        /// Element count.
        size: u32,
        /// Components per element (1-4).
        components: u32,
    },
    /// `dcl_globalFlags`.
    GlobalFlags(GlobalFlags),
    /// `dcl_constantbuffer`.
    ConstantBuffer {
        /// `dynamicIndexed` rather than `immediateIndexed`.
        dynamic_indexed: bool,
        /// Size in 16-byte vectors (SM 5.1 carries it as a separate word;
        /// earlier models in the operand's second index).
        size: u32,
        /// Register space (SM 5.1).
        space: u32,
    },
    /// `dcl_sampler`.
    Sampler {
        /// Sampler mode.
        mode: SamplerMode,
        /// Register space (SM 5.1).
        space: u32,
    },
    /// `dcl_resource_*` (typed SRV).
    Resource {
        /// Dimension.
        dimension: ResourceDimension,
        /// Sample count for multisampled textures.
        sample_count: u32,
        /// Per-component return types.
        return_type: [ReturnType; 4],
        /// Register space (SM 5.1).
        space: u32,
    },
    /// `dcl_resource_raw`.
    ResourceRaw {
        /// Register space (SM 5.1).
        space: u32,
    },
    /// `dcl_resource_structured`.
    ResourceStructured {
        /// Structure stride in bytes.
        stride: u32,
        /// Register space (SM 5.1).
        space: u32,
    },
    /// `dcl_uav_typed_*`.
    UavTyped {
        /// Dimension.
        dimension: ResourceDimension,
        /// Flags.
        flags: UavFlags,
        /// Per-component return types.
        return_type: [ReturnType; 4],
        /// Register space (SM 5.1).
        space: u32,
    },
    /// `dcl_uav_raw`.
    UavRaw {
        /// Flags.
        flags: UavFlags,
        /// Register space (SM 5.1).
        space: u32,
    },
    /// `dcl_uav_structured`.
    UavStructured {
        /// Flags.
        flags: UavFlags,
        /// Structure stride in bytes.
        stride: u32,
        /// Register space (SM 5.1).
        space: u32,
    },
    /// `dcl_tgsm_raw g#, bytes`.
    TgsmRaw {
        /// Size in bytes.
        byte_count: u32,
    },
    /// `dcl_tgsm_structured g#, stride, count`.
    TgsmStructured {
        /// Structure stride in bytes.
        stride: u32,
        /// Structure count.
        count: u32,
    },
    /// `dcl_input*` / `dcl_output*`.
    InputOutput {
        /// Interpolation mode (`dcl_input_ps*`).
        interpolation: Option<Interpolation>,
        /// System value (`*_sgv`, `*_siv`).
        system_value: Option<SystemValue>,
    },
    /// `dcl_indexrange reg count`.
    IndexRange {
        /// Register count.
        count: u32,
    },
    /// `dcl_inputprimitive`.
    GsInputPrimitive(Primitive),
    /// `dcl_outputtopology`.
    GsOutputTopology(PrimitiveTopology),
    /// `dcl_maxout n`.
    MaxOutputVertexCount(u32),
    /// `dcl_gsinstances n`.
    GsInstanceCount(u32),
    /// `dcl_input_control_point_count` / `dcl_output_control_point_count`.
    ControlPointCount(u32),
    /// `dcl_tessellator_domain`.
    TessDomain(TessDomain),
    /// `dcl_tessellator_partitioning`.
    TessPartitioning(TessPartitioning),
    /// `dcl_tessellator_output_primitive`.
    TessOutputPrimitive(TessOutputPrimitive),
    /// `dcl_hs_max_tessfactor`.
    HsMaxTessFactor(f32),
    /// `dcl_hs_fork_phase_instance_count` / `dcl_hs_join_phase_instance_count`.
    HsPhaseInstanceCount(u32),
    /// `dcl_thread_group x, y, z`.
    ThreadGroup([u32; 3]),
    /// `dcl_function_body fb#`.
    FunctionBody(u32),
    /// `dcl_function_table ft# = {fb…}`.
    FunctionTable {
        /// Table id.
        id: u32,
        /// Function body ids.
        bodies: Words<'a>,
    },
    /// `dcl_interface fp#[array][table] = {ft…}`.
    Interface {
        /// Interface id.
        id: u32,
        /// Dynamically indexed.
        indexed: bool,
        /// Expected function table length.
        expected_table_length: u32,
        /// Interface array length.
        array_length: u32,
        /// Function table ids.
        tables: Words<'a>,
    },
    /// `fcall fp#[…][n]`: the function index.
    InterfaceCall {
        /// Index of the function in the table.
        function_index: u32,
    },
    /// A custom-data block.
    CustomData {
        /// Block class.
        class: CustomDataClass,
        /// The block contents after the two header words.
        data: Words<'a>,
    },
}

/// One decoded instruction.
#[derive(Clone, Debug)]
pub struct Instruction<'a> {
    /// Opcode.
    pub opcode: Opcode,
    /// Token offset of the opcode token (the version token is 0).
    pub offset: u32,
    /// Length in tokens.
    pub len: u32,
    /// Zero-based index of this instruction in the program.
    pub index: u32,
    /// Modifiers.
    pub modifiers: Modifiers,
    operand_count: u8,
    operand_storage: [Operand; MAX_OPERANDS],
    /// Declaration and custom-data payload.
    pub payload: Payload<'a>,
}

impl Default for Instruction<'_> {
    /// A `nop` without operands: a buffer for [`Instructions::next_into`].
    fn default() -> Self {
        Instruction {
            opcode: Opcode::Nop,
            offset: 0,
            len: 0,
            index: 0,
            modifiers: Modifiers::default(),
            operand_count: 0,
            operand_storage: [Operand::default(); MAX_OPERANDS],
            payload: Payload::None,
        }
    }
}

impl<'a> Instruction<'a> {
    /// The operands in token order (for declarations, the declared register).
    #[inline]
    pub fn operands(&self) -> &[Operand] {
        self.operand_storage
            .get(..self.operand_count as usize)
            .unwrap_or_default()
    }

    /// Operand `i`, if the instruction has it.
    #[inline]
    pub fn operand(&self, i: usize) -> Option<&Operand> {
        self.operands().get(i)
    }

    /// Operand `i` for rewriting (the converter renames registers).
    pub(crate) fn operand_mut(&mut self, i: usize) -> Option<&mut Operand> {
        self.operand_storage
            .get_mut(..self.operand_count as usize)
            .and_then(|ops| ops.get_mut(i))
    }

    /// Whether the instruction is a declaration.
    pub fn is_declaration(&self) -> bool {
        self.opcode.is_declaration()
            || matches!(
                self.payload,
                Payload::CustomData {
                    class: CustomDataClass::ImmediateConstantBuffer,
                    ..
                }
            )
    }
}

/// Iterator over the instructions of a [`Program`].
#[derive(Clone, Debug)]
pub struct Instructions<'a> {
    tokens: Words<'a>,
    version: Version,
    pos: usize,
    index: u32,
    done: bool,
}

/// An internal decode failure: token position and reason, boxed so that a decode step's result
/// is a word or two (returned in registers) rather than the failure itself.
#[derive(Clone, Debug)]
pub(crate) struct Fail(Box<FailAt>);

/// Where and why decoding failed.
#[derive(Clone, Copy, Debug)]
pub(crate) struct FailAt {
    pub pos: usize,
    pub kind: DecodeErrorKind,
}

impl Fail {
    #[cold]
    #[inline(never)]
    pub fn at(pos: usize, kind: DecodeErrorKind) -> Self {
        Fail(Box::new(FailAt { pos, kind }))
    }

    /// The token position.
    pub fn pos(&self) -> usize {
        self.0.pos
    }

    /// The reason.
    pub fn kind(&self) -> DecodeErrorKind {
        self.0.kind
    }
}

/// Reads tokens of one instruction, never past its end.
pub(crate) struct Cursor<'a> {
    pub tokens: Words<'a>,
    pub pos: usize,
    pub end: usize,
    /// The bytes of tokens `pos..end`: a read checks only that one token is left.
    rest: &'a [u8],
}

impl<'a> Cursor<'a> {
    /// A cursor over tokens `pos..end` of `tokens` (none past the end of `tokens`).
    #[inline]
    pub fn new(tokens: Words<'a>, pos: usize, end: usize) -> Self {
        let bytes = tokens.as_bytes();
        let rest = bytes
            .get(pos.saturating_mul(4)..end.saturating_mul(4).min(bytes.len()))
            .unwrap_or_default();
        Cursor {
            tokens,
            pos,
            end,
            rest,
        }
    }

    #[inline(always)]
    pub fn next(&mut self) -> Result<u32, Fail> {
        let Some((w, rest)) = self.rest.split_first_chunk::<4>() else {
            return Err(Fail::at(self.pos, DecodeErrorKind::Truncated));
        };
        self.rest = rest;
        self.pos += 1;
        Ok(u32::from_le_bytes(*w))
    }

    /// The next token, without reading it.
    #[inline(always)]
    pub fn peek(&self) -> Option<u32> {
        self.rest.first_chunk::<4>().map(|w| u32::from_le_bytes(*w))
    }

    /// Skips `count` tokens; fails (at the first of them) if fewer are left.
    pub fn skip(&mut self, count: usize) -> Result<(), Fail> {
        match self.rest.get(count.saturating_mul(4)..) {
            Some(rest) if count <= self.end - self.pos => {
                self.rest = rest;
                self.pos += count;
                Ok(())
            }
            _ => Err(Fail::at(self.pos, DecodeErrorKind::Truncated)),
        }
    }

    fn at_end(&self) -> bool {
        self.rest.is_empty()
    }
}

impl<'a> Iterator for Instructions<'a> {
    type Item = Result<Instruction<'a>, Error>;

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        let mut inst = Instruction::default();
        match self.next_into(&mut inst)? {
            Ok(()) => Some(Ok(inst)),
            Err(e) => Some(Err(e)),
        }
    }
}

impl<'a> Instructions<'a> {
    /// Decodes the next instruction into `inst`, overwriting it (the same result as
    /// [`Iterator::next`] without moving an [`Instruction`] around: decoders that walk a
    /// program keep one buffer). `None` at the end and after an error.
    #[inline]
    pub fn next_into(&mut self, inst: &mut Instruction<'a>) -> Option<Result<(), Error>> {
        if self.done || self.pos >= self.tokens.len() {
            return None;
        }
        match decode_instruction(inst, self.tokens, self.pos, self.index, self.version) {
            Ok(()) => {
                self.pos += inst.len as usize;
                self.index += 1;
                Some(Ok(()))
            }
            Err(f) => {
                self.done = true;
                Some(Err(Error::Decode {
                    offset: f.pos() as u32,
                    instruction: self.index,
                    kind: f.kind(),
                }))
            }
        }
    }
}

impl<'a> Instructions<'a> {
    /// [`Self::next_into`] for a pass that needs the operands and payload of declarations
    /// only: any other instruction comes back with its opcode, offset, length and index, but
    /// without operands, modifiers or payload, and its tokens past the opcode token unread (a
    /// later full decode reports what is wrong with them). Declarations, custom data and every
    /// instruction whose length is not in its opcode token are decoded in full.
    pub fn next_declaration_into(
        &mut self,
        inst: &mut Instruction<'a>,
    ) -> Option<Result<(), Error>> {
        self.next_selected_into(inst, Opcode::is_declaration)
    }

    /// [`Self::next_declaration_into`] with the choice of what is decoded in full: the
    /// instructions for which `decode` is true (the converter's prescan reads a handful of
    /// declarations), custom data and every instruction whose length is not in its opcode
    /// token; the others come back bare, as [`Self::next_declaration_into`] returns code.
    #[inline]
    pub fn next_selected_into(
        &mut self,
        inst: &mut Instruction<'a>,
        decode: impl Fn(Opcode) -> bool,
    ) -> Option<Result<(), Error>> {
        let Some(bare) = self.skip_unselected(decode) else {
            return self.next_into(inst);
        };
        inst.opcode = bare.opcode;
        inst.offset = bare.offset;
        inst.len = bare.len;
        inst.index = bare.index;
        inst.modifiers = Modifiers::default();
        inst.operand_count = 0;
        inst.payload = Payload::None;
        Some(Ok(()))
    }

    /// Steps over the next instruction, returning what its opcode token says, when `decode`
    /// does not ask for it and its opcode token alone gives a valid length (not custom data,
    /// whose length is in the next token, nor a declaration in its long form): the
    /// instructions [`Self::next_selected_into`] returns bare. `None`, without moving, at the
    /// end and for an instruction to decode in full (with [`Self::next_into`]).
    #[inline]
    pub fn skip_unselected(&mut self, decode: impl Fn(Opcode) -> bool) -> Option<BareInstruction> {
        if self.done {
            return None;
        }
        let start = self.pos;
        let token = self.tokens.get(start)?;
        let opcode = Opcode::from_raw(token & 0x7ff)?;
        let extended = token & 0x8000_0000 != 0;
        if decode(opcode) || opcode == Opcode::CustomData || (extended && has_long_form(opcode)) {
            return None;
        }
        let len = (token >> 24) & 0x7f;
        if len == 0 || len as usize > self.tokens.len() - start {
            return None;
        }
        let bare = BareInstruction {
            opcode,
            token,
            offset: start as u32,
            len,
            index: self.index,
        };
        self.pos += len as usize;
        self.index += 1;
        Some(bare)
    }
}

/// An instruction [`Instructions::skip_unselected`] stepped over: its opcode token and what
/// that says, without its operands.
#[derive(Clone, Copy, Debug)]
pub struct BareInstruction {
    /// Opcode.
    pub opcode: Opcode,
    /// The opcode token (its opcode-specific fields: flags, modes).
    pub token: u32,
    /// Token offset of the opcode token.
    pub offset: u32,
    /// Length in tokens.
    pub len: u32,
    /// Zero-based index of the instruction in the program.
    pub index: u32,
}

/// Whether an instruction with the extended bit set keeps its real length in the token after
/// the opcode token (declarations whose size can exceed 127 tokens, and `fcall`).
fn has_long_form(opcode: Opcode) -> bool {
    matches!(
        opcode,
        Opcode::DclFunctionBody
            | Opcode::DclFunctionTable
            | Opcode::DclInterface
            | Opcode::InterfaceCall
            | Opcode::DclThreadGroup
    )
}

fn enum_field<T>(
    value: u32,
    field: &'static str,
    pos: usize,
    f: impl FnOnce(u32) -> Option<T>,
) -> Result<T, Fail> {
    f(value).ok_or_else(|| Fail::at(pos, DecodeErrorKind::BadEnum { field, value }))
}

fn return_types(token: u32, shift: u32, pos: usize) -> Result<[ReturnType; 4], Fail> {
    let mut out = [ReturnType::None; 4];
    for (i, slot) in out.iter_mut().enumerate() {
        let v = (token >> (shift + 4 * i as u32)) & 0xf;
        *slot = enum_field(v, "return type", pos, ReturnType::from_raw)?;
    }
    Ok(out)
}

fn uav_flags(tok0: u32) -> UavFlags {
    UavFlags {
        globally_coherent: tok0 & (1 << 16) != 0,
        rasterizer_ordered: tok0 & (1 << 17) != 0,
        order_preserving_counter: tok0 & (1 << 23) != 0,
    }
}

/// Decodes the instruction starting at token `start` into `inst`, overwriting every field
/// (operand slots past the new count keep stale values that [`Instruction::operands`] hides).
pub(crate) fn decode_instruction<'a>(
    inst: &mut Instruction<'a>,
    tokens: Words<'a>,
    start: usize,
    index: u32,
    version: Version,
) -> Result<(), Fail> {
    let tok0 = tokens
        .get(start)
        .ok_or_else(|| Fail::at(start, DecodeErrorKind::Truncated))?;
    let remaining = tokens.len() - start;
    let raw_op = tok0 & 0x7ff;
    inst.opcode = Opcode::Nop;
    inst.offset = start as u32;
    inst.len = 0;
    inst.index = index;
    inst.modifiers = Modifiers::default();
    inst.operand_count = 0;
    inst.payload = Payload::None;

    if raw_op == Opcode::CustomData as u32 {
        let len = tokens
            .get(start + 1)
            .ok_or_else(|| Fail::at(start + 1, DecodeErrorKind::Truncated))?;
        if len < 2 || len as usize > remaining {
            return Err(Fail::at(start, DecodeErrorKind::BadLength(len)));
        }
        let raw_class = tok0 >> 11;
        let class = enum_field(
            raw_class,
            "custom data class",
            start,
            CustomDataClass::from_raw,
        )?;
        inst.opcode = Opcode::CustomData;
        inst.len = len;
        inst.payload = Payload::CustomData {
            class,
            data: tokens.slice(start + 2, start + len as usize),
        };
        return Ok(());
    }

    let opcode = Opcode::from_raw(raw_op)
        .ok_or_else(|| Fail::at(start, DecodeErrorKind::UnknownOpcode(raw_op)))?;
    inst.opcode = opcode;
    let extended = tok0 & 0x8000_0000 != 0;
    let mut len = (tok0 >> 24) & 0x7f;
    let mut body = start + 1;
    // Declarations whose size can exceed 127 tokens store the real length in
    // the next word, flagged by the extended bit (or a zero length field).
    let long_form = has_long_form(opcode) && extended;
    if len == 0 || long_form {
        len = tokens
            .get(start + 1)
            .ok_or_else(|| Fail::at(start + 1, DecodeErrorKind::Truncated))?;
        body = start + 2;
    }
    if len == 0 || len as usize > remaining || start + (len as usize) < body {
        return Err(Fail::at(start, DecodeErrorKind::BadLength(len)));
    }
    inst.len = len;
    let mut c = Cursor::new(tokens, body, start + len as usize);

    if extended && !long_form {
        loop {
            let at = c.pos;
            let ext = c.next()?;
            match ext & 0x3f {
                0 => {}
                1 => {
                    let off = |shift: u32| ((((ext >> shift) & 0xf) << 4) as u8 as i8) >> 4;
                    inst.modifiers.sample_offset = Some([off(9), off(13), off(17)]);
                }
                2 => {
                    let dim = (ext >> 6) & 0x1f;
                    inst.modifiers.resource_dim = Some(enum_field(
                        dim,
                        "resource dimension",
                        at,
                        ResourceDimension::from_raw,
                    )?);
                    inst.modifiers.structure_stride = (ext >> 11) & 0xfff;
                }
                3 => inst.modifiers.resource_return = Some(return_types(ext, 6, at)?),
                other => {
                    return Err(Fail::at(at, DecodeErrorKind::UnknownExtendedOpcode(other)));
                }
            }
            if ext & 0x8000_0000 == 0 {
                break;
            }
        }
    }

    if opcode.is_declaration() {
        decode_declaration(inst, &mut c, tok0, version)?;
    } else {
        let m = &mut inst.modifiers;
        match opcode {
            Opcode::Sync => {
                m.sync = SyncFlags {
                    threads_in_group: tok0 & (1 << 11) != 0,
                    shared_memory: tok0 & (1 << 12) != 0,
                    uav_group: tok0 & (1 << 13) != 0,
                    uav_global: tok0 & (1 << 14) != 0,
                };
            }
            Opcode::ResInfo => {
                let v = (tok0 >> 11) & 3;
                m.resinfo_return = Some(enum_field(
                    v,
                    "resinfo return type",
                    start,
                    ResInfoReturnType::from_raw,
                )?);
            }
            Opcode::SampleInfo => m.uint_result = (tok0 >> 11) & 3 == 1,
            _ => {
                m.saturate = tok0 & (1 << 13) != 0;
                if opcode.has_test() {
                    m.test = Some(if tok0 & (1 << 18) != 0 {
                        Test::NonZero
                    } else {
                        Test::Zero
                    });
                }
                m.precise_mask = ((tok0 >> 19) & 0xf) as u8;
            }
        }
        if opcode == Opcode::InterfaceCall {
            inst.payload = Payload::InterfaceCall {
                function_index: c.next()?,
            };
        }
        while !c.at_end() {
            push_operand(inst, &mut c)?;
        }
    }
    if c.pos != c.end {
        return Err(Fail::at(c.pos, DecodeErrorKind::LengthMismatch));
    }
    Ok(())
}

#[inline(always)]
fn push_operand(inst: &mut Instruction<'_>, c: &mut Cursor<'_>) -> Result<(), Fail> {
    let at = c.pos;
    let n = inst.operand_count as usize;
    // The operand is decoded straight into its slot; a failure leaves the slot unused.
    let Some(slot) = inst.operand_storage.get_mut(n) else {
        // Decode it anyway so that a malformed operand reports its own error first.
        decode_operand(c, false, &mut Operand::default())?;
        return Err(Fail::at(at, DecodeErrorKind::TooManyOperands));
    };
    decode_operand(c, false, slot)?;
    inst.operand_count += 1;
    Ok(())
}

fn decode_declaration<'a>(
    inst: &mut Instruction<'a>,
    c: &mut Cursor<'a>,
    tok0: u32,
    version: Version,
) -> Result<(), Fail> {
    let sm51 = version.is_sm51();
    let at = inst.offset as usize;
    let space = |c: &mut Cursor<'a>| -> Result<u32, Fail> {
        if sm51 {
            c.next()
        } else {
            Ok(0)
        }
    };
    use Opcode as O;
    inst.payload = match inst.opcode {
        O::DclResource => {
            push_operand(inst, c)?;
            let dimension = enum_field(
                (tok0 >> 11) & 0x1f,
                "resource dimension",
                at,
                ResourceDimension::from_raw,
            )?;
            let rt_at = c.pos;
            let rt = c.next()?;
            Payload::Resource {
                dimension,
                sample_count: (tok0 >> 16) & 0x7f,
                return_type: return_types(rt, 0, rt_at)?,
                space: space(c)?,
            }
        }
        O::DclConstantBuffer => {
            push_operand(inst, c)?;
            let (size, space) = if sm51 {
                (c.next()?, c.next()?)
            } else {
                let size = inst
                    .operands()
                    .first()
                    .and_then(|o| o.imm_index(1))
                    .unwrap_or(0) as u32;
                (size, 0)
            };
            Payload::ConstantBuffer {
                dynamic_indexed: tok0 & (1 << 11) != 0,
                size,
                space,
            }
        }
        O::DclSampler => {
            push_operand(inst, c)?;
            Payload::Sampler {
                mode: enum_field(
                    (tok0 >> 11) & 0xf,
                    "sampler mode",
                    at,
                    SamplerMode::from_raw,
                )?,
                space: space(c)?,
            }
        }
        O::DclIndexRange => {
            push_operand(inst, c)?;
            Payload::IndexRange { count: c.next()? }
        }
        O::DclGsOutputPrimitiveTopology => Payload::GsOutputTopology(enum_field(
            (tok0 >> 11) & 0x3f,
            "primitive topology",
            at,
            PrimitiveTopology::from_raw,
        )?),
        O::DclGsInputPrimitive => Payload::GsInputPrimitive(enum_field(
            (tok0 >> 11) & 0x3f,
            "primitive",
            at,
            Primitive::from_raw,
        )?),
        O::DclMaxOutputVertexCount => Payload::MaxOutputVertexCount(c.next()?),
        O::DclGsInstanceCount => Payload::GsInstanceCount(c.next()?),
        O::DclInput | O::DclOutput => {
            push_operand(inst, c)?;
            Payload::InputOutput {
                interpolation: None,
                system_value: None,
            }
        }
        O::DclInputSgv | O::DclInputSiv | O::DclOutputSgv | O::DclOutputSiv => {
            push_operand(inst, c)?;
            let name_at = c.pos;
            let name = c.next()? & 0xffff;
            Payload::InputOutput {
                interpolation: None,
                system_value: Some(enum_field(
                    name,
                    "system value",
                    name_at,
                    SystemValue::from_raw,
                )?),
            }
        }
        O::DclInputPs | O::DclInputPsSgv | O::DclInputPsSiv => {
            push_operand(inst, c)?;
            let interpolation = enum_field(
                (tok0 >> 11) & 0xf,
                "interpolation mode",
                at,
                Interpolation::from_raw,
            )?;
            let system_value = if inst.opcode == O::DclInputPs {
                None
            } else {
                let name_at = c.pos;
                let name = c.next()? & 0xffff;
                Some(enum_field(
                    name,
                    "system value",
                    name_at,
                    SystemValue::from_raw,
                )?)
            };
            Payload::InputOutput {
                interpolation: Some(interpolation),
                system_value,
            }
        }
        O::DclTemps => Payload::Temps(c.next()?),
        O::DclIndexableTemp => Payload::IndexableTemp {
            register: c.next()?,
            size: c.next()?,
            components: c.next()?,
        },
        O::DclGlobalFlags => Payload::GlobalFlags(GlobalFlags((tok0 >> 11) & 0x1fff)),
        O::DclStream => {
            push_operand(inst, c)?;
            Payload::None
        }
        O::DclFunctionBody => Payload::FunctionBody(c.next()?),
        O::DclFunctionTable => {
            let id = c.next()?;
            let count = c.next()? as usize;
            let first = c.pos;
            c.skip(count)?;
            Payload::FunctionTable {
                id,
                bodies: c.tokens.slice(first, first + count),
            }
        }
        O::DclInterface => {
            let id = c.next()?;
            let expected_table_length = c.next()?;
            let lens = c.next()?;
            let count = (lens & 0xffff) as usize;
            let first = c.pos;
            c.skip(count)?;
            Payload::Interface {
                id,
                indexed: tok0 & (1 << 11) != 0,
                expected_table_length,
                array_length: lens >> 16,
                tables: c.tokens.slice(first, first + count),
            }
        }
        O::DclInputControlPointCount | O::DclOutputControlPointCount => {
            Payload::ControlPointCount((tok0 >> 11) & 0x3f)
        }
        O::DclTessDomain => Payload::TessDomain(enum_field(
            (tok0 >> 11) & 3,
            "tessellator domain",
            at,
            TessDomain::from_raw,
        )?),
        O::DclTessPartitioning => Payload::TessPartitioning(enum_field(
            (tok0 >> 11) & 7,
            "tessellator partitioning",
            at,
            TessPartitioning::from_raw,
        )?),
        O::DclTessOutputPrimitive => Payload::TessOutputPrimitive(enum_field(
            (tok0 >> 11) & 7,
            "tessellator output primitive",
            at,
            TessOutputPrimitive::from_raw,
        )?),
        O::DclHsMaxTessFactor => Payload::HsMaxTessFactor(f32::from_bits(c.next()?)),
        O::DclHsForkPhaseInstanceCount | O::DclHsJoinPhaseInstanceCount => {
            Payload::HsPhaseInstanceCount(c.next()?)
        }
        O::DclThreadGroup => Payload::ThreadGroup([c.next()?, c.next()?, c.next()?]),
        O::DclUnorderedAccessViewTyped => {
            push_operand(inst, c)?;
            let dimension = enum_field(
                (tok0 >> 11) & 0x1f,
                "resource dimension",
                at,
                ResourceDimension::from_raw,
            )?;
            let rt_at = c.pos;
            let rt = c.next()?;
            Payload::UavTyped {
                dimension,
                flags: uav_flags(tok0),
                return_type: return_types(rt, 0, rt_at)?,
                space: space(c)?,
            }
        }
        O::DclUnorderedAccessViewRaw => {
            push_operand(inst, c)?;
            Payload::UavRaw {
                flags: uav_flags(tok0),
                space: space(c)?,
            }
        }
        O::DclUnorderedAccessViewStructured => {
            push_operand(inst, c)?;
            Payload::UavStructured {
                flags: uav_flags(tok0),
                stride: c.next()?,
                space: space(c)?,
            }
        }
        O::DclThreadGroupSharedMemoryRaw => {
            push_operand(inst, c)?;
            Payload::TgsmRaw {
                byte_count: c.next()?,
            }
        }
        O::DclThreadGroupSharedMemoryStructured => {
            push_operand(inst, c)?;
            Payload::TgsmStructured {
                stride: c.next()?,
                count: c.next()?,
            }
        }
        O::DclResourceRaw => {
            push_operand(inst, c)?;
            Payload::ResourceRaw { space: space(c)? }
        }
        O::DclResourceStructured => {
            push_operand(inst, c)?;
            Payload::ResourceStructured {
                stride: c.next()?,
                space: space(c)?,
            }
        }
        _ => return Err(Fail::at(at, DecodeErrorKind::BadDeclaration)),
    };
    Ok(())
}
