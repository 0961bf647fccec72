//! The card record and what is kept beside it: the sum of its holds ([`HeldTotal`]) and the
//! range index of what it can spend. Below both `authorizations` (whose holds move them) and
//! `cards` (whose operations read a card with its holds through `authorizations`), so neither
//! needs the other's module for the record; `cards` re-exports these types.

use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

use super::controls::SpendingControls;
use super::lifecycle::CardStatus;
use super::{Currency, Result, Scope};
use crate::env::Timestamp;
use crate::error::ApiError;
use crate::macros::{indexed, str_enum};
use crate::storage::Direction;
use crate::storage::codec::{self, JsonText, Record, money};
use crate::storage::keys::{self, Kind};
use crate::storage::ordered::Ordered;
use crate::storage::table;

str_enum!(CardType { Virtual = "virtual", Physical = "physical" });
str_enum!(Brand { Visa = "Visa", MasterCard = "MasterCard" });
str_enum!(CancellationReason { Lost = "lost", Stolen = "stolen" });

impl Brand {
    /// Brand names are matched case-insensitively and returned in their own spelling.
    pub fn parse_loose(s: &str) -> Option<Brand> {
        Brand::ALL
            .iter()
            .find(|b| b.eq_ignore_ascii_case(s))
            .and_then(|b| Brand::parse(b))
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Card {
    pub id: String,
    pub debit_account_id: String,
    pub card_holder_id: String,
    pub kind: CardType,
    pub brand: Brand,
    pub currency: Currency,
    pub status: CardStatus,
    pub metadata: JsonText,
    pub spending_controls: SpendingControls,
    pub enable_2fa: bool,
    pub disposable: bool,
    /// The ledger balance: issue funding plus fundings and merchant refunds, less captures and the
    /// refund at cancel. Holds are not taken off it (see `held`).
    #[serde(with = "money")]
    pub balance: Decimal,
    /// What the card's pending authorizations hold at the time of reading; not stored (the holds are),
    /// filled by `cards::get` (through `authorizations::card`), never by [`stored`].
    #[serde(skip)]
    pub held: Decimal,
    pub masked_pan: String,
    pub last4: String,
    pub expiry_month: String,
    pub expiry_year: String,
    pub cancellation_reason: Option<CancellationReason>,
    pub canceled_at: Option<Timestamp>,
    pub created_at: Timestamp,
    pub updated_at: Timestamp,
}

impl Record for Card {
    const VERSION: u8 = 1;
    const NAME: &'static str = "card";
}

impl Card {
    /// What can still be spent: the ledger balance less the holds.
    pub fn available(&self) -> Decimal {
        (self.balance - self.held).normalize()
    }

    pub fn check_not_canceled(&self) -> Result<()> {
        if self.status == CardStatus::Canceled {
            Err(ApiError::InvalidState(
                "Card is canceled and cannot be changed".into(),
            ))
        } else {
            Ok(())
        }
    }
}

/// Which of a card's stored texts a partial decode ([`decode_part`]) keeps; the others are left
/// empty. The id, the enums, the flags, the money, the controls and the instants are always kept.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CardParts {
    pub metadata: bool,
    pub debit_account_id: bool,
    pub card_holder_id: bool,
    pub masked_pan: bool,
    pub last4: bool,
    pub expiry: bool,
}

/// [`Card`] as stored, its texts borrowed from the stored bytes (as bytes: postcard writes a text
/// as its length and its UTF-8, so a text no condition reads is skipped without checking it) and
/// its metadata left as text: the same fields in the same order (postcard is not self-describing:
/// a field is found only by decoding those before it). `decode_part_equals_decode` checks it
/// against [`Card`].
#[derive(Deserialize)]
struct StoredCard<'a> {
    id: &'a [u8],
    debit_account_id: &'a [u8],
    card_holder_id: &'a [u8],
    kind: CardType,
    brand: Brand,
    currency: Currency,
    status: CardStatus,
    metadata: &'a [u8],
    spending_controls: SpendingControls,
    enable_2fa: bool,
    disposable: bool,
    #[serde(with = "money")]
    balance: Decimal,
    masked_pan: &'a [u8],
    last4: &'a [u8],
    expiry_month: &'a [u8],
    expiry_year: &'a [u8],
    cancellation_reason: Option<CancellationReason>,
    canceled_at: Option<Timestamp>,
    created_at: Timestamp,
    updated_at: Timestamp,
}

