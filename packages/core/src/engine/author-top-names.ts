import type { FacetBucket } from '../facets/facet-types.js';
import { compareCodePoints } from '../ordering/title-sort-key.js';
import { bitsetWords, countBits, popcount32 } from './bits.js';
import { setToBits, type DocSet } from './doc-set.js';
import type { IndexData } from './builder.js';
import { spend } from './work-budget.js';

/**
 * What the bounded author facet reads besides the name table, derived once per index: the names
 * of two papers or more by paper count descending, and the papers without a name.
 */
interface NameRanking {
  /** Names with at least two papers, most papers first (a name's count in any match set is at most its papers). */
  readonly byPapers: Uint32Array;
  /** A bitset of the documents without an author name (the `null` bucket). */
  readonly unnamed: Uint32Array;
  /** Documents with a name. */
  readonly named: number;
}

const rankings = new WeakMap<IndexData['authorNames'], NameRanking>();

function rankingOf(index: IndexData): NameRanking {
  let ranking = rankings.get(index.authorNames);
  if (ranking !== undefined) return ranking;
  const table = index.authorNames.docs;
  const { df, size } = table;
  const unnamed = new Uint32Array(bitsetWords(index.n));
  for (let i = 0; i < size; i++) table.orInto(i, unnamed);
  const named = countBits(unnamed);
  for (let w = 0; w < unnamed.length; w++) unnamed[w] = ~unnamed[w]!;
  if ((index.n & 31) !== 0) unnamed[unnamed.length - 1]! &= (1 << (index.n & 31)) - 1;
  // A counting sort by paper count, descending (names ascending within a count).
  let most = 0;
  for (let i = 0; i < size; i++) most = Math.max(most, df[i]!);
  const starts = new Uint32Array(most + 2);
  for (let i = 0; i < size; i++) if (df[i]! >= 2) starts[most - df[i]! + 1]!++;
  for (let c = 1; c < starts.length; c++) starts[c]! += starts[c - 1]!;
  const byPapers = new Uint32Array(starts[starts.length - 1]!);
  for (let i = 0; i < size; i++) if (df[i]! >= 2) byPapers[starts[most - df[i]!]!++] = i;
  ranking = { byPapers, unnamed, named };
  rankings.set(index.authorNames, ranking);
  return ranking;
}

/** Documents with at least one author name (derived once per index with the ranking). */
export function namedDocuments(index: IndexData): number {
  return rankingOf(index).named;
}

/**
 * The best `limit` author buckets of one index's matches (count descending, then name by code
 * points) and the `null` bucket. Names are counted most papers first, and counting stops at the
 * first name whose papers are fewer than the `limit`-th best count found so far: neither it nor any
 * later name can reach the list, or tie with its last. A broad match set settles after the few
 * thousand most prolific names, instead of every (name, paper) pair of the catalogue; a narrow
 * one, where names of one paper make the list, reads each (name, paper) pair once. `null` for a
 * `limit` under 1.
 */
export function topAuthorNames(index: IndexData, set: DocSet, limit: number): FacetBucket[] | null {
  if (limit < 1) return null;
  const ranking = rankingOf(index);
  const table = index.authorNames.docs;
  const { df, dense, wordsPerSet } = table;
  const bits = set.kind === 'all' ? null : setToBits(set, index.n);
  // The best counts so far, a min-heap of at most `limit`.
  const heap = new Uint32Array(limit);
  let heapSize = 0;
  const counted: number[] = [];
  const counts: number[] = [];
  let settled = false;
  let work = 0;
  for (const name of ranking.byPapers) {
    const papers = df[name]!;
    if (heapSize === limit && papers < heap[0]!) {
      settled = true;
      break;
    }
    let count = papers;
    if (bits !== null) {
      count = table.countIn(name, bits);
      work += dense[name] === 1 ? wordsPerSet : papers;
    }
    if (count === 0) continue;
    counted.push(name);
    counts.push(count);
    if (heapSize < limit) heapPush(heap, heapSize++, count);
    else if (count > heap[0]!) heapReplaceMin(heap, heapSize, count);
  }
  if (!settled && (heapSize < limit || heap[0]! <= 1)) {
    // Every name of two papers or more counted, and fewer than `limit` names above 1: the names of
    // one paper in the matches can make the list too (count 1 each).
    const { size } = index.authorNames.docs;
    for (let name = 0; name < size; name++) {
      if (df[name] !== 1) continue;
      if (bits !== null && table.countIn(name, bits) === 0) continue;
      counted.push(name);
      counts.push(1);
      if (heapSize < limit) heapPush(heap, heapSize++, 1);
    }
    work += size;
  }
  spend(work);
  if (heapSize === 0) return [{ value: null, count: unnamedIn(index, ranking, bits) }];
  const threshold = heap[0]!;
  const { names } = index.authorNames;
  const buckets: FacetBucket[] = [];
  for (let i = 0; i < counted.length; i++) if (counts[i]! >= threshold) buckets.push({ value: names.get(counted[i]!), count: counts[i]! });
  buckets.sort((a, b) => b.count - a.count || compareCodePoints(a.value!, b.value!));
  buckets.length = Math.min(buckets.length, limit);
  return [...buckets, { value: null, count: unnamedIn(index, ranking, bits) }];
}

/** Matched documents without an author name (`bits` null: every document matches). */
function unnamedIn(index: IndexData, ranking: NameRanking, bits: Uint32Array | null): number {
  if (bits === null) return index.n - ranking.named;
  let none = 0;
  for (let w = 0; w < bits.length; w++) none += popcount32(bits[w]! & ranking.unnamed[w]!);
  return none;
}

function heapPush(heap: Uint32Array, size: number, value: number): void {
  let i = size;
  heap[i] = value;
  while (i > 0) {
    const parent = (i - 1) >> 1;
    if (heap[parent]! <= heap[i]!) break;
    [heap[parent], heap[i]] = [heap[i]!, heap[parent]!];
    i = parent;
  }
}

function heapReplaceMin(heap: Uint32Array, size: number, value: number): void {
  heap[0] = value;
  let i = 0;
  for (;;) {
    const left = 2 * i + 1;
    const right = left + 1;
    let smallest = i;
    if (left < size && heap[left]! < heap[smallest]!) smallest = left;
    if (right < size && heap[right]! < heap[smallest]!) smallest = right;
    if (smallest === i) return;
    [heap[smallest], heap[i]] = [heap[i]!, heap[smallest]!];
    i = smallest;
  }
}
