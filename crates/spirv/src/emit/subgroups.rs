//! Waves and quads: Shader Model 6's wave, quad and helper-lane ops as SPIR-V subgroup
//! operations (`OpGroupNonUniform*` at `Subgroup` scope, SPIR-V 1.3; refused by name on
//! older targets), and the wave size a shader asks for, reflected for the host.
//!
//! Each op has its instruction and capability: `WaveIsFirstLane` is `Elect`
//! (`GroupNonUniform`); `WaveAllEqual` and the `bool` reductions `WaveActiveOp And`/`Or` are
//! `AllEqual`, `All`, `Any` (`GroupNonUniformVote`); ballots, `WaveReadLaneFirst`, a
//! `WaveReadLaneAt` of a constant lane and the bit counts are `Ballot`, `BroadcastFirst`,
//! `Broadcast`, `BallotBitCount` (`GroupNonUniformBallot`); a `WaveReadLaneAt` of a lane
//! that is not a constant is `Shuffle` (`GroupNonUniformShuffle`: `Broadcast` wants a
//! constant lane before SPIR-V 1.5 and a dynamically uniform one after, which Direct3D does
//! not promise); reductions and prefixes are the arithmetic, bitwise and logical group
//! operations with `Reduce` or `ExclusiveScan` (`GroupNonUniformArithmetic`). Quad reads are
//! `QuadSwap` and, for a constant lane, `QuadBroadcast` (`GroupNonUniformQuad`); a quad
//! read of a lane known only at run time shuffles from lane `(SubgroupLocalInvocationId &
//! ~3) | lane` (Vulkan's quads are four consecutive subgroup invocations), which needs no
//! `subgroupBroadcastDynamicId`. `IsHelperLane` is `OpIsHelperInvocationEXT` in pixel
//! shaders (what `HelperInvocation` would be after a demote, which makes that built-in
//! volatile) and `false` elsewhere.
//!
//! Three ops have no SPIR-V instruction and are emulated portably, with no extension:
//! - `QuadAny`/`QuadAll` (SM 6.7; `OpGroupNonUniformQuadAnyKHR` would need
//!   `SPV_KHR_quad_control`): two quad swaps, across X then across Y, each or'ed (and'ed)
//!   in, so every lane of the quad, helpers included, gets the quad's vote.
//! - `WaveMatch` (SM 6.5; `OpGroupNonUniformPartitionNV` would need
//!   `SPV_NV_shader_subgroup_partitioned`): a loop over the partitions, in which every
//!   active lane runs every pass (uniform control flow: a loop that lanes leave at
//!   different passes, with subgroup operations in it, is miscompiled by SIMD
//!   implementations such as lavapipe). A pass takes the lowest lane not yet handled
//!   (`BallotFindLSB` of the remaining lanes), reads its value (`Shuffle`), and the
//!   remaining lanes whose value has the same bits take their ballot as their result; each
//!   pass handles at least one lane.
//! - `WaveMultiPrefixOp` (SM 6.5; the NV extension's `PartitionedExclusiveScanNV`): the
//!   same loop over the partition masks; a pass's partition takes the exclusive scan in
//!   which every other lane gives the operation's identity.
//!
//! The two loops are helper functions (one per value type and operation), written into
//! [`SubgroupState::helpers`] and appended after the IR's functions, so the IR's blocks stay
//! one SPIR-V block each (phis name their predecessors by the IR's labels).

use super::error::{malformed, unsupported, R};
use super::types::{basic_bits, scalar_bits, TyKey};
use super::Emitter;
use crate::words::inst;
use dxspv_ir::{BasicType, Op, OpCode, QuadDirection, ScalarType, ShaderStage, SsaDef, WaveOp};
use smallvec::{smallvec, SmallVec};
use spirv::{Capability, GroupOperation, Op as S, StorageClass as SC};

/// The emulation a helper function performs.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Helper {
    /// `WaveMatch` of a value type.
    Match,
    /// `WaveMultiPrefixOp` with an operation.
    MultiPrefix(WaveOp),
}

/// What the wave and quad ops keep per module.
#[derive(Default)]
pub(super) struct SubgroupState {
    /// The `SubgroupLocalInvocationId` input the quad reads of run-time lanes load (0 until
    /// declared).
    lane_var: u32,
    /// The helper functions written so far: emulation, value type, function id.
    made: SmallVec<[(Helper, u32, u32); 2]>,
    /// Their words, appended after the IR's functions by `finish`.
    pub(super) helpers: Vec<u32>,
}

