//! [`BlockCache`]: values the converter may reuse within one stretch of straight-line code.

use dxspv_ir::SsaDef;

/// The last `N` values made in the current block under a key (a descriptor load by
/// declaration and index, a constant buffer read by descriptor, address and type), for reuse
/// by a later read of the same thing in the same block. Fixed-size and allocation-free: a
/// lookup scans at most `N` entries, so a long block costs linear time, and when full the
/// oldest entry is replaced (a miss only makes the value again, never a wrong one).
#[derive(Clone, Debug)]
pub(crate) struct BlockCache<K: Copy + Eq, const N: usize> {
    entries: [Option<(K, SsaDef)>; N],
    /// The slot the next insertion takes.
    next: usize,
    /// How many slots (from the first) hold an entry.
    len: usize,
}

impl<K: Copy + Eq, const N: usize> Default for BlockCache<K, N> {
    fn default() -> Self {
        BlockCache {
            entries: [None; N],
            next: 0,
            len: 0,
        }
    }
}

impl<K: Copy + Eq, const N: usize> BlockCache<K, N> {
    /// The value remembered under `key`.
    #[inline]
    pub(crate) fn get(&self, key: K) -> Option<SsaDef> {
        self.entries
            .get(..self.len)?
            .iter()
            .flatten()
            .find(|(k, _)| *k == key)
            .map(|&(_, v)| v)
    }

    /// Remembers `value` under `key` (replacing the oldest entry when full).
    #[inline]
    pub(crate) fn put(&mut self, key: K, value: SsaDef) {
        if let Some(e) = self.entries.get_mut(self.next) {
            *e = Some((key, value));
        }
        self.next = (self.next + 1) % N.max(1);
        self.len = (self.len + 1).min(N);
    }

    /// Whether nothing is remembered.
    #[inline]
    pub(crate) fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Forgets everything (the block ended).
    #[inline]
    pub(crate) fn clear(&mut self) {
        self.next = 0;
        self.len = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn def(i: u32) -> SsaDef {
        SsaDef::new(i).unwrap()
    }

    #[test]
    fn remembers_until_cleared_and_evicts_the_oldest() {
        let mut c: BlockCache<u32, 2> = BlockCache::default();
        assert!(c.is_empty());
        assert_eq!(c.get(1), None);
        c.put(1, def(10));
        c.put(2, def(20));
        assert_eq!((c.get(1), c.get(2)), (Some(def(10)), Some(def(20))));
        // Full: the third entry replaces the first.
        c.put(3, def(30));
        assert_eq!(
            (c.get(1), c.get(2), c.get(3)),
            (None, Some(def(20)), Some(def(30)))
        );
        c.clear();
        assert!(c.is_empty());
        assert_eq!((c.get(2), c.get(3)), (None, None));
    }
}
