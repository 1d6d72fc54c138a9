//! Decode and disassembly throughput over the shared corpus's Direct3D 9 shaders.
//!
//! Each benchmark processes every corpus `.d3d9` file once per iteration; the byte and
//! instruction counters let divan report MB/s and instructions/s.

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
use dxspv_sm3::{disassemble, Instruction, Shader};

const CORPUS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/corpus/d3d9");

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
            } else if p.extension().is_some_and(|x| x == "d3d9") {
                if let Ok(b) = std::fs::read(&p) {
                    files.push(b);
                }
            }
        }
    }
    files
}

fn counters(files: &[Vec<u8>]) -> (usize, usize) {
    let bytes = files.iter().map(Vec::len).sum();
    let instructions = files
        .iter()
        .filter_map(|f| Shader::parse(f).ok())
        .map(|s| s.instruction_count as usize)
        .sum();
    (bytes, instructions)
}

/// `Shader::parse` (version, structure walk, constant table) plus decoding every
/// instruction into one reused buffer.
#[divan::bench]
fn decode_corpus(bencher: Bencher) {
    let files = corpus();
    let (bytes, instructions) = counters(&files);
    println!(
        "corpus: {} files, {bytes} bytes, {instructions} instructions",
        files.len()
    );
    bencher
        .counter(BytesCount::new(bytes))
        .counter(ItemsCount::new(instructions))
        .bench(|| {
            let mut n = 0usize;
            for f in &files {
                if let Ok(s) = Shader::parse(divan::black_box(f)) {
                    let mut inst = Instruction::default();
                    let mut it = s.instructions();
                    while let Some(Ok(())) = it.next_into(&mut inst) {
                        n += inst.sources().len() + 1;
                    }
                }
            }
            n
        });
}

/// Instruction decoding only, on shaders parsed up front.
#[divan::bench]
fn decode_instructions_only(bencher: Bencher) {
    let files = corpus();
    let shaders: Vec<Shader<'_>> = files.iter().filter_map(|f| Shader::parse(f).ok()).collect();
    let bytes: usize = shaders.iter().map(|s| s.tokens.len() * 4).sum();
    let instructions: usize = shaders.iter().map(|s| s.instruction_count as usize).sum();
    bencher
        .counter(BytesCount::new(bytes))
        .counter(ItemsCount::new(instructions))
        .bench(|| {
            let mut n = 0usize;
            for s in &shaders {
                let mut inst = Instruction::default();
                let mut it = divan::black_box(s).instructions();
                while let Some(Ok(())) = it.next_into(&mut inst) {
                    n += inst.sources().len() + 1;
                }
            }
            n
        });
}

/// Full disassembly to text.
#[divan::bench]
fn disassemble_corpus(bencher: Bencher) {
    let files = corpus();
    let (bytes, instructions) = counters(&files);
    bencher
        .counter(BytesCount::new(bytes))
        .counter(ItemsCount::new(instructions))
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
