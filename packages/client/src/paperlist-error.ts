/**
 * An error answer of the API (any status other than 2xx), or a 2xx answer that is not the
 * expected JSON. `detail` is the API's own message (`{"detail": ...}`) when it sent one.
 *
 * @example
 * try { await client.getPaper('nope'); }
 * catch (error) { if (error instanceof PaperlistError && error.status === 404) ... }
 */
export class PaperlistError extends Error {
  /** The HTTP status. */
  readonly status: number;
  /** The API's `detail`, or a description of what was wrong with the answer. */
  readonly detail: string;
  /** The URL that was requested. */
  readonly url: string;
  /** For 429 and 503: how long the server asked to wait (`Retry-After`), in milliseconds. */
  readonly retryAfterMs: number | null;
  /**
   * For a 400 on invalid filter values: the messages by parameter, as the server sent them
   * (`{"published_after": ["Enter a valid date."]}`); `detail` then joins them. Else null.
   */
  readonly fieldErrors: Readonly<Record<string, readonly string[]>> | null;
  /**
   * The answer's JSON body as sent, or null when it was not JSON: the errors by field of an
   * invalid `upsert` (`{"title": ["This field is required."]}`), or the `{"detail", "lines"}` of an
   * invalid `bulk` batch (each line with its number and errors).
   */
  readonly body: unknown;

  constructor(
    status: number,
    detail: string,
    url: string,
    retryAfterMs: number | null = null,
    fieldErrors: Readonly<Record<string, readonly string[]>> | null = null,
    body: unknown = null,
  ) {
    super(`paperlist: ${status} ${detail} (${url})`);
    this.name = 'PaperlistError';
    this.status = status;
    this.detail = detail;
    this.url = url;
    this.retryAfterMs = retryAfterMs;
    this.fieldErrors = fieldErrors;
    this.body = body;
  }
}
