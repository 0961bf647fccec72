//! The one key builder: every storage key the service writes is made here, nowhere else.
//!
//! A key is a short tag and its parts, each part preceded by a 0x00 byte, so all keys sharing leading
//! parts form one contiguous, prefix-scannable range. Parts never contain 0x00 (ids are hex, client
//! names are `[A-Za-z0-9_.-]`, index values are checked by their writer). Layout:
//!
//! | key | holds |
//! |---|---|
//! | `m 0 format` | the data format version ([`super::format`]) |
//! | `m 0 vaultkey` | the fingerprint of the vault key the card data is sealed with |
//! | `p 0 client 0 kind 0 id` | a record (accounts, cards, card holders, files' metadata) |
//! | `p 0 client 0 detail 0 account 0 id` | an account detail, under its account |
//! | `l 0 client 0 account 0 id` | a ledger entry; ids sort by time, so this is the account's ledger in order |
//! | `i 0 client 0 kind 0 field 0 value 0 id` | a secondary index entry (empty value) |
//! | `n 0 client 0 kind 0 field 0 value` | a counter (u64, big endian) |
//! | `f 0 client 0 file 0 chunk` | a file's bytes in fixed-size chunks |
//! | `v 0 client 0 card` / `pan 0 hmac` | a card's sealed PAN and CVV / the keyed PAN uniqueness index |
//! | `t 0 client 0 card 0 tokenhash` | a reveal token (only its hash) |
//! | `k 0 keyhash` | a stored API key's client |
//! | `d 0 client 0 key` / `x 0 expiry 0 ...` | an idempotency record / its expiry queue |
//! | `i 0 client 0 authz 0 cardId 0 card 0 id` | a card's authorizations (same for `cardtx`) |
//! | `h 0 client 0 card 0 expiry 0 id` | a card's holds (pending authorizations) by expiry; value: the id |
//! | `ht 0 client 0 card` | the sum of a card's stored holds |
//! | `sp 0 client 0 card 0 interval 0 start` | a card's running spend total in one period (ms, big endian) |
//! | `s 0 ids` | the id generator's state (hosts that run one instance per request) |

/// The kinds of primary record. The name is part of the key, so it never changes once written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    Account,
    AccountDetail,
    CardHolder,
    Card,
    File,
    Authorization,
    CardTransaction,
    Event,
}

impl Kind {
    fn tag(self) -> &'static str {
        match self {
            Kind::Account => "account",
            Kind::AccountDetail => "detail",
            Kind::CardHolder => "holder",
            Kind::Card => "card",
            Kind::File => "file",
            Kind::Authorization => "authz",
            Kind::CardTransaction => "cardtx",
            Kind::Event => "event",
        }
    }
}

/// A key under construction.
struct Key(Vec<u8>);

impl Key {
    fn new(tag: &str) -> Key {
        let mut k = Vec::with_capacity(64);
        k.extend_from_slice(tag.as_bytes());
        Key(k)
    }

    fn part(mut self, part: impl AsRef<[u8]>) -> Key {
        self.0.push(0);
        self.0.extend_from_slice(part.as_ref());
        self
    }

    /// The key as the prefix of every key below it (a trailing separator).
    fn prefix(mut self) -> Vec<u8> {
        self.0.push(0);
        self.0
    }

    fn done(self) -> Vec<u8> {
        self.0
    }
}

pub fn format_version() -> Vec<u8> {
    Key::new("m").part("format").done()
}

pub fn id_state() -> Vec<u8> {
    Key::new("s").part("ids").done()
}

pub fn record(client: &str, kind: Kind, id: &str) -> Vec<u8> {
    Key::new("p").part(client).part(kind.tag()).part(id).done()
}

/// Every record of `kind` of `client`, in id (= creation) order.
pub fn records(client: &str, kind: Kind) -> Vec<u8> {
    Key::new("p").part(client).part(kind.tag()).prefix()
}

/// Every record of `client`, whatever its kind.
pub fn client_records(client: &str) -> Vec<u8> {
    Key::new("p").part(client).prefix()
}

pub fn detail(client: &str, account: &str, id: &str) -> Vec<u8> {
    Key::new("p")
        .part(client)
        .part(Kind::AccountDetail.tag())
        .part(account)
        .part(id)
        .done()
}

pub fn details(client: &str, account: &str) -> Vec<u8> {
    Key::new("p")
        .part(client)
        .part(Kind::AccountDetail.tag())
        .part(account)
        .prefix()
}

pub fn ledger_entry(client: &str, account: &str, id: &str) -> Vec<u8> {
    Key::new("l").part(client).part(account).part(id).done()
}

pub fn ledger(client: &str, account: &str) -> Vec<u8> {
    Key::new("l").part(client).part(account).prefix()
}

/// Every ledger entry of `client`, account by account.
pub fn client_ledger(client: &str) -> Vec<u8> {
    Key::new("l").part(client).prefix()
}

/// A secondary index entry: `value` must not contain 0x00.
pub fn index(client: &str, kind: Kind, field: &str, value: &str, id: &str) -> Vec<u8> {
    Key::new("i")
        .part(client)
        .part(kind.tag())
        .part(field)
        .part(value)
        .part(id)
        .done()
}

/// Every index entry for one value, in id order.
pub fn index_range(client: &str, kind: Kind, field: &str, value: &str) -> Vec<u8> {
    Key::new("i")
        .part(client)
        .part(kind.tag())
        .part(field)
        .part(value)
        .prefix()
}

