//! Blocks, abbreviations and records: the structure of an LLVM bitstream.
//!
//! A [`Cursor`] walks a stream entry by entry. [`Cursor::advance`] reads one abbreviation id
//! and returns what it announces: a sub-block, the end of the current block, or a record.
//! Abbreviation definitions (`DEFINE_ABBREV`) and `BLOCKINFO` blocks are consumed inside
//! `advance`, so callers only ever see blocks and records. The caller then enters or skips
//! the sub-block, or reads the record into a reusable [`Record`] buffer.
//!
//! Abbreviations live in two pools of [`AbbrevOp`]s: one for the abbreviations `BLOCKINFO`
//! gives each block id, one stack for abbreviations defined inside the open blocks (popped
//! with the block). Entering a block allocates nothing once the pools have grown.

use smallvec::SmallVec;

use crate::bitstream::bits::{BitError, BitReader};
use crate::bitstream::names::{block, blockinfo};
use crate::error::{Error, Location};

/// Deepest block nesting accepted (LLVM IR needs 3: module, function, constants).
pub const MAX_BLOCK_DEPTH: usize = 32;
/// Most operands in one abbreviation definition.
pub const MAX_ABBREV_OPS: u64 = 256;
/// Most abbreviations defined inside the open blocks, and in `BLOCKINFO`, each.
pub const MAX_ABBREVS: usize = 1 << 16;
/// Most operands in one record (16 Mi): a record's operands are kept as `u64`s, so this
/// bounds the memory one record can take (128 MiB) whatever its encoding packs into a bit.
pub const MAX_RECORD_OPERANDS: u64 = 1 << 24;

/// Abbreviation ids with a fixed meaning.
const END_BLOCK: u64 = 0;
const ENTER_SUBBLOCK: u64 = 1;
const DEFINE_ABBREV: u64 = 2;
const UNABBREV_RECORD: u64 = 3;

/// One operand of an abbreviation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AbbrevOp {
    /// A constant value that takes no bits (zero-width fixed and VBR fields become
    /// `Literal(0)`, as in LLVM).
    Literal(u64),
    /// A fixed-width field of 1 to 64 bits.
    Fixed(u8),
    /// A VBR field with chunks of 2 to 32 bits.
    Vbr(u8),
    /// A VBR6 length followed by that many elements of the next operand's encoding.
    Array,
    /// A 6-bit character (`[a-zA-Z0-9._]`).
    Char6,
    /// A VBR6 byte length, 32-bit alignment, the bytes, 32-bit alignment.
    Blob,
}

impl AbbrevOp {
    /// The fewest bits one value of this encoding takes (for bounding array lengths).
    fn min_bits(self) -> u64 {
        match self {
            AbbrevOp::Literal(_) | AbbrevOp::Array | AbbrevOp::Blob => 0,
            AbbrevOp::Fixed(w) | AbbrevOp::Vbr(w) => u64::from(w),
            AbbrevOp::Char6 => 6,
        }
    }
}

/// An abbreviation: a range of its pool.
#[derive(Clone, Copy, Debug)]
struct Abbrev {
    start: u32,
    len: u32,
}

/// The abbreviations `BLOCKINFO` defines for each block id.
#[derive(Clone, Debug, Default)]
struct BlockInfo {
    ops: Vec<AbbrevOp>,
    /// (block id, its abbreviations): inline up to the 8 a DXIL writer gives a block.
    blocks: Vec<(u32, SmallVec<[Abbrev; 8]>)>,
    /// Index into `blocks` set by the last `SETBID`.
    current: Option<usize>,
}

impl BlockInfo {
    fn index_of(&self, block_id: u32) -> Option<usize> {
        self.blocks.iter().position(|(id, _)| *id == block_id)
    }
}

/// An open block.
#[derive(Clone, Copy, Debug)]
struct Frame {
    block_id: u32,
    /// Abbreviation width of the enclosing block.
    outer_width: u32,
    /// Bit position one past the block's last word.
    end: u64,
    /// First of this block's own abbreviations in `Cursor::local`.
    local_start: usize,
    /// First of their operands in `Cursor::local_ops`.
    ops_start: usize,
    /// Which `BlockInfo::blocks` entry applies, and how many of its abbreviations existed
    /// when the block was entered.
    blockinfo: Option<(usize, usize)>,
}

/// What [`Cursor::advance`] found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Entry {
    /// `ENTER_SUBBLOCK` with this block id; call [`Cursor::enter_block`] or
    /// [`Cursor::skip_block`].
    SubBlock(u32),
    /// `END_BLOCK` (already consumed): the current block is closed.
    EndBlock,
    /// The end of the data (or only zero padding left) at the top level.
    EndOfStream,
    /// A record with this abbreviation id; call [`Cursor::read_record`].
    Record(u32),
}

