//! [`Divergence`]: which values and blocks are uniform, i.e. the same for every invocation that
//! runs together (a compute workgroup; a draw's invocations in the other stages, so also every
//! pixel quad).
//!
//! The backend and later passes read it to handle derivatives and implicit-LOD sampling in
//! non-uniform control flow and to decorate non-uniform descriptor indices.
//!
//! # Rules
//! *Sources* of divergence: inputs (except `WorkgroupId`, uniform across a workgroup, and
//! `SampleCount`), interpolation, loads of memory other invocations may write or that is per
//! invocation (UAV buffers and images, LDS, scratch, raw pointers, outputs), atomics, function
//! parameters and call results (the analysis is per function), descriptor loads flagged
//! `NonUniform`, and the wave ops whose result depends on the lane or on how many lanes of its
//! wave are active (ballots, prefixes, matches, sums and products, `WaveIsFirstLane`,
//! `IsHelperLane`). Constants, spec constants and push data are uniform. Any other op is divergent
//! if one of its value operands is.
//!
//! *Control divergence*: a `BranchConditional` or `Switch` on a divergent value in a selection
//! header makes every block of that construct (up to its merge) divergent and its merge block a
//! divergent join (its phis are divergent). Any other divergent branch is a loop exit or continue
//! that differs per invocation: the innermost enclosing loop then has a divergent trip count, so
//! its blocks are divergent, its header and merge are divergent joins, and every value defined in
//! it (or in a loop nested in it) is divergent, as invocations leave it at different iterations.
//!
//! # Algorithm
//! Values and control facts only ever change from uniform to divergent, so the analysis repeats
//! a walk over the program in order until nothing changes (bounded; after the bound everything
//! is declared divergent, which is always safe). The innermost loop of a block is found by
//! walking up the dominator tree to the nearest loop header whose merge block does not dominate
//! it. Each walk is linear; the number of walks is bounded by how deeply divergence chains
//! through phis and nested constructs, which is small in real shaders.

use crate::analysis::{BlockId, Cfg, DominatorTree};
use crate::builder::Builder;
use crate::enums::{BuiltIn, Construct, WaveOp};
use crate::op::{OpFlags, SsaDef};
use crate::opcode::OpCode;
use crate::types::ScalarType;

/// Most walks before everything is declared divergent.
const MAX_ROUNDS: usize = 64;

const NO_LOOP: u32 = u32::MAX;

/// The result of the uniformity analysis; a snapshot of the program it was built from.
#[derive(Clone, Debug)]
pub struct Divergence {
    value: Vec<bool>,
    block: Vec<bool>,
    join: Vec<bool>,
    rounds: usize,
}

impl Divergence {
    /// Analyses structured, SSA-form IR (after the control-flow and SSA passes).
    pub fn analyze(b: &Builder, cfg: &Cfg, dom: &DominatorTree) -> Divergence {
        let nblocks = cfg.len();
        let loops = LoopInfo::build(b, cfg, dom);
        let mut d = Divergence {
            value: vec![false; b.id_bound()],
            block: vec![false; nblocks],
            join: vec![false; nblocks],
            rounds: 0,
        };
        let mut divergent_loop = vec![false; nblocks];
        for round in 0..MAX_ROUNDS {
            d.rounds = round + 1;
            let mut changed = d.walk_values(b, cfg, &loops, &divergent_loop);
            changed |= d.walk_control(b, cfg, &loops, &mut divergent_loop);
            if !changed {
                return d;
            }
        }
        d.value.iter_mut().for_each(|v| *v = true);
        d.block.iter_mut().for_each(|v| *v = true);
        d.join.iter_mut().for_each(|v| *v = true);
        d
    }

    /// True if `def` has the same value in every invocation of the group. Ops outside the
    /// analysed program (or removed since) count as divergent.
    pub fn is_uniform(&self, def: SsaDef) -> bool {
        self.value.get(def.index()).is_some_and(|v| !*v)
    }

    /// True if every invocation of the group that runs the function reaches `blk` together.
    pub fn is_block_uniform(&self, blk: BlockId) -> bool {
        self.block.get(blk.index()).is_some_and(|v| !*v)
    }

    /// How many walks the analysis needed.
    pub fn rounds(&self) -> usize {
        self.rounds
    }

    fn mark(&mut self, def: SsaDef) -> bool {
        match self.value.get_mut(def.index()) {
            Some(v) if !*v => {
                *v = true;
                true
            }
            _ => false,
        }
    }

