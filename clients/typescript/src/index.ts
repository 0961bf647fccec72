// The typed client of the cards API: every path, parameter, body and response comes from
// `schema.d.ts`, which openapi-typescript generates from docs/openapi.json
// (scripts/generate-clients); calls go through openapi-fetch. Hand-written here: the key, errors
// as exceptions when wanted, and cursor paging.

import createClient, { type Client, type ClientOptions, type Middleware } from "openapi-fetch";
import type { components, operations, paths } from "./schema.js";

export type { components, operations, paths };
/** Every schema of the document by name: `Schemas["Card"]`, `Schemas["AccountCreate"]`, ... */
export type Schemas = components["schemas"];
/** The error body every failure answers with: `{statusCode, message, error, errors?}`. */
export type ApiErrorBody = components["schemas"]["Error"];
export type CardsClient = Client<paths>;

export interface CardsClientOptions extends Omit<ClientOptions, "baseUrl"> {
  /** Where the API is, e.g. `http://127.0.0.1:8080`; "" (the default) for the page's own origin. */
  baseUrl?: string;
  /** An API key (`cards keys create`), sent as `x-api-key`; not needed for /health and /openapi.json. */
  apiKey?: string;
}

/** A client for every operation of the API: `client.GET("/cards/{id}", { params: { path: { id } } })`. */
export function createCardsClient(options: CardsClientOptions = {}): CardsClient {
  const { apiKey, baseUrl = "", ...rest } = options;
  const client = createClient<paths>({ baseUrl: baseUrl.replace(/\/+$/, ""), ...rest });
  if (apiKey) client.use(apiKeyMiddleware(apiKey));
  return client;
}

/** Sends the key on every request (it can be changed later with `client.eject` + `client.use`). */
export function apiKeyMiddleware(apiKey: string): Middleware {
  return {
    onRequest({ request }) {
      request.headers.set("x-api-key", apiKey);
      return request;
    },
  };
}

/** A failed call: the HTTP status and the API's error body (`error` is the stable code). */
export class CardsApiError extends Error {
  readonly status: number;
  readonly body: ApiErrorBody | undefined;
  constructor(status: number, body: unknown) {
    const b = isErrorBody(body) ? body : undefined;
    super(b ? `${status} ${b.error}: ${b.message}` : `HTTP ${status}`);
    this.name = "CardsApiError";
    this.status = status;
    this.body = b;
  }
  /** The field errors of a `400 validation_error`, else []. */
  get fieldErrors(): Schemas["FieldError"][] {
    return this.body?.errors ?? [];
  }
}

function isErrorBody(v: unknown): v is ApiErrorBody {
  return typeof v === "object" && v !== null && typeof (v as ApiErrorBody).error === "string";
}

/** openapi-fetch's answer: `data` on success, `error` otherwise. */
type Answer<T> = { data?: T; error?: unknown; response: Response };

/** The success body of a call, or a thrown `CardsApiError`:
 *  `const { data: card } = ok(await client.POST("/cards", { body }))`. */
export function ok<T>(answer: Answer<T>): T {
  if (answer.error !== undefined || answer.data === undefined) {
    throw new CardsApiError(answer.response.status, answer.error);
  }
  return answer.data;
}

/** A list answer: `data` holds the page's records, `meta.hasMore` whether the list goes on. */
type ListBody<R> = { data: R[]; meta: { hasMore: boolean } };

/**
 * Walks a list with cursor paging (`startingAfter` = the last id of each page) until `hasMore` is
 * false, yielding each page's records; `fetchPage` makes one call with the given cursor:
 *
 *     for await (const cards of pages((startingAfter) =>
 *       client.GET("/cards", { params: { query: { status: "active", startingAfter } } }))) { ... }
 */
export async function* pages<R extends { _id?: string }>(
  fetchPage: (startingAfter: string | undefined) => Promise<Answer<ListBody<R>>>,
): AsyncGenerator<R[], void, undefined> {
  let cursor: string | undefined;
  for (;;) {
    const body = ok(await fetchPage(cursor));
    yield body.data;
    const last = body.data.at(-1)?._id;
    if (!body.meta.hasMore || last === undefined) return;
    cursor = last;
  }
}

/** A list query's `filter` as the API reads it (JSON text): `filter({ balance: { gte: 100 } })`. */
export function filter(conditions: Record<string, unknown>): string {
  return JSON.stringify(conditions);
}
