//! Errors: [`SpirvError`] and the constructors every emitter returns them with.
//!
//! The backend never panics on bad input. IR it cannot express in SPIR-V for Vulkan is
//! [`SpirvError::Unsupported`], naming the feature; IR that breaks the lowered-IR contract
//! the backend relies on (`dxspv_ir::validate` at `Level::Lowered`) is
//! [`SpirvError::Malformed`], naming the rule. Both carry the op's def and opcode, so the
//! message points at one line of the IR text.

use dxspv_ir::{Op, OpCode, SsaDef};

/// Why a module could not be emitted.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SpirvError {
    /// The op (or its operands) uses something the backend does not support.
    #[error("{def} {opcode:?}: unsupported: {feature}")]
    Unsupported {
        /// The offending op.
        def: SsaDef,
        /// Its opcode.
        opcode: OpCode,
        /// What is not supported.
        feature: String,
    },
    /// The op violates the lowered-IR contract the backend relies on.
    #[error("{def} {opcode:?}: malformed IR: {reason}")]
    Malformed {
        /// The offending op.
        def: SsaDef,
        /// Its opcode.
        opcode: OpCode,
        /// What is wrong.
        reason: String,
    },
    /// No `EntryPoint` op.
    #[error("module has no EntryPoint")]
    NoEntryPoint,
}

/// The backend's result type: the error boxed, so that a result is returned in registers
/// (every emitter returns one, and errors are rare).
pub(super) type R<T> = Result<T, Box<SpirvError>>;

/// [`SpirvError::Unsupported`] for `op`: the backend cannot express `feature`.
#[cold]
#[inline(never)]
pub(super) fn unsupported<T>(def: SsaDef, op: &Op, feature: impl Into<String>) -> R<T> {
    Err(Box::new(SpirvError::Unsupported {
        def,
        opcode: op.opcode,
        feature: feature.into(),
    }))
}

/// [`SpirvError::Malformed`] for `op`: the IR breaks the lowered-IR contract (`reason`).
#[cold]
#[inline(never)]
pub(super) fn malformed<T>(def: SsaDef, op: &Op, reason: impl Into<String>) -> R<T> {
    Err(Box::new(SpirvError::Malformed {
        def,
        opcode: op.opcode,
        reason: reason.into(),
    }))
}

/// A literal that SPIR-V writes as one word (a register, space or count).
pub(super) fn word_lit(def: SsaDef, op: &Op, v: u64) -> R<u32> {
    match u32::try_from(v) {
        Ok(w) => Ok(w),
        Err(_) => malformed(def, op, format!("literal {v} does not fit 32 bits")),
    }
}
