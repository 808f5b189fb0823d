/**
 * Merging the sorted answers of several segments into the answer one index of all of them
 * would give. Pure functions over items and a strict order (`before`); the segmented engine
 * feeds them documents with their order values or relevance scores.
 */

/** Whether `a` comes strictly before `b` (a total order on distinct items). */
export type Before<T> = (a: T, b: T) => boolean;

/** Part of one segment's sorted matches: the items at ranks `[start, start + items.length)` of its `total`. */
export interface Run<T> {
  readonly items: readonly T[];
  readonly start: number;
  readonly total: number;
}

/** The first `take` items of the merge of sorted lists (a heap of their heads: O(take × log lists)). */
export function mergeSorted<T>(lists: readonly (readonly T[])[], before: Before<T>, take: number): T[] {
  const out: T[] = [];
  const live = lists.filter((list) => list.length > 0);
  if (live.length === 1) return live[0]!.slice(0, take);
  const heap: { list: readonly T[]; at: number }[] = live.map((list) => ({ list, at: 0 }));
  const head = (i: number) => heap[i]!.list[heap[i]!.at]!;
  const less = (i: number, j: number) => before(head(i), head(j));
  const sift = (i: number) => {
    for (;;) {
      const l = 2 * i + 1;
      if (l >= heap.length) return;
      const c = l + 1 < heap.length && less(l + 1, l) ? l + 1 : l;
      if (!less(c, i)) return;
      [heap[i], heap[c]] = [heap[c]!, heap[i]!];
      i = c;
    }
  };
  for (let i = (heap.length >>> 1) - 1; i >= 0; i--) sift(i);
  while (out.length < take && heap.length > 0) {
    const top = heap[0]!;
    out.push(top.list[top.at++]!);
    if (top.at === top.list.length) {
      heap[0] = heap[heap.length - 1]!;
      heap.pop();
    }
    sift(0);
  }
  return out;
}

/**
 * The items at positions `[offset, offset + limit)` of the merge of one large run and the
 * others' items, without reading the large run from its start. The caller gives:
 * - `large`: the ranks `[max(0, offset − D), min(total, offset + limit))` of the largest
 *   segment's matches, where D is the other segments' total matches;
 * - `others`: the first `min(offset + limit, D)` items of the merge of the other segments
 *   (see {@link mergeSorted}).
 * The merged position of the window's first item is found by a binary search over how many of
 * `others` precede it (`log D` comparisons), then `limit` steps merge the window: deep pages cost
 * what the first page costs, plus the others' matches.
 */
export function mergedWindow<T>(large: Run<T>, others: readonly T[], offset: number, limit: number, before: Before<T>): T[] {
  const at = (i: number): T => {
    const item = large.items[i - large.start];
    if (item === undefined) throw new Error(`paperlist: merged window reads rank ${i} outside [${large.start}, ${large.start + large.items.length})`);
    return item;
  };
  // j = how many of `others` are among the first `offset` merged items: the predicate
  // "others[j] comes before large[offset − j − 1]" holds for j below it and fails from it on.
  let lo = Math.max(0, offset - large.total);
  let hi = Math.min(offset, others.length);
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (before(others[mid]!, at(offset - mid - 1))) lo = mid + 1;
    else hi = mid;
  }
  let i = offset - lo;
  let k = lo;
  const out: T[] = [];
  while (out.length < limit) {
    const fromLarge = i < large.total;
    const fromOthers = k < others.length;
    if (!fromLarge && !fromOthers) break;
    if (fromLarge && (!fromOthers || before(at(i), others[k]!))) out.push(at(i++));
    else out.push(others[k++]!);
  }
  return out;
}
