//! [`Builder`]: owns a program's ops and lets frontends and passes add, change, remove and walk them.
//!
//! Ops live in one flat `Vec` indexed by [`SsaDef`]; program order is a separate doubly linked
//! list over those indices (like cranelift's `Layout`), so inserting or removing anywhere is
//! O(1). Every reference operand owns a node in an intrusive use list of the def it refers to, so
//! use iteration is O(1) per step and rewriting an op or replacing all uses of a def costs only
//! the operands and uses involved — never a scan of the program.

use crate::fxhash::FxHashMap;
use crate::op::{Op, Operand, SsaDef};
use crate::opcode::OpCode;
use crate::types::Type;
use smallvec::SmallVec;

const NIL: u32 = 0;

#[derive(Clone, Debug)]
struct Slot {
    op: Option<Op>,
    prev: u32,
    next: u32,
    first_use: u32,
    /// Use node of each reference operand (NIL for null references).
    use_nodes: SmallVec<[u32; 4]>,
}

impl Slot {
    fn empty() -> Slot {
        Slot {
            op: None,
            prev: NIL,
            next: NIL,
            first_use: NIL,
            use_nodes: SmallVec::new(),
        }
    }
}

#[derive(Clone, Copy, Debug, Default)]
struct UseNode {
    def: u32,
    user: u32,
    operand: u32,
    prev: u32,
    next: u32,
}

/// One use of a def: the op using it and the operand index.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Use {
    /// The op that has the reference.
    pub user: SsaDef,
    /// The operand index within that op.
    pub operand: usize,
}

type ConstKey = (Type, SmallVec<[u64; 4]>);

/// The container of a program's ops: adds, inserts, rewrites, removes and traverses them.
#[derive(Clone, Debug)]
pub struct Builder {
    slots: Vec<Slot>,
    nodes: Vec<UseNode>,
    free_nodes: Vec<u32>,
    head: u32,
    tail: u32,
    decl_tail: u32,
    live: usize,
    constants: FxHashMap<ConstKey, SsaDef>,
}

impl Default for Builder {
    fn default() -> Self {
        Self::new()
    }
}

impl Builder {
    /// An empty program.
    pub fn new() -> Self {
        Builder {
            slots: vec![Slot::empty()],
            nodes: vec![UseNode::default()],
            free_nodes: Vec::new(),
            head: NIL,
            tail: NIL,
            decl_tail: NIL,
            live: 0,
            constants: FxHashMap::default(),
        }
    }

    /// An empty program with room for `n` ops.
    pub fn with_capacity(n: usize) -> Self {
        let mut b = Self::new();
        b.slots.reserve(n);
        b.nodes.reserve(n * 2);
        b
    }

    /// Number of live ops.
    pub fn len(&self) -> usize {
        self.live
    }

    /// True if there are no ops.
    pub fn is_empty(&self) -> bool {
        self.live == 0
    }

    /// One past the highest id ever handed out: the size for per-def side tables.
    pub fn id_bound(&self) -> usize {
        self.slots.len()
    }

    /// The op of `def`, if it exists and has not been removed.
    pub fn get(&self, def: SsaDef) -> Option<&Op> {
        self.slots.get(def.index()).and_then(|s| s.op.as_ref())
    }

    /// True if `def` names a live op.
    pub fn contains(&self, def: SsaDef) -> bool {
        self.get(def).is_some()
    }

    /// The op of `def`.
    ///
    /// # Panics
    /// If `def` was removed or never existed: passing such a def is a bug in the caller.
    pub fn op(&self, def: SsaDef) -> &Op {
        match self.get(def) {
            Some(op) => op,
            None => panic!("{def} is not a live op"),
        }
    }

    /// Appends an op at the end of the program.
    pub fn add(&mut self, op: Op) -> SsaDef {
        let id = self.alloc(op);
        self.link_after(self.tail, id);
        self.def(id)
    }

    /// Inserts an op at the end of the declarative section (after the last declarative op
    /// added through the builder, or at the start of the program).
    pub fn add_decl(&mut self, op: Op) -> SsaDef {
        let id = self.alloc(op);
        self.link_after(self.decl_tail, id);
        self.def(id)
    }

