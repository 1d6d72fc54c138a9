//! The crate's single error type.
//!
//! Every variant says *where* (container byte offset, part fourcc, token
//! offset, instruction index) and *what* went wrong, so a caller can point at
//! the offending bytes of a malformed blob.

use dxspv_container::FourCC;

/// Why a token of the shader program could not be decoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DecodeErrorKind {
    /// The program ended (or the instruction ended) before a needed token.
    Truncated,
    /// The opcode number is not an SM 4.0–5.1 opcode.
    UnknownOpcode(u32),
    /// The instruction length field is zero or runs past the program end.
    BadLength(u32),
    /// An extended opcode token has an unknown type.
    UnknownExtendedOpcode(u32),
    /// The operand type field is not a known `D3D10_SB_OPERAND_TYPE`.
    UnknownOperandType(u32),
    /// The operand uses the undefined N-component form or an invalid 4-component selection mode.
    BadComponentSelection(u32),
    /// The index representation field is not one of the five defined values.
    BadIndexRepresentation(u32),
    /// An extended operand token has an unknown type or a second-order extension.
    UnknownExtendedOperand(u32),
    /// A relative index whose register is itself relatively indexed.
    NestingTooDeep,
    /// More operands than an instruction can carry ([`crate::MAX_OPERANDS`]).
    TooManyOperands,
    /// The operands did not end exactly at the instruction end.
    LengthMismatch,
    /// A declaration field holds a value outside its enumeration.
    BadEnum {
        /// Which field.
        field: &'static str,
        /// The raw value found.
        value: u32,
    },
    /// A declaration is missing its register operand or has the wrong kind of operand.
    BadDeclaration,
}

impl core::fmt::Display for DecodeErrorKind {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Self::Truncated => write!(f, "unexpected end of tokens"),
            Self::UnknownOpcode(v) => write!(f, "unknown opcode {v} (0x{v:x})"),
            Self::BadLength(v) => write!(f, "bad instruction length {v}"),
            Self::UnknownExtendedOpcode(v) => write!(f, "unknown extended opcode type {v}"),
            Self::UnknownOperandType(v) => write!(f, "unknown operand type {v}"),
            Self::BadComponentSelection(t) => {
                write!(f, "bad operand component selection (token 0x{t:08x})")
            }
            Self::BadIndexRepresentation(v) => write!(f, "bad operand index representation {v}"),
            Self::UnknownExtendedOperand(t) => {
                write!(f, "unknown extended operand token 0x{t:08x}")
            }
            Self::NestingTooDeep => write!(f, "relative index nested deeper than supported (1)"),
            Self::TooManyOperands => write!(f, "more than {} operands", crate::MAX_OPERANDS),
            Self::LengthMismatch => write!(f, "operands do not fill the instruction length"),
            Self::BadEnum { field, value } => write!(f, "invalid {field} value {value}"),
            Self::BadDeclaration => write!(f, "malformed declaration"),
        }
    }
}

/// The error type of every fallible function in this crate.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    /// The container header, its part table or one of its common parts is malformed.
    #[error(transparent)]
    Container(#[from] dxspv_container::Error),
    /// The container holds DXIL (shader model 6) code.
    #[error("DXIL: not supported yet (container has a {fourcc} part)")]
    Dxil {
        /// The part that marks the container as DXIL (`DXIL` or `ILDB`).
        fourcc: FourCC,
    },
    /// The container has no SHDR/SHEX part.
    #[error("container has no SHDR or SHEX part")]
    NoProgram,
    /// The program header (version and length tokens) is malformed.
    #[error("program header: {what}")]
    ProgramHeader {
        /// What is wrong.
        what: &'static str,
    },
    /// A token of the program could not be decoded.
    #[error("token {offset} (instruction {instruction}): {kind}")]
    Decode {
        /// Token offset from the start of the program (the version token is 0).
        offset: u32,
        /// Zero-based index of the instruction being decoded.
        instruction: u32,
        /// What is wrong.
        kind: DecodeErrorKind,
    },
}
