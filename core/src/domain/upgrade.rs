//! Upgrades of stores written in an older data format (`storage::format`), run in the transaction
//! that opens the store, so a store is upgraded whole or not at all. The step to format 8 (the PAN
//! index re-keyed under the store's own PAN-index key) opens every card, so it needs the vault
//! keys: [`with_vault`], which hosts run where they check the vault keys.

use super::accounts::Account;
use super::authorizations::transactions::CardTransaction;
use super::authorizations::{self, Authorization, spend};
use super::card_holders::CardHolder;
use super::card_records::{self, Card, HeldTotal};
use super::dispute_records::Dispute;
use super::events::Event;
use super::ledger::Entry;
use super::transfers::Transfer;
use super::vault::{Rekeyed, Vault};
use super::webhooks::deliveries::{Delivery, DeliveryStatus};
use super::webhooks::endpoints::Endpoint;
use crate::env::Env;
use crate::storage::format::{self, FormatError};
use crate::storage::keys::{self, Kind};
use crate::storage::ordered::Ordered;
use crate::storage::table::{self, Indexed};
use crate::storage::{Direction, KvPair, StoreError, Tx, codec, for_each_page, prefix_end};
use rust_decimal::Decimal;

/// Keys are read a chunk at a time, so a big store is never all in memory.
const CHUNK: usize = 1024;

/// Brings a store in format `from` to the current one, and stamps it; a store with PAN index
/// entries keyed per vault key only to format 7, which [`with_vault`] takes on.
pub fn from(tx: &mut dyn Tx, from: u32) -> Result<(), FormatError> {
    if from <= format::PAN_INDEX_PER_VAULT_KEY {
        to_7(tx, from)?;
    }
    // Format 9's step is independent of format 8's (the PAN index): it runs on a format-7 store
    // before the vault re-keys it, and again (changing nothing) on each open until then.
    if from < 9 {
        covered_available(tx)?;
    }
    // Format 10's, likewise (it only deletes).
    pending_entries_of_retries_only(tx)?;
    if from < 11 {
        ledger_by_account_only(tx)?;
    }
    let per_vault_key = tx.get(&keys::pan_index_key())?.is_none() && {
        let start = keys::pan_indexes();
        !tx.scan(&start, &prefix_end(&start), Direction::Forward, 1)?
            .is_empty()
    };
    if !per_vault_key {
        format::stamp(tx)?;
    } else if from != format::PAN_INDEX_PER_VAULT_KEY {
        format::stamp_version(tx, format::PAN_INDEX_PER_VAULT_KEY)?;
    }
    Ok(())
}

/// Format 8's step, with the vault keys: a format-7 store's PAN index re-keyed under a new
/// PAN-index key (every card opened), then stamped; nothing for a store already in format 8. What
/// it re-keyed, if it ran.
pub fn with_vault(tx: &mut dyn Tx, env: &dyn Env, vault: &Vault) -> super::Result<Option<Rekeyed>> {
    vault.upgrade_pan_index(tx, env)
}

fn to_7(tx: &mut dyn Tx, from: u32) -> Result<(), FormatError> {
    match from {
        2 => {
            from_2(tx)?;
            from_3(tx)?;
            from_4(tx)?;
            from_5(tx)?;
            Ok(from_6(tx)?)
        }
        3 => {
            from_3(tx)?;
            from_4(tx)?;
            from_5(tx)?;
            Ok(from_6(tx)?)
        }
        4 => {
            from_4(tx)?;
            from_5(tx)?;
            Ok(from_6(tx)?)
        }
        5 => {
            from_5(tx)?;
            Ok(from_6(tx)?)
        }
        6 => Ok(from_6(tx)?),
        7 => Ok(()),
        v => Err(FormatError::Unsupported(format!(
            "the data has format {v}, which this release cannot upgrade"
        ))),
    }
}

