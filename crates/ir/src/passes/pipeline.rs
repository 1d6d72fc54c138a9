//! The pass pipeline: the order of all passes, written down once, in [`run_pipeline`].
//!
//! ```text
//! scoped_to_structured      Scoped* control flow → labels, branches, merge blocks
//! structurize               unstructured block form (DXIL) → structured constructs; runs
//!                           only if scoped_to_structured met a function in block form
//! ssa_construction          DclTmp registers → SSA values and phis
//! resolve_types             Unknown types resolved, ConsumeAs lowered
//! lower_legacy              FDot*, *Legacy, MinValue/MaxValue, no-op conversions
//! lower_min_precision       min16f/min10f/min16i/min16u → 16 or 32 bits
//! repeat (bounded):         constant_fold, simplify_arith, cse, dce — until nothing changes
//!                           (cse and dce after the first round only if folding or
//!                           simplification changed something; a round after a round where
//!                           only cse/dce changed something only if simplification has
//!                           something for a user of a value cse merged)
//! cfg_cleanup               unreachable and empty blocks
//! dce                       what cfg_cleanup made dead
//! unused_declarations       temps, scratch, constants nothing uses
//! infer_non_uniform         (optional) NonUniform on divergently indexed descriptor loads
//! ```
//!
//! With [`Options::validate_each_pass`] (default in debug and test builds) the validator runs
//! after every pass: at [`Level::Unstructured`] for the input and after
//! `scoped_to_structured` (unstructured functions are `structurize`'s to change), at
//! [`Level::Structural`] while the program may still hold frontend constructs, at
//! [`Level::Lowered`] once the mandatory lowerings are done (after `lower_min_precision`) and
//! for the final result. A failure is a
//! [`PassError::Validation`] naming the pass that broke the invariant.
//!
//! Most shaders need few of the lowerings, and a walk that finds nothing costs as much as a
//! small pass: passes ask the builder's [`crate::Census`] (live ops of a few kinds: scoped
//! control flow, temporaries, `ConsumeAs`, legacy ops, conversions, `SetFpMode`, `Undef`,
//! `Unknown` and min-precision types) before walking, and walk only the code
//! ([`Builder::first_code`]) or only the declarations ([`Builder::declarations`]) where that
//! is all they change. CSE skips numbering the constants when the builder knows them distinct
//! ([`Builder::constants_are_unique`]). With validation on, the census is checked against a
//! fresh count after every pass ([`Rule::StaleCensus`]).
//!
//! One CFG serves from `ssa_construction` (or the first `cse` for programs without
//! temporaries) to `cfg_cleanup`: no pass in between changes a block, label, terminator or
//! branch. The passes' buffers live in a [`Workspace`] kept between compiles (one per thread
//! for [`run_pipeline`]), so a warm compile allocates almost nothing in the passes.

use crate::analysis::Cfg;
use crate::census::Counted;
use crate::passes::error::PassError;
use crate::passes::options::Options;
use crate::passes::util::FpModes;
use crate::passes::{
    cfg_cleanup, constant_fold, cse, dce, infer_non_uniform, lower_legacy, lower_min_precision,
    resolve_types, scoped_to_structured, simplify_arith, ssa_construction, structurize,
    unused_declarations,
};
use crate::validate::{validate, Level, Rule, ValidationError};
use crate::Builder;
use std::cell::Cell;
use std::time::{Duration, Instant};

/// The buffers the passes of [`run_pipeline_with`] reuse: kept between compiles, so that
/// compiling many shaders allocates almost nothing in the passes once the buffers have grown
/// to the largest shader's size. Holds no program state between calls: every buffer is reset
/// (and every cached analysis marked out of date) before use.
#[derive(Default)]
pub struct Workspace {
    ssa_construction: ssa_construction::Scratch,
    resolve_types: resolve_types::Scratch,
    cse: cse::State,
    dce: dce::Scratch,
}

thread_local! {
    /// The workspace of [`run_pipeline`], one per thread.
    static WORKSPACE: Cell<Option<Box<Workspace>>> = const { Cell::new(None) };
}

/// One pass run of the pipeline.
#[derive(Clone, Debug)]
pub struct PassTiming {
    /// The pass's name (its module name).
    pub name: &'static str,
    /// Wall-clock time of the pass itself, without validation; zero unless
    /// [`Options::time_passes`] is set.
    pub duration: Duration,
    /// Whether the pass changed the program.
    pub changed: bool,
    /// Live ops after the pass ([`Builder::len`]).
    pub ops_after: usize,
}

/// What [`run_pipeline`] did: every pass run in order with its time, and the validation time.
#[derive(Clone, Debug, Default)]
pub struct PipelineReport {
    /// Every pass run, in order (passes of the optimisation loop once per round).
    pub passes: Vec<PassTiming>,
    /// Rounds the optimisation loop ran.
    pub optimisation_rounds: u32,
    /// Total time spent validating between passes (zero unless validation ran).
    pub validation: Duration,
}

