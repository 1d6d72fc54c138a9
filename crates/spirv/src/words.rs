//! The word emitter: the module sections written while walking the IR, and instruction
//! encoding helpers.

use dxspv_ir::Operand;
use spirv::Op;

/// The section buffers filled while walking the IR, in module order. The sections before
/// them (capabilities through debug names) are only known at the end and are written straight
/// into the final module.
#[derive(Default)]
pub(crate) struct Sections {
    pub annotations: Vec<u32>,
    pub globals: Vec<u32>,
    pub functions: Vec<u32>,
}

impl Sections {
    /// Empties the buffers and sizes them for a module of `ops` IR ops, so that typical
    /// shaders never grow them.
    pub fn reset(&mut self, ops: usize) {
        for (buf, words) in [
            (&mut self.annotations, 16 + ops * 3 / 2),
            (&mut self.globals, 48 + ops * 3),
            (&mut self.functions, 16 + ops * 5),
        ] {
            buf.clear();
            buf.reserve(words);
        }
    }

    /// Words of memory the buffers hold.
    pub fn capacity(&self) -> usize {
        self.annotations.capacity() + self.globals.capacity() + self.functions.capacity()
    }

    /// Total words held.
    pub fn len(&self) -> usize {
        self.annotations.len() + self.globals.len() + self.functions.len()
    }

    /// Appends every section, in order, to `out`.
    pub fn append_to(&self, out: &mut Vec<u32>) {
        out.extend_from_slice(&self.annotations);
        out.extend_from_slice(&self.globals);
        out.extend_from_slice(&self.functions);
    }
}

/// Most words one SPIR-V instruction may have (its word count is 16 bits).
pub(crate) const MAX_INSTRUCTION_WORDS: usize = 0xffff;

/// The first word of an instruction of `words` words: its word count and opcode, or a word
/// count of 0 (never valid) for an instruction too long to encode, which
/// [`first_oversized_instruction`] finds.
#[inline]
fn head(op: u32, words: usize) -> u32 {
    let count = if words <= MAX_INSTRUCTION_WORDS {
        words as u32
    } else {
        0
    };
    (count << 16) | op
}

/// Appends one instruction with fixed operands.
#[inline]
pub(crate) fn inst(buf: &mut Vec<u32>, op: Op, operands: &[u32]) {
    inst_tail(buf, op, [], operands);
}

/// Words of the longest instruction [`inst_tail`] assembles on the stack.
const SHORT_INSTRUCTION_WORDS: usize = 8;

/// Appends one instruction of fixed leading operands `fixed` and a short tail `tail` (the
/// operands of an arithmetic or decoration): assembled on the stack and appended in one copy
/// when it has at most [`SHORT_INSTRUCTION_WORDS`] words, else reserved once and copied.
#[inline(always)]
pub(crate) fn inst_tail<const N: usize>(buf: &mut Vec<u32>, op: Op, fixed: [u32; N], tail: &[u32]) {
    let words = 1 + N + tail.len();
    // An instruction of a few words (nearly all; the length is known where this is inlined)
    // is assembled on the stack and appended in one copy: one capacity check and one length
    // update instead of one per word.
    if words <= SHORT_INSTRUCTION_WORDS {
        let mut w = [0u32; SHORT_INSTRUCTION_WORDS];
        w[0] = head(op as u32, words);
        w[1..1 + N].copy_from_slice(&fixed);
        w[1 + N..words].copy_from_slice(tail);
        buf.extend_from_slice(&w[..words]);
        return;
    }
    buf.reserve(words);
    buf.push(head(op as u32, words));
    buf.extend_from_slice(&fixed);
    for &w in tail {
        buf.push(w);
    }
}

/// Starts an instruction whose operands are pushed afterwards; close it with [`end`].
#[inline]
pub(crate) fn begin(buf: &mut Vec<u32>, op: Op) -> usize {
    buf.push(op as u32);
    buf.len() - 1
}

/// Patches the word count of an instruction opened with [`begin`].
#[inline]
pub(crate) fn end(buf: &mut [u32], start: usize) {
    let len = buf.len() - start;
    if let Some(w) = buf.get_mut(start) {
        *w = head(*w, len);
    }
}

/// The opcode of the first instruction of `module` (header included) that was too long to
/// encode. Only a module of more than [`MAX_INSTRUCTION_WORDS`] words can hold one, so
/// smaller modules are not walked.
pub(crate) fn first_oversized_instruction(module: &[u32]) -> Option<u32> {
    if module.len() <= MAX_INSTRUCTION_WORDS {
        return None;
    }
    let mut i = 5;
    while let Some(&w) = module.get(i) {
        match (w >> 16) as usize {
            0 => return Some(w & 0xffff),
            n => i += n,
        }
    }
    None
}

