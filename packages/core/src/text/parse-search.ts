import type { SearchTerm } from '../source.js';
import { textWords } from './words.js';

/** Longest `q` accepted, in characters. */
export const MAX_QUERY_LENGTH = 1000;
/** Most terms accepted in one `q`. */
export const MAX_QUERY_TERMS = 32;

// New-style (`1706.03762`, `1706.03762v2`) and old-style (`hep-th/9307096`, `math.GT/0309136`) ids.
const ARXIV_ID = /^(?:\d{4}\.\d{4,5}|[a-z-]+(?:\.[a-z]{2})?\/\d{7})(?:v\d+)?$/i;

/** Why a `q` was refused. */
export type SearchParseError = 'too-long' | 'too-many-terms';

/** The terms of a `q`, or why it was refused. */
export type SearchParseResult = { ok: true; terms: SearchTerm[] } | { ok: false; error: SearchParseError };

/**
 * Splits a search string into terms: on whitespace and commas, with `"double quotes"`
 * grouping a phrase (an unclosed quote runs to the end). Pieces without any letter or
 * digit are dropped.
 *
 * @example
 * parseSearch('"attention is" gpt-4').terms.map((t) => t.words)
 * // [['attention', 'is'], ['gpt', '4']]
 */
export function parseSearch(q: string): SearchParseResult {
  if ([...q].length > MAX_QUERY_LENGTH) return { ok: false, error: 'too-long' };
  const terms: SearchTerm[] = [];
  for (const piece of splitSearch(q)) {
    const words = textWords(piece.text);
    if (words.length === 0) continue;
    const raw = piece.text.trim();
    const arxivId = !piece.quoted && ARXIV_ID.test(raw) ? raw.toLowerCase().replace(/v\d+$/, '') : null;
    terms.push({ raw, words, arxivId });
    if (terms.length > MAX_QUERY_TERMS) return { ok: false, error: 'too-many-terms' };
  }
  return { ok: true, terms };
}

interface SearchPiece {
  text: string;
  quoted: boolean;
}

function* splitSearch(q: string): Generator<SearchPiece> {
  let i = 0;
  while (i < q.length) {
    const ch = q[i]!;
    if (ch === '"') {
      const end = q.indexOf('"', i + 1);
      const stop = end === -1 ? q.length : end;
      yield { text: q.slice(i + 1, stop), quoted: true };
      i = stop + 1;
    } else if (isSeparator(ch)) {
      i++;
    } else {
      let j = i;
      while (j < q.length && !isSeparator(q[j]!) && q[j] !== '"') j++;
      yield { text: q.slice(i, j), quoted: false };
      i = j;
    }
  }
}

function isSeparator(ch: string): boolean {
  return ch === ',' || /\s/u.test(ch);
}
