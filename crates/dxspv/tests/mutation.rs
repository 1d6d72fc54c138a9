//! Deterministic mutation test: every corpus shader, mutated in fixed-seed ways (bit flips,
//! truncations, length- and count-field corruption, part reordering, token splicing), goes
//! through the whole front half of dxspv. The test asserts that nothing panics, that each input
//! finishes within a time bound and that peak heap use stays bounded, and prints how many
//! mutants were accepted and how many were rejected, by error kind.

// Tests may unwrap, panic and print (production code may not: see the workspace lints).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::print_stdout,
    clippy::print_stderr
)]
use peak_alloc::PeakAlloc;
use std::collections::BTreeMap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::{Duration, Instant};

#[global_allocator]
static ALLOC: PeakAlloc = PeakAlloc;

/// Most time one mutant may take (debug builds are slow; real inputs take microseconds).
const TIME_BOUND: Duration = Duration::from_secs(2);

/// Most extra heap one mutant may use: a fixed allowance plus a multiple of its size.
fn heap_bound(len: usize) -> usize {
    16 * 1024 * 1024 + 512 * len
}

/// The mutation generator's random numbers: [`dxspv_testkit::Rng`] with `usize` bounds.
struct Rng(dxspv_testkit::Rng);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0.next_u64()
    }

    fn below(&mut self, n: usize) -> usize {
        self.0.below(n as u64) as usize
    }
}

fn read_u32(b: &[u8], off: usize) -> Option<u32> {
    let s = b.get(off..off + 4)?;
    Some(u32::from_le_bytes([s[0], s[1], s[2], s[3]]))
}

fn write_u32(b: &mut [u8], off: usize, v: u32) {
    if let Some(s) = b.get_mut(off..off + 4) {
        s.copy_from_slice(&v.to_le_bytes());
    }
}

/// Offsets of the fields of a DXBC container worth corrupting: total size, part count, each
/// part offset, each part's size, and the first tokens of each part (program headers,
/// signature and RDEF counts).
fn container_fields(b: &[u8]) -> Vec<usize> {
    let mut fields = vec![24, 28];
    if b.get(..4) != Some(b"DXBC") {
        return fields;
    }
    let count = read_u32(b, 28).unwrap_or(0).min(64) as usize;
    for i in 0..count {
        let entry = 32 + i * 4;
        fields.push(entry);
        if let Some(off) = read_u32(b, entry) {
            let off = off as usize;
            for k in 0..6 {
                if off + 4 + k * 4 + 4 <= b.len() {
                    fields.push(off + 4 + k * 4);
                }
            }
        }
    }
    fields
}

fn interesting_value(rng: &mut Rng, old: u32) -> u32 {
    match rng.below(8) {
        0 => 0,
        1 => u32::MAX,
        2 => 0x7fff_ffff,
        3 => old.wrapping_add(1),
        4 => old.wrapping_sub(1),
        5 => old.wrapping_mul(16),
        6 => 0x0100_0000,
        _ => rng.next() as u32,
    }
}

/// The mutants of one file, each named by how it was made.
fn mutants(bytes: &[u8], other: &[u8], seed: u64) -> Vec<(&'static str, Vec<u8>)> {
    let mut rng = Rng(dxspv_testkit::Rng::new(seed));
    let mut out = Vec::new();
    let len = bytes.len();
    for _ in 0..6 {
        let mut m = bytes.to_vec();
        if len > 0 {
            let pos = rng.below(len);
            m[pos] ^= 1 << rng.below(8);
        }
        out.push(("bit-flip", m));
    }
    for _ in 0..3 {
        out.push(("truncate", bytes[..rng.below(len)].to_vec()));
    }
    let fields = container_fields(bytes);
    for _ in 0..6 {
        let mut m = bytes.to_vec();
        let f = fields[rng.below(fields.len())];
        let old = read_u32(&m, f).unwrap_or(0);
        let v = interesting_value(&mut rng, old);
        write_u32(&mut m, f, v);
        out.push(("length-field", m));
    }
    // Instruction length and operand tokens inside the program: any aligned word past the header.
    for _ in 0..4 {
        let mut m = bytes.to_vec();
        if len >= 64 {
            let word = 8 + rng.below(len / 4 - 8);
            let old = read_u32(&m, word * 4).unwrap_or(0);
            let v = (old & 0x80ff_ffff) | ((rng.next() as u32 & 0x7f) << 24);
            write_u32(&mut m, word * 4, v);
        }
        out.push(("token-field", m));
    }
    {
        let mut m = bytes.to_vec();
        let count = read_u32(bytes, 28).unwrap_or(0).min(64) as usize;
        if count >= 2 {
            let (i, j) = (rng.below(count), rng.below(count));
            let (a, b) = (read_u32(&m, 32 + i * 4), read_u32(&m, 32 + j * 4));
            if let (Some(a), Some(b)) = (a, b) {
                write_u32(&mut m, 32 + i * 4, b);
                write_u32(&mut m, 32 + j * 4, a);
            }
        }
        out.push(("part-reorder", m));
    }
    for _ in 0..3 {
        let mut m = bytes.to_vec();
        if len >= 8 && other.len() >= 8 {
            let n = 4 * (1 + rng.below(8));
            let src = 4 * rng.below(other.len() / 4);
            let dst = 4 * rng.below(len / 4);
            for k in 0..n {
                if let (Some(&s), Some(d)) = (other.get(src + k), m.get_mut(dst + k)) {
                    *d = s;
                }
            }
        }
        out.push(("token-splice", m));
    }
    out
}

