//! Throughput of building, serializing, deserializing, printing and parsing a big program
//! (`testgen::large_program(100_000)`), in ops per second (and bytes per second where a byte
//! form is involved).
//!
//! Run with `cargo bench -p dxspv-ir --bench ir`.

// Benchmarks may unwrap, panic and print (production code may not: see the workspace lints).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::print_stdout,
    clippy::print_stderr
)]
use divan::counter::{BytesCount, ItemsCount};
use divan::{black_box, Bencher};
use dxspv_ir::{serialize, testgen, text};

/// Ops in the benchmark program.
const OPS: usize = 100_000;

fn main() {
    divan::main();
}

/// Generating the program through the builder (`Builder::add_with_id`, use lists).
#[divan::bench(sample_count = 20)]
fn build_program(bencher: Bencher) {
    bencher
        .counter(ItemsCount::new(OPS))
        .bench(|| testgen::large_program(black_box(OPS)));
}

/// Writing the binary form.
#[divan::bench(sample_count = 20)]
fn serialize_binary(bencher: Bencher) {
    let b = testgen::large_program(OPS);
    let len = serialize::serialize(&b).len();
    bencher
        .counter(ItemsCount::new(OPS))
        .counter(BytesCount::new(len))
        .bench(|| serialize::serialize(black_box(&b)));
}

/// Reading the binary form back into a builder.
#[divan::bench(sample_count = 20)]
fn deserialize_binary(bencher: Bencher) {
    let bytes = serialize::serialize(&testgen::large_program(OPS));
    bencher
        .counter(ItemsCount::new(OPS))
        .counter(BytesCount::new(bytes.len()))
        .bench(|| serialize::deserialize(black_box(&bytes)));
}

/// Printing the text form.
#[divan::bench(sample_count = 20)]
fn print_text(bencher: Bencher) {
    let b = testgen::large_program(OPS);
    let len = text::print(&b).len();
    bencher
        .counter(ItemsCount::new(OPS))
        .counter(BytesCount::new(len))
        .bench(|| text::print(black_box(&b)));
}

/// Parsing the text form back into a builder.
#[divan::bench(sample_count = 20)]
fn parse_text(bencher: Bencher) {
    let s = text::print(&testgen::large_program(OPS));
    bencher
        .counter(ItemsCount::new(OPS))
        .counter(BytesCount::new(s.len()))
        .bench(|| text::parse(black_box(&s)));
}
