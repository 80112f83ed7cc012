// @ts-check
// Testing the draft (POST /v1/test, or /v1/lint when there is nothing to decide): the results
// table, the selected row, and the "why" panel with the service's own sentences.

import { api, latest } from "./api.js";
import { crawlerFor, crawlerNotes } from "./crawlers.js";
import { cell, el, els, urlText } from "./dom.js";
import { renderEditor, revealLine, updateCaret } from "./editor.js";
import { renderFindings } from "./findings.js";
import { agentName } from "./picker.js";
import { agentList, keyOf, selectedVerdict, state, urlList, view } from "./state.js";
import { clearStatus, setStatus } from "./status.js";
import { capitalised, count, plural } from "./text.js";
import { usageCell, usageSentence, useSummary } from "./usage.js";
import { categoryPhrase, useKey, useWord, verdictWord } from "./vocabulary.js";

/** @typedef {import("./types.js").Verdict} Verdict */
/** @typedef {import("./types.js").TestAnswer} TestAnswer */
/** @typedef {import("./types.js").LintAnswer} LintAnswer */

const runTest = latest(async (signal, /** @type {string} */ body, /** @type {string[]} */ urls,
  /** @type {string[]} */ agents, /** @type {string} */ mode, /** @type {string} */ purpose) => {
  if (urls.length && agents.length) {
    /** @type {Record<string, unknown>} */
    const request = { robots: body, urls, agents, mode };
    if (purpose) request.purpose = purpose; // each verdict then answers "may it be used for this?"
    return /** @type {TestAnswer} */ (await api("v1/test", { method: "POST", body: request, signal }));
  }
  const linted = /** @type {LintAnswer} */ (await api("v1/lint", { method: "POST", body: { robots: body, mode }, signal }));
  /** @type {TestAnswer} */
  const answer = { results: [], diagnostics: linted.diagnostics || [], diagnostics_omitted: linted.diagnostics_omitted };
  return answer;
});

/** Tests the draft now: verdicts for every URL and crawler, and the findings. */
export async function testNow() {
  const urls = urlList();
  const agents = agentList();
  const outcome = await runTest(state.robots, urls, agents, state.mode, state.purpose);
  if (!outcome) return; // a newer test is under way
  if (!outcome.ok) {
    setStatus(`Testing failed: ${outcome.error.message}`, "error", "test");
    return;
  }
  clearStatus("test");
  view.results = outcome.value.results || [];
  view.diagnostics = outcome.value.diagnostics || [];
  view.diagnosticsOmitted = count(outcome.value.diagnostics_omitted);
  if (view.selected && !selectedVerdict()) view.selected = null;
  renderResults(urls, agents);
  renderFindings();
  renderEditor();
  updateCaret();
}

/** The group that applied: "*" (every crawler no group names), a crawler name, or none (null);
 * an older server that sends no group gets a dash. @param {Verdict} v */
function groupCell(v) {
  if (!("group" in v)) return el("span", { className: "muted" }, "–");
  if (typeof v.group !== "string") return el("span", { className: "muted" }, "none");
  return el("code", {}, agentName(v.group));
}

/** @param {Verdict} v */
const groupWords = (v) => (!("group" in v) ? "" : typeof v.group === "string"
  ? `, group ${agentName(v.group)}` : ", no group applies");

/** @param {Verdict} v */
function lineCell(v) {
  if (v.full) return el("span", { className: "muted" }, `the whole site is ${verdictWord(v.full === "allow")}`);
  if (!v.line) return el("span", { className: "muted" }, "no rule matches");
  return [el("span", { className: "line-no" }, `Line ${v.line}: `), el("code", {}, v.text ?? "")];
}

/** The verdict, and what the registry says that changes how to read it. @param {Verdict} v */
function verdictCell(v) {
  const notes = crawlerNotes(crawlerFor(v));
  if (v.ignored_global === true && !notes.some((note) => note.kind === "ignores-global")) {
    notes.push({ kind: "ignores-global", text: `${v.token || v.agent} ignores the * group: only groups that name it apply.` });
  }
  return [el("span", { className: "badge " + (v.allowed ? "allow" : "disallow") }, capitalised(verdictWord(v.allowed))),
    notes.map((note) => el("p", { className: "crawler-note", dataset: { note: note.kind } }, note.text))];
}

/**
 * The results table and the summaries above it.
 * @param {string[]} urls the URLs tested
 * @param {string[]} agents the crawlers tested
 */
