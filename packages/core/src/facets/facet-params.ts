import { lastValue, type QueryPair } from '../query/query-string.js';
import { compareCodePoints } from '../ordering/title-sort-key.js';
import { FACET_FIELDS, type FacetBucket, type FacetCounts, type FacetField } from './facet-types.js';

/** Default and largest `facet_limit`. */
export const DEFAULT_FACET_LIMIT = 10;
export const MAX_FACET_LIMIT = 1000;

/** The facets a list request asks for. */
export interface FacetRequest {
  fields: FacetField[];
  /** Buckets per facet (`facet_limit`). */
  limit: number;
  /** Whether the `null` bucket is listed (`facet_null`). */
  includeNull: boolean;
}

/** Errors of the facet parameters, by parameter. */
export type FacetErrors = Partial<Record<'facets' | 'facet_limit' | 'facet_null', string[]>>;

const INTEGER = /^\s*[+-]?\d+\s*$/;
const TRUE_VALUES = new Set(['1', 'true', 'yes', 'on', 't', 'y']);
const FALSE_VALUES = new Set(['0', 'false', 'no', 'off', 'f', 'n']);

/**
 * Reads `facets=year,venue` (comma-separated, repeats once), `facet_limit` (1–1000, default 10)
 * and `facet_null` (a boolean): `null` when no facet is asked for.
 */
export function readFacetRequest(pairs: readonly QueryPair[]): { ok: true; facets: FacetRequest | null } | { ok: false; errors: FacetErrors } {
  const errors: FacetErrors = {};
  const names = (lastValue(pairs, 'facets') ?? '').split(',').map((name) => name.trim()).filter((name) => name !== '');
  const unknown = names.filter((name) => !(FACET_FIELDS as readonly string[]).includes(name));
  if (unknown.length > 0) errors.facets = unknown.map((name) => `Unknown facet: ${JSON.stringify(name)}. Facets are ${FACET_FIELDS.join(', ')}.`);
  let limit = DEFAULT_FACET_LIMIT;
  const limitValue = lastValue(pairs, 'facet_limit');
  if (limitValue !== undefined && limitValue.trim() !== '') {
    if (!INTEGER.test(limitValue)) errors.facet_limit = ['A valid integer is required.'];
    else if (Number(limitValue) < 1) errors.facet_limit = ['Ensure this value is greater than or equal to 1.'];
    else if (Number(limitValue) > MAX_FACET_LIMIT) errors.facet_limit = [`Ensure this value is less than or equal to ${MAX_FACET_LIMIT}.`];
    else limit = Number(limitValue);
  }
  let includeNull = false;
  const nullValue = lastValue(pairs, 'facet_null');
  if (nullValue !== undefined && nullValue.trim() !== '') {
    const lower = nullValue.trim().toLowerCase();
    if (TRUE_VALUES.has(lower)) includeNull = true;
    else if (!FALSE_VALUES.has(lower)) errors.facet_null = ['Must be a valid boolean.'];
  }
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  if (names.length === 0) return { ok: true, facets: null };
  const fields = FACET_FIELDS.filter((field) => names.includes(field));
  return { ok: true, facets: { fields, limit, includeNull } };
}

/**
 * The facets as answered: venues merged under their alias target (`nips` counts as `neurips`,
 * as `venue=neurips` finds both), buckets by count descending then value (code points; the `null`
 * bucket, when asked for and not empty, after the values of its count), at most `limit` each.
 */
export function shapeFacets(counts: FacetCounts, request: FacetRequest, venueAliases: Readonly<Record<string, string>>): Record<string, FacetBucket[]> {
  const out: Record<string, FacetBucket[]> = {};
  for (const field of request.fields) {
    const merged = new Map<string | null, number>();
    for (const { value, count } of counts[field] ?? []) {
      const key = field === 'venue' && value !== null && Object.hasOwn(venueAliases, value) ? venueAliases[value]! : value;
      merged.set(key, (merged.get(key) ?? 0) + count);
    }
    const buckets = [...merged]
      .filter(([value, count]) => count > 0 && (value !== null || request.includeNull))
      .map(([value, count]): FacetBucket => ({ value, count }))
      .sort((a, b) => b.count - a.count || (a.value === null ? 1 : b.value === null ? -1 : compareCodePoints(a.value, b.value)));
    out[field] = buckets.slice(0, request.limit);
  }
  return out;
}