impl PipelineReport {
    /// Total time of all passes (validation excluded).
    pub fn total(&self) -> Duration {
        self.passes.iter().map(|p| p.duration).sum()
    }

    /// Total time per pass name, in first-run order (for reports over many shaders).
    pub fn per_pass(&self) -> Vec<(&'static str, Duration)> {
        let mut out: Vec<(&'static str, Duration)> = Vec::new();
        for p in &self.passes {
            match out.iter_mut().find(|(n, _)| *n == p.name) {
                Some((_, d)) => *d += p.duration,
                None => out.push((p.name, p.duration)),
            }
        }
        out
    }
}

/// Runs passes, recording, timing (if asked) and validating (if asked) each one.
struct Runner<'a> {
    b: &'a mut Builder,
    validate: bool,
    time: bool,
    report: PipelineReport,
}

impl Runner<'_> {
    fn run(
        &mut self,
        name: &'static str,
        level: Level,
        pass: impl FnOnce(&mut Builder) -> Result<bool, PassError>,
    ) -> Result<bool, PassError> {
        let (changed, duration) = if self.time {
            let start = Instant::now();
            let changed = pass(self.b)?;
            (changed, start.elapsed())
        } else {
            (pass(self.b)?, Duration::ZERO)
        };
        self.report.passes.push(PassTiming {
            name,
            duration,
            changed,
            ops_after: self.b.len(),
        });
        if self.validate {
            let start = Instant::now();
            let result = validate(self.b, level).and_then(|()| census_is_current(self.b));
            self.report.validation += start.elapsed();
            if let Err(errors) = result {
                return Err(PassError::Validation { pass: name, errors });
            }
        }
        Ok(changed)
    }
}

/// The pipeline's check that the builder's [`crate::Census`], which passes read to skip
/// work, matches its ops.
fn census_is_current(b: &Builder) -> Result<(), Vec<ValidationError>> {
    let fresh = crate::Census::of(b.iter().map(|(_, op)| op));
    if *b.census() == fresh {
        return Ok(());
    }
    Err(vec![ValidationError {
        def: None,
        opcode: None,
        rule: Rule::StaleCensus,
        operand: None,
        detail: format!("kept {:?}, counted {fresh:?}", b.census()),
    }])
}

/// Runs the whole pipeline on `b`, from frontend output (scoped control flow, temporaries,
/// `Unknown` types, legacy ops) to lowered IR ready for the backend.
///
/// Uses a per-thread [`Workspace`], so repeated compiles in one thread reuse the passes'
/// buffers; see [`run_pipeline_with`] to pass one explicitly.
pub fn run_pipeline(b: &mut Builder, opts: &Options) -> Result<PipelineReport, PassError> {
    // Taken out for the run (a nested call, which nothing makes, would get a fresh one).
    let mut ws = WORKSPACE.with(Cell::take).unwrap_or_default();
    let result = run_pipeline_with(b, opts, &mut ws);
    WORKSPACE.with(|w| w.set(Some(ws)));
    result
}

