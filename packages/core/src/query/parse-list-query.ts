import { resolveOrdering } from '../ordering/parse-ordering.js';
import type { ApiErrorCode } from '../http/api-errors.js';
import type { OrderPosition, Ordering, PaperFilters, SearchTerm } from '../source.js';
import { parseSearch } from '../text/parse-search.js';
import { lastValue, type QueryPair } from './query-string.js';
import { DEFAULT_VENUE_ALIASES } from '../filters/venue-key.js';
import { readExtensionFilters, type ExtensionOptions, type FieldErrors } from '../filters/extension-params.js';
import type { PaperField } from './field-selection.js';
import type { FacetRequest } from '../facets/facet-params.js';
import type { HighlightRequest } from '../highlight/highlight-params.js';
import { decodeCursor } from '../pagination/cursor.js';

/** The error of `cursor` with a search ordered by relevance. */
const CURSOR_NEEDS_ORDERING = 'A cursor walk needs an explicit ordering (relevance changes as the catalogue does): add ordering=, such as ordering=-published.';

/** Page sizes of a list endpoint. */
export interface PageSizeOptions {
  /** Results per page when `items_per_page` is absent or unusable. Default 50. */
  pageSize: number;
  /** Largest `items_per_page` honoured; larger values are capped. Default 500. */
  maxPageSize: number;
  /**
   * The extension parameters (`published_after`, `author`, `venue`…), or `false` when they are
   * off (then unknown and ignored). Default: on, with the default venue aliases.
   */
  extensions?: ExtensionOptions | false;
}

/** A list request read from its query string: what to find, in what order, which page. */
export interface ListRequest {
  /** Every pair of the query string, in order (links repeat them). */
  pairs: readonly QueryPair[];
  terms: SearchTerm[];
  filters: PaperFilters;
  ordering: Ordering;
  /** The 1-based page asked for (may exceed any real page), or the last page. */
  page: number | 'last';
  pageSize: number;
  /** `count_only` (an extension): only the count is wanted. */
  countOnly: boolean;
  /** `fields`/`omit` (extensions): the fields each paper keeps, in canonical order; `null`: all. */
  fields: PaperField[] | null;
  /**
   * `cursor` (an extension): a cursor walk, from its start (`'start'`, for `cursor=*`) or after a
   * position; `null` for page numbers.
   */
  cursor: OrderPosition | 'start' | null;
  /** `facets` (an extension): the facets to count over every match; `null`: none. */
  facets: FacetRequest | null;
  /** `highlight` (an extension): the matches to mark in each paper; `null`: none. */
  highlight: HighlightRequest | null;
}

/**
 * The query parameters {@link parseListQuery} reads, by name: the list endpoint's whole
 * interface (the OpenAPI document describes each of these). `format` is read by the
 * content negotiation, not here.
 */
export const LIST_QUERY_PARAMETERS = ['q', 'ordering', 'page', 'items_per_page', 'arxiv_id', 'title', 'abstract'] as const;

/** A parameter of {@link LIST_QUERY_PARAMETERS}. */
export type ListQueryParameter = (typeof LIST_QUERY_PARAMETERS)[number];

// Python's int() as Django REST Framework applies it: optional sign, digits, spaces around.
const INTEGER = /^\s*[+-]?\d+\s*$/;

/**
 * Reads the parameters of a list request: `q`, `ordering`, `page`, `items_per_page`, the
 * filters `arxiv_id`, `title`, `abstract` and, unless `extensions` is off, the extension
 * filters (`EXTENSION_PARAMETERS`). A repeated parameter: the last value wins; unknown
 * parameters are ignored. Refuses only what DESIGN.md refuses (oversized `q`, bad `page`)
 * and invalid extension values (`invalid-filter`, with the errors by parameter).
 *
 * @example parseListQuery([['q', 'bert'], ['page', '2']], { pageSize: 50, maxPageSize: 500 })
 */
export function parseListQuery(
  pairs: readonly QueryPair[],
  sizes: PageSizeOptions,
): { ok: true; request: ListRequest } | { ok: false; error: ApiErrorCode; fieldErrors?: FieldErrors } {
  const search = parseSearch(lastValue(pairs, 'q') ?? '');
  if (!search.ok) return { ok: false, error: search.error === 'too-long' ? 'query-too-long' : 'too-many-terms' };
  const page = parsePage(lastValue(pairs, 'page'));
  if (page === null) return { ok: false, error: 'invalid-page' };
  const filters = parseFilters(pairs);
  const extensions = sizes.extensions ?? { venueAliases: DEFAULT_VENUE_ALIASES };
  let countOnly = false;
  let fields: PaperField[] | null = null;
  let facets: FacetRequest | null = null;
  let highlight: HighlightRequest | null = null;
  if (extensions !== false) {
    const read = readExtensionFilters(pairs, filters, extensions);
    if (!read.ok) return { ok: false, error: 'invalid-filter', fieldErrors: read.errors };
    ({ countOnly, fields, facets, highlight } = read);
  }
  const ordering = resolveOrdering(lastValue(pairs, 'ordering'), search.terms.length > 0);
  let cursor: ListRequest['cursor'] = null;
  const cursorValue = extensions === false ? undefined : lastValue(pairs, 'cursor');
  if (cursorValue !== undefined && cursorValue !== '') {
    if (ordering.kind === 'relevance') {
      return { ok: false, error: 'invalid-filter', fieldErrors: { cursor: [CURSOR_NEEDS_ORDERING] } };
    }
    cursor = cursorValue === '*' ? 'start' : decodeCursor(cursorValue, ordering.keys);
    if (cursor === null) return { ok: false, error: 'invalid-cursor' };
  }
  const request: ListRequest = {
    pairs,
    terms: search.terms,
    filters,
    ordering,
    page,
    pageSize: parsePageSize(lastValue(pairs, 'items_per_page'), sizes),
    countOnly,
    fields,
    cursor,
    facets,
    highlight,
  };
  return { ok: true, request };
}

/** `page`: absent or empty is 1, `last` is the last page, else a positive integer. */
function parsePage(value: string | undefined): number | 'last' | null {
  if (value === undefined || value === '') return 1;
  if (value === 'last') return 'last';
  if (!INTEGER.test(value)) return null;
  const page = Number(value);
  return page >= 1 ? page : null;
}

/** `items_per_page`: capped at the maximum; zero, negative or not a number gives the default. */
function parsePageSize(value: string | undefined, sizes: PageSizeOptions): number {
  if (value === undefined || !INTEGER.test(value)) return sizes.pageSize;
  const size = Number(value);
  if (size <= 0) return sizes.pageSize;
  return Math.min(size, sizes.maxPageSize);
}

function parseFilters(pairs: readonly QueryPair[]): PaperFilters {
  const filters: PaperFilters = {};
  // Empty values filter nothing, as with django-filter.
  const arxivId = lastValue(pairs, 'arxiv_id');
  if (arxivId) filters.arxivId = arxivId;
  const title = lastValue(pairs, 'title');
  if (title) filters.titleContains = title;
  const abstract = lastValue(pairs, 'abstract');
  if (abstract) filters.abstractContains = abstract;
  return filters;
}
