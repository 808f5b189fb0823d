import type { DayRange } from '../filters/date-range.js';
import { dayNumber } from '../filters/date-range.js';
import { uint32Array } from './alloc.js';
import { bitsetWords } from './bits.js';
import { bitsSet, EMPTY_SET, listSet, type DocSet } from './doc-set.js';
import type { OrderData } from './orders.js';
import { spend } from './work-budget.js';

/**
 * The documents published within a range of days. The dates of the catalogue are kept as one
 * sorted array of distinct days (`days[r]` is the day of published rank `r`, as `YYYYMMDD`),
 * so a range is a range of ranks, and the documents of a range of ranks are one contiguous
 * run of the `published` ascending permutation (undated papers, ranked last, never in it).
 * The work is two binary searches and the run itself.
 */
export function publishedRangeSet(orders: OrderData, days: Uint32Array, range: DayRange): DocSet {
  const from = range.from === undefined ? 0 : lowerBoundOf(days, dayNumber(range.from));
  const to = range.to === undefined ? days.length : lowerBoundOf(days, dayNumber(range.to) + 1);
  if (from >= to) return EMPTY_SET;
  const rank = orders.ranks.published;
  const permutation = orders.publishedAsc;
  const start = firstWithRank(permutation, rank, from);
  const end = firstWithRank(permutation, rank, to);
  const count = end - start;
  if (count === 0) return EMPTY_SET;
  spend(count);
  const n = orders.n;
  if (count * 32 <= n) {
    const docs = permutation.slice(start, end);
    docs.sort();
    return listSet(docs);
  }
  const bits = uint32Array(bitsetWords(n));
  for (let i = start; i < end; i++) {
    const d = permutation[i]!;
    bits[d >>> 5]! |= 1 << (d & 31);
  }
  return bitsSet(bits, count);
}

/** The sorted distinct days of the catalogue's `published` values, as `YYYYMMDD` numbers (the published ranks' own order). */
export function publishedDays(values: readonly (string | null)[]): Uint32Array {
  const distinct = [...new Set(values.filter((v): v is string => v !== null))].sort();
  const days = uint32Array(distinct.length);
  for (let r = 0; r < distinct.length; r++) days[r] = dayNumber(distinct[r]!);
  return days;
}

function lowerBoundOf(sorted: Uint32Array, value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** First position of the permutation whose document has a rank `>= target` (ranks ascend along it). */
function firstWithRank(permutation: Uint32Array, rank: Uint32Array, target: number): number {
  let lo = 0;
  let hi = permutation.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (rank[permutation[mid]!]! < target) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
