//! The PAN uniqueness index under the store's own PAN-index key (ARCHITECTURE.md, "Vault keys"):
//! a rotation writes only the sealed entries, a repeated PAN is refused before and after a rotation
//! and once the old key is removed, and a format-7 store's index (keyed per vault key) is re-keyed
//! by the upgrade, the PANs of cards destroyed before it still refused.

use crate::domain::ids::IdGen;
use crate::domain::vault::{self, Rekeyed, Vault};
use crate::domain::{Scope, rotation, upgrade};
use crate::env::{DeterministicEnv, Env};
use crate::storage::{KvPair, MemStore, Tx, format, keys, scan_prefix};
use crate::write_keys_tests::Tracing;

const OLD: [u8; 32] = [42; 32];
const NEW: [u8; 32] = [7; 32];

/// A store, randomness that can be rewound, and ids drawn from it once (so a rewind replays the
/// same draws in the same order: the PAN first).
struct Fixture {
    store: MemStore,
    env: DeterministicEnv,
    ids: IdGen,
}

impl Fixture {
    fn new() -> Fixture {
        let env = DeterministicEnv::default();
        let ids = IdGen::new(&env);
        let mut store = MemStore::new();
        crate::Service::open_store(&mut store).unwrap();
        Fixture { store, env, ids }
    }

    fn scope(&mut self) -> Scope<'_> {
        Scope {
            tx: &mut self.store,
            client: "alice",
            now: self.env.now(),
            ids: &self.ids,
            env: &self.env,
        }
    }

    /// Issues card `id` and returns its PAN.
    fn issue(&mut self, vault: &Vault, id: &str) -> String {
        vault
            .issue(&mut self.scope(), id, true)
            .unwrap()
            .pan
            .clone()
    }

    fn reveal(&mut self, vault: &Vault, id: &str) -> String {
        vault.reveal(&mut self.scope(), id).unwrap().pan.clone()
    }

    /// A whole rotation to `vault`'s active key, then the other keys retired.
    fn rotate(&mut self, vault: &Vault) {
        while !rotation::step(&mut self.store, &self.env, vault, 2)
            .unwrap()
            .done
        {}
        assert_eq!(
            rotation::left_under_other_keys(&mut self.store, vault).unwrap(),
            0
        );
        vault.retire_others(&mut self.store).unwrap();
    }

    fn index(&mut self) -> Vec<KvPair> {
        scan_prefix(&mut self.store, &keys::pan_indexes()).unwrap()
    }
}

#[test]
fn a_rotation_writes_each_sealed_entry_and_no_pan_index_key() {
    let mut f = Fixture::new();
    let old = Vault::new(&OLD);
    let cards: Vec<String> = (0..5).map(|i| format!("card{i}")).collect();
    let pans: Vec<String> = cards.iter().map(|c| f.issue(&old, c)).collect();
    let index = f.index();
    assert_eq!(index.len(), 5);

    let rotating = Vault::with_keys(&NEW, &[OLD]);
    let mut tx = Tracing::new(&mut f.store);
    let step = rotating.rotate_batch(&mut tx, &f.env, None, 100).unwrap();
    assert_eq!((step.scanned, step.resealed), (5, 5));
    let sealed = keys::sealed_cards();
    let (entries, others): (Vec<_>, Vec<_>) =
        tx.w.keys.iter().partition(|k| k.starts_with(&sealed));
    assert_eq!(entries.len(), 5, "one write per card");
    // Besides them only the record that the new key seals data now; format 7 also deleted and
    // put each card's PAN index entry (two random-position keys per card).
    assert_eq!(
        others,
        vec![&keys::vault_key_in_use(rotating.active_id())],
        "{:?}",
        others
            .iter()
            .map(|k| String::from_utf8_lossy(k))
            .collect::<Vec<_>>()
    );

    // The whole rotation, the PAN-index key included, leaves the index as it was.
    f.rotate(&rotating);
    assert_eq!(f.index(), index);
    let alone = Vault::new(&NEW);
    alone.check_key(&mut f.store).unwrap();
    for (card, pan) in cards.iter().zip(&pans) {
        assert_eq!(&f.reveal(&alone, card), pan);
    }
}

