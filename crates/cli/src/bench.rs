//! `dxspv bench`: how long a translation takes, warm and cold, per stage and per format.
//!
//! *Warm*: every input is loaded first, then `--rounds` passes run over the whole list in one
//! process, in the given order; each file keeps its best (minimum) time per stage. *Cold*
//! (`--cold`): each file is compiled as the first and only shader of a fresh process, the way a
//! game's first draw with a new shader pays for it. The bench re-runs a copy of its own
//! executable once per file (a file the linker just wrote costs each process a few more page
//! faults than an installed program); the child reads the file, then starts the clock.
//!
//! Only `dxspv::compile` with default options is timed, as `dxspv compile` with no flags runs
//! it; reading files is not. `--json` prints one document per the contract of
//! `../shared/peers/README.md` ("The `dxspv bench` contract"), which `compare.sh` reads.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Environment variable that makes the executable a cold child: compile this file once, print
/// its stage times, exit.
pub const COLD_CHILD_ENV: &str = "DXSPV_BENCH_COLD_CHILD";

/// The stages timed, in [`dxspv::StageTimes`] order, then the whole compile.
const STAGES: [&str; 5] = ["parse", "convert", "passes", "spirv", "total"];

/// One input's result.
struct FileResult {
    path: String,
    format: dxspv::Format,
    /// Best (warm) or only (cold) time per stage, in seconds; `None` when it did not compile.
    times: Option<[f64; 5]>,
    /// First compile in the warm process (warm mode only).
    first: Option<f64>,
    bytes: usize,
    error: Option<String>,
}

/// What the command line asked for.
pub struct BenchArgs {
    /// Files and directories (walked recursively).
    pub inputs: Vec<PathBuf>,
    /// Warm passes.
    pub rounds: usize,
    /// Cold mode.
    pub cold: bool,
    /// JSON output.
    pub json: bool,
}

/// Runs the bench; `Err` carries a usage or I/O message.
pub fn run(args: &BenchArgs) -> Result<(), String> {
    let files = collect_inputs(&args.inputs)?;
    if files.is_empty() {
        return Err("no shader files found in the inputs".into());
    }
    let results = if args.cold {
        cold(&files)?
    } else {
        warm(&files, args.rounds.max(1))?
    };
    if args.json {
        println!("{}", json(&results, args));
    } else {
        print_summary(&results, args);
    }
    Ok(())
}

/// The files named, and the shader files under the directories named (sorted per directory);
/// files under a directory that are not shaders (outputs, READMEs) are left out.
fn collect_inputs(inputs: &[PathBuf]) -> Result<Vec<(String, Vec<u8>)>, String> {
    let mut out = Vec::new();
    for input in inputs {
        if input.is_dir() {
            let mut stack = vec![input.clone()];
            let mut found = Vec::new();
            while let Some(dir) = stack.pop() {
                let entries = std::fs::read_dir(&dir)
                    .map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
                for e in entries.flatten() {
                    let p = e.path();
                    if p.is_dir() {
                        stack.push(p);
                    } else {
                        found.push(p);
                    }
                }
            }
            found.sort();
            for p in found {
                let bytes =
                    std::fs::read(&p).map_err(|e| format!("cannot read {}: {e}", p.display()))?;
                if dxspv::detect_format(&bytes) != dxspv::Format::Unknown {
                    out.push((p.display().to_string(), bytes));
                }
            }
        } else {
            let bytes = std::fs::read(input)
                .map_err(|e| format!("cannot read {}: {e}", input.display()))?;
            out.push((input.display().to_string(), bytes));
        }
    }
    Ok(out)
}

fn secs(d: Duration) -> f64 {
    d.as_secs_f64()
}

fn stage_times(t: &dxspv::StageTimes, total: Duration) -> [f64; 5] {
    [
        secs(t.parse),
        secs(t.convert),
        secs(t.passes),
        secs(t.spirv),
        secs(total),
    ]
}

/// Warm mode: `rounds` passes over every file in one process.
fn warm(files: &[(String, Vec<u8>)], rounds: usize) -> Result<Vec<FileResult>, String> {
    let opts = dxspv::Options::default();
    let mut results: Vec<FileResult> = files
        .iter()
        .map(|(path, bytes)| FileResult {
            path: path.clone(),
            format: dxspv::detect_format(bytes),
            times: None,
            first: None,
            bytes: 0,
            error: None,
        })
        .collect();
    for round in 0..rounds {
        for ((_, bytes), r) in files.iter().zip(results.iter_mut()) {
            let start = Instant::now();
            let out = dxspv::compile(bytes, &opts);
            let total = start.elapsed();
            match out {
                Ok(out) => {
                    let t = stage_times(&out.times, total);
                    r.bytes = out.spirv.len() * 4;
                    std::hint::black_box(out);
                    if round == 0 {
                        r.first = Some(t[4]);
                    }
                    let best = r.times.get_or_insert([f64::MAX; 5]);
                    for (b, v) in best.iter_mut().zip(t) {
                        *b = b.min(v);
                    }
                }
                Err(e) => {
                    if r.error.is_none() {
                        r.error = Some(e.to_string());
                    }
                }
            }
        }
    }
    Ok(results)
}

