//! Helpers shared by the backend's integration tests: `spirv-val`'s verdict (from the test kit),
//! and for the sweep
//! tests (`op_types`, `image_ops`, `memory_ops`, `composite_io_ops`) a deterministic random
//! generator and single ops with the values they read.

#![allow(dead_code, unused_imports)] // each test binary uses a part

use std::fmt::Write as _;

pub use dxspv_testkit::Rng;

/// One op: the values it reads (declared before the function) and its line, where `$k`
/// stands for the k-th value. A value is `-` (a null operand, not declared), `C <type> <lits>`
/// (a constant) or a type (an undefined value of it).
#[derive(Clone)]
pub struct Case {
    pub values: Vec<String>,
    pub line: String,
}

impl Case {
    pub fn new(line: impl Into<String>) -> Self {
        Case {
            values: Vec::new(),
            line: line.into(),
        }
    }

    /// Appends operand `choice` to the line.
    pub fn operand(&mut self, choice: &str) {
        if choice == "-" {
            self.line.push_str(" null");
        } else {
            let _ = write!(self.line, " ${}", self.values.len());
            self.values.push(choice.to_string());
        }
    }

    /// Appends literal text to the line.
    pub fn literal(&mut self, text: impl std::fmt::Display) {
        let _ = write!(self.line, " {text}");
    }
}

/// The declarations of the values `cases` read and the ops themselves (numbered from
/// `first`), and the next free id.
pub fn lines(cases: &[&Case], first: u32) -> (String, String, u32) {
    let (mut decls, mut body, mut next) = (String::new(), String::new(), first);
    for case in cases {
        let mut line = case.line.clone();
        for (k, value) in case.values.iter().enumerate().rev() {
            match value.strip_prefix("C ") {
                Some(constant) => {
                    let _ = writeln!(decls, "%{next} = Constant {constant}");
                }
                None => {
                    let _ = writeln!(decls, "%{next} = Undef {value}");
                }
            }
            line = line.replace(&format!("${k}"), &format!("%{next}"));
            next += 1;
        }
        let _ = writeln!(body, "%{next} = {line}");
        next += 1;
    }
    (decls, body, next)
}

pub use dxspv_testkit::{
    assert_spirv_valid, spirv_dis_named as spirv_dis, spirv_val, spirv_val_for as spirv_val_env,
};

/// Runs `cases` (each valid alone as `program(&[case])` makes it) through the validator and
/// the backend one by one, then the ones that emit through `spirv-val` together (one by one
/// when it refuses them together), and fails with the invalid modules grouped by message.
/// Returns how many the validator accepted and how many emitted, or `None` when spirv-val is
/// not installed.
pub fn sweep(cases: &[Case], program: &dyn Fn(&[&Case]) -> String) -> Option<(usize, usize)> {
    use dxspv_ir::validate::{validate, Level};
    let opts = dxspv_spirv::SpirvOptions::default();
    let (mut accepted, mut emitting) = (0, Vec::new());
    for case in cases {
        let text = program(&[case]);
        let b = dxspv_ir::text::parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        if validate(&b, Level::Lowered).is_err() {
            continue;
        }
        accepted += 1;
        if dxspv_spirv::emit(&b, &opts).is_ok() {
            emitting.push(case);
        }
    }
    let mut invalid = Vec::new();
    if !emitting.is_empty() {
        let text = program(&emitting);
        let b = dxspv_ir::text::parse(&text).expect("parses");
        let words = dxspv_spirv::emit(&b, &opts).expect("ops that emit alone emit together");
        if spirv_val(&words)?.is_err() {
            for case in &emitting {
                let text = program(&[case]);
                let b = dxspv_ir::text::parse(&text).expect("parses");
                let words = dxspv_spirv::emit(&b, &opts).expect("emits");
                if let Some(Err(msg)) = spirv_val(&words) {
                    let first = msg.lines().next().unwrap_or("");
                    invalid.push(format!("{first}\n{text}"));
                }
            }
        }
    }
    assert!(
        invalid.is_empty(),
        "{} invalid modules:\n{}",
        invalid.len(),
        summary(&invalid)
    );
    Some((accepted, emitting.len()))
}

/// Invalid modules (`message\nprogram`) grouped by message, with a count, the op line the
/// module was made for, and the first program of each group at the end.
pub fn summary(invalid: &[String]) -> String {
    let mut groups: Vec<(String, usize, String)> = Vec::new();
    for m in invalid {
        // "error: line 113: what": the line number differs from module to module.
        let msg = m.lines().next().unwrap_or("");
        let msg = msg.strip_prefix("error: ").unwrap_or(msg);
        let msg = match msg.split_once(": ") {
            Some((at, rest)) if at.starts_with("line ") => rest,
            _ => msg,
        };
        // The op under test is the line before the closing return.
        let lines: Vec<&str> = m.lines().collect();
        let op = lines
            .len()
            .checked_sub(3)
            .and_then(|i| lines.get(i))
            .unwrap_or(&"");
        match groups.iter_mut().find(|g| g.0 == msg) {
            Some(g) => g.1 += 1,
            None => groups.push((msg.to_string(), 1, op.to_string())),
        }
    }
    let mut out = String::new();
    for (msg, n, op) in &groups {
        let _ = writeln!(out, "{n:5}  {msg}\n       e.g. {op}");
    }
    out + "first program:\n"
        + invalid
            .first()
            .map_or("", |m| m.split_once('\n').map_or("", |x| x.1))
}