/// The SPIR-V group instruction of a reduction or scan of `op` on values of scalar type `st`.
fn group_instruction(op: WaveOp, st: ScalarType) -> S {
    let logical = st == ScalarType::Bool;
    match op {
        WaveOp::IAdd => S::GroupNonUniformIAdd,
        WaveOp::IMul => S::GroupNonUniformIMul,
        WaveOp::FAdd => S::GroupNonUniformFAdd,
        WaveOp::FMul => S::GroupNonUniformFMul,
        WaveOp::SMin => S::GroupNonUniformSMin,
        WaveOp::SMax => S::GroupNonUniformSMax,
        WaveOp::UMin => S::GroupNonUniformUMin,
        WaveOp::UMax => S::GroupNonUniformUMax,
        WaveOp::FMin => S::GroupNonUniformFMin,
        WaveOp::FMax => S::GroupNonUniformFMax,
        WaveOp::And if logical => S::GroupNonUniformLogicalAnd,
        WaveOp::Or if logical => S::GroupNonUniformLogicalOr,
        WaveOp::Xor if logical => S::GroupNonUniformLogicalXor,
        WaveOp::And => S::GroupNonUniformBitwiseAnd,
        WaveOp::Or => S::GroupNonUniformBitwiseOr,
        WaveOp::Xor => S::GroupNonUniformBitwiseXor,
    }
}

/// True if `op` applies to values of scalar type `st` (the validator's rule, which the
/// backend relies on for valid SPIR-V).
fn fits(op: WaveOp, st: ScalarType) -> bool {
    if op.is_float() {
        st.is_float()
    } else if op.is_bitwise() {
        st.is_int() || st == ScalarType::Bool
    } else {
        st.is_int()
    }
}

impl<'a> Emitter<'a> {
    /// Refuses wave and quad ops where the target has no subgroup operations.
    fn need_subgroups(&self, def: SsaDef, op: &Op) -> R<()> {
        if self.module.target.at_least(1, 3) {
            Ok(())
        } else {
            unsupported(
                def,
                op,
                format!(
                    "wave and quad operations on {} (they need SPIR-V 1.3, vulkan1.1)",
                    self.module.target
                ),
            )
        }
    }

    /// The `Subgroup` scope constant.
    fn subgroup_scope_id(&mut self) -> u32 {
        self.module.const_u32(spirv::Scope::Subgroup as u32)
    }

    /// The `bool` type.
    fn bool_ty(&mut self) -> u32 {
        self.module.scalar_ty(ScalarType::Bool).unwrap_or_default()
    }

    /// The `vec4<u32>` type of lane masks.
    fn mask_ty(&mut self) -> u32 {
        self.module
            .basic_ty(BasicType::vector(ScalarType::U32, 4))
            .unwrap_or_default()
    }

    /// The basic type of `op`'s result, which must be a scalar or vector.
    fn basic_result(&self, def: SsaDef, op: &Op) -> R<BasicType> {
        match op.ty.as_basic() {
            Some(b) => Ok(b),
            None => malformed(def, op, format!("{} of type {}", op.opcode, op.ty)),
        }
    }

    /// The value of operand `i` as a `u32` (a bit cast of an `i32`), for the lane indices
    /// SPIR-V wants unsigned.
    fn lane_operand(&mut self, def: SsaDef, op: &Op, i: usize) -> R<u32> {
        let a = self.arg(def, op, i)?;
        let v = self.v(a);
        let u = self.module.u32_ty();
        let want = BasicType::scalar(ScalarType::U32);
        Ok(self.operand_as(op, i, v, want, u))
    }

    /// The literal value of operand `i` if it is a constant scalar.
    fn constant_operand(&self, op: &Op, i: usize) -> Option<u64> {
        let c = self.op_of(op.arg(i)?)?;
        (c.opcode == OpCode::Constant && c.ty.is_scalar())
            .then(|| c.lit(0))
            .flatten()
    }

    /// Notes the shader's own `WaveLaneIndex` input (`var`, a `u32`), which the quad reads of
    /// run-time lanes then load instead of declaring another.
    pub(super) fn note_lane_index_var(&mut self, var: u32) {
        if self.subgroup.lane_var == 0 {
            self.subgroup.lane_var = var;
        }
    }

