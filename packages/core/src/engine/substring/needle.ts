import type { PartSeparators } from '../phrase-join.js';
import { ASCII_FOLD } from '../word-table.js';
import type { RunMatch } from './word-sets.js';

/**
 * A lower-cased substring needle as the index sees it. A needle of ASCII characters is
 * `separators[0] words[0] separators[1] … words[k-1] separators[k]`: `words` are its runs of
 * letters and digits, `separators` the runs of other characters around and between them
 * (the first and last may be empty, the inner ones never are).
 */
export type Needle =
  | { kind: 'ascii'; words: string[]; separators: string[] }
  /** Holds a non-ASCII character: found by its characters, then read. */
  | { kind: 'unicode'; codePoints: number[] };

/** Reads a needle that is already lower-cased. */
export function readNeedle(needle: string): Needle {
  const words: string[] = [];
  const separators: string[] = [];
  let run = '';
  let inWord = false;
  for (let i = 0; i < needle.length; i++) {
    const c = needle.charCodeAt(i);
    if (c >= 128) return { kind: 'unicode', codePoints: distinctCodePoints(needle) };
    const isWord = ASCII_FOLD[c] !== 0;
    if (isWord !== inWord) {
      (inWord ? words : separators).push(run);
      run = '';
      inWord = isWord;
    }
    run += needle[i];
  }
  (inWord ? words : separators).push(run);
  if (inWord) separators.push('');
  return { kind: 'ascii', words, separators };
}

function distinctCodePoints(text: string): number[] {
  const points: number[] = [];
  for (const ch of text) {
    const p = ch.codePointAt(0)!;
    if (p >= 128 && !points.includes(p)) points.push(p);
  }
  return points;
}

/** How run `c` of an ASCII needle's `k` runs must meet its word, given the separators around it. */
export function partMatch(c: number, k: number, separators: readonly string[]): RunMatch {
  const openBefore = c === 0 && separators[0] === ''; // the word may start before the needle
  const openAfter = c === k - 1 && separators[k] === ''; // and may go on after it
  if (openBefore && openAfter) return 'contains';
  if (openBefore) return 'suffix';
  if (openAfter) return 'prefix';
  return 'exact';
}

/**
 * What the needle's separators require around each of its runs, for the joins of a needle of
 * several runs: the inner ones exactly, the edges (empty: nothing) as ends and starts.
 */
export function partSeparators(separators: readonly string[]): PartSeparators[] {
  const k = separators.length - 1;
  return Array.from({ length: k }, (_, c) => ({
    before: c === 0 ? nonEmpty(separators[0]!) : separators[c]!,
    beforeIsEdge: c === 0,
    after: c === k - 1 ? nonEmpty(separators[k]!) : separators[c + 1]!,
    afterIsEdge: c === k - 1,
  }));
}

/** An edge separator, or null when the needle has none there. */
export function nonEmpty(separator: string): string | null {
  return separator === '' ? null : separator;
}
