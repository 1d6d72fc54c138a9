//! Common subexpression elimination by hash-based value numbering.
//!
//! Two ops are the same value if they have the same opcode, flags, result type and operands
//! (operands of commutative ops compared as an unordered pair) and the opcode is a pure value
//! ([`OpCode::is_pure`]: no memory reads, no derivatives, no helper-lane dependence, no phis).
//! The later one is replaced by the earlier one.
//!
//! Scope: declarative constants (`Constant`, `Undef`) are numbered globally; code is numbered
//! along the dominator tree ([`DominatorTree`], pre-order walk with a scoped table), so an op
//! is only ever replaced by one that dominates it. Unreachable blocks are left alone. If the
//! program is not in block form yet (scoped control flow), numbering falls back to straight-line
//! regions between control flow ops.

use crate::analysis::{BlockId, Cfg, DominatorTree};
use crate::census::Counted;
use crate::fxhash::FxHasher;
use crate::op::{Operand, SsaDef};
use crate::opcode::OpCode;
use crate::passes::dce;
use crate::passes::error::PassError;
use crate::passes::util::replace_and_remove;
use crate::Builder;
use std::hash::Hasher;

/// Runs CSE; returns whether anything was replaced.
pub fn run(b: &mut Builder) -> Result<bool, PassError> {
    run_with_state(b, &mut State::default())
}

/// The control flow graph and dominator tree CSE walks, kept between runs by
/// [`run_with_cfg`] (`None` inside: the program is not in block form).
pub type CfgCache = Option<Option<(Cfg, DominatorTree)>>;

/// [`run`] reusing the CFG and dominator tree in `cache` (built on first use). Valid as long as
/// no block, label or terminator was added, removed or rewritten since the cache was built:
/// CSE reads only each block's label and terminator and walks the ops between them live, so
/// the optimisation loop (which changes only value ops) shares one CFG between its rounds.
pub fn run_with_cfg(b: &mut Builder, cache: &mut CfgCache) -> Result<bool, PassError> {
    let mut state = State::default();
    match cache.take() {
        Some(Some((cfg, dom))) => {
            state.cfg = cfg;
            state.dom = dom;
            state.built = Some(true);
        }
        Some(None) => state.built = Some(false),
        None => {}
    }
    let result = run_with_state(b, &mut state);
    *cache = match state.built {
        Some(true) => Some(Some((state.cfg, state.dom))),
        Some(false) => Some(None),
        None => None,
    };
    result
}

/// What CSE keeps between runs: the CFG and dominator tree of [`run_with_cfg`] and the
/// table's buffers, so the rounds of the optimisation loop allocate nothing after the first.
/// The same validity rule as for [`CfgCache`] holds: use one `State` only while the CFG does
/// not change, or call [`State::invalidate`] (which keeps the buffers, for the next program).
#[derive(Default)]
pub struct State {
    cfg: Cfg,
    dom: DominatorTree,
    /// `None`: `cfg` and `dom` are out of date; `Some(true)`: they describe the program;
    /// `Some(false)`: the program is not in block form.
    built: Option<bool>,
    /// With `built == Some(false)`: every function is one block, found by
    /// [`one_block_per_function`] (no CFG was built; the straight-line walk numbers exactly
    /// what the dominator-tree walk would).
    one_block: bool,
    table: Table,
    stack: Vec<(BlockId, usize, bool)>,
    /// The users of the values the last run replaced, taken just before each replacement:
    /// the ops whose operands that run changed (see [`State::changed_users`]).
    changed_users: Vec<SsaDef>,
    /// With `dead_valid`: what DCE needs to look at right after the last run (see
    /// [`State::dead_code_candidates`]).
    dead_candidates: Vec<SsaDef>,
    dead_valid: bool,
}

impl State {
    /// Takes the CFG out of the cache (`None` if none was built or the program was not in
    /// block form), for a pass after the optimisation loop that needs the same CFG.
    pub fn take_cfg(&mut self) -> Option<Cfg> {
        (self.built.take() == Some(true)).then(|| std::mem::take(&mut self.cfg))
    }

