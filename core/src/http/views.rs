//! The wire shapes: what a GET returns for each record, and the fields the list language knows for
//! each (the schemas). Views borrow from the domain's records; nothing is patched after serialization.

use rust_decimal::Decimal;
use serde::{Serialize, Serializer};

use crate::domain::account_details::AccountDetail;
use crate::domain::accounts::Account;
use crate::domain::authorizations::decisions::Decision;
use crate::domain::authorizations::endpoint::Endpoint as DecisionEndpoint;
use crate::domain::authorizations::spend::LimitSpend;
use crate::domain::authorizations::transactions::CardTransaction;
use crate::domain::authorizations::{Authorization, Merchant};
use crate::domain::card_holders::{Address, CardHolder, HolderMeta, Identification, Person};
use crate::domain::cards::{Card, SpendingControls};
use crate::domain::disputes::{Dispute, DisputeReason, DisputeStatus};
use crate::domain::events::Event;
use crate::domain::ledger::Entry;
use crate::domain::transfers::Transfer;
use crate::domain::webhooks::deliveries::{Attempt, Delivery};
use crate::domain::webhooks::endpoints::Endpoint;
use crate::env::Timestamp;
use crate::query::{FieldType, Schema};
use crate::storage::codec::{JsonText, money};

fn rfc3339<S: Serializer>(t: &Timestamp, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&t.to_rfc3339())
}

fn opt_rfc3339<S: Serializer>(t: &Option<Timestamp>, s: S) -> Result<S::Ok, S::Error> {
    match t {
        Some(t) => s.serialize_str(&t.to_rfc3339()),
        None => s.serialize_none(),
    }
}

/// The kind of one field of a view declared with [`view!`]: how it is written, what the list
/// language may do with it ([`FieldType`]) and its OpenAPI schema (`openapi/schemas.rs`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Wire {
    Str,
    /// A string or null.
    OptStr,
    /// An exact amount (`storage::codec::money`).
    Money,
    /// An instant, RFC 3339.
    Time,
    /// One of these strings (a domain `str_enum!`'s `ALL`).
    Enum(&'static [&'static str]),
}

/// An amount as a view writes it.
struct Money(Decimal);

impl Serialize for Money {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        money::serialize(&self.0, s)
    }
}

/// An instant as a view writes it.
struct Rfc3339(Timestamp);

impl Serialize for Rfc3339 {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        rfc3339(&self.0, s)
    }
}

/// One declaration per view: each field's wire name, kind and value (an expression over the record)
/// give the view's JSON (`Serialize`), its list-query [`Schema`] and, through `Wire`, its OpenAPI
/// schema (`$view::WIRE`). A field is written, queried and documented alike, in one order, so the
/// three cannot drift apart. A declarative macro rather than `schemars`: the list-query `Schema`
/// (and its `FieldType`s) is this crate's own, which schemars does not produce, the wire kinds are
/// few, and it keeps the core free of a derive dependency (see ARCHITECTURE.md).
macro_rules! view {
    (@value Money, $e:expr) => { Money($e) };
    (@value Time, $e:expr) => { Rfc3339($e) };
    (@value $kind:ident $(($t:ty))?, $e:expr) => { $e };
    (@field Str) => { FieldType::Str };
    (@field OptStr) => { FieldType::Str };
    (@field Money) => { FieldType::Number };
    (@field Time) => { FieldType::Date };
    (@field Enum($t:ty)) => { FieldType::Str };
    (@wire Enum($t:ty)) => { Wire::Enum(<$t>::ALL) };
    (@wire $kind:ident) => { Wire::$kind };
    (
        $(#[$meta:meta])*
        $view:ident($record:ty) as $r:ident, schema $schema:ident, search [$($search:literal),*] {
            $($wire:literal: $kind:ident $(($t:ty))? = $e:expr),+ $(,)?
        }
    ) => {
        $(#[$meta])*
        pub struct $view<'a>(&'a $record);

        impl<'a> From<&'a $record> for $view<'a> {
            fn from(r: &'a $record) -> Self {
                $view(r)
            }
        }

        impl Serialize for $view<'_> {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                use serde::ser::SerializeStruct;
                let $r = self.0;
                let mut out = s.serialize_struct(stringify!($view), [$($wire),+].len())?;
                $(out.serialize_field($wire, &view!(@value $kind $(($t))?, $e))?;)+
                out.end()
            }
        }

        impl $view<'_> {
            /// The fields for the OpenAPI schema.
            pub const WIRE: &'static [(&'static str, Wire)] = &[$(($wire, view!(@wire $kind $(($t))?))),+];
        }

        /// The list-query schema of the view.
        pub static $schema: Schema = Schema {
            fields: &[$(($wire, view!(@field $kind $(($t))?))),+],
            default_search: &[$($search),*],
            populate: &[],
        };
    };
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AccountView<'a> {
    #[serde(rename = "_id")]
    id: &'a str,
    owner_type: &'a str,
    owner_id: &'a Option<String>,
    client: &'a str,
    name: &'a str,
    #[serde(rename = "type")]
    kind: &'a str,
    category: &'a str,
    status: &'a str,
    currency: &'a str,
    network: &'a Option<String>,
    #[serde(with = "money")]
    balance: Decimal,
    can_debit: bool,
    can_credit: bool,
    #[serde(serialize_with = "rfc3339")]
    created_at: Timestamp,
    #[serde(serialize_with = "rfc3339")]
    updated_at: Timestamp,
    /// What can be spent; without holds, the balance.
    #[serde(with = "money")]
    available_balance: Decimal,
    /// Funds on the account, holds included.
    #[serde(with = "money")]
    ledger_balance: Decimal,
}

