// The validator module (@cards/browser, built by scripts/build-browser into web/pkg), or null when it
// could not load (the page then relies on the server's answers).

import { $ } from "./ui.js";

let wasm = null;

export const validator = () => wasm;

export async function loadValidator() {
  const status = $("#module-status");
  try {
    const mod = await import("../pkg/cards_browser.js");
    await mod.default();
    wasm = mod;
    status.textContent = "validator ready";
    status.className = "status ok";
  } catch (e) {
    status.textContent = "validator unavailable: the server checks each request";
    status.className = "status warn";
    console.warn("validator module failed to load", e);
  }
}
