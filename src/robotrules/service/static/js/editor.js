// @ts-check
// The editor: a textarea over a backdrop that highlights lines (findings, the selected verdict's
// deciding line and preference lines, the caret's line), and a gutter of line numbers. Only the
// lines in view (and OVERSCAN more each side) are drawn: a 500 KB file has about 20,000 lines.

import { el, els } from "./dom.js";
import { findingsByLine, fixOf, severityWord, worst } from "./lint.js";
import { selectedVerdict, view } from "./state.js";
import { offsetOf, plural } from "./text.js";
import { preferenceLines } from "./usage.js";
import { categoryPhrase, preferenceWord, valueKey, verdictWord } from "./vocabulary.js";

const OVERSCAN = 80;

function lineHeight() {
  return parseFloat(getComputedStyle(els.robots).lineHeight) || 20;
}

/** The lines to draw for a text of `count` lines (0-based, end excluded), and those in view. @param {number} count */
function visibleRange(count) {
  const height = lineHeight();
  const top = Math.floor(els.robots.scrollTop / height);
  const bottom = Math.ceil((els.robots.scrollTop + els.robots.clientHeight) / height);
  return { from: Math.max(0, top - OVERSCAN), to: Math.min(count, bottom + OVERSCAN), top, bottom: Math.min(count, bottom) };
}

/** Draws the lines in view: numbers, findings, the selected verdict's lines, the caret's line. */
export function renderEditor() {
  const lines = els.robots.value.split("\n");
  const byLine = findingsByLine();
  const verdict = selectedVerdict();
  const decide = verdict && verdict.line ? verdict.line : 0;
  const prefs = preferenceLines(verdict);
  const range = visibleRange(lines.length);
  view.drawn = { from: range.from, to: range.to };
  const spacer = `${range.from * lineHeight()}px`;
  const gutter = document.createDocumentFragment();
  const backdrop = document.createDocumentFragment();
  const gutterSpacer = el("div", { className: "spacer" });
  const backdropSpacer = el("div", { className: "spacer" });
  gutterSpacer.style.height = spacer;
  backdropSpacer.style.height = spacer;
  gutter.append(gutterSpacer);
  backdrop.append(backdropSpacer);
  const gutterBox = els.gutter.parentElement;
  if (gutterBox) gutterBox.style.width = `${String(lines.length).length + 4}ch`; // its lines are out of flow
  lines.slice(range.from, range.to).forEach((text, index) => {
    const n = range.from + index + 1;
    const found = byLine.get(n);
    const classes = ["line"];
    const numClasses = ["num"];
    if (found) {
      classes.push("sev-" + worst(found));
      numClasses.push("sev-" + worst(found));
    }
    if (verdict && n === decide) {
      classes.push("decide", verdict.allowed ? "decide-allow" : "decide-disallow");
      numClasses.push("decide");
    }
    const pref = prefs.get(n);
    if (pref) {
      const value = "value" in pref ? pref.value : undefined;
      classes.push("decide-pref", value === true ? "pref-allow" : value === false ? "pref-disallow" : "pref-stated");
      numClasses.push("decide");
    }
    if (n === view.caretLine && document.activeElement === els.robots) classes.push("caret");
    const title = found ? found.map((d) => `${severityWord(d.severity)}: ${d.message}`).join("\n") : null;
    gutter.append(el("div", { className: numClasses.join(" "), title, dataset: { line: n } }, String(n)));
    const row = el("div", { className: classes.join(" "), dataset: { line: n } });
    // Columns count characters without a leading byte order mark.
    const skip = n === 1 && text.startsWith("\uFEFF") ? 1 : 0;
    const column = found ? Math.min(...found.map((d) => d.column || 1)) + skip : 0;
    if (found && text) {
      const chars = Array.from(text);
      const before = chars.slice(0, Math.max(0, column - 1)).join("");
      const after = chars.slice(Math.max(0, column - 1)).join("");
      if (before) row.append(el("span", {}, before));
      row.append(el("span", { className: "mark" }, after || " "));
    } else {
      row.append(text || "");
    }
    if (verdict && n === decide) {
      row.append(el("span", { className: "msg verdict" }, `decides: ${verdictWord(verdict.allowed)} for ${verdict.token || verdict.agent}`));
    }
    if (verdict && pref) {
      const who = verdict.token || verdict.agent;
      const said = pref.category
        ? `decides ${categoryPhrase(pref.category)}: ${preferenceWord(valueKey(pref.value))} for ${who}`
        : `states AI-use preferences for ${who}`;
      row.append(el("span", { className: "msg verdict pref" }, said));
    }
    if (found) {
      const first = found[0];
      const more = found.length > 1 ? ` (and ${plural(found.length - 1, "more finding")})` : "";
      row.append(el("span", { className: "msg sev-" + first.severity }, `${severityWord(first.severity)}: ${first.message}${more}`));
    }
    backdrop.append(row);
  });
  els.gutter.replaceChildren(gutter);
  els.backdrop.replaceChildren(backdrop);
  syncScroll();
}

function syncScroll() {
  const { scrollTop, scrollLeft, scrollWidth } = els.robots;
  els.backdrop.style.minWidth = `${scrollWidth}px`;
  els.backdrop.style.transform = `translate(${-scrollLeft}px, ${-scrollTop}px)`;
  els.gutter.style.transform = `translateY(${-scrollTop}px)`;
}

/** On scroll: move the layers, and draw more lines when the view nears the edge of those drawn. */
export function onScroll() {
  const count = els.robots.value.split("\n").length;
  const range = visibleRange(count);
  if (range.top < view.drawn.from || range.bottom > view.drawn.to) renderEditor();
  else syncScroll();
}

/** Scrolls the editor so line `line` is in the middle of the view. @param {number} line */
export function revealLine(line) {
  const height = lineHeight();
  const top = (line - 1) * height - (els.robots.clientHeight - height) / 2;
  els.robots.scrollTop = Math.max(0, top);
  onScroll();
}

/** The caret's line and column under the editor, with the findings there (read out when it reaches them). */
export function updateCaret() {
  const value = els.robots.value;
  const before = value.slice(0, els.robots.selectionStart);
  const line = before.split("\n").length;
  const column = Array.from(before.slice(before.lastIndexOf("\n") + 1)).length + 1;
  view.caretLine = line;
  const found = findingsByLine().get(line) || [];
  const text = found.map((d) => {
    const fix = fixOf(d);
    return `${severityWord(d.severity)}: ${d.message}${fix === null ? "" : `; fix: ${fix}`}`;
  }).join(" ");
  els.caretInfo.textContent = `Line ${line}, column ${column}${text ? ". " + text : ""}`;
  // Screen readers hear the findings when the caret reaches a line that has some, not every move.
  const spoken = text && document.activeElement === els.robots ? `Line ${line}: ${text}` : "";
  if (els.caretFindings.textContent !== spoken) els.caretFindings.textContent = spoken;
  for (const node of els.backdrop.querySelectorAll(".line.caret")) node.classList.remove("caret");
  const row = els.backdrop.querySelector(`.line[data-line="${line}"]`);
  if (row && document.activeElement === els.robots) row.classList.add("caret");
}

/** Puts the caret at a line and column of the draft, scrolled into view. @param {number} line @param {number} [column] */
export function goToLine(line, column = 0) {
  const offset = offsetOf(els.robots.value, line, column);
  els.robots.focus({ preventScroll: true });
  els.robots.setSelectionRange(offset, offset);
  revealLine(line);
  updateCaret();
}
