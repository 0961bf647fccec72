//! The wire shapes: what a GET returns for each record, and the fields the list language knows for
//! each (the schemas). Views borrow from the domain's records; nothing is patched after serialization.

use rust_decimal::Decimal;
use serde::{Serialize, Serializer};

use crate::domain::account_details::{AccountDetail, DetailType};
use crate::domain::accounts::{Account, AccountStatus, AccountType, Category, OwnerType};
use crate::domain::api_keys::KeyInfo;
use crate::domain::audit::{AuditAction, AuditEvent, Outcome as AuditOutcome};
use crate::domain::authorizations::decisions::{
    Decision, DecisionReason, DecisionSource, Fallback,
};
use crate::domain::authorizations::endpoint::{
    Endpoint as DecisionEndpoint, MAX_TIMEOUT_MS, MIN_TIMEOUT_MS,
};
use crate::domain::authorizations::spend::LimitSpend;
use crate::domain::authorizations::transactions::{CardTransaction, TransactionType};
use crate::domain::authorizations::{
    Authorization, AuthorizationStatus, Channel, DeclineReason, Merchant,
};
use crate::domain::card_holders::{
    Address, CardHolder, Document, DocumentType, DocumentUrls, FileMeta, Gender, HolderMeta,
    Identification, Person, ProofOfAddress, ProofOfAddressType, VerificationStatus,
};
use crate::domain::cards::{Brand, CancellationReason, Card, CardStatus, CardType, Interval};
use crate::domain::disputes::{Dispute, DisputeReason, DisputeStatus};
use crate::domain::events::{Event, EventType};
use crate::domain::ledger::{Entry, EntryType};
use crate::domain::permissions::{Permissions, Resource};
use crate::domain::transfers::Transfer;
use crate::domain::webhooks::deliveries::{Attempt, Delivery, DeliveryStatus};
use crate::domain::webhooks::endpoints::{Endpoint, EndpointStatus};
use crate::env::Timestamp;
use crate::http::parse::card_holder_validation::FILE_TYPES;
use crate::query::{FieldType, Schema};
use crate::storage::codec::money;

fn rfc3339<S: Serializer>(t: &Timestamp, s: S) -> Result<S::Ok, S::Error> {
    let mut buf = [0; 24];
    match t.rfc3339_in(&mut buf) {
        Some(text) => s.serialize_str(text),
        None => s.serialize_str(&t.to_rfc3339()),
    }
}

/// The kind of one field of a view declared with [`view!`]: how it is written, what the list
/// language may do with it ([`FieldType`]) and its OpenAPI schema (`openapi/schemas.rs`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Wire {
    Str,
    /// A string matching this pattern.
    Pattern(&'static str),
    /// A string or null.
    OptStr,
    /// A string, or no key at all (not required in the schema).
    MaybeStr,
    /// An exact amount (`storage::codec::money`).
    Money,
    /// An instant, RFC 3339.
    Time,
    /// An instant or null.
    OptTime,
    /// A calendar date (`YYYY-MM-DD`) or null.
    OptDate,
    Bool,
    /// An array of strings (queried as strings: a filter matches any element).
    StrList,
    /// A free-form JSON object (metadata, details): any path below it may be queried.
    Json,
    /// A free-form JSON object or null.
    OptJson,
    /// An integer of at least 0 (durations, counts).
    Count,
    /// An integer within these bounds.
    Int(i64, i64),
    /// An integer or null.
    OptInt,
    /// An object described by the named component schema; its list-query sub-fields are given
    /// with the field (`where [..]`).
    Ref(&'static str),
    /// The same, or null.
    OptRef(&'static str),
    /// An object with these keys (a domain enum's `ALL`), each one of these strings.
    EnumMap(&'static [&'static str], &'static [&'static str]),
    /// An object written in place, with the fields of another declared view.
    Inline(&'static [WireField]),
    /// An array of the named component schema (queried as free-form).
    List(&'static str),
    /// One of these strings (a domain `str_enum!`'s `ALL`).
    Enum(&'static [&'static str]),
    /// One of these strings, or null.
    OptEnum(&'static [&'static str]),
}

/// One field of a declared view, as its OpenAPI schema sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WireField {
    pub name: &'static str,
    pub wire: Wire,
    /// The schema's `description`, when the kind alone does not say enough.
    pub doc: Option<&'static str>,
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

/// The order of a view's fields where it differs from its JSON (see `view!`'s `query`): the
/// indexes of `names` with `moved` taken out and put right after `after` (in that order).
/// Evaluated at compile time; a name that is not a field fails the build.
const fn moved_after<const N: usize>(names: [&str; N], moved: &[&str], after: &str) -> [usize; N] {
    const fn eq(a: &str, b: &str) -> bool {
        let (a, b) = (a.as_bytes(), b.as_bytes());
        if a.len() != b.len() {
            return false;
        }
        let mut i = 0;
        while i < a.len() {
            if a[i] != b[i] {
                return false;
            }
            i += 1;
        }
        true
    }
    const fn find<const N: usize>(names: &[&str; N], name: &str) -> usize {
        let mut i = 0;
        while i < N {
            if eq(names[i], name) {
                return i;
            }
            i += 1;
        }
        panic!("moved_after: no such field")
    }
    let mut out = [0; N];
    let mut j = 0;
    let mut i = 0;
    while i < N {
        let mut is_moved = false;
        let mut m = 0;
        while m < moved.len() {
            is_moved |= eq(names[i], moved[m]);
            m += 1;
        }
        if !is_moved {
            out[j] = i;
            j += 1;
            if eq(names[i], after) {
                let mut m = 0;
                while m < moved.len() {
                    out[j] = find(&names, moved[m]);
                    j += 1;
                    m += 1;
                }
            }
        }
        i += 1;
    }
    assert!(
        j == N,
        "moved_after: `after` is not a field, or a field is moved twice"
    );
    out
}

/// `items` in the order `order` (from [`moved_after`]), at compile time.
const fn permute<T: Copy, const N: usize>(items: [T; N], order: [usize; N]) -> [T; N] {
    let mut out = items;
    let mut i = 0;
    while i < N {
        out[i] = items[order[i]];
        i += 1;
    }
    out
}

