//! [`Builder`]: owns a program's ops and lets frontends and passes add, change, remove and walk them.
//!
//! Ops live in one flat `Vec` indexed by [`SsaDef`]; program order is a separate doubly linked
//! list over those indices (like cranelift's `Layout`), so inserting or removing anywhere is
//! O(1). Every reference operand owns a node in an intrusive use list of the def it refers to, so
//! use iteration is O(1) per step and rewriting an op or replacing all uses of a def costs only
//! the operands and uses involved — never a scan of the program.
//!
//! A dropped builder leaves its emptied tables to the next [`Builder::with_capacities`] on the
//! same thread, so a compile of a small shader allocates none of them.

use crate::census::Census;
use crate::op::{Op, Operand, SsaDef};
use crate::opcode::{OpClass, OpCode};
use crate::types::{ScalarType, Type};

const NIL: u32 = 0;

/// Program-order links, use-list head and use-node block of one id.
#[derive(Clone, Copy, Debug, Default)]
struct Meta {
    prev: u32,
    next: u32,
    first_use: u32,
    /// First of the op's use nodes: node `nodes + i` belongs to reference operand `i`.
    nodes: u32,
    /// Reference operands linked (the op's `ref_count` when it was last linked).
    nrefs: u32,
    /// Nodes in the block starting at `nodes`.
    cap: u32,
}

/// One reference operand's place in the use list of the def it refers to. A node whose `def`
/// is NIL is not linked (a null reference, or a block slot not in use).
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

/// One key of [`ConstTable`]: a type and its literals, with the def last made for them.
#[derive(Clone, Copy, Debug)]
struct ConstEntry {
    hash: u64,
    ty: Type,
    /// The literal itself for a one-literal key, else the start of the literals in
    /// [`ConstTable::values`].
    lit: u64,
    len: u32,
    def: SsaDef,
}

/// The constants made by [`Builder::add_constant`]: a map from (type, literals) to the def last
/// made for them, open-addressed (linear probing) over a compact slot array, with the keys in
/// one `Vec` and multi-literal keys in one shared buffer: no allocation per key, one-literal
/// keys hash and compare as a few words, and emptying the table clears only `u32` slots.
#[derive(Clone, Debug, Default)]
struct ConstTable {
    /// Entry index + 1 per slot (0: empty); power-of-two sized (or empty), at most half full.
    slots: Vec<u32>,
    entries: Vec<ConstEntry>,
    values: Vec<u64>,
}

/// Where a key is, or where it would go, in a [`ConstTable`].
enum ConstSlot {
    /// The index of the key's entry.
    Found(usize),
    /// The empty slot where the key would go.
    Vacant(usize),
}

impl ConstTable {
    /// Empties the table, with room for `n` keys (none allocated for 0).
    fn reset(&mut self, n: usize) {
        self.slots.clear();
        if n > 0 {
            self.slots.resize((n * 2).next_power_of_two().max(16), 0);
        }
        self.entries.clear();
        self.values.clear();
    }

    #[inline]
    fn hash(ty: &Type, values: &[u64]) -> u64 {
        const K: u64 = 0x9e37_79b9_7f4a_7c15;
        let members = ty.members();
        let mut h = (members.first().map_or(0, |m| m.bits() as u64)
            | (members.len() as u64) << 8
            | (ty.is_array() as u64) << 16
            | (values.len() as u64) << 24)
            .wrapping_mul(K);
        for &v in values {
            h = (h.rotate_left(26) ^ v).wrapping_mul(K);
        }
        h ^ (h >> 29)
    }

    #[inline]
    fn matches(&self, e: &ConstEntry, hash: u64, ty: &Type, values: &[u64]) -> bool {
        if e.hash != hash || e.len as usize != values.len() || e.ty != *ty {
            return false;
        }
        match values {
            [one] => e.lit == *one,
            _ => {
                let start = e.lit as usize;
                self.values.get(start..start + values.len()) == Some(values)
            }
        }
    }

    /// The entry of the key, or the empty slot where it would be inserted (a table without
    /// slots gets some first).
    #[inline]
    fn find(&mut self, hash: u64, ty: &Type, values: &[u64]) -> ConstSlot {
        if self.slots.is_empty() {
            self.grow();
        }
        let mask = self.slots.len() - 1;
        let mut pos = hash as usize & mask;
        loop {
            match self.slots.get(pos) {
                Some(&s) if s != 0 => {
                    let i = s as usize - 1;
                    if self
                        .entries
                        .get(i)
                        .is_some_and(|e| self.matches(e, hash, ty, values))
                    {
                        return ConstSlot::Found(i);
                    }
                }
                _ => return ConstSlot::Vacant(pos),
            }
            pos = (pos + 1) & mask;
        }
    }

    /// Adds a key known to be absent; `pos` is its vacant slot from [`ConstTable::find`].
    fn insert(&mut self, pos: usize, hash: u64, ty: Type, values: &[u64], def: SsaDef) {
        let lit = match values {
            [one] => *one,
            _ => {
                let start = self.values.len() as u64;
                self.values.extend_from_slice(values);
                start
            }
        };
        self.entries.push(ConstEntry {
            hash,
            ty,
            lit,
            len: values.len() as u32,
            def,
        });
        if let Some(slot) = self.slots.get_mut(pos) {
            *slot = self.entries.len() as u32;
        }
        if self.entries.len() * 2 > self.slots.len() {
            self.grow();
        }
    }

