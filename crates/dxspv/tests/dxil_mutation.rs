//! Deterministic mutations of every corpus DXIL container, aimed at its bitcode (bit flips,
//! byte overwrites, truncations, zeroed word runs, runs copied from elsewhere in the
//! bitcode), each compiled by [`dxspv::compile`] with the validator after every pass. Every
//! mutant must give an error or SPIR-V that `spirv-val --target-env vulkan1.3` accepts, and
//! never panic. Prints how many mutants compiled and why the others were refused.

// Tests may unwrap, panic and print (production code may not: see the workspace lints).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::print_stdout,
    clippy::print_stderr
)]
use dxspv_testkit::{installed, spirv_val, Corpus, Rng};
use std::collections::{BTreeMap, HashSet};
use std::panic::{catch_unwind, AssertUnwindSafe};

/// Mutants per corpus file (`DXIL_MUTANTS` overrides it for a longer run).
const MUTANTS: usize = 48;

fn read_u32(b: &[u8], at: usize) -> Option<usize> {
    let s = b.get(at..at + 4)?;
    Some(u32::from_le_bytes([s[0], s[1], s[2], s[3]]) as usize)
}

/// The byte range of the bitcode inside the container (to aim mutations there): the `DXIL`
/// part (the container header's part count at byte 28, part offsets from byte 32; a part
/// is its four-character code, its size and its data), past its 24-byte program header.
fn bitcode_range(bytes: &[u8]) -> Option<(usize, usize)> {
    let parts = read_u32(bytes, 28)?;
    (0..parts.min(64)).find_map(|i| {
        let off = read_u32(bytes, 32 + 4 * i)?;
        if bytes.get(off..off + 4)? != b"DXIL" {
            return None;
        }
        let size = read_u32(bytes, off + 4)?;
        let end = (off + 8).checked_add(size)?.min(bytes.len());
        Some((off + 8 + 24, end))
    })
}

/// Mutant `i` of `original` (whose bitcode is `start..end`).
fn mutant(original: &[u8], start: usize, end: usize, i: usize, rng: &mut Rng) -> Vec<u8> {
    let mut m = original.to_vec();
    let at = rng.range(start as u64, end as u64 - 1) as usize;
    match i % 6 {
        0 | 1 => m[at] ^= 1 << rng.below(8),
        2 => m[at] = rng.below(256) as u8,
        3 => m.truncate(at),
        4 => {
            let len = rng.range(1, 16) as usize * 4;
            let stop = (at + len).min(end);
            m[at..stop].fill(0);
        }
        _ => {
            let from = rng.range(start as u64, end as u64 - 1) as usize;
            let len = (rng.range(1, 64) as usize).min(end - at).min(end - from);
            let run = original[from..from + len].to_vec();
            m[at..at + len].copy_from_slice(&run);
        }
    }
    m
}

#[test]
fn mutated_dxil_compiles_to_valid_spirv_or_is_refused() {
    let Some(corpus) = Corpus::open() else {
        return;
    };
    let validate = installed("spirv-val");
    if !validate {
        println!("spirv-val not installed: outputs not validated");
    }
    let mut opts = dxspv::Options::default();
    opts.passes.validate_each_pass = true;
    let mutants = std::env::var("DXIL_MUTANTS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(MUTANTS);
    let mut rng = Rng::new(0x00D1_1C0D);
    let (mut total, mut compiled) = (0usize, 0usize);
    let mut refused: BTreeMap<&'static str, usize> = BTreeMap::new();
    let mut failures = Vec::new();
    let mut outputs: Vec<(String, Vec<u32>)> = Vec::new();
    let mut seen = HashSet::new();
    for e in corpus.of_format("dxil") {
        let original = corpus.read(e);
        let Some((start, end)) = bitcode_range(&original) else {
            panic!("{}: no DXIL part", e.path);
        };
        if end <= start + 1 {
            continue;
        }
        for i in 0..mutants {
            let m = mutant(&original, start, end, i, &mut rng);
            total += 1;
            match catch_unwind(AssertUnwindSafe(|| dxspv::compile(&m, &opts))) {
                Ok(Ok(out)) => {
                    compiled += 1;
                    if seen.insert(out.spirv.clone()) {
                        outputs.push((format!("{} mutant {i}", e.path), out.spirv));
                    }
                }
                Ok(Err(err)) => {
                    // IR the passes' validator or the backend find malformed is an error too,
                    // but one the converter could have given with a better message: listed
                    // with DXIL_MUTATION_SHOW.
                    if matches!(err.kind(), "pass" | "spirv-malformed")
                        && std::env::var_os("DXIL_MUTATION_SHOW").is_some()
                    {
                        println!("{} mutant {i}: {err}", e.path);
                    }
                    *refused.entry(err.kind()).or_default() += 1
                }
                Err(_) => failures.push(format!("{} mutant {i}: panicked", e.path)),
            }
        }
    }
    if validate {
        // Validate the distinct outputs on every core.
        let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
        let chunk = outputs.len().div_ceil(threads).max(1);
        let invalid: Vec<String> = std::thread::scope(|s| {
            let handles: Vec<_> = outputs
                .chunks(chunk)
                .map(|part| {
                    s.spawn(move || {
                        part.iter()
                            .filter_map(|(name, words)| match spirv_val(words) {
                                Some(Err(msg)) => Some(format!(
                                    "{name}: spirv-val: {}",
                                    msg.lines().next().unwrap_or("")
                                )),
                                _ => None,
                            })
                            .collect::<Vec<_>>()
                    })
                })
                .collect();
            handles
                .into_iter()
                .flat_map(|h| h.join().unwrap())
                .collect()
        });
        failures.extend(invalid);
    }
    println!(
        "{total} DXIL mutants: {compiled} compiled ({} distinct outputs validated), {} refused",
        outputs.len(),
        total - compiled
    );
    for (kind, n) in &refused {
        println!("  refused {kind}: {n}");
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(total > 1000, "too few mutants were run");
}
