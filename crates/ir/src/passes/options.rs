//! [`Options`]: what the pass pipeline does, shared by the Rust API and (later) the C API.

/// How HLSL min-precision types (`min16float`, `min10float`, `min16int`, `min16uint`) are lowered.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum MinPrecisionMode {
    /// Lower to native 16-bit types (`f16`, `i16`, `u16`) for arithmetic. Interfaces that need
    /// 32-bit values (I/O, resources, memory, derivatives, `f32`-only ops like `FExp2`) keep
    /// 32-bit types and get conversions at the boundary. Needs 16-bit arithmetic support.
    Native16,
    /// Promote to 32-bit types (`f32`, `i32`, `u32`): always valid, never slower, D3D-like.
    #[default]
    Promote32,
}

/// Settings of the pass pipeline ([`crate::passes::run_pipeline`]).
///
/// The defaults give correct D3D behaviour: every mandatory lowering, all optimisations, min
/// precision promoted to 32 bits, D3D9 `0 * x = 0` preserved, validation after every pass in
/// debug builds.
#[derive(Clone, Debug)]
pub struct Options {
    /// How min-precision types are lowered.
    pub min_precision: MinPrecisionMode,
    /// Keep D3D9's rule that `0 * anything = 0` (also for `inf` and `NaN`) when lowering
    /// `FMulLegacy`, `FMadLegacy`, `FDotLegacy` and `FPowLegacy`. If false they become plain
    /// IEEE `FMul`/`FMad`/`FPow`, which is faster but differs when one factor is zero and the
    /// other is infinite or NaN.
    pub preserve_legacy_mul_zero: bool,
    /// Run constant folding ([`crate::passes::constant_fold`]).
    pub constant_fold: bool,
    /// Run arithmetic simplification ([`crate::passes::simplify_arith`]).
    pub simplify_arith: bool,
    /// Run common subexpression elimination ([`crate::passes::cse`]).
    pub cse: bool,
    /// Run dead code elimination ([`crate::passes::dce`]).
    pub dce: bool,
    /// Run CFG cleanup (constant branches, trivial blocks).
    pub cfg_cleanup: bool,
    /// Remove declarations nothing uses ([`crate::passes::unused_declarations`]).
    pub remove_unused_declarations: bool,
    /// Most rounds of the fold / simplify / CSE / DCE loop; it stops earlier once a round
    /// changes nothing.
    pub max_optimisation_rounds: u32,
    /// Mark descriptor loads whose run-time index differs between invocations `NonUniform`
    /// when the shader did not ([`crate::passes::infer_non_uniform`]): a workaround for games
    /// that forget `NonUniformResourceIndex`, which Direct3D leaves undefined. Off by default.
    pub infer_non_uniform: bool,
    /// Run the validator after every pass and fail with the name of the pass that broke an
    /// invariant. On by default in debug and test builds, off in release builds.
    pub validate_each_pass: bool,
    /// Measure the wall-clock time of every pass for [`crate::passes::PipelineReport`]. Off by
    /// default: reading the clock twice per pass costs a noticeable share of the pipeline on
    /// small shaders. Without it every [`crate::passes::PassTiming::duration`] is zero (the
    /// report still lists every pass run and whether it changed the program).
    pub time_passes: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            min_precision: MinPrecisionMode::default(),
            preserve_legacy_mul_zero: true,
            constant_fold: true,
            simplify_arith: true,
            cse: true,
            dce: true,
            cfg_cleanup: true,
            remove_unused_declarations: true,
            max_optimisation_rounds: 4,
            infer_non_uniform: false,
            validate_each_pass: cfg!(debug_assertions),
            time_passes: false,
        }
    }
}

impl Options {
    /// Only the mandatory lowerings: no optimisation passes.
    pub fn no_optimisations() -> Self {
        Options {
            constant_fold: false,
            simplify_arith: false,
            cse: false,
            dce: false,
            cfg_cleanup: false,
            remove_unused_declarations: false,
            ..Options::default()
        }
    }
}
