//! Every DXIL shader of the shared corpus, checked against LLVM's own reader: `llvm-dis-14`
//! (Debian `llvm-14`) disassembles the bitcode of each container's `DXIL` part, and the
//! module this crate reads must agree with it:
//!
//! * structurally, through the module API: per function the basic blocks, the opcode of
//!   every instruction in order and the callee of every call by name; the number of
//!   globals, of identified struct types and of named metadata;
//! * textually: this crate's disassembly equals `llvm-dis`'s line for line, except where
//!   LLVM 14 upgrades old bitcode on loading (it renames `llvm.lifetime.*` to their
//!   overloaded names and gives them newer attributes, and gives loads and stores without
//!   an alignment their type's ABI alignment).
//!
//! The test says so and passes when the corpus or `llvm-dis-14` is absent
//! (`scripts/test.sh` installs `llvm-14`).

// Tests may unwrap, panic and print (production code may not: see the workspace lints).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::print_stdout,
    clippy::print_stderr
)]
use std::path::PathBuf;
use std::process::Command;

use dxspv_container::{Container, DxilProgram, FourCC};
use dxspv_dxil::disasm::module_to_string;
use dxspv_dxil::module::{Module, Op, Type};
use dxspv_testkit::Corpus;

const LLVM_DIS: &str = "llvm-dis-14";

/// What `llvm-dis` shows of one function: blocks of (opcode, callee) pairs.
#[derive(Debug, PartialEq, Eq)]
struct FunctionShape {
    name: String,
    blocks: Vec<Vec<(String, Option<String>)>>,
}

/// What `llvm-dis` shows of a module.
#[derive(Debug, Default, PartialEq, Eq)]
struct ModuleShape {
    globals: usize,
    struct_types: usize,
    named_metadata: usize,
    functions: Vec<FunctionShape>,
}

/// `llvm.lifetime.start.p0i8` → `llvm.lifetime.start` (LLVM 14's renaming of the
/// LLVM 3.7 intrinsics it upgrades).
fn unupgrade(name: &str) -> String {
    for base in ["llvm.lifetime.start", "llvm.lifetime.end"] {
        if name.starts_with(base) {
            return base.to_string();
        }
    }
    name.to_string()
}

/// The name after `@` up to `(`, unquoted (escapes kept as `llvm-dis` writes them).
fn callee_of(line: &str) -> Option<String> {
    let at = line.find(" @")? + 2;
    let rest = &line[at..];
    let name = if let Some(q) = rest.strip_prefix('"') {
        let end = q.find('"')?;
        &q[..end]
    } else {
        let end = rest.find('(')?;
        &rest[..end]
    };
    Some(unupgrade(name))
}

fn parse_llvm_dis(text: &str) -> ModuleShape {
    let mut shape = ModuleShape::default();
    let mut current: Option<FunctionShape> = None;
    for line in text.lines() {
        if let Some(f) = current.as_mut() {
            if line == "}" {
                shape.functions.extend(current.take());
                continue;
            }
            if line.is_empty() || line.starts_with("    ") || line.starts_with("  ]") {
                // Blank lines, switch cases, invoke and landingpad continuations.
                continue;
            }
            if let Some(inst) = line.strip_prefix("  ") {
                let body = match inst.split_once(" = ") {
                    Some((lhs, rhs)) if lhs.starts_with('%') => rhs,
                    _ => inst,
                };
                let mut words = body.split_whitespace();
                let mut opcode = words.next().unwrap_or_default();
                if opcode == "tail" || opcode == "musttail" || opcode == "notail" {
                    opcode = words.next().unwrap_or_default();
                }
                let callee = (opcode == "call").then(|| callee_of(body)).flatten();
                if f.blocks.is_empty() {
                    f.blocks.push(Vec::new());
                }
                if let Some(b) = f.blocks.last_mut() {
                    b.push((opcode.to_string(), callee));
                }
                continue;
            }
            // A block label.
            f.blocks.push(Vec::new());
            continue;
        }
        if line.starts_with("define ") {
            let name = callee_of(line.trim_end_matches(" {")).unwrap_or_default();
            current = Some(FunctionShape {
                name,
                blocks: Vec::new(),
            });
        } else if line.starts_with('@') && line.contains(" = ") {
            shape.globals += 1;
        } else if line.starts_with('%') && line.contains(" = type ") {
            shape.struct_types += 1;
        } else if line.starts_with('!') && line.contains(" = !{") {
            let name = line.split(" = ").next().unwrap_or_default();
            if !name[1..].starts_with(|c: char| c.is_ascii_digit()) {
                shape.named_metadata += 1;
            }
        }
    }
    shape
}

/// The `llvm-dis` escaping of a name, so ours compares with theirs.
fn llvm_escaped(bytes: &[u8]) -> String {
    let mut s = String::new();
    for &b in bytes {
        if (0x20..0x7F).contains(&b) && b != b'"' && b != b'\\' {
            s.push(b as char);
        } else {
            s.push_str(&format!("\\{b:02X}"));
        }
    }
    s
}

fn our_shape(m: &Module) -> ModuleShape {
    let mut shape = ModuleShape {
        globals: m.globals.len() + m.aliases.len(),
        struct_types: m
            .types
            .iter()
            .filter(|(_, t)| {
                matches!(
                    t,
                    Type::Struct {
                        identified: true,
                        ..
                    }
                )
            })
            .count(),
        named_metadata: m.named_metadata.len(),
        functions: Vec::new(),
    };
    for (f, body) in m.definitions() {
        let mut blocks = Vec::new();
        for (i, _) in body.blocks.iter().enumerate() {
            let insts = body
                .block_instructions(dxspv_dxil::module::BlockId(i as u32))
                .iter()
                .map(|inst| {
                    let callee = match inst.op {
                        Op::Call { callee, .. } => {
                            Some(unupgrade(&llvm_escaped(m.global_name(callee))))
                        }
                        _ => None,
                    };
                    (inst.op.opcode_name().to_string(), callee)
                })
                .collect();
            blocks.push(insts);
        }
        shape.functions.push(FunctionShape {
            name: llvm_escaped(m.str(f.name)),
            blocks,
        });
    }
    shape
}

