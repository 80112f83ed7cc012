// @ts-check
// The live file: GET /v1/robots fetches (or reads from the service's cache) the robots.txt of a
// site; the page shows the service's summary of it, its facts, and loads its rules into the editor.

import { api, latest } from "./api.js";
import { el, els } from "./dom.js";
import { renderOrigin, setDraft } from "./draft.js";
import { saveHashSoon } from "./link.js";
import { changed } from "./schedule.js";
import { state, view } from "./state.js";
import { setStatus } from "./status.js";
import { normalize, plural } from "./text.js";

/** @typedef {import("./types.js").RobotsAnswer} RobotsAnswer */

/** The facts of the live file, as a definition list (what they mean together is the service's summary). @param {RobotsAnswer} data */
function liveDetails(data) {
  /** @type {[string, string][]} */
  const rows = [["robots.txt", data.robots_url]];
  rows.push(["Status", data.status ? String(data.status) : "no answer"]);
  if (data.reason) rows.push(["Reason", data.reason]);
  if (data.redirects) rows.push(["Redirects", `${data.redirects}, ending at ${data.final_url || "?"}`]);
  if (data.fetched_at) rows.push(["Fetched", new Date(data.fetched_at * 1000).toLocaleString()]);
  if (data.expires_at) rows.push(["Fresh until", new Date(data.expires_at * 1000).toLocaleString()]);
  if (typeof data.size === "number") rows.push(["Size", plural(data.size, "byte")]);
  if (data.failures) rows.push(["Failed refreshes", String(data.failures)]);
  if (Array.isArray(data.sitemaps) && data.sitemaps.length) rows.push(["Sitemaps", data.sitemaps.join("\n")]);
  return rows.flatMap(([name, value]) => [el("dt", {}, name), el("dd", { dataset: { field: name } }, value)]);
}

const runLive = latest(async (signal, /** @type {string} */ url) =>
  /** @type {RobotsAnswer} */ (await api(`v1/robots?url=${encodeURIComponent(url)}`, { signal })));

/**
 * Fetches the live robots.txt of `url`'s site; loads it into the editor when `load` is true.
 * @param {string} url
 * @param {{load: boolean}} options
 */
export async function fetchLiveNow(url, { load }) {
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
  if (!outcome.ok) {
    view.live = null; // whatever was fetched before is not this site's file: compare with nothing
    view.liveBody = null;
    els.liveState.hidden = true;
    renderOrigin();
    changed({ now: true });
    setStatus(`Could not fetch the live file: ${outcome.error.message}`, "error", "live");
    return;
  }
  const data = outcome.value;
  const body = data.kind === "rules" && typeof data.body === "string" ? normalize(data.body) : null;
  view.live = data;
  view.liveBody = body;
  els.liveState.hidden = false;
  els.liveSummary.textContent = data.summary || "";
  els.liveDetails.replaceChildren(...liveDetails(data));
  els.liveActions.hidden = body === null;
  if (body !== null && load) setDraft(body);
  if (body === null) {
    setStatus(`The live file gives no rules to edit: ${data.summary || data.reason || data.kind}.`, "info", "live");
  } else {
    setStatus(load ? `Loaded the live file of ${data.robots_url}.` : `Fetched the live file of ${data.robots_url} to compare with.`,
      "info", "live");
  }
  renderOrigin();
  changed({ now: true });
}