    #[cold]
    fn grow(&mut self) {
        let size = (self.slots.len() * 2).max(16);
        let mask = size - 1;
        self.slots.clear();
        self.slots.resize(size, 0);
        for (i, e) in self.entries.iter().enumerate() {
            let mut pos = e.hash as usize & mask;
            while self.slots[pos] != 0 {
                pos = (pos + 1) & mask;
            }
            self.slots[pos] = i as u32 + 1;
        }
    }
}

/// The buffers of a dropped [`Builder`], kept per thread for the next
/// [`Builder::with_capacities`]: a compile then allocates and frees none of the builder's
/// tables once they have grown to its size. Nothing of the old program survives: every
/// buffer is emptied before it is kept.
#[derive(Default)]
struct Spare {
    ops: Vec<Option<Op>>,
    meta: Vec<Meta>,
    nodes: Vec<UseNode>,
    constants: ConstTable,
}

/// Largest op capacity whose buffers are kept for reuse (about 2.5 MB): a huge program's tables
/// are freed rather than held by the thread.
const SPARE_MAX_OPS: usize = 1 << 14;

thread_local! {
    /// The buffers of the last builder dropped on this thread (see [`Spare`]).
    static SPARE: std::cell::Cell<Option<Spare>> = const { std::cell::Cell::new(None) };
}

/// The container of a program's ops: adds, inserts, rewrites, removes and traverses them.
#[derive(Clone, Debug)]
pub struct Builder {
    /// The op of each id (`None`: removed, never added, or id 0).
    ops: Vec<Option<Op>>,
    /// Layout and use-list data of each id, as long as `ops`.
    meta: Vec<Meta>,
    /// Use nodes, in per-op blocks; node 0 is never used (NIL).
    nodes: Vec<UseNode>,
    head: u32,
    tail: u32,
    decl_tail: u32,
    live: usize,
    constants: ConstTable,
    /// Counts of the live ops of a few kinds, kept by every edit.
    census: Census,
    /// A `Constant` op got its type and literals other than as a new constant of
    /// [`Builder::add_constant`] (added directly, rewritten, retyped, an operand set): two live
    /// constants may be equal. Never cleared.
    loose_constants: bool,
}

impl Default for Builder {
    fn default() -> Self {
        Self::new()
    }
}

impl Drop for Builder {
    /// Keeps the emptied buffers for this thread's next [`Builder::with_capacities`] (see
    /// [`Spare`]).
    fn drop(&mut self) {
        if self.ops.capacity() > SPARE_MAX_OPS || self.nodes.capacity() > 2 * SPARE_MAX_OPS {
            return;
        }
        let mut spare = Spare {
            ops: std::mem::take(&mut self.ops),
            meta: std::mem::take(&mut self.meta),
            nodes: std::mem::take(&mut self.nodes),
            constants: std::mem::take(&mut self.constants),
        };
        spare.ops.clear();
        spare.meta.clear();
        spare.nodes.clear();
        // A thread being torn down keeps nothing.
        let _ = SPARE.try_with(|s| s.set(Some(spare)));
    }
}

impl Builder {
    /// An empty program.
    pub fn new() -> Self {
        Builder {
            ops: vec![None],
            meta: vec![Meta::default()],
            nodes: vec![UseNode::default()],
            head: NIL,
            tail: NIL,
            decl_tail: NIL,
            live: 0,
            constants: ConstTable::default(),
            census: Census::default(),
            loose_constants: false,
        }
    }

    /// An empty program with room for `n` ops.
    pub fn with_capacity(n: usize) -> Self {
        Self::with_capacities(n, n * 2, 0)
    }

    /// An empty program with room for `ops` ops, `uses` reference operands and `constants`
    /// distinct constants made through [`Builder::add_constant`], so that building a program of
    /// about that size does not regrow its tables.
    pub fn with_capacities(ops: usize, uses: usize, constants: usize) -> Self {
        let spare = SPARE.try_with(|s| s.take()).ok().flatten();
        let (mut o, mut m, mut nodes, mut table) = match spare {
            Some(s) => {
                let Spare {
                    ops,
                    meta,
                    nodes,
                    constants,
                } = s;
                (ops, meta, nodes, constants)
            }
            None => Default::default(),
        };
        reserve_empty(&mut o, ops + 1);
        o.push(None);
        reserve_empty(&mut m, ops + 1);
        m.push(Meta::default());
        reserve_empty(&mut nodes, uses + 1);
        nodes.push(UseNode::default());
        table.reset(constants);
        Builder {
            ops: o,
            meta: m,
            nodes,
            head: NIL,
            tail: NIL,
            decl_tail: NIL,
            live: 0,
            constants: table,
            census: Census::default(),
            loose_constants: false,
        }
    }

    /// Number of live ops.
    pub fn len(&self) -> usize {
        self.live
    }

    /// True if there are no ops.
    pub fn is_empty(&self) -> bool {
        self.live == 0
    }

    /// How many live ops of each counted kind there are: what passes check before walking the
    /// program for ops they may have nothing to do with.
    #[inline]
    pub fn census(&self) -> &Census {
        &self.census
    }

