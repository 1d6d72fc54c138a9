//! # dxspv-dxbc: reading Direct3D SM 4.0–5.1 shader containers
//!
//! This crate is the reading half of dxspv's DXBC frontend. It takes the
//! bytes of a compiled D3D10/11/12 shader (a *DXBC container*, as written by
//! fxc) and exposes everything a translator or a human needs: the container
//! parts, the input/output/patch-constant signatures, the reflection data
//! (RDEF), the feature flags, and a typed, lazily decoded view of the SM 4.0,
//! 4.1, 5.0 and 5.1 token program. A disassembler renders the result as text
//! close to fxc's own listing.
//!
//! ## Data flow
//!
//! ```text
//! &[u8] ──Container::parse──▶ header, checksum, parts (borrowed slices)
//!        ──Shader::parse────▶ Program + Signature×3 + ResourceDefinitions
//!                              + FeatureFlags + Statistics + warnings
//! Program::instructions() ──▶ Iterator<Item = Result<Instruction, Error>>
//! disassemble(&[u8]) ───────▶ String
//! ```
//!
//! Nothing is copied out of the input except small metadata (names in
//! signatures and RDEF). The program stays a borrowed [`Words`] view; the
//! decoder walks it one instruction at a time and fills an [`Instruction`]
//! value whose operands live in a fixed inline array, so decoding does no
//! heap allocation. Word arrays inside instructions (immediate constant
//! buffers, function tables, custom data) are handed out as [`Words`]
//! borrowing the input.
//!
//! ## Main types
//!
//! * [`Container`] / [`Shader`]: the container and its interpreted parts.
//!   DXIL containers are refused with [`Error::Dxil`]; a bad checksum is a
//!   [`Warning`], not an error.
//! * [`Program`], [`Version`], [`Instruction`], [`Opcode`], [`Modifiers`],
//!   [`Payload`]: the decoded program. [`Opcode`] variants are named after the
//!   `D3D10_SB_OPCODE_*` family; declarations put their non-operand fields
//!   (counts, modes, strides, spaces…) in [`Payload`].
//! * [`Operand`], [`OperandType`], [`Components`], [`Index`],
//!   [`RelativeRegister`]: operands with up to three indices, each an
//!   immediate, a relative register, or both.
//! * [`Error`]: one error enum; decoder errors carry the token offset and
//!   instruction index. Malformed input never panics.
//!
//! * [`convert()`] / [`convert_with`]: the SM 4.0–5.1 frontend, decoded program → dxspv IR
//!   (see the [`convert`](mod@convert) module). [`ConvertOptions`] carries what the bytes do not
//!   say: for shaders using SM 5.0 class linkage, the class instance bound to each interface
//!   slot ([`InterfaceBinding`]: its function table and [`InstanceData`]), which decides the body
//!   each `fcall` runs and what `this[]` holds.
//!
//! The format facts come from Microsoft's `d3d12TokenizedProgramFormat.hpp`
//! and the container description in LLVM's `DXContainer.rst`.

pub mod container;
pub mod convert;
pub mod decode;
pub mod disasm;
pub mod enums;
pub mod error;
pub mod opcode;
pub mod operand;

#[cfg(test)]
mod tests;
#[cfg(test)]
mod testutil;

/// The program module, under the name used in docs (`program::Program`).
pub mod program {
    pub use crate::decode::{BareInstruction, Instruction, Instructions, Program, Stage, Version};
}

pub use container::Shader;
pub use convert::{
    convert, convert_with, ConvertError, ConvertOptions, InstanceData, InterfaceBinding,
};
pub use decode::{
    BareInstruction, GlobalFlags, Instruction, Instructions, Modifiers, Payload, Program, Stage,
    SyncFlags, Test, UavFlags, Version, MAX_OPERANDS,
};
pub use disasm::{disassemble, disassemble_shader};
/// The container crate, re-exported: SM 4–5 shaders are read through its parts.
pub use dxspv_container as dxbc_container;
pub use dxspv_container::{
    dxbc_checksum, ComponentType, ConstantBuffer, Container, FeatureFlags, FourCC, Member,
    ParseOptions, Part, ResourceBinding, ResourceDefinitions, Signature, SignatureElement,
    Statistics, Variable, VariableType, Warning,
};
pub use dxspv_ir::frontend::Words;
pub use enums::{
    CustomDataClass, Interpolation, MinPrecision, OperandModifier, Primitive, PrimitiveTopology,
    ResInfoReturnType, ResourceDimension, ReturnType, SamplerMode, SystemValue, TessDomain,
    TessOutputPrimitive, TessPartitioning,
};
pub use error::{DecodeErrorKind, Error};
pub use opcode::{Opcode, ValueKind};
pub use operand::{Components, Index, Operand, OperandType, RelativeRegister};
