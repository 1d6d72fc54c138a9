//! The validator's rules for block-form functions that need the control flow graph: SSA
//! dominance, phi predecessors, and SPIR-V's structured control flow (SPIR-V 2.11, with the
//! constructs of 2.2.5) as the SPIR-V backend will emit the program.
//!
//! # What is checked, and against which graph
//! The backend emits every block as it is: a `StructuredLoop` block ending in `Branch` or
//! `BranchConditional` gets an `OpLoopMerge`, a `StructuredSelection` block ending in
//! `BranchConditional` or `Switch` an `OpSelectionMerge`; other construct labels declare
//! nothing. So the rules follow what `spirv-val` checks on that output:
//!
//! - **Values and block order** ([`Rule::SsaDominance`], [`Rule::PhiPredecessors`],
//!   [`Rule::PhiDominance`], [`Rule::BlockOrder`]) use the branch edges and their dominator
//!   tree. Like `spirv-val`, uses in unreachable blocks and phi values from unreachable
//!   predecessors are not checked; a definition in an unreachable block dominates no reachable
//!   use. Order within one block is [`Rule::ForwardReference`]'s business.
//! - **Branch shape** ([`Rule::EntryBlockTarget`], [`Rule::SameTargets`],
//!   [`Rule::DuplicateMerge`], [`Rule::LoopHeaderTerminator`]) is checked in every block,
//!   reachable or not, as `spirv-val` checks every instruction.
//! - **Structure** (the other rules) uses SPIR-V's *structural* graph: the branch edges plus an
//!   edge from each header to its merge block and continue target ([`Edges::Structural`]).
//!   "Reachable" and "dominates" below mean in that graph. Back edges are found as `spirv-val`
//!   finds them: by a depth-first walk of that graph from a pseudo entry (the function's entry,
//!   then every block without predecessors, then whatever is left, in program order), a branch
//!   to a block on the current walk path is a back edge. On a reducible graph those are exactly
//!   the branches to a dominator. "Selection must be structured" ([`Rule::UnstructuredBranch`])
//!   follows `spirv-val`'s walk in reverse post-order.
//!
//! # Constructs
//! Once every reachable header strictly dominates its merge block and continue target (so in
//! the dominator tree they are its children) and every loop has its one back-edge block `E`
//! inside the continue construct, the constructs nest, and one walk down the dominator tree
//! gives every reachable block its *innermost construct*: a header opens its construct for its
//! subtree, except for its merge block's subtree (back to the enclosing construct) and its
//! continue target's (the continue construct); the children of `E` leave the continue
//! construct. This matches SPIR-V's definitions (a selection or loop construct is what the
//! header dominates and its merge block does not, a loop's also not what the continue target
//! dominates; a continue construct is what the continue target dominates and `E` does not,
//! and `E`), except that SPIR-V also counts blocks that `E` dominates *and* post-dominates to
//! the continue construct, which only happens when `E` heads a loop of its own.
//!
//! A branch `P -> B` is then checked in O(1) against the innermost constructs `Kp` of `P` and
//! `Kb` of `B`: it stays inside (`Kp == Kb`), enters a construct nested directly in `Kp`
//! through its header, or leaves through a structured exit: a selection's merge block from the
//! selection itself; a switch's merge block from the switch or a plain selection nested in it;
//! a loop's merge block or continue target from the loop construct or a selection or switch
//! nested in it; the loop header or merge block from the back-edge block. Only the back-edge
//! block may leave a continue construct, and nothing in it may return: that is SPIR-V's rule
//! that the back-edge block post-dominates the continue target. The exact complaint, when there
//! is one, is worked out by walking the construct tree, which only errors pay for.
//!
//! Inside a switch, the case construct of a block is the case target above it in the
//! dominator tree (a child of the switch header). A branch between case constructs must go to
//! a case target; each case construct falls through to one other at most, to the target
//! listed right after its own, and no two fall through to the same one ([`Rule::SwitchCase`];
//! like `spirv-val`, only blocks that branches reach from the case target count).
//!
//! A header is never its own merge block or continue target here: [`Rule::ForwardReference`]
//! refuses an op naming itself.
//!
//! # Where this is stricter or looser than `spirv-val` (2023.1)
//! - A `StructuredLoop` header must branch, although the backend would just leave out the
//!   `OpLoopMerge` of one that returns: `cfg_cleanup` still treats it as a loop.
//! - Every reachable loop header must dominate its continue target; `spirv-val` lets the
//!   function's entry block be one.
//! - Unreachable blocks that branch to a continue target are not refused (`spirv-val` 2023.1
//!   does): the passes leave such blocks behind for `cfg_cleanup` to remove. Its other checks of
//!   unreachable code follow real dominance where the ones here follow structural dominance,
//!   which differs only in blocks `cfg_cleanup` removes.
//!
//! # Cost
//! Linear in the size of the program: two CFGs, two dominator trees, one walk each for the
//! pseudo-entry search, the construct tree, the branches and the switches. The buffers are kept
//! per thread, so a warm check allocates nothing (except for the messages of errors).

use super::{FuncInfo, Level, Rule, ValidationError, MAX_ERRORS};
use crate::analysis::cfg::{BlockId, Cfg, Edges};
use crate::analysis::dominance::DominatorTree;
use crate::builder::Builder;
use crate::enums::Construct;
use crate::op::SsaDef;
use crate::opcode::{OpCode, Role};
use std::cell::Cell;

const NONE: u32 = u32::MAX;

/// The buffers of one [`check`], kept per thread between validations (the validator runs
/// after every pass in tests), so a warm check allocates nothing. Holds no program state
/// between calls: everything is rebuilt or reset before use.
#[derive(Default)]
struct Scratch {
    cfg: Cfg,
    scfg: Cfg,
    dom: DominatorTree,
    sdom: DominatorTree,
    blocks: Vec<BlockInfo>,
    nodes: Vec<Node>,
    stack: Vec<(BlockId, u32)>,
    roots: Vec<BlockId>,
    bad: Vec<(BlockId, BlockId)>,
}

