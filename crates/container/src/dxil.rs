//! The `DXIL` part (and its debug twin `ILDB`): the program header and the bitcode header
//! in front of an LLVM bitcode module.
//!
//! Layout (little-endian `u32`s): `ProgramVersion` (shader kind in bits 16–31, shader model
//! major in bits 4–7, minor in bits 0–3), `SizeInUint32` (the part size in words), then the
//! bitcode header: the `DXIL` magic, `DxilVersion` (major in bits 8–15, minor in bits 0–7),
//! `BitcodeOffset` (from the magic) and `BitcodeSize`.

use crate::error::Error;
use crate::partread::PartReader;
use crate::FourCC;

/// The kind of program (`DXIL::ShaderKind`), as stored in the program version.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ShaderKind {
    /// Pixel shader.
    Pixel,
    /// Vertex shader.
    Vertex,
    /// Geometry shader.
    Geometry,
    /// Hull shader.
    Hull,
    /// Domain shader.
    Domain,
    /// Compute shader.
    Compute,
    /// Library (`lib_6_x`).
    Library,
    /// Ray generation shader.
    RayGeneration,
    /// Intersection shader.
    Intersection,
    /// Any-hit shader.
    AnyHit,
    /// Closest-hit shader.
    ClosestHit,
    /// Miss shader.
    Miss,
    /// Callable shader.
    Callable,
    /// Mesh shader.
    Mesh,
    /// Amplification shader.
    Amplification,
    /// Work graph node.
    Node,
    /// Another value.
    Other(u16),
}

impl ShaderKind {
    /// The kind from its `DXIL::ShaderKind` number.
    pub fn from_u16(v: u16) -> Self {
        match v {
            0 => ShaderKind::Pixel,
            1 => ShaderKind::Vertex,
            2 => ShaderKind::Geometry,
            3 => ShaderKind::Hull,
            4 => ShaderKind::Domain,
            5 => ShaderKind::Compute,
            6 => ShaderKind::Library,
            7 => ShaderKind::RayGeneration,
            8 => ShaderKind::Intersection,
            9 => ShaderKind::AnyHit,
            10 => ShaderKind::ClosestHit,
            11 => ShaderKind::Miss,
            12 => ShaderKind::Callable,
            13 => ShaderKind::Mesh,
            14 => ShaderKind::Amplification,
            15 => ShaderKind::Node,
            v => ShaderKind::Other(v),
        }
    }

    /// The profile prefix (`ps`, `vs`, …, `lib`), or `?` for kinds without one.
    pub fn profile_prefix(self) -> &'static str {
        match self {
            ShaderKind::Pixel => "ps",
            ShaderKind::Vertex => "vs",
            ShaderKind::Geometry => "gs",
            ShaderKind::Hull => "hs",
            ShaderKind::Domain => "ds",
            ShaderKind::Compute => "cs",
            ShaderKind::Library => "lib",
            ShaderKind::Mesh => "ms",
            ShaderKind::Amplification => "as",
            ShaderKind::RayGeneration => "raygeneration",
            ShaderKind::Intersection => "intersection",
            ShaderKind::AnyHit => "anyhit",
            ShaderKind::ClosestHit => "closesthit",
            ShaderKind::Miss => "miss",
            ShaderKind::Callable => "callable",
            ShaderKind::Node => "node",
            ShaderKind::Other(_) => "?",
        }
    }
}

/// The program header of a `DXIL` or `ILDB` part, with the bitcode it frames.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DxilProgram<'a> {
    /// The part it was read from (`DXIL` or `ILDB`).
    pub fourcc: FourCC,
    /// `ProgramVersion` as stored.
    pub program_version: u32,
    /// `SizeInUint32`: the program's size in 32-bit words, header included.
    pub size_in_words: u32,
    /// `DxilVersion` as stored (major in bits 8–15, minor in bits 0–7).
    pub dxil_version: u32,
    /// `BitcodeOffset`: bytes from the `DXIL` magic (byte 8 of the part) to the bitcode.
    pub bitcode_offset: u32,
    /// The LLVM bitcode (`BitcodeSize` bytes).
    pub bitcode: &'a [u8],
}

