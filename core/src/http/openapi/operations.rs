//! What the route table does not say about each route: its name, the body it takes, what it answers
//! and which errors it can give beyond those every route of its kind gives (see `mod.rs`). One row per
//! row of `ROUTES`; a test fails when the two tables differ.

use crate::http::Method::{self, Delete, Get, Post, Put};

/// The request body a route takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Body {
    None,
    /// A JSON object of this component schema.
    Json(&'static str),
    /// JSON, or multipart with JSON-text parts, flat parts and files (POST /card-holders).
    CardHolder,
}

/// What a success answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Success {
    /// `{"statusCode","message","data"}` with `data` of this component schema.
    Data(u16, &'static str),
    /// A list page of this component schema.
    List(&'static str),
    /// This component schema, bare (not enveloped).
    Bare(&'static str),
    /// A stored file (JPEG, PNG or PDF).
    File,
    /// This document.
    OpenApi,
}

#[derive(Debug, Clone, Copy)]
pub struct Operation {
    pub method: Method,
    pub path: &'static str,
    pub id: &'static str,
    pub tag: &'static str,
    pub summary: &'static str,
    pub body: Body,
    pub success: Success,
    /// Statuses this route may answer besides the ones of its kind (auth, body, write, `{id}`).
    pub errors: &'static [u16],
}

const fn op(
    (method, path): (Method, &'static str),
    id: &'static str,
    tag: &'static str,
    summary: &'static str,
    body: Body,
    success: Success,
    errors: &'static [u16],
) -> Operation {
    Operation {
        method,
        path,
        id,
        tag,
        summary,
        body,
        success,
        errors,
    }
}

use Body::{CardHolder, Json};
use Success::{Bare, Data, File, List, OpenApi};

pub static OPERATIONS: &[Operation] = &[
    op(
        (Get, "/health"),
        "health",
        "Service",
        "Whether the service can serve",
        Body::None,
        Data(200, "Health"),
        &[503],
    ),
    op(
        (Get, "/openapi.json"),
        "openapi",
        "Service",
        "This OpenAPI document",
        Body::None,
        OpenApi,
        &[],
    ),
    op(
        (Get, "/accounts"),
        "listAccounts",
        "Accounts",
        "List accounts",
        Body::None,
        List("Account"),
        &[],
    ),
    op(
        (Post, "/accounts"),
        "createAccount",
        "Accounts",
        "Create an account (an opening balance is recorded as a ledger entry)",
        Json("AccountCreate"),
        Data(201, "Account"),
        &[],
    ),
    op(
        (Get, "/accounts/{id}"),
        "getAccount",
        "Accounts",
        "Get an account",
        Body::None,
        Data(200, "Account"),
        &[],
    ),
    op(
        (Put, "/accounts/{id}"),
        "updateAccount",
        "Accounts",
        "Update an account",
        Json("AccountUpdate"),
        Data(200, "Account"),
        &[409, 422],
    ),
    op(
        (Get, "/accounts/{id}/transactions"),
        "listAccountTransactions",
        "Accounts",
        "List an account's ledger entries",
        Body::None,
        List("LedgerEntry"),
        &[],
    ),
    op(
        (Get, "/accounts/{id}/details"),
        "listAccountDetails",
        "Account details",
        "List an account's payout details",
        Body::None,
        List("AccountDetail"),
        &[],
    ),
    op(
        (Post, "/accounts/{id}/details"),
        "createAccountDetail",
        "Account details",
        "Add payout details to an account",
        Json("AccountDetailCreate"),
        Data(201, "AccountDetail"),
        &[],
    ),
    op(
        (Get, "/accounts/{id}/details/{sub}"),
        "getAccountDetail",
        "Account details",
        "Get payout details",
        Body::None,
        Data(200, "AccountDetail"),
        &[],
    ),
    op(
        (Put, "/accounts/{id}/details/{sub}"),
        "updateAccountDetail",
        "Account details",
        "Update payout details",
        Json("AccountDetailUpdate"),
        Data(200, "AccountDetail"),
        &[],
    ),
    op(
        (Delete, "/accounts/{id}/details/{sub}"),
        "deleteAccountDetail",
        "Account details",
        "Delete payout details",
        Body::None,
        Data(200, "AccountDetail"),
        &[],
    ),
    op(
        (Get, "/card-holders"),
        "listCardHolders",
        "Card holders",
        "List card holders",
        Body::None,
        List("CardHolder"),
        &[],
    ),
    op(
        (Post, "/card-holders"),
        "createCardHolder",
        "Card holders",
        "Create a card holder, with identity documents as multipart files",
        CardHolder,
        Data(201, "CardHolder"),
        &[],
    ),
    op(
        (Get, "/card-holders/{id}"),
        "getCardHolder",
        "Card holders",
        "Get a card holder",
        Body::None,
        Data(200, "CardHolder"),
        &[],
    ),
    op(
        (Put, "/card-holders/{id}"),
        "updateCardHolder",
        "Card holders",
        "Update a card holder (merged over the stored one)",
        Json("CardHolderUpdate"),
        Data(200, "CardHolder"),
        &[],
    ),
    op(
        (Get, "/card-holders/{id}/files/{sub}"),
        "getCardHolderFile",
        "Card holders",
        "Download an uploaded file",
        Body::None,
        File,
        &[],
    ),
    op(
        (Get, "/cards"),
        "listCards",
        "Cards",
        "List cards (`populate=cardHolder,debitAccount`)",
        Body::None,
        List("Card"),
        &[],
    ),
    op(
        (Post, "/cards"),
        "createCard",
        "Cards",
        "Issue a card, funded from an account in the same step",
        Json("CardCreate"),
        Data(201, "Card"),
        &[404, 422],
    ),
    op(
        (Get, "/cards/{id}"),
        "getCard",
        "Cards",
        "Get a card",
        Body::None,
        Data(200, "Card"),
        &[],
    ),
    op(
        (Put, "/cards/{id}"),
        "updateCard",
        "Cards",
        "Change a card's status, controls or metadata; cancel it",
        Json("CardUpdate"),
        Data(200, "Card"),
        &[409, 422],
    ),
    op(
        (Delete, "/cards/{id}"),
        "terminateCard",
        "Cards",
        "Terminate a card (its balance goes back to the debit account)",
        Body::None,
        Data(200, "Card"),
        &[409],
    ),
    op(
        (Post, "/cards/{id}/fund"),
        "fundCard",
        "Cards",
        "Move money from an account to a card",
        Json("CardFunding"),
        Data(200, "Card"),
        &[409, 422],
    ),
    op(
        (Post, "/cards/{id}/token"),
        "createCardToken",
        "Cards",
        "A short-lived single-use token to reveal the card's number",
        Body::None,
        Data(201, "CardToken"),
        &[409],
    ),
    op(
        (Get, "/cards/{id}/reveal"),
        "revealCard",
        "Cards",
        "The full card number and CVV, for a token (which it consumes)",
        Body::None,
        Bare("CardSecrets"),
        &[403, 409],
    ),
];
