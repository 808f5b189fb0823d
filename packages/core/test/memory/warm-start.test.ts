import { beforeAll, describe, expect, it } from 'vitest';
import { createMemorySource } from '../../src/memory/indexed-memory-source.js';
import type { Paper } from '../../src/paper.js';
import { loadSamplePapers } from '../../src/sample.js';
import { parseListQuery, parseQueryString, type PaperQuery } from '../../src/index.js';

/** A list query written as a query string. */
function queryFor(raw: string): PaperQuery {
  const parsed = parseQueryString(raw);
  const list = parsed.ok ? parseListQuery(parsed.pairs, { pageSize: 50, maxPageSize: 500 }) : null;
  if (list === null || !list.ok) throw new Error(`bad query ${raw}`);
  const { terms, filters, ordering } = list.request;
  return { terms, filters, ordering, offset: 0, limit: 50 };
}

/**
 * A source of 50,000 papers or more starts a merge thread and warms its write path up when it
 * opens (`NodeEngineSource`): writes made meanwhile, and a close in the middle of it, behave
 * as on any source.
 */
describe('a large source with threads, warming up', () => {
  let papers: Paper[];
  beforeAll(async () => {
    const sample = await loadSamplePapers();
    papers = Array.from({ length: 50_000 }, (_, i) => ({ ...sample[i % sample.length]!, id: `warm-start-${i}` }));
  });

  it('applies writes made during its warm-ups, merges them, and closes', { timeout: 120_000 }, async () => {
    const source = createMemorySource(papers, { threads: 1, merges: { maxDeltas: 1 } });
    try {
      for (let batch = 0; batch < 4; batch++) {
        const written = papers.slice(batch * 10, batch * 10 + 10).map((paper) => ({ ...paper, title: `${paper.title} warm-start-edition-${batch}` }));
        expect(await source.upsert(written)).toEqual({ created: 0, updated: 10, deleted: 0 });
      }
      expect((await source.remove(['warm-start-0', 'absent'])).deleted).toBe(1);
      await source.merged();
      // Each batch's ten papers, less the one removed from the first.
      expect((await source.list(queryFor('title=warm-start-edition-0'))).count).toBe(9);
      expect((await source.list(queryFor('title=warm-start-edition-3'))).count).toBe(10);
      expect((await source.list(queryFor('title=warm-start-edition'))).count).toBe(39);
      expect(source.size).toBe(49_999);
      expect(await source.get('warm-start-0')).toBeNull();
    } finally {
      await source.close();
    }
  });

  it('closes at once after it opened, while its threads still warm up', { timeout: 60_000 }, async () => {
    const source = createMemorySource(papers, { threads: 1 });
    await expect(source.close()).resolves.toBeUndefined();
  });
});
