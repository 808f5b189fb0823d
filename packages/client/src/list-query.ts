import type { ListPapersParams } from './types.js';

/** A value or its `|`-separated alternatives. */
function alternatives(value: string | readonly string[]): string {
  return typeof value === 'string' ? value : value.join('|');
}

/**
 * The query string of a list request (without `?`), parameters in a fixed order, undefined
 * ones left out. `ordering` arrays are sent comma-separated; `arxiv_id`, `id`, `author`,
 * `author_name`, `proceeding`, `venue`, `task` and `method` arrays `|`-separated; `count_only` as `1` or `0`; `fields` and `omit` comma-separated.
 *
 * @example listQuery({ q: 'a b', ordering: ['-published', 'id'] }) // 'q=a+b&ordering=-published%2Cid'
 */
export function listQuery(params: ListPapersParams): string {
  const search = new URLSearchParams();
  const { q, ordering, page, items_per_page, arxiv_id, title, abstract, published_after, published_before, year, author, author_name, proceeding, venue, task, method, id, count_only, fields, omit, cursor, facets, facet_limit, facet_null, highlight, crop } = params;
  if (q !== undefined) search.set('q', q);
  if (ordering !== undefined) search.set('ordering', typeof ordering === 'string' ? ordering : ordering.join(','));
  if (page !== undefined) search.set('page', String(page));
  if (items_per_page !== undefined) search.set('items_per_page', String(items_per_page));
  if (arxiv_id !== undefined) search.set('arxiv_id', alternatives(arxiv_id));
  if (title !== undefined) search.set('title', title);
  if (abstract !== undefined) search.set('abstract', abstract);
  if (published_after !== undefined) search.set('published_after', published_after);
  if (published_before !== undefined) search.set('published_before', published_before);
  if (year !== undefined) search.set('year', String(year));
  if (author !== undefined) search.set('author', alternatives(author));
  if (author_name !== undefined) search.set('author_name', alternatives(author_name));
  if (proceeding !== undefined) search.set('proceeding', alternatives(proceeding));
  if (venue !== undefined) search.set('venue', alternatives(venue));
  if (task !== undefined) search.set('task', alternatives(task));
  if (method !== undefined) search.set('method', alternatives(method));
  if (id !== undefined) search.set('id', alternatives(id));
  if (count_only !== undefined) search.set('count_only', count_only ? '1' : '0');
  if (fields !== undefined) search.set('fields', fields.join(','));
  if (omit !== undefined) search.set('omit', omit.join(','));
  if (cursor !== undefined) search.set('cursor', cursor);
  if (facets !== undefined) search.set('facets', facets.join(','));
  if (facet_limit !== undefined) search.set('facet_limit', String(facet_limit));
  if (facet_null !== undefined) search.set('facet_null', facet_null ? '1' : '0');
  if (highlight !== undefined) search.set('highlight', typeof highlight === 'boolean' ? (highlight ? '1' : '0') : highlight.join(','));
  if (crop !== undefined) search.set('crop', String(crop));
  return search.toString();
}
