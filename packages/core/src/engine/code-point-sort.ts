import { uint32Array } from './alloc.js';

/*
 * A build ranks every title key and every id (half a million strings of 20–200 characters at
 * 498k papers). A `Map` of them then the native sort took 1.6–2.3 s for the titles alone, on
 * the thread the postings' layout waits for. A multikey quicksort (Bentley and Sedgewick, "Fast
 * algorithms for sorting and searching strings", 1997) partitions on one character at a time and
 * never compares a shared prefix twice, and it sorts indexes, so equal strings are found as
 * neighbours instead of through a hash of every string.
 */

/** Ranges this short are sorted by insertion, comparing from the characters they share. */
const INSERTION_UP_TO = 12;

/** The unit at `d` of `s` in code point order (see `compareCodePoints`), or -1 past its end. */
function unitAt(s: string, d: number): number {
  if (d >= s.length) return -1;
  const unit = s.charCodeAt(d);
  if (unit < 0xd800) return unit;
  // Surrogates above U+E000..U+FFFF: unit order becomes code point order.
  return unit >= 0xe000 ? unit - 0x800 : unit + 0x2000;
}

/** `a` against `b` by code point, both known equal before `d`. */
function compareFrom(a: string, b: string, d: number): number {
  for (; ; d++) {
    const x = unitAt(a, d);
    const y = unitAt(b, d);
    if (x !== y || x < 0) return x - y;
  }
}

/**
 * The indexes of `values` sorted by the values' code points (as `compareCodePoints` orders
 * them); equal values in any order among themselves.
 */
export function sortIndexesByCodePoint(values: readonly string[]): Uint32Array {
  const n = values.length;
  // Ranges [lo, hi) still to sort, each with the depth its strings are known equal up to.
  let index: Uint32Array;
  let stack: number[];
  if (n >= TWO_UNIT_PASSES_FROM) {
    index = byFirstTwoUnits(values);
    stack = rangesOfTwoUnits(values, index);
  } else {
    index = uint32Array(n);
    for (let i = 0; i < n; i++) index[i] = i;
    stack = [0, n, 0];
  }
  while (stack.length > 0) {
    let d = stack.pop()!;
    let hi = stack.pop()!;
    let lo = stack.pop()!;
    while (hi - lo > 1) {
      if (hi - lo <= INSERTION_UP_TO) {
        for (let i = lo + 1; i < hi; i++) {
          const at = index[i]!;
          const s = values[at]!;
          let j = i;
          while (j > lo && compareFrom(values[index[j - 1]!]!, s, d) > 0) {
            index[j] = index[j - 1]!;
            j--;
          }
          index[j] = at;
        }
        break;
      }
      const pivot = medianOfThree(unitAt(values[index[lo]!]!, d), unitAt(values[index[(lo + hi) >>> 1]!]!, d), unitAt(values[index[hi - 1]!]!, d));
      // Three ways: [lo, lt) below the pivot, [lt, gt) equal to it, [gt, hi) above it.
      let lt = lo;
      let gt = hi;
      let i = lo;
      while (i < gt) {
        const c = unitAt(values[index[i]!]!, d);
        if (c < pivot) {
          const t = index[i]!;
          index[i++] = index[lt]!;
          index[lt++] = t;
        } else if (c > pivot) {
          const t = index[i]!;
          index[i] = index[--gt]!;
          index[gt] = t;
        } else i++;
      }
      if (lt - lo > 1) stack.push(lo, lt, d);
      if (hi - gt > 1) stack.push(gt, hi, d);
      // The equal range: its strings all ended (equal), or it goes on at the next character.
      if (pivot < 0) break;
      lo = lt;
      hi = gt;
      d++;
    }
  }
  return index;
}

/**
 * Fewest strings sorted by their first two units first: the passes' two tables of 65,537
 * counts would cost a write batch's small index (500 papers, five rankings) more than its sort.
 */
const TWO_UNIT_PASSES_FROM = 1 << 15;

/** Buckets of one unit: past the end (0), then the 65,536 units in code point order. */
const BUCKETS = 0x10001;

/**
 * The indexes sorted by their strings' first two units: two stable counting sorts, by the
 * second unit then the first. Each reads the strings in their order, so the first reads of half
 * a million strings go through memory in order instead of at random, as partitions would.
 */
function byFirstTwoUnits(values: readonly string[]): Uint32Array {
  const n = values.length;
  const first = uint32Array(n);
  const second = uint32Array(n);
  for (let i = 0; i < n; i++) {
    const s = values[i]!;
    first[i] = unitAt(s, 0) + 1;
    second[i] = unitAt(s, 1) + 1;
  }
  return countingSort(countingSort(null, second), first);
}

/** `order` (or 0..n-1) stably sorted by `key` (below {@link BUCKETS}). */
function countingSort(order: Uint32Array | null, key: Uint32Array): Uint32Array {
  const n = key.length;
  const starts = new Uint32Array(BUCKETS + 1);
  for (let i = 0; i < n; i++) starts[key[i]! + 1]!++;
  for (let b = 1; b <= BUCKETS; b++) starts[b]! += starts[b - 1]!;
  const out = uint32Array(n);
  for (let k = 0; k < n; k++) {
    const i = order === null ? k : order[k]!;
    out[starts[key[i]!]!++] = i;
  }
  return out;
}

/**
 * The ranges of `index` (sorted by two units) whose strings share their first two units and
 * go on past them, as `lo, hi, 2` triples: the rest are sorted (a string of one unit or none
 * equals all of its range).
 */
function rangesOfTwoUnits(values: readonly string[], index: Uint32Array): number[] {
  const ranges: number[] = [];
  const n = index.length;
  for (let lo = 0; lo < n; ) {
    const s = values[index[lo]!]!;
    let hi = lo + 1;
    if (s.length < 2) {
      while (hi < n && values[index[hi]!]!.length === s.length && unitAt(values[index[hi]!]!, 0) === unitAt(s, 0)) hi++;
    } else {
      const a = s.charCodeAt(0);
      const b = s.charCodeAt(1);
      while (hi < n) {
        const t = values[index[hi]!]!;
        if (t.length < 2 || t.charCodeAt(0) !== a || t.charCodeAt(1) !== b) break;
        hi++;
      }
      if (hi - lo > 1) ranges.push(lo, hi, 2);
    }
    lo = hi;
  }
  return ranges;
}

function medianOfThree(a: number, b: number, c: number): number {
  if (a < b) return b < c ? b : a < c ? c : a;
  return a < c ? a : b < c ? c : b;
}