/// A stored card with only the texts `parts` names (the others empty, its metadata `{}` unless
/// named): for a list's pass over every card, which reads a few fields of each. Parsing the
/// metadata's JSON and copying texts no condition reads was most of a card's decoding.
pub fn decode_part(
    bytes: &[u8],
    parts: CardParts,
) -> std::result::Result<Card, crate::storage::StoreError> {
    let c: StoredCard = match codec::decode_view::<Card, _>(bytes) {
        Some(view) => view?,
        // An older version: decoded whole, as any read does.
        None => return codec::decode(bytes),
    };
    let bad =
        |e: &dyn std::fmt::Display| crate::storage::StoreError(format!("cannot decode card: {e}"));
    let text = |bytes: &[u8]| {
        std::str::from_utf8(bytes)
            .map(str::to_string)
            .map_err(|e| bad(&e))
    };
    let keep = |on: bool, bytes: &[u8]| if on { text(bytes) } else { Ok(String::new()) };
    let metadata = match parts.metadata {
        true => serde_json::from_slice(c.metadata)
            .map(JsonText)
            .map_err(|e| bad(&e))?,
        false => JsonText::default(),
    };
    Ok(Card {
        id: text(c.id)?,
        debit_account_id: keep(parts.debit_account_id, c.debit_account_id)?,
        card_holder_id: keep(parts.card_holder_id, c.card_holder_id)?,
        kind: c.kind,
        brand: c.brand,
        currency: c.currency,
        status: c.status,
        metadata,
        spending_controls: c.spending_controls,
        enable_2fa: c.enable_2fa,
        disposable: c.disposable,
        balance: c.balance,
        held: Decimal::ZERO,
        masked_pan: keep(parts.masked_pan, c.masked_pan)?,
        last4: keep(parts.last4, c.last4)?,
        expiry_month: keep(parts.expiry, c.expiry_month)?,
        expiry_year: keep(parts.expiry, c.expiry_year)?,
        cancellation_reason: c.cancellation_reason,
        canceled_at: c.canceled_at,
        created_at: c.created_at,
        updated_at: c.updated_at,
    })
}

/// One of the caller's cards as stored: `held` is zero, not filled (`authorizations::card` fills it).
pub(crate) fn stored(s: &mut Scope, id: &str) -> Result<Card> {
    super::find(s, Kind::Card, id, "Card")
}

pub(crate) fn save(s: &mut Scope, card: &Card) -> Result<()> {
    let old = table::save_over(s.tx, s.client, card)?;
    if let Some(old) = old
        && (old.balance != card.balance || old.status != card.status)
    {
        let held = stored_held(s, &card.id)?;
        keep_available(
            s.tx,
            s.client,
            card,
            (
                Some((old.status, old.balance - held)),
                (card.status, card.balance - held),
            ),
        )?;
    }
    Ok(())
}

/// What a card's entries in the kept index of what it can spend carry as their value: the small
/// fields list filters read ([`COVERED`]), so a count or a check over a span of the index reads
/// no card record (docs/first-pass.md). All but `status` and the amount never change, and both
/// move the entry anyway, so a cover costs bytes, never a write.
///
/// Encoded as a version byte, the length of the class (the fields many cards share:
/// [`COVER_CLASS`], in postcard), the class, then `createdAt` (ms, 8 bytes big endian) and the
/// amount (`Decimal::serialize`, 16 bytes): a walk that reads only class fields makes one document
/// per distinct class ([`cover_class`]), not one per card.
#[derive(Debug, Clone, PartialEq)]
pub struct Cover {
    pub class: CoverClass,
    pub created_at: Timestamp,
    /// The entry's own value (the stored balance less the stored holds), so no key is decoded.
    pub available: Decimal,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CoverClass {
    pub status: CardStatus,
    pub kind: CardType,
    pub brand: Brand,
    pub currency: Currency,
}

const COVER_VERSION: u8 = 1;

/// The top-level fields of a card's list view that [`Cover`] holds (`_id` is the entry's key).
pub const COVERED: &[&str] = &[
    "_id",
    "type",
    "brand",
    "currency",
    "status",
    "balance",
    "createdAt",
    "availableBalance",
];

/// The fields of [`COVERED`] that a cover's class alone gives.
pub const COVER_CLASS: &[&str] = &["type", "brand", "currency", "status"];

/// The card `id` of an entry whose value is `cover` ([`Cover::card`]).
fn uncover(id: &str, cover: &[u8]) -> std::result::Result<Card, crate::storage::StoreError> {
    Ok(Cover::decode(cover)?.card(id.to_string()))
}

/// The bytes of a cover's class: covers with equal classes give equal [`COVER_CLASS`] fields.
pub fn cover_class(cover: &[u8]) -> Option<&[u8]> {
    match cover {
        [COVER_VERSION, len, rest @ ..] => rest.get(..usize::from(*len)),
        _ => None,
    }
}

impl Cover {
    /// The encoded cover of `card` with `available` as its kept value.
    pub(crate) fn encode(card: &Card, available: Decimal) -> Vec<u8> {
        let class = CoverClass {
            status: card.status,
            kind: card.kind,
            brand: card.brand,
            currency: card.currency.clone(),
        };
        // Plain fields: encoding cannot fail; a class is a few bytes (a currency is 3 letters).
        let class = postcard::to_allocvec(&class).unwrap_or_default();
        let mut out = vec![COVER_VERSION, class.len() as u8];
        out.extend_from_slice(&class);
        out.extend_from_slice(&card.created_at.millis().to_be_bytes());
        out.extend_from_slice(&available.serialize());
        out
    }

