// @ts-check
// The list of lint findings under the editor, each leading to its line, with its fix when it has one.

import { el, els } from "./dom.js";
import { setDraft } from "./draft.js";
import { goToLine } from "./editor.js";
import { fixOf, severityWord } from "./lint.js";
import { changed } from "./schedule.js";
import { view } from "./state.js";
import { setStatus } from "./status.js";
import { plural } from "./text.js";

/** The summary and the list of every finding of the last test. */
export function renderFindings() {
  const diagnostics = view.diagnostics;
  const errors = diagnostics.filter((d) => d.severity === "error").length;
  const warnings = diagnostics.filter((d) => d.severity === "warning").length;
  const notes = diagnostics.length - errors - warnings;
  els.findingsSummary.textContent = diagnostics.length
    ? [errors && plural(errors, "error"), warnings && plural(warnings, "warning"), notes && plural(notes, "note")].filter(Boolean).join(", ") + "."
      + (view.diagnosticsOmitted ? ` ${view.diagnosticsOmitted.toLocaleString("en")} more findings are not listed.` : "")
    : "No problems found.";
  els.findings.replaceChildren(...diagnostics.map((d) => {
    const line = d.line;
    const where = line ? `Line ${line}${d.column ? `, column ${d.column}` : ""}` : "Whole file";
    const label = `${where}: ${severityWord(d.severity)}: ${d.message}`;
    const content = [el("span", { className: "badge sev-" + d.severity }, severityWord(d.severity)), " ",
      el("span", { className: "where" }, where), " ", d.message, " ", el("code", { className: "code-name" }, d.code)];
    const item = line
      ? el("button", { type: "button", className: "link", "aria-label": label, onclick: () => goToLine(line, d.column || 0) }, content)
      : el("span", {}, content);
    const fix = fixOf(d);
    const fixPart = fix === null ? null : el("p", { className: "fix" }, "Fix: ", el("code", {}, fix || "(remove the line)"),
      line ? [" ", el("button", { type: "button", className: "apply-fix", "aria-label": `Apply the fix to line ${line}: ${fix}`,
        onclick: () => applyFix(line, fix) }, "Apply")] : null);
    /** @type {Record<string, unknown>} */
    const dataset = { line, severity: d.severity, code: d.code };
    if (fix !== null) dataset.fix = fix;
    return el("li", { className: "finding", dataset }, item, fixPart);
  }));
}

/** Replaces line `line` of the draft with `fix` (a leading byte order mark is kept) and re-tests. @param {number} line @param {string} fix */
function applyFix(line, fix) {
  const lines = els.robots.value.split("\n");
  if (line < 1 || line > lines.length) return;
  lines[line - 1] = (line === 1 && lines[0].startsWith("\uFEFF") ? "\uFEFF" : "") + fix;
  setDraft(lines.join("\n"));
  goToLine(line);
  setStatus(`Line ${line} now reads: ${fix}`, "info", "draft");
  changed({ now: true });
}
