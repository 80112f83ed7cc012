// @ts-check
// The status line at the top of the page: one message at a time, and who it speaks for.

import { els } from "./dom.js";
import { view } from "./state.js";

/**
 * Shows `message` ("" clears it); `source` names what it is about, so that only that may clear it.
 * @param {string} message
 * @param {"info" | "busy" | "error"} [kind]
 * @param {string | null} [source]
 */
export function setStatus(message, kind = "info", source = null) {
  els.status.textContent = message;
  els.status.dataset.kind = kind;
  view.statusSource = message ? source : null;
}

/** Clears the status line when it speaks for `source`. @param {string} source */
export function clearStatus(source) {
  if (view.statusSource === source) setStatus("");
}
