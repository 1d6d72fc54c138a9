//! The whole pass pipeline on frontend-style programs: scoped control flow, untyped
//! temporaries, `ConsumeAs`, legacy and min-precision ops in; lowered IR out.

use dxspv_ir::passes::{run_pipeline, MinPrecisionMode, Options, PipelineReport};
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

fn count(b: &Builder, opcode: OpCode) -> usize {
    b.iter().filter(|(_, op)| op.opcode == opcode).count()
}

/// `r1 = dot(v, v) < 0.5 ? mul_legacy(r0, 0.5) : FLT_MAX`, registers untyped.
const PIXEL_IF_ELSE: &str = r#"
%1 = EntryPoint %20 Pixel
%2 = DclInput vec4<f32> %1 0 0 None
%3 = DclOutput vec4<f32> %1 0 0 0
%4 = DclTmp unknown %1
%5 = DclTmp unknown %1
%6 = Constant unknown 0
%7 = Constant f32 0.5
%8 = Constant u32 0
%9 = DebugName %4 "r0"
%20 = Function void
%21 = Label None
%22 = InputLoad vec4<f32> %2 null
%23 = FDotLegacy f32 %22 %22
%24 = TmpStore %4 %23
%25 = TmpStore %5 %6
%26 = FLt bool %23 %7
%27 = ScopedIf %33 %26
%28 = TmpLoad unknown %4
%29 = ConsumeAs f32 %28
%30 = FMulLegacy f32 %29 %7
%31 = TmpStore %5 %30
%32 = ScopedElse %27
%34 = MaxValue f32
%35 = TmpStore %5 %34
%33 = ScopedEndIf %27
%36 = TmpLoad unknown %5
%37 = ConsumeAs f32 %36
%38 = CompositeInsert vec4<f32> %22 %8 %37
%39 = OutputStore %3 null %38
%40 = Return void null
%41 = FunctionEnd
"#;

/// `for (i = 0; i < 16; i++) acc += i; lds[tid] = acc;` with untyped registers.
const COMPUTE_LOOP: &str = r#"
%1 = EntryPoint %20 Compute
%2 = SetCsWorkgroupSize %1 64 1 1
%3 = DclLds u32[64] %1
%4 = DclTmp unknown %1
%5 = DclTmp unknown %1
%6 = Constant unknown 0
%7 = Constant u32 1
%8 = Constant u32 16
%9 = DclInputBuiltIn u32 %1 LocalThreadIndex None
%20 = Function void
%21 = Label None
%22 = TmpStore %4 %6
%23 = TmpStore %5 %6
%24 = ScopedLoop %40
%25 = TmpLoad unknown %4
%26 = ConsumeAs u32 %25
%27 = UGe bool %26 %8
%28 = ScopedIf %30 %27
%29 = ScopedLoopBreak %24
%30 = ScopedEndIf %28
%31 = TmpLoad unknown %5
%32 = ConsumeAs u32 %31
%33 = IAdd u32 %32 %26
%34 = TmpStore %5 %33
%35 = IAdd u32 %26 %7
%36 = TmpStore %4 %35
%40 = ScopedEndLoop %24
%41 = InputLoad u32 %9 null
%42 = TmpLoad unknown %5
%43 = LdsStore %3 %41 %42
%44 = Barrier Workgroup Workgroup Lds
%45 = Return void null
%46 = FunctionEnd
"#;

/// A switch whose case computes in min precision from a dot product.
const VERTEX_SWITCH_MIN_PRECISION: &str = r#"
%1 = EntryPoint %20 Vertex
%2 = DclInput vec4<f32> %1 0 0 None
%3 = DclInput u32 %1 1 0 None
%4 = DclOutputBuiltIn vec4<f32> %1 Position 0
%5 = DclTmp vec4<unknown> %1
%6 = Constant min16f 2.0
%20 = Function void
%21 = Label None
%22 = InputLoad vec4<f32> %2 null
%23 = InputLoad u32 %3 null
%24 = TmpStore %5 %22
%25 = ScopedSwitch %32 %23
%26 = ScopedSwitchCase %25 0
%27 = FDot f32 %22 %22
%28 = ConvertFtoF min16f %27
%29 = FMul min16f %28 %6
%30 = ConvertFtoF f32 %29
%31 = CompositeConstruct vec4<f32> %30 %30 %30 %30
%33 = TmpStore %5 %31
%34 = ScopedSwitchBreak %25
%35 = ScopedSwitchDefault %25
%36 = ScopedSwitchBreak %25
%32 = ScopedEndSwitch %25
%37 = TmpLoad vec4<unknown> %5
%38 = ConsumeAs vec4<f32> %37
%39 = OutputStore %4 null %38
%40 = Return void null
%41 = FunctionEnd
"#;

#[test]
fn pixel_if_else_with_legacy_ops() {
    let (b, report) = lower(PIXEL_IF_ELSE, &opts());
    assert_eq!(count(&b, OpCode::Phi), 1, "{}", print(&b));
    // The D3D9 zero rule survives: one guarded product per dot component and the mul.
    assert_eq!(count(&b, OpCode::Select), 5, "{}", print(&b));
    assert!(report
        .passes
        .iter()
        .any(|p| p.name == "resolve_types" && p.changed));
}

