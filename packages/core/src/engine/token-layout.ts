import type { FieldLengths } from '../search/relevance.js';
import { bitsetWords, popcount32 } from './bits.js';
import { DocSetTable } from './doc-set-table.js';
import { FieldLayout } from './field-layout.js';
import { DENSE, GROUPED, LAST, Postings, RANK_BLOCK_SHIFT, SKIP_SHIFT } from './postings.js';
import { groupCount, listGroupShape } from './list-groups.js';
import type { TokenData } from './paper-tokens.js';
import type { WordCodes } from './word-table.js';
import { Vocabulary } from './vocabulary.js';
import { CHAR_SETS } from './substring/field-text.js';
import { CommonWordFields, commonWordFields } from './substring/common-word-fields.js';
import { int32Array, uint16Array, uint32Array, uint8Array } from './alloc.js';
import { NONE, Successors, successorPlan } from './successors.js';
import { suffixOrder } from './suffix-order.js';

/*
 * The half of an index's finish that reads only the papers' tokens: the sorted vocabulary, then,
 * once the documents' order is known, the postings and what goes with them (the field lengths,
 * the documents of each one-character prefix, and on the tokenizing thread the commonest words'
 * fields, which read both). A build on two
 * threads runs it on the tokenizing thread, which holds the tokens, while the building thread
 * sorts titles, lays out the stored JSON and the other tables (see `memory/parallel-build.ts`);
 * a build on one thread runs the same code in turn, so both give the same index.
 */

/** The build's vocabulary, sorted. */
export interface SortedVocabulary {
  readonly vocabulary: Vocabulary;
  /** Word numbers ordered by their text read backwards: the words ending with a suffix are a range (`null`: not made, see `sortVocabulary`). */
  readonly suffixOrder: Uint32Array | null;
  /** Build-time word number → sorted word number. */
  readonly renumber: Uint32Array;
}

/** What the tokens make, documents numbered by the index's order. */
export interface TokenLayout {
  readonly postings: Postings;
  readonly successors: Successors;
  readonly shortPrefixes: DocSetTable;
  readonly layout: FieldLayout;
  /** The commonest words' fields, when asked for (they read the postings and the field lengths). */
  readonly commonWords: CommonWordFields | null;
}

/**
 * The token half of a finish run by the thread that tokenized the papers (see
 * `threads/tokenize-worker.ts`): the building thread asks for the vocabulary, tells the order,
 * then takes the layout, and meanwhile does its own half.
 */
export interface TokensElsewhere {
  /** The sorted vocabulary (waits for it). */
  vocabulary(): SortedVocabulary;
  /** Documents are numbered by `order` (`order[d]` = input number of document `d`): the layout can start. */
  order(order: Uint32Array): void;
  /** The layout (waits for it). */
  layout(): TokenLayout;
}

/** Sorts the build-time words (`TokenData.words`), and makes their suffix order unless `withSuffixOrder` is false (an index that defers it). */
export function sortVocabulary(tableWords: WordCodes, withSuffixOrder = true): SortedVocabulary {
  const { vocabulary, renumber } = Vocabulary.sort(tableWords);
  return { vocabulary, suffixOrder: withSuffixOrder ? suffixOrder(vocabulary) : null, renumber };
}

/** Lays out what the tokens make, documents numbered by `order`. */
export function layoutTokens(n: number, order: Uint32Array, sorted: SortedVocabulary, tokens: TokenData, withCommonWords = false): TokenLayout {
  const { postings, successors } = layoutPostings(n, order, sorted.renumber, tokens);
  const layout = layoutFields(n, order, tokens);
  return {
    postings,
    successors,
    shortPrefixes: shortPrefixSets(n, sorted.vocabulary, postings),
    layout,
    commonWords: withCommonWords ? commonWordFields(n, postings, layout) : null,
  };
}

/**
 * A {@link TokenLayout} or {@link SortedVocabulary} after a trip to another thread: the
 * structured clone keeps the typed arrays (shared, as `alloc` makes the large ones) and the
 * fields, not the classes (`c` has the fields, read as such, and none of the methods). These
 * make the working objects again, without copies.
 */
