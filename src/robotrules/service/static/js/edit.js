// @ts-check
// The "Edit safely" panel: POST /v1/edit blocks or allows crawlers and sets an AI-use preference,
// changing nothing else; the panel previews the edit (its notes, changed lines and the verdicts
// that change) and "Apply" puts it in the draft.

import { api, latest } from "./api.js";
import { verdictChangeRows } from "./diff.js";
import { el, els } from "./dom.js";
import { setDraft } from "./draft.js";
import { lineDiffNodes } from "./linediff.js";
import { changed } from "./schedule.js";
import { state, view } from "./state.js";
import { count, listedOnly, plural } from "./text.js";
import { kindLabel, kinds } from "./vocabulary.js";

/** @typedef {import("./types.js").EditAnswer} EditAnswer */
/** @typedef {import("./types.js").EditRequest} EditRequest */

/** Names typed into a field, separated by commas or spaces. @param {string} text */
const nameList = (text) => text.split(/[,\s]+/).map((n) => n.trim()).filter(Boolean);

/** The purposes whose crawlers may be blocked: every kind of crawler the service knows. */
export function renderEditChoices() {
  const legend = els.editPurposes.querySelector("legend");
  els.editPurposes.replaceChildren(...(legend ? [legend] : []), ...kinds().map((kind) =>
    el("label", { className: "check" }, el("input", { type: "checkbox", value: kind, name: "edit-purpose" }), " ", kindLabel(kind))));
}

/** The names the block and allow fields suggest: the crawlers the service offers. */
export function renderEditNames() {
  els.editNames.replaceChildren(...view.known.map((c) => el("option", { value: c.name })));
}

/** @param {string} message @param {"info" | "busy" | "error"} [kind] */
function setEditSummary(message, kind = "info") {
  els.editSummary.textContent = message;
  els.editSummary.dataset.kind = kind;
}

const runEdit = latest(async (signal, /** @type {EditRequest} */ body) =>
  /** @type {EditAnswer} */ (await api("v1/edit", { method: "POST", body, signal })));

/** "Preview the edit": asks the service for the edit of the draft, and shows what it changes. */
export async function previewEditNow() {
  const purposes = [...els.editPurposes.querySelectorAll("input:checked")].map((box) => /** @type {HTMLInputElement} */ (box).value);
  /** @type {EditRequest} */
  const body = {
    robots: state.robots, block: nameList(els.editBlock.value), block_purpose: purposes,
    allow: nameList(els.editAllow.value), usage: els.editUsage.value.trim() || null, mode: state.mode,
  };
  view.editPreview = null;
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
  if (!outcome.ok) {
    setEditSummary(`The edit was not made: ${outcome.error.message}`, "error");
    return;
  }
  const data = outcome.value;
  els.editNotes.replaceChildren(...(data.notes || []).map((note) => el("li", {}, note)));
  if (!data.changed) {
    setEditSummary("The draft already says this: there is nothing to change.");
    return;
  }
  const diff = data.diff || {};
  const verdicts = Array.isArray(diff.verdicts) ? diff.verdicts : [];
  const verdictCount = verdicts.length + count(diff.verdicts_omitted);
  const parts = [];
  const some = (/** @type {string[]} */ list) => (list.length <= 6 ? list.join(", ")
    : `${list.length} crawlers (${list.slice(0, 5).join(", ")} and ${list.length - 5} more)`);
  if (data.blocked && data.blocked.length) parts.push(`blocks ${some(data.blocked)}`);
  if (data.allowed && data.allowed.length) parts.push(`allows ${some(data.allowed)}`);
  if (body.usage !== null) parts.push(`states ${body.usage}`);
  setEditSummary(`The edit ${parts.join(" and ") || "changes the draft"}; ${plural(verdictCount, "verdict")} change. `
    + "Nothing else in the draft changes. Apply it to put it in the editor." + listedOnly(verdicts.length, verdictCount));
  view.editPreview = { from: body.robots, robots: data.robots };
  els.editLines.replaceChildren(...lineDiffNodes(body.robots, data.robots, "now", "new"));
  els.editVerdictsWrap.hidden = !verdicts.length;
  els.editVerdicts.replaceChildren(...verdictChangeRows(verdicts, "Now", "After the edit"));
  els.editChanges.hidden = false;
}

/** "Apply to the draft": the previewed edit, if the draft is still the one previewed. */
export function applyEdit() {
  const preview = view.editPreview;
  if (!preview) return;
  const submit = els.editForm.querySelector("button[type=submit]");
  if (preview.from !== state.robots) {
    view.editPreview = null;
    els.editChanges.hidden = true;
    setEditSummary("The draft changed after the preview: preview the edit again.", "error");
    if (submit instanceof HTMLElement) submit.focus();
    return;
  }
  setDraft(preview.robots);
  view.editPreview = null;
  els.editChanges.hidden = true;
  setEditSummary("The edit is now in the draft, and the draft is tested again.");
  if (submit instanceof HTMLElement) submit.focus();
  changed({ now: true });
}