impl<'a> From<&'a Account> for AccountView<'a> {
    fn from(a: &'a Account) -> Self {
        AccountView {
            id: &a.id,
            owner_type: a.owner_type.as_str(),
            owner_id: &a.owner_id,
            client: &a.client,
            name: &a.name,
            kind: a.kind.as_str(),
            category: a.category.as_str(),
            status: a.status.as_str(),
            currency: a.currency.as_str(),
            network: &a.network,
            balance: a.balance,
            can_debit: a.can_debit,
            can_credit: a.can_credit,
            created_at: a.created_at,
            updated_at: a.updated_at,
            available_balance: a.balance,
            ledger_balance: a.balance,
        }
    }
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct EntryView<'a> {
    #[serde(rename = "_id")]
    id: &'a str,
    account_id: &'a str,
    #[serde(rename = "type")]
    kind: &'a str,
    #[serde(with = "money")]
    amount: Decimal,
    #[serde(with = "money")]
    balance_after: Decimal,
    #[serde(skip_serializing_if = "Option::is_none")]
    card_id: &'a Option<String>,
    #[serde(serialize_with = "rfc3339")]
    created_at: Timestamp,
}

impl<'a> From<&'a Entry> for EntryView<'a> {
    fn from(e: &'a Entry) -> Self {
        EntryView {
            id: &e.id,
            account_id: &e.account_id,
            kind: e.kind.as_str(),
            amount: e.amount,
            balance_after: e.balance_after,
            card_id: &e.card_id,
            created_at: e.created_at,
        }
    }
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DetailView<'a> {
    #[serde(rename = "_id")]
    id: &'a str,
    account_id: &'a str,
    #[serde(rename = "type")]
    kind: &'a str,
    details: &'a JsonText,
    provider: &'a str,
    is_primary: bool,
    #[serde(serialize_with = "rfc3339")]
    created_at: Timestamp,
    #[serde(serialize_with = "rfc3339")]
    updated_at: Timestamp,
}

impl<'a> From<&'a AccountDetail> for DetailView<'a> {
    fn from(d: &'a AccountDetail) -> Self {
        DetailView {
            id: &d.id,
            account_id: &d.account_id,
            kind: d.kind.as_str(),
            details: &d.details,
            provider: &d.provider,
            is_primary: d.is_primary,
            created_at: d.created_at,
            updated_at: d.updated_at,
        }
    }
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CardHolderView<'a> {
    #[serde(rename = "_id")]
    id: &'a str,
    name: &'a str,
    person: &'a Person,
    address: &'a Option<Address>,
    identification: &'a Identification,
    meta: &'a HolderMeta,
    #[serde(serialize_with = "rfc3339")]
    created_at: Timestamp,
    #[serde(serialize_with = "rfc3339")]
    updated_at: Timestamp,
}

