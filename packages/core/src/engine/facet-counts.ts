import type { FacetBucket, FacetCounts, FacetField } from '../facets/facet-types.js';
import type { IndexData } from './builder.js';
import { countBits, popcount32 } from './bits.js';
import { gallop, setSize, setToBits, type DocSet } from './doc-set.js';
import type { DocSetTable } from './doc-set-table.js';
import type { ValueSets } from './value-sets.js';
import { spend } from './work-budget.js';
import { namedDocuments, topAuthorNames } from './author-top-names.js';
import { MAX_FACET_LIMIT } from '../facets/facet-params.js';
import { compareCodePoints } from '../ordering/title-sort-key.js';

/**
 * Exact facet counts over the matched documents, from the index alone: years from the documents'
 * `published` ranks (one pass over the matches), proceedings and venues from their value tables
 * (each value's documents counted against the matches: one pass over the table, popcounts for the
 * values stored as bitsets). The work is bounded by the catalogue's size, whatever the query.
 */
export function facetCounts(index: IndexData, set: DocSet, fields: readonly FacetField[], limit = MAX_FACET_LIMIT): FacetCounts {
  const out: FacetCounts = {};
  for (const field of fields) {
    if (field === 'year') out.year = yearCounts(index, set);
    else if (field === 'author') out.author = authorCounts(index, set, limit);
    else if (field === 'task' || field === 'method') out[field] = multiValueCounts(field === 'task' ? index.tasks : index.methods, set, index.n);
    else out[field] = valueCounts(field === 'venue' ? index.venues : index.proceedings, set);
  }
  return out;
}

function yearCounts(index: IndexData, set: DocSet): FacetBucket[] {
  const ranks = index.orders.data.ranks.published;
  const days = index.publishedDays;
  // One counter per published rank; rank `days.length` is the papers without a date.
  const perRank = new Uint32Array(days.length + 1);
  spend(setSize(set));
  forEachDoc(set, index.n, (d) => perRank[ranks[d]!]!++);
  const buckets: FacetBucket[] = [];
  for (let r = 0; r < days.length; ) {
    const year = Math.floor(days[r]! / 10000);
    let count = 0;
    for (; r < days.length && Math.floor(days[r]! / 10000) === year; r++) count += perRank[r]!;
    if (count > 0) buckets.push({ value: String(year).padStart(4, '0'), count });
  }
  buckets.push({ value: null, count: perRank[days.length]! });
  return buckets;
}

function valueCounts(values: ValueSets, set: DocSet): FacetBucket[] {
  const table = values.sets;
  const buckets: FacetBucket[] = [];
  let total = 0;
  for (let i = 0; i < table.size; i++) {
    const count = intersectionSize(table, i, set);
    if (count === 0) continue;
    buckets.push({ value: values.values.get(i), count });
    total += count;
  }
  buckets.push({ value: null, count: setSize(set) - total });
  return buckets;
}

/**
 * {@link valueCounts} for a field a document holds several values of: each value's count, and the
 * `null` bucket of the matched documents that hold none (marked in one pass over the table).
 */
function multiValueCounts(values: ValueSets, set: DocSet, n: number): FacetBucket[] {
  const table = values.sets;
  const buckets: FacetBucket[] = [];
  for (let i = 0; i < table.size; i++) {
    const count = intersectionSize(table, i, set);
    if (count > 0) buckets.push({ value: values.values.get(i), count });
  }
  buckets.push({ value: null, count: setSize(set) - matchedWithNames(table, set, n) });
  return buckets;
}

/**
 * The best `limit` author buckets (count descending, then name by code points) and the `null`
 * bucket: from the most prolific names down, stopping once no name left can make the list
 * (author-top-names.ts); when names of one paper can, every name's count into one array (a pass
 * over the name table), the count of the `limit`-th best from a histogram, and strings made only
 * for the names that can be listed. Sorting every name would cost a string and a comparison sort per name.
 */
function authorCounts(index: IndexData, set: DocSet, limit: number): FacetBucket[] {
  return topAuthorNames(index, set, limit) ?? authorFacetAcross([{ index, set }], limit);
}

/**
 * {@link authorCounts} of a catalogue in parts (a base index and deltas, each with its live
 * matches): the names of the other parts are counted into the largest part's name numbers (found
 * by binary search; a name it lacks is kept aside), then the best `limit` are picked as for one.
 */
