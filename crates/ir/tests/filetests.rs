//! File tests of the passes: every `tests/filetests/<dir>/*.ir` is IR text with a header
//! naming the passes to run and `; check:` lines that the printed result must match, in the
//! manner of cranelift's filetests and LLVM's FileCheck.
//!
//! # Format
//! Lines starting with `;` are directives or comments; every other line is the input program
//! (the IR text form, which ignores `;` comments). Directives:
//!
//! - `; pass: NAME [KEY=VALUE ...]` runs a pass (several run in order): any pass of
//!   [`dxspv_ir::passes`] by its module name, or `pipeline` for the whole pipeline (whose
//!   output must be lowered IR). Keys set [`Options`]: `preserve_legacy_mul_zero=false`,
//!   `min_precision=native16`, `optimisations=none`.
//! - `; changed: true|false` asserts what the last pass answered.
//! - `; error: TEXT` expects a pass to fail with a message containing `TEXT` (no output is
//!   checked then).
//! - `; idempotent` runs the passes again and asserts they change nothing.
//! - `; allow: RULE` lets input and output break validator rule `RULE` (e.g. `EntryPointCount`
//!   for a snippet without an entry point), `; input-allow: RULE` the input only; otherwise
//!   both must validate.
//! - `; match-full-lines`: patterns match whole lines (else any part of a line).
//! - `; check: PATTERN` matches the first line after the previous match; `; nextln: PATTERN`
//!   the line right after it (the first line of the output, if nothing matched yet);
//!   `; not: PATTERN` matches no line between the previous match and the next one (or the
//!   end of the output); `; count: N PATTERN` matches exactly `N` lines of the whole output.
//!
//! A pattern is literal text, except `{{REGEX}}` (a regular expression), `[[NAME:REGEX]]`
//! (matches the regular expression and names what it matched) and `[[NAME]]` (what `NAME`
//! matched before). The output is the printed program with blank lines dropped and lines
//! trimmed.

// Tests may unwrap, panic and print (production code may not: see the workspace lints).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::print_stdout,
    clippy::print_stderr
)]
use dxspv_ir::passes::{self, MinPrecisionMode, Options, PassError};
use dxspv_ir::text::{parse, print};
use dxspv_ir::validate::{validate, Level, ValidationError};
use dxspv_ir::Builder;
use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// One pass to run and its options.
struct PassSpec {
    name: String,
    opts: Options,
}

/// What a check line asks.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    Check,
    NextLn,
    Not,
}

struct Check {
    kind: Kind,
    pattern: String,
    /// Line number in the test file, for messages.
    line: usize,
}

struct FileTest {
    passes: Vec<PassSpec>,
    changed: Option<bool>,
    error: Option<String>,
    idempotent: bool,
    full_lines: bool,
    allow: Vec<String>,
    input_allow: Vec<String>,
    checks: Vec<Check>,
    /// `count:` lines: how many output lines match each pattern.
    counts: Vec<(usize, String)>,
}