impl<'a> From<&'a CardHolder> for CardHolderView<'a> {
    fn from(h: &'a CardHolder) -> Self {
        CardHolderView {
            id: &h.id,
            name: &h.name,
            person: &h.person,
            address: &h.address,
            identification: &h.identification,
            meta: &h.meta,
            created_at: h.created_at,
            updated_at: h.updated_at,
        }
    }
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CardView<'a> {
    #[serde(rename = "_id")]
    id: &'a str,
    debit_account_id: &'a str,
    card_holder_id: &'a str,
    #[serde(rename = "type")]
    kind: &'a str,
    brand: &'a str,
    currency: &'a str,
    status: &'a str,
    metadata: &'a JsonText,
    spending_controls: &'a SpendingControls,
    #[serde(rename = "enable2FA")]
    enable_2fa: bool,
    disposable: bool,
    #[serde(with = "money")]
    balance: Decimal,
    masked_pan: &'a str,
    last4: &'a str,
    expiry_month: &'a str,
    expiry_year: &'a str,
    cancellation_reason: Option<&'a str>,
    #[serde(serialize_with = "opt_rfc3339")]
    canceled_at: Option<Timestamp>,
    #[serde(serialize_with = "rfc3339")]
    created_at: Timestamp,
    #[serde(serialize_with = "rfc3339")]
    updated_at: Timestamp,
    /// What can still be spent: the ledger balance less pending holds (= `balance`).
    #[serde(with = "money")]
    available_balance: Decimal,
    /// Funds on the card, holds included.
    #[serde(with = "money")]
    ledger_balance: Decimal,
}

impl<'a> From<&'a Card> for CardView<'a> {
    fn from(c: &'a Card) -> Self {
        CardView {
            id: &c.id,
            debit_account_id: &c.debit_account_id,
            card_holder_id: &c.card_holder_id,
            kind: c.kind.as_str(),
            brand: c.brand.as_str(),
            currency: c.currency.as_str(),
            status: c.status.as_str(),
            metadata: &c.metadata,
            spending_controls: &c.spending_controls,
            enable_2fa: c.enable_2fa,
            disposable: c.disposable,
            balance: c.available(),
            masked_pan: &c.masked_pan,
            last4: &c.last4,
            expiry_month: &c.expiry_month,
            expiry_year: &c.expiry_year,
            cancellation_reason: c.cancellation_reason.map(|r| r.as_str()),
            canceled_at: c.canceled_at,
            created_at: c.created_at,
            updated_at: c.updated_at,
            available_balance: c.available(),
            ledger_balance: c.balance.normalize(),
        }
    }
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct MerchantView<'a> {
    name: &'a str,
    category: &'a Option<String>,
    mcc: &'a Option<String>,
    city: &'a Option<String>,
    country: &'a Option<String>,
}

impl<'a> From<&'a Merchant> for MerchantView<'a> {
    fn from(m: &'a Merchant) -> Self {
        MerchantView {
            name: &m.name,
            category: &m.category,
            mcc: &m.mcc,
            city: &m.city,
            country: &m.country,
        }
    }
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AuthorizationView<'a> {
    #[serde(rename = "_id")]
    id: &'a str,
    card_id: &'a str,
    card_holder_id: &'a str,
    #[serde(with = "money")]
    amount: Decimal,
    currency: &'a str,
    channel: &'a str,
    merchant: MerchantView<'a>,
    approved: bool,
    status: &'a str,
    decline_reason: Option<&'a str>,
    #[serde(with = "money")]
    pending_amount: Decimal,
    #[serde(with = "money")]
    captured_amount: Decimal,
    #[serde(with = "money")]
    reversed_amount: Decimal,
    #[serde(with = "money")]
    refunded_amount: Decimal,
    #[serde(serialize_with = "rfc3339")]
    expires_at: Timestamp,
    #[serde(serialize_with = "rfc3339")]
    created_at: Timestamp,
    #[serde(serialize_with = "rfc3339")]
    updated_at: Timestamp,
    /// What was asked; more than `amount` after a partial approval.
    #[serde(with = "money")]
    requested_amount: Decimal,
    /// Null for authorizations stored before decisions were kept (and in an `authorization.request`,
    /// where nothing is decided yet).
    decision: Option<DecisionView<'a>>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DecisionView<'a> {
    source: &'a str,
    reason: Option<&'a str>,
    latency_ms: u64,
    metadata: Option<&'a JsonText>,
}

