//! The corpus test: every shader of the shared corpus, of every format, through
//! [`dxspv::compile`] with default options. A shader either compiles to SPIR-V that
//! `spirv-val --target-env vulkan1.3` accepts (default layout rules), or is refused for a
//! reason listed here: [`REFUSED`] names each shader refused on purpose with the words its
//! error must contain, and [`NO_FRONTEND_YET`] the formats still waiting for their frontend.
//! Anything else fails the test. It prints one line per format (compiled, valid, refused by
//! error kind and feature) and every refusal with its reason. The other target environments
//! are checked over the same shaders by `spirv_targets.rs`.

use dxspv_testkit::{installed, spirv_val, Corpus};
use std::collections::BTreeMap;

/// Shaders refused on purpose: (corpus path, words the error must contain, why).
const REFUSED: &[(&str, &str, &str)] = &[(
    "dxbc/vkd3d/vkd3d_shader_api_test_invalid_shaders_ps_break_code.dxbc",
    "break outside a loop or switch",
    "deliberately invalid: vkd3d's test expects every compiler to refuse it",
)];

/// Formats whose frontend has not landed: every shader is refused as not supported yet.
const NO_FRONTEND_YET: &[&str] = &["dxil", "d3d9"];

#[derive(Default)]
struct Tally {
    compiled: usize,
    valid: usize,
    refused: BTreeMap<String, usize>,
}

#[test]
fn every_corpus_shader_compiles_to_valid_spirv_or_is_refused_for_a_listed_reason() {
    let Some(corpus) = Corpus::open() else { return };
    let validate = installed("spirv-val");
    if !validate {
        println!(
            "spirv-val not installed: SPIR-V validation skipped (apt-get install spirv-tools)"
        );
    }
    let opts = dxspv::Options::default();
    let mut tallies: BTreeMap<&str, Tally> = BTreeMap::new();
    let mut failures = Vec::new();
    let mut refusals_seen = Vec::new();
    for format in ["dxbc", "d3d9", "dxil"] {
        let tally = tallies.entry(format).or_default();
        for entry in corpus.of_format(format) {
            let path = entry.path.as_str();
            let listed = REFUSED.iter().find(|r| r.0 == path);
            match dxspv::compile(&corpus.read(entry), &opts) {
                Ok(out) => {
                    tally.compiled += 1;
                    if listed.is_some() {
                        failures.push(format!("{path}: listed as refused, but compiles"));
                    }
                    match validate.then(|| spirv_val(&out.spirv)).flatten() {
                        Some(Err(msg)) => {
                            let first = msg.lines().next().unwrap_or("").to_string();
                            failures.push(format!("{path}: spirv-val: {first}"));
                        }
                        Some(Ok(())) => tally.valid += 1,
                        None => {}
                    }
                }
                Err(e) => {
                    let key = match e.unsupported_feature() {
                        Some(feature) => format!("{} ({feature})", e.kind()),
                        None => e.kind().to_string(),
                    };
                    *tally.refused.entry(key).or_default() += 1;
                    let text = e.to_string();
                    match listed {
                        Some((_, words, why)) if text.contains(words) => {
                            refusals_seen.push(format!("{path}: {why}"));
                        }
                        Some((_, words, _)) => failures.push(format!(
                            "{path}: refused, but the error does not say \"{words}\": {text}"
                        )),
                        None if NO_FRONTEND_YET.contains(&format)
                            && matches!(e, dxspv::Error::Unsupported(_)) => {}
                        None => failures.push(format!("{path}: {text}")),
                    }
                }
            }
        }
    }
    for (format, t) in &tallies {
        let refused: Vec<String> = t.refused.iter().map(|(k, n)| format!("{k}: {n}")).collect();
        println!(
            "{format}: compiled {}, valid {}, refused {} [{}]",
            t.compiled,
            t.valid,
            t.refused.values().sum::<usize>(),
            refused.join(", ")
        );
    }
    for r in &refusals_seen {
        println!("refused as listed: {r}");
    }
    assert_eq!(
        refusals_seen.len(),
        REFUSED.len(),
        "a listed refusal is not in the corpus"
    );
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    let dxbc = &tallies["dxbc"];
    assert!(
        dxbc.compiled > 700,
        "only {} DXBC shaders compiled",
        dxbc.compiled
    );
}
