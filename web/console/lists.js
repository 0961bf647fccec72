// Every top-level list of the API, as the console shows it: the typed call, the columns, and the
// page a record opens. The browse page offers them all; other pages reuse the columns.

import { h, show } from "./ui.js";
import { api } from "./api.js";

const money = (amountPath, currencyPath = "currency") => (r) => {
  const a = amountPath.split(".").reduce((o, k) => o?.[k], r);
  return a === undefined ? "—" : `${a} ${r[currencyPath] ?? ""}`.trim();
};

export const COLUMNS = {
  accounts: [["id", "_id"], ["name", "name"], ["type", "type"], ["owner", "ownerType"], ["balance", money("balance")], ["status", "status"], ["created", "createdAt"]],
  cardHolders: [["id", "_id"], ["name", "name"], ["email", "person.email"], ["phone", "person.phoneNumber"], ["country", "address.countryCode"], ["created", "createdAt"]],
  cards: [["id", "_id"], ["brand", "brand"], ["number", "maskedPan"], ["type", "type"], ["status", "status"], ["balance", money("balance")], ["available", money("availableBalance")], ["created", "createdAt"]],
  authorizations: [["id", "_id"], ["card", (r) => h("a", { href: `#/cards/${r.cardId}` }, r.cardId)], ["amount", money("amount")], ["merchant", "merchant.name"], ["channel", "channel"], ["status", "status"], ["decline", "declineReason"], ["created", "createdAt"]],
  cardTransactions: [["id", "_id"], ["card", (r) => h("a", { href: `#/cards/${r.cardId}` }, r.cardId)], ["type", "type"], ["amount", money("amount")], ["merchant", "merchant.name"], ["authorization", "authorizationId"], ["created", "createdAt"]],
  ledger: [["id", "_id"], ["type", "type"], ["amount", "amount"], ["balance after", "balanceAfter"], ["card", (r) => (r.cardId ? h("a", { href: `#/cards/${r.cardId}` }, r.cardId) : "—")], ["created", "createdAt"]],
  accountDetails: [["id", "_id"], ["type", "type"], ["provider", "provider"], ["primary", "isPrimary"], ["details", (r) => show(r.details)], ["created", "createdAt"]],
  events: [["id", "_id"], ["type", "type"], ["about", (r) => objectLink(r.data?.object)], ["created", "createdAt"]],
};

/** The page an event's object opens (a card or an account), else its id. */
function objectLink(obj) {
  const id = obj?._id;
  if (!id) return "—";
  if (obj.maskedPan !== undefined || obj.last4 !== undefined) return h("a", { href: `#/cards/${id}` }, id);
  if (obj.ownerType !== undefined) return h("a", { href: `#/accounts/${id}` }, id);
  if (obj.cardId) return h("a", { href: `#/cards/${obj.cardId}` }, id);
  return id;
}

/** A card holder's cards, on the browse page. */
export const holderCards = (id) => `#/browse/cards?filter=${encodeURIComponent(JSON.stringify({ cardHolderId: id }))}`;

/** The browse page's lists, keyed by the path segment (also the validator's resource name). */
export const LISTS = {
  accounts: {
    title: "Accounts", columns: COLUMNS.accounts, link: (r) => `#/accounts/${r._id}`,
    fetch: (query) => api().GET("/accounts", { params: { query } }),
  },
  "card-holders": {
    title: "Card holders", columns: COLUMNS.cardHolders, link: (r) => holderCards(r._id),
    fetch: (query) => api().GET("/card-holders", { params: { query } }),
  },
  cards: {
    title: "Cards", columns: COLUMNS.cards, link: (r) => `#/cards/${r._id}`,
    fetch: (query) => api().GET("/cards", { params: { query } }),
  },
  authorizations: {
    title: "Authorizations", columns: COLUMNS.authorizations,
    fetch: (query) => api().GET("/authorizations", { params: { query } }),
  },
  "card-transactions": {
    title: "Card transactions", columns: COLUMNS.cardTransactions,
    fetch: (query) => api().GET("/card-transactions", { params: { query } }),
  },
  events: {
    title: "Events", columns: COLUMNS.events,
    fetch: (query) => api().GET("/events", { params: { query } }),
  },
};
