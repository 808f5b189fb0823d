import { textWords, titleSortKey, type Paper, type SearchTerm } from '@paperlist/core';

/**
 * Longest word kept whole in the word dictionary, in code points. Longer words are stored
 * cut to this length (a btree entry has a size limit); a search for one is then looked up by
 * its cut form as a prefix and checked against the stored text, so matching stays exact.
 */
export const MAX_DICTIONARY_WORD = 200;

const NON_ASCII = /[^\x00-\x7f]/;
const ASCII_WORD = /[a-z0-9]+/g;

/**
 * `textWords`, faster on pure ASCII text (most of a catalogue): there folding is lower-casing
 * and a word is a run of `[a-z0-9]`, which a non-Unicode regular expression finds quickly.
 * Any other text goes through `textWords` itself.
 */
export function foldedWords(text: string): string[] {
  if (NON_ASCII.test(text)) return textWords(text);
  return text.toLowerCase().match(ASCII_WORD) ?? [];
}

/**
 * The words of a field as stored for matching and scoring: every word with one space on
 * each side, ` attention  is  all `. A word then starts exactly where ` word` occurs and ends
 * where `word ` occurs, occurrences of a pattern never share a space, and a phrase is a
 * plain substring. Author names are joined by `|`, so no phrase runs from one name into the next.
 */
export function fieldText(words: readonly string[]): string {
  return words.length === 0 ? '' : ` ${words.join('  ')} `;
}

/** The columns import derives from a paper with the core's own text functions. */
export interface DerivedColumns {
  /** `titleSortKey(title)`: compared `COLLATE "C"`, it is the catalogue's title collation. */
  titleKey: string;
  /** `title.toLowerCase()` when the title has non-ASCII characters (else `lower(title COLLATE "C")` is the same). */
  titleLower: string | null;
  abstractLower: string | null;
  titleText: string;
  authorsText: string;
  abstractText: string;
  /** Word counts, as the core's relevance counts them (authors: all names together). */
  titleLength: number;
  authorsLength: number;
  abstractLength: number;
  /** The paper's words, field by field (with repeats): what `word_ids` is made of. */
  words: string[][];
}

/** Derives the search, scoring and ordering columns of a paper. */
export function deriveColumns(paper: Paper): DerivedColumns {
  const title = foldedWords(paper.title);
  const abstract = foldedWords(paper.abstract);
  const words = [title, abstract];
  let authorsText = '';
  let authorsLength = 0;
  for (let i = 0; i < paper.authors.length; i++) {
    const name = foldedWords(paper.authors[i]!);
    words.push(name);
    authorsLength += name.length;
    authorsText += i === 0 ? fieldText(name) : `|${fieldText(name)}`;
  }
  return {
    titleKey: titleSortKey(paper.title),
    titleLower: NON_ASCII.test(paper.title) ? paper.title.toLowerCase() : null,
    abstractLower: NON_ASCII.test(paper.abstract) ? paper.abstract.toLowerCase() : null,
    titleText: fieldText(title),
    authorsText,
    abstractText: fieldText(abstract),
    titleLength: title.length,
    authorsLength,
    abstractLength: abstract.length,
    words,
  };
}

/** A word as the dictionary holds it: cut to {@link MAX_DICTIONARY_WORD} code points. */
export function dictionaryWord(word: string): string {
  if (word.length <= MAX_DICTIONARY_WORD) return word;
  const points = Array.from(word);
  return points.length <= MAX_DICTIONARY_WORD ? word : points.slice(0, MAX_DICTIONARY_WORD).join('');
}

/** How one search term is looked for in the stored text. */
export interface TermPattern {
  /** ` w1  w2  wl`: where the term occurs, whole or prefix. */
  any: string;
  /** ` w1  w2  wl `: where it occurs with a whole last word. */
  whole: string;
  /**
   * Two occurrences of the term can overlap (`"a a"` in `a a a`); counting them then needs
   * a regular expression instead of `replace`.
   */
  overlapping: boolean;
  /** The term can match a paper only through its stored text (a phrase, or a cut word). */
  needsRecheck: boolean;
}

/** The patterns of a term (see {@link fieldText}). */
export function termPattern(term: SearchTerm): TermPattern {
  const { words } = term;
  const n = words.length;
  const last = words[n - 1]!;
  const any = fieldText(words.slice(0, -1)) + ` ${last}`;
  let overlapping = n > 1 && words[0]!.startsWith(last);
  for (let k = 1; k < n - 1 && !overlapping; k++) if (words[k] === words[0]) overlapping = true;
  return {
    any,
    whole: `${any} `,
    overlapping,
    // A word of the dictionary's full length may stand for a longer, cut word.
    needsRecheck: n > 1 || words.some((word) => word.length >= MAX_DICTIONARY_WORD),
  };
}

/**
 * The half-open range of dictionary words that start with `prefix` in code point order
 * (`COLLATE "C"`): `[prefix, upper)`, or `[prefix, ∞)` when no upper bound exists.
 */
export function prefixRange(prefix: string): { lower: string; upper: string | null } {
  const points = Array.from(prefix);
  for (let i = points.length - 1; i >= 0; i--) {
    let next = points[i]!.codePointAt(0)! + 1;
    if (next === 0xd800) next = 0xe000;
    if (next <= 0x10ffff) return { lower: prefix, upper: points.slice(0, i).join('') + String.fromCodePoint(next) };
  }
  return { lower: prefix, upper: null };
}