impl<'a> From<&'a Decision> for DecisionView<'a> {
    fn from(d: &'a Decision) -> Self {
        DecisionView {
            source: d.source.as_str(),
            reason: d.reason.map(|r| r.as_str()),
            latency_ms: d.latency_ms,
            metadata: d.metadata.as_ref(),
        }
    }
}

/// `/authorization-endpoint`: the secret only in the answer that made it.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AuthorizationEndpointView<'a> {
    url: &'a str,
    timeout_ms: u32,
    fallback: &'a str,
    secret: Option<&'a str>,
    #[serde(serialize_with = "rfc3339")]
    created_at: Timestamp,
    #[serde(serialize_with = "rfc3339")]
    updated_at: Timestamp,
}

impl<'a> AuthorizationEndpointView<'a> {
    pub fn new(e: &'a DecisionEndpoint, secret: Option<&'a str>) -> Self {
        AuthorizationEndpointView {
            url: &e.url,
            timeout_ms: e.timeout_ms,
            fallback: e.fallback.as_str(),
            secret,
            created_at: e.created_at,
            updated_at: e.updated_at,
        }
    }
}

impl<'a> From<&'a Authorization> for AuthorizationView<'a> {
    fn from(a: &'a Authorization) -> Self {
        AuthorizationView {
            id: &a.id,
            card_id: &a.card_id,
            card_holder_id: &a.card_holder_id,
            amount: a.amount.normalize(),
            currency: a.currency.as_str(),
            channel: a.channel.as_str(),
            merchant: MerchantView::from(&a.merchant),
            approved: a.approved,
            status: a.status.as_str(),
            decline_reason: a.decline_reason.map(|r| r.as_str()),
            pending_amount: a.pending_amount.normalize(),
            captured_amount: a.captured_amount.normalize(),
            reversed_amount: a.reversed_amount.normalize(),
            refunded_amount: a.refunded_amount.normalize(),
            expires_at: a.expires_at,
            created_at: a.created_at,
            updated_at: a.updated_at,
            requested_amount: a.requested_amount.normalize(),
            decision: a.decision.as_ref().map(DecisionView::from),
        }
    }
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CardTransactionView<'a> {
    #[serde(rename = "_id")]
    id: &'a str,
    card_id: &'a str,
    authorization_id: &'a str,
    #[serde(rename = "type")]
    kind: &'a str,
    /// Signed from the card's point of view: captures negative, refunds positive.
    #[serde(with = "money")]
    amount: Decimal,
    currency: &'a str,
    merchant: MerchantView<'a>,
    #[serde(serialize_with = "rfc3339")]
    created_at: Timestamp,
}

impl<'a> From<&'a CardTransaction> for CardTransactionView<'a> {
    fn from(t: &'a CardTransaction) -> Self {
        CardTransactionView {
            id: &t.id,
            card_id: &t.card_id,
            authorization_id: &t.authorization_id,
            kind: t.kind.as_str(),
            amount: t.amount.normalize(),
            currency: t.currency.as_str(),
            merchant: MerchantView::from(&t.merchant),
            created_at: t.created_at,
        }
    }
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TransferView<'a> {
    #[serde(rename = "_id")]
    id: &'a str,
    debit_account_id: &'a str,
    credit_account_id: &'a str,
    #[serde(with = "money")]
    amount: Decimal,
    currency: &'a str,
    narration: &'a Option<String>,
    reference: &'a Option<String>,
    #[serde(serialize_with = "rfc3339")]
    created_at: Timestamp,
}

impl<'a> From<&'a Transfer> for TransferView<'a> {
    fn from(t: &'a Transfer) -> Self {
        TransferView {
            id: &t.id,
            debit_account_id: &t.debit_account_id,
            credit_account_id: &t.credit_account_id,
            amount: t.amount.normalize(),
            currency: t.currency.as_str(),
            narration: &t.narration,
            reference: &t.reference,
            created_at: t.created_at,
        }
    }
}

view! {
    /// A dispute, as every read answers it.
    DisputeView(Dispute) as d, schema DISPUTE, search ["reason", "explanation"] {
        "_id": Str = &d.id,
        "cardId": Str = &d.card_id,
        "transactionId": Str = &d.transaction_id,
        "authorizationId": Str = &d.authorization_id,
        "amount": Money = d.amount.normalize(),
        "currency": Str = d.currency.as_str(),
        "reason": Enum(DisputeReason) = d.reason,
        "explanation": OptStr = &d.explanation,
        "status": Enum(DisputeStatus) = d.status,
        "createdAt": Time = d.created_at,
        "updatedAt": Time = d.updated_at,
    }
}

