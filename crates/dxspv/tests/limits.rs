//! Control flow nested to SPIR-V's limit (1023) and past it, from scoped IR text through the
//! passes to the backend.

// Tests may unwrap, panic and print (production code may not: see the workspace lints).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::print_stdout,
    clippy::print_stderr
)]
/// Scoped IR text of a pixel shader with `depth` nested loops, each leaving through an `if`
/// when a counter reaches an input before the next loop opens: SPIR-V nesting `depth + 1` at
/// the innermost `if`.
fn nested_loops(depth: usize) -> String {
    let mut next = 20u32;
    let mut id = || {
        next += 1;
        next
    };
    let mut t = String::from(
        "%1 = EntryPoint %3 Pixel
%6 = DclInput u32 %1 0 0 Flat
%7 = DclOutput u32 %1 0 0 0
%8 = Semantic %7 0 \"SV_Target\"
%9 = DclTmp u32 %1
%10 = Constant u32 0
%11 = Constant u32 1
%3 = Function void
%5 = Label None
%12 = InputLoad u32 %6 null
%13 = TmpStore %9 %10
",
    );
    let mut ends = Vec::with_capacity(depth);
    for _ in 0..depth {
        let (lp, end) = (id(), id());
        let (load, add, store, cond) = (id(), id(), id(), id());
        let (iff, brk, endif) = (id(), id(), id());
        t.push_str(&format!(
            "%{lp} = ScopedLoop %{end}
%{load} = TmpLoad u32 %9
%{add} = IAdd u32 %{load} %11
%{store} = TmpStore %9 %{add}
%{cond} = UGe bool %{add} %12
%{iff} = ScopedIf %{endif} %{cond}
%{brk} = ScopedLoopBreak %{lp}
%{endif} = ScopedEndIf %{iff}
"
        ));
        ends.push((lp, end));
    }
    for (lp, end) in ends.into_iter().rev() {
        t.push_str(&format!("%{end} = ScopedEndLoop %{lp}\n"));
    }
    let (load, store, ret, fend) = (id(), id(), id(), id());
    t.push_str(&format!(
        "%{load} = TmpLoad u32 %9
%{store} = OutputStore %7 null %{load}
%{ret} = Return void null
%{fend} = FunctionEnd
"
    ));
    t
}

fn compile(text: &str) -> Result<dxspv::Output, dxspv::Error> {
    dxspv::compile_ir_text(text, &dxspv::Options::default())
}

/// Runs `spirv-val --target-env vulkan1.3` with `extra` arguments on `words`: whether it
/// accepts them and what it said; `None` when it is not installed.
fn spirv_val(words: &[u32], extra: &[&str]) -> Option<(bool, String)> {
    let mut args = vec!["--target-env", "vulkan1.3"];
    args.extend_from_slice(extra);
    Some(match dxspv_testkit::spirv_val_with(words, &args)? {
        Ok(()) => (true, String::new()),
        Err(msg) => (false, msg.chars().take(300).collect()),
    })
}

/// Whether `spirv-val` accepts `words` with its nesting limit lowered to `depth`.
fn spirv_val_with_depth(words: &[u32], depth: usize) -> Option<bool> {
    let depth = depth.to_string();
    spirv_val(words, &["--max-control-flow-nesting-depth", &depth]).map(|(ok, _)| ok)
}

#[test]
fn control_flow_nesting_stops_at_spirv_limit() {
    // The backend counts nesting as spirv-val does: 40 loops with an if inside the last is
    // 41 deep (checked against a lowered spirv-val limit, since spirv-val is slow at 1023).
    let m = compile(&nested_loops(40)).expect("40 nested loops");
    if let Some(ok) = spirv_val_with_depth(&m.spirv, 41) {
        assert!(ok, "spirv-val refused depth 41 at a limit of 41");
        assert_eq!(spirv_val_with_depth(&m.spirv, 40), Some(false));
    } else {
        println!("spirv-val not installed: nesting depth not cross-checked");
    }
    // SPIR-V's universal limit is 1023: 1022 loops and their if are at it, one more is past.
    compile(&nested_loops(1022)).expect("nesting 1023 deep");
    match compile(&nested_loops(1023)) {
        Ok(_) => panic!("nesting 1024 deep compiled"),
        Err(e) => assert!(
            e.to_string().contains("nested deeper than SPIR-V's 1023"),
            "{e}"
        ),
    }
}

/// A pixel shader whose output is chosen by a scoped switch of `cases` cases on an input.
fn switch_of(cases: usize) -> String {
    let mut t = String::from(
        "%1 = EntryPoint %3 Pixel
%6 = DclInput u32 %1 0 0 Flat
%7 = DclOutput u32 %1 0 0 0
%8 = Semantic %7 0 \"SV_Target\"
%3 = Function void
%5 = Label None
%9 = InputLoad u32 %6 null
",
    );
    let end = 20 + 3 * cases;
    t.push_str(&format!("%10 = ScopedSwitch %{end} %9\n"));
    for k in 0..cases {
        let id = 20 + 3 * k;
        t.push_str(&format!(
            "%{id} = ScopedSwitchCase %10 {k}\n%{} = OutputStore %7 null %9\n%{} = ScopedSwitchBreak %10\n",
            id + 1,
            id + 2
        ));
    }
    t.push_str(&format!(
        "%{end} = ScopedEndSwitch %10\n%{} = Return void null\n%{} = FunctionEnd\n",
        end + 1,
        end + 2
    ));
    t
}

