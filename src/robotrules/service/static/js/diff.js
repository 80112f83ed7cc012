// @ts-check
// Comparing the draft with the live file (POST /v1/diff): the rules and verdicts that change, the
// other changes, and the line diff; and the verdict cells the edit panel shares.

import { api, latest } from "./api.js";
import { cell, el, els, urlText } from "./dom.js";
import { goToLine } from "./editor.js";
import { lineDiffNodes } from "./linediff.js";
import { agentName } from "./picker.js";
import { state, urlList, view } from "./state.js";
import { clearStatus, setStatus } from "./status.js";
import { capitalised, count, listedOnly, plural } from "./text.js";
import { verdictWord } from "./vocabulary.js";

/** @typedef {import("./types.js").DiffAnswer} DiffAnswer */
/** @typedef {import("./types.js").VerdictChange} VerdictChange */
/** @typedef {import("./dom.js").Child} Child */

const runDiff = latest(async (signal, /** @type {string} */ old, /** @type {string} */ draft,
  /** @type {string[]} */ urls, /** @type {string} */ mode) =>
  /** @type {DiffAnswer} */ (await api("v1/diff", { method: "POST", body: { old, new: draft, urls, agents: [], mode }, signal })));

/** Compares the draft with the live file now (the section is hidden when there is no live file with rules). */
export async function compareNow() {
  if (view.liveBody === null) {
    els.diffSection.hidden = true;
    clearStatus("diff");
    return;
  }
  els.diffSection.hidden = false;
  els.lineDiff.replaceChildren(...lineDiffNodes(view.liveBody, state.robots, "live", "draft"));
  const outcome = await runDiff(view.liveBody, state.robots, urlList(), state.mode);
  if (!outcome) return;
  if (!outcome.ok) {
    setStatus(`Comparing with the live file failed: ${outcome.error.message}`, "error", "diff");
    return;
  }
  clearStatus("diff");
  renderDiff(outcome.value);
}

/**
 * One side of a verdict that changes: allowed or disallowed, by which line and rule.
 * @param {boolean} allowed
 * @param {number | null} line
 * @param {string} rule
 * @returns {Child[]}
 */
export function sideCell(allowed, line, rule) {
  return [el("span", { className: "badge " + (allowed ? "allow" : "disallow") }, capitalised(verdictWord(allowed))),
    line ? [" ", el("span", { className: "line-no" }, `line ${line}`), rule ? [": ", el("code", {}, rule)] : null]
      : el("span", { className: "muted" }, " no rule matches")];
}

/**
 * The rows of verdicts that change, headed `left` and `right` (the two versions).
 * @param {VerdictChange[]} verdicts
 * @param {string} left
 * @param {string} right
 */
export function verdictChangeRows(verdicts, left, right) {
  return verdicts.map((v) => el("tr", {
    role: "row", dataset: { url: v.url, agent: v.agent, oldAllowed: String(v.old_allowed), newAllowed: String(v.new_allowed) },
  },
  cell("URL", { className: "url" }, urlText(v.url)),
  cell("Crawler", {}, agentName(v.agent)),
  cell(left, {}, sideCell(v.old_allowed, v.old_line, v.old_rule)),
  cell(right, {}, sideCell(v.new_allowed, v.new_line, v.new_rule))));
}

/** A draft line that leads to it. @param {number | null} line */
function lineButton(line) {
  if (!line) return el("span", { className: "muted" }, "none");
  return el("button", { type: "button", className: "link", onclick: () => goToLine(line), "aria-label": `Go to draft line ${line}` }, String(line));
}

/** @param {DiffAnswer} data */
function renderDiff(data) {
  const rules = Array.isArray(data.rules) ? data.rules : [];
  const verdicts = Array.isArray(data.verdicts) ? data.verdicts : [];
  const delays = Array.isArray(data.crawl_delays) ? data.crawl_delays : [];
  const added = Array.isArray(data.sitemaps_added) ? data.sitemaps_added : [];
  const removed = Array.isArray(data.sitemaps_removed) ? data.sitemaps_removed : [];
  const ruleCount = rules.length + count(data.rules_omitted);
  const verdictCount = verdicts.length + count(data.verdicts_omitted);
  const any = ruleCount || verdictCount || delays.length || added.length || removed.length;
  els.diffSummary.textContent = any
    ? `For crawlers, the draft changes ${plural(ruleCount, "rule")} and ${plural(verdictCount, "verdict")} compared with the live file.`
      + listedOnly(rules.length + verdicts.length, ruleCount + verdictCount)
    : "For crawlers, the draft reads the same as the live file.";
  els.diffRulesWrap.hidden = !rules.length;
  els.diffRules.replaceChildren(...rules.map((r) => {
    const kind = r.change === "changed" ? `${r.kind === "allow" ? "disallow" : "allow"} → ${r.kind}` : r.kind;
    return el("tr", { role: "row", dataset: { change: r.change, agent: r.agent, kind: r.kind, value: r.value } },
      cell("Change", {}, el("span", { className: "badge change-" + r.change }, r.change)),
      cell("Crawler", {}, agentName(r.agent)),
      cell("Rule", {}, el("code", {}, `${kind}: ${r.value}`)),
      cell("Live line", {}, r.old_line ? String(r.old_line) : el("span", { className: "muted" }, "none")),
      cell("Draft line", {}, lineButton(r.new_line)));
  }));
  els.diffVerdictsWrap.hidden = !verdicts.length;
  els.diffVerdicts.replaceChildren(...verdictChangeRows(verdicts, "Live file", "Draft"));
  const other = [];
  for (const d of delays) {
    const show = (/** @type {number | null | undefined} */ x) => (x === null || x === undefined ? "none" : `${x} s`);
    other.push(el("li", {}, `Crawl delay for ${agentName(d.agent)}: ${show(d.old)} → ${show(d.new)}`));
  }
  for (const url of added) other.push(el("li", {}, "Sitemap added: ", el("code", {}, url)));
  for (const url of removed) other.push(el("li", {}, "Sitemap removed: ", el("code", {}, url)));
  els.diffOther.replaceChildren(...other);
}
