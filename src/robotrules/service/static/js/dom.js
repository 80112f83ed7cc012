// @ts-check
// The page's elements (index.html), and a small builder of new ones.

/**
 * The element `id`, which must be a `type` (the page is broken otherwise: say so at once).
 * @template {Element} T
 * @param {string} id
 * @param {{new (): T, prototype: T}} type
 * @returns {T}
 */
export function byId(id, type) {
  const node = document.getElementById(id);
  if (!(node instanceof type)) throw new Error(`the page's element #${id} is missing or of another kind`);
  return node;
}

/**
 * The first element `selector` finds, which must be a `type`.
 * @template {Element} T
 * @param {string} selector
 * @param {{new (): T, prototype: T}} type
 * @returns {T}
 */
function find(selector, type) {
  const node = document.querySelector(selector);
  if (!(node instanceof type)) throw new Error(`the page has no ${selector}`);
  return node;
}

const Div = HTMLDivElement;
const Input = HTMLInputElement;
const Button = HTMLButtonElement;
const Text = HTMLParagraphElement;
const Body = HTMLTableSectionElement;

export const els = {
  status: byId("status", Text), shareLink: byId("share-link", Input), copyLink: byId("copy-link", Button),
  liveForm: byId("live-form", HTMLFormElement), liveUrl: byId("live-url", Input), liveFetch: byId("live-fetch", Button),
  liveState: byId("live-state", Div), liveSummary: byId("live-summary", Text),
  liveDetails: byId("live-details", HTMLDListElement), liveActions: byId("live-actions", Text),
  liveLoad: byId("live-load", Button),
  mode: byId("mode", HTMLSelectElement), draftOrigin: byId("draft-origin", Text),
  editor: byId("editor", Div), robots: byId("robots", HTMLTextAreaElement), backdrop: byId("backdrop", Div),
  gutter: byId("gutter-inner", Div), caretInfo: byId("caret-info", Text), caretFindings: byId("caret-findings", Text),
  findings: byId("findings", HTMLUListElement), findingsSummary: byId("findings-summary", Text),
  chips: byId("agent-chips", Div), agentSearch: byId("agent-search", Input), agentCount: byId("agent-count", Text),
  agentChosen: byId("agent-chosen", HTMLUListElement),
  ua: byId("ua", Input), uaToken: byId("ua-token", Text), urls: byId("urls", HTMLTextAreaElement),
  purpose: byId("purpose", HTMLSelectElement),
  resultsSummary: byId("results-summary", Text), purposeSummary: byId("purpose-summary", Text),
  resultsBody: byId("results-body", Body), why: byId("why", Div),
  diffSection: byId("diff-section", HTMLElement), diffSummary: byId("diff-summary", Text),
  diffRulesWrap: byId("diff-rules-wrap", Div), diffRules: find("#diff-rules tbody", Body),
  diffVerdictsWrap: byId("diff-verdicts-wrap", Div), diffVerdicts: find("#diff-verdicts tbody", Body),
  diffOther: byId("diff-other", HTMLUListElement), lineDiff: byId("line-diff", Div),
  draftDownload: byId("draft-download", Button), draftCopy: byId("draft-copy", Button),
  editForm: byId("edit-form", HTMLFormElement), editBlock: byId("edit-block", Input), editAllow: byId("edit-allow", Input),
  editUsage: byId("edit-usage", Input), editNames: byId("edit-names", HTMLDataListElement),
  editPurposes: byId("edit-purposes", HTMLFieldSetElement), editResult: byId("edit-result", Div),
  editSummary: byId("edit-summary", Text), editNotes: byId("edit-notes", HTMLUListElement),
  editChanges: byId("edit-changes", Div), editLines: byId("edit-lines", Div),
  editVerdictsWrap: byId("edit-verdicts-wrap", Div), editVerdicts: find("#edit-verdicts tbody", Body),
  editApply: byId("edit-apply", Button),
};

/**
 * What a new element is given: attributes, its class, its data-* values and its event handlers.
 * Attributes that are null, undefined or false are left out; true is an empty attribute.
 * @typedef {{
 *   className?: string | null,
 *   dataset?: Record<string, unknown>,
 *   onclick?: (event: MouseEvent) => void,
 *   onkeydown?: (event: KeyboardEvent) => void,
 *   onfocus?: (event: FocusEvent) => void,
 *   [attribute: string]: unknown,
 * }} Props
 */

/**
 * What an element may hold: nodes, text, numbers, and lists of them; null, undefined and false are left out.
 * @typedef {Node | string | number | null | undefined | false | Child[]} Child
 */

/**
 * A new `tag` element with `props` and `children`.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Props} [props]
 * @param {...Child} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "className") node.className = String(value);
    else if (key === "dataset") Object.assign(node.dataset, value);
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), /** @type {EventListener} */ (value));
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  append(node, children);
  return node;
}

/** @param {Element} node @param {Child[]} children */
function append(node, children) {
  for (const child of children) {
    if (Array.isArray(child)) append(node, child);
    else if (child !== null && child !== undefined && child !== false) node.append(child instanceof Node ? child : String(child));
  }
}

/**
 * A URL as text that may wrap after / ? & = # (not inside a word), for narrow screens.
 * @param {string} url
 * @returns {Child[]}
 */
export function urlText(url) {
  return String(url).split(/(?<=[/?&=#])/).flatMap((part, index) => (index ? [el("wbr"), part] : [part]));
}

/**
 * A table cell that keeps its role when narrow screens show rows as cards, with its column's name.
 * @param {string} label
 * @param {Props} props
 * @param {...Child} children
 */
export function cell(label, props, ...children) {
  return el("td", { role: "cell", ...props, dataset: { label, ...(props.dataset || {}) } }, ...children);
}