/// Asserts that `text` compiles to SPIR-V that `spirv-val` accepts (when installed).
fn assert_valid(name: &str, text: &str) {
    let out = compile(text).unwrap_or_else(|e| panic!("{name}: {e}"));
    if let Some((ok, msg)) = spirv_val(&out.spirv, &[]) {
        assert!(ok, "{name}: {msg}");
    }
}

#[track_caller]
fn assert_refused(text: &str, want: &str) {
    match compile(text) {
        Ok(_) => panic!("compiled; expected an error mentioning {want:?}"),
        Err(e) => assert!(e.to_string().contains(want), "{e}"),
    }
}

#[test]
fn switches_stop_at_spirv_case_limit() {
    // SPIR-V allows 16,383 (literal, label) pairs in one OpSwitch (a DXBC switch of 25,000
    // cases gave invalid SPIR-V, one of 100,000 an OpSwitch past 65,535 words).
    assert_valid("switch_16383", &switch_of(16_383));
    assert_refused(&switch_of(16_384), "a switch of 16384 cases");
}

#[test]
fn instructions_stop_at_spirv_word_count() {
    // A constant array indexed at run time becomes one OpConstantComposite: 70,000 elements
    // are past the 65,535 words an instruction may have (its word count wrapped before).
    let table = |n: usize| {
        let elements: String = (0..n).map(|i| format!(" {i}")).collect();
        format!(
            "%1 = EntryPoint %3 Pixel
%6 = DclInput u32 %1 0 0 Flat
%7 = DclOutput u32 %1 0 0 0
%8 = Semantic %7 0 \"SV_Target\"
%9 = Constant u32[{n}]{elements}
%3 = Function void
%5 = Label None
%10 = InputLoad u32 %6 null
%11 = ConstantLoad u32 %9 %10
%12 = OutputStore %7 null %11
%13 = Return void null
%14 = FunctionEnd
"
        )
    };
    assert_valid("table_16000", &table(16_000));
    assert_refused(
        &table(70_000),
        "an OpConstantComposite longer than SPIR-V's 65,535 words",
    );
}

#[test]
fn functions_names_and_variables_stop_at_spirv_limits() {
    // 256 parameters: SPIR-V allows 255.
    let params = |n: usize| {
        let mut t = String::from("%1 = EntryPoint %3 Pixel\n");
        for i in 0..n {
            t.push_str(&format!("%{} = DclParam u32\n", 10 + i));
        }
        let list: String = (0..n).map(|i| format!(" %{}", 10 + i)).collect();
        let f = 10 + n;
        t.push_str(&format!(
            "%3 = Function void\n%5 = Label None\n%{} = Return void null\n%{} = FunctionEnd\n\
             %{f} = Function void{list}\n%{} = Label None\n%{} = Return void null\n%{} = FunctionEnd\n",
            f + 1,
            f + 2,
            f + 3,
            f + 4,
            f + 5
        ));
        t
    };
    // (An uncalled function is dropped, so call it from the entry point.)
    let called = |n: usize| {
        let t = params(n);
        let f = 10 + n;
        let args: String = (0..n).map(|_| " %9".to_string()).collect();
        t.replace(
            "%1 = EntryPoint %3 Pixel\n",
            "%1 = EntryPoint %3 Pixel\n%9 = Constant u32 7\n",
        )
        .replacen(
            "%5 = Label None\n",
            &format!(
                "%5 = Label None\n%{} = FunctionCall void %{f}{args}\n",
                f + 6
            ),
            1,
        )
    };
    assert_valid("params_255", &called(255));
    assert_refused(&called(256), "a function of 256 parameters");

    // A debug name past SPIR-V's 65,535-character strings is left out; the rest compiles.
    let name = "n".repeat(70_000);
    let named = switch_of(2).replace(
        "%8 = Semantic",
        &format!("%11 = DebugName %7 \"{name}\"\n%8 = Semantic"),
    );
    assert_valid("long_name", &named);
    let words = compile(&named).expect("a long name").spirv.len();
    assert!(words < 70_000 / 4, "{words} words: the name is still there");

    // 65,536 scratch arrays are more Private variables than SPIR-V allows.
    let scratch = |n: usize| {
        let mut t = String::from(
            "%1 = EntryPoint %3 Pixel\n%6 = DclOutput u32 %1 0 0 0\n%7 = Constant u32 0\n",
        );
        for i in 0..n {
            t.push_str(&format!("%{} = DclScratch u32[2] %1\n", 10 + i));
        }
        t.push_str("%3 = Function void\n%5 = Label None\n");
        let base = 10 + n;
        for i in 0..n {
            t.push_str(&format!("%{} = ScratchStore %{} %7 %7\n", base + i, 10 + i));
        }
        t.push_str(&format!(
            "%{} = Return void null\n%{} = FunctionEnd\n",
            base + n,
            base + n + 1
        ));
        t
    };
    assert_refused(&scratch(65_536), "65536 private variables");
}
