import { titleKey } from './title-key.js';
import type { Paper } from '../paper.js';
import type { FieldLengths } from '../search/relevance.js';
import { bitsetWords, popcount32 } from './bits.js';
import { FieldLayout } from './field-layout.js';
import { OrderBook, type OrderData } from './orders.js';
import { PaperStoreBuilder, type PaperStore } from './paper-store.js';
import { LAST, Postings, RANK_BLOCK_SHIFT, SKIP_SHIFT } from './postings.js';
import { denseRanks, inverse, sortByRank } from './ranks.js';
import { PaperTokenizer, type TokenData } from './paper-tokens.js';
import { Vocabulary } from './vocabulary.js';
import { DocSetTable } from './doc-set-table.js';
import { CHAR_SETS, finishFieldText, type FieldText } from './substring/field-text.js';
import { commonWordFields, type CommonWordFields } from './substring/common-word-fields.js';
import { int32Array, uint16Array, uint32Array, uint8Array } from './alloc.js';
import { AuthorNames, AuthorNamesBuilder } from './author-names.js';
import { publishedDays } from './published-range.js';
import { ValueSets } from './value-sets.js';
import { NONE, Successors, successorPlan } from './successors.js';
import { venueKey } from '../filters/venue-key.js';
import { keptAnnotations, methodSlugs, taskSlugs, type PaperAnnotations } from '../annotations/annotations.js';
import { AnnotationStore } from './annotation-store.js';

/** Everything an engine answers from: built once, never changed. */
export interface IndexData {
  readonly n: number;
  readonly vocabulary: Vocabulary;
  /** Word numbers ordered by their text read backwards: the words ending with a suffix are a range. */
  readonly suffixOrder: Uint32Array;
  readonly postings: Postings;
  /** What follows each occurrence of the commonest words: phrases of common words. */
  readonly successors: Successors;
  /** Per ASCII letter or digit (`charSet`): the documents holding a word that starts with it. */
  readonly shortPrefixes: DocSetTable;
  readonly layout: FieldLayout;
  /** What titles and abstracts hold, for the substring filters. */
  readonly titleText: FieldText;
  readonly abstractText: FieldText;
  /** The commonest words' documents by field, for the substring filters. */
  readonly commonWords: CommonWordFields;
  readonly store: PaperStore;
  readonly orders: OrderBook;
  /** The distinct `published` days, ascending, as `YYYYMMDD` (`publishedDays[r]` is published rank `r`): date ranges. */
  readonly publishedDays: Uint32Array;
  /** The author names and their words: `author=`. */
  readonly authorNames: AuthorNames;
  /** Documents by exact `proceeding`. */
  readonly proceedings: ValueSets;
  /** Documents by venue key (see `venueKey`). */
  readonly venues: ValueSets;
  /** Documents by task slug (see `nameSlug`): `task=`. */
  readonly tasks: ValueSets;
  /** Documents by method slug: `method=`. */
  readonly methods: ValueSets;
  /** The documents' tasks and methods (from the Papers with Code dump). */
  readonly annotations: AnnotationStore;
  /** Digest of the content, for the catalogue version. */
  readonly digest: string;
}

/**
 * Builds an index from papers given one at a time (so a catalogue can be streamed in): each
 * paper is serialized into the store and split into word numbers right away, and only those
 * compact numbers are kept until {@link finish} lays out the postings. Peak memory is the
 * JSON, the varint word numbers (about 1.5 bytes a word) and the finished index.
 *
 * @example
 * const builder = new IndexBuilder();
 * for await (const paper of readPapers(path)) builder.add(paper);
 * const index = builder.finish();
 */
export class IndexBuilder {
  /** Null when the papers are tokenized elsewhere (see {@link addTokenized}). */
  private readonly tokenizer: PaperTokenizer | null;
  private readonly store: PaperStoreBuilder;
  private ids: string[] = [];
  private published: (string | null)[] = [];
  private proceedings: (string | null)[] = [];
  private notes: (PaperAnnotations | undefined)[] = [];
  private readonly authorNames = new AuthorNamesBuilder();
  private arxivIds: (string | null)[] = [];
  private titleKeys: string[] = [];
  private finished = false;

  /**
   * @param expectedJsonBytes an estimate of the catalogue's JSON size, to allocate its storage at once (see `estimateJsonBytes`).
   * @param tokenizeHere false when another thread tokenizes the papers: they are then added with
   *   {@link addTokenized} and the index finished with that thread's `TokenData`.
   */
  constructor(expectedJsonBytes = 0, tokenizeHere = true) {
    this.store = new PaperStoreBuilder(expectedJsonBytes);
    this.tokenizer = tokenizeHere ? new PaperTokenizer() : null;
  }

  /** Papers added so far. */
  get size(): number {
    return this.ids.length;
  }

