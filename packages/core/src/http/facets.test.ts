import { beforeAll, describe, expect, it } from 'vitest';
import { makePaper } from '../../test/make-paper.js';
import { createMemorySource } from '../memory/memory-source.js';
import type { Paper } from '../paper.js';
import { loadSamplePapers } from '../sample.js';
import { createPapersHandler } from './papers-handler.js';
import type { PapersHandlerOptions } from './handler-options.js';

const text = (body: Uint8Array | null) => (body === null ? '' : new TextDecoder().decode(body));

function serve(papers: readonly Paper[], options: Partial<PapersHandlerOptions> = {}) {
  const handle = createPapersHandler({ source: createMemorySource(papers), allowedHosts: ['h'], ...options });
  return async (url: string) => {
    const response = (await handle({ method: 'GET', url, headers: { host: 'h' } }))!;
    return { status: response.status, body: text(response.body) };
  };
}

interface Bucket {
  value: string | null;
  count: number;
}
interface FacetedPage {
  count: number;
  results: unknown[];
  facets: Record<string, Bucket[]>;
}

const small = [
  makePaper({ id: 'a', published: '2018-01-01', proceeding: 'acl-2018-7' }),
  makePaper({ id: 'b', published: '2018-05-05', proceeding: 'NIPS 2018 12' }),
  makePaper({ id: 'c', published: '2019-01-01', proceeding: 'NeurIPS 2019 12' }),
  makePaper({ id: 'd', published: null, proceeding: 'acl-2019-7' }),
  makePaper({ id: 'e', published: '2019-02-02', proceeding: null }),
  makePaper({ id: 'f', published: '2019-03-03', proceeding: 'NeurIPS 2019 12' }),
];