/// Format 2 kept ledger entries under `l 0 client 0 account 0 id` and indexed only authorizations
/// and card transactions by card, in id order. Format 3 makes entries records and indexes every
/// listed kind in creation order, with counts.
fn from_2(tx: &mut dyn Tx) -> Result<(), StoreError> {
    each(tx, &keys::tagged("i"), |tx, (key, _)| tx.delete(&key))?;
    each(tx, &keys::tagged("l"), |tx, (key, value)| {
        let parts = keys::text_parts(&key);
        let client = client_of(&parts)?;
        let entry: Entry = codec::decode(&value)?;
        tx.delete(&key)?;
        table::insert(tx, &client, &entry)
    })?;
    each(tx, &keys::tagged("p"), |tx, (key, value)| {
        let parts = keys::text_parts(&key);
        let client = client_of(&parts)?;
        match parts.get(2).and_then(|tag| Kind::from_tag(tag)) {
            Some(Kind::Account) => index::<Account>(tx, &client, &value),
            Some(Kind::CardHolder) => index::<CardHolder>(tx, &client, &value),
            Some(Kind::Card) => index::<Card>(tx, &client, &value),
            Some(Kind::Authorization) => index::<Authorization>(tx, &client, &value),
            Some(Kind::CardTransaction) => index::<CardTransaction>(tx, &client, &value),
            Some(Kind::Event) => index::<Event>(tx, &client, &value),
            // Ledger entries were indexed as they moved; details and files have no index.
            Some(Kind::LedgerEntry | Kind::AccountDetail | Kind::File) | None => Ok(()),
            // Format 2 had neither.
            Some(
                Kind::Transfer
                | Kind::Dispute
                | Kind::WebhookEndpoint
                | Kind::WebhookDelivery
                | Kind::AuditEvent,
            ) => Ok(()),
        }
    })
}

/// Format 4, one step per change (each its own function).
fn from_3(tx: &mut dyn Tx) -> Result<(), StoreError> {
    spend_totals_per_merchant_pair(tx)
}

/// Format 3 kept one spend total per card and period for every purchase, so a limit with
/// `categories` counted purchases outside them. Format 4 keeps one per (merchant category, MCC) pair
/// ([`spend`]); they are rebuilt from the authorizations: each approved one adds its pending +
/// captured amounts as stored (a hold expired by the clock but not yet stored as expired still counts
/// in the totals, as it would had this release written it; reads take it off).
fn spend_totals_per_merchant_pair(tx: &mut dyn Tx) -> Result<(), StoreError> {
    each(tx, &keys::tagged("sp"), |tx, (key, _)| tx.delete(&key))?;
    each(tx, &keys::tagged("p"), |tx, (key, value)| {
        let parts = keys::text_parts(&key);
        if parts.get(2).and_then(|tag| Kind::from_tag(tag)) != Some(Kind::Authorization) {
            return Ok(());
        }
        let client = client_of(&parts)?;
        let auth: Authorization = codec::decode(&value)?;
        if !auth.approved {
            return Ok(());
        }
        spend::add(
            tx,
            &client,
            &auth,
            auth.pending_amount + auth.captured_amount,
        )
    })
}

/// Format 5 adds range indexes and the index of cards' `last4`: every record of a kind that has
/// some gets its entries (which
/// `table::insert` writes, so a format-2 store upgraded above already has them: puts of the same
/// empty entries change nothing); each card its kept index of what it can spend (ledger balance
/// less stored holds); and each client a queue of its cards' holds by expiry.
fn from_4(tx: &mut dyn Tx) -> Result<(), StoreError> {
    each(tx, &keys::tagged("p"), |tx, (key, value)| {
        let parts = keys::text_parts(&key);
        let client = client_of(&parts)?;
        match parts.get(2).and_then(|tag| Kind::from_tag(tag)) {
            Some(Kind::Account) => ranges::<Account>(tx, &client, &value),
            Some(Kind::CardHolder) => ranges::<CardHolder>(tx, &client, &value),
            Some(Kind::Card) => {
                ranges::<Card>(tx, &client, &value)?;
                let card: Card = codec::decode(&value)?;
                table::index_field(tx, &client, &card, "last4")?;
                let held = codec::get::<HeldTotal>(tx, &keys::held_total(&client, &card.id))?
                    .map_or(Decimal::ZERO, |t| t.amount);
                let available = Ordered::Num(card.balance - held);
                table::start_range(
                    tx,
                    &client,
                    Kind::Card,
                    card_records::AVAILABLE,
                    &card.id,
                    &available,
                )
            }
            Some(Kind::Authorization) => {
                ranges::<Authorization>(tx, &client, &value)?;
                let auth: Authorization = codec::decode(&value)?;
                // A hold is stored while its authorization's stored pending amount is not zero.
                let hold = keys::hold(&client, &auth.card_id, auth.expires_at.millis(), &auth.id);
                if tx.get(&hold)?.is_some() {
                    tx.put(&authorizations::queue_key(&client, &auth), &[])?;
                }
                Ok(())
            }
            _ => Ok(()),
        }
    })
}

