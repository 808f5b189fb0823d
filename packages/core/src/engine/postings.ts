import { bitsetWords, popcount32 } from './bits.js';
import { bitsSet, EMPTY_SET, gallop, listSet, type DocSet } from './doc-set.js';
import { decodeGrouped, groupCount, orGroupedInto, seekGrouped } from './list-groups.js';

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
/** `dense` of a word stored as a bitset. */
export const DENSE = 1;
/** `dense` of a list word stored as a grouped list in `listLows` (see `list-groups.ts`). */
export const GROUPED = 2;

/**
 * The inverted index: for every word, the documents holding it (a sorted `Uint32Array`; for a
 * word of more than a few dozen documents, their low 16 bits grouped by the high ones, half the
 * size; a bitset when the word is in more than 1/32 of the documents, which is then smaller), and the
 * word's positions in each of those documents (a `Uint16Array` stream, each pair's run ending
 * with the {@link LAST} flag), with a skip entry every 32 pairs so that the positions of any
 * pair are found without reading the word's whole stream.
 */
export class Postings {
  readonly wordsPerSet: number;
  readonly blocksPerSet: number;
  /** Number of groups of a grouped list (see `list-groups.ts`). */
  readonly groups: number;
  private scratch = new Uint32Array(0);

  constructor(
    readonly n: number,
    /** Documents holding each word. */
    readonly df: Uint32Array,
    /** List words: offset of the word's documents in `listDocs` (grouped: of its header in `listLows`); dense words: number of its bitset. */
    readonly docsAt: Uint32Array,
    /** {@link DENSE} for a word stored as a bitset, {@link GROUPED} for a grouped list, 0 for a list in `listDocs`. */
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
    /** The grouped lists: per word a header of `groups + 1` ranks, then its documents' low bits. */
    readonly listLows: Uint16Array,
    /** Low bits of a document kept in a grouped list. */
    readonly groupShift: number,
  ) {
    this.wordsPerSet = bitsetWords(n);
    this.blocksPerSet = (this.wordsPerSet >>> RANK_BLOCK_SHIFT) + 1;
    this.groups = groupCount(n, groupShift);
  }

  /** The documents of word `w` (a view of the index; a copy for a grouped list). */
  docSet(w: number): DocSet {
    const df = this.df[w]!;
    if (df === 0) return EMPTY_SET;
    if (this.dense[w] === DENSE) return bitsSet(this.bitsOf(w), df);
    if (this.dense[w] === GROUPED) return listSet(this.docsOf(w, new Uint32Array(df)));
    const at = this.docsAt[w]!;
    return listSet(this.listDocs.subarray(at, at + df));
  }

  /**
   * The documents of list word `w`, ascending: a view of `listDocs`, or a grouped list written
   * into `into` (by default a buffer of this object's, which the next call overwrites).
   */
  docsOf(w: number, into?: Uint32Array): Uint32Array {
    const df = this.df[w]!;
    if (this.dense[w] !== GROUPED) {
      const at = this.docsAt[w]!;
      return this.listDocs.subarray(at, at + df);
    }
    let out = into;
    if (out === undefined) {
      if (this.scratch.length < df) this.scratch = new Uint32Array(Math.max(df, this.scratch.length * 2));
      out = this.scratch;
    }
    decodeGrouped(this.listLows, this.docsAt[w]!, this.groups, this.groupShift, out, 0);
    return out.length === df ? out : out.subarray(0, df);
  }

  /** Writes the documents of list word `w` into `out` from `at`. */
  copyDocs(w: number, out: Uint32Array, at: number): void {
    if (this.dense[w] === GROUPED) decodeGrouped(this.listLows, this.docsAt[w]!, this.groups, this.groupShift, out, at);
    else {
      const from = this.docsAt[w]!;
      out.set(this.listDocs.subarray(from, from + this.df[w]!), at);
    }
  }

  /** Sets the bits of the documents of list word `w` in `bits`; answers how many were not set. */
  orInto(w: number, bits: Uint32Array): number {
    if (this.dense[w] === GROUPED) return orGroupedInto(this.listLows, this.docsAt[w]!, this.groups, this.groupShift, bits);
    const docs = this.listDocs;
    let added = 0;
    for (let i = this.docsAt[w]!, end = i + this.df[w]!; i < end; i++) {
      const d = docs[i]!;
      const bit = 1 << (d & 31);
      const word = d >>> 5;
      if ((bits[word]! & bit) === 0) {
        bits[word]! |= bit;
        added++;
      }
    }
    return added;
  }

  /**
   * Pair number of document `d` in list word `w`, searching from pair `from` on (galloping:
   * cheap for nearby documents): the number when `d` holds the word, else `~` the number of the
   * first pair after it (so `~result` is where the next search starts).
   */
  seek(w: number, d: number, from: number): number {
    if (this.dense[w] === GROUPED) return seekGrouped(this.listLows, this.docsAt[w]!, this.groups, this.groupShift, d, from);
    const at = this.docsAt[w]!;
    const end = at + this.df[w]!;
    const i = gallop(this.listDocs, d, at + from, end);
    return i < end && this.listDocs[i] === d ? i - at : ~(i - at);
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
