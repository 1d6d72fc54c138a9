//! `dxspv-runner`: executes the shared Direct3D execution cases (`../shared/exec`) on a real
//! Vulkan implementation (Mesa's lavapipe on the CPU) and compares the results with what
//! Direct3D produced.
//!
//! Valid SPIR-V is not necessarily correct SPIR-V; this crate is the check that it computes the
//! right values. Compute cases compiled from DXBC are executed; pixel-shader draws and DXIL shaders
//! are reported as skipped with a reason, never passed silently.
//!
//! # Unsafe code
//!
//! The workspace forbids `unsafe`, except at the C API and here: driving Vulkan through `ash`
//! cannot be done without it. Every unsafe block is small and carries a `// SAFETY:` comment.

pub mod case;
pub mod data;
pub mod exec;
pub mod vk;

use case::Case;
use exec::Outcome;
use std::path::{Path, PathBuf};

/// One reported line: the case (and run) name and its outcome.
#[derive(Clone, Debug)]
pub struct Report {
    /// `case` or `case/run`.
    pub name: String,
    /// The outcome.
    pub outcome: Outcome,
}

/// Totals over a set of reports.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Totals {
    /// Passed runs.
    pub passed: usize,
    /// Failed runs (a failed compile counts once per case).
    pub failed: usize,
    /// Skipped runs.
    pub skipped: usize,
}

impl Totals {
    /// Counts `reports`.
    pub fn of(reports: &[Report]) -> Totals {
        let mut t = Totals::default();
        for r in reports {
            match r.outcome {
                Outcome::Ok => t.passed += 1,
                Outcome::Fail(_) => t.failed += 1,
                Outcome::Skipped(_) => t.skipped += 1,
            }
        }
        t
    }
}

impl std::fmt::Display for Report {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.outcome {
            Outcome::Ok => write!(f, "{}: ok", self.name),
            Outcome::Fail(m) => write!(f, "{}: FAIL {m}", self.name),
            Outcome::Skipped(m) => write!(f, "{}: skipped: {m}", self.name),
        }
    }
}

/// Expands files and directories into the sorted list of `.json` case files.
pub fn collect(paths: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    let mut out = Vec::new();
    for p in paths {
        if p.is_dir() {
            let mut stack = vec![p.clone()];
            while let Some(dir) = stack.pop() {
                let rd = std::fs::read_dir(&dir)
                    .map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
                for ent in rd {
                    let path = ent.map_err(|e| format!("{}: {e}", dir.display()))?.path();
                    if path.is_dir() {
                        stack.push(path);
                    } else if path.extension().is_some_and(|e| e == "json") {
                        out.push(path);
                    }
                }
            }
        } else {
            out.push(p.clone());
        }
    }
    out.sort();
    Ok(out)
}

/// Runs one case file, returning a report per run (or one for the whole case).
pub fn run_case(gpu: &vk::Gpu, path: &Path, corpora: &[PathBuf]) -> Vec<Report> {
    let one = |name: String, outcome| vec![Report { name, outcome }];
    let case = match Case::load(path) {
        Ok(c) => c,
        Err(e) => return one(path.display().to_string(), Outcome::Fail(e)),
    };
    let runs = case.runs();
    let run_name = |i: usize, r: &case::Run| match (&case.runs, &r.name) {
        (None, _) => case.name.clone(),
        (Some(_), Some(n)) => format!("{}/{n}", case.name),
        (Some(_), None) => format!("{}/{i}", case.name),
    };
    let skip_all = |why: &str| {
        runs.iter()
            .enumerate()
            .map(|(i, r)| Report {
                name: run_name(i, r),
                outcome: Outcome::Skipped(why.to_string()),
            })
            .collect::<Vec<_>>()
    };
    if case.format == "dxil" {
        return skip_all("DXIL shader (dxspv has no DXIL frontend yet)");
    }
    if case.stage != "cs" {
        return skip_all("pixel-shader draws not implemented");
    }
    if let Some(why) = exec::missing_requirement(gpu, &case.requires) {
        return skip_all(&why);
    }
    let Some(shader) = corpora
        .iter()
        .map(|c| c.join(&case.shader))
        .find(|p| p.is_file())
    else {
        return skip_all(&format!("shader {} not found in the corpus", case.shader));
    };
    let bytes = match std::fs::read(&shader) {
        Ok(b) => b,
        Err(e) => {
            return one(
                case.name.clone(),
                Outcome::Fail(format!("cannot read {}: {e}", shader.display())),
            )
        }
    };
    let out = match dxspv::compile(&bytes, &dxspv::Options::default()) {
        Ok(o) => o,
        Err(e) => return one(case.name.clone(), Outcome::Fail(format!("compile: {e}"))),
    };
    runs.iter()
        .enumerate()
        .map(|(i, r)| {
            let outcome = match exec::missing_requirement(gpu, &r.requires) {
                Some(why) => Outcome::Skipped(why),
                None => exec::run_compute(gpu, &case, r, &out.spirv, &out.reflection),
            };
            Report {
                name: run_name(i, r),
                outcome,
            }
        })
        .collect()
}

/// The default corpus folder: `../shared/corpus` relative to the workspace root.
pub fn default_corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus")
}
