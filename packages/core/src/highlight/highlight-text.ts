import { escapeHtml } from '../html/escape-html.js';
import type { SearchTerm } from '../source.js';
import { foldText } from '../text/fold-text.js';

/** A word of a text: its folded form and where it is in the raw text (UTF-16 offsets). */
interface TextWord {
  folded: string;
  start: number;
  end: number;
  /**
   * Raw offset after each folded character of the word: how much of the raw word a prefix covers.
   * Absent for ASCII words, where each folded character is its raw one.
   */
  rawEnds?: number[];
}

const WORD_CHAR = /[\p{L}\p{N}]/u;

/**
 * The words of `text` as `textWords` finds them (maximal runs of letters and digits after
 * folding), each with its place in the raw text. The text is folded one character at a time, so
 * every folded character knows the raw character it came from; in the rare texts where that
 * differs from folding the whole text (a Greek final sigma), `null`: no highlight is safer than a
 * wrong one.
 */
function wordsOf(text: string): TextWord[] | null {
  if (!NON_ASCII.test(text)) return asciiWordsOf(text);
  const words: TextWord[] = [];
  let current: TextWord | null = null;
  let whole = '';
  for (let i = 0; i < text.length; ) {
    const codePoint = text.codePointAt(i)!;
    const width = codePoint > 0xffff ? 2 : 1;
    const folded = foldText(text.slice(i, i + width));
    whole += folded;
    for (const char of folded) {
      if (WORD_CHAR.test(char)) {
        current ??= { folded: '', start: i, end: i, rawEnds: [] };
        current.folded += char;
        for (let k = 0; k < char.length; k++) current.rawEnds!.push(i + width);
        current.end = i + width;
      } else if (current !== null) {
        words.push(current);
        current = null;
      }
    }
    i += width;
  }
  if (current !== null) words.push(current);
  if (whole !== foldText(text)) return null;
  return words;
}

const NON_ASCII = /[^\x00-\x7f]/;
const ASCII_WORD = /[a-z0-9]+/g;

/** {@link wordsOf} for ASCII text, the common case: folding is lower-casing, one character for one. */
function asciiWordsOf(text: string): TextWord[] {
  const words: TextWord[] = [];
  for (const match of text.toLowerCase().matchAll(ASCII_WORD)) {
    const start = match.index;
    const folded = match[0];
    words.push({ folded, start, end: start + folded.length });
  }
  return words;
}

/** Raw spans `[start, end)` of `text` that the terms match (whole words, the last word of a term as a prefix). */
function matchedSpans(words: readonly TextWord[], terms: readonly SearchTerm[]): [number, number][] {
  const spans: [number, number][] = [];
  for (const term of terms) {
    const k = term.words.length;
    for (let j = 0; j + k <= words.length; j++) {
      let ok = true;
      for (let t = 0; t < k - 1 && ok; t++) ok = words[j + t]!.folded === term.words[t];
      const last = words[j + k - 1]!;
      const prefix = term.words[k - 1]!;
      if (!ok || !last.folded.startsWith(prefix)) continue;
      for (let t = 0; t < k - 1; t++) spans.push([words[j + t]!.start, words[j + t]!.end]);
      // Only the part of the last word the term's prefix covers.
      spans.push([last.start, last.rawEnds === undefined ? last.start + prefix.length : (last.rawEnds[prefix.length - 1] ?? last.end)]);
    }
  }
  return mergeSpans(spans);
}

function mergeSpans(spans: [number, number][]): [number, number][] {
  spans.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const merged: [number, number][] = [];
  for (const span of spans) {
    const last = merged.at(-1);
    if (last !== undefined && span[0] <= last[1]) last[1] = Math.max(last[1], span[1]);
    else merged.push([span[0], span[1]]);
  }
  return merged;
}

/** Options of {@link highlightText}. */
export interface HighlightOptions {
  /**
   * Keep about this many words around the first match (a few before it), cutting the rest with
   * `…`; 0 keeps the whole text.
   */
  crop?: number;
}

/** Words kept before the first match when cropping. */
const LEAD_WORDS = 3;

/**
 * `text` as HTML: escaped, with `<mark>` around each part the search terms match (whole words,
 * and the matched start of a word for a term's last word, which matches as a prefix), as the
 * search itself matches them (folded: case and accents ignored). With `crop`, only the words
 * around the first match are kept.
 *
 * @example highlightText('Attention Is All You Need', parseSearch('attent need').terms) // '<mark>Attent</mark>ion Is All You <mark>Need</mark>'
 */
export function highlightText(text: string, terms: readonly SearchTerm[], options: HighlightOptions = {}): string {
  const words = wordsOf(text);
  const spans = words === null ? [] : matchedSpans(words, terms);
  let from = 0;
  let to = text.length;
  const crop = options.crop ?? 0;
  if (crop > 0 && words !== null && words.length > crop) {
    const first = spans.length === 0 ? 0 : words.findIndex((word) => word.end > spans[0]![0]);
    const lead = Math.min(LEAD_WORDS, crop - 1);
    const startWord = Math.max(0, Math.min(first - lead, words.length - crop));
    const endWord = Math.min(words.length, startWord + crop);
    from = startWord === 0 ? 0 : words[startWord]!.start;
    to = endWord === words.length ? text.length : words[endWord - 1]!.end;
  }
  let html = from > 0 ? '…' : '';
  let at = from;
  for (const [start, end] of spans) {
    if (end <= from || start >= to) continue;
    const s = Math.max(start, from);
    const e = Math.min(end, to);
    html += `${escapeHtml(text.slice(at, s))}<mark>${escapeHtml(text.slice(s, e))}</mark>`;
    at = e;
  }
  html += escapeHtml(text.slice(at, to));
  if (to < text.length) html += '…';
  return html;
}
