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

    /// Stores record operands that are each one byte (a name or string record's characters)
    /// straight into the buffer; `None`, storing nothing, when one does not fit in `u8`.
    pub(crate) fn add_ops(&mut self, ops: &[u64]) -> Option<Str> {
        // One pass to check (no early exit, so it vectorizes), one to copy.
        if ops.iter().fold(0, |acc, &v| acc | v) > u64::from(u8::MAX) {
            return None;
        }
        let start = self.bytes.len();
        self.bytes.extend(ops.iter().map(|&v| v as u8));
        Some(Str {
            start: start as u32,
            len: ops.len() as u32,
        })
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn operands_are_stored_as_bytes_or_not_at_all() {
        let mut s = Strings::default();
        let a = s.add(b"dx.");
        let b = s.add_ops(&[111, 112, 46]).unwrap();
        assert_eq!(s.get(a), b"dx.");
        assert_eq!(s.get(b), b"op.");
        // A value past 255 is refused and leaves the buffer as it was.
        assert_eq!(s.add_ops(&[104, 256]), None);
        let c = s.add_ops(&[]).unwrap();
        assert!(c.is_empty());
        let d = s.add(b"x");
        assert_eq!(s.get(d), b"x");
        assert_eq!(s.bytes.len(), 7);
    }
}
