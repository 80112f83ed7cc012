// @ts-check
// The page's mutable state, all of it, in two objects: `state`, what a share link carries (and the
// page's inputs show), and `view`, everything else the page holds while it runs. Modules read and
// write these; nothing else of the page changes between events.

/** @typedef {import("./types.js").Saved} Saved */
/** @typedef {import("./types.js").View} View */
/** @typedef {import("./types.js").Verdict} Verdict */
/** @typedef {import("./types.js").Vocabulary} Vocabulary */

/** @type {Readonly<Saved>} */
export const EXAMPLE = Object.freeze({
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
});

/** Until GET /v1/vocabulary answers (or when it cannot): no kinds or categories, codes for words. @type {Vocabulary} */
export const NO_VOCABULARY = {
  kinds: [],
  obeys: [],
  categories: [],
  verdict: { true: "true", false: "false" },
  preference: { true: "true", false: "false", null: "null", not_applicable: "not applicable" },
  use: { true: "true", false: "false", null: "null", not_applicable: "not applicable" },
};

/** What a share link carries: the draft, crawlers, URLs, live site, mode and use asked about. @type {Saved} */
export const state = { ...EXAMPLE, agents: [...EXAMPLE.agents] };

/** Everything else (see View in types.js). @type {View} */
export const view = {
  vocabulary: NO_VOCABULARY,
  known: [],
  byName: new Map(),
  byToken: new Map(),
  live: null,
  liveBody: null,
  results: [],
  diagnostics: [],
  diagnosticsOmitted: 0,
  selected: null,
  caretLine: 0,
  drawn: { from: 0, to: 0 },
  chipStop: "",
  editPreview: null,
  statusSource: null,
  link: { timer: 0, seq: 0, pending: false, last: "" },
  work: { busy: 0, armed: false, timer: 0 },
};

/** The key of a verdict among the results: its URL and crawler. */
export const keyOf = (/** @type {{url: string, agent: string}} */ v) => `${v.url}\n${v.agent}`;

/** The selected verdict, or null. */
export function selectedVerdict() {
  return view.results.find((v) => keyOf(v) === view.selected) || null;
}

/** The URLs to test, one per line, blank lines left out. */
export const urlList = () => state.urls.split("\n").map((u) => u.trim()).filter(Boolean);

/** The agents to test: the chosen chips, then the typed one, without repeats. */
export function agentList() {
  const seen = new Set();
  /** @type {string[]} */
  const out = [];
  for (const agent of [...state.agents, state.ua.trim()]) {
    if (agent && !seen.has(agent)) {
      seen.add(agent);
      out.push(agent);
    }
  }
  return out;
}
