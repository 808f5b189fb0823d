import { bitsetWords, popcount32 } from './bits.js';
import { bitsSet, EMPTY_SET, listSet, type DocSet } from './doc-set.js';

/**
 * A position entry is 16 bits: the word's position in its document (13 bits), whether the
 * text between it and the previous word of its field is exactly one space, whether the text
 * between it and the next one is (both only for ASCII text; always 0 otherwise), and a flag
 * on the last position of each (word, document) pair.
 */
export const LAST = 0x8000;
/** Entry flag: the separator after this word, within its field, is exactly `" "`. */
export const SPACE_AFTER = 0x4000;
/** Entry flag: the separator before this word, within its field, is exactly `" "`. */
export const SPACE_BEFORE = 0x2000;
/** Mask of a position in the positions stream. */
export const POSITION = 0x1fff;
/** Largest position a document may use; longer documents are answered by the reference code. */
export const MAX_POSITION = 0x1fff;
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
    /** Offset in `positions` of pairs number 32, 64, … of a word (pair 0's is its `positionsAt`). */
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
    return skipRuns(this.positions, this.blockOffset(w, i >>> SKIP_SHIFT), i & ((1 << SKIP_SHIFT) - 1));
  }

  /** Offset in `positions` of the first pair of block `block` (of 32 pairs) of word `w`. */
  blockOffset(w: number, block: number): number {
    return block === 0 ? this.positionsAt[w]! : this.skip[this.skipAt[w]! + block - 1]!;
  }
}

/**
 * The offset `runs` runs after `off` (the start of a run). It counts run ends: one predictable
 * loop over the entries instead of a loop per run, whose exit the processor cannot guess (most
 * runs are one or two entries long).
 */
export function skipRuns(positions: Uint16Array, off: number, runs: number): number {
  while (runs > 0) runs -= positions[off++]! >>> 15; // LAST is the top bit
  return off;
}
