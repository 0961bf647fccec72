// The cards console: plain DOM, no framework. Every form is checked live by the WebAssembly module
// built from the service's own core (host-wasm, browser face), so the page shows the server's exact
// field errors and sends nothing that the server would reject for its shape.

const $ = (sel, root = document) => root.querySelector(sel);

/** The validator module, or null when it could not load (the page then relies on the server). */
let wasm = null;

/** What each form sends, and which validator checks it before sending. */
const FORMS = {
  account: { path: () => "/accounts", validator: "validateCreateAccount", record: "accounts" },
  holder: { path: () => "/card-holders", validator: "validateCreateCardHolder", record: "holders" },
  card: { path: () => "/cards", validator: "validateCreateCard", record: "cards" },
  fund: { path: (ids) => `/cards/${encodeURIComponent(ids.cardId)}/fund`, validator: "validateFundCard", record: "cards" },
  authorize: {
    path: (ids) => `/cards/${encodeURIComponent(ids.cardId)}/authorizations`,
    validator: "validateCreateAuthorization",
    record: null,
  },
};

const records = { accounts: new Map(), holders: new Map(), cards: new Map() };

async function loadValidator() {
  const status = $("#module-status");
  try {
    const mod = await import("./pkg/cards_browser.js");
    await mod.default();
    wasm = mod;
    status.textContent = "validator ready";
    status.className = "status ok";
  } catch (e) {
    status.textContent = "validator unavailable: the server checks each request";
    status.className = "status warn";
    console.warn("validator module failed to load", e);
  }
}

/** A form input as a JSON value: exact decimal text becomes a number, anything else stays text
 *  (so the validator can say "must be a number", just as the server would). */
function valueOf(el) {
  const raw = el.value.trim();
  if (el.dataset.type === "number" && /^-?\d+(\.\d+)?$/.test(raw)) return Number(raw);
  return raw;
}

/** The request body (dotted names nest) and the path ids of a form. Empty inputs are left out. */
function read(form) {
  const body = {};
  const ids = {};
  for (const el of form.elements) {
    if (!el.name || el.value.trim() === "") continue;
    if (el.dataset.path !== undefined) {
      ids[el.name] = el.value.trim();
      continue;
    }
    const keys = el.name.split(".");
    let obj = body;
    for (const k of keys.slice(0, -1)) obj = obj[k] ??= {};
    obj[keys.at(-1)] = valueOf(el);
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
  const validate = wasm?.[spec.validator];
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
    const msg = document.createElement("span");
    msg.className = "field-error";
    msg.dataset.for = e.field;
    msg.textContent = `${e.field} ${e.message}`;
    input.closest("label").append(msg);
  }
  if (!touchedOnly || form.dataset.submitted) {
    for (const e of general) {
      const msg = document.createElement("p");
      msg.className = "field-error general";
      msg.dataset.for = e.field;
      msg.textContent = `${e.field} ${e.message}`;
      $(".actions", form).before(msg);
    }
  }
}

function log(kind, title, detail) {
  const li = document.createElement("li");
  li.className = kind;
  const time = new Date().toLocaleTimeString();
  li.innerHTML = `<span class="time"></span> <strong></strong>`;
  li.querySelector(".time").textContent = time;
  li.querySelector("strong").textContent = title;
  if (detail !== undefined) {
    const pre = document.createElement("pre");
    pre.textContent = typeof detail === "string" ? detail : JSON.stringify(detail, null, 2);
    li.append(pre);
  }
  $("#log").prepend(li);
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

function renderRecords() {
  const rows = [];
  for (const a of records.accounts.values()) {
    rows.push(["account", a._id, a.name, `${a.balance} ${a.currency}`, a.status]);
  }
  for (const h of records.holders.values()) {
    rows.push(["card holder", h._id, h.name, h.person?.email ?? "", ""]);
  }
  for (const c of records.cards.values()) {
    rows.push(["card", c._id, `${c.brand} ${c.maskedPan ?? ""}`, `${c.balance} ${c.currency}`, c.status]);
  }
  const table = document.createElement("table");
  table.innerHTML = "<thead><tr><th>kind</th><th>id</th><th>name</th><th>balance</th><th>status</th></tr></thead>";
  const tbody = document.createElement("tbody");
  for (const row of rows) {
    const tr = document.createElement("tr");
    for (const cell of row) {
      const td = document.createElement("td");
      td.textContent = cell ?? "";
      tr.append(td);
    }
    tbody.append(tr);
  }
  table.append(tbody);
  $("#records").replaceChildren(table);
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
  const key = $("#api-key").value.trim();
  const base = $("#api-base").value.trim().replace(/\/+$/, "");
  const path = spec.path(ids);
  const button = $("button[type=submit]", form);
  button.disabled = true;
  try {
    const res = await fetch(base + path, {
      method: "POST",
      headers: { "content-type": "application/json", ...(key ? { "x-api-key": key } : {}) },
      body: JSON.stringify(body),
    });
    const text = await res.text();
    let json;
    try {
      json = JSON.parse(text);
    } catch {
      json = text;
    }
    if (res.ok) {
      log("ok", `POST ${path} → ${res.status} ${json?.message ?? ""}`, json?.data ?? json);
      if (spec.record) remember(spec.record, json?.data);
      if (form.dataset.kind === "authorize") showDecision(json?.data);
      if (form.dataset.kind === "fund" && json?.data?.debitAccountId) refreshAccount(json.data.debitAccountId);
      if (form.dataset.kind === "card" && json?.data?.debitAccountId && body.amount) refreshAccount(json.data.debitAccountId);
    } else {
      log("fail", `POST ${path} → ${res.status} ${json?.error ?? ""}: ${json?.message ?? ""}`, json);
      if (Array.isArray(json?.errors)) showErrors(form, json.errors, false);
    }
  } catch (e) {
    log("fail", `POST ${path} failed: ${e.message}`);
  } finally {
    button.disabled = false;
  }
}

/** An authorization's decision and, when declined, the first rule it broke; then the card as it is now. */
function showDecision(auth) {
  if (!auth) return;
  const text = auth.approved
    ? `Approved: ${auth.amount} ${auth.currency} held until ${auth.expiresAt}`
    : `Declined: ${auth.declineReason}`;
  $("#authorize-decision").textContent = text;
  log(auth.approved ? "ok" : "blocked", text);
  refreshCard(auth.cardId);
}

async function refreshCard(id) {
  const key = $("#api-key").value.trim();
  const base = $("#api-base").value.trim().replace(/\/+$/, "");
  try {
    const res = await fetch(`${base}/cards/${encodeURIComponent(id)}`, { headers: key ? { "x-api-key": key } : {} });
    if (res.ok) remember("cards", (await res.json()).data);
  } catch {
    // As for accounts: a convenience only.
  }
}

/** Balances change when cards are issued with funding or funded: show the account as it is now. */
async function refreshAccount(id) {
  const key = $("#api-key").value.trim();
  const base = $("#api-base").value.trim().replace(/\/+$/, "");
  try {
    const res = await fetch(`${base}/accounts/${encodeURIComponent(id)}`, { headers: key ? { "x-api-key": key } : {} });
    if (res.ok) remember("accounts", (await res.json()).data);
  } catch {
    // The record list is a convenience; the activity log already shows what happened.
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
$("#connection").addEventListener("submit", (ev) => ev.preventDefault());
loadValidator();