#[test]
fn a_repeated_pan_is_refused_after_a_rotation_and_without_the_old_key() {
    let mut f = Fixture::new();
    let old = Vault::new(&OLD);
    f.issue(&old, "first"); // draws the PAN-index key
    let state = f.env.random_state();
    let taken = f.issue(&old, "taken");
    // The premise: from `state` the first PAN drawn is the taken one.
    f.env.rewind(state);
    assert_eq!(vault::generate_pan(&f.env, true), taken);

    let rotating = Vault::with_keys(&NEW, &[OLD]);
    f.env.rewind(state);
    let during = f.issue(&rotating, "during");
    assert_ne!(during, taken);
    f.rotate(&rotating);
    f.env.rewind(state);
    let after = f.issue(&rotating, "after");
    assert!(after != taken && after != during, "{after}");

    // The old key removed: one lookup under the PAN-index key still finds both.
    let alone = Vault::new(&NEW);
    alone.check_key(&mut f.store).unwrap();
    f.env.rewind(state);
    let without_old = f.issue(&alone, "alone");
    assert!(
        ![&taken, &during, &after].contains(&&without_old),
        "{without_old}"
    );
    assert_eq!(f.reveal(&alone, "taken"), taken);
}

#[test]
fn a_format_7_store_is_re_keyed_to_exactly_what_this_release_writes() {
    let mut f = Fixture::new();
    let old = Vault::new(&OLD);
    let state = f.env.random_state();
    for i in 0..4 {
        f.issue(&old, &format!("card{i}"));
    }
    // Half rotated: cards sealed under two keys, their format-7 entries under each.
    let rotating = Vault::with_keys(&NEW, &[OLD]);
    assert!(
        !rotation::step(&mut f.store, &f.env, &rotating, 2)
            .unwrap()
            .done
    );
    let current = scan_prefix(&mut f.store, &[]).unwrap();

    rotating.index_per_vault_key(&mut f.store).unwrap();
    assert_ne!(scan_prefix(&mut f.store, &[]).unwrap(), current);
    // Opening without the vault keys upgrades no further than format 7, and says so again.
    crate::Service::open_store(&mut f.store).unwrap();
    assert_eq!(
        format::read(&mut f.store).unwrap(),
        Some(format::PAN_INDEX_PER_VAULT_KEY)
    );
    // A server still sealing with the old key (the rotation's new key only configured), its
    // PAN-index key drawn from where the first card drew it: the same key, so the same entries.
    let upgrading = Vault::with_keys(&OLD, &[NEW]);
    f.env.rewind(state);
    let done = upgrade::with_vault(&mut f.store, &f.env, &upgrading).unwrap();
    assert_eq!(
        done,
        Some(Rekeyed {
            cards: 4,
            legacy: 0
        })
    );
    let upgraded = scan_prefix(&mut f.store, &[]).unwrap();
    let show = |kvs: &[KvPair], other: &[KvPair]| -> Vec<String> {
        kvs.iter()
            .filter(|kv| !other.contains(kv))
            .map(|kv| String::from_utf8_lossy(&kv.0).into_owned())
            .collect()
    };
    assert!(
        upgraded == current,
        "missing {:?}, extra {:?}",
        show(&current, &upgraded),
        show(&upgraded, &current)
    );
    // Done once.
    assert_eq!(
        upgrade::with_vault(&mut f.store, &f.env, &upgrading).unwrap(),
        None
    );
}

#[test]
fn a_pan_destroyed_before_the_upgrade_stays_refused() {
    let mut f = Fixture::new();
    let old = Vault::new(&OLD);
    f.issue(&old, "live");
    let state = f.env.random_state();
    let canceled = f.issue(&old, "canceled");
    old.index_per_vault_key(&mut f.store).unwrap();
    vault::destroy(&mut f.scope(), "canceled").unwrap();

    // The next issue re-keys the index first (as on Spin, where no start runs the upgrade).
    let next = f.issue(&old, "next");
    assert_eq!(format::read(&mut f.store).unwrap(), Some(format::CURRENT));
    // The live card's entry re-keyed, the destroyed card's kept under the vault key that sealed
    // it, the new card's.
    assert_eq!(f.index().len(), 3);
    f.env.rewind(state);
    assert_eq!(vault::generate_pan(&f.env, true), canceled);
    f.env.rewind(state);
    let again = f.issue(&old, "again");
    assert!(again != canceled && again != next, "{again}");
}

#[test]
fn a_store_without_pan_index_entries_goes_straight_to_the_current_format() {
    let mut store = MemStore::new();
    store
        .put(&keys::format_version(), &6u32.to_be_bytes())
        .unwrap();
    store.put(&keys::vault_rotation(), b"x").unwrap();
    crate::Service::open_store(&mut store).unwrap();
    assert_eq!(format::read(&mut store).unwrap(), Some(format::CURRENT));
}
