//! The whole pass pipeline on frontend-style programs: scoped control flow, untyped
//! temporaries, `ConsumeAs`, legacy and min-precision ops in; lowered IR out. What a program
//! lowers to is checked by the file tests (`tests/filetests/pipeline/`); these tests check
//! what text cannot: errors for invalid input, scaling, timing, and operand types.

// Tests may unwrap, panic and print (production code may not: see the workspace lints).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::print_stdout,
    clippy::print_stderr
)]
use dxspv_ir::passes::{run_pipeline, Options, PipelineReport};
use dxspv_ir::text::{parse, print};
use dxspv_ir::validate::{validate, Level};
use dxspv_ir::{Builder, OpCode};
use std::time::Instant;

fn opts() -> Options {
    Options {
        validate_each_pass: true,
        ..Options::default()
    }
}

/// Runs the pipeline on `text` and checks the result is valid lowered IR.
fn lower(text: &str, opts: &Options) -> (Builder, PipelineReport) {
    let mut b = match parse(text) {
        Ok(b) => b,
        Err(e) => panic!("does not parse: {e}\n{text}"),
    };
    let report = match run_pipeline(&mut b, opts) {
        Ok(r) => r,
        Err(e) => panic!("pipeline failed: {e}\n{text}"),
    };
    if let Err(errors) = validate(&b, Level::Lowered) {
        let msgs: Vec<String> = errors.iter().map(ToString::to_string).collect();
        panic!("not lowered: {msgs:#?}\n{}", print(&b));
    }
    (b, report)
}

#[test]
fn invalid_input_is_reported_not_panicked() {
    let mut b = parse("%1 = FunctionEnd\n").expect("parses");
    let err = run_pipeline(&mut b, &opts()).expect_err("invalid input");
    assert_eq!(err.pass(), "input");
}

/// A frontend-style pixel shader of about `blocks * 20` ops: untyped registers, if/else
/// scopes, `ConsumeAs`, legacy multiplies and dot products.
fn frontend_program(blocks: usize) -> String {
    let mut t = String::new();
    t.push_str(
        "%1 = EntryPoint %20 Pixel
%2 = DclInput vec4<f32> %1 0 0 None
%3 = DclOutput vec4<f32> %1 0 0 0
%4 = DclTmp unknown %1
%5 = DclTmp unknown %1
%6 = DclTmp unknown %1
%7 = Constant f32 0.5
%8 = Constant u32 0
%9 = Constant unknown 0
%20 = Function void
%21 = Label None
%22 = InputLoad vec4<f32> %2 null
%23 = TmpStore %4 %9
%24 = TmpStore %5 %9
%25 = TmpStore %6 %9
",
    );
    let mut id = 100u32;
    let mut next = || {
        id += 1;
        id
    };
    for i in 0..blocks {
        let (ra, rb) = (4 + i % 3, 4 + (i + 1) % 3);
        let l0 = next();
        let c0 = next();
        let d = next();
        let m = next();
        let cmp = next();
        let sif = next();
        let send = next();
        let l1 = next();
        let c1 = next();
        let a1 = next();
        let s1 = next();
        let selse = next();
        let l2 = next();
        let c2 = next();
        let a2 = next();
        let s2 = next();
        let s3 = next();
        t.push_str(&format!(
            "%{l0} = TmpLoad unknown %{ra}
%{c0} = ConsumeAs f32 %{l0}
%{d} = FDotLegacy f32 %22 %22
%{m} = FMulLegacy f32 %{c0} %{d}
%{cmp} = FLt bool %{m} %7
%{sif} = ScopedIf %{send} %{cmp}
%{l1} = TmpLoad unknown %{rb}
%{c1} = ConsumeAs f32 %{l1}
%{a1} = FAdd f32 %{c1} %{m}
%{s1} = TmpStore %{rb} %{a1}
%{selse} = ScopedElse %{sif}
%{l2} = TmpLoad unknown %{rb}
%{c2} = ConsumeAs u32 %{l2}
%{a2} = IAdd u32 %{c2} %8
%{s2} = TmpStore %{rb} %{a2}
%{send} = ScopedEndIf %{sif}
%{s3} = TmpStore %{ra} %{m}
"
        ));
    }
    t.push_str(
        "%30 = TmpLoad unknown %4
%31 = ConsumeAs f32 %30
%32 = CompositeInsert vec4<f32> %22 %8 %31
%33 = OutputStore %3 null %32
%34 = Return void null
%35 = FunctionEnd
",
    );
    t
}

