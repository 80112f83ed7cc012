// @ts-check
// The draft as a whole: replacing it, saying where it came from, saving and copying it.

import { el, els } from "./dom.js";
import { renderEditor } from "./editor.js";
import { state, view } from "./state.js";
import { setStatus } from "./status.js";
import { normalize } from "./text.js";

/** Puts `text` in the editor as the draft (the caller re-tests). @param {string} text */
export function setDraft(text) {
  els.robots.value = text;
  state.robots = els.robots.value; // the textarea's own form of line ends
  renderEditor();
  renderOrigin();
}

/** Says whether the editor holds the live file, and offers it back when the draft differs. */
export function renderOrigin() {
  if (view.liveBody === null || view.live === null) {
    els.draftOrigin.textContent = "";
    return;
  }
  const same = normalize(view.liveBody) === state.robots;
  els.draftOrigin.textContent = same
    ? `The editor holds the live file of ${view.live.robots_url}.`
    : `The editor holds a draft that differs from the live file of ${view.live.robots_url}.`;
  els.liveActions.hidden = same;
}

/** Saves the draft as a file called robots.txt (a data: link: the page sends nothing anywhere). */
export function downloadDraft() {
  const link = el("a", { href: "data:text/plain;charset=utf-8," + encodeURIComponent(state.robots), download: "robots.txt" });
  document.body.append(link);
  link.click();
  link.remove();
  setStatus("The draft was saved as robots.txt: put it at the root of the site.", "info", "draft");
}

/** Puts the draft on the clipboard (or selects it to copy by hand). */
export async function copyDraft() {
  try {
    await navigator.clipboard.writeText(state.robots);
    setStatus("The draft was copied: paste it into the site's robots.txt.", "info", "draft");
  } catch {
    els.robots.focus();
    els.robots.select();
    setStatus("Copy the selected draft (the browser did not allow copying it directly).", "info", "draft");
  }
}
