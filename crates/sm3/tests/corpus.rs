//! Reads, decodes and disassembles every Direct3D 9 shader of the shared corpus, checks
//! the instruction count against the manifest, and mutates every file (bit flips,
//! truncations) to check that nothing panics and that work stays bounded.

// Tests may unwrap, panic and print (production code may not: see the workspace lints).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::print_stdout,
    clippy::print_stderr
)]
use std::collections::BTreeMap;
use std::path::Path;
use std::time::{Duration, Instant};

use dxspv_sm3::{disassemble, Opcode, Shader};

const CORPUS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/corpus");

/// `(path relative to the corpus, instruction count)` of every d3d9 manifest entry, or
/// `None` when the corpus is absent.
fn manifest() -> Option<Vec<(String, u64)>> {
    let root = Path::new(CORPUS);
    let text = std::fs::read_to_string(root.join("manifest.json")).ok()?;
    let json: serde_json::Value = serde_json::from_str(&text).expect("manifest is JSON");
    let entries = json.as_array().expect("manifest is an array");
    Some(
        entries
            .iter()
            .filter(|e| e["format"] == "d3d9")
            .map(|e| {
                let path = e["path"].as_str().expect("path").to_string();
                let n = e["details"]["instructions"]
                    .as_u64()
                    .expect("instructions count");
                (path, n)
            })
            .collect(),
    )
}

#[test]
fn corpus_reads_with_manifest_instruction_counts() {
    let Some(entries) = manifest() else {
        println!("corpus not found at {CORPUS}, skipping");
        return;
    };
    assert!(!entries.is_empty(), "no d3d9 entries in the manifest");
    let mut errors = Vec::new();
    let mut per_model: BTreeMap<String, usize> = BTreeMap::new();
    let mut per_opcode: BTreeMap<Opcode, usize> = BTreeMap::new();
    let (mut instructions, mut bytes, mut warnings, mut tables) = (0u64, 0usize, 0usize, 0usize);
    for (path, expected) in &entries {
        let data = std::fs::read(Path::new(CORPUS).join(path)).expect("read corpus file");
        bytes += data.len();
        let shader = match Shader::parse(&data) {
            Ok(s) => s,
            Err(e) => {
                errors.push(format!("{path}: {e}"));
                continue;
            }
        };
        *per_model.entry(shader.version.to_string()).or_default() += 1;
        warnings += shader.warnings.len();
        tables += usize::from(shader.constant_table.is_some());
        let mut count = 0u64;
        for inst in shader.instructions() {
            match inst {
                Ok(i) if i.is_comment() => {}
                Ok(i) => {
                    count += 1;
                    *per_opcode.entry(i.opcode).or_default() += 1;
                }
                Err(e) => {
                    errors.push(format!("{path}: {e}"));
                    break;
                }
            }
        }
        if count != *expected {
            errors.push(format!(
                "{path}: {count} instructions decoded, manifest says {expected}"
            ));
        }
        if u64::from(shader.instruction_count) != *expected {
            errors.push(format!(
                "{path}: Shader::instruction_count {} , manifest says {expected}",
                shader.instruction_count
            ));
        }
        if let Err(e) = disassemble(&data) {
            errors.push(format!("{path} (disassembly): {e}"));
        }
        instructions += count;
    }
    println!(
        "corpus: {} files, {bytes} bytes, {instructions} instructions, {tables} constant tables, {warnings} warnings",
        entries.len()
    );
    println!("models: {per_model:?}");
    println!("opcodes: {per_opcode:?}");
    assert!(
        errors.is_empty(),
        "{} failures:\n{}",
        errors.len(),
        errors.join("\n")
    );
}

/// Walks every instruction, bounding the walk by the token count (a decoder that stops
/// consuming tokens would loop forever).
fn decode_all(data: &[u8]) {
    let Ok(shader) = Shader::parse(data) else {
        return;
    };
    let limit = shader.tokens.len() + 1;
    let mut n = 0usize;
    for inst in shader.instructions() {
        n += 1;
        assert!(n <= limit, "more instructions than tokens");
        if inst.is_err() {
            break;
        }
    }
    let _ = disassemble(data);
}

#[test]
fn corpus_mutations_never_panic_and_stay_bounded() {
    let Some(entries) = manifest() else {
        println!("corpus not found at {CORPUS}, skipping");
        return;
    };
    let start = Instant::now();
    let mut cases = 0usize;
    let mut slowest = Duration::ZERO;
    // A small xorshift generator: reproducible mutations without a dependency.
    let mut state = 0x2545_F491_4F6C_DD1Du64;
    let mut rand = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for (path, _) in &entries {
        let data = std::fs::read(Path::new(CORPUS).join(path)).expect("read corpus file");
        // Every truncation at a word boundary, and a few in the middle of a word.
        for cut in (0..data.len())
            .step_by(4)
            .chain([1, 2, 3, data.len().saturating_sub(1)])
        {
            let t = Instant::now();
            decode_all(data.get(..cut).unwrap_or_default());
            slowest = slowest.max(t.elapsed());
            cases += 1;
        }
        // Single and multiple bit flips.
        for round in 0..64 {
            let mut m = data.clone();
            let flips = 1 + round % 4;
            for _ in 0..flips {
                if m.is_empty() {
                    break;
                }
                let bit = (rand() % (m.len() as u64 * 8)) as usize;
                m[bit / 8] ^= 1 << (bit % 8);
            }
            let t = Instant::now();
            decode_all(&m);
            slowest = slowest.max(t.elapsed());
            cases += 1;
        }
        // Whole random words (opcode and parameter fields at once).
        for _ in 0..16 {
            let mut m = data.clone();
            let words = m.len() / 4;
            if words > 1 {
                let w = 1 + (rand() as usize) % (words - 1);
                let v = rand() as u32;
                m[w * 4..w * 4 + 4].copy_from_slice(&v.to_le_bytes());
            }
            let t = Instant::now();
            decode_all(&m);
            slowest = slowest.max(t.elapsed());
            cases += 1;
        }
    }
    println!(
        "mutations: {cases} cases in {:?}, slowest {:?}",
        start.elapsed(),
        slowest
    );
    assert!(
        slowest < Duration::from_millis(200),
        "one mutated shader took {slowest:?}"
    );
}
