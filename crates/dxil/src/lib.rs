//! # dxspv-dxil: reading DXIL (Shader Model 6) shaders
//!
//! (essay written below once the crate is complete)

pub mod bitstream;
pub mod disasm;
pub mod dx;
pub mod error;
pub mod module;
mod shader;
#[cfg(test)]
mod testing;

pub use disasm::disassemble;
pub use error::{Error, Location};
pub use shader::Shader;