/// One entry of `GET /cards/{id}/spending`.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LimitSpendView<'a> {
    #[serde(with = "money")]
    amount: Decimal,
    interval: &'a str,
    categories: &'a [String],
    #[serde(serialize_with = "opt_rfc3339")]
    period_start: Option<Timestamp>,
    #[serde(with = "money")]
    spent: Decimal,
    #[serde(with = "money")]
    available: Decimal,
}

impl<'a> From<&'a LimitSpend> for LimitSpendView<'a> {
    fn from(l: &'a LimitSpend) -> Self {
        LimitSpendView {
            amount: l.limit.amount.normalize(),
            interval: l.limit.interval.as_str(),
            categories: &l.limit.categories,
            period_start: l.period_start,
            spent: l.spent.normalize(),
            available: l.available.normalize(),
        }
    }
}

#[derive(Serialize)]
pub struct EventData<'a> {
    object: &'a JsonText,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct EventView<'a> {
    #[serde(rename = "_id")]
    id: &'a str,
    #[serde(rename = "type")]
    kind: &'a str,
    data: EventData<'a>,
    #[serde(serialize_with = "rfc3339")]
    created_at: Timestamp,
}

impl<'a> From<&'a Event> for EventView<'a> {
    fn from(e: &'a Event) -> Self {
        EventView {
            id: &e.id,
            kind: e.kind.as_str(),
            data: EventData { object: &e.object },
            created_at: e.created_at,
        }
    }
}

/// A stored API key as `/api-keys` shows it: never the key, only its id and grants.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ApiKeyView<'a> {
    #[serde(rename = "_id")]
    id: &'a str,
    client: &'a str,
    /// Every resource with its level (`none`, `read`, `write`).
    permissions: serde_json::Map<String, serde_json::Value>,
    reveal: bool,
    /// Null for keys stored before permissions existed.
    #[serde(serialize_with = "opt_rfc3339")]
    created_at: Option<Timestamp>,
}

impl<'a> From<&'a crate::domain::api_keys::KeyInfo> for ApiKeyView<'a> {
    fn from(k: &'a crate::domain::api_keys::KeyInfo) -> Self {
        use crate::domain::permissions::Resource;
        ApiKeyView {
            id: &k.id,
            client: &k.client,
            permissions: Resource::all()
                .map(|r| {
                    (
                        r.as_str().to_string(),
                        k.permissions.level(r).as_str().into(),
                    )
                })
                .collect(),
            reveal: k.permissions.reveal(),
            created_at: k.created_at,
        }
    }
}

pub static API_KEY: Schema = Schema {
    fields: &[
        ("_id", FieldType::Str),
        ("client", FieldType::Str),
        ("permissions", FieldType::FreeForm),
        ("reveal", FieldType::Bool),
        ("createdAt", FieldType::Date),
    ],
    default_search: &["_id"],
    populate: &[],
};

/// An audit record as `/audit-events` shows it.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AuditEventView<'a> {
    #[serde(rename = "_id")]
    id: &'a str,
    action: &'a str,
    outcome: &'a str,
    error: Option<&'a str>,
    key_id: &'a str,
    card_id: Option<&'a str>,
    subject_key_id: Option<&'a str>,
    request_id: Option<&'a str>,
    address: Option<&'a str>,
    #[serde(serialize_with = "rfc3339")]
    created_at: Timestamp,
}

impl<'a> From<&'a crate::domain::audit::AuditEvent> for AuditEventView<'a> {
    fn from(e: &'a crate::domain::audit::AuditEvent) -> Self {
        AuditEventView {
            id: &e.id,
            action: e.action.as_str(),
            outcome: e.outcome.as_str(),
            error: e.error.as_deref(),
            key_id: &e.key_id,
            card_id: e.card_id.as_deref(),
            subject_key_id: e.subject_key_id.as_deref(),
            request_id: e.request_id.as_deref(),
            address: e.address.as_deref(),
            created_at: e.created_at,
        }
    }
}

