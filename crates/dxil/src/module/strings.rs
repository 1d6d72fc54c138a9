//! Names and strings of a module, stored once in one byte buffer.
//!
//! LLVM names (of values, blocks, struct types, metadata strings) are byte strings, not
//! necessarily UTF-8. The module keeps them all in one [`Strings`] buffer and hands out
//! [`Str`] ranges, so reading a module allocates one buffer for every name instead of a
//! `String` per name.

use std::borrow::Cow;

/// A string of a module's [`Strings`]: a byte range.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Str {
    start: u32,
    len: u32,
}

impl Str {
    /// Length in bytes.
    pub fn len(self) -> usize {
        self.len as usize
    }

    /// Whether the string is empty.
    pub fn is_empty(self) -> bool {
        self.len == 0
    }
}

/// The byte buffer holding every name and string of a module.
#[derive(Clone, Debug, Default)]
pub struct Strings {
    bytes: Vec<u8>,
}

impl Strings {
    /// Reserves room for the strings of a module of `bitcode_bytes` bytes (about a third of
    /// a DXIL module's bitcode is names and metadata strings), so the buffer rarely grows.
    pub(crate) fn reserve_for_bitcode(&mut self, bitcode_bytes: usize) {
        self.bytes.reserve(bitcode_bytes / 2);
    }

    /// Stores `bytes` and returns their range. The module reader bounds the bitcode to
    /// [`crate::module::MAX_BITCODE_BYTES`], so offsets fit in `u32`.
    pub fn add(&mut self, bytes: &[u8]) -> Str {
        let start = self.bytes.len() as u32;
        self.bytes.extend_from_slice(bytes);
        Str {
            start,
            len: bytes.len() as u32,
        }
    }

    /// The bytes of `s`.
    #[inline]
    pub fn get(&self, s: Str) -> &[u8] {
        let start = s.start as usize;
        self.bytes
            .get(start..start + s.len as usize)
            .unwrap_or_default()
    }

    /// `s` as text (invalid UTF-8 replaced).
    pub fn text(&self, s: Str) -> Cow<'_, str> {
        String::from_utf8_lossy(self.get(s))
    }

    /// Total bytes stored.
    pub fn total_len(&self) -> usize {
        self.bytes.len()
    }
}
