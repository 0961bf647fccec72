// What the console tests share: a throwaway `cards serve --console web` (CARDS_BIN) with one key,
// and headless Debian Chromium (CHROMIUM) driven by Playwright.

import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, existsSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

export const WEB = resolve(dirname(fileURLToPath(import.meta.url)), "..", "web");
const CHROMIUM_ARGS = [
  "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
  "--disable-background-networking", "--disable-component-update", "--disable-sync",
];

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

/** A server with the console and a browser; `stop()` ends both and removes the data. */
export async function start(key, client) {
  const bin = process.env.CARDS_BIN;
  assert.ok(bin && existsSync(bin), "CARDS_BIN must name the built cards binary");
  for (const f of ["pkg/cards_browser.js", "vendor/cards-client/index.js", "vendor/openapi-fetch.js"]) {
    assert.ok(existsSync(join(WEB, f)), `web/${f} missing: run scripts/build-browser`);
  }
  const dir = mkdtempSync(join(tmpdir(), "cards-console-"));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const server = spawn(bin, [
    "serve", "--listen", `127.0.0.1:${port}`, "--data", join(dir, "cards.redb"),
    "--api-key", `${key}=${client}`, "--console", WEB,
  ], { stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  server.stderr.on("data", (d) => (stderr += d));
  const end = Date.now() + 15000;
  for (;;) {
    assert.equal(server.exitCode, null, `cards exited: ${stderr}`);
    try {
      if ((await fetch(`${base}/health`)).ok) break;
    } catch (e) {
      if (Date.now() > end) throw new Error(`cards did not come up at ${base}: ${e.message}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium", args: CHROMIUM_ARGS });
  /** An API call from the test itself (not through the page). */
  const api = async (method, path, body) => {
    const res = await fetch(base + path, {
      method,
      headers: { "x-api-key": key, ...(body !== undefined ? { "content-type": "application/json" } : {}) },
      body: body !== undefined ? JSON.stringify(body) : undefined,
    });
    return { status: res.status, json: await res.json() };
  };
  const stop = async () => {
    await browser.close();
    if (server.exitCode === null) {
      server.kill("SIGTERM");
      await new Promise((r) => server.on("exit", r));
    }
    rmSync(dir, { recursive: true, force: true });
  };
  return { base, browser, api, stop };
}