export function sortedVocabularyFromClone(c: SortedVocabulary): SortedVocabulary {
  return { vocabulary: new Vocabulary(c.vocabulary.chars, c.vocabulary.starts), suffixOrder: c.suffixOrder, renumber: c.renumber };
}

/** See {@link sortedVocabularyFromClone}. */
export function tokenLayoutFromClone(c: TokenLayout): TokenLayout {
  const table = (t: DocSetTable) => new DocSetTable(t.n, t.df, t.docsAt, t.dense, t.listDocs, t.bitsets, t.listLows, t.groupShift);
  const p = c.postings;
  const s = c.successors;
  const l = c.layout;
  const averages: FieldLengths = { title: l.averages.title, abstract: l.averages.abstract, authors: l.averages.authors };
  return {
    postings: new Postings(p.n, p.df, p.docsAt, p.dense, p.listDocs, p.bitsets, p.rankDirectory, p.positionsAt, p.positions, p.skipAt, p.skip, p.listLows, p.groupShift),
    successors: new Successors(s.frequent, s.anchors, s.codesAt, s.codes),
    shortPrefixes: table(c.shortPrefixes),
    layout: new FieldLayout(l.titleLength, l.abstractLength, l.authorsLength, l.oversize, l.oversizeLengths, averages),
    commonWords: c.commonWords === null ? null : new CommonWordFields(c.commonWords.words, table(c.commonWords.title), table(c.commonWords.abstract)),
  };
}