#[test]
fn compute_loop_with_untyped_counter() {
    let (b, _) = lower(COMPUTE_LOOP, &opts());
    let phis: Vec<_> = b
        .iter()
        .filter(|(_, op)| op.opcode == OpCode::Phi)
        .map(|(_, op)| op.ty.to_string())
        .collect();
    assert_eq!(phis, ["u32", "u32"], "{}", print(&b));
    assert_eq!(count(&b, OpCode::DclTmp), 0);
}

#[test]
fn vertex_switch_min_precision_both_modes() {
    for mode in [MinPrecisionMode::Promote32, MinPrecisionMode::Native16] {
        let o = Options {
            min_precision: mode,
            ..opts()
        };
        let (b, _) = lower(VERTEX_SWITCH_MIN_PRECISION, &o);
        let text = print(&b);
        assert!(!text.contains("min16"), "{text}");
        assert_eq!(
            text.contains("f16"),
            mode == MinPrecisionMode::Native16,
            "{text}"
        );
    }
}

#[test]
fn pipeline_without_optimisations_still_lowers() {
    for program in [PIXEL_IF_ELSE, COMPUTE_LOOP, VERTEX_SWITCH_MIN_PRECISION] {
        let o = Options {
            validate_each_pass: true,
            ..Options::no_optimisations()
        };
        lower(program, &o);
    }
}

/// Only CSE changes the first optimisation round (two equal sums merge), which makes
/// `s1 - s2` an `s - s` for simplification and then `0 + 1` for folding in later rounds: the
/// pipeline must not end the loop after the merge-only round.
const MERGE_ENABLES_SIMPLIFICATION: &str = r#"
%1 = EntryPoint %20 Pixel
%2 = DclInput vec2<u32> %1 0 0 Flat
%3 = DclOutput u32 %1 0 0 0
%4 = Constant u32 0
%5 = Constant u32 1
%20 = Function void
%21 = Label None
%22 = InputLoad u32 %2 %4
%23 = InputLoad u32 %2 %5
%24 = IAdd u32 %22 %23
%25 = IAdd u32 %23 %22
%26 = ISub u32 %24 %25
%27 = IAdd u32 %26 %5
%28 = OutputStore %3 null %27
%29 = Return void null
%30 = FunctionEnd
"#;

#[test]
fn merges_that_enable_simplification_are_followed_up() {
    let (b, report) = lower(MERGE_ENABLES_SIMPLIFICATION, &opts());
    let text = print(&b);
    assert_eq!(count(&b, OpCode::IAdd), 0, "{text}");
    assert_eq!(count(&b, OpCode::ISub), 0, "{text}");
    assert_eq!(count(&b, OpCode::InputLoad), 0, "{text}");
    assert!(report.optimisation_rounds >= 2, "{text}");
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
fn untyped_values_that_cannot_fit_are_errors_or_undefined() {
    // From the ir_compile fuzz target (minimized). A loop counter kept in an untyped temporary
    // (32-bit, from the u32 add) compared with an f16: resolve_types cannot make one type of
    // them, and says so instead of leaving an FNe of an f32 and an f16.
    let compare = "%1 = EntryPoint %3 Domain
%17 = DclInput f32[3] %1 1 0 None
%32 = Constant unknown 0
%111 = DclTmp unknown %1
%3 = Function void
%5 = Label None
%114 = ScopedLoop %173
%131 = TmpLoad unknown %111
%133 = InputLoad f16 %17 %32
%4 = FNe bool %131 %133
%169 = TmpLoad unknown %111
%170 = ConsumeAs u32 %169
%171 = IAdd u32 %170 %32
%2 = TmpStore %111 %171
%173 = ScopedEndLoop %114
%19 = FunctionEnd
";
    let mut b = parse(compare).expect("parses");
    match run_pipeline(&mut b, &opts()) {
        Ok(_) => panic!("compiled:\n{}", print(&b)),
        Err(e) => assert!(
            e.to_string().contains("FNe compares a f32 with a f16"),
            "{e}"
        ),
    }
    // A temporary holding the constant 8, read as the component index of a vec4: once SSA
    // construction puts the constant there, the extract (undefined at run time) is `Undef`.
    let extract = "%1 = EntryPoint %3 Compute
%2 = SetCsWorkgroupSize %1 1 1 1
%6 = DclUav f32 %1 0 0 1 BufferTyped None
%13 = Constant unknown 8
%14 = DclTmp unknown %1
%19 = Constant u32 0
%3 = Function void
%5 = Label None
%16 = TmpStore %14 %13
%33 = TmpLoad unknown %14
%54 = DescriptorLoad uav %6 %19
%57 = BufferLoad vec4<f32> %54 %19 4
%58 = CompositeExtract f32 %57 %33
%59 = BufferStore %54 %19 %58 4
%60 = Return void null
%61 = FunctionEnd
";
    let (b, _) = lower(extract, &opts());
    assert_eq!(count(&b, OpCode::CompositeExtract), 0, "{}", print(&b));
    assert_eq!(count(&b, OpCode::Undef), 1, "{}", print(&b));
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
