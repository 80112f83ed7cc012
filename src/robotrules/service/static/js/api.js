// @ts-check
// Talking to the server: the same-origin JSON API, and one request of a kind at a time.

/** A failure to show people: the server's own message, or what went wrong in plain words. */
export class ApiError extends Error {}

/** Whether `error` is the abort of a request (a newer one replaced it). @param {unknown} error */
export const isAbort = (error) => typeof error === "object" && error !== null && "name" in error && error.name === "AbortError";

/**
 * Calls the same-origin JSON API; throws ApiError with the server's message on any failure.
 * The answer is the service's JSON as it is: the caller names its shape (types.js).
 * @param {string} path relative to the page, so that it works under a proxy's sub-path
 * @param {{method?: string, body?: unknown, signal?: AbortSignal}} [options]
 * @returns {Promise<unknown>}
 */
export async function api(path, { method = "GET", body, signal } = {}) {
  let response;
  try {
    response = await fetch(path, {
      method,
      signal,
      cache: "no-store",
      headers: body === undefined ? { Accept: "application/json" } : { Accept: "application/json", "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (error) {
    if (isAbort(error)) throw error;
    throw new ApiError("The tester's server could not be reached. Is it still running?");
  }
  /** @type {unknown} */
  let data = null;
  try {
    data = await response.json();
  } catch (error) {
    if (isAbort(error)) throw error;
  }
  if (!response.ok) {
    throw new ApiError(errorMessage(data)
      || `The server answered ${response.status}${response.statusText ? " " + response.statusText : ""}.`);
  }
  if (data === null) throw new ApiError("The server's answer could not be read.");
  return data;
}

/** The message of an error answer: the service's {"error": {"message"}}, or a framework's "detail". @param {unknown} data */
function errorMessage(data) {
  if (!data || typeof data !== "object") return "";
  const { error, detail } = /** @type {{error?: {message?: unknown}, detail?: unknown}} */ (data);
  if (error && typeof error.message === "string" && error.message) return error.message;
  if (Array.isArray(detail)) {
    return detail.map((d) => (d && typeof d === "object" && typeof d.msg === "string" && d.msg) || String(d)).join("; ");
  }
  return typeof detail === "string" ? detail : "";
}

/**
 * What a request of `latest` came to: its value, or its error.
 * @template T
 * @typedef {{ok: true, value: T} | {ok: false, error: Error}} Outcome
 */

/**
 * One request kind at a time: a new call aborts the previous one; stale answers are dropped (null).
 * @template {unknown[]} A
 * @template T
 * @param {(signal: AbortSignal, ...args: A) => Promise<T>} run
 * @returns {(...args: A) => Promise<Outcome<T> | null>}
 */
export function latest(run) {
  /** @type {AbortController | null} */
  let controller = null;
  let seq = 0;
  return async (...args) => {
    if (controller) controller.abort();
    const mine = ++seq;
    controller = new AbortController();
    try {
      const value = await run(controller.signal, ...args);
      return mine === seq ? { ok: true, value } : null;
    } catch (error) {
      if (isAbort(error) || mine !== seq) return null;
      return { ok: false, error: error instanceof Error ? error : new Error(String(error)) };
    }
  };
}
