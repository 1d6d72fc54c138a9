//! Helpers shared by the backend's integration tests: `spirv-val`'s verdict, and for the sweep
//! tests (`op_types`, `image_ops`, `memory_ops`, `composite_io_ops`) a deterministic random
//! generator and single ops with the values they read.

#![allow(dead_code)]

use std::fmt::Write as _;
use std::process::Command;

/// SplitMix64: the same cases on every run.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    pub fn pick<'a>(&mut self, from: &[&'a str]) -> &'a str {
        from[(self.next() % from.len() as u64) as usize]
    }
}

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

/// `spirv-val --target-env vulkan1.3`'s verdict on `words` (what it printed when it refuses);
/// `None` when it is not installed.
pub fn spirv_val(words: &[u32]) -> Option<Result<(), String>> {
    spirv_val_env(words, "vulkan1.3")
}

/// [`spirv_val`] with another `--target-env` (spirv-val's spelling: `vulkan1.0`, `spv1.4`).
pub fn spirv_val_env(words: &[u32], env: &str) -> Option<Result<(), String>> {
    Command::new("spirv-val").arg("--version").output().ok()?;
    let path = std::env::temp_dir().join(format!(
        "dxspv-sweep-{}-{:?}.spv",
        std::process::id(),
        std::thread::current().id()
    ));
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    std::fs::write(&path, bytes).ok()?;
    let out = Command::new("spirv-val")
        .args(["--target-env", env])
        .arg(&path)
        .output()
        .ok()?;
    let _ = std::fs::remove_file(&path);
    Some(if out.status.success() {
        Ok(())
    } else {
        Err(String::from_utf8_lossy(&out.stderr).into_owned())
    })
}

/// `spirv-dis`'s text of `words` (friendly names, no colour); `None` when it is not installed.
/// Panics with its message when it refuses the module.
pub fn spirv_dis(words: &[u32]) -> Option<String> {
    use std::io::Write as _;
    use std::process::Stdio;
    let mut child = Command::new("spirv-dis")
        .args(["--no-color", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .ok()?;
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    child
        .stdin
        .take()
        .expect("spirv-dis stdin")
        .write_all(&bytes)
        .expect("write to spirv-dis");
    let out = child.wait_with_output().expect("spirv-dis runs");
    assert!(
        out.status.success(),
        "spirv-dis: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    Some(String::from_utf8(out.stdout).expect("spirv-dis prints UTF-8"))
}

/// Asserts that `spirv-val` accepts `words` (the module called `name`); says so and checks
/// nothing when it is not installed.
#[track_caller]
pub fn assert_spirv_valid(name: &str, words: &[u32]) {
    match spirv_val(words) {
        None => println!("spirv-val not installed: validation of {name} skipped"),
        Some(Err(msg)) => panic!("{name}: {msg}"),
        Some(Ok(())) => {}
    }
}

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
