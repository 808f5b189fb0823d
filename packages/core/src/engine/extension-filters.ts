import type { PaperFilters } from '../source.js';
import type { IndexData } from './builder.js';
import { intersectSets, listSet, setSize, type DocSet } from './doc-set.js';
import { publishedRangeSet } from './published-range.js';
import { ValueSets } from './value-sets.js';
import { findArxivDocs } from './arxiv-lookup.js';

/**
 * The documents of `set` that pass the extension filters (date range, authors, proceedings,
 * venues, tasks, methods). Each filter's documents come from an index built for it (a run of the published
 * permutation, the author names' lists, the value tables), in a fixed order, the usually
 * most selective first (proceedings, venues, dates, authors), stopping once nothing is left;
 * no filter ever reads the catalogue.
 */
export function applyExtensionFilters(index: IndexData, set: DocSet, filters: PaperFilters): DocSet {
  const { published, authors, authorNames, proceedings, venues, arxivIds, ids, tasks, methods } = filters;
  const sets: (() => DocSet)[] = [];
  // Batch lookups first: at most 100 documents, found by the store's hash tables.
  if (ids !== undefined) sets.push(() => lookupSet(ids.map((id) => index.store.findId(id)).filter((d) => d >= 0)));
  if (arxivIds !== undefined) sets.push(() => lookupSet(arxivIds.flatMap((id) => Array.from(findArxivDocs(index, id)))));
  if (authorNames !== undefined) sets.push(() => new ValueSets(index.authorNames.names, index.authorNames.docs).match(authorNames));
  if (proceedings !== undefined) sets.push(() => index.proceedings.match(proceedings));
  if (venues !== undefined) sets.push(() => index.venues.match(venues));
  if (tasks !== undefined) sets.push(() => index.tasks.match(tasks));
  if (methods !== undefined) sets.push(() => index.methods.match(methods));
  if (published !== undefined) sets.push(() => publishedRangeSet(index.orders.data, index.publishedDays, published));
  if (authors !== undefined) sets.push(() => index.authorNames.match(index.vocabulary, authors));
  for (const make of sets) {
    if (setSize(set) === 0) break;
    set = intersectSets(set, make(), index.n);
  }
  return set;
}

/** A set of the given documents (any order, no repeats). */
function lookupSet(docs: number[]): DocSet {
  return listSet(Uint32Array.from(docs).sort());
}