impl<'a> DxilProgram<'a> {
    /// Reads the program header of a `DXIL` or `ILDB` part.
    pub fn parse(fourcc: FourCC, data: &'a [u8]) -> Result<Self, Error> {
        let r = PartReader { fourcc, data };
        let program_version = r.u32(0)?;
        let size_in_words = r.u32(4)?;
        if r.u32(8)? != u32::from_le_bytes(*b"DXIL") {
            return Err(r.err(8, "missing the DXIL bitcode header magic"));
        }
        let dxil_version = r.u32(12)?;
        let bitcode_offset = r.u32(16)?;
        let bitcode_size = r.u32(20)?;
        if u64::from(size_in_words) * 4 > data.len() as u64 {
            return Err(r.err(4, "program size runs past the part end"));
        }
        let start = 8u64 + u64::from(bitcode_offset);
        let end = start + u64::from(bitcode_size);
        if start < 24 {
            return Err(r.err(16, "bitcode offset points into the program header"));
        }
        if end > data.len() as u64 {
            return Err(r.err(20, "bitcode runs past the part end"));
        }
        let bitcode = data
            .get(start as usize..end as usize)
            .ok_or_else(|| r.err(16, "bitcode out of bounds"))?;
        Ok(DxilProgram {
            fourcc,
            program_version,
            size_in_words,
            dxil_version,
            bitcode_offset,
            bitcode,
        })
    }

    /// The shader kind from the program version.
    pub fn shader_kind(&self) -> ShaderKind {
        ShaderKind::from_u16((self.program_version >> 16) as u16)
    }

    /// Shader model (major, minor) from the program version.
    pub fn shader_model(&self) -> (u32, u32) {
        (
            (self.program_version >> 4) & 0xF,
            self.program_version & 0xF,
        )
    }

    /// DXIL version (major, minor).
    pub fn dxil_version(&self) -> (u32, u32) {
        ((self.dxil_version >> 8) & 0xFF, self.dxil_version & 0xFF)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn part(version: u32, offset: u32, bitcode: &[u8]) -> Vec<u8> {
        let mut v = Vec::new();
        let words = (24 + bitcode.len()).div_ceil(4) as u32;
        for w in [version, words] {
            v.extend_from_slice(&w.to_le_bytes());
        }
        v.extend_from_slice(b"DXIL");
        for w in [0x106, offset, bitcode.len() as u32] {
            v.extend_from_slice(&w.to_le_bytes());
        }
        v.resize(8 + offset as usize, 0);
        v.extend_from_slice(bitcode);
        v
    }

    #[test]
    fn reads_the_versions_and_finds_the_bitcode() {
        let data = part((5 << 16) | (6 << 4) | 6, 16, b"BC\xC0\xDE1234");
        let p = DxilProgram::parse(FourCC::DXIL, &data).expect("parses");
        assert_eq!(p.shader_kind(), ShaderKind::Compute);
        assert_eq!(p.shader_model(), (6, 6));
        assert_eq!(p.dxil_version(), (1, 6));
        assert_eq!(p.bitcode, b"BC\xC0\xDE1234");
        assert_eq!(p.shader_kind().profile_prefix(), "cs");
        // A gap between the header and the bitcode is allowed.
        let data = part(6 << 4, 24, b"BC\xC0\xDE");
        let p = DxilProgram::parse(FourCC::DXIL, &data).expect("parses");
        assert_eq!(p.bitcode, b"BC\xC0\xDE");
        assert_eq!(p.shader_kind(), ShaderKind::Pixel);
    }

    #[test]
    fn bad_headers_are_errors_naming_the_field() {
        let data = part(0, 16, b"BC\xC0\xDE");
        let mut bad = data.clone();
        bad[8] = b'X';
        let e = DxilProgram::parse(FourCC::DXIL, &bad)
            .unwrap_err()
            .to_string();
        assert!(e.contains("magic") && e.contains("DXIL"), "{e}");
        let mut bad = data.clone();
        bad[20..24].copy_from_slice(&100u32.to_le_bytes());
        let e = DxilProgram::parse(FourCC::DXIL, &bad)
            .unwrap_err()
            .to_string();
        assert!(e.contains("bitcode runs past"), "{e}");
        let mut bad = data.clone();
        bad[16..20].copy_from_slice(&4u32.to_le_bytes());
        assert!(DxilProgram::parse(FourCC::DXIL, &bad).is_err());
        let mut bad = data.clone();
        bad[16..20].copy_from_slice(&u32::MAX.to_le_bytes());
        assert!(DxilProgram::parse(FourCC::DXIL, &bad).is_err());
        assert!(DxilProgram::parse(FourCC::DXIL, &data[..20]).is_err());
    }
}