    /// The CFG buffer and whether it describes the program CSE last ran on, for a pass after
    /// the optimisation loop that needs the same CFG ([`crate::passes::cfg_cleanup::run_in_cfg`]).
    /// The state is out of date afterwards.
    pub fn cfg_buffer(&mut self) -> (&mut Cfg, bool) {
        self.one_block = false;
        let valid = self.built.take() == Some(true);
        (&mut self.cfg, valid)
    }

    /// Marks the CFG out of date (the program changed blocks, or a new program follows),
    /// keeping every buffer.
    pub fn invalidate(&mut self) {
        self.built = None;
        self.one_block = false;
        self.table.replace.clear();
        self.changed_users.clear();
        self.dead_valid = false;
    }

    /// Takes `cfg`, a CFG whose blocks, labels, terminators and edges are the program's (as
    /// [`run_with_cfg`] requires), as the CFG of the next runs, and builds its dominator tree;
    /// `cfg` gets this state's previous CFG buffer in exchange (no allocation either way).
    pub fn adopt_cfg(&mut self, cfg: &mut Cfg) {
        std::mem::swap(&mut self.cfg, cfg);
        self.dom.rebuild(&self.cfg);
        self.built = Some(true);
        self.one_block = false;
    }

    /// Records that every function of the program is a single block with no branch, phi or
    /// construct, as [`one_block_per_function`] finds (the pipeline found it before
    /// `scoped_to_structured`, and no pass since added a block, branch or phi): the next run
    /// numbers along the straight line without checking again. Valid until
    /// [`State::invalidate`], like an adopted CFG.
    pub fn know_one_block_per_function(&mut self) {
        self.built = Some(false);
        self.one_block = true;
    }

    /// True if the last run found every function to be a single block with no branch, phi
    /// or construct (so it built no CFG): then `cfg_cleanup` has nothing to do either (no
    /// empty block to bypass, no unreachable block, no phi). Read before
    /// [`State::cfg_buffer`], which ends it.
    pub fn one_block_per_function(&self) -> bool {
        self.built == Some(false) && self.one_block
    }

    /// The values the last run merged duplicates into (each once per duplicate; empty before
    /// the first run and after [`State::invalidate`]). Their users are the ops whose operands
    /// that run changed.
    pub fn merged(&self) -> impl Iterator<Item = SsaDef> + '_ {
        self.table.replace.iter().map(|&(_, new)| new)
    }

    /// The ops whose operands the last run changed: the users of each value it replaced,
    /// as they were just before the replacement (some may be gone since, replaced
    /// themselves). Empty before the first run and after [`State::invalidate`]. Among the
    /// users of [`State::merged`] values, these are the only ones whose operands changed.
    pub fn changed_users(&self) -> &[SsaDef] {
        &self.changed_users
    }

    /// After a run on a program of one block per function: every op that can be dead code
    /// right after the run, for [`crate::passes::dce::run_from_candidates`]. Those are the
    /// removable code ops that only annotations used when the walk met them, and the
    /// operands of the ops the run replaced (the only ops that lost users since). `None`
    /// after other runs (and after [`State::invalidate`]); valid only until the program next
    /// changes.
    pub fn dead_code_candidates(&self) -> Option<&[SsaDef]> {
        self.dead_valid.then_some(&self.dead_candidates[..])
    }
}

