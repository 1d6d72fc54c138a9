//! Decode and disassembly throughput over the shared corpus.
//!
//! Each benchmark processes every corpus DXBC file once per iteration; the
//! byte and instruction counters let divan report MB/s and instructions/s.

// Benchmarks may unwrap, panic and print (production code may not: see the workspace lints).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::print_stdout,
    clippy::print_stderr
)]
use std::path::Path;

use divan::counter::{BytesCount, ItemsCount};
use divan::Bencher;
use dxspv_dxbc::{disassemble, Shader};

const CORPUS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/corpus/dxbc");

fn corpus() -> Vec<Vec<u8>> {
    let mut files = Vec::new();
    let mut stack = vec![Path::new(CORPUS).to_path_buf()];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "dxbc") {
                if let Ok(b) = std::fs::read(&p) {
                    files.push(b);
                }
            }
        }
    }
    files
}

fn instruction_count(files: &[Vec<u8>]) -> usize {
    files
        .iter()
        .filter_map(|f| Shader::parse(f).ok())
        .map(|s| s.program.instructions().count())
        .sum()
}

/// Full decode of every instruction (container parse included).
#[divan::bench]
fn decode_corpus(bencher: Bencher) {
    let files = corpus();
    let bytes: usize = files.iter().map(Vec::len).sum();
    let insts = instruction_count(&files);
    println!(
        "corpus: {} files, {bytes} bytes, {insts} instructions",
        files.len()
    );
    bencher
        .counter(BytesCount::new(bytes))
        .counter(ItemsCount::new(insts))
        .bench(|| {
            let mut n = 0usize;
            for f in &files {
                if let Ok(s) = Shader::parse(divan::black_box(f)) {
                    for i in s.program.instructions().flatten() {
                        n += i.operands().len() + 1;
                    }
                }
            }
            n
        });
}

/// Instruction decode only, on programs located up front.
#[divan::bench]
fn decode_programs_only(bencher: Bencher) {
    let files = corpus();
    let shaders: Vec<Shader<'_>> = files.iter().filter_map(|f| Shader::parse(f).ok()).collect();
    let bytes: usize = shaders.iter().map(|s| s.program.tokens.len() * 4).sum();
    let insts: usize = shaders
        .iter()
        .map(|s| s.program.instructions().count())
        .sum();
    bencher
        .counter(BytesCount::new(bytes))
        .counter(ItemsCount::new(insts))
        .bench(|| {
            let mut n = 0usize;
            for s in &shaders {
                for i in divan::black_box(s.program).instructions().flatten() {
                    n += i.operands().len() + 1;
                }
            }
            n
        });
}

/// Full disassembly to text.
#[divan::bench]
fn disassemble_corpus(bencher: Bencher) {
    let files = corpus();
    let bytes: usize = files.iter().map(Vec::len).sum();
    let insts = instruction_count(&files);
    bencher
        .counter(BytesCount::new(bytes))
        .counter(ItemsCount::new(insts))
        .bench(|| {
            let mut n = 0usize;
            for f in &files {
                if let Ok(t) = disassemble(divan::black_box(f)) {
                    n += t.len();
                }
            }
            n
        });
}

fn main() {
    divan::main();
}
