// The console's simulations, walked in headless Chromium against a real server: the caller's test
// clock (shown, then advanced 8 days), a forced decline and a partial approval from the purchase
// form, and a hold incremented (refused for the card's balance, then raised). Every form is checked
// by the browser module first, and every call goes through the typed client with the key.
//
// Needs: CARDS_BIN, Debian's Chromium, and web/ built by scripts/build-browser. Run by scripts/test-browser.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { start } from "./harness.mjs";

const KEY = "console-simulate-key-0123456789";
const DAY = 86400;
let env;

before(async () => {
  env = await start(KEY, "simulate");
});
after(() => env?.stop());

const errorText = (page, form, field) =>
  page.locator(`${form} .field-error[data-for="${field}"]`).first().textContent({ timeout: 5000 });

/** Submits a form and returns the parsed answer to the one request it sends. */
async function send(page, form, match) {
  const [res] = await Promise.all([
    page.waitForResponse((r) => r.request().method() !== "GET" && match(new URL(r.url()).pathname)),
    page.click(`${form} button[type=submit]`),
  ]);
  return { status: res.status(), json: await res.json() };
}

test("advance the test clock 8 days, force a decline, approve in part, and increment a hold", async () => {
  const page = await env.browser.newPage();
  const problems = [];
  page.on("pageerror", (e) => problems.push(e.message));
  const calls = [];
  page.on("request", (r) => {
    const url = new URL(r.url());
    if (url.origin === env.base && !/\.(js|wasm|css|html)$/.test(url.pathname) && url.pathname !== "/") {
      calls.push({ call: `${r.method()} ${url.pathname}`, key: r.headers()["x-api-key"] });
    }
  });
  await page.goto(`${env.base}/`);
  await page.locator("#module-status", { hasText: "validator ready" }).waitFor({ timeout: 10000 });

  // The key shows the caller's clock: no offset yet, its time the server's.
  await page.fill("#api-key", KEY);
  await page.dispatchEvent("#api-key", "change");
  const offset = page.locator('[data-testid="test-clock"] [data-fact="offset"]');
  await offset.waitFor({ timeout: 10000 });
  assert.equal(await offset.innerText(), "0 s (0s ahead of the server)");

  // Advance: a bad amount is refused in the page with the server's words, then 8 days.
  await page.fill("#advance-form [name=seconds]", "1.5");
  await page.click("#advance-form button[type=submit]");
  const local = await errorText(page, "#advance-form", "seconds");
  const remote = await env.api("POST", "/test-clock/advance", { seconds: 1.5 });
  assert.equal(remote.status, 400);
  assert.deepEqual([local], remote.json.errors.map((e) => `${e.field} ${e.message}`));
  await page.fill("#advance-form [name=seconds]", String(8 * DAY));
  const advanced = await send(page, "#advance-form", (p) => p === "/test-clock/advance");
  assert.equal(advanced.status, 200, JSON.stringify(advanced.json));
  assert.equal(advanced.json.data.offsetSeconds, 8 * DAY);
  await page.locator('[data-testid="test-clock"] [data-fact="offset"]', { hasText: "691200" }).waitFor({ timeout: 5000 });
  assert.equal(await offset.innerText(), "691200 s (8d 0h 0m 0s ahead of the server)");
  const shownNow = Date.parse(`${(await page.innerText('[data-testid="test-clock"] [data-fact="now"]')).replace(" ", "T")}Z`);
  const ahead = (shownNow - Date.now()) / 1000;
  assert.ok(ahead > 8 * DAY - 120 && ahead < 8 * DAY + 120, `the shown time is 8 days ahead (${ahead} s)`);
  // Refresh reads it back from the server (GET /test-clock), still 8 days ahead.
  const [refreshed] = await Promise.all([
    page.waitForResponse((r) => new URL(r.url()).pathname === "/test-clock"),
    page.click("#test-clock-refresh"),
  ]);
  assert.equal((await refreshed.json()).data.offsetSeconds, 8 * DAY);
  assert.equal(await offset.innerText(), "691200 s (8d 0h 0m 0s ahead of the server)");

  // A card with 50 on it, from outside the page.
  const account = (await env.api("POST", "/accounts", {
    ownerType: "business", name: "Sim", type: "checking", category: "fiat", currency: "USD", balance: 500,
  })).json.data;
  const holder = (await env.api("POST", "/card-holders", {
    name: "Sim Ulate", person: { firstName: "Sim", lastName: "Ulate", email: "s@example.com", phoneNumber: "+15551234567" },
  })).json.data;
  const card = (await env.api("POST", "/cards", {
    debitAccountId: account._id, cardHolderId: holder._id, type: "virtual", brand: "Visa", status: "active", amount: 50,
  })).json.data;
  const authorizations = (p) => p === `/cards/${card._id}/authorizations`;

  // A forced decline: the reason chosen, shown, and no money held.
  await page.fill("#authorize-form [name=cardId]", card._id);
  await page.fill("#authorize-form [name=amount]", "10");
  await page.fill("#authorize-form [name='merchant.name']", "Hotel Sim");
  await page.selectOption("#authorize-form [name='simulate.declineReason']", "webhook_timeout");
  const declined = await send(page, "#authorize-form", authorizations);
  assert.equal(declined.status, 201, JSON.stringify(declined.json));
  assert.equal(declined.json.data.approved, false);
  assert.equal(declined.json.data.declineReason, "webhook_timeout");
  assert.equal(await page.innerText("#authorize-decision"), "Declined: webhook_timeout");
  assert.equal(await page.inputValue("#increment-form [name=authorizationId]"), "", "a decline holds nothing to increment");
  assert.equal((await env.api("GET", `/cards/${card._id}`)).json.data.availableBalance, 50);

  // Partial approval: 80 asked of a card with 50, approved for 50.
  await page.selectOption("#authorize-form [name='simulate.declineReason']", "");
  await page.fill("#authorize-form [name=amount]", "80");
  await page.check("#authorize-form [name=partialApprovalCapable]");
  const partial = await send(page, "#authorize-form", authorizations);
  assert.equal(partial.status, 201, JSON.stringify(partial.json));
  assert.equal(partial.json.data.approved, true);
  assert.deepEqual([partial.json.data.amount, partial.json.data.requestedAmount], [50, 80]);
  assert.match(await page.innerText("#authorize-decision"), /^Approved: 50 USD of 80 asked \(partial approval\) held until /);
  const expires = Date.parse(partial.json.data.expiresAt);
  assert.ok(expires - Date.now() > 8 * DAY * 1000, "the hold's lifetime runs on the advanced clock");
  // Release it: the increment below needs room on the card.
  assert.equal((await env.api("POST", `/authorizations/${partial.json.data._id}/reverse`, {})).status, 200);

  // A hold of 20 (no partial approval this time), incremented from the page.
  await page.uncheck("#authorize-form [name=partialApprovalCapable]");
  await page.fill("#authorize-form [name=amount]", "20");
  const hold = (await send(page, "#authorize-form", authorizations)).json.data;
  assert.deepEqual([hold.approved, hold.amount, hold.status], [true, 20, "pending"]);
  assert.equal(await page.inputValue("#increment-form [name=authorizationId]"), hold._id, "the new hold is chosen");
  const incremented = (p) => p === `/authorizations/${hold._id}/increment`;
  // A body the module refuses is not sent.
  await page.fill("#increment-form [name=amount]", "0.001");
  await page.click("#increment-form button[type=submit]");
  assert.equal(await errorText(page, "#increment-form", "amount"), "amount must have at most 2 decimal places");
  // More than the card has left (30): 422 with the reason, shown, nothing changed.
  await page.fill("#increment-form [name=amount]", "30.01");
  const refused = await send(page, "#increment-form", incremented);
  assert.equal(refused.status, 422);
  assert.equal(refused.json.error, "insufficient_funds");
  assert.equal(await page.innerText("#increment-result"), "Not incremented: insufficient_funds");
  assert.equal((await env.api("GET", `/authorizations/${hold._id}`)).json.data.amount, 20);
  // 25 more: the hold is 45, shown on the page.
  await page.fill("#increment-form [name=amount]", "25");
  const raised = await send(page, "#increment-form", incremented);
  assert.equal(raised.status, 200, JSON.stringify(raised.json));
  assert.equal(await page.innerText("#increment-result"), "Hold now 45 USD (asked 45, pending 45)");
  const after = (await env.api("GET", `/cards/${card._id}`)).json.data;
  assert.deepEqual([after.ledgerBalance, after.availableBalance], [50, 5], "45 held of 50");

  if (process.env.CONSOLE_SCREENSHOT_DIR) {
    await page.screenshot({ path: join(process.env.CONSOLE_SCREENSHOT_DIR, "console-simulate.png"), fullPage: true });
  }

  const writes = calls.filter((c) => !c.call.startsWith("GET "));
  assert.deepEqual(writes.map((c) => c.call), [
    "POST /test-clock/advance",
    `POST /cards/${card._id}/authorizations`, `POST /cards/${card._id}/authorizations`, `POST /cards/${card._id}/authorizations`,
    `POST /authorizations/${hold._id}/increment`, `POST /authorizations/${hold._id}/increment`,
  ], "one request per valid submit, none for the refused ones");
  assert.ok(calls.some((c) => c.call === "GET /test-clock"));
  assert.deepEqual(calls.filter((c) => c.key !== KEY).map((c) => c.call), [], "every API call carries the key");
  assert.deepEqual(problems, []);
  await page.close();
});
