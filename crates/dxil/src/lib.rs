//! # dxspv-dxil: reading DXIL (Shader Model 6) shaders
//!
//! A DXIL shader is an LLVM 3.7 bitcode module inside a DXBC-style container. This crate
//! reads all of it, completely and exactly, for the DXIL frontend: the container's parts
//! (through `dxspv-container`), the LLVM module (every record LLVM 3.7 can write), and the
//! DXIL metadata that says what the module means to Direct3D (shader model, entry points,
//! signatures, resources). A disassembler prints the result the way `llvm-dis` does, so a
//! listing can be compared line for line with LLVM's own.
//!
//! ## Data flow
//!
//! ```text
//! &[u8] ──Shader::parse──▶ Parts (container, ISG1/OSG1/PSG1, SFI0, PSV0, RTS0, HASH)
//!                          DxilProgram (versions, the bitcode slice)
//!                          Module::read ─▶ Module (types, globals, functions, bodies,
//!                                                  constants, metadata — flat, by id)
//!                          DxilMetadata::read ─▶ shader model, entry points, resources
//! disassemble(&[u8]) ────▶ String: parts as comments, then the module as llvm-dis prints it
//! ```
//!
//! ## Layers
//!
//! * [`bitstream`]: LLVM's bitstream container, independent of IR: a [`bitstream::Cursor`]
//!   walks blocks, abbreviations (zero-width fields become literals, as in LLVM), the
//!   `BLOCKINFO` block and records, reading each record into one reused
//!   [`bitstream::Record`] buffer. [`bitstream::walk`] visits a whole stream.
//! * [`module`]: the IR. [`module::Module`] holds module-level values (globals, functions,
//!   aliases, constants) by their LLVM value number; each [`module::FunctionBody`] holds its
//!   arguments, constants and instruction results continuing that numbering, so any operand
//!   is an absolute [`module::ValueId`] resolved by [`module::Module::value`]. Instructions
//!   are fixed-size [`module::Instruction`]s whose variable operand lists are ranges of one
//!   buffer per body; types are uniqued [`module::TypeId`]s; names and strings live in one
//!   buffer. Relative operand numbering, signed `phi` operands and forward references are
//!   resolved while reading, and every forward reference is type-checked once its body is
//!   complete.
//! * [`dx`]: DXIL's named metadata as typed structures ([`dx::DxilMetadata`]).
//! * [`disasm`]: the listing.
//! * [`Shader`]: all of it in one call.
//!
//! ## For the DXIL → IR converter
//!
//! Read a container with [`Shader::parse`]; take the entry point from
//! `shader.metadata.entry_points`, its function with [`module::Module::function_of`], and walk
//! `function.body`'s blocks ([`module::FunctionBody::block_instructions`],
//! [`module::FunctionBody::successors`]). DXIL operations are calls to `dx.op.*` functions:
//! [`module::Module::global_name`] of the callee gives the name and
//! [`module::Module::constant_int`] of the first argument the opcode. Resource handles are
//! created from the ids in `shader.metadata.resources`. Value types come from
//! [`module::Module::value_info`] and the [`module::TypeTable`].
//!
//! ```no_run
//! use dxspv_dxil::{module::Op, Shader};
//!
//! let bytes = std::fs::read("shader.dxil").unwrap();
//! let shader = Shader::parse(&bytes).unwrap();
//! let (m, md) = (&shader.module, &shader.metadata);
//! let entry = &md.entry_points[0];
//! let function = m.function_of(entry.function.unwrap()).unwrap();
//! let body = function.body.as_ref().unwrap();
//! for inst in &body.instructions {
//!     if let Some((opcode, name)) = m.dx_op(body, &inst.op) {
//!         println!("dx.op {opcode} ({})", String::from_utf8_lossy(name));
//!     } else if let Op::Binary { op, lhs, rhs, .. } = inst.op {
//!         println!("{} {} {}", op.name(), lhs.0, rhs.0);
//!     }
//! }
//! print!("{}", dxspv_dxil::disassemble(&bytes).unwrap());
//! ```
//!
//! ## Errors and limits
//!
//! Malformed input is an [`Error`], never a panic: bitcode errors name the block, the record
//! and its bit offset ([`Location`]); constructs LLVM 3.7 cannot write (opaque pointers,
//! operand bundles, `fneg`, funclet EH, …) are [`Error::Unsupported`] naming them; DXIL
//! metadata errors name the node. Every count read from the input is checked against the
//! bits left before anything is allocated for it. Documented limits, each an
//! [`Error::Limit`]: bitcode size ([`module::MAX_BITCODE_BYTES`], 256 MiB), block nesting
//! ([`bitstream::cursor::MAX_BLOCK_DEPTH`], 32), operands per record
//! ([`bitstream::cursor::MAX_RECORD_OPERANDS`], 16 Mi), operands per abbreviation
//! ([`bitstream::cursor::MAX_ABBREV_OPS`], 256), abbreviations in scope
//! ([`bitstream::cursor::MAX_ABBREVS`], 65,536), type nesting
//! ([`module::types::MAX_TYPE_DEPTH`], 64) and constant nesting
//! ([`module::constants::MAX_CONSTANT_DEPTH`], 64); the last two bound every recursion over
//! types and constants.
//!
//! The bitcode facts come from LLVM's *Bitcode File Format* document and `LLVMBitCodes.h`,
//! the DXIL facts from the DXIL specification (`DXIL.rst`) and DXC's metadata constants.

pub mod bitstream;
pub mod convert;
pub mod disasm;
pub mod dx;
pub mod error;
pub mod module;
mod shader;
#[cfg(test)]
mod testing;

pub use convert::{convert, ConvertError};
pub use disasm::disassemble;
pub use error::{Error, Location};
pub use shader::Shader;
