//! Wave and quad operations (SM 6.0 to 6.7) and the helper lane query (SM 6.6).
//!
//! Each maps to one IR op of the same meaning (`crates/ir/src/opcode.rs`, "Waves" and
//! "Quads"); DXIL's operation and signedness operands (`WaveOpKind`: Sum 0, Product 1,
//! Min 2, Max 3; `WaveBitOpKind`: And 0, Or 1, Xor 2; `SignedOpKind`: Signed 0, Unsigned 1;
//! `WaveMultiPrefixOpKind`: Sum 0, And 1, Or 2, Xor 3, Product 4; `QuadOpKind`: ReadAcrossX 0,
//! ReadAcrossY 1, ReadAcrossDiagonal 2; `QuadVoteOpKind`: Any 0, All 1) pick the IR's
//! [`WaveOp`] and [`QuadDirection`] literals, the value's type whether the operation is a
//! float or an integer one. The counting operations are `WaveBallotBitCount` and
//! `WaveBallotPrefixBitCount` of a `WaveBallot` (masked by the partition for
//! `WaveMultiPrefixCountBits`); ballots and matches return `%dx.types.fouri32`, read as the
//! components of the IR's `vec4<u32>` lane mask.

use dxspv_ir::frontend::FrontendBuilder;
use dxspv_ir::{BuiltIn, Op, OpCode, QuadDirection, ScalarType, SsaDef, Type, WaveOp};

use super::dx_op::code as C;
use super::values::{AggKind, Val};
use super::{Args, Converter, R};
use crate::module::Instruction;

