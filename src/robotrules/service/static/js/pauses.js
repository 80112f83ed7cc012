// @ts-check
// The pauses a person needs; a driver that acts at machine speed (the page tests) may set shorter
// ones before the page loads: window.robotrulesPauses = {retest: ms, link: ms}.

const page = /** @type {{robotrulesPauses?: {retest?: number, link?: number}}} */ (/** @type {unknown} */ (globalThis));
const PAUSES = page.robotrulesPauses ?? {};

/** Re-test this long (ms) after the last keystroke. */
export const RETEST_MS = PAUSES.retest ?? 180;

/** Rewrite the share link this long (ms) after the last change. */
export const LINK_MS = PAUSES.link ?? 300;