/// One declaration per view: each field's wire name, kind, optional `doc("...")` and value (an
/// expression over the record) give the view's JSON (`Serialize`), its list-query [`Schema`] and,
/// through `Wire`, its OpenAPI schema (`$view::WIRE`). A field is written, queried and documented
/// alike, in one order, so the three cannot drift apart; the one exception is spelled out: `query
/// [..] after ".."` lists those fields elsewhere in the list-query schema only (its sort enum and
/// filter), where that order predates the JSON's. Without `schema`, a view has no list. A
/// declarative macro rather than `schemars`: the list-query `Schema` (and its `FieldType`s) is this
/// crate's own, which schemars does not produce, the wire kinds are few, and it keeps the core free
/// of a derive dependency (see ARCHITECTURE.md).
macro_rules! view {
    (@value Money, $e:expr) => { Money($e) };
    (@value Time, $e:expr) => { Rfc3339($e) };
    (@value OptTime, $e:expr) => { ($e).map(Rfc3339) };
    (@value $kind:ident, $e:expr) => { $e };
    (@write $out:ident, MaybeStr, $wire:literal, $e:expr) => {
        match $e {
            Some(v) => $out.serialize_field($wire, v)?,
            None => $out.skip_field($wire)?,
        }
    };
    (@write $out:ident, $kind:ident, $wire:literal, $e:expr) => {
        $out.serialize_field($wire, &view!(@value $kind, $e))?
    };
    (@field Str) => { FieldType::Str };
    (@field Pattern($($a:tt)*)) => { FieldType::Str };
    (@field OptStr) => { FieldType::Str };
    (@field MaybeStr) => { FieldType::Str };
    (@field Money) => { FieldType::Number };
    (@field Count) => { FieldType::Number };
    (@field OptInt) => { FieldType::Number };
    (@field Int($($a:tt)*)) => { FieldType::Number };
    (@field Time) => { FieldType::Date };
    (@field OptTime) => { FieldType::Date };
    (@field OptDate) => { FieldType::Str };
    (@field OneOf($($a:tt)*)) => { FieldType::Str };
    (@field Bool) => { FieldType::Bool };
    (@field Object) => { FieldType::Object };
    (@field StrList) => { FieldType::Str };
    (@field Json) => { FieldType::FreeForm };
    (@field OptJson) => { FieldType::FreeForm };
    (@field List($($a:tt)*)) => { FieldType::FreeForm };
    (@field Ref($($a:tt)*)) => { FieldType::Object };
    (@field Inline($($a:tt)*)) => { FieldType::Object };
    (@field EnumMap($($a:tt)*)) => { FieldType::FreeForm };
    (@field OptRef($($a:tt)*)) => { FieldType::Object };
    (@field Enum($($a:tt)*)) => { FieldType::Str };
    (@field OptEnum($($a:tt)*)) => { FieldType::Str };
    (@wire Enum($t:ty)) => { Wire::Enum(<$t>::ALL) };
    (@wire OptEnum($t:ty)) => { Wire::OptEnum(<$t>::ALL) };
    (@wire OneOf($all:path)) => { Wire::Enum($all) };
    (@wire Int($min:expr, $max:expr)) => { Wire::Int($min as i64, $max as i64) };
    (@wire Pattern($p:literal)) => { Wire::Pattern($p) };
    (@wire Inline($t:ty)) => { Wire::Inline(<$t>::WIRE) };
    (@wire EnumMap($k:ty, [$($v:literal),*])) => { Wire::EnumMap(<$k>::ALL, &[$($v),*]) };
    (@wire $kind:ident($name:literal)) => { Wire::$kind($name) };
    (@wire $kind:ident) => { Wire::$kind };
    (@doc) => { None };
    (@doc $doc:literal) => { Some($doc) };
    (@fields [$($f:tt)*] [$($n:tt)*]) => { [$($f)*] };
    (@fields [$($f:tt)*] [$($n:tt)*] $(schema)? [$($moved:literal),+] $after:literal) => {
        permute([$($f)*], moved_after([$($n)*], &[$($moved),+], $after))
    };
    (@documented [$($f:tt)*] [$($n:tt)*] schema [$($moved:literal),+] $after:literal) => {
        permute([$($f)*], moved_after([$($n)*], &[$($moved),+], $after))
    };
    (@documented [$($f:tt)*] [$($n:tt)*] $($order:tt)*) => { [$($f)*] };
    (@schema [$($f:tt)*] [$($n:tt)*]) => {};
    (@schema [$($f:tt)*] [$($n:tt)*] $schema:ident [$($search:literal),*]
        [$($pname:literal => $pschema:ident),*] $($order:tt)*) => {
        /// The list-query schema of the view.
        pub static $schema: Schema = Schema {
            fields: &view!(@fields [$($f)*] [$($n)*] $($order)*),
            default_search: &[$($search),*],
            populate: &[$(($pname, &$pschema)),*],
        };
    };
    (@struct $(#[$meta:meta])* $view:ident $record:ty) => {
        $(#[$meta])*
        pub struct $view<'a>(&'a $record);

        impl<'a> From<&'a $record> for $view<'a> {
            fn from(r: &'a $record) -> Self {
                $view(r)
            }
        }
    };
    (@struct $(#[$meta:meta])* $view:ident $record:ty, $extra:ident) => {
        $(#[$meta])*
        pub struct $view<'a>(&'a $record, Option<&'a str>);

        impl<'a> $view<'a> {
            pub fn new(r: &'a $record, $extra: Option<&'a str>) -> Self {
                $view(r, $extra)
            }
        }

        impl<'a> From<&'a $record> for $view<'a> {
            fn from(r: &'a $record) -> Self {
                $view(r, None)
            }
        }
    };
    (
        $(#[$meta:meta])*
        $view:ident($record:ty $(, $extra:ident)?) as $r:ident
        $(, schema $schema:ident, search [$($search:literal),*]
            $(, populate [$($pname:literal => $pschema:ident),* $(,)?])?
            $(, query $(+ $both:ident)? [$($moved:literal),+] after $after:literal)?)? {
            $($wire:literal: $kind:ident $(($($arg:tt)*))? $(doc($doc:literal))?
                $(where [$($sub:literal: $subkind:ident),+ $(,)?])? = $e:expr),+ $(,)?
        }
    ) => {
        view!(@struct $(#[$meta])* $view $record $(, $extra)?);

        impl Serialize for $view<'_> {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                use serde::ser::SerializeStruct;
                let $r = self.0;
                $(let $extra = self.1;)?
                let mut out = s.serialize_struct(stringify!($view), [$($wire),+].len())?;
                $(view!(@write out, $kind, $wire, $e);)+
                out.end()
            }
        }

        impl $view<'_> {
            /// The fields for the OpenAPI schema.
            pub const WIRE: &'static [WireField] = &view!(@documented [$(WireField {
                name: $wire,
                wire: view!(@wire $kind $(($($arg)*))?),
                doc: view!(@doc $($doc)?),
            }),+] [$($wire),+] $($($($both)? [$($moved),+] $after)?)?);
        }

        view!(@schema [$(($wire, view!(@field $kind $(($($arg)*))?))
                $($(, ($sub, view!(@field $subkind)))+)?),+]
            [$($wire $($(, $sub)+)?),+]
            $($schema [$($search),*] [$($($pname => $pschema),*)?]
                $($($both)? [$($moved),+] $after)?)?);
    };
}

