// The events feed (#/events?type=…): every change, newest first, cursor paged; each event links to
// the card or account it is about. "Live" follows the feed as it grows: it polls for the events newer
// than the newest shown (`endingBefore`), once a second while the page is open. Polling rather than a
// stream, because a browser's EventSource cannot send the API key header.

import { h, section, table } from "./ui.js";
import { api, want } from "./api.js";
import { pagedList } from "./paged.js";
import { COLUMNS } from "./lists.js";

export const id = "events";
export const title = "Events";
export const match = (parts) => (parts[0] === "events" ? {} : null);

const LIVE_EVERY_MS = 1000;
const LIVE_KEEP = 100;
/** @type {any} */
const EVENT_COLUMNS = COLUMNS.events;

// The event types come from the API's own description, so a new type needs no change here.
let types;
function eventTypes() {
  types ??= want(api().GET("/openapi.json"), "GET /openapi.json")
    .then((/** @type {any} */ doc) => doc?.components?.schemas?.Event?.properties?.type?.enum ?? [])
    .catch(() => { types = undefined; return []; });
  return types;
}

export function render(root, _params, params) {
  const type = params.get("type") ?? "";
  const select = h("select", { name: "type", "data-testid": "events-type" }, h("option", { value: "" }, "every type"),
    type ? h("option", { value: type, selected: true }, type) : []);
  eventTypes().then((all) => {
    select.replaceChildren(h("option", { value: "" }, "every type"),
      ...all.map((t) => h("option", { value: t, selected: t === type }, t)));
    select.dataset.state = "ready";
  });
  select.addEventListener("change", () => {
    location.hash = select.value ? `#/events?type=${encodeURIComponent(select.value)}` : "#/events";
  });
  const filter = type ? { filter: JSON.stringify({ type }) } : {};
  root.replaceChildren(
    section("Events", h("div", { class: "query" }, h("label", {}, "Type", select),
      h("button", { type: "button", class: "secondary", onclick: () => render(root, _params, params) }, "Refresh")),
    pagedList({
      fetch: (q) => api().GET("/events", { params: { query: q } }), what: "GET /events", columns: COLUMNS.events,
      testid: "events-feed", query: { limit: 20, ...filter }, empty: "No events yet.",
    })),
    section("Live", liveFeed(filter)));
}

/** Events as they happen (of the page's type), newest first, from the moment "Live" is ticked. */
function liveFeed(filter) {
  const toggle = h("input", { type: "checkbox", name: "live", "data-testid": "events-live" });
  const info = h("span", { class: "muted", "data-testid": "events-live-info" }, "off");
  const body = h("div", {}, table([], EVENT_COLUMNS, { empty: "Tick Live to follow new events.", testid: "events-live-table" }));
  const root = h("div", { "data-testid": "events-live-panel" }, h("label", {}, toggle, " Live"), info, body);
  let rows = [];
  let newest = null;
  let timer = null;

  const show = () => body.replaceChildren(table(rows, EVENT_COLUMNS, { empty: "No new events yet.", testid: "events-live-table" }));
  const fetch = (query) => want(api().GET("/events", { params: { query: { ...filter, ...query } } }), "GET /events");

  async function tick() {
    timer = null;
    if (!toggle.checked) return;
    if (!root.isConnected) { toggle.checked = false; return; }
    try {
      if (newest === null) {
        // The starting point: the newest event now; only what comes after it is shown.
        newest = (await fetch({ limit: 1 })).data?.[0]?._id ?? "";
      } else {
        // Newer than the newest shown, oldest of them first when more than a page came in.
        for (let more = true; more;) {
          const page = await fetch(newest ? { limit: LIVE_KEEP, endingBefore: newest } : { limit: LIVE_KEEP });
          const fresh = page.data ?? [];
          if (fresh.length) {
            newest = fresh[0]._id;
            rows = [...fresh, ...rows].slice(0, LIVE_KEEP);
          }
          more = Boolean(newest && page.meta?.hasMore && fresh.length);
        }
        show();
      }
      info.textContent = `following · ${rows.length} new`;
      root.dataset.state = "live";
    } catch (e) {
      info.textContent = `paused: ${e.message}`;
    }
    if (toggle.checked) timer = setTimeout(tick, LIVE_EVERY_MS);
  }

  toggle.addEventListener("change", () => {
    if (toggle.checked) {
      rows = [];
      newest = null;
      show();
      tick();
    } else {
      if (timer) clearTimeout(timer);
      timer = null;
      info.textContent = "off";
      delete root.dataset.state;
    }
  });
  return root;
}
