//! Common subexpression elimination by hash-based value numbering.
//!
//! Two ops are the same value if they have the same opcode, flags, result type and operands
//! (operands of commutative ops compared as an unordered pair) and the opcode is a pure value
//! ([`is_pure_value`]: no memory reads, no derivatives, no helper-lane dependence, no phis).
//! The later one is replaced by the earlier one.
//!
//! Scope: declarative constants (`Constant`, `Undef`) are numbered globally; code is numbered
//! along the dominator tree ([`DominatorTree`], pre-order walk with a scoped table), so an op
//! is only ever replaced by one that dominates it. Unreachable blocks are left alone. If the
//! program is not in block form yet (scoped control flow), numbering falls back to straight-line
//! regions between control flow ops.

use crate::analysis::{BlockId, Cfg, DominatorTree};
use crate::fxhash::{FxHashMap, FxHasher};
use crate::op::{Operand, SsaDef};
use crate::opcode::OpCode;
use crate::passes::error::PassError;
use crate::passes::util::{is_pure_value, replace_and_remove};
use crate::Builder;
use smallvec::SmallVec;
use std::hash::{Hash, Hasher};

/// True if swapping the two operands of an op of this opcode never changes its result.
pub fn is_commutative(opcode: OpCode) -> bool {
    use OpCode as O;
    matches!(
        opcode,
        O::FAdd
            | O::FMul
            | O::FEq
            | O::FNe
            | O::IAdd
            | O::IMul
            | O::IAnd
            | O::IOr
            | O::IXor
            | O::IEq
            | O::INe
            | O::BAnd
            | O::BOr
            | O::BEq
            | O::BNe
            | O::SMin
            | O::SMax
            | O::UMin
            | O::UMax
    )
}

/// Runs CSE; returns whether anything was replaced.
pub fn run(b: &mut Builder) -> Result<bool, PassError> {
    let mut cfg = None;
    run_with_cfg(b, &mut cfg)
}

/// The control flow graph and dominator tree CSE walks, kept between runs by
/// [`run_with_cfg`] (`None` inside: the program is not in block form).
pub type CfgCache = Option<Option<(Cfg, DominatorTree)>>;

/// [`run`] reusing the CFG and dominator tree in `cache` (built on first use). Valid as long as
/// no block, label or terminator was added, removed or rewritten since the cache was built:
/// CSE reads only each block's label and terminator and walks the ops between them live, so
/// the optimisation loop (which changes only value ops) shares one CFG between its rounds.
pub fn run_with_cfg(b: &mut Builder, cache: &mut CfgCache) -> Result<bool, PassError> {
    let built = cache.get_or_insert_with(|| {
        Cfg::build(b).ok().map(|cfg| {
            let dom = DominatorTree::build(&cfg);
            (cfg, dom)
        })
    });
    let mut t = Table {
        heads: FxHashMap::default(),
        entries: Vec::new(),
        operands: Vec::new(),
        canon: vec![0u32; b.id_bound()],
        replace: Vec::new(),
        scratch: SmallVec::new(),
    };
    // Declarative constants: one global scope, never undone.
    for (def, op) in b.iter() {
        if matches!(op.opcode, OpCode::Constant | OpCode::Undef) {
            t.visit(b, def, op);
        }
    }
    let base = t.entries.len();
    match built {
        Some((cfg, dom)) => {
            let mut stack: Vec<(BlockId, usize, bool)> = Vec::new();
            for &entry in cfg.entries() {
                // Pre-order walk of the dominator tree; each block's entries are undone when
                // its subtree is done, so the table holds exactly the dominating ops.
                stack.push((entry, 0, false));
                while let Some((blk, mark, done)) = stack.pop() {
                    if done {
                        t.undo_to(mark);
                        continue;
                    }
                    let mark = t.entries.len();
                    stack.push((blk, mark, true));
                    let end = cfg.terminator(blk);
                    let mut cur = Some(cfg.label(blk));
                    while let Some(def) = cur {
                        if let Some(op) = b.get(def) {
                            if is_pure_value(op.opcode) && !op.opcode.is_declarative() {
                                t.visit(b, def, op);
                            }
                        }
                        if def == end {
                            break;
                        }
                        cur = b.next(def);
                    }
                    for &child in dom.children(blk).iter().rev() {
                        stack.push((child, 0, false));
                    }
                }
            }
        }
        None => {
            // Not in block form (e.g. scoped control flow): number per straight-line region.
            let mut cur = b.first();
            while let Some(def) = cur {
                cur = b.next(def);
                let op = b.op(def);
                let code = op.opcode;
                if code == OpCode::Label
                    || code.is_scoped()
                    || code == OpCode::Function
                    || code.is_terminator()
                {
                    t.undo_to(base);
                } else if is_pure_value(code) && !code.is_declarative() {
                    t.visit(b, def, op);
                }
            }
        }
    }
    let changed = !t.replace.is_empty();
    for &(old, new) in &t.replace {
        replace_and_remove(b, old, new);
    }
    Ok(changed)
}

/// One op in the value-numbering table. Opcode, flags and type are read from the builder
/// (which does not change during numbering); the operands, mapped to their representatives,
/// live in [`Table::operands`].
struct Entry {
    def: SsaDef,
    hash: u64,
    /// Index + 1 of the previous entry with the same hash (0: none).
    next: u32,
    ops_start: u32,
}