/// Number of words [`push_str`] appends for `s`.
pub(crate) fn str_words(s: &str) -> usize {
    s.len() / 4 + 1
}

/// Appends a nul-terminated, word-padded literal string.
pub(crate) fn push_str(buf: &mut Vec<u32>, s: &str) {
    let bytes = s.as_bytes();
    for chunk in bytes.chunks(4) {
        let mut w = [0u8; 4];
        w[..chunk.len()].copy_from_slice(chunk);
        buf.push(u32::from_le_bytes(w));
    }
    if bytes.len() % 4 == 0 {
        buf.push(0);
    }
}

/// Appends the string packed in IR literal operands (8 bytes per operand, little-endian,
/// ending at the first zero byte, see [`dxspv_ir::op::decode_string`]) as a SPIR-V literal string,
/// without decoding it. Returns `false`, having appended nothing, if the string is not plain
/// ASCII (the caller then goes through the lossy UTF-8 decoding).
pub(crate) fn push_packed_str(buf: &mut Vec<u32>, lits: &[Operand]) -> bool {
    const LOW: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let start = buf.len();
    for o in lits {
        let w = o.0;
        // The lowest zero byte sets the high bit of its byte (see `packed_str_len`).
        let zero = w.wrapping_sub(LOW) & !w & HIGH;
        if zero != 0 {
            let z = zero.trailing_zeros() / 8;
            // Bytes before the terminator (those after it are padding).
            let text = if z == 0 {
                0
            } else {
                w & (u64::MAX >> (64 - 8 * z))
            };
            if text & HIGH != 0 {
                buf.truncate(start);
                return false;
            }
            buf.push(text as u32);
            if z >= 4 {
                buf.push((text >> 32) as u32);
            }
            return true;
        }
        if w & HIGH != 0 {
            buf.truncate(start);
            return false;
        }
        buf.extend_from_slice(&[w as u32, (w >> 32) as u32]);
    }
    // No terminator in the operands: the string is all of them.
    buf.push(0);
    true
}

/// Bytes of the string packed in IR literal operands (up to the first zero byte).
pub(crate) fn packed_str_len(lits: &[Operand]) -> usize {
    const LOW: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let mut len = 0;
    for o in lits {
        // The lowest byte that is zero sets the high bit of its byte here (bytes above it may
        // be flagged wrongly by the borrow, which does not matter for the lowest).
        let zero = o.0.wrapping_sub(LOW) & !o.0 & HIGH;
        if zero != 0 {
            return len + (zero.trailing_zeros() / 8) as usize;
        }
        len += 8;
    }
    len
}

/// The string packed in IR literal operands, as [`dxspv_ir::op::decode_string`] decodes it,
/// copied a literal at a time.
pub(crate) fn decode_packed_str(lits: &[Operand]) -> String {
    let len = packed_str_len(lits);
    // Whole literals are copied (eight bytes at a time, no copy call), then cut at the end.
    let used = lits.get(..len.div_ceil(8)).unwrap_or(lits);
    let mut bytes = Vec::with_capacity(used.len() * 8);
    for o in used {
        bytes.extend_from_slice(&o.0.to_le_bytes());
    }
    bytes.truncate(len);
    match String::from_utf8(bytes) {
        Ok(s) => s,
        Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
    }
}

/// Whether the string packed in IR literal operands decodes to `s`
/// (`decode_string(lits) == s`), compared without decoding when the string is plain ASCII.
pub(crate) fn packed_str_eq(lits: &[Operand], s: &str) -> bool {
    let want = s.as_bytes();
    let mut at = 0;
    for o in lits {
        for b in o.0.to_le_bytes() {
            if b == 0 {
                return at == want.len();
            }
            if b >= 0x80 {
                // Not ASCII: decoding may replace bytes, so compare what it gives.
                return dxspv_ir::op::decode_string(lits) == s;
            }
            if want.get(at) != Some(&b) {
                return false;
            }
            at += 1;
        }
    }
    at == want.len()
}

