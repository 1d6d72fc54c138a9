//! The crate's single error type and the bitcode location every error carries.
//!
//! Bitcode errors name the innermost block, the record being read (when there is one) and
//! the bit offset of that record (or of the failing read) from the start of the bitcode, so
//! `llvm-bcanalyzer -dump` output can be lined up with the message. Container errors carry a
//! byte offset into the container; errors of the DXIL metadata layer name the metadata node.

use core::fmt;

use crate::bitstream::names::{block_name, record_name};

/// Where in the bitcode something went wrong.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Location {
    /// Id of the innermost block (`None` at the top level of the stream).
    pub block: Option<u32>,
    /// Code of the record being read, when the error is about one record.
    pub record: Option<u32>,
    /// Bit offset from the start of the bitcode: the record's first bit, or the failing read.
    pub bit: u64,
}

impl Location {
    /// A location at the top level of the stream.
    pub fn top(bit: u64) -> Self {
        Location {
            block: None,
            record: None,
            bit,
        }
    }

    /// The same location naming a record.
    pub fn with_record(self, code: u32) -> Self {
        Location {
            record: Some(code),
            ..self
        }
    }
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.block {
            Some(b) => write!(f, "{} ({b})", block_name(b))?,
            None => write!(f, "top level")?,
        }
        if let Some(code) = self.record {
            match self.block.and_then(|b| record_name(b, code)) {
                Some(name) => write!(f, ", record {name} ({code})")?,
                None => write!(f, ", record {code}")?,
            }
        }
        write!(f, " at bit {} (byte {})", self.bit, self.bit / 8)
    }
}

/// Everything that can go wrong reading a DXIL container, its bitcode or its metadata.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    /// The DXBC-style container, the DXIL program header or another part is malformed.
    #[error(transparent)]
    Container(#[from] dxspv_container::Error),
    /// The container holds no `DXIL` part.
    #[error("the container has no DXIL part")]
    NoDxilPart,
    /// The bitstream or a record in it is malformed (truncated, bad abbreviation, bad
    /// operand, undefined type or value, …).
    #[error("{location}: {message}")]
    Malformed {
        /// Where.
        location: Location,
        /// What is wrong.
        message: String,
    },
    /// A well-formed LLVM construct that LLVM 3.7 bitcode (and so DXIL) cannot contain.
    #[error("{location}: {feature} cannot appear in DXIL (LLVM 3.7 bitcode)")]
    Unsupported {
        /// Where.
        location: Location,
        /// The construct, by its LLVM name.
        feature: &'static str,
    },
    /// A documented limit of this reader was exceeded (see the crate documentation).
    #[error("{location}: {what} exceeds the limit of {limit}")]
    Limit {
        /// Where.
        location: Location,
        /// What was counted.
        what: &'static str,
        /// The limit.
        limit: u64,
    },
    /// A DXIL metadata node (`dx.entryPoints`, `dx.resources`, …) does not have the shape
    /// the DXIL specification gives it.
    #[error("DXIL metadata {context}: {message}")]
    Metadata {
        /// The named metadata and node path, e.g. `dx.resources !12 operand 3`.
        context: String,
        /// What is wrong.
        message: String,
    },
}

impl Error {
    /// A [`Error::Malformed`] at `location`.
    pub fn malformed(location: Location, message: impl Into<String>) -> Self {
        Error::Malformed {
            location,
            message: message.into(),
        }
    }
}