    /// The `SubgroupLocalInvocationId` input, declared on first use.
    fn lane_index_var(&mut self) -> u32 {
        if self.subgroup.lane_var == 0 {
            let var = self.module.id();
            let u = self.module.u32_ty();
            let p = self.module.ptr(SC::Input, u);
            self.module.global_var(p, SC::Input, var, None);
            self.module.decorate(
                var,
                spirv::Decoration::BuiltIn,
                &[spirv::BuiltIn::SubgroupLocalInvocationId as u32],
            );
            if self.stage == ShaderStage::Pixel {
                // Vulkan wants integer inputs of fragment shaders flat.
                self.module.decorate(var, spirv::Decoration::Flat, &[]);
            }
            self.subgroup.lane_var = var;
        }
        self.subgroup.lane_var
    }

    /// `WaveIsFirstLane`: `OpGroupNonUniformElect`.
    pub(super) fn wave_is_first_lane(&mut self, def: SsaDef, op: &Op) -> R<()> {
        self.need_subgroups(def, op)?;
        self.module.cap(Capability::GroupNonUniform);
        let (t, scope) = (self.bool_ty(), self.subgroup_scope_id());
        self.module
            .emit_to(S::GroupNonUniformElect, t, def.id(), &[scope]);
        Ok(())
    }

    /// `WaveAllEqual`: `OpGroupNonUniformAllEqual`.
    pub(super) fn wave_all_equal(&mut self, def: SsaDef, op: &Op) -> R<()> {
        self.need_subgroups(def, op)?;
        self.module.cap(Capability::GroupNonUniformVote);
        let v = self.v(self.arg(def, op, 0)?);
        let (t, scope) = (self.bool_ty(), self.subgroup_scope_id());
        self.module
            .emit_to(S::GroupNonUniformAllEqual, t, def.id(), &[scope, v]);
        Ok(())
    }

    /// `WaveBallot`: `OpGroupNonUniformBallot`.
    pub(super) fn wave_ballot(&mut self, def: SsaDef, op: &Op) -> R<()> {
        self.need_subgroups(def, op)?;
        self.module.cap(Capability::GroupNonUniformBallot);
        let c = self.v(self.arg(def, op, 0)?);
        let (t, scope) = (self.mask_ty(), self.subgroup_scope_id());
        self.module
            .emit_to(S::GroupNonUniformBallot, t, def.id(), &[scope, c]);
        Ok(())
    }

    /// `WaveReadLaneFirst`: `OpGroupNonUniformBroadcastFirst`.
    pub(super) fn wave_read_lane_first(&mut self, def: SsaDef, op: &Op) -> R<()> {
        self.need_subgroups(def, op)?;
        self.module.cap(Capability::GroupNonUniformBallot);
        let v = self.v(self.arg(def, op, 0)?);
        let t = self.module.val_ty(def, op)?;
        let scope = self.subgroup_scope_id();
        self.module
            .emit_to(S::GroupNonUniformBroadcastFirst, t, def.id(), &[scope, v]);
        Ok(())
    }

    /// `WaveReadLaneAt`: `OpGroupNonUniformBroadcast` of a constant lane, else
    /// `OpGroupNonUniformShuffle`.
    pub(super) fn wave_read_lane_at(&mut self, def: SsaDef, op: &Op) -> R<()> {
        self.need_subgroups(def, op)?;
        let v = self.v(self.arg(def, op, 0)?);
        let t = self.module.val_ty(def, op)?;
        let scope = self.subgroup_scope_id();
        match self.constant_operand(op, 1) {
            Some(lane) => {
                self.module.cap(Capability::GroupNonUniformBallot);
                let lane = self.module.const_u32(lane as u32);
                self.module
                    .emit_to(S::GroupNonUniformBroadcast, t, def.id(), &[scope, v, lane]);
            }
            None => {
                self.module.cap(Capability::GroupNonUniformShuffle);
                let lane = self.lane_operand(def, op, 1)?;
                self.module
                    .emit_to(S::GroupNonUniformShuffle, t, def.id(), &[scope, v, lane]);
            }
        }
        Ok(())
    }