    pub fn decode(cover: &[u8]) -> std::result::Result<Cover, crate::storage::StoreError> {
        let bad = || crate::storage::StoreError("a card's range entry has a bad cover".into());
        let class = cover_class(cover).ok_or_else(bad)?;
        let rest = &cover[2 + class.len()..];
        let (Some(ms), Some(amount), 24) = (rest.get(..8), rest.get(8..24), rest.len()) else {
            return Err(bad());
        };
        Ok(Cover {
            class: postcard::from_bytes(class).map_err(|_| bad())?,
            created_at: Timestamp(i64::from_be_bytes(ms.try_into().map_err(|_| bad())?)),
            available: Decimal::deserialize(amount.try_into().map_err(|_| bad())?),
        })
    }

    /// The card `id` as far as its cover tells: the [`COVERED`] fields of its view are exactly the
    /// stored card's (its holds taken off its balance); every other field is empty.
    pub fn card(self, id: String) -> Card {
        Card {
            id,
            debit_account_id: String::new(),
            card_holder_id: String::new(),
            kind: self.class.kind,
            brand: self.class.brand,
            currency: self.class.currency,
            status: self.class.status,
            metadata: JsonText::default(),
            spending_controls: SpendingControls::default(),
            enable_2fa: false,
            disposable: false,
            balance: self.available,
            held: Decimal::ZERO,
            masked_pan: String::new(),
            last4: String::new(),
            expiry_month: String::new(),
            expiry_year: String::new(),
            cancellation_reason: None,
            canceled_at: None,
            created_at: self.created_at,
            updated_at: self.created_at,
        }
    }
}

/// The kept range index of what a card can spend (`balance` and `availableBalance` in its view):
/// its stored ledger balance less its stored holds. Both writes that change either move it, from
/// the value the stored state gave to the new one ([`save`], [`add_held`]), so it
/// always holds the stored state and nothing else needs keeping. A hold that lapses by the clock
/// raises the true value without a write: such cards are [`Indexed::stale`] until their next write
/// settles them. Its compound part per `status` (`status=active&balance.gte=..&sort=-balance` walks
/// one part) moves with it, and from part to part when the status changes. Each entry's value is
/// the card's [`Cover`] (`card` is the new state).
pub(crate) fn keep_available(
    tx: &mut dyn crate::storage::Tx,
    client: &str,
    card: &Card,
    (old, new): (Option<(CardStatus, Decimal)>, (CardStatus, Decimal)),
) -> std::result::Result<(), crate::storage::StoreError> {
    let cover = Cover::encode(card, new.1);
    let recover = old.is_some_and(|(status, _)| status != new.0);
    let old = old.map(|(status, v)| (status, Ordered::Num(v)));
    let new = (new.0, Ordered::Num(new.1));
    table::keep_range(
        tx,
        client,
        (Kind::Card, AVAILABLE),
        (&card.id, &cover),
        (old.as_ref().map(|(_, v)| v), &new.1),
        recover,
    )?;
    table::keep_compound(
        tx,
        client,
        (Kind::Card, AVAILABLE, "status"),
        (&card.id, &cover),
        (
            old.as_ref().map(|(status, v)| (status.as_str(), v)),
            (new.0.as_str(), &new.1),
        ),
    )
}

/// The value the kept index holds for a stored card: its ledger balance less its stored holds.
pub(crate) fn stored_available(
    tx: &mut dyn crate::storage::Tx,
    client: &str,
    id: &str,
) -> std::result::Result<Option<Decimal>, crate::storage::StoreError> {
    let Some(card) = table::get::<Card>(tx, client, id)? else {
        return Ok(None);
    };
    Ok(Some(card.balance - stored_held_in(tx, client, id)?))
}

pub(crate) const AVAILABLE: &str = "available";

indexed!(Card, Kind::Card, |r| {
    "status" => r.status.as_str(),
    "type" => r.kind.as_str(),
    "brand" => r.brand.as_str(),
    "currency" => r.currency.as_str(),
    "cardHolderId" => &r.card_holder_id,
    "debitAccountId" => &r.debit_account_id,
    "last4" => &r.last4,
}, ranges {
    // Not `ledgerBalance`: each range index costs card creation a put and a count.
    "updatedAt" ["updatedAt"] => Ordered::Millis(r.updated_at.millis()),
}, kept {
    "available" ["balance", "availableBalance"],
}, stale = lapsed_cards, compound {
    "available" by "status",
}, covered = COVERED, COVER_CLASS => uncover, cover_class, digits {
    "last4" => 4,
});

/// The cards with a hold lapsed by `now_ms` but still stored as pending (their next write settles
/// it): what they can spend is more than the kept index of it holds, which is given for each.
pub(crate) fn lapsed_cards(
    tx: &mut dyn crate::storage::Tx,
    client: &str,
    index: &str,
    now_ms: i64,
) -> std::result::Result<Vec<table::RangePosition>, crate::storage::StoreError> {
    let (start, end) = keys::holds_by_expiry(client, now_ms);
    let mut ids: Vec<String> = Vec::new();
    for (k, _) in tx.scan(&start, &end, Direction::Forward, usize::MAX)? {
        if let Some(card) = keys::hold_by_expiry_card(&start, &k) {
            ids.push(card.to_string());
        }
    }
    ids.sort_unstable();
    ids.dedup();
    let mut out = Vec::with_capacity(ids.len());
    for id in ids {
        let value = stored_available(tx, client, &id)?
            .ok_or_else(|| crate::storage::StoreError(format!("card {id} has no {index} entry")))?;
        out.push(table::RangePosition {
            value: Ordered::Num(value).encode(),
            id,
        });
    }
    Ok(out)
}

/// The sum of a card's stored holds, kept beside them ([`keys::held_total`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct HeldTotal {
    #[serde(with = "money")]
    pub(crate) amount: Decimal,
}