/// A record read from the stream: the code and operands, in a buffer reused across records.
#[derive(Clone, Debug, Default)]
pub struct Record<'a> {
    /// The record code.
    pub code: u32,
    /// The operands, scalars and array elements alike, in order (the code excluded).
    pub ops: Vec<u64>,
    /// The blob operand's bytes, empty when the abbreviation has none.
    pub blob: &'a [u8],
    /// The abbreviation id the record was read with (3 for unabbreviated records).
    pub abbrev: u32,
    /// Bit offset of the record's abbreviation id.
    pub bit: u64,
}

impl Record<'_> {
    /// An empty buffer.
    pub fn new() -> Self {
        Record::default()
    }

    /// An empty buffer with room for `operands` operands, so that it does not grow while a
    /// stream of small records is read.
    pub fn with_capacity(operands: usize) -> Self {
        Record {
            ops: Vec::with_capacity(operands),
            ..Record::default()
        }
    }

    /// Operand `i`, if present.
    #[inline]
    pub fn op(&self, i: usize) -> Option<u64> {
        self.ops.get(i).copied()
    }

    /// The operands from `start` on, as bytes (each must fit in `u8`), or `None`.
    pub fn bytes_from(&self, start: usize, out: &mut Vec<u8>) -> bool {
        out.clear();
        let ops = self.ops.get(start..).unwrap_or_default();
        if ops.iter().fold(0, |acc, &v| acc | v) > u64::from(u8::MAX) {
            return false;
        }
        out.extend(ops.iter().map(|&v| v as u8));
        true
    }
}

/// A position in a bitstream, with the open blocks and the abbreviations in scope.
#[derive(Clone, Debug)]
pub struct Cursor<'a> {
    bits: BitReader<'a>,
    width: u32,
    frames: Vec<Frame>,
    local_ops: Vec<AbbrevOp>,
    local: Vec<Abbrev>,
    blockinfo: BlockInfo,
    /// Bit offset of the last abbreviation id read, for error locations.
    entry_bit: u64,
}

impl<'a> Cursor<'a> {
    /// A cursor at bit `start` of `data` (after the magic), at the top level.
    pub fn new(data: &'a [u8], start_bit: u64) -> Result<Self, Error> {
        let mut bits = BitReader::new(data);
        bits.seek(start_bit)
            .map_err(|e| Error::malformed(Location::top(start_bit), e.message()))?;
        Ok(Cursor {
            bits,
            width: 2,
            frames: Vec::with_capacity(8),
            // Room for the abbreviations a DXIL module defines, so the pools rarely grow.
            local_ops: Vec::with_capacity(64),
            local: Vec::with_capacity(16),
            blockinfo: BlockInfo {
                ops: Vec::with_capacity(64),
                blocks: Vec::with_capacity(4),
                current: None,
            },
            entry_bit: start_bit,
        })
    }

    /// The id of the innermost open block (`None` at the top level).
    pub fn block_id(&self) -> Option<u32> {
        self.frames.last().map(|f| f.block_id)
    }

    /// Number of open blocks.
    pub fn depth(&self) -> usize {
        self.frames.len()
    }

    /// Bits from the current position to the end of the innermost open block (to the end of
    /// the data at the top level): a bound for sizing what the block's records fill.
    pub fn bits_left_in_block(&self) -> u64 {
        let end = self.frames.last().map_or(self.bits.len_bits(), |f| f.end);
        end.saturating_sub(self.bits.position())
    }

    /// The current bit position.
    pub fn position(&self) -> u64 {
        self.bits.position()
    }

