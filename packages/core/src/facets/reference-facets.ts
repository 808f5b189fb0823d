import { venueKey } from '../filters/venue-key.js';
import type { Paper } from '../paper.js';
import { methodSlugs, taskSlugs, type PaperAnnotations } from '../annotations/annotations.js';
import type { FacetBucket, FacetCounts, FacetField } from './facet-types.js';

/**
 * A paper's values for a facet (none: the `null` bucket): the reference every source must
 * reproduce. One value at most, but a paper's author names (each once) and its tasks and methods
 * (slugs, from its annotations).
 */
export function facetValues(paper: Paper, field: FacetField, annotations?: PaperAnnotations): string[] {
  const one = (value: string | null) => (value === null ? [] : [value]);
  switch (field) {
    case 'year':
      return one(paper.published === null ? null : paper.published.slice(0, 4));
    case 'venue':
      return one(venueKey(paper.proceeding));
    case 'proceeding':
      return one(paper.proceeding);
    case 'author':
      return [...new Set(paper.authors)];
    case 'task':
      return taskSlugs(annotations);
    case 'method':
      return methodSlugs(annotations);
  }
}

/** The facet counts of `papers`, by looking at each (the reference); `annotationsOf` gives their tasks and methods. */
export function referenceFacets(papers: Iterable<Paper>, fields: readonly FacetField[], annotationsOf: (id: string) => PaperAnnotations | undefined = () => undefined): FacetCounts {
  const maps = fields.map(() => new Map<string | null, number>());
  for (const paper of papers) {
    const annotations = annotationsOf(paper.id);
    fields.forEach((field, i) => {
      const values = facetValues(paper, field, annotations);
      for (const value of values.length === 0 ? [null] : values) maps[i]!.set(value, (maps[i]!.get(value) ?? 0) + 1);
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
