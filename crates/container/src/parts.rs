//! The parts every shader container may carry next to its program: the signatures, the
//! resource definitions and the feature flags and statistics, read once for every frontend.
//!
//! [`Parts::parse_with`] walks the part table in order. The first part of each kind wins; a
//! second one is a [`Warning::DuplicatePart`]. The program part (`SHDR`/`SHEX` for SM 4–5,
//! `DXIL` for SM 6) is handed back unread for the frontend that knows its format;
//! other parts are listed in [`Parts::skipped`].

use crate::container::{Container, FourCC, ParseOptions, Part, Warning};
use crate::error::Error;
use crate::hash::ShaderHash;
use crate::psv::PipelineStateValidation;
use crate::rdef::ResourceDefinitions;
use crate::root_signature::RootSignature;
use crate::signature::Signature;
use crate::stat::{FeatureFlags, Statistics};

/// A container with its common parts read.
#[derive(Clone, Debug)]
pub struct Parts<'a> {
    /// The raw container.
    pub container: Container<'a>,
    /// The program part, unread: `SHDR`, `SHEX` or `DXIL` (the first of them; a DXIL
    /// container's `ILDB`, the same program with debug information, is skipped).
    pub program: Option<Part<'a>>,
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
    /// DXIL pipeline state validation data (PSV0), boxed: it is large, and an SM 4–5
    /// container (most of those read) has none to carry around.
    pub pipeline_state: Option<Box<PipelineStateValidation>>,
    /// Root signature (RTS0).
    pub root_signature: Option<RootSignature>,
    /// DXIL shader hash (HASH).
    pub hash: Option<ShaderHash>,
    /// Parts that were not interpreted here (Aon9, the debug parts ILDB, ILDN and SPDB,
    /// RDAT and VERS of DXIL libraries, unknown tags).
    pub skipped: Vec<FourCC>,
    /// Non-fatal problems (checksum mismatch, duplicate parts).
    pub warnings: Vec<Warning>,
}

impl<'a> Parts<'a> {
    /// Parses the container and its common parts with default options (checksum verified).
    pub fn parse(bytes: &'a [u8]) -> Result<Self, Error> {
        Self::parse_with(bytes, &ParseOptions::default())
    }

    /// Parses the container and its common parts. A part that is present but malformed is an
    /// error; a checksum mismatch (when computed) and duplicate parts are warnings.
    pub fn parse_with(bytes: &'a [u8], options: &ParseOptions) -> Result<Self, Error> {
        Self::from_container(Container::parse_with(bytes, options)?)
    }