thread_local! {
    static SCRATCH: Cell<Option<Box<Scratch>>> = const { Cell::new(None) };
}

/// Checks the block-form functions of `b` (those `funcs` marks as such at `level`, in program
/// order) and appends what it finds to `errors`, up to [`MAX_ERRORS`]. Assumes the rest of the
/// validator found nothing: blocks are well formed and every branch targets a label of its own
/// function.
pub(super) fn check(
    b: &Builder,
    level: Level,
    funcs: &[FuncInfo],
    errors: &mut Vec<ValidationError>,
) {
    // Without a block-form function every function is skipped: the graphs would be empty.
    if !funcs.iter().any(|f| f.block_form(level)) {
        return;
    }
    let mut scratch = SCRATCH.with(Cell::take).unwrap_or_default();
    check_with(b, level, funcs, errors, &mut scratch);
    SCRATCH.with(|s| s.set(Some(scratch)));
}

fn check_with(
    b: &Builder,
    level: Level,
    funcs: &[FuncInfo],
    errors: &mut Vec<ValidationError>,
    s: &mut Scratch,
) {
    let Scratch {
        cfg,
        scfg,
        dom,
        sdom,
        blocks,
        nodes,
        stack,
        roots,
        bad,
    } = s;
    if cfg
        .rebuild_with(b, Edges::Branches, skip_scoped(funcs, level, false))
        .is_err()
        || cfg.is_empty()
    {
        return;
    }
    dom.rebuild(cfg);
    blocks.clear();
    blocks.resize(cfg.len(), BlockInfo::default());
    let unstructured = funcs.iter().filter(|f| f.unstructured(level)).count();
    if unstructured > 0 {
        // Unstructured functions: values and phis, and no branch to an entry block. Block
        // order and structure are checked for the other block-form functions only, on graphs
        // built without the unstructured ones.
        let mut c = Checker {
            b,
            cfg,
            errors: &mut *errors,
            blocks: &mut *blocks,
        };
        c.check_values(dom);
        c.check_entry_targets();
        let structured = funcs.iter().filter(|f| f.block_form(level)).count() - unstructured;
        if structured == 0
            || cfg
                .rebuild_with(b, Edges::Branches, skip_scoped(funcs, level, true))
                .is_err()
        {
            return;
        }
        dom.rebuild(cfg);
        blocks.clear();
        blocks.resize(cfg.len(), BlockInfo::default());
    }
    let mut c = Checker {
        b,
        cfg,
        errors,
        blocks,
    };
    c.check_block_order(dom);
    if unstructured == 0 {
        c.check_values(dom);
    }
    if scfg
        .rebuild_with(b, Edges::Structural, skip_scoped(funcs, level, true))
        .is_err()
        || scfg.len() != cfg.len()
    {
        return;
    }
    sdom.rebuild(scfg);
    nodes.clear();
    let mut w = Structure {
        scfg,
        sdom,
        nodes,
        stack,
        roots,
        bad,
        numbered: false,
    };
    c.check_structure(&mut w);
}

/// The function filter for [`Cfg::rebuild_with`]: skips the functions that are not in block
/// form, and with `structured_only` those in unstructured block form too (the `k`-th call is
/// about the `k`-th function).
fn skip_scoped(
    funcs: &[FuncInfo],
    level: Level,
    structured_only: bool,
) -> impl FnMut(SsaDef) -> bool + '_ {
    let mut k = 0;
    move |_| {
        let skip = !funcs
            .get(k)
            .is_some_and(|f| f.block_form(level) && !(structured_only && f.unstructured(level)));
        k += 1;
        skip
    }
}

/// The kind of a construct; `Function` is the root around a function's body.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Function,
    Selection,
    Switch,
    Loop,
    Continue,
}

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Kind::Function => "function body",
            Kind::Selection => "selection",
            Kind::Switch => "switch",
            Kind::Loop => "loop",
            Kind::Continue => "continue",
        }
    }
}

/// A construct header as the backend emits it.
#[derive(Clone, Copy, Debug)]
struct Header {
    /// `Selection`, `Switch` or `Loop`.
    kind: Kind,
    merge: BlockId,
    /// The continue target of a loop; the merge block otherwise.
    cont: BlockId,
}

/// What one check knows about one block.
#[derive(Clone, Copy, Debug)]
struct BlockInfo {
    /// The construct it heads, as emitted.
    header: Option<Header>,
    /// The phi (by serial number) that last marked it as a predecessor of its block, and as
    /// named by one of its operands.
    is_pred: u32,
    named: u32,
    /// The first header naming it as merge block (any header, for the uniqueness rule; then
    /// reachable ones, for the branch rules).
    merge_of: u32,
    /// The reachable loop header naming it as continue target.
    cont_of: u32,
    /// For a loop header: a back-edge block, and how many there are.
    back_edge: u32,
    back_edges: u32,
    /// The loop header whose one back-edge block it is.
    latch_of: u32,
    /// Its innermost construct (`NONE` if unreachable).
    innermost: u32,
    /// For a header: the construct it heads; for a loop header also its continue construct.
    own: u32,
    cont: u32,
    /// The case target of the innermost switch whose case construct holds the block (a child
    /// of the switch header in the dominator tree; meaningful directly in the switch).
    case_root: u32,
    /// For a case target: the switch header naming it, the case target its case construct
    /// falls through to, and how many case constructs fall through to it.
    case_of: u32,
    falls_to: u32,
    fallen_into: u32,
    /// Depth-first walk state: 0 unvisited, 1 on the walk path, 2 done.
    walk: u8,
    /// Reached from a pseudo-entry root.
    rooted: bool,
    /// For the unstructured-branch rule: a merge block, continue target or branch target seen.
    seen: bool,
}

