//! Stages: ops, built-ins and barriers that only some shader stages have.

use super::{Rule, Validator};
use crate::enums::{BuiltIn, Scope, ShaderStageMask};
use crate::op::{Op, SsaDef};
use crate::opcode::OpCode;

impl Validator<'_> {
    /// An op bound to stages ([`OpCode::stages`]) in a program of another stage.
    pub(super) fn check_op_stage(&mut self, def: SsaDef, op: &Op) {
        if let (Some(stages), Some(stage)) = (op.opcode.stages(), self.stage) {
            if !stages.contains(ShaderStageMask::from_stage(stage)) {
                self.err(def, op, Rule::OpStage, format!("in a {stage} shader"));
            }
        }
    }

    /// Built-ins and barriers that only some stages have.
    pub(super) fn check_stage_rules(&mut self, def: SsaDef, op: &Op) {
        use OpCode::*;
        match op.opcode {
            // (An unbounded built-in is reported as such, not for its stage.)
            DclInputBuiltIn | DclOutputBuiltIn if !op.ty.dims().contains(&0) => {
                let output = op.opcode == DclOutputBuiltIn;
                let bi = op.lit(0).and_then(BuiltIn::from_literal);
                if let (Some(bi), Some(stage)) = (bi, self.stage) {
                    if !bi.exists_in(stage, output) {
                        let dir = if output { "an output" } else { "an input" };
                        let detail = format!("built-in {bi} as {dir} of a {stage} shader");
                        self.err(def, op, Rule::OpStage, detail);
                    }
                }
            }
            Barrier => {
                // A workgroup-wide barrier needs a stage with workgroups.
                let workgroup = [0, 1]
                    .iter()
                    .any(|&i| op.lit(i).and_then(Scope::from_literal) == Some(Scope::Workgroup));
                if let Some(stage) = self.stage.filter(|s| workgroup && !s.has_workgroups()) {
                    let detail = format!("a workgroup barrier in a {stage} shader");
                    self.err(def, op, Rule::OpStage, detail);
                }
            }
            _ => {}
        }
    }
}
