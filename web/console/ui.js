// Small DOM helpers the console's pages share: element building, tables, money and dates, the
// activity log. No framework.

/** @type {(sel: string, root?: ParentNode) => any} */
export const $ = (sel, root = document) => root.querySelector(sel);

/** An element: `h("td", { class: "num" }, "12.50")`; children may be strings, nodes or arrays. */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs ?? {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") el.className = v;
    else if (k === "dataset") Object.assign(el.dataset, v);
    else if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else el.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children.flat(Infinity)) {
    if (c === undefined || c === null || c === false) continue;
    el.append(c instanceof Node ? c : String(c));
  }
  return el;
}

/** A value at a dotted path of a record: `at(card, "merchant.name")`. */
export function at(obj, path) {
  return path.split(".").reduce((o, k) => (o == null ? undefined : o[k]), obj);
}

/** How a cell shows a value: dates short, objects as JSON, nothing as a dash. */
export function show(v) {
  if (v === undefined || v === null || v === "") return "—";
  if (typeof v === "object") return JSON.stringify(v);
  if (typeof v === "string" && /^\d{4}-\d\d-\d\dT/.test(v)) return v.replace("T", " ").replace(/\.\d+Z$|Z$/, "");
  return String(v);
}

/**
 * A table of records. `columns`: `[label, path]` or `[label, (record) => node|text]`; `link`: the
 * hash a row's id opens (`(r) => "#/cards/" + r._id`), if any.
 * @param {any[]} records
 * @param {Array<[string, string | ((r: any) => any)]>} columns
 * @param {{ link?: (r: any) => string, empty?: string, testid?: string }} [options]
 */
export function table(records, columns, { link, empty = "Nothing here.", testid } = {}) {
  if (!records.length) return h("p", { class: "muted empty" }, empty);
  return h("table", { class: "records", "data-testid": testid },
    h("thead", {}, h("tr", {}, columns.map(([label]) => h("th", {}, label)))),
    h("tbody", {}, records.map((r) => h("tr", { dataset: { id: r._id ?? "" } },
      columns.map(([, get], i) => {
        const v = typeof get === "function" ? get(r) : show(at(r, get));
        const cell = i === 0 && link && r._id ? h("a", { href: link(r) }, v) : v;
        return h("td", {}, cell);
      })))));
}

/** Label/value pairs as a definition list. */
export function facts(pairs) {
  return h("dl", { class: "facts" }, pairs.map(([k, v]) => [h("dt", {}, k), h("dd", { dataset: { fact: k } }, v instanceof Node ? v : show(v))]));
}

export function section(title, ...children) {
  return h("section", { class: "panel" }, h("h2", {}, title), ...children);
}

/** One line of the activity log (newest first), with an optional JSON detail. */
export function log(kind, title, detail) {
  const li = h("li", { class: kind }, h("span", { class: "time" }, new Date().toLocaleTimeString()), " ", h("strong", {}, title));
  if (detail !== undefined) li.append(h("pre", {}, typeof detail === "string" ? detail : JSON.stringify(detail, null, 2)));
  $("#log").prepend(li);
}
