// The creation page (#/create): accounts, card holders, cards, funding, simulated purchases (a forced
// decline, a partial approval, a hold that grows), transfers between accounts, disputes (opened, then
// answered by the simulated network) and the caller's test clock (shown, and moved forward).
// Every form is checked live by the WebAssembly module built from the service's own core, so the page
// shows the server's exact field errors and sends nothing the server would reject for its shape;
// what passes is sent through the typed client.

import { $, h, facts, log, show } from "./ui.js";
import { api, want } from "./api.js";
import { validator } from "./validator.js";

export const id = "create";
export const title = "Create";
export const match = (parts) => (parts.length === 0 || (parts.length === 1 && parts[0] === "create") ? {} : null);

/** What each form sends, and which validator checks it first. */
const FORMS = {
  account: {
    validator: "validateCreateAccount", record: "accounts", what: () => "POST /accounts",
    send: (body) => api().POST("/accounts", { body }),
  },
  holder: {
    validator: "validateCreateCardHolder", record: "holders", what: () => "POST /card-holders",
    send: (body) => api().POST("/card-holders", { body }),
  },
  card: {
    validator: "validateCreateCard", record: "cards", what: () => "POST /cards",
    send: (body) => api().POST("/cards", { body }),
  },
  fund: {
    validator: "validateFundCard", record: "cards", what: (ids) => `POST /cards/${ids.cardId}/fund`,
    send: (body, ids) => api().POST("/cards/{id}/fund", { params: { path: { id: ids.cardId } }, body }),
  },
  authorize: {
    validator: "validateCreateAuthorization", record: null, what: (ids) => `POST /cards/${ids.cardId}/authorizations`,
    send: (body, ids) => api().POST("/cards/{id}/authorizations", { params: { path: { id: ids.cardId } }, body }),
  },
  increment: {
    validator: "validateIncrementAuthorization", record: null, what: (ids) => `POST /authorizations/${ids.authorizationId}/increment`,
    send: (body, ids) => api().POST("/authorizations/{id}/increment", { params: { path: { id: ids.authorizationId } }, body }),
  },
  advance: {
    validator: "validateAdvanceTestClock", record: null, what: () => "POST /test-clock/advance",
    send: (body) => api().POST("/test-clock/advance", { body }),
  },
  transfer: {
    validator: "validateTransfer", record: null, what: () => "POST /accounts/transfers",
    send: (body) => api().POST("/accounts/transfers", { body }),
  },
  dispute: {
    validator: "validateDispute", record: null, what: (ids) => `POST /card-transactions/${ids.transactionId}/disputes`,
    send: (body, ids) => api().POST("/card-transactions/{id}/disputes", { params: { path: { id: ids.transactionId } }, body }),
  },
  resolve: {
    validator: "validateResolveDispute", record: null, what: (ids) => `POST /disputes/${ids.disputeId}/resolve`,
    send: (body, ids) => api().POST("/disputes/{id}/resolve", { params: { path: { id: ids.disputeId } }, body }),
  },
};

const records = { accounts: new Map(), holders: new Map(), cards: new Map() };

/** A form input as a JSON value: exact decimal text becomes a number, anything else stays text
 *  (so the validator can say "must be a number", just as the server would). */
function valueOf(el) {
  const raw = el.value.trim();
  if (el.dataset.type === "number" && /^-?\d+(\.\d+)?$/.test(raw)) return Number(raw);
  return raw;
}

/** The request body (dotted names nest) and the path ids of a form. Empty inputs and unticked
 *  boxes are left out; a ticked box is `true`. */
function read(form) {
  const body = {};
  const ids = {};
  for (const el of form.elements) {
    if (!el.name || el.value.trim() === "" || (el.type === "checkbox" && !el.checked)) continue;
    if (el.dataset.path !== undefined) {
      ids[el.name] = el.value.trim();
      continue;
    }
    const keys = el.name.split(".");
    let obj = body;
    for (const k of keys.slice(0, -1)) obj = obj[k] ??= {};
    obj[keys.at(-1)] = el.type === "checkbox" ? true : valueOf(el);
  }
  if (form.dataset.kind === "holder" && !body.name && body.person?.firstName && body.person?.lastName) {
    body.name = `${body.person.firstName} ${body.person.lastName}`;
  }
  return { body, ids };
}

/** Field errors the browser can know: the core's, plus path ids the form needs. */
function check(form) {
  const { body, ids } = read(form);
  const spec = FORMS[form.dataset.kind];
  let errors = [];
  const validate = validator()?.[spec.validator];
  if (validate) errors = validate(body);
  for (const el of form.querySelectorAll("[data-path]")) {
    if (!ids[el.name]) errors.push({ field: el.name, message: "is required" });
  }
  return { body, ids, errors };
}

