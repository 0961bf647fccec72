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
//! | `p 0 client 0 kind 0 id` | a record (accounts, cards, card holders, files' metadata, transfers, disputes) |
//! | `p 0 client 0 detail 0 account 0 id` | an account detail, under its account |
//! | `i 0 client 0 kind 0 field 0 value 0 created 0 id` | a secondary index entry (empty value): the records with `field = value` in creation order (`created`: ms, big endian); field `*` holds every record of the kind |
//! | `r 0 client 0 kind 0 field 0 <value><id>` | a range index entry (empty value): records by an ordered encoding of `field` ([`super::ordered`]), then id |
//! | `rc 0 client 0 kind 0 field 0 <bucket><shard>` | the number of a range index's entries in one bucket of values (one shard of it) |
//! | `hq 0 client 0 expiry 0 card 0 id` | every card's holds of a client by expiry (which cards hold lapsed holds) |
//! | `c 0 client 0 kind 0 field 0 value 0 shard` | one shard of the number of index entries for `field = value` (u64, big endian) |
//! | `n 0 client 0 kind 0 field 0 value` | a counter (u64, big endian) |
//! | `f 0 client 0 file 0 chunk` | a file's bytes in fixed-size chunks |
//! | `v 0 client 0 card` / `pan 0 hmac` | a card's sealed PAN and CVV / the keyed PAN uniqueness index (HMAC under the store's PAN-index key, `m 0 panindexkey`) |
//! | `t 0 client 0 card 0 tokenhash` | a reveal token (only its hash) |
//! | `k 0 keyhash` | a stored API key's client |
//! | `d 0 client 0 key` / `x 0 expiry 0 ...` | an idempotency record / its expiry queue |
//! | `h 0 client 0 card 0 expiry 0 id` | a card's holds (pending authorizations) by expiry; value: the id |
//! | `ht 0 client 0 card` | the sum of a card's stored holds |
//! | `sp 0 client 0 card 0 interval 0 start 0 category 0 mcc` | a card's running spend in one period (ms, big endian) on one (merchant category, MCC) pair |
//! | `ws 0 client` | the client's enabled webhook endpoints and the event types each takes (the outbox reads it on every event) |
//! | `wq 0 due 0 client 0 id` | the delivery queue: a pending webhook delivery by when it is next due (host clock, ms, big endian), all clients in one range |
//! | `ae 0 client` | the client's authorization decision endpoint (its secret sealed by the vault) |
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
    LedgerEntry,
    Transfer,
    Dispute,
    WebhookEndpoint,
    WebhookDelivery,
    AuditEvent,
}

impl Kind {
    const ALL: [Kind; 14] = [
        Kind::Account,
        Kind::AccountDetail,
        Kind::CardHolder,
        Kind::Card,
        Kind::File,
        Kind::Authorization,
        Kind::CardTransaction,
        Kind::Event,
        Kind::LedgerEntry,
        Kind::Transfer,
        Kind::Dispute,
        Kind::WebhookEndpoint,
        Kind::WebhookDelivery,
        Kind::AuditEvent,
    ];

    /// The kind whose key tag is `tag`.
    pub fn from_tag(tag: &[u8]) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.tag().as_bytes() == tag)
    }

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
            Kind::LedgerEntry => "ledger",
            Kind::Transfer => "transfer",
            Kind::Dispute => "dispute",
            Kind::WebhookEndpoint => "whendpoint",
            Kind::WebhookDelivery => "whdelivery",
            Kind::AuditEvent => "audit",
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

/// The text parts of a key made of text parts only (records, format 2 ledger keys): its tag first.
pub fn text_parts(key: &[u8]) -> Vec<&[u8]> {
    key.split(|b| *b == 0).collect()
}

