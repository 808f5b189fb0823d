import { uint32Array, uint8Array } from './alloc.js';
import { bitsetWords } from './bits.js';
import { bitsSet, EMPTY_SET, listSet, type DocSet } from './doc-set.js';

/**
 * Numbered sets of documents, each a sorted list, or a bitset when it holds more than 1/32
 * of the documents (then smaller). The postings without positions: used for the per-field
 * character and separator sets of the substring filters and for the short prefixes' sets.
 */
export class DocSetTable {
  readonly wordsPerSet: number;

  constructor(
    readonly n: number,
    /** Documents in each set. */
    readonly df: Uint32Array,
    /** List sets: offset in `listDocs`; dense sets: number of the bitset. */
    readonly docsAt: Uint32Array,
    /** 1 for a set stored as a bitset. */
    readonly dense: Uint8Array,
    readonly listDocs: Uint32Array,
    readonly bitsets: Uint32Array,
  ) {
    this.wordsPerSet = bitsetWords(n);
  }

  /** Number of sets. */
  get size(): number {
    return this.df.length;
  }

  /** Set `i` (a view of the table: never mutate it). */
  set(i: number): DocSet {
    const df = this.df[i]!;
    if (df === 0) return EMPTY_SET;
    const at = this.docsAt[i]!;
    if (this.dense[i] === 1) return bitsSet(this.bitsets.subarray(at * this.wordsPerSet, (at + 1) * this.wordsPerSet), df);
    return listSet(this.listDocs.subarray(at, at + df));
  }

  /** Whether document `d` is in set `i`. */
  has(i: number, d: number): boolean {
    const df = this.df[i]!;
    if (df === 0) return false;
    const at = this.docsAt[i]!;
    if (this.dense[i] === 1) return (this.bitsets[at * this.wordsPerSet + (d >>> 5)]! & (1 << (d & 31))) !== 0;
    let lo = at;
    let hi = at + df;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.listDocs[mid]! < d) lo = mid + 1;
      else hi = mid;
    }
    return lo < at + df && this.listDocs[lo] === d;
  }

  /**
   * A table of `sets` sets over `n` documents from a visit of its members: `visit(add)` must
   * call `add(d, set)` for every member, documents in ascending order, the same way each time
   * it is called (it is called twice: to count, then to fill).
   */
  static build(n: number, sets: number, visit: (add: (d: number, set: number) => void) => void): DocSetTable {
    const df = uint32Array(sets);
    visit((_d, set) => df[set]!++);
    const wordsPerSet = bitsetWords(n);
    const dense = uint8Array(sets);
    const docsAt = uint32Array(sets);
    let listTotal = 0;
    let denseCount = 0;
    for (let s = 0; s < sets; s++) {
      if (df[s]! * 32 > n) {
        dense[s] = 1;
        docsAt[s] = denseCount++;
      } else {
        docsAt[s] = listTotal;
        listTotal += df[s]!;
      }
    }
    const listDocs = uint32Array(listTotal);
    const bitsets = uint32Array(denseCount * wordsPerSet);
    const cursor = uint32Array(sets);
    for (let s = 0; s < sets; s++) cursor[s] = dense[s] === 1 ? docsAt[s]! * wordsPerSet : docsAt[s]!;
    visit((d, set) => {
      if (dense[set] === 1) bitsets[cursor[set]! + (d >>> 5)]! |= 1 << (d & 31);
      else listDocs[cursor[set]!++] = d;
    });
    return new DocSetTable(n, df, docsAt, dense, listDocs, bitsets);
  }
}
