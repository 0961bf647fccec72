// The events feed (#/events?type=…): every change, newest first, cursor paged; each event links to
// the card or account it is about.

import { h, section } from "./ui.js";
import { api } from "./api.js";
import { pagedList } from "./paged.js";
import { COLUMNS } from "./lists.js";

export const id = "events";
export const title = "Events";
export const match = (parts) => (parts[0] === "events" ? {} : null);

const TYPES = ["account.created", "account.updated", "card_holder.created", "card_holder.updated", "card.created",
  "card.updated", "card.funded", "card.canceled", "authorization.created", "authorization.updated", "transaction.created"];

export function render(root, _params, params) {
  const type = params.get("type") ?? "";
  const select = h("select", { name: "type", "data-testid": "events-type" },
    h("option", { value: "" }, "every type"), TYPES.map((t) => h("option", { value: t, selected: t === type }, t)));
  select.addEventListener("change", () => {
    location.hash = select.value ? `#/events?type=${encodeURIComponent(select.value)}` : "#/events";
  });
  const query = { limit: 20, ...(type ? { filter: JSON.stringify({ type }) } : {}) };
  root.replaceChildren(section("Events", h("div", { class: "query" }, h("label", {}, "Type", select),
    h("button", { type: "button", class: "secondary", onclick: () => render(root, _params, params) }, "Refresh")),
  pagedList({
    fetch: (q) => api().GET("/events", { params: { query: q } }), what: "GET /events", columns: COLUMNS.events,
    testid: "events-feed", query, empty: "No events yet.",
  })));
}
