//! Disassembly checked against real reference text.
//!
//! The files in `tests/golden/` pair token words with the assembly that a real reference
//! gives for them (each file and entry says where it comes from):
//!
//! * `wine_d3dcompiler_asm.txt`: Wine's `dlls/d3dcompiler_43/tests/asm.c`, assembly text and
//!   the tokens Microsoft's assembler produces for it (the test passes against native
//!   `D3DAssemble` on Windows). 182 shaders over every model and register file.
//! * `wine_visual_comments.txt`: the per-instruction comments next to bytecode arrays in
//!   Wine's `d3d9`/`d3d8` `visual.c` and vkd3d's `hlsl_d3d12.c`.
//!
//! Reference text is written in the assembler's input syntax, which allows spellings fxc
//! never prints, so both sides are brought to one form before comparing (see
//! [`normalize_line`]): case of the opcode, `vs.1.1` for `vs_1_1`, `.rgba` for `.xyzw`,
//! short swizzles (`.xy` reads `.xyyy`), `c[a0.x + 12]` for `c12[a0.x]`, `dcl_position0`
//! for `dcl_position`, `1.0f` for `1`, whitespace, comments and the `end` line. Nothing
//! else is forgiven: register names, modifiers, masks, instruction names, operand order
//! and values must agree.

// Tests may unwrap, panic and print (production code may not: see the workspace lints).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::print_stdout,
    clippy::print_stderr
)]
use std::path::Path;

use dxspv_sm3::disassemble;

struct Entry {
    file: &'static str,
    name: String,
    words: Vec<u32>,
    text: String,
}

fn load(file: &'static str) -> Vec<Entry> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden")
        .join(file);
    let data = std::fs::read_to_string(&path).expect("read golden file");
    let mut out: Vec<Entry> = Vec::new();
    for line in data.lines() {
        if line.starts_with("%%") {
            continue;
        }
        if let Some(name) = line.strip_prefix("=== ") {
            out.push(Entry {
                file,
                name: name.to_string(),
                words: Vec::new(),
                text: String::new(),
            });
            continue;
        }
        let Some(e) = out.last_mut() else {
            assert!(
                line.trim().is_empty(),
                "{file}: text before the first entry"
            );
            continue;
        };
        if let Some(w) = line.strip_prefix("words:") {
            e.words = w
                .split_whitespace()
                .map(|x| u32::from_str_radix(x, 16).expect("hex word"))
                .collect();
        } else {
            e.text.push_str(line);
            e.text.push('\n');
        }
    }
    out
}

/// Opcodes (before any `_suffix`) whose first operand is a source.
const NO_DESTINATION: &[&str] = &[
    "if", "rep", "loop", "call", "callnz", "label", "break", "breakp", "else", "endif", "endloop",
    "endrep", "ret", "nop", "phase",
];

/// Canonical source swizzle: `xyzw` letters, four lanes (a short swizzle repeats its last
/// letter), then written as fxc does: nothing for `.xyzw`, one letter when all lanes
/// agree, four letters otherwise.
fn canonical_swizzle(s: &str) -> String {
    let mut lanes: Vec<char> = s.chars().map(xyzw).collect();
    while !lanes.is_empty() && lanes.len() < 4 {
        lanes.push(*lanes.last().unwrap_or(&'x'));
    }
    let text: String = lanes.iter().collect();
    if text == "xyzw" || text.is_empty() {
        String::new()
    } else if lanes.iter().all(|&c| c == lanes[0]) {
        format!(".{}", lanes[0])
    } else {
        format!(".{text}")
    }
}

/// Canonical write mask: `xyzw` letters in order, nothing for all four.
fn canonical_mask(s: &str) -> String {
    let set: Vec<char> = s.chars().map(xyzw).collect();
    let text: String = ['x', 'y', 'z', 'w']
        .into_iter()
        .filter(|c| set.contains(c))
        .collect();
    if text == "xyzw" {
        String::new()
    } else {
        format!(".{text}")
    }
}

fn xyzw(c: char) -> char {
    match c {
        'r' => 'x',
        'g' => 'y',
        'b' => 'z',
        'a' => 'w',
        c => c,
    }
}

/// Splits `name.sel` at the last dot.
fn split_selector(s: &str) -> (&str, &str) {
    match s.rfind('.') {
        Some(i) => (&s[..i], &s[i + 1..]),
        None => (s, ""),
    }
}

