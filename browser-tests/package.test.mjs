// The browser module as an npm package (web/pkg, made by scripts/build-browser + scripts/package-browser):
// packed with `npm pack`, installed into a scratch project's node_modules, imported from Node by its
// name (the `node` export condition) to validate card bodies, and type-checked as a TypeScript
// consumer would use it (the `types` condition).
//
// Needs: web/pkg built by scripts/build-browser, and clients/typescript's node_modules (its tsc).
// Run by scripts/test-browser.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, mkdirSync, rmSync, existsSync, readFileSync, writeFileSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const PKG = join(ROOT, "web", "pkg");
const TSC = join(ROOT, "clients", "typescript", "node_modules", ".bin", "tsc");
let dir, app;

before(() => {
  assert.ok(existsSync(join(PKG, "package.json")), "web/pkg/package.json missing: run scripts/build-browser");
  dir = mkdtempSync(join(tmpdir(), "cards-browser-pkg-"));
  execFileSync("npm", ["pack", PKG, "--pack-destination", dir, "--silent"], { stdio: ["ignore", "ignore", "inherit"] });
  const tarball = readdirSync(dir).find((f) => f.endsWith(".tgz"));
  assert.ok(tarball, "npm pack made a tarball");
  app = join(dir, "app");
  const installed = join(app, "node_modules", "@cards", "browser");
  mkdirSync(installed, { recursive: true });
  execFileSync("tar", ["-xzf", join(dir, tarball), "-C", installed, "--strip-components=1"]);
  writeFileSync(join(app, "package.json"), JSON.stringify({ name: "consumer", private: true, type: "module" }));
});

after(() => dir && rmSync(dir, { recursive: true, force: true }));

test("the tarball holds the module, its .wasm, its types and the Node entry, nothing else", () => {
  const files = readdirSync(join(app, "node_modules", "@cards", "browser")).sort();
  assert.deepEqual(files, [
    "cards_browser.d.ts", "cards_browser.js", "cards_browser_bg.wasm", "cards_browser_bg.wasm.d.ts", "node.js", "package.json",
  ]);
  const manifest = JSON.parse(readFileSync(join(PKG, "package.json"), "utf8"));
  const cargo = readFileSync(join(ROOT, "Cargo.toml"), "utf8");
  assert.equal(manifest.version, /\[workspace\.package\][^[]*?version = "([^"]+)"/.exec(cargo)?.[1], "the workspace's version");
});

test("Node imports @cards/browser by name and validates card bodies", () => {
  writeFileSync(join(app, "check.mjs"), `
    import init, { validateCreateCard, validateFundCard, parseListQuery } from "@cards/browser";
    await init();
    const card = { debitAccountId: "6b0441f0af7223969f33f312", cardHolderId: "6b0441f0af7223969f33f313",
                   type: "virtual", brand: "Visa", status: "active" };
    console.log(JSON.stringify({
      valid: validateCreateCard({ ...card, amount: 10.5 }),
      invalid: validateCreateCard({ ...card, brand: "Amex", amount: 0.5 }),
      exact: validateCreateCard({ ...card, amount: 10.001 }),
      empty: validateCreateCard({}).map((e) => e.field),
      fund: validateFundCard({ debitAccountId: card.debitAccountId, amount: 0 }),
      query: parseListQuery("cards", "status=active&limit=500"),
    }));
  `);
  const out = JSON.parse(execFileSync("node", ["check.mjs"], { cwd: app, encoding: "utf8" }));
  assert.deepEqual(out.valid, []);
  assert.deepEqual(out.invalid, [
    { field: "brand", message: "must be one of: Visa, MasterCard" },
    { field: "amount", message: "must be at least 1" },
  ]);
  assert.deepEqual(out.exact, [{ field: "amount", message: "must have at most 2 decimal places" }]);
  assert.deepEqual(out.empty, ["debitAccountId", "cardHolderId", "type", "brand", "status"]);
  assert.deepEqual(out.fund, [{ field: "amount", message: "must be at least 0.01" }]);
  assert.equal(out.query.ok, false);
  assert.deepEqual(out.query.errors.map((e) => e.field), ["limit"]);
});

test("TypeScript resolves the package's types (NodeNext) and checks a consumer against them", () => {
  assert.ok(existsSync(TSC), "clients/typescript/node_modules missing: run npm ci there");
  writeFileSync(join(app, "consumer.ts"), `
    import init, { validateCreateCard } from "@cards/browser";
    await init();
    const errors = validateCreateCard({ debitAccountId: "a", cardHolderId: "b", type: "virtual", brand: "Visa", status: "active" });
    const fields: string[] = errors.map((e) => e.field + " " + e.message);
    export default fields;
  `);
  writeFileSync(join(app, "bad.ts"), `
    import { validateCreateCard } from "@cards/browser";
    const n: number = validateCreateCard({});
    export default n;
  `);
  const tsc = (file) => execFileSync(TSC, [
    "--noEmit", "--strict", "--module", "nodenext", "--moduleResolution", "nodenext", "--target", "es2022",
    "--lib", "es2022,dom", file,
  ], { cwd: app, encoding: "utf8", stdio: "pipe" });
  tsc("consumer.ts");
  // And the types say something: a wrong use fails to compile.
  assert.throws(() => tsc("bad.ts"), (e) => /bad\.ts.*TS2322/s.test(String(e.stdout)));
});
