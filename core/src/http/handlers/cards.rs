//! /cards: issue, read, list (with populate), update, terminate, fund, token and reveal.

use std::collections::HashMap;

use serde_json::{Value, json};

use super::{Call, Command, command, emit, to_value};
use crate::domain::cards;
use crate::domain::events::EventType;
use crate::domain::vault::Vault;
use crate::domain::{accounts, card_holders};
use crate::error::{ApiError, ApiResult};
use crate::http::listing::{Only, Records};
use crate::http::views::{self, AccountView, CardHolderView, CardView};
use crate::http::{Response, parse, reply};
use crate::query;

/// The vault, once its key is known to be the one the stored card data was sealed with.
pub(crate) fn vault(c: &mut Call) -> ApiResult<Vault> {
    let vault = c.config.vault().ok_or_else(|| ApiError::NotConfigured {
        code: crate::domain::vault::NOT_CONFIGURED,
        message: "no vault key is configured (native: --vault-key or CARDS_VAULT_KEY; \
                      Spin: the variable vault_key), so cards cannot be issued or revealed"
            .into(),
    })?;
    vault.check_key(c.scope.tx)?;
    Ok(vault)
}

pub fn check_create(c: &mut Call) -> ApiResult<Command> {
    command(parse::cards::create(c.json_body()?)?)
}

pub fn create(c: &mut Call) -> ApiResult<Response> {
    let new = c.command::<cards::NewCard>()?.clone();
    let vault = vault(c)?;
    let card = cards::create(&mut c.scope, &vault, new)?;
    emit(c, EventType::CardCreated, &CardView::from(&card))?;
    Ok(reply::created(
        "Card created successfully",
        &CardView::from(&card),
    ))
}

pub fn get(c: &mut Call) -> ApiResult<Response> {
    let card = cards::get(&mut c.scope, &c.route.id)?;
    Ok(reply::ok(
        "Card fetched successfully",
        &CardView::from(&card),
    ))
}

pub fn list(c: &mut Call) -> ApiResult<Response> {
    let q = c.list_query(&views::CARD)?;
    let mut page = q.run(
        &mut Records::new(&mut c.scope, |s, card| {
            to_value(CardView::from(&cards::with_holds(s, card)?))
        })
        .projected(
            |bytes, fields| {
                let reads = |f: &str| fields.iter().any(|x| x == f);
                let parts = cards::CardParts {
                    metadata: reads("metadata"),
                    debit_account_id: reads("debitAccountId"),
                    card_holder_id: reads("cardHolderId"),
                    masked_pan: reads("maskedPan"),
                    last4: reads("last4"),
                    expiry: reads("expiryMonth") || reads("expiryYear"),
                };
                cards::decode_part(bytes, parts)
            },
            |s, mut chunk, fields| {
                // Only what a card can spend needs its holds read: the chunk's in one range read.
                let spend = |f: &String| f == "balance" || f == "availableBalance";
                if fields.iter().any(spend) {
                    cards::with_holds_many(s, &mut chunk)?;
                }
                chunk
                    .iter()
                    .map(|card| to_value(Only(&CardView::from(card), fields)))
                    .collect()
            },
        )
        // A card from its range entry's cover: its holds are already off its balance.
        .covered(|card, fields| to_value(Only(&CardView::from(&card), fields))),
        None,
    )?;
    // Many cards share a holder or an account: load each related record once per request.
    let mut loaded: HashMap<(&str, String), Option<Value>> = HashMap::new();
    for item in &mut page.items {
        for p in &q.populate {
            let id_field = match p.name.as_str() {
                "cardHolder" => "cardHolderId",
                "debitAccount" => "debitAccountId",
                _ => continue,
            };
            let id = item[id_field].as_str().unwrap_or_default().to_string();
            let key = (id_field, id);
            let related = match loaded.get(&key) {
                Some(doc) => doc.clone(),
                None => {
                    let doc = related(c, id_field, &key.1)?;
                    loaded.insert(key, doc.clone());
                    doc
                }
            };
            item[p.name.as_str()] = match (related, &p.fields) {
                (Some(doc), Some(fields)) => query::project_fields(doc, fields),
                (Some(doc), None) => doc,
                (None, _) => Value::Null,
            };
        }
    }
    Ok(reply::list("Cards fetched successfully", &q, page))
}