/// `c4[2]` → `c6`, `c[a0.x+12]` → `c12[a0.x]`, `v0[aL]` → `v0[aL]`.
fn canonical_register(reg: &str) -> String {
    let Some(open) = reg.find('[') else {
        return reg.to_string();
    };
    let close = reg.rfind(']').unwrap_or(reg.len());
    let head = &reg[..open];
    let inside = &reg[open + 1..close];
    let tail = &reg[(close + 1).min(reg.len())..];
    let letters: String = head
        .chars()
        .take_while(|c| c.is_ascii_alphabetic())
        .collect();
    let mut index: i64 = head[letters.len()..].parse().unwrap_or(0);
    let mut relative = None;
    for term in inside.split('+') {
        match term.parse::<i64>() {
            Ok(n) => index += n,
            Err(_) => {
                let (name, sel) = split_selector(term);
                let sel = if sel.is_empty() {
                    String::new()
                } else {
                    canonical_swizzle(sel)
                };
                relative = Some(format!("{name}{sel}"));
            }
        }
    }
    match relative {
        Some(r) => format!("{letters}{index}[{r}]{tail}"),
        None => format!("{letters}{index}{tail}"),
    }
}

fn canonical_operand(op: &str, is_dst: bool) -> String {
    let s: String = op.chars().filter(|c| !c.is_whitespace()).collect();
    let (prefix, body) = if let Some(b) = s.strip_prefix("1-") {
        ("1 - ", b)
    } else if let Some(b) = s.strip_prefix('-') {
        ("-", b)
    } else if let Some(b) = s.strip_prefix('!') {
        ("!", b)
    } else {
        ("", s.as_str())
    };
    // The selector is the part after the last dot outside brackets.
    let after_bracket = body.rfind(']').map_or(0, |i| i + 1);
    let (main, sel) = match body[after_bracket..].rfind('.') {
        Some(i) => (&body[..after_bracket + i], &body[after_bracket + i + 1..]),
        None => (body, ""),
    };
    // A modifier suffix (`_bx2`, `_abs`…) follows the register and any brackets.
    let (reg, modifier) = match main[after_bracket.min(main.len())..].find('_') {
        Some(i) => main.split_at(after_bracket.min(main.len()) + i),
        None => (main, ""),
    };
    let sel = if is_dst {
        if sel.is_empty() {
            String::new()
        } else {
            canonical_mask(sel)
        }
    } else {
        canonical_swizzle(sel)
    };
    format!("{prefix}{}{modifier}{sel}", canonical_register(reg))
}

fn canonical_number(s: &str) -> String {
    let t = s.trim().trim_end_matches('f');
    match t.parse::<f32>() {
        Ok(v) => format!("{v:?}"),
        Err(_) => t.to_string(),
    }
}

/// Splits at commas outside brackets.
fn split_operands(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut cur = String::new();
    for c in s.chars() {
        match c {
            '[' => depth += 1,
            ']' => depth -= 1,
            ',' if depth == 0 => {
                out.push(cur.trim().to_string());
                cur.clear();
                continue;
            }
            _ => {}
        }
        cur.push(c);
    }
    if !cur.trim().is_empty() {
        out.push(cur.trim().to_string());
    }
    out
}

/// Brings one assembly line to the canonical form described in the module docs.
fn normalize_line(line: &str) -> String {
    let (coissue, rest) = match line.strip_prefix('+') {
        Some(r) => ("+ ", r.trim_start()),
        None => ("", line),
    };
    let (predicate, rest) = match rest.strip_prefix('(') {
        Some(r) => {
            let close = r.find(')').unwrap_or(r.len());
            let p = canonical_operand(&r[..close], false);
            (
                format!("({p}) "),
                r[(close + 1).min(r.len())..].trim_start(),
            )
        }
        None => (String::new(), rest),
    };
    let (op, args) = match rest.find(char::is_whitespace) {
        Some(i) => (&rest[..i], rest[i..].trim()),
        None => (rest, ""),
    };
    let mut op = op.to_ascii_lowercase();
    let is_version = (op.starts_with("vs") || op.starts_with("ps"))
        && op.len() > 2
        && {
            let sep = op.as_bytes()[2];
            sep == b'.' || sep == b'_'
        }
        && args.is_empty();
    if is_version {
        op = op.replace('.', "_");
        return format!("{coissue}{predicate}{op}");
    }
    // `dcl_position0` is `dcl_position`: usage index 0 is the default.
    if let Some(rest) = op.strip_prefix("dcl_") {
        let usage: String = rest
            .chars()
            .take_while(|c| c.is_ascii_alphabetic())
            .collect();
        let after = &rest[usage.len()..];
        if !usage.is_empty() && (after == "0" || after.starts_with("0_")) {
            op = format!("dcl_{usage}{}", &after[1..]);
        }
    }
    let base = op.split('_').next().unwrap_or("");
    let has_dst = !NO_DESTINATION.contains(&base);
    let is_def = matches!(base, "def" | "defi" | "defb");
    let operands: Vec<String> = split_operands(args)
        .iter()
        .enumerate()
        .map(|(i, o)| {
            if is_def && i > 0 {
                canonical_number(o)
            } else {
                canonical_operand(o, has_dst && i == 0)
            }
        })
        .collect();
    if operands.is_empty() {
        format!("{coissue}{predicate}{op}")
    } else {
        format!("{coissue}{predicate}{op} {}", operands.join(", "))
    }
}