pub static AUDIT_EVENT: Schema = Schema {
    fields: &[
        ("_id", FieldType::Str),
        ("action", FieldType::Str),
        ("outcome", FieldType::Str),
        ("error", FieldType::Str),
        ("keyId", FieldType::Str),
        ("cardId", FieldType::Str),
        ("subjectKeyId", FieldType::Str),
        ("requestId", FieldType::Str),
        ("address", FieldType::Str),
        ("createdAt", FieldType::Date),
    ],
    default_search: &["action"],
    populate: &[],
};

pub static EVENT: Schema = Schema {
    fields: &[
        ("_id", FieldType::Str),
        ("type", FieldType::Str),
        ("data", FieldType::Object),
        ("data.object", FieldType::FreeForm),
        ("createdAt", FieldType::Date),
    ],
    default_search: &["type"],
    populate: &[],
};

const MERCHANT_FIELDS: [(&str, FieldType); 6] = [
    ("merchant", FieldType::Object),
    ("merchant.name", FieldType::Str),
    ("merchant.category", FieldType::Str),
    ("merchant.mcc", FieldType::Str),
    ("merchant.city", FieldType::Str),
    ("merchant.country", FieldType::Str),
];

pub static AUTHORIZATION: Schema = Schema {
    fields: &[
        ("_id", FieldType::Str),
        ("cardId", FieldType::Str),
        ("cardHolderId", FieldType::Str),
        ("amount", FieldType::Number),
        ("currency", FieldType::Str),
        ("channel", FieldType::Str),
        MERCHANT_FIELDS[0],
        MERCHANT_FIELDS[1],
        MERCHANT_FIELDS[2],
        MERCHANT_FIELDS[3],
        MERCHANT_FIELDS[4],
        MERCHANT_FIELDS[5],
        ("approved", FieldType::Bool),
        ("status", FieldType::Str),
        ("declineReason", FieldType::Str),
        ("pendingAmount", FieldType::Number),
        ("capturedAmount", FieldType::Number),
        ("reversedAmount", FieldType::Number),
        ("refundedAmount", FieldType::Number),
        ("expiresAt", FieldType::Date),
        ("createdAt", FieldType::Date),
        ("updatedAt", FieldType::Date),
        ("requestedAmount", FieldType::Number),
        ("decision", FieldType::Object),
        ("decision.source", FieldType::Str),
        ("decision.reason", FieldType::Str),
        ("decision.latencyMs", FieldType::Number),
        ("decision.metadata", FieldType::FreeForm),
    ],
    default_search: &["merchant.name"],
    populate: &[],
};

pub static CARD_TRANSACTION: Schema = Schema {
    fields: &[
        ("_id", FieldType::Str),
        ("cardId", FieldType::Str),
        ("authorizationId", FieldType::Str),
        ("type", FieldType::Str),
        ("amount", FieldType::Number),
        ("currency", FieldType::Str),
        MERCHANT_FIELDS[0],
        MERCHANT_FIELDS[1],
        MERCHANT_FIELDS[2],
        MERCHANT_FIELDS[3],
        MERCHANT_FIELDS[4],
        MERCHANT_FIELDS[5],
        ("createdAt", FieldType::Date),
    ],
    default_search: &["type", "merchant.name"],
    populate: &[],
};

pub static TRANSFER: Schema = Schema {
    fields: &[
        ("_id", FieldType::Str),
        ("debitAccountId", FieldType::Str),
        ("creditAccountId", FieldType::Str),
        ("amount", FieldType::Number),
        ("currency", FieldType::Str),
        ("narration", FieldType::Str),
        ("reference", FieldType::Str),
        ("createdAt", FieldType::Date),
    ],
    default_search: &["narration", "reference"],
    populate: &[],
};

pub static ACCOUNT: Schema = Schema {
    fields: &[
        ("_id", FieldType::Str),
        ("ownerType", FieldType::Str),
        ("ownerId", FieldType::Str),
        ("client", FieldType::Str),
        ("name", FieldType::Str),
        ("type", FieldType::Str),
        ("category", FieldType::Str),
        ("status", FieldType::Str),
        ("currency", FieldType::Str),
        ("network", FieldType::Str),
        ("balance", FieldType::Number),
        ("availableBalance", FieldType::Number),
        ("ledgerBalance", FieldType::Number),
        ("canDebit", FieldType::Bool),
        ("canCredit", FieldType::Bool),
        ("createdAt", FieldType::Date),
        ("updatedAt", FieldType::Date),
    ],
    default_search: &["name"],
    populate: &[],
};

