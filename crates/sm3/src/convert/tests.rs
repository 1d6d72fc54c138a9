//! Converter tests: shaders written in assembly ([`crate::testasm`]), converted, checked
//! by the IR validator, and either compared with a snapshot of the whole IR (the files in
//! `tests/convert/`, each checked line by line against Direct3D 9's semantics when it was
//! written) or run through the pass pipeline and evaluated on sample values
//! ([`super::eval`]).

use dxspv_ir::{validate, Builder, Level};

use crate::testasm::assemble_bytes;
use crate::{convert, ConvertError, Options, Shader};

/// Converts assembly with `opts`; panics if conversion or validation fails.
pub(crate) fn convert_with(text: &str, opts: &Options) -> Builder {
    let bytes = assemble_bytes(text);
    let shader = Shader::parse(&bytes).expect("parses");
    let b = match convert(&shader, opts) {
        Ok(b) => b,
        Err(e) => panic!("conversion failed: {e}\n{text}"),
    };
    if let Err(errs) = validate(&b, Level::Structural) {
        let list: Vec<String> = errs.iter().map(|e| e.to_string()).collect();
        panic!(
            "invalid IR:\n{}\n{}",
            list.join("\n"),
            dxspv_ir::text::print(&b)
        );
    }
    b
}

/// The raw IR text of a shader converted with `opts`.
pub(crate) fn raw_with(text: &str, opts: &Options) -> String {
    dxspv_ir::text::print(&convert_with(text, opts))
}

/// Options with every fixed-function state emulated (spec constants, push constants and the
/// state buffer declared as the shader needs them).
pub(crate) fn all_dynamic() -> Options {
    Options {
        dynamic_state: crate::DynamicState::ALL,
        ..Options::default()
    }
}

/// The lowered IR (the pass pipeline run, every pass validated).
pub(crate) fn lowered_with(text: &str, opts: &Options) -> Builder {
    let mut b = convert_with(text, opts);
    let popts = dxspv_ir::passes::options::Options {
        validate_each_pass: true,
        ..Default::default()
    };
    if let Err(e) = dxspv_ir::passes::pipeline::run_pipeline(&mut b, &popts) {
        panic!("pipeline failed: {e}\n{}", dxspv_ir::text::print(&b));
    }
    b
}

/// The conversion error of a shader.
pub(crate) fn error(text: &str) -> ConvertError {
    let bytes = assemble_bytes(text);
    let shader = Shader::parse(&bytes).expect("parses");
    match convert(&shader, &Options::default()) {
        Ok(b) => panic!("expected an error, got:\n{}", dxspv_ir::text::print(&b)),
        Err(e) => e,
    }
}

/// Compares the raw IR of `text` with the snapshot `tests/snapshots/<name>.ir` (written
/// instead when `UPDATE_SNAPSHOTS` is set; every snapshot was reviewed line by line).
#[track_caller]
fn snapshot(name: &str, text: &str) {
    snapshot_with(name, text, &Options::default());
}

/// [`snapshot`] with `opts`.
#[track_caller]
fn snapshot_with(name: &str, text: &str, opts: &Options) {
    let got = format!("; {}\n{}", text.replace('\n', "\n; "), raw_with(text, opts));
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/snapshots")
        .join(format!("{name}.ir"));
    if std::env::var_os("UPDATE_SNAPSHOTS").is_some() {
        std::fs::write(&path, &got).expect("writes the snapshot");
        return;
    }
    let want = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e} (UPDATE_SNAPSHOTS=1 writes it)", path.display()));
    if got != want {
        let diff: Vec<String> = got
            .lines()
            .zip(want.lines())
            .enumerate()
            .filter(|(_, (g, w))| g != w)
            .take(8)
            .map(|(i, (g, w))| format!("line {}:\n  got  {g}\n  want {w}", i + 1))
            .collect();
        panic!(
            "{name}: the IR differs from {}:\n{}\n(lines: got {}, want {})",
            path.display(),
            diff.join("\n"),
            got.lines().count(),
            want.lines().count()
        );
    }
}

#[test]
#[ignore]
fn print_lowered() {
    let text = std::env::var("D3D9_ASM").unwrap_or_default();
    let b = lowered_with(&text, &Options::default());
    println!("{}", dxspv_ir::text::print(&b));
}

// -------------------------------------------------------------------------------------------
// Evaluation helpers
// -------------------------------------------------------------------------------------------

use super::eval::{run, Env, Outputs};
use dxspv_ir::BuiltIn;

/// Converts, lowers and runs a shader.
fn exec_with(text: &str, opts: &Options, env: &Env) -> Outputs {
    run(&lowered_with(text, opts), env)
}

fn exec(text: &str, env: &Env) -> Outputs {
    exec_with(text, &all_dynamic(), env)
}

/// `vs_2_0` body whose result is written to `oT0` (not saturated), run with `c#` = `consts`.
fn vs(body: &str, consts: &[[f32; 4]]) -> [f32; 4] {
    vs_model("vs_2_0", body, consts, &Options::default())
}

fn vs_model(model: &str, body: &str, consts: &[[f32; 4]], opts: &Options) -> [f32; 4] {
    let text = format!("{model}\ndcl_position v0\nmov oPos, v0\n{body}");
    let env = Env {
        floats: consts.to_vec(),
        ..Env::default()
    };
    let o = exec_with(&text, opts, &env);
    let t = o.at(0);
    [t[0], t[1], t[2], t[3]]
}

/// Asserts that two vectors are equal within `eps` (NaN equals NaN, infinities exact).
#[track_caller]
fn close(got: [f32; 4], want: [f32; 4], eps: f32) {
    for i in 0..4 {
        let (g, w) = (got[i], want[i]);
        let ok = (g.is_nan() && w.is_nan())
            || g == w
            || (g.is_finite() && w.is_finite() && (g - w).abs() <= eps * w.abs().max(1.0));
        assert!(ok, "component {i}: got {got:?}, want {want:?}");
    }
}

const INF: f32 = f32::INFINITY;

// -------------------------------------------------------------------------------------------
// Arithmetic
// -------------------------------------------------------------------------------------------

#[test]
fn rcp_of_zero_is_plus_infinity_and_scalar_ops_read_the_w_lane() {
    let c = [[0.0, 2.0, -0.0, 4.0]];
    close(
        vs(
            "rcp r0.x, c0.x\nrcp r0.y, c0.y\nrcp r0.z, c0.z\nrcp r0.w, c0\nmov oT0, r0",
            &c,
        ),
        [INF, 0.5, INF, 0.25],
        1e-6,
    );
}

#[test]
fn rsq_and_log_take_the_absolute_value() {
    let c = [[-4.0, 0.0, -8.0, 0.0]];
    close(
        vs(
            "rsq r0.x, c0.x\nrsq r0.y, c0.y\nlog r0.z, c0.z\nlog r0.w, c0.w\nmov oT0, r0",
            &c,
        ),
        [0.5, INF, 3.0, -INF],
        1e-6,
    );
    close(vs("exp oT0, c0.x", &[[3.0, 0.0, 0.0, 0.0]]), [8.0; 4], 1e-6);
}

