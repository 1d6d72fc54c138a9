//! An SM 4.0–5.1 shader: the shared container parts ([`dxspv_container::Parts`]) and the
//! decoded-on-demand `SHDR`/`SHEX` program.

use crate::error::Error;
use crate::program::Program;
use dxspv_container::{
    Container, FeatureFlags, FourCC, ParseOptions, Parts, ResourceDefinitions, Signature,
    Statistics, Warning,
};

/// A parsed SM 4/5 shader container: program, signatures, reflection data.
#[derive(Clone, Debug)]
pub struct Shader<'a> {
    /// The raw container.
    pub container: Container<'a>,
    /// The decoded-on-demand program (SHDR or SHEX part).
    pub program: Program<'a>,
    /// Tag of the program part (`SHDR` or `SHEX`).
    pub program_fourcc: FourCC,
    /// Input signature (ISGN or ISG1).
    pub input_signature: Option<Signature<'a>>,
    /// Output signature (OSGN, OSG5 or OSG1).
    pub output_signature: Option<Signature<'a>>,
    /// Patch constant signature (PCSG or PSG1).
    pub patch_constant_signature: Option<Signature<'a>>,
    /// Resource definitions (RDEF).
    pub resources: Option<ResourceDefinitions>,
    /// Feature flags (SFI0).
    pub features: Option<FeatureFlags>,
    /// Statistics (STAT) as raw counts.
    pub statistics: Option<Statistics>,
    /// Parts that were not interpreted (Aon9, RTS0, debug data, unknown tags).
    pub skipped: Vec<FourCC>,
    /// Non-fatal problems (checksum mismatch, duplicates).
    pub warnings: Vec<Warning>,
}

impl<'a> Shader<'a> {
    /// Parses a DXBC container holding an SM 4.0–5.1 program.
    ///
    /// DXIL containers are refused with [`Error::Dxil`]. A checksum mismatch is
    /// reported in [`Shader::warnings`], not as an error.
    pub fn parse(bytes: &'a [u8]) -> Result<Self, Error> {
        Self::parse_with(bytes, &ParseOptions::default())
    }

    /// [`Shader::parse`] with options: with [`ParseOptions::verify_checksum`] off the
    /// checksum is not computed and no [`Warning::ChecksumMismatch`] can be reported;
    /// everything else (errors, other warnings, the parsed parts) is the same.
    pub fn parse_with(bytes: &'a [u8], options: &ParseOptions) -> Result<Self, Error> {
        let container = Container::parse_with(bytes, options)?;
        if let Some(p) = container
            .parts
            .iter()
            .find(|p| p.fourcc == FourCC::DXIL || p.fourcc == FourCC::ILDB)
        {
            return Err(Error::Dxil { fourcc: p.fourcc });
        }
        let parts = Parts::from_container(container)?;
        let program_part = parts.program.ok_or(Error::NoProgram)?;
        let program = Program::parse(program_part.data)?;
        let Parts {
            container,
            input_signature,
            output_signature,
            patch_constant_signature,
            resources,
            features,
            statistics,
            skipped,
            warnings,
            ..
        } = parts;
        let program_fourcc = program_part.fourcc;
        Ok(Shader {
            container,
            program,
            program_fourcc,
            input_signature,
            output_signature,
            patch_constant_signature,
            resources,
            features,
            statistics,
            skipped,
            warnings,
        })
    }
}