/// Format 6 adds the compound range parts (below) and the gram indexes of text fields (`Indexed::TEXTS`): every record of a kind that
/// has some gets its entries and counts (a format-2 store upgraded above already has them, from
/// `table::insert`; only missing entries are written, so none is counted twice).
fn from_5(tx: &mut dyn Tx) -> Result<(), StoreError> {
    compound_available_by_status(tx)?;
    texts::<CardHolder>(tx)?;
    texts::<Account>(tx)?;
    texts::<Transfer>(tx)?;
    texts::<Dispute>(tx)?;
    texts::<Endpoint>(tx)
}

/// Writes the missing gram entries of every record of kind `R`, client by client (a skip scan
/// finds the clients; the other kinds' records are never read).
fn texts<R: Indexed>(tx: &mut dyn Tx) -> Result<(), StoreError> {
    for client in table::clients_with(tx, R::KIND)? {
        each(tx, &keys::records(&client, R::KIND), |tx, (_, value)| {
            let record: R = codec::decode(&value)?;
            table::index_texts(tx, &client, &record)
        })?;
    }
    Ok(())
}

/// Format 6 keeps cards' kept range index of what they can spend also in one part per card
/// `status` (`table::keep_compound`): each card gets its entry in its status's part, with the value
/// its kept entry holds (ledger balance less stored holds). The entries are added, never replaced,
/// so a store upgraded from format 4 or older above gets them once.
fn compound_available_by_status(tx: &mut dyn Tx) -> Result<(), StoreError> {
    each(tx, &keys::tagged("p"), |tx, (key, value)| {
        let parts = keys::text_parts(&key);
        if parts.get(2).and_then(|tag| Kind::from_tag(tag)) != Some(Kind::Card) {
            return Ok(());
        }
        let client = client_of(&parts)?;
        let card: Card = codec::decode(&value)?;
        let held = codec::get::<HeldTotal>(tx, &keys::held_total(&client, &card.id))?
            .map_or(Decimal::ZERO, |t| t.amount);
        let part = keys::compound_range(card_records::AVAILABLE, "status", card.status.as_str());
        let available = Ordered::Num(card.balance - held);
        table::start_range(tx, &client, Kind::Card, &part, &card.id, &available)
    })
}

/// Format 7, one step per change (each its own function).
fn from_6(tx: &mut dyn Tx) -> Result<(), StoreError> {
    deliveries_by_endpoint_only(tx)
}

/// Format 9 gives each card's entries in its kept range index of what it can spend (the whole
/// index and its status's part) the card's `Cover` as their value, so a list counts and checks a
/// span of the index without reading the cards. An independent step: it rewrites only those
/// entries' values (writing, and counting, an entry that is missing), so it can run on any store
/// in format 6 or later, in either shape.
fn covered_available(tx: &mut dyn Tx) -> Result<(), StoreError> {
    for client in table::clients_with(tx, Kind::Card)? {
        each(tx, &keys::records(&client, Kind::Card), |tx, (_, value)| {
            let card: Card = codec::decode(&value)?;
            let held = codec::get::<HeldTotal>(tx, &keys::held_total(&client, &card.id))?
                .map_or(Decimal::ZERO, |t| t.amount);
            let available = card.balance - held;
            let cover = card_records::Cover::encode(&card, available);
            let entry = (card.id.as_str(), cover.as_slice());
            let value = Ordered::Num(available);
            let part =
                keys::compound_range(card_records::AVAILABLE, "status", card.status.as_str());
            table::cover_range(
                tx,
                &client,
                (Kind::Card, card_records::AVAILABLE),
                entry,
                &value,
            )?;
            table::cover_range(tx, &client, (Kind::Card, &part), entry, &value)
        })?;
    }
    Ok(())
}