fn parse_test(text: &str) -> Result<FileTest, String> {
    let mut t = FileTest {
        passes: Vec::new(),
        changed: None,
        error: None,
        idempotent: false,
        full_lines: false,
        allow: Vec::new(),
        input_allow: Vec::new(),
        checks: Vec::new(),
        counts: Vec::new(),
    };
    for (n, line) in text.lines().enumerate() {
        let Some(d) = line.trim().strip_prefix(';') else {
            continue;
        };
        let d = d.trim();
        let field = |key: &str| d.strip_prefix(key).map(str::trim);
        if let Some(rest) = field("pass:") {
            let mut words = rest.split_whitespace();
            let name = words
                .next()
                .ok_or(format!("line {}: pass without a name", n + 1))?;
            let mut opts = Options {
                validate_each_pass: true,
                ..Options::default()
            };
            for kv in words {
                set_option(&mut opts, kv).map_err(|e| format!("line {}: {e}", n + 1))?;
            }
            t.passes.push(PassSpec {
                name: name.to_string(),
                opts,
            });
        } else if let Some(v) = field("changed:") {
            t.changed = Some(v == "true");
        } else if let Some(v) = field("error:") {
            t.error = Some(v.to_string());
        } else if let Some(v) = field("count:") {
            let bad = || format!("line {}: `count: N PATTERN`", n + 1);
            let (k, p) = v.split_once(' ').ok_or_else(bad)?;
            let k: usize = k.parse().map_err(|_| bad())?;
            t.counts.push((k, p.trim().to_string()));
        } else if d == "idempotent" {
            t.idempotent = true;
        } else if d == "match-full-lines" {
            t.full_lines = true;
        } else if let Some(rule) = field("allow:") {
            t.allow.push(rule.to_string());
        } else if let Some(rule) = field("input-allow:") {
            t.input_allow.push(rule.to_string());
        } else {
            for (prefix, kind) in [
                ("check:", Kind::Check),
                ("nextln:", Kind::NextLn),
                ("not:", Kind::Not),
            ] {
                if let Some(p) = field(prefix) {
                    t.checks.push(Check {
                        kind,
                        pattern: p.to_string(),
                        line: n + 1,
                    });
                }
            }
        }
    }
    if t.passes.is_empty() {
        return Err("no `; pass:` line".into());
    }
    Ok(t)
}

fn set_option(opts: &mut Options, kv: &str) -> Result<(), String> {
    match kv {
        "preserve_legacy_mul_zero=false" => opts.preserve_legacy_mul_zero = false,
        "min_precision=native16" => opts.min_precision = MinPrecisionMode::Native16,
        "min_precision=promote32" => opts.min_precision = MinPrecisionMode::Promote32,
        "optimisations=none" => {
            *opts = Options {
                validate_each_pass: true,
                ..Options::no_optimisations()
            }
        }
        _ => return Err(format!("unknown option `{kv}`")),
    }
    Ok(())
}

/// Runs one pass; `Ok(changed)`.
fn run_pass(b: &mut Builder, p: &PassSpec) -> Result<bool, PassError> {
    use passes::*;
    match p.name.as_str() {
        "scoped_to_structured" => scoped_to_structured::run(b),
        "ssa_construction" => ssa_construction::run(b),
        "resolve_types" => resolve_types::run(b),
        "lower_legacy" => lower_legacy::run(b, &p.opts),
        "lower_min_precision" => lower_min_precision::run(b, p.opts.min_precision),
        "constant_fold" => constant_fold::run(b),
        "simplify_arith" => simplify_arith::run(b),
        "cse" => cse::run(b),
        "dce" => dce::run(b),
        "cfg_cleanup" => cfg_cleanup::run(b),
        "unused_declarations" => unused_declarations::run(b),
        "infer_non_uniform" => infer_non_uniform::run(b),
        "pipeline" => run_pipeline(b, &p.opts).map(|r| r.passes.iter().any(|p| p.changed)),
        other => Err(PassError::invalid(
            "filetest",
            None,
            format!("no pass `{other}`"),
        )),
    }
}

/// The validator's errors at `level`, but those of the allowed rules.
fn invalid(b: &Builder, level: Level, allow: &[String]) -> Vec<ValidationError> {
    validate(b, level)
        .err()
        .unwrap_or_default()
        .into_iter()
        .filter(|e| !allow.iter().any(|a| *a == format!("{:?}", e.rule)))
        .collect()
}

/// The regular expression of `pattern` with the variables bound so far, and the names it
/// binds.
fn to_regex(
    pattern: &str,
    vars: &HashMap<String, String>,
    full: bool,
) -> Result<(String, Vec<String>), String> {
    let mut re = String::from(if full { "^" } else { "" });
    let mut binds = Vec::new();
    let mut rest = pattern;
    loop {
        let next = [rest.find("{{"), rest.find("[[")]
            .into_iter()
            .flatten()
            .min();
        let Some(at) = next else {
            re.push_str(&regex_lite::escape(rest));
            break;
        };
        re.push_str(&regex_lite::escape(&rest[..at]));
        let tail = &rest[at + 2..];
        if rest[at..].starts_with("{{") {
            let end = tail.find("}}").ok_or("`{{` without `}}`")?;
            let _ = write!(re, "(?:{})", &tail[..end]);
            rest = &tail[end + 2..];
        } else {
            let end = tail.find("]]").ok_or("`[[` without `]]`")?;
            let var = &tail[..end];
            match var.split_once(':') {
                Some((name, sub)) => {
                    let _ = write!(re, "(?P<{name}>{sub})");
                    binds.push(name.to_string());
                }
                None => {
                    let v = vars.get(var).ok_or(format!("`[[{var}]]` is not bound"))?;
                    re.push_str(&regex_lite::escape(v));
                }
            }
            rest = &tail[end + 2..];
        }
    }
    if full {
        re.push('$');
    }
    Ok((re, binds))
}