    /// True if no two live `Constant` ops can be equal (same type and literals): every one was
    /// made as a new constant by [`Builder::add_constant`], which makes none twice, and none
    /// was changed since. CSE then has no constants to merge.
    #[inline]
    pub fn constants_are_unique(&self) -> bool {
        !self.loose_constants
    }

    /// One past the highest id ever handed out: the size for per-def side tables.
    #[inline]
    pub fn id_bound(&self) -> usize {
        self.ops.len()
    }

    /// The op of `def`, if it exists and has not been removed.
    #[inline]
    pub fn get(&self, def: SsaDef) -> Option<&Op> {
        self.ops.get(def.index()).and_then(|o| o.as_ref())
    }

    /// True if `def` names a live op.
    #[inline]
    pub fn contains(&self, def: SsaDef) -> bool {
        self.get(def).is_some()
    }

    /// The op of `def`.
    ///
    /// # Panics
    /// If `def` was removed or never existed: passing such a def is a bug in the caller.
    #[inline]
    pub fn op(&self, def: SsaDef) -> &Op {
        match self.get(def) {
            Some(op) => op,
            None => not_live(def),
        }
    }

    /// Appends an op at the end of the program.
    pub fn add(&mut self, op: Op) -> SsaDef {
        // The new last op: after the old tail, before nothing.
        let id = self.alloc_linked(op, self.tail, NIL);
        self.def(id)
    }

    /// Inserts an op at the end of the declarative section (after the last declarative op
    /// added through the builder, or at the start of the program).
    pub fn add_decl(&mut self, op: Op) -> SsaDef {
        self.add_decl_inline(op)
    }

    /// [`Builder::add_decl`], inlined where the op is built (no copy of it for the call).
    #[inline(always)]
    fn add_decl_inline(&mut self, op: Op) -> SsaDef {
        let prev = self.decl_tail;
        // (No panicking index before `op` moves: an unwind path would keep a copy of it.)
        let next = if prev == NIL {
            self.head
        } else {
            self.meta.get(prev as usize).map_or(NIL, |m| m.next)
        };
        let id = self.alloc_linked(op, prev, next);
        self.def(id)
    }

    /// Inserts an op right before `pos`.
    pub fn add_before(&mut self, pos: SsaDef, op: Op) -> SsaDef {
        let prev = self.meta[pos.index()].prev;
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
        let slot = &mut self.ops[id as usize];
        if slot.is_some() {
            return Err(def);
        }
        self.census.add(op.opcode, &op.ty);
        self.loose_constants |= op.opcode == OpCode::Constant;
        *slot = Some(op);
        self.live += 1;
        self.link_operands(id);
        self.link_after(self.tail, id);
        Ok(())
    }

    /// A constant of type `ty` with the given flattened literals, reusing an identical live
    /// constant if one was made through this method before.
    pub fn add_constant(&mut self, ty: Type, values: &[u64]) -> SsaDef {
        let hash = ConstTable::hash(&ty, values);
        let slot = self.constants.find(hash, &ty, values);
        if let ConstSlot::Found(i) = slot {
            if let Some(def) = self.constants.entries.get(i).map(|e| e.def) {
                if let Some(op) = self.get(def) {
                    // Ids are never reused, and a live `Constant` keeps the type and literals
                    // it was made with unless something changed it in place, which marks the
                    // constants loose: only then are they compared again.
                    if op.opcode == OpCode::Constant
                        && (!self.loose_constants
                            || op.ty == ty
                                && op.operands.iter().map(|o| o.0).eq(values.iter().copied()))
                    {
                        return def;
                    }
                }
            }
        }
        let mut op = Op::new(OpCode::Constant, ty);
        op.operands.reserve(values.len());
        for &v in values {
            op.operands.push(Operand(v));
        }
        // No live constant has this key (the table's would): the new one is no duplicate.
        let loose = self.loose_constants;
        let def = self.add_decl_inline(op);
        self.loose_constants = loose;
        match slot {
            // The key's last constant was removed or changed: this one replaces it.
            ConstSlot::Found(i) => {
                if let Some(e) = self.constants.entries.get_mut(i) {
                    e.def = def;
                }
            }
            ConstSlot::Vacant(pos) => self.constants.insert(pos, hash, ty, values, def),
        }
        def
    }

    /// A scalar constant of type `ty` holding `bits`: the same as
    /// [`Builder::add_constant`] with `Type::scalar(ty)` and one literal.
    #[inline]
    pub fn add_scalar_constant(&mut self, ty: ScalarType, bits: u64) -> SsaDef {
        self.add_constant(Type::scalar(ty), &[bits])
    }

    /// Removes an op. Its own operands stop being uses; remaining uses *of* it become dangling
    /// references, which the validator reports — replace them first.
    pub fn remove(&mut self, def: SsaDef) {
        let id = def.id();
        let Some(op) = self.ops.get(def.index()).and_then(|o| o.as_ref()) else {
            return;
        };
        self.census.remove(op.opcode, &op.ty);
        self.unlink_operands(id);
        self.unlink_layout(id);
        self.ops[id as usize] = None;
        self.live -= 1;
    }

