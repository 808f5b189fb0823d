import type { ListPapersParams } from './types.js';

/**
 * The query string of a list request (without `?`), parameters in a fixed order, undefined
 * ones left out. `ordering` arrays are sent comma-separated.
 *
 * @example listQuery({ q: 'a b', ordering: ['-published', 'id'] }) // 'q=a+b&ordering=-published%2Cid'
 */
export function listQuery(params: ListPapersParams): string {
  const search = new URLSearchParams();
  const { q, ordering, page, items_per_page, arxiv_id, title, abstract } = params;
  if (q !== undefined) search.set('q', q);
  if (ordering !== undefined) search.set('ordering', typeof ordering === 'string' ? ordering : ordering.join(','));
  if (page !== undefined) search.set('page', String(page));
  if (items_per_page !== undefined) search.set('items_per_page', String(items_per_page));
  if (arxiv_id !== undefined) search.set('arxiv_id', arxiv_id);
  if (title !== undefined) search.set('title', title);
  if (abstract !== undefined) search.set('abstract', abstract);
  return search.toString();
}