/// [`run_with_cfg`] reusing all of `state` (see [`State`]).
pub fn run_with_state(b: &mut Builder, state: &mut State) -> Result<bool, PassError> {
    let State {
        cfg,
        dom,
        built,
        one_block,
        table,
        stack,
        changed_users,
        dead_candidates,
        dead_valid,
    } = state;
    dead_candidates.clear();
    *dead_valid = false;
    let in_blocks = match *built {
        Some(x) => x,
        None => {
            // One block per function (most small shaders): the straight-line walk below
            // numbers the same ops in the same order as the dominator-tree walk, without a
            // CFG or dominator tree to build.
            *one_block = one_block_per_function(b);
            let ok = !*one_block && cfg.rebuild(b).is_ok();
            if ok {
                dom.rebuild(cfg);
            }
            *built = Some(ok);
            ok
        }
    };
    let t = table;
    t.reset(b.id_bound());
    // Declarative constants: one global scope, never undone. Nothing to merge when the
    // builder knows its constants to be distinct and there is at most one `Undef`.
    if !b.constants_are_unique() || b.census().count(Counted::Undef) > 1 {
        for (def, op) in b.declarations() {
            if matches!(op.opcode, OpCode::Constant | OpCode::Undef) {
                t.visit(b, def, op);
            }
        }
    }
    let base = t.entries.len();
    if in_blocks {
        stack.clear();
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
                        if op.opcode.is_pure() && !op.opcode.is_declarative() {
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
    } else {
        // Not in block form (e.g. scoped control flow), or one block per function: number
        // per straight-line region (declarations are not numbered here).
        let mut cur = if *one_block {
            b.first_code()
        } else {
            b.first()
        };
        // One block per function: the walk meets every code op, so it also gathers what DCE
        // needs to start from.
        *dead_valid = *one_block;
        let gather = *one_block;
        while let Some(def) = cur {
            cur = b.next(def);
            let op = b.op(def);
            let code = op.opcode;
            // (A first user that is no annotation keeps the op; DCE looks at all uses of
            // the others.)
            if gather
                && dce::is_removable_code(code)
                && match b.uses(def).next() {
                    None => true,
                    Some(u) => b.get(u.user).is_some_and(|o| o.opcode.is_annotation()),
                }
            {
                dead_candidates.push(def);
            }
            match STRAIGHT_KINDS[code as usize & (STRAIGHT_KINDS.len() - 1)] {
                REGION_END => t.undo_to(base),
                NUMBERED => t.visit(b, def, op),
                _ => {}
            }
        }
    }
    let changed = !t.replace.is_empty();
    changed_users.clear();
    for &(old, new) in &t.replace {
        changed_users.extend(b.uses(old).map(|u| u.user));
        if *dead_valid {
            // A constant or `Undef` (merged declarations) replacing a value can make
            // `replace_and_remove` drop other ops too: DCE then looks at everything.
            if b.get(new).is_some_and(|o| o.opcode.is_declarative()) {
                *dead_valid = false;
            }
            if let Some(op) = b.get(old) {
                dead_candidates.extend(op.refs().flatten());
            }
        }
        replace_and_remove(b, old, new);
    }
    Ok(changed)
}

/// True if the code of `b` is functions of exactly one block each, `Label None` first, then
/// code up to one terminator that is no branch, and no phi and no code outside a function: a
/// program [`Cfg::rebuild`] accepts with one block per function and no edge, found with a walk
/// that costs much less than building the CFG. The label count is checked first (from the
/// census), so programs with more blocks than functions are not walked.
pub(crate) fn one_block_per_function(b: &Builder) -> bool {
    use crate::enums::Construct;
    #[derive(PartialEq)]
    enum At {
        Outside,
        Entry,
        InBlock,
        Ended,
    }
    let census = b.census();
    if census.count(Counted::Label) != census.count(Counted::Function)
        || census.has(Counted::Scoped)
    {
        return false;
    }
    let Some(first) = b.first_code() else {
        return true;
    };
    let mut at = At::Outside;
    for (_, op) in b.iter_from(first) {
        let code = op.opcode;
        // The common steps from one table lookup; the rest as the rules say.
        match (LINE_KINDS[code as usize & (LINE_KINDS.len() - 1)], &at) {
            (LINE_PLAIN, At::InBlock) | (LINE_DECLARATION, _) => continue,
            (LINE_END, At::InBlock) => {
                at = At::Ended;
                continue;
            }
            _ => {}
        }
        at = match (code, at) {
            (OpCode::Function, At::Outside) => At::Entry,
            (OpCode::FunctionEnd, At::Ended) => At::Outside,
            (OpCode::Label, At::Entry) if op.construct() == Some(Construct::None) => At::InBlock,
            (OpCode::Phi, _) => return false,
            (_, at) if code.is_declarative() => at,
            (_, At::InBlock) if code.is_terminator() && !code.is_control_flow() => At::Ended,
            (_, At::InBlock) if !code.is_control_flow() => At::InBlock,
            _ => return false,
        };
    }
    at == At::Outside
}

/// What the straight-line walk of [`run_with_state`] does at an op of each opcode (by
/// discriminant, masked to the table's size): [`REGION_END`], [`NUMBERED`] or nothing (0).
static STRAIGHT_KINDS: [u8; 1024] = crate::opcode::opcode_table!(1024, 0u8, straight_kind);

/// Ends a straight-line region (`Label`, `Function`, scoped control flow, terminators).
const REGION_END: u8 = 1;
/// A pure code op: numbered.
const NUMBERED: u8 = 2;

const fn straight_kind(op: OpCode) -> u8 {
    use crate::opcode::{OpClass, Traits};
    let info = op.const_info();
    if matches!(op, OpCode::Label | OpCode::Function)
        || info.traits.contains(Traits::SCOPED)
        || info.traits.contains(Traits::TERMINATOR)
    {
        REGION_END
    } else if info.traits.contains(Traits::PURE) && !matches!(info.class, OpClass::Declaration) {
        NUMBERED
    } else {
        0
    }
}

/// What [`one_block_per_function`] makes of each opcode (by discriminant, masked to the
/// table's size) without looking further: [`LINE_PLAIN`], [`LINE_END`],
/// [`LINE_DECLARATION`], or 0 for the opcodes its rules look at one by one (`Function`,
/// `FunctionEnd`, `Label`, `Phi` and other control flow).
static LINE_KINDS: [u8; 1024] = crate::opcode::opcode_table!(1024, 0u8, line_kind);

/// Code that neither ends a block nor is control flow: stays in the block.
const LINE_PLAIN: u8 = 1;
/// A terminator that is no branch (`Return`, ...): ends the function's one block.
const LINE_END: u8 = 2;
/// A declaration: changes nothing.
const LINE_DECLARATION: u8 = 3;

const fn line_kind(op: OpCode) -> u8 {
    use crate::opcode::{OpClass, Traits};
    if matches!(
        op,
        OpCode::Function | OpCode::FunctionEnd | OpCode::Label | OpCode::Phi
    ) {
        return 0;
    }
    let info = op.const_info();
    let control_flow = info.traits.contains(Traits::CONTROL_FLOW);
    if matches!(info.class, OpClass::Declaration) {
        LINE_DECLARATION
    } else if info.traits.contains(Traits::TERMINATOR) && !control_flow {
        LINE_END
    } else if !control_flow {
        LINE_PLAIN
    } else {
        0
    }
}

/// One op in the value-numbering table. Opcode, flags and type are read from the builder
/// (which does not change during numbering); the operands, mapped to their representatives,
/// live in [`Table::operands`].
struct Entry {
    def: SsaDef,
    hash: u32,
    /// The slot of [`Table::slots`] that points at this entry.
    slot: u32,
    ops_start: u32,
    ops_len: u32,
}

/// The value-numbering table: an open-addressed (linear probing) index over a stack of
/// entries. Scoped insertion is undone by popping entries and clearing their slots, which is
/// exact because removal is last-in first-out: no entry still in the table was placed past a
/// slot that was occupied by a later entry.
#[derive(Default)]
struct Table {
    /// Entry index + 1 per slot (0: empty); the length is a power of two, more than twice
    /// the most entries a run can add.
    slots: Vec<u32>,
    entries: Vec<Entry>,
    operands: Vec<Operand>,
    /// Representative of each replaced def (0: itself), so duplicates of duplicates are found
    /// in the same run.
    canon: Vec<u32>,
    replace: Vec<(SsaDef, SsaDef)>,
}

impl Table {
    /// Empties the table for a program whose ids are below `id_bound`.
    fn reset(&mut self, id_bound: usize) {
        // Every entry is a distinct live op, so there are fewer than `id_bound` of them.
        let size = (id_bound * 2).max(16).next_power_of_two();
        self.slots.clear();
        self.slots.resize(size, 0);
        self.entries.clear();
        self.operands.clear();
        self.canon.clear();
        self.canon.resize(id_bound, 0);
        self.replace.clear();
    }

    /// Numbers `op` (at `def`): replaces it by an equal op already in the table, or adds it.
    // Inlined into each walk: the call's register saves and restores cost more than the
    // numbering of a typical op (~15% of CSE).
    #[inline(always)]
    fn visit(&mut self, b: &Builder, def: SsaDef, op: &crate::Op) {
        // The value-numbering key, built at the end of `operands` (kept there if the op is
        // new): reference operands mapped to their representatives, commutative operand
        // pairs ordered.
        let nrefs = op.ref_count();
        let start = self.operands.len();
        let canon = &self.canon;
        self.operands
            .extend(op.operands.iter().enumerate().map(|(i, o)| {
                let mut v = o.0;
                if i < nrefs {
                    if let Some(&c) = usize::try_from(v).ok().and_then(|i| canon.get(i)) {
                        if c != 0 {
                            v = u64::from(c);
                        }
                    }
                }
                Operand(v)
            }));
        let key = &mut self.operands[start..];
        if op.opcode.is_commutative() && key.len() == 2 && key[0].0 > key[1].0 {
            key.swap(0, 1);
        }
        let mut h = FxHasher::default();
        // The type is compared in place but not hashed: hashing it costs more than the rare
        // collision of equal operands with different types. Opcode, flags and operand count
        // go in as one word.
        h.write_u64(op.opcode as u64 | u64::from(op.flags.0) << 16 | (key.len() as u64) << 24);
        for o in key.iter() {
            h.write_u64(o.0);
        }
        let full = h.finish();
        // The high bits of an Fx hash are the best mixed: they pick the slot; the low bits
        // are kept to skip most unequal entries on the probe path cheaply.
        let hash = full as u32;
        let mask = self.slots.len() - 1;
        let mut slot = (full.rotate_left(20) as usize) & mask;
        loop {
            let e = self.slots[slot];
            if e == 0 {
                break;
            }
            let entry = &self.entries[e as usize - 1];
            if entry.hash == hash {
                let prev = b.op(entry.def);
                let ops = &self.operands[entry.ops_start as usize..][..entry.ops_len as usize];
                if prev.opcode == op.opcode
                    && prev.flags == op.flags
                    && prev.ty == op.ty
                    && ops == &self.operands[start..]
                {
                    let prev = entry.def;
                    if let Some(c) = self.canon.get_mut(def.index()) {
                        *c = prev.id();
                    }
                    self.replace.push((def, prev));
                    self.operands.truncate(start);
                    return;
                }
            }
            slot = (slot + 1) & mask;
        }
        self.entries.push(Entry {
            def,
            hash,
            slot: slot as u32,
            ops_start: start as u32,
            ops_len: (self.operands.len() - start) as u32,
        });
        self.slots[slot] = self.entries.len() as u32;
    }

    /// Removes every entry added after the table held `mark` entries.
    fn undo_to(&mut self, mark: usize) {
        while self.entries.len() > mark {
            if let Some(e) = self.entries.pop() {
                self.slots[e.slot as usize] = 0;
                self.operands.truncate(e.ops_start as usize);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::{parse, print};

    const ONE_BLOCK: &str = "\
%1 = EntryPoint %10 Pixel
%2 = DclInput f32 %1 0 0 None
%3 = DclOutput vec2<f32> %1 0 0 0
%4 = Constant f32 2.0
%10 = Function void
%11 = Label None
%12 = InputLoad f32 %2 null
%13 = FMul f32 %12 %4
%14 = FMul f32 %4 %12
%15 = FAdd f32 %13 %14
%16 = FAdd f32 %14 %13
%17 = CompositeConstruct vec2<f32> %15 %16
%18 = OutputStore %3 null %17
%19 = Return void null
%20 = FunctionEnd
";

    /// CSE of `text` as the pipeline runs it (finding its own CFG or none), and with a CFG
    /// adopted first (the dominator-tree walk): the printed results, and whether the first
    /// run found one block per function.
    fn both_walks(text: &str) -> (String, String, bool) {
        let mut fast = parse(text).unwrap();
        let mut state = State::default();
        run_with_state(&mut fast, &mut state).unwrap();
        let one_block = state.one_block_per_function();
        let mut slow = parse(text).unwrap();
        let mut state = State::default();
        let mut cfg = Cfg::build(&slow).unwrap();
        state.adopt_cfg(&mut cfg);
        run_with_state(&mut slow, &mut state).unwrap();
        assert!(!state.one_block_per_function());
        (print(&fast), print(&slow), one_block)
    }

    #[test]
    fn one_block_functions_number_like_the_dominator_tree_walk() {
        let (fast, slow, one_block) = both_walks(ONE_BLOCK);
        assert!(one_block);
        assert_eq!(fast, slow);
        // The commutative duplicates and then their sums merged.
        assert!(!fast.contains("%14 ="), "{fast}");
        assert!(!fast.contains("%16 ="), "{fast}");
        assert!(
            fast.contains("%17 = CompositeConstruct vec2<f32> %15 %15"),
            "{fast}"
        );
    }

    #[test]
    fn line_kinds_follow_the_opcode_table() {
        for &op in OpCode::ALL {
            let special = matches!(
                op,
                OpCode::Function | OpCode::FunctionEnd | OpCode::Label | OpCode::Phi
            );
            let expected = if special {
                0
            } else if op.is_declarative() {
                LINE_DECLARATION
            } else if op.is_terminator() && !op.is_control_flow() {
                LINE_END
            } else if !op.is_control_flow() {
                LINE_PLAIN
            } else {
                0
            };
            assert_eq!(LINE_KINDS[op as usize], expected, "{op:?}");
        }
    }

    #[test]
    fn straight_kinds_follow_the_opcode_table() {
        for &op in OpCode::ALL {
            let expected = if op == OpCode::Label
                || op.is_scoped()
                || op == OpCode::Function
                || op.is_terminator()
            {
                REGION_END
            } else if op.is_pure() && !op.is_declarative() {
                NUMBERED
            } else {
                0
            };
            assert_eq!(STRAIGHT_KINDS[op as usize], expected, "{op:?}");
        }
    }

    #[test]
    fn changed_users_are_the_users_of_the_replaced_values() {
        let mut b = parse(ONE_BLOCK).unwrap();
        let mut state = State::default();
        assert!(run_with_state(&mut b, &mut state).unwrap());
        // %14 (users %15, %16) and then %16 (user %17) were replaced; %16 went itself.
        let mut ids: Vec<u32> = state.changed_users().iter().map(|d| d.id()).collect();
        ids.sort_unstable();
        assert_eq!(ids, [15, 16, 17]);
        state.invalidate();
        assert!(state.changed_users().is_empty());
    }

    #[test]
    fn programs_with_branches_or_more_blocks_build_a_cfg() {
        let two_blocks = ONE_BLOCK.replace(
            "%19 = Return void null",
            "%21 = Branch %22\n%22 = Label None\n%19 = Return void null",
        );
        let (fast, slow, one_block) = both_walks(&two_blocks);
        assert!(!one_block);
        assert_eq!(fast, slow);
        // Code after the terminator, before the next label: not one block.
        let stray = ONE_BLOCK.replace(
            "%20 = FunctionEnd",
            "%21 = FAdd f32 %15 %15\n%20 = FunctionEnd",
        );
        let b = parse(&stray).unwrap();
        assert!(!one_block_per_function(&b));
        // The program itself is one block.
        let b = parse(ONE_BLOCK).unwrap();
        assert!(one_block_per_function(&b));
        let census_ok =
            parse(&ONE_BLOCK.replace("%11 = Label None", "%11 = Label None\n%21 = Phi f32"));
        if let Ok(b) = census_ok {
            assert!(!one_block_per_function(&b));
        }
    }
}