impl Record for HeldTotal {
    const VERSION: u8 = 1;
    const NAME: &'static str = "held total";
}

/// What the card's stored holds add up to (holds lapsed by the clock included).
pub(crate) fn stored_held(s: &mut Scope, card_id: &str) -> Result<Decimal> {
    Ok(stored_held_in(s.tx, s.client, card_id)?)
}

pub(crate) fn stored_held_in(
    tx: &mut dyn crate::storage::Tx,
    client: &str,
    card_id: &str,
) -> std::result::Result<Decimal, crate::storage::StoreError> {
    let key = keys::held_total(client, card_id);
    Ok(codec::get::<HeldTotal>(tx, &key)?.map_or(Decimal::ZERO, |t| t.amount))
}

/// The stored held totals of the cards whose ids lie in `first..=last`, in id order: one range
/// read (the totals are keyed by card id, like the cards), for passes over many cards.
pub(crate) fn stored_helds_in(
    tx: &mut dyn crate::storage::Tx,
    client: &str,
    first: &str,
    last: &str,
) -> std::result::Result<Vec<(String, Decimal)>, crate::storage::StoreError> {
    let start = keys::held_total(client, first);
    let mut end = keys::held_total(client, last);
    // Just past `last`'s own key: a longer id would start with `last` and a 0x00 or more.
    end.push(0);
    let prefix = keys::held_total(client, "");
    let mut out = Vec::new();
    for (key, value) in tx.scan(&start, &end, Direction::Forward, usize::MAX)? {
        let Some(id) = key.strip_prefix(prefix.as_slice()) else {
            continue;
        };
        let total: HeldTotal = codec::decode(&value)?;
        out.push((String::from_utf8_lossy(id).into_owned(), total.amount));
    }
    Ok(out)
}