#[test]
fn vs_1_1_logp_and_expp_write_four_components() {
    let o = Options::default();
    let c = [[0.0, 0.0, 0.0, 0.25]];
    close(
        vs_model("vs_1_1", "logp oT0, c0", &c, &o),
        [-2.0, 1.0, -2.0, 1.0],
        1e-6,
    );
    let c = [[6.0, 0.0, 0.0, 0.0]];
    close(
        vs_model("vs_1_1", "logp oT0, c0.x", &c, &o),
        [2.0, 1.5, 6f32.log2(), 1.0],
        1e-6,
    );
    let c = [[0.0; 4]];
    close(
        vs_model("vs_1_1", "logp oT0, c0.x", &c, &o),
        [-INF, 1.0, -INF, 1.0],
        0.0,
    );
    let c = [[2.5, 0.0, 0.0, 0.0]];
    close(
        vs_model("vs_1_1", "expp oT0, c0.x", &c, &o),
        [4.0, 0.5, 2.5f32.exp2(), 1.0],
        1e-6,
    );
    // From 2.0 they are exp and log of the replicated scalar.
    close(
        vs("expp oT0, c0.x", &[[2.5, 0.0, 0.0, 0.0]]),
        [2.5f32.exp2(); 4],
        1e-6,
    );
    close(
        vs("logp oT0, c0.x", &[[-0.25, 0.0, 0.0, 0.0]]),
        [-2.0; 4],
        1e-6,
    );
}

#[test]
fn lit_follows_the_reference() {
    let c = [
        [0.5, 0.25, 0.0, 2.0],
        [-1.0, 0.5, 0.0, 2.0],
        [0.5, -0.5, 0.0, 2.0],
        [2.0, 0.5, 0.0, 300.0],
    ];
    close(vs("lit oT0, c0", &c), [1.0, 0.5, 0.0625, 1.0], 1e-6);
    close(vs("lit oT0, c1", &c), [1.0, 0.0, 0.0, 1.0], 0.0);
    close(vs("lit oT0, c2", &c), [1.0, 0.5, 0.0, 1.0], 0.0);
    // The power is clamped to 127.9961.
    close(
        vs("lit oT0, c3", &c),
        [1.0, 2.0, 0.5f32.powf(127.9961), 1.0],
        1e-5,
    );
}

#[test]
fn dst_lrp_crs_and_friends() {
    let c = [[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0], [0.25; 4]];
    close(vs("dst oT0, c0, c1", &c), [1.0, 12.0, 3.0, 8.0], 0.0);
    close(vs("lrp oT0, c2, c0, c1", &c), [4.0, 5.0, 6.0, 7.0], 1e-6);
    close(
        vs("mov oT0, c2\ncrs oT0.xyz, c0, c1", &c),
        [-4.0, 8.0, -4.0, 0.25],
        0.0,
    );
    close(vs("frc oT0, -c2", &c), [0.75; 4], 0.0);
    close(
        vs("sgn oT0, c0, r0, r1", &[[-2.0, 0.0, 3.0, -0.0]]),
        [-1.0, 0.0, 1.0, 0.0],
        0.0,
    );
    close(vs("abs oT0, -c0", &c), [1.0, 2.0, 3.0, 4.0], 0.0);
    close(
        vs("min oT0, c0, c2\nmax oT0.w, c0, c1", &c),
        [0.25, 0.25, 0.25, 8.0],
        0.0,
    );
    close(
        vs("slt oT0, c0, c1.y\nsge oT0.w, c0, c1.y", &c),
        [1.0, 1.0, 1.0, 0.0],
        0.0,
    );
}

#[test]
fn nrm_scales_w_too_and_normalises_zero_to_zero() {
    // Wine's test_nrm_instruction: nrm of (2, 0, 0, 0.5) is (1, 0, 0, 0.25); of 0 is 0.
    close(
        vs("nrm oT0, c0", &[[2.0, 0.0, 0.0, 0.5]]),
        [1.0, 0.0, 0.0, 0.25],
        1e-6,
    );
    close(vs("nrm oT0, c0", &[[0.0; 4]]), [0.0; 4], 0.0);
}

#[test]
fn sincos_writes_cos_to_x_and_sin_to_y() {
    let c = [[1.0, 0.0, 0.0, 0.0]];
    close(
        vs("mov oT0, c1\nsincos oT0.xy, c0.x, c2, c3", &c),
        [1f32.cos(), 1f32.sin(), 0.0, 0.0],
        1e-6,
    );
    let o = Options::default();
    let t = "sincos r0.xy, c0.x\nmov oT0, r0";
    let text = format!(
        "vs_3_0\ndcl_position o0\ndcl_texcoord o1\n{}",
        t.replace("oT0", "o1")
    );
    let env = Env {
        floats: c.to_vec(),
        ..Env::default()
    };
    let out = exec_with(&text, &o, &env);
    close(
        [out.at(0)[0], out.at(0)[1], 0.0, 0.0],
        [1f32.cos(), 1f32.sin(), 0.0, 0.0],
        1e-6,
    );
}

#[test]
fn zero_times_anything_is_zero_under_float_emulation() {
    let c = [[0.0, 0.0, 0.0, 0.0], [INF, f32::NAN, 1.0, 2.0]];
    close(vs("mul oT0, c0, c1", &c), [0.0; 4], 0.0);
    close(vs("mad oT0, c1, c0, c0.x", &c), [0.0; 4], 0.0);
    close(vs("dp4 oT0, c0, c1", &c), [0.0; 4], 0.0);
    close(vs("pow oT0, c0.x, c0.x", &c), [1.0; 4], 0.0);
    close(vs("pow oT0, c1.w, c0.x", &c), [1.0; 4], 0.0);
    // Fast keeps the rule in dot products only; Off in none.
    let fast = Options {
        float_emulation: crate::FloatEmulation::Fast,
        ..Options::default()
    };
    let got = vs_model("vs_2_0", "mul oT0, c0, c1", &c, &fast);
    assert!(got[0].is_nan() && got[1].is_nan() && got[2] == 0.0);
    close(
        vs_model("vs_2_0", "dp4 oT0, c0, c1", &c, &fast),
        [0.0; 4],
        0.0,
    );
    let off = Options {
        float_emulation: crate::FloatEmulation::Off,
        ..Options::default()
    };
    assert!(vs_model("vs_2_0", "dp4 oT0, c0, c1", &c, &off)[0].is_nan());
}

#[test]
fn matrix_instructions_read_consecutive_registers() {
    let c = [
        [1.0, 2.0, 3.0, 4.0],
        [1.0, 0.0, 0.0, 0.0],
        [0.0, 1.0, 0.0, 0.0],
        [0.0, 0.0, 1.0, 0.0],
        [1.0, 1.0, 1.0, 1.0],
    ];
    close(vs("m4x4 oT0, c0, c1", &c), [1.0, 2.0, 3.0, 10.0], 0.0);
    close(
        vs("mov oT0, c0\nm3x2 oT0.xy, c0, c2", &c),
        [2.0, 3.0, 3.0, 4.0],
        0.0,
    );
    close(
        vs("mov oT0, c0\nm3x3 oT0.xyz, c4, c1", &c),
        [1.0, 1.0, 1.0, 4.0],
        0.0,
    );
    close(vs("m3x4 oT0, c0, c1", &c), [1.0, 2.0, 3.0, 6.0], 0.0);
    close(
        vs("mov oT0, c0\nm4x3 oT0.xyz, c0, c2", &c),
        [2.0, 3.0, 10.0, 4.0],
        0.0,
    );
}

#[test]
fn address_register_rounding_per_model() {
    // Wine's test_mova: vs_1_1 `mov a0.x` rounds down, vs_2_0 `mova` to nearest.
    let mut consts: Vec<[f32; 4]> = (0..7).map(|i| [i as f32; 4]).collect();
    for (x, down, near) in [
        (-2.4f32, -3.0, -2.0),
        (-1.6, -2.0, -2.0),
        (-0.4, -1.0, 0.0),
        (0.4, 0.0, 0.0),
        (1.6, 1.0, 2.0),
        (2.4, 2.0, 2.0),
    ] {
        consts.resize(8, [0.0; 4]);
        consts[7] = [x, 0.0, 0.0, 0.0];
        let o = Options::default();
        let got = vs_model("vs_1_1", "mov a0.x, c7.x\nmov oT0, c3[a0.x]", &consts, &o);
        assert_eq!(got[0], 3.0 + down, "mov a0.x, {x}");
        let got = vs_model("vs_2_0", "mova a0.x, c7.x\nmov oT0, c3[a0.x]", &consts, &o);
        assert_eq!(got[0], 3.0 + near, "mova a0.x, {x}");
    }
}