    /// `WaveActiveOp` (`Reduce`) and `WavePrefixOp` (`ExclusiveScan`): the group operation
    /// of the literal's operation; a reduction of a `bool` with `And` or `Or` is the vote
    /// `OpGroupNonUniformAll`/`Any`.
    pub(super) fn wave_op(&mut self, def: SsaDef, op: &Op, group: GroupOperation) -> R<()> {
        self.need_subgroups(def, op)?;
        let Some(wop) = op.lit(0).and_then(WaveOp::from_literal) else {
            return malformed(def, op, "bad wave operation");
        };
        let b = self.basic_result(def, op)?;
        if !fits(wop, b.base()) {
            return malformed(def, op, format!("{wop} of {}", op.ty));
        }
        let v = self.v(self.arg(def, op, 0)?);
        let t = self.module.val_ty(def, op)?;
        let scope = self.subgroup_scope_id();
        let vote = (group == GroupOperation::Reduce && b == BasicType::scalar(ScalarType::Bool))
            .then_some(match wop {
                WaveOp::And => Some(S::GroupNonUniformAll),
                WaveOp::Or => Some(S::GroupNonUniformAny),
                _ => None,
            })
            .flatten();
        if let Some(vote) = vote {
            self.module.cap(Capability::GroupNonUniformVote);
            self.module.emit_to(vote, t, def.id(), &[scope, v]);
            return Ok(());
        }
        self.module.cap(Capability::GroupNonUniformArithmetic);
        let instr = group_instruction(wop, b.base());
        self.module
            .emit_to(instr, t, def.id(), &[scope, group as u32, v]);
        Ok(())
    }

    /// `WaveBallotBitCount` (`Reduce`) and `WaveBallotPrefixBitCount` (`ExclusiveScan`):
    /// `OpGroupNonUniformBallotBitCount`.
    pub(super) fn wave_ballot_bit_count(
        &mut self,
        def: SsaDef,
        op: &Op,
        group: GroupOperation,
    ) -> R<()> {
        self.need_subgroups(def, op)?;
        self.module.cap(Capability::GroupNonUniformBallot);
        let m = self.v(self.arg(def, op, 0)?);
        let (u, scope) = (self.module.u32_ty(), self.subgroup_scope_id());
        self.module.emit_to(
            S::GroupNonUniformBallotBitCount,
            u,
            def.id(),
            &[scope, group as u32, m],
        );
        Ok(())
    }

    /// `IsHelperLane`: `OpIsHelperInvocationEXT` in a pixel shader, `false` elsewhere.
    pub(super) fn is_helper_lane(&mut self, def: SsaDef, _op: &Op) -> R<()> {
        if self.stage != ShaderStage::Pixel {
            let f = self.module.const_scalar(ScalarType::Bool, 0);
            self.set_map(def, f);
            return Ok(());
        }
        self.module.cap(Capability::DemoteToHelperInvocation);
        let t = self.bool_ty();
        self.module
            .emit_to(S::IsHelperInvocationEXT, t, def.id(), &[]);
        Ok(())
    }

    /// `QuadReadAcross`: `OpGroupNonUniformQuadSwap`.
    pub(super) fn quad_read_across(&mut self, def: SsaDef, op: &Op) -> R<()> {
        self.need_subgroups(def, op)?;
        self.module.cap(Capability::GroupNonUniformQuad);
        let Some(dir) = op.lit(0).and_then(QuadDirection::from_literal) else {
            return malformed(def, op, "bad quad direction");
        };
        let v = self.v(self.arg(def, op, 0)?);
        let t = self.module.val_ty(def, op)?;
        let scope = self.subgroup_scope_id();
        let d = self.module.const_u32(dir as u32);
        self.module
            .emit_to(S::GroupNonUniformQuadSwap, t, def.id(), &[scope, v, d]);
        Ok(())
    }

