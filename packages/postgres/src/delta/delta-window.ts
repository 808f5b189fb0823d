import { compareCodePoints, comparePapersBy, type OrderKey, type Paper } from '@paperlist/core';
import { StalePostingsError } from '../term-postings.js';

/** One entry of a page being merged: a paper, and its score when the order is by relevance. */
export interface Ranked<P extends Paper> {
  paper: P;
  score: number;
}

/** Most list papers read to place the written papers among them; past it, SQL answers the page. */
export const MAX_MERGED_LIST_PAPERS = 5_000;

/**
 * The page `[offset, offset + limit)` of two ordered sequences merged: the lists' matches (in
 * their order, read as a window) and the written papers' matches (all of them, in the same
 * order). With `d` written matches, the page's list papers are among the list's places
 * `[max(0, offset - d), offset + limit)`, so only those are read (`window`). An element of the
 * merged window at position k, from that first list place s on, is the page's place s + k:
 * every written match placed before the window's first list paper is before `offset`.
 *
 * `keys` is the order (relevance: the order breaking equal scores); ties end with the id.
 */
export async function mergedPage<P extends Paper>(
  window: (start: number, end: number) => Promise<Ranked<P>[]>,
  listCount: number,
  written: Ranked<P>[],
  relevance: boolean,
  keys: readonly OrderKey[],
  offset: number,
  limit: number,
): Promise<P[]> {
  const byKeys = comparePapersBy(keys);
  const before = (a: Ranked<P>, b: Ranked<P>) => (relevance ? b.score - a.score : 0) || byKeys(a.paper, b.paper) || compareCodePoints(a.paper.id, b.paper.id);
  const sortedWritten = [...written].sort(before);
  const end = offset + limit;
  const start = Math.max(0, offset - sortedWritten.length);
  const listEnd = Math.min(listCount, end);
  if (listEnd - start > MAX_MERGED_LIST_PAPERS) throw new StalePostingsError('paperlist: too deep a page to merge with the written papers');
  const list = start < listEnd ? await window(start, listEnd) : [];
  const merged: Ranked<P>[] = [];
  let i = 0;
  let j = 0;
  while (merged.length < end - start && (i < list.length || j < sortedWritten.length)) {
    if (j >= sortedWritten.length || (i < list.length && before(list[i]!, sortedWritten[j]!) <= 0)) merged.push(list[i++]!);
    else merged.push(sortedWritten[j++]!);
  }
  return merged.slice(offset - start, end - start).map((entry) => entry.paper);
}
