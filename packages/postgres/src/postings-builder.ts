import { compareCodePoints } from '@paperlist/core';
import { encodeEntry, MAX_ENTRY_BYTES } from './posting-codec.js';
import { grown } from './grown-array.js';

/** A row for table-writer.ts's `writeRows` (its `Row`; not imported: table-writer needs copy-format, which needs this). */
type Row = (string | null)[] | string;

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

/** Entries per chunk of the builder's entry arrays. */
const ENTRY_CHUNK = 1 << 20;
/** A packed count triple that did not fit (see {@link PostingsBuilder}). */
const UNPACKED = -1;

/**
 * The posting lists and paper facts of a whole catalogue, gathered while an import encodes its
 * papers (their words are looked up in the dictionary there anyway), then written as rows of
 * `paperlist_postings` and `paperlist_paper_facts`. Papers must come in ascending ordinal order.
 *
 * While papers come, each (paper, word) pair is appended to flat arrays (its word, and its
 * counts packed in one int32: title and authors 10 bits each, abstract 12; larger counts kept
 * aside), which costs next to nothing beside the encoding of the rows; the lists are made at the
 * end by a counting sort on the word. About 20 bytes a pair at the peak (the entries, then the sorted slots and the encoded lists beside
 * them), some 800 MB for 498k papers.
 */
