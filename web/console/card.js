// A card's page (#/cards/<id>): the card and its balances, its spending report (each limit's spend
// in the current period), its authorizations (capture or reverse a pending one), its transactions,
// its ledger entries (on the account it draws on), and the events about it; pause, activate, and
// the token-then-reveal flow for the full number.

import { h, section, facts, table, log } from "./ui.js";
import { api, want } from "./api.js";
import { pagedList } from "./paged.js";
import { COLUMNS, holderCards } from "./lists.js";

export const id = "card";
export const title = "Card";
export const match = (parts) => (parts[0] === "cards" && parts[1] ? { id: parts[1] } : null);

export async function render(root, { id }) {
  root.replaceChildren(section("Card", h("p", { class: "muted" }, "loading…")));
  const path = { params: { path: { id } } };
  let card;
  try {
    card = (await want(api().GET("/cards/{id}", path), `GET /cards/${id}`)).data;
  } catch (e) {
    root.replaceChildren(section("Card", h("p", { class: "field-error", "data-testid": "card-missing" }, e.message)));
    return;
  }
  const again = () => render(root, { id });

  const act = async (label, call) => {
    try {
      await want(call(), label);
      log("ok", label);
    } finally {
      again();
    }
  };
  const status = (to) => act(`PUT /cards/${id} status ${to}`, () => api().PUT("/cards/{id}", { ...path, body: { status: to } }));
  const revealBox = h("div", { class: "reveal", "data-testid": "reveal" });
  const reveal = async () => {
    const token = (await want(api().POST("/cards/{id}/token", path), `POST /cards/${id}/token`)).data.token;
    const secrets = await want(api().GET("/cards/{id}/reveal", { params: { path: { id }, query: { token: token ?? "" } } }), `GET /cards/${id}/reveal`);
    // Shown once, never logged; gone when the page is left or re-rendered.
    revealBox.replaceChildren(facts([["number", secrets.pan], ["cvv", secrets.cvv], ["expires", `${secrets.expiryMonth}/${secrets.expiryYear}`]]));
  };
  const live = card.status !== "canceled";

  const summary = section(`Card ${card.brand} ${card.maskedPan}`,
    facts([
      ["id", card._id], ["status", card.status], ["type", card.type], ["currency", card.currency],
      ["holder", h("a", { href: holderCards(card.cardHolderId), title: "the holder's cards" }, card.cardHolderId)], ["debit account", h("a", { href: `#/accounts/${card.debitAccountId}` }, card.debitAccountId)],
      ["expires", `${card.expiryMonth}/${card.expiryYear}`], ["created", card.createdAt],
    ]),
    h("div", { class: "actions" },
      live && card.status === "active" && h("button", { type: "button", class: "secondary", onclick: () => status("inactive") }, "Pause"),
      live && card.status === "inactive" && h("button", { type: "button", class: "secondary", onclick: () => status("active") }, "Activate"),
      live && h("button", { type: "button", class: "secondary", "data-testid": "reveal-button", onclick: () => reveal().catch(() => {}) }, "Reveal number")),
    revealBox);

  const balances = section("Balances", facts([
    ["balance", `${card.balance} ${card.currency}`],
    ["available", `${card.availableBalance} ${card.currency}`],
    ["ledger", `${card.ledgerBalance} ${card.currency}`],
  ]));
  balances.dataset.testid = "card-balances";

  const spending = section("Spending report", h("p", { class: "muted" }, "loading…"));
  spending.dataset.testid = "card-spending";
  want(api().GET("/cards/{id}/spending", path), `GET /cards/${id}/spending`).then((r) => {
    spending.replaceChildren(h("h2", {}, "Spending report"), table(r.data, [
      ["interval", "interval"], ["categories", (l) => (l.categories.length ? l.categories.join(", ") : "all")],
      ["limit", "amount"], ["spent", "spent"], ["available", "available"], ["period from", "periodStart"],
    ], { empty: "No spending limits on this card." }));
  }).catch(() => spending.replaceChildren(h("h2", {}, "Spending report"), h("p", { class: "field-error" }, "could not load")));

  const capture = (a) => act(`POST /authorizations/${a._id}/capture`, () => api().POST("/authorizations/{id}/capture", { params: { path: { id: a._id } } }));
  const reverse = (a) => act(`POST /authorizations/${a._id}/reverse`, () => api().POST("/authorizations/{id}/reverse", { params: { path: { id: a._id } } }));
  const authColumns = [
    ...COLUMNS.authorizations.filter(([label]) => label !== "card"),
    ["", (a) => (a.status === "pending"
      ? h("span", { class: "row-actions" },
        h("button", { type: "button", class: "small", onclick: () => capture(a) }, "Capture"),
        h("button", { type: "button", class: "small secondary", onclick: () => reverse(a) }, "Reverse"))
      : "")],
  ];

  const byCard = (call, what, columns, testid, empty, query = {}) => pagedList({ fetch: call, what, columns, testid, empty, query: { limit: 10, ...query } });
  root.replaceChildren(
    summary, balances, spending,
    section("Authorizations", byCard((query) => api().GET("/cards/{id}/authorizations", { ...path, params: { ...path.params, query } }),
      `GET /cards/${id}/authorizations`, authColumns, "card-authorizations", "No authorizations yet.")),
    section("Transactions", byCard((query) => api().GET("/cards/{id}/transactions", { params: { path: { id }, query } }),
      `GET /cards/${id}/transactions`, COLUMNS.cardTransactions.filter(([l]) => l !== "card"), "card-transactions", "No captures or refunds yet.")),
    section("Ledger entries", h("p", { class: "muted" }, `On its debit account ${card.debitAccountId}: issue funding, top-ups, refunds.`),
      byCard((query) => api().GET("/accounts/{id}/transactions", { params: { path: { id: card.debitAccountId }, query } }),
        `GET /accounts/${card.debitAccountId}/transactions`, COLUMNS.ledger.filter(([l]) => l !== "card"), "card-ledger", "No ledger entries.",
        { filter: JSON.stringify({ cardId: id }) })),
    section("Events", byCard((query) => api().GET("/events", { params: { query } }), "GET /events", COLUMNS.events, "card-events", "No events.",
      { filter: JSON.stringify({ "data.object._id": id }) }),
    h("h3", {}, "Its authorizations and transactions"),
    byCard((query) => api().GET("/events", { params: { query } }), "GET /events", COLUMNS.events, "card-spend-events", "No events.",
      { filter: JSON.stringify({ "data.object.cardId": id }) })),
  );
}