/// Moves the card's held total by `delta`, and its kept available balance with it.
pub(crate) fn add_held(s: &mut Scope, card_id: &str, delta: Decimal) -> Result<()> {
    let before = stored_held(s, card_id)?;
    let amount = (before + delta).normalize();
    let key = keys::held_total(s.client, card_id);
    codec::put(s.tx, &key, &HeldTotal { amount })?;
    // The card's available balance moved with its holds.
    if let Some(card) = table::get::<Card>(s.tx, s.client, card_id)? {
        let moved = (
            Some((card.status, card.balance - before)),
            (card.status, card.balance - amount),
        );
        keep_available(s.tx, s.client, &card, moved)?;
    }
    Ok(())
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::domain::controls::{Channels, Interval, SpendingLimit};

    /// A card with every field set, none to its default.
    pub(crate) fn full() -> Card {
        let mut metadata = serde_json::Map::new();
        metadata.insert("team".into(), serde_json::json!({"a": [1, "b"]}));
        Card {
            id: "c0ffee".into(),
            debit_account_id: "acct1".into(),
            card_holder_id: "holder1".into(),
            kind: CardType::Physical,
            brand: Brand::MasterCard,
            currency: Currency::parse("EUR").unwrap(),
            status: CardStatus::Canceled,
            metadata: JsonText(metadata),
            spending_controls: SpendingControls {
                channels: Channels {
                    atm: false,
                    pos: true,
                    web: false,
                    mobile: true,
                },
                allowed_categories: vec!["food".into()],
                blocked_categories: vec!["5411".into()],
                spending_limits: vec![SpendingLimit {
                    amount: Decimal::new(-12345, 2),
                    interval: Interval::Weekly,
                    categories: vec!["airlines".into()],
                }],
            },
            enable_2fa: true,
            disposable: true,
            balance: Decimal::new(98765, 3),
            held: Decimal::ZERO,
            masked_pan: "411111******1111".into(),
            last4: "1111".into(),
            expiry_month: "07".into(),
            expiry_year: "2031".into(),
            cancellation_reason: Some(CancellationReason::Stolen),
            canceled_at: Some(Timestamp(1_700_000_000_123)),
            created_at: Timestamp(1_600_000_000_000),
            updated_at: Timestamp(1_700_000_000_456),
        }
    }

    /// Cards of one class share its bytes; another status is another class; a cover cut short or
    /// of another version is refused. (That a cover gives the covered fields as the card does is
    /// checked on the list view, in `http::views`.)
    #[test]
    fn covers_of_one_class_share_its_bytes() {
        let card = full();
        let cover = Cover::encode(&card, card.balance - card.held);
        let mut other = full();
        other.id = "beef".into();
        other.created_at = Timestamp(7);
        let same = Cover::encode(&other, Decimal::ONE);
        assert_eq!(cover_class(&same), cover_class(&cover));
        other.status = CardStatus::Active;
        let moved = Cover::encode(&other, Decimal::ONE);
        assert_ne!(cover_class(&moved), cover_class(&cover));
        // A cover cut short or of another version is refused.
        assert!(Cover::decode(&cover[..cover.len() - 1]).is_err());
        let mut newer = cover.clone();
        newer[0] += 1;
        assert!(Cover::decode(&newer).is_err());
    }

    #[test]
    fn decode_part_equals_decode() {
        let card = full();
        let bytes = codec::encode(&card).unwrap();
        let all = CardParts {
            metadata: true,
            debit_account_id: true,
            card_holder_id: true,
            masked_pan: true,
            last4: true,
            expiry: true,
        };
        assert_eq!(decode_part(&bytes, all).unwrap(), card);
        // Without any text: those left empty, every other field as stored.
        let bare = Card {
            debit_account_id: String::new(),
            card_holder_id: String::new(),
            metadata: JsonText::default(),
            masked_pan: String::new(),
            last4: String::new(),
            expiry_month: String::new(),
            expiry_year: String::new(),
            ..card.clone()
        };
        assert_eq!(decode_part(&bytes, CardParts::default()).unwrap(), bare);
        let some = CardParts {
            last4: true,
            ..CardParts::default()
        };
        let got = decode_part(&bytes, some).unwrap();
        assert_eq!((got.last4.as_str(), got.masked_pan.as_str()), ("1111", ""));
        // A record of another version is refused as a whole decode refuses it.
        let mut other = bytes.clone();
        other[0] = Card::VERSION + 1;
        assert!(decode_part(&other, all).is_err());
        // A text that is not UTF-8 is refused when it is kept (as a whole decode refuses it);
        // one the query does not read is skipped unchecked.
        let mut bad = bytes.clone();
        let at = bad.windows(6).position(|w| w == b"******").unwrap();
        bad[at] = 0xff;
        assert!(codec::decode::<Card>(&bad).is_err());
        let pan = CardParts {
            masked_pan: true,
            ..CardParts::default()
        };
        assert!(decode_part(&bad, pan).is_err());
        assert_eq!(decode_part(&bad, CardParts::default()).unwrap(), bare);
    }
}
