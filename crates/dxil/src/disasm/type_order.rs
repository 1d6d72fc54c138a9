//! The order `llvm-dis` lists identified struct types in: the order LLVM's `TypeFinder`
//! meets them walking globals, functions and their instructions, then named metadata.

use std::collections::HashSet;

use crate::module::instructions::METADATA_OPERAND;
use crate::module::{
    ConstExpr, Constant, FunctionBody, MetadataId, MetadataNode, Module, Op, Type, TypeId, ValueId,
    ValueKind,
};

struct Finder<'m> {
    m: &'m Module,
    types: HashSet<TypeId>,
    constants: HashSet<(Option<u32>, ValueId)>,
    metadata: HashSet<u32>,
    found: Vec<TypeId>,
}

/// The identified struct types of `m` in `TypeFinder` order (types no value, instruction
/// or metadata reaches come last, in table order).
pub(crate) fn struct_order(m: &Module) -> Vec<TypeId> {
    let mut f = Finder {
        m,
        types: HashSet::new(),
        constants: HashSet::new(),
        metadata: HashSet::new(),
        found: Vec::new(),
    };
    for g in &m.globals {
        f.ty(m.values[g.value.index()].ty);
        if let Some(init) = g.initializer {
            f.value(None, init);
        }
    }
    for a in &m.aliases {
        f.ty(a.ty);
        f.value(None, a.aliasee);
    }
    for (i, func) in m.functions.iter().enumerate() {
        f.ty(m.values[func.value.index()].ty);
        for v in [func.personality, func.prefix, func.prologue]
            .into_iter()
            .flatten()
        {
            f.value(None, v);
        }
        let Some(b) = func.body.as_ref() else {
            continue;
        };
        let scope = Some(i as u32);
        for (index, inst) in b.instructions.iter().enumerate() {
            f.ty(inst.ty);
            for op in operands(b, &inst.op) {
                if op & METADATA_OPERAND != 0 {
                    f.node(scope, b, MetadataId(op & !METADATA_OPERAND));
                } else {
                    f.value(Some((scope, b)), ValueId(op));
                }
            }
            if let Op::GetElementPtr { source_type, .. } = inst.op {
                f.ty(source_type);
            }
            let mut attached = b.instruction_attachments(index as u32).to_vec();
            attached.sort_by_key(|a| a.kind);
            for a in attached {
                f.node(scope, b, a.node);
            }
        }
    }
    let empty = FunctionBody::default();
    for n in &m.named_metadata {
        for id in m.metadata.named_operands(n.operands) {
            f.node(None, &empty, id);
        }
    }
    let mut order = f.found;
    for (id, t) in m.types.iter() {
        if matches!(
            t,
            Type::Struct {
                identified: true,
                ..
            }
        ) && !order.contains(&id)
        {
            order.push(id);
        }
    }
    order
}

/// An instruction's operands in LLVM's operand order (the callee after the arguments, the
/// stored value before the pointer, …); blocks and constant indices left out.
fn operands(b: &FunctionBody, op: &Op) -> Vec<u32> {
    match *op {
        Op::Binary { lhs, rhs, .. } | Op::Compare { lhs, rhs, .. } => vec![lhs.0, rhs.0],
        Op::Cast { value, .. } => vec![value.0],
        Op::GetElementPtr { operands, .. } => b.operands(operands).to_vec(),
        Op::Select {
            condition,
            if_true,
            if_false,
        } => vec![condition.0, if_true.0, if_false.0],
        Op::ExtractElement { vector, index } => vec![vector.0, index.0],
        Op::InsertElement {
            vector,
            element,
            index,
        } => vec![vector.0, element.0, index.0],
        Op::ShuffleVector { first, second, .. } => vec![first.0, second.0],
        Op::Ret { value } => value.map(|v| v.0).into_iter().collect(),
        Op::CondBr { condition, .. } => vec![condition.0],
        Op::Switch { value, cases, .. } => std::iter::once(value.0)
            .chain(b.switch_cases(cases).map(|(v, _)| v.0))
            .collect(),
        Op::IndirectBr { address, .. } => vec![address.0],
        Op::Invoke { callee, args, .. } | Op::Call { callee, args, .. } => {
            let mut v = b.operands(args).to_vec();
            v.push(callee.0);
            v
        }
        Op::Resume { value } => vec![value.0],
        Op::Phi { incoming } => b.phi_incoming(incoming).map(|(v, _)| v.0).collect(),
        Op::LandingPad { clauses, .. } => {
            b.operands(clauses).chunks_exact(2).map(|p| p[1]).collect()
        }
        Op::Alloca { size, .. } => vec![size.0],
        Op::Load { pointer, .. } => vec![pointer.0],
        Op::Store { pointer, value, .. } => vec![value.0, pointer.0],
        Op::CmpXchg {
            pointer,
            compare,
            new,
            ..
        } => vec![pointer.0, compare.0, new.0],
        Op::AtomicRmw { pointer, value, .. } => vec![pointer.0, value.0],
        Op::VaArg { list } => vec![list.0],
        Op::ExtractValue { aggregate, .. } => vec![aggregate.0],
        Op::InsertValue {
            aggregate, value, ..
        } => vec![aggregate.0, value.0],
        Op::Br { .. } | Op::Unreachable | Op::Fence { .. } => Vec::new(),
    }
}