/** The postings of every word, documents numbered by `order`, from the papers' tokens. */
function layoutPostings(n: number, order: Uint32Array, renumber: Uint32Array, tokens: TokenData): { postings: Postings; successors: Successors } {
  const V = renumber.length;
  const df = uint32Array(V);
  const tf = uint32Array(V);
  const counts = tokens.counts;
  for (let w = 0; w < V; w++) {
    df[renumber[w]!] = counts[3 * w + 1]!;
    tf[renumber[w]!] = counts[3 * w + 2]!;
  }

  const wordsPerSet = bitsetWords(n);
  const dense = uint8Array(V);
  const docsAt = uint32Array(V);
  const positionsAt = uint32Array(V + 1);
  const skipAt = uint32Array(V + 1);
  const shape = listGroupShape();
  const groups = groupCount(n, shape.shift);
  let listTotal = 0;
  let lowsTotal = 0;
  let denseCount = 0;
  let groupedCount = 0;
  for (let w = 0; w < V; w++) {
    if (df[w]! * 32 > n) {
      dense[w] = DENSE;
      docsAt[w] = denseCount++;
    } else if (df[w]! >= shape.minDf && df[w]! < 0x10000) {
      // A header of ranks is 16-bit too: a grouped list holds fewer than 2^16 documents.
      dense[w] = GROUPED;
      docsAt[w] = lowsTotal;
      lowsTotal += groups + 1 + df[w]!;
      groupedCount++;
    } else {
      docsAt[w] = listTotal;
      listTotal += df[w]!;
    }
    positionsAt[w + 1] = positionsAt[w]! + tf[w]!;
    // No entry for pair 0: its offset is `positionsAt` (most words have fewer than 32 pairs).
    skipAt[w + 1] = skipAt[w]! + (df[w] === 0 ? 0 : (df[w]! - 1) >>> SKIP_SHIFT);
  }
  const listDocs = uint32Array(listTotal);
  const listLows = uint16Array(lowsTotal);
  const lowMask = (1 << shape.shift) - 1;
  const bitsets = uint32Array(denseCount * wordsPerSet);
  const positions = uint16Array(positionsAt[V]!);
  const skip = uint32Array(skipAt[V]!);
  // Successor codes: per build-time word its code, and for anchors where their codes go.
  const plan = successorPlan(tf, n);
  const successors = new Successors(plan.frequent, plan.anchors, plan.codesAt, uint8Array(plan.codesAt[plan.anchors.length]!));
  successors.codes.fill(NONE);
  const codeByBuild = uint8Array(V);
  const codeDelta = int32Array(V);
  const anchorOf = new Map<number, number>();
  plan.anchors.forEach((w, i) => anchorOf.set(w, i));

  // One record per build-time word number, so each word read touches one cache line:
  // position cursor, last document + 1, pairs so far, document cursor (or bitset base, dense;
  // low-bits cursor, grouped), skip base, kind.
  const META = 6;
  const meta = uint32Array(V * META);
  // The records of the grouped words, whose headers get a rank as each group starts.
  const groupedMeta = uint32Array(groupedCount);
  let g = 0;
  for (let b = 0; b < V; b++) {
    const w = renumber[b]!;
    const m = b * META;
    meta[m] = positionsAt[w]!;
    meta[m + 3] = dense[w] === DENSE ? docsAt[w]! * wordsPerSet : dense[w] === GROUPED ? docsAt[w]! + groups + 1 : docsAt[w]!;
    meta[m + 4] = skipAt[w]!;
    if (dense[w] === GROUPED) groupedMeta[g++] = m;
    const anchor = anchorOf.get(w);
    // Bit 0: a dense word; bit 1: an anchor (its successors are written); bit 2: a grouped list.
    meta[m + 5] = (dense[w] === DENSE ? 1 : dense[w] === GROUPED ? 4 : 0) | (anchor === undefined ? 0 : 2);
    if (anchor !== undefined) codeDelta[b] = plan.codesAt[anchor]! - positionsAt[w]!;
    codeByBuild[b] = successors.codeOf(w);
  }
  const codes = successors.codes;
  let distinct = uint32Array(1024);
  const fieldLengths: number[] = [];
  const oversize = tokens.oversize;
  const { chunks, chunkOf, starts } = tokens.stream;

  for (let d = 0; d < n; d++) {
    if ((d & lowMask) === 0 && d > 0) {
      // Group d >>> shift starts: each grouped list's header takes its pairs so far (its cursor
      // is its header + groups + 1 + pairs).
      const group = d >>> shape.shift;
      for (let i = 0; i < groupedCount; i++) {
        const m = groupedMeta[i]!;
        listLows[meta[m + 3]! - meta[m + 2]! - groups - 1 + group] = meta[m + 2]!;
      }
    }
    const input = order[d]!;
    const big = oversize[input] === 1;
    const bytes = chunks[chunkOf[input]!]!;
    let at = starts[input]!;
    // varint reader, inlined for speed (all values stay far below 2^28)
    let value = 0;
    let shift = 0;
    let b = 0;
    do {
      b = bytes[at++]!;
      value |= (b & 0x7f) << shift;
      shift += 7;
    } while (b >= 0x80);
    const fieldCount = value;
    fieldLengths.length = 0;
    let wordCount = 0;
    for (let f = 0; f < fieldCount; f++) {
      value = 0;
      shift = 0;
      do {
        b = bytes[at++]!;
        value |= (b & 0x7f) << shift;
        shift += 7;
      } while (b >= 0x80);
      fieldLengths.push(value);
      wordCount += value;
    }
    if (distinct.length < wordCount) distinct = uint32Array(wordCount * 2);
    let distinctCount = 0;
    let position = 0;
    const stamp = d + 1;
    for (let f = 0; f < fieldCount; f++) {
      const length = fieldLengths[f]!;
      // Where the previous word's successor code goes, when it is an anchor's (else -1).
      let successorAt = -1;
      for (let j = 0; j < length; j++) {
        value = 0;
        shift = 0;
        do {
          b = bytes[at++]!;
          value |= (b & 0x7f) << shift;
          shift += 7;
        } while (b >= 0x80);
        const m = (value >>> 2) * META;
        if (meta[m + 1] !== stamp) {
          meta[m + 1] = stamp;
          distinct[distinctCount++] = m;
          const pair = meta[m + 2]!;
          meta[m + 2] = pair + 1;
          if ((pair & ((1 << SKIP_SHIFT) - 1)) === 0 && pair > 0) skip[meta[m + 4]! + (pair >>> SKIP_SHIFT) - 1] = meta[m]!;
          const kind = meta[m + 5]! & 5;
          if (kind === 1) bitsets[meta[m + 3]! + (d >>> 5)]! |= 1 << (d & 31);
          else if (kind === 4) listLows[meta[m + 3]!++] = d & lowMask;
          else listDocs[meta[m + 3]!++] = d;
          if (big) positions[meta[m]!++] = 0;
        }
        if (!big) {
          const word = value >>> 2;
          // The code, and the word's "one space after" flag (bit 1 of the stream's flags) as bit 7.
          if (successorAt >= 0) codes[successorAt] = codeByBuild[word]! | ((value & 2) << 6);
          successorAt = (meta[m + 5]! & 2) !== 0 ? meta[m]! + codeDelta[word]! : -1;
          positions[meta[m]!++] = (position + j) | ((value & 3) << 13);
        }
      }
      position += length + 1;
    }
    for (let k = 0; k < distinctCount; k++) {
      positions[meta[distinct[k]!]! - 1]! |= LAST;
    }
  }

  for (let w = 0; w < V; w++) if (dense[w] === GROUPED) listLows[docsAt[w]! + groups] = df[w]!;
  const blocksPerSet = (wordsPerSet >>> RANK_BLOCK_SHIFT) + 1;
  const rankDirectory = uint32Array(denseCount * blocksPerSet);
  for (let s = 0; s < denseCount; s++) {
    let count = 0;
    const base = s * wordsPerSet;
    for (let i = 0; i < wordsPerSet; i++) {
      if ((i & ((1 << RANK_BLOCK_SHIFT) - 1)) === 0) rankDirectory[s * blocksPerSet + (i >>> RANK_BLOCK_SHIFT)] = count;
      const v = bitsets[base + i]!;
      if (v !== 0) count += popcount32(v);
    }
  }
  return { postings: new Postings(n, df, docsAt, dense, listDocs, bitsets, rankDirectory, positionsAt, positions, skipAt, skip, listLows, shape.shift), successors };
}