#[test]
fn relative_reads_past_the_file_are_zero_and_see_defs() {
    let mut consts = vec![[0.0; 4]; 256];
    consts[255] = [7.0; 4];
    consts[4] = [9.0; 4];
    let o = Options::default();
    let body = "def c5, 5, 5, 5, 5\nmov r0.x, c0.x\nmova a0.x, r0.x\nmov oT0, c255[a0.x]";
    consts[0] = [0.0; 4];
    close(vs_model("vs_2_0", body, &consts, &o), [7.0; 4], 0.0);
    consts[0] = [1.0; 4];
    close(vs_model("vs_2_0", body, &consts, &o), [0.0; 4], 0.0);
    // c[a0.x + 4]: a0.x = 1 reaches the def'd c5, 0 the buffer's c4.
    let body = "def c5, 5, 5, 5, 5\nmova a0.x, c0.x\nmov oT0, c4[a0.x]";
    consts[0] = [1.0; 4];
    close(vs_model("vs_2_0", body, &consts, &o), [5.0; 4], 0.0);
    consts[0] = [0.0; 4];
    close(vs_model("vs_2_0", body, &consts, &o), [9.0; 4], 0.0);
}

#[test]
fn vs_1_x_and_2_x_colour_outputs_are_saturated_and_3_0_are_not() {
    let text =
        "vs_2_0\ndcl_position v0\ndef c0, 2, -1, 0.5, 1\nmov oPos, v0\nmov oD0, c0\nmov oD1, c0";
    let o = exec(text, &Env::default());
    close(
        [o.at(10)[0], o.at(10)[1], o.at(10)[2], o.at(10)[3]],
        [1.0, 0.0, 0.5, 1.0],
        0.0,
    );
    close(
        [o.at(11)[0], o.at(11)[1], o.at(11)[2], o.at(11)[3]],
        [1.0, 0.0, 0.5, 1.0],
        0.0,
    );
    // A run-time value (one vector clamp).
    let mut env = Env::default();
    env.inputs.insert(0, [2.0, -1.0, 0.25, 1.0]);
    let o = exec("vs_1_1\ndcl_position v0\nmov oPos, v0\nmov oD1, v0", &env);
    close(
        [o.at(11)[0], o.at(11)[1], o.at(11)[2], o.at(11)[3]],
        [1.0, 0.0, 0.25, 1.0],
        0.0,
    );
    let text = "vs_3_0\ndcl_position o0\ndcl_color o1\ndef c0, 2, -1, 0.5, 1\nmov o1, c0";
    let o = exec(text, &Env::default());
    close(
        [o.at(10)[0], o.at(10)[1], o.at(10)[2], o.at(10)[3]],
        [2.0, -1.0, 0.5, 1.0],
        0.0,
    );
}

#[test]
fn unwritten_varyings_take_direct3d_9_defaults() {
    // Wine's test_uninitialized_varyings: vs_1_1 writing only oPos and .x of oD0/oD1/oT0.
    let text = "vs_1_1\ndcl_position v0\ndef c0, 0.5, 0.5, 0.5, 0.5\nmov oPos, v0\nmov oD0.x, c0\nmov oD1.x, c0\nmov oT0.x, c0";
    let o = exec(text, &Env::default());
    assert_eq!(o.at(10), &[0.5, 1.0, 1.0, 1.0]);
    assert_eq!(o.at(11), &[0.5, 0.0, 0.0, 1.0]);
    assert_eq!(o.at(0), &[0.5, 0.0, 0.0, 1.0]);
    assert_eq!(o.at(7), &[0.0, 0.0, 0.0, 1.0]);
    // oFog: (0, 0, 0, 0) unwritten, (fog, 0, 0, 0) written.
    assert_eq!(o.at(12), &[0.0; 4]);
    let o = exec(
        "vs_1_1\ndcl_position v0\ndef c0, 0.5, 0.25, 1, 1\nmov oPos, v0\nmov oFog, c0.y",
        &Env::default(),
    );
    assert_eq!(o.at(12), &[0.25, 0.0, 0.0, 0.0]);
    // vs_3_0: declared outputs start at 0, nothing else is written.
    let text = "vs_3_0\ndcl_position o0\ndcl_color1 o1\ndef c0, 0.5, 0.5, 0.5, 0.5\nmov o1.x, c0";
    let o = exec(text, &Env::default());
    assert_eq!(o.at(11), &[0.5, 0.0, 0.0, 0.0]);
    assert!(o.at(10).is_empty() && o.at(0).is_empty());
}

// -------------------------------------------------------------------------------------------
// Pixel shaders
// -------------------------------------------------------------------------------------------

/// Runs a pixel shader with `t0` = `tc`, `c#` = `consts`; returns `oC0`.
fn ps(text: &str, tc: [f32; 4], consts: &[[f32; 4]]) -> [f32; 4] {
    let mut env = Env {
        floats: consts.to_vec(),
        ..Env::default()
    };
    env.inputs.insert(0, tc);
    let o = exec(text, &env);
    assert!(!o.demoted, "unexpected demote");
    let c = o.at(0);
    [c[0], c[1], c[2], c[3]]
}

#[test]
fn cnd_compares_with_one_half_and_co_issue_on_colour_picks_src1() {
    // Wine's cnd_test, ps_1_1: r0.w = 2 (t0.x - 0.5); cnd r0.xyz co-issued with the alpha
    // move picks c1 whatever the condition.
    let text = "ps_1_1\ndef c0, 1, 0, 0, 0\ndef c3, 0.5, 0.5, 0.5, 0\ntexcoord t0\nmov r0, t0\n\
                sub r0, r0, c3\nadd r1, c0, c0\ndp3 r1, r0, r1\nmov r0.w, r1.w\n\
                + cnd r0.xyz, r0.w, c1, c2";
    let c = [[0.0; 4], [0.0, 1.0, 0.0, 0.0], [1.0, 0.0, 1.0, 1.0]];
    for u in [0.1, 0.9] {
        let got = ps(text, [u, 0.5, 0.0, 1.0], &c);
        assert_eq!(&got[..3], &[0.0, 1.0, 0.0], "u = {u}");
    }
    // The same cnd not co-issued compares r0.a with 0.5.
    let text =
        "ps_1_2\ndef c0, 1, 0, 0, 0\ntexcoord t0\nmov r0, t0\ndp3 r1, r0, c0\nmov r0.w, r1.w\n\
                cnd r0, r0.w, c1, c2";
    let c = [[0.0; 4], [0.0; 4], [1.0; 4]];
    assert_eq!(ps(text, [0.4, 0.0, 0.0, 1.0], &c), [1.0; 4]);
    assert_eq!(ps(text, [0.6, 0.0, 0.0, 1.0], &c), [0.0; 4]);
    // ps_1_4: per component, co-issue or not.
    let text =
        "ps_1_4\ndef c0, 0, 0, 0, 1\ntexcrd r0.xyz, t0\nmov r0.w, c0.w\n+ cnd r0.xyz, r0, c1, c2";
    let c = [[0.0; 4], [0.0, 1.0, 0.0, 0.0], [1.0, 0.0, 1.0, 1.0]];
    assert_eq!(ps(text, [0.7, 0.2, 0.0, 1.0], &c), [0.0, 0.0, 1.0, 1.0]);
}