/// The canonical lines of a listing: comments, preprocessor lines, blank lines and the
/// `end` line dropped.
fn normalize(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|raw| {
            let mut line = raw;
            if let Some(i) = line.find("//") {
                line = &line[..i];
            }
            if let Some(i) = line.find(';') {
                line = &line[..i];
            }
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') || line.eq_ignore_ascii_case("end") {
                return None;
            }
            Some(normalize_line(line))
        })
        .collect()
}

fn check_file(file: &'static str, expected_entries: usize) {
    let entries = load(file);
    assert_eq!(entries.len(), expected_entries, "{file}: entry count");
    let mut failures = Vec::new();
    let mut verbatim = 0usize;
    for e in &entries {
        assert!(!e.words.is_empty(), "{}: {}: no words", e.file, e.name);
        let bytes: Vec<u8> = e.words.iter().flat_map(|w| w.to_le_bytes()).collect();
        let ours = match disassemble(&bytes) {
            Ok(t) => t,
            Err(err) => {
                failures.push(format!("{}: {err}", e.name));
                continue;
            }
        };
        let (got, want) = (normalize(&ours), normalize(&e.text));
        if got != want {
            failures.push(format!(
                "{}:\n  reference: {want:?}\n  ours:      {got:?}\n  listing:\n{ours}",
                e.name
            ));
        }
        // How many references already read exactly like our listing, spacing aside.
        let plain = |t: &str| -> Vec<String> {
            t.lines()
                .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
                .filter(|l| !l.is_empty() && !l.eq_ignore_ascii_case("end"))
                .collect()
        };
        if plain(&ours) == plain(&e.text) {
            verbatim += 1;
        }
    }
    println!(
        "{file}: {} entries, {} identical before normalization",
        entries.len(),
        verbatim
    );
    assert!(
        failures.is_empty(),
        "{} of {} differ:\n{}",
        failures.len(),
        entries.len(),
        failures.join("\n")
    );
}

#[test]
fn wine_d3dcompiler_assembler_tests() {
    check_file("wine_d3dcompiler_asm.txt", 182);
}

#[test]
fn wine_and_vkd3d_bytecode_comments() {
    check_file("wine_visual_comments.txt", 10);
}

#[test]
fn normalization_keeps_differences_that_matter() {
    // The comparison must not forgive real differences.
    assert_ne!(normalize_line("mov r0, r1"), normalize_line("mov r0, r2"));
    assert_ne!(normalize_line("mov r0, -r1"), normalize_line("mov r0, r1"));
    assert_ne!(
        normalize_line("mov r0, r1_bx2"),
        normalize_line("mov r0, r1_bias")
    );
    assert_ne!(
        normalize_line("mov r0.xy, r1"),
        normalize_line("mov r0.xyz, r1")
    );
    assert_ne!(
        normalize_line("mov r0, r1.xy"),
        normalize_line("mov r0, r1.xyz")
    );
    assert_ne!(
        normalize_line("mov r0, c3[a0.x]"),
        normalize_line("mov r0, c3[a0.y]")
    );
    assert_ne!(
        normalize_line("mov_sat r0, r1"),
        normalize_line("mov r0, r1")
    );
    assert_ne!(
        normalize_line("def c0, 1, 0, 0, 0"),
        normalize_line("def c0, 1, 0, 0, 1")
    );
    // And does bring the reference spellings together.
    assert_eq!(
        normalize_line("mov r0, c[ a0.x + 12 ]"),
        normalize_line("mov r0, c12[a0.x]")
    );
    assert_eq!(
        normalize_line("mov r0.a, r1.a"),
        normalize_line("mov r0.w, r1.w")
    );
    assert_eq!(
        normalize_line("dcl_position0 v0"),
        normalize_line("dcl_position v0")
    );
    assert_eq!(
        normalize_line("def c0, 1.0f, 0.5, 0, 0"),
        normalize_line("def c0, 1, 0.5, 0, 0")
    );
    assert_eq!(
        normalize_line("mov r0, r1.xy"),
        normalize_line("mov r0, r1.xyyy")
    );
}
