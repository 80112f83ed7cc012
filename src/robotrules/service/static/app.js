// The robots.txt tester page: a plain ES module, no build step, no requests but to its own server.
//
// State (draft, crawlers, URLs, live site URL, mode, the use asked about) lives in `state` and in
// the address's fragment (#state=...), so a link restores it. Every change re-tests after a short pause; a newer
// request aborts the one still under way, and answers to older requests are ignored.

// The pauses a person needs; a driver that acts at machine speed (the page tests) may set shorter
// ones before the page loads: window.robotrulesPauses = {retest: ms, link: ms}.
const PAUSES = globalThis.robotrulesPauses ?? {};
const DEBOUNCE_MS = PAUSES.retest ?? 180; // re-test this long after the last keystroke
const HASH_DEBOUNCE_MS = PAUSES.link ?? 300; // rewrite the share link this long after the last change
const CONTEXT_LINES = 3; // unchanged lines shown around each change in the line diff
const MAX_DIFF_CELLS = 4_000_000; // above this, the line diff shows a block replaced, not the smallest change
const MAX_DIFF_ROWS = 3000; // lines of the line diff drawn at most
const COMPRESS_OVER = 200; // bytes of state above which the link is compressed (when the browser can)

const EXAMPLE = {
  robots: [
    "# An example: edit it, paste your own, or fetch a site's live file.",
    "User-agent: *",
    "Disallow: /private/",
    "Allow: /private/press/",
    "# How the pages may be used: not for AI training, welcome in search results",
    "Content-Usage: train-ai=n, search=y",
    "",
    "User-agent: Googlebot",
    "Disallow: /drafts/",
    "",
    "Sitemap: https://www.example.com/sitemap.xml",
    "",
  ].join("\n"),
  agents: ["Googlebot", "GPTBot"],
  ua: "",
  urls: [
    "https://www.example.com/",
    "https://www.example.com/private/report.html",
    "https://www.example.com/private/press/launch.html",
    "https://www.example.com/drafts/new-post",
  ].join("\n"),
  live: "",
  mode: "google",
  purpose: "",
};

const KIND_LABELS = {
  search: "Search engines", "ai-training": "AI training", "ai-search": "AI search", "ai-assistant": "AI assistants",
  ai: "AI crawlers", archive: "Web archives", seo: "SEO tools", other: "Other crawlers",
};
const KIND_ORDER = ["any", ...Object.keys(KIND_LABELS)];
const OBEYS = ["yes", "no", "unknown"];

// The uses a site may state preferences for (Content-Usage, Content-Signal), as the API names them.
const CATEGORIES = ["train-ai", "search", "ai-input"];
const CATEGORY_LABELS = { "train-ai": "AI training", search: "Search", "ai-input": "AI answers" };
const CATEGORY_WORDS = { "train-ai": "AI training", search: "search", "ai-input": "AI answers" }; // within a sentence
const CATEGORY_ABOUT = {
  "train-ai": "using the content to train AI models (train-ai)",
  search: "showing the content in search results and linking to it (search)",
  "ai-input": "using the content as input to AI-generated answers (ai-input)",
};
const USE_WORDS = { true: "allowed", false: "disallowed", null: "unknown" };

const $ = (id) => document.getElementById(id);
const els = {
  status: $("status"), shareLink: $("share-link"), copyLink: $("copy-link"),
  liveForm: $("live-form"), liveUrl: $("live-url"), liveFetch: $("live-fetch"), liveState: $("live-state"),
  liveSummary: $("live-summary"), liveDetails: $("live-details"), liveActions: $("live-actions"), liveLoad: $("live-load"),
  mode: $("mode"), draftOrigin: $("draft-origin"), robots: $("robots"), backdrop: $("backdrop"),
  gutter: $("gutter-inner"), caretInfo: $("caret-info"), caretFindings: $("caret-findings"), findings: $("findings"), findingsSummary: $("findings-summary"),
  chips: $("agent-chips"), agentSearch: $("agent-search"), agentCount: $("agent-count"), agentChosen: $("agent-chosen"),
  ua: $("ua"), uaToken: $("ua-token"), urls: $("urls"), purpose: $("purpose"),
  resultsSummary: $("results-summary"), purposeSummary: $("purpose-summary"), resultsBody: $("results-body"), why: $("why"),
  diffSection: $("diff-section"), diffSummary: $("diff-summary"), diffRulesWrap: $("diff-rules-wrap"),
  diffRules: document.querySelector("#diff-rules tbody"), diffVerdictsWrap: $("diff-verdicts-wrap"),
  diffVerdicts: document.querySelector("#diff-verdicts tbody"), diffOther: $("diff-other"), lineDiff: $("line-diff"),
  draftDownload: $("draft-download"), draftCopy: $("draft-copy"),
  editForm: $("edit-form"), editBlock: $("edit-block"), editAllow: $("edit-allow"), editUsage: $("edit-usage"),
  editNames: $("edit-names"), editPurposes: $("edit-purposes"), editResult: $("edit-result"), editSummary: $("edit-summary"),
  editNotes: $("edit-notes"), editChanges: $("edit-changes"), editLines: $("edit-lines"),
  editVerdictsWrap: $("edit-verdicts-wrap"), editVerdicts: document.querySelector("#edit-verdicts tbody"), editApply: $("edit-apply"),
};

const state = { ...EXAMPLE, agents: [...EXAMPLE.agents] };
let known = []; // crawlers offered by the server, as crawlerOf reads them
let byName = new Map(); // lower-case name -> crawler
let byToken = new Map(); // lower-case token -> the crawler whose name is that token
let live = null; // the last /v1/robots answer
let liveBody = null; // the live file's text when it gives rules, else null
let results = []; // verdicts of the last test
let diagnostics = []; // lint findings of the last test
let diagnosticsOmitted = 0; // findings of the last test the service counted but did not list
let selected = null; // key of the selected verdict (url + "\n" + agent)
let caretLine = 0;

// ---------------------------------------------------------------------------------------------
// Talking to the server

class ApiError extends Error {}

/** Calls the same-origin JSON API; throws ApiError with the server's message on any failure. */
async function api(path, { method = "GET", body, signal } = {}) {
  let response;
  try {
    response = await fetch(path, {
      method,
      signal,
      cache: "no-store",
      headers: body === undefined ? { Accept: "application/json" } : { Accept: "application/json", "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (error) {
    if (error.name === "AbortError") throw error;
    throw new ApiError("The tester's server could not be reached. Is it still running?");
  }
  let data = null;
  try {
    data = await response.json();
  } catch (error) {
    if (error.name === "AbortError") throw error;
  }
  if (!response.ok) {
    const message = data && data.error && data.error.message;
    let detail = data && data.detail;
    if (Array.isArray(detail)) detail = detail.map((d) => d.msg || String(d)).join("; ");
    throw new ApiError(message || (typeof detail === "string" && detail)
      || `The server answered ${response.status}${response.statusText ? " " + response.statusText : ""}.`);
  }
  if (data === null) throw new ApiError("The server's answer could not be read.");
  return data;
}

/** One request kind at a time: a new call aborts the previous one; stale answers are dropped. */
function latest(run) {
  let controller = null;
  let seq = 0;
  return async (...args) => {
    if (controller) controller.abort();
    const mine = ++seq;
    controller = new AbortController();
    try {
      const value = await run(controller.signal, ...args);
      return mine === seq ? { value } : null;
    } catch (error) {
      if (error.name === "AbortError" || mine !== seq) return null;
      return { error };
    }
  };
}

let statusSource = null;
function setStatus(message, kind = "info", source = null) {
  els.status.textContent = message;
  els.status.dataset.kind = kind;
  statusSource = message ? source : null;
}
function clearStatus(source) {
  if (statusSource === source) setStatus("");
}

// ---------------------------------------------------------------------------------------------
// Small helpers

function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "className") node.className = value;
    else if (key === "dataset") Object.assign(node.dataset, value);
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : String(child));
  }
  return node;
}

