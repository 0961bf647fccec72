// CORS as a browser enforces it: a page served from one origin (a Node http server on a second port)
// calls a `cards` server on another. With `--cors-origin <the page's origin>` its POST with JSON (which
// needs a preflight) and its GET succeed and it reads the answers; against a server without that
// origin the browser refuses: fetch rejects, and the POST never reaches the server.
//
// Needs: CARDS_BIN (the native `cards` binary) and Debian's /usr/bin/chromium (or CHROMIUM). Run by
// scripts/test-browser.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, existsSync } from "node:fs";
import { createServer as createHttpServer } from "node:http";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";

const CHROMIUM_ARGS = [
  "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
  "--disable-background-networking", "--disable-component-update", "--disable-sync",
];
const KEY = "cors-e2e-key-0123456789";
const ACCOUNT = {
  ownerType: "business", name: "Cors", type: "checking", category: "fiat", currency: "USD", balance: 1000,
};

let page, pageOrigin, browser, dataDir;
const servers = [];

function freePort() {
  return new Promise((res, rej) => {
    const s = createServer();
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => res(port));
    });
    s.on("error", rej);
  });
}

/** A `cards serve` on a free port with the given extra flags (JSON logs); its base URL and its log. */
async function cards(name, flags) {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const proc = spawn(process.env.CARDS_BIN, [
    "serve", "--listen", `127.0.0.1:${port}`, "--data", join(dataDir, `${name}.redb`),
    "--api-key", `${KEY}=cors`, "--log-format", "json", ...flags,
  ], { stdio: ["ignore", "ignore", "pipe"] });
  servers.push(proc);
  let stderr = "";
  proc.stderr.on("data", (d) => (stderr += d));
  const end = Date.now() + 15000;
  for (;;) {
    assert.equal(proc.exitCode, null, `cards exited: ${stderr}`);
    try {
      if ((await fetch(`${base}/health`)).ok) return { base, log: () => stderr };
    } catch (e) {
      if (Date.now() > end) throw new Error(`cards did not come up at ${base}: ${e.message}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The first request-log entry of `log` that `pick` accepts, waiting up to 5 s for it; undefined if none came. */
async function logged(log, pick) {
  const end = Date.now() + 5000;
  for (;;) {
    const found = log().split("\n").slice(0, -1).filter((l) => l.startsWith("{")).map((l) => JSON.parse(l))
      .find((e) => e.message === "request" && pick(e));
    if (found || Date.now() > end) return found;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** How many accounts the server holds, asked from Node (no CORS involved). */
async function accounts(base) {
  const res = await fetch(`${base}/accounts`, { headers: { "x-api-key": KEY } });
  assert.equal(res.status, 200);
  return (await res.json()).data.length;
}

/** In the page: POST an account with JSON, then GET it back; what the page could read. */
function callFromPage(api) {
  return page.evaluate(async ({ api, key, account }) => {
    try {
      const created = await fetch(`${api}/accounts`, {
        method: "POST",
        headers: { "x-api-key": key, "content-type": "application/json" },
        body: JSON.stringify(account),
      });
      const body = await created.json();
      const got = await fetch(`${api}/accounts/${body.data._id}`, {
        headers: { authorization: `Bearer ${key}` },
      });
      return {
        post: created.status,
        requestId: created.headers.get("request-id"),
        get: got.status,
        name: (await got.json()).data.name,
      };
    } catch (e) {
      return { error: `${e.name}: ${e.message}` };
    }
  }, { api, key: KEY, account: ACCOUNT });
}

const pageServer = createHttpServer((req, res) => {
  res.writeHead(200, { "content-type": "text/html" });
  res.end("<!doctype html><title>cors page</title><p>a page on another origin</p>");
});

before(async () => {
  assert.ok(process.env.CARDS_BIN && existsSync(process.env.CARDS_BIN), "CARDS_BIN must name the built cards binary");
  dataDir = mkdtempSync(join(tmpdir(), "cards-cors-"));
  await new Promise((r) => pageServer.listen(0, "127.0.0.1", r));
  pageOrigin = `http://127.0.0.1:${pageServer.address().port}`;
  browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium", args: CHROMIUM_ARGS });
  page = await browser.newPage();
  await page.goto(`${pageOrigin}/`);
});

after(async () => {
  await browser?.close();
  for (const s of servers) {
    if (s.exitCode === null) {
      s.kill("SIGTERM");
      await new Promise((r) => s.on("exit", r));
    }
  }
  await new Promise((r) => pageServer.close(r));
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

test("a page on an allowed origin calls the API with a key: a preflighted POST and a GET", async () => {
  const { base: api, log } = await cards("allowed", ["--cors-origin", pageOrigin]);
  // The page and the API really are different origins (same host, other port).
  assert.notEqual(new URL(api).origin, pageOrigin);
  const result = await callFromPage(api);
  assert.equal(result.error, undefined, `the page's fetch failed: ${result.error}`);
  assert.equal(result.post, 201);
  assert.equal(result.get, 200);
  assert.equal(result.name, "Cors");
  // An exposed header the page's script may read.
  assert.match(result.requestId ?? "", /\S/, "request-id is readable from the page");
  // The browser sent a preflight for the JSON POST with a key (Playwright does not show preflights
  // as page requests; the server's request log does).
  // The log reaches this process through a pipe, written by the server's log thread after the
  // response went out: wait for the line rather than read once.
  const preflight = await logged(log, (e) => e.method === "OPTIONS" && e.route === "/accounts");
  assert.ok(preflight, `no preflight logged: ${log()}`);
  assert.equal(preflight.status, 204);
  assert.equal(await accounts(api), 1);
});

test("against a server without that origin the browser blocks the call", async () => {
  const { base: api } = await cards("blocked", []);
  const { base: other } = await cards("other-origin", ["--cors-origin", "http://127.0.0.1:1"]);
  for (const base of [api, other]) {
    const result = await callFromPage(base);
    assert.match(result.error ?? "", /TypeError: Failed to fetch/, `${base}: ${JSON.stringify(result)}`);
    // The preflight was refused, so the POST itself was never sent.
    assert.equal(await accounts(base), 0);
  }
});
