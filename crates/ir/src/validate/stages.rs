//! Stages: ops, built-ins and barriers that only some shader stages have.

use super::{Rule, Validator};
use crate::enums::{
    BuiltIn, DerivativeGroup, InterpolationModes, Scope, ShaderStage, ShaderStageMask,
};
use crate::op::{Op, SsaDef};
use crate::opcode::OpCode;

/// True if [`Validator::check_stage_rules`] has a rule for `op`.
pub(super) const fn has_stage_rule(op: OpCode) -> bool {
    use OpCode::*;
    matches!(
        op,
        DclInput | DclInputBuiltIn | DclOutputBuiltIn | Barrier | DerivX | DerivY | ImageComputeLod
    )
}

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
        if matches!(op.opcode, DclInput | DclInputBuiltIn) {
            self.check_interpolation(def, op);
        }
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
            DerivX | DerivY | ImageComputeLod => self.check_derivative_group(def, op),
            _ => {}
        }
    }

    /// A derivative in a compute, mesh or amplification shader needs a workgroup that forms
    /// quads ([`DerivativeGroup::of_workgroup`]).
    fn check_derivative_group(&mut self, def: SsaDef, op: &Op) {
        let Some(stage) = self.stage.filter(|s| s.has_derivative_groups()) else {
            return;
        };
        if let Some(size @ [x, y, z]) = self.workgroup_size {
            if DerivativeGroup::of_workgroup(size).is_none() {
                let detail = format!(
                    "a derivative in a {stage} shader whose workgroup ({x}, {y}, {z}) forms no \
                     quads (X and Y even, or X a multiple of 4 with Y and Z 1)"
                );
                self.err(def, op, Rule::OpStage, detail);
            }
        }
    }

    /// The interpolation flags that make an input not interpolated but read per vertex
    /// (`PerVertex`: an array of 3) or per primitive (`PerPrimitive`): pixel shader user
    /// inputs only, with no other flag than `Flat`.
    fn check_interpolation(&mut self, def: SsaDef, op: &Op) {
        let at = if op.opcode == OpCode::DclInput { 2 } else { 1 };
        let Some(m) = op.lit(at).and_then(InterpolationModes::from_literal) else {
            return;
        };
        let special = InterpolationModes::PerVertex | InterpolationModes::PerPrimitive;
        if (m & special).is_empty() {
            return;
        }
        let operand = op.ref_count() + at;
        if op.opcode == OpCode::DclInputBuiltIn
            || self.stage.is_some_and(|s| s != ShaderStage::Pixel)
        {
            let detail =
                format!("{m}: only pixel shader user inputs are read per vertex or primitive");
            self.err_at(def, op, operand, Rule::OpStage, detail);
            return;
        }
        let others = InterpolationModes(m.0 & !(special.0 | InterpolationModes::Flat.0));
        if m.contains(special) || !others.is_empty() {
            let detail = format!("{m}: not interpolated, so no other flag than Flat");
            self.err_at(def, op, operand, Rule::LiteralValue, detail);
        }
        if m.contains(InterpolationModes::PerVertex) && op.ty.dims().last() != Some(&3) {
            let detail = format!(
                "{}: a PerVertex input is an array of 3, one per vertex",
                op.ty
            );
            self.err(def, op, Rule::ResultType, detail);
        }
    }
}
