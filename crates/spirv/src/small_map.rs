//! A deduplication map for the emitter's type and constant tables: the first `N` entries are
//! kept inline and searched linearly (no allocation, no hashing for typical shaders), later
//! ones go to a hash map.

use dxspv_ir::fxhash::FxHashMap;
use smallvec::SmallVec;
use std::hash::Hash;

pub(crate) struct SmallMap<K, V, const N: usize> {
    inline: SmallVec<[(K, V); N]>,
    spill: FxHashMap<K, V>,
}

impl<K, V, const N: usize> Default for SmallMap<K, V, N> {
    fn default() -> Self {
        Self {
            inline: SmallVec::new(),
            spill: FxHashMap::default(),
        }
    }
}

impl<K: Eq + Hash, V: Copy, const N: usize> SmallMap<K, V, N> {
    /// The value stored for `key`.
    #[inline]
    pub fn get(&self, key: &K) -> Option<V> {
        if let Some((_, v)) = self.inline.iter().find(|(k, _)| k == key) {
            return Some(*v);
        }
        if self.spill.is_empty() {
            return None;
        }
        self.spill.get(key).copied()
    }

    /// Stores `value` for `key`, which must not be present yet.
    pub fn insert(&mut self, key: K, value: V) {
        if self.inline.len() < N {
            self.inline.push((key, value));
        } else {
            self.spill.insert(key, value);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spills_past_the_inline_entries() {
        let mut m = SmallMap::<u32, u32, 4>::default();
        for k in 0..20 {
            assert_eq!(m.get(&k), None);
            m.insert(k, k * 10);
        }
        for k in 0..20 {
            assert_eq!(m.get(&k), Some(k * 10));
        }
        assert_eq!(m.get(&20), None);
    }
}
