//! The corpus at every target environment: every corpus shader that compiles (the corpus
//! test, `spirv_corpus.rs`, checks the default target, `vulkan1.3`, and the refusals) is
//! emitted again for each other [`TargetEnv`] and checked with `spirv-val --target-env` of
//! that target. A target may refuse a shader only for a feature it lacks (an
//! `Unsupported` backend error naming the target); none of the corpus does today.
//!
//! The shader goes through the frontend and the passes once, then the backend once per
//! target; `spirv-val` runs on all cores. It prints one line per target (emitted, valid,
//! refused).

// Tests may unwrap, panic and print (production code may not: see the workspace lints).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::print_stdout,
    clippy::print_stderr
)]
use dxspv::spirv::{emit, SpirvError, SpirvOptions, TargetEnv};
use dxspv::{IrStage, Options};
use dxspv_testkit::{installed, spirv_val_with, Corpus};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// What one target made of the corpus.
#[derive(Default, Clone)]
struct Tally {
    emitted: usize,
    valid: usize,
    refused: usize,
}

#[test]
fn every_compiling_corpus_shader_is_valid_at_every_target() {
    let Some(corpus) = Corpus::open() else { return };
    if !installed("spirv-val") {
        println!(
            "spirv-val not installed: target validation skipped (apt-get install spirv-tools)"
        );
        return;
    }
    let opts = Options::default();
    let targets: Vec<TargetEnv> = TargetEnv::ALL
        .into_iter()
        .filter(|t| *t != TargetEnv::default())
        .collect();
    // Lowered IR of every shader the default target compiles.
    let mut irs = Vec::new();
    for format in ["dxbc", "d3d9", "dxil"] {
        for entry in corpus.of_format(format) {
            let Ok(ir) = dxspv::to_ir(&corpus.read(entry), IrStage::Lowered, &opts) else {
                continue;
            };
            if emit(&ir, &opts.spirv).is_ok() {
                irs.push((entry.path.clone(), ir));
            }
        }
    }
    let next = AtomicUsize::new(0);
    let tallies = Mutex::new(vec![Tally::default(); targets.len()]);
    let failures = Mutex::new(Vec::new());
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get());
    std::thread::scope(|s| {
        for _ in 0..workers {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some((path, ir)) = irs.get(i) else { break };
                for (k, &target) in targets.iter().enumerate() {
                    let spirv_opts = SpirvOptions {
                        target_env: target,
                        ..opts.spirv.clone()
                    };
                    let verdict = match emit(ir, &spirv_opts) {
                        Ok(words) => {
                            let env = target.spirv_val_name();
                            match spirv_val_with(&words, &["--target-env", env]) {
                                Some(Ok(())) => Ok(true),
                                Some(Err(msg)) => {
                                    let first = msg.lines().next().unwrap_or("").to_string();
                                    Err(format!("{path} for {target}: spirv-val: {first}"))
                                }
                                None => Err(format!("{path} for {target}: spirv-val did not run")),
                            }
                        }
                        // A target may lack a feature, and must say which.
                        Err(e @ SpirvError::Unsupported { .. })
                            if e.to_string().contains(target.name()) =>
                        {
                            Ok(false)
                        }
                        Err(e) => Err(format!("{path} for {target}: {e}")),
                    };
                    let mut t = tallies.lock().expect("tally lock");
                    match verdict {
                        Ok(valid) => {
                            t[k].emitted += usize::from(valid);
                            t[k].valid += usize::from(valid);
                            t[k].refused += usize::from(!valid);
                        }
                        Err(f) => {
                            t[k].emitted += 1;
                            failures.lock().expect("failure lock").push(f);
                        }
                    }
                }
            });
        }
    });
    let tallies = tallies.into_inner().expect("tally lock");
    for (target, t) in targets.iter().zip(&tallies) {
        println!(
            "{target}: {} shaders, emitted {}, valid {}, refused {}",
            irs.len(),
            t.emitted,
            t.valid,
            t.refused
        );
    }
    let failures = failures.into_inner().expect("failure lock");
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(irs.len() > 700, "only {} shaders compiled", irs.len());
}
