// @ts-check
// The lint findings of the last test, as the editor and the findings list read them.

import { view } from "./state.js";

/** @typedef {import("./types.js").Diagnostic} Diagnostic */

/** @type {Record<string, number>} */
const SEVERITY_ORDER = { error: 0, warning: 1, info: 2 };
const rank = (/** @type {string} */ severity) => SEVERITY_ORDER[severity] ?? 3;

/** Findings by line, the most severe first on each line (the one written at the end of the line). */
export function findingsByLine() {
  /** @type {Map<number, Diagnostic[]>} */
  const map = new Map();
  for (const d of view.diagnostics) {
    if (!d.line) continue;
    const list = map.get(d.line);
    if (list) list.push(d);
    else map.set(d.line, [d]);
  }
  for (const list of map.values()) list.sort((a, b) => rank(a.severity) - rank(b.severity)); // stable: file order within a severity
  return map;
}

/** The most severe of `list` (not empty). @param {Diagnostic[]} list */
export const worst = (list) => list.reduce((a, b) => (rank(b.severity) < rank(a.severity) ? b : a)).severity;

/** A severity as a finding is labelled with it. @param {string} severity */
export const severityWord = (severity) => ({ error: "Error", warning: "Warning", info: "Note" })[severity] || severity;

/** A finding's fix (the corrected line), or null when it has none (older servers send no fix at all). @param {Diagnostic} d */
export function fixOf(d) {
  return typeof d.fix === "string" ? d.fix : null;
}