    /// Inserts an op right before `pos`.
    pub fn add_before(&mut self, pos: SsaDef, op: Op) -> SsaDef {
        let prev = self.slots[pos.index()].prev;
        let id = self.alloc(op);
        self.link_after(prev, id);
        self.def(id)
    }

    /// Inserts an op right after `pos`.
    pub fn add_after(&mut self, pos: SsaDef, op: Op) -> SsaDef {
        let id = self.alloc(op);
        self.link_after(pos.id(), id);
        self.def(id)
    }

    /// Appends an op under a chosen id (for parsers and deserializers that keep ids).
    /// Fails if that id is already live. Ids above the current bound leave unused gaps.
    pub fn add_with_id(&mut self, def: SsaDef, op: Op) -> Result<(), SsaDef> {
        let id = def.id();
        self.grow_to(id);
        let slot = &mut self.slots[id as usize];
        if slot.op.is_some() {
            return Err(def);
        }
        slot.op = Some(op);
        self.live += 1;
        self.link_operands(id);
        self.link_after(self.tail, id);
        Ok(())
    }

    /// A constant of type `ty` with the given flattened literals, reusing an identical live
    /// constant if one was made through this method before.
    pub fn add_constant(&mut self, ty: Type, values: &[u64]) -> SsaDef {
        let key: ConstKey = (ty, values.iter().copied().collect());
        if let Some(&def) = self.constants.get(&key) {
            if let Some(op) = self.get(def) {
                if op.opcode == OpCode::Constant
                    && op.ty == ty
                    && op.operands.iter().map(|o| o.0).eq(values.iter().copied())
                {
                    return def;
                }
            }
        }
        let mut op = Op::new(OpCode::Constant, ty);
        op.operands.extend(values.iter().map(|&v| Operand(v)));
        let def = self.add_decl(op);
        self.constants.insert(key, def);
        def
    }

    /// Removes an op. Its own operands stop being uses; remaining uses *of* it become dangling
    /// references, which the validator reports — replace them first.
    pub fn remove(&mut self, def: SsaDef) {
        let id = def.id();
        if self.get(def).is_none() {
            return;
        }
        self.unlink_operands(id);
        self.unlink_layout(id);
        self.slots[id as usize].op = None;
        self.live -= 1;
    }

    /// Replaces the op of `def` in place (same id, same position), updating use lists.
    pub fn rewrite(&mut self, def: SsaDef, op: Op) {
        let id = def.id();
        if self.get(def).is_none() {
            return;
        }
        self.unlink_operands(id);
        self.slots[id as usize].op = Some(op);
        self.link_operands(id);
    }

    /// Sets operand `index` of `def`, keeping use lists right.
    pub fn set_operand(&mut self, def: SsaDef, index: usize, value: Operand) {
        let Some(op) = self.get(def) else { return };
        if index >= op.operands.len() {
            return;
        }
        let is_ref = index < op.ref_count();
        let id = def.id();
        let node = self.slots[id as usize]
            .use_nodes
            .get(index)
            .copied()
            .unwrap_or(NIL);
        if node != NIL {
            self.unlink_node(node);
            self.slots[id as usize].use_nodes[index] = NIL;
        }
        if let Some(op) = self.slots[id as usize].op.as_mut() {
            op.operands[index] = value;
        }
        if is_ref {
            if let Some(target) = value.def() {
                let n = self.link_node(target.id(), id, index as u32);
                if let Some(slot) = self.slots[id as usize].use_nodes.get_mut(index) {
                    *slot = n;
                }
            }
        }
    }

    /// Appends an operand to `def` (e.g. a phi incoming pair or a switch case).
    pub fn push_operand(&mut self, def: SsaDef, value: Operand) {
        let Some(mut op) = self.get(def).cloned() else {
            return;
        };
        op.operands.push(value);
        self.rewrite(def, op);
    }

    /// Sets the result type of `def`.
    pub fn set_type(&mut self, def: SsaDef, ty: Type) {
        if let Some(op) = self.slots.get_mut(def.index()).and_then(|s| s.op.as_mut()) {
            op.ty = ty;
        }
    }

