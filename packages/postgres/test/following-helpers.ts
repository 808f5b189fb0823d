import { parseListQuery, parseQueryString, toPaper, type Paper, type PaperQuery, type PaperSource } from '@paperlist/core';

/** What a source serves, to compare two sources exactly: every paper (by id), and a few searches. */
export interface Served {
  papers: Paper[];
  searches: Record<string, { count: number; ids: string[] }>;
}

const SEARCHES = ['q=learning&ordering=id', 'q=neural+network', 'ordering=-published', 'title=the&ordering=title'];

function query(raw: string, limit: number): PaperQuery {
  const parsed = parseQueryString(raw);
  if (!parsed.ok) throw new Error(`bad test query ${raw}`);
  const list = parseListQuery(parsed.pairs, { pageSize: 50, maxPageSize: 100_000 });
  if (!list.ok) throw new Error(`bad test query ${raw}`);
  const { terms, filters, ordering } = list.request;
  return { terms, filters, ordering, offset: 0, limit };
}

/** Everything `source` serves (catalogues of up to 100,000 papers). */
export async function served(source: PaperSource): Promise<Served> {
  const all = await source.list(query('ordering=id', 100_000));
  const searches: Served['searches'] = {};
  for (const raw of SEARCHES) {
    const page = await source.list(query(raw, 50));
    searches[raw] = { count: page.count, ids: page.results.map((record) => toPaper(record).id) };
  }
  return { papers: all.results.map((record) => toPaper(record)), searches };
}

/**
 * Runs `check` until it stops throwing, or throws its last failure after `timeoutMs` (a
 * deadline for convergence, not an assertion on speed).
 */
export async function eventually<T>(check: () => Promise<T>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}
