//! Cards: issued against a funding account and a card holder; funded, paused, canceled, terminated.
//! Every money movement is a ledger entry written in the same transaction as the card change.

mod controls;
mod input;
mod routes;

use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

pub use controls::{Channels, Interval, SpendingControls, SpendingLimit};
pub use input::{validate_create, validate_fund, validate_update};
pub use routes::{create, delete, fund, get, list, reveal, token, update};

use crate::api::Ctx;
use crate::error::{ApiError, ApiResult};
use crate::keys;
use crate::macros::str_enum;
use crate::query::{FieldType, Schema};
use crate::records;
use crate::validate::decimal_json;

str_enum!(CardType { Virtual = "virtual", Physical = "physical" });
str_enum!(Brand { Visa = "Visa", MasterCard = "MasterCard" });
str_enum!(CardCurrency { Ngn = "NGN", Usd = "USD" });
str_enum!(CardStatus { Active = "active", Inactive = "inactive", Canceled = "canceled" });
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

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Card {
    #[serde(rename = "_id")]
    pub id: String,
    pub debit_account_id: String,
    pub card_holder_id: String,
    #[serde(rename = "type")]
    pub kind: CardType,
    pub brand: Brand,
    pub currency: CardCurrency,
    pub status: CardStatus,
    pub metadata: Map<String, Value>,
    pub spending_controls: SpendingControls,
    #[serde(rename = "enable2FA")]
    pub enable_2fa: bool,
    pub disposable: bool,
    /// What the card can spend: issue funding plus fundings, less refunds.
    #[serde(with = "rust_decimal::serde::arbitrary_precision")]
    pub balance: Decimal,
    pub masked_pan: Option<String>,
    pub last4: Option<String>,
    pub expiry_month: Option<String>,
    pub expiry_year: Option<String>,
    pub cancellation_reason: Option<CancellationReason>,
    pub canceled_at: Option<String>,
    pub created_at: String,
    pub updated_at: String,
}

pub static SCHEMA: Schema = Schema {
    fields: &[
        ("_id", FieldType::Str),
        ("debitAccountId", FieldType::Str),
        ("cardHolderId", FieldType::Str),
        ("type", FieldType::Str),
        ("brand", FieldType::Str),
        ("currency", FieldType::Str),
        ("status", FieldType::Str),
        ("metadata", FieldType::FreeForm),
        ("spendingControls", FieldType::Object),
        ("spendingControls.channels", FieldType::Object),
        ("spendingControls.channels.atm", FieldType::Bool),
        ("spendingControls.channels.pos", FieldType::Bool),
        ("spendingControls.channels.web", FieldType::Bool),
        ("spendingControls.channels.mobile", FieldType::Bool),
        ("spendingControls.allowedCategories", FieldType::Str),
        ("spendingControls.blockedCategories", FieldType::Str),
        ("spendingControls.spendingLimits", FieldType::FreeForm),
        ("enable2FA", FieldType::Bool),
        ("disposable", FieldType::Bool),
        ("balance", FieldType::Number),
        ("maskedPan", FieldType::Str),
        ("last4", FieldType::Str),
        ("expiryMonth", FieldType::Str),
        ("expiryYear", FieldType::Str),
        ("cancellationReason", FieldType::Str),
        ("canceledAt", FieldType::Date),
        ("createdAt", FieldType::Date),
        ("updatedAt", FieldType::Date),
    ],
    default_search: &["cardHolderId", "debitAccountId", "last4"],
    populate: &[
        ("cardHolder", &crate::card_holders::SCHEMA),
        ("debitAccount", &crate::accounts::SCHEMA),
    ],
};

impl Card {
    pub fn key(client: &str, id: &str) -> Vec<u8> {
        keys::key(keys::CARD, &[client, id])
    }

    pub fn to_json(&self) -> Value {
        let mut v = serde_json::to_value(self).unwrap_or(Value::Null);
        v["balance"] = decimal_json(self.balance);
        v
    }

    pub fn check_not_canceled(&self) -> ApiResult<()> {
        if self.status == CardStatus::Canceled {
            Err(ApiError::InvalidState(
                "Card is canceled and cannot be changed".into(),
            ))
        } else {
            Ok(())
        }
    }
}

pub fn load(ctx: &mut Ctx, id: &str) -> ApiResult<Card> {
    records::find(ctx.tx, keys::CARD, &ctx.client, &[id], "Card")
}

pub fn save(ctx: &mut Ctx, card: &Card) -> ApiResult<()> {
    records::put(ctx.tx, &Card::key(&ctx.client, &card.id), card)
}
