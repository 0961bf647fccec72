//! Card transactions: what a capture takes from a card and what a refund or a won dispute gives back,
//! signed from the card's point of view (capture negative, refund and dispute credit positive).

use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

use super::{Authorization, Merchant};
use crate::domain::{Currency, Result, Scope};
use crate::env::Timestamp;
use crate::macros::{indexed, str_enum};
use crate::storage::codec::{Record, money};
use crate::storage::keys::Kind;
use crate::storage::table;

str_enum!(TransactionType {
    Capture = "capture",
    Refund = "refund",
    DisputeCredit = "dispute_credit",
});

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CardTransaction {
    pub id: String,
    pub card_id: String,
    pub authorization_id: String,
    pub kind: TransactionType,
    #[serde(with = "money")]
    pub amount: Decimal,
    pub currency: Currency,
    pub merchant: Merchant,
    pub created_at: Timestamp,
}

impl Record for CardTransaction {
    const VERSION: u8 = 1;
    const NAME: &'static str = "card transaction";
}

indexed!(CardTransaction, Kind::CardTransaction, |r| {
    "cardId" => &r.card_id,
});

/// Records a transaction of `auth`, indexed under its card.
pub(crate) fn record(
    s: &mut Scope,
    auth: &Authorization,
    kind: TransactionType,
    amount: Decimal,
) -> Result<CardTransaction> {
    let tx = CardTransaction {
        id: s.new_id(),
        card_id: auth.card_id.clone(),
        authorization_id: auth.id.clone(),
        kind,
        amount: amount.normalize(),
        currency: auth.currency.clone(),
        merchant: auth.merchant.clone(),
        created_at: s.now,
    };
    table::insert(s.tx, s.client, &tx)?;
    Ok(tx)
}

pub fn get(s: &mut Scope, id: &str) -> Result<CardTransaction> {
    crate::domain::find(s, Kind::CardTransaction, id, "Card transaction")
}
