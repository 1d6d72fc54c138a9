//! Reading fixed-width and variable-width (VBR) fields from a little-endian bit stream.
//!
//! LLVM bitstreams are sequences of 32-bit little-endian words read from the least
//! significant bit up, so a field of `n` bits starting at bit `p` is bits `p..p+n` of the
//! byte string taken as one long little-endian integer. [`BitReader`] keeps the next bits in
//! one `u64` buffer, refilled eight bytes at a time (one unaligned load tops it up to 56 or
//! more bits), so a field of up to 56 bits costs a compare, a mask and a shift; only the last
//! bytes of the data take a slower refill. The buffer holds only bits inside the data, so a
//! read past the end is seen as too few buffered bits after a refill.

/// Why a read failed; the caller adds the location.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BitError {
    /// The field runs past the end of the data.
    Eof,
    /// A VBR field encodes a value wider than 64 bits.
    VbrOverflow,
}

impl BitError {
    /// A short description for error messages.
    pub fn message(self) -> &'static str {
        match self {
            BitError::Eof => "unexpected end of the bitstream",
            BitError::VbrOverflow => "VBR value wider than 64 bits",
        }
    }
}

/// Widest field [`BitReader::read`] takes from the buffer in one piece: a refill leaves at
/// least this many bits buffered (unless the data ends first).
const REFILL_BITS: u32 = 56;

/// A position in a byte slice, read as a bit stream.
#[derive(Clone, Debug)]
pub struct BitReader<'a> {
    data: &'a [u8],
    /// Byte offset of the first byte not yet loaded into `buf`.
    next: usize,
    /// Loaded bits not yet read, the next one lowest. Bits above `avail` may hold the
    /// following data bits (a refill ORs the same bits in again) and are never used.
    buf: u64,
    /// How many bits of `buf` are loaded (0 to 64).
    avail: u32,
}

impl<'a> BitReader<'a> {
    /// A reader over all of `data`, positioned at bit 0.
    pub fn new(data: &'a [u8]) -> Self {
        BitReader {
            data,
            next: 0,
            buf: 0,
            avail: 0,
        }
    }