#[test]
fn co_issued_instructions_read_registers_before_either_writes() {
    let text =
        "ps_1_1\ndef c0, 0.25, 0.25, 0.25, 0.75\nmov r0, c0\nmov r0.xyz, r0.w\n+ mov r0.w, r0.x";
    assert_eq!(ps(text, [0.0; 4], &[]), [0.75, 0.75, 0.75, 0.25]);
}

#[test]
fn ps_1_x_constants_are_clamped_and_results_shifted_and_saturated() {
    // Constants clamp to [-1, 1] in ps_1_x (application and def values alike).
    let text = "ps_1_4\ndef c1, 2, -3, 0.5, 1\nadd r0, c0, c1";
    assert_eq!(
        ps(text, [0.0; 4], &[[5.0, -5.0, 0.25, 0.0]]),
        [2.0, -2.0, 0.75, 1.0]
    );
    // One component read: a scalar clamp (the same values).
    let text = "ps_1_4\nmov r0, c1\nmov r0.y, c0.z";
    let got = ps(
        text,
        [0.0; 4],
        &[[5.0, -5.0, -0.25, 0.0], [2.0, 0.5, -3.0, 0.0]],
    );
    assert_eq!(got, [1.0, -0.25, -1.0, 0.0]);
    let vector_clamps = |text: &str| {
        convert_with(text, &Options::default())
            .iter()
            .filter(|(_, op)| op.opcode == dxspv_ir::OpCode::FClamp && !op.ty.is_scalar())
            .count()
    };
    assert_eq!(
        vector_clamps(text),
        1,
        "c1 clamped as a vector, c0.z as a scalar"
    );
    // ps_2_0 does not clamp.
    let text = "ps_2_0\ndef c1, 2, -3, 0.5, 1\nadd r0, c0, c1\nmov oC0, r0";
    assert_eq!(
        ps(text, [0.0; 4], &[[5.0, -5.0, 0.25, 0.0]]),
        [7.0, -8.0, 0.75, 1.0]
    );
    let text =
        "ps_1_4\ndef c0, 0.5, 0.25, -0.5, 1\nmul_x4 r0.x, c0.x, c0.y\nmul_d2 r0.y, c0.x, c0.y\n\
                add_sat r0.z, c0.z, c0.z\nmov_x2_sat r0.w, c0.x";
    assert_eq!(ps(text, [0.0; 4], &[]), [0.5, 0.0625, 0.0, 1.0]);
}

#[test]
fn source_modifiers() {
    let text = "ps_1_4\ndef c0, 0.75, 0.25, 0.5, 1\nmov r0.x, c0_bias.x\nmov r0.y, c0_bx2.y\n\
                mov r0.z, 1 - c0.z\nmov r0.w, -c0_x2.y";
    assert_eq!(ps(text, [0.0; 4], &[]), [0.25, -0.5, 0.5, -0.5]);
    let text = "ps_3_0\ndef c0, -0.75, 0.25, 0.5, 1\nmov oC0, -c0_abs";
    assert_eq!(ps(text, [0.0; 4], &[]), [-0.75, -0.25, -0.5, -1.0]);
}

#[test]
fn cmp_dp2add_and_texcoord() {
    // Wine's dp2add_ps_test: dp2add r0, c0, c1, c2.
    let text = "ps_2_0\ndef c0, 0.25, 0.5, 2, 2\ndef c1, 2, 1, 5, 5\ndef c2, 0.125, 0, 0, 0\n\
                dp2add r0, c0, c1, c2.x\ncmp r0.yzw, c1.xxyz, c0.x, -c0.x\nmov oC0, r0";
    assert_eq!(ps(text, [0.0; 4], &[]), [1.125, 0.25, 0.25, 0.25]);
    // texcoord saturates the coordinate and sets w to 1.
    let text = "ps_1_1\ntexcoord t0\nmov r0, t0";
    assert_eq!(ps(text, [1.5, -0.5, 0.25, 0.0], &[]), [1.0, 0.0, 0.25, 1.0]);
}

#[test]
fn texkill_demotes_on_a_negative_component() {
    let run1 = |text: &str, tc: [f32; 4]| {
        let mut env = Env::default();
        env.inputs.insert(0, tc);
        exec(text, &env).demoted
    };
    // ps_1_x tests x, y and z.
    assert!(run1(
        "ps_1_1\ntexkill t0\nmov r0, t0",
        [0.5, -0.1, 0.0, 0.0]
    ));
    assert!(!run1(
        "ps_1_1\ntexkill t0\nmov r0, t0",
        [0.5, 0.1, 0.0, -1.0]
    ));
    // From 2.0, the components of the write mask.
    assert!(run1(
        "ps_2_0\ndcl t0\ntexkill t0\nmov oC0, t0",
        [0.5, 0.1, 0.0, -1.0]
    ));
    assert!(!run1(
        "ps_2_0\ndcl t0\ntexkill t0.xy\nmov oC0, t0",
        [0.5, 0.1, -1.0, -1.0]
    ));
}

#[test]
fn texture_instructions_of_ps_1_x() {
    // The fake texture returns its coordinate; t0 is texture coordinate set 0 and so on.
    let mut env = Env::default();
    env.inputs.insert(0, [0.5, 0.25, 0.0, 1.0]);
    env.inputs.insert(1, [0.1, 0.2, 0.0, 2.0]);
    env.inputs.insert(2, [1.0, 0.0, 0.0, 3.0]);
    env.inputs.insert(3, [0.0, 1.0, 0.0, 4.0]);
    // texbem: coordinate 1 + matrix(stage 1) x t0.rg.
    let mut e = env.clone();
    e.state = vec![[0.0; 4]; crate::options::state::PIXEL_ROWS as usize];
    e.state[crate::options::state::BUMP_ENV_MATRICES as usize + 1] = [2.0, 0.0, 0.0, 4.0];
    let o = exec("ps_1_1\ntex t0\ntexbem t1, t0\nmov r0, t1", &e);
    assert_eq!(&o.at(0)[..2], &[0.1 + 2.0 * 0.5, 0.2 + 4.0 * 0.25]);
    // texbeml multiplies by t0.b * scale + offset.
    let mut e2 = e.clone();
    e2.texture = std::rc::Rc::new(|_, c| [c[0], c[1], 0.5, 1.0]);
    e2.state[crate::options::state::BUMP_ENV_LUMINANCE as usize + 1] = [2.0, 0.25, 0.0, 0.0];
    let o = exec("ps_1_1\ntex t0\ntexbeml t1, t0\nmov r0, t1", &e2);
    assert_eq!(o.at(0)[0], (0.1 + 2.0 * 0.5) * 1.25);
    // texreg2ar samples at (t0.a, t0.r) (t0 is the fake texel (0.5, 0.25, 0, 0)).
    let o = exec("ps_1_1\ntex t0\ntexreg2ar t1, t0\nmov r0, t1", &env);
    assert_eq!(&o.at(0)[..2], &[0.0, 0.5]);
    let o = exec("ps_1_1\ntex t0\ntexreg2gb t1, t0\nmov r0, t1", &env);
    assert_eq!(&o.at(0)[..2], &[0.25, 0.0]);
    // texm3x2pad/tex: rows of (coordinate m . t0).
    let o = exec(
        "ps_1_1\ntex t0\ntexm3x2pad t1, t0\ntexm3x2tex t2, t0\nmov r0, t2",
        &env,
    );
    assert_eq!(&o.at(0)[..2], &[0.1 * 0.5 + 0.2 * 0.25, 0.5]);
    // texdp3: the dot product replicated.
    let o = exec("ps_1_2\ntex t0\ntexdp3 t1, t0\nmov r0, t1", &env);
    assert_eq!(o.at(0), &[0.1; 4].map(|_| 0.1 * 0.5 + 0.2 * 0.25)[..]);
    // texm3x3: (u, v, w, 1).
    let o = exec(
        "ps_1_2\ntex t0\ntexm3x3pad t1, t0\ntexm3x3pad t2, t0\ntexm3x3 t3, t0\nmov r0, t3",
        &env,
    );
    assert_eq!(o.at(0), &[0.1 * 0.5 + 0.2 * 0.25, 0.5, 0.25, 1.0]);
    // texm3x3spec: reflect the eye vector c0 about (u, v, w).
    let mut e3 = env.clone();
    e3.floats = vec![[0.0, 0.0, 1.0, 0.0]];
    e3.inputs.insert(1, [1.0, 0.0, 0.0, 0.0]);
    e3.inputs.insert(2, [0.0, 1.0, 0.0, 0.0]);
    e3.inputs.insert(3, [0.0, 0.0, 1.0, 0.0]);
    e3.texture = std::rc::Rc::new(|s, c| {
        if s == 0 {
            [0.0, 0.0, 1.0, 1.0]
        } else {
            [c[0], c[1], c.get(2).copied().unwrap_or(0.0), 0.0]
        }
    });
    let mut cube = Options::default();
    cube.sampler_types[3] = crate::TextureType::Cube;
    let spec =
        "ps_1_1\ntex t0\ntexm3x3pad t1, t0\ntexm3x3pad t2, t0\ntexm3x3spec t3, t0, c0\nmov r0, t3";
    let o = exec_with(spec, &cube, &e3);
    // t0 = (0, 0, 1): N = (0, 0, 1), E = (0, 0, 1): R = 2 (N.E)/(N.N) N - E = (0, 0, 1).
    assert_eq!(&o.at(0)[..3], &[0.0, 0.0, 1.0]);
    e3.floats = vec![[1.0, 0.0, 1.0, 0.0]];
    let o = exec_with(spec, &cube, &e3);
    assert_eq!(&o.at(0)[..3], &[-1.0, 0.0, 1.0]);
}