    fn divergent(&self, def: Option<SsaDef>) -> bool {
        def.is_some_and(|d| self.value.get(d.index()).copied().unwrap_or(true))
    }

    fn walk_values(
        &mut self,
        b: &Builder,
        cfg: &Cfg,
        loops: &LoopInfo,
        divergent_loop: &[bool],
    ) -> bool {
        let mut changed = false;
        for (def, _) in b.iter() {
            if self.value.get(def.index()).copied().unwrap_or(true) {
                continue;
            }
            let in_divergent_loop = cfg
                .block_of(def)
                .is_some_and(|blk| loops.in_divergent_loop(blk, divergent_loop));
            let divergent = in_divergent_loop || self.op_is_divergent(b, cfg, def);
            if divergent {
                changed |= self.mark(def);
            }
        }
        changed
    }

    /// Whether `def` may differ between invocations, given its operands'. The opcode lists
    /// here are this analysis's model of where per-invocation values come from (inputs,
    /// memory other invocations write, atomics, calls, phis at joins), not facts the opcode
    /// table states.
    fn op_is_divergent(&self, b: &Builder, cfg: &Cfg, def: SsaDef) -> bool {
        let op = b.op(def);
        let any_ref = |skip: usize| op.refs().skip(skip).any(|r| self.divergent(r));
        match op.opcode {
            OpCode::InputLoad => {
                let uniform_builtin = op.arg(0).and_then(|d| b.get(d)).is_some_and(|dcl| {
                    dcl.opcode == OpCode::DclInputBuiltIn
                        && matches!(
                            dcl.lit(0).and_then(BuiltIn::from_literal),
                            Some(BuiltIn::WorkgroupId | BuiltIn::SampleCount)
                        )
                });
                !uniform_builtin || any_ref(1)
            }
            OpCode::InterpolateAtCentroid
            | OpCode::InterpolateAtSample
            | OpCode::InterpolateAtOffset
            | OpCode::LdsLoad
            | OpCode::ScratchLoad
            | OpCode::MemoryLoad
            | OpCode::OutputLoad
            | OpCode::LdsAtomic
            | OpCode::BufferAtomic
            | OpCode::ImageAtomic
            | OpCode::CounterAtomic
            | OpCode::MemoryAtomic
            | OpCode::ParamLoad
            | OpCode::FunctionCall
            | OpCode::TmpLoad
            | OpCode::Pointer => true,
            // Wave ops whose result depends on the lane or on which lanes of its wave are
            // active, whatever their operands (reads of another lane's value, and quad votes,
            // are uniform when what they read is).
            OpCode::WaveIsFirstLane
            | OpCode::IsHelperLane
            | OpCode::WaveBallot
            | OpCode::WavePrefixOp
            | OpCode::WaveMultiPrefixOp
            | OpCode::WaveBallotPrefixBitCount
            | OpCode::WaveMatch => true,
            OpCode::WaveActiveOp => {
                // Minima, maxima, and and or of one value are that value; sums, products and
                // xors depend on how many lanes are active.
                let idempotent = op.lit(0).and_then(WaveOp::from_literal).is_some_and(|w| {
                    matches!(
                        w,
                        WaveOp::SMin
                            | WaveOp::SMax
                            | WaveOp::UMin
                            | WaveOp::UMax
                            | WaveOp::FMin
                            | WaveOp::FMax
                            | WaveOp::And
                            | WaveOp::Or
                    )
                });
                !idempotent || any_ref(0)
            }
            OpCode::DescriptorLoad => op.flags.contains(OpFlags::NON_UNIFORM) || any_ref(1),
            OpCode::BufferLoad | OpCode::ImageLoad => {
                let writable = op
                    .arg(0)
                    .and_then(|d| b.get(d))
                    .is_none_or(|desc| desc.ty.base_type() == Some(ScalarType::Uav));
                writable || any_ref(0)
            }
            OpCode::PushDataLoad | OpCode::ConstantLoad => any_ref(1),
            OpCode::Phi => {
                let joined = cfg
                    .block_of(def)
                    .is_some_and(|blk| self.join.get(blk.index()).copied().unwrap_or(true));
                // Operands alternate (block, value); blocks are labels, never divergent values.
                joined || op.refs().skip(1).step_by(2).any(|r| self.divergent(r))
            }
            // Declarations are not values; their loads decide.
            _ if op.opcode.is_dcl() => false,
            _ => any_ref(0),
        }
    }

