//! Reference operands: null and dangling references, forward references, the scope a value
//! is visible in, declarations used as values, and the opcode each operand must name. What
//! each operand may name is its [`Role`] in the opcode table.

use super::{Rule, Validator};
use crate::op::{Op, SsaDef};
use crate::opcode::{Like, OpCode, RefInfo, RefKind, Role, Traits, TypeRule};
use crate::types::Type;

/// What the validator assumes of an operand the table does not describe (none: the shape is
/// checked first).
const UNDESCRIBED: RefInfo = RefInfo {
    name: "",
    role: Role::Value,
    ty: TypeRule::Any,
    like: Like::Free,
    kind: RefKind::Required,
};

/// Why operand `role` of `user` may not name an op `target` of type `ty`, if it may not:
/// annotations do not name each other; the entry point, functions and labels are named only
/// where the operand asks for one (or by a debug name); mode settings have no value; every
/// other operand needs a value or a declaration, which void ops (stores, annotations,
/// terminators) are not, except that scoped ops name their constructs.
fn valueless_target(user: OpCode, role: Role, target: OpCode, ty: &Type) -> Option<&'static str> {
    if user.is_annotation() && target.is_annotation() {
        return Some("a debug op, not something to name");
    }
    if target.is_not_a_value() {
        let asked =
            matches!(role, Role::Named) || role.opcodes().is_some_and(|w| w.contains(&target));
        return (!asked).then_some("which is not a value");
    }
    if target.is_mode() {
        return Some("a mode setting, which has no value");
    }
    let names_construct = matches!(role, Role::ScopeEnd | Role::ScopeOpener);
    if !ty.is_void() || target.is_dcl() || (names_construct && target.is_scoped()) {
        return None;
    }
    Some("which has no value")
}

