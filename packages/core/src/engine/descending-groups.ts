import { uint32Array } from './alloc.js';

/**
 * A field's descending order (ties by id ascending, nulls first) read from its ascending order
 * instead of stored: the groups of equal value from the last, each in its ascending order, which
 * already has the ties by id. For `published`, whose values are days (a few thousand), this saves
 * a permutation (4 bytes a paper) for a table of where each day's group starts. Fields with a
 * value per paper (titles, arXiv ids) keep their stored descending permutation: a walk there
 * would cross a group at every step.
 */
export class DescendingGroups {
  /** Per rank `0..maxRank`, its first position in the ascending order, then `n`. */
  private readonly starts: Uint32Array;

  constructor(
    private readonly n: number,
    /** The ascending order. */
    private readonly ascending: Uint32Array,
    /** Dense rank of each document (`0..maxRank`); it never decreases along `ascending`. */
    private readonly rank: Uint32Array,
    maxRank: number,
  ) {
    const starts = uint32Array(maxRank + 2);
    for (let d = 0; d < rank.length; d++) starts[rank[d]! + 1]!++;
    for (let r = 1; r < starts.length; r++) starts[r]! += starts[r - 1]!;
    this.starts = starts;
  }

  /**
   * Positions from `from` of the descending order into `out`: every document (`bits` null), or
   * those in `bits` after skipping `skip` of them. Returns how many were written.
   */
  fill(bits: Uint32Array | null, skip: number, out: Uint32Array, from: number): number {
    const { n, ascending: p, rank, starts } = this;
    const take = out.length;
    if (from >= n || take === 0) return 0;
    // Position `from` is in the same group as its mirror in the ascending order, at the other end.
    const mirror = n - 1 - from;
    let r = rank[p[mirror]!]!;
    let i = starts[r]! + starts[r + 1]! - 1 - mirror;
    let k = 0;
    let seen = 0;
    for (;;) {
      const end = starts[r + 1]!;
      if (bits === null) for (; i < end && k < take; i++) out[k++] = p[i]!;
      else {
        for (; i < end && k < take; i++) {
          const d = p[i]!;
          if ((bits[d >>> 5]! & (1 << (d & 31))) !== 0 && seen++ >= skip) out[k++] = d;
        }
      }
      if (k === take) return k;
      // The next group down that holds documents (ranks without any are empty groups).
      do {
        if (r === 0) return k;
        r--;
      } while (starts[r] === starts[r + 1]);
      i = starts[r]!;
    }
  }
}
