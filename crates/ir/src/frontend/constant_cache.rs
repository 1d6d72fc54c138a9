//! A direct-mapped cache of scalar constants.

use crate::{Builder, ScalarType, SsaDef};

/// Entries of the cache (a power of two).
const ENTRIES: usize = 64;

/// Remembers the last scalar constant made for each of 64 hash slots, so a converter that asks
/// for `0u32` a thousand times hashes it once. The [`Builder`] would return the same def
/// anyway (it deduplicates constants); the cache only skips its hashing of the full type and
/// literal list. A slot holds one constant: a collision evicts, never returns a wrong def.
#[derive(Clone, Debug)]
pub struct ConstantCache {
    slots: [Option<(ScalarType, u64, SsaDef)>; ENTRIES],
}

impl Default for ConstantCache {
    fn default() -> Self {
        ConstantCache {
            slots: [None; ENTRIES],
        }
    }
}

impl ConstantCache {
    /// The scalar constant of type `ty` holding `bits`, made in `b` on a miss.
    #[inline]
    pub fn get(&mut self, b: &mut Builder, ty: ScalarType, bits: u64) -> SsaDef {
        let h = (bits ^ (bits >> 29) ^ ((ty as u64) << 3)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        let slot = (h >> 58) as usize & (ENTRIES - 1);
        if let Some(Some((t, v, d))) = self.slots.get(slot) {
            if *t == ty && *v == bits {
                return *d;
            }
        }
        let d = b.add_scalar_constant(ty, bits);
        if let Some(e) = self.slots.get_mut(slot) {
            *e = Some((ty, bits, d));
        }
        d
    }
}