/// Format 7 indexes webhook deliveries by `endpointId` alone (`Delivery`'s `Indexed`): their
/// index of every delivery and their `status` index go, with their counts, and each pending
/// delivery gets its `keys::delivery_pending` entry (what a test clock advance moves). It only
/// deletes what format 6 wrote and puts empty entries, so it can run on a store already in either
/// shape (an independent step: it does not depend on any other step of format 7).
fn deliveries_by_endpoint_only(tx: &mut dyn Tx) -> Result<(), StoreError> {
    let kind = Kind::WebhookDelivery;
    for client in table::clients_with(tx, kind)? {
        let mut gone = vec![(keys::ALL, String::new())];
        for status in [
            DeliveryStatus::Pending,
            DeliveryStatus::Succeeded,
            DeliveryStatus::Failed,
        ] {
            gone.push(("status", status.as_str().to_string()));
        }
        for (field, value) in &gone {
            each(
                tx,
                &keys::index_range(&client, kind, field, value),
                |tx, (key, _)| tx.delete(&key),
            )?;
            each(
                tx,
                &keys::tallies(&client, kind, field, value),
                |tx, (key, _)| tx.delete(&key),
            )?;
        }
        each(tx, &keys::records(&client, kind), |tx, (_, value)| {
            let d: Delivery = codec::decode(&value)?;
            if d.status == DeliveryStatus::Pending {
                tx.put(&keys::delivery_pending(&client, &d.id), &[])?;
            }
            Ok(())
        })?;
    }
    Ok(())
}

/// Format 10 keeps a pending delivery's `keys::delivery_pending` entry only while it waits for a
/// retry after a failed attempt (`failures > 0`): the entries of the others (due at once, or out for
/// their first attempt) go, and entries of deliveries gone or answered with them. It only deletes,
/// so it can run on a store in either shape.
fn pending_entries_of_retries_only(tx: &mut dyn Tx) -> Result<(), StoreError> {
    for client in table::clients_with(tx, Kind::WebhookDelivery)? {
        let prefix = keys::deliveries_pending(&client);
        each(tx, &prefix, |tx, (key, _)| {
            let id = key
                .get(prefix.len()..)
                .and_then(|b| std::str::from_utf8(b).ok())
                .unwrap_or_default();
            let keep = table::get::<Delivery>(tx, &client, id)?
                .is_some_and(|d| super::webhooks::deliveries::retrying(&d));
            if !keep {
                tx.delete(&key)?;
            }
            Ok(())
        })?;
    }
    Ok(())
}

/// Format 11 lists ledger entries only within their account (`Entry`'s `Indexed`): the index of
/// every entry goes, with its counts. It only deletes, so it can run on a store in either shape.
fn ledger_by_account_only(tx: &mut dyn Tx) -> Result<(), StoreError> {
    let kind = Kind::LedgerEntry;
    for client in table::clients_with(tx, kind)? {
        let (entries, counts) = (
            keys::index_range(&client, kind, keys::ALL, ""),
            keys::tallies(&client, kind, keys::ALL, ""),
        );
        each(tx, &entries, |tx, (key, _)| tx.delete(&key))?;
        each(tx, &counts, |tx, (key, _)| tx.delete(&key))?;
    }
    Ok(())
}

fn ranges<R: Indexed>(tx: &mut dyn Tx, client: &str, value: &[u8]) -> Result<(), StoreError> {
    let record: R = codec::decode(value)?;
    table::index_ranges(tx, client, &record)
}

fn client_of(parts: &[&[u8]]) -> Result<String, StoreError> {
    parts
        .get(1)
        .and_then(|c| std::str::from_utf8(c).ok())
        .map(str::to_string)
        .ok_or_else(|| StoreError("a stored key has no client".into()))
}

fn index<R: Indexed>(tx: &mut dyn Tx, client: &str, value: &[u8]) -> Result<(), StoreError> {
    let record: R = codec::decode(value)?;
    table::insert(tx, client, &record)
}

/// Runs `f` on every entry under `prefix`, in key order, a chunk at a time. `f` may write anywhere
/// but at or before the entry it is given.
fn each(
    tx: &mut dyn Tx,
    prefix: &[u8],
    mut f: impl FnMut(&mut dyn Tx, KvPair) -> Result<(), StoreError>,
) -> Result<(), StoreError> {
    for_each_page(tx, prefix, CHUNK, |tx, rows| {
        rows.into_iter().try_for_each(|row| f(tx, row))
    })
}
