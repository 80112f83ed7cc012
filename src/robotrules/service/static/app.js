// The robots.txt tester page: a plain ES module, no build step, no requests but to its own server.
//
// State (draft, crawlers, URLs, live site URL, mode) lives in `state` and in the address's
// fragment (#state=...), so a link restores it. Every change re-tests after a short pause; a newer
// request aborts the one still under way, and answers to older requests are ignored.

const DEBOUNCE_MS = 180; // re-test this long after the last keystroke
const HASH_DEBOUNCE_MS = 300; // rewrite the share link this long after the last change
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
};

const KIND_LABELS = {
  search: "Search engines", "ai-training": "AI training", "ai-search": "AI search", "ai-assistant": "AI assistants",
  ai: "AI crawlers", archive: "Web archives", seo: "SEO tools", other: "Other crawlers",
};
const KIND_ORDER = Object.keys(KIND_LABELS);

const $ = (id) => document.getElementById(id);
const els = {
  status: $("status"), shareLink: $("share-link"), copyLink: $("copy-link"),
  liveForm: $("live-form"), liveUrl: $("live-url"), liveFetch: $("live-fetch"), liveState: $("live-state"),
  liveSummary: $("live-summary"), liveDetails: $("live-details"), liveActions: $("live-actions"), liveLoad: $("live-load"),
  mode: $("mode"), draftOrigin: $("draft-origin"), robots: $("robots"), backdrop: $("backdrop"),
  gutter: $("gutter-inner"), caretInfo: $("caret-info"), caretFindings: $("caret-findings"), findings: $("findings"), findingsSummary: $("findings-summary"),
  chips: $("agent-chips"), ua: $("ua"), uaToken: $("ua-token"), urls: $("urls"),
  resultsSummary: $("results-summary"), resultsBody: $("results-body"), why: $("why"),
  diffSection: $("diff-section"), diffSummary: $("diff-summary"), diffRulesWrap: $("diff-rules-wrap"),
  diffRules: document.querySelector("#diff-rules tbody"), diffVerdictsWrap: $("diff-verdicts-wrap"),
  diffVerdicts: document.querySelector("#diff-verdicts tbody"), diffOther: $("diff-other"), lineDiff: $("line-diff"),
};

const state = { ...EXAMPLE, agents: [...EXAMPLE.agents] };
let known = []; // crawlers offered by the server: {token, operator, purpose, kind}
let live = null; // the last /v1/robots answer
let liveBody = null; // the live file's text when it gives rules, else null
let results = []; // verdicts of the last test
let diagnostics = []; // lint findings of the last test
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

function findingsByLine() {
  const map = new Map();
  for (const d of diagnostics) {
    if (!d.line) continue;
    if (!map.has(d.line)) map.set(d.line, []);
    map.get(d.line).push(d);
  }
  return map;
}

const SEVERITY_ORDER = { error: 0, warning: 1, info: 2 };
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

