import type { PaperFilters } from '../source.js';
import type { IndexData } from './builder.js';
import { intersectSets, setSize, type DocSet } from './doc-set.js';
import { publishedRangeSet } from './published-range.js';

/**
 * The documents of `set` that pass the extension filters (date range, authors, proceedings,
 * venues). Each filter's documents come from an index built for it (a run of the published
 * permutation, the author names' lists, the value tables), in a fixed order, the usually
 * most selective first (proceedings, venues, dates, authors), stopping once nothing is left;
 * no filter ever reads the catalogue.
 */
export function applyExtensionFilters(index: IndexData, set: DocSet, filters: PaperFilters): DocSet {
  const { published, authors, proceedings, venues } = filters;
  const sets: (() => DocSet)[] = [];
  if (proceedings !== undefined) sets.push(() => index.proceedings.match(proceedings));
  if (venues !== undefined) sets.push(() => index.venues.match(venues));
  if (published !== undefined) sets.push(() => publishedRangeSet(index.orders.data, index.publishedDays, published));
  if (authors !== undefined) sets.push(() => index.authorNames.match(index.vocabulary, authors));
  for (const make of sets) {
    if (setSize(set) === 0) break;
    set = intersectSets(set, make(), index.n);
  }
  return set;
}
