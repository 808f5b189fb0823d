import { paperWords } from '../search/paper-words.js';
import { termOccurrences, type TermOccurrences } from '../search/term-occurrences.js';
import type { SearchTerm } from '../source.js';
import { bitsetWords, popcount32 } from './bits.js';
import {
  addDocs,
  bitsSet,
  EMPTY_SET,
  intersectLists,
  intersectSets,
  listSet,
  setHas,
  setSize,
  setToList,
  sortUnique,
  type DocSet,
} from './doc-set.js';
import { COUNTS_PER_DOC } from './field-layout.js';
import type { IndexData } from './builder.js';
import { DENSE } from './postings.js';
import type { PhraseJoin } from './phrase-join.js';
import { charSet } from './substring/field-text.js';
import { uint32Array } from './alloc.js';
import { spend } from './work-budget.js';
import { findArxivDocs } from './arxiv-lookup.js';
import { rangeUnions } from './range-union-cache.js';

/** What one search term matches, and what scoring it later needs. */
export interface TermMatch {
  /** The documents the term matches (within the restriction it was evaluated under). */
  set: DocSet;
  /** Range of word numbers the term's last word covers (it may be a prefix of them). */
  from: number;
  to: number;
  /** The word number of the last word itself, or -1. */
  exact: number;
  /** Phrases: the documents where the words occur, ascending, and their six counts each. */
  phraseDocs: Uint32Array | null;
  phraseCounts: Uint32Array | null;
  /** Documents whose `arxiv_id` is the term (when it is shaped like one). */
  arxivDocs: Uint32Array;
}

/**
 * Evaluates one term: a single word is the union of the postings of the words it prefixes;
 * a phrase is verified with positions on the documents holding all of its words. With a
 * `restrict`ion, only documents in it are considered (then `set` is not the term's document
 * frequency: relevance evaluates its terms without one).
 */
export function matchTerm(index: IndexData, join: PhraseJoin, term: SearchTerm, restrict: DocSet | null): TermMatch {
  const { vocabulary, postings, store, n } = index;
  let arxivDocs = term.arxivId === null ? new Uint32Array(0) : findArxivDocs(index, term.arxivId);
  if (restrict !== null && arxivDocs.length > 0) arxivDocs = arxivDocs.filter((d) => setHas(restrict, d));
  const last = term.words[term.words.length - 1]!;
  const [from, to] = vocabulary.prefixRange(last);
  const exact = from < to && vocabulary.is(from, last) ? from : -1;
  const match: TermMatch = { set: EMPTY_SET, from, to, exact, phraseDocs: null, phraseCounts: null, arxivDocs };

  if (term.words.length === 1) {
    // A single letter or digit: its documents are kept, not made from tens of thousands of words.
    const short = last.length === 1 ? charSet(last.charCodeAt(0)) : -1;
    const words = short >= 0 ? index.shortPrefixes.set(short) : to - from < 2 ? unionRange(index, from, to) : rangeUnions.union(index, from, to, () => unionRange(index, from, to));
    match.set = addDocs(words, arxivDocs);
    return match;
  }

  const exactWords: number[] = [];
  for (let j = 0; j < term.words.length - 1; j++) exactWords.push(vocabulary.find(term.words[j]!));
  if (from === to || exactWords.includes(-1)) {
    match.set = listSet(arxivDocs);
    return match;
  }
  const parts = [...exactWords.map((w) => Uint32Array.of(w)), wordRange(from, to)];
  let { docs, counts } = join.count(parts, exact, restrict);
  ({ docs, counts } = withOversize(index, docs, counts, term, restrict));
  match.phraseDocs = docs;
  match.phraseCounts = counts;
  match.set = addDocs(listSet(docs), arxivDocs);
  return match;
}

/** The word numbers `[from, to)`. */
export function wordRange(from: number, to: number): Uint32Array {
  const words = uint32Array(to - from);
  for (let w = from; w < to; w++) words[w - from] = w;
  return words;
}

/**
 * Adds the oversize documents (too long for positions: the join skips them) where the phrase
 * occurs, counted by the reference functions on the decoded paper.
 */
