// Starts a throwaway `cards serve` (CARDS_BIN) on a free 127.0.0.1 port with one API key, for the
// client's flow test; stop() ends it and removes its data.

import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, existsSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** @returns {Promise<number>} */
function freePort() {
  return new Promise((res, rej) => {
    const s = createServer();
    s.listen(0, "127.0.0.1", () => {
      const addr = s.address();
      const port = typeof addr === "object" && addr ? addr.port : 0;
      s.close(() => res(port));
    });
    s.on("error", rej);
  });
}

/**
 * @param {string} key the API key the server accepts (for the client `flow`)
 * @returns {Promise<{ base: string, stop: () => Promise<void> }>}
 */
export async function startServer(key) {
  const bin = process.env.CARDS_BIN;
  if (!bin || !existsSync(bin)) throw new Error("CARDS_BIN must name the built cards binary");
  const dir = mkdtempSync(join(tmpdir(), "cards-client-"));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const server = spawn(bin, [
    "serve", "--listen", `127.0.0.1:${port}`, "--data", join(dir, "cards.redb"), "--api-key", `${key}=flow`,
  ], { stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  server.stderr?.on("data", (/** @type {Buffer} */ d) => (stderr += d));
  const end = Date.now() + 15000;
  for (;;) {
    if (server.exitCode !== null) throw new Error(`cards exited ${server.exitCode}: ${stderr}`);
    try {
      if ((await fetch(`${base}/health`)).ok) break;
    } catch (e) {
      if (Date.now() > end) throw new Error(`cards did not come up at ${base}: ${e}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const stop = async () => {
    if (server.exitCode === null) {
      server.kill("SIGTERM");
      await new Promise((r) => server.on("exit", r));
    }
    rmSync(dir, { recursive: true, force: true });
  };
  return { base, stop };
}
