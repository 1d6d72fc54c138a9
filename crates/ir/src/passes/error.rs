//! [`PassError`]: the one error type of every pass and of the pass pipeline.
//!
//! A pass that meets IR it cannot handle (a broken contract of the spec, an op shape it does
//! not expect) reports it here instead of panicking: which pass, which op, and what is wrong.

use crate::op::SsaDef;
use crate::validate::ValidationError;

/// An error raised by a pass or by the pipeline's validation step.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PassError {
    /// The input breaks a contract the pass relies on.
    #[error("{pass}: {}: {message}", fmt_def(*def))]
    InvalidIr {
        /// The pass that found the problem.
        pass: &'static str,
        /// The op at fault, if one can be named.
        def: Option<SsaDef>,
        /// What is wrong.
        message: String,
    },
    /// The validator rejected the program after a pass ran.
    #[error("validation failed after {pass}: {}", join(errors))]
    Validation {
        /// The pass after which validation failed (the pass that broke an invariant).
        pass: &'static str,
        /// The validator's findings, one per problem (each prints as one message).
        errors: Vec<ValidationError>,
    },
}

impl PassError {
    /// An [`PassError::InvalidIr`] for `pass` about the op `def`.
    #[cold]
    #[inline(never)]
    pub fn invalid(
        pass: &'static str,
        def: impl Into<Option<SsaDef>>,
        message: impl Into<String>,
    ) -> Self {
        PassError::InvalidIr {
            pass,
            def: def.into(),
            message: message.into(),
        }
    }

    /// The pass the error comes from.
    pub fn pass(&self) -> &'static str {
        match self {
            PassError::InvalidIr { pass, .. } | PassError::Validation { pass, .. } => pass,
        }
    }
}

/// The errors' messages, separated by `; `.
fn join(errors: &[ValidationError]) -> String {
    let messages: Vec<String> = errors.iter().map(ToString::to_string).collect();
    messages.join("; ")
}

fn fmt_def(def: Option<SsaDef>) -> String {
    def.map_or_else(|| "<program>".to_string(), |d| d.to_string())
}