export class PostingsBuilder {
  private readonly wordChunks: Int32Array[] = [];
  private readonly countChunks: Int32Array[] = [];
  private entries = 0;
  /** Counts that do not fit in the packed int32, by entry. */
  private readonly unpacked = new Map<number, [title: number, abstract: number, authors: number]>();
  /** Per ordinal: the end of its entries. */
  private paperEnds: Int32Array = new Int32Array(1 << 16);
  private dfs: Int32Array = new Int32Array(1 << 16);
  /** Per ordinal: title, authors, abstract lengths and flags. */
  private fieldLengths: Int32Array = new Int32Array(4 << 16);
  /** Per ordinal: what the paper is ordered by. */
  private readonly orderValues: OrderValues[] = [];
  private maxOrd = 0;
  /**
   * Scratch per paper, four slots per word id side by side (one cache line, not four: a catalogue
   * has about a hundred million word occurrences): the paper that last counted the word, then its
   * title, abstract and authors counts.
   */
  private scratch: Int32Array = new Int32Array(4 << 16);

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
    for (let skipped = this.maxOrd + 1; skipped < ord; skipped++) this.setPaperEnd(skipped);
    this.maxOrd = ord;
    if (4 * ord + 4 > this.fieldLengths.length) this.fieldLengths = grown(this.fieldLengths, 4 * ord + 4);
    this.fieldLengths[4 * ord] = lengths.title;
    this.fieldLengths[4 * ord + 1] = lengths.authors;
    this.fieldLengths[4 * ord + 2] = lengths.abstract;
    this.fieldLengths[4 * ord + 3] = lengths.flags;
    this.orderValues[ord] = order;
    const needed = 4 * (maxOf(ids, count) + 1);
    if (needed > this.scratch.length) this.scratch = grown(this.scratch, needed);
    if (needed / 4 > this.dfs.length) this.dfs = grown(this.dfs, needed / 4);
    const scratch = this.scratch;
    for (let i = 0; i < count; i++) {
      const at = 4 * ids[i]!;
      if (scratch[at] !== ord) {
        scratch[at] = ord;
        scratch[at + 1] = 0;
        scratch[at + 2] = 0;
        scratch[at + 3] = 0;
      }
      scratch[at + (i < titleEnd ? 1 : i < abstractEnd ? 2 : 3)]!++;
    }
    // Each distinct word once: the stamp goes negative once its entry is written.
    for (let i = 0; i < count; i++) {
      const id = ids[i]!;
      const at = 4 * id;
      if (scratch[at] !== ord) continue;
      scratch[at] = -ord;
      const title = scratch[at + 1]!;
      const abstract = scratch[at + 2]!;
      const authors = scratch[at + 3]!;
      const entry = this.entries++;
      const chunk = entry >>> 20;
      if (chunk === this.wordChunks.length) {
        this.wordChunks.push(new Int32Array(ENTRY_CHUNK));
        this.countChunks.push(new Int32Array(ENTRY_CHUNK));
      }
      this.wordChunks[chunk]![entry & (ENTRY_CHUNK - 1)] = id;
      let packed = UNPACKED;
      if (title < 1024 && authors < 1024 && abstract < 4096) packed = title | (authors << 10) | (abstract << 20);
      else this.unpacked.set(entry, [title, abstract, authors]);
      this.countChunks[chunk]![entry & (ENTRY_CHUNK - 1)] = packed;
      this.dfs[id]!++;
    }
    this.setPaperEnd(ord);
  }

  private setPaperEnd(ord: number): void {
    if (ord >= this.paperEnds.length) this.paperEnds = grown(this.paperEnds, ord + 1);
    this.paperEnds[ord] = this.entries;
  }

  /** The encoded lists, once {@link prepare} ran: all in one arena, word by word. */
  private prepared: { arena: Uint8Array; ends: Float64Array } | null = null;
  /** The order ranks, once {@link prepare} ran. */
  private orderRanks: Int32Array[] | null = null;

  /**
   * Makes the lists and the order ranks. It yields to the event loop every few thousand words,
   * so an import runs it while the server builds the table's indexes (the two use both cores).
   */
  async prepare(): Promise<void> {
    if (this.prepared !== null) return;
    const pause = () => new Promise<void>((resolve) => setImmediate(resolve));
    const words = this.dfs.length;
    // Counting sort by word, stable: each word's entries stay in ordinal order.
    const starts = new Int32Array(words + 1);
    for (let id = 0; id < words; id++) starts[id + 1] = starts[id]! + this.dfs[id]!;
    const cursor = starts.slice(0, words);
    const slotOrds = new Int32Array(this.entries);
    const slotEntries = new Int32Array(this.entries);
    let entry = 0;
    for (let ord = 1; ord <= this.maxOrd; ord++) {
      for (const end = this.paperEnds[ord]!; entry < end; entry++) {
        const id = this.wordChunks[entry >>> 20]![entry & (ENTRY_CHUNK - 1)]!;
        const slot = cursor[id]!++;
        slotOrds[slot] = ord;
        slotEntries[slot] = entry;
      }
      if ((ord & 0xffff) === 0) await pause();
    }
    let arena = new Uint8Array(Math.max(1 << 16, 3 * this.entries));
    const ends = new Float64Array(words);
    let at = 0;
    for (let id = 0; id < words; id++) {
      const from = starts[id]!;
      const to = starts[id + 1]!;
      if (at + (to - from) * MAX_ENTRY_BYTES > arena.length) {
        const bigger = new Uint8Array(Math.max(2 * arena.length, at + (to - from) * MAX_ENTRY_BYTES));
        bigger.set(arena.subarray(0, at));
        arena = bigger;
      }
      let previous = 0;
      for (let slot = from; slot < to; slot++) {
        const ord = slotOrds[slot]!;
        const e = slotEntries[slot]!;
        const packed = this.countChunks[e >>> 20]![e & (ENTRY_CHUNK - 1)]!;
        if (packed === UNPACKED) {
          const [title, abstract, authors] = this.unpacked.get(e)!;
          at = encodeEntry(arena, at, ord - previous, title, abstract, authors);
        } else {
          at = encodeEntry(arena, at, ord - previous, packed & 1023, packed >>> 20, (packed >>> 10) & 1023);
        }
        previous = ord;
      }
      ends[id] = at;
      if ((id & 0x3fff) === 0) await pause();
    }
    this.prepared = { arena, ends };
    // The entries are in the lists now.
    this.wordChunks.length = 0;
    this.countChunks.length = 0;
    const ranks: Int32Array[] = [];
    for (const valueOf of [(v: OrderValues) => v.titleKey, (v: OrderValues) => v.published, (v: OrderValues) => v.arxivId, (v: OrderValues) => v.id]) {
      await pause();
      ranks.push(this.ranks(valueOf));
    }
    this.orderRanks = ranks;
  }

  /** Rows of `paperlist_postings (word_id, df, data)`: COPY lines, or values for INSERT. */
  async *postingRows(copy: boolean): AsyncGenerator<Row> {
    await this.prepare();
    const { arena, ends } = this.prepared!;
    let from = 0;
    for (let id = 0; id < ends.length; id++) {
      const df = this.dfs[id]!;
      if (df === 0) continue;
      const hex = Buffer.from(arena.buffer, arena.byteOffset + from, ends[id]! - from).toString('hex');
      from = ends[id]!;
      // COPY text format reads `\\` as one backslash: bytea's hex input is `\x...`.
      yield copy ? `${id}\t${df}\t\\\\x${hex}\n` : [String(id), String(df), `\\x${hex}`];
    }
  }

  /**
   * Rows of `paperlist_paper_facts (chunk, data)`: per paper, by ordinal, the {@link FACT_FIELDS}.
   * A rank is the paper's place among all papers ordered by that field ascending (code point
   * order, nulls last) where papers with equal values share the rank of the first of them; the
   * id's rank is unique. Any ordering of these fields, either direction, with `id` ascending
   * last, is then an order of rank tuples (see posting-order.ts).
   */
  async *factRows(copy: boolean): AsyncGenerator<Row> {
    await this.prepare();
    const n = this.maxOrd + 1;
    const ranks = this.orderRanks!;
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

}

function maxOf(values: Int32Array, count: number): number {
  let most = 0;
  for (let i = 0; i < count; i++) if (values[i]! > most) most = values[i]!;
  return most;
}

const SURROGATE = /[\ud800-\udfff]/;
