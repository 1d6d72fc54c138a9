//! Little-endian 32-bit word view over borrowed bytes.

/// A borrowed run of little-endian 32-bit words: DXBC program tokens, Direct3D 9 DWORD tokens.
///
/// Shader blobs come from files, containers, effect binaries and API calls with no alignment
/// guarantee, so words are read with `u32::from_le_bytes` instead of reinterpreting memory;
/// nothing is copied. Word arrays inside decoded instructions (immediate constant buffers,
/// function tables, comment blocks) are handed out as `Words` borrowed from the input.
#[derive(Clone, Copy, Default, PartialEq, Eq)]
pub struct Words<'a> {
    bytes: &'a [u8],
}

impl<'a> Words<'a> {
    /// Views `bytes` as words; a trailing partial word is ignored.
    pub fn new(bytes: &'a [u8]) -> Self {
        let n = bytes.len() / 4 * 4;
        Words {
            bytes: bytes.get(..n).unwrap_or_default(),
        }
    }

    /// Number of words.
    #[inline]
    pub fn len(&self) -> usize {
        self.bytes.len() / 4
    }

    /// Whether there are no words.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }

    /// The word at `index`, or `None` past the end.
    #[inline(always)]
    pub fn get(&self, index: usize) -> Option<u32> {
        let start = index.checked_mul(4)?;
        let chunk = self.bytes.get(start..)?.first_chunk::<4>()?;
        Some(u32::from_le_bytes(*chunk))
    }

    /// Words `start..end`, clamped to the available words.
    pub fn slice(&self, start: usize, end: usize) -> Words<'a> {
        let end = end.min(self.len());
        let start = start.min(end);
        Words {
            bytes: self.bytes.get(start * 4..end * 4).unwrap_or_default(),
        }
    }

    /// The underlying bytes.
    pub fn as_bytes(&self) -> &'a [u8] {
        self.bytes
    }

    /// Iterates over the words.
    pub fn iter(&self) -> impl Iterator<Item = u32> + 'a {
        self.bytes
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
    }

    /// Copies the words into a vector.
    pub fn to_vec(&self) -> Vec<u32> {
        self.iter().collect()
    }
}

impl core::fmt::Debug for Words<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}