export function renderResults(urls, agents) {
  const results = view.results;
  const allowed = results.filter((v) => v.allowed).length;
  if (!urls.length || !agents.length) {
    els.resultsSummary.textContent = !urls.length ? "Enter at least one URL to test." : "Choose at least one crawler.";
  } else {
    els.resultsSummary.textContent = `${plural(results.length, "verdict")}: ${allowed} ${verdictWord(true)}, `
      + `${results.length - allowed} ${verdictWord(false)}.`;
  }
  const asked = results.filter((v) => typeof v.purpose === "string");
  if (asked.length) {
    const { text, refused } = useSummary(asked);
    els.purposeSummary.textContent = text;
    els.purposeSummary.dataset.refused = String(refused);
  } else {
    els.purposeSummary.textContent = "";
    delete els.purposeSummary.dataset.refused;
  }
  els.resultsBody.replaceChildren(...results.map((v) => {
    const key = keyOf(v);
    const crawler = [el("span", { className: "agent" }, v.agent)];
    if (v.token && v.token !== v.agent) crawler.push(el("span", { className: "token" }, ` matched as ${v.token}`));
    const answer = typeof v.purpose === "string" ? `; ${categoryPhrase(v.purpose)} ${useWord(useKey(v))}` : "";
    const label = `${v.url} for ${v.agent}: ${verdictWord(v.allowed)}${v.line ? `, line ${v.line}` : ""}${answer}`;
    /** @type {Record<string, string>} */
    const dataset = { url: v.url, agent: v.agent, token: v.token, allowed: String(v.allowed), line: String(v.line || 0) };
    if (typeof v.purpose === "string") dataset.use = useWord(useKey(v));
    if ("group" in v) dataset.group = typeof v.group === "string" ? v.group : "";
    return el("tr", {
      role: "row", tabindex: "0", className: key === view.selected ? "selected" : null, "aria-current": key === view.selected ? "true" : null,
      "aria-label": label + groupWords(v), dataset, onclick: () => select(key), onkeydown: (event) => rowKey(event, key),
    },
    cell("URL", { className: "url" }, urlText(v.url)),
    cell("Crawler", {}, crawler),
    cell("Group used", { className: "group" }, groupCell(v)),
    cell("Verdict and AI use", { className: "verdict" }, verdictCell(v), el("div", { className: "usage" }, usageCell(v))),
    cell("Deciding line", { className: "deciding" }, lineCell(v)));
  }));
  renderWhy();
  const typed = state.ua.trim();
  const mine = typed && results.find((v) => v.agent === typed);
  els.uaToken.textContent = !typed ? "" : mine
    ? (mine.token ? `Matched on the name “${mine.token}”.` : "This has no crawler name, so only the * group can apply.")
    : "";
}

/** Enter or Space selects a row; Up and Down move between rows. @param {KeyboardEvent} event @param {string} key */
function rowKey(event, key) {
  const row = /** @type {HTMLTableRowElement} */ (event.currentTarget);
  if (event.key === "Enter" || event.key === " ") {
    event.preventDefault();
    select(key);
  } else if (event.key === "ArrowDown" || event.key === "ArrowUp") {
    event.preventDefault();
    const next = event.key === "ArrowDown" ? row.nextElementSibling : row.previousElementSibling;
    if (next instanceof HTMLElement) next.focus();
  }
}

/** Selects the verdict `key`: its row, its lines in the editor (scrolled to), its "why". @param {string} key */
function select(key) {
  view.selected = key;
  for (const row of els.resultsBody.rows) {
    const on = keyOf({ url: row.dataset.url || "", agent: row.dataset.agent || "" }) === key;
    row.classList.toggle("selected", on);
    if (on) row.setAttribute("aria-current", "true");
    else row.removeAttribute("aria-current");
  }
  renderEditor();
  const verdict = selectedVerdict();
  if (verdict && verdict.line) {
    revealLine(verdict.line);
    // And the page, when the editor is out of view (the least scrolling that shows the line).
    const line = els.backdrop.querySelector(`.line[data-line="${verdict.line}"]`);
    const box = line && line.getBoundingClientRect();
    if (box && (box.top < 0 || box.bottom > window.innerHeight)) els.editor.scrollIntoView({ block: "nearest" });
  }
  renderWhy();
}

/** The "why" panel of the selected verdict: the service's sentences, and what the registry says of its crawler. */
function renderWhy() {
  const verdict = selectedVerdict();
  els.why.hidden = !verdict;
  if (!verdict) {
    els.why.replaceChildren();
    return;
  }
  const parts = [el("p", { className: "why-crawl" }, `Why: ${verdict.explanation}`)];
  parts.push(el("p", { className: "why-usage" }, usageSentence(verdict)));
  if (typeof verdict.purpose === "string" && typeof verdict.use_explanation === "string") {
    parts.push(el("p", { className: "why-use" }, `Asked: ${verdict.use_explanation}.`));
  }
  const crawler = crawlerFor(verdict);
  if (crawler && crawler.purpose) {
    parts.push(el("p", { className: "why-crawler" }, `${crawler.name}${crawler.operator ? ` (${crawler.operator})` : ""}: ${crawler.purpose}`));
  }
  els.why.replaceChildren(...parts);
}
