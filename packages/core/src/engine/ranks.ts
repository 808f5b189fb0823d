import { uint32Array } from './alloc.js';
import { sortIndexesByCodePoint } from './code-point-sort.js';

/**
 * Dense ranks of values under the catalogue's ordering of a field: code point order, equal
 * values sharing a rank, nulls after every value (rank = number of distinct values).
 * `fewDistinct`: most values repeat (dates), so they are told apart through a `Map` and only
 * the distinct ones sorted; otherwise (titles, ids) all are sorted, and equal ones are
 * neighbours.
 */
export function denseRanks(values: readonly (string | null)[], fewDistinct = false): { ranks: Uint32Array; distinct: number } {
  if (fewDistinct) return denseRanksOfRepeats(values);
  const n = values.length;
  // The values that are not null, and where each is in `values`.
  let strings = values as readonly string[];
  let where: Uint32Array | null = null;
  if (values.includes(null)) {
    const present: string[] = [];
    const at: number[] = [];
    for (let i = 0; i < n; i++) {
      const value = values[i]!;
      if (value !== null) {
        present.push(value);
        at.push(i);
      }
    }
    strings = present;
    where = Uint32Array.from(at);
  }
  const sorted = sortIndexesByCodePoint(strings);
  const ranks = uint32Array(n);
  let distinct = 0;
  for (let k = 0; k < sorted.length; k++) {
    const s = sorted[k]!;
    if (k > 0 && strings[s] !== strings[sorted[k - 1]!]) distinct++;
    ranks[where === null ? s : where[s]!] = distinct;
  }
  if (sorted.length > 0) distinct++;
  if (where !== null) for (let i = 0; i < n; i++) if (values[i] === null) ranks[i] = distinct;
  return { ranks, distinct };
}

function denseRanksOfRepeats(values: readonly (string | null)[]): { ranks: Uint32Array; distinct: number } {
  const numberOf = new Map<string, number>();
  const uniques: string[] = [];
  const numbers = uint32Array(values.length);
  for (let i = 0; i < values.length; i++) {
    const value = values[i]!;
    if (value === null) continue;
    let number = numberOf.get(value);
    if (number === undefined) {
      number = uniques.length;
      numberOf.set(value, number);
      uniques.push(value);
    }
    numbers[i] = number;
  }
  const rankOf = inverse(sortIndexesByCodePoint(uniques));
  const ranks = uint32Array(values.length);
  for (let i = 0; i < values.length; i++) ranks[i] = values[i] === null ? uniques.length : rankOf[numbers[i]!]!;
  return { ranks, distinct: uniques.length };
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
