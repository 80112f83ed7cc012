// @ts-check
// What a verdict says about AI use: the preferences beside each verdict, the answer to the use
// asked about, the lines that state them, and the sentence of the "why" panel.

import { el } from "./dom.js";
import { capitalised } from "./text.js";
import {
  categories, categoryAbout, categoryLabel, categoryPhrase, preferenceKey, preferenceWord, useKey, useWord,
} from "./vocabulary.js";

/** @typedef {import("./types.js").Verdict} Verdict */
/** @typedef {import("./types.js").ValueKey} ValueKey */
/** @typedef {{category?: string, value?: boolean | null}} PreferenceLine */

/**
 * The verdict's Content-Usage and Content-Signal lines: line -> {category, value} when the use
 * asked about is decided there, else {} (a line that states preferences for the verdict).
 * @param {Verdict | null} verdict
 */
export function preferenceLines(verdict) {
  /** @type {Map<number, PreferenceLine>} */
  const lines = new Map();
  if (!verdict || !verdict.allowed) return lines;
  for (const n of Array.isArray(verdict.preference_lines) ? verdict.preference_lines : []) lines.set(n, {});
  if (typeof verdict.purpose === "string" && Array.isArray(verdict.use_lines)) {
    for (const n of verdict.use_lines) lines.set(n, { category: verdict.purpose, value: verdict.use });
  }
  return lines;
}

/** A key as a class name: "not_applicable" as "not-applicable". @param {ValueKey} key */
const keyClass = (key) => key.replace("_", "-");

/** The verdict cell's AI-use part: the answer to the use asked about, then every category's preference. @param {Verdict} v */
export function usageCell(v) {
  const parts = [];
  if (typeof v.purpose === "string") {
    const answer = useKey(v);
    parts.push(el("p", { className: "use", dataset: { use: useWord(answer) } },
      el("span", { className: "badge use-" + keyClass(answer) }, useWord(answer)),
      ` for ${categoryPhrase(v.purpose)}`));
  }
  if (!v.allowed) {
    parts.push(el("p", { className: "muted prefs-na" }, `${capitalised(preferenceWord("not_applicable"))}: this URL may not be crawled.`));
    return parts;
  }
  parts.push(el("ul", { className: "prefs" }, categories().map((category) => {
    const key = preferenceKey(v, category);
    const word = preferenceWord(key);
    return el("li", { className: "pref-" + keyClass(key), dataset: { category, value: word }, title: categoryAbout(category) },
      `${categoryLabel(category)}: `, el("strong", {}, word));
  })));
  return parts;
}

/** The AI-use preferences of a verdict as one sentence, naming the lines that state them. @param {Verdict} v */
export function usageSentence(v) {
  if (!v.allowed) return `AI use: ${preferenceWord("not_applicable")}, because the URL may not be crawled.`;
  const words = categories().map((category) => `${categoryPhrase(category)} ${preferenceWord(preferenceKey(v, category))}`);
  const lines = Array.isArray(v.preference_lines) ? v.preference_lines : [];
  const where = lines.length ? ` (${lines.length === 1 ? "line" : "lines"} ${lines.join(", ")})` : " (no line states a preference)";
  return `AI use: ${words.join(", ")}${where}.`;
}

/**
 * How many verdicts answer the use asked about with each key, and the summary above the table.
 * @param {Verdict[]} asked the verdicts that answer a use (all for the same one)
 */
export function useSummary(asked) {
  const count = (/** @type {ValueKey} */ key) => asked.filter((v) => useKey(v) === key).length;
  const refused = count("false");
  const text = `May the content be used for ${categoryPhrase(asked[0].purpose || "")}? `
    + `${refused} ${useWord("false")}, ${count("true")} ${useWord("true")}, ${count("null")} ${useWord("null")}, `
    + `${count("not_applicable")} ${useWord("not_applicable")} (the URL may not be crawled).`;
  return { text, refused };
}
