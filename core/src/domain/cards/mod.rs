//! Cards: issued against a funding account and a card holder; funded, paused, canceled, terminated.
//! Every money movement is a ledger entry written in the same transaction as the card change.
//! The record and what is kept beside it are `card_records` (re-exported here); a card is read
//! with its holds through `authorizations`, which sit between the two.

use chrono::Datelike;
use rust_decimal::Decimal;

pub use super::card_records::{Brand, CancellationReason, Card, CardParts, CardType, decode_part};
pub use super::controls::{
    Channels, ControlsPatch, Interval, SpendingControls, SpendingLimit, is_category,
};
pub use super::lifecycle::CardStatus;

use super::accounts::{self, Account};
use super::card_records::{keep_available, save};
use super::ledger::{self, EntryType};
use super::lifecycle::{CardTrigger, card_move};
use super::vault::{self, Vault};
use super::{Currency, Result, Scope, authorizations, card_holders};
use crate::env::Timestamp;
use crate::error::ApiError;
use crate::storage::codec::JsonText;
use crate::storage::table;

/// POST /cards, validated.
#[derive(Debug, Clone)]
pub struct NewCard {
    pub debit_account_id: String,
    pub card_holder_id: String,
    pub kind: CardType,
    pub brand: Brand,
    pub status: CardStatus,
    pub currency: Currency,
    pub metadata: JsonText,
    pub spending_controls: ControlsPatch,
    pub enable_2fa: bool,
    pub amount: Option<Decimal>,
    pub disposable: bool,
}

/// PUT /cards/{id}, validated.
#[derive(Debug, Clone, Default)]
pub struct CardUpdate {
    pub status: Option<CardStatus>,
    pub cancellation_reason: Option<CancellationReason>,
    pub metadata: Option<JsonText>,
    pub spending_controls: Option<ControlsPatch>,
    pub credit_account_id: Option<String>,
}

/// POST /cards/{id}/fund, validated.
#[derive(Debug, Clone)]
pub struct Funding {
    pub debit_account_id: String,
    pub amount: Decimal,
}

/// One of the caller's cards as it stands now (with what its holds hold).
pub fn get(s: &mut Scope, id: &str) -> Result<Card> {
    authorizations::card(s, id)
}

fn fill_held(s: &mut Scope, card: &mut Card) -> Result<()> {
    card.held = authorizations::held(s, &card.id)?;
    Ok(())
}

/// The card as lists show it: with the sum of its holds.
pub fn with_holds(s: &mut Scope, mut card: Card) -> Result<Card> {
    fill_held(s, &mut card)?;
    Ok(card)
}

/// [`with_holds`] for many cards at once: their held totals in one range read rather than a
/// lookup per card (a list's pass over every card); a card with something held is read as
/// [`with_holds`] reads it (its lapsed holds taken off).
pub fn with_holds_many(s: &mut Scope, cards: &mut [Card]) -> Result<()> {
    let (Some(first), Some(last)) = (
        cards.iter().map(|c| c.id.as_str()).min(),
        cards.iter().map(|c| c.id.as_str()).max(),
    ) else {
        return Ok(());
    };
    let stored = super::card_records::stored_helds_in(s.tx, s.client, first, last)?;
    for card in cards.iter_mut() {
        let found = stored.binary_search_by(|(id, _)| id.as_str().cmp(&card.id));
        match found {
            Ok(i) if !stored[i].1.is_zero() => fill_held(s, card)?,
            // Nothing held: no hold can have lapsed either (see `authorizations::held`).
            _ => card.held = Decimal::ZERO,
        }
    }
    Ok(())
}

/// Every card of the caller, oldest first.
/// Loads them all: for the invariant checks of the tests; lists go through the planner.
#[cfg(test)]
pub fn all(s: &mut Scope) -> Result<Vec<Card>> {
    let mut cards: Vec<Card> = crate::storage::codec::scan(
        s.tx,
        &crate::storage::keys::records(s.client, crate::storage::keys::Kind::Card),
    )?;
    for card in &mut cards {
        fill_held(s, card)?;
    }
    Ok(cards)
}

fn check_currency(card_currency: &Currency, account: &Account) -> Result<()> {
    if &account.currency == card_currency {
        Ok(())
    } else {
        Err(ApiError::CurrencyMismatch(format!(
            "Card currency {card_currency} differs from account currency {}",
            account.currency
        )))
    }
}

/// The debit account of a card operation: the caller's, usable, in the card's currency.
fn debit_account(s: &mut Scope, currency: &Currency, id: &str) -> Result<Account> {
    let account = accounts::get(s, id)?;
    account.check_debitable()?;
    check_currency(currency, &account)?;
    Ok(account)
}

