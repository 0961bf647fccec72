// The cards console: plain DOM and ES modules, no framework and no bundler. Each page is a module
// of console/ (id, title, match(path parts) -> params or null, render(root, params, query)); the
// address's hash picks one (#/create, #/browse/cards?filter=…, #/cards/<id>, #/accounts/<id>,
// #/events). A new page or panel is one more module in PAGES (and, for the menu, in the nav).
// API calls go through the typed client (@cards/client, see console/api.js).

import { $ } from "./console/ui.js";
import { loadValidator } from "./console/validator.js";
import * as create from "./console/create.js";
import * as browse from "./console/browse.js";
import * as card from "./console/card.js";
import * as account from "./console/account.js";
import * as events from "./console/events.js";

/**
 * @typedef {object} Page
 * @property {string} id
 * @property {string} title
 * @property {(parts: string[]) => object | null} match
 * @property {(root: HTMLElement, params: any, query: URLSearchParams) => void | Promise<void>} render
 */
/** @type {Page[]} */
const PAGES = [create, browse, card, account, events];

/** "#/browse/cards?limit=5" -> ["browse", "cards"], URLSearchParams("limit=5"). */
function where() {
  const hash = location.hash.replace(/^#\/?/, "");
  const [path, query = ""] = hash.split(/\?(.*)/s);
  // The query stays encoded for URLSearchParams: a filter expression holds its own `&` and `=`.
  return { parts: path.split("/").filter(Boolean).map(decodeURIComponent), query: new URLSearchParams(query) };
}

function route() {
  const { parts, query } = where();
  let page = PAGES[0];
  let params = {};
  for (const p of PAGES) {
    const m = p.match(parts);
    if (m) {
      page = p;
      params = m;
      break;
    }
  }
  document.body.dataset.page = page.id;
  for (const a of document.querySelectorAll("#nav a")) a.toggleAttribute("aria-current", a.getAttribute("data-page") === page.id);
  const creating = page.id === create.id;
  $("#page-create").hidden = !creating;
  const root = $("#page");
  root.hidden = creating;
  if (creating) {
    // The creation page's forms live in index.html; its render only refreshes what it shows.
    Promise.resolve(page.render($("#page-create"), params, query)).catch((e) => console.error(e));
    return;
  }
  // Each visit renders into a fresh element, so a page left before it finished loading paints
  // into a detached one, never over the next page.
  const target = document.createElement("div");
  target.className = "page-body";
  root.replaceChildren(target);
  Promise.resolve(page.render(target, params, query)).catch((e) => console.error(e));
}

$("#connection").addEventListener("submit", (ev) => ev.preventDefault());
// The key lives in this tab only (sessionStorage), so a reload or a followed link keeps it.
for (const id of ["api-key", "api-base"]) {
  const el = $(`#${id}`);
  el.value = sessionStorage.getItem(id) ?? el.value;
  el.addEventListener("change", () => {
    sessionStorage.setItem(id, el.value);
    route();
  });
}
window.addEventListener("hashchange", route);
// Pages check queries with the validator, so they wait for it (or for its failure).
loadValidator().finally(route);
