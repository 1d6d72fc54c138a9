//! Functions, basic blocks and control flow, in unstructured block form.
//!
//! A function's blocks are converted in reverse post-order from the entry block, so every
//! value is defined before its uses (an SSA definition dominates its uses, and dominators
//! come first in that order); blocks unreachable from the entry are dropped with the phi
//! pairs that name them. Each block becomes a `Label` without a construct; branches, phis
//! and switches name labels that may come later, so those operands are recorded as
//! [`Fixup`]s and patched once the function is done, as are phi values defined later (loop
//! back edges). The structurizer pass makes the result structured.

use dxspv_ir::frontend::FrontendBuilder;
use dxspv_ir::{Construct, Op, OpCode, Operand, SsaDef, Type};

use super::values::Val;
use super::{limits, Converter, R};
use crate::module::{BlockId, Instruction, Op as LlOp, Operands, Type as LlType, ValueId};

/// What a patched operand names.
#[derive(Clone, Copy, Debug)]
pub(crate) enum FixTarget {
    /// The label starting a block.
    Block(u32),
    /// The label of a block's last part (a phi's predecessor).
    BlockEnd(u32),
    /// A value defined later.
    Value(ValueId),
}

/// An operand patched at the end of the function.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Fixup {
    /// The op.
    pub op: SsaDef,
    /// The operand index.
    pub index: u32,
    /// What it names.
    pub target: FixTarget,
}

/// The successors of a terminator, without allocating: up to two direct ones, then the
/// cases of a switch.
fn successors<'b>(
    body: &'b crate::module::FunctionBody,
    term: Option<&Instruction>,
) -> impl Iterator<Item = BlockId> + 'b {
    let (fixed, cases): ([Option<BlockId>; 2], Option<Operands>) = match term.map(|t| t.op) {
        Some(LlOp::Br { target }) => ([Some(target), None], None),
        Some(LlOp::CondBr {
            if_true, if_false, ..
        }) => ([Some(if_true), Some(if_false)], None),
        Some(LlOp::Switch { default, cases, .. }) => ([Some(default), None], Some(cases)),
        _ => ([None, None], None),
    };
    fixed.into_iter().flatten().chain(
        cases
            .map(|c| body.switch_cases(c))
            .into_iter()
            .flatten()
            .map(|(_, b)| b),
    )
}

impl<'s> Converter<'s> {
    /// Queues module function `f` for conversion (once).
    pub(crate) fn queue_function(&mut self, f: u32) -> R<()> {
        let Some(state) = self.fn_state.get_mut(f as usize) else {
            return Err(self.invalid(format!("function {f} does not exist")));
        };
        if *state {
            return Ok(());
        }
        *state = true;
        let func = &self.m.functions[f as usize];
        if func.body.is_none() {
            return Err(self.invalid(format!(
                "function @{} is called but not defined",
                self.m.text(func.name)
            )));
        }
        self.queued_count += 1;
        if self.queued_count > limits::MAX_FUNCTIONS {
            return Err(self.limit("functions", limits::MAX_FUNCTIONS as u64));
        }
        self.fn_queue.push(f);
        Ok(())
    }

