import { encodeEntry, MAX_ENTRY_BYTES } from './posting-codec.js';
import type { Row } from './table-writer.js';

/** Papers per row of `paperlist_lengths`. */
export const LENGTHS_CHUNK = 65_536;

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
  /** Per ordinal: title, authors, abstract lengths. */
  private fieldLengths: Int32Array = new Int32Array(3 << 16);
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
  addPaper(ord: number, ids: Int32Array, count: number, titleEnd: number, abstractEnd: number, lengths: { title: number; authors: number; abstract: number }): void {
    if (ord <= this.maxOrd) throw new Error(`paperlist: posting lists need ascending ordinals (${ord} after ${this.maxOrd})`);
    this.maxOrd = ord;
    if (3 * ord + 3 > this.fieldLengths.length) this.fieldLengths = grown(this.fieldLengths, 3 * ord + 3);
    this.fieldLengths[3 * ord] = lengths.title;
    this.fieldLengths[3 * ord + 1] = lengths.authors;
    this.fieldLengths[3 * ord + 2] = lengths.abstract;
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

  /** Rows of `paperlist_lengths (chunk, data)`: each paper's three lengths as little-endian int32, by ordinal. */
  *lengthRows(copy: boolean): Generator<Row> {
    const lengths = this.fieldLengths;
    for (let chunk = 0; chunk * LENGTHS_CHUNK <= this.maxOrd; chunk++) {
      const from = chunk * LENGTHS_CHUNK;
      const to = Math.min(this.maxOrd + 1, from + LENGTHS_CHUNK);
      const bytes = Buffer.alloc(12 * (to - from));
      for (let ord = from; ord < to; ord++) {
        bytes.writeInt32LE(lengths[3 * ord]!, 12 * (ord - from));
        bytes.writeInt32LE(lengths[3 * ord + 1]!, 12 * (ord - from) + 4);
        bytes.writeInt32LE(lengths[3 * ord + 2]!, 12 * (ord - from) + 8);
      }
      const hex = bytes.toString('hex');
      yield copy ? `${chunk}\t\\\\x${hex}\n` : [String(chunk), `\\x${hex}`];
    }
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

function grown(array: Int32Array, needed: number): Int32Array {
  let size = array.length;
  while (size < needed) size *= 2;
  const bigger = new Int32Array(size);
  bigger.set(array);
  return bigger;
}
