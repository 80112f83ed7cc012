// @ts-check
// The robots.txt tester page: native ES modules (js/), no build step, no requests but to its own
// server. This module starts it: it wires the page's controls to the modules that own them, asks
// the service for its vocabulary, then restores the state of the address's fragment.
//
// State (the draft, crawlers, URLs, live site URL, mode, the use asked about) lives in js/state.js
// and in the fragment (#state=...), so a link restores it. Every change re-tests after a short
// pause; a newer request aborts the one still under way, and answers to older requests are ignored.

import { loadCrawlers } from "./js/crawlers.js";
import { compareNow } from "./js/diff.js";
import { el, els } from "./js/dom.js";
import { copyDraft, downloadDraft, renderOrigin, setDraft } from "./js/draft.js";
import { applyEdit, previewEditNow, renderEditChoices, renderEditNames } from "./js/edit.js";
import { onScroll, renderEditor, updateCaret } from "./js/editor.js";
import { tracked } from "./js/idle.js";
import { copyLink, decodeState, restore, saveHash } from "./js/link.js";
import { fetchLiveNow } from "./js/live.js";
import { chooseFirstShown, filterChips, renderChips } from "./js/picker.js";
import { renderResults, testNow } from "./js/results.js";
import { changed, onRetest } from "./js/schedule.js";
import { agentList, EXAMPLE, state, urlList, view } from "./js/state.js";
import { clearStatus, setStatus } from "./js/status.js";
import { categories, categoryPhrase, knownPurpose, loadVocabulary } from "./js/vocabulary.js";

/** Fetches the live file (see live.js), the page counting as busy meanwhile. @param {string} url @param {{load: boolean}} options */
const fetchLive = (url, options) => tracked(() => fetchLiveNow(url, options));

/** The uses the results may be asked about: one option per category the service answers. */
function renderPurposeChoices() {
  const none = els.purpose.querySelector("option[value='']");
  els.purpose.replaceChildren(...(none ? [none] : []),
    ...categories().map((category) => el("option", { value: category }, categoryPhrase(category))));
}

/** Shows the state in the page's inputs, the picker, the editor. */
function applyStateToInputs() {
  els.robots.value = state.robots;
  state.robots = els.robots.value;
  els.ua.value = state.ua;
  els.urls.value = state.urls;
  els.liveUrl.value = state.live;
  els.mode.value = state.mode;
  els.purpose.value = state.purpose;
  view.selected = null;
  renderChips();
  renderEditor();
  renderOrigin();
}

/** Restores the state of the address's fragment (at start: the example when there is none). @param {{initial: boolean}} options */
async function loadFromHash({ initial }) {
  if (!location.hash || location.hash === "#") {
    if (!initial) return;
  } else {
    try {
      restore(await decodeState(location.hash));
      clearStatus("share");
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      setStatus(`The link's saved state could not be read (${why}); showing an example instead.`, "error", "share");
      restore(EXAMPLE);
    }
  }
  view.live = null;
  view.liveBody = null;
  els.liveState.hidden = true;
  applyStateToInputs();
  changed({ now: true });
  if (state.live) fetchLive(state.live, { load: false });
}

/** The crawler registry: the picker, the edit panel's names, and the notes beside verdicts already shown. */
async function loadAgents() {
  await loadCrawlers();
  renderChips();
  renderEditNames();
  if (view.results.length) renderResults(urlList(), agentList()); // notes about the crawlers beside their verdicts
}

function wire() {
  onRetest(() => tracked(testNow));
  onRetest(() => tracked(compareNow));
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
    state.purpose = knownPurpose(els.purpose.value);
    changed({ now: true });
  });
  els.agentSearch.addEventListener("input", filterChips);
  els.agentSearch.addEventListener("keydown", (event) => {
    if (event.key === "Enter") {
      event.preventDefault();
      chooseFirstShown();
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
    if (view.liveBody === null) return;
    setDraft(view.liveBody);
    changed({ now: true });
  });
  els.copyLink.addEventListener("click", copyLink);
  els.draftDownload.addEventListener("click", downloadDraft);
  els.draftCopy.addEventListener("click", copyDraft);
  els.shareLink.addEventListener("focus", () => els.shareLink.select());
  els.editForm.addEventListener("submit", (event) => {
    event.preventDefault();
    tracked(previewEditNow);
  });
  els.editApply.addEventListener("click", applyEdit);
  window.addEventListener("hashchange", () => {
    if (location.hash !== view.link.last) loadFromHash({ initial: false });
  });
  new ResizeObserver(onScroll).observe(els.robots);
}

/** The vocabulary first (the picker, the results and a link's use asked about need its words), then the rest. */
async function start() {
  await tracked(loadVocabulary);
  renderEditChoices();
  renderPurposeChoices();
  tracked(loadAgents);
  await loadFromHash({ initial: true });
  await saveHash();
}

wire();
start();
