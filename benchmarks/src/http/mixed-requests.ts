import { parseListQuery, parseQueryString, type PaperQuery, type PaperSource } from '@paperlist/core';
import { DEEP_OFFSET, ORDERINGS, PAGE_SIZE, searchesByClass } from '../engine/query-set.js';

/**
 * The mixed request set of the HTTP benchmark (paths under `/api/v1`), in a fixed order that
 * autocannon cycles through: browsing (no search) in every order at page 1 and a deep page,
 * the engine benchmark's searches with `-published` and `title` at page 1 and a deep page,
 * searches by relevance (page 1), and single papers by id.
 */
export async function mixedRequests(source: PaperSource): Promise<string[]> {
  const searches = await searchesByClass();
  const deepPage = DEEP_OFFSET / PAGE_SIZE + 1;
  const paths: string[] = [];
  for (const ordering of ['', 'title', '-title', 'published', '-published', 'arxiv_id', 'id']) {
    for (const page of [1, deepPage]) paths.push(list({ ordering, page }));
  }
  for (const qs of Object.values(searches)) {
    for (const q of qs) {
      // The deep page where it exists, else the search's last page.
      const { count } = await source.list({ ...(await parsed(q)), offset: 0, limit: 0 });
      const last = Math.max(1, Math.ceil(count / PAGE_SIZE));
      for (const ordering of ORDERINGS.filter((o) => o !== '')) {
        for (const page of [1, Math.min(deepPage, last)]) paths.push(list({ q, ordering, page }));
      }
      if (process.env.MIX !== 'norel') paths.push(list({ q, page: 1 }));
    }
  }
  // Papers by id: the first of a few pages of the catalogue.
  for (const ordering of ['-published', 'id', 'arxiv_id']) {
    const page = await source.list({ terms: [], filters: {}, ordering: { kind: 'fields', keys: [{ field: ordering.replace('-', '') as 'id', descending: ordering.startsWith('-') }, { field: 'id', descending: false }] }, offset: 0, limit: 10 });
    for (const record of page.results) paths.push(`/api/v1/papers/${encodeURIComponent(record.id)}/`);
  }
  return interleave(paths);
}

async function parsed(q: string): Promise<Omit<PaperQuery, 'offset' | 'limit'>> {
  const pairs = parseQueryString(`q=${encodeURIComponent(q)}`);
  if (!pairs.ok) throw new Error(q);
  const request = parseListQuery(pairs.pairs, { pageSize: PAGE_SIZE, maxPageSize: 500 });
  if (!request.ok) throw new Error(q);
  return { terms: request.request.terms, filters: request.request.filters, ordering: request.request.ordering };
}

function list(params: { q?: string; ordering?: string; page?: number }): string {
  const pairs: string[] = [];
  if (params.q) pairs.push(`q=${encodeURIComponent(params.q)}`);
  if (params.ordering) pairs.push(`ordering=${params.ordering}`);
  if (params.page && params.page > 1) pairs.push(`page=${params.page}`);
  return `/api/v1/papers/${pairs.length ? `?${pairs.join('&')}` : ''}`;
}

/** A fixed shuffle, so kinds of requests alternate. */
function interleave(paths: string[]): string[] {
  const out = paths.slice();
  let state = 12345;
  for (let i = out.length - 1; i > 0; i--) {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    const j = state % (i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}