    /// The bytes being read.
    pub fn data(&self) -> &'a [u8] {
        self.bits.data()
    }

    /// Where the cursor is: the innermost block and the last entry read.
    pub fn location(&self) -> Location {
        Location {
            block: self.block_id(),
            record: None,
            bit: self.entry_bit,
        }
    }

    /// An error at the current position.
    fn bit_error(&self, e: BitError) -> Error {
        Error::malformed(
            Location {
                block: self.block_id(),
                record: None,
                bit: self.bits.position(),
            },
            e.message(),
        )
    }

    fn err(&self, message: impl Into<String>) -> Error {
        Error::malformed(self.location(), message)
    }

    #[inline]
    fn read(&mut self, width: u32) -> Result<u64, Error> {
        self.bits.read(width).map_err(|e| self.bit_error(e))
    }

    #[inline]
    fn vbr(&mut self, width: u32) -> Result<u64, Error> {
        self.bits.read_vbr(width).map_err(|e| self.bit_error(e))
    }

    /// Reads the next entry. Abbreviation definitions and `BLOCKINFO` blocks are consumed
    /// here. At the top level, the end of the data (or only zero padding left) is
    /// [`Entry::EndOfStream`].
    #[inline]
    pub fn advance(&mut self) -> Result<Entry, Error> {
        // Inside a block most entries are records: those return without leaving the caller.
        if !self.frames.is_empty() {
            if let Some(entry) = self.read_entry()? {
                return Ok(entry);
            }
        }
        self.advance_slow()
    }

    /// Reads one abbreviation id at the current position: a record returns at once, a
    /// control entry goes through [`Cursor::control_entry`] (`None` when it consumed it).
    #[inline(always)]
    fn read_entry(&mut self) -> Result<Option<Entry>, Error> {
        self.entry_bit = self.bits.position();
        let id = self.read(self.width)?;
        if id > DEFINE_ABBREV {
            return Ok(Some(Entry::Record(id as u32)));
        }
        self.control_entry(id)
    }

    /// [`Cursor::advance`] from the top level, or after an entry it consumed.
    #[inline(never)]
    fn advance_slow(&mut self) -> Result<Entry, Error> {
        loop {
            if self.frames.is_empty() && self.only_padding_left() {
                return Ok(Entry::EndOfStream);
            }
            if let Some(entry) = self.read_entry()? {
                return Ok(entry);
            }
        }
    }

    /// The entry of a control abbreviation id (0 to 2), or `None` when it was consumed
    /// here (`DEFINE_ABBREV`, a `BLOCKINFO` block).
    #[inline(never)]
    fn control_entry(&mut self, id: u64) -> Result<Option<Entry>, Error> {
        match id {
            END_BLOCK => {
                self.end_block()?;
                Ok(Some(Entry::EndBlock))
            }
            ENTER_SUBBLOCK => {
                let block_id = self.vbr(8)?;
                let block_id = u32::try_from(block_id)
                    .map_err(|_| self.err(format!("block id {block_id} does not fit 32 bits")))?;
                if block_id == block::BLOCKINFO {
                    self.read_blockinfo_block()?;
                    return Ok(None);
                }
                Ok(Some(Entry::SubBlock(block_id)))
            }
            _ => {
                self.define_abbrev()?;
                Ok(None)
            }
        }
    }

    fn only_padding_left(&self) -> bool {
        let pos = self.bits.position();
        if pos >= self.bits.len_bits() {
            return true;
        }
        // Trailing zero words after the last top-level block (LLVM stops at the module).
        pos % 32 == 0
            && self
                .data()
                .get((pos / 8) as usize..)
                .is_some_and(|rest| rest.iter().all(|&b| b == 0))
    }

    fn end_block(&mut self) -> Result<(), Error> {
        let Some(frame) = self.frames.pop() else {
            return Err(self.err("END_BLOCK at the top level"));
        };
        self.bits.align32().map_err(|e| self.bit_error(e))?;
        if self.bits.position() != frame.end {
            let at = self.bits.position();
            self.frames.push(frame);
            return Err(self.err(format!(
                "block ends at bit {at}, but its length word says bit {}",
                frame.end
            )));
        }
        self.width = frame.outer_width;
        self.local.truncate(frame.local_start);
        self.local_ops.truncate(frame.ops_start);
        Ok(())
    }

    /// Reads the header of the sub-block announced by [`Entry::SubBlock`]: the new
    /// abbreviation width, 32-bit alignment and the length word. Returns the bit position
    /// where the block ends.
    fn block_header(&mut self) -> Result<(u32, u64), Error> {
        let width = self.vbr(4)?;
        if !(1..=32).contains(&width) {
            return Err(self.err(format!("abbreviation width {width} (must be 1 to 32)")));
        }
        self.bits.align32().map_err(|e| self.bit_error(e))?;
        let words = self.read(32)?;
        let end = self.bits.position() + words * 32;
        if end > self.bits.len_bits() {
            return Err(self.err(format!(
                "block of {words} words runs past the end of the bitcode"
            )));
        }
        Ok((width as u32, end))
    }

    /// Enters the sub-block `block_id` just announced by [`Cursor::advance`].
    pub fn enter_block(&mut self, block_id: u32) -> Result<(), Error> {
        if self.frames.len() >= MAX_BLOCK_DEPTH {
            return Err(Error::Limit {
                location: self.location(),
                what: "block nesting depth",
                limit: MAX_BLOCK_DEPTH as u64,
            });
        }
        let (width, end) = self.block_header()?;
        let blockinfo = self
            .blockinfo
            .index_of(block_id)
            .map(|i| (i, self.blockinfo.blocks[i].1.len()));
        self.frames.push(Frame {
            block_id,
            outer_width: self.width,
            end,
            local_start: self.local.len(),
            ops_start: self.local_ops.len(),
            blockinfo,
        });
        self.width = width;
        Ok(())
    }

    /// Skips the sub-block just announced by [`Cursor::advance`] using its length word.
    pub fn skip_block(&mut self) -> Result<(), Error> {
        let (_, end) = self.block_header()?;
        self.bits.seek(end).map_err(|e| self.bit_error(e))
    }

    /// Skips the rest of the current block (it must have been entered) and leaves it.
    pub fn skip_to_block_end(&mut self) -> Result<(), Error> {
        let Some(frame) = self.frames.pop() else {
            return Err(self.err("no block to leave"));
        };
        self.bits.seek(frame.end).map_err(|e| self.bit_error(e))?;
        self.width = frame.outer_width;
        self.local.truncate(frame.local_start);
        self.local_ops.truncate(frame.ops_start);
        Ok(())
    }

    /// Reads one abbreviation operand definition.
    fn abbrev_op(&mut self) -> Result<(AbbrevOp, bool), Error> {
        let literal = self.read(1)? == 1;
        if literal {
            return Ok((AbbrevOp::Literal(self.vbr(8)?), false));
        }
        let encoding = self.read(3)?;
        Ok(match encoding {
            1 | 2 => {
                let width = self.vbr(5)?;
                let vbr = encoding == 2;
                if width == 0 {
                    (AbbrevOp::Literal(0), true)
                } else if !vbr && width <= 64 {
                    (AbbrevOp::Fixed(width as u8), false)
                } else if vbr && (2..=32).contains(&width) {
                    (AbbrevOp::Vbr(width as u8), false)
                } else {
                    let kind = if vbr { "VBR" } else { "fixed" };
                    return Err(self.err(format!("{kind} abbreviation operand of width {width}")));
                }
            }
            3 => (AbbrevOp::Array, false),
            4 => (AbbrevOp::Char6, false),
            5 => (AbbrevOp::Blob, false),
            _ => return Err(self.err(format!("abbreviation operand encoding {encoding}"))),
        })
    }

    /// `DEFINE_ABBREV`: in `BLOCKINFO` it defines an abbreviation for the block named by
    /// the last `SETBID`, anywhere else one for the current block. The operands are read
    /// into their pool directly and dropped again if the definition is invalid.
    fn define_abbrev(&mut self) -> Result<(), Error> {
        let count = self.vbr(5)?;
        if count == 0 || count > MAX_ABBREV_OPS {
            return Err(self.err(format!(
                "abbreviation with {count} operands (must be 1 to {MAX_ABBREV_OPS})"
            )));
        }
        let in_blockinfo = self.block_id() == Some(block::BLOCKINFO);
        if in_blockinfo {
            if self.blockinfo.current.is_none() {
                return Err(self.err("DEFINE_ABBREV in BLOCKINFO before any SETBID"));
            }
            if self.blockinfo.ops.len() + count as usize > MAX_ABBREVS * 4 {
                return Err(self.limit("abbreviations in BLOCKINFO", MAX_ABBREVS));
            }
        } else if self.local.len() >= MAX_ABBREVS {
            return Err(self.limit("abbreviations in the open blocks", MAX_ABBREVS));
        }
        let mut pool = std::mem::take(if in_blockinfo {
            &mut self.blockinfo.ops
        } else {
            &mut self.local_ops
        });
        let start = pool.len();
        let read = self.read_abbrev_ops(count, &mut pool);
        let valid = read.and_then(|()| self.check_abbrev(pool.get(start..).unwrap_or_default()));
        if valid.is_err() {
            pool.truncate(start);
        }
        let len = pool.len() - start;
        if in_blockinfo {
            self.blockinfo.ops = pool;
        } else {
            self.local_ops = pool;
        }
        valid?;
        let abbrev = Abbrev {
            start: start as u32,
            len: len as u32,
        };
        if in_blockinfo {
            let Some(current) = self.blockinfo.current else {
                return Err(self.err("DEFINE_ABBREV in BLOCKINFO before any SETBID"));
            };
            let list = &mut self.blockinfo.blocks[current].1;
            if list.len() >= MAX_ABBREVS {
                return Err(self.limit("abbreviations in BLOCKINFO", MAX_ABBREVS));
            }
            list.push(abbrev);
        } else {
            self.local.push(abbrev);
        }
        Ok(())
    }

    /// Reads `count` abbreviation operand definitions onto `pool`.
    fn read_abbrev_ops(&mut self, count: u64, pool: &mut Vec<AbbrevOp>) -> Result<(), Error> {
        for _ in 0..count {
            let op = self.abbrev_op()?.0;
            pool.push(op);
        }
        Ok(())
    }

    /// Checks the shape of an abbreviation's operands.
    fn check_abbrev(&self, ops: &[AbbrevOp]) -> Result<(), Error> {
        for (i, op) in ops.iter().enumerate() {
            match op {
                AbbrevOp::Array => {
                    if i + 2 != ops.len() {
                        return Err(self.err("array operand is not the second to last"));
                    }
                    if !matches!(
                        ops[i + 1],
                        AbbrevOp::Fixed(_) | AbbrevOp::Vbr(_) | AbbrevOp::Char6
                    ) {
                        return Err(self.err("array element is not a fixed, VBR or char6 encoding"));
                    }
                }
                AbbrevOp::Blob if i == 0 => {
                    return Err(self.err("abbreviation starts with a blob"));
                }
                _ => {}
            }
        }
        if matches!(ops.first(), Some(AbbrevOp::Array)) {
            return Err(self.err("abbreviation starts with an array"));
        }
        Ok(())
    }

    fn limit(&self, what: &'static str, limit: usize) -> Error {
        Error::Limit {
            location: self.location(),
            what,
            limit: limit as u64,
        }
    }

    /// Reads the `BLOCKINFO` block (its `ENTER_SUBBLOCK` id already read). As in LLVM, only
    /// the first `BLOCKINFO` block that defines anything counts; later ones are skipped.
    fn read_blockinfo_block(&mut self) -> Result<(), Error> {
        if !self.blockinfo.blocks.is_empty() {
            return self.skip_block();
        }
        self.enter_block(block::BLOCKINFO)?;
        let mut record = Record::new();
        loop {
            match self.advance()? {
                Entry::EndBlock => break,
                Entry::EndOfStream => return Err(self.err("BLOCKINFO block not closed")),
                Entry::SubBlock(_) => self.skip_block()?,
                Entry::Record(abbrev) => {
                    self.read_record(abbrev, &mut record)?;
                    if record.code == blockinfo::SETBID {
                        let Some(id) = record.op(0).and_then(|v| u32::try_from(v).ok()) else {
                            return Err(Error::malformed(
                                self.location().with_record(record.code),
                                "SETBID without a 32-bit block id",
                            ));
                        };
                        let index = match self.blockinfo.index_of(id) {
                            Some(i) => i,
                            None => {
                                self.blockinfo.blocks.push((id, SmallVec::new()));
                                self.blockinfo.blocks.len() - 1
                            }
                        };
                        self.blockinfo.current = Some(index);
                    }
                    // BLOCKNAME and SETRECORDNAME only name things for dump tools.
                }
            }
        }
        self.blockinfo.current = None;
        Ok(())
    }

    /// Abbreviation `id` of the current block, and whether it lives in the BLOCKINFO pool.
    #[inline]
    fn abbrev(&self, id: u32) -> Option<(bool, Abbrev)> {
        let frame = self.frames.last()?;
        let index = (id as usize).checked_sub(4)?;
        if let Some((bi, count)) = frame.blockinfo {
            if index < count {
                return Some((true, *self.blockinfo.blocks.get(bi)?.1.get(index)?));
            }
            return Some((false, *self.local.get(frame.local_start + index - count)?));
        }
        Some((false, *self.local.get(frame.local_start + index)?))
    }

    /// Reads the record announced by [`Entry::Record`] into `record`.
    pub fn read_record(&mut self, abbrev_id: u32, record: &mut Record<'a>) -> Result<(), Error> {
        record.blob = &[];
        record.abbrev = abbrev_id;
        record.bit = self.entry_bit;
        if u64::from(abbrev_id) == UNABBREV_RECORD {
            let code = self.vbr(6)?;
            record.code = u32::try_from(code)
                .map_err(|_| self.err(format!("record code {code} does not fit 32 bits")))?;
            let count = self.vbr(6)?;
            if count > MAX_RECORD_OPERANDS {
                return Err(self.limit("operands in one record", MAX_RECORD_OPERANDS as usize));
            }
            // `count * 6 > remaining` is `count > remaining / 6` without a division
            // (`count` is bounded above, so the product fits).
            if count * 6 > self.bits.remaining() {
                return Err(Error::malformed(
                    self.location().with_record(record.code),
                    format!("{count} operands cannot fit in the rest of the bitcode"),
                ));
            }
            // Every slot is overwritten: only grown slots are zeroed first.
            record.ops.truncate(count as usize);
            record.ops.resize(count as usize, 0);
            if let Err(e) = self.bits.read_vbr6_into(&mut record.ops) {
                record.ops.clear();
                return Err(self.bit_error(e));
            }
            return Ok(());
        }
        record.ops.clear();
        let Some((from_blockinfo, abbrev)) = self.abbrev(abbrev_id) else {
            return Err(self.err(format!("undefined abbreviation id {abbrev_id}")));
        };
        let pool = if from_blockinfo {
            &self.blockinfo.ops
        } else {
            &self.local_ops
        };
        let start = abbrev.start as usize;
        let Some(ops) = pool.get(start..start + abbrev.len as usize) else {
            return Err(self.err("abbreviation operand out of range"));
        };
        let data = self.bits.data();
        match read_abbreviated(&mut self.bits, ops, data, record) {
            Ok(()) => Ok(()),
            Err(RecordError::Bits(e)) => Err(self.bit_error(e)),
            Err(RecordError::Limit) => {
                Err(self.limit("operands in one record", MAX_RECORD_OPERANDS as usize))
            }
            Err(RecordError::Message(m)) => Err(self.err(m)),
        }
    }
}

