// The API reference page: `cards serve --console web` serves /docs (Redoc, vendored into web/vendor by
// scripts/build-browser), the console links it, it renders the service's own GET /openapi.json, shows
// every path of that document, and loads nothing from any other origin.
//
// Needs: CARDS_BIN (the native `cards` binary), Debian's /usr/bin/chromium (or CHROMIUM), and
// web/vendor/redoc.standalone.js (scripts/build-browser). Run by scripts/test-browser.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, existsSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const WEB = resolve(dirname(fileURLToPath(import.meta.url)), "..", "web");
const CHROMIUM_ARGS = [
  "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
  "--disable-background-networking", "--disable-component-update", "--disable-sync",
];

let server, dataDir, base, browser;

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

async function waitUp(url, ms = 15000) {
  const end = Date.now() + ms;
  for (;;) {
    try {
      const r = await fetch(url);
      if (r.status) return;
    } catch (e) {
      if (Date.now() > end) throw new Error(`server did not come up at ${url}: ${e.message}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

before(async () => {
  const bin = process.env.CARDS_BIN;
  assert.ok(bin && existsSync(bin), "CARDS_BIN must name the built cards binary");
  assert.ok(existsSync(join(WEB, "vendor", "redoc.standalone.js")),
    "web/vendor/redoc.standalone.js missing: run scripts/build-browser");
  dataDir = mkdtempSync(join(tmpdir(), "cards-docs-"));
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  server = spawn(bin, [
    "serve", "--listen", `127.0.0.1:${port}`, "--data", join(dataDir, "cards.redb"),
    "--api-key", "docs-e2e-key-0123456789=docs", "--console", WEB,
  ], { stdio: ["ignore", "ignore", "pipe"] });
  await waitUp(`${base}/health`);
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
    args: CHROMIUM_ARGS,
  });
});

after(async () => {
  await browser?.close();
  server?.kill("SIGTERM");
  await new Promise((r) => (server?.exitCode !== null ? r() : server.on("exit", r)));
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

test("the console links /docs, which shows every path of GET /openapi.json", async () => {
  const doc = await (await fetch(`${base}/openapi.json`)).json();
  const paths = Object.keys(doc.paths);
  assert.ok(paths.length >= 15, `the document has ${paths.length} paths`);

  const page = await browser.newPage();
  // Redoc's footer asks its CDN for a logo; the page's Content-Security-Policy must stop it before
  // it leaves the browser, and nothing else may leave the origin.
  const foreign = [];
  const isForeign = (url) => !url.startsWith(base) && !url.startsWith("data:") && !url.startsWith("blob:");
  page.on("requestfinished", (r) => isForeign(r.url()) && foreign.push(`${r.url()} loaded`));
  page.on("requestfailed", (r) => {
    const why = r.failure()?.errorText ?? "";
    if (isForeign(r.url()) && !/BLOCKED_BY_CSP|csp/i.test(why)) foreign.push(`${r.url()} ${why}`);
  });
  await page.goto(`${base}/`);
  await page.click("#api-reference");
  await page.waitForURL(`${base}/docs`);
  // Redoc has rendered when the operations' sections are there.
  await page.waitForSelector("[data-section-id^='operation/']", { timeout: 30000 });
  const text = await page.evaluate(() => document.body.innerText);
  const missing = paths.filter((p) => !text.includes(p));
  assert.deepEqual(missing, [], "paths of the document not shown on /docs");
  const operations = Object.values(doc.paths).flatMap((item) => Object.values(item));
  const sections = await page.$$eval("[data-section-id^='operation/']", (els) => els.length);
  assert.equal(sections, operations.length, "one section per operation");
  assert.deepEqual(foreign, [], "requests to other origins");
  await page.close();
});
