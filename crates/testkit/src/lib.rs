//! # dxspv-testkit: what dxspv's tests share
//!
//! Tests across the workspace read the same real data and call the same reference tools; this
//! dev-only crate keeps one copy of each:
//!
//! * [`corpus`]: the shared corpus of real shaders (`../shared/corpus`), its manifest, and the
//!   files of one format. Tests that need it say so and pass when it is absent
//!   ([`corpus::Corpus::open`] returns `None` after printing why).
//! * [`spirv_tools`]: `spirv-val` (`--target-env vulkan1.3` unless told otherwise) and
//!   `spirv-dis`, run on words in memory; `None` when the tool is not installed.
//! * [`Rng`]: SplitMix64, so generated cases are the same on every run.

// Test support fails loudly and says what it skipped: panics and prints are its job.
#![allow(
    clippy::panic,
    clippy::print_stdout,
    clippy::expect_used,
    clippy::unwrap_used
)]

pub mod corpus;
pub mod rng;
pub mod spirv_tools;

pub use corpus::{Corpus, Entry};
pub use rng::Rng;
pub use spirv_tools::{assert_spirv_valid, installed, spirv_dis, spirv_val, spirv_val_with};
