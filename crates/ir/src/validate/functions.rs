//! Program layout and functions: declarations before code, code inside functions, function
//! nesting, the entry point, calls, parameters and returns.

use super::{FuncState, Level, Rule, Validator};
use crate::op::{Op, SsaDef};
use crate::opcode::{OpClass, OpCode};

/// True if [`Validator::check_function_ops`] has a rule for `op`.
pub(super) const fn has_function_rule(op: OpCode) -> bool {
    use OpCode::*;
    matches!(
        op,
        Return | FunctionCall | ParamLoad | EntryPoint | Function
    )
}

impl Validator<'_> {
    /// Declarations before code, code inside functions, function nesting, entry point count.
    pub(super) fn check_layout(&mut self, def: SsaDef, op: &Op) {
        if op.opcode == OpCode::EntryPoint {
            self.entry_points += 1;
            if self.entry_points > 1 {
                self.err(def, op, Rule::EntryPointCount, "second EntryPoint".into());
            }
        }
        match op.opcode.info().class {
            OpClass::Declaration => {
                if self.seen_code {
                    self.err(def, op, Rule::DeclarationAfterCode, String::new());
                }
            }
            OpClass::Anywhere => {}
            OpClass::Code => {
                self.seen_code = true;
                match op.opcode {
                    OpCode::Function => {}
                    OpCode::FunctionEnd => {
                        if self.func.is_none() {
                            self.err(
                                def,
                                op,
                                Rule::FunctionNesting,
                                "FunctionEnd outside a function".into(),
                            );
                        }
                    }
                    _ => {
                        if self.func.is_none() {
                            self.err(def, op, Rule::CodeOutsideFunction, String::new());
                        }
                    }
                }
            }
        }
    }
    /// Entry point, function, call, parameter and return operands.
    pub(super) fn check_function_ops(&mut self, def: SsaDef, op: &Op, nref: usize) {
        use OpCode::*;
        let rt = &op.ty;
        match op.opcode {
            Return => self.check_return(def, op),
            FunctionCall => {
                // Arguments match the callee's parameters, in number and type; the result is
                // what the callee returns.
                if let Some((_, f)) = self.target(op, 0) {
                    if !self.same_type(rt, &f.ty) {
                        self.err(
                            def,
                            op,
                            Rule::ResultType,
                            format!("{rt} from a function returning {}", f.ty),
                        );
                    }
                    let params: Vec<SsaDef> = f.refs().flatten().collect();
                    if params.len() + 1 != nref {
                        self.err(
                            def,
                            op,
                            Rule::OperandCount,
                            format!("{} arguments for {} parameters", nref - 1, params.len()),
                        );
                    } else {
                        for (k, p) in params.iter().enumerate() {
                            let (Some(pt), Some(at)) =
                                (self.b.get(*p).map(|o| o.ty), self.operand_type(op, k + 1))
                            else {
                                continue;
                            };
                            let ok = self.same_type(&at, &pt);
                            self.want(def, op, k + 1, ok, pt);
                        }
                    }
                }
            }
            ParamLoad => {
                if let Some(pt) = self.operand_type(op, 1) {
                    if !self.same_type(&pt, rt) {
                        self.err(
                            def,
                            op,
                            Rule::ResultType,
                            format!("the parameter is {pt}, not {rt}"),
                        );
                    }
                }
            }
            EntryPoint if nref == 0 => {
                self.err(def, op, Rule::EntryPointOperand, "no functions".into());
            }
            Function => self.enter_function(def, op, nref),
            _ => {}
        }
    }

    fn check_return(&mut self, def: SsaDef, op: &Op) {
        let Some(fty) = self.func.as_ref().map(|f| f.ty) else {
            return;
        };
        match op.operands.first().map(|o| o.0) {
            None | Some(0) => {
                if !fty.is_void() {
                    self.err(
                        def,
                        op,
                        Rule::ReturnType,
                        format!("no value, function returns {fty}"),
                    );
                }
            }
            Some(_) => {
                let Some(vt) = self.operand_type(op, 0) else {
                    return;
                };
                if !self.same_type(&vt, &fty) {
                    self.err_at(
                        def,
                        op,
                        0,
                        Rule::ReturnType,
                        format!("{vt}, function returns {fty}"),
                    );
                }
            }
        }
    }
    /// Starts the state of a new function (reporting nesting) and records its parameters.
    fn enter_function(&mut self, def: SsaDef, op: &Op, nref: usize) {
        // The parameters are recorded for ParamLoad; the table is only built if needed.
        if nref > 0 && self.param_owner.is_empty() {
            self.param_owner.resize(self.b.id_bound(), 0);
        }
        for i in 0..nref {
            if let Some(slot) = op.arg(i).and_then(|p| self.param_owner.get_mut(p.index())) {
                *slot = def.id();
            }
        }
    }
    /// Function, block and scope state after the op's own checks.
    pub(super) fn update_control_flow(&mut self, def: SsaDef, op: &Op) {
        match op.opcode {
            OpCode::Function => {
                if self.func.is_some() {
                    self.err(
                        def,
                        op,
                        Rule::FunctionNesting,
                        "Function inside a function".into(),
                    );
                    self.finish_function(None);
                }
                let index = self.next_func;
                self.next_func += 1;
                let info = self.funcs.get(index).copied();
                let has_scoped = info.is_some_and(|f| f.has_scoped);
                let block_form =
                    self.level == Level::Lowered || info.is_some_and(|f| f.block_form(self.level));
                self.stack.clear();
                self.func = Some(FuncState {
                    index,
                    def: Some(def),
                    ty: op.ty,
                    block_form,
                    has_scoped,
                    first: true,
                    ..FuncState::default()
                });
                return;
            }
            OpCode::FunctionEnd => {
                if self.func.is_some() {
                    self.finish_function(Some((def, op)));
                }
                return;
            }
            _ => {}
        }
        if op.opcode.info().class == OpClass::Declaration {
            return;
        }
        let Some(f) = self.func.as_ref() else { return };
        let first = f.first;
        let block_form = f.block_form;
        let has_scoped = f.has_scoped;
        if let Some(f) = self.func.as_mut() {
            f.first = false;
        }
        if block_form {
            self.update_blocks(def, op);
        } else {
            self.update_scoped_body(def, op, first);
        }
        if has_scoped && op.opcode.is_scoped() {
            self.update_scopes(def, op);
        }
    }
    /// Ends the current function: unterminated blocks, unclosed scopes, empty bodies.
    pub(super) fn finish_function(&mut self, end: Option<(SsaDef, &Op)>) {
        let Some(f) = self.func.take() else { return };
        if let Some((def, op)) = end {
            if f.block_form && f.in_block {
                let b = f.block.map_or_else(String::new, |b| format!("block {b} "));
                self.err(
                    def,
                    op,
                    Rule::MissingTerminator,
                    format!("{b}reaches FunctionEnd"),
                );
            }
            if f.first {
                self.err(
                    def,
                    op,
                    Rule::CodeOutsideBlock,
                    "function has no blocks".into(),
                );
            }
        }
        while let Some(fr) = self.stack.pop() {
            let opcode = self.b.get(fr.opener).map(|o| o.opcode);
            self.push(
                Some(fr.opener),
                opcode,
                Rule::ScopeUnclosed,
                None,
                String::new(),
            );
        }
    }
}
