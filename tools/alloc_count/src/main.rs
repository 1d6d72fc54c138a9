//! Counts heap allocations (alloc + realloc calls) per shader for each compile stage and each
//! pass, over every DXBC file of the corpus. Allocation count is a deterministic proxy for a
//! large share of per-shader fixed cost.
//!
//! Run: `cd tools/alloc_count && cargo run --release [-- CORPUS_DIR]`.

use dxspv_ir::passes::{
    cfg_cleanup, constant_fold, cse, dce, lower_legacy, lower_min_precision, resolve_types,
    scoped_to_structured, simplify_arith, ssa_construction, unused_declarations, util, PassError,
};
use dxspv_ir::Builder;
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

struct Counting;
static COUNT: AtomicUsize = AtomicUsize::new(0);

// SAFETY: forwards to the system allocator unchanged; only counts calls.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        COUNT.fetch_add(1, Relaxed);
        unsafe { System.alloc(l) }
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        unsafe { System.dealloc(p, l) }
    }
    unsafe fn realloc(&self, p: *mut u8, l: Layout, n: usize) -> *mut u8 {
        COUNT.fetch_add(1, Relaxed);
        unsafe { System.realloc(p, l, n) }
    }
}

#[global_allocator]
static ALLOC: Counting = Counting;

type Pass<'a> = &'a mut dyn FnMut(&mut Builder) -> Result<bool, PassError>;

fn main() {
    let root = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "../../../shared/corpus/dxbc".into());
    let mut blobs = vec![];
    for src in std::fs::read_dir(&root).into_iter().flatten().flatten() {
        for f in std::fs::read_dir(src.path())
            .into_iter()
            .flatten()
            .flatten()
        {
            if let Ok(b) = std::fs::read(f.path()) {
                blobs.push(b);
            }
        }
    }
    let mut stage = [0usize; 4];
    let mut per_pass: Vec<(&'static str, usize)> = vec![];
    let mut n = 0;
    let opts = dxspv_ir::passes::Options::default();
    // The buffers the pipeline's workspace keeps between compiles.
    let mut ssa_scratch = ssa_construction::Scratch::default();
    let mut resolve_scratch = resolve_types::Scratch::default();
    let mut cse_state = cse::State::default();
    let mut dce_scratch = dce::Scratch::default();
    for b in &blobs {
        let s0 = COUNT.load(Relaxed);
        let Ok(sh) = dxspv_dxbc::Shader::parse(b) else {
            continue;
        };
        let s1 = COUNT.load(Relaxed);
        let Ok(mut ir) = dxspv_dxbc::convert(&sh) else {
            continue;
        };
        let s2 = COUNT.load(Relaxed);
        let mut run = |name: &'static str, f: Pass, ir: &mut Builder| -> bool {
            let a = COUNT.load(Relaxed);
            let r = f(ir);
            let d = COUNT.load(Relaxed) - a;
            match per_pass.iter_mut().find(|x| x.0 == name) {
                Some(x) => x.1 += d,
                None => per_pass.push((name, d)),
            }
            r.unwrap_or(false)
        };
        run(
            "scoped_to_structured",
            &mut scoped_to_structured::run,
            &mut ir,
        );
        run(
            "ssa_construction",
            &mut |b| ssa_construction::run_with_scratch(b, &mut ssa_scratch),
            &mut ir,
        );
        run(
            "resolve_types",
            &mut |b| resolve_types::run_with_scratch(b, &mut resolve_scratch),
            &mut ir,
        );
        run(
            "lower_legacy",
            &mut |b| lower_legacy::run(b, &opts),
            &mut ir,
        );
        run(
            "lower_min_precision",
            &mut |b| lower_min_precision::run_after_lower_legacy(b, opts.min_precision),
            &mut ir,
        );
        let modes = util::FpModes::collect(&ir);
        cse_state.invalidate();
        // As in the pipeline: SSA construction's CFG (if it built one) serves CSE.
        if let Some(cfg) = ssa_scratch.cfg() {
            cse_state.adopt_cfg(cfg);
        }
        // As in the pipeline: a round after one where only CSE and DCE changed something runs
        // only if simplification has something for a user of a merged value.
        let mut only_merges = false;
        for round in 0..opts.max_optimisation_rounds {
            if only_merges {
                let users = cse_state.merged().flat_map(|d| ir.uses(d).map(|u| u.user));
                if !simplify_arith::would_simplify(&ir, users, &modes) {
                    break;
                }
            }
            let mut changed = false;
            changed |= run(
                "constant_fold",
                &mut |b| constant_fold::run_with_modes(b, &modes),
                &mut ir,
            );
            changed |= run(
                "simplify_arith",
                &mut |b| simplify_arith::run_with_modes(b, &modes),
                &mut ir,
            );
            only_merges = !changed;
            if round == 0 || changed {
                changed |= run(
                    "cse",
                    &mut |b| cse::run_with_state(b, &mut cse_state),
                    &mut ir,
                );
                changed |= run(
                    "dce",
                    &mut |b| dce::run_with_scratch(b, &mut dce_scratch),
                    &mut ir,
                );
            }
            if !changed {
                break;
            }
        }
        let (cfg, valid) = cse_state.cfg_buffer();
        run(
            "cfg_cleanup",
            &mut |b| cfg_cleanup::run_in_cfg(b, cfg, valid),
            &mut ir,
        );
        run(
            "dce (after cleanup)",
            &mut |b| dce::run_with_scratch(b, &mut dce_scratch),
            &mut ir,
        );
        run(
            "unused_declarations",
            &mut unused_declarations::run,
            &mut ir,
        );
        let s3 = COUNT.load(Relaxed);
        let Ok(_) = dxspv_spirv::emit_with_reflection(&ir, &Default::default()) else {
            continue;
        };
        let s4 = COUNT.load(Relaxed);
        for (slot, d) in stage.iter_mut().zip([s1 - s0, s2 - s1, s3 - s2, s4 - s3]) {
            *slot += d;
        }
        n += 1;
    }
    let per = |x: usize| x as f64 / n.max(1) as f64;
    println!(
        "{n} shaders; allocations per shader: parse {:.1}, convert {:.1}, passes {:.1}, spirv {:.1}",
        per(stage[0]),
        per(stage[1]),
        per(stage[2]),
        per(stage[3])
    );
    for (name, count) in &per_pass {
        println!("  {name:<22} {:.1}", per(*count));
    }
}