impl Validator<'_> {
    /// True if the op at position `tp` is in the current function and that function is in
    /// unstructured block form, where values of other blocks may come later in program order
    /// (SSA dominance is checked on the control flow graph instead).
    fn unstructured_code(&self, tp: u32) -> bool {
        self.func
            .as_ref()
            .and_then(|f| self.funcs.get(f.index))
            .is_some_and(|f| f.unstructured(self.level) && f.start < tp && tp < f.end)
    }

    /// Reference operands: null, dangling, forward, referenced opcodes, declaration use.
    pub(super) fn check_refs(&mut self, def: SsaDef, op: &Op, p: u32, nref: usize) {
        let info = op.opcode.info();
        let b = self.b;
        let is_phi = op.opcode == OpCode::Phi;
        let user_annotation = op.opcode.is_annotation();
        let Some(operands) = op.operands.get(..nref) else {
            return;
        };
        for (i, &operand) in operands.iter().enumerate() {
            let raw = operand.0;
            let r = info.ref_info(i).unwrap_or(&UNDESCRIBED);
            if raw == 0 {
                if r.kind == RefKind::Required {
                    self.err_at(def, op, i, Rule::NullOperand, String::new());
                }
                continue;
            }
            // One position lookup: 0 for ids not in the program (or not ids at all).
            let found = operand.def().map(|t| (t, self.pos_of(t)));
            let Some((t, tp)) = found.filter(|&(_, tp)| tp != 0) else {
                self.err_at(def, op, i, Rule::DanglingReference, format!("%{raw}"));
                continue;
            };
            // A phi's value may be the phi itself: a value a loop carries unchanged on that
            // edge (SPIR-V and LLVM allow it).
            let own_value = is_phi && i % 2 == 1;
            if tp == p && !own_value {
                self.err_at(
                    def,
                    op,
                    i,
                    Rule::ForwardReference,
                    "references itself".into(),
                );
            } else if tp > p && !r.role.may_be_later() && !self.unstructured_code(tp) {
                self.err_at(def, op, i, Rule::ForwardReference, format!("{t} is later"));
            }
            let Some(top) = b.get(t) else { continue };
            let ts = self.def_scope.get(t.index()).copied().unwrap_or(0);
            if ts != 0
                && tp < p
                // Scoped ops name their constructs freely, but an if's condition or a switch's
                // selector is a value like any other; annotations and branches name ops
                // without using their values.
                && !top.opcode.is_scoped()
                && !user_annotation
                && !matches!(r.role, Role::Block)
                && !self.scope_visible(ts)
            {
                self.err_at(def, op, i, Rule::ScopeDominance, format!("{t}"));
            }
            let traits = top.opcode.traits();
            if traits.contains(Traits::DCL) && !r.role.takes_declaration() {
                self.err_at(
                    def,
                    op,
                    i,
                    Rule::DclMisuse,
                    format!("{t} is {}", top.opcode),
                );
            }
            // A plain value (most operands) naming an op with a value: nothing more to check
            // (`check_ref_opcode` would find what `valueless_target` finds, nothing).
            let plain = matches!(r.role, Role::Value)
                && !traits.contains(Traits::ANNOTATION)
                && !traits.contains(Traits::NOT_A_VALUE)
                && !traits.contains(Traits::MODE)
                && !top.ty.is_void();
            if !plain {
                self.check_ref_opcode(def, op, i, r.role, t, top);
            }
        }
    }

    /// The opcode a reference operand must name, per operand role.
    fn check_ref_opcode(
        &mut self,
        def: SsaDef,
        op: &Op,
        i: usize,
        role: Role,
        t: SsaDef,
        top: &Op,
    ) {
        if matches!(role, Role::StageFunction) {
            if top.opcode != OpCode::Function {
                self.err_at(
                    def,
                    op,
                    i,
                    Rule::EntryPointOperand,
                    format!("{t} is {}", top.opcode),
                );
            } else if top.ref_count() > 0 || !top.ty.is_void() {
                // Stage functions are called by the pipeline, with nothing and for nothing.
                self.err_at(
                    def,
                    op,
                    i,
                    Rule::EntryPointOperand,
                    format!("{t} takes parameters or returns a value"),
                );
            }
            return;
        }
        if matches!(role, Role::Merge) {
            if top.opcode != OpCode::Label {
                self.err_at(
                    def,
                    op,
                    i,
                    Rule::ConstructOperands,
                    format!("{t} is {}, not a Label", top.opcode),
                );
            } else if !self.in_current_function(t) {
                self.err_at(
                    def,
                    op,
                    i,
                    Rule::ConstructOperands,
                    format!("{t} is in another function"),
                );
            }
            return;
        }
        if matches!(role, Role::Block) {
            if top.opcode != OpCode::Label {
                self.err_at(
                    def,
                    op,
                    i,
                    Rule::BranchTarget,
                    format!("{t} is {}", top.opcode),
                );
            } else if !self.in_current_function(t) {
                self.err_at(
                    def,
                    op,
                    i,
                    Rule::BranchTarget,
                    format!("{t} is in another function"),
                );
            }
            return;
        }
        if matches!(role, Role::CaseValue) {
            if top.opcode != OpCode::Constant {
                self.err_at(
                    def,
                    op,
                    i,
                    Rule::SwitchShape,
                    format!("case value {t} is {}, not a Constant", top.opcode),
                );
            }
            return;
        }
        if matches!(role, Role::EnclosingFunction) {
            let cur = self.func.as_ref().and_then(|f| f.def);
            if cur != Some(t) {
                self.err_at(
                    def,
                    op,
                    i,
                    Rule::ParamLoadTarget,
                    format!("{t} is not the enclosing function"),
                );
            }
            return;
        }
        if let Some(reason) = valueless_target(op.opcode, role, top.opcode, &top.ty) {
            self.err_at(
                def,
                op,
                i,
                Rule::OperandOpcode,
                format!("{t} is {}, {reason}", top.opcode),
            );
            return;
        }
        if let Some(want) = role.opcodes() {
            if !want.contains(&top.opcode) {
                let names: Vec<&str> = want.iter().map(|o| o.name()).collect();
                self.err_at(
                    def,
                    op,
                    i,
                    Rule::OperandOpcode,
                    format!("{t} is {}, expected {}", top.opcode, names.join(" or ")),
                );
            } else if matches!(role, Role::Param) {
                let fid = self.func.as_ref().and_then(|f| f.def).map_or(0, |d| d.id());
                if self.param_owner.get(t.index()).copied().unwrap_or(0) != fid || fid == 0 {
                    self.err_at(
                        def,
                        op,
                        i,
                        Rule::ParamLoadTarget,
                        format!("{t} is not a parameter of the enclosing function"),
                    );
                }
            }
        }
    }
    /// True if `label` lies inside the current function.
    fn in_current_function(&self, label: SsaDef) -> bool {
        let Some(f) = self.func.as_ref().and_then(|f| self.funcs.get(f.index)) else {
            return false;
        };
        let lp = self.pos_of(label);
        lp > f.start && lp < f.end
    }
}
