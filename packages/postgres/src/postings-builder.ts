import { compareCodePoints } from '@paperlist/core';
import { encodeEntry, MAX_ENTRY_BYTES } from './posting-codec.js';
import type { Row } from './table-writer.js';

/** Papers per row of `paperlist_paper_facts`. */
export const FACTS_CHUNK = 65_536;

/**
 * What `paperlist_paper_facts` holds per paper, as little-endian int32s in this order: BM25's
 * field lengths, the recheck flags, and the paper's place in each ordering field (see
 * {@link PostingsBuilder.factRows}).
 */
export const FACT_FIELDS = ['titleLength', 'authorsLength', 'abstractLength', 'flags', 'titleRank', 'publishedRank', 'arxivIdRank', 'idRank'] as const;

/** Flag: the title's substring filter must be checked on the stored text (non-ASCII, or a word cut in the dictionary). */
export const RECHECK_TITLE = 1;
/** Flag: the same for the abstract. */
export const RECHECK_ABSTRACT = 2;

/** What a paper is ordered by (the columns of cursor-sql.ts's ORDER_COLUMNS). */
export interface OrderValues {
  titleKey: string;
  published: string | null;
  arxivId: string | null;
  id: string;
}

/**
 * The posting lists and field lengths of a whole catalogue, gathered while an import encodes
 * its papers (their words are looked up in the dictionary there anyway), then written as rows
 * of `paperlist_postings` and `paperlist_lengths`. Papers must come in ascending ordinal order.
 * About two bytes a (paper, word) pair: 100 MB for 498k papers.
 */
export class PostingsBuilder {
  private lists: (Uint8Array | undefined)[] = [];
  private ends: Int32Array = new Int32Array(1 << 16);
  private lastOrds: Int32Array = new Int32Array(1 << 16);
  private dfs: Int32Array = new Int32Array(1 << 16);
  /** Per ordinal: title, authors, abstract lengths and flags. */
  private fieldLengths: Int32Array = new Int32Array(4 << 16);
  /** Per ordinal: what the paper is ordered by. */
  private readonly orderValues: OrderValues[] = [];
  private maxOrd = 0;
  // Scratch per paper, by word id: the paper that last counted the word, and its counts.
  private stamps: Int32Array = new Int32Array(1 << 16);
  private titleCounts: Int32Array = new Int32Array(1 << 16);
  private abstractCounts: Int32Array = new Int32Array(1 << 16);
  private authorsCounts: Int32Array = new Int32Array(1 << 16);

  /**
   * Adds one paper: `ids[0, count)` are its words' ids field by field with repeats, the title's
   * before `titleEnd`, the abstract's before `abstractEnd`, the authors' after.
   */
  addPaper(
    ord: number,
    ids: Int32Array,
    count: number,
    titleEnd: number,
    abstractEnd: number,
    lengths: { title: number; authors: number; abstract: number; flags: number },
    order: OrderValues,
  ): void {
    if (ord <= this.maxOrd) throw new Error(`paperlist: posting lists need ascending ordinals (${ord} after ${this.maxOrd})`);
    this.maxOrd = ord;
    if (4 * ord + 4 > this.fieldLengths.length) this.fieldLengths = grown(this.fieldLengths, 4 * ord + 4);
    this.fieldLengths[4 * ord] = lengths.title;
    this.fieldLengths[4 * ord + 1] = lengths.authors;
    this.fieldLengths[4 * ord + 2] = lengths.abstract;
    this.fieldLengths[4 * ord + 3] = lengths.flags;
    this.orderValues[ord] = order;
    for (let i = 0; i < count; i++) {
      const id = ids[i]!;
      if (id >= this.stamps.length) this.growWords(id + 1);
      if (this.stamps[id] !== ord) {
        this.stamps[id] = ord;
        this.titleCounts[id] = 0;
        this.abstractCounts[id] = 0;
        this.authorsCounts[id] = 0;
      }
      if (i < titleEnd) this.titleCounts[id]!++;
      else if (i < abstractEnd) this.abstractCounts[id]!++;
      else this.authorsCounts[id]!++;
    }
    // Each distinct word once: the stamp goes negative once its entry is written.
    for (let i = 0; i < count; i++) {
      const id = ids[i]!;
      if (this.stamps[id] !== ord) continue;
      this.stamps[id] = -ord;
      let list = this.lists[id];
      const end = this.ends[id]!;
      if (list === undefined || end + MAX_ENTRY_BYTES > list.length) {
        const bigger = new Uint8Array(Math.max(16, (list?.length ?? 0) * 2, end + MAX_ENTRY_BYTES));
        if (list !== undefined) bigger.set(list.subarray(0, end));
        this.lists[id] = list = bigger;
      }
      this.ends[id] = encodeEntry(list, end, ord - this.lastOrds[id]!, this.titleCounts[id]!, this.abstractCounts[id]!, this.authorsCounts[id]!);
      this.lastOrds[id] = ord;
      this.dfs[id]!++;
    }
  }

