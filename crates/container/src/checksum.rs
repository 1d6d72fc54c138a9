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

#[inline(always)]
fn step(f: u32, a: u32, b: u32, k: u32, m: u32, s: u32) -> u32 {
    b.wrapping_add(
        a.wrapping_add(f)
            .wrapping_add(k)
            .wrapping_add(m)
            .rotate_left(s),
    )
}

fn compress(state: &mut [u32; 4], block: &[u8; 64]) {
    let mut m = [0u32; 16];
    for (w, c) in m.iter_mut().zip(block.chunks_exact(4)) {
        *w = u32::from_le_bytes([c[0], c[1], c[2], c[3]]);
    }
    let [mut a, mut b, mut c, mut d] = *state;
    // Written out step by step: every table index is a constant, so each step compiles to a
    // handful of instructions with its constant, message word and rotation folded in (a loop,
    // even an unrolled one, kept the rotation amounts and message indices in tables).
    macro_rules! four_steps {
        ($f:expr, $i:expr) => {
            a = step($f(b, c, d), a, b, K[$i], m[G[$i] as usize], S[$i / 16 * 4]);
            d = step(
                $f(a, b, c),
                d,
                a,
                K[$i + 1],
                m[G[$i + 1] as usize],
                S[$i / 16 * 4 + 1],
            );
            c = step(
                $f(d, a, b),
                c,
                d,
                K[$i + 2],
                m[G[$i + 2] as usize],
                S[$i / 16 * 4 + 2],
            );
            b = step(
                $f(c, d, a),
                b,
                c,
                K[$i + 3],
                m[G[$i + 3] as usize],
                S[$i / 16 * 4 + 3],
            );
        };
    }
    let f = |b: u32, c: u32, d: u32| (b & c) | (!b & d);
    four_steps!(f, 0);
    four_steps!(f, 4);
    four_steps!(f, 8);
    four_steps!(f, 12);
    let g = |b: u32, c: u32, d: u32| (d & b) | (!d & c);
    four_steps!(g, 16);
    four_steps!(g, 20);
    four_steps!(g, 24);
    four_steps!(g, 28);
    let h = |b: u32, c: u32, d: u32| b ^ c ^ d;
    four_steps!(h, 32);
    four_steps!(h, 36);
    four_steps!(h, 40);
    four_steps!(h, 44);
    let i = |b: u32, c: u32, d: u32| c ^ (b | !d);
    four_steps!(i, 48);
    four_steps!(i, 52);
    four_steps!(i, 56);
    four_steps!(i, 60);
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
        if let Ok(block) = <&[u8; 64]>::try_from(chunk) {
            compress(&mut state, block);
        }
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
}
