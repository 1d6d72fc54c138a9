//! The op dispatch: one `match` over every [`OpCode`], sending each op to the emitter of its
//! concept.
//!
//! The match has no fallback arm, so an opcode added to the IR does not compile until the
//! backend emits it or lists it with the ops that cannot reach the backend: those lowered
//! IR may not hold (scoped control flow, temporaries, untyped-value hints, the D3D9 legacy
//! arithmetic, dot products and the min/max value constants, which the passes lower and
//! `dxspv_ir::validate` refuses at `Level::Lowered`) and raw pointers (Vulkan needs buffer
//! device addresses for them, which the backend does not use).
//!
//! Before the match, an op is checked against the stage (SPIR-V ties execution modes and
//! some instructions to execution models), and an op of a function body other than a block
//! or function end is marked as defined, so that a `DebugName` on it becomes an `OpName`
//! (declarations mark themselves when they declare something).

use super::alu::Instr::{Core, Glsl};
use super::atomics::AtomicTarget;
use super::error::{malformed, unsupported, R};
use super::interface::Interpolation;
use super::Emitter;
use crate::RegisterClass;
use dxspv_ir::{Op, OpClass, OpCode, ShaderStageMask, SsaDef};
use spirv::{ExecutionMode as M, GLOp, GroupOperation, Op as S, StorageClass as SC};
use std::sync::OnceLock;

/// [`OpTraits`] bit: the opcode is an op of a function body that may give its def a
/// definition: every code op but the block and function ends (of these, only ops with a
/// result, labels, functions and calls get a SPIR-V id).
const DEFINES_IN_BODY: u16 = 1 << 8;

/// [`OpTraits`] bit: the op gets a SPIR-V id even with a `void` result (labels, functions,
/// calls).
const DEFINES_VOID: u16 = 1 << 9;

/// [`OpTraits`] bit: output stores waiting for the rest of their vector are written before
/// the op (it is not removable, so it may see them, or it reads outputs).
const FLUSHES_OUTPUTS: u16 = 1 << 10;

/// What the dispatch asks of every op's opcode before emitting it, one entry per opcode:
/// the low eight bits are its `OpCode::stages` mask (0: every stage), the others the bits
/// above. Built once per process ([`op_traits`]), so that each op costs one lookup.
pub(super) type OpTraits = &'static [u16];

/// The [`OpTraits`] table.
pub(super) fn op_traits() -> OpTraits {
    static TABLE: OnceLock<Vec<u16>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut table = vec![0u16; OpCode::ALL.len()];
        for &opcode in OpCode::ALL {
            let mut t = opcode.stages().map_or(0, |m| (m.0 & 0xff) as u16);
            if opcode.info().class == OpClass::Code
                && !opcode.is_terminator()
                && opcode != OpCode::FunctionEnd
            {
                t |= DEFINES_IN_BODY;
            }
            if matches!(
                opcode,
                OpCode::Label | OpCode::Function | OpCode::FunctionCall
            ) {
                t |= DEFINES_VOID;
            }
            if opcode != OpCode::OutputStore
                && (!opcode.is_removable() || opcode == OpCode::OutputLoad)
            {
                t |= FLUSHES_OUTPUTS;
            }
            if let Some(e) = table.get_mut(opcode as usize) {
                *e = t;
            }
        }
        table
    })
}

