//! Transforms on the IR, each one small and named, and the pipeline that runs them.
//!
//! Every pass lives in its own file and has the same shape:
//! `pub fn run(b: &mut Builder, ...) -> Result<bool, PassError>`, returning whether it changed
//! anything. Bad input is reported as a [`PassError`] naming the pass and the op, never a panic.
//!
//! ## The pipeline
//! [`pipeline::run_pipeline`] is the one place where the order is written down:
//!
//! 1. `scoped_to_structured`: `Scoped*` control flow to labels, branches and merge blocks;
//!    then [`structurize`], only if a function was in block form already: unstructured
//!    control flow graphs (DXIL's) to structured constructs.
//! 2. `ssa_construction`: `DclTmp` registers to SSA values and phis.
//! 3. [`resolve_types`]: every `Unknown` type from its uses and definitions; `ConsumeAs` to
//!    `Cast`/`Convert*`; still-ambiguous values become `u32`.
//! 4. [`lower_legacy`]: `FDot*` to `FMul`/`FMad` chains, D3D9 `*Legacy` float ops with the
//!    `0 * x = 0` rule, `MinValue`/`MaxValue` to constants, no-op conversions removed.
//! 5. [`lower_min_precision`]: `min16f`/`min10f`/`min16i`/`min16u` to 16- or 32-bit types.
//! 6. Optimisation to a small fixed point: [`constant_fold`], [`simplify_arith`], [`cse`], [`dce`].
//! 7. `cfg_cleanup`: constant branches, empty blocks.
//! 8. [`unused_declarations`]: temps, scratch, constants nothing uses any more.
//!
//! All float transforms respect `Precise`, `NoNan`, `NoInf` and `NoSz` per op, combined with the
//! per-type defaults of `SetFpMode` (see [`util::FpModes`]).
//!
//! Outside the pipeline, [`stream_output`] applies a Direct3D stream-output declaration
//! (pipeline state a translation layer passes in) to the lowered IR of the last stage before
//! the rasterizer.
//!
//! [`options::Options`] says which optimisations run, how min precision is lowered and whether
//! the validator checks the IR after every pass.
//!
//! ## Tests
//! Each pass has file tests in `crates/ir/tests/filetests/<pass>/`: IR text in, the pass named
//! in a `; pass:` header, `; check:` lines on the printed output (the runner,
//! `crates/ir/tests/filetests.rs`, documents the format); `pipeline/` runs the whole pipeline.
//! Unit tests beside a pass check what text cannot show (errors, operand types).

pub mod cfg_cleanup;
pub mod constant_fold;
pub mod cse;
pub mod dce;
pub mod error;
pub mod infer_non_uniform;
pub mod lower_legacy;
pub mod lower_min_precision;
pub mod options;
pub mod pipeline;
pub mod resolve_types;
pub mod scoped_to_structured;
pub mod simplify_arith;
pub mod ssa_construction;
pub mod stream_output;
pub mod structurize;
pub mod unused_declarations;
pub mod util;

pub use error::PassError;
pub use options::{MinPrecisionMode, Options};
pub use pipeline::{run_pipeline, run_pipeline_with, PassTiming, PipelineReport, Workspace};
