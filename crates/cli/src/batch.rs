//! `dxspv compile DIR -o OUT`: every shader under a directory, on all cores, into the same tree.
//!
//! The input tree is walked recursively and mirrored under `OUT`: `DIR/a/b.dxbc` becomes
//! `OUT/a/b.spv` (and `OUT/a/b.json` with `--reflect`). Files that are no shaders (our own
//! `.spv` outputs, a README) are skipped with a note. Two inputs never write one output: when
//! `a.dxbc` and `a.ir` sit side by side, both keep their whole name (`a.dxbc.spv`, `a.ir.spv`),
//! and a note says so. A directory input without `-o`, `-o` naming a file, or a tree holding no
//! shader at all is an error, not a silent success.

use crate::diag::Reporter;
use crate::input::{self, Source};
use crate::{compile_source, Failure};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// Compiles every shader under `dir` into the mirrored tree under `output`.
pub fn compile_tree(
    dir: &Path,
    output: Option<&Path>,
    reflect: bool,
    opts: &dxspv::Options,
    report: &Reporter,
) -> Result<(), Failure> {
    use rayon::prelude::*;
    use std::sync::atomic::{AtomicUsize, Ordering};
    let Some(out_dir) = output else {
        return Err(Failure::Usage(format!(
            "{} is a directory: give -o <directory> for the outputs",
            dir.display()
        )));
    };
    let names_a_file =
        out_dir.is_file() || (!out_dir.exists() && out_dir.extension().is_some_and(|e| e == "spv"));
    if input::is_std(out_dir) || names_a_file {
        return Err(Failure::Usage(format!(
            "the input {} is a directory, so -o must name a directory, not {}",
            dir.display(),
            out_dir.display()
        )));
    }
    let files = input::walk(dir).map_err(Failure::Usage)?;
    // Read and classify first: skipped files are known before any output name is chosen.
    let mut shaders: Vec<(PathBuf, Source)> = Vec::new();
    for rel in files {
        let path = dir.join(&rel);
        let name = path.display().to_string();
        let bytes = match input::read(&path) {
            Ok(b) => b,
            Err(e) => {
                report.error(&name, &e);
                continue;
            }
        };
        match input::classify(&path, bytes) {
            Source::Other(what) => report.note(&name, &format!("skipped: {what}")),
            source => shaders.push((rel, source)),
        }
    }
    if shaders.is_empty() {
        report.error(
            &dir.display().to_string(),
            &"no shader found under this directory",
        );
        return Err(Failure::Input);
    }
    let targets = output_names(&shaders, report, dir);
    let done = AtomicUsize::new(0);
    let total = shaders.len();
    let start = std::time::Instant::now();
    let failed = AtomicUsize::new(0);
    shaders
        .into_par_iter()
        .zip(targets)
        .for_each(|((rel, source), target)| {
            let name = dir.join(&rel).display().to_string();
            match compile_source(source, opts) {
                Ok(out) => {
                    for w in &out.warnings {
                        report.warning(&name, w);
                    }
                    let spv = out_dir.join(&target);
                    let mut result = input::write(&spv, &input::spirv_bytes(&out.spirv), true);
                    if reflect && result.is_ok() {
                        let json = dxspv::reflection_json(&out.reflection);
                        result = input::write(&spv.with_extension("json"), json.as_bytes(), false);
                    }
                    match result {
                        Ok(()) if report.verbose() => {
                            report.note(&name, &format!("compiled to {}", spv.display()));
                        }
                        Ok(()) => {}
                        Err(e) => {
                            failed.fetch_add(1, Ordering::Relaxed);
                            report.error(&name, &e);
                        }
                    }
                }
                Err(e) => {
                    failed.fetch_add(1, Ordering::Relaxed);
                    report.error(&name, &e);
                }
            }
            report.progress(done.fetch_add(1, Ordering::Relaxed) + 1, total);
        });
    let failed = failed.into_inner();
    if !report.quiet() {
        eprintln!(
            "dxspv: compiled {} of {total} shaders, {failed} failed, in {:.1} ms",
            total - failed,
            start.elapsed().as_secs_f64() * 1e3
        );
    }
    if failed == 0 {
        Ok(())
    } else {
        Err(Failure::Input)
    }
}

/// The output path (relative to `-o`) of each shader: its relative path with `.spv` for its
/// extension, or its whole file name plus `.spv` where that would collide with another's.
fn output_names(shaders: &[(PathBuf, Source)], report: &Reporter, dir: &Path) -> Vec<PathBuf> {
    let plain: Vec<PathBuf> = shaders
        .iter()
        .map(|(rel, _)| rel.with_extension("spv"))
        .collect();
    let mut uses: HashMap<&Path, usize> = HashMap::new();
    for p in &plain {
        *uses.entry(p.as_path()).or_default() += 1;
    }
    shaders
        .iter()
        .zip(&plain)
        .map(|((rel, _), p)| {
            if uses.get(p.as_path()).copied().unwrap_or(0) > 1 {
                let mut whole = rel.clone().into_os_string();
                whole.push(".spv");
                let whole = PathBuf::from(whole);
                report.note(
                    &dir.join(rel).display().to_string(),
                    &format!(
                        "written as {} ({} would collide)",
                        whole.display(),
                        p.display()
                    ),
                );
                whole
            } else {
                p.clone()
            }
        })
        .collect()
}
