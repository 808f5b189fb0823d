import { compareCodePoints, CUT_FACETS, facetValues, MAX_FACET_LIMIT, type FacetBucket, type FacetCounts, type FacetField, type Paper } from '@paperlist/core';
import { countRanks, type FacetFacts } from '../facet-facts.js';
import { StalePostingsError } from '../term-postings.js';
import { rankOf } from '../fact-filters.js';
import type { DeltaView } from './delta-log.js';

/**
 * Facet counts after writes: the facet facts of the lists over their matching papers still
 * stored (`listOrds`, or every one when `null`), plus the written papers that match
 * (`written`), whose values come from the reference's `facetValues`. Tasks and methods are
 * written beside papers without new ordinals, so after a write their facts may be stale: those
 * facets throw {@link StalePostingsError} (SQL counts them).
 */
export async function facetsThroughWrites(
  fields: readonly FacetField[],
  limit: number | undefined,
  listOrds: Int32Array | null,
  view: DeltaView,
  written: readonly Paper[],
  factsOf: (field: FacetField) => Promise<FacetFacts>,
): Promise<FacetCounts> {
  if (fields.some((field) => field === 'task' || field === 'method')) throw new StalePostingsError('paperlist: tasks and methods after writes are in SQL');
  const held = stillStored(listOrds, view);
  const facts = await Promise.all(fields.map(factsOf));
  const out: FacetCounts = {};
  fields.forEach((field, i) => (out[field] = mergedBuckets(facts[i]!, field, held, written, limit ?? MAX_FACET_LIMIT)));
  return out;
}

/** The ordinals of `ords` (every list ordinal when `null`) the view still holds. */
function stillStored(ords: Int32Array | null, view: DeltaView): Int32Array {
  const from = ords ?? Int32Array.from({ length: view.log.through }, (_, i) => i + 1);
  const out = new Int32Array(from.length);
  let n = 0;
  for (let i = 0; i < from.length; i++) if (view.holds(from[i]!)) out[n++] = from[i]!;
  return out.subarray(0, n);
}

function mergedBuckets(facts: FacetFacts, field: FacetField, ords: Int32Array, written: readonly Paper[], limit: number): FacetBucket[] {
  const { values } = facts;
  const counts = countRanks(facts, ords);
  let { nulls } = counts;
  const others = new Map<string, number>();
  for (const paper of written) {
    const own = facetValues(paper, field);
    if (own.length === 0) nulls++;
    for (const value of own) {
      const rank = rankOf(values, value);
      if (rank >= 0) counts.counts[rank]!++;
      else others.set(value, (others.get(value) ?? 0) + 1);
    }
  }
  let buckets: FacetBucket[] = [];
  for (let rank = 0; rank < values.length; rank++) if (counts.counts[rank]! > 0) buckets.push({ value: values[rank]!, count: counts.counts[rank]! });
  for (const [value, count] of others) buckets.push({ value, count });
  if (CUT_FACETS.has(field) && buckets.length > limit) {
    buckets.sort((a, b) => b.count - a.count || compareCodePoints(a.value!, b.value!));
    buckets = buckets.slice(0, limit);
  }
  buckets.push({ value: null, count: nulls });
  return buckets;
}