    /// Converts module function `f`: parameters, blocks in reverse post-order, patches.
    pub(crate) fn convert_function(&mut self, f: u32) -> R<()> {
        let body = self.body_of(f);
        self.f.body = Some(f);
        self.at = super::At {
            function: Some(f),
            block: None,
            instruction: None,
            what: "function",
        };
        let nblocks = body.blocks.len();
        if nblocks == 0 {
            return Err(self.invalid("function without blocks"));
        }
        if nblocks > limits::MAX_BLOCKS {
            return Err(self.limit("blocks in a function", limits::MAX_BLOCKS as u64));
        }
        if body.instructions.len() > limits::MAX_INSTRUCTIONS {
            return Err(self.limit(
                "instructions in a function",
                limits::MAX_INSTRUCTIONS as u64,
            ));
        }
        let f_state = &mut self.f;
        f_state.vals.clear();
        f_state.vals.resize(body.values.len(), Val::Pending);
        f_state.labels.clear();
        f_state.labels.resize(nblocks, None);
        f_state.ends.clear();
        f_state.ends.resize(nblocks, None);
        f_state.fixups.clear();
        f_state.parts.clear();
        f_state.handles.clear();
        f_state.heap_handles.clear();
        f_state.ptrs.clear();
        f_state.members_used.clear();
        f_state.members_used.resize(body.values.len(), 0);
        self.prescan(body);
        self.reverse_post_order(body);
        if self.f.pred_count.first().is_some_and(|&n| n > 0) {
            return Err(self.invalid("the entry block is a branch target"));
        }

        // Parameters and the function op.
        let func = &self.m.functions[f as usize];
        let (ret, params, _) = self
            .m
            .types
            .function(func.ty)
            .ok_or_else(|| self.invalid("function of a non-function type"))?;
        let ret_ty = match self.m.types.ty(ret) {
            LlType::Void => Type::VOID,
            _ => self.ir_type(ret)?,
        };
        let mut fop = Op::new(OpCode::Function, ret_ty);
        let mut param_defs = smallvec::SmallVec::<[SsaDef; 8]>::new();
        for &p in params {
            if matches!(self.m.types.ty(p), LlType::Pointer { .. }) {
                return Err(self.unsupported("function parameters passed by pointer"));
            }
            let ty = self.ir_type(p)?;
            let d = self.decl(Op::new(OpCode::DclParam, ty));
            param_defs.push(d);
            fop = fop.with_ref(d);
        }
        let fdef = self.code(fop);
        self.f.def = Some(fdef);
        self.fn_defs[f as usize] = Some(fdef);
        let name = self.m.text(func.name).into_owned();
        if !name.is_empty() {
            self.name(fdef, &name);
        }

        for k in 0..self.f.order.len() {
            let bi = self.f.order[k];
            self.at.block = Some(bi);
            self.at.instruction = None;
            self.at.what = "block";
            let label = self
                .code(Op::new(OpCode::Label, Type::VOID).with_lit(Construct::None.to_literal()));
            self.f.labels[bi as usize] = Some(label);
            self.f.ends[bi as usize] = Some(label);
            if k == 0 {
                for (i, &p) in param_defs.iter().enumerate() {
                    let ty = self.b.op(p).ty;
                    let v = self.code(Op::new(OpCode::ParamLoad, ty).with_ref(fdef).with_ref(p));
                    let id = ValueId(body.first_value + i as u32);
                    self.set(Some(id), Val::Def(v))?;
                }
                self.function_prologue(f)?;
            }
            let Some(block) = body.blocks.get(bi as usize).copied() else {
                return Err(self.invalid("block out of range"));
            };
            for index in block.start..block.end {
                let inst = &body.instructions[index as usize];
                if let LlOp::Phi { incoming } = inst.op {
                    self.at.instruction = Some(index);
                    self.at.what = "phi";
                    self.phi(inst, incoming)?;
                }
            }
            for index in block.start..block.end {
                let inst = &body.instructions[index as usize];
                self.instruction(index, inst)?;
            }
        }
        self.at.block = None;
        self.at.instruction = None;
        self.at.what = "function";
        for i in 0..self.f.fixups.len() {
            let fx = self.f.fixups[i];
            let def = match fx.target {
                FixTarget::Block(b) => self.f.labels.get(b as usize).copied().flatten(),
                FixTarget::BlockEnd(b) => self.f.ends.get(b as usize).copied().flatten(),
                FixTarget::Value(v) => match self.value(v)? {
                    Val::Def(d) => Some(d),
                    other => {
                        return Err(self.invalid(format!(
                            "phi of {} (%{})",
                            super::values::kind_name(&other),
                            v.0
                        )))
                    }
                },
            };
            let def = def.ok_or_else(|| self.invalid("branch to a block that is not converted"))?;
            self.b
                .set_operand(fx.op, fx.index as usize, Operand::from_def(def));
        }
        self.code(Op::new(OpCode::FunctionEnd, Type::VOID));
        self.f.body = None;
        Ok(())
    }

    /// Records which members of each value `extractvalue`s read (a buffer load reads only
    /// those components, a sparse status is asked for only when read).
    fn prescan(&mut self, body: &'s crate::module::FunctionBody) {
        let base = self.m.values.len();
        for inst in &body.instructions {
            if let LlOp::ExtractValue { aggregate, indices } = inst.op {
                let Some(&k) = body.operands(indices).first() else {
                    continue;
                };
                if let Some(slot) = aggregate
                    .index()
                    .checked_sub(base)
                    .and_then(|i| self.f.members_used.get_mut(i))
                {
                    *slot |= 1 << k.min(7);
                }
            }
        }
    }