fn time_pipeline(blocks: usize) -> (f64, usize, PipelineReport) {
    let mut b = parse(&frontend_program(blocks)).expect("generated program parses");
    let n = b.len();
    let o = Options {
        validate_each_pass: false,
        time_passes: true,
        ..Options::default()
    };
    let start = Instant::now();
    let report = run_pipeline(&mut b, &o).expect("pipeline");
    let secs = start.elapsed().as_secs_f64();
    if let Err(errors) = validate(&b, Level::Lowered) {
        panic!("not lowered: {:?}", &errors[..errors.len().min(5)]);
    }
    (secs, n, report)
}

#[test]
fn generated_program_lowers_with_validation_after_each_pass() {
    lower(&frontend_program(20), &opts());
}

/// Four times the program must not take much more than four times as long (generous bound:
/// 16x, to absorb noise on shared machines; quadratic behaviour would give 16x and more).
/// Both sizes are far past the caches (68k and 272k ops): a program that fits in cache runs
/// disproportionately fast and would make the ratio look super-linear.
#[test]
fn pipeline_is_linear_in_practice() {
    // Best of three for each size, so a burst of load on a shared machine does not decide.
    let best = |blocks: usize| {
        (0..3)
            .map(|_| time_pipeline(blocks))
            .map(|(t, n, _)| (t, n))
            .fold((f64::MAX, 0), |(bt, _), (t, n)| (bt.min(t), n))
    };
    let (small_t, small_n) = best(4000);
    let (big_t, big_n) = best(16000);
    assert!(big_n >= 3 * small_n);
    let ratio = big_t / small_t.max(1e-6);
    println!("{small_n} ops: {small_t:.4}s, {big_n} ops: {big_t:.4}s, ratio {ratio:.1}");
    assert!(
        ratio < 16.0,
        "{small_n} ops: {small_t:.4}s, {big_n} ops: {big_t:.4}s, ratio {ratio:.1}"
    );
}

/// Prints time per pass for a ~100k-op program (run with `--release --ignored --nocapture`).
#[test]
#[ignore]
fn pipeline_timing_100k() {
    let (secs, n, report) = time_pipeline(100_000 / 17);
    println!(
        "{n} ops in, {secs:.3}s total, {} optimisation rounds",
        report.optimisation_rounds
    );
    let runs: Vec<String> = report
        .passes
        .iter()
        .map(|p| format!("{}{}", p.name, if p.changed { "*" } else { "" }))
        .collect();
    println!("runs (* = changed): {}", runs.join(" "));
    for (name, d) in report.per_pass() {
        println!("  {name:24} {:8.2} ms", d.as_secs_f64() * 1e3);
    }
}

#[test]
fn untyped_image_coordinates_become_32_bit() {
    // From the ir_compile fuzz target (minimized): an untyped value also read as a u16 mip
    // level was left a u16 coordinate; image coordinates are 32-bit integers.
    let text = "%1 = EntryPoint %3 Pixel
%6 = DclSrv i32 %1 0 0 1 Image1D
%7 = DclOutput vec4<i32> %1 0 0 0
%14 = Constant u32 0
%34 = DclTmp unknown %1
%3 = Function void
%5 = Label None
%89 = DescriptorLoad srv %6 %14
%92 = TmpLoad unknown %34
%93 = ConsumeAs u16 %92
%4 = ImageLoad vec4<i32> %89 %93 null %92 null null
%8 = OutputStore %7 null %4
%9 = Return void null
%10 = FunctionEnd
";
    let (b, _) = lower(text, &opts());
    let load = b
        .iter()
        .find(|(_, op)| op.opcode == OpCode::ImageLoad)
        .map(|(_, op)| op.clone())
        .expect("the load stays");
    let coord = load.arg(3).and_then(|c| b.get(c)).expect("a coordinate");
    assert_eq!(coord.ty.to_string(), "u32", "{}", print(&b));
}
