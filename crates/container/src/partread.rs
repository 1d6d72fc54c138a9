//! Bounds-checked little-endian readers for part data.

use crate::error::Error;
use crate::FourCC;
use std::borrow::Cow;

/// Reads fields from one part, turning every out-of-bounds read into an
/// [`Error::Part`] that names the part and offset.
#[derive(Clone, Copy)]
pub struct PartReader<'a> {
    /// The part being read (named in errors).
    pub fourcc: FourCC,
    /// The part data.
    pub data: &'a [u8],
}

impl<'a> PartReader<'a> {
    /// An [`Error::Part`] naming this part and `offset`.
    pub fn err(&self, offset: usize, what: &'static str) -> Error {
        Error::Part {
            fourcc: self.fourcc,
            offset,
            what,
        }
    }

    /// The little-endian `u32` at `offset`.
    pub fn u32(&self, offset: usize) -> Result<u32, Error> {
        self.data
            .get(offset..)
            .and_then(|b| b.first_chunk::<4>())
            .map(|c| u32::from_le_bytes(*c))
            .ok_or_else(|| self.err(offset, "read past the part end"))
    }

    /// The little-endian `u16` at `offset`.
    pub fn u16(&self, offset: usize) -> Result<u16, Error> {
        self.data
            .get(offset..)
            .and_then(|b| b.first_chunk::<2>())
            .map(|c| u16::from_le_bytes(*c))
            .ok_or_else(|| self.err(offset, "read past the part end"))
    }

    /// The byte at `offset`.
    pub fn u8(&self, offset: usize) -> Result<u8, Error> {
        self.data
            .get(offset)
            .copied()
            .ok_or_else(|| self.err(offset, "read past the part end"))
    }

    /// A NUL-terminated string at `offset` (lossy UTF-8).
    pub fn cstr(&self, offset: usize) -> Result<String, Error> {
        self.cstr_borrowed(offset).map(Cow::into_owned)
    }

    /// A NUL-terminated string at `offset` (lossy UTF-8), borrowed from the part where it
    /// is valid UTF-8 (as every compiler writes it): no allocation.
    pub fn cstr_borrowed(&self, offset: usize) -> Result<Cow<'a, str>, Error> {
        let data: &'a [u8] = self.data;
        let tail = data
            .get(offset..)
            .ok_or_else(|| self.err(offset, "string offset past the part end"))?;
        let end = tail
            .iter()
            .position(|&b| b == 0)
            .ok_or_else(|| self.err(offset, "unterminated string"))?;
        let bytes = tail.get(..end).unwrap_or_default();
        // Checking plain UTF-8 first is cheaper than the lossy decoder's walk.
        Ok(match std::str::from_utf8(bytes) {
            Ok(s) => Cow::Borrowed(s),
            Err(_) => String::from_utf8_lossy(bytes),
        })
    }

    /// Checks that `count` records of `size` bytes fit at `offset`, before
    /// anything is allocated for them.
    pub fn check_table(&self, offset: usize, count: usize, size: usize) -> Result<(), Error> {
        let bytes = count
            .checked_mul(size)
            .and_then(|n| n.checked_add(offset))
            .ok_or_else(|| self.err(offset, "table size overflows"))?;
        if bytes > self.data.len() {
            return Err(self.err(offset, "table runs past the part end"));
        }
        Ok(())
    }
}
