/**
 * A paper as the API serves it: all 13 fields, always present, in this order. Absent values
 * are `null`; `authors` is `[]` when there are none. (The same shape as `Paper` in
 * `docs/openapi.json`; kept here so the client has no runtime dependency.)
 */
export interface Paper {
  /** Lowercase hyphen-separated slug, unique in the catalogue. */
  id: string;
  /** arXiv identifier such as `1706.03762`, or null. */
  arxiv_id: string | null;
  nips_id: string | null;
  url_abs: string;
  url_pdf: string;
  title: string;
  abstract: string;
  authors: string[];
  /** Publication date as `YYYY-MM-DD`, or null. */
  published: string | null;
  conference: string | null;
  conference_url_abs: string | null;
  conference_url_pdf: string | null;
  proceeding: string | null;
}

/** One page of a list: the total count, links to the neighbouring pages, and the papers. */
export interface PaperList {
  /** Matching papers across all pages. */
  count: number;
  /** Absolute URL of the next page, or null on the last page. */
  next: string | null;
  /** Absolute URL of the previous page, or null on the first page. */
  previous: string | null;
  results: Paper[];
  /** With `facets`: the buckets of each facet asked for, over every match, largest first. */
  facets?: Partial<Record<'year' | 'venue' | 'proceeding' | 'author' | 'task' | 'method', { value: string | null; count: number }[]>>;
}

/** A page of any list of the API (`count`, `next`, `previous`, `results`). */
export interface Page<T> {
  count: number;
  next: string | null;
  previous: string | null;
  results: T[];
}

/** A task, as the original API's `Task` (from the Papers with Code dump; `id` is the name's slug). */
export interface Task {
  id: string;
  name: string;
  description: string;
}

/** A method, as the original API's `Method` (`paper`, the paper that introduced it, is null: the dump does not say). */
export interface Method {
  id: string;
  name: string;
  full_name: string;
  description: string;
  paper: string | null;
  introduced_year: number | null;
  source_url: string | null;
  source_title: string | null;
  code_snippet_url: string | null;
}

/** A page of a paper's tasks or methods: `page` and `items_per_page` as in lists. */
export interface SubListParams {
  page?: number | 'last';
  items_per_page?: number;
}

/** A field lists can be ordered by. */
export type OrderField = 'published' | 'arxiv_id' | 'title' | 'id';

/** A field, ascending, or prefixed with `-`, descending. */
export type OrderKey = OrderField | `-${OrderField}`;

/**
 * The query of a list, with the API's own parameter names. Every one is optional.
 *
 * @example { q: 'transformer', ordering: ['-published', 'title'], items_per_page: 100 }
 */