pub fn counter(client: &str, kind: Kind, field: &str, value: &str) -> Vec<u8> {
    Key::new("n")
        .part(client)
        .part(kind.tag())
        .part(field)
        .part(value)
        .done()
}

/// A hold of `card`: its pending authorization `id`, ordered by when it expires (ms, big endian).
pub fn hold(client: &str, card: &str, expires_at_ms: i64, id: &str) -> Vec<u8> {
    Key::new("h")
        .part(client)
        .part(card)
        .part(expires_at_ms.max(0).to_be_bytes())
        .part(id)
        .done()
}

/// Every hold of `card`, and the end of the part that has expired by `now_ms` (`expiry <= now`).
pub fn holds(client: &str, card: &str, now_ms: i64) -> (Vec<u8>, Vec<u8>) {
    let start = Key::new("h").part(client).part(card).prefix();
    let end = Key::new("h")
        .part(client)
        .part(card)
        .part(now_ms.saturating_add(1).max(0).to_be_bytes())
        .done();
    (start, end)
}

/// The sum of the pending amounts of `card`'s stored holds.
pub fn held_total(client: &str, card: &str) -> Vec<u8> {
    Key::new("ht").part(client).part(card).done()
}

/// A card's running spend total for one calendar period (`interval` names it, `start_ms` is its
/// first instant; 0 for all time).
pub fn spend_total(client: &str, card: &str, interval: &str, start_ms: i64) -> Vec<u8> {
    Key::new("sp")
        .part(client)
        .part(card)
        .part(interval)
        .part(start_ms.max(0).to_be_bytes())
        .done()
}

/// The bytes of identity files a client stores (a counter, u64 big endian), for its file quota.
pub fn file_usage(client: &str) -> Vec<u8> {
    counter(client, Kind::File, "bytes", "all")
}

pub fn file_chunk(client: &str, file: &str, index: u32) -> Vec<u8> {
    Key::new("f")
        .part(client)
        .part(file)
        .part(index.to_be_bytes())
        .done()
}

pub fn file_chunks(client: &str, file: &str) -> Vec<u8> {
    Key::new("f").part(client).part(file).prefix()
}

pub fn sealed_card(client: &str, card: &str) -> Vec<u8> {
    Key::new("v").part(client).part(card).done()
}

/// Every card's sealed data, all clients (to test a vault key against stored data).
pub fn sealed_cards() -> Vec<u8> {
    Key::new("v").prefix()
}

/// The fingerprint of the vault key the stored card data was sealed with.
pub fn vault_key_fingerprint() -> Vec<u8> {
    Key::new("m").part("vaultkey").done()
}

pub fn pan_index(fingerprint: &str) -> Vec<u8> {
    Key::new("pan").part(fingerprint).done()
}

pub fn reveal_token(client: &str, card: &str, token_hash: &str) -> Vec<u8> {
    Key::new("t")
        .part(client)
        .part(card)
        .part(token_hash)
        .done()
}

pub fn reveal_tokens(client: &str, card: &str) -> Vec<u8> {
    Key::new("t").part(client).part(card).prefix()
}

pub fn api_key(key_hash: &str) -> Vec<u8> {
    Key::new("k").part(key_hash).done()
}

pub fn api_keys() -> Vec<u8> {
    Key::new("k").prefix()
}

pub fn idempotency(client: &str, key: &str) -> Vec<u8> {
    Key::new("d").part(client).part(key).done()
}

/// The expiry queue entry of an idempotency record: ordered by expiry, then by the record's key (the
/// entry's value is the record's key, so a sweep never parses keys).
pub fn idempotency_expiry(expires_at_ms: i64, record: &[u8]) -> Vec<u8> {
    Key::new("x")
        .part(expires_at_ms.max(0).to_be_bytes())
        .part(record)
        .done()
}

/// The expiry queue, and the end of its part that has expired by `now_ms`.
pub fn idempotency_expired(now_ms: i64) -> (Vec<u8>, Vec<u8>) {
    let start = Key::new("x").prefix();
    let end = Key::new("x").part(now_ms.max(0).to_be_bytes()).done();
    (start, end)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_clients_records_never_fall_in_anothers_range() {
        let a = record("ab", Kind::Account, "1");
        assert!(a.starts_with(&records("ab", Kind::Account)));
        assert!(!a.starts_with(&records("a", Kind::Account)));
        assert!(a.starts_with(&client_records("ab")));
        assert!(!detail("ab", "1", "2").starts_with(&records("ab", Kind::Account)));
    }

    #[test]
    fn expiry_queue_sorts_by_time() {
        let early = idempotency_expiry(5, b"z");
        let late = idempotency_expiry(300, b"a");
        assert!(early < late);
        let (start, end) = idempotency_expired(100);
        assert!(early >= start && early < end);
        assert!(late >= end);
    }

    #[test]
    fn holds_sort_by_expiry_and_stay_per_card() {
        let early = hold("c", "card", 5, "b");
        let late = hold("c", "card", 300, "a");
        assert!(early < late);
        let (start, end) = holds("c", "card", 5);
        assert!(early >= start && early < end);
        assert!(late >= end);
        assert!(!hold("c", "card2", 1, "a").starts_with(&start));
    }

    #[test]
    fn file_chunks_sort_by_index() {
        let keys: Vec<_> = (0..300).map(|i| file_chunk("c", "f", i)).collect();
        assert!(keys.windows(2).all(|w| w[0] < w[1]));
        assert!(keys.iter().all(|k| k.starts_with(&file_chunks("c", "f"))));
    }
}