  /** Rows of `paperlist_postings (word_id, df, data)`: COPY lines, or values for INSERT. */
  *postingRows(copy: boolean): Generator<Row> {
    for (let id = 0; id < this.lists.length; id++) {
      const list = this.lists[id];
      if (list === undefined) continue;
      const hex = Buffer.from(list.buffer, list.byteOffset, this.ends[id]).toString('hex');
      // COPY text format reads `\\` as one backslash: bytea's hex input is `\x...`.
      yield copy ? `${id}\t${this.dfs[id]}\t\\\\x${hex}\n` : [String(id), String(this.dfs[id]), `\\x${hex}`];
    }
  }

  /**
   * Rows of `paperlist_paper_facts (chunk, data)`: per paper, by ordinal, the {@link FACT_FIELDS}.
   * A rank is the paper's place among all papers ordered by that field ascending (code point
   * order, nulls last) where papers with equal values share the rank of the first of them; the
   * id's rank is unique. Any ordering of these fields, either direction, with `id` ascending
   * last, is then an order of rank tuples (see posting-order.ts).
   */
  *factRows(copy: boolean): Generator<Row> {
    const n = this.maxOrd + 1;
    const ranks = [
      this.ranks((v) => v.titleKey),
      this.ranks((v) => v.published),
      this.ranks((v) => v.arxivId),
      this.ranks((v) => v.id),
    ];
    const lengths = this.fieldLengths;
    for (let chunk = 0; chunk * FACTS_CHUNK < n; chunk++) {
      const from = chunk * FACTS_CHUNK;
      const to = Math.min(n, from + FACTS_CHUNK);
      const width = 4 * FACT_FIELDS.length;
      const bytes = Buffer.alloc(width * (to - from));
      for (let ord = from; ord < to; ord++) {
        const at = width * (ord - from);
        for (let k = 0; k < 4; k++) bytes.writeInt32LE(lengths[4 * ord + k]!, at + 4 * k);
        for (let k = 0; k < 4; k++) bytes.writeInt32LE(ranks[k]![ord]!, at + 16 + 4 * k);
      }
      const hex = bytes.toString('hex');
      yield copy ? `${chunk}\t\\\\x${hex}\n` : [String(chunk), `\\x${hex}`];
    }
  }

  /** Each ordinal's rank by one value (see {@link factRows}); ordinal 0 (no paper) ranks last. */
  private ranks(valueOf: (values: OrderValues) => string | null): Int32Array {
    const values = this.orderValues;
    const ords: number[] = [];
    let surrogates = false;
    for (let ord = 1; ord <= this.maxOrd; ord++) {
      ords.push(ord);
      const value = valueOf(values[ord]!);
      if (value !== null && !surrogates && SURROGATE.test(value)) surrogates = true;
    }
    // Without surrogates, UTF-16 order is code point order, and the engine's own comparison is much faster.
    const compare = surrogates ? compareCodePoints : (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
    const keyed = ords.map((ord) => valueOf(values[ord]!));
    ords.sort((a, b) => {
      const x = keyed[a - 1]!;
      const y = keyed[b - 1]!;
      if (x === y) return 0;
      if (x === null) return 1;
      if (y === null) return -1;
      return compare(x, y);
    });
    const ranks = new Int32Array(this.maxOrd + 1).fill(this.maxOrd + 1);
    for (let i = 0; i < ords.length; i++) {
      const ord = ords[i]!;
      ranks[ord] = i > 0 && keyed[ord - 1] === keyed[ords[i - 1]! - 1] ? ranks[ords[i - 1]!]! : i;
    }
    return ranks;
  }

  private growWords(needed: number): void {
    this.ends = grown(this.ends, needed);
    this.lastOrds = grown(this.lastOrds, needed);
    this.dfs = grown(this.dfs, needed);
    this.stamps = grown(this.stamps, needed);
    this.titleCounts = grown(this.titleCounts, needed);
    this.abstractCounts = grown(this.abstractCounts, needed);
    this.authorsCounts = grown(this.authorsCounts, needed);
  }
}

const SURROGATE = /[\ud800-\udfff]/;

function grown(array: Int32Array, needed: number): Int32Array {
  let size = array.length;
  while (size < needed) size *= 2;
  const bigger = new Int32Array(size);
  bigger.set(array);
  return bigger;
}
