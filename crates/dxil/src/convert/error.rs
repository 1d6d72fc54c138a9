//! What can go wrong converting a DXIL module to the IR, and where.

use core::fmt;

/// Where in the module the converter was: the function, the basic block, the instruction
/// (its index in the function body, as `llvm-dis` counts them) and what the instruction is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Where {
    /// The function's name (empty before any function is converted).
    pub function: String,
    /// The basic block (layout order), if inside a function.
    pub block: Option<u32>,
    /// The instruction's index in the function body, if at an instruction.
    pub instruction: Option<u32>,
    /// The instruction: its LLVM opcode (`fadd`, `load`) or DXIL operation (`SampleLevel`),
    /// or what was being converted outside code (`dx.resources`, `signature`).
    pub what: &'static str,
}

impl fmt::Display for Where {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.function.is_empty() {
            return write!(f, "{}", self.what);
        }
        write!(f, "@{}", self.function)?;
        if let Some(b) = self.block {
            write!(f, " block {b}")?;
        }
        if let Some(i) = self.instruction {
            write!(f, " instruction {i}")?;
        }
        write!(f, " (`{}`)", self.what)
    }
}

/// Why a DXIL shader could not be converted.
#[derive(Debug, thiserror::Error)]
pub enum ConvertError {
    /// The container, the bitcode or the DXIL metadata could not be read.
    #[error(transparent)]
    Read(#[from] crate::Error),
    /// The shader uses something the converter refuses by name: a DXIL library, an
    /// operation family (ray tracing, work graphs, …) or a construct outside what DXIL
    /// producers write.
    #[error("{at}: {feature} is not supported")]
    Unsupported {
        /// Where.
        at: Where,
        /// The refused feature, a fixed name the corpus test counts refusals by.
        feature: &'static str,
    },
    /// The module breaks a rule of DXIL (an operand of the wrong kind, a resource or
    /// signature element that does not exist, a value used before it is defined, …).
    #[error("{at}: {what}")]
    Invalid {
        /// Where.
        at: Where,
        /// What is wrong.
        what: String,
    },
    /// The IR could not hold what the module describes (a type past the IR's limits).
    #[error("{at}: {what} exceeds the limit of {limit}")]
    Limit {
        /// Where.
        at: Where,
        /// What was counted.
        what: &'static str,
        /// The limit.
        limit: u64,
    },
}

impl ConvertError {
    /// The refused feature, if this is a refusal ([`ConvertError::Unsupported`]).
    pub fn unsupported_feature(&self) -> Option<&'static str> {
        match self {
            ConvertError::Unsupported { feature, .. } => Some(feature),
            _ => None,
        }
    }
}
