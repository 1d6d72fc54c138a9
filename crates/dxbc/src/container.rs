//! The DXBC container: header, part table, checksum and typed parts.
//!
//! Layout (all little-endian): `DXBC` magic, 16-byte checksum, version `1`,
//! total size, part count, then one `u32` offset per part. Each part starts
//! with its fourcc and byte size, followed by the data.

use crate::checksum::dxbc_checksum;
use crate::error::Error;
use crate::program::Program;
use crate::rdef::ResourceDefinitions;
use crate::signature::Signature;
use crate::stat::{FeatureFlags, Statistics};

/// A four-character part tag such as `SHEX` or `ISGN`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FourCC(pub [u8; 4]);

impl FourCC {
    /// `SHDR`: SM 4.x program.
    pub const SHDR: FourCC = FourCC(*b"SHDR");
    /// `SHEX`: SM 5.x program.
    pub const SHEX: FourCC = FourCC(*b"SHEX");
    /// `ISGN`: input signature.
    pub const ISGN: FourCC = FourCC(*b"ISGN");
    /// `OSGN`: output signature.
    pub const OSGN: FourCC = FourCC(*b"OSGN");
    /// `OSG5`: output signature with streams.
    pub const OSG5: FourCC = FourCC(*b"OSG5");
    /// `PCSG`: patch constant signature.
    pub const PCSG: FourCC = FourCC(*b"PCSG");
    /// `ISG1`: input signature with min precision.
    pub const ISG1: FourCC = FourCC(*b"ISG1");
    /// `OSG1`: output signature with min precision.
    pub const OSG1: FourCC = FourCC(*b"OSG1");
    /// `PSG1`: patch constant signature with min precision.
    pub const PSG1: FourCC = FourCC(*b"PSG1");
    /// `RDEF`: resource definitions.
    pub const RDEF: FourCC = FourCC(*b"RDEF");
    /// `SFI0`: feature flags.
    pub const SFI0: FourCC = FourCC(*b"SFI0");
    /// `STAT`: statistics.
    pub const STAT: FourCC = FourCC(*b"STAT");
    /// `DXIL`: SM 6 program.
    pub const DXIL: FourCC = FourCC(*b"DXIL");
    /// `ILDB`: SM 6 program with debug info.
    pub const ILDB: FourCC = FourCC(*b"ILDB");
}

impl core::fmt::Display for FourCC {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        for &b in &self.0 {
            if b.is_ascii_graphic() || b == b' ' {
                write!(f, "{}", b as char)?;
            } else {
                write!(f, "\\x{b:02x}")?;
            }
        }
        Ok(())
    }
}

impl core::fmt::Debug for FourCC {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "FourCC({self})")
    }
}

/// One part (chunk) of a container, borrowed from the input.
#[derive(Clone, Copy, Debug)]
pub struct Part<'a> {
    /// The part tag.
    pub fourcc: FourCC,
    /// Byte offset of the part header in the container.
    pub offset: usize,
    /// The part data (after the 8-byte part header).
    pub data: &'a [u8],
}

/// The raw container: header fields and part table.
#[derive(Clone, Debug)]
pub struct Container<'a> {
    /// The whole container.
    pub bytes: &'a [u8],
    /// Checksum stored in the header.
    pub stored_checksum: [u32; 4],
    /// Checksum computed over bytes 20..end; `None` when parsed with
    /// [`ParseOptions::verify_checksum`] off.
    pub computed_checksum: Option<[u32; 4]>,
    /// The parts in table order.
    pub parts: Vec<Part<'a>>,
}

fn rd32(bytes: &[u8], offset: usize) -> Option<u32> {
    let c = bytes.get(offset..)?.first_chunk::<4>()?;
    Some(u32::from_le_bytes(*c))
}

/// Options for [`Shader::parse_with`] and [`Container::parse_with`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParseOptions {
    /// Compute the container checksum and report a mismatch as
    /// [`Warning::ChecksumMismatch`] (default: on). The checksum is an MD5-style hash of the
    /// whole container, often the most expensive part of parsing a small shader; a mismatch
    /// is never an error, so callers that ignore warnings can turn it off.
    pub verify_checksum: bool,
}

impl Default for ParseOptions {
    fn default() -> Self {
        ParseOptions {
            verify_checksum: true,
        }
    }
}

impl<'a> Container<'a> {
    /// Parses the header and part table, checking every bound, and computes the checksum.
    pub fn parse(bytes: &'a [u8]) -> Result<Self, Error> {
        Self::parse_with(bytes, &ParseOptions::default())
    }