    /// Moves the ops from `first` to `last` (a run of code ops in program order, `last` not
    /// before `first`) to right after `pos`, which must not be inside the run. O(1): the run is
    /// unlinked and linked again as a whole (passes that reorder blocks move each block so).
    /// Does nothing if `first`, `last` or `pos` is not live, or if `pos` is inside the run
    /// (checked by walking the run only in debug builds).
    pub fn move_range_after(&mut self, first: SsaDef, last: SsaDef, pos: SsaDef) {
        if !self.contains(first) || !self.contains(last) || !self.contains(pos) {
            return;
        }
        debug_assert!(
            self.iter_from(first)
                .map(|(d, _)| d)
                .take_while(|&d| d != last)
                .all(|d| d != pos)
                && pos != last,
            "move_range_after: {pos} is inside the moved run"
        );
        let (f, l) = (first.id(), last.id());
        if self.meta[f as usize].prev == pos.id() {
            return;
        }
        // Unlink the run.
        let before = self.meta[f as usize].prev;
        let after = self.meta[l as usize].next;
        self.join(before, after);
        // Link it after `pos`.
        let p = pos.id();
        let next = self.meta[p as usize].next;
        self.join(p, f);
        self.join(l, next);
    }

    /// Replaces the op of `def` in place (same id, same position), updating use lists.
    pub fn rewrite(&mut self, def: SsaDef, op: Op) {
        let id = def.id();
        let Some(old) = self.ops.get(def.index()).and_then(|o| o.as_ref()) else {
            return;
        };
        self.census.remove(old.opcode, &old.ty);
        self.census.add(op.opcode, &op.ty);
        self.loose_constants |= op.opcode == OpCode::Constant;
        self.unlink_operands(id);
        self.ops[id as usize] = Some(op);
        self.link_operands(id);
    }

    /// Sets operand `index` of `def`, keeping use lists right.
    pub fn set_operand(&mut self, def: SsaDef, index: usize, value: Operand) {
        let id = def.id();
        let Some(Some(op)) = self.ops.get_mut(id as usize) else {
            return;
        };
        let Some(slot) = op.operands.get_mut(index) else {
            return;
        };
        *slot = value;
        self.loose_constants |= op.opcode == OpCode::Constant;
        let m = self.meta[id as usize];
        if index >= m.nrefs as usize {
            return;
        }
        let node = m.nodes + index as u32;
        if self.nodes[node as usize].def != NIL {
            self.unlink_node(node);
        }
        if let Some(target) = value.def() {
            self.link_node(node, target.id(), id, index as u32);
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
        if let Some(op) = self.ops.get_mut(def.index()).and_then(|o| o.as_mut()) {
            self.census.remove_type(&op.ty);
            self.census.add_type(&ty);
            self.loose_constants |= op.opcode == OpCode::Constant;
            op.ty = ty;
        }
    }

    /// Sets the flags of `def`.
    pub fn set_flags(&mut self, def: SsaDef, flags: crate::op::OpFlags) {
        if let Some(op) = self.ops.get_mut(def.index()).and_then(|o| o.as_mut()) {
            op.flags = flags;
        }
    }

    /// Makes every use of `old` refer to `new` instead. O(uses of `old`).
    pub fn replace_uses(&mut self, old: SsaDef, new: SsaDef) {
        if old == new {
            return;
        }
        let mut node = self.meta.get(old.index()).map_or(NIL, |m| m.first_use);
        while node != NIL {
            let UseNode {
                user,
                operand,
                next,
                ..
            } = self.nodes[node as usize];
            self.unlink_node(node);
            if let Some(op) = self.ops[user as usize].as_mut() {
                op.operands[operand as usize] = Operand::from_def(new);
            }
            self.link_node(node, new.id(), user, operand);
            node = next;
        }
    }

    /// The uses of `def`, each as (user, operand index). Order is unspecified.
    #[inline]
    pub fn uses(&self, def: SsaDef) -> UseIter<'_> {
        UseIter {
            builder: self,
            node: self.meta.get(def.index()).map_or(NIL, |m| m.first_use),
        }
    }

    /// True if anything refers to `def`.
    #[inline]
    pub fn has_uses(&self, def: SsaDef) -> bool {
        self.meta
            .get(def.index())
            .is_some_and(|m| m.first_use != NIL)
    }

    /// The first op in program order.
    #[inline]
    pub fn first(&self) -> Option<SsaDef> {
        SsaDef::new(self.head)
    }

    /// The last op in program order.
    #[inline]
    pub fn last(&self) -> Option<SsaDef> {
        SsaDef::new(self.tail)
    }

    /// The op after `def` in program order.
    #[inline]
    pub fn next(&self, def: SsaDef) -> Option<SsaDef> {
        self.meta.get(def.index()).and_then(|m| SsaDef::new(m.next))
    }

    /// The op before `def` in program order.
    #[inline]
    pub fn prev(&self, def: SsaDef) -> Option<SsaDef> {
        self.meta.get(def.index()).and_then(|m| SsaDef::new(m.prev))
    }