function renderEditor() {
  const lines = els.robots.value.split("\n");
  const byLine = findingsByLine();
  const verdict = selectedVerdict();
  const decide = verdict && verdict.line ? verdict.line : 0;
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
    if (found) {
      const first = found[0];
      const more = found.length > 1 ? ` (and ${plural(found.length - 1, "more finding")})` : "";
      row.append(el("span", { className: "msg sev-" + first.severity }, `${severityWord(first.severity)}: ${first.message}${more}`));
    }
    if (n === decide) {
      row.append(el("span", { className: "msg verdict" }, `decides: ${verdict.allowed ? "allowed" : "disallowed"} for ${verdict.token || verdict.agent}`));
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
  const text = found.map((d) => `${severityWord(d.severity)}: ${d.message}`).join(" ");
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
    : "No problems found.";
  els.findings.replaceChildren(...diagnostics.map((d) => {
    const where = d.line ? `Line ${d.line}${d.column ? `, column ${d.column}` : ""}` : "Whole file";
    const label = `${where}: ${severityWord(d.severity)}: ${d.message}`;
    const content = [el("span", { className: "badge sev-" + d.severity }, severityWord(d.severity)), " ",
      el("span", { className: "where" }, where), " ", d.message, " ", el("code", { className: "code-name" }, d.code)];
    const item = d.line
      ? el("button", { type: "button", className: "link", "aria-label": label, onclick: () => goToLine(d.line, d.column) }, content)
      : el("span", {}, content);
    return el("li", { className: "finding", dataset: { line: d.line, severity: d.severity, code: d.code } }, item);
  }));
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

function renderChips() {
  const chosen = new Set(state.agents.map((a) => a.toLowerCase()));
  const offered = [...known];
  const tokens = new Set(offered.map((a) => a.token.toLowerCase()));
  if (!tokens.has("*")) {
    offered.push({ token: "*", operator: "", purpose: "any crawler that no group names", kind: "other" });
    tokens.add("*");
  }
  for (const agent of state.agents) {
    if (!tokens.has(agent.toLowerCase())) {
      offered.push({ token: agent, operator: "", purpose: "", kind: "other" });
      tokens.add(agent.toLowerCase());
    }
  }
  const groups = new Map();
  for (const agent of offered) {
    const kind = agent.kind || "other";
    if (!groups.has(kind)) groups.set(kind, []);
    groups.get(kind).push(agent);
  }
  const rank = (kind) => (KIND_ORDER.includes(kind) ? KIND_ORDER.indexOf(kind) : KIND_ORDER.length - 1.5);
  const kinds = [...groups.keys()].sort((a, b) => rank(a) - rank(b));
  els.chips.replaceChildren(...kinds.map((kind) => {
    const heading = KIND_LABELS[kind] || kind.charAt(0).toUpperCase() + kind.slice(1).replace(/[-_]/g, " ");
    const id = "chips-" + kind.replace(/[^a-z0-9]+/gi, "-");
    return el("div", { className: "chip-group", role: "group", "aria-labelledby": id },
      el("span", { className: "chip-heading", id }, heading),
      groups.get(kind).map((agent) => {
        const about = [agent.operator, agent.purpose].filter(Boolean).join(": ");
        return el("button", {
          type: "button", className: "chip", "aria-pressed": chosen.has(agent.token.toLowerCase()) ? "true" : "false",
          title: about || null, dataset: { token: agent.token }, onclick: () => toggleAgent(agent.token),
        }, agent.token === "*" ? "* (all others)" : agent.token);
      }));
  }));
}

function toggleAgent(token) {
  const lower = token.toLowerCase();
  const index = state.agents.findIndex((a) => a.toLowerCase() === lower);
  if (index >= 0) state.agents.splice(index, 1);
  else state.agents.push(token);
  for (const chip of els.chips.querySelectorAll(".chip")) {
    if (chip.dataset.token.toLowerCase() === lower) chip.setAttribute("aria-pressed", index >= 0 ? "false" : "true");
  }
  changed();
}

async function loadAgents() {
  try {
    const data = await api("v1/agents");
    const list = Array.isArray(data) ? data : data.agents || data.crawlers || [];
    known = list.filter((a) => a && typeof a.token === "string");
    clearStatus("agents");
  } catch (error) {
    setStatus(`The list of common crawlers could not be loaded: ${error.message}`, "error", "agents");
  }
  renderChips();
}

// ---------------------------------------------------------------------------------------------
// Testing the draft

const keyOf = (v) => `${v.url}\n${v.agent}`;

const runTest = latest(async (signal, body, urls, agents, mode) => {
  if (urls.length && agents.length) {
    return api("v1/test", { method: "POST", body: { robots: body, urls, agents, mode }, signal });
  }
  const linted = await api("v1/lint", { method: "POST", body: { robots: body, mode }, signal });
  return { results: [], diagnostics: linted.diagnostics || [] };
});

async function testNow() {
  const urls = urlList();
  const agents = agentList();
  const outcome = await runTest(state.robots, urls, agents, state.mode);
  if (!outcome) return; // a newer test is under way
  if (outcome.error) {
    setStatus(`Testing failed: ${outcome.error.message}`, "error", "test");
    return;
  }
  clearStatus("test");
  results = outcome.value.results || [];
  diagnostics = outcome.value.diagnostics || [];
  if (selected && !selectedVerdict()) selected = null;
  renderResults(urls, agents);
  renderFindings();
  renderEditor();
  updateCaret();
}

function lineCell(v) {
  if (v.full) return el("span", { className: "muted" }, `the whole site is ${v.full === "allow" ? "allowed" : "disallowed"}`);
  if (!v.line) return el("span", { className: "muted" }, "no rule matches");
  return [el("span", { className: "line-no" }, `Line ${v.line}: `), el("code", {}, v.text ?? "")];
}

function renderResults(urls, agents) {
  const allowed = results.filter((v) => v.allowed).length;
  if (!urls.length || !agents.length) {
    els.resultsSummary.textContent = !urls.length ? "Enter at least one URL to test." : "Choose at least one crawler.";
  } else {
    els.resultsSummary.textContent = `${plural(results.length, "verdict")}: ${allowed} allowed, ${results.length - allowed} disallowed.`;
  }
  els.resultsBody.replaceChildren(...results.map((v) => {
    const key = keyOf(v);
    const crawler = [el("span", { className: "agent" }, v.agent)];
    if (v.token && v.token !== v.agent) crawler.push(el("span", { className: "token" }, ` matched as ${v.token}`));
    const label = `${v.url} for ${v.agent}: ${v.allowed ? "allowed" : "disallowed"}${v.line ? `, line ${v.line}` : ""}`;
    return el("tr", {
      tabindex: "0", className: key === selected ? "selected" : null, "aria-current": key === selected ? "true" : null,
      "aria-label": label,
      dataset: { url: v.url, agent: v.agent, token: v.token, allowed: String(v.allowed), line: String(v.line || 0) },
      onclick: () => select(key), onkeydown: (event) => rowKey(event, key),
    },
    el("td", { className: "url" }, v.url),
    el("td", {}, crawler),
    el("td", {}, el("span", { className: "badge " + (v.allowed ? "allow" : "disallow") }, v.allowed ? "Allowed" : "Disallowed")),
    el("td", { className: "deciding" }, lineCell(v)));
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

function renderWhy() {
  const verdict = selectedVerdict();
  els.why.hidden = !verdict;
  els.why.textContent = verdict ? `Why: ${verdict.explanation}` : "";
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

function renderDiff(data) {
  const rules = Array.isArray(data.rules) ? data.rules : [];
  const verdicts = Array.isArray(data.verdicts) ? data.verdicts : [];
  const delays = Array.isArray(data.crawl_delays) ? data.crawl_delays : [];
  const added = Array.isArray(data.sitemaps_added) ? data.sitemaps_added : [];
  const removed = Array.isArray(data.sitemaps_removed) ? data.sitemaps_removed : [];
  const any = rules.length || verdicts.length || delays.length || added.length || removed.length;
  els.diffSummary.textContent = any
    ? `For crawlers, the draft changes ${plural(rules.length, "rule")} and ${plural(verdicts.length, "verdict")} compared with the live file.`
    : "For crawlers, the draft reads the same as the live file.";
  const agentName = (a) => (a === "*" ? "* (all others)" : a);
  els.diffRulesWrap.hidden = !rules.length;
  els.diffRules.replaceChildren(...rules.map((r) => {
    const kind = r.change === "changed" ? `${r.kind === "allow" ? "disallow" : "allow"} → ${r.kind}` : r.kind;
    return el("tr", { dataset: { change: r.change, agent: r.agent, kind: r.kind, value: r.value } },
      el("td", {}, el("span", { className: "badge change-" + r.change }, r.change)),
      el("td", {}, agentName(r.agent)),
      el("td", {}, el("code", {}, `${kind}: ${r.value}`)),
      el("td", {}, r.old_line ? String(r.old_line) : el("span", { className: "muted" }, "none")),
      el("td", {}, lineButton(r.new_line)));
  }));
  els.diffVerdictsWrap.hidden = !verdicts.length;
  els.diffVerdicts.replaceChildren(...verdicts.map((v) => el("tr", {
    dataset: { url: v.url, agent: v.agent, oldAllowed: String(v.old_allowed), newAllowed: String(v.new_allowed) },
  },
  el("td", { className: "url" }, v.url),
  el("td", {}, agentName(v.agent)),
  el("td", {}, sideCell(v.old_allowed, v.old_line, v.old_rule)),
  el("td", {}, sideCell(v.new_allowed, v.new_line, v.new_rule)))));
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
  if (old === draft) {
    els.lineDiff.replaceChildren(el("p", { className: "muted" }, "No line differs."));
    return;
  }
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
  els.lineDiff.replaceChildren(el("div", { className: "dl head", "aria-hidden": "true" },
    el("span", { className: "ln" }, "live"), el("span", { className: "ln" }, "draft"), el("span", {}, "")), ...rows);
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
  return { v: 1, robots: state.robots, agents: state.agents, ua: state.ua, urls: state.urls, live: state.live, mode: state.mode };
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
  els.shareLink.addEventListener("focus", () => els.shareLink.select());
  window.addEventListener("hashchange", () => {
    if (location.hash !== lastHash) loadFromHash({ initial: false });
  });
  new ResizeObserver(onScroll).observe(els.robots);
}

wire();
tracked(loadAgents);
loadFromHash({ initial: true }).then(() => saveHash());