view! {
    /// An account. `availableBalance` (what can be spent; without holds, the balance) and
    /// `ledgerBalance` (funds on the account, holds included) came last to the JSON but sit beside
    /// `balance` in the list-query schema, whose order the document's sort enum and filter show.
    AccountView(Account) as a, schema ACCOUNT, search ["name"],
        query ["availableBalance", "ledgerBalance"] after "balance" {
        "_id": Str = &a.id,
        "ownerType": Enum(OwnerType) = a.owner_type.as_str(),
        "ownerId": OptStr = &a.owner_id,
        "client": Str = &a.client,
        "name": Str = &a.name,
        "type": Enum(AccountType) = a.kind.as_str(),
        "category": Enum(Category) = a.category.as_str(),
        "status": Enum(AccountStatus) = a.status.as_str(),
        "currency": Str = a.currency.as_str(),
        "network": OptStr = &a.network,
        "balance": Money = a.balance,
        "canDebit": Bool = a.can_debit,
        "canCredit": Bool = a.can_credit,
        "createdAt": Time = a.created_at,
        "updatedAt": Time = a.updated_at,
        "availableBalance": Money = a.balance,
        "ledgerBalance": Money = a.balance,
    }
}

view! {
    /// A ledger entry; `cardId` only on entries that move money for a card.
    EntryView(Entry) as e, schema LEDGER_ENTRY, search ["type"] {
        "_id": Str = &e.id,
        "accountId": Str = &e.account_id,
        "type": Enum(EntryType) = e.kind.as_str(),
        "amount": Money doc("Signed: credits positive, debits negative.") = e.amount,
        "balanceAfter": Money = e.balance_after,
        "cardId": MaybeStr = e.card_id.as_deref(),
        "createdAt": Time = e.created_at,
    }
}

view! {
    DetailView(AccountDetail) as d, schema ACCOUNT_DETAIL, search ["provider"] {
        "_id": Str = &d.id,
        "accountId": Str = &d.account_id,
        "type": Enum(DetailType) = d.kind.as_str(),
        "details": Json = &d.details,
        "provider": Str = &d.provider,
        "isPrimary": Bool = d.is_primary,
        "createdAt": Time = d.created_at,
        "updatedAt": Time = d.updated_at,
    }
}

view! {
    /// A card holder's person (the `Person` component schema).
    PersonView(Person) as p {
        "firstName": Str = &p.first_name,
        "lastName": Str = &p.last_name,
        "dateOfBirth": OptDate = &p.date_of_birth,
        "email": Str = &p.email,
        "nationality": OptStr = &p.nationality,
        "gender": OptEnum(Gender) = p.gender.map(|g| g.as_str()),
        "phoneNumber": Str = &p.phone_number,
    }
}

view! {
    /// A card holder's address (the `Address` component schema).
    AddressView(Address) as a {
        "line1": OptStr = &a.line1,
        "city": OptStr = &a.city,
        "state": OptStr = &a.state,
        "postalCode": OptStr = &a.postal_code,
        "countryCode": OptStr = &a.country_code,
    }
}

view! {
    /// A stored file of a card holder's documents (the `FileMeta` component schema).
    FileMetaView(FileMeta) as m {
        "fileType": OneOf(FILE_TYPES) = &m.file_type,
        "contentHash": Pattern("^sha256:[0-9a-f]{64}$") = &m.content_hash,
    }
}

view! {
    DocumentUrlsView(DocumentUrls) as u {
        "main": OptStr = &u.main,
        "back": OptStr = &u.back,
    }
}

view! {
    /// An identity document (the `Document` component schema).
    DocumentView(Document) as d {
        "type": OptEnum(DocumentType) = d.kind.map(|k| k.as_str()),
        "number": OptStr = &d.number,
        "issueDate": OptStr = &d.issue_date,
        "expiryDate": OptStr = &d.expiry_date,
        "issuingCountry": OptStr = &d.issuing_country,
        "verificationStatus": Enum(VerificationStatus) = d.verification_status.as_str(),
        "description": OptStr = &d.description,
        "urls": Inline(DocumentUrlsView) = DocumentUrlsView::from(&d.urls),
        "meta": OptRef("FileMeta") = d.meta.as_ref().map(FileMetaView::from),
        "backMeta": OptRef("FileMeta") = d.back_meta.as_ref().map(FileMetaView::from),
    }
}

view! {
    /// A proof of address (the `ProofOfAddress` component schema).
    ProofOfAddressView(ProofOfAddress) as p {
        "type": OptEnum(ProofOfAddressType) = p.kind.map(|k| k.as_str()),
        "documentId": OptStr = &p.document_id,
        "verificationStatus": Enum(VerificationStatus) = p.verification_status.as_str(),
        "description": OptStr = &p.description,
        "url": OptStr = &p.url,
        "meta": OptRef("FileMeta") = p.meta.as_ref().map(FileMetaView::from),
    }
}

view! {
    /// A card holder's identification: its document and proof of address.
    IdentificationView(Identification) as i {
        "document": OptRef("Document") = i.document.as_ref().map(DocumentView::from),
        "proofOfAddress": OptRef("ProofOfAddress")
            = i.proof_of_address.as_ref().map(ProofOfAddressView::from),
    }
}

view! {
    HolderMetaView(HolderMeta) as m {
        "fundingSource": OptStr = &m.funding_source,
        "monthlyTransactionValue": OptStr = &m.monthly_transaction_value,
    }
}

