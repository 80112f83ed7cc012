// @ts-check
// <html data-idle="true"> when no re-test is waiting, no request is under way and the share link
// is written (scripts, and the page tests, wait on it).

import { view } from "./state.js";

export function markIdle() {
  document.documentElement.dataset.idle = String(view.work.busy === 0 && !view.work.armed && !view.link.pending);
}

/**
 * Runs `work`, the page counting as busy until it ends.
 * @template T
 * @param {() => Promise<T>} work
 * @returns {Promise<T>}
 */
export async function tracked(work) {
  view.work.busy++;
  markIdle();
  try {
    return await work();
  } finally {
    view.work.busy--;
    markIdle();
  }
}
