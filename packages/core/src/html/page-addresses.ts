import { pageUrl, type PageLinkContext } from '../pagination/page-links.js';
import { formatQueryString, type QueryPair } from '../query/query-string.js';

/**
 * The address of a paper's page below the list path: `{origin}{listPath}{id}/`, the id
 * percent-encoded as one path segment.
 */
export function paperPageUrl(origin: string, listPath: string, id: string): string {
  return `${origin}${listPath}${encodeURIComponent(id)}/`;
}

/** The query pairs with `format` replaced by `format=json`: the same answer as JSON. */
export function withJsonFormat(pairs: readonly QueryPair[]): QueryPair[] {
  return [...pairs.filter(([key]) => key !== 'format'), ['format', 'json']];
}

/** The JSON of one list page, built by the same link builder as `next` and `previous`. */
export function listJsonUrl(context: PageLinkContext, page: number): string {
  return pageUrl({ ...context, pairs: withJsonFormat(context.pairs) }, page);
}

/** An address with the pairs as its query (keys sorted, form-encoded, like every link). */
export function urlWithQuery(base: string, pairs: readonly QueryPair[]): string {
  const query = formatQueryString(pairs);
  return query === '' ? base : `${base}?${query}`;
}
