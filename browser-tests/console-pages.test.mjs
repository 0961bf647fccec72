// The console beyond creation, walked in headless Chromium against a real server: create records
// through the forms, browse a filtered list page by page with the cursor, open a card's page
// (balances, spending report, authorizations, transactions, ledger entries, events) and act on it,
// follow it to its account's ledger, and read the events feed. Every API call the page makes goes
// through the typed client (@cards/client) with the key.
//
// Needs: CARDS_BIN, Debian's Chromium, and web/ built by scripts/build-browser. Run by scripts/test-browser.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { start } from "./harness.mjs";

const KEY = "console-pages-key-0123456789";
let env;

before(async () => {
  env = await start(KEY, "pages");
});
after(() => env?.stop());

/** A console page with the key typed in, every API request it sends recorded. */
async function open(hash = "") {
  const page = await env.browser.newPage();
  const requests = [];
  page.on("request", (r) => {
    const url = new URL(r.url());
    if (url.origin === env.base && !/\.(js|wasm|css|html)$/.test(url.pathname) && url.pathname !== "/") {
      requests.push({ method: r.method(), path: url.pathname, query: url.searchParams, key: r.headers()["x-api-key"] });
    }
  });
  const problems = [];
  page.on("pageerror", (e) => problems.push(e.message));
  await page.goto(`${env.base}/${hash}`);
  await page.locator("#module-status", { hasText: "validator ready" }).waitFor({ timeout: 10000 });
  await page.fill("#api-key", KEY);
  await page.dispatchEvent("#api-key", "change");
  return { page, requests, problems };
}

const ids = (page, list) => page.locator(`[data-testid="${list}-table"] tbody tr`).evaluateAll((rows) => rows.map((r) => r.dataset.id));
const ready = (page, list) => page.locator(`[data-testid="${list}"][data-state="ready"]`).waitFor({ timeout: 10000 });
// A hash change is rendered a moment after the address changes, and the list it replaces may still be
// on the page, ready, until then: poll until the list shows what is expected (or fail with what it shows).
async function expectIds(page, list, expected) {
  let got;
  for (const until = Date.now() + 10000; ; await page.waitForTimeout(50)) {
    got = await ids(page, list);
    if (JSON.stringify(got) === JSON.stringify(expected) || Date.now() > until) break;
  }
  assert.deepEqual(got, expected);
}
const cell = (page, list, row, col) => page.locator(`[data-testid="${list}-table"] tbody tr`).nth(row).locator("td").nth(col).innerText();

