//! [`SmallMap`]: a map for the small tables of frontends and backends (a converter's registers
//! and bindings, an emitter's types and constants).
//!
//! A shader declares a handful of registers, resources and types, so most tables hold fewer
//! than ten entries: they live inline and are searched linearly, which costs neither an
//! allocation nor hashing. Hostile programs can declare thousands; past [`INDEX_AT`] entries a
//! hash index is built so that lookups stay O(1).

use std::hash::Hash;

use crate::fxhash::FxHashMap;
use smallvec::SmallVec;

/// Entries from which lookups go through the hash index.
const INDEX_AT: usize = 16;

/// A map for small key sets: inline entries in insertion order, hashed once it grows.
#[derive(Clone, Debug)]
pub struct SmallMap<K, V, const N: usize> {
    entries: SmallVec<[(K, V); N]>,
    index: Option<FxHashMap<K, usize>>,
}

impl<K, V, const N: usize> Default for SmallMap<K, V, N> {
    fn default() -> Self {
        SmallMap {
            entries: SmallVec::new(),
            index: None,
        }
    }
}

impl<K: Clone + Eq + Hash, V, const N: usize> SmallMap<K, V, N> {
    fn position(&self, key: &K) -> Option<usize> {
        match &self.index {
            Some(index) => index.get(key).copied(),
            None => self.entries.iter().position(|(k, _)| k == key),
        }
    }

    /// The value of `key`.
    #[inline]
    pub fn get(&self, key: &K) -> Option<&V> {
        let i = self.position(key)?;
        self.entries.get(i).map(|(_, v)| v)
    }

    /// Whether `key` has a value.
    #[inline]
    pub fn contains_key(&self, key: &K) -> bool {
        self.position(key).is_some()
    }

    /// Sets the value of `key`, replacing an old one.
    pub fn insert(&mut self, key: K, value: V) {
        let i = self.entries.len();
        if let Some(index) = &mut self.index {
            // One hash and probe: the index's entry for the key.
            match index.entry(key) {
                std::collections::hash_map::Entry::Occupied(o) => {
                    if let Some(e) = self.entries.get_mut(*o.get()) {
                        e.1 = value;
                    }
                }
                std::collections::hash_map::Entry::Vacant(v) => {
                    let key = v.key().clone();
                    v.insert(i);
                    self.entries.push((key, value));
                }
            }
            return;
        }
        if let Some(i) = self.position(&key) {
            if let Some(e) = self.entries.get_mut(i) {
                e.1 = value;
            }
            return;
        }
        self.entries.push((key, value));
        if self.entries.len() > INDEX_AT {
            let index = self
                .entries
                .iter()
                .enumerate()
                .map(|(i, (k, _))| (k.clone(), i))
                .collect();
            self.index = Some(index);
        }
    }

    /// The keys, in insertion order.
    pub fn keys(&self) -> impl Iterator<Item = &K> {
        self.entries.iter().map(|(k, _)| k)
    }

    /// The values, in insertion order.
    pub fn values(&self) -> impl Iterator<Item = &V> {
        self.entries.iter().map(|(_, v)| v)
    }

    /// Removes every entry.
    pub fn clear(&mut self) {
        self.entries.clear();
        self.index = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_and_indexed_maps_agree() {
        let mut m: SmallMap<u32, u32, 4> = SmallMap::default();
        for i in 0..100u32 {
            m.insert(i * 7 % 101, i);
            m.insert(i * 7 % 101, i + 1000);
            for j in 0..=i {
                assert_eq!(m.get(&(j * 7 % 101)), Some(&(j + 1000)));
            }
            assert!(!m.contains_key(&500));
        }
        assert_eq!(m.keys().count(), 100);
        assert_eq!(m.values().filter(|v| **v >= 1000).count(), 100);
        m.clear();
        assert!(m.get(&0).is_none());
        m.insert(3, 4);
        assert_eq!(m.get(&3), Some(&4));
    }
}