/// Issues a card: its PAN and CVV sealed in the vault, its opening amount debited from the account.
pub fn create(s: &mut Scope, vault: &Vault, new: NewCard) -> Result<Card> {
    let controls = SpendingControls::default().apply(new.spending_controls)?;
    card_holders::get(s, &new.card_holder_id)?;
    let mut account = debit_account(s, &new.currency, &new.debit_account_id)?;
    let id = s.new_id();
    let balance = match new.amount {
        Some(amount) => {
            accounts::post(
                s,
                &mut account,
                EntryType::CardIssueFunding,
                -amount,
                Some(&id),
            )?;
            amount
        }
        None => Decimal::ZERO,
    };
    let secrets = vault.issue(s, &id, new.brand == Brand::Visa)?;
    let expires = s.now.to_datetime();
    let card = Card {
        id,
        debit_account_id: new.debit_account_id,
        card_holder_id: new.card_holder_id,
        kind: new.kind,
        brand: new.brand,
        currency: new.currency,
        status: new.status,
        metadata: new.metadata,
        spending_controls: controls,
        enable_2fa: new.enable_2fa,
        disposable: new.disposable,
        balance,
        held: Decimal::ZERO,
        masked_pan: vault::mask(&secrets.pan),
        last4: vault::last4(&secrets.pan).to_string(),
        expiry_month: format!("{:02}", expires.month()),
        expiry_year: format!("{:04}", expires.year() + 3),
        cancellation_reason: None,
        canceled_at: None,
        created_at: s.now,
        updated_at: s.now,
    };
    table::insert(s.tx, s.client, &card)?;
    keep_available(s.tx, s.client, &card, (None, (card.status, card.balance)))?;
    Ok(card)
}

/// Cancels `card` (PUT canceled or DELETE): reverses its pending authorizations, then refunds its balance to the credit account, or else to
/// its debit account, as a ledger entry, and destroys its PAN and CVV.
fn cancel(
    s: &mut Scope,
    card: &mut Card,
    trigger: CardTrigger,
    reason: Option<CancellationReason>,
    credit_account_id: Option<String>,
) -> Result<()> {
    card.status = card_move(card.status, trigger)?;
    authorizations::reverse_all(s, &card.id)?;
    card.held = Decimal::ZERO;
    let refund_to = credit_account_id.unwrap_or_else(|| card.debit_account_id.clone());
    let mut account = accounts::get(s, &refund_to)?;
    if card.balance > Decimal::ZERO {
        account.check_creditable()?;
        check_currency(&card.currency, &account)?;
        accounts::post(
            s,
            &mut account,
            EntryType::CardRefund,
            card.balance,
            Some(&card.id),
        )?;
        card.balance = Decimal::ZERO;
    }
    vault::destroy(s, &card.id)?;
    card.cancellation_reason = reason;
    card.canceled_at = Some(s.now);
    Ok(())
}

pub fn update(s: &mut Scope, id: &str, u: CardUpdate) -> Result<Card> {
    let mut card = get(s, id)?;
    card.check_not_canceled()?;
    if let Some(patch) = u.spending_controls {
        card.spending_controls = card.spending_controls.apply(patch)?;
    }
    if let Some(metadata) = u.metadata {
        card.metadata = metadata;
    }
    match u.status {
        Some(to) if to == card.status => {}
        Some(CardStatus::Inactive) => card.status = card_move(card.status, CardTrigger::Pause)?,
        Some(CardStatus::Active) => card.status = card_move(card.status, CardTrigger::Resume)?,
        Some(CardStatus::Canceled) => cancel(
            s,
            &mut card,
            CardTrigger::Cancel,
            u.cancellation_reason,
            u.credit_account_id,
        )?,
        None => {}
    }
    card.updated_at = s.now;
    save(s, &card)?;
    Ok(card)
}

/// DELETE: the card is canceled for good, its balance refunded to its debit account.
pub fn terminate(s: &mut Scope, id: &str) -> Result<Card> {
    let mut card = get(s, id)?;
    card.check_not_canceled()?;
    cancel(s, &mut card, CardTrigger::Terminate, None, None)?;
    card.updated_at = s.now;
    save(s, &card)?;
    Ok(card)
}

pub fn fund(s: &mut Scope, id: &str, funding: Funding) -> Result<Card> {
    let mut card = get(s, id)?;
    card.check_not_canceled()?;
    let mut account = debit_account(s, &card.currency, &funding.debit_account_id)?;
    accounts::post(
        s,
        &mut account,
        EntryType::CardFunding,
        -funding.amount,
        Some(&card.id),
    )?;
    card.balance =
        ledger::checked_sum(card.balance, funding.amount, "The card balance")?.normalize();
    card.updated_at = s.now;
    save(s, &card)?;
    Ok(card)
}

/// A short-lived single-use reveal token for one of the caller's cards.
pub fn token(s: &mut Scope, id: &str, ttl_secs: i64) -> Result<(String, Timestamp)> {
    let card = get(s, id)?;
    card.check_not_canceled()?;
    vault::create_token(s, &card.id, ttl_secs)
}

/// The card's PAN and CVV in clear, for a live token of this card (which it consumes).
pub fn reveal(
    s: &mut Scope,
    vault: &Vault,
    id: &str,
    token: Option<&str>,
) -> Result<(Card, vault::CardSecrets)> {
    let card = get(s, id)?;
    if card.status == CardStatus::Canceled {
        return Err(ApiError::InvalidState(
            "Card is canceled and cannot be revealed".into(),
        ));
    }
    vault::consume_token(s, &card.id, token)?;
    let secrets = vault.reveal(s, &card.id)?;
    Ok((card, secrets))
}