    /// The members `extractvalue`s read of the result of `inst` (see [`Self::prescan`]).
    pub(crate) fn members_used(&self, inst: &Instruction) -> u8 {
        inst.result()
            .and_then(|r| r.index().checked_sub(self.m.values.len()))
            .and_then(|i| self.f.members_used.get(i).copied())
            .unwrap_or(0)
    }

    /// The blocks reachable from the entry, in reverse post-order.
    fn reverse_post_order(&mut self, body: &'s crate::module::FunctionBody) {
        let n = body.blocks.len();
        let mut order = std::mem::take(&mut self.f.order);
        order.clear();
        // 0: unseen, 1: on the stack, 2: done.
        let mut state = std::mem::take(&mut self.scratch_u8);
        state.clear();
        state.resize(n, 0);
        let mut stack = std::mem::take(&mut self.scratch_stack);
        stack.clear();
        stack.push((0u32, 0u32));
        state[0] = 1;
        while let Some(&mut (b, ref mut next)) = stack.last_mut() {
            let term = body.block_instructions(BlockId(b)).last();
            let succ = successors(body, term).nth(*next as usize);
            match succ {
                Some(s) => {
                    *next += 1;
                    if let Some(st) = state.get_mut(s.index()) {
                        if *st == 0 {
                            *st = 1;
                            stack.push((s.0, 0));
                        }
                    }
                }
                None => {
                    stack.pop();
                    state[b as usize] = 2;
                    order.push(b);
                }
            }
        }
        order.reverse();
        // Distinct reachable predecessors of each block (`stack` reused as the marks).
        let mut preds = std::mem::take(&mut self.f.pred_count);
        preds.clear();
        preds.resize(n, 0);
        stack.clear();
        stack.resize(n, (u32::MAX, 0));
        for &b in &order {
            let term = body.block_instructions(BlockId(b)).last();
            for s in successors(body, term) {
                if let (Some(mark), Some(count)) =
                    (stack.get_mut(s.index()), preds.get_mut(s.index()))
                {
                    if mark.0 != b {
                        mark.0 = b;
                        *count += 1;
                    }
                }
            }
        }
        stack.clear();
        self.f.pred_count = preds;
        self.f.order = order;
        self.scratch_u8 = state;
        self.scratch_stack = stack;
    }

    /// A `phi`: pairs from reachable predecessors; values and predecessor labels are
    /// patched at the end.
    fn phi(&mut self, inst: &'s Instruction, incoming: Operands) -> R<()> {
        let body = self.body()?;
        let ty = self
            .ir_type(inst.ty)
            .map_err(|_| self.unsupported("phis of handles, pointers or structs"))?;
        let mut op = Op::new(OpCode::Phi, ty);
        let mut pending = smallvec::SmallVec::<[(u32, ValueId, u32); 8]>::new();
        let mut seen = smallvec::SmallVec::<[u32; 8]>::new();
        let mut k = 0u32;
        let here = self.at.block.unwrap_or(0);
        for (v, pred) in body.phi_incoming(incoming) {
            if !self.reachable(pred.0) || seen.contains(&pred.0) {
                continue;
            }
            let term = body.block_instructions(pred).last();
            if !successors(body, term).any(|s| s.0 == here) {
                return Err(self.invalid(format!(
                    "phi names block {}, which does not branch to block {here}",
                    pred.0
                )));
            }
            seen.push(pred.0);
            op = op.with_opt_ref(None).with_opt_ref(None);
            pending.push((k, v, pred.0));
            k += 2;
        }
        let preds = self.f.pred_count.get(here as usize).copied().unwrap_or(0);
        if seen.len() != preds as usize {
            return Err(self.invalid(format!(
                "phi names {} of the {preds} blocks that branch to block {here}",
                seen.len()
            )));
        }
        let def = self.code(op);
        for (k, v, pred) in pending {
            self.f.fixups.push(Fixup {
                op: def,
                index: k,
                target: FixTarget::BlockEnd(pred),
            });
            self.f.fixups.push(Fixup {
                op: def,
                index: k + 1,
                target: FixTarget::Value(v),
            });
        }
        self.set(inst.result(), Val::Def(def))
    }

    /// Whether block `b` is reachable from the entry (the walk marked it done).
    fn reachable(&self, b: u32) -> bool {
        self.scratch_u8.get(b as usize) == Some(&2)
    }

