//! Metadata in LLVM assembly: slot numbering as LLVM's slot tracker does it, references,
//! attachments and the node list.

use std::fmt::Write;

use crate::disasm::text::{escaped, metadata_name};
use crate::disasm::{LocalSlots, Printer};
use crate::module::instructions::METADATA_OPERAND;
use crate::module::{FunctionBody, MetadataId, MetadataNode, Op};

impl Printer<'_> {
    /// Numbers metadata nodes: those named metadata reach (depth first, in order), then
    /// for each function its attachments, the nodes its intrinsic calls take, and its
    /// instructions' attachments (by kind id).
    pub(crate) fn number_metadata(&mut self) {
        let m = self.m;
        for n in &m.named_metadata {
            for id in m.metadata.named_operands(n.operands) {
                self.number_node(None, id);
            }
        }
        for f in &m.functions {
            let Some(b) = f.body.as_ref() else {
                continue;
            };
            for &(_, node) in &b.function_attachments {
                self.number_node(Some(b), node);
            }
            for (i, inst) in b.instructions.iter().enumerate() {
                if let Op::Call { callee, args, .. } = inst.op {
                    if m.global_name(callee).starts_with(b"llvm.") {
                        for &a in b.operands(args) {
                            if a & METADATA_OPERAND != 0 {
                                self.number_node(Some(b), MetadataId(a & !METADATA_OPERAND));
                            }
                        }
                    }
                }
                let mut attached: Vec<_> = b.instruction_attachments(i as u32).to_vec();
                attached.sort_by_key(|a| a.kind);
                for a in attached {
                    self.number_node(Some(b), a.node);
                }
            }
        }
    }

    /// Gives `root` and the nodes it reaches slots, depth first in operand order.
    fn number_node(&mut self, body: Option<&FunctionBody>, root: MetadataId) {
        let m = self.m;
        let mut stack = vec![root];
        let mut children = Vec::new();
        while let Some(id) = stack.pop() {
            let Some(node) = m.metadata_node(body, id) else {
                continue;
            };
            if matches!(node, MetadataNode::String(_) | MetadataNode::Value { .. }) {
                continue;
            }
            if self.md_slots.contains_key(&id.0) {
                continue;
            }
            self.md_slots.insert(id.0, self.md_order.len() as u32);
            self.md_order.push(id.0);
            children.clear();
            match *node {
                MetadataNode::Tuple { operands, .. } => {
                    children.extend(m.metadata.operands(operands).flatten());
                }
                MetadataNode::Location {
                    scope, inlined_at, ..
                } => children.extend(std::iter::once(scope).chain(inlined_at)),
                _ => {}
            }
            stack.extend(children.iter().rev().copied());
        }
    }

    /// Writes a metadata operand: `null`, `!"text"`, `i32 5`, `!7`.
    pub(crate) fn metadata_ref(
        &mut self,
        f: Option<(&FunctionBody, &LocalSlots)>,
        id: Option<MetadataId>,
    ) {
        let Some(id) = id else {
            self.out.push_str("null");
            return;
        };
        match self.m.metadata_node(f.map(|f| f.0), id) {
            Some(MetadataNode::String(s)) => {
                self.out.push_str("!\"");
                escaped(&mut self.out, self.m.str(*s));
                self.out.push('"');
            }
            Some(MetadataNode::Value { value, .. }) => {
                let value = *value;
                self.typed_value(f, value);
            }
            Some(_) => match self.md_slots.get(&id.0) {
                Some(slot) => {
                    let _ = write!(self.out, "!{slot}");
                }
                None => {
                    let _ = write!(self.out, "!<unnumbered {}>", id.0);
                }
            },
            None => {
                let _ = write!(self.out, "!<bad {}>", id.0);
            }
        }
    }

    /// Writes `!kind !node`.
    pub(crate) fn attachment(&mut self, body: Option<&FunctionBody>, kind: u32, node: MetadataId) {
        let m = self.m;
        match m.metadata_kinds.binary_search_by_key(&kind, |k| k.id) {
            Ok(i) => metadata_name(&mut self.out, m.str(m.metadata_kinds[i].name)),
            Err(_) => {
                let _ = write!(self.out, "!<kind {kind}>");
            }
        }
        self.out.push(' ');
        let _ = body;
        self.metadata_ref(None, Some(node));
    }

    /// Writes every numbered node, in slot order.
    pub(crate) fn metadata_nodes(&mut self) {
        let m = self.m;
        for slot in 0..self.md_order.len() {
            let id = MetadataId(self.md_order[slot]);
            let _ = write!(self.out, "!{slot} = ");
            let node = m.metadata.get(id).copied().or_else(|| {
                m.definitions()
                    .find_map(|(_, b)| b.metadata.get(id).copied())
            });
            match node {
                Some(MetadataNode::Tuple { distinct, operands }) => {
                    if distinct {
                        self.out.push_str("distinct ");
                    }
                    self.out.push_str("!{");
                    for (i, op) in m.metadata.operands(operands).enumerate() {
                        if i > 0 {
                            self.out.push_str(", ");
                        }
                        self.metadata_ref(None, op);
                    }
                    self.out.push('}');
                }
                Some(MetadataNode::Location {
                    distinct,
                    line,
                    column,
                    scope,
                    inlined_at,
                }) => {
                    if distinct {
                        self.out.push_str("distinct ");
                    }
                    let _ = write!(
                        self.out,
                        "!DILocation(line: {line}, column: {column}, scope: "
                    );
                    self.metadata_ref(None, Some(scope));
                    if let Some(at) = inlined_at {
                        self.out.push_str(", inlinedAt: ");
                        self.metadata_ref(None, Some(at));
                    }
                    self.out.push(')');
                }
                Some(MetadataNode::Debug { code, operands }) => {
                    let _ = write!(
                        self.out,
                        "!DIRecord(code: {code}, operands: {:?})",
                        m.metadata.raw(operands)
                    );
                }
                Some(MetadataNode::String(_) | MetadataNode::Value { .. }) | None => {
                    self.out.push_str("!{}");
                }
            }
            self.out.push('\n');
        }
    }
}
