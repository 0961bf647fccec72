//! An ordered map behind the `Tx` port: the store of tests and of the browser.

use std::collections::BTreeMap;
use std::ops::Bound;

use super::{Direction, KvPair, StoreError, Tx};

/// An in-memory store, for tests and the browser.
#[derive(Debug, Default, Clone)]
pub struct MemStore {
    map: BTreeMap<Vec<u8>, Vec<u8>>,
}

impl MemStore {
    pub fn new() -> MemStore {
        MemStore::default()
    }

    pub fn len(&self) -> usize {
        self.map.len()
    }

    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }

    pub fn iter(&self) -> impl Iterator<Item = (&Vec<u8>, &Vec<u8>)> {
        self.map.iter()
    }
}

impl Tx for MemStore {
    fn get(&mut self, key: &[u8]) -> Result<Option<Vec<u8>>, StoreError> {
        Ok(self.map.get(key).cloned())
    }

    fn put(&mut self, key: &[u8], value: &[u8]) -> Result<(), StoreError> {
        self.map.insert(key.to_vec(), value.to_vec());
        Ok(())
    }

    fn put_new(&mut self, key: &[u8], value: &[u8]) -> Result<(), StoreError> {
        // The claim stores rely on: every core test checks it.
        debug_assert!(
            !self.map.contains_key(key),
            "put_new of a stored key: {}",
            key.escape_ascii()
        );
        self.put(key, value)
    }

    fn delete(&mut self, key: &[u8]) -> Result<(), StoreError> {
        self.map.remove(key);
        Ok(())
    }

    fn scan(
        &mut self,
        start: &[u8],
        end: &[u8],
        dir: Direction,
        limit: usize,
    ) -> Result<Vec<KvPair>, StoreError> {
        if start >= end {
            return Ok(Vec::new());
        }
        let range = self
            .map
            .range::<[u8], _>((Bound::Included(start), Bound::Excluded(end)));
        let clone = |(k, v): (&Vec<u8>, &Vec<u8>)| (k.clone(), v.clone());
        Ok(match dir {
            Direction::Forward => range.take(limit).map(clone).collect(),
            Direction::Reverse => range.rev().take(limit).map(clone).collect(),
        })
    }
}
