// @ts-check
// The words of the service's codes (GET /v1/vocabulary): what crawlers are for, the usage
// categories, and verdicts, preferences and the answer to a use asked about in words. The page
// keeps no copy of them: it asks once, when it loads.

import { api } from "./api.js";
import { view, NO_VOCABULARY } from "./state.js";
import { setStatus, clearStatus } from "./status.js";

/** @typedef {import("./types.js").Vocabulary} Vocabulary */
/** @typedef {import("./types.js").ValueKey} ValueKey */
/** @typedef {import("./types.js").Verdict} Verdict */

/** Loads the vocabulary into the view; on failure the status line says so and codes stand for words. */
export async function loadVocabulary() {
  try {
    view.vocabulary = vocabularyOf(await api("v1/vocabulary"));
    clearStatus("vocabulary");
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    setStatus(`The page's words for the service's answers could not be loaded: ${message}`, "error", "vocabulary");
  }
}

/** The vocabulary in `data`, each part that is missing or of the wrong shape left as none. @param {unknown} data */
function vocabularyOf(data) {
  const found = /** @type {Partial<Vocabulary>} */ (data && typeof data === "object" ? data : {});
  return {
    kinds: Array.isArray(found.kinds) ? found.kinds : NO_VOCABULARY.kinds,
    obeys: Array.isArray(found.obeys) ? found.obeys : NO_VOCABULARY.obeys,
    categories: Array.isArray(found.categories) ? found.categories : NO_VOCABULARY.categories,
    verdict: { ...NO_VOCABULARY.verdict, ...found.verdict },
    preference: { ...NO_VOCABULARY.preference, ...found.preference },
    use: { ...NO_VOCABULARY.use, ...found.use },
  };
}

/** The usage categories, in the order answers list them. */
export const categories = () => view.vocabulary.categories.map((c) => c.category);

/** @param {string} category */
const categoryOf = (category) => view.vocabulary.categories.find((c) => c.category === category);

/** A category as a line starts with it ("Search"). @param {string} category */
export const categoryLabel = (category) => categoryOf(category)?.label || category;

/** A category within a sentence ("search"). @param {string} category */
export const categoryPhrase = (category) => categoryOf(category)?.phrase || category;

/** What a category covers. @param {string} category */
export const categoryAbout = (category) => categoryOf(category)?.description || category;

/** What crawlers are for, in the order listings show them. */
export const kinds = () => view.vocabulary.kinds.map((k) => k.kind);

/** A kind of crawler in words; "any" is the group of "*", the crawler no group names. @param {string} kind */
export function kindLabel(kind) {
  const found = view.vocabulary.kinds.find((k) => k.kind === kind);
  if (found) return found.label;
  return kind === "any" ? "Any crawler" : kind.charAt(0).toUpperCase() + kind.slice(1).replace(/[-_]/g, " ");
}

/** A crawl verdict in a word ("allowed"). @param {boolean} allowed */
export const verdictWord = (allowed) => view.vocabulary.verdict[allowed ? "true" : "false"];

/** The key of a JSON answer's word: true, false, null (anything else). @param {unknown} value @returns {ValueKey} */
export const valueKey = (value) => (value === true ? "true" : value === false ? "false" : "null");

/** A verdict's preference for `category` as a key: "not_applicable" when the URL may not be crawled. @param {Verdict} v @param {string} category @returns {ValueKey} */
export function preferenceKey(v, category) {
  if (!v.allowed) return "not_applicable";
  const prefs = v.preferences && typeof v.preferences === "object" ? v.preferences : {};
  return valueKey(prefs[category]);
}

/** The answer to the use asked about as a key: "false" is a refusal. @param {Verdict} v @returns {ValueKey} */
export const useKey = (v) => (v.allowed ? valueKey(v.use) : "not_applicable");

/** A preference in a word ("allowed", "unknown", "not applicable"). @param {ValueKey} key */
export const preferenceWord = (key) => view.vocabulary.preference[key];

/** The answer to a use asked about in a word ("refused"). @param {ValueKey} key */
export const useWord = (key) => view.vocabulary.use[key];

/** The use asked about, when it is one the service answers ("" otherwise). @param {unknown} purpose */
export const knownPurpose = (purpose) => (typeof purpose === "string" && categories().includes(purpose) ? purpose : "");

