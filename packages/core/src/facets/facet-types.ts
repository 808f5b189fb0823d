/** A field the list can be faceted by (`facets=`). */
export type FacetField = 'year' | 'venue' | 'proceeding';

/** The facet fields, in the order answers list them. */
export const FACET_FIELDS: readonly FacetField[] = ['year', 'venue', 'proceeding'];

/** One bucket: a value (`null`: papers without one) and the number of matching papers with it. */
export interface FacetBucket {
  value: string | null;
  count: number;
}

/**
 * What a source answers for the facets asked of it: for each field, every value that occurs among
 * the matching papers with its count, in any order, and the `null` bucket (the papers without a
 * value; its count may be 0). Venues are the raw keys (`venueKey`): the handler merges aliases.
 */
export type FacetCounts = Partial<Record<FacetField, FacetBucket[]>>;
