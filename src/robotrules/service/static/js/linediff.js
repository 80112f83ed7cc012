// @ts-check
// A line-by-line diff of two texts, drawn as rows: the changed lines with a few around them.

import { el } from "./dom.js";
import { plural } from "./text.js";

const CONTEXT_LINES = 3; // unchanged lines shown around each change
const MAX_DIFF_CELLS = 4_000_000; // above this, a changed block is shown replaced, not as the smallest change
const MAX_DIFF_ROWS = 3000; // rows drawn at most

/**
 * One line of the diff: in both texts (a: its line in the first, b: in the second), or in one.
 * @typedef {{op: "same" | "del" | "add", a?: number, b?: number, text: string}} LineOp
 */

/**
 * The lines of `a` and `b` as same/del/add operations (smallest when the changed block is small enough).
 * @param {string[]} a
 * @param {string[]} b
 * @returns {LineOp[]}
 */
function lineOps(a, b) {
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  /** @type {LineOp[]} */
  const ops = [];
  for (let i = 0; i < start; i++) ops.push({ op: "same", a: i + 1, b: i + 1, text: a[i] });
  const n = endA - start;
  const m = endB - start;
  if (n * m > MAX_DIFF_CELLS) {
    for (let i = start; i < endA; i++) ops.push({ op: "del", a: i + 1, text: a[i] });
    for (let j = start; j < endB; j++) ops.push({ op: "add", b: j + 1, text: b[j] });
  } else {
    // lcs[i][j]: the longest common subsequence of a[start+i..endA) and b[start+j..endB).
    const width = m + 1;
    const lcs = new Uint32Array((n + 1) * width);
    for (let i = n - 1; i >= 0; i--) {
      for (let j = m - 1; j >= 0; j--) {
        lcs[i * width + j] = a[start + i] === b[start + j]
          ? lcs[(i + 1) * width + j + 1] + 1
          : Math.max(lcs[(i + 1) * width + j], lcs[i * width + j + 1]);
      }
    }
    let i = 0;
    let j = 0;
    while (i < n || j < m) {
      if (i < n && j < m && a[start + i] === b[start + j]) {
        ops.push({ op: "same", a: start + i + 1, b: start + j + 1, text: a[start + i] });
        i++;
        j++;
      } else if (j >= m || (i < n && lcs[(i + 1) * width + j] >= lcs[i * width + j + 1])) {
        ops.push({ op: "del", a: start + i + 1, text: a[start + i] });
        i++;
      } else {
        ops.push({ op: "add", b: start + j + 1, text: b[start + j] });
        j++;
      }
    }
  }
  for (let i = endA, j = endB; i < a.length; i++, j++) ops.push({ op: "same", a: i + 1, b: j + 1, text: a[i] });
  return ops;
}

const SIGNS = { same: " ", del: "−", add: "+" };
const SPOKEN = { same: "", del: "removed: ", add: "added: " };

/**
 * The line diff of `old` and `draft` as nodes: changed lines with a few around them, columns headed `left`, `right`.
 * @param {string} old
 * @param {string} draft
 * @param {string} left
 * @param {string} right
 * @returns {HTMLElement[]}
 */
export function lineDiffNodes(old, draft, left, right) {
  if (old === draft) return [el("p", { className: "muted" }, "No line differs.")];
  const ops = lineOps(old.split("\n"), draft.split("\n"));
  const near = new Uint8Array(ops.length);
  ops.forEach((o, index) => {
    if (o.op === "same") return;
    for (let k = Math.max(0, index - CONTEXT_LINES); k <= Math.min(ops.length - 1, index + CONTEXT_LINES); k++) near[k] = 1;
  });
  /** @type {HTMLElement[]} */
  const rows = [];
  let skipped = 0;
  const flush = () => {
    if (skipped) rows.push(el("div", { className: "dl skip" }, `⋯ ${plural(skipped, "unchanged line")}`));
    skipped = 0;
  };
  let hidden = 0;
  ops.forEach((o, index) => {
    if (rows.length >= MAX_DIFF_ROWS) {
      hidden += near[index];
      return;
    }
    if (!near[index]) {
      skipped++;
      return;
    }
    flush();
    rows.push(el("div", { className: "dl " + o.op, dataset: { op: o.op } },
      el("span", { className: "ln" }, o.a ? String(o.a) : ""),
      el("span", { className: "ln" }, o.b ? String(o.b) : ""),
      el("span", { className: "sign", "aria-hidden": "true" }, SIGNS[o.op]),
      el("span", { className: "visually-hidden" }, SPOKEN[o.op]),
      el("span", { className: "text" }, o.text || " ")));
  });
  flush();
  if (hidden) rows.push(el("div", { className: "dl skip" }, `⋯ ${plural(hidden, "more changed or nearby line")} not shown`));
  return [el("div", { className: "dl head", "aria-hidden": "true" },
    el("span", { className: "ln" }, left), el("span", { className: "ln" }, right), el("span", {}, "")), ...rows];
}