  /** Adds a paper, with its tasks and methods when it has any (kept beside it, see `PaperAnnotations`). */
  add(paper: Paper, annotations?: PaperAnnotations): void {
    if (this.finished) throw new Error('paperlist: the index is already built');
    const tokenizer = this.tokenizer;
    if (tokenizer === null) throw new Error('paperlist: this builder takes papers tokenized elsewhere (addTokenized)');
    tokenizer.add(paper);
    this.addTokenized(paper, annotations, tokenizer.words, tokenizer.authorsFrom, tokenizer.authorEnds, 0);
  }

  /**
   * Adds a paper that a `PaperTokenizer` (here or on another thread) has just tokenized, from
   * what the rest of the index needs of that: the word numbers of its author names, name `a`
   * ending before `words[authorEnds[endsFrom + a]]`, the first starting at `authorsFrom`.
   */
  addTokenized(
    paper: Paper,
    annotations: PaperAnnotations | undefined,
    words: Uint32Array,
    authorsFrom: number,
    authorEnds: ArrayLike<number>,
    endsFrom: number,
  ): void {
    if (this.finished) throw new Error('paperlist: the index is already built');
    this.notes.push(keptAnnotations(annotations));
    this.store.add(paper);
    let from = authorsFrom;
    const names = paper.authors;
    for (let a = 0; a < names.length; a++) {
      const to = authorEnds[endsFrom + a]!;
      this.authorNames.addName(names[a]!, words, from, to);
      from = to;
    }
    this.authorNames.endPaper();
    this.ids.push(paper.id);
    this.published.push(paper.published);
    this.proceedings.push(paper.proceeding);
    this.arxivIds.push(paper.arxiv_id);
    this.titleKeys.push(titleKey(paper.title));
  }

  /**
   * Lays out the index. Throws on a duplicate id. The builder cannot be used afterwards.
   * `tokens`: what the thread that tokenized the papers made of them, when it was not this builder.
   */
  finish(tokens?: TokenData): IndexData {
    if (this.finished) throw new Error('paperlist: the index is already built');
    this.finished = true;
    const n = this.ids.length;
    const made = this.tokenizer?.finish() ?? tokens;
    if (made === undefined) throw new Error('paperlist: the papers were tokenized elsewhere, and finish was not given their tokens');
    if (made.stream.starts.length !== n) throw new Error(`paperlist: ${made.stream.starts.length} papers were tokenized, ${n} added`);

    // The vocabulary, sorted; `renumber` maps build-time word numbers to sorted ones.
    const tableWords = made.words;
    const sortedWords = tableWords.slice().sort();
    const numberOf = new Map<string, number>();
    for (let r = 0; r < sortedWords.length; r++) numberOf.set(sortedWords[r]!, r);
    const renumber = uint32Array(tableWords.length);
    for (let w = 0; w < tableWords.length; w++) renumber[w] = numberOf.get(tableWords[w]!)!;
    numberOf.clear();

    // Orders. Documents are numbered by title then id: the default order is the numbering.
    const days = publishedDays(this.published);
    const { order, data } = this.layoutOrders();
    const authorNames = this.authorNames.finish(n, sortedWords.length, renumber, order);
    const proceedingOf = this.proceedings;
    this.proceedings = [];
    const proceedings = ValueSets.build(n, (d) => proceedingOf[order[d]!]!);
    const venueOf = proceedingOf.map(venueKey);
    const venues = ValueSets.build(n, (d) => venueOf[order[d]!]!);
    const notes = this.notes;
    this.notes = [];
    const noteOf = (d: number) => notes[order[d]!];
    const tasks = ValueSets.buildMulti(n, (d) => taskSlugs(noteOf(d)));
    const methods = ValueSets.buildMulti(n, (d) => methodSlugs(noteOf(d)));
    const annotations = AnnotationStore.build(n, noteOf);
    const store = this.store.finish(order);
    const { postings, successors } = layoutPostings(n, order, renumber, made);
    const layout = layoutFields(n, order, made);
    const vocabulary = Vocabulary.fromSorted(sortedWords);
    const authors = new AuthorNames(
      authorNames.wordNamesAt,
      authorNames.wordNames,
      authorNames.docs,
      AuthorNames.shortPrefixTable(vocabulary, authorNames.wordNamesAt, authorNames.wordNames, authorNames.docs),
      authorNames.names,
    );
    return {
      n,
      vocabulary,
      suffixOrder: suffixOrder(sortedWords),
      postings,
      successors,
      shortPrefixes: shortPrefixSets(n, vocabulary, postings),
      layout,
      titleText: finishFieldText(made.titleText, order),
      abstractText: finishFieldText(made.abstractText, order),
      commonWords: commonWordFields(n, postings, layout),
      store,
      orders: new OrderBook(data),
      publishedDays: days,
      authorNames: authors,
      proceedings,
      venues,
      tasks,
      methods,
      annotations,
      // Without annotations the digest (and so every ETag) is what it was before they existed.
      digest: annotations.isEmpty ? store.digest() : `${store.digest()}-${annotations.digest()}`,
    };
  }

