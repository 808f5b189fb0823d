import { ASCII_FOLD } from '../word-table.js';

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
