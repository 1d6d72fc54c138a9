//! Control flow: `if`/`else`, `loop`, `break`/`continue`, `switch`/`case`/`default`,
//! `ret`, `discard` (as `Demote`) and subroutines (`label`/`call`) as IR functions (`label fb#`,
//! a class linkage function body, is opened by [`super::class_linkage`]).
//!
//! Scoped openers are emitted with a null end reference and patched with `set_operand` once
//! their end op exists. Conditional forms (`breakc`, `retc`, `discard`, `callc`, ...) become a
//! `ScopedIf` around the unconditional form.

use dxspv_ir::frontend::FrontendBuilder;
use dxspv_ir::{Op, OpCode, Operand as IrOperand, ScalarType, SsaDef, Type};

use super::{Cf, Converter, R};
use crate::decode::Test;
use crate::operand::OperandType;
use crate::{Instruction, Opcode};

impl Converter<'_, '_> {
    /// Opens a construct, refusing nesting deeper than [`super::limits::MAX_NESTING_DEPTH`].
    fn push_cf(&mut self, cf: Cf) -> R<()> {
        if self.cf.len() >= super::limits::MAX_NESTING_DEPTH {
            return Err(self.invalid(format!(
                "control flow nested deeper than the limit of {}",
                super::limits::MAX_NESTING_DEPTH
            )));
        }
        self.cf.push(cf);
        Ok(())
    }

    /// The boolean condition of a `_z` / `_nz` instruction on operand `i`.
    fn condition(&mut self, inst: &Instruction<'_>, i: usize) -> R<SsaDef> {
        let op = self.operand(inst, i)?;
        let v = self.load_scalar(op, ScalarType::U32)?;
        let zero = self.c_u32(0);
        let opc = match inst.modifiers.test {
            Some(Test::Zero) => OpCode::IEq,
            _ => OpCode::INe,
        };
        Ok(self.op2(opc, ScalarType::Bool, v, zero))
    }

    /// Wraps `body` in a `ScopedIf` on `cond`.
    fn conditional(&mut self, cond: SsaDef, body: impl FnOnce(&mut Self) -> R<()>) -> R<()> {
        let i = self.code(
            Op::new(OpCode::ScopedIf, Type::VOID)
                .with_opt_ref(None)
                .with_ref(cond),
        );
        body(self)?;
        let e = self.code(Op::new(OpCode::ScopedEndIf, Type::VOID).with_ref(i));
        self.b.set_operand(i, 0, IrOperand::from_def(e));
        Ok(())
    }

    fn emit_break(&mut self) -> R<()> {
        let Some(cf) = self
            .cf
            .iter()
            .rev()
            .find(|c| matches!(c, Cf::Loop(_) | Cf::Switch(_)))
            .copied()
        else {
            return Err(self.invalid("break outside a loop or switch"));
        };
        match cf {
            Cf::Loop(l) => self.code(Op::new(OpCode::ScopedLoopBreak, Type::VOID).with_ref(l)),
            Cf::Switch(s) => self.code(Op::new(OpCode::ScopedSwitchBreak, Type::VOID).with_ref(s)),
            Cf::If(..) => return Err(self.invalid("break outside a loop or switch")),
        };
        Ok(())
    }

    fn emit_continue(&mut self) -> R<()> {
        let Some(Cf::Loop(l)) = self
            .cf
            .iter()
            .rev()
            .find(|c| matches!(c, Cf::Loop(_)))
            .copied()
        else {
            return Err(self.invalid("continue outside a loop"));
        };
        self.code(Op::new(OpCode::ScopedLoopContinue, Type::VOID).with_ref(l));
        Ok(())
    }

    fn emit_call(&mut self, inst: &Instruction<'_>, i: usize) -> R<()> {
        let op = self.operand(inst, i)?;
        if op.ty != OperandType::Label {
            return Err(self.invalid("call target is not a label"));
        }
        let label = self.imm_index(op, 0)? as u32;
        let (target, pending) = match self.label_fns.get(&label) {
            Some(&f) => (f, false),
            None => match self.func {
                Some(f) => (f, true),
                None => return Err(self.invalid("call outside a function")),
            },
        };
        let call = self.code(Op::new(OpCode::FunctionCall, Type::VOID).with_ref(target));
        if pending {
            self.pending_calls.push((call, label));
        }
        Ok(())
    }

