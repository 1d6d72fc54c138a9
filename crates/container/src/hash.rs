//! `HASH`: the shader hash DXC writes (`DxilShaderHash`): flags and a 16-byte digest.

use crate::error::Error;
use crate::partread::PartReader;
use crate::FourCC;

/// The `HASH` part.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ShaderHash {
    /// Flags (bit 0: the digest covers the source as well as the program).
    pub flags: u32,
    /// The digest.
    pub digest: [u8; 16],
}

impl ShaderHash {
    /// Parses a `HASH` part (20 bytes).
    pub fn parse(data: &[u8]) -> Result<Self, Error> {
        let r = PartReader {
            fourcc: FourCC::HASH,
            data,
        };
        let flags = r.u32(0)?;
        let digest = data
            .get(4..20)
            .and_then(|d| d.first_chunk::<16>())
            .copied()
            .ok_or_else(|| r.err(4, "digest runs past the part end"))?;
        Ok(ShaderHash { flags, digest })
    }

    /// Whether the digest includes the source (`flags` bit 0).
    pub fn includes_source(&self) -> bool {
        self.flags & 1 != 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_flags_and_digest() {
        let mut part = 1u32.to_le_bytes().to_vec();
        part.extend(0u8..16);
        let h = ShaderHash::parse(&part).expect("parses");
        assert!(h.includes_source());
        assert_eq!(h.digest[15], 15);
        assert!(ShaderHash::parse(&part[..19]).is_err());
    }
}