    /// Reads the common parts of an already parsed container.
    pub fn from_container(container: Container<'a>) -> Result<Self, Error> {
        let mut parts = Parts {
            program: None,
            input_signature: None,
            output_signature: None,
            patch_constant_signature: None,
            resources: None,
            features: None,
            statistics: None,
            pipeline_state: None,
            root_signature: None,
            hash: None,
            skipped: Vec::new(),
            warnings: container.checksum_warning().into_iter().collect(),
            container,
        };
        for (i, part) in parts.container.parts.iter().enumerate() {
            // Parts are few (typically 4–8): a scan of the earlier ones is cheaper than a set.
            if parts.container.parts[..i]
                .iter()
                .any(|p| p.fourcc == part.fourcc)
            {
                parts.warnings.push(Warning::DuplicatePart(part.fourcc));
                continue;
            }
            match &part.fourcc.0 {
                b"SHDR" | b"SHEX" | b"DXIL" => {
                    if parts.program.is_none() {
                        parts.program = Some(*part);
                    } else {
                        parts.skipped.push(part.fourcc);
                    }
                }
                b"ISGN" | b"ISG1" => {
                    if parts.input_signature.is_none() {
                        parts.input_signature = Some(Signature::parse(part.fourcc, part.data)?);
                    }
                }
                b"OSGN" | b"OSG5" | b"OSG1" => {
                    if parts.output_signature.is_none() {
                        parts.output_signature = Some(Signature::parse(part.fourcc, part.data)?);
                    }
                }
                b"PCSG" | b"PSG1" => {
                    if parts.patch_constant_signature.is_none() {
                        parts.patch_constant_signature =
                            Some(Signature::parse(part.fourcc, part.data)?);
                    }
                }
                b"RDEF" => parts.resources = Some(ResourceDefinitions::parse(part.data)?),
                b"SFI0" => parts.features = Some(FeatureFlags::parse(part.data)?),
                b"STAT" => parts.statistics = Some(Statistics::parse(part.data)),
                b"PSV0" => {
                    parts.pipeline_state =
                        Some(Box::new(PipelineStateValidation::parse(part.data)?));
                }
                b"RTS0" => parts.root_signature = Some(RootSignature::parse(part.data)?),
                b"HASH" => parts.hash = Some(ShaderHash::parse(part.data)?),
                _ => parts.skipped.push(part.fourcc),
            }
        }
        Ok(parts)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checksum::dxbc_checksum;

    /// A container of the given parts with a correct checksum.
    fn container(parts: &[(&[u8; 4], &[u8])]) -> Vec<u8> {
        let header = 32 + 4 * parts.len();
        let mut table = Vec::new();
        let mut body = Vec::new();
        for (fourcc, data) in parts {
            table.extend_from_slice(&((header + body.len()) as u32).to_le_bytes());
            body.extend_from_slice(*fourcc);
            body.extend_from_slice(&(data.len() as u32).to_le_bytes());
            body.extend_from_slice(data);
        }
        let mut v = b"DXBC".to_vec();
        v.extend_from_slice(&[0; 16]);
        v.extend_from_slice(&1u32.to_le_bytes());
        v.extend_from_slice(&((header + body.len()) as u32).to_le_bytes());
        v.extend_from_slice(&(parts.len() as u32).to_le_bytes());
        v.extend_from_slice(&table);
        v.extend_from_slice(&body);
        let sum = dxbc_checksum(&v[20..]);
        for (i, w) in sum.iter().enumerate() {
            v[4 + 4 * i..8 + 4 * i].copy_from_slice(&w.to_le_bytes());
        }
        v
    }

    /// An empty signature part: no elements, table at offset 8.
    const EMPTY_SIGNATURE: [u8; 8] = [0, 0, 0, 0, 8, 0, 0, 0];

    #[test]
    fn reads_the_program_and_signatures_and_lists_the_rest() {
        let c = container(&[
            (b"ISGN", &EMPTY_SIGNATURE),
            (b"HASH", &[0; 20]),
            (b"DXIL", &[5, 6, 7, 8]),
            (b"OSGN", &EMPTY_SIGNATURE),
        ]);
        let p = Parts::parse(&c).expect("parses");
        assert!(p.warnings.is_empty(), "{:?}", p.warnings);
        assert_eq!(p.container.checksum_ok(), Some(true));
        let program = p.program.expect("program part");
        assert_eq!(program.fourcc, FourCC::DXIL);
        assert_eq!(program.data, &[5, 6, 7, 8]);
        assert!(p.input_signature.is_some() && p.output_signature.is_some());
        assert!(p.patch_constant_signature.is_none());
        assert!(p.skipped.is_empty());
        assert_eq!(p.hash.map(|h| h.flags), Some(0));
    }

    #[test]
    fn a_checksum_mismatch_is_a_warning_and_an_unsigned_container_is_not() {
        let mut c = container(&[(b"SHEX", &[0; 8])]);
        c[4] ^= 1;
        let p = Parts::parse(&c).expect("still parses");
        assert!(matches!(p.warnings[..], [Warning::ChecksumMismatch { .. }]));
        assert!(p.warnings[0].to_string().contains("checksum mismatch"));
        // Not computed: no warning, and nothing else changes.
        let fast = ParseOptions {
            verify_checksum: false,
        };
        let p = Parts::parse_with(&c, &fast).expect("parses");
        assert!(p.warnings.is_empty());
        assert_eq!(p.container.checksum_ok(), None);
        // All-zero stored checksum: unsigned, not a mismatch.
        c[4..20].fill(0);
        let p = Parts::parse(&c).expect("parses");
        assert_eq!(p.container.checksum_ok(), Some(false));
        assert!(p.warnings.is_empty());
    }

    #[test]
    fn a_duplicate_part_is_a_warning_and_the_first_wins() {
        let c = container(&[(b"SHDR", &[1; 8]), (b"SHDR", &[2; 8])]);
        let p = Parts::parse(&c).expect("parses");
        assert_eq!(p.warnings, vec![Warning::DuplicatePart(FourCC::SHDR)]);
        assert_eq!(p.program.map(|p| p.data[0]), Some(1));
    }

    #[test]
    fn malformed_parts_are_errors_naming_the_part() {
        let c = container(&[(b"ISGN", &[1, 0, 0, 0])]);
        let e = Parts::parse(&c).expect_err("truncated signature");
        assert!(
            matches!(
                e,
                Error::Part {
                    fourcc: FourCC::ISGN,
                    ..
                }
            ),
            "{e}"
        );
        let e = Parts::parse(&c[..30]).expect_err("truncated header");
        assert!(matches!(e, Error::Container { .. }), "{e}");
    }
}