pub static ACCOUNT_DETAIL: Schema = Schema {
    fields: &[
        ("_id", FieldType::Str),
        ("accountId", FieldType::Str),
        ("type", FieldType::Str),
        ("details", FieldType::FreeForm),
        ("provider", FieldType::Str),
        ("isPrimary", FieldType::Bool),
        ("createdAt", FieldType::Date),
        ("updatedAt", FieldType::Date),
    ],
    default_search: &["provider"],
    populate: &[],
};

pub static LEDGER_ENTRY: Schema = Schema {
    fields: &[
        ("_id", FieldType::Str),
        ("accountId", FieldType::Str),
        ("type", FieldType::Str),
        ("amount", FieldType::Number),
        ("balanceAfter", FieldType::Number),
        ("cardId", FieldType::Str),
        ("createdAt", FieldType::Date),
    ],
    default_search: &["type"],
    populate: &[],
};

pub static CARD: Schema = Schema {
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
        ("availableBalance", FieldType::Number),
        ("ledgerBalance", FieldType::Number),
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
    populate: &[("cardHolder", &CARD_HOLDER), ("debitAccount", &ACCOUNT)],
};

pub static CARD_HOLDER: Schema = Schema {
    fields: &[
        ("_id", FieldType::Str),
        ("name", FieldType::Str),
        ("person", FieldType::Object),
        ("person.firstName", FieldType::Str),
        ("person.lastName", FieldType::Str),
        ("person.dateOfBirth", FieldType::Str),
        ("person.email", FieldType::Str),
        ("person.nationality", FieldType::Str),
        ("person.gender", FieldType::Str),
        ("person.phoneNumber", FieldType::Str),
        ("address", FieldType::Object),
        ("address.line1", FieldType::Str),
        ("address.city", FieldType::Str),
        ("address.state", FieldType::Str),
        ("address.postalCode", FieldType::Str),
        ("address.countryCode", FieldType::Str),
        ("identification", FieldType::Object),
        ("identification.document", FieldType::Object),
        ("identification.document.type", FieldType::Str),
        ("identification.document.number", FieldType::Str),
        ("identification.document.issueDate", FieldType::Str),
        ("identification.document.expiryDate", FieldType::Str),
        ("identification.document.issuingCountry", FieldType::Str),
        ("identification.document.verificationStatus", FieldType::Str),
        ("identification.document.description", FieldType::Str),
        ("identification.document.urls", FieldType::Object),
        ("identification.document.urls.main", FieldType::Str),
        ("identification.document.urls.back", FieldType::Str),
        ("identification.document.meta", FieldType::Object),
        ("identification.document.meta.fileType", FieldType::Str),
        ("identification.document.meta.contentHash", FieldType::Str),
        ("identification.document.backMeta", FieldType::Object),
        ("identification.document.backMeta.fileType", FieldType::Str),
        (
            "identification.document.backMeta.contentHash",
            FieldType::Str,
        ),
        ("identification.proofOfAddress", FieldType::Object),
        ("identification.proofOfAddress.type", FieldType::Str),
        ("identification.proofOfAddress.documentId", FieldType::Str),
        (
            "identification.proofOfAddress.verificationStatus",
            FieldType::Str,
        ),
        ("identification.proofOfAddress.description", FieldType::Str),
        ("identification.proofOfAddress.url", FieldType::Str),
        ("identification.proofOfAddress.meta", FieldType::Object),
        (
            "identification.proofOfAddress.meta.fileType",
            FieldType::Str,
        ),
        (
            "identification.proofOfAddress.meta.contentHash",
            FieldType::Str,
        ),
        ("meta", FieldType::Object),
        ("meta.fundingSource", FieldType::Str),
        ("meta.monthlyTransactionValue", FieldType::Str),
        ("createdAt", FieldType::Date),
        ("updatedAt", FieldType::Date),
    ],
    default_search: &[
        "name",
        "person.firstName",
        "person.lastName",
        "person.email",
    ],
    populate: &[],
};

/// A webhook endpoint; `secret` only in the answer that made it (creation, rotation), else null.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct WebhookEndpointView<'a> {
    #[serde(rename = "_id")]
    id: &'a str,
    url: &'a str,
    enabled_events: &'a [String],
    description: &'a Option<String>,
    status: &'a str,
    secret: Option<&'a str>,
    #[serde(serialize_with = "rfc3339")]
    created_at: Timestamp,
    #[serde(serialize_with = "rfc3339")]
    updated_at: Timestamp,
}