export interface ListPapersParams {
  /** Search: every term must match the title, abstract or authors; `"quotes"` make a phrase. */
  q?: string;
  /** One key or several (sent comma-separated). Without it: relevance with `q`, else title. */
  ordering?: OrderKey | readonly OrderKey[];
  /** 1-based page, or `'last'`. */
  page?: number | 'last';
  /** Results per page (the server's default is 50, its maximum 500). */
  items_per_page?: number;
  /**
   * Only the paper with exactly this arXiv id; several (at most 100, sent `|`-separated) look up
   * the papers with any of them.
   */
  arxiv_id?: string | readonly string[];
  /** Only papers whose title contains this, case-insensitively. */
  title?: string;
  /** Only papers whose abstract contains this, case-insensitively. */
  abstract?: string;
  /**
   * Only papers published on or after this day (inclusive): `YYYY`, `YYYY-MM` or `YYYY-MM-DD`,
   * a partial date standing for its first day. Papers without a date never match a date range.
   * (This and the parameters below are paperlist's own, beyond the original API.)
   */
  published_after?: string;
  /** Only papers published on or before this day (inclusive); a partial date stands for its last day. */
  published_before?: string;
  /** Only papers published in these years: `2020`, `2016-2020`, `2010-` or `-2015` (a number is one year). */
  year?: string | number;
  /**
   * Only papers with an author name holding every word (case- and accent-insensitive; the last
   * word may be a prefix). Several alternatives (any may match) are sent `|`-separated.
   */
  author?: string | readonly string[];
  /**
   * Only papers with an author name exactly equal to one of these, as written (sent
   * `|`-separated): the values of the `author` facet.
   */
  author_name?: string | readonly string[];
  /** Only papers whose `proceeding` is exactly one of these (sent `|`-separated). */
  proceeding?: string | readonly string[];
  /**
   * Only papers of these venues: the `proceeding` without its date, case-insensitive
   * (`acl-2020-7` is `acl`, `NeurIPS 2018 12` is `neurips`); sent `|`-separated.
   */
  venue?: string | readonly string[];
  /**
   * Only papers with one of these tasks (from the Papers with Code dump), by slug or name
   * (`image-classification` or `Image Classification`; at most 100, sent `|`-separated).
   */
  task?: string | readonly string[];
  /** Only papers using one of these methods (from the Papers with Code dump), by slug or name (at most 100, sent `|`-separated). */
  method?: string | readonly string[];
  /** Only the papers with these ids (a batch lookup: at most 100, sent `|`-separated). */
  id?: string | readonly string[];
  /** Only the exact `count`: `results` comes back empty, `next` and `previous` null. */
  count_only?: boolean;
  /**
   * Only these fields of each paper (sent comma-separated). The papers of `results` then hold
   * just these keys, whatever their type says: read them as `Partial<Paper>`.
   */
  fields?: readonly (keyof Paper)[];
  /** Each paper without these fields (sent comma-separated); see `fields`. */
  omit?: readonly (keyof Paper)[];
  /**
   * A cursor walk instead of page numbers: `'*'` starts one (with an explicit `ordering` when `q`
   * is given), and `next` then carries the cursor. `iterPapers({ ordering: 'id', cursor: '*' })`
   * walks a whole catalogue, at any depth, through writes and reloads.
   */
  cursor?: string;
  /** Facets to count over every match (sent comma-separated): the answer's `facets`. */
  facets?: readonly ('year' | 'venue' | 'proceeding' | 'author' | 'task' | 'method')[];
  /** Buckets per facet (default 10, at most 1,000). */
  facet_limit?: number;
  /** Also the bucket of the papers without a value (`value: null`). */
  facet_null?: boolean;
  /**
   * Mark what `q` matched: `true` for the title and abstract, or the fields. Each paper then has
   * `_highlight` (`{ title?, abstract?, authors? }`, HTML with `<mark>`), whatever its type says.
   */
  highlight?: boolean | readonly ('title' | 'abstract' | 'authors')[];
  /** With `highlight`: words of the abstract kept around its first match (0: all). */
  crop?: number;
}

/** Options of a single call. */
export interface RequestOptions {
  /** Aborts this call (the client's own `signal` applies too). */
  signal?: AbortSignal;
}

/**
 * A paper as a write sends it: `id`, `title`, `url_abs` and `url_pdf` required, the other fields
 * optional (left out: `null`, `abstract` `""`, `authors` `[]`).
 */
export type PaperInput = Pick<Paper, 'id' | 'title' | 'url_abs' | 'url_pdf'> & Partial<Omit<Paper, 'id' | 'title' | 'url_abs' | 'url_pdf'>>;

/** One change of a `client.bulk` batch: store a paper, or delete one by id. */
export type PaperChange = { op: 'upsert'; paper: PaperInput } | { op: 'delete'; id: string };

/** What a write batch did, counted change by change in batch order. */
export interface WriteResult {
  /** Upserts of an id that was not in the catalogue. */
  created: number;
  /** Upserts of an id that was. */
  updated: number;
  /** Deletes of an id that was (deleting an absent id counts nowhere). */
  deleted: number;
}

/** What `upsert` answers: the paper as stored, and whether it is new. */
export interface UpsertResult {
  paper: Paper;
  /** `true` when the id was new (201), `false` when a paper was replaced (200). */
  created: boolean;
}

/** Options of `bulk`. */
export interface BulkOptions extends RequestOptions {
  /** Send the batch gzip-compressed (`CompressionStream`). Default false. */
  gzip?: boolean;
}