    /// The bytes being read.
    pub fn data(&self) -> &'a [u8] {
        self.data
    }

    /// The current bit position.
    #[inline]
    pub fn position(&self) -> u64 {
        (self.next as u64) * 8 - u64::from(self.avail)
    }

    /// The number of bits in the stream.
    #[inline]
    pub fn len_bits(&self) -> u64 {
        (self.data.len() as u64) * 8
    }

    /// Bits left to read.
    #[inline]
    pub fn remaining(&self) -> u64 {
        self.len_bits() - self.position()
    }

    /// Whether every bit has been read.
    #[inline]
    pub fn at_end(&self) -> bool {
        self.avail == 0 && self.next >= self.data.len()
    }

    /// Moves to bit `pos`, which must not be past the end.
    pub fn seek(&mut self, pos: u64) -> Result<(), BitError> {
        if pos > self.len_bits() {
            return Err(BitError::Eof);
        }
        self.next = (pos >> 3) as usize;
        self.buf = 0;
        self.avail = 0;
        let skip = (pos & 7) as u32;
        if skip > 0 {
            // `pos` is inside the data, so the refill loads its byte.
            self.refill();
            self.consume(skip);
        }
        Ok(())
    }

    /// Moves to the next multiple of 32 bits (no move when already aligned).
    pub fn align32(&mut self) -> Result<(), BitError> {
        let pos = self.position();
        let skip = (pos.wrapping_neg() & 31) as u32;
        if skip == 0 {
            return Ok(());
        }
        if skip <= self.avail {
            self.consume(skip);
            return Ok(());
        }
        self.seek(pos + u64::from(skip))
    }

    /// Drops `n <= avail` buffered bits.
    #[inline(always)]
    fn consume(&mut self, n: u32) {
        debug_assert!(n <= self.avail && n < 64);
        self.buf >>= n;
        self.avail -= n;
    }

    /// Tops the buffer up to at least [`REFILL_BITS`] bits (fewer only at the end of the
    /// data). Needs `avail < 64`.
    #[inline(always)]
    fn refill(&mut self) {
        if let Some(chunk) = self
            .data
            .get(self.next..)
            .and_then(|s| s.first_chunk::<8>())
        {
            self.buf |= u64::from_le_bytes(*chunk) << self.avail;
            // Whole bytes that fit: `avail + 8 * bytes` is `avail | 56` for `avail < 64`.
            self.next += ((63 - self.avail) >> 3) as usize;
            self.avail |= REFILL_BITS;
        } else {
            self.refill_tail();
        }
    }

    /// [`BitReader::refill`] within the last eight bytes of the data.
    #[inline(never)]
    fn refill_tail(&mut self) {
        let rest = self.data.get(self.next..).unwrap_or_default();
        let take = rest.len().min(((64 - self.avail) / 8) as usize);
        if take == 0 {
            return;
        }
        let mut word = [0u8; 8];
        word[..take].copy_from_slice(&rest[..take]);
        self.buf |= u64::from_le_bytes(word) << self.avail;
        self.next += take;
        self.avail += take as u32 * 8;
    }

    /// Reads a `width`-bit field (`width <= 64`); nothing moves when it runs past the end.
    #[inline]
    pub fn read(&mut self, width: u32) -> Result<u64, BitError> {
        debug_assert!(width <= 64);
        if width > REFILL_BITS {
            return self.read_wide(width);
        }
        if self.avail < width {
            self.refill();
            if self.avail < width {
                return Err(BitError::Eof);
            }
        }
        let value = self.buf & ((1u64 << width) - 1);
        // `width` may be 0 (a no-op) but never 64 here.
        self.buf >>= width;
        self.avail -= width;
        Ok(value)
    }

    /// [`BitReader::read`] of 57 to 64 bits: two pieces.
    #[inline(never)]
    fn read_wide(&mut self, width: u32) -> Result<u64, BitError> {
        if u64::from(width) > self.remaining() {
            return Err(BitError::Eof);
        }
        let low = self.read(32)?;
        let high = self.read(width - 32)?;
        Ok(low | (high << 32))
    }

    /// Reads `count` consecutive `width`-bit fields (`1 <= width <= 32`) and appends
    /// `map(field)` for each to `out`. Each refill supplies `avail / width` fields, which is
    /// what makes the character arrays of names and strings cheap. Nothing is appended when
    /// the fields run past the end.
    #[inline]
    pub fn read_fixed_array(
        &mut self,
        width: u32,
        count: u64,
        out: &mut Vec<u64>,
        map: impl Fn(u64) -> u64,
    ) -> Result<(), BitError> {
        debug_assert!((1..=32).contains(&width));
        let bits = count.checked_mul(u64::from(width)).ok_or(BitError::Eof)?;
        if bits > self.remaining() {
            return Err(BitError::Eof);
        }
        out.reserve(count as usize);
        let mask = (1u64 << width) - 1;
        let mut left = count;
        while left > 0 {
            if self.avail < width {
                self.refill();
            }
            // At least one field is buffered: the bits were checked above.
            let n = u64::from(self.avail / width).min(left);
            let mut w = self.buf;
            for _ in 0..n {
                out.push(map(w & mask));
                w >>= width;
            }
            let used = n as u32 * width;
            // `used` may be 64 (two 32-bit fields): shift in two steps.
            self.buf = (self.buf >> (used / 2)) >> (used - used / 2);
            self.avail -= used;
            left -= n;
        }
        Ok(())
    }

    /// Reads a variable-width integer in chunks of `width` bits (`2 <= width <= 32`): each
    /// chunk holds `width - 1` value bits, low first, and a continuation bit on top.
    #[inline]
    pub fn read_vbr(&mut self, width: u32) -> Result<u64, BitError> {
        debug_assert!((2..=32).contains(&width));
        let high = 1u64 << (width - 1);
        if self.avail < width {
            self.refill();
        }
        // Most values fit one chunk, most others two.
        let mask = (1u64 << width) - 1;
        let first = self.buf & mask;
        if first & high == 0 && self.avail >= width {
            self.consume(width);
            return Ok(first);
        }
        let second = (self.buf >> width) & mask;
        if second & high == 0 && self.avail >= 2 * width {
            self.buf = (self.buf >> width) >> width;
            self.avail -= 2 * width;
            return Ok((first & (high - 1)) | (second << (width - 1)));
        }
        self.read_vbr_multi(width)
    }

    /// [`BitReader::read_vbr`] of a value of several chunks: taken from the buffer when it
    /// ends there, else chunk by chunk.
    #[inline(never)]
    fn read_vbr_multi(&mut self, width: u32) -> Result<u64, BitError> {
        if self.avail < REFILL_BITS {
            self.refill();
        }
        let high = 1u64 << (width - 1);
        let piece_mask = (1u64 << width) - 1;
        let mut window = self.buf;
        let mut value = 0u64;
        let mut used = 0u32;
        let mut bit = 0u32;
        // At most 64 / width chunks of width - 1 value bits: no overflow possible here.
        while used + width <= self.avail {
            let piece = window & piece_mask;
            window >>= width;
            value |= (piece & (high - 1)) << bit;
            used += width;
            if piece & high == 0 {
                self.buf = window;
                self.avail -= used;
                return Ok(value);
            }
            bit += width - 1;
        }
        self.read_vbr_slow(width)
    }

    /// Fills `out` with consecutive 6-bit VBR values (the operands of an unabbreviated
    /// record). Values of one or two chunks (below 1024: characters, type and value ids) are
    /// taken straight from the buffer, kept in locals for the loop (stores to `out` could
    /// otherwise alias the reader's fields for the compiler); longer ones, and the last
    /// bytes of the data, go through [`BitReader::read_vbr`].
    #[inline]
    pub fn read_vbr6_into(&mut self, out: &mut [u64]) -> Result<(), BitError> {
        let data = self.data;
        let (mut buf, mut avail, mut next) = (self.buf, self.avail, self.next);
        for slot in out.iter_mut() {
            if avail < 12 {
                if let Some(chunk) = data.get(next..).and_then(|s| s.first_chunk::<8>()) {
                    buf |= u64::from_le_bytes(*chunk) << avail;
                    next += ((63 - avail) >> 3) as usize;
                    avail |= REFILL_BITS;
                } else {
                    (self.buf, self.avail, self.next) = (buf, avail, next);
                    *slot = self.read_vbr(6)?;
                    (buf, avail, next) = (self.buf, self.avail, self.next);
                    continue;
                }
            }
            let first = buf & 63;
            if first & 32 == 0 {
                *slot = first;
                buf >>= 6;
                avail -= 6;
                continue;
            }
            let second = (buf >> 6) & 63;
            if second & 32 == 0 {
                *slot = (first & 31) | (second << 5);
                buf >>= 12;
                avail -= 12;
                continue;
            }
            // Three or more chunks (32-bit float bits, large integers): walk the buffer,
            // topped up first, when the value ends inside it.
            if avail < REFILL_BITS {
                if let Some(chunk) = data.get(next..).and_then(|s| s.first_chunk::<8>()) {
                    buf |= u64::from_le_bytes(*chunk) << avail;
                    next += ((63 - avail) >> 3) as usize;
                    avail |= REFILL_BITS;
                }
            }
            let mut value = (first & 31) | ((second & 31) << 5);
            let mut rest = buf >> 12;
            let mut used = 12;
            let mut bit = 10;
            // At most 64 / 6 chunks of 5 value bits: no overflow possible here.
            let ended = loop {
                if used + 6 > avail {
                    break false;
                }
                let piece = rest & 63;
                rest >>= 6;
                value |= (piece & 31) << bit;
                used += 6;
                if piece & 32 == 0 {
                    break true;
                }
                bit += 5;
            };
            if ended {
                *slot = value;
                buf = rest;
                avail -= used;
                continue;
            }
            (self.buf, self.avail, self.next) = (buf, avail, next);
            *slot = self.read_vbr(6)?;
            (buf, avail, next) = (self.buf, self.avail, self.next);
        }
        (self.buf, self.avail, self.next) = (buf, avail, next);
        Ok(())
    }

    /// [`BitReader::read_vbr`] one chunk at a time, with overflow checks.
    fn read_vbr_slow(&mut self, width: u32) -> Result<u64, BitError> {
        let high = 1u64 << (width - 1);
        let mut piece = self.read(width)?;
        if piece & high == 0 {
            return Ok(piece);
        }
        let mask = high - 1;
        let mut value = 0u64;
        let mut shift = 0u32;
        loop {
            let bits = piece & mask;
            if bits != 0 {
                if shift >= 64 || (shift > 0 && bits >> (64 - shift) != 0) {
                    return Err(BitError::VbrOverflow);
                }
                value |= bits << shift;
            }
            if piece & high == 0 {
                return Ok(value);
            }
            shift += width - 1;
            if shift >= 64 + width {
                // Only zero chunks can follow a full value; a run this long is corrupt.
                return Err(BitError::VbrOverflow);
            }
            piece = self.read(width)?;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixed_fields_are_read_lsb_first_across_word_boundaries() {
        let data = [0b1010_1101u8, 0xFF, 0x00, 0x80, 1, 2, 3, 4, 5, 6, 7, 8];
        let mut r = BitReader::new(&data);
        assert_eq!(r.read(1), Ok(1));
        assert_eq!(r.read(3), Ok(0b110));
        assert_eq!(r.read(4), Ok(0b1010));
        assert_eq!(r.read(8), Ok(0xFF));
        assert_eq!(r.read(16), Ok(0x8000));
        assert_eq!(r.position(), 32);
        // A 64-bit read straddling two loads.
        r.seek(4).unwrap();
        let expect = u128::from_le_bytes({
            let mut b = [0u8; 16];
            b[..12].copy_from_slice(&data);
            b
        }) >> 4;
        assert_eq!(r.read(64), Ok(expect as u64));
        assert_eq!(r.position(), 68);
    }

    #[test]
    fn fixed_arrays_read_the_same_fields_as_single_reads() {
        let data: Vec<u8> = (0..61u32).map(|i| (i * 37 + 11) as u8).collect();
        for width in [1, 5, 6, 7, 8, 13, 28, 32] {
            for start in [0u64, 3, 7, 9] {
                let count = (data.len() as u64 * 8 - start) / u64::from(width);
                let mut one = BitReader::new(&data);
                one.seek(start).unwrap();
                let want: Vec<u64> = (0..count).map(|_| one.read(width).unwrap() + 1).collect();
                let mut bulk = BitReader::new(&data);
                bulk.seek(start).unwrap();
                let mut got = vec![42];
                bulk.read_fixed_array(width, count, &mut got, |v| v + 1)
                    .unwrap();
                assert_eq!(got[1..], want[..], "width {width} from bit {start}");
                assert_eq!(bulk.position(), one.position());
                // One field more runs past the end: an error, nothing appended.
                bulk.seek(start).unwrap();
                let mut none = Vec::new();
                let r = bulk.read_fixed_array(width, count + 1, &mut none, |v| v);
                assert_eq!((r, none.len()), (Err(BitError::Eof), 0));
            }
        }
    }

    #[test]
    fn mixed_widths_across_refills_match_the_bit_string() {
        // Fields of every width 0 to 64 in a row, from several starts, through refills and
        // the slower refill of the last eight bytes; a seek and an alignment on the way.
        let data: Vec<u8> = (0..83u32).map(|i| (i * 151 + 7) as u8).collect();
        let bit = |p: u64| u64::from(data[(p / 8) as usize] >> (p % 8) & 1);
        let field = |p: u64, w: u32| (0..u64::from(w)).fold(0u64, |v, k| v | bit(p + k) << k);
        for start in [0u64, 1, 13, 31, 60] {
            let mut r = BitReader::new(&data);
            r.seek(start).unwrap();
            let mut p = start;
            let mut w = 0u32;
            loop {
                w = (w + 7) % 65;
                if p + u64::from(w) > data.len() as u64 * 8 {
                    assert_eq!(r.read(w), Err(BitError::Eof));
                    assert_eq!(r.position(), p);
                    break;
                }
                assert_eq!(r.read(w), Ok(field(p, w)), "width {w} at bit {p}");
                p += u64::from(w);
                assert_eq!(
                    (r.position(), r.remaining()),
                    (p, data.len() as u64 * 8 - p)
                );
                if w == 35 {
                    r.align32().unwrap();
                    p = (p + 31) & !31;
                    assert_eq!(r.position(), p);
                }
            }
        }
    }

    #[test]
    fn reads_past_the_end_fail_without_moving() {
        let mut r = BitReader::new(&[0xAB, 0xCD]);
        assert_eq!(r.read(12), Ok(0xDAB));
        assert_eq!(r.read(5), Err(BitError::Eof));
        assert_eq!(r.position(), 12);
        assert_eq!(r.read(4), Ok(0xC));
        assert!(r.at_end());
        assert_eq!(r.read(0), Ok(0));
    }

    #[test]
    fn vbr_values_continue_over_chunks() {
        // 6-bit VBR of 0x1F (fits), then of 100 = 0b1100100: chunk 1 = 1_00100, chunk 2 = 0_00011.
        let mut bits: u64 = 0x1F;
        bits |= (0b100100 | 0b100000) << 6;
        bits |= 0b000011 << 12;
        let data = bits.to_le_bytes();
        let mut r = BitReader::new(&data);
        assert_eq!(r.read_vbr(6), Ok(0x1F));
        assert_eq!(r.read_vbr(6), Ok(100));
        assert_eq!(r.position(), 18);
    }

    #[test]
    fn vbr6_runs_read_the_same_values_as_single_reads() {
        // Values of one, two and more chunks, through the window and past its reloads,
        // up to the last bits of the data.
        let values: Vec<u64> = (0..200u64)
            .map(|i| match i % 7 {
                0 => i % 32,
                1 | 2 => 32 + i * 5,
                3 => 1000 + i * 977,
                4 => u64::MAX - i,
                _ => i * 3 % 1024,
            })
            .collect();
        for lead in [0u32, 1, 5, 7, 13] {
            let mut w = crate::testing::BitWriter::new();
            w.fixed(0, lead);
            for &v in &values {
                w.vbr(v, 6);
            }
            let bytes = w.finish();
            let mut r = BitReader::new(&bytes);
            r.seek(u64::from(lead)).unwrap();
            let mut got = vec![0u64; values.len()];
            r.read_vbr6_into(&mut got).unwrap();
            assert_eq!(got, values, "after {lead} bits");
            let mut one = BitReader::new(&bytes);
            one.seek(u64::from(lead)).unwrap();
            for _ in &values {
                one.read_vbr(6).unwrap();
            }
            assert_eq!(r.position(), one.position());
            // One value more runs past the end.
            let mut r = BitReader::new(&bytes);
            r.seek(u64::from(lead)).unwrap();
            let mut more = vec![0u64; values.len() + 40];
            assert_eq!(r.read_vbr6_into(&mut more), Err(BitError::Eof));
        }
    }

    #[test]
    fn vbr_wider_than_64_bits_is_an_error() {
        // 4-bit chunks carry 3 bits: 22 chunks of 0b1111 give 66 value bits.
        let data = [0xFFu8; 16];
        let mut r = BitReader::new(&data);
        assert_eq!(r.read_vbr(4), Err(BitError::VbrOverflow));
        // u64::MAX itself fits: 21 chunks of 7 plus a last chunk of 1.
        let mut w = crate::testing::BitWriter::new();
        w.vbr(u64::MAX, 4);
        let bytes = w.finish();
        assert_eq!(BitReader::new(&bytes).read_vbr(4), Ok(u64::MAX));
    }

    #[test]
    fn align_moves_to_the_next_word() {
        let data = [0u8; 8];
        let mut r = BitReader::new(&data);
        r.align32().unwrap();
        assert_eq!(r.position(), 0);
        r.read(1).unwrap();
        r.align32().unwrap();
        assert_eq!(r.position(), 32);
        r.read(1).unwrap();
        r.align32().unwrap();
        assert_eq!(r.position(), 64);
        r.read(0).unwrap();
        assert_eq!(BitReader::new(&data[..5]).seek(41), Err(BitError::Eof));
    }
}