view! {
    /// A card holder. Its nested objects are declared views too (`PersonView`, `AddressView`,
    /// `DocumentView`, ..), each the field list of its component schema; their list-query paths are
    /// given here and checked against those views.
    CardHolderView(CardHolder) as h, schema CARD_HOLDER,
        search ["name", "person.firstName", "person.lastName", "person.email"] {
        "_id": Str = &h.id,
        "name": Str = &h.name,
        "person": Ref("Person") where [
            "person.firstName": Str,
            "person.lastName": Str,
            "person.dateOfBirth": Str,
            "person.email": Str,
            "person.nationality": Str,
            "person.gender": Str,
            "person.phoneNumber": Str,
        ] = PersonView::from(&h.person),
        "address": OptRef("Address") where [
            "address.line1": Str,
            "address.city": Str,
            "address.state": Str,
            "address.postalCode": Str,
            "address.countryCode": Str,
        ] = h.address.as_ref().map(AddressView::from),
        "identification": Inline(IdentificationView) where [
            "identification.document": Object,
            "identification.document.type": Str,
            "identification.document.number": Str,
            "identification.document.issueDate": Str,
            "identification.document.expiryDate": Str,
            "identification.document.issuingCountry": Str,
            "identification.document.verificationStatus": Str,
            "identification.document.description": Str,
            "identification.document.urls": Object,
            "identification.document.urls.main": Str,
            "identification.document.urls.back": Str,
            "identification.document.meta": Object,
            "identification.document.meta.fileType": Str,
            "identification.document.meta.contentHash": Str,
            "identification.document.backMeta": Object,
            "identification.document.backMeta.fileType": Str,
            "identification.document.backMeta.contentHash": Str,
            "identification.proofOfAddress": Object,
            "identification.proofOfAddress.type": Str,
            "identification.proofOfAddress.documentId": Str,
            "identification.proofOfAddress.verificationStatus": Str,
            "identification.proofOfAddress.description": Str,
            "identification.proofOfAddress.url": Str,
            "identification.proofOfAddress.meta": Object,
            "identification.proofOfAddress.meta.fileType": Str,
            "identification.proofOfAddress.meta.contentHash": Str,
        ] = IdentificationView::from(&h.identification),
        "meta": Inline(HolderMetaView) where [
            "meta.fundingSource": Str,
            "meta.monthlyTransactionValue": Str,
        ] = HolderMetaView::from(&h.meta),
        "createdAt": Time = h.created_at,
        "updatedAt": Time = h.updated_at,
    }
}

view! {
    /// A card. `availableBalance` (what can still be spent: the ledger balance less pending holds,
    /// = `balance`) and `ledgerBalance` (funds on the card, holds included) came last to the JSON
    /// but sit beside `balance` in the list-query and OpenAPI schemas, whose order predates them.
    CardView(Card) as c, schema CARD, search ["cardHolderId", "debitAccountId", "last4"],
        populate ["cardHolder" => CARD_HOLDER, "debitAccount" => ACCOUNT],
        query + schema ["availableBalance", "ledgerBalance"] after "balance" {
        "_id": Str = &c.id,
        "debitAccountId": Str = &c.debit_account_id,
        "cardHolderId": Str = &c.card_holder_id,
        "type": Enum(CardType) = c.kind.as_str(),
        "brand": Enum(Brand) = c.brand.as_str(),
        "currency": Str = c.currency.as_str(),
        "status": Enum(CardStatus) = c.status.as_str(),
        "metadata": Json = &c.metadata,
        "spendingControls": Ref("SpendingControls") where [
            "spendingControls.channels": Object,
            "spendingControls.channels.atm": Bool,
            "spendingControls.channels.pos": Bool,
            "spendingControls.channels.web": Bool,
            "spendingControls.channels.mobile": Bool,
            "spendingControls.allowedCategories": Str,
            "spendingControls.blockedCategories": Str,
            "spendingControls.spendingLimits": Json,
        ] = &c.spending_controls,
        "enable2FA": Bool = c.enable_2fa,
        "disposable": Bool = c.disposable,
        "balance": Money = c.available(),
        "maskedPan": Str = &c.masked_pan,
        "last4": Pattern("^[0-9]{4}$") = &c.last4,
        "expiryMonth": Str = &c.expiry_month,
        "expiryYear": Str = &c.expiry_year,
        "cancellationReason": OptEnum(CancellationReason)
            = c.cancellation_reason.map(|r| r.as_str()),
        "canceledAt": OptTime = c.canceled_at,
        "createdAt": Time = c.created_at,
        "updatedAt": Time = c.updated_at,
        "availableBalance": Money = c.available(),
        "ledgerBalance": Money = c.balance.normalize(),
    }
}

view! {
    /// Where an authorization or card transaction was made.
    MerchantView(Merchant) as m {
        "name": Str = &m.name,
        "category": OptStr = &m.category,
        "mcc": OptStr = &m.mcc,
        "city": OptStr = &m.city,
        "country": OptStr = &m.country,
    }
}

view! {
    /// An authorization. `requestedAmount` is more than `amount` after a partial approval;
    /// `decision` is null for authorizations stored before decisions were kept (and in an
    /// `authorization.request`, where nothing is decided yet).
    AuthorizationView(Authorization) as a, schema AUTHORIZATION, search ["merchant.name"] {
        "_id": Str = &a.id,
        "cardId": Str = &a.card_id,
        "cardHolderId": Str = &a.card_holder_id,
        "amount": Money = a.amount.normalize(),
        "currency": Str = a.currency.as_str(),
        "channel": Enum(Channel) = a.channel.as_str(),
        "merchant": Ref("Merchant") where [
            "merchant.name": Str, "merchant.category": Str, "merchant.mcc": Str,
            "merchant.city": Str, "merchant.country": Str,
        ] = MerchantView::from(&a.merchant),
        "approved": Bool = a.approved,
        "status": Enum(AuthorizationStatus) = a.status.as_str(),
        "declineReason": OptEnum(DeclineReason) = a.decline_reason.map(|r| r.as_str()),
        "pendingAmount": Money = a.pending_amount.normalize(),
        "capturedAmount": Money = a.captured_amount.normalize(),
        "reversedAmount": Money = a.reversed_amount.normalize(),
        "refundedAmount": Money = a.refunded_amount.normalize(),
        "expiresAt": Time = a.expires_at,
        "createdAt": Time = a.created_at,
        "updatedAt": Time = a.updated_at,
        "requestedAmount": Money
            doc("What was asked (and incremented); more than `amount` after a partial approval.")
            = a.requested_amount.normalize(),
        "decision": OptRef("Decision") where [
            "decision.source": Str, "decision.reason": Str, "decision.latencyMs": Count,
            "decision.metadata": Json,
        ] = a.decision.as_ref().map(DecisionView::from),
    }
}

view! {
    /// Who decided an authorization, and why.
    DecisionView(Decision) as d {
        "source": Enum(DecisionSource) = d.source.as_str(),
        "reason": OptEnum(DecisionReason) = d.reason.map(|r| r.as_str()),
        "latencyMs": Count = d.latency_ms,
        "metadata": OptJson doc("What the decision endpoint attached to its answer.")
            = d.metadata.as_ref(),
    }
}