    /// Parses the header and part table, checking every bound; computes the checksum only
    /// if `options` ask for it.
    pub fn parse_with(bytes: &'a [u8], options: &ParseOptions) -> Result<Self, Error> {
        let err = |offset, what| Error::Container { offset, what };
        if bytes.len() < 32 {
            return Err(err(0, "shorter than the 32-byte header"));
        }
        if bytes.get(..4) != Some(b"DXBC") {
            return Err(err(0, "missing DXBC magic"));
        }
        let mut stored_checksum = [0u32; 4];
        for (i, w) in stored_checksum.iter_mut().enumerate() {
            *w = rd32(bytes, 4 + 4 * i).ok_or(err(4, "truncated checksum"))?;
        }
        let version = rd32(bytes, 20).ok_or(err(20, "truncated"))?;
        if version != 1 {
            return Err(err(20, "container version is not 1"));
        }
        let size = rd32(bytes, 24).ok_or(err(24, "truncated"))? as usize;
        if size > bytes.len() {
            return Err(err(24, "size field exceeds the input length"));
        }
        if size < 32 {
            return Err(err(24, "size field smaller than the header"));
        }
        let bytes = bytes.get(..size).ok_or(err(24, "bad size"))?;
        let count = rd32(bytes, 28).ok_or(err(28, "truncated"))? as usize;
        // Each part needs a 4-byte table entry and an 8-byte header.
        if count > (size - 32) / 12 {
            return Err(err(28, "part count does not fit in the container"));
        }
        let mut parts = Vec::with_capacity(count);
        for i in 0..count {
            let at = 32 + 4 * i;
            let offset = rd32(bytes, at).ok_or(err(at, "truncated part table"))? as usize;
            let header = bytes
                .get(offset..)
                .and_then(|b| b.get(..8))
                .ok_or(err(at, "part offset out of bounds"))?;
            let fourcc = FourCC([header[0], header[1], header[2], header[3]]);
            let len = u32::from_le_bytes([header[4], header[5], header[6], header[7]]) as usize;
            let data = bytes
                .get(offset + 8..)
                .and_then(|b| b.get(..len))
                .ok_or(err(offset + 4, "part size runs past the container end"))?;
            parts.push(Part {
                fourcc,
                offset,
                data,
            });
        }
        let computed_checksum = options
            .verify_checksum
            .then(|| dxbc_checksum(bytes.get(20..).unwrap_or_default()));
        Ok(Container {
            bytes,
            stored_checksum,
            computed_checksum,
            parts,
        })
    }

    /// Whether the stored checksum matches the computed one: `None` if it was not computed.
    pub fn checksum_ok(&self) -> Option<bool> {
        self.computed_checksum.map(|c| c == self.stored_checksum)
    }

    /// The first part with the given tag.
    pub fn part(&self, fourcc: FourCC) -> Option<&Part<'a>> {
        self.parts.iter().find(|p| p.fourcc == fourcc)
    }
}

/// A non-fatal problem found while reading a container.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Warning {
    /// The stored checksum differs from the computed one.
    ChecksumMismatch {
        /// Stored in the header.
        stored: [u32; 4],
        /// Computed over the container.
        computed: [u32; 4],
    },
    /// The container has more than one part of a kind; the first is used.
    DuplicatePart(FourCC),
}

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
    pub input_signature: Option<Signature>,
    /// Output signature (OSGN, OSG5 or OSG1).
    pub output_signature: Option<Signature>,
    /// Patch constant signature (PCSG or PSG1).
    pub patch_constant_signature: Option<Signature>,
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
        let mut warnings = Vec::new();
        if let Some(computed) = container.computed_checksum {
            if computed != container.stored_checksum {
                warnings.push(Warning::ChecksumMismatch {
                    stored: container.stored_checksum,
                    computed,
                });
            }
        }
        if let Some(p) = container
            .parts
            .iter()
            .find(|p| p.fourcc == FourCC::DXIL || p.fourcc == FourCC::ILDB)
        {
            return Err(Error::Dxil { fourcc: p.fourcc });
        }
        let mut program = None;
        let mut input_signature = None;
        let mut output_signature = None;
        let mut patch_constant_signature = None;
        let mut resources = None;
        let mut features = None;
        let mut statistics = None;
        let mut skipped = Vec::new();
        let mut seen: Vec<FourCC> = Vec::new();
        for part in &container.parts {
            if seen.contains(&part.fourcc) {
                warnings.push(Warning::DuplicatePart(part.fourcc));
                continue;
            }
            seen.push(part.fourcc);
            match &part.fourcc.0 {
                b"SHDR" | b"SHEX" => {
                    if program.is_none() {
                        program = Some((Program::parse(part.data)?, part.fourcc));
                    }
                }
                b"ISGN" | b"ISG1" => {
                    input_signature.get_or_insert(Signature::parse(part.fourcc, part.data)?);
                }
                b"OSGN" | b"OSG5" | b"OSG1" => {
                    output_signature.get_or_insert(Signature::parse(part.fourcc, part.data)?);
                }
                b"PCSG" | b"PSG1" => {
                    patch_constant_signature
                        .get_or_insert(Signature::parse(part.fourcc, part.data)?);
                }
                b"RDEF" => resources = Some(ResourceDefinitions::parse(part.data)?),
                b"SFI0" => features = Some(FeatureFlags::parse(part.data)?),
                b"STAT" => statistics = Some(Statistics::parse(part.data)),
                _ => skipped.push(part.fourcc),
            }
        }
        let (program, program_fourcc) = program.ok_or(Error::NoProgram)?;
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
