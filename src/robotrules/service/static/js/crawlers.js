// @ts-check
// The crawler registry (GET /v1/agents) as the page reads it, and what it says about a verdict's crawler.

import { api } from "./api.js";
import { view } from "./state.js";
import { clearStatus, setStatus } from "./status.js";

/** @typedef {import("./types.js").Crawler} Crawler */
/** @typedef {import("./types.js").Verdict} Verdict */

/**
 * A registry entry read defensively: the first form ({token, operator, purpose, kind, source})
 * and the later one (with name, token_valid, obeys, ignores_global and origin) both work.
 * @param {unknown} entry
 * @returns {Crawler | null}
 */
export function crawlerOf(entry) {
  if (!entry || typeof entry !== "object") return null;
  const raw = /** @type {Record<string, unknown>} */ (entry);
  const text = (/** @type {unknown} */ x) => (typeof x === "string" ? x.trim() : "");
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
    obeys: typeof raw.obeys === "string" && view.vocabulary.obeys.includes(raw.obeys) ? raw.obeys : "unknown",
    ignoresGlobal: raw.ignores_global === true,
    origin: text(raw.origin),
  };
}

/** The registry entry a verdict's crawler is: by the name given, else by its product token. @param {Verdict} verdict */
export function crawlerFor(verdict) {
  const agent = typeof verdict.agent === "string" ? verdict.agent.toLowerCase() : "";
  const token = typeof verdict.token === "string" ? verdict.token.toLowerCase() : "";
  return view.byName.get(agent) || (token ? view.byToken.get(token) : undefined) || null;
}

/**
 * What a crawler's operator says that changes how to read a verdict for it, as plain sentences.
 * @param {Crawler | null} crawler
 * @returns {{kind: string, text: string}[]}
 */
export function crawlerNotes(crawler) {
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

/** Loads the registry into the view; on failure the status line says so and the picker offers only "*". */
export async function loadCrawlers() {
  try {
    const data = await api("v1/agents");
    const answer = /** @type {{agents?: unknown, crawlers?: unknown}} */ (data);
    const list = Array.isArray(data) ? data : answer.agents || answer.crawlers || [];
    const seen = new Set();
    view.known = [];
    for (const raw of Array.isArray(list) ? list : []) {
      const crawler = crawlerOf(raw);
      if (crawler && !seen.has(crawler.name.toLowerCase())) {
        seen.add(crawler.name.toLowerCase());
        view.known.push(crawler);
      }
    }
    view.byName = new Map(view.known.map((c) => [c.name.toLowerCase(), c]));
    view.byToken = new Map(view.known.filter((c) => c.tokenValid && c.token === c.name).map((c) => [c.token.toLowerCase(), c]));
    clearStatus("agents");
  } catch (error) {
    setStatus(`The list of common crawlers could not be loaded: ${error instanceof Error ? error.message : String(error)}`,
      "error", "agents");
  }
}
