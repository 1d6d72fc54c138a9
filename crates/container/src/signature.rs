//! Input, output and patch-constant signatures (ISGN, OSGN, OSG5, PCSG,
//! ISG1, OSG1, PSG1).
//!
//! A signature part starts with an element count and the offset of the
//! element table; names are NUL-terminated strings addressed by offsets from
//! the part start. Element records are 24 bytes (ISGN/OSGN/PCSG), 28 bytes
//! with a leading stream index (OSG5), or 32 bytes with a leading stream and a
//! trailing min-precision field (ISG1/OSG1/PSG1).

use crate::error::Error;
use crate::partread::PartReader;
use crate::FourCC;
use std::borrow::Cow;

/// Register component type of a signature element (`D3D_REGISTER_COMPONENT_TYPE`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ComponentType {
    /// Unknown.
    Unknown,
    /// 32-bit unsigned integer.
    Uint32,
    /// 32-bit signed integer.
    Sint32,
    /// 32-bit float.
    Float32,
    /// Any other value.
    Other(u32),
}

impl ComponentType {
    fn from_raw(v: u32) -> Self {
        match v {
            0 => Self::Unknown,
            1 => Self::Uint32,
            2 => Self::Sint32,
            3 => Self::Float32,
            v => Self::Other(v),
        }
    }

    /// The name fxc prints in its signature tables.
    pub fn name(self) -> &'static str {
        match self {
            Self::Unknown => "unknown",
            Self::Uint32 => "uint",
            Self::Sint32 => "int",
            Self::Float32 => "float",
            Self::Other(_) => "?",
        }
    }
}

/// One element of a signature.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SignatureElement<'a> {
    /// Semantic name, e.g. `TEXCOORD` or `SV_Position`, borrowed from the part unless it is
    /// not UTF-8 (then lossily converted).
    pub semantic_name: Cow<'a, str>,
    /// Semantic index.
    pub semantic_index: u32,
    /// System value (`D3D_NAME`, which numbers tessellation factors
    /// differently from the token format's `D3D10_SB_NAME`), 0 for none.
    pub system_value: u32,
    /// Component type.
    pub component_type: ComponentType,
    /// Register number.
    pub register: u32,
    /// Component mask (bit 0 = x).
    pub mask: u8,
    /// Read-write mask: components used (inputs) or never written (outputs).
    pub rw_mask: u8,
    /// Geometry shader stream (OSG5/…1 parts; 0 otherwise).
    pub stream: u32,
    /// Minimum precision (`D3D_MIN_PRECISION`, …1 parts; 0 otherwise).
    pub min_precision: u32,
}

impl SignatureElement<'_> {
    /// fxc's short name for the system value column (`POS`, `TARGET`, …).
    pub fn system_value_name(&self) -> &'static str {
        let by_name = |n: &str| self.semantic_name.eq_ignore_ascii_case(n);
        match self.system_value {
            0 if by_name("SV_Target") => "TARGET",
            0 if by_name("SV_Depth") => "DEPTH",
            0 if by_name("SV_DepthGreaterEqual") => "DEPTHGE",
            0 if by_name("SV_DepthLessEqual") => "DEPTHLE",
            0 if by_name("SV_Coverage") => "COVERAGE",
            0 if by_name("SV_StencilRef") => "STENCILREF",
            0 => "NONE",
            1 => "POS",
            2 => "CLIPDST",
            3 => "CULLDST",
            4 => "RTINDEX",
            5 => "VPINDEX",
            6 => "VERTID",
            7 => "PRIMID",
            8 => "INSTID",
            9 => "FFACE",
            10 => "SAMPLE",
            11 => "QUADEDGE",
            12 => "QUADINT",
            13 => "TRIEDGE",
            14 => "TRIINT",
            15 => "LINEDET",
            16 => "LINEDEN",
            23 => "BARYCEN",
            24 => "SHDINGRATE",
            25 => "CULLPRIM",
            64 => "TARGET",
            65 => "DEPTH",
            66 => "COVERAGE",
            67 => "DEPTHGE",
            68 => "DEPTHLE",
            69 => "STENCILREF",
            70 => "INNERCOV",
            _ => "?",
        }
    }
}

/// A parsed signature part.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Signature<'a> {
    /// The part tag it came from.
    pub fourcc: FourCC,
    /// Elements in table order.
    pub elements: Vec<SignatureElement<'a>>,
}

impl<'a> Signature<'a> {
    /// Parses a signature part; `fourcc` selects the record layout.
    pub fn parse(fourcc: FourCC, data: &'a [u8]) -> Result<Self, Error> {
        let r = PartReader { fourcc, data };
        let (size, has_stream, has_precision) = match &fourcc.0 {
            b"OSG5" => (28, true, false),
            b"ISG1" | b"OSG1" | b"PSG1" => (32, true, true),
            _ => (24, false, false),
        };
        let count = r.u32(0)? as usize;
        let table = r.u32(4)? as usize;
        r.check_table(table, count, size)?;
        let mut elements = Vec::with_capacity(count);
        for i in 0..count {
            let mut at = table + i * size;
            let stream = if has_stream {
                at += 4;
                r.u32(at - 4)?
            } else {
                0
            };
            let name_offset = r.u32(at)? as usize;
            let semantic_name = r.cstr_borrowed(name_offset)?;
            let packed = r.u32(at + 20)?;
            elements.push(SignatureElement {
                semantic_name,
                semantic_index: r.u32(at + 4)?,
                system_value: r.u32(at + 8)?,
                component_type: ComponentType::from_raw(r.u32(at + 12)?),
                register: r.u32(at + 16)?,
                mask: (packed & 0xff) as u8,
                rw_mask: ((packed >> 8) & 0xff) as u8,
                stream,
                min_precision: if has_precision { r.u32(at + 24)? } else { 0 },
            });
        }
        Ok(Signature { fourcc, elements })
    }
}