export function authorFacetAcross(parts: readonly { index: IndexData; set: DocSet }[], limit: number): FacetBucket[] {
  if (parts.length === 0) return [{ value: null, count: 0 }];
  const main = parts.reduce((a, b) => (b.index.authorNames.names.size > a.index.authorNames.names.size ? b : a));
  const { names } = main.index.authorNames;
  const { counts, none: mainNone } = nameCounts(main.index, main.set);
  const aside = new Map<string, number>();
  let none = mainNone;
  for (const part of parts) {
    if (part === main) continue;
    const own = nameCounts(part.index, part.set);
    none += own.none;
    for (let i = 0; i < own.counts.length; i++) {
      if (own.counts[i] === 0) continue;
      const name = part.index.authorNames.names.get(i);
      const at = names.find(name);
      if (at >= 0) counts[at]! += own.counts[i]!;
      else aside.set(name, (aside.get(name) ?? 0) + own.counts[i]!);
    }
  }
  let most = 0;
  for (let i = 0; i < counts.length; i++) if (counts[i]! > most) most = counts[i]!;
  for (const count of aside.values()) if (count > most) most = count;
  // `threshold`: the count of the `limit`-th best name (names with more come first; ties at it are chosen by value).
  const histogram = new Uint32Array(most + 1);
  for (let i = 0; i < counts.length; i++) histogram[counts[i]!]!++;
  for (const count of aside.values()) histogram[count]!++;
  let threshold = most;
  for (let better = 0; threshold > 1 && better + histogram[threshold]! < limit; threshold--) better += histogram[threshold]!;
  const buckets: FacetBucket[] = [];
  for (let i = 0; i < counts.length; i++) if (counts[i]! >= threshold && counts[i]! > 0) buckets.push({ value: names.get(i), count: counts[i]! });
  for (const [value, count] of aside) if (count >= threshold && count > 0) buckets.push({ value, count });
  buckets.sort((a, b) => b.count - a.count || compareCodePoints(a.value!, b.value!));
  buckets.length = Math.min(buckets.length, limit);
  return [...buckets, { value: null, count: none }];
}

/**
 * Each author name's count of documents in `set`, by name number, and how many documents of
 * `set` have no author: one pass over the name table's (name, document) pairs against the set as
 * a bitset, read straight from the table's arrays (a view per name, half a million of them, cost
 * more than the counting), the documents met marked on the way.
 */
function nameCounts(index: IndexData, set: DocSet): { counts: Uint32Array; none: number } {
  const table = index.authorNames.docs;
  const { df, docsAt, dense, listDocs, bitsets, wordsPerSet } = table;
  if (set.kind === 'all') return { counts: df.slice(), none: index.n - namedDocuments(index) };
  const bits = set.kind === 'bits' ? set.bits : setToBits(set, index.n);
  const counts = new Uint32Array(table.size);
  // The set's documents that hold a name.
  const holds = new Uint32Array(bits.length);
  spend(listDocs.length + bitsets.length);
  for (let i = 0; i < table.size; i++) {
    if (df[i] === 0) continue;
    let count = 0;
    if (dense[i] === 1) {
      const base = docsAt[i]! * wordsPerSet;
      for (let w = 0; w < wordsPerSet; w++) {
        const both = bitsets[base + w]! & bits[w]!;
        if (both === 0) continue;
        count += popcount32(both);
        holds[w]! |= both;
      }
    } else {
      for (let k = docsAt[i]!, end = k + df[i]!; k < end; k++) {
        const d = listDocs[k]!;
        const bit = 1 << (d & 31);
        if ((bits[d >>> 5]! & bit) === 0) continue;
        count++;
        holds[d >>> 5]! |= bit;
      }
    }
    counts[i] = count;
  }
  return { counts, none: setSize(set) - countBits(holds) };
}

/** How many documents of `set` hold at least one value of `table` (marked in one pass over the table). */
function matchedWithNames(table: DocSetTable, set: DocSet, n: number): number {
  const holds = new Uint32Array(Math.ceil(n / 32));
  for (let i = 0; i < table.size; i++) {
    spend(table.dense[i] === 1 ? holds.length : table.df[i]!);
    table.orInto(i, holds);
  }
  let count = 0;
  forEachDoc(set, n, (d) => {
    count += (holds[d >>> 5]! >>> (d & 31)) & 1;
  });
  return count;
}

function forEachDoc(set: DocSet, n: number, visit: (d: number) => void): void {
  if (set.kind === 'all') for (let d = 0; d < n; d++) visit(d);
  else if (set.kind === 'list') for (const d of set.docs) visit(d);
  else {
    const bits = set.bits;
    for (let i = 0; i < bits.length; i++) {
      let v = bits[i]!;
      while (v !== 0) {
        const t = v & -v;
        v ^= t;
        visit((i << 5) + 31 - Math.clz32(t));
      }
    }
  }
}

/** |set `i` of the table ∩ `set`|. */
function intersectionSize(table: DocSetTable, i: number, set: DocSet): number {
  const df = table.df[i]!;
  if (df === 0) return 0;
  if (set.kind === 'all') return df;
  if (set.kind === 'bits') {
    spend(table.dense[i] === 1 ? set.bits.length : df);
    return table.countIn(i, set.bits);
  }
  const members = table.set(i);
  spend(members.kind === 'bits' ? members.bits.length : df);
  if (members.kind === 'bits') {
    let count = 0;
    for (const d of set.docs) if ((members.bits[d >>> 5]! & (1 << (d & 31))) !== 0) count++;
    return count;
  }
  const docs = members.kind === 'list' ? members.docs : new Uint32Array(0);
  // Two sorted lists: gallop through the longer.
  const [small, large] = docs.length <= set.docs.length ? [docs, set.docs] : [set.docs, docs];
  let count = 0;
  let j = 0;
  for (const d of small) {
    j = gallop(large, d, j, large.length);
    if (j >= large.length) break;
    if (large[j] === d) count++;
  }
  return count;
}