impl<'a> WebhookEndpointView<'a> {
    pub fn new(e: &'a Endpoint, secret: Option<&'a str>) -> Self {
        WebhookEndpointView {
            id: &e.id,
            url: &e.url,
            enabled_events: &e.enabled_events,
            description: &e.description,
            status: e.status.as_str(),
            secret,
            created_at: e.created_at,
            updated_at: e.updated_at,
        }
    }
}

impl<'a> From<&'a Endpoint> for WebhookEndpointView<'a> {
    fn from(e: &'a Endpoint) -> Self {
        WebhookEndpointView::new(e, None)
    }
}

pub static WEBHOOK_ENDPOINT: Schema = Schema {
    fields: &[
        ("_id", FieldType::Str),
        ("url", FieldType::Str),
        ("enabledEvents", FieldType::Str),
        ("description", FieldType::Str),
        ("status", FieldType::Str),
        ("secret", FieldType::Str),
        ("createdAt", FieldType::Date),
        ("updatedAt", FieldType::Date),
    ],
    default_search: &["url", "description"],
    populate: &[],
};

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AttemptView {
    #[serde(serialize_with = "rfc3339")]
    at: Timestamp,
    status: Option<u16>,
    duration_ms: u64,
    error: Option<String>,
}

impl From<&Attempt> for AttemptView {
    fn from(a: &Attempt) -> Self {
        AttemptView {
            at: a.at,
            status: a.status,
            duration_ms: a.duration_ms,
            error: a.error.clone(),
        }
    }
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct WebhookDeliveryView<'a> {
    #[serde(rename = "_id")]
    id: &'a str,
    endpoint_id: &'a str,
    event_id: &'a str,
    event_type: &'a str,
    status: &'a str,
    attempts: Vec<AttemptView>,
    #[serde(serialize_with = "opt_rfc3339")]
    next_attempt_at: Option<Timestamp>,
    #[serde(serialize_with = "rfc3339")]
    created_at: Timestamp,
}

impl<'a> From<&'a Delivery> for WebhookDeliveryView<'a> {
    fn from(d: &'a Delivery) -> Self {
        WebhookDeliveryView {
            id: &d.id,
            endpoint_id: &d.endpoint_id,
            event_id: &d.event_id,
            event_type: &d.event_type,
            status: d.status.as_str(),
            attempts: d.attempts.iter().map(AttemptView::from).collect(),
            next_attempt_at: d.next_attempt_at,
            created_at: d.created_at,
        }
    }
}

pub static WEBHOOK_DELIVERY: Schema = Schema {
    fields: &[
        ("_id", FieldType::Str),
        ("endpointId", FieldType::Str),
        ("eventId", FieldType::Str),
        ("eventType", FieldType::Str),
        ("status", FieldType::Str),
        ("attempts", FieldType::FreeForm),
        ("nextAttemptAt", FieldType::Date),
        ("createdAt", FieldType::Date),
    ],
    default_search: &["eventType"],
    populate: &[],
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::Currency;

    /// A view declared with `view!` writes what the serde struct it replaced wrote, to the byte.
    #[test]
    fn a_declared_view_writes_its_fields_in_order() {
        let at = Timestamp::parse_rfc3339("2026-01-02T03:04:05.678Z").unwrap();
        let d = Dispute {
            id: "dsp_1".into(),
            card_id: "crd_1".into(),
            transaction_id: "ctx_1".into(),
            authorization_id: "aut_1".into(),
            amount: Decimal::new(12_50, 2),
            currency: Currency::parse("USD").unwrap(),
            reason: DisputeReason::Fraudulent,
            explanation: None,
            status: DisputeStatus::Won,
            created_at: at,
            updated_at: at.plus_seconds(60),
        };
        assert_eq!(
            serde_json::to_string(&DisputeView::from(&d)).unwrap(),
            r#"{"_id":"dsp_1","cardId":"crd_1","transactionId":"ctx_1","authorizationId":"aut_1","amount":12.5,"currency":"USD","reason":"fraudulent","explanation":null,"status":"won","createdAt":"2026-01-02T03:04:05.678Z","updatedAt":"2026-01-02T03:05:05.678Z"}"#
        );
    }
}
