import { compareCodePoints } from '../ordering/title-sort-key.js';
import { uint32Array } from './alloc.js';

/**
 * Dense ranks of values under the catalogue's ordering of a field: code point order, equal
 * values sharing a rank, nulls after every value (rank = number of distinct values).
 */
export function denseRanks(values: readonly (string | null)[]): { ranks: Uint32Array; distinct: number } {
  const index = new Map<string, number>();
  const uniques: string[] = [];
  for (const value of values) {
    if (value !== null && !index.has(value)) {
      index.set(value, uniques.length);
      uniques.push(value);
    }
  }
  const sorted = sortCodePoints(uniques);
  const rankOfUnique = uint32Array(uniques.length);
  for (let r = 0; r < sorted.length; r++) rankOfUnique[index.get(sorted[r]!)!] = r;
  const ranks = uint32Array(values.length);
  for (let i = 0; i < values.length; i++) {
    const value = values[i]!;
    ranks[i] = value === null ? uniques.length : rankOfUnique[index.get(value)!]!;
  }
  return { ranks, distinct: uniques.length };
}

/**
 * Sorts strings by code point. The native sort orders by UTF-16 code unit, which agrees
 * except where an astral character meets U+E000..U+FFFF; the result is checked and redone
 * with the slower comparator only then.
 */
function sortCodePoints(values: string[]): string[] {
  const sorted = values.slice().sort();
  for (let i = 1; i < sorted.length; i++) {
    if (compareCodePoints(sorted[i - 1]!, sorted[i]!) > 0) return values.slice().sort(compareCodePoints);
  }
  return sorted;
}

/**
 * Stable counting sort of `order` (a sequence of documents) by `rank[d]`, ascending or
 * descending; `distinct` bounds the ranks (`rank <= distinct`).
 */
export function sortByRank(order: Uint32Array, rank: Uint32Array, distinct: number, descending: boolean): Uint32Array {
  const buckets = uint32Array(distinct + 2);
  const top = distinct;
  for (let i = 0; i < order.length; i++) {
    const r = rank[order[i]!]!;
    buckets[(descending ? top - r : r) + 1]!++;
  }
  for (let b = 1; b < buckets.length; b++) buckets[b]! += buckets[b - 1]!;
  const out = uint32Array(order.length);
  for (let i = 0; i < order.length; i++) {
    const d = order[i]!;
    const r = rank[d]!;
    out[buckets[descending ? top - r : r]!++] = d;
  }
  return out;
}

/** The inverse of a permutation. */
export function inverse(permutation: Uint32Array): Uint32Array {
  const inv = uint32Array(permutation.length);
  for (let i = 0; i < permutation.length; i++) inv[permutation[i]!] = i;
  return inv;
}

/**
 * The indexes `0..n-1` of `rank` sorted by rank, ascending (`distinct` bounds the ranks), those
 * of equal rank by `tieBreak`: a counting sort, then a sort of each run of equal ranks. When the
 * runs are short (few papers share a title), this costs little more than the counting sort, and
 * needs no ranks of the tie-breaking values.
 */
export function sortByRankThen(rank: Uint32Array, distinct: number, tieBreak: (a: number, b: number) => number): Uint32Array {
  const n = rank.length;
  const starts = uint32Array(distinct + 2);
  for (let i = 0; i < n; i++) starts[rank[i]! + 1]!++;
  for (let b = 1; b < starts.length; b++) starts[b]! += starts[b - 1]!;
  const cursor = uint32Array(distinct + 1);
  cursor.set(starts.subarray(0, distinct + 1));
  const out = uint32Array(n);
  for (let i = 0; i < n; i++) out[cursor[rank[i]!]!++] = i;
  for (let r = 0; r <= distinct; r++) {
    const from = starts[r]!;
    const to = starts[r + 1]!;
    if (to - from > 1) out.set(Array.from(out.subarray(from, to)).sort(tieBreak), from);
  }
  return out;
}