/// Why reading an abbreviated record failed; the cursor adds the location.
enum RecordError {
    /// A field could not be read.
    Bits(BitError),
    /// More operands than [`MAX_RECORD_OPERANDS`].
    Limit,
    /// Anything else.
    Message(String),
}

impl From<BitError> for RecordError {
    fn from(e: BitError) -> Self {
        RecordError::Bits(e)
    }
}

/// The characters of the 6-bit `Char6` encoding, by value.
const CHAR6: &[u8; 64] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._";

/// One scalar operand of an abbreviation.
#[inline(always)]
fn read_scalar(bits: &mut BitReader<'_>, op: AbbrevOp) -> Result<u64, RecordError> {
    Ok(match op {
        AbbrevOp::Literal(v) => v,
        AbbrevOp::Fixed(w) => bits.read(u32::from(w))?,
        AbbrevOp::Vbr(w) => bits.read_vbr(u32::from(w))?,
        AbbrevOp::Char6 => u64::from(CHAR6[(bits.read(6)? & 63) as usize]),
        AbbrevOp::Array | AbbrevOp::Blob => {
            return Err(RecordError::Message(
                "array or blob used as a scalar".into(),
            ))
        }
    })
}

/// Reads the operands of an abbreviated record with abbreviation `ops` (checked when it was
/// defined: an array is second to last and its element a scalar encoding).
fn read_abbreviated<'a>(
    bits: &mut BitReader<'a>,
    ops: &[AbbrevOp],
    data: &'a [u8],
    record: &mut Record<'a>,
) -> Result<(), RecordError> {
    let Some((&first, rest)) = ops.split_first() else {
        return Err(RecordError::Message("empty abbreviation".into()));
    };
    let code = read_scalar(bits, first)?;
    record.code = u32::try_from(code)
        .map_err(|_| RecordError::Message(format!("record code {code} does not fit 32 bits")))?;
    let mut i = 0;
    while let Some(&op) = rest.get(i) {
        match op {
            AbbrevOp::Array => {
                let elt = rest.get(i + 1).copied().unwrap_or(AbbrevOp::Literal(0));
                let count = bits.read_vbr(6)?;
                if count.saturating_add(record.ops.len() as u64) > MAX_RECORD_OPERANDS {
                    return Err(RecordError::Limit);
                }
                // `count > remaining / width` without a division (a product that
                // overflows is too many elements either way).
                if count.saturating_mul(elt.min_bits().max(1)) > bits.remaining() {
                    return Err(RecordError::Message(format!(
                        "array of {count} elements cannot fit in the rest of the bitcode"
                    )));
                }
                record.ops.reserve(count as usize);
                match elt {
                    AbbrevOp::Fixed(w) if w <= 32 => {
                        bits.read_fixed_array(u32::from(w), count, &mut record.ops, |v| v)?;
                    }
                    AbbrevOp::Char6 => {
                        bits.read_fixed_array(6, count, &mut record.ops, |v| {
                            u64::from(CHAR6[(v & 63) as usize])
                        })?;
                    }
                    AbbrevOp::Fixed(w) => {
                        for _ in 0..count {
                            let v = bits.read(u32::from(w))?;
                            record.ops.push(v);
                        }
                    }
                    AbbrevOp::Vbr(w) => {
                        for _ in 0..count {
                            let v = bits.read_vbr(u32::from(w))?;
                            record.ops.push(v);
                        }
                    }
                    _ => {
                        for _ in 0..count {
                            let v = read_scalar(bits, elt)?;
                            record.ops.push(v);
                        }
                    }
                }
                i += 2;
            }
            AbbrevOp::Blob => {
                let len = bits.read_vbr(6)?;
                bits.align32()?;
                let start = bits.position();
                let Some(nbits) = len.checked_mul(8).filter(|&b| b <= bits.remaining()) else {
                    return Err(RecordError::Message(format!(
                        "blob of {len} bytes runs past the end of the bitcode"
                    )));
                };
                let from = (start / 8) as usize;
                record.blob = data
                    .get(from..from + len as usize)
                    .ok_or_else(|| RecordError::Message("blob out of bounds".into()))?;
                bits.seek(start + nbits)?;
                bits.align32()?;
                i += 1;
            }
            scalar => {
                let v = read_scalar(bits, scalar)?;
                record.ops.push(v);
                i += 1;
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bitstream::open;
    use crate::testing::{AbbrevOp as W, BitWriter};

    /// Code, operands and blob of a record.
    type Read = (u32, Vec<u64>, Vec<u8>);

    fn read_all(bytes: &[u8]) -> Result<Vec<Read>, Error> {
        let mut c = open(bytes)?;
        let mut out = Vec::new();
        let mut rec = Record::new();
        loop {
            match c.advance()? {
                Entry::EndOfStream => return Ok(out),
                Entry::EndBlock => {}
                Entry::SubBlock(id) => c.enter_block(id)?,
                Entry::Record(a) => {
                    c.read_record(a, &mut rec)?;
                    out.push((rec.code, rec.ops.clone(), rec.blob.to_vec()));
                }
            }
        }
    }

    #[test]
    fn unabbreviated_and_abbreviated_records_read_the_same() {
        let mut w = BitWriter::with_magic();
        w.enter_block(8, 3);
        w.record(7, &[1, 2, 300]);
        let a = w.define_abbrev(&[W::Literal(7), W::Fixed(4), W::Vbr(6), W::Array, W::Char6]);
        w.abbrev_record(
            a,
            &[
                7,
                9,
                1000,
                u64::from(b'h'),
                u64::from(b'_'),
                u64::from(b'Z'),
            ],
            &[],
        );
        let b = w.define_abbrev(&[W::Fixed(3), W::Literal(5), W::Blob]);
        w.abbrev_record(b, &[2, 5], b"hello");
        w.record(4, &[]);
        w.end_block();
        let got = read_all(&w.finish()).unwrap();
        assert_eq!(got[0], (7, vec![1, 2, 300], vec![]));
        assert_eq!(got[1], (7, vec![9, 1000, 104, 95, 90], vec![]));
        assert_eq!(got[2], (2, vec![5], b"hello".to_vec()));
        assert_eq!(got[3], (4, vec![], vec![]));
    }

    #[test]
    fn zero_width_fields_are_literal_zeros() {
        let mut w = BitWriter::with_magic();
        w.enter_block(8, 4);
        // Fixed(0) and VBR(0) are written as encodings but read as literal 0.
        w.abbrev_id(2);
        w.vbr(3, 5);
        w.fixed(1, 1);
        w.vbr(6, 8); // literal code 6
        w.fixed(0, 1);
        w.fixed(1, 3);
        w.vbr(0, 5); // Fixed(0)
        w.fixed(0, 1);
        w.fixed(2, 3);
        w.vbr(0, 5); // VBR(0)
        w.abbrev_id(4); // no bits follow: every operand is literal
        w.record(1, &[]);
        w.end_block();
        let got = read_all(&w.finish()).unwrap();
        assert_eq!(got[0], (6, vec![0, 0], vec![]));
        assert_eq!(got[1], (1, vec![], vec![]));
    }

    #[test]
    fn blockinfo_abbreviations_apply_to_later_blocks_of_that_id() {
        let mut w = BitWriter::with_magic();
        w.enter_block(8, 3);
        w.enter_block(0, 2);
        w.record(1, &[11]); // SETBID 11
        w.abbrev_id(2);
        w.abbrev_body(&[W::Fixed(5), W::Vbr(8)]);
        w.end_block();
        w.enter_block(11, 4);
        let a = w.assume_blockinfo_abbrev(&[W::Fixed(5), W::Vbr(8)]);
        let local = w.define_abbrev(&[W::Literal(3), W::Fixed(1)]);
        assert_eq!(local, 5);
        w.abbrev_record(a, &[4, 70000], &[]);
        w.abbrev_record(local, &[3, 1], &[]);
        w.end_block();
        // Another block of id 11 sees the BLOCKINFO abbreviation but not the local one.
        w.enter_block(11, 4);
        let a = w.assume_blockinfo_abbrev(&[W::Fixed(5), W::Vbr(8)]);
        w.abbrev_record(a, &[2, 1], &[]);
        w.abbrev_id(5);
        w.end_block();
        w.end_block();
        let bytes = w.finish();
        let err = read_all(&bytes).unwrap_err();
        let Error::Malformed { location, message } = err else {
            panic!("wrong error")
        };
        assert_eq!(location.block, Some(11));
        assert!(message.contains("undefined abbreviation id 5"), "{message}");
        // Without the last, undefined abbreviation use everything reads.
        let mut w = BitWriter::with_magic();
        w.enter_block(8, 3);
        w.enter_block(0, 2);
        w.record(1, &[11]);
        w.abbrev_id(2);
        w.abbrev_body(&[W::Fixed(5), W::Vbr(8)]);
        w.end_block();
        w.enter_block(11, 4);
        let a = w.assume_blockinfo_abbrev(&[W::Fixed(5), W::Vbr(8)]);
        w.abbrev_record(a, &[4, 70000], &[]);
        w.end_block();
        w.end_block();
        let got = read_all(&w.finish()).unwrap();
        assert_eq!(got, vec![(4, vec![70000], vec![])]);
    }

    #[test]
    fn skipping_a_block_uses_its_length() {
        let mut w = BitWriter::with_magic();
        w.enter_block(8, 3);
        w.enter_block(12, 5);
        w.record(2, &[1, 2, 3]);
        w.end_block();
        w.record(9, &[9]);
        w.end_block();
        let bytes = w.finish();
        let mut c = open(&bytes).unwrap();
        assert_eq!(c.advance().unwrap(), Entry::SubBlock(8));
        c.enter_block(8).unwrap();
        assert_eq!(c.advance().unwrap(), Entry::SubBlock(12));
        c.skip_block().unwrap();
        let mut rec = Record::new();
        let Entry::Record(a) = c.advance().unwrap() else {
            panic!()
        };
        c.read_record(a, &mut rec).unwrap();
        assert_eq!((rec.code, rec.ops.as_slice()), (9, &[9u64][..]));
        assert_eq!(c.advance().unwrap(), Entry::EndBlock);
        assert_eq!(c.advance().unwrap(), Entry::EndOfStream);
    }

    #[test]
    fn malformed_streams_are_errors_naming_the_block() {
        // Truncated inside a block.
        let mut w = BitWriter::with_magic();
        w.enter_block(8, 3);
        w.record(2, &[1, 2, 3]);
        w.end_block();
        let bytes = w.finish();
        let cut = &bytes[..bytes.len() - 4];
        assert!(read_all(cut).is_err());
        // A length word that lies.
        let mut bad = bytes.clone();
        bad[8] = bad[8].wrapping_add(1);
        assert!(read_all(&bad).is_err());
        // An array whose element is itself a literal.
        let mut w = BitWriter::with_magic();
        w.enter_block(8, 3);
        w.abbrev_id(2);
        w.abbrev_body(&[W::Fixed(3), W::Array, W::Literal(1)]);
        w.end_block();
        let err = read_all(&w.finish()).unwrap_err().to_string();
        assert!(
            err.contains("MODULE_BLOCK (8)") && err.contains("array element"),
            "{err}"
        );
        // A VBR of width 1 would carry no value bits.
        let mut w = BitWriter::with_magic();
        w.enter_block(8, 3);
        w.abbrev_id(2);
        w.abbrev_body(&[W::Vbr(1)]);
        w.end_block();
        assert!(read_all(&w.finish())
            .unwrap_err()
            .to_string()
            .contains("VBR"));
        // An unabbreviated record claiming more operands than there are bits.
        let mut w = BitWriter::with_magic();
        w.enter_block(8, 3);
        w.abbrev_id(3);
        w.vbr(1, 6);
        w.vbr(1 << 20, 6);
        w.end_block();
        assert!(read_all(&w.finish())
            .unwrap_err()
            .to_string()
            .contains("cannot fit"));
        // ... and more than a record may have, whatever the input's size.
        let mut w = BitWriter::with_magic();
        w.enter_block(8, 3);
        w.abbrev_id(3);
        w.vbr(1, 6);
        w.vbr(1 << 40, 6);
        w.end_block();
        assert!(matches!(read_all(&w.finish()), Err(Error::Limit { .. })));
        // Nesting beyond the limit.
        let mut w = BitWriter::with_magic();
        for _ in 0..=MAX_BLOCK_DEPTH {
            w.enter_block(8, 3);
        }
        for _ in 0..=MAX_BLOCK_DEPTH {
            w.end_block();
        }
        assert!(matches!(read_all(&w.finish()), Err(Error::Limit { .. })));
    }

    #[test]
    fn arrays_of_zero_width_elements_cannot_be_defined() {
        // Fixed(0) becomes Literal(0), which LLVM refuses as an array element: without that
        // rule a length of 2^40 would cost no bits.
        let mut w = BitWriter::with_magic();
        w.enter_block(8, 3);
        w.abbrev_id(2);
        w.abbrev_body(&[W::Fixed(3), W::Array, W::Fixed(0)]);
        w.end_block();
        assert!(read_all(&w.finish()).is_err());
    }
}