    /// Sets the flags of `def`.
    pub fn set_flags(&mut self, def: SsaDef, flags: crate::op::OpFlags) {
        if let Some(op) = self.slots.get_mut(def.index()).and_then(|s| s.op.as_mut()) {
            op.flags = flags;
        }
    }

    /// Makes every use of `old` refer to `new` instead. O(uses of `old`).
    pub fn replace_uses(&mut self, old: SsaDef, new: SsaDef) {
        if old == new {
            return;
        }
        let mut node = self.slots.get(old.index()).map_or(NIL, |s| s.first_use);
        while node != NIL {
            let UseNode {
                user,
                operand,
                next,
                ..
            } = self.nodes[node as usize];
            self.unlink_node(node);
            if let Some(op) = self.slots[user as usize].op.as_mut() {
                op.operands[operand as usize] = Operand::from_def(new);
            }
            let n = self.link_node(new.id(), user, operand);
            if let Some(slot) = self.slots[user as usize]
                .use_nodes
                .get_mut(operand as usize)
            {
                *slot = n;
            }
            node = next;
        }
    }

    /// The uses of `def`, each as (user, operand index). Order is unspecified.
    pub fn uses(&self, def: SsaDef) -> UseIter<'_> {
        UseIter {
            builder: self,
            node: self.slots.get(def.index()).map_or(NIL, |s| s.first_use),
        }
    }

    /// True if anything refers to `def`.
    pub fn has_uses(&self, def: SsaDef) -> bool {
        self.slots
            .get(def.index())
            .is_some_and(|s| s.first_use != NIL)
    }

    /// The first op in program order.
    pub fn first(&self) -> Option<SsaDef> {
        SsaDef::new(self.head)
    }

    /// The last op in program order.
    pub fn last(&self) -> Option<SsaDef> {
        SsaDef::new(self.tail)
    }

    /// The op after `def` in program order.
    pub fn next(&self, def: SsaDef) -> Option<SsaDef> {
        self.slots
            .get(def.index())
            .and_then(|s| SsaDef::new(s.next))
    }

    /// The op before `def` in program order.
    pub fn prev(&self, def: SsaDef) -> Option<SsaDef> {
        self.slots
            .get(def.index())
            .and_then(|s| SsaDef::new(s.prev))
    }

    /// All live ops in program order.
    pub fn iter(&self) -> OpIter<'_> {
        OpIter {
            builder: self,
            cur: self.head,
        }
    }

    /// Live ops in program order starting at `def`.
    pub fn iter_from(&self, def: SsaDef) -> OpIter<'_> {
        OpIter {
            builder: self,
            cur: if self.contains(def) { def.id() } else { NIL },
        }
    }

    fn def(&self, id: u32) -> SsaDef {
        // Ids handed out by `alloc` start at 1.
        SsaDef::new(id).unwrap_or_else(|| unreachable!("slot 0 is never allocated"))
    }

    fn grow_to(&mut self, id: u32) {
        while self.slots.len() <= id as usize {
            self.slots.push(Slot::empty());
        }
    }

    fn alloc(&mut self, op: Op) -> u32 {
        let id = self.slots.len() as u32;
        self.slots.push(Slot {
            op: Some(op),
            prev: NIL,
            next: NIL,
            first_use: NIL,
            use_nodes: SmallVec::new(),
        });
        self.live += 1;
        self.link_operands(id);
        id
    }

    fn link_operands(&mut self, id: u32) {
        let nrefs = match self.slots[id as usize].op.as_ref() {
            Some(op) => op.ref_count(),
            None => return,
        };
        // One use node per reference operand; literals have none.
        let mut nodes: SmallVec<[u32; 4]> = SmallVec::with_capacity(nrefs);
        for i in 0..nrefs {
            let target = self.slots[id as usize]
                .op
                .as_ref()
                .and_then(|op| op.operands.get(i))
                .and_then(|o| o.def())
                .map_or(NIL, |d| d.id());
            let node = if target != NIL {
                // A forward reference (parser, deserializer) gets its slot early so the use
                // list is in place when the op arrives.
                self.grow_to(target);
                self.link_node(target, id, i as u32)
            } else {
                NIL
            };
            nodes.push(node);
        }
        self.slots[id as usize].use_nodes = nodes;
    }

    fn unlink_operands(&mut self, id: u32) {
        let nodes = std::mem::take(&mut self.slots[id as usize].use_nodes);
        for n in nodes {
            if n != NIL {
                self.unlink_node(n);
            }
        }
    }

    fn link_node(&mut self, def: u32, user: u32, operand: u32) -> u32 {
        let head = self.slots[def as usize].first_use;
        let node = UseNode {
            def,
            user,
            operand,
            prev: NIL,
            next: head,
        };
        let n = match self.free_nodes.pop() {
            Some(n) => {
                self.nodes[n as usize] = node;
                n
            }
            None => {
                self.nodes.push(node);
                (self.nodes.len() - 1) as u32
            }
        };
        if head != NIL {
            self.nodes[head as usize].prev = n;
        }
        self.slots[def as usize].first_use = n;
        n
    }

    fn unlink_node(&mut self, n: u32) {
        let UseNode {
            def, prev, next, ..
        } = self.nodes[n as usize];
        if prev != NIL {
            self.nodes[prev as usize].next = next;
        } else {
            self.slots[def as usize].first_use = next;
        }
        if next != NIL {
            self.nodes[next as usize].prev = prev;
        }
        self.free_nodes.push(n);
    }

    fn is_decl(&self, id: u32) -> bool {
        self.slots[id as usize]
            .op
            .as_ref()
            .is_some_and(|op| op.opcode.is_declarative())
    }

    /// Links `id` into program order after `prev` (NIL: at the start).
    fn link_after(&mut self, prev: u32, id: u32) {
        let next = if prev == NIL {
            self.head
        } else {
            self.slots[prev as usize].next
        };
        self.slots[id as usize].prev = prev;
        self.slots[id as usize].next = next;
        if prev == NIL {
            self.head = id;
        } else {
            self.slots[prev as usize].next = id;
        }
        if next == NIL {
            self.tail = id;
        } else {
            self.slots[next as usize].prev = id;
        }
        if prev == self.decl_tail && self.is_decl(id) {
            self.decl_tail = id;
        }
    }

    fn unlink_layout(&mut self, id: u32) {
        let Slot { prev, next, .. } = self.slots[id as usize];
        if prev == NIL {
            self.head = next;
        } else {
            self.slots[prev as usize].next = next;
        }
        if next == NIL {
            self.tail = prev;
        } else {
            self.slots[next as usize].prev = prev;
        }
        if self.decl_tail == id {
            self.decl_tail = prev;
        }
        self.slots[id as usize].prev = NIL;
        self.slots[id as usize].next = NIL;
    }
}