    fn walk_control(
        &mut self,
        b: &Builder,
        cfg: &Cfg,
        loops: &LoopInfo,
        divergent_loop: &mut [bool],
    ) -> bool {
        let mut changed = false;
        for blk in cfg.blocks() {
            if !cfg.is_reachable(blk) {
                continue;
            }
            let term = b.op(cfg.terminator(blk));
            let cond_divergent = match term.opcode {
                OpCode::BranchConditional | OpCode::Switch => self.divergent(term.arg(0)),
                _ => false,
            };
            if !cond_divergent {
                continue;
            }
            let label = b.op(cfg.label(blk));
            let construct = label.construct();
            let merge = label.arg(0).and_then(|m| cfg.block_of_label(m));
            let innermost = loops.loop_of(blk);
            // Does the branch leave the innermost loop or go to its continue target?
            let exits_loop = innermost.is_some_and(|l| {
                let (lm, lc) = loops.merge_continue(l);
                cfg.succs(blk)
                    .iter()
                    .any(|s| Some(*s) == lm || Some(*s) == lc)
            });
            if construct == Some(Construct::StructuredSelection) && !exits_loop {
                if let Some(m) = merge {
                    changed |= self.mark_region(cfg, blk, m);
                    changed |= set(&mut self.join, m);
                }
            } else if let Some(l) = innermost {
                if !divergent_loop[l.index()] {
                    divergent_loop[l.index()] = true;
                    changed = true;
                }
                let (lm, _) = loops.merge_continue(l);
                changed |= set(&mut self.join, l);
                if let Some(m) = lm {
                    changed |= self.mark_region(cfg, l, m);
                    changed |= set(&mut self.join, m);
                }
            } else {
                // A divergent branch outside any construct: everything after it diverges.
                changed |= self.mark_region(cfg, blk, BlockId(u32::MAX));
            }
        }
        changed
    }

    /// Marks every block reachable from `header`'s successors without passing `merge`.
    fn mark_region(&mut self, cfg: &Cfg, header: BlockId, merge: BlockId) -> bool {
        let mut changed = false;
        let mut stack: Vec<BlockId> = cfg.succs(header).to_vec();
        while let Some(blk) = stack.pop() {
            if blk == merge || blk == header {
                continue;
            }
            if set(&mut self.block, blk) {
                changed = true;
                stack.extend_from_slice(cfg.succs(blk));
            }
        }
        changed
    }
}

fn set(v: &mut [bool], blk: BlockId) -> bool {
    match v.get_mut(blk.index()) {
        Some(x) if !*x => {
            *x = true;
            true
        }
        _ => false,
    }
}

/// Loop nesting of a structured CFG: for each block its innermost enclosing loop header.
struct LoopInfo {
    innermost: Vec<u32>,
    parent: Vec<u32>,
    merge: Vec<u32>,
    cont: Vec<u32>,
}

impl LoopInfo {
    fn build(b: &Builder, cfg: &Cfg, dom: &DominatorTree) -> LoopInfo {
        let n = cfg.len();
        let mut info = LoopInfo {
            innermost: vec![NO_LOOP; n],
            parent: vec![NO_LOOP; n],
            merge: vec![NO_LOOP; n],
            cont: vec![NO_LOOP; n],
        };
        for blk in cfg.blocks() {
            let label = b.op(cfg.label(blk));
            let construct = label.construct();
            if construct == Some(Construct::StructuredLoop) {
                let id = |i: usize| {
                    label
                        .arg(i)
                        .and_then(|d| cfg.block_of_label(d))
                        .map_or(u32::MAX - 1, |x| x.0)
                };
                info.merge[blk.index()] = id(0);
                info.cont[blk.index()] = id(1);
            }
        }
        // Blocks in reverse post-order see their dominators first, so the innermost loop of a
        // block starts from its immediate dominator's answer, and a loop header's parent loop
        // is known before any block inside it asks.
        for &blk in cfg.rpo() {
            if info.is_header(blk) {
                info.parent[blk.index()] =
                    dom.idom(blk).map_or(NO_LOOP, |p| info.innermost[p.index()]);
            }
            info.innermost[blk.index()] = info.find_loop(dom, blk);
        }
        info
    }

    fn is_header(&self, blk: BlockId) -> bool {
        self.merge[blk.index()] != NO_LOOP
    }