/// Checks `lines` against `t.checks`; the first failure as a message.
fn run_checks(t: &FileTest, lines: &[&str]) -> Result<(), String> {
    let mut vars: HashMap<String, String> = HashMap::new();
    // Lines before `pos` are consumed; `nots` wait for the next match.
    let mut pos = 0usize;
    let mut nots: Vec<&Check> = Vec::new();
    let matches = |c: &Check, line: &str, vars: &mut HashMap<String, String>| {
        let (re, binds) = to_regex(&c.pattern, vars, t.full_lines)?;
        let re = regex_lite::Regex::new(&re).map_err(|e| format!("line {}: {e}", c.line))?;
        let Some(caps) = re.captures(line) else {
            return Ok(false);
        };
        for name in binds {
            if let Some(m) = caps.name(&name) {
                vars.insert(name, m.as_str().to_string());
            }
        }
        Ok::<bool, String>(true)
    };
    let check_nots = |nots: &[&Check], range: &[&str], vars: &mut HashMap<String, String>| {
        for c in nots {
            for line in range {
                if matches(c, line, vars)? {
                    return Err(format!(
                        "line {}: `not: {}` matches `{line}`",
                        c.line, c.pattern
                    ));
                }
            }
        }
        Ok::<(), String>(())
    };
    for c in &t.checks {
        match c.kind {
            Kind::Not => nots.push(c),
            Kind::NextLn => {
                let Some(line) = lines.get(pos) else {
                    return Err(format!(
                        "line {}: `nextln: {}` after the end",
                        c.line, c.pattern
                    ));
                };
                if !matches(c, line, &mut vars)? {
                    return Err(format!(
                        "line {}: `nextln: {}` does not match output line {}: `{line}`",
                        c.line,
                        c.pattern,
                        pos + 1
                    ));
                }
                check_nots(&nots, &[], &mut vars)?;
                nots.clear();
                pos += 1;
            }
            Kind::Check => {
                let mut found = None;
                for (k, line) in lines.iter().enumerate().skip(pos) {
                    if matches(c, line, &mut vars)? {
                        found = Some(k);
                        break;
                    }
                }
                let Some(k) = found else {
                    return Err(format!(
                        "line {}: `check: {}` matches no line from output line {}",
                        c.line,
                        c.pattern,
                        pos + 1
                    ));
                };
                check_nots(&nots, &lines[pos..k], &mut vars)?;
                nots.clear();
                pos = k + 1;
            }
        }
    }
    check_nots(&nots, lines.get(pos..).unwrap_or(&[]), &mut vars)
}

