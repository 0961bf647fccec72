//! ObjectId-layout identifiers: 4 bytes of seconds, 5 random bytes per service instance, a 3-byte counter.

use std::sync::atomic::{AtomicU32, Ordering};

use serde::{Deserialize, Serialize};

use crate::env::Env;
use crate::storage::{StoreError, Tx, codec, keys};

pub struct IdGen {
    instance: [u8; 5],
    counter: AtomicU32,
}

impl IdGen {
    pub fn new(env: &dyn Env) -> IdGen {
        let mut seed = [0u8; 8];
        env.fill_random(&mut seed);
        let mut instance = [0u8; 5];
        instance.copy_from_slice(&seed[..5]);
        let counter = u32::from_be_bytes([0, seed[5], seed[6], seed[7]]);
        IdGen {
            instance,
            counter: AtomicU32::new(counter),
        }
    }

    /// The generator whose state is kept in the store, for hosts that run a fresh instance per
    /// request (Spin): ids stay unique and keep sorting by creation across instances. The caller saves
    /// it back with [`IdGen::save`] in the same transaction as the records it named.
    pub fn load(tx: &mut dyn Tx, env: &dyn Env) -> Result<IdGen, StoreError> {
        Ok(match codec::get::<StoredState>(tx, &keys::id_state())? {
            Some(s) => IdGen {
                instance: s.instance,
                counter: AtomicU32::new(s.counter),
            },
            None => IdGen::new(env),
        })
    }

    pub fn save(&self, tx: &mut dyn Tx) -> Result<(), StoreError> {
        let state = StoredState {
            instance: self.instance,
            counter: self.counter.load(Ordering::Relaxed),
        };
        codec::put(tx, &keys::id_state(), &state)
    }

    pub fn counter(&self) -> u32 {
        self.counter.load(Ordering::Relaxed)
    }

    pub fn next(&self, env: &dyn Env) -> String {
        let secs = env.now().seconds().clamp(0, u32::MAX as i64) as u32;
        let count = self.counter.fetch_add(1, Ordering::Relaxed) & 0x00ff_ffff;
        let mut bytes = [0u8; 12];
        bytes[..4].copy_from_slice(&secs.to_be_bytes());
        bytes[4..9].copy_from_slice(&self.instance);
        bytes[9..].copy_from_slice(&count.to_be_bytes()[1..]);
        hex::encode(bytes)
    }
}

#[derive(Serialize, Deserialize)]
struct StoredState {
    instance: [u8; 5],
    counter: u32,
}

impl codec::Record for StoredState {
    const VERSION: u8 = 1;
    const NAME: &'static str = "id state";
}

/// True for a string that can be an id: 24 lowercase hex characters.
pub fn is_valid(id: &str) -> bool {
    id.len() == 24
        && id
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::env::DeterministicEnv;

    #[test]
    fn ids_are_object_ids_that_sort_by_creation() {
        let env = DeterministicEnv::default();
        let ids = IdGen::new(&env);
        let a = ids.next(&env);
        env.advance_millis(1000);
        let b = ids.next(&env);
        let c = ids.next(&env);
        assert!(is_valid(&a) && is_valid(&b));
        assert!(a < b);
        assert_eq!(&a[..8], &format!("{:08x}", env.now().seconds() - 1));
        assert_eq!(&b[8..18], &c[8..18]);
        assert_ne!(b, c);
    }

    #[test]
    fn stored_state_keeps_ids_in_creation_order_across_instances() {
        let env = DeterministicEnv::default();
        let mut store = crate::storage::MemStore::new();
        let mut ids = Vec::new();
        for seed in 0..20 {
            // A fresh instance per request, each with its own randomness, as on Spin.
            let instance_env = DeterministicEnv::new(env.now(), seed);
            let ids_now = IdGen::load(&mut store, &instance_env).unwrap();
            ids.push(ids_now.next(&env));
            ids_now.save(&mut store).unwrap();
        }
        let mut sorted = ids.clone();
        sorted.sort();
        assert_eq!(ids, sorted);
        sorted.dedup();
        assert_eq!(sorted.len(), ids.len());
    }

    #[test]
    fn rejects_non_ids() {
        assert!(!is_valid("abc"));
        assert!(!is_valid("ABCDEFABCDEFABCDEFABCDEF"));
        assert!(!is_valid("zzzzzzzzzzzzzzzzzzzzzzzz"));
    }
}