    /// `QuadReadLaneAt`: `OpGroupNonUniformQuadBroadcast` of a constant lane; otherwise a
    /// shuffle from the lane of the quad (see the module doc). The lane is taken modulo 4.
    pub(super) fn quad_read_lane_at(&mut self, def: SsaDef, op: &Op) -> R<()> {
        self.need_subgroups(def, op)?;
        let v = self.v(self.arg(def, op, 0)?);
        let t = self.module.val_ty(def, op)?;
        let scope = self.subgroup_scope_id();
        if let Some(lane) = self.constant_operand(op, 1) {
            self.module.cap(Capability::GroupNonUniformQuad);
            let lane = self.module.const_u32((lane & 3) as u32);
            self.module.emit_to(
                S::GroupNonUniformQuadBroadcast,
                t,
                def.id(),
                &[scope, v, lane],
            );
            return Ok(());
        }
        self.module.cap(Capability::GroupNonUniformShuffle);
        let lane = self.lane_operand(def, op, 1)?;
        let u = self.module.u32_ty();
        let var = self.lane_index_var();
        let me = self.module.un(S::Load, u, &[var]);
        let (c3, not3) = (self.module.const_u32(3), self.module.const_u32(!3));
        let base = self.module.un(S::BitwiseAnd, u, &[me, not3]);
        let within = self.module.un(S::BitwiseAnd, u, &[lane, c3]);
        let from = self.module.un(S::BitwiseOr, u, &[base, within]);
        self.module
            .emit_to(S::GroupNonUniformShuffle, t, def.id(), &[scope, v, from]);
        Ok(())
    }

    /// `QuadAny` (`or`) and `QuadAll` (`and`): the condition combined with the lane's
    /// across X, and that with the result's across Y (see the module doc).
    pub(super) fn quad_vote(&mut self, def: SsaDef, op: &Op, any: bool) -> R<()> {
        self.need_subgroups(def, op)?;
        self.module.cap(Capability::GroupNonUniformQuad);
        let c = self.v(self.arg(def, op, 0)?);
        let (t, scope) = (self.bool_ty(), self.subgroup_scope_id());
        let combine = if any { S::LogicalOr } else { S::LogicalAnd };
        let x = self.module.const_u32(QuadDirection::X as u32);
        let y = self.module.const_u32(QuadDirection::Y as u32);
        let across = self
            .module
            .un(S::GroupNonUniformQuadSwap, t, &[scope, c, x]);
        let row = self.module.un(combine, t, &[c, across]);
        let other = self
            .module
            .un(S::GroupNonUniformQuadSwap, t, &[scope, row, y]);
        self.module.emit_to(combine, t, def.id(), &[row, other]);
        Ok(())
    }

    /// `WaveMatch`: a call of the matching loop for the value's type (see the module doc).
    pub(super) fn wave_match(&mut self, def: SsaDef, op: &Op) -> R<()> {
        self.need_subgroups(def, op)?;
        let a = self.arg(def, op, 0)?;
        let Some(vt) = self.op_of(a).and_then(|o| o.ty.as_basic()) else {
            return malformed(
                def,
                op,
                "WaveMatch of a value that is not a scalar or vector",
            );
        };
        let f = self.helper(def, op, Helper::Match, vt)?;
        let (t, v) = (self.mask_ty(), self.v(a));
        self.module.emit_to(S::FunctionCall, t, def.id(), &[f, v]);
        Ok(())
    }

    /// `WaveMultiPrefixOp`: a call of the partition loop for the value's type and operation.
    pub(super) fn wave_multi_prefix(&mut self, def: SsaDef, op: &Op) -> R<()> {
        self.need_subgroups(def, op)?;
        let Some(wop) = op.lit(0).and_then(WaveOp::from_literal) else {
            return malformed(def, op, "bad wave operation");
        };
        let b = self.basic_result(def, op)?;
        if !fits(wop, b.base()) {
            return malformed(def, op, format!("{wop} of {}", op.ty));
        }
        let f = self.helper(def, op, Helper::MultiPrefix(wop), b)?;
        let v = self.v(self.arg(def, op, 0)?);
        let m = self.v(self.arg(def, op, 1)?);
        let t = self.module.val_ty(def, op)?;
        self.module
            .emit_to(S::FunctionCall, t, def.id(), &[f, v, m]);
        Ok(())
    }

    /// The helper function of `helper` for values of type `vt`, written on first use.
    fn helper(&mut self, def: SsaDef, op: &Op, helper: Helper, vt: BasicType) -> R<u32> {
        let Some(t) = self.module.basic_ty(vt) else {
            return unsupported(def, op, format!("{} of {vt}", op.opcode));
        };
        if let Some(&(_, _, f)) = self
            .subgroup
            .made
            .iter()
            .find(|(h, ty, _)| *h == helper && *ty == t)
        {
            return Ok(f);
        }
        // Write the function into the helpers' buffer with the usual writers.
        std::mem::swap(
            &mut self.module.sections.functions,
            &mut self.subgroup.helpers,
        );
        let f = match helper {
            Helper::Match => self.write_match(vt, t),
            Helper::MultiPrefix(wop) => self.write_multi_prefix(wop, vt, t),
        };
        std::mem::swap(
            &mut self.module.sections.functions,
            &mut self.subgroup.helpers,
        );
        self.subgroup.made.push((helper, t, f));
        Ok(f)
    }

