//! A whole DXIL shader: the container's parts, the program header, the module and its DXIL
//! metadata, read in one call.

use dxspv_container::{DxilProgram, ParseOptions, Parts};

use crate::dx::DxilMetadata;
use crate::error::Error;
use crate::module::Module;

/// A DXIL container read completely.
#[derive(Clone, Debug)]
pub struct Shader<'a> {
    /// The container and its common parts (signatures, feature flags, …).
    pub parts: Parts<'a>,
    /// The `DXIL` part's program header (versions, the bitcode slice).
    pub program: DxilProgram<'a>,
    /// The LLVM module.
    pub module: Module,
    /// The DXIL metadata of the module.
    pub metadata: DxilMetadata,
}

impl<'a> Shader<'a> {
    /// Reads a DXIL container (checksum verified; a mismatch is a warning in
    /// [`Parts::warnings`]).
    pub fn parse(bytes: &'a [u8]) -> Result<Self, Error> {
        Self::parse_with(bytes, &ParseOptions::default())
    }

    /// [`Shader::parse`] with container options.
    pub fn parse_with(bytes: &'a [u8], options: &ParseOptions) -> Result<Self, Error> {
        let parts = Parts::parse_with(bytes, options)?;
        let part = parts
            .container
            .parts
            .iter()
            .find(|p| p.fourcc == dxspv_container::FourCC::DXIL)
            .copied()
            .ok_or(Error::NoDxilPart)?;
        let program = DxilProgram::parse(part.fourcc, part.data)?;
        let module = Module::read(program.bitcode)?;
        let metadata = DxilMetadata::read(&module)?;
        Ok(Shader {
            parts,
            program,
            module,
            metadata,
        })
    }
}
