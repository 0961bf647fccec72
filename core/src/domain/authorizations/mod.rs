//! Simulated card spend: a card network asks to approve a purchase; the card's status, spending
//! controls, limits and balance decide. An approved authorization holds its amount on the card until it
//! is captured (a card transaction that lowers the card's ledger balance), reversed, or expires.
//!
//! A card's holds are its pending authorizations, indexed per card by expiry, with their sum kept
//! beside them ([`keys::held_total`]). Expiry needs no writer: a pending authorization whose
//! `expires_at` has passed is read as expired and holds nothing ([`effective`]); the holds still
//! stored but expired by the clock are the short front of the card's expiry-ordered index, so what a
//! card holds is the stored sum less that front, without reading its other holds. The next write to
//! the card stores those as expired ([`settle`]).

pub mod decisions;
pub mod endpoint;
pub mod spend;
pub mod transactions;

use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

use super::card_records::{self, Card, add_held, stored_held};
use super::dispute_records;
use super::ledger;
use super::lifecycle::CardStatus;
use super::{Currency, Result, Scope};
use crate::env::Timestamp;
use crate::error::ApiError;
use crate::macros::{indexed, str_enum};
use crate::storage::Direction;
use crate::storage::codec::{self, Record, money};
use crate::storage::keys::{self, Kind};
use crate::storage::ordered::Ordered;
use crate::storage::table;
use decisions::{Asking, Decision};
use transactions::{CardTransaction, TransactionType};

/// How long an authorization holds funds unless configured otherwise: 7 days.
pub const DEFAULT_TTL_SECS: i64 = 7 * 24 * 3600;

