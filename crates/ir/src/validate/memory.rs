//! Memory and declarations: addresses into variables, temporaries, descriptors, sparse
//! feedback and the sizes of declared variables.

use super::{Rule, Validator};
use crate::op::{Op, OpFlags, SsaDef};
use crate::opcode::OpCode;
use crate::types::ScalarType;

/// True if [`Validator::check_memory_ops`] has a rule for `op`.
pub(super) const fn has_memory_rule(op: OpCode) -> bool {
    use OpCode::*;
    matches!(
        op,
        DescriptorLoad
            | TmpLoad
            | DclInput
            | DclInputBuiltIn
            | DclOutput
            | DclOutputBuiltIn
            | DclLds
            | DclScratch
            | DclTmp
            | DclParam
    )
}

impl Validator<'_> {
    /// A sparse access's result: the feedback (what `CheckSparseAccess` reads), then the data.
    pub(super) fn check_sparse_feedback(&mut self, def: SsaDef, op: &Op) {
        let rt = &op.ty;
        if op.flags.contains(OpFlags::SPARSE_FEEDBACK) {
            // The feedback (what `CheckSparseAccess` reads), then the data.
            let feedback_ok = !rt.is_array()
                && rt.members().len() == 2
                && rt.members()[0].vec_size() == 1
                && self.kind_ok(rt.members()[0].base(), |s| {
                    s.is_int() && s.bit_size() == Some(32)
                });
            if !feedback_ok {
                self.err(
                    def,
                    op,
                    Rule::ResultType,
                    format!("{rt}: a sparse access gives a 32-bit integer feedback and its data"),
                );
            }
        }
    }

    /// Descriptor types, temporaries and the sizes of declared variables (operand types are
    /// the opcode table's).
    pub(super) fn check_memory_ops(&mut self, def: SsaDef, op: &Op) {
        use OpCode::*;
        use ScalarType as S;
        let rt = &op.ty;
        match op.opcode {
            DescriptorLoad => {
                if let Some((_, dcl)) = self.target(op, 0) {
                    let want = match dcl.opcode {
                        DclSampler => Some(S::Sampler),
                        DclCbv => Some(S::Cbv),
                        DclSrv => Some(S::Srv),
                        DclUav => Some(S::Uav),
                        DclUavCounter => Some(S::UavCounter),
                        _ => None,
                    };
                    if let Some(want) = want {
                        if !self.scalar_of(rt, |s| s == want) {
                            self.err(
                                def,
                                op,
                                Rule::DescriptorType,
                                format!("{} needs {want}, found {rt}", dcl.opcode),
                            );
                        }
                    }
                }
            }
            // A temporary holds values of its declared type (`Unknown` scalars match any
            // scalar of the same shape); lowered IR has no temporaries to check.
            TmpLoad if self.unknown_ok() => {
                if let Some(tmp) = self.operand_type(op, 0) {
                    if !self.same_type(rt, &tmp) {
                        self.err(
                            def,
                            op,
                            Rule::ResultType,
                            format!("{rt} loaded from a temporary of type {tmp}"),
                        );
                    }
                }
            }
            DclInput | DclInputBuiltIn | DclOutput | DclOutputBuiltIn | DclLds | DclScratch
            | DclTmp | DclParam
                if rt.dims().contains(&0) =>
            {
                // Only resources (structured and raw buffers) have a run-time length.
                self.err(
                    def,
                    op,
                    Rule::ResultType,
                    format!("{rt}: an unbounded array has no size here"),
                );
            }
            _ => {}
        }
    }

    /// The address (operand 1) of an access to a variable or composite (operand 0: an input,
    /// output, scratch array, LDS, push data, constant, or the composite an insert writes)
    /// stays inside its type: one index per component, each constant one in range.
    pub(super) fn check_variable_address(&mut self, def: SsaDef, op: &Op) {
        let (Some(vt), Some((_, addr))) = (self.operand_type(op, 0), self.target(op, 1)) else {
            return;
        };
        let n = addr.ty.as_basic().map_or(0, |b| b.vec_size() as usize);
        let constant = addr.opcode == OpCode::Constant;
        let indices = (0..n).map(|k| if constant { addr.lit(k) } else { None });
        if let Err(k) = vt.at_address(indices) {
            self.err_at(
                def,
                op,
                1,
                Rule::OperandType,
                format!("index {k} of the address leaves {vt}"),
            );
        }
    }
}
