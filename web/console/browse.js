// The browse page (#/browse/<list>?filter=…&sort=…&search=…&limit=…): any top-level list with the
// query language. The query is checked by the browser module first (the server's own parser), so
// a bad filter or sort shows the server's field errors without a request; then the list pages with
// a cursor. The query lives in the address, so a view can be bookmarked or shared.

import { h, section } from "./ui.js";
import { pagedList } from "./paged.js";
import { LISTS } from "./lists.js";
import { validator } from "./validator.js";

export const id = "browse";
export const title = "Browse";
export const match = (parts) => (parts[0] === "browse" ? { list: LISTS[parts[1]] ? parts[1] : "cards" } : null);

const FIELDS = ["filter", "sort", "search", "searchIn", "limit"];

/** The query as the API takes it: only what was given. */
function queryOf(params) {
  const q = {};
  for (const k of FIELDS) {
    const v = params.get(k)?.trim();
    if (v) q[k] = k === "limit" && /^\d+$/.test(v) ? Number(v) : v;
  }
  return q;
}

export function render(root, { list }, params) {
  const spec = LISTS[list];
  const query = queryOf(params);
  const input = (name, placeholder, attrs = {}) =>
    h("label", {}, name, h("input", { name, value: params.get(name) ?? "", placeholder, spellcheck: "false", ...attrs }));
  const form = h("form", { id: "browse-form", class: "query", autocomplete: "off" },
    h("label", {}, "List", h("select", { name: "list" },
      Object.entries(LISTS).map(([k, v]) => h("option", { value: k, selected: k === list }, v.title)))),
    input("filter", '{"status":"active"} or status=active&balance.gte=10', { class: "wide" }),
    input("sort", "-createdAt"),
    input("search", "regular expression"),
    input("searchIn", "name,person.email"),
    input("limit", "20", { inputmode: "numeric", size: 4 }),
    h("div", { class: "actions" }, h("button", { type: "submit" }, "Apply")));
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const data = new FormData(form);
    const next = new URLSearchParams();
    for (const k of FIELDS) if (String(data.get(k) ?? "").trim()) next.set(k, String(data.get(k)).trim());
    const qs = next.toString();
    location.hash = `#/browse/${data.get("list")}${qs ? `?${qs}` : ""}`;
  });

  const out = [section(`Browse · ${spec.title}`, form)];
  // The server's own parser, in the browser: refuse what the server would refuse, say why.
  const plan = validator()?.parseListQuery(list, new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)])).toString());
  if (plan && !plan.ok) {
    out.push(section("Not sent", h("ul", { class: "field-errors", "data-testid": "query-errors" },
      plan.errors.map((e) => h("li", { class: "field-error", dataset: { for: e.field } }, `${e.field} ${e.message}`)))));
  } else {
    out.push(section(spec.title, pagedList({
      fetch: spec.fetch, what: `GET /${list}`, columns: spec.columns, link: spec.link, query, testid: "browse-list",
    })));
  }
  root.replaceChildren(...out);
}
