//! Deterministic mutations of every corpus DXIL container: bit flips, byte overwrites,
//! truncations, zeroed and duplicated word runs inside the bitcode, each read completely
//! (container, module, DXIL metadata) and disassembled. Every mutant must give `Ok` or an
//! error, never a panic; the test counts how many still read.

// Tests may unwrap, panic and print (production code may not: see the workspace lints).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::print_stdout,
    clippy::print_stderr
)]
use dxspv_container::{Container, FourCC};
use dxspv_dxil::Shader;
use dxspv_testkit::{Corpus, Rng};

/// Mutants per corpus file.
const MUTANTS: usize = 160;

/// Reads a mutant every way the crate offers; `true` when everything read.
fn read_all(bytes: &[u8]) -> bool {
    let shader_ok = Shader::parse(bytes).is_ok();
    let listing_ok = dxspv_dxil::disassemble(bytes).is_ok();
    shader_ok && listing_ok
}

/// The byte range of the bitcode inside the container (to aim mutations there).
fn bitcode_range(bytes: &[u8]) -> Option<(usize, usize)> {
    let c = Container::parse(bytes).ok()?;
    let part = c.part(FourCC::DXIL)?;
    let start = part.offset + 8 + 24;
    Some((start, part.offset + 8 + part.data.len()))
}

#[test]
fn mutated_corpus_shaders_never_panic() {
    let Some(corpus) = Corpus::open() else {
        return;
    };
    let mut rng = Rng::new(0xD0C5_1DE5);
    let (mut total, mut still_read) = (0usize, 0usize);
    for e in corpus.of_format("dxil") {
        let original = corpus.read(e);
        let Some((start, end)) = bitcode_range(&original) else {
            panic!("{}: no DXIL part", e.path);
        };
        for i in 0..MUTANTS {
            let mut m = original.clone();
            let at = rng.range(start as u64, end as u64 - 1) as usize;
            match i % 6 {
                0 | 1 => m[at] ^= 1 << rng.below(8),
                2 => m[at] = rng.below(256) as u8,
                3 => {
                    // Cut the container inside the bitcode.
                    m.truncate(at);
                }
                4 => {
                    // A run of zero words (an END_BLOCK storm, zero-width abbreviations).
                    let len = rng.range(1, 16) as usize * 4;
                    let stop = (at + len).min(end);
                    m[at..stop].fill(0);
                }
                _ => {
                    // Copy a run from elsewhere in the bitcode over this one.
                    let from = rng.range(start as u64, end as u64 - 1) as usize;
                    let len = (rng.range(1, 64) as usize).min(end - at).min(end - from);
                    let run = original[from..from + len].to_vec();
                    m[at..at + len].copy_from_slice(&run);
                }
            }
            total += 1;
            still_read += usize::from(read_all(&m));
        }
    }
    println!("{total} mutants, {still_read} read completely, the rest were refused with an error");
}