/// A set of strings to find among strings packed in IR literal operands without decoding
/// them ([`Self::find`]): an open-addressing hash table of `SLOTS` slots (a power of two,
/// more than the strings) keyed by length and first eight bytes, built at compile time for
/// a `static`. Strings of more than 32 bytes are left out (never found).
pub(crate) struct PackedStrTable<const SLOTS: usize> {
    /// `(length, the string as packed words, the string)`, or `None` for an empty slot.
    slots: [Option<(usize, [u64; 4], &'static str)>; SLOTS],
}

/// Word `i` of `s` as IR literal operands pack it: eight bytes, little-endian, zero past the
/// end of `s`.
const fn str_word(s: &[u8], i: usize) -> u64 {
    let mut w = 0u64;
    let mut b = 0;
    while b < 8 && i * 8 + b < s.len() {
        w |= (s[i * 8 + b] as u64) << (8 * b);
        b += 1;
    }
    w
}

/// The first `n` bytes of a packed literal word (all eight from `n == 8` on), the rest zeroed.
#[inline]
fn low_bytes(w: u64, n: usize) -> u64 {
    if n >= 8 {
        w
    } else {
        w & ((1u64 << (8 * n)) - 1)
    }
}

impl<const SLOTS: usize> PackedStrTable<SLOTS> {
    /// The slot a string of length `len` and first word `first` hashes to.
    #[inline]
    const fn slot(len: usize, first: u64) -> usize {
        ((first ^ len as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 40) as usize % SLOTS
    }

    /// The table of `names` (fewer than `SLOTS`, which is a power of two).
    pub(crate) const fn new(names: &[&'static str]) -> Self {
        let mut slots = [None; SLOTS];
        let mut n = 0;
        while n < names.len() && n + 1 < SLOTS {
            let s = names[n];
            let b = s.as_bytes();
            n += 1;
            if b.len() > 32 {
                continue;
            }
            let words = [
                str_word(b, 0),
                str_word(b, 1),
                str_word(b, 2),
                str_word(b, 3),
            ];
            let mut at = Self::slot(b.len(), words[0]);
            while slots[at].is_some() {
                at = (at + 1) % SLOTS;
            }
            slots[at] = Some((b.len(), words, s));
        }
        Self { slots }
    }

    /// The string of the table that `lits` packs (as [`decode_packed_str`] would decode it),
    /// if it is one.
    pub(crate) fn find(&self, lits: &[Operand]) -> Option<&'static str> {
        const LOW: u64 = 0x0101_0101_0101_0101;
        const HIGH: u64 = 0x8080_8080_8080_8080;
        // Most names end in their first literal: its length and bytes come from one look
        // at it (as `packed_str_len` finds them), the rest only for longer names.
        let (w, rest) = lits.split_first()?;
        let zero = w.0.wrapping_sub(LOW) & !w.0 & HIGH;
        let (len, first) = if zero != 0 {
            let len = (zero.trailing_zeros() / 8) as usize;
            (len, low_bytes(w.0, len))
        } else {
            (8 + packed_str_len(rest), w.0)
        };
        let mut at = Self::slot(len, first);
        for _ in 0..SLOTS {
            let (l, words, s) = self.slots.get(at)?.as_ref()?;
            if *l == len && words[0] == first {
                // The other literals of the name (a table name has at most four).
                for i in 1..len.div_ceil(8) {
                    let (Some(o), Some(w)) = (lits.get(i), words.get(i)) else {
                        return None;
                    };
                    if low_bytes(o.0, len - 8 * i) != *w {
                        return None;
                    }
                }
                return Some(s);
            }
            at = (at + 1) % SLOTS;
        }
        None
    }
}

/// Upper bound of the words [`push_packed_str`] (or the decoding fallback) appends for a
/// string packed in `lits` literal operands.
pub(crate) fn packed_str_words(lits: usize) -> usize {
    2 * lits + 1
}

#[cfg(test)]
mod tests {
    use super::*;

    fn via_packed(s: &str) -> Option<Vec<u32>> {
        let mut ops = dxspv_ir::Operands::new();
        dxspv_ir::op::push_string(&mut ops, s);
        let mut out = Vec::new();
        push_packed_str(&mut out, &ops).then_some(out)
    }

    #[test]
    fn an_instruction_too_long_to_encode_is_found() {
        // A module of small instructions past 65,535 words has none too long.
        let mut module = vec![0x0723_0203, 0x0001_0600, 0, 100, 0];
        while module.len() <= MAX_INSTRUCTION_WORDS {
            inst(&mut module, Op::Nop, &[]);
        }
        assert_eq!(first_oversized_instruction(&module), None);
        // One of 65,535 words is the longest there is; one more word is too long, whether
        // written at once or begun and ended, and its opcode is named.
        let at_limit = vec![0; MAX_INSTRUCTION_WORDS - 1];
        inst(&mut module, Op::ConstantComposite, &at_limit);
        assert_eq!(first_oversized_instruction(&module), None);
        let mut long = module.clone();
        inst(
            &mut long,
            Op::ConstantComposite,
            &[0; MAX_INSTRUCTION_WORDS],
        );
        assert_eq!(
            first_oversized_instruction(&long),
            Some(Op::ConstantComposite as u32)
        );
        let start = begin(&mut module, Op::Switch);
        module.extend(std::iter::repeat_n(7, MAX_INSTRUCTION_WORDS));
        end(&mut module, start);
        assert_eq!(
            first_oversized_instruction(&module),
            Some(Op::Switch as u32)
        );
        // A short module is never walked.
        assert_eq!(first_oversized_instruction(&[0; 6]), None);
    }

    #[test]
    fn packed_strings_match_push_str() {
        for s in [
            "",
            "a",
            "abc",
            "abcd",
            "main",
            "exactly8",
            "nine char",
            "cb0_Globals_1234",
        ] {
            let mut want = Vec::new();
            push_str(&mut want, s);
            assert_eq!(via_packed(s), Some(want), "{s:?}");
        }
        assert_eq!(via_packed("caf\u{e9}"), None);
    }

    #[test]
    fn packed_strings_decode_and_compare_as_decode_string_does() {
        let mut cases: Vec<Vec<Operand>> = Vec::new();
        for s in [
            "",
            "a",
            "abc",
            "abcdefg",
            "exactly8",
            "nine char",
            "cb0_Globals_1234",
        ] {
            let mut ops = dxspv_ir::Operands::new();
            dxspv_ir::op::push_string(&mut ops, s);
            cases.push(ops.to_vec());
        }
        // Bytes after a zero, no terminator at all, invalid UTF-8, and a truncated UTF-8
        // sequence whose replacement has the length of the bytes it replaces.
        cases.push(vec![
            Operand(u64::from_le_bytes(*b"ab\0cdefg")),
            Operand(0x4142),
        ]);
        cases.push(vec![Operand(u64::from_le_bytes(*b"abcdefgh"))]);
        cases.push(vec![Operand(u64::from_le_bytes(*b"a\xffb\0\0\0\0\0"))]);
        cases.push(vec![Operand(u64::from_le_bytes(
            *b"\xf0\x9f\x98\0\0\0\0\0",
        ))]);
        cases.push(vec![Operand(u64::from_le_bytes(*b"caf\xc3\xa9\0\0\0"))]);
        cases.push(vec![Operand(0x0080_0000_0000_0041)]);
        cases.push(Vec::new());
        for lits in &cases {
            let want = dxspv_ir::op::decode_string(lits);
            assert_eq!(decode_packed_str(lits), want, "{lits:?}");
            assert_eq!(packed_str_len(lits), {
                let mut n = 0;
                'o: for o in lits {
                    for b in o.0.to_le_bytes() {
                        if b == 0 {
                            break 'o;
                        }
                        n += 1;
                    }
                }
                n
            });
            for s in [
                "",
                "a",
                "ab",
                "abc",
                "exactly8",
                "abcdefgh",
                "\u{fffd}",
                "caf\u{e9}",
                "main",
            ] {
                assert_eq!(packed_str_eq(lits, s), want == s, "{lits:?} {s:?}");
            }
            assert!(packed_str_eq(lits, &want));
        }
    }

    #[test]
    fn packed_strings_stop_at_the_first_zero_byte() {
        let ops = [Operand(u64::from_le_bytes(*b"ab\0cdefg")), Operand(0x4142)];
        let mut out = Vec::new();
        assert!(push_packed_str(&mut out, &ops));
        assert_eq!(out, [u32::from_le_bytes(*b"ab\0\0")]);
        // Bytes past the terminator are padding, whatever they are; a byte past ASCII
        // before it, in either half of a literal, is refused.
        let mut out = Vec::new();
        assert!(push_packed_str(
            &mut out,
            &[Operand(u64::from_le_bytes(*b"abcd\0\xff\xfe\x80"))]
        ));
        assert_eq!(out, [u32::from_le_bytes(*b"abcd"), 0]);
        for bad in [*b"abcd\xe9\0\0\0", *b"a\xe9\0\0\0\0\0\0", *b"abcdefg\xe9"] {
            let mut out = vec![7];
            assert!(!push_packed_str(
                &mut out,
                &[Operand(u64::from_le_bytes(bad))]
            ));
            assert_eq!(out, [7]);
        }
        let unterminated = [Operand(u64::from_le_bytes(*b"abcdefgh"))];
        let mut out = Vec::new();
        assert!(push_packed_str(&mut out, &unterminated));
        assert_eq!(out.len(), 3);
        assert_eq!(out[2], 0);
    }
}