/// Iterator over ops in program order, yielding `(def, op)`.
pub struct OpIter<'a> {
    builder: &'a Builder,
    cur: u32,
}

impl<'a> Iterator for OpIter<'a> {
    type Item = (SsaDef, &'a Op);

    fn next(&mut self) -> Option<Self::Item> {
        let def = SsaDef::new(self.cur)?;
        let slot = &self.builder.slots[self.cur as usize];
        self.cur = slot.next;
        slot.op.as_ref().map(|op| (def, op))
    }
}

/// Iterator over the uses of one def.
pub struct UseIter<'a> {
    builder: &'a Builder,
    node: u32,
}

impl Iterator for UseIter<'_> {
    type Item = Use;

    fn next(&mut self) -> Option<Use> {
        if self.node == NIL {
            return None;
        }
        let n = self.builder.nodes[self.node as usize];
        self.node = n.next;
        Some(Use {
            user: SsaDef::new(n.user)?,
            operand: n.operand as usize,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::ScalarType;

    fn f32c(b: &mut Builder, v: f32) -> SsaDef {
        b.add_constant(Type::scalar(ScalarType::F32), &[v.to_bits() as u64])
    }

    fn order(b: &Builder) -> Vec<u32> {
        b.iter().map(|(d, _)| d.id()).collect()
    }

    #[test]
    fn add_insert_remove_keep_order() {
        let mut b = Builder::new();
        let c1 = f32c(&mut b, 1.0);
        let c2 = f32c(&mut b, 2.0);
        assert_eq!(f32c(&mut b, 1.0), c1, "constants are deduplicated");
        let add = b.add(
            Op::new(OpCode::FAdd, ScalarType::F32)
                .with_ref(c1)
                .with_ref(c2),
        );
        let c3 = f32c(&mut b, 3.0);
        assert_eq!(
            order(&b),
            vec![1, 2, 4, 3],
            "constants go to the declarations"
        );
        let mul = b.add_before(
            add,
            Op::new(OpCode::FMul, ScalarType::F32)
                .with_ref(c3)
                .with_ref(c3),
        );
        assert_eq!(order(&b), vec![1, 2, 4, 5, 3]);
        b.remove(mul);
        assert_eq!(order(&b), vec![1, 2, 4, 3]);
        assert_eq!(b.uses(c3).count(), 0);
        assert_eq!(b.len(), 4);
        assert_eq!(b.prev(add).map(|d| d.id()), Some(4));
        assert_eq!(b.next(add), None);
    }

    #[test]
    fn use_lists_follow_rewrites() {
        let mut b = Builder::new();
        let c1 = f32c(&mut b, 1.0);
        let c2 = f32c(&mut b, 2.0);
        let add = b.add(
            Op::new(OpCode::FAdd, ScalarType::F32)
                .with_ref(c1)
                .with_ref(c1),
        );
        assert_eq!(b.uses(c1).count(), 2);
        b.set_operand(add, 1, Operand::from_def(c2));
        assert_eq!(b.uses(c1).count(), 1);
        assert_eq!(
            b.uses(c2).collect::<Vec<_>>(),
            vec![Use {
                user: add,
                operand: 1
            }]
        );
        b.replace_uses(c1, c2);
        assert_eq!(b.uses(c1).count(), 0);
        assert_eq!(b.uses(c2).count(), 2);
        assert_eq!(b.op(add).arg(0), Some(c2));
        b.rewrite(add, Op::new(OpCode::FNeg, ScalarType::F32).with_ref(c1));
        assert_eq!(b.uses(c2).count(), 0);
        assert_eq!(b.uses(c1).count(), 1);
    }

    #[test]
    fn literals_are_not_uses() {
        let mut b = Builder::new();
        let ep = b.add(Op::new(OpCode::EntryPoint, Type::VOID).with_lit(1));
        let name = b.add(
            Op::new(OpCode::DebugName, Type::VOID)
                .with_ref(ep)
                .with_str("x"),
        );
        assert_eq!(b.uses(ep).map(|u| u.user).collect::<Vec<_>>(), vec![name]);
        assert!(!b.has_uses(name));
    }

    #[test]
    fn forward_references_by_id_are_uses() {
        let mut b = Builder::new();
        let d = |i| SsaDef::new(i).unwrap();
        b.add_with_id(d(1), Op::new(OpCode::Branch, Type::VOID).with_ref(d(5)))
            .unwrap();
        b.add_with_id(d(5), Op::new(OpCode::Label, Type::VOID).with_lit(0))
            .unwrap();
        assert_eq!(b.uses(d(5)).count(), 1);
        assert!(b
            .add_with_id(d(5), Op::new(OpCode::Unreachable, Type::VOID))
            .is_err());
        assert_eq!(order(&b), vec![1, 5]);
        let next = b.add(Op::new(OpCode::Unreachable, Type::VOID));
        assert_eq!(next.id(), 6);
    }

    #[test]
    fn many_uses_of_one_def_stay_linear() {
        // 20k uses of one constant, each rewritten once: must not be quadratic.
        let mut b = Builder::new();
        let c = f32c(&mut b, 1.0);
        let d = f32c(&mut b, 2.0);
        let users: Vec<_> = (0..20_000)
            .map(|_| b.add(Op::new(OpCode::FNeg, ScalarType::F32).with_ref(c)))
            .collect();
        for u in &users {
            b.set_operand(*u, 0, Operand::from_def(d));
        }
        assert_eq!(b.uses(c).count(), 0);
        assert_eq!(b.uses(d).count(), 20_000);
    }
}
