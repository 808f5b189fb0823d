import type { FacetBucket, FacetCounts, FacetField } from '../facets/facet-types.js';

/**
 * The facets of a catalogue in segments: each value's count summed over the segments' own
 * (uncut) counts, values ascending as one index lists them, the `null` bucket last. A value
 * counted nowhere is not listed; the `null` bucket always is.
 */
export function sumFacets(parts: readonly FacetCounts[], fields: readonly FacetField[]): FacetCounts {
  const out: FacetCounts = {};
  for (const field of fields) {
    const sums = new Map<string, number>();
    let none = 0;
    for (const part of parts) {
      for (const bucket of part[field] ?? []) {
        if (bucket.value === null) none += bucket.count;
        else sums.set(bucket.value, (sums.get(bucket.value) ?? 0) + bucket.count);
      }
    }
    const buckets: FacetBucket[] = [...sums]
      .filter(([, count]) => count > 0)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([value, count]) => ({ value, count }));
    buckets.push({ value: null, count: none });
    out[field] = buckets;
  }
  return out;
}