    fn find_loop(&self, dom: &DominatorTree, blk: BlockId) -> u32 {
        let mut cand = if self.is_header(blk) {
            blk.0
        } else {
            dom.idom(blk).map_or(NO_LOOP, |p| self.innermost[p.index()])
        };
        // Leave every loop whose merge block dominates `blk`: `blk` lies after that loop.
        while cand != NO_LOOP {
            let m = self.merge[cand as usize];
            let inside = m as usize >= self.merge.len() || !dom.dominates(BlockId(m), blk);
            if inside {
                return cand;
            }
            cand = self.parent.get(cand as usize).copied().unwrap_or(NO_LOOP);
        }
        NO_LOOP
    }

    fn loop_of(&self, blk: BlockId) -> Option<BlockId> {
        let l = *self.innermost.get(blk.index())?;
        (l != NO_LOOP).then_some(BlockId(l))
    }

    fn merge_continue(&self, l: BlockId) -> (Option<BlockId>, Option<BlockId>) {
        let get = |v: &Vec<u32>| {
            v.get(l.index())
                .copied()
                .filter(|&x| (x as usize) < self.merge.len())
                .map(BlockId)
        };
        (get(&self.merge), get(&self.cont))
    }

    fn in_divergent_loop(&self, blk: BlockId, divergent_loop: &[bool]) -> bool {
        let mut l = self.innermost.get(blk.index()).copied().unwrap_or(NO_LOOP);
        let mut steps = 0;
        while l != NO_LOOP && steps < self.innermost.len() {
            if divergent_loop.get(l as usize).copied().unwrap_or(true) {
                return true;
            }
            l = self.parent.get(l as usize).copied().unwrap_or(NO_LOOP);
            steps += 1;
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::parse;
    use crate::validate::{validate, Level};

    fn analyze(text: &str) -> (Builder, Divergence) {
        let b = match parse(text) {
            Ok(b) => b,
            Err(e) => panic!("{e}"),
        };
        if let Err(e) = validate(&b, Level::Lowered) {
            panic!("{e:?}");
        }
        let cfg = match Cfg::build(&b) {
            Ok(c) => c,
            Err(e) => panic!("{e}"),
        };
        let dom = DominatorTree::build(&cfg);
        let d = Divergence::analyze(&b, &cfg, &dom);
        (b, d)
    }

    fn def(id: u32) -> SsaDef {
        SsaDef::new(id).unwrap_or_else(|| panic!("zero id"))
    }

    const HEADER: &str = "
%1 = EntryPoint %10 Compute
%2 = DclInputBuiltIn vec3<u32> %1 GlobalThreadId None
%3 = DclInputBuiltIn vec3<u32> %1 WorkgroupId None
%4 = Constant u32 0
%5 = Constant u32 1
%6 = SetCsWorkgroupSize %1 64 1 1
";

    fn selection(cond_from: u32) -> String {
        format!(
            "{HEADER}
%10 = Function void
%11 = Label %20 StructuredSelection
%12 = InputLoad u32 %2 %4
%13 = InputLoad u32 %3 %4
%14 = IAdd u32 %13 %5
%15 = IEq bool %{cond_from} %4
%16 = BranchConditional %15 %17 %20
%17 = Label None
%18 = IAdd u32 %14 %5
%19 = Branch %20
%20 = Label None
%21 = Phi u32 %11 %14 %17 %18
%22 = Return void null
%23 = FunctionEnd
"
        )
    }

    #[test]
    fn thread_ids_diverge_workgroup_ids_do_not() {
        let (_, d) = analyze(&selection(13));
        assert!(!d.is_uniform(def(12)), "GlobalThreadId is per thread");
        assert!(
            d.is_uniform(def(13)),
            "WorkgroupId is uniform in a workgroup"
        );
        assert!(d.is_uniform(def(14)));
        assert!(d.is_uniform(def(4)), "constants are uniform");
    }

    #[test]
    fn uniform_branch_keeps_blocks_and_phis_uniform() {
        let (_, d) = analyze(&selection(13));
        assert!(d.is_uniform(def(15)));
        assert!(d.is_block_uniform(BlockId(1)));
        assert!(d.is_uniform(def(21)));
    }

    #[test]
    fn divergent_branch_makes_construct_blocks_and_merge_phis_divergent() {
        let (_, d) = analyze(&selection(12));
        assert!(!d.is_uniform(def(15)));
        assert!(
            !d.is_block_uniform(BlockId(1)),
            "the then-block is divergent"
        );
        assert!(
            d.is_block_uniform(BlockId(0)),
            "the header is reached uniformly"
        );
        assert!(
            d.is_block_uniform(BlockId(2)),
            "control reconverges at the merge"
        );
        assert!(d.is_uniform(def(18)), "a uniform computation stays uniform");
        assert!(!d.is_uniform(def(21)), "the merge phi picks per invocation");
    }

    fn counted_loop(bound: u32) -> String {
        format!(
            "{HEADER}
%10 = Function void
%11 = Label None
%12 = InputLoad u32 %2 %4
%13 = InputLoad u32 %3 %4
%40 = Branch %41
%41 = Label %50 %45 StructuredLoop
%42 = Phi u32 %11 %4 %45 %46
%43 = Branch %30
%30 = Label None
%31 = ULt bool %42 %{bound}
%32 = BranchConditional %31 %45 %50
%45 = Label None
%46 = IAdd u32 %42 %5
%47 = Branch %41
%50 = Label None
%51 = Return void null
%52 = FunctionEnd
"
        )
    }

    #[test]
    fn loop_with_uniform_trip_count_is_uniform() {
        let (_, d) = analyze(&counted_loop(13));
        assert!(d.is_uniform(def(42)));
        assert!(d.is_uniform(def(46)));
        assert!(d.cfg_blocks_uniform(4));
    }

    #[test]
    fn loop_with_divergent_exit_makes_its_values_divergent() {
        let (_, d) = analyze(&counted_loop(12));
        assert!(!d.is_uniform(def(31)));
        assert!(
            !d.is_uniform(def(42)),
            "the counter differs per iteration count"
        );
        assert!(!d.is_uniform(def(46)));
        assert!(
            !d.is_block_uniform(BlockId(2)),
            "the loop body is divergent"
        );
        assert!(d.is_block_uniform(BlockId(0)));
        assert!(
            d.is_block_uniform(BlockId(4)),
            "after the loop control reconverges"
        );
    }

    #[test]
    fn non_uniform_descriptor_and_uav_loads_diverge() {
        let text = format!(
            "{HEADER}
%7 = DclCbv vec4<f32>[4] %1 0 0 1
%8 = DclUav u32[] %1 0 0 1 BufferRaw None
%10 = Function void
%11 = Label None
%12 = DescriptorLoad cbv %7 %4
%13 = BufferLoad vec4<f32> %12 %4 16
%14 = DescriptorLoad uav %8 %4
%15 = BufferLoad u32 %14 %4 4
%16 = DescriptorLoad [nonuniform] cbv %7 %4
%17 = Return void null
%18 = FunctionEnd
"
        );
        let (_, d) = analyze(&text);
        assert!(d.is_uniform(def(12)));
        assert!(
            d.is_uniform(def(13)),
            "constant buffer at a uniform address"
        );
        assert!(!d.is_uniform(def(15)), "UAV memory may change under us");
        assert!(!d.is_uniform(def(16)), "flagged non-uniform");
    }

    #[test]
    fn wave_ops_diverge_where_lanes_matter() {
        let text = format!(
            "{HEADER}
%10 = Function void
%11 = Label None
%12 = WaveIsFirstLane bool
%13 = WaveReadLaneFirst u32 %5
%14 = WaveActiveOp u32 %5 IAdd
%15 = WaveActiveOp u32 %5 UMax
%16 = WavePrefixOp u32 %5 IAdd
%17 = IsHelperLane bool
%18 = QuadReadAcross u32 %5 X
%19 = Return void null
%20 = FunctionEnd
"
        );
        let (_, d) = analyze(&text);
        assert!(!d.is_uniform(def(12)), "one lane per wave");
        assert!(
            d.is_uniform(def(13)),
            "a uniform value read from another lane"
        );
        assert!(!d.is_uniform(def(14)), "a sum counts the active lanes");
        assert!(
            d.is_uniform(def(15)),
            "the maximum of one value is that value"
        );
        assert!(!d.is_uniform(def(16)), "a prefix depends on the lane");
        assert!(!d.is_uniform(def(17)));
        assert!(d.is_uniform(def(18)));
    }

    impl Divergence {
        fn cfg_blocks_uniform(&self, n: usize) -> bool {
            self.block.iter().take(n).all(|b| !*b)
        }
    }
}
