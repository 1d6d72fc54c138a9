//! Control flow: `if` (on a boolean constant, the predicate, or a comparison), `rep`,
//! `loop` with its counter `aL`, `break` in its three forms, `setp`, and subroutines.
//!
//! Blocks become the IR's scoped constructs. `rep i#` and `loop aL, i#` run
//! `clamp(i#.x, 0, 255)` times (Direct3D 9's iteration limit):
//!
//! ```text
//! count = clamp(i.x, 0, 255)        aL = i.y (loop only)
//! ScopedLoop
//!   if count <= 0: break
//!   body
//!   count -= 1                      aL += i.z (loop only)
//! ScopedEndLoop
//! ```
//!
//! so every loop ends. `call l#` and `callnz l#, b#|p0` inline the subroutine's
//! instructions at the call: subroutines share all registers with the caller (even `aL`,
//! which a subroutine without a loop of its own reads from the caller's loop) and cannot
//! recurse, and nesting is limited to [`super::MAX_CALL_DEPTH`].

use dxspv_ir::frontend::FrontendBuilder;
use dxspv_ir::{Op, OpCode, Operand, ScalarType, SsaDef, Type};

use super::{Converter, Tmp, R};
use super::{MAX_CALL_DEPTH, MAX_IF_DEPTH, MAX_LOOP_DEPTH, MAX_LOOP_ITERATIONS};
use crate::decode::{Comparison, Instruction};
use crate::opcode::Opcode;
use crate::register::RegisterType;

/// One open block.
#[derive(Clone, Copy, Debug)]
enum Block {
    /// `if`: its `ScopedIf` and whether `else` was seen.
    If(SsaDef, bool),
    /// `rep` or `loop`: its `ScopedLoop`, the iteration counter, and for `loop` the `aL`
    /// temporary and the step.
    Loop {
        op: SsaDef,
        counter: Tmp,
        al: Option<(Tmp, SsaDef)>,
    },
}

/// The open blocks and calls.
#[derive(Debug, Default)]
pub(crate) struct Flow {
    blocks: Vec<Block>,
    ifs: u32,
    loops: u32,
    calls: u32,
}

impl Flow {
    /// Blocks open.
    pub fn depth(&self) -> usize {
        self.blocks.len()
    }

    /// The kind of the innermost open block, if any.
    pub fn open_block(&self) -> Option<&'static str> {
        self.blocks.last().map(|b| match b {
            Block::If(..) => "if",
            Block::Loop { al: None, .. } => "rep",
            Block::Loop { .. } => "loop",
        })
    }
}

/// The IR comparison of a Direct3D 9 comparison of floats.
fn float_compare(c: Comparison) -> OpCode {
    match c {
        Comparison::Gt => OpCode::FGt,
        Comparison::Eq => OpCode::FEq,
        Comparison::Ge => OpCode::FGe,
        Comparison::Lt => OpCode::FLt,
        Comparison::Ne => OpCode::FNe,
        Comparison::Le => OpCode::FLe,
    }
}

impl Converter<'_, '_> {
    /// The value of the innermost `aL` (0 outside every loop, where Direct3D 9 leaves it
    /// undefined).
    pub(crate) fn loop_counter_value(&mut self) -> R<SsaDef> {
        let al = self.flow.blocks.iter().rev().find_map(|b| match b {
            Block::Loop {
                al: Some((t, _)), ..
            } => Some(*t),
            _ => None,
        });
        match al {
            Some(t) => Ok(self.load_tmp(t, ScalarType::I32)),
            None => Ok(self.c_i32(0)),
        }
    }

    /// `a <comparison> b` of the scalar sources of `inst`.
    fn comparison(&mut self, inst: &Instruction<'_>) -> R<SsaDef> {
        let Some(c) = inst.comparison else {
            return Err(self.invalid("missing comparison"));
        };
        let a = self.source(inst, 0)?;
        let b = self.source(inst, 1)?;
        let a = self.src_scalar_x(a)?;
        let b = self.src_scalar_x(b)?;
        Ok(self.op2(float_compare(c), ScalarType::Bool, a, b))
    }

    /// The replicate-swizzle scalar of a comparison source (`if_gt r0.x, c0.y`).
    fn src_scalar_x(&mut self, s: &crate::Source) -> R<SsaDef> {
        self.src_scalar(s)
    }

    fn open_if(&mut self, cond: SsaDef) -> R<()> {
        if self.flow.ifs >= MAX_IF_DEPTH {
            return Err(self.limit(format!(
                "if blocks nest deeper than Direct3D 9's limit of {MAX_IF_DEPTH}"
            )));
        }
        let i = self.cf(Op::new(OpCode::ScopedIf, Type::VOID)
            .with_opt_ref(None)
            .with_ref(cond));
        self.flow.ifs += 1;
        self.flow.blocks.push(Block::If(i, false));
        Ok(())
    }