describe('facets', () => {
  it('adds exact buckets after results: by count, then value; venues merged under their alias', async () => {
    const get = serve(small);
    const response = await get('/papers/?facets=venue,year,proceeding&items_per_page=1');
    expect(response.status).toBe(200);
    expect(response.body).toMatch(/"results":\[.*\],"facets":\{"year":/);
    const page = JSON.parse(response.body) as FacetedPage;
    expect(page.results).toHaveLength(1);
    expect(page.facets).toEqual({
      year: [
        { value: '2019', count: 3 },
        { value: '2018', count: 2 },
      ],
      venue: [
        { value: 'neurips', count: 3 },
        { value: 'acl', count: 2 },
      ],
      proceeding: [
        { value: 'NeurIPS 2019 12', count: 2 },
        { value: 'NIPS 2018 12', count: 1 },
        { value: 'acl-2018-7', count: 1 },
        { value: 'acl-2019-7', count: 1 },
      ],
    });
    expect(Object.keys(page.facets)).toEqual(['year', 'venue', 'proceeding']);
  });

  it('lists the null bucket with facet_null=1, cuts at facet_limit, and counts over the filters', async () => {
    const get = serve(small);
    const page = JSON.parse((await get('/papers/?facets=year&facet_null=1&facet_limit=2&venue=acl|neurips')).body) as FacetedPage;
    expect(page.count).toBe(5);
    expect(page.facets['year']).toEqual([
      { value: '2018', count: 2 },
      { value: '2019', count: 2 },
    ]);
    const all = JSON.parse((await get('/papers/?facets=year&facet_null=yes&venue=acl|neurips')).body) as FacetedPage;
    expect(all.facets['year']).toEqual([
      { value: '2018', count: 2 },
      { value: '2019', count: 2 },
      { value: null, count: 1 },
    ]);
    const counted = await get('/papers/?facets=proceeding&count_only=1&year=2019');
    expect(counted.body).toBe('{"count":3,"next":null,"previous":null,"results":[],"facets":{"proceeding":[{"value":"NeurIPS 2019 12","count":2}]}}');
  });

  it('counts author names as written, a paper once under each, the best facet_limit by count then code points', async () => {
    const papers = [
      makePaper({ id: 'p1', authors: ['Zoë Ada', 'Bo Li', 'Bo Li'] }),
      makePaper({ id: 'p2', authors: ['Bo Li', 'bo li'] }),
      makePaper({ id: 'p3', authors: ['Zoë Ada', 'Émile Roux'] }),
      makePaper({ id: 'p4', authors: ['Ana Ng'] }),
      makePaper({ id: 'p5', authors: [] }),
    ];
    const get = serve(papers);
    const page = JSON.parse((await get('/papers/?facets=author&facet_null=1&facet_limit=4')).body) as FacetedPage;
    expect(page.facets['author']).toEqual([
      { value: 'Bo Li', count: 2 },
      { value: 'Zoë Ada', count: 2 },
      // Ties by code point: 'A' < 'b' < 'É'.
      { value: 'Ana Ng', count: 1 },
      { value: 'bo li', count: 1 },
    ]);
    const withNull = JSON.parse((await get('/papers/?facets=author&facet_null=1&facet_limit=1000')).body) as FacetedPage;
    expect(withNull.facets['author']!.at(-1)).toEqual({ value: null, count: 1 });
    expect(withNull.facets['author']).toHaveLength(6);
    // Over a match set: names of one paper in it count 1, the others are not listed.
    const matched = JSON.parse((await get('/papers/?author=ana|zoe&facets=author&facet_null=1&facet_limit=10')).body) as FacetedPage;
    expect(matched.facets['author']).toEqual([
      { value: 'Zoë Ada', count: 2 },
      { value: 'Ana Ng', count: 1 },
      { value: 'Bo Li', count: 1 },
      { value: 'Émile Roux', count: 1 },
    ]);
    // Filtering by a bucket finds exactly its count; `author=` (words, folded) finds more.
    const exact = JSON.parse((await get(`/papers/?author_name=${encodeURIComponent('Bo Li')}&facets=author`)).body) as FacetedPage;
    expect(exact.count).toBe(2);
    expect(exact.facets['author']![0]).toEqual({ value: 'Bo Li', count: 2 });
    expect((JSON.parse((await get('/papers/?author=bo+li')).body) as FacetedPage).count).toBe(2);
    expect((JSON.parse((await get('/papers/?author_name=bo+li')).body) as FacetedPage).count).toBe(1);
  });

  it.each([
    ['facets=year,colour', '{"facets":["Unknown facet: \\"colour\\". Facets are year, venue, proceeding, author, task, method."]}'],
    ['facets=year&facet_limit=0', '{"facet_limit":["Ensure this value is greater than or equal to 1."]}'],
    ['facets=year&facet_limit=1001', '{"facet_limit":["Ensure this value is less than or equal to 1000."]}'],
    ['facets=year&facet_limit=ten&facet_null=perhaps', '{"facet_limit":["A valid integer is required."],"facet_null":["Must be a valid boolean."]}'],
  ])('answers 400 for ?%s', async (query, body) => {
    const response = await serve(small)(`/papers/?${query}`);
    expect(response.status).toBe(400);
    expect(response.body).toBe(body);
  });

  it('is unknown with the extensions off', async () => {
    const on = await serve(small, { extensions: false })('/papers/?facets=year');
    expect(on.status).toBe(200);
    expect(on.body).not.toContain('"facets"');
  });

  describe('on the sample: every bucket, filtered by, finds exactly its count', () => {
    let get: ReturnType<typeof serve>;
    beforeAll(async () => {
      get = serve(await loadSamplePapers());
    });

    it.each(['', 'q=learning', 'q=neural+translation&year=2015-', 'author=a', 'venue=acl|emnlp', 'title=the'])('%j', async (query) => {
      const page = JSON.parse((await get(`/papers/?${query}&facets=year,venue,proceeding,author&facet_limit=1000`)).body) as FacetedPage;
      const filterOf: Record<string, (value: string) => string> = {
        author: (value) => `author_name=${encodeURIComponent(value)}`,
        year: (value) => `year=${value}`,
        venue: (value) => `venue=${encodeURIComponent(value)}`,
        proceeding: (value) => `proceeding=${encodeURIComponent(value)}`,
      };
      let checked = 0;
      for (const [field, buckets] of Object.entries(page.facets)) {
        // The largest buckets and a few small ones: enough to catch any disagreement.
        for (const bucket of [...buckets.slice(0, 6), ...buckets.slice(-3)]) {
          if (bucket.value === null || bucket.value.includes('|')) continue;
          const filtered = JSON.parse((await get(`/papers/?${query}&${filterOf[field]!(bucket.value)}&count_only=1`)).body) as { count: number };
          expect(filtered.count, `${query} ${field}=${bucket.value}`).toBe(bucket.count);
          checked++;
        }
        // A paper has one year, venue and proceeding, but several authors.
        if (field !== 'author') expect(buckets.reduce((sum, b) => sum + b.count, 0)).toBeLessThanOrEqual(page.count);
      }
      expect(checked).toBeGreaterThan(0);
    });
  });
});