  private layoutOrders(): { order: Uint32Array; data: OrderData } {
    const n = this.ids.length;
    const id = denseRanks(this.ids);
    this.ids = [];
    const title = denseRanks(this.titleKeys);
    this.titleKeys = [];
    const published = denseRanks(this.published);
    this.published = [];
    const arxiv = denseRanks(this.arxivIds);
    this.arxivIds = [];

    const byIdInput = inverse(id.ranks);
    const order = sortByRank(byIdInput, title.ranks, title.distinct, false);
    const numberOf = inverse(order);
    const renumberRanks = (ranks: Uint32Array) => {
      const out = uint32Array(n);
      for (let d = 0; d < n; d++) out[d] = ranks[order[d]!]!;
      return out;
    };
    const ranks = {
      id: renumberRanks(id.ranks),
      title: renumberRanks(title.ranks),
      published: renumberRanks(published.ranks),
      arxiv_id: renumberRanks(arxiv.ranks),
    };
    const byId = uint32Array(n);
    for (let r = 0; r < n; r++) byId[r] = numberOf[byIdInput[r]!]!;
    const identity = uint32Array(n);
    for (let d = 0; d < n; d++) identity[d] = d;
    const data: OrderData = {
      n,
      ranks,
      maxRank: { id: id.distinct, title: title.distinct, published: published.distinct, arxiv_id: arxiv.distinct },
      byId,
      publishedAsc: sortByRank(byId, ranks.published, published.distinct, false),
      publishedDesc: sortByRank(byId, ranks.published, published.distinct, true),
      arxivAsc: sortByRank(byId, ranks.arxiv_id, arxiv.distinct, false),
      arxivDesc: sortByRank(byId, ranks.arxiv_id, arxiv.distinct, true),
      titleDesc: sortByRank(identity, ranks.title, title.distinct, true),
    };
    return { order, data };
  }

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
  let listTotal = 0;
  let denseCount = 0;
  for (let w = 0; w < V; w++) {
    if (df[w]! * 32 > n) {
      dense[w] = 1;
      docsAt[w] = denseCount++;
    } else {
      docsAt[w] = listTotal;
      listTotal += df[w]!;
    }
    positionsAt[w + 1] = positionsAt[w]! + tf[w]!;
    skipAt[w + 1] = skipAt[w]! + ((df[w]! + (1 << SKIP_SHIFT) - 1) >>> SKIP_SHIFT);
  }
  const listDocs = uint32Array(listTotal);
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
  // position cursor, last document + 1, pairs so far, document cursor (or bitset base, dense), skip base, dense.
  const META = 6;
  const meta = uint32Array(V * META);
  for (let b = 0; b < V; b++) {
    const w = renumber[b]!;
    const m = b * META;
    meta[m] = positionsAt[w]!;
    meta[m + 3] = dense[w] === 1 ? docsAt[w]! * wordsPerSet : docsAt[w]!;
    meta[m + 4] = skipAt[w]!;
    const anchor = anchorOf.get(w);
    // Bit 0: a dense word; bit 1: an anchor (its successors are written).
    meta[m + 5] = dense[w]! | (anchor === undefined ? 0 : 2);
    if (anchor !== undefined) codeDelta[b] = plan.codesAt[anchor]! - positionsAt[w]!;
    codeByBuild[b] = successors.codeOf(w);
  }
  const codes = successors.codes;
  let distinct = uint32Array(1024);
  const fieldLengths: number[] = [];
  const oversize = tokens.oversize;
  const { chunks, chunkOf, starts } = tokens.stream;

  for (let d = 0; d < n; d++) {
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
          if ((pair & ((1 << SKIP_SHIFT) - 1)) === 0) skip[meta[m + 4]! + (pair >>> SKIP_SHIFT)] = meta[m]!;
          if ((meta[m + 5]! & 1) === 1) bitsets[meta[m + 3]! + (d >>> 5)]! |= 1 << (d & 31);
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
  return { postings: new Postings(n, df, docsAt, dense, listDocs, bitsets, rankDirectory, positionsAt, positions, skipAt, skip), successors };
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

/** Word numbers (of the sorted vocabulary `words`) ordered by each word read backwards. */
function suffixOrder(words: readonly string[]): Uint32Array {
  const reversed = words.map((word, w) => ({ key: reverse(word), w }));
  reversed.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const order = uint32Array(words.length);
  for (let i = 0; i < reversed.length; i++) order[i] = reversed[i]!.w;
  return order;
}

function reverse(word: string): string {
  let out = '';
  for (let i = word.length - 1; i >= 0; i--) out += word[i];
  return out;
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
      if (postings.dense[w] === 1) {
        const other = postings.bitsOf(w);
        for (let i = 0; i < words; i++) union[i]! |= other[i]!;
      } else {
        const at = postings.docsAt[w]!;
        for (let i = at; i < at + postings.df[w]!; i++) {
          const d = postings.listDocs[i]!;
          union[d >>> 5]! |= 1 << (d & 31);
        }
      }
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
