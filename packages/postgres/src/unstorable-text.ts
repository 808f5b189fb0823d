/**
 * Text PostgreSQL cannot hold: U+0000 (refused by every text type) and lone UTF-16 surrogates
 * (not encodable in UTF-8; `pg` would send them as U+FFFD, which could then match a stored
 * U+FFFD). Import refuses both, so no stored id or field holds them: an id or a filter value
 * with one matches nothing, as on the memory source, and is answered without asking the
 * server (which would fail the statement and the request with a 503).
 */
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Whether `text` holds a character PostgreSQL cannot store (see above). */
export function isUnstorable(text: string): boolean {
  return UNSTORABLE.test(text);
}