#[test]
fn projected_texturing_follows_its_spec_constant() {
    let mut env = Env::default();
    env.inputs.insert(0, [0.5, 0.25, 0.0, 2.0]);
    let o = exec("ps_1_1\ntex t0\nmov r0, t0", &env);
    assert_eq!(&o.at(0)[..2], &[0.5, 0.25]);
    env.spec
        .insert(crate::options::spec_id::PROJECTED_TEXTURES, 1);
    let o = exec("ps_1_1\ntex t0\nmov r0, t0", &env);
    assert_eq!(&o.at(0)[..2], &[0.25, 0.125]);
}

#[test]
fn texld_forms_of_2_0_and_later() {
    let mut env = Env::default();
    env.inputs.insert(0, [0.5, 0.25, 0.75, 2.0]);
    let text = "ps_2_0\ndcl t0\ndcl_2d s0\ntexldp r0, t0, s0\nmov oC0, r0";
    let o = exec(text, &env);
    assert_eq!(&o.at(0)[..2], &[0.25, 0.125]);
    // The sampler's swizzle swizzles the result.
    let text = "ps_2_x\ndcl t0\ndcl_2d s0\ntexld r0, t0, s0.yxxx\nmov oC0, r0";
    let o = exec(text, &env);
    assert_eq!(o.at(0), &[0.25, 0.5, 0.5, 0.5]);
}

#[test]
fn vpos_and_vface() {
    let mut env = Env {
        frag_coord: [10.5, 20.5, 0.25, 1.0],
        front_face: false,
        ..Env::default()
    };
    let text = "ps_3_0\ndcl vPos.xy\ndcl vFace\nmov r0.xy, vPos\nmov r0.zw, vFace\nmov oC0, r0";
    assert_eq!(exec(text, &env).at(0), &[10.0, 20.0, -1.0, -1.0]);
    env.front_face = true;
    assert_eq!(exec(text, &env).at(0)[2], 1.0);
}

// -------------------------------------------------------------------------------------------
// Flow control
// -------------------------------------------------------------------------------------------

#[test]
fn rep_and_loop_run_their_counts() {
    let run_with = |body: &str, ints: Vec<[i32; 4]>| {
        let text = format!("vs_3_0\ndcl_position o0\ndcl_texcoord o1\n{body}\nmov o1, r0");
        let env = Env {
            ints,
            floats: vec![[1.0; 4]],
            ..Env::default()
        };
        exec(&text, &env).at(0)[0]
    };
    assert_eq!(
        run_with("rep i0\nadd r0, r0, c0\nendrep", vec![[5, 0, 0, 0]]),
        5.0
    );
    assert_eq!(
        run_with("rep i0\nadd r0, r0, c0\nendrep", vec![[-3, 0, 0, 0]]),
        0.0
    );
    // Counts clamp at 255.
    assert_eq!(
        run_with("rep i0\nadd r0, r0, c0\nendrep", vec![[1000, 0, 0, 0]]),
        255.0
    );
    // aL runs from i.y by i.z: 2 + 5 + 8 = 15.
    let body = "mov r1, c0\nloop aL, i0\nmov r2, c0\nmova a0.x, r2.x\nadd r0, r0, c1[aL]\nendloop";
    let text = format!("vs_3_0\ndcl_position o0\ndcl_texcoord o1\n{body}\nmov o1, r0");
    let env = Env {
        ints: vec![[3, 2, 3, 0]],
        floats: (0..16).map(|i| [i as f32; 4]).collect(),
        ..Env::default()
    };
    assert_eq!(exec(&text, &env).at(0)[0], 3.0 + 6.0 + 9.0);
    // break_ge leaves the loop.
    let body = "def c1, 3, 0, 0, 0\nrep i0\nbreak_ge r0.x, c1.x\nadd r0, r0, c0\nendrep";
    assert_eq!(run_with(body, vec![[10, 0, 0, 0]]), 3.0);
}

#[test]
fn if_else_on_booleans_comparisons_and_the_predicate() {
    let run_b = |body: &str, bools: u32, c0: [f32; 4]| {
        let text = format!(
            "vs_3_0\ndcl_position o0\ndcl_texcoord o1\ndef c1, 1, 2, 3, 4\n{body}\nmov o1, r0"
        );
        let env = Env {
            bools,
            floats: vec![c0],
            ..Env::default()
        };
        exec(&text, &env).at(0)[0]
    };
    let body = "if b3\nmov r0, c1.x\nelse\nmov r0, c1.y\nendif";
    assert_eq!(run_b(body, 1 << 3, [0.0; 4]), 1.0);
    assert_eq!(run_b(body, 1 << 2, [0.0; 4]), 2.0);
    let body = "if_lt c0.x, c1.y\nmov r0, c1.z\nendif";
    assert_eq!(run_b(body, 0, [1.0; 4]), 3.0);
    assert_eq!(run_b(body, 0, [2.0; 4]), 0.0);
    let body = "setp_gt p0, c0, c1.y\n(p0.x) mov r0, c1.w\n(!p0.x) mov r0.x, c1.z";
    assert_eq!(run_b(body, 0, [5.0; 4]), 4.0);
    assert_eq!(run_b(body, 0, [1.0; 4]), 3.0);
    let body = "setp_gt p0.x, c0.x, c1.y\nif p0.x\nmov r0, c1.w\nendif";
    assert_eq!(run_b(body, 0, [5.0; 4]), 4.0);
}

#[test]
fn calls_are_inlined_with_shared_registers() {
    let text = "vs_3_0\ndcl_position o0\ndcl_texcoord o1\ndef c0, 1, 1, 1, 1\n\
                call l1\ncall l1\ncallnz l2, b0\ncallnz l2, !b0\nmov o1, r0\nret\n\
                label l1\nadd r0, r0, c0\nret\nlabel l2\nadd r0, r0, r0\nret";
    let env = Env {
        bools: 1,
        ..Env::default()
    };
    // 0 + 1 + 1 = 2, doubled once (b0 true, !b0 false).
    assert_eq!(exec(text, &env).at(0)[0], 4.0);
}

