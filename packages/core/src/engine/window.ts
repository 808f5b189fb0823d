import { selectBits } from './bits.js';
import { setSize, setToList, type DocSet } from './doc-set.js';
import type { DocOrder } from './orders.js';
import { int32Array, uint32Array } from './alloc.js';
import { spend } from './work-budget.js';

/**
 * The documents at positions `[offset, end)` of `set` in `order`. Three ways, the cheapest
 * for the case: a slice of the order (every document matches), a walk of the order against
 * the set's bitset (many matches: the window is reached after a few steps), or sorting the
 * matches' keys (few matches).
 */
export function orderedWindow(order: DocOrder, set: DocSet, offset: number, end: number, n: number, scratch: () => Uint32Array): Uint32Array {
  const m = setSize(set);
  end = Math.min(end, m);
  if (offset >= end) return new Uint32Array(0);
  if (set.kind === 'all') return order.slice(offset, end);
  if (order.isIdentity) {
    return set.kind === 'list' ? set.docs.slice(offset, end) : selectBits(set.bits, offset, end - offset);
  }
  const walkCost = (end * n) / m + (set.kind === 'list' ? 2 * m : 0);
  const sortCost = m * 4 + (set.kind === 'bits' ? n / 16 : 0);
  spend(Math.min(walkCost, sortCost + m * Math.log2(end + 1)));
  if (walkCost <= sortCost) {
    if (set.kind === 'bits') return order.walk(set.bits, offset, end - offset);
    // A list: mark it in the zeroed scratch bitset, walk, and clear the marks again.
    const bits = scratch();
    const docs = set.docs;
    for (let i = 0; i < docs.length; i++) bits[docs[i]! >>> 5]! |= 1 << (docs[i]! & 31);
    try {
      return order.walk(bits, offset, end - offset);
    } finally {
      for (let i = 0; i < docs.length; i++) bits[docs[i]! >>> 5] = 0;
    }
  }
  const docs = setToList(set);
  const keys = smallest(order.keys(docs), end);
  const out = uint32Array(end - offset);
  for (let i = offset; i < end; i++) out[i - offset] = order.docOfKey(keys[i]!);
  return out;
}

/** The `k` smallest keys, ascending. */
function smallest(keys: Float64Array, k: number): Float64Array {
  if (k * 8 >= keys.length) return keys.sort().subarray(0, k);
  // A max-heap of the k smallest seen so far.
  const heap = keys.slice(0, k);
  for (let i = (k >>> 1) - 1; i >= 0; i--) siftDown(heap, i, k);
  for (let i = k; i < keys.length; i++) {
    const key = keys[i]!;
    if (key < heap[0]!) {
      heap[0] = key;
      siftDown(heap, 0, k);
    }
  }
  return heap.sort();
}

function siftDown(heap: Float64Array, i: number, size: number): void {
  const value = heap[i]!;
  for (;;) {
    let child = 2 * i + 1;
    if (child >= size) break;
    if (child + 1 < size && heap[child + 1]! > heap[child]!) child++;
    if (heap[child]! <= value) break;
    heap[i] = heap[child]!;
    i = child;
  }
  heap[i] = value;
}

/**
 * Indices of the best `k` of `scores` (descending), ties by `ties` ascending (unique keys of a
 * total order), best first: the same order as sorting them all.
 */
export function topSlots(scores: Float64Array, ties: Float64Array, k: number): Int32Array {
  const m = scores.length;
  k = Math.min(k, m);
  spend(m * (k * 4 >= m ? Math.log2(m + 1) : 2));
  // `before(a, b)`: slot a ranks before slot b.
  const before = (a: number, b: number) => scores[a]! > scores[b]! || (scores[a] === scores[b] && ties[a]! < ties[b]!);
  const compare = (a: number, b: number) => (before(a, b) ? -1 : before(b, a) ? 1 : 0);
  if (k * 4 >= m) {
    const all = int32Array(m);
    for (let i = 0; i < m; i++) all[i] = i;
    return all.sort(compare).subarray(0, k);
  }
  // A heap whose root is the worst of the best `k` so far.
  const heap = int32Array(k);
  for (let i = 0; i < k; i++) heap[i] = i;
  const sift = (i: number) => {
    const slot = heap[i]!;
    for (;;) {
      let child = 2 * i + 1;
      if (child >= k) break;
      if (child + 1 < k && before(heap[child]!, heap[child + 1]!)) child++;
      if (!before(slot, heap[child]!)) break;
      heap[i] = heap[child]!;
      i = child;
    }
    heap[i] = slot;
  };
  for (let i = (k >>> 1) - 1; i >= 0; i--) sift(i);
  for (let s = k; s < m; s++) {
    if (before(s, heap[0]!)) {
      heap[0] = s;
      sift(0);
    }
  }
  return heap.sort(compare);
}