impl Finder<'_> {
    fn ty(&mut self, root: TypeId) {
        if !self.types.insert(root) {
            return;
        }
        let mut stack = vec![root];
        while let Some(t) = stack.pop() {
            let ty = self.m.types.ty(t);
            if matches!(
                ty,
                Type::Struct {
                    identified: true,
                    ..
                }
            ) {
                self.found.push(t);
            }
            let subtypes: Vec<TypeId> = match ty {
                Type::Pointer { pointee, .. } => vec![pointee],
                Type::Array { element, .. } | Type::Vector { element, .. } => vec![element],
                Type::Struct { elements, .. } => self.m.types.list(elements).to_vec(),
                Type::Function { ret, params, .. } => std::iter::once(ret)
                    .chain(self.m.types.list(params).iter().copied())
                    .collect(),
                _ => Vec::new(),
            };
            for s in subtypes.into_iter().rev() {
                if self.types.insert(s) {
                    stack.push(s);
                }
            }
        }
    }

    /// A constant (and the constants it is made of); other values are skipped.
    fn value(&mut self, f: Option<(Option<u32>, &FunctionBody)>, root: ValueId) {
        let mut stack = vec![root];
        while let Some(id) = stack.pop() {
            let local = id.index() >= self.m.values.len();
            let body = f.map(|f| f.1);
            let Some(info) = self.m.value_info(body, id) else {
                continue;
            };
            let ValueKind::Constant(i) = info.kind else {
                continue;
            };
            let key = (if local { f.and_then(|f| f.0) } else { None }, id);
            if !self.constants.insert(key) {
                continue;
            }
            self.ty(info.ty);
            let table = if local {
                match body {
                    Some(b) => &b.constants,
                    None => continue,
                }
            } else {
                &self.m.constants
            };
            let Some(c) = table.get(i) else {
                continue;
            };
            if let Constant::Expression(ConstExpr::GetElementPtr { source_type, .. }) = c {
                self.ty(*source_type);
            }
            // (An all-zero aggregate is operandless in LLVM, but its elements' types are
            // subtypes of its own, already met, so walking them changes nothing.)
            let refs: Vec<ValueId> = table.references(c).collect();
            stack.extend(refs.into_iter().rev());
        }
    }

    /// A metadata node: its constant operands, and the nodes it refers to, depth first.
    fn node(&mut self, scope: Option<u32>, b: &FunctionBody, root: MetadataId) {
        let m = self.m;
        // (node, next operand) pairs: the recursion of LLVM's `incorporateMDNode`.
        let mut stack: Vec<(MetadataId, usize)> = Vec::new();
        if self.metadata.insert(root.0) {
            stack.push((root, 0));
        }
        while let Some((id, next)) = stack.pop() {
            let Some(MetadataNode::Tuple { operands, .. }) = m.metadata_node(Some(b), id) else {
                continue;
            };
            let ops: Vec<Option<MetadataId>> = m.metadata.operands(*operands).collect();
            for (i, op) in ops.iter().enumerate().skip(next) {
                let Some(op) = *op else {
                    continue;
                };
                match m.metadata_node(Some(b), op) {
                    Some(MetadataNode::Value { value, .. }) => {
                        let value = *value;
                        self.value(Some((scope, b)), value);
                    }
                    Some(MetadataNode::Tuple { .. }) if self.metadata.insert(op.0) => {
                        stack.push((id, i + 1));
                        stack.push((op, 0));
                        break;
                    }
                    _ => {}
                }
            }
        }
    }
}