/** Shows errors next to their inputs; those without an input (nested paths) go under the form. */
function showErrors(form, errors, touchedOnly) {
  for (const el of form.querySelectorAll(".field-error")) el.remove();
  for (const el of form.querySelectorAll("[aria-invalid]")) el.removeAttribute("aria-invalid");
  const general = [];
  for (const e of errors) {
    const input = form.querySelector(`[data-field="${CSS.escape(e.field)}"]`);
    if (!input) {
      general.push(e);
      continue;
    }
    if (touchedOnly && !input.dataset.touched) continue;
    input.setAttribute("aria-invalid", "true");
    input.closest("label").append(h("span", { class: "field-error", dataset: { for: e.field } }, `${e.field} ${e.message}`));
  }
  if (!touchedOnly || form.dataset.submitted) {
    for (const e of general) {
      $(".actions", form).before(h("p", { class: "field-error general", dataset: { for: e.field } }, `${e.field} ${e.message}`));
    }
  }
}

function fillIfEmpty(selector, value) {
  for (const el of document.querySelectorAll(selector)) if (!el.value) el.value = value;
}

function remember(kind, data) {
  if (!data?._id) return;
  records[kind].set(data._id, data);
  const list = { accounts: "#account-ids", holders: "#holder-ids", cards: "#card-ids" }[kind];
  $(list).replaceChildren(...[...records[kind].keys()].map((id) => new Option(id, id)));
  if (kind === "accounts") fillIfEmpty('[name="debitAccountId"]', data._id);
  if (kind === "holders") fillIfEmpty('[name="cardHolderId"]', data._id);
  if (kind === "cards") fillIfEmpty('[name="cardId"]', data._id);
  renderRecords();
}

/** What this page created, each id a link to its page where it has one. */
function renderRecords() {
  const rows = [];
  const link = (href, id) => h("a", { href }, id);
  for (const a of records.accounts.values()) rows.push(["account", link(`#/accounts/${a._id}`, a._id), a.name, `${a.balance} ${a.currency}`, a.status]);
  for (const x of records.holders.values()) rows.push(["card holder", x._id, x.name, x.person?.email ?? "", ""]);
  for (const c of records.cards.values()) rows.push(["card", link(`#/cards/${c._id}`, c._id), `${c.brand} ${c.maskedPan ?? ""}`, `${c.balance} ${c.currency}`, c.status]);
  $("#records").replaceChildren(h("table", { class: "records" },
    h("thead", {}, h("tr", {}, ["kind", "id", "name", "balance", "status"].map((t) => h("th", {}, t)))),
    h("tbody", {}, rows.map((r) => h("tr", {}, r.map((c) => h("td", {}, c ?? "")))))));
}

async function submit(form) {
  form.dataset.submitted = "1";
  const spec = FORMS[form.dataset.kind];
  const { body, ids, errors } = check(form);
  showErrors(form, errors, false);
  if (errors.length) {
    log("blocked", `Not sent: ${errors.length} field error${errors.length > 1 ? "s" : ""}`, errors);
    return;
  }
  const what = spec.what(ids);
  const button = $("button[type=submit]", form);
  button.disabled = true;
  try {
    const answer = await spec.send(body, ids);
    if (answer.error === undefined) {
      const json = answer.data;
      log("ok", `${what} → ${answer.response.status} ${json?.message ?? ""}`, json?.data ?? json);
      if (spec.record) remember(spec.record, json?.data);
      if (form.dataset.kind === "authorize") showDecision(json?.data);
      if (form.dataset.kind === "fund" && json?.data?.debitAccountId) refreshAccount(json.data.debitAccountId);
      if (form.dataset.kind === "card" && json?.data?.debitAccountId && body.amount) refreshAccount(json.data.debitAccountId);
      if (form.dataset.kind === "transfer" && json?.data) {
        refreshAccount(json.data.debitAccountId);
        refreshAccount(json.data.creditAccountId);
      }
      if (form.dataset.kind === "dispute" && json?.data?._id) {
        $("#dispute-ids").append(new Option(json.data._id, json.data._id));
        fillIfEmpty('[name="disputeId"]', json.data._id);
      }
      if (form.dataset.kind === "resolve" && json?.data?.cardId) refreshCard(json.data.cardId);
      if (form.dataset.kind === "increment") showIncrement(json?.data);
      if (form.dataset.kind === "advance") showClock(json?.data);
    } else {
      const json = answer.error;
      log("fail", `${what} → ${answer.response.status} ${json?.error ?? ""}: ${json?.message ?? ""}`, json);
      // A declined increment is a 422 whose `error` is the reason; the hold is unchanged.
      if (form.dataset.kind === "increment") $("#increment-result").textContent = `Not incremented: ${json?.error ?? answer.response.status}`;
      if (Array.isArray(json?.errors)) showErrors(form, json.errors, false);
    }
  } catch (e) {
    log("fail", `${what} failed: ${e.message}`);
  } finally {
    button.disabled = false;
  }
}