view! {
    /// `/authorization-endpoint`: the secret only in the answer that made it.
    AuthorizationEndpointView(DecisionEndpoint, secret) as e {
        "url": Str = &e.url,
        "timeoutMs": Int(MIN_TIMEOUT_MS, MAX_TIMEOUT_MS) = e.timeout_ms,
        "fallback": Enum(Fallback) = e.fallback.as_str(),
        "secret": OptStr doc("`whsec_` + base64 of 32 random bytes: shown when the endpoint is first set and by rotate-secret, null otherwise.")
            = secret,
        "createdAt": Time = e.created_at,
        "updatedAt": Time = e.updated_at,
    }
}

view! {
    /// A card transaction; its amount is signed from the card's point of view.
    CardTransactionView(CardTransaction) as t, schema CARD_TRANSACTION,
        search ["type", "merchant.name"] {
        "_id": Str = &t.id,
        "cardId": Str = &t.card_id,
        "authorizationId": Str = &t.authorization_id,
        "type": Enum(TransactionType) = t.kind.as_str(),
        "amount": Money doc("Signed for the card: captures negative, refunds positive.")
            = t.amount.normalize(),
        "currency": Str = t.currency.as_str(),
        "merchant": Ref("Merchant") where [
            "merchant.name": Str, "merchant.category": Str, "merchant.mcc": Str,
            "merchant.city": Str, "merchant.country": Str,
        ] = MerchantView::from(&t.merchant),
        "createdAt": Time = t.created_at,
    }
}

view! {
    TransferView(Transfer) as t, schema TRANSFER, search ["narration", "reference"] {
        "_id": Str = &t.id,
        "debitAccountId": Str = &t.debit_account_id,
        "creditAccountId": Str = &t.credit_account_id,
        "amount": Money = t.amount.normalize(),
        "currency": Str = t.currency.as_str(),
        "narration": OptStr = &t.narration,
        "reference": OptStr = &t.reference,
        "createdAt": Time = t.created_at,
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

view! {
    /// One entry of `GET /cards/{id}/spending`.
    LimitSpendView(LimitSpend) as l {
        "amount": Money = l.limit.amount.normalize(),
        "interval": Enum(Interval) = l.limit.interval.as_str(),
        "categories": StrList = &l.limit.categories,
        "periodStart": OptTime = l.period_start,
        "spent": Money = l.spent.normalize(),
        "available": Money = l.available.normalize(),
    }
}

view! {
    /// An event's `data`: the resource as a read returns it.
    EventData(Event) as e {
        "object": Json doc("The resource as a read returns it.") = &e.object,
    }
}

view! {
    EventView(Event) as e, schema EVENT, search ["type"] {
        "_id": Str = &e.id,
        "type": Enum(EventType) = e.kind.as_str(),
        "data": Inline(EventData) where ["data.object": Json] = EventData::from(e),
        "createdAt": Time = e.created_at,
    }
}

/// An event as `GET /events/{id}` answers it ([`EventView`]'s JSON, the same bytes), written from
/// its stored text: the object's JSON goes out as stored, not parsed and written again (a webhook
/// delivery's body). `event_body_is_the_event_view` checks the bytes against [`EventView`].
pub fn event_body(e: &crate::domain::events::EventText<'_>) -> Vec<u8> {
    let mut out = Vec::with_capacity(e.object.len() + e.id.len() + 96);
    out.extend_from_slice(b"{\"_id\":");
    // Writing into a Vec fails only on a map key that is not a string; these are strings.
    let _ = serde_json::to_writer(&mut out, e.id);
    out.extend_from_slice(b",\"type\":");
    let _ = serde_json::to_writer(&mut out, e.kind.as_str());
    out.extend_from_slice(b",\"data\":{\"object\":");
    out.extend_from_slice(e.object.as_bytes());
    out.extend_from_slice(b"},\"createdAt\":");
    let _ = serde_json::to_writer(&mut out, &Rfc3339(e.created_at));
    out.push(b'}');
    out
}

/// Every resource with its level (`none`, `read`, `write`), in `Resource::ALL` order.
struct Levels<'a>(&'a Permissions);

impl Serialize for Levels<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(Resource::all().map(|r| (r.as_str(), self.0.level(r).as_str())))
    }
}

view! {
    /// A stored API key as `/api-keys` shows it: never the key, only its id and grants.
    /// `createdAt` is null for keys stored before permissions existed.
    ApiKeyView(KeyInfo) as k, schema API_KEY, search ["_id"] {
        "_id": Str doc("The first 24 hex characters of the key's SHA-256; never the key.") = &k.id,
        "client": Str = &k.client,
        "permissions": EnumMap(Resource, ["none", "read", "write"]) = Levels(&k.permissions),
        "reveal": Bool doc("May create card tokens and reveal card numbers.")
            = k.permissions.reveal(),
        "createdAt": OptTime = k.created_at,
    }
}

view! {
    /// An audit record as `/audit-events` shows it.
    AuditEventView(AuditEvent) as e, schema AUDIT_EVENT, search ["action"] {
        "_id": Str = &e.id,
        "action": Enum(AuditAction) = e.action.as_str(),
        "outcome": Enum(AuditOutcome) = e.outcome.as_str(),
        "error": OptStr doc("The error code of a refusal.") = e.error.as_deref(),
        "keyId": Str doc("The id of the key that asked (never the key).") = &e.key_id,
        "cardId": OptStr = e.card_id.as_deref(),
        "subjectKeyId": OptStr doc("The key created or revoked.") = e.subject_key_id.as_deref(),
        "requestId": OptStr = e.request_id.as_deref(),
        "address": OptStr doc("The caller's address as the host saw it.") = e.address.as_deref(),
        "createdAt": Time = e.created_at,
    }
}

view! {
    /// A webhook endpoint; `secret` only in the answer that made it (creation, rotation), else null.
    WebhookEndpointView(Endpoint, secret) as e, schema WEBHOOK_ENDPOINT,
        search ["url", "description"] {
        "_id": Str = &e.id,
        "url": Str = &e.url,
        "enabledEvents": StrList = &e.enabled_events,
        "description": OptStr = &e.description,
        "status": Enum(EndpointStatus) = e.status.as_str(),
        "secret": OptStr
            doc("`whsec_` + base64 of 32 bytes: in the answers of creation and rotation only, else null.")
            = secret,
        "createdAt": Time = e.created_at,
        "updatedAt": Time = e.updated_at,
    }
}