impl Default for BlockInfo {
    fn default() -> Self {
        BlockInfo {
            header: None,
            is_pred: 0,
            named: 0,
            merge_of: NONE,
            cont_of: NONE,
            back_edge: NONE,
            back_edges: 0,
            latch_of: NONE,
            innermost: NONE,
            own: NONE,
            cont: NONE,
            case_root: NONE,
            case_of: NONE,
            falls_to: NONE,
            fallen_into: 0,
            walk: 0,
            rooted: false,
            seen: false,
        }
    }
}

/// One node of the construct tree.
#[derive(Clone, Copy, Debug)]
struct Node {
    kind: Kind,
    /// The header block (of a continue construct: its loop's header).
    header: BlockId,
    /// The block the construct is entered through: the header or the continue target.
    entry: BlockId,
    parent: u32,
    /// The nearest ancestor-or-self that is a loop or continue construct.
    nearest_loop: u32,
    /// The nearest ancestor-or-self that is a switch, loop or continue construct.
    nearest_breakable: u32,
    /// The nearest ancestor-or-self that is a continue construct.
    nearest_continue: u32,
    /// Pre- and post-order numbers in the tree (for ancestor queries; numbered on the first
    /// error that needs them).
    pre: u32,
    post: u32,
}

/// The structural graph and the construct tree of one check.
struct Structure<'s> {
    scfg: &'s Cfg,
    sdom: &'s DominatorTree,
    nodes: &'s mut Vec<Node>,
    stack: &'s mut Vec<(BlockId, u32)>,
    roots: &'s mut Vec<BlockId>,
    bad: &'s mut Vec<(BlockId, BlockId)>,
    numbered: bool,
}

impl Structure<'_> {
    fn add(&mut self, kind: Kind, header: BlockId, entry: BlockId, parent: u32) -> u32 {
        let id = self.nodes.len() as u32;
        let up = self.nodes.get(parent as usize).copied();
        let up = |f: fn(&Node) -> u32| up.as_ref().map_or(NONE, f);
        let node = Node {
            kind,
            header,
            entry,
            parent,
            nearest_loop: if matches!(kind, Kind::Loop | Kind::Continue) {
                id
            } else {
                up(|n| n.nearest_loop)
            },
            nearest_breakable: if matches!(kind, Kind::Switch | Kind::Loop | Kind::Continue) {
                id
            } else {
                up(|n| n.nearest_breakable)
            },
            nearest_continue: if kind == Kind::Continue {
                id
            } else {
                up(|n| n.nearest_continue)
            },
            pre: NONE,
            post: NONE,
        };
        self.nodes.push(node);
        id
    }

    fn node(&self, k: u32) -> Option<&Node> {
        self.nodes.get(k as usize)
    }

    /// Numbers the construct tree once (only error reports ask).
    fn number(&mut self) {
        if std::mem::replace(&mut self.numbered, true) {
            return;
        }
        let nodes = &mut *self.nodes;
        let n = nodes.len();
        let mut off = vec![0u32; n + 1];
        for node in nodes.iter().filter(|node| node.parent != NONE) {
            if let Some(slot) = off.get_mut(node.parent as usize + 1) {
                *slot += 1;
            }
        }
        for i in 0..n {
            off[i + 1] += off[i];
        }
        let mut fill = off.clone();
        let mut children = vec![0u32; n];
        for (k, node) in nodes.iter().enumerate() {
            if let Some(slot) = fill.get_mut(node.parent as usize) {
                children[*slot as usize] = k as u32;
                *slot += 1;
            }
        }
        let mut clock = 0;
        let mut stack: Vec<(u32, u32)> = Vec::new();
        for root in 0..n {
            if nodes[root].parent != NONE {
                continue;
            }
            nodes[root].pre = clock;
            clock += 1;
            stack.push((root as u32, off[root]));
            while let Some(top) = stack.last_mut() {
                let (k, next) = *top;
                if next < off[k as usize + 1] {
                    top.1 += 1;
                    let c = children[next as usize];
                    nodes[c as usize].pre = clock;
                    clock += 1;
                    stack.push((c, off[c as usize]));
                } else {
                    nodes[k as usize].post = clock;
                    clock += 1;
                    stack.pop();
                }
            }
        }
    }

    /// True if construct `a` contains construct `k` (or is it); needs [`Structure::number`].
    fn contains(&self, a: u32, k: u32) -> bool {
        match (self.node(a), self.node(k)) {
            (Some(a), Some(k)) => a.pre <= k.pre && k.post <= a.post,
            _ => false,
        }
    }
}

struct Checker<'a> {
    b: &'a Builder,
    cfg: &'a Cfg,
    errors: &'a mut Vec<ValidationError>,
    blocks: &'a mut Vec<BlockInfo>,
}

