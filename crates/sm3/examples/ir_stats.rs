//! Prints IR sizes and pass times over the D3D9 corpus: D3D9 instructions, frontend ops by
//! opcode, lowered ops, the mean time of each pass per shader, and the resource and input
//! declarations nothing uses after the passes (`SHOW_UNUSED=1` names the shaders).
//!
//! Run: `cargo run --release -p dxspv-sm3 --example ir_stats [-- rounds]`.

// Examples may unwrap, panic and print (production code may not: see the workspace lints).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::print_stdout,
    clippy::print_stderr
)]
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

fn main() {
    let rounds: u32 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(5);
    let Some(corpus) = dxspv_testkit::corpus::Corpus::open() else {
        return;
    };
    let files: Vec<std::path::PathBuf> = corpus
        .of_format("d3d9")
        .into_iter()
        .map(|e| corpus.path(e))
        .collect();
    let blobs: Vec<Vec<u8>> = files.iter().map(|f| std::fs::read(f).unwrap()).collect();
    let opts = dxspv_sm3::Options::default();
    let popts = dxspv_ir::passes::Options {
        validate_each_pass: false,
        time_passes: true,
        ..Default::default()
    };
    let (mut insts, mut raw, mut low, mut n) = (0usize, 0usize, 0usize, 0usize);
    let mut by_op: BTreeMap<String, usize> = BTreeMap::new();
    let mut low_by_op: BTreeMap<String, usize> = BTreeMap::new();
    let mut unused: BTreeMap<String, usize> = BTreeMap::new();
    let mut passes: Vec<(&str, Duration)> = Vec::new();
    let mut convert = Duration::ZERO;
    for round in 0..rounds {
        for (path, bytes) in files.iter().zip(&blobs) {
            let Ok(shader) = dxspv_sm3::Shader::parse(bytes) else {
                continue;
            };
            let t = Instant::now();
            let Ok(mut ir) = dxspv_sm3::convert(&shader, &opts) else {
                continue;
            };
            let dt = t.elapsed();
            let last = round + 1 == rounds;
            if last {
                convert += dt;
                insts += shader.instructions().count();
                for op in ir.iter() {
                    *by_op.entry(format!("{:?}", op.1.opcode)).or_default() += 1;
                }
                raw += ir.iter().count();
            }
            let Ok(report) = dxspv_ir::passes::run_pipeline(&mut ir, &popts) else {
                continue;
            };
            if last {
                for p in &report.passes {
                    match passes.iter_mut().find(|x| x.0 == p.name) {
                        Some(x) => x.1 += p.duration,
                        None => passes.push((p.name, p.duration)),
                    }
                }
                for op in ir.iter() {
                    *low_by_op.entry(format!("{:?}", op.1.opcode)).or_default() += 1;
                }
                low += ir.iter().count();
                n += 1;
                for (d, op) in ir.iter() {
                    use dxspv_ir::OpCode as O;
                    if matches!(
                        op.opcode,
                        O::DclInput
                            | O::DclCbv
                            | O::DclSrv
                            | O::DclSampler
                            | O::DclSpecConstant
                            | O::DclPushData
                    ) && ir.uses(d).all(|u| {
                        ir.get(u.user)
                            .is_some_and(|o| matches!(o.opcode, O::DebugName | O::Semantic))
                    }) {
                        *unused.entry(format!("{:?}", op.opcode)).or_default() += 1;
                        if std::env::var_os("SHOW_UNUSED").is_some() {
                            println!("unused {:?} in {}", op.opcode, path.display());
                        }
                    }
                }
            }
        }
    }
    let per = |x: f64| x / n.max(1) as f64;
    println!(
        "{n} shaders: instructions {:.1}/shader, frontend ops {:.1}/shader, lowered ops {:.1}/shader, convert {:.2} us/shader",
        per(insts as f64),
        per(raw as f64),
        per(low as f64),
        per(convert.as_secs_f64() * 1e6)
    );
    let mut total = 0.0;
    for (name, d) in passes {
        total += per(d.as_secs_f64() * 1e6);
        println!("  {name:<22} {:>8.2} us/shader", per(d.as_secs_f64() * 1e6));
    }
    println!("  passes total           {total:>8.2} us/shader");
    println!("unused declarations after the passes: {unused:?}");
    let mut v: Vec<_> = by_op.into_iter().collect();
    v.sort_by_key(|x| std::cmp::Reverse(x.1));
    println!("frontend ops by opcode (per shader, then lowered):");
    for (k, c) in v {
        println!(
            "  {k:<22} {:>7.2} {:>7.2}",
            per(c as f64),
            per(*low_by_op.get(&k).unwrap_or(&0) as f64)
        );
    }
}