function withOversize(
  index: IndexData,
  docs: Uint32Array,
  counts: Uint32Array,
  term: SearchTerm,
  restrict: DocSet | null,
): { docs: Uint32Array; counts: Uint32Array } {
  const oversize = index.layout.oversize;
  if (oversize.length === 0) return { docs, counts };
  const extra: { d: number; six: Uint32Array }[] = [];
  for (const d of oversize) {
    if (restrict !== null && !setHas(restrict, d)) continue;
    const six = new Uint32Array(COUNTS_PER_DOC);
    const paper = index.store.paper(d);
    writeCounts(six, 0, termOccurrences(paperWords(paper), paper.arxiv_id, term));
    if (total(six, 0) > 0) extra.push({ d, six });
  }
  if (extra.length === 0) return { docs, counts };
  const all = [...Array.from(docs, (d, s) => ({ d, six: counts.subarray(s * COUNTS_PER_DOC, (s + 1) * COUNTS_PER_DOC) })), ...extra].sort((a, b) => a.d - b.d);
  const outDocs = uint32Array(all.length);
  const outCounts = uint32Array(all.length * COUNTS_PER_DOC);
  all.forEach(({ d, six }, s) => {
    outDocs[s] = d;
    outCounts.set(six, s * COUNTS_PER_DOC);
  });
  return { docs: outDocs, counts: outCounts };
}

function total(counts: Uint32Array, s: number): number {
  let sum = 0;
  for (let i = s * COUNTS_PER_DOC; i < (s + 1) * COUNTS_PER_DOC; i++) sum += counts[i]!;
  return sum;
}

function writeCounts(counts: Uint32Array, s: number, found: TermOccurrences): void {
  const at = s * COUNTS_PER_DOC;
  counts[at] = found.title.whole;
  counts[at + 1] = found.title.prefix;
  counts[at + 2] = found.abstract.whole;
  counts[at + 3] = found.abstract.prefix;
  counts[at + 4] = found.authors.whole;
  counts[at + 5] = found.authors.prefix;
}

/**
 * The documents holding any word of `[from, to)`: the word's own set when there is one word,
 * a merged list when the words are rare, a bitset (dense words or'ed in whole) otherwise.
 */
export function unionRange(index: IndexData, from: number, to: number): DocSet {
  const { postings, n } = index;
  if (from >= to) return EMPTY_SET;
  if (to - from === 1) return postings.docSet(from);
  let total = 0;
  let largestDense = -1;
  for (let w = from; w < to; w++) {
    total += postings.df[w]!;
    if (postings.dense[w] === DENSE && (largestDense < 0 || postings.df[w]! > postings.df[largestDense]!)) largestDense = w;
  }
  if (total === 0) return EMPTY_SET;
  if (largestDense < 0 && total * 256 <= n) {
    const all = uint32Array(total);
    let at = 0;
    for (let w = from; w < to; w++) {
      const df = postings.df[w]!;
      if (df === 0) continue;
      postings.copyDocs(w, all, at);
      at += df;
    }
    return listSet(sortUnique(all));
  }
  spend(bitsetWords(n));
  const bits = largestDense >= 0 ? postings.bitsOf(largestDense).slice() : uint32Array(bitsetWords(n));
  let count = largestDense >= 0 ? postings.df[largestDense]! : 0;
  for (let w = from; w < to; w++) {
    const df = postings.df[w]!;
    if (df === 0 || w === largestDense) continue;
    spend(postings.dense[w] === DENSE ? bits.length : df);
    if (postings.dense[w] === DENSE) {
      const other = postings.bitsOf(w);
      for (let i = 0; i < bits.length; i++) {
        const added = other[i]! & ~bits[i]!;
        if (added !== 0) {
          bits[i]! |= added;
          count += popcount32(added);
        }
      }
    } else count += postings.orInto(w, bits);
  }
  return bitsSet(bits, count);
}

/** Upper bound of the documents of the words `[from, to)` (the sum of their frequencies). */
export function rangeFrequency(index: IndexData, from: number, to: number): number {
  let total = 0;
  for (let w = from; w < to; w++) total += index.postings.df[w]!;
  return total;
}

/**
 * The documents of `docs` (ascending) that hold a word of `[from, to)`: membership tests
 * (a bit, or a search of the word's list) instead of building the range's union. Cheap when
 * `docs` is short and the range has few words.
 */
export function filterByRange(index: IndexData, docs: Uint32Array, from: number, to: number): Uint32Array {
  const { postings } = index;
  const kept = uint32Array(docs.length);
  let k = 0;
  const cursors = new Int32Array(to - from);
  for (let i = 0; i < docs.length; i++) {
    const d = docs[i]!;
    spend(to - from);
    for (let w = from; w < to; w++) {
      const df = postings.df[w]!;
      if (df === 0) continue;
      if (postings.dense[w] === DENSE) {
        const bits = postings.bitsOf(w);
        if ((bits[d >>> 5]! & (1 << (d & 31))) !== 0) {
          kept[k++] = d;
          break;
        }
      } else {
        const j = postings.seek(w, d, cursors[w - from]!);
        if (j >= 0) {
          cursors[w - from] = j;
          kept[k++] = d;
          break;
        }
        cursors[w - from] = ~j;
      }
    }
  }
  return kept.subarray(0, k);
}