// -------------------------------------------------------------------------------------------
// Fixed-function state
// -------------------------------------------------------------------------------------------

#[test]
fn alpha_test_per_comparison() {
    use crate::options::{push, spec_id};
    let text = "ps_2_0\ndef c0, 1, 1, 1, 0.5\nmov oC0, c0";
    for (func, reference, kill) in [
        (8, 0.9, false),
        (1, 0.0, true),
        (2, 0.6, false),
        (2, 0.5, true),
        (3, 0.5, false),
        (5, 0.5, true),
        (7, 0.5, false),
        (6, 0.5, true),
    ] {
        let mut env = Env::default();
        env.spec.insert(spec_id::ALPHA_FUNC, func);
        env.push_f32(push::ALPHA_REF as usize, reference);
        assert_eq!(
            exec(text, &env).demoted,
            kill,
            "func {func}, ref {reference}"
        );
    }
}

#[test]
fn fog_blends_towards_the_fog_colour() {
    use crate::options::{push, spec_id};
    let text = "ps_2_0\ndef c0, 1, 1, 1, 1\nmov oC0, c0";
    let mut env = Env::default();
    env.inputs.insert(12, [0.25, 0.0, 0.0, 0.0]);
    // D3DCOLOR 0xFF0000FF: blue.
    for (c, v) in [0.0f32, 0.0, 1.0].into_iter().enumerate() {
        env.push_f32(push::FOG_COLOR as usize + 4 * c, v);
    }
    assert_eq!(exec(text, &env).at(0), &[1.0; 4]);
    env.spec.insert(spec_id::FOG_ENABLE, 1);
    // Vertex fog: factor 0.25 keeps a quarter of the colour.
    let o = exec(text, &env);
    close(
        [o.at(0)[0], o.at(0)[1], o.at(0)[2], o.at(0)[3]],
        [0.25, 0.25, 1.0, 1.0],
        1e-6,
    );
    // Linear table fog from z = 0.5 between 0 and 1.
    env.spec.insert(spec_id::FOG_MODE, 3);
    env.frag_coord[2] = 0.75;
    env.push_f32(push::FOG_START as usize, 0.5);
    env.push_f32(push::FOG_END as usize, 1.0);
    let o = exec(text, &env);
    close(
        [o.at(0)[0], o.at(0)[1], o.at(0)[2], o.at(0)[3]],
        [0.5, 0.5, 1.0, 1.0],
        1e-6,
    );
    // ps_3_0 does its own fog.
    let o = exec("ps_3_0\ndef c0, 1, 1, 1, 1\nmov oC0, c0", &env);
    assert_eq!(o.at(0), &[1.0; 4]);
}

#[test]
fn fixed_function_state_is_compiled_in_unless_dynamic() {
    // By default a fresh device's states are compiled in: no alpha test, no fog, no clip
    // planes, so the shader declares no spec constant and no ClipDistance.
    let ps = "ps_2_0\ndef c0, 1, 1, 1, 0.25\nmov oC0, c0";
    let text = raw_with(ps, &Options::default());
    assert!(
        !text.contains("DclSpecConstant") && !text.contains("DclPushData"),
        "{text}"
    );
    let mut env = Env::default();
    env.spec.insert(crate::options::spec_id::ALPHA_FUNC, 1); // NEVER
    env.spec.insert(crate::options::spec_id::FOG_ENABLE, 1);
    env.inputs.insert(12, [0.0; 4]);
    let o = exec_with(ps, &Options::default(), &env);
    assert!(!o.demoted);
    assert_eq!(o.at(0), &[1.0, 1.0, 1.0, 0.25]);
    // Dynamic: the same state applies (fog factor 0: the fog colour (0, 0, 0); NEVER
    // demotes the fragment).
    let o = exec_with(ps, &all_dynamic(), &env);
    assert!(o.demoted, "{o:?}");
    assert_eq!(o.at(0), &[0.0, 0.0, 0.0, 0.25]);
    let vs = "vs_2_0\ndcl_position v0\nmov oPos, v0";
    let text = raw_with(vs, &Options::default());
    assert!(
        !text.contains("ClipDistance") && !text.contains("d3d9_state"),
        "{text}"
    );
    let opts = Options {
        dynamic_state: crate::DynamicState::CLIP_PLANES,
        ..Options::default()
    };
    assert!(raw_with(vs, &opts).contains("ClipDistance"));
}

#[test]
fn many_constant_rows_and_repeated_reads() {
    // More rows than are loaded once at the entry (64): the rest are loaded where read. Each
    // of c0-c79 holds (i, 2i, 0, 1); rows are read twice, with different swizzles.
    let consts: Vec<[f32; 4]> = (0..80)
        .map(|i| [i as f32, 2.0 * i as f32, 0.0, 1.0])
        .collect();
    let mut body = String::from("mov r0, c0\n");
    for i in 1..80 {
        body.push_str(&format!("add r0, r0, c{i}\nadd r0.w, r0.w, c{i}.y\n"));
    }
    body.push_str("mov oT0, r0");
    // x: sum of i; y: 2 sum of i; z: 0; w: 1 + 79 + sum of 2i (i = 1..79).
    let sum = (0..80).sum::<i32>() as f32;
    let got = vs(&body, &consts);
    assert_eq!(got, [sum, 2.0 * sum, 0.0, 80.0 + 2.0 * sum]);
}

#[test]
fn fog_varying_has_four_components() {
    // A ps_3_0 `dcl_fog` input reads every component of the vec4 FOG varying (Wine's
    // pretransformed_varying_test_fog); a ps_2_0 fog factor is its x.
    let mut env = Env::default();
    env.inputs.insert(12, [0.1, 0.2, 0.3, 0.4]);
    let o = exec("ps_3_0\ndcl_fog v0\nmov oC0, v0", &env);
    assert_eq!(o.at(0), &[0.1, 0.2, 0.3, 0.4]);
    let o = exec("ps_3_0\ndcl_fog v3.y\nmov oC0, v3.y", &env);
    assert_eq!(o.at(0), &[0.2; 4]);
}

#[test]
fn clip_planes_and_point_size() {
    use crate::options::{push, spec_id, state};
    let text = "vs_2_0\ndcl_position v0\nmov oPos, v0";
    let mut env = Env::default();
    env.inputs.insert(0, [1.0, 2.0, 3.0, 1.0]);
    env.push_f32(push::POINT_SIZE as usize, 3.0);
    env.push_f32(push::POINT_SIZE_MIN as usize, 1.0);
    env.push_f32(push::POINT_SIZE_MAX as usize, 2.0);
    env.state = vec![[0.0; 4]; state::VERTEX_ROWS as usize];
    env.state[state::CLIP_PLANES as usize + 1] = [1.0, 0.0, 0.0, -0.5];
    env.state[state::CLIP_PLANES as usize + 2] = [0.0, 1.0, 0.0, 0.0];
    // No plane enabled: nothing clips, whatever the planes are.
    let o = exec(text, &env);
    assert_eq!(o.builtin(BuiltIn::ClipDistance), &[0.0; 6]);
    assert_eq!(o.builtin(BuiltIn::PointSize), &[2.0]);
    // Plane 1 enabled: x - 0.5 w.
    env.spec.insert(spec_id::CLIP_PLANE_ENABLE, 0b10);
    let o = exec(text, &env);
    assert_eq!(
        o.builtin(BuiltIn::ClipDistance),
        &[0.0, 0.5, 0.0, 0.0, 0.0, 0.0]
    );
    // oPts, when written, replaces D3DRS_POINTSIZE.
    let o = exec(
        "vs_2_0\ndcl_position v0\ndef c0, 1.5, 0, 0, 0\nmov oPos, v0\nmov oPts, c0.x",
        &env,
    );
    assert_eq!(o.builtin(BuiltIn::PointSize), &[1.5]);
}