    fn close_if(&mut self) -> R<()> {
        match self.flow.blocks.pop() {
            Some(Block::If(i, _)) => {
                let e = self.cf(Op::new(OpCode::ScopedEndIf, Type::VOID).with_ref(i));
                self.b.set_operand(i, 0, Operand::from_def(e));
                self.flow.ifs -= 1;
                Ok(())
            }
            Some(b) => {
                self.flow.blocks.push(b);
                Err(self.invalid("endif closes a loop"))
            }
            None => Err(self.invalid("endif without if")),
        }
    }

    /// Emits `if cond { break innermost loop }`.
    fn break_if(&mut self, cond: Option<SsaDef>) -> R<()> {
        let Some(l) = self.flow.blocks.iter().rev().find_map(|b| match b {
            Block::Loop { op, .. } => Some(*op),
            _ => None,
        }) else {
            return Err(self.invalid("break outside a loop"));
        };
        match cond {
            None => {
                self.cf(Op::new(OpCode::ScopedLoopBreak, Type::VOID).with_ref(l));
            }
            Some(c) => {
                let i = self.cf(Op::new(OpCode::ScopedIf, Type::VOID)
                    .with_opt_ref(None)
                    .with_ref(c));
                self.cf(Op::new(OpCode::ScopedLoopBreak, Type::VOID).with_ref(l));
                let e = self.cf(Op::new(OpCode::ScopedEndIf, Type::VOID).with_ref(i));
                self.b.set_operand(i, 0, Operand::from_def(e));
            }
        }
        Ok(())
    }

    /// Opens `rep i#` (`with_al`: false) or `loop aL, i#`.
    fn open_loop(&mut self, inst: &Instruction<'_>, with_al: bool) -> R<()> {
        if self.flow.loops >= MAX_LOOP_DEPTH {
            return Err(self.limit(format!(
                "loops nest deeper than Direct3D 9's limit of {MAX_LOOP_DEPTH}"
            )));
        }
        let i = self.source(inst, if with_al { 1 } else { 0 })?;
        if i.register.ty != RegisterType::ConstInt {
            return Err(self.invalid(format!("{} is not an integer constant", i.register)));
        }
        let index = i.register.index;
        let swz = i.swizzle;
        let n = self.int_constant(index, swz.lane(0))?;
        let lo = self.c_i32(0);
        let hi = self.c_i32(MAX_LOOP_ITERATIONS);
        let n = self.op3(OpCode::SClamp, ScalarType::I32, n, lo, hi);
        let counter = self.tmp(ScalarType::I32);
        self.store_tmp(counter, n);
        let al = if with_al {
            let start = self.int_constant(index, swz.lane(1))?;
            let step = self.int_constant(index, swz.lane(2))?;
            let t = self.tmp(ScalarType::I32);
            self.store_tmp(t, start);
            Some((t, step))
        } else {
            None
        };
        let l = self.cf(Op::new(OpCode::ScopedLoop, Type::VOID).with_opt_ref(None));
        self.flow.loops += 1;
        self.flow.blocks.push(Block::Loop { op: l, counter, al });
        let c = self.load_tmp(counter, ScalarType::I32);
        let zero = self.c_i32(0);
        let done = self.op2(OpCode::SLe, ScalarType::Bool, c, zero);
        self.break_if(Some(done))
    }

    fn close_loop(&mut self, with_al: bool) -> R<()> {
        match self.flow.blocks.pop() {
            Some(Block::Loop { op, counter, al }) if al.is_some() == with_al => {
                let c = self.load_tmp(counter, ScalarType::I32);
                let one = self.c_i32(1);
                let c = self.op2(OpCode::ISub, ScalarType::I32, c, one);
                self.store_tmp(counter, c);
                if let Some((t, step)) = al {
                    let a = self.load_tmp(t, ScalarType::I32);
                    let a = self.op2(OpCode::IAdd, ScalarType::I32, a, step);
                    self.store_tmp(t, a);
                }
                let e = self.cf(Op::new(OpCode::ScopedEndLoop, Type::VOID).with_ref(op));
                self.b.set_operand(op, 0, Operand::from_def(e));
                self.flow.loops -= 1;
                Ok(())
            }
            Some(b) => {
                self.flow.blocks.push(b);
                Err(self.invalid(if with_al {
                    "endloop does not close a loop"
                } else {
                    "endrep does not close a rep"
                }))
            }
            None => Err(self.invalid(if with_al {
                "endloop without loop"
            } else {
                "endrep without rep"
            })),
        }
    }