    /// All live ops in program order.
    #[inline]
    pub fn iter(&self) -> OpIter<'_> {
        OpIter {
            builder: self,
            cur: self.head,
        }
    }

    /// The first op of class [`OpClass::Code`] in program order (`None`: there is none): where
    /// the declaration section ends. Everything before it is a declaration (or an
    /// [`OpClass::Anywhere`] op among them): valid IR has no declaration after code
    /// ([`crate::Rule::DeclarationAfterCode`]), so passes that look only at code start here and
    /// passes that look only at declarations stop here. Costs a step per declaration added
    /// after the builder's last [`Builder::add_decl`] position (usually none).
    pub fn first_code(&self) -> Option<SsaDef> {
        // Everything up to the last declaration added in place is declarations (in valid IR).
        let mut cur = if self.decl_tail != NIL && self.is_decl(self.decl_tail) {
            self.meta[self.decl_tail as usize].next
        } else {
            self.head
        };
        while let Some(op) = self.ops.get(cur as usize).and_then(|o| o.as_ref()) {
            if cur == NIL || op.opcode.info().class == OpClass::Code {
                break;
            }
            cur = self.meta[cur as usize].next;
        }
        SsaDef::new(cur)
    }

    /// The ops before [`Builder::first_code`] in program order: the declarations.
    pub fn declarations(&self) -> impl Iterator<Item = (SsaDef, &Op)> + '_ {
        let end = self.first_code();
        self.iter().take_while(move |&(d, _)| Some(d) != end)
    }

    /// Live ops in program order starting at `def`.
    pub fn iter_from(&self, def: SsaDef) -> OpIter<'_> {
        OpIter {
            builder: self,
            cur: if self.contains(def) { def.id() } else { NIL },
        }
    }

    #[inline]
    fn def(&self, id: u32) -> SsaDef {
        // Ids handed out by `alloc` start at 1.
        SsaDef::new(id).unwrap_or_else(|| unreachable!("slot 0 is never allocated"))
    }

    /// Makes sure `id` has a slot (forward references, chosen ids).
    #[inline]
    fn grow_to(&mut self, id: u32) {
        if self.ops.len() <= id as usize {
            self.grow_to_slow(id);
        }
    }

    #[cold]
    fn grow_to_slow(&mut self, id: u32) {
        self.ops.resize_with(id as usize + 1, || None);
        self.meta.resize(id as usize + 1, Meta::default());
    }

    /// [`Builder::alloc`] and [`Builder::link_after`] in one: the new op goes between `prev`
    /// and `next` (NIL: the start or the end of the program), which must be adjacent.
    #[inline(always)]
    fn alloc_linked(&mut self, op: Op, prev: u32, next: u32) -> u32 {
        let declarative = op.opcode.is_declarative();
        let m = Meta {
            prev,
            next,
            ..Meta::default()
        };
        let id = self.alloc_with(op, m);
        self.join(prev, id);
        self.join(id, next);
        if prev == self.decl_tail && declarative {
            self.decl_tail = id;
        }
        id
    }

    #[inline(always)]
    fn alloc(&mut self, op: Op) -> u32 {
        self.alloc_with(op, Meta::default())
    }

    /// A new op with its links `m` (no node block yet): counted, and its reference operands
    /// linked straight from `op` before it moves into `ops` (what `link_operands` does for a
    /// fresh op).
    #[inline(always)]
    fn alloc_with(&mut self, op: Op, mut m: Meta) -> u32 {
        let id = self.ops.len() as u32;
        self.census.add(op.opcode, &op.ty);
        self.loose_constants |= op.opcode == OpCode::Constant;
        let n = op.ref_count();
        if n > 0 {
            m.nodes = self.nodes.len() as u32;
            m.nrefs = n as u32;
            m.cap = n as u32;
        }
        self.meta.push(m);
        if let Some(refs) = op.operands.get(..n) {
            link_new(&mut self.meta, &mut self.nodes, id, refs);
        }
        self.ops.push(Some(op));
        if self.ops.len() < self.meta.len() {
            // A forward reference got its slot early (see `link_operands`).
            self.ops.resize_with(self.meta.len(), || None);
        }
        self.live += 1;
        id
    }

    /// Links each reference operand of `id` into the use list of the def it refers to, using
    /// the op's node block (a new, larger block if the op now has more references).
    fn link_operands(&mut self, id: u32) {
        let Some(op) = self.ops[id as usize].as_ref() else {
            return;
        };
        let n = op.ref_count();
        let refs = &op.operands[..n];
        let meta = &mut self.meta;
        let nodes = &mut self.nodes;
        let m = &mut meta[id as usize];
        m.nrefs = n as u32;
        if n as u32 <= m.cap {
            let start = m.nodes;
            for (i, r) in refs.iter().enumerate() {
                let node = start + i as u32;
                let def = r.def().map_or(NIL, |d| d.id());
                let next = push_use(meta, nodes, def, node);
                nodes[node as usize] = UseNode {
                    def,
                    user: id,
                    operand: i as u32,
                    prev: NIL,
                    next,
                };
            }
        } else {
            // A new block at the end. The old block (if any) is fully unlinked; grow
            // geometrically so ops that gain operands one at a time (`push_operand`) stay linear.
            let cap = if m.cap == 0 {
                n
            } else {
                n.max(m.cap as usize * 2)
            };
            m.nodes = nodes.len() as u32;
            m.cap = cap as u32;
            link_new(meta, nodes, id, refs);
            if cap > n {
                nodes.resize(nodes.len() + cap - n, UseNode::default());
            }
        }
        if self.ops.len() < self.meta.len() {
            // Forward references (parser, deserializer) got their slots early so the use
            // lists are in place when the ops arrive.
            self.ops.resize_with(self.meta.len(), || None);
        }
    }

    fn unlink_operands(&mut self, id: u32) {
        let m = self.meta[id as usize];
        for node in m.nodes..m.nodes + m.nrefs {
            if self.nodes[node as usize].def != NIL {
                self.unlink_node(node);
            }
        }
        self.meta[id as usize].nrefs = 0;
    }

    /// Links `node` at the head of `def`'s use list as operand `operand` of `user`.
    #[inline]
    fn link_node(&mut self, node: u32, def: u32, user: u32, operand: u32) {
        let head = self.meta[def as usize].first_use;
        self.nodes[node as usize] = UseNode {
            def,
            user,
            operand,
            prev: NIL,
            next: head,
        };
        if head != NIL {
            self.nodes[head as usize].prev = node;
        }
        self.meta[def as usize].first_use = node;
    }

    /// Takes `n` out of its def's use list and marks it unlinked.
    #[inline]
    fn unlink_node(&mut self, n: u32) {
        let UseNode {
            def, prev, next, ..
        } = self.nodes[n as usize];
        if prev != NIL {
            self.nodes[prev as usize].next = next;
        } else {
            self.meta[def as usize].first_use = next;
        }
        if next != NIL {
            self.nodes[next as usize].prev = prev;
        }
        self.nodes[n as usize].def = NIL;
    }

    #[inline]
    fn is_decl(&self, id: u32) -> bool {
        self.ops[id as usize]
            .as_ref()
            .is_some_and(|op| op.opcode.is_declarative())
    }

    /// Makes `b` follow `a` in program order (a NIL `a`: `b` comes first; a NIL `b`: `a`
    /// comes last).
    #[inline(always)]
    fn join(&mut self, a: u32, b: u32) {
        if a == NIL {
            self.head = b;
        } else {
            self.meta[a as usize].next = b;
        }
        if b == NIL {
            self.tail = a;
        } else {
            self.meta[b as usize].prev = a;
        }
    }

    /// Links `id` into program order after `prev` (NIL: at the start).
    #[inline]
    fn link_after(&mut self, prev: u32, id: u32) {
        let next = if prev == NIL {
            self.head
        } else {
            self.meta[prev as usize].next
        };
        self.join(prev, id);
        self.join(id, next);
        if prev == self.decl_tail && self.is_decl(id) {
            self.decl_tail = id;
        }
    }

    fn unlink_layout(&mut self, id: u32) {
        let Meta { prev, next, .. } = self.meta[id as usize];
        self.join(prev, next);
        if self.decl_tail == id {
            self.decl_tail = prev;
        }
        self.meta[id as usize].prev = NIL;
        self.meta[id as usize].next = NIL;
    }
}

