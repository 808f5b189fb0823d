import { venueKey } from '../filters/venue-key.js';
import type { Paper } from '../paper.js';
import type { FacetBucket, FacetCounts, FacetField } from './facet-types.js';

/** A paper's value for a facet (`null`: none): the reference every source must reproduce. */
export function facetValue(paper: Paper, field: FacetField): string | null {
  switch (field) {
    case 'year':
      return paper.published === null ? null : paper.published.slice(0, 4);
    case 'venue':
      return venueKey(paper.proceeding);
    case 'proceeding':
      return paper.proceeding;
  }
}

/** The facet counts of `papers`, by looking at each (the reference). */
export function referenceFacets(papers: Iterable<Paper>, fields: readonly FacetField[]): FacetCounts {
  const maps = fields.map(() => new Map<string | null, number>());
  for (const paper of papers) {
    fields.forEach((field, i) => {
      const value = facetValue(paper, field);
      maps[i]!.set(value, (maps[i]!.get(value) ?? 0) + 1);
    });
  }
  const out: FacetCounts = {};
  fields.forEach((field, i) => {
    const buckets: FacetBucket[] = [...maps[i]!].filter(([value]) => value !== null).map(([value, count]) => ({ value, count }));
    buckets.push({ value: null, count: maps[i]!.get(null) ?? 0 });
    out[field] = buckets;
  });
  return out;
}