/// Everything dxspv does with untrusted bytes: disassembly, and compilation to SPIR-V through
/// the whole pass pipeline with the validator run after every pass (so a pass that corrupts IR
/// on strange input fails here).
fn process(bytes: &[u8]) -> Result<(), &'static str> {
    let text = dxspv::disassemble(bytes).map_err(|e| e.kind())?;
    std::hint::black_box(text);
    let mut opts = dxspv::Options::default();
    opts.passes.validate_each_pass = true;
    let out = dxspv::compile(bytes, &opts).map_err(|e| e.kind())?;
    std::hint::black_box(out);
    Ok(())
}

#[test]
fn mutated_corpus_never_panics_hangs_or_blows_up() {
    let Some(corpus) = dxspv_testkit::Corpus::open() else {
        return;
    };
    let mut entries = corpus.entries.iter().collect::<Vec<_>>();
    entries.sort_by(|a, b| a.path.cmp(&b.path));
    let files: Vec<&str> = entries.iter().map(|e| e.path.as_str()).collect();
    let blobs: Vec<Vec<u8>> = entries.iter().map(|e| corpus.read(e)).collect();

    // Panics are failures here; keep the default hook from printing each one twice.
    let mut accepted = 0usize;
    let mut rejected: BTreeMap<&'static str, usize> = BTreeMap::new();
    let mut by_mutation: BTreeMap<&'static str, (usize, usize)> = BTreeMap::new();
    let mut failures = Vec::new();
    let mut slowest = Duration::ZERO;
    let mut max_extra_heap = 0usize;
    for (i, (path, bytes)) in files.iter().zip(&blobs).enumerate() {
        let other = &blobs[(i * 7 + 3) % blobs.len()];
        for (how, m) in mutants(bytes, other, 0x5eed ^ i as u64) {
            let before = ALLOC.current_usage();
            ALLOC.reset_peak_usage();
            let start = Instant::now();
            let result = catch_unwind(AssertUnwindSafe(|| process(&m)));
            let took = start.elapsed();
            let extra = ALLOC.peak_usage().saturating_sub(before);
            slowest = slowest.max(took);
            max_extra_heap = max_extra_heap.max(extra);
            let entry = by_mutation.entry(how).or_default();
            match result {
                Ok(Ok(())) => {
                    accepted += 1;
                    entry.0 += 1;
                }
                Ok(Err(kind)) => {
                    *rejected.entry(kind).or_default() += 1;
                    entry.1 += 1;
                }
                Err(_) => failures.push(format!("{}: {how}: panicked", path)),
            }
            if took > TIME_BOUND {
                failures.push(format!("{}: {how}: took {took:?}", path));
            }
            if extra > heap_bound(m.len()) {
                failures.push(format!(
                    "{}: {how}: used {extra} bytes of heap for {} input bytes",
                    path,
                    m.len()
                ));
            }
        }
    }
    let total: usize = accepted + rejected.values().sum::<usize>();
    println!(
        "mutation test: {} files, {total} mutants, {accepted} accepted, {} rejected",
        files.len(),
        total - accepted
    );
    for (kind, n) in &rejected {
        println!("  rejected {kind}: {n}");
    }
    for (how, (ok, err)) in &by_mutation {
        println!("  {how}: {ok} accepted, {err} rejected");
    }
    println!("  slowest mutant {slowest:?}, largest extra heap {max_extra_heap} bytes");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(total > files.len() * 20, "too few mutants were run");
}
