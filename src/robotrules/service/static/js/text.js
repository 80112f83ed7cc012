// @ts-check
// Small helpers for text: line ends, counts in words, positions in the draft.

/** The text with \r\n and \r line ends made \n. @param {string} text */
export const normalize = (text) => text.replace(/\r\n?/g, "\n");

/** "1 rule", "2 rules". @param {number} n @param {string} one @param {string} [many] */
export const plural = (n, one, many = one + "s") => `${n} ${n === 1 ? one : many}`;

/** A word as the start of a sentence. @param {string} word */
export const capitalised = (word) => word.charAt(0).toUpperCase() + word.slice(1);

/** A count the service sent (a non-negative whole number), else 0. @param {unknown} value */
export function count(value) {
  return typeof value === "number" && Number.isInteger(value) && value > 0 ? value : 0;
}

/** " The first N are listed." when the service listed fewer than it found. @param {number} listed @param {number} found */
export function listedOnly(listed, found) {
  return found > listed ? ` The first ${listed.toLocaleString("en")} are listed.` : "";
}

/**
 * The index in `text` of line `line` (1-based), column `column` (1-based, in characters; 0: start).
 * @param {string} text
 * @param {number} line
 * @param {number} [column]
 */
export function offsetOf(text, line, column = 0) {
  let offset = 0;
  for (let n = 1; n < line; n++) {
    const next = text.indexOf("\n", offset);
    if (next < 0) return text.length;
    offset = next + 1;
  }
  if (column > 1) {
    const end = text.indexOf("\n", offset);
    const chars = Array.from(text.slice(offset, end < 0 ? text.length : end));
    const skip = line === 1 && chars[0] === "\uFEFF" ? 1 : 0; // columns do not count a byte order mark
    offset += chars.slice(0, column - 1 + skip).join("").length;
  }
  return offset;
}
