//! `dxspv-runner <case.json | dir>... [--corpus DIR]...`: executes execution cases on Vulkan.

use dxspv_runner::{collect, default_corpus, run_case, vk::Gpu, Totals};
use std::path::PathBuf;
use std::process::ExitCode;

fn main() -> ExitCode {
    let mut inputs = Vec::new();
    let mut corpora = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        if a == "--corpus" {
            match args.next() {
                Some(d) => corpora.push(PathBuf::from(d)),
                None => {
                    eprintln!("--corpus needs a folder");
                    return ExitCode::from(2);
                }
            }
        } else if a == "-h" || a == "--help" {
            println!("usage: dxspv-runner <case.json | dir>... [--corpus DIR]...");
            return ExitCode::SUCCESS;
        } else {
            inputs.push(PathBuf::from(a));
        }
    }
    if inputs.is_empty() {
        eprintln!("usage: dxspv-runner <case.json | dir>... [--corpus DIR]...");
        return ExitCode::from(2);
    }
    if corpora.is_empty() {
        corpora.push(default_corpus());
    }
    let files = match collect(&inputs) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    let gpu = match Gpu::new() {
        Ok(g) => g,
        Err(e) => {
            eprintln!("cannot open a Vulkan device: {e}");
            return ExitCode::from(2);
        }
    };
    eprintln!("device: {}", gpu.name);
    let mut all = Vec::new();
    for f in &files {
        for r in run_case(&gpu, f, &corpora) {
            println!("{r}");
            all.push(r);
        }
    }
    let t = Totals::of(&all);
    println!(
        "{} passed, {} failed, {} skipped",
        t.passed, t.failed, t.skipped
    );
    if t.failed > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
