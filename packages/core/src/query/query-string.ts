import { compareCodePoints } from '../ordering/title-sort-key.js';

/** One `key=value` pair of a query string, decoded. */
export type QueryPair = readonly [key: string, value: string];

/** Why a query string could not be read. */
export type QueryStringError = 'malformed-encoding' | 'control-character';

// C0 controls other than tab, line feed and carriage return; DEL; C1 controls.
const CONTROL_CHARACTER = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;
// A UTF-16 surrogate standing alone cannot come from valid UTF-8.
const LONE_SURROGATE = /\p{Cs}/u;

/**
 * Decodes a raw query string (without `?`) into pairs, in order, as an HTML form would
 * encode them: `+` is a space, `%XX` bytes are UTF-8. A pair without `=` has an empty value.
 * Malformed percent-encoding, invalid UTF-8 and control characters are refused, never guessed.
 *
 * @example parseQueryString('q=deep+learning&page=2') // ok: [['q','deep learning'],['page','2']]
 */
export function parseQueryString(
  raw: string,
): { ok: true; pairs: QueryPair[] } | { ok: false; error: QueryStringError } {
  const pairs: QueryPair[] = [];
  if (raw === '') return { ok: true, pairs };
  for (const part of raw.split('&')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    const key = decodeComponent(eq === -1 ? part : part.slice(0, eq));
    const value = decodeComponent(eq === -1 ? '' : part.slice(eq + 1));
    if (key === null || value === null || LONE_SURROGATE.test(key) || LONE_SURROGATE.test(value)) {
      return { ok: false, error: 'malformed-encoding' };
    }
    if (CONTROL_CHARACTER.test(key) || CONTROL_CHARACTER.test(value)) {
      return { ok: false, error: 'control-character' };
    }
    pairs.push([key, value]);
  }
  return { ok: true, pairs };
}

function decodeComponent(text: string): string | null {
  const spaced = text.includes('+') ? text.replace(/\+/g, ' ') : text;
  if (!spaced.includes('%')) return spaced;
  try {
    return decodeURIComponent(spaced);
  } catch {
    return null;
  }
}

/**
 * Encodes pairs as `application/x-www-form-urlencoded`, the way Python's `urlencode` does
 * (Django REST Framework's links): keys sorted by code point with the values of one key in
 * their original order, space as `+`, and only `A-Z a-z 0-9 _ . - ~` left unescaped.
 */
export function formatQueryString(pairs: readonly QueryPair[]): string {
  const sorted = pairs
    .map((pair, index) => ({ pair, index }))
    .sort((a, b) => compareCodePoints(a.pair[0], b.pair[0]) || a.index - b.index);
  return sorted.map(({ pair }) => `${encodeFormComponent(pair[0])}=${encodeFormComponent(pair[1])}`).join('&');
}

function encodeFormComponent(text: string): string {
  return encodeURIComponent(text)
    .replace(/[!'()*]/g, (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%20/g, '+');
}

/** The last value of a key (a repeated parameter: the last wins), or `undefined`. */
export function lastValue(pairs: readonly QueryPair[], key: string): string | undefined {
  for (let i = pairs.length - 1; i >= 0; i--) {
    const pair = pairs[i]!;
    if (pair[0] === key) return pair[1];
  }
  return undefined;
}