/// `llvm-dis`'s text and ours, made comparable: `llvm-dis`'s header lines dropped, and an
/// alignment our line does not have removed from theirs (LLVM 14 fills it in). When the
/// module uses `llvm.lifetime.*` (which LLVM 14 renames, moves to the end of the function
/// list and gives newer attributes, so that attribute groups are numbered differently),
/// lines naming them, attribute group lines, `; Function Attrs` comments and blank lines
/// are dropped from both and `#N` references masked.
fn comparable(theirs: &str, ours: &str) -> (Vec<String>, Vec<String>, bool) {
    let theirs: Vec<&str> = theirs
        .lines()
        .skip_while(|l| {
            l.starts_with("; ModuleID") || l.starts_with("source_filename") || l.is_empty()
        })
        .collect();
    let ours: Vec<&str> = ours.lines().collect();
    let upgraded = theirs.iter().any(|l| l.contains("@llvm.lifetime."));
    let mut t: Vec<String> = theirs
        .iter()
        .zip(ours.iter().map(Some).chain(std::iter::repeat(None)))
        .map(|(t, o)| match (t.rsplit_once(", align "), o) {
            (Some((head, _)), Some(o)) if head == *o => o.to_string(),
            _ => t.to_string(),
        })
        .collect();
    let mut o: Vec<String> = ours.iter().map(|l| l.to_string()).collect();
    if upgraded {
        let keep = |l: &String| {
            !l.is_empty()
                && !l.contains("llvm.lifetime")
                && !l.starts_with("attributes #")
                && !l.starts_with("; Function Attrs")
        };
        let mask = |l: String| {
            let mut out = String::new();
            let mut chars = l.chars().peekable();
            while let Some(c) = chars.next() {
                out.push(c);
                if c == '#' {
                    while chars.peek().is_some_and(|d| d.is_ascii_digit()) {
                        chars.next();
                    }
                    out.push('N');
                }
            }
            out
        };
        t = t.into_iter().filter(keep).map(mask).collect();
        o = o.into_iter().filter(keep).map(mask).collect();
    }
    (t, o, upgraded)
}

#[test]
fn every_corpus_module_matches_llvm_dis() {
    let Some(corpus) = Corpus::open() else {
        return;
    };
    if Command::new(LLVM_DIS).arg("--version").output().is_err() {
        println!("{LLVM_DIS} not found: skipping (scripts/test.sh installs llvm-14)");
        return;
    }
    let dir: PathBuf =
        std::env::temp_dir().join(format!("dxspv-dxil-llvm-dis-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let entries = corpus.of_format("dxil");
    let mut failures = Vec::new();
    let mut text_mismatches = Vec::new();
    let mut upgraded = 0;
    for (i, e) in entries.iter().enumerate() {
        let bytes = corpus.read(e);
        let c = Container::parse(&bytes).unwrap_or_else(|err| panic!("{}: {err}", e.path));
        let part = c
            .part(FourCC::DXIL)
            .unwrap_or_else(|| panic!("{}: no DXIL part", e.path));
        let program = DxilProgram::parse(part.fourcc, part.data).expect("program header");
        let module =
            Module::read(program.bitcode).unwrap_or_else(|err| panic!("{}: {err}", e.path));
        let file = dir.join(format!("{i}.bc"));
        std::fs::write(&file, program.bitcode).expect("write bitcode");
        let out = Command::new(LLVM_DIS)
            .arg(&file)
            .arg("-o")
            .arg("-")
            .output()
            .expect("run llvm-dis");
        assert!(
            out.status.success(),
            "{}: llvm-dis failed: {}",
            e.path,
            String::from_utf8_lossy(&out.stderr)
        );
        let text = String::from_utf8_lossy(&out.stdout);
        let theirs = parse_llvm_dis(&text);
        let ours = our_shape(&module);
        if theirs != ours {
            failures.push(format!(
                "{}:\n  llvm-dis: {theirs:?}\n  ours:     {ours:?}",
                e.path
            ));
        }
        let listing = module_to_string(&module);
        let (t, o, was_upgraded) = comparable(&text, &listing);
        upgraded += usize::from(was_upgraded);
        if t != o {
            let first = t
                .iter()
                .zip(o.iter())
                .position(|(a, b)| a != b)
                .unwrap_or(t.len().min(o.len()));
            text_mismatches.push(format!(
                "{} line {}:\n  llvm-dis: {:?}\n  ours:     {:?}",
                e.path,
                first + 1,
                t.get(first),
                o.get(first)
            ));
        }
        let _ = std::fs::remove_file(&file);
    }
    let _ = std::fs::remove_dir(&dir);
    println!(
        "{} modules: {} structurally different, {} textually different ({} compared without the intrinsics LLVM 14 upgrades)",
        entries.len(),
        failures.len(),
        text_mismatches.len(),
        upgraded
    );
    assert!(
        failures.is_empty(),
        "{} modules differ from llvm-dis:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(
        text_mismatches.is_empty(),
        "{} disassemblies differ from llvm-dis:\n{}",
        text_mismatches.len(),
        text_mismatches.join("\n")
    );
}