/// Every key with tag `tag` (for upgrades of older formats).
pub fn tagged(tag: &str) -> Vec<u8> {
    Key::new(tag).prefix()
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

/// Every record of every client (the first key of each client's records names the client).
pub fn all_records() -> Vec<u8> {
    Key::new("p").prefix()
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

/// The field whose index holds every record of a kind.
pub const ALL: &str = "*";

/// An index entry: a record of `kind` whose `field` is `value`, placed by creation time, then id.
pub fn index_entry(
    client: &str,
    kind: Kind,
    field: &str,
    value: &str,
    created_ms: i64,
    id: &str,
) -> Vec<u8> {
    index_position(&index_range(client, kind, field, value), created_ms, id)
}

/// Every index entry for one value, in creation order.
pub fn index_range(client: &str, kind: Kind, field: &str, value: &str) -> Vec<u8> {
    Key::new("i")
        .part(client)
        .part(kind.tag())
        .part(field)
        .part(escape(value))
        .prefix()
}

/// The key of the entry `(created_ms, id)` inside the index range `range`.
pub fn index_position(range: &[u8], created_ms: i64, id: &str) -> Vec<u8> {
    let mut k = Vec::with_capacity(range.len() + 9 + id.len());
    k.extend_from_slice(range);
    k.extend_from_slice(&created_ms.max(0).to_be_bytes());
    k.push(0);
    k.extend_from_slice(id.as_bytes());
    k
}

/// The creation time and id of an index entry key of `range`.
pub fn index_entry_parts<'k>(range: &[u8], key: &'k [u8]) -> Option<(i64, &'k str)> {
    let rest = key.strip_prefix(range)?;
    let created: [u8; 8] = rest.get(..8)?.try_into().ok()?;
    let id = std::str::from_utf8(rest.get(9..)?).ok()?;
    Some((i64::from_be_bytes(created), id))
}

/// One shard of the count of index entries for `field = value`. Counts are sharded by the record id
/// so that concurrent inserts on a shared database seldom write the same key.
pub fn tally(client: &str, kind: Kind, field: &str, value: &str, shard: u8) -> Vec<u8> {
    let mut k = tallies(client, kind, field, value);
    k.push(shard);
    k
}

/// A range index: the records of `kind` of `client` by their value of `field` (encoded by
/// [`super::ordered`]), then id.
pub fn range_index(client: &str, kind: Kind, field: &str) -> Vec<u8> {
    Key::new("r")
        .part(client)
        .part(kind.tag())
        .part(field)
        .prefix()
}

/// The name of the part of the range index `index` whose records have `value` in the indexed field
/// `field` (a compound index): a range index of its own, `r/<client>/<kind>/<index>@<field>=<value>`,
/// with bucket counts of its own. Index and field names hold neither `@` nor `=`, so names never
/// collide; a part's value can be any text of the field.
pub fn compound_range(index: &str, field: &str, value: &str) -> String {
    format!("{index}@{field}={value}")
}

/// A range index entry: the encoded value, then the id right after it (the value is
/// self-delimiting, so no separator is needed and the order is value, then id).
pub fn range_entry(index: &[u8], value: &[u8], id: &str) -> Vec<u8> {
    let mut k = Vec::with_capacity(index.len() + value.len() + id.len());
    k.extend_from_slice(index);
    k.extend_from_slice(value);
    k.extend_from_slice(id.as_bytes());
    k
}

/// The encoded value and the id of a range entry key of `index`.
pub fn range_entry_parts<'k>(index: &[u8], key: &'k [u8]) -> Option<(&'k [u8], &'k str)> {
    let rest = key.strip_prefix(index)?;
    let n = super::ordered::Ordered::encoded_len(rest)?;
    let id = std::str::from_utf8(&rest[n..]).ok()?;
    Some((&rest[..n], id))
}

/// The counts of a range index's entries per bucket ([`super::ordered::Ordered::bucket`]): keys
/// `rc 0 client 0 kind 0 field 0 <bucket><shard>`, u64 big endian, sharded as index counts are.
pub fn range_counts(client: &str, kind: Kind, field: &str) -> Vec<u8> {
    Key::new("rc")
        .part(client)
        .part(kind.tag())
        .part(field)
        .prefix()
}

/// A hold of a client's card in the client's queue of holds by expiry (every card): value empty.
pub fn hold_by_expiry(client: &str, expires_at_ms: i64, card: &str, id: &str) -> Vec<u8> {
    Key::new("hq")
        .part(client)
        .part(expires_at_ms.max(0).to_be_bytes())
        .part(card)
        .part(id)
        .done()
}

/// The client's queue of holds by expiry, and the end of its part expired by `now_ms`.
pub fn holds_by_expiry(client: &str, now_ms: i64) -> (Vec<u8>, Vec<u8>) {
    let start = Key::new("hq").part(client).prefix();
    let end = Key::new("hq")
        .part(client)
        .part(now_ms.saturating_add(1).max(0).to_be_bytes())
        .done();
    (start, end)
}

/// The card of an entry of the queue that starts with `start` ([`holds_by_expiry`]).
pub fn hold_by_expiry_card<'k>(start: &[u8], key: &'k [u8]) -> Option<&'k str> {
    let rest = key.strip_prefix(start)?.get(9..)?;
    let card = rest.split(|b| *b == 0).next()?;
    std::str::from_utf8(card).ok()
}

/// Every shard of one count.
pub fn tallies(client: &str, kind: Kind, field: &str, value: &str) -> Vec<u8> {
    Key::new("c")
        .part(client)
        .part(kind.tag())
        .part(field)
        .part(escape(value))
        .prefix()
}