/** Each document's field lengths (in words) and the catalogue's averages, documents numbered by `order`. */
function layoutFields(n: number, order: Uint32Array, tokens: TokenData): FieldLayout {
  const titleLength = uint16Array(n);
  const abstractLength = uint16Array(n);
  const authorsLength = uint16Array(n);
  const oversizeDocs: number[] = [];
  const oversizeLengths: number[] = [];
  const { lengths, oversize, totals } = tokens;
  for (let d = 0; d < n; d++) {
    const i = order[d]!;
    const title = lengths[3 * i]!;
    const abstract = lengths[3 * i + 1]!;
    const authors = lengths[3 * i + 2]!;
    if (oversize[i] === 1) {
      oversizeDocs.push(d);
      oversizeLengths.push(title, abstract, authors);
    } else {
      titleLength[d] = title;
      abstractLength[d] = abstract;
      authorsLength[d] = authors;
    }
  }
  const count = Math.max(n, 1);
  const averages: FieldLengths = {
    title: totals.title / count,
    abstract: totals.abstract / count,
    authors: totals.authors / count,
  };
  return new FieldLayout(titleLength, abstractLength, authorsLength, Uint32Array.from(oversizeDocs), Uint32Array.from(oversizeLengths), averages);
}

/**
 * The documents of every one-character ASCII prefix (`a`…`z`, `0`…`9`): the unions a search
 * for a single letter or digit would otherwise make of tens of thousands of words' postings.
 */
function shortPrefixSets(n: number, vocabulary: Vocabulary, postings: Postings): DocSetTable {
  const words = bitsetWords(n);
  const bits: Uint32Array[] = [];
  for (let set = 0; set < CHAR_SETS; set++) {
    const union = new Uint32Array(words);
    const [from, to] = vocabulary.prefixRange(String.fromCharCode(set < 26 ? 97 + set : 48 + set - 26));
    for (let w = from; w < to; w++) {
      if (postings.df[w] === 0) continue;
      if (postings.dense[w] === DENSE) {
        const other = postings.bitsOf(w);
        for (let i = 0; i < words; i++) union[i]! |= other[i]!;
      } else postings.orInto(w, union);
    }
    bits.push(union);
  }
  return DocSetTable.build(n, CHAR_SETS, (add) => {
    for (let d = 0; d < n; d++) {
      const word = d >>> 5;
      const bit = 1 << (d & 31);
      for (let set = 0; set < CHAR_SETS; set++) if ((bits[set]![word]! & bit) !== 0) add(d, set);
    }
  });
}