view! {
    /// One attempt to deliver a webhook.
    AttemptView(Attempt) as a {
        "at": Time = a.at,
        "status": OptInt doc("The HTTP status; null without an answer.") = a.status,
        "durationMs": Count = a.duration_ms,
        "error": OptStr = &a.error,
    }
}

view! {
    WebhookDeliveryView(Delivery) as d, schema WEBHOOK_DELIVERY, search ["eventType"] {
        "_id": Str = &d.id,
        "endpointId": Str = &d.endpoint_id,
        "eventId": Str doc("The `webhook-id` header of every attempt.") = &d.event_id,
        "eventType": Str = &d.event_type,
        "status": Enum(DeliveryStatus) = d.status.as_str(),
        "attempts": List("WebhookAttempt")
            = d.attempts.iter().map(AttemptView::from).collect::<Vec<_>>(),
        "nextAttemptAt": OptTime = d.next_attempt_at,
        "createdAt": Time = d.created_at,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::Currency;

    /// A card rebuilt from its range entry's cover shows the covered fields of the list view as
    /// the card itself does, and exactly those.
    #[test]
    fn a_cover_gives_the_covered_fields_as_the_card_does() {
        use crate::domain::card_records::{COVERED, Cover, tests::full};
        let mut card = full();
        card.held = Decimal::new(1234, 2);
        let cover = Cover::encode(&card, card.balance - card.held);
        let fields: Vec<String> = COVERED.iter().map(|f| f.to_string()).collect();
        let only = |c: &Card| {
            let view = CardView::from(c);
            serde_json::to_value(crate::http::listing::Only(&view, &fields)).unwrap()
        };
        let uncovered = Cover::decode(&cover).unwrap().card(card.id.clone());
        assert_eq!(only(&uncovered), only(&card));
        assert_eq!(only(&card).as_object().unwrap().len(), COVERED.len());
    }

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

    fn at() -> Timestamp {
        Timestamp::parse_rfc3339("2026-01-02T03:04:05.678Z").unwrap()
    }

    fn json<T: Serialize>(v: &T) -> String {
        serde_json::to_string(v).unwrap()
    }

    /// The strings below are what the serde structs these views replaced wrote (field order, `null`
    /// versus absent, money and instants), so a declaration cannot reorder or reformat a view.
    #[test]
    fn declared_views_write_what_their_structs_wrote() {
        let account = Account {
            id: "acc_1".into(),
            owner_type: OwnerType::Business,
            owner_id: None,
            client: "c1".into(),
            name: "Ops".into(),
            kind: AccountType::Checking,
            category: Category::Fiat,
            status: AccountStatus::Active,
            currency: Currency::parse("USD").unwrap(),
            network: Some("visa".into()),
            balance: Decimal::new(105, 1),
            can_debit: true,
            can_credit: false,
            created_at: at(),
            updated_at: at(),
        };
        assert_eq!(
            json(&AccountView::from(&account)),
            r#"{"_id":"acc_1","ownerType":"business","ownerId":null,"client":"c1","name":"Ops","type":"checking","category":"fiat","status":"active","currency":"USD","network":"visa","balance":10.5,"canDebit":true,"canCredit":false,"createdAt":"2026-01-02T03:04:05.678Z","updatedAt":"2026-01-02T03:04:05.678Z","availableBalance":10.5,"ledgerBalance":10.5}"#
        );
        let transfer = Transfer {
            id: "trf_1".into(),
            debit_account_id: "acc_1".into(),
            credit_account_id: "acc_2".into(),
            amount: Decimal::new(40_00, 2),
            currency: Currency::parse("USD").unwrap(),
            narration: None,
            reference: Some("inv-1".into()),
            created_at: at(),
        };
        assert_eq!(
            json(&TransferView::from(&transfer)),
            r#"{"_id":"trf_1","debitAccountId":"acc_1","creditAccountId":"acc_2","amount":40,"currency":"USD","narration":null,"reference":"inv-1","createdAt":"2026-01-02T03:04:05.678Z"}"#
        );
        let mut entry = Entry {
            id: "ent_1".into(),
            account_id: "acc_1".into(),
            kind: EntryType::CardFunding,
            amount: Decimal::new(-25, 0),
            balance_after: Decimal::new(75, 0),
            card_id: None,
            created_at: at(),
        };
        assert_eq!(
            json(&EntryView::from(&entry)),
            r#"{"_id":"ent_1","accountId":"acc_1","type":"card_funding","amount":-25,"balanceAfter":75,"createdAt":"2026-01-02T03:04:05.678Z"}"#
        );
        entry.card_id = Some("crd_1".into());
        assert_eq!(
            json(&EntryView::from(&entry)),
            r#"{"_id":"ent_1","accountId":"acc_1","type":"card_funding","amount":-25,"balanceAfter":75,"cardId":"crd_1","createdAt":"2026-01-02T03:04:05.678Z"}"#
        );
        let detail = AccountDetail {
            id: "det_1".into(),
            account_id: "acc_1".into(),
            kind: DetailType::BankAccount,
            details: serde_json::from_str(r#"{"bankCode":"058"}"#).unwrap(),
            provider: "acme".into(),
            is_primary: true,
            created_at: at(),
            updated_at: at(),
        };
        assert_eq!(
            json(&DetailView::from(&detail)),
            r#"{"_id":"det_1","accountId":"acc_1","type":"bank_account","details":{"bankCode":"058"},"provider":"acme","isPrimary":true,"createdAt":"2026-01-02T03:04:05.678Z","updatedAt":"2026-01-02T03:04:05.678Z"}"#
        );
        let audit = AuditEvent {
            id: "aud_1".into(),
            action: AuditAction::CardRevealed,
            outcome: AuditOutcome::Refused,
            error: Some("permission_denied".into()),
            key_id: "key_1".into(),
            card_id: Some("crd_1".into()),
            subject_key_id: None,
            request_id: None,
            address: Some("127.0.0.1".into()),
            created_at: at(),
        };
        assert_eq!(
            json(&AuditEventView::from(&audit)),
            r#"{"_id":"aud_1","action":"card.revealed","outcome":"refused","error":"permission_denied","keyId":"key_1","cardId":"crd_1","subjectKeyId":null,"requestId":null,"address":"127.0.0.1","createdAt":"2026-01-02T03:04:05.678Z"}"#
        );
        let spend = LimitSpend {
            limit: serde_json::from_str(
                r#"{"amount":100,"interval":"daily","categories":["groceries"]}"#,
            )
            .unwrap(),
            period_start: None,
            spent: Decimal::new(12_50, 2),
            available: Decimal::new(87_50, 2),
        };
        assert_eq!(
            json(&LimitSpendView::from(&spend)),
            r#"{"amount":100,"interval":"daily","categories":["groceries"],"periodStart":null,"spent":12.5,"available":87.5}"#
        );
    }

    #[test]
    fn declared_nested_views_write_what_their_structs_wrote() {
        let mut card = Card {
            id: "crd_1".into(),
            debit_account_id: "acc_1".into(),
            card_holder_id: "chd_1".into(),
            kind: CardType::parse("virtual").unwrap(),
            brand: Brand::parse("Visa").unwrap(),
            currency: Currency::parse("USD").unwrap(),
            status: CardStatus::parse("canceled").unwrap(),
            metadata: serde_json::from_str(r#"{"team":"ops"}"#).unwrap(),
            spending_controls: crate::domain::cards::SpendingControls::default(),
            enable_2fa: false,
            disposable: true,
            balance: Decimal::new(10_000, 2),
            held: Decimal::new(25_50, 2),
            masked_pan: "4111********1111".into(),
            last4: "1111".into(),
            expiry_month: "01".into(),
            expiry_year: "2030".into(),
            cancellation_reason: Some(CancellationReason::ALL[0])
                .and_then(CancellationReason::parse),
            canceled_at: Some(at()),
            created_at: at(),
            updated_at: at(),
        };
        let controls = json(&card.spending_controls);
        let reason = CancellationReason::ALL[0];
        assert_eq!(
            json(&CardView::from(&card)),
            format!(
                r#"{{"_id":"crd_1","debitAccountId":"acc_1","cardHolderId":"chd_1","type":"virtual","brand":"Visa","currency":"USD","status":"canceled","metadata":{{"team":"ops"}},"spendingControls":{controls},"enable2FA":false,"disposable":true,"balance":74.5,"maskedPan":"4111********1111","last4":"1111","expiryMonth":"01","expiryYear":"2030","cancellationReason":"{reason}","canceledAt":"2026-01-02T03:04:05.678Z","createdAt":"2026-01-02T03:04:05.678Z","updatedAt":"2026-01-02T03:04:05.678Z","availableBalance":74.5,"ledgerBalance":100}}"#
            )
        );
        card.cancellation_reason = None;
        card.canceled_at = None;
        assert!(
            json(&CardView::from(&card))
                .contains(r#""cancellationReason":null,"canceledAt":null,"#)
        );

        let delivery = Delivery {
            id: "dlv_1".into(),
            endpoint_id: "we_1".into(),
            event_id: "evt_1".into(),
            event_type: "card.created".into(),
            status: DeliveryStatus::Pending,
            attempts: vec![Attempt {
                at: at(),
                status: None,
                duration_ms: 30,
                error: Some("timeout".into()),
            }],
            failures: 1,
            next_attempt_at: Some(at()),
            due_ms: Some(1),
            created_at: at(),
        };
        assert_eq!(
            json(&WebhookDeliveryView::from(&delivery)),
            r#"{"_id":"dlv_1","endpointId":"we_1","eventId":"evt_1","eventType":"card.created","status":"pending","attempts":[{"at":"2026-01-02T03:04:05.678Z","status":null,"durationMs":30,"error":"timeout"}],"nextAttemptAt":"2026-01-02T03:04:05.678Z","createdAt":"2026-01-02T03:04:05.678Z"}"#
        );
    }

    #[test]
    fn an_api_key_view_lists_every_resource_in_order() {
        let key = KeyInfo {
            id: "k1".into(),
            client: "c1".into(),
            permissions: Permissions::default_new(),
            created_at: None,
            configured: false,
        };
        let levels: Vec<String> = Resource::all()
            .map(|r| {
                format!(
                    r#""{}":"{}""#,
                    r.as_str(),
                    key.permissions.level(r).as_str()
                )
            })
            .collect();
        assert_eq!(levels.len(), Resource::ALL.len());
        assert_eq!(
            json(&ApiKeyView::from(&key)),
            format!(
                r#"{{"_id":"k1","client":"c1","permissions":{{{}}},"reveal":{},"createdAt":null}}"#,
                levels.join(","),
                key.permissions.reveal()
            )
        );
    }

    #[test]
    fn a_card_holder_view_writes_what_its_struct_wrote() {
        let h = CardHolder {
            id: "chd_1".into(),
            name: "Ada Lovelace".into(),
            person: serde_json::from_str(
                r#"{"firstName":"Ada","lastName":"Lovelace","dateOfBirth":null,"email":"ada@example.com","nationality":"NG","gender":null,"phoneNumber":"+2348012345678"}"#,
            )
            .unwrap(),
            address: Some(
                serde_json::from_str(
                    r#"{"line1":"1 Marina","city":"Lagos","state":null,"postalCode":null,"countryCode":"NG"}"#,
                )
                .unwrap(),
            ),
            identification: Identification::default(),
            meta: HolderMeta {
                funding_source: Some("salary".into()),
                monthly_transaction_value: None,
            },
            created_at: at(),
            updated_at: at(),
        };
        // The struct wrote the nested objects with their own serde.
        assert_eq!(
            json(&h.identification),
            r#"{"document":null,"proofOfAddress":null}"#
        );
        assert_eq!(
            json(&h.meta),
            r#"{"fundingSource":"salary","monthlyTransactionValue":null}"#
        );
        assert_eq!(
            json(&CardHolderView::from(&h)),
            format!(
                r#"{{"_id":"chd_1","name":"Ada Lovelace","person":{},"address":{},"identification":{},"meta":{},"createdAt":"2026-01-02T03:04:05.678Z","updatedAt":"2026-01-02T03:04:05.678Z"}}"#,
                json(&h.person),
                json(&h.address),
                json(&h.identification),
                json(&h.meta)
            )
        );
    }

    /// A card holder's nested objects, every field set: the views write what the domain's serde
    /// wrote before they were declared (the same bytes, so `docs/openapi.json` and events hold).
    #[test]
    fn card_holder_nested_views_write_what_their_serde_wrote() {
        let person: Person = serde_json::from_str(
            r#"{"firstName":"Ada","lastName":"Lovelace","dateOfBirth":"1815-12-10","email":"ada@example.com","nationality":"GB","gender":"f","phoneNumber":"+447700900000"}"#,
        )
        .unwrap();
        assert_eq!(json(&PersonView::from(&person)), json(&person));
        let address: Address = serde_json::from_str(
            r#"{"line1":"12 St James's Square","city":"London","state":"LDN","postalCode":"SW1Y 4JH","countryCode":"GB"}"#,
        )
        .unwrap();
        assert_eq!(json(&AddressView::from(&address)), json(&address));
        let hash = |c: char| format!("sha256:{}", c.to_string().repeat(64));
        for identification in [
            format!(
                r#"{{"document":{{"type":"passport","number":"P1","issueDate":"2020-01-01","expiryDate":"2030-01-01","issuingCountry":"GB","verificationStatus":"verified","description":"both sides","urls":{{"main":"https://files.example/m","back":"https://files.example/b"}},"meta":{{"fileType":"image/png","contentHash":"{}"}},"backMeta":{{"fileType":"image/jpeg","contentHash":"{}"}}}},"proofOfAddress":{{"type":"utility_bill","documentId":"D1","verificationStatus":"rejected","description":"blurred","url":"https://files.example/p","meta":{{"fileType":"application/pdf","contentHash":"{}"}}}}}}"#,
                hash('a'),
                hash('b'),
                hash('c')
            ),
            r#"{"document":{"type":null,"number":null,"issueDate":null,"expiryDate":null,"issuingCountry":null,"verificationStatus":"pending","description":null,"urls":{"main":null,"back":null},"meta":null,"backMeta":null},"proofOfAddress":null}"#.to_string(),
        ] {
            let i: Identification = serde_json::from_str(&identification).unwrap();
            assert_eq!(json(&i), identification, "the serde form round-trips");
            assert_eq!(json(&IdentificationView::from(&i)), identification);
        }
    }

    /// The list-query sub-fields given with a `Ref` field (`where [..]`) are the fields of the view
    /// it refers to, so a field added to `MerchantView` or `DecisionView` cannot be left unqueryable.
    #[test]
    fn nested_query_fields_are_the_nested_views_fields() {
        fn below<'a>(schema: &'a Schema, prefix: &str) -> Vec<&'a str> {
            schema
                .fields
                .iter()
                .filter_map(|(f, _)| f.strip_prefix(prefix)?.strip_prefix('.'))
                .filter(|f| !f.contains('.'))
                .collect()
        }
        let names = |wire: &[WireField]| wire.iter().map(|f| f.name).collect::<Vec<_>>();
        assert_eq!(below(&AUTHORIZATION, "merchant"), names(MerchantView::WIRE));
        assert_eq!(
            below(&CARD_TRANSACTION, "merchant"),
            names(MerchantView::WIRE)
        );
        assert_eq!(below(&AUTHORIZATION, "decision"), names(DecisionView::WIRE));
        assert_eq!(below(&EVENT, "data"), names(EventData::WIRE));
        assert_eq!(
            below(&CARD_HOLDER, "identification"),
            names(IdentificationView::WIRE)
        );
        assert_eq!(below(&CARD_HOLDER, "meta"), names(HolderMetaView::WIRE));
        assert_eq!(below(&CARD_HOLDER, "person"), names(PersonView::WIRE));
        assert_eq!(below(&CARD_HOLDER, "address"), names(AddressView::WIRE));
        let identification = |at: &str| below(&CARD_HOLDER, &format!("identification.{at}"));
        assert_eq!(identification("document"), names(DocumentView::WIRE));
        assert_eq!(
            identification("document.urls"),
            names(DocumentUrlsView::WIRE)
        );
        assert_eq!(
            identification("proofOfAddress"),
            names(ProofOfAddressView::WIRE)
        );
        for meta in ["document.meta", "document.backMeta", "proofOfAddress.meta"] {
            assert_eq!(identification(meta), names(FileMetaView::WIRE), "{meta}");
        }
        let card: Vec<&str> = CARD.fields.iter().map(|(n, _)| *n).collect();
        let at = card.iter().position(|n| *n == "balance").unwrap();
        assert_eq!(card[at + 1..at + 3], ["availableBalance", "ledgerBalance"]);
        let documented: Vec<&str> = CardView::WIRE.iter().map(|f| f.name).collect();
        assert_eq!(
            documented,
            card.iter()
                .filter(|n| !n.contains('.'))
                .copied()
                .collect::<Vec<_>>()
        );
        assert_eq!(CARD.populate.len(), 2);
    }

    /// `query [..] after ".."` keeps the list-query order the document's sort enum shows.
    #[test]
    fn an_order_override_moves_only_the_named_fields() {
        let names: Vec<&str> = ACCOUNT.fields.iter().map(|(n, _)| *n).collect();
        assert_eq!(
            names,
            [
                "_id",
                "ownerType",
                "ownerId",
                "client",
                "name",
                "type",
                "category",
                "status",
                "currency",
                "network",
                "balance",
                "availableBalance",
                "ledgerBalance",
                "canDebit",
                "canCredit",
                "createdAt",
                "updatedAt"
            ]
        );
        assert_eq!(ACCOUNT.fields.len(), AccountView::WIRE.len());
    }

    /// A delivery's body, written from the stored event's text, is the bytes `GET /events/{id}`
    /// answers ([`EventView`]): escapes, non-ASCII text, nested objects, numbers, an empty object,
    /// and times with and without milliseconds.
    #[test]
    fn event_body_is_the_event_view() {
        use crate::domain::events::{self, Event, EventType};
        use crate::storage::codec::{self, JsonText};
        let objects = [
            serde_json::json!({}),
            serde_json::json!({"_id": "a\"b\\c\n", "name": "Zoë 日本 😀", "n": 1.5e300, "i": -7,
                "nested": {"list": [1, null, true, {"x": "\u{1}"}]}, "amount": 12.34}),
        ];
        for (i, object) in objects.into_iter().enumerate() {
            let serde_json::Value::Object(map) = object else {
                unreachable!()
            };
            let event = Event {
                id: format!("evt\"{i}"),
                kind: EventType::CardFunded,
                object: JsonText(map),
                created_at: Timestamp(1_700_000_000_000 + i as i64 * 1001),
            };
            let want = serde_json::to_vec(&EventView::from(&event)).unwrap();
            let stored = codec::encode(&event).unwrap();
            let got = events::with_text(&stored, |t| Ok(event_body(t))).unwrap();
            assert_eq!(
                String::from_utf8(got).unwrap(),
                String::from_utf8(want.clone()).unwrap()
            );
            // A version this release does not read is refused, never misread as text.
            let mut other = stored.clone();
            other[0] = 0;
            assert!(events::with_text(&other, |t| Ok(event_body(t))).is_err());
        }
    }
}
