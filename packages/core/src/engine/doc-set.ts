import { bitsToList, bitsetWords, hasBit, popcount32 } from './bits.js';
import { uint32Array } from './alloc.js';
import { spend } from './work-budget.js';

/**
 * A set of documents (internal numbers `0..n-1`), in the cheapest shape for its size:
 * every document, a sorted list, or a bitset with its population. Sets handed out by the
 * postings are views of the index: never mutate a set's arrays, make a new set instead.
 */
export type DocSet =
  | { readonly kind: 'all'; readonly size: number }
  | { readonly kind: 'list'; readonly docs: Uint32Array }
  | { readonly kind: 'bits'; readonly bits: Uint32Array; readonly count: number };

export const EMPTY_SET: DocSet = { kind: 'list', docs: new Uint32Array(0) };

export function listSet(docs: Uint32Array): DocSet {
  return { kind: 'list', docs };
}

export function bitsSet(bits: Uint32Array, count: number): DocSet {
  return { kind: 'bits', bits, count };
}

/** Number of documents in a set. */
export function setSize(set: DocSet): number {
  switch (set.kind) {
    case 'all':
      return set.size;
    case 'list':
      return set.docs.length;
    case 'bits':
      return set.count;
  }
}

/** The documents of a set in ascending order. */
export function setToList(set: DocSet): Uint32Array {
  switch (set.kind) {
    case 'all': {
      spend(set.size);
      const docs = uint32Array(set.size);
      for (let i = 0; i < docs.length; i++) docs[i] = i;
      return docs;
    }
    case 'list':
      return set.docs;
    case 'bits':
      spend(set.bits.length + set.count);
      return bitsToList(set.bits, set.count);
  }
}

/** A bitset of the set's documents (the set's own when it is one: do not mutate). */
export function setToBits(set: DocSet, n: number): Uint32Array {
  if (set.kind === 'bits') return set.bits;
  const bits = uint32Array(bitsetWords(n));
  if (set.kind === 'all') {
    bits.fill(0xffffffff);
    if ((n & 31) !== 0) bits[bits.length - 1] = (1 << (n & 31)) - 1;
    return bits;
  }
  const docs = set.docs;
  for (let i = 0; i < docs.length; i++) {
    const d = docs[i]!;
    bits[d >>> 5]! |= 1 << (d & 31);
  }
  return bits;
}

/** Whether document `d` is in the set (lists: binary search). */
export function setHas(set: DocSet, d: number): boolean {
  switch (set.kind) {
    case 'all':
      return d < set.size;
    case 'list': {
      const i = lowerBound(set.docs, d, 0, set.docs.length);
      return i < set.docs.length && set.docs[i] === d;
    }
    case 'bits':
      return hasBit(set.bits, d);
  }
}

/** First index in `docs[from..to)` whose value is `>= d`. */
export function lowerBound(docs: Uint32Array, d: number, from: number, to: number): number {
  let lo = from;
  let hi = to;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (docs[mid]! < d) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** First index `>= from` whose value is `>= d`, found by galloping (cheap for nearby targets). */
export function gallop(docs: Uint32Array, d: number, from: number, to: number): number {
  if (from >= to || docs[from]! >= d) return from;
  let step = 1;
  let lo = from;
  let hi = from + 1;
  while (hi < to && docs[hi]! < d) {
    lo = hi;
    step <<= 1;
    hi = lo + step;
  }
  return lowerBound(docs, d, lo + 1, Math.min(hi + 1, to));
}

/** The intersection of two sets, as a new set (never a view that could alias a mutable array). */
export function intersectSets(a: DocSet, b: DocSet, n: number): DocSet {
  if (a.kind === 'all') return b;
  if (b.kind === 'all') return a;
  if (setSize(a) > setSize(b)) [a, b] = [b, a];
  if (a.kind === 'list') {
    if (b.kind === 'list') return listSet(intersectLists(a.docs, b.docs));
    return listSet(filterByBits(a.docs, b.bits));
  }
  // Both bitsets (b is a bitset because a is one and b is at least as large... or a list).
  if (b.kind === 'list') return listSet(filterByBits(b.docs, a.bits));
  const words = bitsetWords(n);
  spend(words);
  const out = uint32Array(words);
  return bitsSet(out, andBits(a.bits, b.bits, out));
}

/**
 * `out = x & y` over `out.length` words; answers the bits set. A function of its own so the
 * long loop is all that V8 compiles on stack replacement: code compiled in the middle of a first
 * loop has no feedback for the calls after it, and the cached on-stack code then deoptimized
 * there on every call (about 1,600 times in 10 s of a query thread at 498k papers).
 */
function andBits(x: Uint32Array, y: Uint32Array, out: Uint32Array): number {
  let count = 0;
  for (let i = 0; i < out.length; i++) {
    const v = x[i]! & y[i]!;
    if (v !== 0) {
      out[i] = v;
      count += popcount32(v);
    }
  }
  return count;
}

/** Documents of a sorted list that are in a bitset. */
export function filterByBits(docs: Uint32Array, bits: Uint32Array): Uint32Array {
  spend(docs.length);
  const out = uint32Array(docs.length);
  let k = 0;
  for (let i = 0; i < docs.length; i++) {
    const d = docs[i]!;
    if ((bits[d >>> 5]! & (1 << (d & 31))) !== 0) out[k++] = d;
  }
  return out.subarray(0, k);
}

/** Intersection of two sorted lists: a merge when similar in size, galloping otherwise. */
export function intersectLists(a: Uint32Array, b: Uint32Array): Uint32Array {
  if (a.length > b.length) [a, b] = [b, a];
  spend(a.length * 8 < b.length ? a.length * 8 : a.length + b.length);
  const out = uint32Array(a.length);
  let k = 0;
  if (a.length * 8 < b.length) {
    let j = 0;
    for (let i = 0; i < a.length && j < b.length; i++) {
      const d = a[i]!;
      j = gallop(b, d, j, b.length);
      if (j < b.length && b[j] === d) out[k++] = d;
    }
  } else {
    let i = 0;
    let j = 0;
    while (i < a.length && j < b.length) {
      const x = a[i]!;
      const y = b[j]!;
      if (x === y) {
        out[k++] = x;
        i++;
        j++;
      } else if (x < y) i++;
      else j++;
    }
  }
  return out.subarray(0, k);
}

/** Sorts and removes duplicates, in place; returns the unique prefix. */
export function sortUnique(docs: Uint32Array): Uint32Array {
  spend(docs.length * 8);
  docs.sort();
  let k = 0;
  for (let i = 0; i < docs.length; i++) {
    if (i === 0 || docs[i] !== docs[i - 1]) docs[k++] = docs[i]!;
  }
  return docs.subarray(0, k);
}

/** The union of a set with a few extra documents (such as arXiv id matches). */
export function addDocs(set: DocSet, extra: Uint32Array): DocSet {
  if (extra.length === 0 || set.kind === 'all') return set;
  if (set.kind === 'list') {
    const all = uint32Array(set.docs.length + extra.length);
    all.set(set.docs);
    all.set(extra, set.docs.length);
    return listSet(sortUnique(all));
  }
  const bits = set.bits.slice();
  let count = set.count;
  for (let i = 0; i < extra.length; i++) {
    const d = extra[i]!;
    const m = 1 << (d & 31);
    if ((bits[d >>> 5]! & m) === 0) {
      bits[d >>> 5]! |= m;
      count++;
    }
  }
  return bitsSet(bits, count);
}
