import { compareCodePoints } from '../ordering/title-sort-key.js';
import type { IndexData } from './builder.js';
import { arxivValueAt, readJsonString } from './paper-store.js';

/**
 * The documents whose `arxiv_id` is exactly `arxivId`, ascending: a binary search of the
 * `arxiv_id` order (values by code point, nulls last), reading the values from the papers'
 * JSON, then the run of equal ranks there. About twenty reads of a paper's JSON per lookup,
 * where a hash table would cost 6 bytes a paper.
 */
export function findArxivDocs(index: IndexData, arxivId: string): Uint32Array {
  const { store, n } = index;
  const { arxivAsc, ranks, maxRank } = index.orders.data;
  const rank = ranks.arxiv_id;
  const nullRank = maxRank.arxiv_id;
  const below = (d: number) => {
    if (rank[d] === nullRank) return false;
    const json = store.json(d);
    return compareCodePoints(readJsonString(json, arxivValueAt(json)), arxivId) < 0;
  };
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (below(arxivAsc[mid]!)) lo = mid + 1;
    else hi = mid;
  }
  if (lo === n) return new Uint32Array(0);
  const first = arxivAsc[lo]!;
  const r = rank[first]!;
  if (r === nullRank) return new Uint32Array(0);
  const json = store.json(first);
  if (readJsonString(json, arxivValueAt(json)) !== arxivId) return new Uint32Array(0);
  let end = lo + 1;
  while (end < n && rank[arxivAsc[end]!] === r) end++;
  return arxivAsc.slice(lo, end).sort();
}
