// The console's one way to the API: the typed client (@cards/client, generated from
// docs/openapi.json; web/index.html maps the name to web/vendor/cards-client), with the key and base
// from the connection form. Pages call `api()` for the client and `want()` for a body or a logged,
// thrown failure.

import { createCardsClient, CardsApiError } from "@cards/client";
import { $, log } from "./ui.js";

/** @type {{ id: string, client: import("@cards/client").CardsClient | null }} */
let cached = { id: "", client: null };

/**
 * The client for the key and base now in the connection form.
 * @returns {import("@cards/client").CardsClient}
 */
export function api() {
  const key = $("#api-key").value.trim();
  const base = $("#api-base").value.trim().replace(/\/+$/, "");
  const id = `${base}\n${key}`;
  if (cached.id !== id) cached = { id, client: createCardsClient({ baseUrl: base, apiKey: key || undefined }) };
  return cached.client;
}

/**
 * The success body of a client call; a failure is logged (method, path, status, error code) and thrown.
 * @template T
 * @param {Promise<{ data?: T, error?: unknown, response: Response }>} answer
 * @param {string} what
 * @returns {Promise<T>}
 */
export async function want(answer, what) {
  const { data, error, response } = await answer;
  if (error === undefined && data !== undefined) return data;
  const e = new CardsApiError(response.status, error);
  log("fail", `${what} → ${response.status} ${e.body?.error ?? ""}: ${e.body?.message ?? ""}`, error);
  throw e;
}

export { CardsApiError };
