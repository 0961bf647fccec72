// @ts-check (tsconfig.test.json type-checks this file against the generated types)
// The README's flow through the typed client against a real `cards` server (CARDS_BIN): an account,
// a card holder, a funded card, a top-up, a purchase, a reveal token and the reveal, and lists paged
// with a cursor. Run by scripts/test-clients (dist/ must be built: `npm run build`).

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { createCardsClient, ok, pages, filter, CardsApiError } from "../dist/index.js";
import { startServer } from "./server.mjs";

const KEY = "client-flow-key-0123456789";
/** @type {{ base: string, stop: () => Promise<void> }} */
let server;
/** @type {import("../dist/index.js").CardsClient} */
let api;

before(async () => {
  server = await startServer(KEY);
  api = createCardsClient({ baseUrl: server.base, apiKey: KEY });
});
after(() => server?.stop());

/** @param {string} pan */
function luhnOk(pan) {
  let sum = 0;
  for (let i = 0; i < pan.length; i++) {
    let d = Number(pan[pan.length - 1 - i]);
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return sum % 10 === 0;
}

test("the README flow: account, holder, card, fund, authorization, token, reveal", async () => {
  const account = ok(await api.POST("/accounts", {
    body: { ownerType: "business", name: "Operating", type: "checking", category: "fiat", currency: "USD", balance: 500 },
  })).data;
  assert.equal(account.balance, 500);
  assert.match(account._id, /^[0-9a-f]{24}$/);

  const holder = ok(await api.POST("/card-holders", {
    body: {
      name: "Ada Lovelace",
      person: { firstName: "Ada", lastName: "Lovelace", email: "ada@example.com", phoneNumber: "+2348012345678", dateOfBirth: "1990-12-10" },
      address: { line1: "1 Marina", city: "Lagos", state: "LA", postalCode: "101001", countryCode: "NG" },
    },
  })).data;
  assert.equal(holder.person.email, "ada@example.com");

  const issue = {
    body: /** @type {const} */ ({
      debitAccountId: account._id, cardHolderId: holder._id, type: "virtual", brand: "Visa", status: "active", amount: 100,
    }),
    params: { header: { "Idempotency-Key": "issue-1" } },
  };
  const issued = await api.POST("/cards", issue);
  const card = ok(issued).data;
  assert.equal(issued.response.status, 201);
  assert.equal(card.balance, 100);
  assert.equal(card.cardHolderId, holder._id);
  // The same key and body: the stored answer, not a second card.
  const replay = await api.POST("/cards", issue);
  assert.equal(replay.response.headers.get("idempotent-replayed"), "true");
  assert.equal(ok(replay).data._id, card._id);

  const funded = ok(await api.POST("/cards/{id}/fund", {
    params: { path: { id: card._id } }, body: { debitAccountId: account._id, amount: 25.5 },
  })).data;
  assert.equal(funded.balance, 125.5);
  const accountNow = ok(await api.GET("/accounts/{id}", { params: { path: { id: account._id } } })).data;
  assert.equal(accountNow.balance, 374.5, "500 - 100 - 25.50");

  const auth = ok(await api.POST("/cards/{id}/authorizations", {
    params: { path: { id: card._id } },
    body: { amount: 12.25, channel: "web", merchant: { name: "Corner Shop", category: "grocery_stores" } },
  })).data;
  assert.equal(auth.approved, true);
  assert.equal(auth.status, "pending");
  const cardAfter = ok(await api.GET("/cards/{id}", { params: { path: { id: card._id } } })).data;
  assert.equal(cardAfter.availableBalance, 113.25, "125.50 less the 12.25 hold");

  const token = ok(await api.POST("/cards/{id}/token", { params: { path: { id: card._id } } })).data;
  assert.ok(token.token, "a fresh token is shown once");
  const revealed = await api.GET("/cards/{id}/reveal", {
    params: { path: { id: card._id }, query: { token: token.token ?? "" } },
  });
  const secrets = ok(revealed);
  assert.equal(revealed.response.headers.get("cache-control"), "no-store");
  assert.match(secrets.pan, /^\d{16}$/);
  assert.ok(luhnOk(secrets.pan), "a Luhn-valid number");
  assert.equal(secrets.pan.slice(-4), card.last4);
  assert.match(secrets.cvv, /^\d{3}$/);
  // Single use: the same token again is refused, as a typed error.
  const again = await api.GET("/cards/{id}/reveal", {
    params: { path: { id: card._id }, query: { token: token.token ?? "" } },
  });
  assert.throws(() => ok(again), (/** @type {unknown} */ e) => e instanceof CardsApiError && e.status === 403 && e.body?.error === "invalid_token");

  const ledger = ok(await api.GET("/accounts/{id}/transactions", {
    params: { path: { id: account._id }, query: { sort: "createdAt" } },
  }));
  assert.deepEqual(ledger.data.map((e) => [e.type, e.amount]), [
    ["adjustment", 500], ["card_issue_funding", -100], ["card_funding", -25.5],
  ]);
});

test("lists page with a cursor, filtered, to the end", async () => {
  const account = ok(await api.POST("/accounts", {
    body: { ownerType: "user", name: "Paging", type: "checking", category: "fiat", currency: "USD", balance: 1000 },
  })).data;
  const holder = ok(await api.POST("/card-holders", {
    body: { name: "Pa Ging", person: { firstName: "Pa", lastName: "Ging", email: "p@example.com", phoneNumber: "+15551234567" } },
  })).data;
  const made = [];
  for (let i = 0; i < 7; i++) {
    const body = /** @type {const} */ ({
      debitAccountId: account._id, cardHolderId: holder._id, type: "virtual", brand: i % 2 ? "MasterCard" : "Visa", status: "active",
    });
    made.push(ok(await api.POST("/cards", { body })).data);
  }
  const mastercards = made.filter((c) => c.brand === "MasterCard").map((c) => c._id);

  // Newest first (the default order), 2 a page, following meta.hasMore.
  const seen = [];
  let calls = 0;
  for await (const page of pages((startingAfter) => {
    calls++;
    return api.GET("/cards", {
      params: { query: { filter: filter({ cardHolderId: holder._id }), limit: 2, startingAfter } },
    });
  })) {
    assert.ok(page.length <= 2);
    seen.push(...page.map((c) => c._id));
  }
  assert.deepEqual(seen, made.map((c) => c._id).reverse(), "every card once, newest first");
  assert.equal(calls, 4, "7 records at 2 a page");

  // The query language through the typed parameters: a JSON filter, a sort and a projection.
  const filtered = [];
  for await (const page of pages((startingAfter) => api.GET("/cards", {
    params: {
      query: {
        filter: filter({ brand: "MasterCard", cardHolderId: holder._id }), sort: "createdAt", fields: "brand,last4", limit: 1, startingAfter,
      },
    },
  }))) {
    for (const c of page) assert.deepEqual(Object.keys(c).sort(), ["_id", "brand", "last4"]);
    filtered.push(...page.map((c) => c._id));
  }
  assert.deepEqual(filtered, mastercards, "oldest first, MasterCard only");

  // A bad query answers 400 with field errors, as a typed error.
  const bad = await api.GET("/cards", { params: { query: { limit: 500 } } });
  assert.equal(bad.response.status, 400);
  assert.throws(() => ok(bad), (/** @type {unknown} */ e) => e instanceof CardsApiError && e.fieldErrors.some((f) => f.field === "limit"));
});