/** An authorization's decision (a partial approval says what was asked) and, when declined, the
 *  first rule it broke (or the forced reason); then the card as it is now. An approved hold becomes
 *  the increment form's choice. */
function showDecision(auth) {
  if (!auth) return;
  const partial = auth.approved && auth.requestedAmount !== auth.amount ? ` of ${auth.requestedAmount} asked (partial approval)` : "";
  const text = auth.approved
    ? `Approved: ${auth.amount} ${auth.currency}${partial} held until ${show(auth.expiresAt)}`
    : `Declined: ${auth.declineReason}`;
  $("#authorize-decision").textContent = text;
  log(auth.approved ? "ok" : "blocked", text);
  if (auth.approved && auth.status === "pending") {
    $("#authorization-ids").prepend(new Option(auth._id, auth._id));
    $('#increment-form [name="authorizationId"]').value = auth._id;
  }
  refreshCard(auth.cardId);
}

/** A hold after an increment: its amount, what was asked in all, what is still pending. */
function showIncrement(auth) {
  if (!auth) return;
  $("#increment-result").textContent =
    `Hold now ${auth.amount} ${auth.currency} (asked ${auth.requestedAmount}, pending ${auth.pendingAmount})`;
  refreshCard(auth.cardId);
}

/** "8d 2h 0m 5s" for an offset in seconds; "0s" for none. */
function span(seconds) {
  /** @type {Array<[number, string]>} */
  const parts = [[86400, "d"], [3600, "h"], [60, "m"], [1, "s"]];
  let left = seconds;
  const out = [];
  for (const [unit, name] of parts) {
    const n = Math.floor(left / unit);
    left -= n * unit;
    if (n || out.length) out.push(`${n}${name}`);
  }
  return out.length ? out.join(" ") : "0s";
}

function showClock(clock) {
  if (!clock) return;
  $("#test-clock").replaceChildren(facts([
    ["now", show(clock.now)],
    ["offset", `${clock.offsetSeconds} s (${span(clock.offsetSeconds)} ahead of the server)`],
  ]));
}

/** The caller's test clock (GET /test-clock); needs a key, and says so when the operator turned it off (404). */
async function refreshClock() {
  if (!$("#api-key").value.trim()) return;
  const answer = await api().GET("/test-clock");
  if (answer.error === undefined) showClock(answer.data?.data);
  else if (answer.response.status === 404) $("#test-clock").replaceChildren(h("p", { class: "muted" }, "The test clock is turned off on this server."));
  else log("fail", `GET /test-clock → ${answer.response.status} ${answer.error?.error ?? ""}: ${answer.error?.message ?? ""}`, answer.error);
}

// Convenience refreshes of the record table; the activity log already shows what happened.
async function refreshCard(id) {
  try {
    remember("cards", (await want(api().GET("/cards/{id}", { params: { path: { id } } }), `GET /cards/${id}`)).data);
  } catch {
    /* logged */
  }
}

async function refreshAccount(id) {
  try {
    remember("accounts", (await want(api().GET("/accounts/{id}", { params: { path: { id } } }), `GET /accounts/${id}`)).data);
  } catch {
    /* logged */
  }
}

function wire(form) {
  const live = (ev) => {
    if (ev.target.name) ev.target.dataset.touched = "1";
    showErrors(form, check(form).errors, true);
  };
  form.addEventListener("input", live);
  form.addEventListener("change", live);
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    submit(form);
  });
}

for (const form of document.querySelectorAll("form[data-kind]")) wire(form);
$("#test-clock-refresh").addEventListener("click", () => refreshClock().catch((e) => log("fail", `GET /test-clock failed: ${e.message}`)));

/** The forms are in index.html; showing the page (or a new key) reads the test clock again. */
export function render(_root, _params, _query) {
  return refreshClock().catch((e) => log("fail", `GET /test-clock failed: ${e.message}`));
}
