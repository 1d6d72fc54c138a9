//! The DXBC container: header, part table, checksum and typed parts.
//!
//! Layout (all little-endian): `DXBC` magic, 16-byte checksum, version `1`,
//! total size, part count, then one `u32` offset per part. Each part starts
//! with its fourcc and byte size, followed by the data.

use crate::checksum::dxbc_checksum;
use crate::error::Error;

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
    /// `ILDN`: the name of the debug-info file of a DXIL program.
    pub const ILDN: FourCC = FourCC(*b"ILDN");
    /// `PSV0`: DXIL pipeline state validation data.
    pub const PSV0: FourCC = FourCC(*b"PSV0");
    /// `RTS0`: serialized root signature.
    pub const RTS0: FourCC = FourCC(*b"RTS0");
    /// `HASH`: shader hash (DXIL).
    pub const HASH: FourCC = FourCC(*b"HASH");
    /// `SPDB`: PDB debug data.
    pub const SPDB: FourCC = FourCC(*b"SPDB");
    /// `RDAT`: runtime data of a DXIL library.
    pub const RDAT: FourCC = FourCC(*b"RDAT");
    /// `VERS`: the compiler version of a DXIL container.
    pub const VERS: FourCC = FourCC(*b"VERS");
    /// `Aon9`: the Direct3D 9 program of a `4_0_level_9_x` shader.
    pub const AON9: FourCC = FourCC(*b"Aon9");
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

/// Options for [`Container::parse_with`] and [`crate::Parts::parse_with`].
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

    /// [`Warning::ChecksumMismatch`] if the checksum was computed and differs from the stored
    /// one. An unsigned container (all-zero stored checksum, as tools that do not sign write)
    /// is not a mismatch.
    pub fn checksum_warning(&self) -> Option<Warning> {
        let computed = self.computed_checksum?;
        (computed != self.stored_checksum && self.stored_checksum != [0; 4]).then_some(
            Warning::ChecksumMismatch {
                stored: self.stored_checksum,
                computed,
            },
        )
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

impl core::fmt::Display for Warning {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Warning::ChecksumMismatch { stored, computed } => write!(
                f,
                "container checksum mismatch: stored {}, computed {}",
                hex_words(stored),
                hex_words(computed)
            ),
            Warning::DuplicatePart(fourcc) => {
                write!(
                    f,
                    "container has more than one {fourcc} part; the first is used"
                )
            }
        }
    }
}

/// A checksum as the 32 hex digits of its four words.
fn hex_words(w: &[u32; 4]) -> String {
    format!("{:08x}{:08x}{:08x}{:08x}", w[0], w[1], w[2], w[3])
}