    /// `a == b` bit for bit, for values of type `vt` (SPIR-V type `t`): booleans compared
    /// as such, floats through their bits, vectors by every component.
    fn same_bits(&mut self, vt: BasicType, a: u32, b: u32) -> u32 {
        let n = vt.vec_size();
        let bvec = self
            .module
            .basic_ty(BasicType::scalar(ScalarType::Bool).with_vec_size(n))
            .unwrap_or_default();
        let eq = if vt.base() == ScalarType::Bool {
            self.module.un(S::LogicalEqual, bvec, &[a, b])
        } else if vt.base().is_float() {
            let bits = match basic_bits(vt) {
                16 => ScalarType::U16,
                64 => ScalarType::U64,
                _ => ScalarType::U32,
            };
            let it = self
                .module
                .basic_ty(BasicType::scalar(bits).with_vec_size(n))
                .unwrap_or_default();
            let (x, y) = (
                self.module.un(S::Bitcast, it, &[a]),
                self.module.un(S::Bitcast, it, &[b]),
            );
            self.module.un(S::IEqual, bvec, &[x, y])
        } else {
            self.module.un(S::IEqual, bvec, &[a, b])
        };
        if n > 1 {
            let bt = self.bool_ty();
            self.module.un(S::All, bt, &[eq])
        } else {
            eq
        }
    }

    /// The identity of `op` on values of scalar type `st` (`x op identity == x`), as bits.
    fn identity_bits(op: WaveOp, st: ScalarType) -> u64 {
        let bits = scalar_bits(st);
        let ones = if bits >= 64 {
            u64::MAX
        } else {
            (1u64 << bits) - 1
        };
        let sign = 1u64 << (bits - 1);
        let float = |f16: u64, f32: u64, f64: u64| match bits {
            16 => f16,
            64 => f64,
            _ => f32,
        };
        match op {
            WaveOp::IAdd | WaveOp::Or | WaveOp::Xor | WaveOp::UMax => 0,
            WaveOp::IMul => 1,
            WaveOp::And | WaveOp::UMin => ones,
            // The largest signed value, and the smallest (the sign bit, sign-extended).
            WaveOp::SMin => ones >> 1,
            WaveOp::SMax => sign | !ones,
            // -0.0, 1.0, +inf, -inf.
            WaveOp::FAdd => sign,
            WaveOp::FMul => float(0x3c00, 0x3f80_0000, 0x3ff0_0000_0000_0000),
            WaveOp::FMin => float(0x7c00, 0x7f80_0000, 0x7ff0_0000_0000_0000),
            WaveOp::FMax => float(0xfc00, 0xff80_0000, 0xfff0_0000_0000_0000),
        }
    }

    /// `cond` (a `bool`) as the condition of an `OpSelect` of values of type `vt`: splatted
    /// to a vector for a vector (SPIR-V before 1.4 wants one condition per component).
    fn select_condition(&mut self, vt: BasicType, cond: u32) -> u32 {
        if !vt.is_vector() {
            return cond;
        }
        let n = vt.vec_size();
        let bvec = self
            .module
            .basic_ty(BasicType::scalar(ScalarType::Bool).with_vec_size(n))
            .unwrap_or_default();
        let parts = [cond; 4];
        self.module
            .un(S::CompositeConstruct, bvec, &parts[..usize::from(n)])
    }

