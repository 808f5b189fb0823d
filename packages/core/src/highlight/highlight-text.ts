import { escapeHtml } from '../html/escape-html.js';
import type { SearchTerm } from '../source.js';
import { foldText } from '../text/fold-text.js';

/**
 * The words of a text: the text folded, and per word where it is in the folded text and in the
 * raw text (UTF-16 offsets). Offsets in arrays rather than an object per word: an abstract has
 * a hundred words or more, and a page of 500 papers highlights every one.
 */
interface TextWords {
  readonly folded: string;
  readonly foldedStarts: number[];
  readonly foldedEnds: number[];
  readonly starts: number[];
  readonly ends: number[];
  /**
   * The raw offset after each character of `folded`: how much of a raw word a prefix covers.
   * Absent for ASCII text, whose folded text is the raw text lower-cased, character for character.
   */
  readonly rawEndAt?: number[];
}

const WORD_CHAR = /[\p{L}\p{N}]/u;

/**
 * The words of `text` as `textWords` finds them (maximal runs of letters and digits after
 * folding), each with its place in the raw text. The text is folded one character at a time, so
 * every folded character knows the raw character it came from; in the rare texts where that
 * differs from folding the whole text (a Greek final sigma), `null`: no highlight is safer than a
 * wrong one.
 */
function wordsOf(text: string): TextWords | null {
  if (!NON_ASCII.test(text)) return asciiWordsOf(text);
  const words: TextWords = { folded: '', foldedStarts: [], foldedEnds: [], starts: [], ends: [], rawEndAt: [] };
  let folded = '';
  let inWord = false;
  for (let i = 0; i < text.length; ) {
    const codePoint = text.codePointAt(i)!;
    const width = codePoint > 0xffff ? 2 : 1;
    // An ASCII character folds to itself lower-cased; only the others need folding.
    const ascii = codePoint < 0x80;
    for (const char of ascii ? String.fromCharCode(codePoint).toLowerCase() : foldText(text.slice(i, i + width))) {
      if (ascii ? isWordCode(char.charCodeAt(0)) : WORD_CHAR.test(char)) {
        if (!inWord) {
          words.foldedStarts.push(folded.length);
          words.starts.push(i);
          inWord = true;
        }
        words.ends[words.starts.length - 1] = i + width;
        words.foldedEnds[words.starts.length - 1] = folded.length + char.length;
      } else {
        inWord = false;
      }
      folded += char;
      for (let k = 0; k < char.length; k++) words.rawEndAt!.push(i + width);
    }
    i += width;
  }
  if (folded !== foldText(text)) return null;
  return { ...words, folded };
}

const NON_ASCII = /[^\x00-\x7f]/;

/** Whether an ASCII character code (lower-cased) is part of a word: a letter or a digit. */
const isWordCode = (code: number) => (code >= 97 && code <= 122) || (code >= 48 && code <= 57);

/** {@link wordsOf} for ASCII text, the common case: folding is lower-casing, one character for one. */
function asciiWordsOf(text: string): TextWords {
  const folded = text.toLowerCase();
  const starts: number[] = [];
  const ends: number[] = [];
  for (let i = 0; i < folded.length; ) {
    if (!isWordCode(folded.charCodeAt(i))) {
      i++;
      continue;
    }
    starts.push(i);
    do i++;
    while (i < folded.length && isWordCode(folded.charCodeAt(i)));
    ends.push(i);
  }
  return { folded, foldedStarts: starts, foldedEnds: ends, starts, ends };
}

/** Raw spans `[start, end)` of `text` that the terms match (whole words, the last word of a term as a prefix). */
function matchedSpans(words: TextWords, terms: readonly SearchTerm[]): [number, number][] {
  const { folded, foldedStarts, foldedEnds, starts, ends, rawEndAt } = words;
  // Word `j` is `word` (whole), or starts with it (`prefix`).
  const holds = (j: number, word: string, prefix: boolean) =>
    (prefix ? foldedEnds[j]! - foldedStarts[j]! >= word.length : foldedEnds[j]! - foldedStarts[j]! === word.length) && folded.startsWith(word, foldedStarts[j]!);
  const spans: [number, number][] = [];
  for (const term of terms) {
    const k = term.words.length;
    const prefix = term.words[k - 1]!;
    for (let j = 0; j + k <= starts.length; j++) {
      let ok = true;
      for (let t = 0; t < k - 1 && ok; t++) ok = holds(j + t, term.words[t]!, false);
      const last = j + k - 1;
      if (!ok || !holds(last, prefix, true)) continue;
      for (let t = 0; t < k - 1; t++) spans.push([starts[j + t]!, ends[j + t]!]);
      // Only the part of the last word the term's prefix covers.
      spans.push([starts[last]!, rawEndAt === undefined ? starts[last]! + prefix.length : (rawEndAt[foldedStarts[last]! + prefix.length - 1] ?? ends[last]!)]);
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
  const count = words === null ? 0 : words.starts.length;
  if (crop > 0 && words !== null && count > crop) {
    const first = spans.length === 0 ? 0 : words.ends.findIndex((end) => end > spans[0]![0]);
    const lead = Math.min(LEAD_WORDS, crop - 1);
    const startWord = Math.max(0, Math.min(first - lead, count - crop));
    const endWord = Math.min(count, startWord + crop);
    from = startWord === 0 ? 0 : words.starts[startWord]!;
    to = endWord === count ? text.length : words.ends[endWord - 1]!;
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
