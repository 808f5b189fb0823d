import { formatQueryString, type QueryPair } from '../query/query-string.js';

/** Where the links of a list page point. */
export interface PageLinkContext {
  /** `scheme://host[:port]`, optionally followed by a path prefix, without a trailing slash. */
  origin: string;
  /** The request's path as received, e.g. `/api/v1/papers/`. */
  path: string;
  /** The request's query pairs, in order; `page` is replaced in each link. */
  pairs: readonly QueryPair[];
}

/** The `next` and `previous` links of a page. */
export interface PageLinks {
  next: string | null;
  previous: string | null;
}

/**
 * The absolute URL of one page of a list: the request's other parameters kept (keys sorted,
 * form-encoded), `page` set to the target, or dropped when the target is page 1.
 *
 * @example
 * pageUrl({ origin: 'http://h', path: '/papers/', pairs: [['q', 'a b']] }, 3)
 * // 'http://h/papers/?page=3&q=a+b'
 */
export function pageUrl(context: PageLinkContext, page: number): string {
  const pairs = context.pairs.filter(([key]) => key !== 'page');
  if (page > 1) pairs.push(['page', String(page)]);
  const query = formatQueryString(pairs);
  return `${context.origin}${context.path}${query === '' ? '' : `?${query}`}`;
}

/**
 * The absolute URL of the next page of a cursor walk: the request's other parameters kept,
 * `cursor` set, `page` dropped (a walk has no page numbers).
 */
export function cursorUrl(context: PageLinkContext, cursor: string): string {
  const pairs = context.pairs.filter(([key]) => key !== 'page' && key !== 'cursor');
  pairs.push(['cursor', cursor]);
  return `${context.origin}${context.path}?${formatQueryString(pairs)}`;
}

/** Links of page `page` of `lastPage`: `next` is null on the last page, `previous` on the first. */
export function buildPageLinks(context: PageLinkContext, page: number, lastPage: number): PageLinks {
  return {
    next: page < lastPage ? pageUrl(context, page + 1) : null,
    previous: page > 1 ? pageUrl(context, page - 1) : null,
  };
}

/** The number of pages of `count` results, at least 1 (an empty list has one empty page). */
export function pageCount(count: number, pageSize: number): number {
  return Math.max(1, Math.ceil(count / pageSize));
}