/// Links the reference operands `refs` of the new op `id` into the use lists of their defs,
/// with nodes appended to `nodes` (the op's block starts at the current end).
#[inline(always)]
fn link_new(meta: &mut Vec<Meta>, nodes: &mut Vec<UseNode>, id: u32, refs: &[Operand]) {
    let start = nodes.len() as u32;
    nodes.reserve(refs.len());
    for (i, r) in (0u32..).zip(refs) {
        let node = start + i;
        let def = r.def().map_or(NIL, |d| d.id());
        let mut next = NIL;
        if def != NIL {
            if let Some(m) = meta.get_mut(def as usize) {
                next = m.first_use;
                m.first_use = node;
                if let Some(h) = nodes.get_mut(next as usize).filter(|_| next != NIL) {
                    h.prev = node;
                }
            } else {
                // A forward reference (parsers, deserializers): its def gets its slot now.
                grow_meta(meta, def);
                if let Some(m) = meta.get_mut(def as usize) {
                    m.first_use = node;
                }
            }
        }
        nodes.push(UseNode {
            def,
            user: id,
            operand: i,
            prev: NIL,
            next,
        });
    }
}

/// Makes `node` the head of `def`'s use list (nothing for NIL) and returns the old head, the
/// node's `next`; `node` itself is written by the caller. A `def` past the end (a forward
/// reference) gets its slot first.
#[inline]
fn push_use(meta: &mut Vec<Meta>, nodes: &mut [UseNode], def: u32, node: u32) -> u32 {
    if def == NIL {
        return NIL;
    }
    if def as usize >= meta.len() {
        grow_meta(meta, def);
    }
    let m = &mut meta[def as usize];
    let head = m.first_use;
    m.first_use = node;
    if head != NIL {
        if let Some(h) = nodes.get_mut(head as usize) {
            h.prev = node;
        }
    }
    head
}

/// Makes room for `n` items in the empty `v` (a spare buffer): a new allocation when it is too
/// small, since growing it in place would copy the old, unused contents.
fn reserve_empty<T>(v: &mut Vec<T>, n: usize) {
    if v.capacity() < n {
        *v = Vec::with_capacity(n);
    }
}

/// Gives the forward reference `def` its slot in `meta` (parsers, deserializers).
#[cold]
#[inline(never)]
fn grow_meta(meta: &mut Vec<Meta>, def: u32) {
    meta.resize(def as usize + 1, Meta::default());
}

/// The one panic of the IR crate: [`Builder::op`] was given a def that is not in the
/// builder. Like an out-of-range slice index, that is a bug in the calling code, never a
/// property of input: defs come from the builder itself, and IR from outside is validated
/// (no dangling reference) before any pass or the backend walks it.
#[cold]
#[inline(never)]
#[allow(clippy::panic)]
fn not_live(def: SsaDef) -> ! {
    panic!("{def} is not a live op")
}