/// Runs one file test; the failure as a message.
fn run_file(path: &Path) -> Result<(), String> {
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let t = parse_test(&text)?;
    let mut b = parse(&text).map_err(|e| format!("input does not parse: {e}"))?;
    let input_allow: Vec<String> = t.allow.iter().chain(&t.input_allow).cloned().collect();
    let errs = invalid(&b, Level::Structural, &input_allow);
    if !errs.is_empty() {
        return Err(format!("input is invalid: {errs:#?}"));
    }
    let mut changed = false;
    for p in &t.passes {
        match (run_pass(&mut b, p), &t.error) {
            (Ok(c), _) => changed = c,
            (Err(e), Some(want)) if e.to_string().contains(want.as_str()) => return Ok(()),
            (Err(e), _) => return Err(format!("pass failed: {e}")),
        }
    }
    if let Some(want) = &t.error {
        return Err(format!("expected an error `{want}`\n{}", print(&b)));
    }
    let out = print(&b);
    let lowered = t.passes.iter().any(|p| p.name == "pipeline");
    let level = if lowered {
        Level::Lowered
    } else {
        Level::Structural
    };
    let errs = invalid(&b, level, &t.allow);
    if !errs.is_empty() {
        return Err(format!("output is invalid: {errs:#?}\n{out}"));
    }
    if let Some(want) = t.changed {
        if changed != want {
            return Err(format!("the pass answered changed = {changed}\n{out}"));
        }
    }
    if t.idempotent {
        for p in &t.passes {
            if run_pass(&mut b, p).map_err(|e| format!("second run failed: {e}"))? {
                return Err(format!("not idempotent: {} changed\n{}", p.name, print(&b)));
            }
        }
    }
    let lines: Vec<&str> = out
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    run_checks(&t, &lines).map_err(|e| format!("{e}\n--- output ---\n{out}"))?;
    for (n, pattern) in &t.counts {
        let (re, _) = to_regex(pattern, &HashMap::new(), t.full_lines)?;
        let re = regex_lite::Regex::new(&re).map_err(|e| e.to_string())?;
        let found = lines.iter().filter(|l| re.is_match(l)).count();
        if found != *n {
            return Err(format!(
                "`count: {n} {pattern}` found {found}\n--- output ---\n{out}"
            ));
        }
    }
    Ok(())
}

fn test_files() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/filetests");
    let mut files = Vec::new();
    let mut dirs = vec![root];
    while let Some(d) = dirs.pop() {
        for e in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let p = e.path();
            if p.is_dir() {
                dirs.push(p);
            } else if p.extension().is_some_and(|x| x == "ir") {
                files.push(p);
            }
        }
    }
    files.sort();
    files
}

#[test]
fn filetests() {
    let files = test_files();
    assert!(!files.is_empty(), "no file tests found");
    let failures: Vec<String> = files
        .iter()
        .filter_map(|f| run_file(f).err().map(|e| format!("{}: {e}", f.display())))
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {} file tests failed:\n\n{}",
        failures.len(),
        files.len(),
        failures.join("\n\n")
    );
}

/// The checker itself: each directive matches and fails where it should.
#[test]
fn checks_match_as_documented() {
    let out = [
        "%1 = EntryPoint %10 Pixel",
        "%12 = FAdd f32 %4 %5",
        "%13 = FMul f32 %12 %12",
    ];
    let run = |checks: &str, full: bool| {
        let mut t = parse_test(&format!("; pass: dce\n{checks}")).expect("parses");
        t.full_lines = full;
        run_checks(&t, &out)
    };
    assert!(run("; check: FAdd\n; nextln: FMul", false).is_ok());
    assert!(run("; check: FMul\n; check: FAdd", false).is_err());
    assert!(run("; nextln: %12", false).is_err());
    assert!(run(
        "; check: [[X:%[0-9]+]] = FAdd\n; check: FMul f32 [[X]] [[X]]",
        false
    )
    .is_ok());
    assert!(run(
        "; check: [[X:%[0-9]+]] = FAdd\n; check: FMul f32 [[X]] %4",
        false
    )
    .is_err());
    assert!(run("; not: FMul\n; check: FAdd", false).is_ok());
    assert!(run("; check: FAdd\n; not: FMul", false).is_err());
    assert!(run("; check: f32 {{%[45]}}", false).is_ok());
    assert!(run("; check: %1 = FAdd", false).is_err());
    assert!(run("; check: FAdd f32 %4 %5", true).is_err());
    assert!(run(
        "; nextln: %1 = EntryPoint %10 Pixel\n; nextln: {{.*}}FAdd{{.*}}",
        true
    )
    .is_ok());
    assert!(run("; check: %13 = FMul f32 %12 %12\n; not: {{.+}}", true).is_ok());
    assert!(run("; check: %12 = FAdd f32 %4 %5\n; not: {{.+}}", true).is_err());
}
