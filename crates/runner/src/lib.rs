//! `dxspv-runner`: executes the shared Direct3D execution cases (`../shared/exec`,
//! `../shared/exec-stages`) on a real Vulkan implementation (Mesa's lavapipe on the CPU) and
//! compares the results with what Direct3D produced.
//!
//! Valid SPIR-V is not necessarily correct SPIR-V; this crate is the check that it computes the
//! right values. Device features the machine lacks (and shaders missing from the corpus) are
//! reported as skipped with the reason, never passed silently; a shader the compiler refuses
//! is a failure, whatever its format (DXBC, DXIL, D3D9).
//!
//! # How a case runs
//!
//! [`run_case`] reads a case file. Compute cases ([`case::Case`] with stage `cs`) go to
//! [`exec::run_compute`]: resources (`resources`: buffers, textures, samplers, root constants,
//! UAV counters, bound through descriptor sets built from the shader's reflection), one
//! dispatch list, readback, comparison ([`data`]). Graphics cases (`"kind": "graphics"`,
//! [`graphics::case`]) and the pixel-shader cases of `../shared/exec` (converted into one
//! graphics run each) go to [`graphics`]: every stage compiled with its own descriptor sets
//! (and the stream-output declaration for the last stage before the rasterizer), resources,
//! render targets, vertex/index and stream-output buffers created, one pipeline per distinct
//! draw state, all draws recorded in one command buffer, then render targets, resources,
//! stream-output contents, counters and statistics checked. Direct3D 9 cases (`"format":
//! "d3d9"`, `../shared/exec-d3d9`) go to [`d3d9`]: the D3D9 pipeline around the shader under
//! test (vertex declarations fetched on the host, fixed-function stand-ins as IR text, the
//! application's constants, textures, render and texture stage states through the D3D9
//! frontend's constant buffers, specialization constants and push block, Direct3D 9's
//! half-pixel offset), `d3dcolor` checks. [`vk::Gpu`] opens the device with
//! every feature and the extensions the runner uses (robustness2, transform feedback, vertex
//! attribute divisors); `scratch` owns what a run creates.
//!
//! # Unaligned buffer views
//!
//! Direct3D places buffer views at any element boundary; Vulkan descriptors need offsets that
//! are multiples of `minStorageBufferOffsetAlignment` (storage buffers) or
//! `minTexelBufferOffsetAlignment` (texel buffers), 16 bytes on lavapipe. A view whose byte
//! offset is not such a multiple, and whose byte range overlaps no other view of the same
//! underlying buffer bound in the run (`alias_of`; a view without a range, such as a root
//! descriptor, covers the whole buffer), is given a *shadow buffer* holding exactly the view's
//! bytes: the runner copies the view's range of the buffer's initial data into it, binds it at
//! offset 0 with range = the view's size (so robust buffer access still drops out-of-bounds
//! accesses against the view's bounds), and after execution copies it back into the buffer's
//! range before the expectations are checked. An unaligned view that overlaps another view is
//! skipped (`unaligned storage buffer view offset N overlaps another view (...)`): writes
//! through one would not be seen through the other. UAV counters are separate buffers and are
//! not affected.
//!
//! # Lavapipe workarounds
//!
//! Mesa 22.3's lavapipe ignores the index buffer's bound offset in
//! `vkCmdDrawIndexedIndirect`: indexed indirect draws fold the offset into their first index
//! and bind the buffer at 0, which reads the same indices on any driver.
//!
//! Lavapipe offers 128 bytes of push constants (Vulkan's minimum), the D3D9 frontend's push
//! block is 256: when the bytes a D3D9 run's shaders read do not fit, their ranges are packed
//! and the modules' `Offset` decorations moved to match (see `d3d9::push`).
//!
//! # Unsafe code
//!
//! The workspace forbids `unsafe`, except at the C API and here: driving Vulkan through `ash`
//! cannot be done without it. Every unsafe block is small and carries a `// SAFETY:` comment.

pub mod case;
pub mod d3d9;
pub mod data;
pub mod exec;
pub mod formats;
pub mod graphics;
mod resources;
mod scratch;
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
///
/// Files with `"kind": "graphics"` are graphics cases (`../shared/exec-stages`); the others
/// are compute or pixel-shader cases (`../shared/exec`).
pub fn run_case(gpu: &vk::Gpu, path: &Path, corpora: &[PathBuf]) -> Vec<Report> {
    let one = |name: String, outcome| vec![Report { name, outcome }];
    let value = match std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))
        .and_then(|t| {
            serde_json::from_str::<serde_json::Value>(&t)
                .map_err(|e| format!("bad case file {}: {e}", path.display()))
        }) {
        Ok(v) => v,
        Err(e) => return one(path.display().to_string(), Outcome::Fail(e)),
    };
    if value.get("format").and_then(|k| k.as_str()) == Some("d3d9") {
        return d3d9::run_case(gpu, value, corpora);
    }
    if value.get("kind").and_then(|k| k.as_str()) == Some("graphics") {
        return match graphics::case::GraphicsCase::from_json(value) {
            Ok(case) => graphics::run_case(gpu, &case, corpora),
            Err(e) => one(
                path.display().to_string(),
                Outcome::Fail(format!("bad case file {}: {e}", path.display())),
            ),
        };
    }
    let case: Case = match serde_json::from_value(value) {
        Ok(c) => c,
        Err(e) => {
            return one(
                path.display().to_string(),
                Outcome::Fail(format!("bad case file {}: {e}", path.display())),
            )
        }
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
    if case.stage != "cs" && case.stage != "ps" {
        return skip_all(&format!("stage `{}` not implemented", case.stage));
    }
    if let Some(why) = exec::missing_requirement(gpu, &case.requires) {
        return skip_all(&why);
    }
    if case.stage == "ps" {
        let mut cache = graphics::shaders::ShaderCache::new(corpora);
        return runs
            .iter()
            .enumerate()
            .map(|(i, r)| Report {
                name: run_name(i, r),
                outcome: match graphics::case::GraphicsRun::from_pixel_case(&case, r) {
                    Ok(g) => graphics::execute(gpu, &g, &mut cache),
                    Err(e) => Outcome::Fail(e),
                },
            })
            .collect();
    }
    let out = match compile_corpus(&case.shader, corpora) {
        Ok(Ok(o)) => o,
        Ok(Err(why)) => return skip_all(&why),
        Err(e) => return one(case.name.clone(), Outcome::Fail(e)),
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

/// Finds `path` in the corpora and compiles it. The inner `Err` is a skip reason (not in the
/// corpus), the outer one a failure (unreadable, compile error: every format has a frontend).
fn compile_corpus(
    path: &str,
    corpora: &[PathBuf],
) -> Result<Result<dxspv::Output, String>, String> {
    let Some(shader) = corpora.iter().map(|c| c.join(path)).find(|p| p.is_file()) else {
        return Ok(Err(format!("shader {path} not found in the corpus")));
    };
    let bytes =
        std::fs::read(&shader).map_err(|e| format!("cannot read {}: {e}", shader.display()))?;
    match dxspv::compile(&bytes, &dxspv::Options::default()) {
        Ok(o) => Ok(Ok(o)),
        Err(e) => Err(format!("compile: {e}")),
    }
}

/// The default corpus folder: `../shared/corpus` relative to the workspace root.
pub fn default_corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus")
}