/** A URL as text that may wrap after / ? & = # (not inside a word), for narrow screens. */
function urlText(url) {
  return String(url).split(/(?<=[/?&=#])/).flatMap((part, index) => (index ? [el("wbr"), part] : [part]));
}

/** A table cell that keeps its role when narrow screens show rows as cards, with its column's name. */
function cell(label, props, ...children) {
  return el("td", { role: "cell", ...props, dataset: { label, ...(props.dataset || {}) } }, ...children);
}

const normalize = (text) => text.replace(/\r\n?/g, "\n");
const plural = (n, one, many = one + "s") => `${n} ${n === 1 ? one : many}`;
const urlList = () => state.urls.split("\n").map((u) => u.trim()).filter(Boolean);

/** The agents to test: the chosen chips, then the typed one, without repeats. */
function agentList() {
  const seen = new Set();
  const out = [];
  for (const agent of [...state.agents, state.ua.trim()]) {
    if (agent && !seen.has(agent)) {
      seen.add(agent);
      out.push(agent);
    }
  }
  return out;
}

/** The index in `text` of line `line` (1-based), column `column` (1-based, in characters; 0: start). */
function offsetOf(text, line, column = 0) {
  let offset = 0;
  for (let n = 1; n < line; n++) {
    const next = text.indexOf("\n", offset);
    if (next < 0) return text.length;
    offset = next + 1;
  }
  if (column > 1) {
    const end = text.indexOf("\n", offset);
    const chars = Array.from(text.slice(offset, end < 0 ? text.length : end));
    const skip = line === 1 && chars[0] === "\uFEFF" ? 1 : 0; // columns do not count a byte order mark
    offset += chars.slice(0, column - 1 + skip).join("").length;
  }
  return offset;
}

function lineHeight() {
  return parseFloat(getComputedStyle(els.robots).lineHeight) || 20;
}

// ---------------------------------------------------------------------------------------------
// The editor: a textarea over a backdrop that highlights lines, and a gutter of line numbers

const SEVERITY_ORDER = { error: 0, warning: 1, info: 2 };
const bySeverity = (a, b) => (SEVERITY_ORDER[a.severity] ?? 3) - (SEVERITY_ORDER[b.severity] ?? 3);

/** Findings by line, the most severe first on each line (the one written at the end of the line). */
function findingsByLine() {
  const map = new Map();
  for (const d of diagnostics) {
    if (!d.line) continue;
    if (!map.has(d.line)) map.set(d.line, []);
    map.get(d.line).push(d);
  }
  for (const list of map.values()) list.sort(bySeverity); // stable: file order within a severity
  return map;
}

const worst = (list) => list.reduce((a, b) => ((SEVERITY_ORDER[b.severity] ?? 3) < (SEVERITY_ORDER[a.severity] ?? 3) ? b : a)).severity;
const severityWord = (s) => ({ error: "Error", warning: "Warning", info: "Note" }[s] || s);

function selectedVerdict() {
  return results.find((v) => keyOf(v) === selected) || null;
}

// Only the lines in view (and OVERSCAN more each side) are drawn: a 500 KB file has ~20,000 lines.
const OVERSCAN = 80;
let drawn = { from: 0, to: 0 }; // 0-based line indexes drawn in the backdrop and gutter

function visibleRange(count) {
  const height = lineHeight();
  const top = Math.floor(els.robots.scrollTop / height);
  const bottom = Math.ceil((els.robots.scrollTop + els.robots.clientHeight) / height);
  return { from: Math.max(0, top - OVERSCAN), to: Math.min(count, bottom + OVERSCAN), top, bottom: Math.min(count, bottom) };
}

/** The selected verdict's Content-Usage and Content-Signal lines: line -> {category, value} when the
 * use asked about is decided there, else {} (a line that states preferences for the verdict). */
function preferenceLines(verdict) {
  const lines = new Map();
  if (!verdict || !verdict.allowed) return lines;
  for (const n of Array.isArray(verdict.preference_lines) ? verdict.preference_lines : []) lines.set(n, {});
  if (typeof verdict.purpose === "string" && Array.isArray(verdict.use_lines)) {
    for (const n of verdict.use_lines) lines.set(n, { category: verdict.purpose, value: verdict.use });
  }
  return lines;
}

function renderEditor() {
  const lines = els.robots.value.split("\n");
  const byLine = findingsByLine();
  const verdict = selectedVerdict();
  const decide = verdict && verdict.line ? verdict.line : 0;
  const prefs = preferenceLines(verdict);
  const range = visibleRange(lines.length);
  drawn = { from: range.from, to: range.to };
  const spacer = `${range.from * lineHeight()}px`;
  const gutter = document.createDocumentFragment();
  const backdrop = document.createDocumentFragment();
  const gutterSpacer = el("div", { className: "spacer" });
  const backdropSpacer = el("div", { className: "spacer" });
  gutterSpacer.style.height = spacer;
  backdropSpacer.style.height = spacer;
  gutter.append(gutterSpacer);
  backdrop.append(backdropSpacer);
  els.gutter.parentElement.style.width = `${String(lines.length).length + 4}ch`; // its lines are out of flow
  lines.slice(range.from, range.to).forEach((text, index) => {
    const n = range.from + index + 1;
    const found = byLine.get(n);
    const classes = ["line"];
    const numClasses = ["num"];
    if (found) {
      classes.push("sev-" + worst(found));
      numClasses.push("sev-" + worst(found));
    }
    if (n === decide) {
      classes.push("decide", verdict.allowed ? "decide-allow" : "decide-disallow");
      numClasses.push("decide");
    }
    const pref = prefs.get(n);
    if (pref) {
      const value = "value" in pref ? pref.value : undefined;
      classes.push("decide-pref", value === true ? "pref-allow" : value === false ? "pref-disallow" : "pref-stated");
      numClasses.push("decide");
    }
    if (n === caretLine && document.activeElement === els.robots) classes.push("caret");
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
    if (n === decide) {
      row.append(el("span", { className: "msg verdict" }, `decides: ${verdict.allowed ? "allowed" : "disallowed"} for ${verdict.token || verdict.agent}`));
    }
    if (pref) {
      const who = verdict.token || verdict.agent;
      const said = pref.category
        ? `decides ${categoryWord(pref.category)}: ${useWord(pref.value)} for ${who}`
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
function onScroll() {
  const count = els.robots.value.split("\n").length;
  const range = visibleRange(count);
  if (range.top < drawn.from || range.bottom > drawn.to) renderEditor();
  else syncScroll();
}

/** Scrolls the editor so line `line` is in the middle of the view. */
function revealLine(line) {
  const height = lineHeight();
  const top = (line - 1) * height - (els.robots.clientHeight - height) / 2;
  els.robots.scrollTop = Math.max(0, top);
  onScroll();
}

function updateCaret() {
  const value = els.robots.value;
  const before = value.slice(0, els.robots.selectionStart);
  const line = before.split("\n").length;
  const column = Array.from(before.slice(before.lastIndexOf("\n") + 1)).length + 1;
  caretLine = line;
  const found = findingsByLine().get(line) || [];
  const text = found.map((d) => `${severityWord(d.severity)}: ${d.message}${fixOf(d) === null ? "" : `; fix: ${fixOf(d)}`}`).join(" ");
  els.caretInfo.textContent = `Line ${line}, column ${column}${text ? ". " + text : ""}`;
  // Screen readers hear the findings when the caret reaches a line that has some, not every move.
  const spoken = text && document.activeElement === els.robots ? `Line ${line}: ${text}` : "";
  if (els.caretFindings.textContent !== spoken) els.caretFindings.textContent = spoken;
  for (const node of els.backdrop.querySelectorAll(".line.caret")) node.classList.remove("caret");
  const row = els.backdrop.querySelector(`.line[data-line="${line}"]`);
  if (row && document.activeElement === els.robots) row.classList.add("caret");
}

/** Puts the caret at a line and column of the draft, scrolled into view. */
function goToLine(line, column = 0) {
  const offset = offsetOf(els.robots.value, line, column);
  els.robots.focus({ preventScroll: true });
  els.robots.setSelectionRange(offset, offset);
  revealLine(line);
  updateCaret();
}

function renderFindings() {
  const errors = diagnostics.filter((d) => d.severity === "error").length;
  const warnings = diagnostics.filter((d) => d.severity === "warning").length;
  const notes = diagnostics.length - errors - warnings;
  els.findingsSummary.textContent = diagnostics.length
    ? [errors && plural(errors, "error"), warnings && plural(warnings, "warning"), notes && plural(notes, "note")].filter(Boolean).join(", ") + "."
      + (diagnosticsOmitted ? ` ${diagnosticsOmitted.toLocaleString("en")} more findings are not listed.` : "")
    : "No problems found.";
  els.findings.replaceChildren(...diagnostics.map((d) => {
    const where = d.line ? `Line ${d.line}${d.column ? `, column ${d.column}` : ""}` : "Whole file";
    const label = `${where}: ${severityWord(d.severity)}: ${d.message}`;
    const content = [el("span", { className: "badge sev-" + d.severity }, severityWord(d.severity)), " ",
      el("span", { className: "where" }, where), " ", d.message, " ", el("code", { className: "code-name" }, d.code)];
    const item = d.line
      ? el("button", { type: "button", className: "link", "aria-label": label, onclick: () => goToLine(d.line, d.column) }, content)
      : el("span", {}, content);
    const fix = fixOf(d);
    const fixPart = fix === null ? null : el("p", { className: "fix" }, "Fix: ", el("code", {}, fix || "(remove the line)"),
      d.line ? [" ", el("button", { type: "button", className: "apply-fix", "aria-label": `Apply the fix to line ${d.line}: ${fix}`,
        onclick: () => applyFix(d.line, fix) }, "Apply")] : null);
    const dataset = { line: d.line, severity: d.severity, code: d.code };
    if (fix !== null) dataset.fix = fix;
    return el("li", { className: "finding", dataset }, item, fixPart);
  }));
}

/** A finding's fix (the corrected line), or null when it has none (older servers send no fix at all). */
function fixOf(d) {
  return typeof d.fix === "string" ? d.fix : null;
}

/** Replaces line `line` of the draft with `fix` (a leading byte order mark is kept) and re-tests. */
function applyFix(line, fix) {
  const lines = els.robots.value.split("\n");
  if (line < 1 || line > lines.length) return;
  lines[line - 1] = (line === 1 && lines[0].startsWith("\uFEFF") ? "\uFEFF" : "") + fix;
  setDraft(lines.join("\n"));
  goToLine(line);
  setStatus(`Line ${line} now reads: ${fix}`, "info", "draft");
  changed({ now: true });
}

/** Saves the draft as a file called robots.txt (a data: link: the page sends nothing anywhere). */
function downloadDraft() {
  const link = el("a", { href: "data:text/plain;charset=utf-8," + encodeURIComponent(state.robots), download: "robots.txt" });
  document.body.append(link);
  link.click();
  link.remove();
  setStatus("The draft was saved as robots.txt: put it at the root of the site.", "info", "draft");
}

async function copyDraft() {
  try {
    await navigator.clipboard.writeText(state.robots);
    setStatus("The draft was copied: paste it into the site's robots.txt.", "info", "draft");
  } catch {
    els.robots.focus();
    els.robots.select();
    setStatus("Copy the selected draft (the browser did not allow copying it directly).", "info", "draft");
  }
}

function setDraft(text) {
  els.robots.value = text;
  state.robots = els.robots.value; // the textarea's own form of line ends
  renderEditor();
  renderOrigin();
}

function renderOrigin() {
  if (liveBody === null) {
    els.draftOrigin.textContent = "";
    return;
  }
  const same = normalize(liveBody) === state.robots;
  els.draftOrigin.textContent = same
    ? `The editor holds the live file of ${live.robots_url}.`
    : `The editor holds a draft that differs from the live file of ${live.robots_url}.`;
  els.liveActions.hidden = same;
}

// ---------------------------------------------------------------------------------------------
// Crawlers

/** A registry entry read defensively: the first form ({token, operator, purpose, kind, source})
 * and the later one (with name, token_valid, obeys, ignores_global and origin) both work. */
function crawlerOf(raw) {
  if (!raw || typeof raw !== "object") return null;
  const text = (x) => (typeof x === "string" ? x.trim() : "");
  const token = text(raw.token);
  const name = text(raw.name) || token;
  if (!name) return null;
  return {
    name,
    token: token || name,
    tokenValid: typeof raw.token_valid === "boolean" ? raw.token_valid : !token || token === name,
    operator: text(raw.operator),
    purpose: text(raw.purpose),
    kind: text(raw.kind) || "other",
    source: /^https?:\/\//i.test(text(raw.source)) ? text(raw.source) : "",
    obeys: OBEYS.includes(raw.obeys) ? raw.obeys : "unknown",
    ignoresGlobal: raw.ignores_global === true,
    origin: text(raw.origin),
  };
}

const kindLabel = (kind) => KIND_LABELS[kind] || (kind === "any" ? "Any crawler"
  : kind.charAt(0).toUpperCase() + kind.slice(1).replace(/[-_]/g, " "));

/** The registry entry a verdict's crawler is: by the name given, else by its product token. */
function crawlerFor(verdict) {
  const agent = typeof verdict.agent === "string" ? verdict.agent.toLowerCase() : "";
  const token = typeof verdict.token === "string" ? verdict.token.toLowerCase() : "";
  return byName.get(agent) || (token ? byToken.get(token) : undefined) || null;
}

/** What a crawler's operator says that changes how to read a verdict for it, as plain sentences. */
function crawlerNotes(crawler) {
  if (!crawler) return [];
  const notes = [];
  if (crawler.obeys === "no") {
    notes.push({ kind: "disobeys", text: `${crawler.operator || "Its operator"} says ${crawler.name} does not obey robots.txt: this verdict is what the file asks, not what it does.` });
  }
  if (crawler.ignoresGlobal) {
    notes.push({ kind: "ignores-global", text: `${crawler.name} ignores the * group: only groups that name it apply.` });
  }
  return notes;
}

function chipTitle(crawler) {
  const lines = [[crawler.operator, crawler.purpose].filter(Boolean).join(": ")];
  if (crawler.token !== crawler.name) {
    lines.push(`Google reads this name as “${crawler.token}”: a group must name ${crawler.token} to apply to it.`);
  }
  if (crawler.obeys === "no") lines.push("Its operator says it does not obey robots.txt.");
  else if (crawler.obeys === "yes") lines.push("Its operator says it obeys robots.txt.");
  if (crawler.ignoresGlobal) lines.push("It ignores the * group: only groups that name it apply.");
  if (crawler.origin === "ai.robots.txt") lines.push("From the community list ai.robots.txt.");
  return lines.filter(Boolean).join("\n");
}

function chipFor(crawler, chosen) {
  const extra = [];
  if (crawler.token !== crawler.name) extra.push(el("span", { className: "chip-token" }, ` as ${crawler.token}`));
  if (crawler.obeys === "no") extra.push(el("span", { className: "chip-flag", dataset: { flag: "disobeys" } }, " does not obey"));
  if (crawler.ignoresGlobal) extra.push(el("span", { className: "chip-flag", dataset: { flag: "ignores-global" } }, " ignores *"));
  const words = [crawler.name, crawler.token, crawler.operator, crawler.purpose, kindLabel(crawler.kind)];
  return el("button", {
    type: "button", className: "chip", "aria-pressed": chosen.has(crawler.name.toLowerCase()) ? "true" : "false",
    title: chipTitle(crawler) || null,
    dataset: { agent: crawler.name, token: crawler.token, search: words.join(" ").toLowerCase() },
    tabindex: "-1", onclick: () => toggleAgent(crawler.name), onkeydown: chipKey,
    onfocus: (event) => setChipStop(event.currentTarget),
  }, crawler.name === "*" ? "* (all others)" : crawler.name, extra);
}

// The picker is one tab stop: the chip last focused (else the first shown) takes Tab; arrow keys,
// Home and End move between the chips shown.
let chipStop = ""; // lower-case name of the chip that takes the tab stop

const shownChips = () => [...els.chips.querySelectorAll(".chip")].filter((chip) => !chip.hidden && !chip.closest("[hidden]"));

function setChipStop(chip) {
  if (chip) chipStop = chip.dataset.agent.toLowerCase();
  const chips = shownChips();
  const stop = chips.find((c) => c.dataset.agent.toLowerCase() === chipStop) || chips[0] || null;
  for (const c of els.chips.querySelectorAll(".chip")) c.tabIndex = c === stop ? 0 : -1;
}

function chipKey(event) {
  const chips = shownChips();
  const index = chips.indexOf(event.currentTarget);
  const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[event.key];
  let next = null;
  if (step) next = chips[Math.min(chips.length - 1, Math.max(0, index + step))];
  else if (event.key === "Home") next = chips[0];
  else if (event.key === "End") next = chips[chips.length - 1];
  else return;
  event.preventDefault();
  if (!next) return;
  setChipStop(next);
  next.focus();
}

/** The picker: every crawler offered, grouped by what it crawls for, filtered by the search field. */
function renderChips() {
  const chosen = new Set(state.agents.map((a) => a.toLowerCase()));
  const offered = [{ ...crawlerOf({ token: "*", purpose: "any crawler that no group names" }), kind: "any" }];
  const names = new Set(["*"]);
  for (const crawler of [...known, ...state.agents.map((a) => crawlerOf({ token: a, kind: "other" }))]) {
    if (crawler && !names.has(crawler.name.toLowerCase())) {
      names.add(crawler.name.toLowerCase());
      offered.push(crawler);
    }
  }
  const groups = new Map();
  for (const crawler of offered) {
    if (!groups.has(crawler.kind)) groups.set(crawler.kind, []);
    groups.get(crawler.kind).push(crawler);
  }
  const rank = (kind) => (KIND_ORDER.includes(kind) ? KIND_ORDER.indexOf(kind) : KIND_ORDER.length - 1.5);
  const kinds = [...groups.keys()].sort((a, b) => rank(a) - rank(b));
  els.chips.replaceChildren(...kinds.map((kind) => {
    const id = "chips-" + kind.replace(/[^a-z0-9]+/gi, "-");
    return el("div", { className: "chip-group", role: "group", "aria-labelledby": id, dataset: { kind } },
      el("span", { className: "chip-heading", id }, kindLabel(kind)),
      el("div", { className: "chip-list" }, groups.get(kind).map((crawler) => chipFor(crawler, chosen))));
  }));
  filterChips();
  renderChosen();
}

/** Shows the chips whose name, token, operator, purpose or kind contain every word of the search. */
function filterChips() {
  const words = els.agentSearch.value.toLowerCase().split(/\s+/).filter(Boolean);
  let shown = 0;
  let total = 0;
  for (const group of els.chips.querySelectorAll(".chip-group")) {
    let any = false;
    for (const chip of group.querySelectorAll(".chip")) {
      const match = words.every((w) => chip.dataset.search.includes(w));
      chip.hidden = !match;
      any = any || match;
      total++;
      if (match) shown++;
    }
    group.hidden = !any;
  }
  els.agentCount.textContent = words.length
    ? (shown ? `${plural(shown, "crawler")} of ${total} match; Enter chooses the first.` : `No crawler of ${total} matches.`)
    : `${plural(total, "crawler")}, grouped by what they crawl for; arrow keys move between them.`;
  setChipStop(null);
}

/** The chosen crawlers as a short list, each with a button that removes it. */
function renderChosen() {
  els.agentChosen.replaceChildren(...(state.agents.length ? state.agents.map((agent) => el("li", {},
    el("button", { type: "button", className: "chosen-chip", dataset: { agent }, "aria-label": `Remove ${agent}`,
      onclick: () => toggleAgent(agent) }, agent === "*" ? "* (all others)" : agent, el("span", { "aria-hidden": "true" }, " ×"))))
    : [el("li", { className: "muted" }, "none: choose below, or type one further down")]));
}

function toggleAgent(name) {
  const lower = name.toLowerCase();
  const index = state.agents.findIndex((a) => a.toLowerCase() === lower);
  if (index >= 0) state.agents.splice(index, 1);
  else state.agents.push(name);
  for (const chip of els.chips.querySelectorAll(".chip")) {
    if (chip.dataset.agent.toLowerCase() === lower) chip.setAttribute("aria-pressed", index >= 0 ? "false" : "true");
  }
  renderChosen();
  changed();
}

async function loadAgents() {
  try {
    const data = await api("v1/agents");
    const list = Array.isArray(data) ? data : data.agents || data.crawlers || [];
    const seen = new Set();
    known = [];
    for (const raw of Array.isArray(list) ? list : []) {
      const crawler = crawlerOf(raw);
      if (crawler && !seen.has(crawler.name.toLowerCase())) {
        seen.add(crawler.name.toLowerCase());
        known.push(crawler);
      }
    }
    byName = new Map(known.map((c) => [c.name.toLowerCase(), c]));
    byToken = new Map(known.filter((c) => c.tokenValid && c.token === c.name).map((c) => [c.token.toLowerCase(), c]));
    clearStatus("agents");
  } catch (error) {
    setStatus(`The list of common crawlers could not be loaded: ${error.message}`, "error", "agents");
  }
  renderChips();
  renderEditNames();
  if (results.length) renderResults(urlList(), agentList()); // notes about the crawlers beside their verdicts
}

// ---------------------------------------------------------------------------------------------
// Testing the draft

const keyOf = (v) => `${v.url}\n${v.agent}`;

const runTest = latest(async (signal, body, urls, agents, mode, purpose) => {
  if (urls.length && agents.length) {
    const request = { robots: body, urls, agents, mode };
    if (purpose) request.purpose = purpose; // each verdict then answers "may it be used for this?"
    return api("v1/test", { method: "POST", body: request, signal });
  }
  const linted = await api("v1/lint", { method: "POST", body: { robots: body, mode }, signal });
  return { results: [], diagnostics: linted.diagnostics || [], diagnostics_omitted: linted.diagnostics_omitted };
});

async function testNow() {
  const urls = urlList();
  const agents = agentList();
  const outcome = await runTest(state.robots, urls, agents, state.mode, state.purpose);
  if (!outcome) return; // a newer test is under way
  if (outcome.error) {
    setStatus(`Testing failed: ${outcome.error.message}`, "error", "test");
    return;
  }
  clearStatus("test");
  results = outcome.value.results || [];
  diagnostics = outcome.value.diagnostics || [];
  diagnosticsOmitted = count(outcome.value.diagnostics_omitted);
  if (selected && !selectedVerdict()) selected = null;
  renderResults(urls, agents);
  renderFindings();
  renderEditor();
  updateCaret();
}

/** The group that applied: "*" (every crawler no group names), a crawler name, or none (null);
 * an older server that sends no group gets a dash. */
function groupCell(v) {
  if (!("group" in v)) return el("span", { className: "muted" }, "–");
  if (typeof v.group !== "string") return el("span", { className: "muted" }, "none");
  return el("code", {}, v.group === "*" ? "* (all others)" : v.group);
}

const groupWords = (v) => (!("group" in v) ? "" : typeof v.group === "string"
  ? `, group ${v.group === "*" ? "* (all others)" : v.group}` : ", no group applies");

function lineCell(v) {
  if (v.full) return el("span", { className: "muted" }, `the whole site is ${v.full === "allow" ? "allowed" : "disallowed"}`);
  if (!v.line) return el("span", { className: "muted" }, "no rule matches");
  return [el("span", { className: "line-no" }, `Line ${v.line}: `), el("code", {}, v.text ?? "")];
}

const categoryLabel = (category) => CATEGORY_LABELS[category] || category;
const categoryWord = (category) => CATEGORY_WORDS[category] || category;
const useWord = (value) => USE_WORDS[value === true ? "true" : value === false ? "false" : "null"];

/** A verdict's preference for `category` in plain words: allowed, disallowed, unknown, or not
 * applicable (the URL may not be crawled, so no preference applies to it). */
function preferenceWord(v, category) {
  if (!v.allowed) return "not applicable";
  const prefs = v.preferences && typeof v.preferences === "object" ? v.preferences : {};
  return useWord(prefs[category]);
}

/** The answer to the use asked about: "refused", "allowed", "unknown" or "not applicable". */
function useAnswer(v) {
  if (!v.allowed) return "not applicable";
  return v.use === true ? "allowed" : v.use === false ? "refused" : "unknown";
}

function usageCell(v) {
  const parts = [];
  if (typeof v.purpose === "string") {
    const answer = useAnswer(v);
    parts.push(el("p", { className: "use", dataset: { use: answer } },
      el("span", { className: "badge use-" + answer.replace(" ", "-") }, answer),
      ` for ${categoryWord(v.purpose)}`));
  }
  if (!v.allowed) {
    parts.push(el("p", { className: "muted prefs-na" }, "Not applicable: this URL may not be crawled."));
    return parts;
  }
  parts.push(el("ul", { className: "prefs" }, CATEGORIES.map((category) => {
    const word = preferenceWord(v, category);
    return el("li", { className: "pref-" + word.replace(" ", "-"), dataset: { category, value: word }, title: CATEGORY_ABOUT[category] },
      `${categoryLabel(category)}: `, el("strong", {}, word));
  })));
  return parts;
}

function verdictCell(v) {
  const notes = crawlerNotes(crawlerFor(v));
  if (v.ignored_global === true && !notes.some((note) => note.kind === "ignores-global")) {
    notes.push({ kind: "ignores-global", text: `${v.token || v.agent} ignores the * group: only groups that name it apply.` });
  }
  return [el("span", { className: "badge " + (v.allowed ? "allow" : "disallow") }, v.allowed ? "Allowed" : "Disallowed"),
    notes.map((note) => el("p", { className: "crawler-note", dataset: { note: note.kind } }, note.text))];
}

function renderResults(urls, agents) {
  const allowed = results.filter((v) => v.allowed).length;
  if (!urls.length || !agents.length) {
    els.resultsSummary.textContent = !urls.length ? "Enter at least one URL to test." : "Choose at least one crawler.";
  } else {
    els.resultsSummary.textContent = `${plural(results.length, "verdict")}: ${allowed} allowed, ${results.length - allowed} disallowed.`;
  }
  const asked = results.filter((v) => typeof v.purpose === "string");
  if (asked.length) {
    const count = (answer) => asked.filter((v) => useAnswer(v) === answer).length;
    const refused = count("refused");
    els.purposeSummary.textContent = `May the content be used for ${categoryWord(asked[0].purpose)}? `
      + `${refused} refused, ${count("allowed")} allowed, ${count("unknown")} unknown, `
      + `${count("not applicable")} not applicable (the URL may not be crawled).`;
    els.purposeSummary.dataset.refused = String(refused);
  } else {
    els.purposeSummary.textContent = "";
    delete els.purposeSummary.dataset.refused;
  }
  els.resultsBody.replaceChildren(...results.map((v) => {
    const key = keyOf(v);
    const crawler = [el("span", { className: "agent" }, v.agent)];
    if (v.token && v.token !== v.agent) crawler.push(el("span", { className: "token" }, ` matched as ${v.token}`));
    const answer = typeof v.purpose === "string" ? `; ${categoryWord(v.purpose)} ${useAnswer(v)}` : "";
    const label = `${v.url} for ${v.agent}: ${v.allowed ? "allowed" : "disallowed"}${v.line ? `, line ${v.line}` : ""}${answer}`;
    const dataset = { url: v.url, agent: v.agent, token: v.token, allowed: String(v.allowed), line: String(v.line || 0) };
    if (typeof v.purpose === "string") dataset.use = useAnswer(v);
    if ("group" in v) dataset.group = typeof v.group === "string" ? v.group : "";
    return el("tr", {
      role: "row", tabindex: "0", className: key === selected ? "selected" : null, "aria-current": key === selected ? "true" : null,
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

function rowKey(event, key) {
  const row = event.currentTarget;
  if (event.key === "Enter" || event.key === " ") {
    event.preventDefault();
    select(key);
  } else if (event.key === "ArrowDown" || event.key === "ArrowUp") {
    event.preventDefault();
    const next = event.key === "ArrowDown" ? row.nextElementSibling : row.previousElementSibling;
    if (next) next.focus();
  }
}

function select(key) {
  selected = key;
  for (const row of els.resultsBody.rows) {
    const on = keyOf({ url: row.dataset.url, agent: row.dataset.agent }) === key;
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
    if (box && (box.top < 0 || box.bottom > window.innerHeight)) $("editor").scrollIntoView({ block: "nearest" });
  }
  renderWhy();
}

/** The AI-use preferences of a verdict as one sentence, naming the lines that state them. */
function usageSentence(v) {
  if (!v.allowed) return "AI use: not applicable, because the URL may not be crawled.";
  const words = CATEGORIES.map((category) => `${categoryWord(category)} ${preferenceWord(v, category)}`);
  const lines = Array.isArray(v.preference_lines) ? v.preference_lines : [];
  const where = lines.length ? ` (${lines.length === 1 ? "line" : "lines"} ${lines.join(", ")})` : " (no line states a preference)";
  return `AI use: ${words.join(", ")}${where}.`;
}

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

// ---------------------------------------------------------------------------------------------
// The live file

function liveDetails(data) {
  const rows = [["robots.txt", data.robots_url]];
  rows.push(["Status", data.status ? String(data.status) : "no answer"]);
  if (data.reason) rows.push(["Reason", data.reason]);
  const used = { rules: "its rules apply", allow: "everything is allowed", disallow: "everything is disallowed" }[data.kind];
  if (used) rows.push(["Meaning", used]);
  if (data.redirects) rows.push(["Redirects", `${data.redirects}, ending at ${data.final_url || "?"}`]);
  if (data.cache) {
    const how = { hit: "from the cache", miss: "fetched just now", shared: "fetched just now by another request" }[data.cache] || data.cache;
    rows.push(["Copy", `${how}${typeof data.age === "number" ? `, ${Math.round(data.age)} s old` : ""}`]);
  }
  if (data.fetched_at) rows.push(["Fetched", new Date(data.fetched_at * 1000).toLocaleString()]);
  if (data.expires_at) rows.push(["Fresh until", new Date(data.expires_at * 1000).toLocaleString()]);
  if (typeof data.size === "number") rows.push(["Size", plural(data.size, "byte")]);
  if (data.failures) rows.push(["Failed refreshes", String(data.failures)]);
  if (Array.isArray(data.sitemaps) && data.sitemaps.length) rows.push(["Sitemaps", data.sitemaps.join("\n")]);
  return rows.flatMap(([name, value]) => [el("dt", {}, name), el("dd", { dataset: { field: name } }, value)]);
}

const runLive = latest((signal, url) => api(`v1/robots?url=${encodeURIComponent(url)}`, { signal }));

/** Fetches the live robots.txt of `url`'s site; loads it into the editor when `load` is true. */
async function fetchLiveNow(url, { load }) {
  url = url.trim();
  if (!url) {
    setStatus("Enter a site URL to fetch its robots.txt.", "error", "live");
    return;
  }
  if (!/^[a-z][a-z0-9+.-]*:/i.test(url)) url = "https://" + url;
  els.liveUrl.value = url;
  state.live = url;
  saveHashSoon();
  setStatus(`Fetching the robots.txt of ${url} ...`, "busy", "live");
  els.liveFetch.disabled = true;
  const outcome = await runLive(url);
  if (!outcome) return;
  els.liveFetch.disabled = false;
  if (outcome.error) {
    live = null; // whatever was fetched before is not this site's file: compare with nothing
    liveBody = null;
    els.liveState.hidden = true;
    renderOrigin();
    changed({ now: true });
    setStatus(`Could not fetch the live file: ${outcome.error.message}`, "error", "live");
    return;
  }
  const data = outcome.value;
  live = data;
  liveBody = data.kind === "rules" && typeof data.body === "string" ? normalize(data.body) : null;
  els.liveState.hidden = false;
  els.liveSummary.textContent = data.summary || "";
  els.liveDetails.replaceChildren(...liveDetails(data));
  els.liveActions.hidden = liveBody === null;
  if (liveBody !== null && load) setDraft(liveBody);
  if (liveBody === null) {
    setStatus(`The live file gives no rules to edit: ${data.summary || data.reason || data.kind}.`, "info", "live");
  } else {
    setStatus(load ? `Loaded the live file of ${data.robots_url}.` : `Fetched the live file of ${data.robots_url} to compare with.`,
      "info", "live");
  }
  renderOrigin();
  changed({ now: true });
}

// ---------------------------------------------------------------------------------------------
// Comparing the draft with the live file

const runDiff = latest((signal, old, draft, urls, mode) =>
  api("v1/diff", { method: "POST", body: { old, new: draft, urls, agents: [], mode }, signal }));

async function compareNow() {
  if (liveBody === null) {
    els.diffSection.hidden = true;
    clearStatus("diff");
    return;
  }
  els.diffSection.hidden = false;
  renderLineDiff(liveBody, state.robots);
  const outcome = await runDiff(liveBody, state.robots, urlList(), state.mode);
  if (!outcome) return;
  if (outcome.error) {
    setStatus(`Comparing with the live file failed: ${outcome.error.message}`, "error", "diff");
    return;
  }
  clearStatus("diff");
  renderDiff(outcome.value);
}

const verdictWord = (allowed) => (allowed ? "Allowed" : "Disallowed");

function sideCell(allowed, line, rule) {
  return [el("span", { className: "badge " + (allowed ? "allow" : "disallow") }, verdictWord(allowed)),
    line ? [" ", el("span", { className: "line-no" }, `line ${line}`), rule ? [": ", el("code", {}, rule)] : null]
      : el("span", { className: "muted" }, " no rule matches")];
}

function lineButton(line) {
  if (!line) return el("span", { className: "muted" }, "none");
  return el("button", { type: "button", className: "link", onclick: () => goToLine(line), "aria-label": `Go to draft line ${line}` }, String(line));
}

/** A count the service sent (a non-negative whole number), else 0. */
function count(value) {
  return Number.isInteger(value) && value > 0 ? value : 0;
}

/** " The first N are listed." when the service listed fewer than it found. */
function listedOnly(listed, found) {
  return found > listed ? ` The first ${listed.toLocaleString("en")} are listed.` : "";
}

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
  const agentName = (a) => (a === "*" ? "* (all others)" : a);
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
  els.diffVerdicts.replaceChildren(...verdicts.map((v) => el("tr", {
    role: "row", dataset: { url: v.url, agent: v.agent, oldAllowed: String(v.old_allowed), newAllowed: String(v.new_allowed) },
  },
  cell("URL", { className: "url" }, urlText(v.url)),
  cell("Crawler", {}, agentName(v.agent)),
  cell("Live file", {}, sideCell(v.old_allowed, v.old_line, v.old_rule)),
  cell("Draft", {}, sideCell(v.new_allowed, v.new_line, v.new_rule)))));
  const other = [];
  for (const d of delays) {
    const show = (x) => (x === null || x === undefined ? "none" : `${x} s`);
    other.push(el("li", {}, `Crawl delay for ${agentName(d.agent)}: ${show(d.old)} → ${show(d.new)}`));
  }
  for (const url of added) other.push(el("li", {}, "Sitemap added: ", el("code", {}, url)));
  for (const url of removed) other.push(el("li", {}, "Sitemap removed: ", el("code", {}, url)));
  els.diffOther.replaceChildren(...other);
}

/** The lines of `a` and `b` as same/del/add operations (smallest when the changed block is small enough). */
function lineOps(a, b) {
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
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

function renderLineDiff(old, draft) {
  els.lineDiff.replaceChildren(...lineDiffNodes(old, draft, "live", "draft"));
}

/** The line diff of `old` and `draft` as nodes: changed lines with a few around them, columns headed `left`, `right`. */
function lineDiffNodes(old, draft, left, right) {
  if (old === draft) return [el("p", { className: "muted" }, "No line differs.")];
  const ops = lineOps(old.split("\n"), draft.split("\n"));
  const near = new Uint8Array(ops.length);
  ops.forEach((o, index) => {
    if (o.op === "same") return;
    for (let k = Math.max(0, index - CONTEXT_LINES); k <= Math.min(ops.length - 1, index + CONTEXT_LINES); k++) near[k] = 1;
  });
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
    const sign = { same: " ", del: "−", add: "+" }[o.op];
    const label = { same: "", del: "removed: ", add: "added: " }[o.op];
    rows.push(el("div", { className: "dl " + o.op, dataset: { op: o.op } },
      el("span", { className: "ln" }, o.a ? String(o.a) : ""),
      el("span", { className: "ln" }, o.b ? String(o.b) : ""),
      el("span", { className: "sign", "aria-hidden": "true" }, sign),
      el("span", { className: "visually-hidden" }, label),
      el("span", { className: "text" }, o.text || " ")));
  });
  flush();
  if (hidden) rows.push(el("div", { className: "dl skip" }, `⋯ ${plural(hidden, "more changed or nearby line")} not shown`));
  return [el("div", { className: "dl head", "aria-hidden": "true" },
    el("span", { className: "ln" }, left), el("span", { className: "ln" }, right), el("span", {}, "")), ...rows];
}

// ---------------------------------------------------------------------------------------------
// Editing safely: /v1/edit blocks or allows crawlers and sets an AI-use preference, nothing else

const EDIT_PURPOSES = ["ai-training", "ai-search", "ai-assistant", "search", "archive", "seo", "other"];
const nameList = (text) => text.split(/[,\s]+/).map((n) => n.trim()).filter(Boolean);
let editPreview = null; // { from: the draft previewed, robots: the edited text } while "Apply" may apply it

function renderEditChoices() {
  els.editPurposes.replaceChildren(els.editPurposes.querySelector("legend"), ...EDIT_PURPOSES.map((kind) =>
    el("label", { className: "check" }, el("input", { type: "checkbox", value: kind, name: "edit-purpose" }), " ", KIND_LABELS[kind])));
}

function renderEditNames() {
  els.editNames.replaceChildren(...known.map((c) => el("option", { value: c.name })));
}

function setEditSummary(message, kind = "info") {
  els.editSummary.textContent = message;
  els.editSummary.dataset.kind = kind;
}

const runEdit = latest((signal, body) => api("v1/edit", { method: "POST", body, signal }));

async function previewEditNow() {
  const purposes = [...els.editPurposes.querySelectorAll("input:checked")].map((box) => box.value);
  const body = {
    robots: state.robots, block: nameList(els.editBlock.value), block_purpose: purposes,
    allow: nameList(els.editAllow.value), usage: els.editUsage.value.trim() || null, mode: state.mode,
  };
  editPreview = null;
  els.editResult.hidden = false;
  els.editChanges.hidden = true;
  els.editNotes.replaceChildren();
  if (!body.block.length && !body.allow.length && !purposes.length && body.usage === null) {
    setEditSummary("Choose crawlers to block or allow, a purpose, or an AI-use preference first.", "error");
    return;
  }
  setEditSummary("Working out the edit…", "busy");
  const outcome = await runEdit(body);
  if (!outcome) return;
  if (outcome.error) {
    setEditSummary(`The edit was not made: ${outcome.error.message}`, "error");
    return;
  }
  const data = outcome.value;
  els.editNotes.replaceChildren(...(data.notes || []).map((note) => el("li", {}, note)));
  if (!data.changed) {
    setEditSummary("The draft already says this: there is nothing to change.");
    return;
  }
  const verdicts = Array.isArray(data.diff && data.diff.verdicts) ? data.diff.verdicts : [];
  const verdictCount = verdicts.length + count(data.diff && data.diff.verdicts_omitted);
  const parts = [];
  const some = (list) => (list.length <= 6 ? list.join(", ")
    : `${list.length} crawlers (${list.slice(0, 5).join(", ")} and ${list.length - 5} more)`);
  if (data.blocked && data.blocked.length) parts.push(`blocks ${some(data.blocked)}`);
  if (data.allowed && data.allowed.length) parts.push(`allows ${some(data.allowed)}`);
  if (body.usage !== null) parts.push(`states ${body.usage}`);
  setEditSummary(`The edit ${parts.join(" and ") || "changes the draft"}; ${plural(verdictCount, "verdict")} change. `
    + "Nothing else in the draft changes. Apply it to put it in the editor." + listedOnly(verdicts.length, verdictCount));
  editPreview = { from: body.robots, robots: data.robots };
  els.editLines.replaceChildren(...lineDiffNodes(body.robots, data.robots, "now", "new"));
  els.editVerdictsWrap.hidden = !verdicts.length;
  const agentName = (a) => (a === "*" ? "* (all others)" : a);
  els.editVerdicts.replaceChildren(...verdicts.map((v) => el("tr", {
    role: "row", dataset: { url: v.url, agent: v.agent, oldAllowed: String(v.old_allowed), newAllowed: String(v.new_allowed) },
  },
  cell("URL", { className: "url" }, urlText(v.url)),
  cell("Crawler", {}, agentName(v.agent)),
  cell("Now", {}, sideCell(v.old_allowed, v.old_line, v.old_rule)),
  cell("After the edit", {}, sideCell(v.new_allowed, v.new_line, v.new_rule)))));
  els.editChanges.hidden = false;
}

function applyEdit() {
  if (!editPreview) return;
  if (editPreview.from !== state.robots) {
    editPreview = null;
    els.editChanges.hidden = true;
    setEditSummary("The draft changed after the preview: preview the edit again.", "error");
    els.editForm.querySelector("button[type=submit]").focus();
    return;
  }
  setDraft(editPreview.robots);
  editPreview = null;
  els.editChanges.hidden = true;
  setEditSummary("The edit is now in the draft, and the draft is tested again.");
  els.editForm.querySelector("button[type=submit]").focus();
  changed({ now: true });
}

// ---------------------------------------------------------------------------------------------
// Share links: the state in the address's fragment

function toBase64Url(bytes) {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64Url(text) {
  const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

async function pipe(bytes, transform) {
  const stream = new Blob([bytes]).stream().pipeThrough(transform);
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** The fragment for `value`: "state=z.<deflate, base64url>" when that is shorter, else "state=b.<UTF-8, base64url>". */
async function encodeState(value) {
  const bytes = new TextEncoder().encode(JSON.stringify(value));
  if (bytes.length > COMPRESS_OVER && typeof CompressionStream === "function") {
    try {
      const packed = await pipe(bytes, new CompressionStream("deflate"));
      if (packed.length < bytes.length) return "state=z." + toBase64Url(packed);
    } catch {
      // fall back to the plain form
    }
  }
  return "state=b." + toBase64Url(bytes);
}

/** The state in a fragment made by encodeState; an Error with a plain message when it cannot be read. */
async function decodeState(fragment) {
  const match = /^#?state=([bz])\.([A-Za-z0-9_-]*)$/.exec(fragment);
  if (!match) throw new Error("it is not a link made by this page");
  if (match[1] === "z" && typeof DecompressionStream !== "function") {
    throw new Error("this browser cannot read compressed links");
  }
  let value;
  try {
    let bytes = fromBase64Url(match[2]);
    if (match[1] === "z") bytes = await pipe(bytes, new DecompressionStream("deflate"));
    value = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  } catch {
    throw new Error("it may have been cut short or changed");
  }
  if (!value || typeof value !== "object" || Array.isArray(value)) throw new Error("it holds no saved state");
  return value;
}

function snapshot() {
  const saved = { v: 1, robots: state.robots, agents: state.agents, ua: state.ua, urls: state.urls, live: state.live, mode: state.mode };
  if (state.purpose) saved.purpose = state.purpose;
  return saved;
}

/** Applies a decoded state, keeping the defaults for anything missing or of the wrong type. */
function restore(value) {
  const text = (x, fallback) => (typeof x === "string" ? x : fallback);
  state.robots = text(value.robots, "");
  state.agents = Array.isArray(value.agents) ? value.agents.filter((a) => typeof a === "string" && a) : [];
  state.ua = text(value.ua, "");
  state.urls = text(value.urls, "");
  state.live = text(value.live, "");
  state.mode = ["google", "rfc9309", "legacy1994"].includes(value.mode) ? value.mode : "google";
  state.purpose = CATEGORIES.includes(value.purpose) ? value.purpose : "";
}

let hashTimer = 0;
let hashSeq = 0;
let hashPending = false;
let lastHash = "";
function saveHashSoon() {
  clearTimeout(hashTimer);
  hashSeq++; // a write under way is now out of date
  hashPending = true;
  markIdle();
  hashTimer = setTimeout(saveHash, HASH_DEBOUNCE_MS);
}

/** Writes the state into the address (without a new history entry) and the share link field. */
async function saveHash() {
  clearTimeout(hashTimer);
  const mine = ++hashSeq;
  hashPending = true;
  const fragment = await encodeState(snapshot());
  if (mine !== hashSeq) return;
  lastHash = "#" + fragment;
  if (location.hash !== lastHash) history.replaceState(null, "", lastHash);
  els.shareLink.value = location.href;
  hashPending = false;
  markIdle();
}

async function copyLink() {
  await saveHash();
  const link = location.href;
  try {
    await navigator.clipboard.writeText(link);
    setStatus("Link copied. Anyone who opens it sees this draft, these crawlers and URLs.", "info", "share");
  } catch {
    els.shareLink.focus();
    els.shareLink.select();
    setStatus("Copy the selected link (the browser did not allow copying it directly).", "info", "share");
  }
}

// ---------------------------------------------------------------------------------------------
// Wiring

// <html data-idle="true"> when no re-test is waiting and no request is under way (scripts wait on it).
let busy = 0;
let armed = false;
function markIdle() {
  document.documentElement.dataset.idle = String(busy === 0 && !armed && !hashPending);
}
async function tracked(work) {
  busy++;
  markIdle();
  try {
    return await work();
  } finally {
    busy--;
    markIdle();
  }
}
const test = () => tracked(testNow);
const compare = () => tracked(compareNow);
const fetchLive = (url, options) => tracked(() => fetchLiveNow(url, options));

let testTimer = 0;
/** Something changed: re-test and compare after a short pause (`now`: at once), and update the link. */
function changed({ now = false } = {}) {
  clearTimeout(testTimer);
  const run = () => {
    armed = false;
    test();
    compare();
  };
  if (now) {
    run();
  } else {
    armed = true;
    markIdle();
    testTimer = setTimeout(run, DEBOUNCE_MS);
  }
  saveHashSoon();
}

function applyStateToInputs() {
  els.robots.value = state.robots;
  state.robots = els.robots.value;
  els.ua.value = state.ua;
  els.urls.value = state.urls;
  els.liveUrl.value = state.live;
  els.mode.value = state.mode;
  els.purpose.value = state.purpose;
  selected = null;
  renderChips();
  renderEditor();
  renderOrigin();
}

async function loadFromHash({ initial }) {
  if (!location.hash || location.hash === "#") {
    if (!initial) return;
  } else {
    try {
      restore(await decodeState(location.hash));
      clearStatus("share");
    } catch (error) {
      setStatus(`The link's saved state could not be read (${error.message}); showing an example instead.`, "error", "share");
      restore(EXAMPLE);
    }
  }
  live = null;
  liveBody = null;
  els.liveState.hidden = true;
  applyStateToInputs();
  changed({ now: true });
  if (state.live) fetchLive(state.live, { load: false });
}

function wire() {
  els.robots.addEventListener("input", () => {
    state.robots = els.robots.value;
    renderEditor();
    updateCaret();
    renderOrigin();
    changed();
  });
  els.robots.addEventListener("scroll", onScroll, { passive: true });
  for (const type of ["keyup", "click", "focus", "select", "blur"]) els.robots.addEventListener(type, updateCaret);
  els.urls.addEventListener("input", () => {
    state.urls = els.urls.value;
    changed();
  });
  els.ua.addEventListener("input", () => {
    state.ua = els.ua.value;
    changed();
  });
  els.mode.addEventListener("change", () => {
    state.mode = els.mode.value;
    changed({ now: true });
  });
  els.purpose.addEventListener("change", () => {
    state.purpose = CATEGORIES.includes(els.purpose.value) ? els.purpose.value : "";
    changed({ now: true });
  });
  els.agentSearch.addEventListener("input", filterChips);
  els.agentSearch.addEventListener("keydown", (event) => {
    if (event.key === "Enter") {
      event.preventDefault();
      const first = [...els.chips.querySelectorAll(".chip")].find((chip) => !chip.hidden);
      if (first && first.getAttribute("aria-pressed") !== "true") toggleAgent(first.dataset.agent);
    } else if (event.key === "Escape" && els.agentSearch.value) {
      els.agentSearch.value = "";
      filterChips();
    }
  });
  els.liveForm.addEventListener("submit", (event) => {
    event.preventDefault();
    fetchLive(els.liveUrl.value, { load: true });
  });
  els.liveLoad.addEventListener("click", () => {
    if (liveBody === null) return;
    setDraft(liveBody);
    changed({ now: true });
  });
  els.copyLink.addEventListener("click", copyLink);
  els.draftDownload.addEventListener("click", downloadDraft);
  els.draftCopy.addEventListener("click", copyDraft);
  els.shareLink.addEventListener("focus", () => els.shareLink.select());
  renderEditChoices();
  els.editForm.addEventListener("submit", (event) => {
    event.preventDefault();
    tracked(previewEditNow);
  });
  els.editApply.addEventListener("click", applyEdit);
  window.addEventListener("hashchange", () => {
    if (location.hash !== lastHash) loadFromHash({ initial: false });
  });
  new ResizeObserver(onScroll).observe(els.robots);
}

wire();
tracked(loadAgents);
loadFromHash({ initial: true }).then(() => saveHash());