impl<'s> Converter<'s> {
    /// Wave and quad operations.
    pub(crate) fn wave_op(&mut self, code: u32, args: &Args, inst: &'s Instruction) -> R<()> {
        let mask_ty = Type::vector(ScalarType::U32, 4);
        let v = match code {
            C::WAVE_IS_FIRST_LANE => self.code(Op::new(OpCode::WaveIsFirstLane, ScalarType::Bool)),
            C::IS_HELPER_LANE => self.code(Op::new(OpCode::IsHelperLane, ScalarType::Bool)),
            C::WAVE_GET_LANE_INDEX | C::WAVE_GET_LANE_COUNT => {
                let b = if code == C::WAVE_GET_LANE_INDEX {
                    BuiltIn::WaveLaneIndex
                } else {
                    BuiltIn::WaveLaneCount
                };
                let d = self.builtin_input(b, dxspv_ir::InterpolationModes::empty())?;
                self.code(
                    Op::new(OpCode::InputLoad, ScalarType::U32)
                        .with_ref(d)
                        .with_opt_ref(None),
                )
            }
            C::WAVE_ANY_TRUE | C::WAVE_ALL_TRUE => {
                let c = self.arg_def(args, 1)?;
                let op = if code == C::WAVE_ANY_TRUE {
                    WaveOp::Or
                } else {
                    WaveOp::And
                };
                self.code(
                    Op::new(OpCode::WaveActiveOp, ScalarType::Bool)
                        .with_ref(c)
                        .with_lit(op.to_literal()),
                )
            }
            C::WAVE_ACTIVE_ALL_EQUAL => {
                let x = self.arg_def(args, 1)?;
                self.op1(OpCode::WaveAllEqual, ScalarType::Bool, x)
            }
            C::WAVE_ACTIVE_BALLOT | C::WAVE_MATCH => {
                let x = self.arg_def(args, 1)?;
                let opc = if code == C::WAVE_MATCH {
                    OpCode::WaveMatch
                } else {
                    OpCode::WaveBallot
                };
                let m = self.op1(opc, mask_ty, x);
                return self.set(
                    inst.result(),
                    Val::Agg(
                        m,
                        AggKind::Texel {
                            n: 4,
                            feedback: None,
                        },
                    ),
                );
            }
            C::WAVE_READ_LANE_AT | C::QUAD_READ_LANE_AT => {
                let x = self.arg_def(args, 1)?;
                let lane = self.arg_def(args, 2)?;
                let ty = self.b.op(x).ty;
                let opc = if code == C::WAVE_READ_LANE_AT {
                    OpCode::WaveReadLaneAt
                } else {
                    OpCode::QuadReadLaneAt
                };
                self.op2(opc, ty, x, lane)
            }
            C::WAVE_READ_LANE_FIRST => {
                let x = self.arg_def(args, 1)?;
                let ty = self.b.op(x).ty;
                self.op1(OpCode::WaveReadLaneFirst, ty, x)
            }
            C::WAVE_ACTIVE_OP | C::WAVE_PREFIX_OP => {
                let x = self.arg_def(args, 1)?;
                let kind = self.arg_const(args, 2, "operation")?;
                let unsigned = self.arg_const(args, 3, "signedness")? != 0;
                let ty = self.b.op(x).ty;
                let op = self.arith_wave_op(ty, kind, unsigned)?;
                let opc = if code == C::WAVE_ACTIVE_OP {
                    OpCode::WaveActiveOp
                } else {
                    OpCode::WavePrefixOp
                };
                self.code(Op::new(opc, ty).with_ref(x).with_lit(op.to_literal()))
            }
            C::WAVE_ACTIVE_BIT => {
                let x = self.arg_def(args, 1)?;
                let op = match self.arg_const(args, 2, "operation")? {
                    0 => WaveOp::And,
                    1 => WaveOp::Or,
                    2 => WaveOp::Xor,
                    k => return Err(self.invalid(format!("wave bit operation {k}"))),
                };
                let ty = self.b.op(x).ty;
                self.code(
                    Op::new(OpCode::WaveActiveOp, ty)
                        .with_ref(x)
                        .with_lit(op.to_literal()),
                )
            }
            C::WAVE_MULTI_PREFIX_OP => {
                let x = self.arg_def(args, 1)?;
                let mask = self.mask_args(args, 2)?;
                let ty = self.b.op(x).ty;
                let unsigned = self.arg_const(args, 7, "signedness")? != 0;
                let op = match self.arg_const(args, 6, "operation")? {
                    0 => self.arith_wave_op(ty, 0, unsigned)?,
                    1 => WaveOp::And,
                    2 => WaveOp::Or,
                    3 => WaveOp::Xor,
                    4 => self.arith_wave_op(ty, 1, unsigned)?,
                    k => return Err(self.invalid(format!("multi-prefix operation {k}"))),
                };
                self.code(
                    Op::new(OpCode::WaveMultiPrefixOp, ty)
                        .with_ref(x)
                        .with_ref(mask)
                        .with_lit(op.to_literal()),
                )
            }
            C::WAVE_ALL_BIT_COUNT | C::WAVE_PREFIX_BIT_COUNT => {
                let c = self.arg_def(args, 1)?;
                let ballot = self.op1(OpCode::WaveBallot, mask_ty, c);
                let opc = if code == C::WAVE_ALL_BIT_COUNT {
                    OpCode::WaveBallotBitCount
                } else {
                    OpCode::WaveBallotPrefixBitCount
                };
                self.op1(opc, ScalarType::U32, ballot)
            }
            C::WAVE_MULTI_PREFIX_BIT_COUNT => {
                let c = self.arg_def(args, 1)?;
                let mask = self.mask_args(args, 2)?;
                let ballot = self.op1(OpCode::WaveBallot, mask_ty, c);
                let m = self.op2(OpCode::IAnd, mask_ty, ballot, mask);
                self.op1(OpCode::WaveBallotPrefixBitCount, ScalarType::U32, m)
            }
            C::QUAD_OP => {
                let x = self.arg_def(args, 1)?;
                let dir = match self.arg_const(args, 2, "direction")? {
                    0 => QuadDirection::X,
                    1 => QuadDirection::Y,
                    2 => QuadDirection::Diagonal,
                    k => return Err(self.invalid(format!("quad operation {k}"))),
                };
                let ty = self.b.op(x).ty;
                self.code(
                    Op::new(OpCode::QuadReadAcross, ty)
                        .with_ref(x)
                        .with_lit(dir.to_literal()),
                )
            }
            C::QUAD_VOTE => {
                let c = self.arg_def(args, 1)?;
                let opc = match self.arg_const(args, 2, "operation")? {
                    0 => OpCode::QuadAny,
                    1 => OpCode::QuadAll,
                    k => return Err(self.invalid(format!("quad vote {k}"))),
                };
                self.op1(opc, ScalarType::Bool, c)
            }
            _ => return Err(self.invalid("not a wave operation")),
        };
        self.set(inst.result(), Val::Def(v))
    }

    /// The IR operation of DXIL's `WaveOpKind` (Sum 0, Product 1, Min 2, Max 3) on `ty`.
    fn arith_wave_op(&self, ty: Type, kind: i64, unsigned: bool) -> R<WaveOp> {
        let s = ty
            .base_type()
            .ok_or_else(|| self.invalid("wave operation on a non-number"))?;
        let float = s.is_float();
        Ok(match (kind, float, unsigned) {
            (0, true, _) => WaveOp::FAdd,
            (0, false, _) => WaveOp::IAdd,
            (1, true, _) => WaveOp::FMul,
            (1, false, _) => WaveOp::IMul,
            (2, true, _) => WaveOp::FMin,
            (2, false, false) => WaveOp::SMin,
            (2, false, true) => WaveOp::UMin,
            (3, true, _) => WaveOp::FMax,
            (3, false, false) => WaveOp::SMax,
            (3, false, true) => WaveOp::UMax,
            _ => return Err(self.invalid(format!("wave operation {kind}"))),
        })
    }

    /// Four `i32` arguments from `first` as a `vec4<u32>` lane mask.
    fn mask_args(&mut self, args: &Args, first: usize) -> R<SsaDef> {
        let parts = [
            self.arg_def(args, first)?,
            self.arg_def(args, first + 1)?,
            self.arg_def(args, first + 2)?,
            self.arg_def(args, first + 3)?,
        ];
        Ok(self.vector(ScalarType::U32, &parts))
    }
}
