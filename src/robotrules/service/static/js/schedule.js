// @ts-check
// Every change re-tests after a short pause (typing coalesces), and rewrites the share link.

import { markIdle } from "./idle.js";
import { saveHashSoon } from "./link.js";
import { RETEST_MS } from "./pauses.js";
import { view } from "./state.js";

/** What a re-test runs (the page's start registers it: test the draft, compare it with the live file). @type {Array<() => void>} */
const retests = [];

/** Registers `run` to be run by every re-test. @param {() => void} run */
export function onRetest(run) {
  retests.push(run);
}

/**
 * Something changed: re-test after a short pause (`now`: at once), and update the link.
 * @param {{now?: boolean}} [options]
 */
export function changed({ now = false } = {}) {
  const work = view.work;
  clearTimeout(work.timer);
  const run = () => {
    work.armed = false;
    for (const retest of retests) retest();
  };
  if (now) {
    run();
  } else {
    work.armed = true;
    markIdle();
    work.timer = setTimeout(run, RETEST_MS);
  }
  saveHashSoon();
}