test("create, browse a filtered list with a cursor, open a card's page, its account and the events", async () => {
  const { page, requests, problems } = await open();

  // Create: an account, a holder and a card through the forms (checked by the module, sent by the client).
  await page.fill("#account-form [name=name]", "Pages wallet");
  await page.selectOption("#account-form [name=ownerType]", "business");
  await page.selectOption("#account-form [name=type]", "checking");
  await page.selectOption("#account-form [name=category]", "fiat");
  await page.fill("#account-form [name=currency]", "USD");
  await page.fill("#account-form [name=balance]", "1000");
  const [accountRes] = await Promise.all([
    page.waitForResponse((r) => r.url().endsWith("/accounts") && r.request().method() === "POST"),
    page.click("#account-form button[type=submit]"),
  ]);
  assert.equal(accountRes.status(), 201);
  const accountId = (await accountRes.json()).data._id;
  await page.fill("#holder-form [name='person.firstName']", "Grace");
  await page.fill("#holder-form [name='person.lastName']", "Hopper");
  await page.fill("#holder-form [name='person.email']", "grace@example.com");
  await page.fill("#holder-form [name='person.phoneNumber']", "+15551234567");
  const [holderRes] = await Promise.all([
    page.waitForResponse((r) => r.url().endsWith("/card-holders") && r.request().method() === "POST"),
    page.click("#holder-form button[type=submit]"),
  ]);
  const holderId = (await holderRes.json()).data._id;
  await page.selectOption("#card-form [name=brand]", "MasterCard");
  await page.fill("#card-form [name=amount]", "50");
  const [cardRes] = await Promise.all([
    page.waitForResponse((r) => r.url().endsWith("/cards") && r.request().method() === "POST"),
    page.click("#card-form button[type=submit]"),
  ]);
  assert.equal(cardRes.status(), 201);
  const cardId = (await cardRes.json()).data._id;

  // More cards from outside the page: 5 MasterCard in all, 3 Visa.
  const mastercards = [cardId];
  for (let i = 0; i < 7; i++) {
    const brand = i % 2 ? "Visa" : "MasterCard";
    const r = await env.api("POST", "/cards", { debitAccountId: accountId, cardHolderId: holderId, type: "virtual", brand, status: "active" });
    assert.equal(r.status, 201);
    if (brand === "MasterCard") mastercards.push(r.json.data._id);
  }
  assert.equal(mastercards.length, 5);
  const newestFirst = [...mastercards].reverse();

  // Browse: cards, filtered to MasterCard, 2 a page, through the cursor and back.
  await page.click("#nav a[data-page=browse]");
  await page.selectOption("#browse-form [name=list]", "cards");
  await page.fill("#browse-form [name=filter]", '{"brand":"MasterCard"}');
  await page.fill("#browse-form [name=limit]", "2");
  await page.click("#browse-form button[type=submit]");
  await page.waitForURL(/#\/browse\/cards\?filter=.*&limit=2$/);
  await ready(page, "browse-list");
  await expectIds(page, "browse-list", newestFirst.slice(0, 2));
  assert.match(await page.innerText('[data-testid="browse-list-info"]'), /^2 shown · 5 in all/);
  assert.equal(await page.isDisabled('[data-testid="browse-list-prev"]'), true, "nothing before the first page");
  await page.click('[data-testid="browse-list-next"]');
  await ready(page, "browse-list");
  await expectIds(page, "browse-list", newestFirst.slice(2, 4));
  await page.click('[data-testid="browse-list-next"]');
  await ready(page, "browse-list");
  await expectIds(page, "browse-list", newestFirst.slice(4));
  assert.equal(await page.isDisabled('[data-testid="browse-list-next"]'), true, "the list ends here");
  await page.click('[data-testid="browse-list-prev"]');
  await ready(page, "browse-list");
  await expectIds(page, "browse-list", newestFirst.slice(2, 4));
  const pagesAsked = requests.filter((r) => r.method === "GET" && r.path === "/cards" && r.query.get("filter"));
  assert.deepEqual(pagesAsked.map((r) => [r.query.get("filter"), r.query.get("limit"), r.query.get("startingAfter"), r.query.get("endingBefore")]), [
    ['{"brand":"MasterCard"}', "2", null, null],
    ['{"brand":"MasterCard"}', "2", newestFirst[1], null],
    ['{"brand":"MasterCard"}', "2", newestFirst[3], null],
    ['{"brand":"MasterCard"}', "2", null, newestFirst[4]],
  ], "cursor paging: startingAfter the last id shown, endingBefore the first");
  for (const row of await page.locator('[data-testid="browse-list-table"] tbody tr td:nth-child(2)').allInnerTexts()) assert.equal(row, "MasterCard");
  if (process.env.CONSOLE_SCREENSHOT_DIR) {
    await page.screenshot({ path: join(process.env.CONSOLE_SCREENSHOT_DIR, "console-browse.png"), fullPage: true });
  }

  // A query the server would refuse is refused in the page, with the server's words, and not sent.
  const before = requests.length;
  await page.fill("#browse-form [name=sort]", "nope");
  await page.click("#browse-form button[type=submit]");
  // allInnerTexts does not wait: wait for the refusal to render before reading it.
  await page.locator('[data-testid="query-errors"] li').first().waitFor();
  const local = await page.locator('[data-testid="query-errors"] li').allInnerTexts();
  const remote = await env.api("GET", "/cards?sort=nope&filter=%7B%22brand%22%3A%22MasterCard%22%7D&limit=2");
  assert.equal(remote.status, 400);
  assert.deepEqual(local, remote.json.errors.map((e) => `${e.field} ${e.message}`));
  assert.equal(requests.length, before, "no request for a refused query");

  // The filter as an expression (its own `&` and `=` survive the address) and a search.
  await page.fill("#browse-form [name=sort]", "createdAt");
  await page.fill("#browse-form [name=filter]", "brand=Visa&type=virtual");
  await page.fill("#browse-form [name=limit]", "10");
  await page.click("#browse-form button[type=submit]");
  await page.waitForURL(/limit=10$/);
  await ready(page, "browse-list");
  assert.equal((await ids(page, "browse-list")).length, 3, "the 3 Visa cards");
  assert.equal(requests.at(-1).query.get("filter"), "brand=Visa&type=virtual");
  await page.selectOption("#browse-form [name=list]", "card-holders");
  await page.fill("#browse-form [name=filter]", "");
  await page.fill("#browse-form [name=sort]", "");
  await page.fill("#browse-form [name=search]", "hopp");
  await page.click("#browse-form button[type=submit]");
  await page.waitForURL(/#\/browse\/card-holders\?search=hopp/);
  await ready(page, "browse-list");
  await expectIds(page, "browse-list", [holderId]);

  // A monthly limit and a purchase on the first card, then its page, opened from the browse list.
  const limited = await env.api("PUT", `/cards/${cardId}`, { spendingControls: { spendingLimits: [{ amount: 100, interval: "monthly" }] } });
  assert.equal(limited.status, 200, JSON.stringify(limited.json));
  const auth = await env.api("POST", `/cards/${cardId}/authorizations`, { amount: 12.5, channel: "web", merchant: { name: "Corner Shop", category: "grocery_stores" } });
  assert.equal(auth.json.data.approved, true, JSON.stringify(auth.json));
  await page.goto(`${env.base}/#/browse/cards?filter=${encodeURIComponent(JSON.stringify({ _id: cardId }))}`);
  await ready(page, "browse-list");
  await page.click(`[data-testid="browse-list-table"] a[href="#/cards/${cardId}"]`);
  await page.waitForURL(`${env.base}/#/cards/${cardId}`);
  const balances = page.locator('[data-testid="card-balances"]');
  await balances.waitFor();
  assert.equal(await balances.locator('[data-fact="ledger"]').innerText(), "50 USD");
  assert.equal(await balances.locator('[data-fact="available"]').innerText(), "37.5 USD", "50 less the 12.50 hold");
  assert.equal(await balances.locator('[data-fact="balance"]').innerText(), "37.5 USD");
  await page.locator('[data-testid="card-spending"] table').waitFor();
  const limit = await page.locator('[data-testid="card-spending"] tbody tr td').allInnerTexts();
  assert.deepEqual(limit.slice(0, 5), ["monthly", "all", "100", "12.5", "87.5"], "interval, categories, limit, spent, available");
  assert.match(limit[5], /^\d{4}-\d\d-01 00:00:00$/, "the period starts on the 1st of the month");
  for (const list of ["card-authorizations", "card-transactions", "card-ledger", "card-events", "card-spend-events"]) await ready(page, list);
  await expectIds(page, "card-authorizations", [auth.json.data._id]);
  assert.equal(await cell(page, "card-authorizations", 0, 4), "pending");
  assert.deepEqual(await page.locator('[data-testid="card-ledger-table"] tbody tr td:nth-child(2)').allInnerTexts(), ["card_issue_funding"]);
  assert.deepEqual(await page.locator('[data-testid="card-events-table"] tbody tr td:nth-child(2)').allInnerTexts(), ["card.updated", "card.created"]);
  assert.deepEqual(await page.locator('[data-testid="card-spend-events-table"] tbody tr td:nth-child(2)').allInnerTexts(), ["authorization.created"]);
  assert.match(await page.innerText('[data-testid="card-transactions"]'), /No captures or refunds yet/);

  // Capture the hold from the page: the card's page shows the capture and the settled balances.
  await page.click('[data-testid="card-authorizations-table"] button:has-text("Capture")');
  await page.locator('[data-testid="card-transactions-table"]').waitFor({ timeout: 10000 });
  assert.equal(await cell(page, "card-transactions", 0, 1), "capture");
  assert.equal(await page.locator('[data-testid="card-balances"] [data-fact="ledger"]').innerText(), "37.5 USD", "the hold captured");
  await ready(page, "card-authorizations");
  assert.equal(await cell(page, "card-authorizations", 0, 4), "closed");

  // Reveal: a token, then the number, shown on the page only.
  await page.click('[data-testid="reveal-button"]');
  const pan = await page.locator('[data-testid="reveal"] [data-fact="number"]').innerText();
  assert.match(pan, /^\d{16}$/);
  assert.deepEqual(requests.slice(-2).map((r) => `${r.method} ${r.path}`), [`POST /cards/${cardId}/token`, `GET /cards/${cardId}/reveal`]);

  // Its account: the ledger, newest first.
  await page.click(`#page a[href="#/accounts/${accountId}"]`);
  await ready(page, "account-ledger");
  assert.deepEqual(await page.locator('[data-testid="account-ledger-table"] tbody tr td:nth-child(2)').allInnerTexts(),
    ["card_issue_funding", "adjustment"]);
  assert.equal(await page.locator('[data-testid="account-summary"] [data-fact="balance"]').innerText(), "950 USD");
  await ready(page, "account-cards");
  assert.match(await page.innerText('[data-testid="account-cards-info"]'), /8 in all/);

  // The events feed, filtered to one type.
  await page.click("#nav a[data-page=events]");
  await ready(page, "events-feed");
  // The type list comes from GET /openapi.json: every type the API declares, the newest ones too.
  await page.locator('[data-testid="events-type"][data-state="ready"]').waitFor();
  const offered = await page.locator('[data-testid="events-type"] option').allInnerTexts();
  assert.ok(offered.includes("card.created") && offered.includes("transfer.created") && offered.includes("dispute.updated"), offered.join());
  await page.selectOption('[data-testid="events-type"]', "card.created");
  await page.waitForURL(/#\/events\?type=card\.created$/);
  await ready(page, "events-feed");
  const types = await page.locator('[data-testid="events-feed-table"] tbody tr td:nth-child(2)').allInnerTexts();
  assert.equal(types.length, 8);
  assert.ok(types.every((t) => t === "card.created"));

  // Live: what happens after "Live" is ticked shows up without a reload, of the page's type only.
  await page.check('[data-testid="events-live"]');
  await page.locator('[data-testid="events-live-panel"][data-state="live"]').waitFor();
  assert.equal(await page.locator('[data-testid="events-live-table"] tbody tr').count(), 0, "nothing from before");
  const liveAccount = await env.api("POST", "/accounts", { ownerType: "business", name: "Live", type: "checking", category: "fiat", currency: "USD", balance: 0 });
  assert.equal(liveAccount.status, 201);
  const liveCard = await env.api("POST", "/cards", { debitAccountId: accountId, cardHolderId: holderId, type: "virtual", brand: "Visa", status: "active" });
  assert.equal(liveCard.status, 201);
  const liveRow = page.locator(`[data-testid="events-live-table"] tbody tr td:nth-child(3) a[href="#/cards/${liveCard.json.data._id}"]`);
  await liveRow.waitFor({ timeout: 10000 });
  assert.deepEqual(await page.locator('[data-testid="events-live-table"] tbody tr td:nth-child(2)').allInnerTexts(), ["card.created"],
    "the new card's event, and not the account's (another type)");
  await page.uncheck('[data-testid="events-live"]');

  if (process.env.CONSOLE_SCREENSHOT_DIR) {
    await page.goto(`${env.base}/#/cards/${cardId}`);
    await ready(page, "card-events");
    await page.screenshot({ path: join(process.env.CONSOLE_SCREENSHOT_DIR, "console-card.png"), fullPage: true });
  }
  const api = requests.filter((r) => !["/health", "/openapi.json"].includes(r.path));
  assert.ok(api.length > 20);
  assert.deepEqual(api.filter((r) => r.key !== KEY).map((r) => `${r.method} ${r.path}`), [], "every API call carries the key");
  assert.deepEqual(problems, []);
  await page.close();
});
