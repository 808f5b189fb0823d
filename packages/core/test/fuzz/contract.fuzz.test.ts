import fc from 'fast-check';
import { describe, it } from 'vitest';
import { loadSamplePapers } from '../../src/sample.js';
import { parseListQuery } from '../../src/query/parse-list-query.js';
import { parseQueryString } from '../../src/query/query-string.js';
import { contractProperty } from './check-contract.js';
import { rawQueryString } from './http-arbitraries.js';

// 1,000 cases here; `pnpm stress --fuzz` runs 100,000.
const RUNS = Number(process.env.PAPERLIST_FUZZ_RUNS ?? 1000);

describe('property: the query parser', () => {
  it('reads any query string without throwing, into a request or a documented error', () => {
    fc.assert(
      fc.property(rawQueryString, (raw) => {
        const parsed = parseQueryString(raw);
        if (!parsed.ok) return ['malformed-encoding', 'control-character'].includes(parsed.error);
        const list = parseListQuery(parsed.pairs, { pageSize: 50, maxPageSize: 500 });
        if (!list.ok) {
          if (list.error === 'invalid-filter') return list.fieldErrors !== undefined && Object.keys(list.fieldErrors).length > 0;
          return ['invalid-page', 'invalid-cursor', 'query-too-long', 'too-many-terms'].includes(list.error);
        }
        const { pageSize, page, terms } = list.request;
        return pageSize >= 1 && pageSize <= 500 && (page === 'last' || page >= 1) && terms.length <= 32;
      }),
      { numRuns: RUNS },
    );
  });
});

describe('property: the HTTP contract', () => {
  it('answers any method, path, query and headers with a documented JSON status, never a throw or a hang', async () => {
    await fc.assert(contractProperty(await loadSamplePapers()), { numRuns: RUNS });
  });
});
