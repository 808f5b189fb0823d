import { bitsetWords, popcount32 } from './bits.js';
import { bitsSet, EMPTY_SET, gallop, listSet, type DocSet } from './doc-set.js';
import { int32Array, uint32Array } from './alloc.js';
import { spend } from './work-budget.js';

/** Flag of the last position of a (word, document) pair in the positions stream. */
export const LAST = 0x8000;
/** Mask of a position in the positions stream. */
export const POSITION = 0x7fff;
/** Largest position a document may use; longer documents are answered by the reference code. */
export const MAX_POSITION = 0x7fff;
/** One skip entry per this many pairs of a word. */
export const SKIP_SHIFT = 5;
/** Words of a dense bitset per rank-directory entry. */
export const RANK_BLOCK_SHIFT = 3;

/**
 * The inverted index: for every word, the documents holding it (a sorted `Uint32Array`, or a
 * bitset when the word is in more than 1/32 of the documents, which is then smaller), and the
 * word's positions in each of those documents (a `Uint16Array` stream, each pair's run ending
 * with the {@link LAST} flag), with a skip entry every 32 pairs so that the positions of any
 * pair are found without reading the word's whole stream.
 */
export class Postings {
  readonly wordsPerSet: number;
  readonly blocksPerSet: number;
  // Scratch of `collectPairs`: queries run synchronously and consume one result before the next call.
  private scratchSlots: Int32Array = new Int32Array(1024);
  private scratchOffsets: Uint32Array = new Uint32Array(1024);

  constructor(
    readonly n: number,
    /** Documents holding each word. */
    readonly df: Uint32Array,
    /** List words: offset of the word's documents in `listDocs`; dense words: number of its bitset. */
    readonly docsAt: Uint32Array,
    /** 1 for a word stored as a bitset. */
    readonly dense: Uint8Array,
    readonly listDocs: Uint32Array,
    readonly bitsets: Uint32Array,
    /** Per bitset, the number of set bits before each block of 8 words. */
    readonly rankDirectory: Uint32Array,
    /** Offset of each word's positions (one more entry at the end). */
    readonly positionsAt: Uint32Array,
    readonly positions: Uint16Array,
    /** Offset of each word's skip entries. */
    readonly skipAt: Uint32Array,
    /** Offset in `positions` of pairs number 0, 32, 64, … of a word. */
    readonly skip: Uint32Array,
  ) {
    this.wordsPerSet = bitsetWords(n);
    this.blocksPerSet = (this.wordsPerSet >>> RANK_BLOCK_SHIFT) + 1;
  }

  /** The documents of word `w` (a view of the index). */
  docSet(w: number): DocSet {
    const df = this.df[w]!;
    if (df === 0) return EMPTY_SET;
    if (this.dense[w] === 1) return bitsSet(this.bitsOf(w), df);
    const at = this.docsAt[w]!;
    return listSet(this.listDocs.subarray(at, at + df));
  }

  /** The bitset of a dense word. */
  bitsOf(w: number): Uint32Array {
    const at = this.docsAt[w]! * this.wordsPerSet;
    return this.bitsets.subarray(at, at + this.wordsPerSet);
  }

  /** Number of set bits of dense word `w` before document `d`. */
  rank(w: number, d: number): number {
    const set = this.docsAt[w]!;
    const base = set * this.wordsPerSet;
    const word = d >>> 5;
    const block = word >>> RANK_BLOCK_SHIFT;
    let count = this.rankDirectory[set * this.blocksPerSet + block]!;
    for (let i = block << RANK_BLOCK_SHIFT; i < word; i++) {
      const v = this.bitsets[base + i]!;
      if (v !== 0) count += popcount32(v);
    }
    const partial = this.bitsets[base + word]! & ((1 << (d & 31)) - 1);
    return partial === 0 ? count : count + popcount32(partial);
  }

  /** Offset in `positions` of the positions of pair number `i` of word `w`. */
  pairOffset(w: number, i: number): number {
    const positions = this.positions;
    let off = this.skip[this.skipAt[w]! + (i >>> SKIP_SHIFT)]!;
    for (let j = i & ((1 << SKIP_SHIFT) - 1); j > 0; j--) {
      while ((positions[off++]! & LAST) === 0);
    }
    return off;
  }

  /**
   * The pairs of word `w` whose documents are among `candidates` (ascending): each pair's
   * candidate slot (index in `candidates`) and position offset, ascending. Looks each candidate
   * up when they are few; otherwise reads the word's pairs in order, merging with the candidates.
   * The arrays returned are reused by the next call.
   */
  collectPairs(w: number, candidates: Uint32Array): { count: number; slots: Int32Array; offsets: Uint32Array } {
    const df = this.df[w]!;
    const m = candidates.length;
    const capacity = Math.min(df, m);
    if (this.scratchSlots.length < capacity) {
      this.scratchSlots = int32Array(capacity * 2);
      this.scratchOffsets = uint32Array(capacity * 2);
    }
    const slots = this.scratchSlots;
    const offsets = this.scratchOffsets;
    if (capacity === 0) return { count: 0, slots, offsets };
    const positions = this.positions;
    let k = 0;
    // Reading the positions of the pairs costs about their number again.
    spend(m * 16 < df ? m * (4 + 32) : df + this.positionsAt[w + 1]! - this.positionsAt[w]! + (sparseCost(df, m)));
    if (m * 16 < df) {
      if (this.dense[w] === 1) {
        const bits = this.bitsOf(w);
        for (let c = 0; c < m; c++) {
          const d = candidates[c]!;
          if ((bits[d >>> 5]! & (1 << (d & 31))) === 0) continue;
          slots[k] = c;
          offsets[k++] = this.pairOffset(w, this.rank(w, d));
        }
      } else {
        const from = this.docsAt[w]!;
        const to = from + df;
        const docs = this.listDocs;
        let j = from;
        for (let c = 0; c < m && j < to; c++) {
          const d = candidates[c]!;
          j = gallop(docs, d, j, to);
          if (j < to && docs[j] === d) {
            slots[k] = c;
            offsets[k++] = this.pairOffset(w, j - from);
          }
        }
      }
      return { count: k, slots, offsets };
    }
    let off = this.positionsAt[w]!;
    let c = 0;
    const sparse = df * 8 < m;
    if (this.dense[w] === 1) {
      const bits = this.bitsOf(w);
      for (let i = 0; i < bits.length && c < m; i++) {
        let v = bits[i]!;
        while (v !== 0) {
          const t = v & -v;
          v ^= t;
          const d = (i << 5) + 31 - Math.clz32(t);
          if (sparse) c = gallop(candidates, d, c, m);
          else while (c < m && candidates[c]! < d) c++;
          if (c < m && candidates[c] === d) {
            slots[k] = c;
            offsets[k++] = off;
          }
          while ((positions[off++]! & LAST) === 0);
        }
      }
    } else {
      const from = this.docsAt[w]!;
      const docs = this.listDocs;
      for (let i = from; i < from + df && c < m; i++) {
        const d = docs[i]!;
        if (sparse) c = gallop(candidates, d, c, m);
        else while (c < m && candidates[c]! < d) c++;
        if (c < m && candidates[c] === d) {
          slots[k] = c;
          offsets[k++] = off;
        }
        while ((positions[off++]! & LAST) === 0);
      }
    }
    return { count: k, slots, offsets };
  }
}

/** Extra cost of galloping through `m` candidates for each of `df` pairs. */
function sparseCost(df: number, m: number): number {
  return df * 8 < m ? df * 4 : m;
}
