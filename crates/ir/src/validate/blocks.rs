//! Block-form control flow: branch and switch operands, phi shapes, every op in a block,
//! blocks ended by terminators, phis first; and the one leading label of a scoped function.

use super::{Rule, Validator};
use crate::op::{Op, SsaDef};
use crate::opcode::OpCode;

/// True if [`Validator::check_branch_operands`] has a rule for `op`.
pub(super) const fn has_branch_rule(op: OpCode) -> bool {
    matches!(op, OpCode::Switch | OpCode::Phi)
}

impl Validator<'_> {
    /// The shapes of switches (case values of the selector's type) and phis (whole pairs).
    pub(super) fn check_branch_operands(&mut self, def: SsaDef, op: &Op, nref: usize) {
        use OpCode::*;
        match op.opcode {
            Switch => {
                if nref & 1 != 0 {
                    self.err(
                        def,
                        op,
                        Rule::SwitchShape,
                        format!("{nref} operands: a case value has no label"),
                    );
                }
                if let Some(sel) = self.operand_type(op, 0) {
                    let mut i = 2;
                    while i < nref {
                        if let Some(ct) = self.operand_type(op, i) {
                            if !self.same_type(&ct, &sel) {
                                self.err_at(
                                    def,
                                    op,
                                    i,
                                    Rule::SwitchShape,
                                    format!("case value of type {ct}, selector is {sel}"),
                                );
                            }
                        }
                        i += 2;
                    }
                }
            }
            Phi if nref & 1 != 0 => {
                self.err(
                    def,
                    op,
                    Rule::PhiShape,
                    format!("{nref} operands: a block has no value"),
                );
            }
            _ => {}
        }
    }

    /// Block-form rules: every op in a block, blocks end with terminators, phis first.
    pub(super) fn update_blocks(&mut self, def: SsaDef, op: &Op) {
        let Some(f) = self.func.as_mut() else { return };
        let mut report: Option<(Rule, String)> = None;
        if op.opcode == OpCode::Label {
            if f.in_block {
                let b = f.block.map_or_else(String::new, |b| format!("block {b} "));
                report = Some((
                    Rule::MissingTerminator,
                    format!("{b}falls through into {def}"),
                ));
            }
            f.in_block = true;
            f.seen_label = true;
            f.phi_ok = true;
            f.block = Some(def);
        } else {
            if !f.in_block {
                report = Some((
                    Rule::CodeOutsideBlock,
                    if f.seen_label {
                        "after a terminator".into()
                    } else {
                        "before the first Label".into()
                    },
                ));
                // Report a gap once: treat the rest as one (unlabelled) block.
                f.in_block = true;
                f.phi_ok = false;
                f.block = None;
            }
            if op.opcode == OpCode::Phi {
                if !f.phi_ok && report.is_none() {
                    report = Some((Rule::PhiPlacement, String::new()));
                }
            } else {
                f.phi_ok = false;
            }
            if op.opcode.is_terminator() {
                f.in_block = false;
            }
        }
        if let Some((rule, detail)) = report {
            self.err(def, op, rule, detail);
        }
    }
    /// Scoped-form rules: a leading Label, no block-form control flow.
    pub(super) fn update_scoped_body(&mut self, def: SsaDef, op: &Op, first: bool) {
        if first {
            if op.opcode == OpCode::Label {
                if let Some(f) = self.func.as_mut() {
                    f.seen_label = true;
                }
            } else {
                self.err(
                    def,
                    op,
                    Rule::CodeOutsideBlock,
                    "function body must start with a Label".into(),
                );
            }
            return;
        }
        if op.opcode.is_control_flow() {
            self.err(def, op, Rule::MixedControlFlow, String::new());
        }
    }
}
