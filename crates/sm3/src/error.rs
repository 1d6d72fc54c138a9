//! The crate's error and warning types.
//!
//! Every error says *where* (token offset from the version token, and the index of the
//! instruction being decoded) and *what* went wrong. A malformed constant table is never an
//! error: the shader still reads, and the problem becomes a [`Warning`].

use crate::opcode::Opcode;

/// Why a token of the shader could not be decoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DecodeErrorKind {
    /// The data ended inside an instruction.
    Truncated,
    /// The instruction ends (per its length field, or the run of parameter tokens in model
    /// 1) before all the parameters its opcode takes.
    MissingParameter,
    /// The data ended without the end token `0x0000FFFF`.
    MissingEndToken,
    /// A token with opcode `0xFFFF` that is not exactly the end token `0x0000FFFF`.
    BadEndToken(u32),
    /// The opcode number is not a Direct3D 9 instruction.
    UnknownOpcode(u32),
    /// Bit 31 is set in an instruction token (bit 31 marks parameter tokens).
    NotAnInstructionToken(u32),
    /// Bit 31 is clear where a parameter token was expected.
    NotAParameterToken(u32),
    /// The length field of a model 2/3 instruction token does not match the parameters the
    /// instruction holds.
    LengthMismatch {
        /// Tokens after the instruction token, per its length field.
        declared: u32,
        /// Tokens the parameters took.
        used: u32,
    },
    /// The instruction has another number of parameters than the opcode takes in this model.
    OperandCount {
        /// The opcode.
        opcode: Opcode,
        /// Source parameters found.
        found: u32,
        /// Source parameters the opcode takes.
        expected: u32,
    },
    /// The register type field is not a `D3DSHADER_PARAM_REGISTER_TYPE`.
    UnknownRegisterType(u32),
    /// A register type Direct3D 9 defines but never implemented.
    UnsupportedRegisterType(&'static str),
    /// A register number a single-register file does not have.
    RegisterNumberOutOfRange {
        /// The file.
        file: &'static str,
        /// The number found.
        number: u32,
    },
    /// The source modifier field (bits 24-27) holds 14 or 15.
    BadSourceModifier(u32),
    /// The result modifier field (bits 20-23) has bit 23 set (only saturate, partial
    /// precision and centroid are defined).
    BadResultModifier(u32),
    /// The result shift (bits 24-27) is not one of `_x2`, `_x4`, `_x8`, `_d2`, `_d4`, `_d8`.
    BadResultShift(u32),
    /// The comparison of `ifc`, `breakc` or `setp` (bits 16-18) is 0 or 7.
    BadComparison(u32),
    /// The `texld` control (bits 16-23) is neither plain, project (`texldp`) nor bias
    /// (`texldb`).
    BadTexldControl(u32),
    /// The usage of a `dcl` token is not a `D3DDECLUSAGE`.
    BadUsage(u32),
    /// The texture type of a sampler `dcl` is not 2D, cube or volume (or 1D).
    BadTextureType(u32),
    /// Relative addressing where this model or parameter has none (destinations before
    /// `vs_3_0`, sources in pixel shaders before 3.0, or a relative-address token that
    /// names neither `a0` nor `aL`).
    BadRelativeAddressing,
    /// The predicate token of a predicated instruction does not name `p0`, or carries a
    /// modifier other than `!`.
    BadPredicate,
    /// A model 2/3 instruction has the predicated bit but this model has no predication.
    PredicationNotSupported,
    /// A comment token announces more words than the shader has.
    CommentTooLong(u32),
}

impl core::fmt::Display for DecodeErrorKind {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Self::Truncated => write!(f, "data ends inside the instruction"),
            Self::MissingParameter => {
                write!(f, "instruction ends before all its parameters")
            }
            Self::MissingEndToken => write!(f, "data ends without the end token 0x0000ffff"),
            Self::BadEndToken(t) => write!(f, "malformed end token 0x{t:08x}"),
            Self::UnknownOpcode(v) => write!(f, "unknown opcode {v} (0x{v:x})"),
            Self::NotAnInstructionToken(t) => {
                write!(f, "instruction token 0x{t:08x} has bit 31 set")
            }
            Self::NotAParameterToken(t) => {
                write!(f, "parameter token 0x{t:08x} has bit 31 clear")
            }
            Self::LengthMismatch { declared, used } => write!(
                f,
                "instruction length field says {declared} parameter tokens, the parameters take {used}"
            ),
            Self::OperandCount {
                opcode,
                found,
                expected,
            } => write!(
                f,
                "{} takes {expected} source parameters in this model, found {found}",
                opcode.name()
            ),
            Self::UnknownRegisterType(v) => write!(f, "unknown register type {v}"),
            Self::UnsupportedRegisterType(what) => write!(f, "unsupported: {what}"),
            Self::RegisterNumberOutOfRange { file, number } => {
                write!(f, "register number {number} out of range for {file}")
            }
            Self::BadSourceModifier(v) => write!(f, "unknown source modifier {v}"),
            Self::BadResultModifier(v) => write!(f, "unknown result modifier bits 0x{v:x}"),
            Self::BadResultShift(v) => write!(f, "unknown result shift {v}"),
            Self::BadComparison(v) => write!(f, "unknown comparison {v}"),
            Self::BadTexldControl(v) => write!(f, "unknown texld control {v}"),
            Self::BadUsage(v) => write!(f, "unknown dcl usage {v}"),
            Self::BadTextureType(v) => write!(f, "unknown sampler texture type {v}"),
            Self::BadRelativeAddressing => {
                write!(f, "relative addressing not available here")
            }
            Self::BadPredicate => write!(f, "malformed predicate token"),
            Self::PredicationNotSupported => {
                write!(f, "predicated instruction in a model without predication")
            }
            Self::CommentTooLong(n) => write!(f, "comment of {n} words runs past the data"),
        }
    }
}

/// The error type of every fallible function in this crate.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    /// The data is shorter than the version token.
    #[error("shader data is {len} bytes, shorter than the 4-byte version token")]
    TooShort {
        /// Length of the data in bytes.
        len: usize,
    },
    /// The version token is not a Direct3D 9 shader version.
    #[error("version token 0x{token:08x}: {what}")]
    Version {
        /// The token.
        token: u32,
        /// What is wrong.
        what: &'static str,
    },
    /// A token could not be decoded.
    #[error("token {offset} (instruction {instruction}): {kind}")]
    Decode {
        /// Token offset from the version token (which is token 0).
        offset: u32,
        /// Zero-based index of the instruction being decoded (comments are not counted).
        instruction: u32,
        /// What is wrong.
        kind: DecodeErrorKind,
    },
}

/// A problem that does not stop the shader from reading.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Warning {
    /// The `CTAB` comment (the constant table) is malformed; the table was dropped or cut
    /// short where the problem starts.
    ConstantTable {
        /// Token offset of the comment token.
        comment_offset: u32,
        /// Byte offset inside the table (counted from the word after the `CTAB` fourcc, as
        /// the table's own offsets are) where the problem is.
        byte: u32,
        /// What is wrong.
        what: &'static str,
    },
}

impl core::fmt::Display for Warning {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Warning::ConstantTable {
                comment_offset,
                byte,
                what,
            } => write!(
                f,
                "constant table (comment at token {comment_offset}), byte {byte}: {what}"
            ),
        }
    }
}