/// The value-numbering table: a hash → entry chain map over a stack of entries, so scoped
/// insertion is undone by popping entries.
struct Table {
    heads: FxHashMap<u64, u32>,
    entries: Vec<Entry>,
    operands: Vec<Operand>,
    /// Representative of each replaced def (0: itself), so duplicates of duplicates are found
    /// in the same run.
    canon: Vec<u32>,
    replace: Vec<(SsaDef, SsaDef)>,
    scratch: SmallVec<[Operand; 8]>,
}

impl Table {
    /// Numbers `op` (at `def`): replaces it by an equal op already in the table, or adds it.
    fn visit(&mut self, b: &Builder, def: SsaDef, op: &crate::Op) {
        // The value-numbering key: reference operands mapped to their representatives,
        // commutative operand pairs ordered.
        let nrefs = op.ref_count();
        self.scratch.clear();
        self.scratch.extend(op.operands.iter().copied());
        for o in self.scratch.iter_mut().take(nrefs) {
            if let Some(&c) = usize::try_from(o.0).ok().and_then(|i| self.canon.get(i)) {
                if c != 0 {
                    o.0 = c as u64;
                }
            }
        }
        if is_commutative(op.opcode)
            && self.scratch.len() == 2
            && self.scratch[0].0 > self.scratch[1].0
        {
            self.scratch.swap(0, 1);
        }
        let mut h = FxHasher::default();
        // The type is compared in place but not hashed: hashing it costs more than the rare
        // collision of equal operands with different types.
        op.opcode.hash(&mut h);
        op.flags.hash(&mut h);
        h.write_usize(self.scratch.len());
        for o in &self.scratch {
            h.write_u64(o.0);
        }
        let hash = h.finish();

        let head = self.heads.get(&hash).copied().unwrap_or(0);
        let mut i = head;
        while i != 0 {
            let e = &self.entries[i as usize - 1];
            let end = self
                .entries
                .get(i as usize)
                .map_or(self.operands.len(), |n| n.ops_start as usize);
            let prev = b.op(e.def);
            if prev.opcode == op.opcode
                && prev.flags == op.flags
                && prev.ty == op.ty
                && self.operands[e.ops_start as usize..end] == self.scratch[..]
            {
                let prev = e.def;
                if let Some(c) = self.canon.get_mut(def.index()) {
                    *c = prev.id();
                }
                self.replace.push((def, prev));
                return;
            }
            i = e.next;
        }
        self.entries.push(Entry {
            def,
            hash,
            next: head,
            ops_start: self.operands.len() as u32,
        });
        self.operands.extend_from_slice(&self.scratch);
        self.heads.insert(hash, self.entries.len() as u32);
    }

    /// Removes every entry added after the table held `mark` entries.
    fn undo_to(&mut self, mark: usize) {
        while self.entries.len() > mark {
            if let Some(e) = self.entries.pop() {
                if e.next == 0 {
                    self.heads.remove(&e.hash);
                } else {
                    self.heads.insert(e.hash, e.next);
                }
                self.operands.truncate(e.ops_start as usize);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::run;
    use crate::passes::test_util::check;

    /// Duplicates (also with swapped operands of commutative ops, and duplicates of
    /// duplicates) are replaced by the dominating op; an op in a sibling branch is not; loads
    /// are never merged; duplicate constants are merged globally.
    #[test]
    fn value_numbering_along_dominator_tree() {
        let input = "
%1 = EntryPoint %10 Pixel
%2 = DclInput f32 %1 0 0 None
%3 = DclOutput vec4<f32> %1 0 0 0
%4 = Constant f32 2.0
%5 = Constant f32 2.0
%6 = DclUav f32 %1 0 0 1 BufferTyped None
%7 = Constant u32 0
%10 = Function void
%11 = Label %16 StructuredSelection
%12 = InputLoad f32 %2 null
%13 = FMul f32 %12 %4
%14 = FMul f32 %5 %12
%15 = FIsNan bool %14
%17 = BranchConditional %15 %18 %16
%18 = Label None
%19 = FMul f32 %12 %4
%20 = FAdd f32 %19 %13
%21 = Branch %16
%16 = Label None
%22 = Phi f32 %11 %12 %18 %20
%23 = FAdd f32 %13 %14
%24 = DescriptorLoad uav %6 %7
%25 = BufferLoad f32 %24 %7 4
%26 = BufferLoad f32 %24 %7 4
%27 = CompositeConstruct vec4<f32> %22 %23 %25 %26
%28 = OutputStore %3 null %27
%29 = Return void null
%30 = FunctionEnd
";
        check(
            input,
            r#"
%1 = EntryPoint %10 Pixel
%2 = DclInput f32 %1 0 0 None
%3 = DclOutput vec4<f32> %1 0 0 0
%4 = Constant f32 2.0
%6 = DclUav f32 %1 0 0 1 BufferTyped None
%7 = Constant u32 0
%10 = Function void
%11 = Label %16 StructuredSelection
%12 = InputLoad f32 %2 null
%13 = FMul f32 %12 %4
%15 = FIsNan bool %13
%17 = BranchConditional %15 %18 %16
%18 = Label None
%20 = FAdd f32 %13 %13
%21 = Branch %16
%16 = Label None
%22 = Phi f32 %11 %12 %18 %20
%23 = FAdd f32 %13 %13
%24 = DescriptorLoad uav %6 %7
%25 = BufferLoad f32 %24 %7 4
%26 = BufferLoad f32 %24 %7 4
%27 = CompositeConstruct vec4<f32> %22 %23 %25 %26
%28 = OutputStore %3 null %27
%29 = Return void null
%30 = FunctionEnd
"#,
            run,
        );
    }
}
