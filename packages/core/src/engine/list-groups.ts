/*
 * Grouped lists: the documents of a list word with many of them, stored as their low bits (16
 * bits at most) in groups of equal high bits, like Roaring bitmaps' array containers. A word's
 * entry in `listLows` is a header of `groups + 1` ranks (`h[g]` is the rank of its first
 * document in group `g` or after; `h[groups]` its frequency), then its low halves in order.
 * Half the bytes of 32-bit numbers, read with no decoding beyond an OR, and searched the same
 * way (a document's group is its high bits: a gallop inside one group).
 */

/** Bits of a document number kept in a grouped list (the rest is the group). */
export const GROUP_SHIFT = 16;

/** A list word has a grouped list when it has at least this many documents (fewer gain too little over their header). */
export const GROUPED_MIN_DF = 65;

/**
 * The shape of the grouped lists an index builds: `PAPERLIST_LIST_GROUPS=shift,minDf` changes it
 * for tests (small groups, so that small catalogues have many of them); the layout is stored in
 * the index, so its readers follow whatever built it.
 */
export function listGroupShape(): { shift: number; minDf: number } {
  const knob = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.['PAPERLIST_LIST_GROUPS'];
  if (knob === undefined || knob === '') return { shift: GROUP_SHIFT, minDf: GROUPED_MIN_DF };
  const [shift, minDf] = knob.split(',').map(Number);
  if (!Number.isInteger(shift) || shift! < 1 || shift! > 16 || !Number.isInteger(minDf) || minDf! < 1) {
    throw new Error(`paperlist: PAPERLIST_LIST_GROUPS must be "shift,minDf" (shift 1-16), not ${JSON.stringify(knob)}`);
  }
  return { shift: shift!, minDf: minDf! };
}

/** Number of groups of an index of `n` documents. */
export function groupCount(n: number, shift: number): number {
  return Math.max(1, Math.ceil(n / 2 ** shift));
}

/** First index in `[from, to)` whose value is `>= v` (or `to`), galloping from `from`. */
export function gallop16(lows: Uint16Array, v: number, from: number, to: number): number {
  if (from >= to || lows[from]! >= v) return from;
  let step = 1;
  let lo = from;
  let hi = from + 1;
  while (hi < to && lows[hi]! < v) {
    lo = hi;
    step <<= 1;
    hi = lo + step;
  }
  lo++;
  hi = Math.min(hi + 1, to);
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (lows[mid]! < v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Rank of document `d` in the grouped list whose header is at `at` (`groups` groups), searching
 * from rank `from`: the rank when it is there, else `~rank` of the first document after it.
 */
export function seekGrouped(lows: Uint16Array, at: number, groups: number, shift: number, d: number, from: number): number {
  const g = d >>> shift;
  const df = lows[at + groups]!;
  if (g >= groups) return ~Math.max(from, df);
  const base = at + groups + 1;
  const lo = Math.max(from, lows[at + g]!);
  const hi = lows[at + g + 1]!;
  if (lo >= hi) return ~lo;
  const low = d & ((1 << shift) - 1);
  const i = gallop16(lows, low, base + lo, base + hi);
  return i < base + hi && lows[i] === low ? i - base : ~(i - base);
}

/** Writes the documents of the grouped list at `at` into `out` from `to`. */
export function decodeGrouped(lows: Uint16Array, at: number, groups: number, shift: number, out: Uint32Array, to: number): void {
  const base = at + groups + 1;
  let k = lows[at]!;
  for (let g = 0; g < groups; g++) {
    const end = lows[at + g + 1]!;
    const high = g << shift;
    for (; k < end; k++) out[to + k] = high | lows[base + k]!;
  }
}

/** Sets the bits of the documents of the grouped list at `at` in `bits`; answers how many were not set. */
export function orGroupedInto(lows: Uint16Array, at: number, groups: number, shift: number, bits: Uint32Array): number {
  const base = at + groups + 1;
  let added = 0;
  let k = lows[at]!;
  for (let g = 0; g < groups; g++) {
    const end = lows[at + g + 1]!;
    const high = g << shift;
    for (; k < end; k++) {
      const d = high | lows[base + k]!;
      const bit = 1 << (d & 31);
      const word = d >>> 5;
      if ((bits[word]! & bit) === 0) {
        bits[word]! |= bit;
        added++;
      }
    }
  }
  return added;
}
