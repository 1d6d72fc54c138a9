//! # dxspv-sm3: Direct3D 9 shaders (shader models 1.x to 3.0)
//!
//! This crate is dxspv's Direct3D 9 frontend. It takes the token stream of a compiled
//! `vs_1_1` … `vs_3_0` / `ps_1_1` … `ps_3_0` shader (what `CreateVertexShader` /
//! `CreatePixelShader` receive, what fxc writes for the 9.x profiles, what effect files
//! embed), reads it into typed instructions, and converts it into the raw IR the pass
//! pipeline and the SPIR-V backend take (`shared/spec/dxbc-ir.md`). The reader also gives
//! the HLSL compiler's constant table and the register limits of each model, and a
//! disassembler renders a shader in the assembly syntax fxc and `D3DXDisassembleShader`
//! print.
//!
//! ## Data flow
//!
//! ```text
//! &[u8] ──Shader::parse──▶ Version + token view (version … end token)
//!                          + comments + ConstantTable (from `CTAB`) + warnings
//! Shader::instructions() ─▶ Iterator<Item = Result<Instruction, Error>>
//!                           (or Instructions::next_into, reusing one Instruction)
//! convert(&Shader, &Options) ─▶ dxspv_ir::Builder (raw IR) or ConvertError
//! Limits::for_version ────▶ register counts per file
//! disassemble(&[u8]) ─────▶ String
//! ```
//!
//! Nothing is copied out of the input except the constant table's names. The stream
//! stays a borrowed [`Words`] view; [`Shader::parse`] walks it once by instruction lengths
//! (to find the end token, the comments and the constant table) and the iterator decodes
//! one instruction per step into an [`Instruction`] whose destination, predicate and up to
//! [`MAX_SOURCES`] sources live inline, so decoding does no heap allocation.
//!
//! ```
//! # fn main() -> Result<(), dxspv_sm3::Error> {
//! use dxspv_sm3::{Instruction, Opcode, RegisterType, Shader};
//!
//! // vs_2_0: mov oPos, c0
//! let words = [0xFFFE_0200u32, 0x0200_0001, 0xC00F_0000, 0xA0E4_0000, 0x0000_FFFF];
//! let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
//! let shader = Shader::parse(&bytes)?;
//! let mut inst = Instruction::default();
//! let mut it = shader.instructions();
//! while let Some(r) = it.next_into(&mut inst) {
//!     r?;
//!     assert_eq!(inst.opcode, Opcode::Mov);
//!     assert_eq!(inst.dst.map(|d| d.register.ty), Some(RegisterType::RastOut));
//!     assert_eq!(inst.sources()[0].register.index, 0);
//! }
//! assert_eq!(dxspv_sm3::disassemble(&bytes)?, "    vs_2_0\n    mov oPos, c0\n");
//! let ir = dxspv_sm3::convert(&shader, &dxspv_sm3::Options::default())
//!     .expect("converts");
//! assert!(!ir.is_empty());
//! # Ok(())
//! # }
//! ```
//!
//! ## The conversion
//!
//! [`convert()`] (module [`mod@convert`]) makes a first walk over the shader (`def`s, `dcl`s,
//! where each `label` starts, and the checks that refuse what no device runs: a register
//! index past the model's [`Limits`], flow control the model lacks; in straight-line code,
//! which instructions compute something read later: the others are not converted, and
//! per-component instructions compute only the components read), then converts `main`,
//! inlining subroutines at their calls (Direct3D 9 subroutines share every register with
//! the caller and cannot recurse). Registers become temporaries, one per component, zero
//! at entry (their values kept at hand between control-flow ops, so straight-line code is
//! already SSA); outputs are written through shadows that an epilogue stores out. Direct3D 9's
//! arithmetic is kept: products follow the `0 × anything = 0` rule through the IR's
//! `*Legacy` ops (per [`FloatEmulation`]), `rcp(0) = +inf`, `rsq`/`log` of `|x|`, the
//! four-component `logp`/`expp` of `vs_1_x`, `lit`'s power clamp, `ps_1_x` constant
//! clamping, result shifts and co-issue, `mov a0` rounding down in `vs_1_x` and `mova` to
//! nearest.
//!
//! The binding model, the varying locations and the application state follow the D3D9
//! contract (`docs/d3d9.md` at the repository root): float, integer and
//! boolean constants are the constant buffers `b0`, `b1`, `b2` of register space 0; sampler
//! `s#` is SRV `t#` plus sampler `s#` (space 0 for pixel shaders, 1 for vertex shaders);
//! varyings, all `vec4<f32>`, meet by usage and usage index at fixed locations (TEXCOORD n
//! at n, COLOR at 10-11, FOG at 12, …, see the `io` module); unwritten `vs_1_x`/`vs_2_x`
//! varyings get Direct3D 9's defaults. The fixed-function state a shader depends on is
//! either a compile-time [`Options`] field, a specialization constant
//! ([`options::spec_id`]), a member of the 40-byte push constant block ([`options::push`])
//! or a row of the stage's state buffer `b3` ([`options::state`]): alpha test, fog, user
//! clip planes, point size, projected texturing, bump-environment matrices. Alpha test, fog
//! and clip planes are emulated only when [`Options::dynamic_state`] asks for them.
//!
//! ## The format in brief
//!
//! Tokens are little-endian 32-bit words. Model 2 and 3 instruction tokens carry their
//! parameter count; model 1 instructions do not, and their parameters are the following
//! tokens with bit 31 set (`def`'s raw floats excepted). Register types are split over two
//! bit fields and mean different files per stage (`a0` / `t#`, `oT#` / `o#`); relative
//! addressing is implied (`a0.x`) in `vs_1_x` and spelled by an extra token from `vs_2_0`
//! and `ps_3_0`; a predicated instruction carries its predicate token after the
//! destination; pixel shader 1.x instructions can be co-issued and shift their results.
//! The decoder resolves all of that, so the converter sees one representation for every
//! model. The facts come from Microsoft's `d3d9types.h` token definitions, the Direct3D 9
//! assembly reference and the D3DX constant table structures.
//!
//! ## Main types
//!
//! * [`Shader`], [`Version`], [`Stage`]: the parsed shader.
//! * [`Instruction`], [`Opcode`], [`Payload`] (`def`/`defi`/`defb` values, [`Declaration`]s
//!   of `dcl`, comments), [`Comparison`], [`TexLoad`].
//! * [`Destination`], [`Source`], [`Register`], [`RegisterType`], [`Swizzle`],
//!   [`WriteMask`], [`SourceModifier`], [`RelativeAddress`].
//! * [`ConstantTable`], [`Constant`], [`TypeInfo`]: the `CTAB` comment. A malformed table
//!   is a [`Warning`], never an error.
//! * [`Limits`], [`Limit`]: register counts per model, for converters to refuse shaders
//!   no device could run.
//! * [`convert()`], [`ConvertError`], [`Options`], [`FloatEmulation`], [`DynamicState`]: the
//!   conversion to IR and the application state it is made for; [`options::spec_id`],
//!   [`options::push`], [`options::state`].
//! * [`Error`]: one error type; decode errors carry the token offset and the instruction
//!   index. Malformed input never panics.

pub mod convert;
pub mod ctab;
pub mod decode;
pub mod disasm;
pub mod error;
pub mod limits;
pub mod opcode;
pub mod operand;
pub mod options;
pub mod register;
pub mod version;

#[cfg(test)]
mod testasm;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod testutil;

pub use convert::{convert, ConvertError};
pub use ctab::{
    Constant, ConstantTable, Member, ParameterClass, ParameterType, RegisterSet, TypeInfo,
};
pub use decode::{
    Comment, Comparison, Declaration, Instruction, Instructions, Payload, Shader, TexLoad,
    TextureType, Usage, CTAB_FOURCC, END_TOKEN, MAX_SOURCES,
};
pub use disasm::{disassemble, disassemble_shader};
pub use dxspv_ir::frontend::Words;
pub use error::{DecodeErrorKind, Error, Warning};
pub use limits::{Limit, Limits};
pub use opcode::{Opcode, Shape};
pub use operand::{Destination, RelativeAddress, Source, SourceModifier, Swizzle, WriteMask};
pub use options::{DynamicState, FloatEmulation, Options};
pub use register::{Register, RegisterType};
pub use version::{Stage, Version};