/// Index values are user data: 0x00 (the part separator) and 0x01 (the escape) are escaped so that
/// distinct values stay distinct keys and no value runs into the next part.
fn escape(value: &str) -> std::borrow::Cow<'_, [u8]> {
    if !value.bytes().any(|b| b <= 1) {
        return std::borrow::Cow::Borrowed(value.as_bytes());
    }
    let mut out = Vec::with_capacity(value.len() + 4);
    for b in value.bytes() {
        match b {
            0 => out.extend_from_slice(&[1, 1]),
            1 => out.extend_from_slice(&[1, 2]),
            b => out.push(b),
        }
    }
    std::borrow::Cow::Owned(out)
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

/// A card's running spend in one calendar period (`interval` names it, `start_ms` is its first
/// instant; 0 for all time) on one pair of merchant category and MCC, each `-` when the purchase had
/// none and `=` then the value when it had one (so no value, even an empty one, reads as another).
pub fn spend_total(
    client: &str,
    card: &str,
    interval: &str,
    start_ms: i64,
    category: Option<&str>,
    mcc: Option<&str>,
) -> Vec<u8> {
    let optional = |v: Option<&str>| match v {
        None => b"-".to_vec(),
        Some(v) => [b"=".as_slice(), &escape(v)].concat(),
    };
    Key::new("sp")
        .part(client)
        .part(card)
        .part(interval)
        .part(start_ms.max(0).to_be_bytes())
        .part(optional(category))
        .part(optional(mcc))
        .done()
}