// -------------------------------------------------------------------------------------------
// Refusals
// -------------------------------------------------------------------------------------------

#[test]
fn registers_past_the_model_and_missing_flow_control_are_refused() {
    let limit = |text: &str, words: &str| match error(text) {
        e @ ConvertError::Limit { .. } => assert!(e.to_string().contains(words), "{e}"),
        e => panic!("expected a limit error, got {e}"),
    };
    limit(
        "vs_1_1\ndef c256, 1, 1, 1, 1\nmov oPos, c256",
        "c256 is past vs_1_1's limit of 256 float constants",
    );
    limit(
        "ps_1_1\ndef c8, 1, 1, 1, 1\nadd r0, v0, c8",
        "c8 is past ps_1_1's limit of 8 float constants",
    );
    limit(
        "ps_2_0\ndef c32, 1, 1, 1, 1\nadd oC0, v0, c32",
        "c32 is past ps_2_0's limit of 32",
    );
    limit(
        "vs_3_0\ndefb b16, true\nif b16\nendif",
        "b16 is past vs_3_0's limit of 16 boolean constants",
    );
    limit("ps_2_0\nrep i0\nendrep", "ps_2_0 has no");
    limit("vs_1_1\nrep i0\nendrep", "vs_1_1 has no flow control");
    limit(
        "vs_2_0\nif_gt c0.x, c1.x\nendif",
        "vs_2_0 has no dynamic flow control",
    );
    limit(
        "ps_2_x\nloop aL, i0\nendloop",
        "loop (pixel shaders have it from ps_3_0)",
    );
    limit(
        "ps_1_1\nmov r2, v0",
        "r2 is past ps_1_1's limit of 2 temporary registers",
    );
    let nested = "vs_3_0\nloop aL, i0\nloop aL, i0\nloop aL, i0\nloop aL, i0\nloop aL, i0\n\
                  endloop\nendloop\nendloop\nendloop\nendloop";
    limit(nested, "loops nest deeper than Direct3D 9's limit of 4");
    // The software vertex processing option allows 8192 constants.
    let sw = Options {
        software_vertex_processing: true,
        ..Options::default()
    };
    convert_with("vs_2_0\ndef c256, 1, 1, 1, 1\nmov oPos, c256", &sw);
}

#[test]
fn malformed_flow_control_is_an_error() {
    let invalid = |text: &str, words: &str| {
        let e = error(text);
        assert!(e.to_string().contains(words), "{e}");
    };
    invalid("vs_2_0\nelse", "else without if");
    invalid("vs_2_0\nendif", "endif without if");
    invalid("vs_2_0\nrep i0\nendloop", "endloop does not close a loop");
    invalid(
        "vs_2_0\nif b0\nmov r0, c0",
        "ends inside an open flow-control block",
    );
    invalid(
        "vs_2_0\ncall l3\nret\nlabel l1\nret",
        "call to l3, which no label defines",
    );
    invalid("vs_2_x\nrep i0\nret\nendrep", "ret inside flow control");
    invalid(
        "vs_3_0\ncall l1\nret\nlabel l1\ncall l1\nret",
        "calls nest deeper",
    );
}

// -------------------------------------------------------------------------------------------
// Dead code (`liveness`)
// -------------------------------------------------------------------------------------------

/// How many ops of `opcode` the raw IR of `text` has.
fn count_ops(text: &str, opcode: dxspv_ir::OpCode) -> usize {
    convert_with(text, &Options::default())
        .iter()
        .filter(|(_, op)| op.opcode == opcode)
        .count()
}

#[test]
fn writes_nothing_reads_are_not_converted() {
    use dxspv_ir::OpCode as O;
    // r0 is never read: no constant buffer, no load.
    assert_eq!(count_ops("vs_1_1\nmov r0, c6", O::DclCbv), 0);
    assert_eq!(count_ops("vs_1_1\nmov r0, c6\nmov oPos, r0", O::DclCbv), 1);
    // t1 is never read (ps_1_x: only r0 is the colour): one texture, not two.
    assert_eq!(
        count_ops("ps_1_1\ntex t0\ntex t1\nmov r0, t0", O::DclSrv),
        1
    );
    // ps_1_x: r0 is read at the end.
    assert_eq!(count_ops("ps_1_1\ntex t0\nmov r0, t0", O::DclSrv), 1);
    // Only the components read later are computed.
    let text = "vs_2_0\ndcl_position v0\nadd r0, v0, v0\nmov oPos.x, r0.y";
    assert_eq!(count_ops(text, O::FAdd), 1);
    // Flow control: every instruction is converted.
    assert_eq!(count_ops("vs_2_0\nmov r1, c5\nif b0\nendif", O::DclCbv), 2);
    // A malformed instruction is refused even where nothing reads its result.
    let e = error("ps_3_0\ntexldd r0, r1, r2, r3, r4");
    assert!(e.to_string().contains("r2 is not a sampler"), "{e}");
}

#[test]
fn dead_code_removal_keeps_what_later_code_reads() {
    let c = [[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0]];
    // A partial overwrite keeps the other components of the first write.
    close(
        vs("mov r0, c0\nmov r0.x, c1.y\nmov oT0, r0", &c),
        [6.0, 2.0, 3.0, 4.0],
        0.0,
    );
    // A swizzle reads other components than it writes.
    close(
        vs(
            "mov r0, c1\nmov r1.xy, r0.wz\nmov r1.zw, c0\nmov oT0, r1",
            &c,
        ),
        [8.0, 7.0, 3.0, 4.0],
        0.0,
    );
    // A matrix instruction reads the registers after the one it names.
    close(
        vs(
            "mov r1, c0\nmov r2, c1\nmov r3, c0\nmov r4, c1\nm4x4 oT0, c0, r1",
            &c,
        ),
        [30.0, 70.0, 30.0, 70.0],
        0.0,
    );
    // A dead write between a write and its read is skipped, the read sees the first.
    close(
        vs("mov r0, c0\nmov r1, c1\nmov r1, r0\nmov oT0, r1", &c),
        [1.0, 2.0, 3.0, 4.0],
        0.0,
    );
}

// -------------------------------------------------------------------------------------------
// Whole-IR snapshots
// -------------------------------------------------------------------------------------------

#[test]
fn snapshot_vs_1_1_transform() {
    // A Direct3D 8 style vertex shader: inputs by register, m4x4 to oPos, a colour output
    // (saturated), every other pre-3.0 varying at its default, clip planes (dynamic state),
    // point size.
    snapshot_with(
        "vs_1_1_transform",
        "vs_1_1\ndcl_position v0\ndcl_color v5\nm4x4 oPos, v0, c0\nmul oD0, v5, c4.x",
        &all_dynamic(),
    );
}

#[test]
fn snapshot_vs_2_0_arithmetic() {
    snapshot(
        "vs_2_0_arithmetic",
        "vs_2_0\ndcl_position v0\ndef c1, 0.5, 2, 0, 1\nrcp r0.x, v0.x\nrsq r0.y, v0.y\n\
         log r0.z, v0.z\nexp r0.w, v0.w\npow r1.x, v0.x, c1.y\nlit r1.yzw, v0\ndst r2, v0, c1\n\
         nrm r3, v0\nsincos r4.xy, v0.x, c2, c3\nsgn r5, v0, r6, r7\nlrp r6, c1.x, v0, r0\n\
         frc r7, v0\ncrs r8.xyz, v0, r1\nmov oPos, r0\nmov oT0, r1\nmov oT1, r2\n\
         mov oT2, r3\nmov oT3, r4\nmov oT4, r5\nmov oT5, r6\nmov oT6, r7\nmov oT7, r8",
    );
}

