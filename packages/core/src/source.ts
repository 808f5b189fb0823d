import type { PaperRecord } from './encoded-paper.js';
import type { PaperAnnotations } from './annotations/annotations.js';
import type { DayRange } from './filters/date-range.js';
import type { FacetCounts, FacetField } from './facets/facet-types.js';

/** A field a list can be ordered by. */
export type OrderField = 'published' | 'arxiv_id' | 'title' | 'id';

/** One key of an ordering: a field and its direction. */
export interface OrderKey {
  field: OrderField;
  descending: boolean;
}

/**
 * How results are ordered. `relevance` is used when a search is given without `ordering`:
 * best score first, ties in `then` order. Otherwise `keys` apply in turn; the parser always
 * ends them with `id` ascending (unless `id` already appears), so every order is total.
 */
export type Ordering =
  | { kind: 'fields'; keys: OrderKey[] }
  | { kind: 'relevance'; then: OrderKey[] };

/**
 * One search term: consecutive words inside one field (title, abstract, or one author name),
 * each matched whole except the last, which may be a prefix of a word. A plain word such as
 * `transform` is a term of one word; `gpt-4` is the phrase `gpt 4`; `"attention is all"` is a
 * phrase of three words.
 */
export interface SearchTerm {
  /** The term as the user wrote it (without quotes). */
  raw: string;
  /** Folded words (see `foldText`), at least one. */
  words: string[];
  /**
   * Set when the raw term is shaped like an arXiv id (`1706.03762`, `hep-th/9307096`): the
   * term then also matches a paper whose `arxiv_id` equals it exactly.
   */
  arxivId: string | null;
}

/** Exact and substring filters of a list request. */
export interface PaperFilters {
  /** `arxiv_id` equals this exactly. */
  arxivId?: string;
  /** `arxiv_id` equals one of these exactly (distinct, sorted by code point): `arxiv_id=a|b`. */
  arxivIds?: string[];
  /** `id` is one of these (distinct, sorted by code point): `id=a|b`. */
  ids?: string[];
  /** Title contains this, case-insensitively. */
  titleContains?: string;
  /** Abstract contains this, case-insensitively. */
  abstractContains?: string;
  /**
   * `published` within this inclusive range of days (`YYYY-MM-DD`; a missing side is open).
   * Papers without a date never match a range, even an open one.
   */
  published?: DayRange;
  /**
   * Alternatives (any may match), each a list of folded words (see `textWords`) that must all
   * be words of one author name: each whole, except the last, which may be a word's prefix.
   */
  authors?: string[][];
  /** One of the paper's author names equals one of these exactly (distinct, sorted): `author_name=a|b`. */
  authorNames?: string[];
  /** `proceeding` equals one of these exactly. */
  proceedings?: string[];
  /** The venue key of `proceeding` (see `venueKey`) is one of these. */
  venues?: string[];
  /** One of the paper's task slugs (see `nameSlug`) is one of these (distinct, sorted): `task=a|b`. */
  tasks?: string[];
  /** One of the paper's method slugs (see `nameSlug`) is one of these (distinct, sorted): `method=a|b`. */
  methods?: string[];
}

/**
 * A parsed, validated list request: everything a source needs to answer it by itself.
 * Every term must match (AND); filters also apply; then the ordering; then the window
 * `offset`..`offset + limit`. `limit` may be 0, when only the count is wanted.
 */
export interface PaperQuery {
  terms: SearchTerm[];
  filters: PaperFilters;
  ordering: Ordering;
  offset: number;
  limit: number;
  /**
   * A cursor walk's position (`cursor=`): the window is the first `limit` matching papers that
   * come strictly after this position in `ordering` (always `fields`; `offset` is then 0). The
   * count is still of every match. A source that cannot seek may refuse such a query.
   */
  after?: OrderPosition;
  /** Facets to count over the whole match set (`facets=`); see {@link PaperPage.facets}. */
  facets?: FacetField[];
  /**
   * Buckets per facet the answer lists (`facet_limit`): a source may answer only that many of
   * the best buckets of the facets with very many values (`CUT_FACETS`: `author`), plus `null`.
   */
  facetLimit?: number;
}

/**
 * A place in an explicit ordering: the values a paper is ordered by, one per key of the
 * ordering (see `orderValue`: the title's sort key for `title`; `null` for a missing value).
 * Since the keys end with `id`, a position is exactly one paper's place, whether or not that
 * paper is still in the catalogue.
 */
export interface OrderPosition {
  values: (string | null)[];
}

/** Options every source call accepts. */
export interface SourceCallOptions {
  /** Aborted when the client goes away or a timeout fires; a source should stop its work. */
  signal?: AbortSignal;
}

/** What {@link PaperSource.list} answers. */
export interface PaperPage {
  /** Exact number of papers matching the query across all pages. */
  count: number;
  /** At most `limit` papers, in order, starting at `offset`. */
  results: PaperRecord[];
  /**
   * Optional: the JSON of `results`, joined by commas (no brackets), when the source keeps its
   * papers encoded. The handler then writes these bytes as the `results` array as they are
   * (one copy for the whole page). They must be exactly the papers of `results`, in order.
   */
  resultsJson?: Uint8Array;
  /**
   * Optional, with `resultsJson`: the buffer under the `resultsJson` view belongs to this answer
   * alone, and the bytes around the view are free. The handler may then write the rest of the
   * body around the results, in that buffer, instead of copying the page into a new one.
   */
  resultsJsonOwned?: boolean;
  /**
   * Optional, with an owned `resultsJson`: the source reuses the memory of `results` and
   * `resultsJson` once this is called (the memory source's query threads gather later pages in
   * it). The handler calls it at most once, when it reads them no more: when the response built
   * around them has been written (see {@link PapersResponse.release}), or at once when it copied
   * them. A source must answer correctly whether or not it is ever called.
   */
  release?: () => void;
  /** When the query asked for facets: their counts over every match (see `FacetCounts`). */
  facets?: FacetCounts;
}

/**
 * Where papers come from. A source applies the whole query itself (search, filters, order,
 * window); the core never re-sorts or re-filters what it answers.
 *
 * @example
 * const source: PaperSource = {
 *   async list(query) { return { count: 0, results: [] }; },
 *   async get(id) { return null; },
 * };
 */
export interface PaperSource {
  /** The papers matching `query`: exact count and the requested window. */
  list(query: PaperQuery, options?: SourceCallOptions): Promise<PaperPage>;
  /** One paper by id, or `null` when there is none. */
  get(id: string, options?: SourceCallOptions): Promise<PaperRecord | null>;
  /**
   * An opaque string that changes whenever the catalogue changes. When present, responses
   * carry an `ETag` derived from it and conditional requests are answered with `304`
   * without asking the source.
   */
  version?(): string;
  /**
   * Optional: the tasks and methods of paper `id` (from the Papers with Code dump; empty lists
   * when it has none), or `null` when there is no such paper. A source without it answers the
   * `/papers/{id}/tasks/`, `/papers/{id}/methods/` and `/tasks/{id}/papers/` routes as if no
   * paper had any (and the `task=`/`method=` filters then match nothing).
   */
  annotations?(id: string, options?: SourceCallOptions): Promise<PaperAnnotations | null>;
}