/// [`run_pipeline`] with the buffers of `ws` (see [`Workspace`]); the result does not depend
/// on what `ws` was used for before.
pub fn run_pipeline_with(
    b: &mut Builder,
    opts: &Options,
    ws: &mut Workspace,
) -> Result<PipelineReport, PassError> {
    use Level::{Lowered, Structural, Unstructured};
    let mut r = Runner {
        b,
        validate: opts.validate_each_pass,
        time: opts.time_passes,
        report: PipelineReport {
            // Five lowerings, usually two rounds of four, three cleanups.
            passes: Vec::with_capacity(16),
            ..PipelineReport::default()
        },
    };
    if r.validate {
        let start = Instant::now();
        let result = validate(r.b, Unstructured);
        r.report.validation += start.elapsed();
        if let Err(errors) = result {
            return Err(PassError::Validation {
                pass: "input",
                errors,
            });
        }
    }

    // Mandatory: structure, SSA, types, lowerings.
    let mut block_form = false;
    // A program with no scoped control flow whose functions are one block each (most small
    // shaders) is what scoped_to_structured would leave unchanged, and stays one block per
    // function until the optimisation loop: no pass before it adds a block, branch or phi
    // (SSA construction adds phis only where blocks join). CSE is told so and skips its own
    // check.
    let one_block = !r.b.census().has(Counted::Scoped) && cse::one_block_per_function(r.b);
    r.run("scoped_to_structured", Unstructured, |b| {
        if one_block {
            return Ok(false);
        }
        let (changed, found) = scoped_to_structured::run_finding_block_form(b)?;
        block_form = found;
        Ok(changed)
    })?;
    if block_form {
        r.run("structurize", Structural, structurize::run)?;
    }
    let Workspace {
        ssa_construction: ssa_scratch,
        resolve_types: resolve_scratch,
        cse: cse_state,
        dce: dce_scratch,
    } = ws;
    r.run("ssa_construction", Structural, |b| {
        ssa_construction::run_with_scratch(b, ssa_scratch)
    })?;
    r.run("resolve_types", Structural, |b| {
        resolve_types::run_with_scratch(b, resolve_scratch)
    })?;
    r.run("lower_legacy", Structural, |b| lower_legacy::run(b, opts))?;
    let mode = opts.min_precision;
    r.run("lower_min_precision", Lowered, |b| {
        lower_min_precision::run_after_lower_legacy(b, mode)
    })?;

    // Optimisation to a small fixed point. Nothing in the loop changes `SetFpMode` or the
    // CFG (folds and simplifications replace value ops only; branches on constants are left
    // to cfg_cleanup), so the float modes are collected once and CSE has one CFG (SSA
    // construction's, or its own) and dominator tree for all rounds.
    //
    // CSE and DCE are idempotent: run again on their own output they find nothing (CSE
    // numbers every op after its operands, so one run already sees every duplicate of a
    // duplicate; DCE marks everything live from the roots), and removing dead ops creates no
    // new duplicates. So after the first round they can only find something if folding or
    // simplification changed the program in that round; otherwise the round ends there,
    // with exactly the result of running them.
    //
    // A round after one where folding and simplification found nothing (only CSE merged
    // values or DCE removed ops) is mostly a round that finds nothing: merging equal values
    // and removing dead ops changes no operand's constant value, so folding finds nothing
    // again, and simplification can only find something at an op whose operands changed, a
    // user of a value CSE merged into, and only one that used the value CSE replaced (the
    // other users of the merged value have the operands simplification just saw). So such
    // a round runs only if simplification has something for one of those users; otherwise
    // the loop ends as that round would have (it is then missing from the report).
    let modes = FpModes::collect(r.b);
    cse_state.invalidate();
    if one_block {
        cse_state.know_one_block_per_function();
    }
    // SSA construction's CFG, if it built one, still has the program's blocks: nothing since
    // changed a block, label, terminator or branch (the passes in between add and replace
    // value ops only), so CSE and cfg_cleanup use it instead of building their own.
    if let Some(cfg) = ssa_scratch.cfg() {
        if r.validate && !Cfg::build(r.b).is_ok_and(|fresh| fresh.same_blocks(cfg)) {
            return Err(PassError::Validation {
                pass: "lower_min_precision",
                errors: vec![ValidationError {
                    def: None,
                    opcode: None,
                    rule: Rule::StaleCfg,
                    operand: None,
                    detail: String::new(),
                }],
            });
        }
        cse_state.adopt_cfg(cfg);
    }
    let mut only_merges = false;
    for round in 0..opts.max_optimisation_rounds {
        if only_merges {
            // Of the users of the merged values, only those that used a replaced value have
            // new operands; the others are as simplification (which found nothing) saw them.
            let users = cse_state.changed_users().iter().copied();
            if !(opts.simplify_arith && simplify_arith::would_simplify(r.b, users, &modes)) {
                break;
            }
        }
        r.report.optimisation_rounds += 1;
        let mut changed = false;
        if opts.constant_fold {
            changed |= r.run("constant_fold", Lowered, |b| {
                constant_fold::run_with_modes(b, &modes)
            })?;
        }
        if opts.simplify_arith {
            changed |= r.run("simplify_arith", Lowered, |b| {
                simplify_arith::run_with_modes(b, &modes)
            })?;
        }
        only_merges = !changed;
        if round == 0 || changed {
            if opts.cse {
                changed |= r.run("cse", Lowered, |b| cse::run_with_state(b, cse_state))?;
            }
            if opts.dce {
                // Right after a CSE run on one-block functions, DCE starts from what CSE
                // gathered on its walk instead of walking the program again.
                let candidates = if opts.cse {
                    cse_state.dead_code_candidates()
                } else {
                    None
                };
                changed |= r.run("dce", Lowered, |b| match candidates {
                    Some(c) => dce::run_from_candidates(b, dce_scratch, c),
                    None => dce::run_with_scratch(b, dce_scratch),
                })?;
            }
        }
        if !changed {
            break;
        }
    }

    // Cleanup.
    // The loop changed no block, label or terminator: CSE's CFG is still the program's.
    // CSE found one block per function (and built no CFG): no block to bypass or remove, no
    // phi to fix, so cfg_cleanup would find nothing.
    let one_block = cse_state.one_block_per_function();
    let (cfg, valid) = cse_state.cfg_buffer();
    if opts.cfg_cleanup
        && r.run("cfg_cleanup", Lowered, |b| {
            if one_block {
                return Ok(false);
            }
            cfg_cleanup::run_in_cfg(b, cfg, valid)
        })?
        && opts.dce
    {
        r.run("dce", Lowered, |b| dce::run_with_scratch(b, dce_scratch))?;
    }
    if opts.remove_unused_declarations {
        r.run("unused_declarations", Lowered, unused_declarations::run)?;
    }
    if opts.infer_non_uniform {
        r.run("infer_non_uniform", Lowered, infer_non_uniform::run)?;
    }
    Ok(r.report)
}