    /// Inlines subroutine `l{label}`.
    fn call(&mut self, label: u32) -> R<()> {
        let Some((offset, index)) = self.pre.label(label) else {
            return Err(self.invalid(format!("call to l{label}, which no label defines")));
        };
        if self.flow.calls >= MAX_CALL_DEPTH {
            return Err(self.limit(format!(
                "calls nest deeper than Direct3D 9's limit of {MAX_CALL_DEPTH} (or recurse)"
            )));
        }
        self.flow.calls += 1;
        let at = self.at;
        let it = self.shader.instructions_at(offset, index);
        self.walk(it, true)?;
        self.flow.calls -= 1;
        self.at = at;
        Ok(())
    }

    /// Converts a flow-control instruction.
    pub(crate) fn flow_control(&mut self, inst: &Instruction<'_>) -> R<()> {
        use Opcode as O;
        match inst.opcode {
            O::If => {
                let s = self.source(inst, 0)?;
                let c = self.condition(s)?;
                self.open_if(c)
            }
            O::IfC => {
                let c = self.comparison(inst)?;
                self.open_if(c)
            }
            O::Else => match self.flow.blocks.last_mut() {
                Some(Block::If(_, true)) => Err(self.invalid("second else for one if")),
                Some(Block::If(i, seen)) => {
                    *seen = true;
                    let i = *i;
                    self.cf(Op::new(OpCode::ScopedElse, Type::VOID).with_ref(i));
                    Ok(())
                }
                _ => Err(self.invalid("else without if")),
            },
            O::EndIf => self.close_if(),
            O::Rep => self.open_loop(inst, false),
            O::EndRep => self.close_loop(false),
            O::Loop => {
                let al = self.source(inst, 0)?;
                if al.register.ty != RegisterType::Loop {
                    return Err(self.invalid("loop counter is not aL"));
                }
                self.open_loop(inst, true)
            }
            O::EndLoop => self.close_loop(true),
            O::Break => self.break_if(None),
            O::BreakC => {
                let c = self.comparison(inst)?;
                self.break_if(Some(c))
            }
            O::BreakP => {
                let s = self.source(inst, 0)?;
                let c = self.condition(s)?;
                self.break_if(Some(c))
            }
            O::Call => {
                let l = self.source(inst, 0)?;
                self.call(l.register.index)
            }
            O::CallNz => {
                let l = self.source(inst, 0)?.register.index;
                let s = self.source(inst, 1)?;
                let c = self.condition(s)?;
                let i = self.cf(Op::new(OpCode::ScopedIf, Type::VOID)
                    .with_opt_ref(None)
                    .with_ref(c));
                self.call(l)?;
                let e = self.cf(Op::new(OpCode::ScopedEndIf, Type::VOID).with_ref(i));
                self.b.set_operand(i, 0, Operand::from_def(e));
                Ok(())
            }
            // `ret` and `label` end the walk before they get here.
            O::Ret | O::Label => Ok(()),
            other => Err(self.invalid(format!("{} is not flow control", other.name()))),
        }
    }

    /// `setp_<comparison> p0, src0, src1`: per component.
    pub(crate) fn setp(&mut self, inst: &Instruction<'_>) -> R<()> {
        let Some(c) = inst.comparison else {
            return Err(self.invalid("setp without a comparison"));
        };
        let d = *self.destination(inst)?;
        if d.register.ty != RegisterType::Predicate {
            return Err(self.invalid("setp writes a register other than p0"));
        }
        let mask = d.write_mask.0 & 0xF;
        let a = self.source(inst, 0)?;
        let b = self.source(inst, 1)?;
        let a = self.src(a, mask)?;
        let b = self.src(b, mask)?;
        for l in 0..4u8 {
            if mask & (1 << l) == 0 {
                continue;
            }
            let (Some(x), Some(y)) = (a[l as usize], b[l as usize]) else {
                continue;
            };
            let mut v = self.op2(float_compare(c), ScalarType::Bool, x, y);
            let t = self.pred(l);
            if let Some(p) = &inst.predicate {
                let pt = self.pred(p.swizzle.lane(l as usize));
                let mut cond = self.load_tmp(pt, ScalarType::Bool);
                if p.modifier == crate::SourceModifier::Not {
                    cond = self.op1(OpCode::BNot, ScalarType::Bool, cond);
                }
                let old = self.load_tmp(t, ScalarType::Bool);
                v = self.op3(OpCode::Select, ScalarType::Bool, cond, v, old);
            }
            self.store_tmp(t, v);
        }
        Ok(())
    }
}