    /// Converts a control flow instruction.
    pub(crate) fn control_flow(&mut self, inst: &Instruction<'_>) -> R<()> {
        use Opcode as O;
        match inst.opcode {
            O::If => {
                let c = self.condition(inst, 0)?;
                let i = self.code(
                    Op::new(OpCode::ScopedIf, Type::VOID)
                        .with_opt_ref(None)
                        .with_ref(c),
                );
                self.push_cf(Cf::If(i, false))?;
            }
            O::Else => match self.cf.last_mut() {
                Some(Cf::If(_, true)) => return Err(self.invalid("second else for one if")),
                Some(Cf::If(i, seen)) => {
                    *seen = true;
                    let i = *i;
                    self.code(Op::new(OpCode::ScopedElse, Type::VOID).with_ref(i));
                }
                _ => return Err(self.invalid("else without if")),
            },
            O::EndIf => match self.cf.pop() {
                Some(Cf::If(i, _)) => {
                    let e = self.code(Op::new(OpCode::ScopedEndIf, Type::VOID).with_ref(i));
                    self.b.set_operand(i, 0, IrOperand::from_def(e));
                }
                _ => return Err(self.invalid("endif without if")),
            },
            O::Loop => {
                let l = self.code(Op::new(OpCode::ScopedLoop, Type::VOID).with_opt_ref(None));
                self.push_cf(Cf::Loop(l))?;
            }
            O::EndLoop => match self.cf.pop() {
                Some(Cf::Loop(l)) => {
                    let e = self.code(Op::new(OpCode::ScopedEndLoop, Type::VOID).with_ref(l));
                    self.b.set_operand(l, 0, IrOperand::from_def(e));
                }
                _ => return Err(self.invalid("endloop without loop")),
            },
            O::Break => self.emit_break()?,
            O::Breakc => {
                let c = self.condition(inst, 0)?;
                self.conditional(c, |s| s.emit_break())?;
            }
            O::Continue => self.emit_continue()?,
            O::Continuec => {
                let c = self.condition(inst, 0)?;
                self.conditional(c, |s| s.emit_continue())?;
            }
            O::Switch => {
                let op = self.operand(inst, 0)?;
                let v = self.load_scalar(op, ScalarType::U32)?;
                let s = self.code(
                    Op::new(OpCode::ScopedSwitch, Type::VOID)
                        .with_opt_ref(None)
                        .with_ref(v),
                );
                self.push_cf(Cf::Switch(s))?;
            }
            O::Case => {
                let Some(&Cf::Switch(s)) = self.cf.last() else {
                    return Err(self.invalid("case outside a switch"));
                };
                let op = self.operand(inst, 0)?;
                if op.ty != OperandType::Immediate32 {
                    return Err(self.invalid("case value is not an immediate"));
                }
                self.code(
                    Op::new(OpCode::ScopedSwitchCase, Type::VOID)
                        .with_ref(s)
                        .with_lit(op.imm[0] as u64),
                );
            }
            O::Default => {
                let Some(&Cf::Switch(s)) = self.cf.last() else {
                    return Err(self.invalid("default outside a switch"));
                };
                self.code(Op::new(OpCode::ScopedSwitchDefault, Type::VOID).with_ref(s));
            }
            O::EndSwitch => match self.cf.pop() {
                Some(Cf::Switch(s)) => {
                    let e = self.code(Op::new(OpCode::ScopedEndSwitch, Type::VOID).with_ref(s));
                    self.b.set_operand(s, 0, IrOperand::from_def(e));
                }
                _ => return Err(self.invalid("endswitch without switch")),
            },
            O::Ret => self.emit_return(),
            O::Retc => {
                let c = self.condition(inst, 0)?;
                self.conditional(c, |s| {
                    s.emit_return();
                    Ok(())
                })?;
            }
            O::Discard => {
                let c = self.condition(inst, 0)?;
                self.conditional(c, |s| {
                    s.code(Op::new(OpCode::Demote, Type::VOID));
                    Ok(())
                })?;
            }
            O::Call => self.emit_call(inst, 0)?,
            O::Callc => {
                let c = self.condition(inst, 0)?;
                self.conditional(c, |s| s.emit_call(inst, 1))?;
            }
            O::Label => {
                let op = self.operand(inst, 0)?;
                if op.ty == OperandType::FunctionBody {
                    return self.begin_function_body(op);
                }
                let label = self.imm_index(op, 0)? as u32;
                if self.label_fns.contains_key(&label) {
                    return Err(self.invalid(format!("label l{label} defined twice")));
                }
                let f = self.begin_function(&[], &format!("l{label}"))?;
                self.label_fns.insert(label, f);
            }
            other => return Err(self.invalid(format!("{} is not control flow", other.mnemonic()))),
        }
        Ok(())
    }
}