str_enum!(Channel { Atm = "atm", Pos = "pos", Web = "web", Mobile = "mobile" });
str_enum!(AuthorizationStatus {
    Pending = "pending",
    Closed = "closed",
    Reversed = "reversed",
    Expired = "expired",
    Declined = "declined",
});
str_enum!(
    /// In the order they are checked: the first that fails is the reason.
    DeclineReason {
        CardCanceled = "card_canceled",
        CardInactive = "card_inactive",
        CurrencyMismatch = "currency_mismatch",
        ChannelBlocked = "channel_blocked",
        CategoryBlocked = "category_blocked",
        CategoryNotAllowed = "category_not_allowed",
        SpendingLimit = "spending_limit",
        InsufficientFunds = "insufficient_funds",
        // A card program's decision endpoint (README, "Simulate": forced outcomes name them too).
        WebhookDeclined = "webhook_declined",
        WebhookTimeout = "webhook_timeout",
        WebhookError = "webhook_error",
    }
);

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Merchant {
    pub name: String,
    pub category: Option<String>,
    pub mcc: Option<String>,
    pub city: Option<String>,
    pub country: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Authorization {
    pub id: String,
    pub card_id: String,
    pub card_holder_id: String,
    #[serde(with = "money")]
    pub amount: Decimal,
    pub currency: Currency,
    pub channel: Channel,
    pub merchant: Merchant,
    pub approved: bool,
    pub status: AuthorizationStatus,
    pub decline_reason: Option<DeclineReason>,
    /// Still held on the card.
    #[serde(with = "money")]
    pub pending_amount: Decimal,
    #[serde(with = "money")]
    pub captured_amount: Decimal,
    /// Released: reversed, or the uncaptured rest of a capture.
    #[serde(with = "money")]
    pub reversed_amount: Decimal,
    #[serde(with = "money")]
    pub refunded_amount: Decimal,
    pub expires_at: Timestamp,
    pub created_at: Timestamp,
    pub updated_at: Timestamp,
    /// What the purchase asked for (and its increments); more than `amount` after a partial approval.
    #[serde(with = "money")]
    pub requested_amount: Decimal,
    /// Who decided and how (a decision endpoint, its fallback, or the issuer alone); None for
    /// authorizations stored before decisions were kept.
    pub decision: Option<Decision>,
}

impl Record for Authorization {
    // Version 1 had no `requested_amount`; it reads as the amount (no partial approvals then).
    // Version 2 had no `decision`, its last field: its bytes and a postcard `None` (one 0 byte) are
    // a version-3 record without one.
    const VERSION: u8 = 3;
    const NAME: &'static str = "authorization";

    fn older(version: u8, rest: &[u8]) -> Option<std::result::Result<Self, postcard::Error>> {
        match version {
            1 => Some(postcard::from_bytes::<AuthorizationV1>(rest).map(Into::into)),
            2 => {
                let mut bytes = Vec::with_capacity(rest.len() + 1);
                bytes.extend_from_slice(rest);
                bytes.push(0);
                Some(postcard::from_bytes::<Authorization>(&bytes))
            }
            _ => None,
        }
    }
}

/// An authorization as version 1 stored it.
#[derive(Deserialize)]
#[cfg_attr(test, derive(Serialize))]
struct AuthorizationV1 {
    id: String,
    card_id: String,
    card_holder_id: String,
    #[serde(with = "money")]
    amount: Decimal,
    currency: Currency,
    channel: Channel,
    merchant: Merchant,
    approved: bool,
    status: AuthorizationStatus,
    decline_reason: Option<DeclineReason>,
    #[serde(with = "money")]
    pending_amount: Decimal,
    #[serde(with = "money")]
    captured_amount: Decimal,
    #[serde(with = "money")]
    reversed_amount: Decimal,
    #[serde(with = "money")]
    refunded_amount: Decimal,
    expires_at: Timestamp,
    created_at: Timestamp,
    updated_at: Timestamp,
}

impl From<AuthorizationV1> for Authorization {
    fn from(a: AuthorizationV1) -> Self {
        Authorization {
            id: a.id,
            card_id: a.card_id,
            card_holder_id: a.card_holder_id,
            amount: a.amount,
            currency: a.currency,
            channel: a.channel,
            merchant: a.merchant,
            approved: a.approved,
            status: a.status,
            decline_reason: a.decline_reason,
            pending_amount: a.pending_amount,
            captured_amount: a.captured_amount,
            reversed_amount: a.reversed_amount,
            refunded_amount: a.refunded_amount,
            expires_at: a.expires_at,
            created_at: a.created_at,
            updated_at: a.updated_at,
            requested_amount: a.amount,
            decision: None,
        }
    }
}

/// POST /cards/{id}/authorizations, validated.
#[derive(Debug, Clone)]
pub struct NewAuthorization {
    pub amount: Decimal,
    pub currency: Option<Currency>,
    pub channel: Channel,
    pub merchant: Merchant,
    /// The purchase may be approved for less than asked (what the balance and limits leave).
    pub partial_approval_capable: bool,
    /// A forced outcome (simulation): declined with this reason, nothing checked, nothing moves.
    pub simulate_decline: Option<DeclineReason>,
}

/// `auth` as it stands at `now`: a pending authorization past its `expires_at` is expired and holds
/// nothing, whether or not it has been written since.
pub fn effective(mut auth: Authorization, now: Timestamp) -> Authorization {
    if auth.status == AuthorizationStatus::Pending && auth.expires_at <= now {
        auth.status = AuthorizationStatus::Expired;
        auth.pending_amount = Decimal::ZERO;
        auth.updated_at = auth.expires_at;
    }
    auth
}

fn save(s: &mut Scope, auth: &Authorization) -> Result<()> {
    Ok(table::save(s.tx, s.client, auth)?)
}

// Only the card is indexed: a pending authorization's status changes with the clock, not with a
// write, so an index of stored statuses would answer `status=expired` wrongly.
indexed!(Authorization, Kind::Authorization, |r| {
    "cardId" => &r.card_id,
}, ranges {
    // Not `updatedAt`: an expiry by the clock moves it without a write.
    "amount" ["amount"] => Ordered::Num(r.amount),
});

/// The hold in the client's queue of holds by expiry (which cards have lapsed holds).
pub(crate) fn queue_key(client: &str, auth: &Authorization) -> Vec<u8> {
    keys::hold_by_expiry(client, auth.expires_at.millis(), &auth.card_id, &auth.id)
}

fn hold_key(s: &Scope, auth: &Authorization) -> Vec<u8> {
    keys::hold(s.client, &auth.card_id, auth.expires_at.millis(), &auth.id)
}

/// One of the caller's authorizations, as it stands now.
pub fn get(s: &mut Scope, id: &str) -> Result<Authorization> {
    let auth: Authorization = super::find(s, Kind::Authorization, id, "Authorization")?;
    Ok(effective(auth, s.now))
}

/// Every authorization of the caller, oldest first, as they stand now.
/// Loads them all: for the invariant checks of the tests; lists go through the planner.
#[cfg(test)]
pub fn all(s: &mut Scope) -> Result<Vec<Authorization>> {
    let now = s.now;
    Ok(
        codec::scan(s.tx, &keys::records(s.client, Kind::Authorization))?
            .into_iter()
            .map(|a| effective(a, now))
            .collect(),
    )
}

/// The authorizations behind the hold entries in `start..end`.
fn holds_in(s: &mut Scope, start: &[u8], end: &[u8]) -> Result<Vec<Authorization>> {
    let entries = s.tx.scan(start, end, Direction::Forward, usize::MAX)?;
    let mut out = Vec::with_capacity(entries.len());
    for (_, id) in entries {
        let id = String::from_utf8_lossy(&id).into_owned();
        if let Some(a) = codec::get(s.tx, &keys::record(s.client, Kind::Authorization, &id))? {
            out.push(a);
        }
    }
    Ok(out)
}

/// The card's holds still stored as pending but expired by the clock (those [`settle`] would store).
pub fn lapsed_holds(s: &mut Scope, card_id: &str) -> Result<Vec<Authorization>> {
    let (start, end) = keys::holds(s.client, card_id, s.now.millis());
    holds_in(s, &start, &end)
}

/// One of the caller's cards as it stands now: with what its holds hold (`cards::get`).
pub(crate) fn card(s: &mut Scope, id: &str) -> Result<Card> {
    let mut card = card_records::stored(s, id)?;
    card.held = held(s, &card.id)?;
    Ok(card)
}

/// What the card's holds add up to now.
pub fn held(s: &mut Scope, card_id: &str) -> Result<Decimal> {
    let stored = stored_held(s, card_id)?;
    // Pending amounts are never negative, so a stored total of zero means no hold has anything
    // pending and none can have lapsed: a card with no open holds (most reads of a card) is
    // answered without a walk of its holds.
    if stored.is_zero() {
        return Ok(stored.normalize());
    }
    let lapsed: Decimal = lapsed_holds(s, card_id)?
        .iter()
        .map(|a| a.pending_amount)
        .sum();
    Ok((stored - lapsed).normalize())
}

/// Takes `auth` off the card's holds: its spend totals lose `released`, and it leaves the index once
/// nothing is pending.
fn release(s: &mut Scope, auth: &Authorization, released: Decimal) -> Result<()> {
    spend::add(s.tx, s.client, auth, -released)?;
    add_held(s, &auth.card_id, -released)?;
    if auth.pending_amount.is_zero() {
        let key = hold_key(s, auth);
        s.tx.delete(&key)?;
        s.tx.delete(&queue_key(s.client, auth))?;
    }
    Ok(())
}

/// Stores as expired every hold of the card whose time has passed.
pub fn settle(s: &mut Scope, card_id: &str) -> Result<()> {
    for auth in lapsed_holds(s, card_id)? {
        let released = auth.pending_amount;
        let expired = effective(auth, s.now);
        release(s, &expired, released)?;
        save(s, &expired)?;
    }
    Ok(())
}

/// The first rule `new` breaks on `card`, in the documented order, given its spend and balance.
fn decline_reason(
    card: &Card,
    new: &NewAuthorization,
    currency: &Currency,
    limits: &[spend::LimitSpend],
    available: Decimal,
) -> Option<DeclineReason> {
    let controls = &card.spending_controls;
    let category = new.merchant.category.as_deref();
    let mcc = new.merchant.mcc.as_deref();
    let listed = |list: &[String]| {
        list.iter()
            .any(|c| Some(c.as_str()) == category || Some(c.as_str()) == mcc)
    };
    let channel_open = match new.channel {
        Channel::Atm => controls.channels.atm,
        Channel::Pos => controls.channels.pos,
        Channel::Web => controls.channels.web,
        Channel::Mobile => controls.channels.mobile,
    };
    if card.status == CardStatus::Canceled {
        Some(DeclineReason::CardCanceled)
    } else if card.status == CardStatus::Inactive {
        Some(DeclineReason::CardInactive)
    } else if currency != &card.currency {
        Some(DeclineReason::CurrencyMismatch)
    } else if !channel_open {
        Some(DeclineReason::ChannelBlocked)
    } else if listed(&controls.blocked_categories) {
        Some(DeclineReason::CategoryBlocked)
    } else if !controls.allowed_categories.is_empty() && !listed(&controls.allowed_categories) {
        Some(DeclineReason::CategoryNotAllowed)
    } else if limits
        .iter()
        .any(|l| l.applies_to(category, mcc) && !l.allows(new.amount))
    {
        Some(DeclineReason::SpendingLimit)
    } else if new.amount > available {
        Some(DeclineReason::InsufficientFunds)
    } else {
        None
    }
}

/// The amount approved and the decline reason of `new`: all of it, or with `partial_approval_capable`
/// what the balance and the limits that apply leave when that is more than zero but short of it.
fn decide(
    card: &Card,
    new: &NewAuthorization,
    currency: &Currency,
    limits: &[spend::LimitSpend],
    available: Decimal,
) -> (Decimal, Option<DeclineReason>) {
    let reason = decline_reason(card, new, currency, limits, available);
    let short = matches!(
        reason,
        Some(DeclineReason::SpendingLimit | DeclineReason::InsufficientFunds)
    );
    if !(short && new.partial_approval_capable) {
        return (new.amount, reason);
    }
    let category = new.merchant.category.as_deref();
    let mcc = new.merchant.mcc.as_deref();
    let room = limits
        .iter()
        .filter(|l| l.applies_to(category, mcc))
        .map(|l| l.available)
        .fold(available, Decimal::min);
    if room <= Decimal::ZERO {
        return (new.amount, reason);
    }
    let partial = NewAuthorization {
        amount: room.normalize(),
        ..new.clone()
    };
    // The room passes every check by construction; deciding again keeps one rule for it.
    match decline_reason(card, &partial, currency, limits, available) {
        None => (partial.amount, None),
        Some(_) => (new.amount, reason),
    }
}

/// What a decision endpoint adds to a purchase (see [`decisions`]).
#[derive(Debug, Clone, Default)]
pub struct Decide {
    /// The id the endpoint was shown for this authorization, to keep (a fresh one if unusable).
    pub id: Option<String>,
    /// Set when the client has a decision endpoint: it decides what the issuer approves.
    pub asking: Option<Asking>,
}

/// Decides a purchase on one of the caller's cards by the issuer's checks alone and records it.
pub fn authorize(
    s: &mut Scope,
    card_id: &str,
    new: NewAuthorization,
    ttl_secs: i64,
) -> Result<Authorization> {
    authorize_with(s, card_id, new, ttl_secs, Decide::default())
}

/// Decides a purchase on one of the caller's cards and records the authorization, approved (its
/// amount held on the card) or declined (nothing moves). The issuer's checks run first; what they
/// approve, a decision endpoint's answer (`with.asking`) may decline or approve in part.
pub fn authorize_with(
    s: &mut Scope,
    card_id: &str,
    new: NewAuthorization,
    ttl_secs: i64,
    with: Decide,
) -> Result<Authorization> {
    let card = card(s, card_id)?;
    settle(s, &card.id)?;
    let limits = spend::limits(s, &card, &[], s.now)?;
    let available = card.available();
    let currency = new
        .currency
        .clone()
        .unwrap_or_else(|| card.currency.clone());
    let requested = new.amount;
    let (mut amount, mut reason) = match new.simulate_decline {
        Some(forced) => (requested, Some(forced)),
        None => decide(&card, &new, &currency, &limits, available),
    };
    let mut decision = Decision::issuer();
    // The endpoint decides only what the issuer approved (a forced outcome asks nobody).
    if let (None, Some(asking)) = (reason, &with.asking) {
        let judged = decisions::judge(asking, requested, amount, new.partial_approval_capable);
        match judged.approved {
            Ok(approved) => amount = approved,
            Err(declined) => (amount, reason) = (requested, Some(declined)),
        }
        decision = judged.decision;
    }
    let approved = reason.is_none();
    let id = match with.id {
        Some(id) if unused_id(s, &id)? => id,
        _ => s.new_id(),
    };
    let auth = Authorization {
        id,
        card_id: card.id.clone(),
        card_holder_id: card.card_holder_id.clone(),
        amount,
        requested_amount: requested,
        currency,
        channel: new.channel,
        merchant: new.merchant,
        approved,
        status: if approved {
            AuthorizationStatus::Pending
        } else {
            AuthorizationStatus::Declined
        },
        decline_reason: reason,
        pending_amount: if approved { amount } else { Decimal::ZERO },
        captured_amount: Decimal::ZERO,
        reversed_amount: Decimal::ZERO,
        refunded_amount: Decimal::ZERO,
        expires_at: s.now.plus_seconds(ttl_secs),
        created_at: s.now,
        updated_at: s.now,
        decision: Some(decision),
    };
    table::insert(s.tx, s.client, &auth)?;
    if approved {
        let key = hold_key(s, &auth);
        s.tx.put(&key, auth.id.as_bytes())?;
        s.tx.put(&queue_key(s.client, &auth), &[])?;
        add_held(s, &card.id, auth.amount)?;
        spend::add(s.tx, s.client, &auth, auth.amount)?;
        touch(s, card)?;
    }
    Ok(auth)
}

/// Whether `id` (handed back by a host from the ask) can name a new authorization of the caller.
fn unused_id(s: &mut Scope, id: &str) -> Result<bool> {
    Ok(super::ids::is_valid(id)
        && s.tx
            .get(&keys::record(s.client, Kind::Authorization, id))?
            .is_none())
}

/// The card's available balance changed: so did the card.
fn touch(s: &mut Scope, mut card: Card) -> Result<Card> {
    card.updated_at = s.now;
    card_records::save(s, &card)?;
    Ok(card)
}

/// A pending authorization of the caller's, for a change; anything else is 409.
fn pending(s: &mut Scope, id: &str, action: &str) -> Result<Authorization> {
    let auth = get(s, id)?;
    if auth.status != AuthorizationStatus::Pending {
        return Err(ApiError::InvalidState(format!(
            "Authorization is {} and cannot be {action}",
            auth.status.as_str()
        )));
    }
    Ok(auth)
}

fn amount_within(amount: Option<Decimal>, max: Decimal, what: &str) -> Result<Decimal> {
    let amount = amount.unwrap_or(max);
    if amount > max {
        return Err(ApiError::InvalidState(format!(
            "Amount {amount} is more than the {what} {max}"
        )));
    }
    Ok(amount)
}

/// Captures `amount` (default: all that is pending) and releases the rest; the card's ledger balance
/// falls by the captured amount and a capture transaction is recorded.
pub fn capture(
    s: &mut Scope,
    id: &str,
    amount: Option<Decimal>,
) -> Result<(Authorization, CardTransaction)> {
    let mut auth = pending(s, id, "captured")?;
    let amount = amount_within(amount, auth.pending_amount, "pending amount")?;
    let released = auth.pending_amount - amount;
    auth.captured_amount += amount;
    auth.reversed_amount += released;
    auth.pending_amount = Decimal::ZERO;
    auth.status = AuthorizationStatus::Closed;
    auth.updated_at = s.now;
    let mut card = card(s, &auth.card_id)?;
    card.balance = ledger::checked_sum(card.balance, -amount, "The card balance")?.normalize();
    // The captured part leaves the holds too, but still counts as spent.
    add_held(s, &auth.card_id, -amount)?;
    release(s, &auth, released)?;
    save(s, &auth)?;
    let tx = transactions::record(s, &auth, TransactionType::Capture, -amount)?;
    touch(s, card)?;
    Ok((auth, tx))
}

/// Raises a pending authorization's hold by `amount` (a hotel stay that grows), after the checks a new
/// purchase of `amount` at the same merchant would pass now; a failing check is 422 with its reason
/// and changes nothing. The increment counts in the spend periods the authorization was created in.
pub fn increment(s: &mut Scope, id: &str, amount: Decimal) -> Result<Authorization> {
    let mut auth = pending(s, id, "incremented")?;
    let card = card(s, &auth.card_id)?;
    settle(s, &card.id)?;
    let limits = spend::limits(s, &card, &[], s.now)?;
    let new = NewAuthorization {
        amount,
        currency: Some(auth.currency.clone()),
        channel: auth.channel,
        merchant: auth.merchant.clone(),
        partial_approval_capable: false,
        simulate_decline: None,
    };
    if let Some(reason) = decline_reason(&card, &new, &auth.currency, &limits, card.available()) {
        return Err(ApiError::Declined(reason.as_str()));
    }
    let raised = |v: Decimal| ledger::checked_sum(v, amount, "The authorization amount");
    auth.amount = raised(auth.amount)?.normalize();
    auth.requested_amount = raised(auth.requested_amount)?.normalize();
    auth.pending_amount = raised(auth.pending_amount)?.normalize();
    auth.updated_at = s.now;
    save(s, &auth)?;
    add_held(s, &card.id, amount)?;
    spend::add(s.tx, s.client, &auth, amount)?;
    touch(s, card)?;
    Ok(auth)
}

/// Releases `amount` of the hold (default: all of it); reversed once nothing is pending.
pub fn reverse(s: &mut Scope, id: &str, amount: Option<Decimal>) -> Result<Authorization> {
    let mut auth = pending(s, id, "reversed")?;
    let amount = amount_within(amount, auth.pending_amount, "pending amount")?;
    auth.pending_amount -= amount;
    auth.reversed_amount += amount;
    if auth.pending_amount.is_zero() {
        auth.status = AuthorizationStatus::Reversed;
    }
    auth.updated_at = s.now;
    release(s, &auth, amount)?;
    save(s, &auth)?;
    let card = card(s, &auth.card_id)?;
    touch(s, card)?;
    Ok(auth)
}

/// The merchant returns `amount` (default: all captured and not yet refunded) to the card.
pub fn refund(
    s: &mut Scope,
    id: &str,
    amount: Option<Decimal>,
) -> Result<(Authorization, CardTransaction)> {
    let mut auth = get(s, id)?;
    // Open or won disputes return their part through the network, not through a refund.
    let refundable =
        auth.captured_amount - auth.refunded_amount - dispute_records::claimed(s, &auth.id)?;
    if refundable <= Decimal::ZERO {
        return Err(ApiError::InvalidState(
            "Authorization has nothing captured left to refund".into(),
        ));
    }
    let amount = amount_within(amount, refundable, "refundable amount")?;
    let mut card = card(s, &auth.card_id)?;
    card.check_not_canceled()?;
    card.balance = ledger::checked_sum(card.balance, amount, "The card balance")?.normalize();
    auth.refunded_amount += amount;
    auth.updated_at = s.now;
    save(s, &auth)?;
    let tx = transactions::record(s, &auth, TransactionType::Refund, amount)?;
    touch(s, card)?;
    Ok((auth, tx))
}

/// Before a card is canceled: every live hold is reversed, expired ones are stored as expired.
pub fn reverse_all(s: &mut Scope, card_id: &str) -> Result<()> {
    settle(s, card_id)?;
    let (start, _) = keys::holds(s.client, card_id, 0);
    let end = crate::storage::prefix_end(&start);
    for mut auth in holds_in(s, &start, &end)? {
        let amount = auth.pending_amount;
        auth.pending_amount = Decimal::ZERO;
        auth.reversed_amount += amount;
        auth.status = AuthorizationStatus::Reversed;
        auth.updated_at = s.now;
        release(s, &auth, amount)?;
        save(s, &auth)?;
    }
    Ok(())
}

/// `GET /cards/{id}/spending`: every limit of the card with what is spent and left now.
pub fn spending(s: &mut Scope, card_id: &str) -> Result<Vec<spend::LimitSpend>> {
    let card = card(s, card_id)?;
    let lapsed = lapsed_holds(s, &card.id)?;
    spend::limits(s, &card, &lapsed, s.now)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A version-1 record (before `requested_amount`) reads as the same authorization, asked for its
    /// amount.
    #[test]
    fn a_version_1_authorization_reads_with_its_amount_as_requested() {
        let t = Timestamp(1_795_341_600_000);
        let v1 = AuthorizationV1 {
            id: "6b0441f0af7223969f33f312".into(),
            card_id: "card".into(),
            card_holder_id: "holder".into(),
            amount: Decimal::new(1250, 2),
            currency: Currency::parse("USD").unwrap(),
            channel: Channel::Web,
            merchant: Merchant {
                name: "Shop".into(),
                category: Some("airlines".into()),
                mcc: None,
                city: None,
                country: Some("NG".into()),
            },
            approved: true,
            status: AuthorizationStatus::Pending,
            decline_reason: None,
            pending_amount: Decimal::new(1250, 2),
            captured_amount: Decimal::ZERO,
            reversed_amount: Decimal::ZERO,
            refunded_amount: Decimal::ZERO,
            expires_at: t.plus_seconds(60),
            created_at: t,
            updated_at: t,
        };
        let bytes = postcard::to_extend(&v1, vec![1u8]).unwrap();
        let read: Authorization = codec::decode(&bytes).unwrap();
        assert_eq!(read.requested_amount, Decimal::new(1250, 2));
        assert_eq!(read.merchant.category.as_deref(), Some("airlines"));
        assert_eq!(read.expires_at, t.plus_seconds(60));
        // Written again it is version 2, and reads back equal.
        let again: Authorization = codec::decode(&codec::encode(&read).unwrap()).unwrap();
        assert_eq!(again, read);
        assert!(codec::decode::<Authorization>(&[3, 0]).is_err());
    }

    /// A version-2 record (before `decision`, its last field) reads with no decision; a version-3
    /// one keeps its decision.
    #[test]
    fn a_version_2_authorization_reads_without_a_decision() {
        let t = Timestamp(1_795_341_600_000);
        let v1 = AuthorizationV1 {
            id: "6b0441f0af7223969f33f312".into(),
            card_id: "card".into(),
            card_holder_id: "holder".into(),
            amount: Decimal::new(700, 2),
            currency: Currency::parse("USD").unwrap(),
            channel: Channel::Pos,
            merchant: Merchant {
                name: "Shop".into(),
                category: None,
                mcc: Some("5411".into()),
                city: None,
                country: None,
            },
            approved: true,
            status: AuthorizationStatus::Pending,
            decline_reason: None,
            pending_amount: Decimal::new(700, 2),
            captured_amount: Decimal::ZERO,
            reversed_amount: Decimal::ZERO,
            refunded_amount: Decimal::ZERO,
            expires_at: t.plus_seconds(60),
            created_at: t,
            updated_at: t,
        };
        let mut auth = Authorization::from(v1);
        auth.requested_amount = Decimal::new(900, 2);
        // Version 2 wrote exactly version 3's fields but the last: drop the `None`'s byte.
        let mut v2 = codec::encode(&auth).unwrap();
        assert_eq!(v2.pop(), Some(0));
        v2[0] = 2;
        let read: Authorization = codec::decode(&v2).unwrap();
        assert_eq!(read, auth);
        assert_eq!(read.decision, None);
        auth.decision = Some(Decision {
            source: decisions::DecisionSource::Fallback,
            reason: Some(decisions::DecisionReason::Timeout),
            latency_ms: 2001,
            metadata: None,
        });
        let again: Authorization = codec::decode(&codec::encode(&auth).unwrap()).unwrap();
        assert_eq!(again, auth);
    }
}