impl Checker<'_> {
    fn full(&self) -> bool {
        self.errors.len() >= MAX_ERRORS
    }

    fn err(&mut self, def: SsaDef, rule: Rule, operand: Option<usize>, detail: String) {
        if self.full() {
            return;
        }
        self.errors.push(ValidationError {
            def: Some(def),
            opcode: self.b.get(def).map(|o| o.opcode),
            rule,
            operand,
            detail,
        });
    }

    fn label(&self, blk: BlockId) -> SsaDef {
        self.cfg.label(blk)
    }

    fn info(&mut self, blk: BlockId) -> &mut BlockInfo {
        &mut self.blocks[blk.index()]
    }

    fn header_of(&self, blk: u32) -> Option<Header> {
        self.blocks.get(blk as usize).and_then(|i| i.header)
    }

    /// The block `def` is defined in, if it is a value defined in a block (not a label).
    fn def_block(&self, def: SsaDef) -> Option<BlockId> {
        let blk = self.cfg.block_of(def)?;
        (self.cfg.label(blk) != def).then_some(blk)
    }

    // ------------------------------------------------------------------ values

    /// Every reachable block after its immediate dominator in program order (SPIR-V's block
    /// order rule, which makes every definition precede its uses).
    fn check_block_order(&mut self, dom: &DominatorTree) {
        for blk in self.cfg.blocks() {
            if let Some(idom) = dom.idom(blk).filter(|d| d.0 > blk.0) {
                let detail = format!(
                    "block {} comes before its immediate dominator {}",
                    self.label(blk),
                    self.label(idom)
                );
                self.err(self.label(blk), Rule::BlockOrder, None, detail);
            }
        }
    }

    /// SSA dominance of every use, and the phis' predecessors and values.
    fn check_values(&mut self, dom: &DominatorTree) {
        let mut serial = 0u32;
        let b = self.b;
        for (def, op) in b.iter() {
            if self.full() {
                return;
            }
            let Some(ub) = self.cfg.block_of(def) else {
                continue;
            };
            match op.opcode {
                OpCode::Label => {}
                OpCode::Phi => {
                    serial += 1;
                    self.check_phi(dom, def, ub, serial);
                }
                _ if dom.is_reachable(ub) => {
                    for (i, d) in op.refs().enumerate() {
                        let Some((d, db)) = d.and_then(|d| Some((d, self.def_block(d)?))) else {
                            continue;
                        };
                        let later_in_block = db == ub
                            && self.cfg.position(d).unwrap_or(0)
                                >= self.cfg.position(def).unwrap_or(0);
                        if later_in_block {
                            // (Only unstructured functions get here: elsewhere a later
                            // definition is a forward reference.)
                            let detail = format!("{d} comes later in its block");
                            self.err(def, Rule::SsaDominance, Some(i), detail);
                        } else if db != ub && !dom.dominates(db, ub) {
                            let detail = format!(
                                "{d} is defined in block {}, which does not dominate this use \
                                 in block {}",
                                self.label(db),
                                self.label(ub)
                            );
                            self.err(def, Rule::SsaDominance, Some(i), detail);
                        }
                    }
                }
                _ => {}
            }
        }
    }

    /// No branch targets a function's entry block (checked here for unstructured functions;
    /// `check_headers` checks the others).
    fn check_entry_targets(&mut self) {
        let cfg = self.cfg;
        for blk in cfg.blocks() {
            for &s in cfg.succs(blk) {
                if cfg.is_entry(s) {
                    let term = cfg.terminator(blk);
                    let operand = self.target_operand(term, s);
                    let detail = format!("{} is the entry block of its function", self.label(s));
                    self.err(term, Rule::EntryBlockTarget, operand, detail);
                }
            }
        }
    }

    fn check_phi(&mut self, dom: &DominatorTree, def: SsaDef, blk: BlockId, serial: u32) {
        let Some(op) = self.b.get(def) else { return };
        let cfg = self.cfg;
        for &p in cfg.preds(blk) {
            self.info(p).is_pred = serial;
        }
        let mut listed = 0;
        for (j, pair) in op.operands.chunks(2).enumerate() {
            let (Some(l), Some(v)) = (
                pair.first().and_then(|o| o.def()),
                pair.get(1).and_then(|o| o.def()),
            ) else {
                continue;
            };
            let Some(lb) = cfg.block_of_label(l) else {
                continue;
            };
            if self.info(lb).is_pred != serial {
                let detail = format!("{l} is not a predecessor of block {}", self.label(blk));
                self.err(def, Rule::PhiPredecessors, Some(2 * j), detail);
                continue;
            }
            if std::mem::replace(&mut self.info(lb).named, serial) == serial {
                let detail = format!("{l} is named twice");
                self.err(def, Rule::PhiPredecessors, Some(2 * j), detail);
                continue;
            }
            listed += 1;
            let Some(vb) = self.def_block(v) else {
                continue;
            };
            if dom.is_reachable(blk) && dom.is_reachable(lb) && !dom.dominates(vb, lb) {
                let detail = format!(
                    "{v} is defined in block {}, which does not dominate the predecessor {l}",
                    self.label(vb)
                );
                self.err(def, Rule::PhiDominance, Some(2 * j + 1), detail);
            }
        }
        let preds = cfg.preds(blk);
        if listed < preds.len() {
            let missing: Vec<String> = preds
                .iter()
                .filter(|p| self.blocks[p.index()].named != serial)
                .map(|&p| self.label(p).to_string())
                .collect();
            let detail = format!(
                "no value for predecessor {} of block {}",
                missing.join(", "),
                self.label(blk)
            );
            self.err(def, Rule::PhiPredecessors, None, detail);
        }
    }

    // ------------------------------------------------------------------ structure

    /// The construct `blk` heads, as the backend emits it.
    fn header(&self, blk: BlockId) -> Option<Header> {
        let label = self.b.get(self.cfg.label(blk))?;
        let term = self.b.get(self.cfg.terminator(blk))?.opcode;
        let construct = label.construct()?;
        let target = |i| label.arg(i).and_then(|l| self.cfg.block_of_label(l));
        let kind = match (construct, term) {
            (Construct::StructuredLoop, OpCode::Branch | OpCode::BranchConditional) => Kind::Loop,
            (Construct::StructuredSelection, OpCode::BranchConditional) => Kind::Selection,
            (Construct::StructuredSelection, OpCode::Switch) => Kind::Switch,
            _ => return None,
        };
        let merge = target(0)?;
        let cont = if kind == Kind::Loop {
            target(1)?
        } else {
            merge
        };
        Some(Header { kind, merge, cont })
    }

    /// The operand of terminator `term` that names block `target`.
    fn target_operand(&self, term: SsaDef, target: BlockId) -> Option<usize> {
        let op = self.b.get(term)?;
        let label = self.cfg.label(target);
        let info = op.opcode.info();
        (0..op.ref_count()).find(|&i| {
            op.arg(i) == Some(label)
                && info
                    .ref_info(i)
                    .is_some_and(|r| matches!(r.role, Role::Block))
        })
    }

    fn check_structure(&mut self, w: &mut Structure) {
        for blk in self.cfg.blocks() {
            let h = self.header(blk);
            self.info(blk).header = h;
        }
        let errors_before = self.errors.len();
        self.check_headers();
        self.check_unstructured(w);
        self.check_back_edges(w);
        // Headers must dominate their merge blocks and continue targets for the constructs
        // to nest.
        for blk in self.cfg.blocks() {
            let Some(h) = self.blocks[blk.index()].header else {
                continue;
            };
            if !w.scfg.is_reachable(blk) {
                continue;
            }
            let label = self.label(blk);
            for (i, target, what) in [(0, h.merge, "merge block"), (1, h.cont, "continue target")] {
                if i == 1 && h.kind != Kind::Loop {
                    continue;
                }
                if !w.sdom.strictly_dominates(blk, target) {
                    let detail = format!(
                        "{label} does not dominate its {what} {}",
                        self.label(target)
                    );
                    self.err(label, Rule::HeaderDominance, Some(i), detail);
                }
            }
        }
        if self.errors.len() != errors_before {
            return;
        }
        self.construct_tree(w);
        self.check_branches(w);
    }

    /// Branches to a function's entry block (from any block: `spirv-val` checks unreachable
    /// ones too), conditional branches with one target twice, merge blocks named by more than
    /// one header, and loop headers that end in
    /// anything but a branch (SPIR-V has no loop that does not loop; `cfg_cleanup` would still
    /// give one a back edge).
    fn check_headers(&mut self) {
        let cfg = self.cfg;
        for blk in cfg.blocks() {
            let label = self.label(blk);
            let term = cfg.terminator(blk);
            for &s in cfg.succs(blk) {
                if cfg.is_entry(s) {
                    let operand = self.target_operand(term, s);
                    let detail = format!("{} is the entry block of its function", self.label(s));
                    self.err(term, Rule::EntryBlockTarget, operand, detail);
                }
            }
            let is_loop = self.b.get(label).is_some_and(|l| {
                l.literals().first().map(|c| c.0) == Some(Construct::StructuredLoop.to_literal())
            });
            let ends = self.b.get(term).map(|t| t.opcode);
            if ends == Some(OpCode::BranchConditional) && cfg.succs(blk).len() == 1 {
                let detail = format!("both targets are {}", self.label(cfg.succs(blk)[0]));
                self.err(term, Rule::SameTargets, Some(2), detail);
            }
            if is_loop && !matches!(ends, Some(OpCode::Branch | OpCode::BranchConditional)) {
                let detail = match ends {
                    Some(o) => format!("loop header {label} ends in {o}"),
                    None => format!("loop header {label} has no terminator"),
                };
                self.err(term, Rule::LoopHeaderTerminator, None, detail);
            }
            let Some(h) = self.blocks[blk.index()].header else {
                continue;
            };
            let first = std::mem::replace(&mut self.info(h.merge).merge_of, blk.0);
            if first != NONE {
                self.info(h.merge).merge_of = first;
                let detail = format!(
                    "{} is already the merge block of {}",
                    self.label(h.merge),
                    self.label(BlockId(first))
                );
                self.err(label, Rule::DuplicateMerge, Some(0), detail);
            }
        }
    }

    /// `spirv-val`'s "Selection must be structured": walking the reachable blocks in reverse
    /// post-order of the structural graph, a conditional branch outside a header needs a
    /// target that is a merge block or continue target of a header seen before, or a target
    /// of an earlier conditional branch or switch; a switch needs a selection header.
    fn check_unstructured(&mut self, w: &Structure) {
        for &blk in w.scfg.rpo() {
            let h = self.blocks[blk.index()].header;
            if let Some(h) = h {
                self.info(h.merge).seen = true;
                self.info(h.cont).seen = true;
            }
            let term = self.cfg.terminator(blk);
            let Some(op) = self.b.get(term) else { continue };
            let target = |i: usize| op.arg(i).and_then(|l| self.cfg.block_of_label(l));
            match op.opcode {
                OpCode::BranchConditional => {
                    let (Some(t), Some(f)) = (target(1), target(2)) else {
                        continue;
                    };
                    let t_new = !std::mem::replace(&mut self.info(t).seen, true);
                    let f_new = !std::mem::replace(&mut self.info(f).seen, true);
                    if h.is_none() && t_new && f_new {
                        let detail = format!(
                            "block {} is no selection header, and neither {} nor {} is a merge \
                             block, continue target or earlier branch target",
                            self.label(blk),
                            self.label(t),
                            self.label(f)
                        );
                        self.err(term, Rule::UnstructuredBranch, None, detail);
                    }
                }
                OpCode::Switch => {
                    if h.is_none() {
                        let detail = format!("block {} is no selection header", self.label(blk));
                        self.err(term, Rule::UnstructuredBranch, None, detail);
                    }
                    for i in (1..op.ref_count()).step_by(2) {
                        if let Some(t) = target(i) {
                            self.info(t).seen = true;
                        }
                    }
                }
                _ => {}
            }
        }
    }

    /// Finds the back edges like `spirv-val` and checks them: only loop headers are targets,
    /// and each reachable loop header has exactly one back-edge block, which its continue
    /// target dominates. Records every loop's one back-edge block (`latch_of`).
    fn check_back_edges(&mut self, w: &mut Structure) {
        let (cfg, scfg) = (self.cfg, w.scfg);
        let n = cfg.len();
        w.bad.clear();
        let entries = cfg.entries();
        for (f, &entry) in entries.iter().enumerate() {
            let end = entries.get(f + 1).map_or(n, |e| e.index());
            // The pseudo entry's successors: blocks without (structural) predecessors, in
            // program order, then the first block of every cycle nothing reaches; each marks
            // what it reaches.
            w.roots.clear();
            for pass in 0..2 {
                for i in entry.index()..end {
                    let blk = BlockId(i as u32);
                    let root = if pass == 0 {
                        scfg.preds(blk).is_empty()
                    } else {
                        !self.blocks[i].rooted
                    };
                    if !root {
                        continue;
                    }
                    w.roots.push(blk);
                    self.blocks[i].rooted = true;
                    w.stack.push((blk, 0));
                    while let Some((top, _)) = w.stack.pop() {
                        for &s in scfg.succs(top) {
                            if !std::mem::replace(&mut self.blocks[s.index()].rooted, true) {
                                w.stack.push((s, 0));
                            }
                        }
                    }
                }
            }
            for r in 0..w.roots.len() {
                let root = w.roots[r];
                if self.blocks[root.index()].walk != 0 {
                    continue;
                }
                self.blocks[root.index()].walk = 1;
                w.stack.push((root, 0));
                while let Some(top) = w.stack.last_mut() {
                    let (blk, next) = *top;
                    let Some(&s) = scfg.succs(blk).get(next as usize) else {
                        self.blocks[blk.index()].walk = 2;
                        w.stack.pop();
                        continue;
                    };
                    top.1 += 1;
                    match self.blocks[s.index()].walk {
                        0 => {
                            self.blocks[s.index()].walk = 1;
                            w.stack.push((s, 0));
                        }
                        // A structural edge (to a merge or continue target) is no branch.
                        1 if cfg.succs(blk).contains(&s) => {
                            let target = &mut self.blocks[s.index()];
                            if target.header.is_some_and(|h| h.kind == Kind::Loop) {
                                target.back_edges += 1;
                                target.back_edge = blk.0;
                            } else {
                                w.bad.push((blk, s));
                            }
                        }
                        _ => {}
                    }
                }
            }
        }
        for k in 0..w.bad.len() {
            let (from, to) = w.bad[k];
            let term = cfg.terminator(from);
            let operand = self.target_operand(term, to);
            let detail = format!(
                "{} branches back to {}, which is no loop header",
                self.label(from),
                self.label(to)
            );
            self.err(term, Rule::BackEdgeTarget, operand, detail);
        }
        for blk in cfg.blocks() {
            let info = self.blocks[blk.index()];
            let Some(h) = info.header.filter(|h| h.kind == Kind::Loop) else {
                continue;
            };
            let label = self.label(blk);
            if !scfg.is_reachable(blk) {
                // SPIR-V still checks the continue construct of a reachable continue target;
                // its back-edge block would make the header reachable.
                if scfg.is_reachable(h.cont) {
                    let detail = format!(
                        "the continue target {} is reachable, but loop header {label} is not",
                        self.label(h.cont)
                    );
                    self.err(label, Rule::LoopBackEdge, Some(1), detail);
                }
                continue;
            }
            if info.back_edges != 1 {
                let detail = format!(
                    "loop header {label} is targeted by {} back-edge blocks",
                    info.back_edges
                );
                self.err(label, Rule::LoopBackEdge, None, detail);
                continue;
            }
            let e = BlockId(info.back_edge);
            if !w.sdom.dominates(h.cont, e) {
                let detail = format!(
                    "the continue target {} does not dominate the back-edge block {}",
                    self.label(h.cont),
                    self.label(e)
                );
                self.err(label, Rule::LoopBackEdge, Some(1), detail);
                continue;
            }
            self.info(e).latch_of = blk.0;
        }
    }

    /// The construct tree, by one walk down the structural dominator tree (see the module
    /// documentation), and the merge block and continue target roles of reachable headers.
    fn construct_tree(&mut self, w: &mut Structure) {
        for &entry in w.scfg.entries() {
            let root = w.add(Kind::Function, entry, entry, NONE);
            w.stack.push((entry, root));
            while let Some((blk, base)) = w.stack.pop() {
                let h = self.blocks[blk.index()].header;
                let own = match h {
                    None => base,
                    Some(h) => {
                        let own = w.add(h.kind, blk, blk, base);
                        let info = self.info(blk);
                        info.own = own;
                        if h.kind == Kind::Loop {
                            info.cont = w.add(Kind::Continue, blk, h.cont, base);
                            self.info(h.cont).cont_of = blk.0;
                        }
                        self.info(h.merge).merge_of = blk.0;
                        if h.kind == Kind::Switch {
                            self.mark_cases(blk, h);
                        }
                        own
                    }
                };
                let info = self.info(blk);
                info.innermost = own;
                // The back-edge block's other successors are outside the continue construct.
                let latch_of = info.latch_of;
                let after = match w.node(own) {
                    Some(node)
                        if latch_of != NONE
                            && self.blocks.get(latch_of as usize).map(|l| l.cont) == Some(own) =>
                    {
                        node.parent
                    }
                    _ => own,
                };
                let case_root = self.blocks[blk.index()].case_root;
                for &child in w.sdom.children(blk) {
                    let ctx = match h {
                        Some(h) if child == h.merge => base,
                        Some(h) if h.kind == Kind::Loop && child == h.cont => {
                            self.blocks[blk.index()].cont
                        }
                        _ => after,
                    };
                    self.info(child).case_root = match h {
                        Some(h) if h.kind == Kind::Switch && child != h.merge => child.0,
                        _ => case_root,
                    };
                    w.stack.push((child, ctx));
                }
            }
        }
    }

    /// Marks the case targets of switch header `blk` (all but the merge block).
    fn mark_cases(&mut self, blk: BlockId, h: Header) {
        let (b, cfg) = (self.b, self.cfg);
        let Some(op) = b.get(cfg.terminator(blk)) else {
            return;
        };
        for i in (1..op.ref_count()).step_by(2) {
            let t = op.arg(i).and_then(|l| cfg.block_of_label(l));
            if let Some(t) = t.filter(|&t| t != h.merge) {
                self.info(t).case_of = blk.0;
            }
        }
    }

    /// A branch inside switch construct `sw` between case constructs: only to another case
    /// target (a fall-through), and each case construct falls through to one case at most.
    fn check_case_branch(&mut self, sw: &Node, p: BlockId, s: BlockId) {
        let (tp, ts) = (
            self.blocks[p.index()].case_root,
            self.blocks[s.index()].case_root,
        );
        // `spirv-val` follows a case construct along branches only, so a block that only a
        // structural edge reaches (after a loop that never exits) is not part of it there.
        let unreached = !self.cfg.is_reachable(p) && self.cfg.is_reachable(sw.header);
        if tp == ts || tp == NONE || unreached {
            return;
        }
        let term = self.cfg.terminator(p);
        let operand = self.target_operand(term, s);
        let (tl, sl) = (self.label(BlockId(tp)), self.label(s));
        let is_case = ts == s.0 && self.blocks[s.index()].case_of == sw.header.0;
        if !is_case {
            let detail = format!(
                "the case construct of {tl} branches to {sl}, which is inside another case \
                 construct of the switch in {}",
                self.label(sw.header)
            );
            self.err(term, Rule::SwitchCase, operand, detail);
            return;
        }
        let first = std::mem::replace(&mut self.blocks[tp as usize].falls_to, s.0);
        if first == NONE {
            self.info(s).fallen_into += 1;
        } else if first != s.0 {
            self.blocks[tp as usize].falls_to = first;
            let detail = format!(
                "the case construct of {tl} falls through to both {} and {sl}",
                self.label(BlockId(first))
            );
            self.err(term, Rule::SwitchCase, operand, detail);
        }
    }

    /// The fall-through order of switch header `blk`: a case construct falls through only to
    /// the case target listed right after its own (a default that is no case target too stands
    /// where it falls through), and only one case construct falls through to each target.
    fn check_case_order(&mut self, blk: BlockId, h: Header) {
        let term = self.cfg.terminator(blk);
        let Some(op) = self.b.get(term) else { return };
        let target = |i: usize| op.arg(i).and_then(|l| self.cfg.block_of_label(l));
        let n = op.ref_count();
        let default = target(1);
        let default_is_case = (3..n).step_by(2).any(|i| target(i) == default);
        let mut default_falls_to = NONE;
        for i in (1..n).step_by(2) {
            let Some(t) = target(i).filter(|&t| t != h.merge) else {
                continue;
            };
            let mut falls_to = self.blocks[t.index()].falls_to;
            if Some(BlockId(falls_to)) == default && !default_is_case {
                falls_to = default_falls_to;
            }
            if falls_to == NONE {
                continue;
            }
            if i == 1 {
                default_falls_to = falls_to;
                continue;
            }
            // Several case values may share one target: the next distinct one must follow.
            let mut j = i;
            while j + 2 < n && target(j + 2) == Some(t) {
                j += 2;
            }
            if j + 2 >= n || target(j + 2) != Some(BlockId(falls_to)) {
                let detail = format!(
                    "the case construct of {} falls through to {}, which does not come right \
                     after it in the Switch",
                    self.label(t),
                    self.label(BlockId(falls_to))
                );
                self.err(term, Rule::SwitchCase, Some(i), detail);
            }
        }
        for i in (1..n).step_by(2) {
            let Some(t) = target(i).filter(|&t| t != h.merge) else {
                continue;
            };
            // Report each target once: at its first operand.
            if (1..i).step_by(2).any(|k| target(k) == Some(t)) {
                continue;
            }
            let into = self.blocks[t.index()].fallen_into;
            if into > 1 {
                let detail = format!(
                    "{into} case constructs fall through to the case construct of {}",
                    self.label(t)
                );
                self.err(term, Rule::SwitchCase, Some(i), detail);
            }
        }
    }

    /// Every branch of a reachable block against the construct tree, and no return from a
    /// continue construct.
    fn check_branches(&mut self, w: &mut Structure) {
        for &p in w.scfg.rpo() {
            if self.full() {
                return;
            }
            let kp = self.blocks[p.index()].innermost;
            let term = self.cfg.terminator(p);
            let ends = self.b.get(term).map(|o| o.opcode);
            if matches!(ends, Some(OpCode::Return | OpCode::Unreachable)) {
                if let Some(c) = w.node(kp).and_then(|k| w.node(k.nearest_continue)) {
                    let detail = format!(
                        "block {} ends the continue construct of loop {} without reaching its \
                         back-edge block",
                        self.label(p),
                        self.label(c.header)
                    );
                    self.err(term, Rule::ContinueExit, None, detail);
                }
            }
            for &s in self.cfg.succs(p) {
                if !self.allowed(w, p, s) {
                    self.report_branch(w, p, s);
                    continue;
                }
                // Directly inside a switch, to a block directly in it or a header there.
                let ks = self.blocks[s.index()].innermost;
                let sw = w
                    .node(kp)
                    .copied()
                    .filter(|n| n.kind == Kind::Switch && n.header != p);
                if let Some(sw) = sw {
                    let inside = ks == kp
                        || w.node(ks).is_some_and(|k| {
                            k.parent == kp && k.entry == s && k.kind != Kind::Continue
                        });
                    if inside {
                        self.check_case_branch(&sw, p, s);
                    }
                }
            }
        }
        for &blk in w.scfg.rpo() {
            if let Some(h) = self.blocks[blk.index()].header {
                if h.kind == Kind::Switch {
                    self.check_case_order(blk, h);
                }
            }
        }
    }

    /// O(1): true if the branch `p -> s` stays in its construct, enters a construct nested
    /// directly in it through its header, or leaves by structured exits only.
    fn allowed(&self, w: &Structure, p: BlockId, s: BlockId) -> bool {
        let (ip, is) = (&self.blocks[p.index()], &self.blocks[s.index()]);
        let (kp, ks) = (ip.innermost, is.innermost);
        if kp == ks {
            return true;
        }
        let (Some(np), Some(ns)) = (w.node(kp), w.node(ks)) else {
            return false;
        };
        // Entering through the header (a continue target only from its loop, below).
        if ns.entry == s && ns.parent == kp && ns.kind != Kind::Continue {
            return true;
        }
        // (A merge block of an unreachable header has no construct: `own` is `NONE`.)
        if let Some(hd) = self.header_of(is.merge_of).filter(|_| {
            self.blocks
                .get(is.merge_of as usize)
                .is_some_and(|h| h.own != NONE)
        }) {
            let h = &self.blocks[is.merge_of as usize];
            let ok = match hd.kind {
                Kind::Selection => kp == h.own,
                Kind::Switch => np.nearest_breakable == h.own,
                _ => np.nearest_loop == h.own || (kp == h.cont && ip.latch_of == is.merge_of),
            };
            if ok {
                return true;
            }
        }
        if is.cont_of != NONE && np.nearest_loop == self.blocks[is.cont_of as usize].own {
            return true;
        }
        // The back edge.
        is.header.is_some_and(|hd| hd.kind == Kind::Loop) && kp == is.cont
    }

    /// True if `s` is a structured exit of construct `k` for a branch from `p` (SPIR-V's
    /// definition, plus: only the back-edge block leaves a continue construct).
    fn exits_to(&self, w: &Structure, k: u32, p: BlockId, s: BlockId) -> bool {
        let Some(node) = w.node(k) else { return false };
        let Some(h) = self.header_of(node.header.0) else {
            return false;
        };
        let outer = w.node(node.parent);
        // The merge block and continue target of the nearest enclosing loop.
        let loop_exit = || {
            outer
                .and_then(|o| w.node(o.nearest_loop))
                .and_then(|l| self.header_of(l.header.0))
                .is_some_and(|l| s == l.merge || s == l.cont)
        };
        match node.kind {
            Kind::Function => false,
            Kind::Loop => s == h.merge || s == h.cont,
            Kind::Continue => {
                (s == node.header || s == h.merge)
                    && self.blocks[p.index()].latch_of == node.header.0
            }
            Kind::Switch => s == h.merge || loop_exit(),
            Kind::Selection => {
                let switch_exit = outer
                    .and_then(|o| w.node(o.nearest_breakable))
                    .filter(|b| b.kind == Kind::Switch)
                    .and_then(|b| self.header_of(b.header.0))
                    .is_some_and(|b| s == b.merge);
                s == h.merge || switch_exit || loop_exit()
            }
        }
    }

    /// Says what is wrong with the branch `p -> s` that [`Checker::allowed`] refused.
    fn report_branch(&mut self, w: &mut Structure, p: BlockId, s: BlockId) {
        w.number();
        let (ip, is) = (self.blocks[p.index()], self.blocks[s.index()]);
        let (kp, ks) = (ip.innermost, is.innermost);
        let term = self.cfg.terminator(p);
        let operand = self.target_operand(term, s);
        let (pl, sl) = (self.label(p), self.label(s));
        // A continue target from outside its loop.
        if is.cont_of != NONE {
            let h = self.blocks[is.cont_of as usize];
            if !w.contains(h.own, kp) && !w.contains(h.cont, kp) {
                let detail = format!(
                    "{pl} branches to the continue target {sl} of loop {}, but is not inside \
                     its loop construct",
                    self.label(BlockId(is.cont_of))
                );
                self.err(term, Rule::ContinueEntry, operand, detail);
                return;
            }
        }
        // Into a construct, past its header.
        let entry_ok = w.contains(ks, kp)
            || w.node(ks).is_some_and(|k| {
                k.entry == s && w.contains(k.parent, kp) && k.kind != Kind::Continue
            });
        if !entry_ok {
            let mut k = ks;
            let mut culprit = ks;
            while let Some(node) = w.node(k) {
                if w.contains(k, kp) {
                    break;
                }
                if node.entry != s {
                    culprit = k;
                    break;
                }
                k = node.parent;
            }
            if let Some(c) = w.node(culprit) {
                let detail = format!(
                    "{pl} branches into the {} construct of {}, but not to its {} {}",
                    c.kind.name(),
                    self.label(c.header),
                    if c.kind == Kind::Continue {
                        "continue target"
                    } else {
                        "header"
                    },
                    self.label(c.entry)
                );
                self.err(term, Rule::ConstructEntry, operand, detail);
            }
            return;
        }
        // Out of a construct, not by one of its structured exits.
        let mut k = kp;
        let mut culprit = kp;
        while let Some(node) = w.node(k) {
            if w.contains(k, ks) {
                break;
            }
            if !self.exits_to(w, k, p, s) {
                culprit = k;
                break;
            }
            k = node.parent;
        }
        let Some(c) = w.node(culprit).copied() else {
            return;
        };
        let (rule, detail) = if c.kind == Kind::Continue && ip.latch_of == NONE {
            (
                Rule::ContinueExit,
                format!(
                    "{pl} leaves the continue construct of loop {} to {sl}; only its back-edge \
                     block may leave it",
                    self.label(c.header)
                ),
            )
        } else {
            (
                Rule::ConstructExit,
                format!(
                    "{pl} leaves the {} construct of {} to {sl}, which is none of its \
                     structured exits",
                    c.kind.name(),
                    self.label(c.header)
                ),
            )
        };
        self.err(term, rule, operand, detail);
    }
}

#[cfg(test)]
mod tests;
