// An account's page (#/accounts/<id>): its balances, its ledger (every balance change, cursor paged),
// its account details, the cards that draw on it, and the events about it.

import { h, section, facts } from "./ui.js";
import { api, want } from "./api.js";
import { pagedList } from "./paged.js";
import { COLUMNS } from "./lists.js";

export const id = "account";
export const title = "Account";
export const match = (parts) => (parts[0] === "accounts" && parts[1] ? { id: parts[1] } : null);

export async function render(root, { id }) {
  root.replaceChildren(section("Account", h("p", { class: "muted" }, "loading…")));
  let account;
  try {
    account = (await want(api().GET("/accounts/{id}", { params: { path: { id } } }), `GET /accounts/${id}`)).data;
  } catch (e) {
    root.replaceChildren(section("Account", h("p", { class: "field-error" }, e.message)));
    return;
  }
  const cur = account.currency;
  const summary = section(`Account ${account.name}`, facts([
    ["id", account._id], ["status", account.status], ["type", `${account.type} · ${account.category}`], ["owner", account.ownerType],
    ["balance", `${account.balance} ${cur}`], ["available", `${account.availableBalance} ${cur}`], ["ledger", `${account.ledgerBalance} ${cur}`],
    ["created", account.createdAt],
  ]));
  summary.dataset.testid = "account-summary";
  root.replaceChildren(
    summary,
    section("Ledger", pagedList({
      fetch: (query) => api().GET("/accounts/{id}/transactions", { params: { path: { id }, query } }),
      what: `GET /accounts/${id}/transactions`, columns: COLUMNS.ledger, testid: "account-ledger", query: { limit: 10 },
      empty: "No ledger entries.",
    })),
    section("Cards drawing on it", pagedList({
      fetch: (query) => api().GET("/cards", { params: { query } }), what: "GET /cards", columns: COLUMNS.cards,
      link: (r) => `#/cards/${r._id}`, testid: "account-cards", query: { limit: 10, filter: JSON.stringify({ debitAccountId: id }) },
      empty: "No cards.",
    })),
    section("Account details", pagedList({
      fetch: (query) => api().GET("/accounts/{id}/details", { params: { path: { id }, query } }),
      what: `GET /accounts/${id}/details`, columns: COLUMNS.accountDetails, testid: "account-details", query: { limit: 10 },
      empty: "No payout details.",
    })),
    section("Events", pagedList({
      fetch: (query) => api().GET("/events", { params: { query } }), what: "GET /events", columns: COLUMNS.events,
      testid: "account-events", query: { limit: 10, filter: JSON.stringify({ "data.object._id": id }) }, empty: "No events.",
    })),
  );
}
