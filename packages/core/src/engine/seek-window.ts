import { compareToPosition } from '../pagination/cursor.js';
import type { OrderKey, OrderPosition } from '../source.js';
import type { IndexData } from './builder.js';
import { setSize, setToList, type DocSet } from './doc-set.js';
import type { DocOrder } from './orders.js';
import { uint32Array } from './alloc.js';
import { spend } from './work-budget.js';

/**
 * The first `limit` documents of `set` that come strictly after `position` in `order` (a cursor
 * walk's page). The position is found by a binary search of the order (about 20 papers decoded
 * at 1M), so a page deep in a walk costs what the first page costs: the walk from there against
 * the set's bits when many match, or the matches' keys from there when few do.
 */
export function seekWindow(
  index: IndexData,
  order: DocOrder,
  keys: readonly OrderKey[],
  position: OrderPosition,
  set: DocSet,
  limit: number,
  scratch: () => Uint32Array,
): Uint32Array {
  const { n } = index;
  const start = firstAfter(index, order, keys, position);
  const m = setSize(set);
  if (start >= n || m === 0 || limit <= 0) return new Uint32Array(0);
  if (set.kind === 'all') return order.slice(start, start + limit);
  const walkCost = (limit * n) / m + (set.kind === 'list' ? 2 * m : 0);
  const sortCost = m * 4 + (set.kind === 'bits' ? n / 16 : 0);
  spend(Math.min(walkCost, sortCost));
  if (walkCost <= sortCost) {
    if (set.kind === 'bits') return order.walk(set.bits, 0, limit, start);
    const bits = scratch();
    const docs = set.docs;
    for (let i = 0; i < docs.length; i++) bits[docs[i]! >>> 5]! |= 1 << (docs[i]! & 31);
    try {
      return order.walk(bits, 0, limit, start);
    } finally {
      for (let i = 0; i < docs.length; i++) bits[docs[i]! >>> 5] = 0;
    }
  }
  // Few matches: those whose key is at least the key of the document at `start`, smallest first.
  const threshold = order.keys(order.slice(start, start + 1))[0]!;
  const matchKeys = order.keys(setToList(set)).filter((key) => key >= threshold).sort();
  const out = uint32Array(Math.min(limit, matchKeys.length));
  for (let i = 0; i < out.length; i++) out[i] = order.docOfKey(matchKeys[i]!);
  return out;
}

/** The number of documents at or before `position` in `order`: where the walk goes on. */
function firstAfter(index: IndexData, order: DocOrder, keys: readonly OrderKey[], position: OrderPosition): number {
  let low = 0;
  let high = index.n;
  while (low < high) {
    const middle = (low + high) >>> 1;
    spend(64);
    const d = order.slice(middle, middle + 1)[0]!;
    if (compareToPosition(index.store.paper(d), keys, position) > 0) high = middle;
    else low = middle + 1;
  }
  return low;
}