/// Cold mode: one fresh process per file, running a copy of this executable.
fn cold(files: &[(String, Vec<u8>)]) -> Result<Vec<FileResult>, String> {
    let linked = std::env::current_exe().map_err(|e| format!("cannot find dxspv itself: {e}"))?;
    let copy = std::env::temp_dir().join(format!("dxspv-bench-cold-{}", std::process::id()));
    let exe = match std::fs::copy(&linked, &copy) {
        Ok(_) => copy.clone(),
        Err(_) => linked,
    };
    let mut results = Vec::with_capacity(files.len());
    for (path, bytes) in files {
        let out = std::process::Command::new(&exe)
            .env(COLD_CHILD_ENV, path)
            .stdin(std::process::Stdio::null())
            .output()
            .map_err(|e| format!("cannot run {}: {e}", exe.display()))?;
        let text = String::from_utf8_lossy(&out.stdout);
        let mut r = FileResult {
            path: path.clone(),
            format: dxspv::detect_format(bytes),
            times: None,
            first: None,
            bytes: 0,
            error: None,
        };
        match text.strip_prefix("ok ") {
            Some(rest) => {
                let v: Vec<f64> = rest
                    .split_whitespace()
                    .filter_map(|w| w.parse().ok())
                    .collect();
                if let [t @ .., size] = v.as_slice() {
                    r.times = <[f64; 5]>::try_from(t).ok();
                    r.bytes = *size as usize;
                }
            }
            None => {
                r.error = Some(
                    text.strip_prefix("error ")
                        .unwrap_or("the cold process printed nothing")
                        .trim()
                        .to_string(),
                )
            }
        }
        results.push(r);
    }
    let _ = std::fs::remove_file(&copy);
    Ok(results)
}

/// The cold child: compiles `path` once, first thing, and prints `ok <5 stage times> <bytes>`
/// or `error <message>`.
pub fn cold_child(path: &Path) {
    let Ok(bytes) = std::fs::read(path) else {
        println!("error cannot read {}", path.display());
        return;
    };
    let opts = dxspv::Options::default();
    let start = Instant::now();
    let result = dxspv::compile(&bytes, &opts);
    let total = start.elapsed();
    match result {
        Ok(out) => {
            let t = stage_times(&out.times, total);
            println!(
                "ok {} {} {} {} {} {}",
                t[0],
                t[1],
                t[2],
                t[3],
                t[4],
                out.spirv.len() * 4
            );
        }
        Err(e) => println!("error {e}"),
    }
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v.get(v.len() / 2).copied().unwrap_or(0.0)
}

fn print_summary(results: &[FileResult], args: &BenchArgs) {
    let mode = if args.cold {
        "cold: each file the first compile of a fresh process".to_string()
    } else {
        format!("warm: best of {} passes per file", args.rounds.max(1))
    };
    eprintln!("{mode}; medians per shader in µs");
    let mut formats: Vec<dxspv::Format> = results.iter().map(|r| r.format).collect();
    formats.dedup();
    formats.sort_by_key(|f| f.to_string());
    formats.dedup();
    println!(
        "{:<8} {:>6} {:>6} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9}",
        "format", "ok", "failed", STAGES[0], STAGES[1], STAGES[2], STAGES[3], STAGES[4], "bytes"
    );
    for format in formats {
        let ok: Vec<&FileResult> = results
            .iter()
            .filter(|r| r.format == format && r.times.is_some())
            .collect();
        let failed = results
            .iter()
            .filter(|r| r.format == format && r.times.is_none())
            .count();
        let col =
            |k: usize| median(ok.iter().filter_map(|r| r.times.map(|t| t[k])).collect()) * 1e6;
        println!(
            "{:<8} {:>6} {:>6} {:>9.2} {:>9.2} {:>9.2} {:>9.2} {:>9.2} {:>9.0}",
            format.to_string(),
            ok.len(),
            failed,
            col(0),
            col(1),
            col(2),
            col(3),
            col(4),
            median(ok.iter().map(|r| r.bytes as f64).collect())
        );
    }
}

/// `s` as a JSON string literal.
fn json_str(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn json_num(v: Option<f64>) -> String {
    v.map_or("null".into(), |v| format!("{v:e}"))
}

fn json(results: &[FileResult], args: &BenchArgs) -> String {
    let mut out = format!(
        "{{\"tool\": \"dxspv\", \"version\": \"{}\", \"rounds\": {}, \"mode\": \"{}\", \"files\": [",
        env!("CARGO_PKG_VERSION"),
        if args.cold { 1 } else { args.rounds.max(1) },
        if args.cold { "cold" } else { "warm" }
    );
    for (i, r) in results.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        let total = r.times.map(|t| t[4]);
        let (warm, cold) = if args.cold {
            (None, total)
        } else {
            (total, None)
        };
        out.push_str(&format!(
            "\n  {{\"path\": {}, \"format\": \"{}\", \"ok\": {}, \"cold_s\": {}, \"warm_s\": {}, \"first_s\": {}, \"bytes\": {}",
            json_str(&r.path),
            r.format,
            r.times.is_some(),
            json_num(cold),
            json_num(warm),
            json_num(r.first),
            if r.times.is_some() { r.bytes.to_string() } else { "null".into() },
        ));
        if let Some(t) = r.times {
            out.push_str(", \"stages_s\": {");
            for (k, name) in STAGES.iter().take(4).enumerate() {
                if k > 0 {
                    out.push_str(", ");
                }
                out.push_str(&format!("\"{name}\": {:e}", t[k]));
            }
            out.push('}');
        }
        if let Some(e) = &r.error {
            out.push_str(&format!(", \"error\": {}", json_str(e)));
        }
        out.push('}');
    }
    out.push_str("\n]}");
    out
}