    /// The head of the partition loops of the helper functions (see the module doc): every
    /// active lane runs every pass, so the subgroup operations are in uniform control flow
    /// (a loop that lanes leave at different passes has subgroup operations and values
    /// uniform in the subgroup in divergent code, which SIMD implementations mishandle). A
    /// pass takes the lowest lane still `remaining` (`OpGroupNonUniformBallotFindLSB`), reads
    /// `key` there (`OpGroupNonUniformShuffle`) and finds the remaining lanes whose key has
    /// the same bits: `(remaining, in_partition)`, where `remaining` is the phi of the mask of
    /// lanes still to handle (the loop header is open, `cont` and `next_remaining` its
    /// continue target and next value).
    #[allow(clippy::too_many_arguments)]
    fn partition_pass(
        &mut self,
        entry: u32,
        cont: u32,
        merge: u32,
        all: u32,
        next_remaining: u32,
        key: u32,
        key_type: BasicType,
    ) -> (u32, u32) {
        let (mask, scope, u, b) = (
            self.mask_ty(),
            self.subgroup_scope_id(),
            self.module.u32_ty(),
            self.bool_ty(),
        );
        let Some(kt) = self.module.basic_ty(key_type) else {
            return (0, 0);
        };
        let m = &mut self.module;
        let remaining = m.id();
        inst(
            m.body(),
            S::Phi,
            &[mask, remaining, all, entry, next_remaining, cont],
        );
        inst(m.body(), S::LoopMerge, &[merge, cont, 0]);
        let body = m.id();
        inst(m.body(), S::Branch, &[body]);
        inst(m.body(), S::Label, &[body]);
        let leader = m.un(S::GroupNonUniformBallotFindLSB, u, &[scope, remaining]);
        let leaders_key = m.un(S::GroupNonUniformShuffle, kt, &[scope, key, leader]);
        let mine = m.un(S::GroupNonUniformInverseBallot, b, &[scope, remaining]);
        let same = self.same_bits(key_type, key, leaders_key);
        let in_partition = self.module.un(S::LogicalAnd, b, &[mine, same]);
        (remaining, in_partition)
    }

    /// The tail of a partition loop: the lanes of this pass's partition (`members`) leave
    /// the remaining ones, the continue target loops while any remain, and the merge block
    /// is opened.
    fn partition_loop_end(
        &mut self,
        remaining: u32,
        members: u32,
        next_remaining: u32,
        header: u32,
        cont: u32,
        merge: u32,
    ) {
        let (mask, b) = (self.mask_ty(), self.bool_ty());
        let bvec4 = self
            .module
            .basic_ty(BasicType::vector(ScalarType::Bool, 4))
            .unwrap_or_default();
        let zero = self
            .module
            .const_splat(BasicType::vector(ScalarType::U32, 4), 0);
        let m = &mut self.module;
        let others = m.un(S::Not, mask, &[members]);
        m.emit_to(S::BitwiseAnd, mask, next_remaining, &[remaining, others]);
        inst(m.body(), S::Branch, &[cont]);
        inst(m.body(), S::Label, &[cont]);
        let left = m.un(S::INotEqual, bvec4, &[next_remaining, zero]);
        let more = m.un(S::Any, b, &[left]);
        inst(m.body(), S::BranchConditional, &[more, header, merge]);
        inst(m.body(), S::Label, &[merge]);
    }

    /// The `WaveMatch` loop of values of type `vt` (`t`): `fn(value) -> vec4<u32>`; each
    /// pass's partition is the lanes whose value has the bits of the pass's lowest lane, and
    /// their result its ballot.
    fn write_match(&mut self, vt: BasicType, t: u32) -> u32 {
        self.module.cap(Capability::GroupNonUniformBallot);
        self.module.cap(Capability::GroupNonUniformShuffle);
        let mask = self.mask_ty();
        let fty = self.module.ty_key(TyKey::Func(smallvec![mask, t]));
        let scope = self.subgroup_scope_id();
        let yes = self.module.const_scalar(ScalarType::Bool, 1);
        let mask_bt = BasicType::vector(ScalarType::U32, 4);
        let zero = self.module.const_splat(mask_bt, 0);
        let [f, value, entry, header, cont, merge, next_remaining, result, next_result] =
            self.ids();
        let m = &mut self.module;
        inst(m.body(), S::Function, &[mask, f, 0, fty]);
        inst(m.body(), S::FunctionParameter, &[t, value]);
        inst(m.body(), S::Label, &[entry]);
        let all = m.un(S::GroupNonUniformBallot, mask, &[scope, yes]);
        inst(m.body(), S::Branch, &[header]);
        inst(m.body(), S::Label, &[header]);
        inst(
            m.body(),
            S::Phi,
            &[mask, result, zero, entry, next_result, cont],
        );
        let (remaining, members_here) =
            self.partition_pass(entry, cont, merge, all, next_remaining, value, vt);
        let m = &mut self.module;
        let members = m.un(S::GroupNonUniformBallot, mask, &[scope, members_here]);
        let cond = self.select_condition(mask_bt, members_here);
        self.module
            .emit_to(S::Select, mask, next_result, &[cond, members, result]);
        self.partition_loop_end(remaining, members, next_remaining, header, cont, merge);
        let m = &mut self.module;
        inst(m.body(), S::ReturnValue, &[next_result]);
        inst(m.body(), S::FunctionEnd, &[]);
        f
    }