impl<'a> Emitter<'a> {
    /// Emits one op (see the module doc).
    pub(super) fn op(&mut self, def: SsaDef, op: &'a Op) -> R<()> {
        use OpCode as O;
        let traits = self.op_traits.get(op.opcode as usize).copied().unwrap_or(0);
        let stages = u32::from(traits & 0xff);
        if stages != 0 && stages & ShaderStageMask::from_stage(self.stage).0 == 0 {
            return malformed(
                def,
                op,
                format!("{:?} in a {:?} shader", op.opcode, self.stage),
            );
        }
        // Output stores waiting for the rest of their vector are written before anything
        // that could see them (see `Self::flush_outputs`).
        if traits & FLUSHES_OUTPUTS != 0 && !self.function_state.pending_outputs.is_empty() {
            self.flush_outputs()?;
        }
        if traits & DEFINES_IN_BODY != 0 && (traits & DEFINES_VOID != 0 || !op.ty.is_void()) {
            self.mark(def);
        }
        match op.opcode {
            // Declarations with no SPIR-V of their own, and debug information (names and
            // semantics are written at the end, straight from the IR).
            O::EntryPoint if self.entry == Some(def) => Ok(()),
            O::EntryPoint => malformed(def, op, "a second EntryPoint"),
            O::Drain | O::DebugMemberName => Ok(()),
            O::DclXfb => self.dcl_xfb(def, op),
            O::DebugName => {
                self.record_debug_name(op);
                Ok(())
            }
            O::Semantic => {
                self.late.push(op);
                Ok(())
            }

            // Constants.
            O::Constant => self.constant(def, op),
            O::Undef => self.undef(def, op),

            // Execution modes.
            O::SetCsWorkgroupSize => self.set_cs_workgroup_size(def, op),
            O::SetGsInstances => self.set_gs_instances(def, op),
            O::SetGsInputPrimitive => self.set_gs_input_primitive(def, op),
            O::SetGsOutputVertices => self.set_gs_output_vertices(def, op),
            O::SetGsOutputPrimitive => self.set_gs_output_primitive(def, op),
            O::SetPsEarlyFragmentTest => self.set_mode(M::EarlyFragmentTests),
            O::SetPsDepthGreaterEqual => self.set_mode(M::DepthGreater),
            O::SetPsDepthLessEqual => self.set_mode(M::DepthLess),
            O::SetTessPrimitive => self.set_tess_primitive(def, op),
            O::SetTessDomain => self.set_tess_domain(def, op),
            O::SetTessControlPoints => self.set_tess_control_points(def, op),
            O::SetFpMode => self.set_fp_mode(def, op),

            // The shader interface.
            O::DclInput => self.dcl_io(def, op, SC::Input, false),
            O::DclInputBuiltIn => self.dcl_io(def, op, SC::Input, true),
            O::DclOutput => self.dcl_io(def, op, SC::Output, false),
            O::DclOutputBuiltIn => self.dcl_io(def, op, SC::Output, true),
            O::DclSpecConstant => self.dcl_spec_constant(def, op),
            O::DclPushData => self.dcl_push_data(def, op),
            O::InputLoad | O::OutputLoad => self.io_load(def, op),
            O::OutputStore => self.output_store(def, op),
            O::PushDataLoad => self.push_data_load(def, op),
            O::InterpolateAtCentroid => self.interpolate(def, op, Interpolation::Centroid),
            O::InterpolateAtSample => self.interpolate(def, op, Interpolation::Sample),
            O::InterpolateAtOffset => self.interpolate(def, op, Interpolation::Offset),
            O::EmitVertex => self.emit_stream_op(def, op, S::EmitStreamVertex, S::EmitVertex),
            O::EmitPrimitive => {
                self.emit_stream_op(def, op, S::EndStreamPrimitive, S::EndPrimitive)
            }

            // Resources.
            O::DclCbv => self.dcl_resource(def, op, RegisterClass::Cbv),
            O::DclSrv => self.dcl_resource(def, op, RegisterClass::Srv),
            O::DclUav => self.dcl_resource(def, op, RegisterClass::Uav),
            O::DclSampler => self.dcl_resource(def, op, RegisterClass::Sampler),
            O::DclUavCounter => self.dcl_resource(def, op, RegisterClass::UavCounter),
            O::DescriptorLoad => self.descriptor_load(def, op),

            // Memory.
            O::DclLds => self.dcl_variable(def, op, SC::Workgroup),
            O::DclScratch => self.dcl_variable(def, op, SC::Private),
            O::LdsLoad | O::ScratchLoad => self.variable_load(def, op),
            O::LdsStore | O::ScratchStore => self.variable_store(def, op),
            O::ConstantLoad => self.constant_load(def, op),
            O::BufferLoad => self.buffer_access(def, op, |e, d| e.buffer_load(def, op, d)),
            O::BufferStore => self.buffer_access(def, op, |e, d| e.buffer_store(def, op, d)),
            O::BufferQuerySize => self.buffer_query_size(def, op),

            // Images.
            O::ImageLoad => self.image_load(def, op),
            O::ImageStore => self.image_store(def, op),
            O::ImageSample => self.image_sample_or_gather(def, op, true),
            O::ImageGather => self.image_sample_or_gather(def, op, false),
            O::ImageComputeLod => self.image_compute_lod(def, op),
            O::ImageQuerySize => self.image_query_size(def, op),
            O::ImageQueryMips => self.image_query_mips(def, op),
            O::ImageQuerySamples => self.image_query_samples(def, op),
            O::CheckSparseAccess => self.check_sparse_access(def, op),

            // Atomics, barriers and the pixel interlock.
            O::LdsAtomic => self.atomic(def, op, AtomicTarget::Lds),
            O::BufferAtomic => self.atomic(def, op, AtomicTarget::Buffer),
            O::ImageAtomic => self.atomic(def, op, AtomicTarget::Image),
            O::CounterAtomic => self.atomic(def, op, AtomicTarget::Counter),
            O::Barrier => self.barrier(def, op),
            O::RovScopedLockBegin => self.interlock_begin(op),
            O::RovScopedLockEnd => self.interlock_end(),

            // Functions and control flow.
            O::Function => self.function(def, op),
            O::FunctionEnd => self.function_end(),
            // Declared with its function, as an `OpFunctionParameter`.
            O::DclParam => Ok(()),
            O::ParamLoad => self.param_load(def, op),
            O::FunctionCall => self.function_call(def, op),
            O::Return => self.function_return(op),
            O::Label => self.label(def, op),
            O::Branch => self.branch(def, op),
            O::BranchConditional => self.branch_conditional(def, op),
            O::Switch => self.switch(def, op),
            O::Unreachable => self.unreachable(),
            O::Phi => self.phi(def, op),
            O::Demote => self.demote(),

            // Float arithmetic.
            O::FAbs => self.alu_map(def, op, Glsl(GLOp::FAbs), 1),
            O::FNeg => self.alu_map(def, op, Core(S::FNegate), 1),
            O::FAdd => self.alu_map(def, op, Core(S::FAdd), 2),
            O::FSub => self.alu_map(def, op, Core(S::FSub), 2),
            O::FMul => self.alu_map(def, op, Core(S::FMul), 2),
            O::FDiv => self.alu_map(def, op, Core(S::FDiv), 2),
            O::FMad => self.fmad(def, op),
            O::FRcp => self.frcp(def, op),
            O::FSqrt => self.alu_map(def, op, Glsl(GLOp::Sqrt), 1),
            O::FRsq => self.alu_map(def, op, Glsl(GLOp::InverseSqrt), 1),
            O::FExp2 => self.alu_map(def, op, Glsl(GLOp::Exp2), 1),
            O::FLog2 => self.alu_map(def, op, Glsl(GLOp::Log2), 1),
            O::FFract => self.alu_map(def, op, Glsl(GLOp::Fract), 1),
            O::FRound => self.fround(def, op),
            O::FMin => self.alu_map(def, op, Glsl(GLOp::NMin), 2),
            O::FMax => self.alu_map(def, op, Glsl(GLOp::NMax), 2),
            O::FClamp => self.alu_map(def, op, Glsl(GLOp::NClamp), 3),
            O::FSin => self.alu_map(def, op, Glsl(GLOp::Sin), 1),
            O::FCos => self.alu_map(def, op, Glsl(GLOp::Cos), 1),
            O::FPow => self.alu_map(def, op, Glsl(GLOp::Pow), 2),
            O::DerivX => self.derivative(def, op, [S::DPdx, S::DPdxCoarse, S::DPdxFine]),
            O::DerivY => self.derivative(def, op, [S::DPdy, S::DPdyCoarse, S::DPdyFine]),

            // Comparisons, logic and selection.
            O::FEq => self.alu_map(def, op, Core(S::FOrdEqual), 2),
            O::FNe => self.alu_map(def, op, Core(S::FUnordNotEqual), 2),
            O::FLt => self.alu_map(def, op, Core(S::FOrdLessThan), 2),
            O::FLe => self.alu_map(def, op, Core(S::FOrdLessThanEqual), 2),
            O::FGt => self.alu_map(def, op, Core(S::FOrdGreaterThan), 2),
            O::FGe => self.alu_map(def, op, Core(S::FOrdGreaterThanEqual), 2),
            O::FIsNan => self.alu_map(def, op, Core(S::IsNan), 1),
            O::IEq => self.alu_map(def, op, Core(S::IEqual), 2),
            O::INe => self.alu_map(def, op, Core(S::INotEqual), 2),
            O::SLt => self.alu_map(def, op, Core(S::SLessThan), 2),
            O::SLe => self.alu_map(def, op, Core(S::SLessThanEqual), 2),
            O::SGt => self.alu_map(def, op, Core(S::SGreaterThan), 2),
            O::SGe => self.alu_map(def, op, Core(S::SGreaterThanEqual), 2),
            O::ULt => self.alu_map(def, op, Core(S::ULessThan), 2),
            O::ULe => self.alu_map(def, op, Core(S::ULessThanEqual), 2),
            O::UGt => self.alu_map(def, op, Core(S::UGreaterThan), 2),
            O::UGe => self.alu_map(def, op, Core(S::UGreaterThanEqual), 2),
            O::BAnd => self.alu_map(def, op, Core(S::LogicalAnd), 2),
            O::BOr => self.alu_map(def, op, Core(S::LogicalOr), 2),
            O::BEq => self.alu_map(def, op, Core(S::LogicalEqual), 2),
            O::BNe => self.alu_map(def, op, Core(S::LogicalNotEqual), 2),
            O::BNot => self.alu_map(def, op, Core(S::LogicalNot), 1),
            O::Select => self.select(def, op),

            // Bit operations.
            O::IAnd => self.alu_map(def, op, Core(S::BitwiseAnd), 2),
            O::IOr => self.alu_map(def, op, Core(S::BitwiseOr), 2),
            O::IXor => self.alu_map(def, op, Core(S::BitwiseXor), 2),
            O::INot => self.alu_map(def, op, Core(S::Not), 1),
            O::IShl => self.shift(def, op, S::ShiftLeftLogical),
            O::SShr => self.shift(def, op, S::ShiftRightArithmetic),
            O::UShr => self.shift(def, op, S::ShiftRightLogical),
            O::IBitInsert => self.bit_field(def, op, S::BitFieldInsert),
            O::UBitExtract => self.bit_field(def, op, S::BitFieldUExtract),
            O::SBitExtract => self.bit_field(def, op, S::BitFieldSExtract),
            O::IBitCount => self.bit_scan(def, op, Core(S::BitCount)),
            O::IBitReverse => self.bit_reverse(def, op),
            O::IFindLsb => self.bit_scan(def, op, Glsl(GLOp::FindILsb)),
            O::SFindMsb => self.bit_scan(def, op, Glsl(GLOp::FindSMsb)),
            O::UFindMsb => self.bit_scan(def, op, Glsl(GLOp::FindUMsb)),

            // Integer arithmetic.
            O::IAdd => self.alu_map(def, op, Core(S::IAdd), 2),
            O::ISub => self.alu_map(def, op, Core(S::ISub), 2),
            O::IMul => self.alu_map(def, op, Core(S::IMul), 2),
            O::UDiv => self.unsigned_division(def, op, S::UDiv),
            O::UMod => self.unsigned_division(def, op, S::UMod),
            O::IAbs => self.alu_map(def, op, Glsl(GLOp::SAbs), 1),
            O::INeg => self.alu_map(def, op, Core(S::SNegate), 1),
            O::SMin => self.alu_map(def, op, Glsl(GLOp::SMin), 2),
            O::SMax => self.alu_map(def, op, Glsl(GLOp::SMax), 2),
            O::SClamp => self.alu_map(def, op, Glsl(GLOp::SClamp), 3),
            O::UMin => self.alu_map(def, op, Glsl(GLOp::UMin), 2),
            O::UMax => self.alu_map(def, op, Glsl(GLOp::UMax), 2),
            O::UClamp => self.alu_map(def, op, Glsl(GLOp::UClamp), 3),
            O::IAddCarry => self.extended_arithmetic(def, op, S::IAddCarry),
            O::ISubBorrow => self.extended_arithmetic(def, op, S::ISubBorrow),
            O::SMulExtended => self.extended_arithmetic(def, op, S::SMulExtended),
            O::UMulExtended => self.extended_arithmetic(def, op, S::UMulExtended),
            O::UMsad => self.msad(def, op),
            O::SDot4x8Packed => self.dot4x8_packed(def, op, true),
            O::UDot4x8Packed => self.dot4x8_packed(def, op, false),

            // Conversions and composites.
            O::ConvertFtoF => self.alu_map(def, op, Core(S::FConvert), 1),
            O::ConvertFtoI => self.convert_f_to_i(def, op),
            O::ConvertItoF => self.convert_i_to_f(def, op),
            O::ConvertItoI => self.convert_i_to_i(def, op),
            O::ConvertF32toPackedF16 => self.alu_map(def, op, Glsl(GLOp::PackHalf2x16), 1),
            O::ConvertPackedF16toF32 => self.alu_map(def, op, Glsl(GLOp::UnpackHalf2x16), 1),
            O::Cast => self.alu_map(def, op, Core(S::Bitcast), 1),
            O::CompositeConstruct => self.composite_construct(def, op),
            O::CompositeExtract => self.composite_access(def, op, false),
            O::CompositeInsert => self.composite_access(def, op, true),

            // Waves and quads.
            O::WaveIsFirstLane => self.wave_is_first_lane(def, op),
            O::WaveAllEqual => self.wave_all_equal(def, op),
            O::WaveBallot => self.wave_ballot(def, op),
            O::WaveReadLaneAt => self.wave_read_lane_at(def, op),
            O::WaveReadLaneFirst => self.wave_read_lane_first(def, op),
            O::WaveActiveOp => self.wave_op(def, op, GroupOperation::Reduce),
            O::WavePrefixOp => self.wave_op(def, op, GroupOperation::ExclusiveScan),
            O::WaveMultiPrefixOp => self.wave_multi_prefix(def, op),
            O::WaveBallotBitCount => self.wave_ballot_bit_count(def, op, GroupOperation::Reduce),
            O::WaveBallotPrefixBitCount => {
                self.wave_ballot_bit_count(def, op, GroupOperation::ExclusiveScan)
            }
            O::WaveMatch => self.wave_match(def, op),
            O::IsHelperLane => self.is_helper_lane(def, op),
            O::SetWaveSize => self.set_wave_size(def, op),
            O::QuadReadLaneAt => self.quad_read_lane_at(def, op),
            O::QuadReadAcross => self.quad_read_across(def, op),
            O::QuadAny => self.quad_vote(def, op, true),
            O::QuadAll => self.quad_vote(def, op, false),

            // Mesh and amplification shaders.
            O::SetMsOutputs => self.set_ms_outputs(def, op),
            O::DclMeshPayload => self.dcl_mesh_payload(def, op),
            O::MeshSetOutputCounts => self.mesh_set_output_counts(def, op),
            O::DispatchMesh => self.dispatch_mesh(def, op),

            // Raw pointers: Vulkan has them only with buffer device addresses.
            O::Pointer | O::MemoryLoad | O::MemoryStore | O::MemoryAtomic => {
                unsupported(def, op, "raw pointers")
            }

            // Ops the passes lower before the backend (`validate` refuses them at
            // `Level::Lowered`).
            O::ConsumeAs
            | O::DclTmp
            | O::TmpLoad
            | O::TmpStore
            | O::MinValue
            | O::MaxValue
            | O::FMulLegacy
            | O::FMadLegacy
            | O::FDot
            | O::FDotLegacy
            | O::FPowLegacy
            | O::ScopedIf
            | O::ScopedElse
            | O::ScopedEndIf
            | O::ScopedLoop
            | O::ScopedLoopBreak
            | O::ScopedLoopContinue
            | O::ScopedEndLoop
            | O::ScopedSwitch
            | O::ScopedSwitchCase
            | O::ScopedSwitchDefault
            | O::ScopedSwitchBreak
            | O::ScopedEndSwitch => unsupported(def, op, "opcode"),
        }
    }
}
