//! Reading fixed-width and variable-width (VBR) fields from a little-endian bit stream.
//!
//! LLVM bitstreams are sequences of 32-bit little-endian words read from the least
//! significant bit up, so a field of `n` bits starting at bit `p` is bits `p..p+n` of the
//! byte string taken as one long little-endian integer. [`BitReader::read`] loads the eight
//! bytes around the position as one `u64` and shifts, so a field costs one bounds check and
//! one or two loads; nothing is buffered and the reader is two words plus the slice.

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

/// `57 / width` for widths 1 to 32: the whole fields of `width` bits one 8-byte load holds
/// from any bit offset (a table, so an array read starts without a division).
const FIELDS_PER_LOAD: [u8; 64] = {
    let mut table = [0u8; 64];
    let mut width = 1;
    while width < 64 {
        table[width] = (57 / width) as u8;
        width += 1;
    }
    table
};

/// A position in a byte slice, read as a bit stream.
#[derive(Clone, Debug)]
pub struct BitReader<'a> {
    data: &'a [u8],
    /// Next bit to read.
    pos: u64,
    /// One past the last readable bit.
    end: u64,
}

impl<'a> BitReader<'a> {
    /// A reader over all of `data`, positioned at bit 0.
    pub fn new(data: &'a [u8]) -> Self {
        BitReader {
            data,
            pos: 0,
            end: (data.len() as u64) * 8,
        }
    }

    /// The bytes being read.
    pub fn data(&self) -> &'a [u8] {
        self.data
    }

    /// The current bit position.
    #[inline]
    pub fn position(&self) -> u64 {
        self.pos
    }

    /// The number of bits in the stream.
    #[inline]
    pub fn len_bits(&self) -> u64 {
        self.end
    }

    /// Bits left to read.
    #[inline]
    pub fn remaining(&self) -> u64 {
        self.end - self.pos
    }

    /// Whether every bit has been read.
    #[inline]
    pub fn at_end(&self) -> bool {
        self.pos >= self.end
    }

    /// Moves to bit `pos`, which must not be past the end.
    pub fn seek(&mut self, pos: u64) -> Result<(), BitError> {
        if pos > self.end {
            return Err(BitError::Eof);
        }
        self.pos = pos;
        Ok(())
    }

    /// Moves to the next multiple of 32 bits (no move when already aligned).
    pub fn align32(&mut self) -> Result<(), BitError> {
        let aligned = (self.pos + 31) & !31;
        self.seek(aligned)
    }

    /// Eight bytes from `byte` as a little-endian word, zero-filled past the end.
    #[inline]
    fn word_at(&self, byte: usize) -> u64 {
        if let Some(chunk) = self.data.get(byte..).and_then(|s| s.first_chunk::<8>()) {
            return u64::from_le_bytes(*chunk);
        }
        let mut buf = [0u8; 8];
        let rest = self.data.get(byte..).unwrap_or_default();
        let n = rest.len().min(8);
        buf[..n].copy_from_slice(&rest[..n]);
        u64::from_le_bytes(buf)
    }

    /// Reads a `width`-bit field (`width <= 64`).
    #[inline]
    pub fn read(&mut self, width: u32) -> Result<u64, BitError> {
        debug_assert!(width <= 64);
        if width == 0 {
            return Ok(0);
        }
        let end = self.pos + u64::from(width);
        if end > self.end {
            return Err(BitError::Eof);
        }
        let byte = (self.pos >> 3) as usize;
        let shift = (self.pos & 7) as u32;
        let low = self.word_at(byte) >> shift;
        let value = if width + shift <= 64 {
            low
        } else {
            // shift > 0 here, so the second word supplies the top `shift` bits.
            low | (self.word_at(byte + 8) << (64 - shift))
        };
        self.pos = end;
        Ok(if width == 64 {
            value
        } else {
            value & ((1u64 << width) - 1)
        })
    }

    /// Reads `count` consecutive `width`-bit fields (`1 <= width <= 32`) and appends
    /// `map(field)` for each to `out`. One 8-byte load supplies `57 / width` fields (7 bytes,
    /// 9 six-bit characters), which is what makes the character arrays of names and strings
    /// cheap. Nothing is appended when the fields run past the end.
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
        let per_load = u64::from(FIELDS_PER_LOAD[(width & 63) as usize]);
        let mut left = count;
        while left > 0 {
            let window = self.word_at((self.pos >> 3) as usize) >> (self.pos & 7);
            let n = per_load.min(left);
            let mut w = window;
            for _ in 0..n {
                out.push(map(w & mask));
                w >>= width;
            }
            self.pos += n * u64::from(width);
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
        let byte = (self.pos >> 3) as usize;
        // Fast path: the value ends within the 57+ bits of one 8-byte load.
        if let Some(chunk) = self.data.get(byte..).and_then(|s| s.first_chunk::<8>()) {
            let shift = (self.pos & 7) as u32;
            let window = u64::from_le_bytes(*chunk) >> shift;
            let piece_mask = (1u64 << width) - 1;
            // Most values fit one chunk.
            let first = window & piece_mask;
            if first & high == 0 {
                self.pos += u64::from(width);
                return Ok(first);
            }
            let available = 64 - shift;
            let mut value = 0u64;
            let mut used = 0u32;
            let mut bit = 0u32;
            while used + width <= available {
                let piece = (window >> used) & piece_mask;
                value |= (piece & (high - 1)) << bit;
                used += width;
                if piece & high == 0 {
                    self.pos += u64::from(used);
                    return Ok(value);
                }
                bit += width - 1;
            }
        }
        self.read_vbr_slow(width)
    }

    /// Fills `out` with consecutive 6-bit VBR values (the operands of an unabbreviated
    /// record). Values of one or two chunks (below 1024: characters, type and value ids) are
    /// taken from an 8-byte window loaded once per 57 or more bits; longer ones, and the
    /// last bytes of the data, go through [`BitReader::read_vbr`].
    #[inline]
    pub fn read_vbr6_into(&mut self, out: &mut [u64]) -> Result<(), BitError> {
        let mut window = 0u64;
        // Bits of `window` that are data, from `pos` on; `pos` is written back to
        // `self.pos` before any other read and at the end.
        let mut avail = 0u64;
        let mut pos = self.pos;
        for slot in out.iter_mut() {
            if avail < 12 {
                let byte = (pos >> 3) as usize;
                match self.data.get(byte..).and_then(|s| s.first_chunk::<8>()) {
                    Some(chunk) => {
                        let shift = pos & 7;
                        window = u64::from_le_bytes(*chunk) >> shift;
                        avail = 64 - shift;
                    }
                    None => {
                        self.pos = pos;
                        *slot = self.read_vbr(6)?;
                        pos = self.pos;
                        continue;
                    }
                }
            }
            let first = window & 63;
            if first & 32 == 0 {
                *slot = first;
                window >>= 6;
                avail -= 6;
                pos += 6;
                continue;
            }
            let second = (window >> 6) & 63;
            if second & 32 == 0 {
                *slot = (first & 31) | (second << 5);
                window >>= 12;
                avail -= 12;
                pos += 12;
                continue;
            }
            self.pos = pos;
            *slot = self.read_vbr(6)?;
            pos = self.pos;
            avail = 0;
        }
        self.pos = pos;
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
