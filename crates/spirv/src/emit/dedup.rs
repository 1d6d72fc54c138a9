//! [`IdTable`]: the tables that deduplicate declarations (types, pointer types, constants)
//! by key, giving the SPIR-V id declared for a key.
//!
//! A module declares a handful of types and constants, so the entries live in a vector and
//! are searched linearly, which costs no hashing (the module and its tables are kept from
//! one compile to the next, so the vector is not allocated again either). A declaration is looked
//! up once: the caller declares what [`IdTable::get`] did not find and adds it with
//! [`IdTable::insert_new`], which does not search again. Hostile programs can declare
//! thousands: past [`INDEX_AT`] entries they move into a hash map, so lookups stay O(1).

use dxspv_ir::fxhash::FxHashMap;
use std::hash::Hash;

/// Entries from which the table is a hash map.
const INDEX_AT: usize = 16;

/// Ids by key: a vector of entries while few, a hash map past [`INDEX_AT`].
pub(super) struct IdTable<K> {
    /// The entries while there are at most [`INDEX_AT`] (then empty).
    entries: Vec<(K, u32)>,
    /// Every entry, once there are more than [`INDEX_AT`].
    index: Option<FxHashMap<K, u32>>,
}

impl<K> Default for IdTable<K> {
    fn default() -> Self {
        IdTable {
            entries: Vec::new(),
            index: None,
        }
    }
}

impl<K: Eq + Hash> IdTable<K> {
    /// The id of `key`.
    #[inline]
    pub(super) fn get(&self, key: &K) -> Option<u32> {
        match &self.index {
            // Newest first: a declaration is most often asked for again right after it was
            // made (the components of a splat, the type of the value just declared).
            None => self
                .entries
                .iter()
                .rev()
                .find(|(k, _)| k == key)
                .map(|&(_, id)| id),
            Some(index) => index.get(key).copied(),
        }
    }

    /// Empties the table (a hash map it grew is dropped: hostile programs only make one).
    pub(super) fn clear(&mut self) {
        self.entries.clear();
        self.index = None;
    }

    /// Adds `key` with `id`; `key` must not be in the table ([`Self::get`] found nothing).
    #[inline]
    pub(super) fn insert_new(&mut self, key: K, id: u32) {
        match &mut self.index {
            None => {
                self.entries.push((key, id));
                if self.entries.len() > INDEX_AT {
                    self.index = Some(self.entries.drain(..).collect());
                }
            }
            Some(index) => {
                index.insert(key, id);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inline_and_hashed_tables_find_every_key() {
        let mut t: IdTable<(u32, u64)> = IdTable::default();
        for i in 0..100u32 {
            let key = (i % 7, u64::from(i) * 1_000_003);
            assert_eq!(t.get(&key), None);
            t.insert_new(key, i + 1);
            for j in 0..=i {
                assert_eq!(t.get(&(j % 7, u64::from(j) * 1_000_003)), Some(j + 1));
            }
            assert_eq!(t.get(&(99, 0)), None);
            assert_eq!(t.index.is_some(), i as usize >= INDEX_AT);
        }
    }
}