    /// A reference to the label of block `b`, patched at the end.
    fn block_ref(&mut self, op: SsaDef, index: u32, b: BlockId) {
        self.f.fixups.push(Fixup {
            op,
            index,
            target: FixTarget::Block(b.0),
        });
    }

    /// `ret`, `br`, `switch`, `unreachable`.
    pub(crate) fn terminator(&mut self, inst: &'s Instruction) -> R<()> {
        match inst.op {
            LlOp::Ret { value } => {
                let v = match value {
                    Some(v) => Some(self.def(v)?),
                    None => None,
                };
                self.code(Op::new(OpCode::Return, Type::VOID).with_opt_ref(v));
            }
            LlOp::Br { target } => {
                let d = self.code(Op::new(OpCode::Branch, Type::VOID).with_opt_ref(None));
                self.block_ref(d, 0, target);
            }
            LlOp::CondBr {
                condition,
                if_true,
                if_false,
            } => {
                let c = self.def(condition)?;
                let d = self.code(
                    Op::new(OpCode::BranchConditional, Type::VOID)
                        .with_ref(c)
                        .with_opt_ref(None)
                        .with_opt_ref(None),
                );
                self.block_ref(d, 1, if_true);
                self.block_ref(d, 2, if_false);
            }
            LlOp::Switch {
                value,
                default,
                cases,
            } => {
                let body = self.body()?;
                let sel = self.def(value)?;
                let mut op = Op::new(OpCode::Switch, Type::VOID)
                    .with_ref(sel)
                    .with_opt_ref(None);
                let mut targets = smallvec::SmallVec::<[BlockId; 16]>::new();
                for (case, target) in body.switch_cases(cases) {
                    if self.const_int(case).is_none() {
                        return Err(self.invalid("switch case is not an integer constant"));
                    }
                    let c = self.def(case)?;
                    op = op.with_ref(c).with_opt_ref(None);
                    targets.push(target);
                }
                let d = self.code(op);
                self.block_ref(d, 1, default);
                for (i, t) in targets.into_iter().enumerate() {
                    self.block_ref(d, 3 + 2 * i as u32, t);
                }
            }
            LlOp::Unreachable => {
                self.code(Op::new(OpCode::Unreachable, Type::VOID));
            }
            _ => return Err(self.invalid("not a terminator")),
        }
        Ok(())
    }

    /// Splits the current block at a conditional operation: `BranchConditional cond, then,
    /// next`; the caller emits the `then` part and calls [`Self::end_split`].
    pub(crate) fn begin_split(&mut self, cond: SsaDef) -> (SsaDef, SsaDef) {
        let br = self.code(
            Op::new(OpCode::BranchConditional, Type::VOID)
                .with_ref(cond)
                .with_opt_ref(None)
                .with_opt_ref(None),
        );
        let then =
            self.code(Op::new(OpCode::Label, Type::VOID).with_lit(Construct::None.to_literal()));
        self.b.set_operand(br, 1, Operand::from_def(then));
        (br, then)
    }

    /// Ends the `then` part of a split: branches to a new label that continues the block.
    pub(crate) fn end_split(&mut self, br: SsaDef) {
        let jump = self.code(Op::new(OpCode::Branch, Type::VOID).with_opt_ref(None));
        let next =
            self.code(Op::new(OpCode::Label, Type::VOID).with_lit(Construct::None.to_literal()));
        self.b.set_operand(jump, 0, Operand::from_def(next));
        self.b.set_operand(br, 2, Operand::from_def(next));
        if let Some(b) = self.at.block {
            if let Some(e) = self.f.ends.get_mut(b as usize) {
                *e = Some(next);
            }
        }
    }

    /// A call of a function of the module.
    pub(crate) fn call_function(
        &mut self,
        f: u32,
        _args: Operands,
        inst: &'s Instruction,
    ) -> R<()> {
        self.queue_function(f)?;
        let args = self.call_args(inst)?;
        let ty = match self.m.types.ty(inst.ty) {
            LlType::Void => Type::VOID,
            _ => self.ir_type(inst.ty)?,
        };
        let mut op = Op::new(OpCode::FunctionCall, ty).with_opt_ref(None);
        for i in 0..args.len() {
            let a = self.arg_def(&args, i)?;
            op = op.with_ref(a);
        }
        let d = self.code(op);
        self.calls.push((d, f));
        if ty.is_void() {
            Ok(())
        } else {
            self.set(inst.result(), Val::Def(d))
        }
    }
}
