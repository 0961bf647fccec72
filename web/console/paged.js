// A list with cursor paging, as the API does it (Stripe's way): "Next" asks for the page after the
// last record shown (`startingAfter`), "Previous" for the page just before the first
// (`endingBefore`); `meta.hasMore` says whether the list goes on in the direction just taken.
// Every list of the console (browse, a card's and an account's lists, the events feed) is one of these.

import { h, table, log } from "./ui.js";
import { want } from "./api.js";

/**
 * @param {object} o
 * @param {(query: object) => Promise<any>} o.fetch one typed client call for a query (plus the cursor)
 * @param {string} o.what how the activity log names the call (`GET /cards`)
 * @param {Array} o.columns the table's columns (see ui.table)
 * @param {(r: any) => string} [o.link] the hash a record's id opens
 * @param {object} [o.query] the list query (filter, sort, search, limit...)
 * @param {string} o.testid names the list for tests (`data-testid`)
 * @param {string} [o.empty] what an empty list says
 */
export function pagedList({ fetch, what, columns, link, query = {}, testid, empty }) {
  const body = h("div", { class: "list-body" }, h("p", { class: "muted" }, "loading…"));
  const info = h("span", { class: "muted list-info", "data-testid": `${testid}-info` });
  const prev = h("button", { type: "button", class: "secondary", disabled: true, "data-testid": `${testid}-prev` }, "← Previous");
  const next = h("button", { type: "button", class: "secondary", disabled: true, "data-testid": `${testid}-next` }, "Next →");
  const root = h("div", { class: "paged", "data-testid": testid }, body, h("div", { class: "pager" }, prev, next, info));
  let first;
  let last;

  async function load(cursor, direction) {
    prev.disabled = next.disabled = true;
    root.dataset.state = "loading";
    try {
      const page = await want(fetch({ ...query, ...cursor }), what);
      const rows = page.data ?? [];
      body.replaceChildren(table(rows, columns, { link, empty, testid: `${testid}-table` }));
      first = rows[0]?._id;
      last = rows.at(-1)?._id;
      const more = Boolean(page.meta?.hasMore);
      // Forward (or the first page): more ahead is hasMore, behind only if we came by a cursor.
      prev.disabled = direction === "back" ? !more || !first : direction === "start" || !first;
      next.disabled = direction === "back" ? !last : !more || !last;
      info.textContent = `${rows.length} shown · ${page.meta?.total ?? "?"} in all${more ? "" : direction === "back" ? " · at the start" : " · at the end"}`;
      root.dataset.state = "ready";
    } catch (e) {
      body.replaceChildren(h("p", { class: "field-error" }, e.message));
      root.dataset.state = "failed";
      if (!(e && e.status)) log("fail", `${what} failed: ${e.message}`);
    }
  }
  prev.addEventListener("click", () => load({ endingBefore: first }, "back"));
  next.addEventListener("click", () => load({ startingAfter: last }, "forward"));
  load({}, "start");
  return root;
}
