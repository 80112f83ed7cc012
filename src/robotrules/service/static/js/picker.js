// @ts-check
// The crawler picker: every crawler offered, grouped by what it crawls for (the groups and their
// order are the service's), searchable, one tab stop; and the list of those chosen.

import { crawlerOf } from "./crawlers.js";
import { el, els } from "./dom.js";
import { changed } from "./schedule.js";
import { state, view } from "./state.js";
import { plural } from "./text.js";
import { kindLabel, kinds } from "./vocabulary.js";

/** @typedef {import("./types.js").Crawler} Crawler */

/** A crawler's name as the page shows it. @param {string} name */
export const agentName = (name) => (name === "*" ? "* (all others)" : name);

/** What hovering a chip says: operator, purpose, the token Google reads, what the operator says. @param {Crawler} crawler */
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

/** @param {Crawler} crawler @param {Set<string>} chosen lower-case names */
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
    onfocus: (event) => setChipStop(/** @type {HTMLButtonElement} */ (event.currentTarget)),
  }, agentName(crawler.name), extra);
}

/** Every chip. */
const allChips = () => [...els.chips.querySelectorAll("button.chip")].map((chip) => /** @type {HTMLButtonElement} */ (chip));

// The picker is one tab stop: the chip last focused (else the first shown) takes Tab; arrow keys,
// Home and End move between the chips shown.
const shownChips = () => allChips().filter((chip) => !chip.hidden && !chip.closest("[hidden]"));

/** @param {HTMLButtonElement | null} chip the chip that now takes the tab stop (null: keep the one that has it, if shown) */
function setChipStop(chip) {
  if (chip) view.chipStop = (chip.dataset.agent || "").toLowerCase();
  const chips = shownChips();
  const stop = chips.find((c) => (c.dataset.agent || "").toLowerCase() === view.chipStop) || chips[0] || null;
  for (const c of allChips()) c.tabIndex = c === stop ? 0 : -1;
}

/** @param {KeyboardEvent} event */
function chipKey(event) {
  const chips = shownChips();
  const index = chips.indexOf(/** @type {HTMLButtonElement} */ (event.currentTarget));
  const step = /** @type {Record<string, number>} */ ({ ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 })[event.key];
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
export function renderChips() {
  const chosen = new Set(state.agents.map((a) => a.toLowerCase()));
  const star = crawlerOf({ token: "*", purpose: "any crawler that no group names" });
  /** @type {Crawler[]} */
  const offered = star ? [{ ...star, kind: "any" }] : [];
  const names = new Set(["*"]);
  for (const crawler of [...view.known, ...state.agents.map((a) => crawlerOf({ token: a, kind: "other" }))]) {
    if (crawler && !names.has(crawler.name.toLowerCase())) {
      names.add(crawler.name.toLowerCase());
      offered.push(crawler);
    }
  }
  /** @type {Map<string, Crawler[]>} */
  const groups = new Map();
  for (const crawler of offered) {
    const group = groups.get(crawler.kind);
    if (group) group.push(crawler);
    else groups.set(crawler.kind, [crawler]);
  }
  const order = ["any", ...kinds()];
  // A kind the service does not list goes before the last one listed ("other").
  const rank = (/** @type {string} */ kind) => (order.includes(kind) ? order.indexOf(kind) : order.length - 1.5);
  const shown = [...groups.keys()].sort((a, b) => rank(a) - rank(b));
  els.chips.replaceChildren(...shown.map((kind) => {
    const id = "chips-" + kind.replace(/[^a-z0-9]+/gi, "-");
    return el("div", { className: "chip-group", role: "group", "aria-labelledby": id, dataset: { kind } },
      el("span", { className: "chip-heading", id }, kindLabel(kind)),
      el("div", { className: "chip-list" }, (groups.get(kind) || []).map((crawler) => chipFor(crawler, chosen))));
  }));
  filterChips();
  renderChosen();
}

/** Shows the chips whose name, token, operator, purpose or kind contain every word of the search. */
export function filterChips() {
  const words = els.agentSearch.value.toLowerCase().split(/\s+/).filter(Boolean);
  let shown = 0;
  let total = 0;
  for (const group of els.chips.querySelectorAll("div.chip-group")) {
    let any = false;
    for (const chip of group.querySelectorAll("button.chip")) {
      const button = /** @type {HTMLButtonElement} */ (chip);
      const match = words.every((w) => (button.dataset.search || "").includes(w));
      button.hidden = !match;
      any = any || match;
      total++;
      if (match) shown++;
    }
    /** @type {HTMLElement} */ (group).hidden = !any;
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
      onclick: () => toggleAgent(agent) }, agentName(agent), el("span", { "aria-hidden": "true" }, " ×"))))
    : [el("li", { className: "muted" }, "none: choose below, or type one further down")]));
}

/** Chooses the crawler `name`, or lets it go when it is chosen. @param {string} name */
export function toggleAgent(name) {
  const lower = name.toLowerCase();
  const index = state.agents.findIndex((a) => a.toLowerCase() === lower);
  if (index >= 0) state.agents.splice(index, 1);
  else state.agents.push(name);
  for (const chip of allChips()) {
    if ((chip.dataset.agent || "").toLowerCase() === lower) chip.setAttribute("aria-pressed", index >= 0 ? "false" : "true");
  }
  renderChosen();
  changed();
}

/** Enter in the search field chooses the first chip shown. */
export function chooseFirstShown() {
  const first = allChips().find((chip) => !chip.hidden);
  if (first && first.getAttribute("aria-pressed") !== "true") toggleAgent(first.dataset.agent || "");
}