/// Iterator over ops in program order, yielding `(def, op)`.
pub struct OpIter<'a> {
    builder: &'a Builder,
    cur: u32,
}

impl<'a> Iterator for OpIter<'a> {
    type Item = (SsaDef, &'a Op);

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        let def = SsaDef::new(self.cur)?;
        let i = self.cur as usize;
        self.cur = self.builder.meta[i].next;
        self.builder.ops[i].as_ref().map(|op| (def, op))
    }
}

/// Iterator over the uses of one def.
pub struct UseIter<'a> {
    builder: &'a Builder,
    node: u32,
}

impl Iterator for UseIter<'_> {
    type Item = Use;

    #[inline]
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

    #[test]
    fn a_builder_after_a_dropped_one_starts_empty() {
        // The second builder gets the first one's buffers (same thread): nothing of the first
        // program may show, and constants are made anew.
        let (first_c, first_v) = {
            let mut b = Builder::with_capacities(8, 8, 4);
            for i in 0..40u64 {
                b.add_scalar_constant(ScalarType::U32, i);
            }
            let c = b.add_constant(Type::vector(ScalarType::F32, 2), &[1, 2]);
            let v = b.add(
                Op::new(OpCode::FAdd, ScalarType::F32)
                    .with_ref(c)
                    .with_ref(c),
            );
            (c, v)
        };
        let mut b = Builder::with_capacities(4, 4, 2);
        assert!(b.is_empty());
        assert_eq!(b.id_bound(), 1);
        assert!(b.first().is_none() && b.last().is_none());
        assert!(!b.contains(first_c) && !b.contains(first_v));
        assert!(!b.has_uses(first_c));
        let c = b.add_constant(Type::vector(ScalarType::F32, 2), &[1, 2]);
        assert_eq!(c.id(), 1);
        assert_eq!(b.add_constant(Type::vector(ScalarType::F32, 2), &[1, 2]), c);
        let z = b.add_scalar_constant(ScalarType::U32, 0);
        assert_ne!(z, c);
        assert_eq!(b.len(), 2);
        assert_eq!(b.census(), &crate::Census::of(b.iter().map(|(_, op)| op)));
        assert_eq!(b.iter().count(), 2);
    }

    #[test]
    fn constants_are_keyed_by_type_and_all_literals() {
        let mut b = Builder::with_capacities(4, 4, 2);
        let v2 = Type::vector(ScalarType::U32, 2);
        let a = b.add_constant(v2, &[1, 2]);
        let c = b.add_constant(v2, &[2, 1]);
        let u = b.add_scalar_constant(ScalarType::U32, 1);
        let i = b.add_scalar_constant(ScalarType::I32, 1);
        assert_ne!(a, c);
        assert_ne!(u, i);
        assert_eq!(b.add_constant(v2, &[1, 2]), a);
        assert_eq!(b.add_constant(Type::scalar(ScalarType::U32), &[1]), u);
        assert_eq!(b.add_scalar_constant(ScalarType::I32, 1), i);
        // Many distinct keys: the table grows and keeps every one.
        let many: Vec<_> = (0..100u64)
            .map(|v| b.add_scalar_constant(ScalarType::F32, v))
            .collect();
        for (v, d) in (0..100u64).zip(&many) {
            assert_eq!(b.add_scalar_constant(ScalarType::F32, v), *d);
        }
        // A removed or changed constant is not handed out again.
        b.remove(u);
        let u2 = b.add_scalar_constant(ScalarType::U32, 1);
        assert_ne!(u2, u);
        b.set_type(u2, Type::scalar(ScalarType::I32));
        let u3 = b.add_scalar_constant(ScalarType::U32, 1);
        assert_ne!(u3, u2);
        assert_eq!(b.add_scalar_constant(ScalarType::U32, 1), u3);
    }

    #[test]
    fn a_constant_rewritten_into_other_code_is_not_handed_out() {
        // The constants stay unique (no constant was changed in place), so a hit checks only
        // that its def is still a live `Constant`.
        let mut b = Builder::new();
        let x = b.add_scalar_constant(ScalarType::F32, 1);
        let k = b.add_scalar_constant(ScalarType::F32, 7);
        b.rewrite(k, Op::new(OpCode::FNeg, ScalarType::F32).with_ref(x));
        assert!(b.constants_are_unique());
        let k2 = b.add_scalar_constant(ScalarType::F32, 7);
        assert_ne!(k2, k);
        assert_eq!(b.op(k2).opcode, OpCode::Constant);
        assert_eq!(b.add_scalar_constant(ScalarType::F32, 7), k2);
        assert_eq!(b.add_scalar_constant(ScalarType::F32, 1), x);
    }

    #[test]
    fn growing_and_shrinking_ops_keep_use_lists() {
        let mut b = Builder::new();
        let c1 = f32c(&mut b, 1.0);
        let c2 = f32c(&mut b, 2.0);
        let phi = b.add(Op::new(OpCode::Phi, ScalarType::F32));
        for _ in 0..50 {
            b.push_operand(phi, Operand::from_def(c1));
            b.push_operand(phi, Operand::from_def(c2));
        }
        assert_eq!(b.uses(c1).count(), 50);
        assert_eq!(b.uses(c2).count(), 50);
        assert!(b.uses(c2).all(|u| u.user == phi && u.operand % 2 == 1));
        b.rewrite(phi, Op::new(OpCode::FNeg, ScalarType::F32).with_ref(c2));
        assert_eq!(b.uses(c1).count(), 0);
        assert_eq!(
            b.uses(c2).collect::<Vec<_>>(),
            vec![Use {
                user: phi,
                operand: 0
            }]
        );
        b.replace_uses(c2, c1);
        assert_eq!(b.uses(c1).count(), 1);
        b.remove(phi);
        assert!(!b.has_uses(c1));
        assert!(!b.has_uses(c2));
    }

    #[test]
    fn constants_stay_unique_until_one_is_changed() {
        let mut b = Builder::new();
        let one = f32c(&mut b, 1.0);
        f32c(&mut b, 2.0);
        assert_eq!(f32c(&mut b, 1.0), one);
        b.remove(one);
        f32c(&mut b, 1.0);
        b.add(Op::new(OpCode::FNeg, ScalarType::F32).with_ref(one));
        assert!(b.constants_are_unique());
        let edits: [fn(&mut Builder, SsaDef); 4] = [
            |b, c| b.set_type(c, Type::scalar(ScalarType::U32)),
            |b, c| b.set_operand(c, 0, Operand(7)),
            |b, c| b.rewrite(c, Op::new(OpCode::Constant, ScalarType::F32).with_lit(3)),
            |b, _| {
                b.add_decl(Op::new(OpCode::Constant, ScalarType::F32).with_lit(3));
            },
        ];
        for edit in edits {
            let mut copy = b.clone();
            let c = f32c(&mut copy, 5.0);
            edit(&mut copy, c);
            assert!(!copy.constants_are_unique());
        }
    }

    #[test]
    fn first_code_ends_the_declarations() {
        let mut b = Builder::new();
        assert_eq!(b.first_code(), None);
        let c1 = f32c(&mut b, 1.0);
        assert_eq!(b.first_code(), None, "declarations only");
        assert_eq!(b.declarations().count(), 1);
        let f = b.add(Op::new(OpCode::Function, Type::VOID));
        let label = b.add(Op::new(OpCode::Label, Type::VOID).with_lit(0));
        assert_eq!(b.first_code(), Some(f));
        // Declarations added in place, at the end or by id keep the boundary.
        let c2 = f32c(&mut b, 2.0);
        let tmp = b.add_before(f, Op::new(OpCode::DclTmp, ScalarType::F32));
        assert_eq!(b.first_code(), Some(f));
        let decls: Vec<_> = b.declarations().map(|(d, _)| d).collect();
        assert_eq!(decls, vec![c1, c2, tmp]);
        // The last declaration removed or turned into code: the boundary is found again.
        b.remove(tmp);
        assert_eq!(b.first_code(), Some(f));
        b.rewrite(c2, Op::new(OpCode::Label, Type::VOID).with_lit(0));
        assert_eq!(b.first_code(), Some(c2));
        b.remove(c2);
        b.remove(f);
        assert_eq!(b.first_code(), Some(label));
        b.remove(c1);
        assert_eq!(b.first_code(), Some(label), "code only");
        assert_eq!(b.declarations().count(), 0);
    }

    #[test]
    fn ranges_move_as_a_whole() {
        let mut b = Builder::new();
        let ops: Vec<SsaDef> = (0..6)
            .map(|_| b.add(Op::new(OpCode::Demote, Type::VOID)))
            .collect();
        let ids = |b: &Builder| order(b);
        // [1 2 3 4 5 6]: move 2..=3 after 5, then 5..=2 (the run 5 2 3) to the front's end.
        b.move_range_after(ops[1], ops[2], ops[4]);
        assert_eq!(ids(&b), vec![1, 4, 5, 2, 3, 6]);
        b.move_range_after(ops[0], ops[0], ops[5]);
        assert_eq!(ids(&b), vec![4, 5, 2, 3, 6, 1]);
        assert_eq!(b.first(), Some(ops[3]));
        assert_eq!(b.last(), Some(ops[0]));
        // Already in place: nothing changes.
        b.move_range_after(ops[1], ops[2], ops[4]);
        assert_eq!(ids(&b), vec![4, 5, 2, 3, 6, 1]);
        assert_eq!(b.prev(ops[1]), Some(ops[4]));
        assert_eq!(b.next(ops[2]), Some(ops[5]));
    }

    #[test]
    fn forward_references_grow_the_id_space() {
        let mut b = Builder::new();
        let d = |i| SsaDef::new(i).unwrap();
        let br = b.add(Op::new(OpCode::Branch, Type::VOID).with_ref(d(40)));
        assert_eq!(b.id_bound(), 41);
        assert!(!b.contains(d(40)));
        assert_eq!(b.uses(d(40)).map(|u| u.user).collect::<Vec<_>>(), vec![br]);
        b.add_with_id(d(40), Op::new(OpCode::Label, Type::VOID).with_lit(0))
            .unwrap();
        assert_eq!(b.uses(d(40)).count(), 1);
        assert_eq!(b.add(Op::new(OpCode::Unreachable, Type::VOID)).id(), 41);
    }
}