/// The holder or account a card points at, as its view; None if it is gone.
fn related(c: &mut Call, id_field: &str, id: &str) -> ApiResult<Option<Value>> {
    let found = match id_field {
        "cardHolderId" => {
            card_holders::get(&mut c.scope, id).map(|h| to_value(CardHolderView::from(&h)))
        }
        _ => accounts::get(&mut c.scope, id).map(|a| to_value(AccountView::from(&a))),
    };
    match found {
        Ok(view) => view.map(Some),
        Err(ApiError::NotFound(_)) => Ok(None),
        Err(e) => Err(e),
    }
}

pub fn check_update(c: &mut Call) -> ApiResult<Command> {
    command(parse::cards::update(c.json_body()?)?)
}

pub fn update(c: &mut Call) -> ApiResult<Response> {
    let u = c.command::<cards::CardUpdate>()?.clone();
    let canceling = u.status == Some(cards::CardStatus::Canceled);
    let card = cards::update(&mut c.scope, &c.route.id, u)?;
    let kind = if canceling {
        EventType::CardCanceled
    } else {
        EventType::CardUpdated
    };
    emit(c, kind, &CardView::from(&card))?;
    Ok(reply::ok(
        "Card updated successfully",
        &CardView::from(&card),
    ))
}

pub fn terminate(c: &mut Call) -> ApiResult<Response> {
    let card = cards::terminate(&mut c.scope, &c.route.id)?;
    emit(c, EventType::CardCanceled, &CardView::from(&card))?;
    Ok(reply::ok(
        "Card terminated successfully",
        &CardView::from(&card),
    ))
}

pub fn check_fund(c: &mut Call) -> ApiResult<Command> {
    command(parse::cards::fund(c.json_body()?)?)
}

pub fn fund(c: &mut Call) -> ApiResult<Response> {
    let funding = c.command::<cards::Funding>()?.clone();
    let card = cards::fund(&mut c.scope, &c.route.id, funding)?;
    emit(c, EventType::CardFunded, &CardView::from(&card))?;
    Ok(reply::ok(
        "Card funded successfully",
        &CardView::from(&card),
    ))
}

pub fn token(c: &mut Call) -> ApiResult<Response> {
    let (token, expires) = cards::token(&mut c.scope, &c.route.id, c.config.token_ttl_secs)?;
    let expires = expires.to_rfc3339();
    let mut response = reply::created(
        "Card token created successfully",
        &json!({"token": token, "expiresAt": expires}),
    );
    // Only the token's hash is stored: a replay with the same Idempotency-Key cannot show it again.
    let replay = reply::created(
        "Card token already created for this Idempotency-Key; a token is shown only once",
        &json!({"token": null, "expiresAt": expires}),
    );
    response.replay_body = Some(replay.body);
    Ok(response)
}

pub fn reveal(c: &mut Call) -> ApiResult<Response> {
    let token = form_urlencoded::parse(c.req.query.as_bytes())
        .find(|(k, _)| k == "token")
        .map(|(_, v)| v.into_owned());
    let vault = vault(c)?;
    let (card, secrets) = cards::reveal(&mut c.scope, &vault, &c.route.id, token.as_deref())?;
    Ok(Response::json(
        200,
        &json!({
            "pan": secrets.pan,
            "cvv": secrets.cvv,
            "expiryMonth": card.expiry_month,
            "expiryYear": card.expiry_year,
        }),
    )
    .with_header("cache-control", "no-store"))
}