    /// The `WaveMultiPrefixOp` loop of `wop` on values of type `vt` (`t`):
    /// `fn(value, mask) -> value`; each pass's partition is the lanes whose mask is the
    /// pass's lowest lane's, and they take an exclusive scan in which the other lanes give
    /// the operation's identity.
    fn write_multi_prefix(&mut self, wop: WaveOp, vt: BasicType, t: u32) -> u32 {
        self.module.cap(Capability::GroupNonUniformBallot);
        self.module.cap(Capability::GroupNonUniformShuffle);
        self.module.cap(Capability::GroupNonUniformArithmetic);
        let mask_t = self.mask_ty();
        let fty = self.module.ty_key(TyKey::Func(smallvec![t, t, mask_t]));
        let scope = self.subgroup_scope_id();
        let yes = self.module.const_scalar(ScalarType::Bool, 1);
        let identity = self
            .module
            .const_splat(vt, Self::identity_bits(wop, vt.base()));
        let mask_bt = BasicType::vector(ScalarType::U32, 4);
        let [f, value, mask, entry, header, cont, merge, next_remaining, result, next_result] =
            self.ids();
        let m = &mut self.module;
        inst(m.body(), S::Function, &[t, f, 0, fty]);
        inst(m.body(), S::FunctionParameter, &[t, value]);
        inst(m.body(), S::FunctionParameter, &[mask_t, mask]);
        inst(m.body(), S::Label, &[entry]);
        let all = m.un(S::GroupNonUniformBallot, mask_t, &[scope, yes]);
        inst(m.body(), S::Branch, &[header]);
        inst(m.body(), S::Label, &[header]);
        inst(
            m.body(),
            S::Phi,
            &[t, result, identity, entry, next_result, cont],
        );
        let (remaining, members_here) =
            self.partition_pass(entry, cont, merge, all, next_remaining, mask, mask_bt);
        let cond = self.select_condition(vt, members_here);
        let m = &mut self.module;
        let contribution = m.un(S::Select, t, &[cond, value, identity]);
        let instr = group_instruction(wop, vt.base());
        let scan = m.un(
            instr,
            t,
            &[scope, GroupOperation::ExclusiveScan as u32, contribution],
        );
        m.emit_to(S::Select, t, next_result, &[cond, scan, result]);
        let members = m.un(S::GroupNonUniformBallot, mask_t, &[scope, members_here]);
        self.partition_loop_end(remaining, members, next_remaining, header, cont, merge);
        let m = &mut self.module;
        inst(m.body(), S::ReturnValue, &[next_result]);
        inst(m.body(), S::FunctionEnd, &[]);
        f
    }

    /// `N` fresh ids.
    fn ids<const N: usize>(&mut self) -> [u32; N] {
        std::array::from_fn(|_| self.module.id())
    }

    /// `SetWaveSize`: no SPIR-V (Vulkan's host picks the subgroup size); reflected as
    /// [`crate::Reflection::wave_size`].
    pub(super) fn set_wave_size(&mut self, def: SsaDef, op: &Op) -> R<()> {
        let min = self.count_lit(def, op, 0)?;
        let max = self.count_lit(def, op, 1)?;
        let preferred = self.lit(def, op, 2)?;
        let pow2 = |n: u32| n.is_power_of_two() && (4..=128).contains(&n);
        if !pow2(min) || !pow2(max) || min > max {
            return malformed(def, op, format!("wave sizes {min} to {max}"));
        }
        let preferred = match u32::try_from(preferred) {
            Ok(0) => None,
            Ok(p) if pow2(p) && (min..=max).contains(&p) => Some(p),
            _ => {
                let detail = format!("preferred wave size {preferred} outside {min} to {max}");
                return malformed(def, op, detail);
            }
        };
        self.refl.wave_size = Some(crate::WaveSizeRange {
            min,
            max,
            preferred,
        });
        Ok(())
    }
}
