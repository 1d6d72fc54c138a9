//! The LLVM bitstream container: magic, wrapper header, blocks, abbreviations, records.
//!
//! This layer knows nothing about LLVM IR. [`open`] checks the magic (after an optional
//! bitcode wrapper header) and returns a [`Cursor`] at the first top-level entry; the cursor
//! reads blocks and records as described in LLVM's *Bitcode File Format* document. [`walk`]
//! visits every block and record of a stream without interpreting them (the benchmark's
//! baseline and a structural check).

pub mod bits;
pub mod cursor;
pub mod names;

pub use cursor::{AbbrevOp, Cursor, Entry, Record};

use crate::error::{Error, Location};

/// The bitcode wrapper magic `0x0B17C0DE` (little-endian), used by some producers.
const WRAPPER_MAGIC: u32 = 0x0B17_C0DE;

/// The bitcode proper inside `data`: the wrapper header (if any) removed, the `BC 0xC0DE`
/// magic checked. Returns the bitcode bytes; reading starts at bit 32.
pub fn strip_wrapper(data: &[u8]) -> Result<&[u8], Error> {
    let word = |at: usize| {
        data.get(at..at + 4)
            .and_then(|b| b.first_chunk::<4>())
            .map(|b| u32::from_le_bytes(*b))
    };
    let mut bitcode = data;
    if word(0) == Some(WRAPPER_MAGIC) {
        let (Some(offset), Some(size)) = (word(8), word(12)) else {
            return Err(Error::malformed(
                Location::top(0),
                "truncated bitcode wrapper header",
            ));
        };
        bitcode = (offset as usize)
            .checked_add(size as usize)
            .and_then(|end| data.get(offset as usize..end))
            .ok_or_else(|| {
                Error::malformed(
                    Location::top(64),
                    format!("wrapper header names bytes {offset}..+{size} beyond the data"),
                )
            })?;
    }
    if bitcode.get(..4) != Some(&[b'B', b'C', 0xC0, 0xDE]) {
        return Err(Error::malformed(
            Location::top(0),
            "missing the LLVM bitcode magic 'BC' 0xC0DE",
        ));
    }
    if bitcode.len() % 4 != 0 {
        return Err(Error::malformed(
            Location::top(bitcode.len() as u64 * 8),
            format!(
                "bitcode length {} is not a multiple of 4 bytes",
                bitcode.len()
            ),
        ));
    }
    Ok(bitcode)
}

/// A cursor at the first top-level entry of `bitcode` (wrapper and magic checked).
pub fn open(bitcode: &[u8]) -> Result<Cursor<'_>, Error> {
    let bitcode = strip_wrapper(bitcode)?;
    Cursor::new(bitcode, 32)
}

/// Counts from [`walk`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WalkStats {
    /// Blocks entered (`BLOCKINFO` excluded).
    pub blocks: u64,
    /// Records read.
    pub records: u64,
    /// Records read through an abbreviation.
    pub abbreviated_records: u64,
    /// Operands read (array elements included, blob bytes excluded).
    pub operands: u64,
    /// Blob bytes.
    pub blob_bytes: u64,
}

/// Reads every block and record of a bitstream without interpreting them.
pub fn walk(bitcode: &[u8]) -> Result<WalkStats, Error> {
    let mut cursor = open(bitcode)?;
    let mut stats = WalkStats::default();
    let mut record = Record::new();
    loop {
        match cursor.advance()? {
            Entry::EndOfStream => break,
            Entry::EndBlock => {}
            Entry::SubBlock(id) => {
                cursor.enter_block(id)?;
                stats.blocks += 1;
            }
            Entry::Record(abbrev) => {
                if cursor.depth() == 0 {
                    return Err(Error::malformed(
                        cursor.location(),
                        "record at the top level of the bitstream",
                    ));
                }
                cursor.read_record(abbrev, &mut record)?;
                stats.records += 1;
                stats.abbreviated_records += u64::from(abbrev != 3);
                stats.operands += record.ops.len() as u64;
                stats.blob_bytes += record.blob.len() as u64;
            }
        }
    }
    Ok(stats)
}
