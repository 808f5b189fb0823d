/** How a client waits between tries of a request answered 429 or 503. */
export interface RetryPolicy {
  /** Retries after the first try; 0 disables retrying. */
  retries: number;
  /** Base of the exponential backoff: retry `n` (from 0) waits up to `baseDelayMs * 2^n`. */
  baseDelayMs: number;
  /** Longest wait; a `Retry-After` longer than this is not waited for (the error is thrown). */
  maxDelayMs: number;
}

/** Statuses worth trying again: the server is overloaded or briefly unavailable. */
export const RETRIED_STATUSES: ReadonlySet<number> = new Set([429, 503]);

/**
 * Milliseconds a `Retry-After` header asks for: delay-seconds or an HTTP date (RFC 9110
 * §10.2.3); `null` when absent or unreadable. A date in the past is 0.
 */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | null {
  if (value === null) return null;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  if (Number.isNaN(date)) return null;
  return Math.max(0, date - now);
}

/**
 * The wait before retry `attempt` (0 for the first retry): what `Retry-After` says when the
 * server said it, else exponential backoff with full jitter (a random wait between 0 and
 * `baseDelayMs * 2^attempt`, capped at `maxDelayMs`), which spreads clients that failed together.
 * `null`: do not retry (the server asked for longer than `maxDelayMs`).
 */
export function retryDelay(attempt: number, retryAfterMs: number | null, policy: RetryPolicy, random: () => number = Math.random): number | null {
  if (retryAfterMs !== null) return retryAfterMs <= policy.maxDelayMs ? retryAfterMs : null;
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);
  return Math.floor(random() * ceiling);
}
