/** A field the list can be faceted by (`facets=`). */
export type FacetField = 'year' | 'venue' | 'proceeding' | 'author' | 'task' | 'method';

/** The facet fields, in the order answers list them. */
export const FACET_FIELDS: readonly FacetField[] = ['year', 'venue', 'proceeding', 'author', 'task', 'method'];

/** The facets whose field a paper may hold several values of (its author names, its tasks, its methods: slugs). */
export const MULTI_VALUED_FACETS: ReadonlySet<FacetField> = new Set(['author', 'task', 'method']);

/**
 * The facets with so many values (an author name per few papers) that a source may answer only
 * the best `facetLimit` buckets of them (see `PaperQuery.facetLimit`) instead of every one.
 */
export const CUT_FACETS: ReadonlySet<FacetField> = new Set(['author']);

/** One bucket: a value (`null`: papers without one) and the number of matching papers with it. */
export interface FacetBucket {
  value: string | null;
  count: number;
}

/**
 * What a source answers for the facets asked of it: for each field, every value that occurs among
 * the matching papers with its count, in any order, and the `null` bucket (the papers without a
 * value; its count may be 0). Venues are the raw keys (`venueKey`): the handler merges aliases.
 * Tasks and methods are slugs (`nameSlug`); authors are names as written (exactly, `author_name=`);
 * a paper counts once in each of its own. For the {@link CUT_FACETS} a source may list only the
 * best `facetLimit` buckets (count descending, then value by code points) and the `null` bucket.
 */
export type FacetCounts = Partial<Record<FacetField, FacetBucket[]>>;
