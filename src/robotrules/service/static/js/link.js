// @ts-check
// Share links: the state in the address's fragment (#state=...), which browsers never send to a
// server. The form is documented in docs/guides/tester.md.

import { els } from "./dom.js";
import { markIdle } from "./idle.js";
import { LINK_MS } from "./pauses.js";
import { state, view } from "./state.js";
import { setStatus } from "./status.js";
import { knownPurpose } from "./vocabulary.js";

/** @typedef {import("./types.js").Saved} Saved */

const COMPRESS_OVER = 200; // bytes of state above which the link is compressed (when the browser can)

/** @param {Uint8Array} bytes */
function toBase64Url(bytes) {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** @param {string} text */
function fromBase64Url(text) {
  const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

/** @param {Uint8Array<ArrayBuffer>} bytes @param {CompressionStream | DecompressionStream} transform */
async function pipe(bytes, transform) {
  const stream = new Blob([bytes]).stream().pipeThrough(transform);
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/**
 * The fragment for `value`: "state=z.<deflate, base64url>" when that is shorter, else "state=b.<UTF-8, base64url>".
 * @param {object} value
 */
async function encodeState(value) {
  const bytes = new TextEncoder().encode(JSON.stringify(value));
  if (bytes.length > COMPRESS_OVER && typeof CompressionStream === "function") {
    try {
      const packed = await pipe(bytes, new CompressionStream("deflate"));
      if (packed.length < bytes.length) return "state=z." + toBase64Url(packed);
    } catch {
      // fall back to the plain form
    }
  }
  return "state=b." + toBase64Url(bytes);
}

/**
 * The state in a fragment made by encodeState; an Error with a plain message when it cannot be read.
 * @param {string} fragment
 * @returns {Promise<Record<string, unknown>>}
 */
export async function decodeState(fragment) {
  const match = /^#?state=([bz])\.([A-Za-z0-9_-]*)$/.exec(fragment);
  if (!match) throw new Error("it is not a link made by this page");
  if (match[1] === "z" && typeof DecompressionStream !== "function") {
    throw new Error("this browser cannot read compressed links");
  }
  /** @type {unknown} */
  let value;
  try {
    let bytes = fromBase64Url(match[2]);
    if (match[1] === "z") bytes = await pipe(bytes, new DecompressionStream("deflate"));
    value = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  } catch {
    throw new Error("it may have been cut short or changed");
  }
  if (!value || typeof value !== "object" || Array.isArray(value)) throw new Error("it holds no saved state");
  return /** @type {Record<string, unknown>} */ (value);
}

/** Whether a saved crawler is one (a non-empty name). @param {unknown} agent @returns {agent is string} */
const isAgent = (agent) => typeof agent === "string" && agent !== "";

/** What the link carries now. */
function snapshot() {
  /** @type {Record<string, unknown>} */
  const saved = { v: 1, robots: state.robots, agents: state.agents, ua: state.ua, urls: state.urls, live: state.live, mode: state.mode };
  if (state.purpose) saved.purpose = state.purpose;
  return saved;
}

/**
 * Applies a decoded state, keeping the defaults for anything missing or of the wrong type.
 * @param {Readonly<Record<string, unknown>> | Readonly<Saved>} value
 */
export function restore(value) {
  const text = (/** @type {unknown} */ x, /** @type {string} */ fallback) => (typeof x === "string" ? x : fallback);
  const modes = [...els.mode.options].map((option) => option.value);
  state.robots = text(value.robots, "");
  state.agents = Array.isArray(value.agents) ? value.agents.filter(isAgent) : [];
  state.ua = text(value.ua, "");
  state.urls = text(value.urls, "");
  state.live = text(value.live, "");
  state.mode = typeof value.mode === "string" && modes.includes(value.mode) ? value.mode : "google";
  state.purpose = knownPurpose(value.purpose);
}

/** Rewrites the link after a short pause (a newer change starts the pause again). */
export function saveHashSoon() {
  const link = view.link;
  clearTimeout(link.timer);
  link.seq++; // a write under way is now out of date
  link.pending = true;
  markIdle();
  link.timer = setTimeout(saveHash, LINK_MS);
}

/** Writes the state into the address (without a new history entry) and the share link field. */
export async function saveHash() {
  const link = view.link;
  clearTimeout(link.timer);
  const mine = ++link.seq;
  link.pending = true;
  const fragment = await encodeState(snapshot());
  if (mine !== link.seq) return;
  link.last = "#" + fragment;
  if (location.hash !== link.last) history.replaceState(null, "", link.last);
  els.shareLink.value = location.href;
  link.pending = false;
  markIdle();
}

/** "Copy share link": the link, written now, on the clipboard (or selected to copy by hand). */
export async function copyLink() {
  await saveHash();
  const link = location.href;
  try {
    await navigator.clipboard.writeText(link);
    setStatus("Link copied. Anyone who opens it sees this draft, these crawlers and URLs.", "info", "share");
  } catch {
    els.shareLink.focus();
    els.shareLink.select();
    setStatus("Copy the selected link (the browser did not allow copying it directly).", "info", "share");
  }
}