#[test]
fn snapshot_vs_2_0_flow_control() {
    snapshot(
        "vs_2_0_flow_control",
        "vs_2_0\ndcl_position v0\nmova a0.x, v0.x\nmov r0, c2[a0.x]\nrep i0\n\
         add r0, r0, c1\nendrep\nloop aL, i1\nadd r0, r0, c3[aL]\nendloop\nif b2\n\
         call l1\nelse\ncallnz l1, !b3\nendif\nmov oPos, r0\nret\nlabel l1\n\
         mul r0, r0, c0\nret",
    );
}

#[test]
fn snapshot_vs_3_0_outputs_and_predication() {
    snapshot(
        "vs_3_0_outputs_and_predication",
        "vs_3_0\ndcl_position v0\ndcl_texcoord2 v1\ndcl_position o0\ndcl_texcoord0 o1.xy\n\
         dcl_texcoord1 o1.zw\ndcl_fog o2.x\ndcl_psize o3.x\ndcl_2d s0\n\
         setp_lt p0.xy, v1, c0\n(p0.x) mov r0, v1\n(!p0.y) add r0.y, r0, c1\n\
         texldl r1, v1, s0\nloop aL, i0\nbreak_ge r0.x, c2.x\nmov o1[aL], r1\nendloop\n\
         mov o0, v0\nmov o2.x, r0.y\nmov o3.x, c3.x",
    );
}

#[test]
fn snapshot_ps_1_1_texture_and_co_issue() {
    snapshot(
        "ps_1_1_texture_and_co_issue",
        "ps_1_1\ndef c0, 1, 0.5, -2, 0\ntex t0\ntexcoord t1\ntexbem t2, t0\n\
         mul_x2 r0.xyz, t0_bx2, 1 - t1\n+ cnd r0.w, r0.w, c1, c0\nmad_sat r1, t2, v0, c0_bias",
    );
}

#[test]
fn snapshot_ps_1_4_phases() {
    snapshot(
        "ps_1_4_phases",
        "ps_1_4\ntexcrd r0.xyz, t0_dw\ntexld r1, t1\nbem r2.xy, r0, r1\nphase\n\
         texld r2, r2\ncmp r0, r2, c0, c1\ntexkill r1\ntexdepth r5",
    );
}

#[test]
fn snapshot_ps_2_0_state() {
    // The pixel epilogue with dynamic state: fog (spec constants, push data) and the alpha
    // test on oC0.
    snapshot_with(
        "ps_2_0_state",
        "ps_2_0\ndcl t0.xy\ndcl v0\ndcl_2d s0\ndcl_cube s1\ntexld r0, t0, s0\n\
         texldp r1, t0, s1\ndp2add r0.x, r0, r1, c0.x\nmul oC0, r0, v0\nmov oC1, r1",
        &all_dynamic(),
    );
}

#[test]
fn snapshot_ps_3_0_system_values() {
    snapshot(
        "ps_3_0_system_values",
        "ps_3_0\ndcl_texcoord0 v0.xy\ndcl_color1_centroid v1\ndcl vPos.xy\ndcl vFace\n\
         dcl_volume s2\ndsx r0, v0\ndsy r1, v0\ntexldd r2, v0, s2, r0, r1\n\
         if_gt vFace, c0.x\nmov r2.xy, vPos\nendif\ntexkill r2.xyz\nmov oC0, r2\n\
         mov oDepth, v1.w",
    );
}

#[test]
fn depth_compare_samplers_compare_z_on_2d_textures_only() {
    let opts = Options {
        depth_compare_samplers: 0b11,
        ..Options::default()
    };
    let mut env = Env::default();
    env.inputs.insert(0, [0.25, 0.5, 0.75, 1.0]);
    // The fake texture answers the comparison with its first coordinate; the result is
    // replicated to all four components.
    let text = "ps_2_0\ndcl t0\ndcl_2d s0\ntexld r0, t0, s0\nmov oC0, r0";
    assert_eq!(exec_with(text, &opts, &env).at(0), &[0.25; 4]);
    // A volume sampler's bit changes nothing (found by the d3d9_compile fuzz target: a
    // depth comparison on a 3D image is invalid).
    let text = "ps_2_0\ndcl t0\ndcl_volume s1\ntexld r0, t0, s1\nmov oC0, r0";
    assert_eq!(exec_with(text, &opts, &env).at(0), &[0.25, 0.5, 0.75, 0.0]);
}

#[test]
fn inlined_code_is_limited_and_big_shaders_convert_in_linear_time() {
    // 40000 instructions called twice pass the limit on converted instructions.
    let mut text = String::from("vs_3_0\ndcl_position o0\ncall l1\ncall l1\nret\nlabel l1\n");
    for _ in 0..40_000 {
        text.push_str("add r0, r0, c0\n");
    }
    text.push_str("ret\n");
    let e = error(&text);
    assert!(
        e.to_string().contains("more than 65536 instructions"),
        "{e}"
    );
    // Many declarations and relative reads: no lookup walks them all.
    let mut text = String::from("vs_3_0\ndcl_position o0\n");
    for i in 0..2000 {
        text.push_str(&format!("dcl_texcoord{} v{}\n", i % 16, i % 16));
    }
    for _ in 0..2000 {
        text.push_str("add r0, r0, v0[aL]\n");
    }
    let t = std::time::Instant::now();
    convert_with(&text, &Options::default());
    assert!(t.elapsed().as_secs() < 10, "took {:?}", t.elapsed());
}

#[test]
fn register_name_tables_spell_prefix_and_number() {
    for (table, prefix) in [
        (&super::INPUT_NAMES[..], "v"),
        (&super::TEXTURE_NAMES[..], "t"),
        (&super::SAMPLER_NAMES[..], "s"),
        (&super::COLOR_NAMES[..], "oC"),
    ] {
        for (i, name) in table.iter().enumerate() {
            assert_eq!(*name, format!("{prefix}{i}"));
        }
    }
}

/// `string_op` and `Op::with_operands` build the operands `Op::with_str` and `with_ref` /
/// `with_lit` build, for every string length around the word size and every head length
/// (the inline buffer and the spilled path).
#[test]
fn string_and_small_ops_match_the_op_builders() {
    use super::{l, r, string_op};
    use dxspv_ir::{Op, OpCode, Operand, ScalarType, SsaDef, Type};
    let d = SsaDef::new(7).unwrap_or_else(|| unreachable!());
    let text = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghij";
    for len in 0..text.len() {
        let s = &text[..len];
        for n in 0..3usize {
            let head: Vec<Operand> = (0..n).map(|i| l(i as u64 + 1)).collect();
            let mut want = Op::new(OpCode::Semantic, Type::VOID);
            want.operands.extend_from_slice(&head);
            let want = want.with_str(s);
            assert_eq!(
                string_op(OpCode::Semantic, &head, s),
                want,
                "{s:?} after {n}"
            );
        }
    }
    let want = Op::new(OpCode::FAdd, ScalarType::F32)
        .with_ref(d)
        .with_ref(d);
    assert_eq!(
        Op::with_operands(OpCode::FAdd, ScalarType::F32, [r(d), r(d)]),
        want
    );
    let want = Op::new(OpCode::DclOutput, Type::VOID)
        .with_ref(d)
        .with_lit(1)
        .with_lit(2)
        .with_lit(3)
        .with_lit(4);
    let got = Op::with_operands(
        OpCode::DclOutput,
        Type::VOID,
        [r(d), l(1), l(2), l(3), l(4)],
    );
    assert_eq!(got, want);
}
