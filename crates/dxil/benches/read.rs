//! Reading throughput over the corpus's DXIL shaders: the plain bitstream walk (MB/s and
//! records/s), the module layer (MB/s and instructions/s) and the disassembler.
//!
//! Each benchmark processes the bitcode of every corpus DXIL container once per iteration
//! (containers are unwrapped outside the timed loop); divan reports the rates from the byte
//! and item counters.

// Benchmarks may unwrap, panic and print (production code may not: see the workspace lints).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::print_stdout,
    clippy::print_stderr
)]
use divan::counter::{BytesCount, ItemsCount};
use divan::Bencher;
use dxspv_container::{Container, DxilProgram, FourCC};
use dxspv_dxil::bitstream::walk;
use dxspv_dxil::module::Module;

fn main() {
    divan::main();
}

/// The bitcode of every corpus DXIL container (empty without the corpus).
fn bitcodes() -> Vec<Vec<u8>> {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/corpus/dxil");
    let mut out = Vec::new();
    let mut stack = vec![std::path::PathBuf::from(root)];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
                continue;
            }
            let Ok(bytes) = std::fs::read(&p) else {
                continue;
            };
            let Ok(c) = Container::parse(&bytes) else {
                continue;
            };
            if let Some(part) = c.part(FourCC::DXIL) {
                if let Ok(program) = DxilProgram::parse(part.fourcc, part.data) {
                    out.push(program.bitcode.to_vec());
                }
            }
        }
    }
    if out.is_empty() {
        println!("corpus not found at {root}: nothing to measure");
    }
    out
}

/// Visits every block and record (operands decoded, nothing interpreted).
#[divan::bench]
fn bitstream_walk(bencher: Bencher) {
    let files = bitcodes();
    let bytes: usize = files.iter().map(Vec::len).sum();
    let records: u64 = files
        .iter()
        .filter_map(|f| walk(f).ok())
        .map(|s| s.records)
        .sum();
    println!("{} modules, {bytes} bytes, {records} records", files.len());
    bencher
        .counter(BytesCount::new(bytes))
        .counter(ItemsCount::new(records as usize))
        .bench(|| {
            let mut n = 0u64;
            for f in &files {
                if let Ok(s) = walk(divan::black_box(f)) {
                    n += s.records;
                }
            }
            n
        });
}

/// Reads every module completely (types, constants, metadata, function bodies, checks).
#[divan::bench]
fn module_read(bencher: Bencher) {
    let files = bitcodes();
    let bytes: usize = files.iter().map(Vec::len).sum();
    let instructions: usize = files
        .iter()
        .filter_map(|f| Module::read(f).ok())
        .map(|m| {
            m.definitions()
                .map(|(_, b)| b.instructions.len())
                .sum::<usize>()
        })
        .sum();
    println!(
        "{} modules, {bytes} bytes, {instructions} instructions",
        files.len()
    );
    bencher
        .counter(BytesCount::new(bytes))
        .counter(ItemsCount::new(instructions))
        .bench(|| {
            let mut n = 0usize;
            for f in &files {
                if let Ok(m) = Module::read(divan::black_box(f)) {
                    n += m.functions.len();
                }
            }
            n
        });
}

/// Reads and disassembles every module.
#[divan::bench]
fn disassemble(bencher: Bencher) {
    let files = bitcodes();
    let bytes: usize = files.iter().map(Vec::len).sum();
    bencher.counter(BytesCount::new(bytes)).bench(|| {
        let mut n = 0usize;
        for f in &files {
            if let Ok(text) = dxspv_dxil::disasm::disassemble_bitcode(divan::black_box(f)) {
                n += text.len();
            }
        }
        n
    });
}
