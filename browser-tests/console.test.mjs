// End-to-end tests of the cards console in headless Chromium against a real `cards` server, and a
// parity table: every case runs through the browser module (in Chromium) and against the server,
// which must answer with exactly the same field errors.
//
// Needs: CARDS_BIN (the native `cards` binary), Debian's /usr/bin/chromium (or CHROMIUM), and
// web/pkg built by scripts/build-browser. Run by scripts/test-browser.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, existsSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const WEB = resolve(dirname(fileURLToPath(import.meta.url)), "..", "web");
const KEY = "console-e2e-key-0123456789";
const CLIENT = "console";
const CHROMIUM_ARGS = [
  "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
  "--disable-background-networking", "--disable-component-update", "--disable-sync",
];

let server, dataDir, base, browser;

function freePort() {
  return new Promise((res, rej) => {
    const s = createServer();
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => res(port));
    });
    s.on("error", rej);
  });
}

async function waitUp(url, ms = 15000) {
  const end = Date.now() + ms;
  for (;;) {
    try {
      const r = await fetch(url);
      if (r.status) return;
    } catch (e) {
      if (Date.now() > end) throw new Error(`server did not come up at ${url}: ${e.message}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

before(async () => {
  const bin = process.env.CARDS_BIN;
  assert.ok(bin && existsSync(bin), "CARDS_BIN must name the built cards binary");
  assert.ok(existsSync(join(WEB, "pkg", "cards_browser.js")), "web/pkg missing: run scripts/build-browser");
  dataDir = mkdtempSync(join(tmpdir(), "cards-console-"));
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  server = spawn(bin, [
    "serve", "--listen", `127.0.0.1:${port}`, "--data", join(dataDir, "cards.redb"),
    "--api-key", `${KEY}=${CLIENT}`, "--console", WEB,
  ], { stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  server.stderr.on("data", (d) => (stderr += d));
  server.on("exit", (code) => {
    if (code) console.error(`cards exited ${code}\n${stderr}`);
  });
  await waitUp(`${base}/`);
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
    args: CHROMIUM_ARGS,
  });
});

after(async () => {
  await browser?.close();
  server?.kill("SIGTERM");
  await new Promise((r) => (server?.exitCode !== null ? r() : server.on("exit", r)));
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

/** An API call from the test itself (not through the page). */
async function api(method, path, body) {
  const res = await fetch(base + path, {
    method,
    headers: { "x-api-key": KEY, ...(body !== undefined ? { "content-type": "application/json" } : {}) },
    body: body !== undefined ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, json: await res.json() };
}

/** A fresh page on the console, validator loaded, with every non-GET request recorded. */
async function openConsole() {
  const page = await browser.newPage();
  const writes = [];
  page.on("request", (r) => {
    if (r.method() !== "GET") writes.push(`${r.method()} ${new URL(r.url()).pathname}`);
  });
  const problems = [];
  page.on("pageerror", (e) => problems.push(e.message));
  await page.goto(`${base}/`);
  await page.locator("#module-status", { hasText: "validator ready" }).waitFor({ timeout: 10000 });
  return { page, writes, problems };
}

const errorText = (page, form, field) =>
  page.locator(`${form} .field-error[data-for="${field}"]`).first().textContent({ timeout: 5000 });

test("the console is served by cards at / with its module under /pkg", async () => {
  const html = await fetch(`${base}/`);
  assert.equal(html.status, 200);
  assert.match(html.headers.get("content-type"), /^text\/html/);
  const wasm = await fetch(`${base}/pkg/cards_browser_bg.wasm`);
  assert.equal(wasm.headers.get("content-type"), "application/wasm");
  assert.equal((await api("GET", "/accounts")).status, 200, "the API still answers beside it");
});

test("an invalid account form shows the field errors and sends nothing", async () => {
  const { page, writes, problems } = await openConsole();
  await page.fill("#api-key", KEY);
  await page.fill("#account-form [name=name]", "Nope");
  // Live: a touched field shows its error while typing, before any submit.
  await page.fill("#account-form [name=balance]", "10.123");
  assert.equal(await errorText(page, "#account-form", "balance"), "balance must have at most 2 decimal places");
  await page.click("#account-form button[type=submit]");
  assert.equal(await errorText(page, "#account-form", "ownerType"), "ownerType is required");
  assert.equal(await errorText(page, "#account-form", "currency"), "currency is required");
  await page.locator("#log li.blocked").first().waitFor();
  if (process.env.CONSOLE_SCREENSHOT_DIR) {
    await page.screenshot({ path: join(process.env.CONSOLE_SCREENSHOT_DIR, "console-errors.png"), fullPage: true });
  }
  assert.deepEqual(writes, [], "no request reached the network");
  assert.equal((await api("GET", "/accounts")).json.meta.total, 0, "nothing was created");
  assert.deepEqual(problems, []);
  await page.close();
});

test("valid forms create an account, a card holder, a funded card, and fund it again", async () => {
  const { page, writes, problems } = await openConsole();
  await page.fill("#api-key", KEY);

  await page.fill("#account-form [name=name]", "Operating wallet");
  await page.selectOption("#account-form [name=ownerType]", "business");
  await page.selectOption("#account-form [name=type]", "checking");
  await page.selectOption("#account-form [name=category]", "fiat");
  await page.fill("#account-form [name=currency]", "usd");
  await page.fill("#account-form [name=balance]", "500.10");
  const [created] = await Promise.all([
    page.waitForResponse((r) => r.url().endsWith("/accounts") && r.request().method() === "POST"),
    page.click("#account-form button[type=submit]"),
  ]);
  assert.equal(created.status(), 201);
  const accountId = (await created.json()).data._id;
  const stored = await api("GET", `/accounts/${accountId}`);
  assert.equal(stored.status, 200);
  assert.equal(stored.json.data.name, "Operating wallet");
  assert.equal(stored.json.data.currency, "USD");
  assert.equal(stored.json.data.balance, 500.1);

  await page.fill("#holder-form [name='person.firstName']", "Ada");
  await page.fill("#holder-form [name='person.lastName']", "Obi");
  await page.fill("#holder-form [name='person.email']", "ada@example.com");
  await page.fill("#holder-form [name='person.phoneNumber']", "+2348012345678");
  await page.fill("#holder-form [name='address.countryCode']", "ng");
  const [holderRes] = await Promise.all([
    page.waitForResponse((r) => r.url().endsWith("/card-holders") && r.request().method() === "POST"),
    page.click("#holder-form button[type=submit]"),
  ]);
  assert.equal(holderRes.status(), 201, await holderRes.text());
  const holderId = (await holderRes.json()).data._id;

  // The ids were filled in from the records just created.
  assert.equal(await page.inputValue("#card-form [name=debitAccountId]"), accountId);
  assert.equal(await page.inputValue("#card-form [name=cardHolderId]"), holderId);
  await page.selectOption("#card-form [name=brand]", "MasterCard");
  await page.fill("#card-form [name=amount]", "0.5");
  await page.click("#card-form button[type=submit]");
  assert.equal(await errorText(page, "#card-form", "amount"), "amount must be at least 1");
  await page.fill("#card-form [name=amount]", "100.25");
  const [cardRes] = await Promise.all([
    page.waitForResponse((r) => r.url().endsWith("/cards") && r.request().method() === "POST"),
    page.click("#card-form button[type=submit]"),
  ]);
  assert.equal(cardRes.status(), 201, await cardRes.text());
  const card = (await cardRes.json()).data;
  assert.equal(card.brand, "MasterCard");

  assert.equal(await page.inputValue("#fund-form [name=cardId]"), card._id);
  await page.fill("#fund-form [name=amount]", "9.999");
  await page.click("#fund-form button[type=submit]");
  assert.equal(await errorText(page, "#fund-form", "amount"), "amount must have at most 2 decimal places");
  await page.fill("#fund-form [name=amount]", "10.1");
  const [fundRes] = await Promise.all([
    page.waitForResponse((r) => r.url().endsWith("/fund")),
    page.click("#fund-form button[type=submit]"),
  ]);
  assert.equal(fundRes.status(), 200, await fundRes.text());

  const cardNow = await api("GET", `/cards/${card._id}`);
  assert.equal(cardNow.json.data.balance, 110.35);
  const accountNow = await api("GET", `/accounts/${accountId}`);
  assert.equal(accountNow.json.data.balance, 389.75, "500.10 - 100.25 - 10.10");
  await page.locator("#records td", { hasText: card._id }).waitFor();
  assert.deepEqual(writes, [
    "POST /accounts", "POST /card-holders", "POST /cards", `POST /cards/${card._id}/fund`,
  ], "one request per valid submit, none for the invalid ones");
  assert.deepEqual(problems, []);
  if (process.env.CONSOLE_SCREENSHOT_DIR) {
    await page.screenshot({ path: join(process.env.CONSOLE_SCREENSHOT_DIR, "console.png"), fullPage: true });
  }
  await page.close();
});

test("the console moves money between accounts and opens and resolves a dispute", async () => {
  const { page, writes, problems } = await openConsole();
  await page.fill("#api-key", KEY);
  const account = (b) => api("POST", "/accounts", { ownerType: "business", name: "T", type: "checking", category: "fiat", currency: "USD", balance: b });
  const from = (await account(100)).json.data;
  const to = (await account(0)).json.data;

  await page.fill("#transfer-form [name=debitAccountId]", from._id);
  await page.fill("#transfer-form [name=creditAccountId]", from._id);
  await page.fill("#transfer-form [name=amount]", "40");
  await page.click("#transfer-form button[type=submit]");
  assert.equal(await errorText(page, "#transfer-form", "creditAccountId"), "creditAccountId must differ from debitAccountId");
  await page.fill("#transfer-form [name=creditAccountId]", to._id);
  const [transferRes] = await Promise.all([
    page.waitForResponse((r) => r.url().endsWith("/accounts/transfers") && r.request().method() === "POST"),
    page.click("#transfer-form button[type=submit]"),
  ]);
  assert.equal(transferRes.status(), 201, await transferRes.text());
  assert.equal((await api("GET", `/accounts/${from._id}`)).json.data.balance, 60);
  assert.equal((await api("GET", `/accounts/${to._id}`)).json.data.balance, 40);

  // A captured purchase to dispute.
  const holder = (await api("POST", "/card-holders", {
    name: "Dis Pute", person: { firstName: "Dis", lastName: "Pute", email: "d@example.com", phoneNumber: "+15551234567" },
  })).json.data;
  const card = (await api("POST", "/cards", {
    debitAccountId: from._id, cardHolderId: holder._id, type: "virtual", brand: "Visa", status: "active", amount: 50,
  })).json.data;
  const auth = (await api("POST", `/cards/${card._id}/authorizations`, { amount: 20, channel: "web", merchant: { name: "Shop" } })).json.data;
  assert.equal((await api("POST", `/authorizations/${auth._id}/capture`, {})).status, 200);
  const capture = (await api("GET", `/cards/${card._id}/transactions?type=capture`)).json.data[0];

  await page.fill("#dispute-form [name=transactionId]", capture._id);
  await page.selectOption("#dispute-form [name=reason]", "not_received");
  await page.fill("#dispute-form [name=amount]", "-1");
  await page.click("#dispute-form button[type=submit]");
  assert.equal(await errorText(page, "#dispute-form", "amount"), "amount must be greater than 0");
  await page.fill("#dispute-form [name=amount]", "15");
  const [disputeRes] = await Promise.all([
    page.waitForResponse((r) => r.url().endsWith("/disputes") && r.request().method() === "POST"),
    page.click("#dispute-form button[type=submit]"),
  ]);
  assert.equal(disputeRes.status(), 201, await disputeRes.text());
  const dispute = (await disputeRes.json()).data;
  assert.equal(await page.inputValue("#resolve-form [name=disputeId]"), dispute._id);
  await page.selectOption("#resolve-form [name=outcome]", "won");
  const [resolveRes] = await Promise.all([
    page.waitForResponse((r) => r.url().endsWith("/resolve")),
    page.click("#resolve-form button[type=submit]"),
  ]);
  assert.equal(resolveRes.status(), 200, await resolveRes.text());
  assert.equal((await resolveRes.json()).data.status, "won");
  assert.equal((await api("GET", `/cards/${card._id}`)).json.data.balance, 45, "50 - 20 + 15");
  assert.deepEqual(writes, [
    "POST /accounts/transfers", `POST /card-transactions/${capture._id}/disputes`, `POST /disputes/${dispute._id}/resolve`,
  ], "one request per valid submit, none for the invalid ones");
  assert.deepEqual(problems, []);
  await page.close();
});

/** Runs one exported function of the module inside Chromium. */
async function inBrowser(page, fn, args) {
  return page.evaluate(async ({ fn, args }) => {
    const m = await import("/pkg/cards_browser.js");
    await m.default();
    if (!m[fn]) return { missing: fn };
    return m[fn](...args);
  }, { fn, args });
}

test("parity: the browser module and the server give the same field errors", async () => {
  const { page } = await openConsole();
  // Real records, so that cases which pass validation reach the server's later checks, not a 404.
  const account = (await api("POST", "/accounts", {
    ownerType: "user", name: "Parity", type: "checking", category: "fiat", currency: "USD", balance: 1000,
  })).json.data;
  const holder = (await api("POST", "/card-holders", {
    name: "Par Ity", person: { firstName: "Par", lastName: "Ity", email: "p@example.com", phoneNumber: "+15551234567" },
  })).json.data;
  const card = (await api("POST", "/cards", {
    debitAccountId: account._id, cardHolderId: holder._id, type: "virtual", brand: "Visa", status: "active",
  })).json.data;
  assert.ok(account?._id && holder?._id && card?._id, "fixtures created");
  const cardBody = { debitAccountId: account._id, cardHolderId: holder._id, type: "virtual", brand: "visa", status: "active" };

  const body = [
    // [validator, method, path, body]
    ["validateCreateAccount", "POST", "/accounts", {}],
    ["validateCreateAccount", "POST", "/accounts", { ownerType: "individual", name: "", type: "checking", category: "fiat", currency: "US" }],
    ["validateCreateAccount", "POST", "/accounts", { ownerType: "user", name: "x", type: "checking", category: "fiat", currency: "USD", balance: -1 }],
    ["validateCreateAccount", "POST", "/accounts", { ownerType: "user", name: "x", type: "checking", category: "fiat", currency: "USD", balance: 0.105 }],
    ["validateCreateAccount", "POST", "/accounts", { ownerType: "user", name: "x", type: "checking", category: "fiat", currency: "USD", balance: "12" }],
    ["validateCreateAccount", "POST", "/accounts", { ownerType: "user", name: "x", type: "vault", category: "gold", currency: "USD", canDebit: "yes", extra: 1 }],
    ["validateCreateAccount", "POST", "/accounts", { ownerType: "user", name: "Fine", type: "savings", category: "crypto", currency: "usdt", balance: 0.1 }],
    ["validateCreateAccount", "POST", "/accounts", [1, 2]],
    ["validateCreateCard", "POST", "/cards", {}],
    ["validateCreateCard", "POST", "/cards", { ...cardBody, brand: "Amex", type: "plastic", amount: 0.99 }],
    ["validateCreateCard", "POST", "/cards", { ...cardBody, currency: "EUR", enable2FA: "no", disposable: 1 }],
    ["validateCreateCard", "POST", "/cards", { ...cardBody, amount: 10.001 }],
    ["validateCreateCard", "POST", "/cards", { ...cardBody, spendingControls: { allowedCategories: ["food"], blockedCategories: ["bars"] } }],
    ["validateCreateCard", "POST", "/cards", { ...cardBody, spendingControls: { spendingLimits: [{ amount: 0, interval: "hourly", categories: ["Bad Cat"] }], channels: { atm: "no" } } }],
    ["validateCreateCard", "POST", "/cards", { ...cardBody, amount: 10.1, metadata: { ref: "a" }, spendingControls: { spendingLimits: [{ amount: 50.5, interval: "daily" }] } }],
    ["validateFundCard", "POST", `/cards/${card._id}/fund`, {}],
    ["validateFundCard", "POST", `/cards/${card._id}/fund`, { debitAccountId: account._id, amount: 0 }],
    ["validateFundCard", "POST", `/cards/${card._id}/fund`, { debitAccountId: account._id, amount: 0.001 }],
    ["validateFundCard", "POST", `/cards/${card._id}/fund`, { debitAccountId: 5, amount: "1", memo: "x" }],
    ["validateFundCard", "POST", `/cards/${card._id}/fund`, { debitAccountId: account._id, amount: 0.1 }],
    ["validateCreateAuthorization", "POST", `/cards/${card._id}/authorizations`, {}],
    ["validateCreateAuthorization", "POST", `/cards/${card._id}/authorizations`, { amount: 0, channel: "tv", merchant: { mcc: "54", tip: 1 } }],
    ["validateCreateAuthorization", "POST", `/cards/${card._id}/authorizations`, { amount: 1.001, channel: "pos", merchant: { name: "Shop", country: "NGA" }, extra: 1 }],
    ["validateCreateAuthorization", "POST", `/cards/${card._id}/authorizations`, { amount: 1, channel: "web", merchant: { name: "Shop", category: "grocery_stores" } }],
    ["validateCreateAuthorization", "POST", `/cards/${card._id}/authorizations`, { amount: 1, channel: "web", merchant: { name: "Shop" }, partialApprovalCapable: "yes", simulate: { declineReason: "bored", x: 1 } }],
    ["validateCreateAuthorization", "POST", `/cards/${card._id}/authorizations`, { amount: 1, channel: "web", merchant: { name: "Shop" }, partialApprovalCapable: true, simulate: { declineReason: "spending_limit" } }],
    ["validateIncrementAuthorization", "POST", "/authorizations/000000000000000000000000/increment", {}],
    ["validateIncrementAuthorization", "POST", "/authorizations/000000000000000000000000/increment", { amount: 0.001, x: 1 }],
    ["validateIncrementAuthorization", "POST", "/authorizations/000000000000000000000000/increment", { amount: 5 }],
    ["validateAdvanceTestClock", "POST", "/test-clock/advance", {}],
    ["validateAdvanceTestClock", "POST", "/test-clock/advance", { seconds: 0 }],
    ["validateAdvanceTestClock", "POST", "/test-clock/advance", { seconds: 1.5, x: 1 }],
    ["validateTransfer", "POST", "/accounts/transfers", {}],
    ["validateTransfer", "POST", "/accounts/transfers", { debitAccountId: account._id, creditAccountId: account._id, amount: 0.001, memo: 1 }],
    ["validateTransfer", "POST", "/accounts/transfers", { debitAccountId: account._id, creditAccountId: card._id, amount: 1, narration: "" }],
    ["validateTransfer", "POST", "/accounts/transfers", { debitAccountId: account._id, creditAccountId: card._id, amount: 1, narration: "Rent" }],
    ["validateDispute", "POST", `/card-transactions/${card._id}/disputes`, {}],
    ["validateDispute", "POST", `/card-transactions/${card._id}/disputes`, { reason: "angry", amount: -1, explanation: "", extra: 1 }],
    ["validateDispute", "POST", `/card-transactions/${card._id}/disputes`, { reason: "fraudulent", amount: 2.5 }],
    ["validateUpdateCard", "PUT", `/cards/${card._id}`, { status: "gone" }],
    ["validateUpdateCard", "PUT", `/cards/${card._id}`, { status: "canceled" }],
    ["validateUpdateCard", "PUT", `/cards/${card._id}`, { status: "active", creditAccountId: account._id }],
    ["validateUpdateCard", "PUT", `/cards/${card._id}`, { cancellationReason: "bored", spendingControls: { blockedCategories: [""] } }],
    ["validateUpdateCard", "PUT", `/cards/${card._id}`, { metadata: { note: "ok" } }],
  ];
  const holderCases = [
    ["validateCreateCardHolder", "POST", "/card-holders", {}],
    ["validateCreateCardHolder", "POST", "/card-holders", { name: "X", person: { firstName: "A", lastName: "B", email: "nope", phoneNumber: "12" } }],
    ["validateCreateCardHolder", "POST", "/card-holders", { name: "X", person: { firstName: "A", lastName: "B", email: "a@b.co", phoneNumber: "+15551234567", dateOfBirth: "2099-01-01", gender: "x" } }],
    ["validateCreateCardHolder", "POST", "/card-holders", { name: "X", person: { first_name: "A", last_name: "B", email: "a@b.co", phone_number: "+15551234567" }, address: { country_code: "ngx" } }],
  ];
  const hasHolder = !(await inBrowser(page, "validateCreateCardHolder", [{}]))?.missing;
  if (!hasHolder) console.log("# validateCreateCardHolder not exported yet: card holder parity cases skipped");
  let compared = 0;
  let rejected = 0;
  for (const [fn, method, path, input] of [...body, ...(hasHolder ? holderCases : [])]) {
    const local = await inBrowser(page, fn, [input]);
    const remote = await api(method, path, input);
    const label = `${fn} ${JSON.stringify(input)} -> server ${remote.status} ${JSON.stringify(remote.json)}`;
    if (local.length === 0) {
      assert.notEqual(remote.json.error, "validation_error", label);
    } else {
      assert.equal(remote.status, 400, label);
      assert.deepEqual(local, remote.json.errors, label);
      rejected++;
    }
    compared++;
  }

  const queries = [
    ["accounts", "page=2&limit=5&sort=-name"], ["accounts", "limit=500"], ["accounts", "page=0"],
    ["accounts", "limit=abc"], ["accounts", "sort=nope"], ["accounts", "fields=name,bogus"],
    ["accounts", "search=(unclosed"], ["accounts", "filter=%7Bbad"], ["accounts", "balance.gte=ten"],
    ["cards", "status=active&currency=USD"], ["cards", "populate=cardHolder:name;nope"],
    ["card-holders", "searchIn=person.email&search=ada"], ["cards", "createdAt.gte=yesterday"],
  ];
  for (const [resource, query] of queries) {
    const local = await inBrowser(page, "parseListQuery", [resource, query]);
    const remote = await api("GET", `/${resource}?${query}`);
    const label = `parseListQuery ${resource} ${query} -> server ${remote.status} ${JSON.stringify(remote.json)}`;
    if (local.ok) {
      assert.equal(remote.status, 200, label);
    } else {
      assert.equal(remote.status, 400, label);
      assert.deepEqual(local.errors, remote.json.errors, label);
      rejected++;
    }
    compared++;
  }
  console.log(`# parity: ${compared} cases compared, ${rejected} with identical field errors`);
  assert.ok(rejected >= 25, "most cases exercise error paths");
  await page.close();
});
