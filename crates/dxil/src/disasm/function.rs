//! Function bodies in LLVM assembly: blocks with their predecessors, one instruction per
//! line, as `llvm-dis` (LLVM 14) prints them.

use std::fmt::Write;

use crate::disasm::text::label;
use crate::disasm::{call_attribute_number, LocalSlots, Printer};
use crate::module::instructions::METADATA_OPERAND;
use crate::module::{
    AtomicOrdering, BlockId, FunctionBody, Instruction, MetadataId, Op, SyncScope, TailKind, Type,
    TypeId, ValueId,
};

impl Printer<'_> {
    /// Writes the blocks of a body (after `{`).
    pub(crate) fn body(&mut self, b: &FunctionBody, s: &LocalSlots) {
        // Predecessor edges in the order LLVM creates their uses; LLVM lists the most
        // recent first.
        let mut preds: Vec<Vec<u32>> = vec![Vec::new(); b.blocks.len()];
        for (bi, _) in b.blocks.iter().enumerate() {
            for succ in b.successors(BlockId(bi as u32)) {
                if let Some(p) = preds.get_mut(succ.index()) {
                    p.push(bi as u32);
                }
            }
        }
        for (bi, block) in b.blocks.iter().enumerate() {
            let entry = bi == 0;
            if !block.name.is_empty() {
                self.out.push('\n');
                label(&mut self.out, self.m.str(block.name));
                self.out.push(':');
            } else if !entry {
                let _ = write!(self.out, "\n{}:", s.blocks[bi]);
            }
            if !entry {
                let column = self.out.len() - self.out.rfind('\n').map_or(0, |i| i + 1);
                let pad = 50usize.saturating_sub(column).max(1);
                self.out.extend(std::iter::repeat_n(' ', pad));
                self.out.push(';');
                if preds[bi].is_empty() {
                    self.out.push_str(" No predecessors!");
                } else {
                    self.out.push_str(" preds = ");
                    for (i, &p) in preds[bi].iter().rev().enumerate() {
                        if i > 0 {
                            self.out.push_str(", ");
                        }
                        self.block_ref(b, s, BlockId(p));
                    }
                }
            }
            self.out.push('\n');
            for index in block.start..block.end {
                let Some(inst) = b.instructions.get(index as usize) else {
                    continue;
                };
                self.out.push_str("  ");
                self.instruction(b, s, index, inst);
                self.out.push('\n');
            }
        }
    }

    fn block_ref(&mut self, b: &FunctionBody, s: &LocalSlots, block: BlockId) {
        match b.blocks.get(block.index()) {
            Some(bl) if !bl.name.is_empty() => {
                self.out.push('%');
                label(&mut self.out, self.m.str(bl.name));
            }
            _ => {
                let slot = s.blocks.get(block.index()).copied().unwrap_or(u32::MAX);
                let _ = write!(self.out, "%{slot}");
            }
        }
    }

    fn label_ref(&mut self, b: &FunctionBody, s: &LocalSlots, block: BlockId) {
        self.out.push_str("label ");
        self.block_ref(b, s, block);
    }

    fn operand(&mut self, b: &FunctionBody, s: &LocalSlots, id: ValueId) {
        self.typed_value(Some((b, s)), id);
    }

    /// `mnemonic` then the typed `operands`, comma-separated, as llvm-dis writes most
    /// instructions.
    fn typed_operands(
        &mut self,
        b: &FunctionBody,
        s: &LocalSlots,
        mnemonic: &str,
        operands: &[ValueId],
    ) {
        self.out.push_str(mnemonic);
        for (i, &id) in operands.iter().enumerate() {
            self.out.push_str(if i == 0 { " " } else { ", " });
            self.operand(b, s, id);
        }
    }

    fn bare(&mut self, b: &FunctionBody, s: &LocalSlots, id: ValueId) {
        self.value(Some((b, s)), id);
    }

    fn type_of(&self, b: &FunctionBody, id: ValueId) -> Option<TypeId> {
        self.m.value_info(Some(b), id).map(|v| v.ty)
    }

    /// Store size in bytes of a type under DXIL's data layout (32-bit pointers), the
    /// alignment LLVM 14 gives atomics that predate explicit alignment.
    fn store_size(&self, ty: TypeId) -> u64 {
        match self.m.types.ty(ty) {
            Type::Integer { width } => u64::from(width).div_ceil(8),
            Type::Half => 2,
            Type::Float => 4,
            Type::Double => 8,
            Type::Pointer { .. } => 4,
            _ => 0,
        }
    }

    fn atomic_suffix(&mut self, scope: SyncScope, ordering: AtomicOrdering) {
        if scope == SyncScope::SingleThread {
            self.out.push_str(" syncscope(\"singlethread\")");
        }
        let _ = write!(self.out, " {}", ordering.name());
    }

    fn instruction(&mut self, b: &FunctionBody, s: &LocalSlots, index: u32, inst: &Instruction) {
        if let Some(id) = inst.result() {
            self.bare(b, s, id);
            self.out.push_str(" = ");
        }
        match inst.op {
            Op::Binary {
                op,
                flags,
                lhs,
                rhs,
            } => {
                self.out.push_str(op.name());
                self.binary_flags(op, flags);
                self.out.push(' ');
                self.operand(b, s, lhs);
                self.out.push_str(", ");
                self.bare(b, s, rhs);
            }
            Op::Cast { op, value } => {
                let _ = write!(self.out, "{} ", op.name());
                self.operand(b, s, value);
                self.out.push_str(" to ");
                self.ty(inst.ty);
            }
            Op::GetElementPtr {
                inbounds,
                source_type,
                operands,
            } => {
                self.out.push_str("getelementptr ");
                if inbounds {
                    self.out.push_str("inbounds ");
                }
                self.ty(source_type);
                for &o in b.operands(operands) {
                    self.out.push_str(", ");
                    self.operand(b, s, ValueId(o));
                }
            }
            Op::Select {
                condition,
                if_true,
                if_false,
            } => {
                self.typed_operands(b, s, "select", &[condition, if_true, if_false]);
            }
            Op::ExtractElement { vector, index } => {
                self.typed_operands(b, s, "extractelement", &[vector, index]);
            }
            Op::InsertElement {
                vector,
                element,
                index,
            } => {
                self.typed_operands(b, s, "insertelement", &[vector, element, index]);
            }
            Op::ShuffleVector {
                first,
                second,
                mask,
            } => {
                self.typed_operands(b, s, "shufflevector", &[first, second, mask]);
            }
            Op::Compare {
                predicate,
                flags,
                lhs,
                rhs,
            } => {
                self.out
                    .push_str(if predicate.is_float() { "fcmp" } else { "icmp" });
                if predicate.is_float() {
                    self.fast_math(flags);
                }
                let _ = write!(self.out, " {} ", predicate.name());
                self.operand(b, s, lhs);
                self.out.push_str(", ");
                self.bare(b, s, rhs);
            }
            Op::Ret { value } => match value {
                Some(v) => {
                    self.out.push_str("ret ");
                    self.operand(b, s, v);
                }
                None => self.out.push_str("ret void"),
            },
            Op::Br { target } => {
                self.out.push_str("br ");
                self.label_ref(b, s, target);
            }
            Op::CondBr {
                condition,
                if_true,
                if_false,
            } => {
                self.out.push_str("br ");
                self.operand(b, s, condition);
                self.out.push_str(", ");
                self.label_ref(b, s, if_true);
                self.out.push_str(", ");
                self.label_ref(b, s, if_false);
            }
            Op::Switch {
                value,
                default,
                cases,
            } => {
                self.out.push_str("switch ");
                self.operand(b, s, value);
                self.out.push_str(", ");
                self.label_ref(b, s, default);
                self.out.push_str(" [");
                for (case, target) in b.switch_cases(cases) {
                    self.out.push_str("\n    ");
                    self.operand(b, s, case);
                    self.out.push_str(", ");
                    self.label_ref(b, s, target);
                }
                self.out.push_str("\n  ]");
            }
            Op::IndirectBr { address, targets } => {
                self.out.push_str("indirectbr ");
                self.operand(b, s, address);
                self.out.push_str(", [");
                for (i, &t) in b.operands(targets).iter().enumerate() {
                    if i > 0 {
                        self.out.push_str(", ");
                    }
                    self.label_ref(b, s, BlockId(t));
                }
                self.out.push(']');
            }
            Op::Invoke {
                callee,
                function_type,
                args,
                normal,
                unwind,
                attributes,
                calling_conv,
            } => {
                self.out.push_str("invoke");
                if calling_conv != 0 {
                    self.out.push(' ');
                    self.calling_conv(calling_conv);
                }
                self.call_tail(b, s, callee, function_type, args, attributes);
                self.out.push_str("\n          to ");
                self.label_ref(b, s, normal);
                self.out.push_str(" unwind ");
                self.label_ref(b, s, unwind);
            }
            Op::Resume { value } => {
                self.out.push_str("resume ");
                self.operand(b, s, value);
            }
            Op::Unreachable => self.out.push_str("unreachable"),
            Op::Phi { incoming } => {
                self.out.push_str("phi ");
                self.ty(inst.ty);
                for (i, (v, block)) in b.phi_incoming(incoming).enumerate() {
                    self.out.push_str(if i == 0 { " [ " } else { ", [ " });
                    self.bare(b, s, v);
                    self.out.push_str(", ");
                    self.block_ref(b, s, block);
                    self.out.push_str(" ]");
                }
            }
            Op::LandingPad {
                cleanup, clauses, ..
            } => {
                // An LLVM 3.6 personality operand was moved to the function when reading.
                self.out.push_str("landingpad ");
                self.ty(inst.ty);
                if cleanup {
                    self.out.push_str("\n          cleanup");
                }
                for pair in b.operands(clauses).chunks_exact(2) {
                    self.out.push_str(if pair[0] == 0 {
                        "\n          catch "
                    } else {
                        "\n          filter "
                    });
                    self.operand(b, s, ValueId(pair[1]));
                }
            }
            Op::Alloca {
                allocated_type,
                size,
                align,
                inalloca,
            } => {
                self.out.push_str("alloca ");
                if inalloca {
                    self.out.push_str("inalloca ");
                }
                self.ty(allocated_type);
                if self.m.constant_int(Some(b), size) != Some(1) {
                    self.out.push_str(", ");
                    self.operand(b, s, size);
                }
                if align != 0 {
                    let _ = write!(self.out, ", align {align}");
                }
            }
            Op::Load {
                pointer,
                align,
                volatile,
                atomic,
            } => {
                self.out.push_str("load ");
                if atomic.is_some() {
                    self.out.push_str("atomic ");
                }
                if volatile {
                    self.out.push_str("volatile ");
                }
                self.ty(inst.ty);
                self.out.push_str(", ");
                self.operand(b, s, pointer);
                if let Some(a) = atomic {
                    self.atomic_suffix(a.scope, a.ordering);
                }
                if align != 0 {
                    let _ = write!(self.out, ", align {align}");
                }
            }
            Op::Store {
                pointer,
                value,
                align,
                volatile,
                atomic,
            } => {
                self.out.push_str("store ");
                if atomic.is_some() {
                    self.out.push_str("atomic ");
                }
                if volatile {
                    self.out.push_str("volatile ");
                }
                self.operand(b, s, value);
                self.out.push_str(", ");
                self.operand(b, s, pointer);
                if let Some(a) = atomic {
                    self.atomic_suffix(a.scope, a.ordering);
                }
                if align != 0 {
                    let _ = write!(self.out, ", align {align}");
                }
            }
            Op::CmpXchg {
                pointer,
                compare,
                new,
                volatile,
                weak,
                success,
                failure,
                scope,
            } => {
                self.out.push_str("cmpxchg ");
                if weak {
                    self.out.push_str("weak ");
                }
                if volatile {
                    self.out.push_str("volatile ");
                }
                self.operand(b, s, pointer);
                self.out.push_str(", ");
                self.operand(b, s, compare);
                self.out.push_str(", ");
                self.operand(b, s, new);
                self.atomic_suffix(scope, success);
                let _ = write!(self.out, " {}", failure.name());
                let size = self.type_of(b, compare).map_or(0, |t| self.store_size(t));
                let _ = write!(self.out, ", align {size}");
            }
            Op::AtomicRmw {
                op,
                pointer,
                value,
                volatile,
                ordering,
                scope,
            } => {
                self.out.push_str("atomicrmw ");
                if volatile {
                    self.out.push_str("volatile ");
                }
                let _ = write!(self.out, "{} ", op.name());
                self.operand(b, s, pointer);
                self.out.push_str(", ");
                self.operand(b, s, value);
                self.atomic_suffix(scope, ordering);
                let size = self.type_of(b, value).map_or(0, |t| self.store_size(t));
                let _ = write!(self.out, ", align {size}");
            }
            Op::Fence { ordering, scope } => {
                self.out.push_str("fence");
                self.atomic_suffix(scope, ordering);
            }
            Op::Call {
                callee,
                function_type,
                args,
                attributes,
                calling_conv,
                tail,
                flags,
            } => {
                match tail {
                    TailKind::None => {}
                    TailKind::Tail => self.out.push_str("tail "),
                    TailKind::MustTail => self.out.push_str("musttail "),
                }
                self.out.push_str("call");
                self.fast_math(flags);
                if calling_conv != 0 {
                    self.out.push(' ');
                    self.calling_conv(calling_conv);
                }
                self.call_tail(b, s, callee, function_type, args, attributes);
            }
            Op::VaArg { list } => {
                self.out.push_str("va_arg ");
                self.operand(b, s, list);
                self.out.push_str(", ");
                self.ty(inst.ty);
            }
            Op::ExtractValue { aggregate, indices } => {
                self.out.push_str("extractvalue ");
                self.operand(b, s, aggregate);
                for &i in b.operands(indices) {
                    let _ = write!(self.out, ", {i}");
                }
            }
            Op::InsertValue {
                aggregate,
                value,
                indices,
            } => {
                self.out.push_str("insertvalue ");
                self.operand(b, s, aggregate);
                self.out.push_str(", ");
                self.operand(b, s, value);
                for &i in b.operands(indices) {
                    let _ = write!(self.out, ", {i}");
                }
            }
        }
        self.instruction_metadata(b, index);
    }

    /// ` <ret> @callee(args) #N` of a call or invoke.
    fn call_tail(
        &mut self,
        b: &FunctionBody,
        s: &LocalSlots,
        callee: ValueId,
        function_type: TypeId,
        args: crate::module::Operands,
        attributes: u32,
    ) {
        let m = self.m;
        let (ret, params, vararg) =
            m.types
                .function(function_type)
                .unwrap_or((function_type, &[], false));
        let ret_attrs = self.attribute_text(attributes, 0, true);
        if !ret_attrs.is_empty() {
            self.out.push(' ');
            self.out.push_str(&ret_attrs);
        }
        self.out.push(' ');
        if vararg {
            self.ty(function_type);
        } else {
            self.ty(ret);
        }
        self.out.push(' ');
        self.bare(b, s, callee);
        self.out.push('(');
        for (i, &a) in b.operands(args).iter().enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            if a & METADATA_OPERAND != 0 {
                self.out.push_str("metadata ");
                self.metadata_ref(Some((b, s)), Some(MetadataId(a & !METADATA_OPERAND)));
                continue;
            }
            let ty = params
                .get(i)
                .copied()
                .or_else(|| self.type_of(b, ValueId(a)));
            if let Some(ty) = ty {
                self.ty(ty);
            }
            let attrs = self.attribute_text(attributes, i as u32 + 1, true);
            if !attrs.is_empty() {
                self.out.push(' ');
                self.out.push_str(&attrs);
            }
            self.out.push(' ');
            self.bare(b, s, ValueId(a));
        }
        self.out.push(')');
        if let Some(n) = call_attribute_number(self, attributes) {
            let _ = write!(self.out, " #{n}");
        }
    }

    /// `, !dbg ...` and `, !kind !N` after an instruction.
    fn instruction_metadata(&mut self, b: &FunctionBody, index: u32) {
        if let Ok(i) = b.debug_locs.binary_search_by_key(&index, |d| d.instruction) {
            let d = b.debug_locs[i];
            let _ = write!(
                self.out,
                ", !dbg !DILocation(line: {}, column: {}",
                d.line, d.column
            );
            if let Some(scope) = d.scope {
                self.out.push_str(", scope: ");
                self.metadata_ref(None, Some(scope));
            }
            if let Some(at) = d.inlined_at {
                self.out.push_str(", inlinedAt: ");
                self.metadata_ref(None, Some(at));
            }
            self.out.push(')');
        }
        let mut attached = b.instruction_attachments(index).to_vec();
        attached.sort_by_key(|a| a.kind);
        for a in attached {
            self.out.push_str(", ");
            self.attachment(Some(b), a.kind, a.node);
        }
    }
}