/// Every pair's running spend of `card` in one calendar period.
pub fn spend_totals(client: &str, card: &str, interval: &str, start_ms: i64) -> Vec<u8> {
    Key::new("sp")
        .part(client)
        .part(card)
        .part(interval)
        .part(start_ms.max(0).to_be_bytes())
        .prefix()
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

/// A vault key (by id) that may have sealed stored card data, besides the original one above.
pub fn vault_key_in_use(id: &str) -> Vec<u8> {
    Key::new("m").part("vaultkeys").part(id).done()
}

pub fn vault_keys_in_use() -> Vec<u8> {
    Key::new("m").part("vaultkeys").prefix()
}

/// Where an interrupted `cards vault rotate` resumes (the last entry it re-sealed).
pub fn vault_rotation() -> Vec<u8> {
    Key::new("m").part("vaultrotation").done()
}

/// The store's own PAN-index key, sealed under a vault key (format 7; `domain::vault`).
pub fn pan_index_key() -> Vec<u8> {
    Key::new("m").part("panindexkey").done()
}

pub fn pan_index(fingerprint: &str) -> Vec<u8> {
    Key::new("pan").part(fingerprint).done()
}

/// Every PAN index entry.
pub fn pan_indexes() -> Vec<u8> {
    Key::new("pan").prefix()
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

/// A client's real-time decision endpoint (at most one).
pub fn authorization_endpoint(client: &str) -> Vec<u8> {
    Key::new("ae").part(client).done()
}

/// Every client's decision endpoint.
pub fn authorization_endpoints() -> Vec<u8> {
    Key::new("ae").prefix()
}

pub fn idempotency(client: &str, key: &str) -> Vec<u8> {
    Key::new("d").part(client).part(key).done()
}

/// The client of an idempotency record's key (the sweep reads that client's clock).
pub fn idempotency_client(record: &[u8]) -> Option<&str> {
    let mut parts = record.split(|b| *b == 0);
    match (parts.next(), parts.next()) {
        (Some(b"d"), Some(client)) => std::str::from_utf8(client).ok(),
        _ => None,
    }
}

/// A client's test clock (its offset from the host's clock).
pub fn test_clock(client: &str) -> Vec<u8> {
    Key::new("tc").part(client).done()
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

/// A client's enabled webhook endpoints and their event types, read by every event the client appends.
pub fn webhook_subscriptions(client: &str) -> Vec<u8> {
    Key::new("ws").part(client).done()
}

/// A pending webhook delivery in the delivery queue, due at `due_ms` on the host's clock. One range
/// for all clients, so finding what is due is one range walk, never a scan.
pub fn delivery_due(due_ms: i64, client: &str, id: &str) -> Vec<u8> {
    Key::new("wq")
        .part(due_ms.max(0).to_be_bytes())
        .part(client)
        .part(id)
        .done()
}

/// A client's webhook delivery waiting for a retry, empty value: what a test clock advance moves (the
/// queue is every client's, by due time). Put when a failed attempt schedules a retry, deleted when
/// the delivery is answered or sent again at once.
pub fn delivery_pending(client: &str, id: &str) -> Vec<u8> {
    Key::new("wp").part(client).part(id).done()
}

/// The pending webhook deliveries of a client ([`delivery_pending`]).
pub fn deliveries_pending(client: &str) -> Vec<u8> {
    Key::new("wp").part(client).prefix()
}

/// The delivery queue, and the end of its part that is due by `now_ms` (`due <= now`).
pub fn deliveries_due(now_ms: i64) -> (Vec<u8>, Vec<u8>) {
    let start = Key::new("wq").prefix();
    let end = Key::new("wq")
        .part(now_ms.saturating_add(1).max(0).to_be_bytes())
        .done();
    (start, end)
}

/// Where the delivery queue's entries due at `from_ms` or later start.
pub fn deliveries_from(from_ms: i64) -> Vec<u8> {
    Key::new("wq").part(from_ms.max(0).to_be_bytes()).done()
}

/// The client and delivery id of a delivery queue key.
pub fn delivery_due_parts(key: &[u8]) -> Option<(&str, &str)> {
    // `wq 0 <8 bytes> 0 client 0 id`: the time part may hold 0x00 bytes, so skip it by length.
    let rest = key.strip_prefix(b"wq\0")?.get(9..)?;
    let mut parts = rest.splitn(2, |b| *b == 0);
    let client = std::str::from_utf8(parts.next()?).ok()?;
    let id = std::str::from_utf8(parts.next()?).ok()?;
    Some((client, id))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_delivery_queue_sorts_by_due_time_across_clients() {
        let early = delivery_due(5, "zz", "b");
        let late = delivery_due(300, "aa", "a");
        assert!(early < late);
        let (start, end) = deliveries_due(5);
        assert!(early >= start && early < end);
        assert!(late >= end);
        assert_eq!(delivery_due_parts(&early), Some(("zz", "b")));
        // A due time whose bytes hold 0x00 still parses.
        assert_eq!(
            delivery_due_parts(&delivery_due(256, "c", "d")),
            Some(("c", "d"))
        );
    }

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
    fn index_entries_sort_by_creation_then_id_and_keep_values_apart() {
        let range = index_range("c", Kind::Card, "status", "active");
        let a = index_entry("c", Kind::Card, "status", "active", 5, "ff");
        let b = index_entry("c", Kind::Card, "status", "active", 300, "00");
        let c = index_entry("c", Kind::Card, "status", "active", 300, "01");
        assert!(a < b && b < c);
        assert!([&a, &b, &c].iter().all(|k| k.starts_with(&range)));
        assert_eq!(index_entry_parts(&range, &b), Some((300, "00")));
        assert!(!index_entry("c", Kind::Card, "status", "active2", 1, "a").starts_with(&range));
        // Escaped values: a NUL inside a value neither collides nor leaks into the next part.
        let odd = index_range("c", Kind::Card, "f", "a\0b");
        assert_ne!(odd, index_range("c", Kind::Card, "f", "a\u{1}\u{1}b"));
        assert!(!odd.starts_with(&index_range("c", Kind::Card, "f", "a")));
        assert_ne!(
            tallies("c", Kind::Card, "f", "a\0"),
            tallies("c", Kind::Card, "f", "a\u{1}")
        );
    }

    #[test]
    fn spend_totals_keep_periods_and_pairs_apart() {
        let period = spend_totals("c", "card", "daily", 86_400_000);
        let pair = |cat, mcc| spend_total("c", "card", "daily", 86_400_000, cat, mcc);
        let all = [
            pair(None, None),
            pair(Some(""), None),
            pair(None, Some("")),
            pair(Some("airlines"), None),
            pair(Some("airlines"), Some("4511")),
            pair(None, Some("4511")),
        ];
        assert!(all.iter().all(|k| k.starts_with(&period)));
        for (i, a) in all.iter().enumerate() {
            assert!(all[i + 1..].iter().all(|b| a != b));
        }
        // Neither the next period, another interval nor another card falls in the range.
        assert!(
            !spend_total("c", "card", "daily", 2 * 86_400_000, None, None).starts_with(&period)
        );
        assert!(!spend_total("c", "card", "weekly", 86_400_000, None, None).starts_with(&period));
        assert!(!spend_total("c", "card2", "daily", 86_400_000, None, None).starts_with(&period));
    }

    #[test]
    fn file_chunks_sort_by_index() {
        let keys: Vec<_> = (0..300).map(|i| file_chunk("c", "f", i)).collect();
        assert!(keys.windows(2).all(|w| w[0] < w[1]));
        assert!(keys.iter().all(|k| k.starts_with(&file_chunks("c", "f"))));
    }
}
