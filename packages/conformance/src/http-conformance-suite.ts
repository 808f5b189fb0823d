import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemorySource, type Paper, type PapersHandlerOptions, type PaperSource } from '@paperlist/core';
import { loadSamplePapers } from '@paperlist/core/sample';
import { fixturePapers } from './fixture-papers.js';
import { pathOf, rawRequest, type RawRequestOptions, type RawResponse } from './raw-request.js';
import type { ConformanceServerOptions, RunningServer } from './serve-fetch-handler.js';
export type { ConformanceServerOptions } from './serve-fetch-handler.js';
import { defineWriteCases } from './http-write-cases.js';


/** One way of serving the papers API over HTTP: an adapter, or the fetch handler behind a bridge. */
export interface HttpConformanceTarget {
  /** Shown in the test names, e.g. `express 5`. */
  name: string;
  /** Starts a server on 127.0.0.1, ephemeral port, with the papers API mounted at `options.mount`. */
  start(options: ConformanceServerOptions): Promise<RunningServer>;
  /** The source to serve the papers from; default {@link createMemorySource}. */
  makeSource?(papers: Paper[]): Promise<PaperSource>;
  /**
   * What a path outside the papers routes gets: `'fall-through'` (default) when the adapter hands
   * it on and the host app answers its own 404; `'not-found-json'` when the target answers
   * `404 {"detail":"Not found."}` itself (the fetch handler).
   */
  unmatchedPaths?: 'fall-through' | 'not-found-json';
}

const MOUNT = '/api/v1';
const LIST = `${MOUNT}/papers/`;

/** Fixture ids in the default order: title collation, then code points, then id. */
const DEFAULT_ORDER = [
  'attention-is-all-you-need',
  'deep-learning',
  'deep-learning-1',
  'deep-learning-2',
  'gpt-4-technical-report',
  'graph-attention-networks',
  'alpha-divergence-learning',
  'roberta-a-robustly-optimized-bert',
  'schrodinger-bridges',
  'sparse-network-pruning',
  'transformers-in-vision',
];

const GPT4_JSON =
  '{"id":"gpt-4-technical-report","arxiv_id":"2303.08774","nips_id":null,"url_abs":"https://arxiv.org/abs/2303.08774v6","url_pdf":"https://arxiv.org/pdf/2303.08774v6.pdf","title":"GPT-4 Technical Report","abstract":"We report the development of GPT-4, a large-scale, multimodal model.","authors":[],"published":"2023-03-15","conference":null,"conference_url_abs":null,"conference_url_pdf":null,"proceeding":null}';
const SCHRODINGER_JSON =
  '{"id":"schrodinger-bridges","arxiv_id":null,"nips_id":null,"url_abs":"https://example.org/papers/schrodinger-bridges","url_pdf":"https://example.org/papers/schrodinger-bridges.pdf","title":"Schrödinger Bridges for Generative Learning","abstract":"We study entropic optimal transport for vision and sampling.","authors":["Zoë Kovács"],"published":"2021-03-01","conference":null,"conference_url_abs":null,"conference_url_pdf":null,"proceeding":null}';
const ATTENTION_JSON =
  '{"id":"attention-is-all-you-need","arxiv_id":"1706.03762","nips_id":null,"url_abs":"https://arxiv.org/abs/1706.03762v5","url_pdf":"https://arxiv.org/pdf/1706.03762v5.pdf","title":"Attention Is All You Need","abstract":"The dominant sequence transduction models are based on complex recurrent or convolutional encoders. We propose the Transformer, based solely on attention mechanisms.","authors":["Ashish Vaswani","Noam Shazeer","Niki Parmar"],"published":"2017-06-12","conference":"attention-is-all-you-need-1","conference_url_abs":"http://papers.nips.cc/paper/7181-attention-is-all-you-need","conference_url_pdf":"http://papers.nips.cc/paper/7181-attention-is-all-you-need.pdf","proceeding":"neurips-2017-12"}';
const DEEP_LEARNING_JSON =
  '{"id":"deep-learning","arxiv_id":null,"nips_id":null,"url_abs":"https://example.org/papers/deep-learning","url_pdf":"https://example.org/papers/deep-learning.pdf","title":"Deep Learning","abstract":"A survey of representation learning with many processing layers.","authors":["Yann LeCun","Yoshua Bengio","Geoffrey Hinton"],"published":"2015-05-27","conference":null,"conference_url_abs":null,"conference_url_pdf":null,"proceeding":null}';
const TRANSFORMERS_JSON =
  '{"id":"transformers-in-vision","arxiv_id":"2101.01169","nips_id":null,"url_abs":"https://arxiv.org/abs/2101.01169v5","url_pdf":"https://arxiv.org/pdf/2101.01169v5.pdf","title":"Transformers in Vision: A Survey","abstract":"Astounding results from transformer models on natural language tasks have intrigued the community.","authors":["Salman Khan","Muzammal Naseer"],"published":"2021-01-04","conference":null,"conference_url_abs":null,"conference_url_pdf":null,"proceeding":null}';

const NOT_FOUND = '{"detail":"Not found."}';
const INVALID_PAGE = '{"detail":"Invalid page."}';
const NOT_ACCEPTABLE = '{"detail":"Could not satisfy the request Accept header."}';
/** What a browser sends for a page it navigates to. */
const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

interface ListBody {
  count: number;
  next: string | null;
  previous: string | null;
  results: Paper[];
}

/**
 * Registers the HTTP conformance suite for one target: every rule of the HTTP contract
 * (docs/http-api.md, DESIGN.md) checked over real HTTP with literal expected bodies. The same
 * suite runs unchanged against every adapter; a new adapter is done when it passes.
 *
 * @example
 * defineHttpConformanceSuite({
 *   name: 'express 5',
 *   async start({ mount, ...options }) { ... app.use(mount, papersRouter(options)) ... },
 * });
 */
export function defineHttpConformanceSuite(target: HttpConformanceTarget): void {
  const makeSource = target.makeSource ?? ((papers: Paper[]) => Promise.resolve(createMemorySource(papers)));

  describe(`HTTP conformance: ${target.name}`, () => {
    const servers: RunningServer[] = [];
    let fixture: RunningServer;
    let fixtureSource: PaperSource;
    let sample: RunningServer;
    let samplePapers: Paper[];
    let rebased: RunningServer;
    let hosted: RunningServer;
    let smallPages: RunningServer;
    let failing: RunningServer;
    let versioned: RunningServer;
    const sourceErrors: unknown[] = [];

    beforeAll(async () => {
      const start = async (options: ConformanceServerOptions) => {
        const server = await target.start(options);
        servers.push(server);
        return server;
      };
      fixtureSource = await makeSource(fixturePapers.map((paper) => structuredClone(paper)));
      samplePapers = await loadSamplePapers();
      fixture = await start({ source: fixtureSource, mount: MOUNT });
      sample = await start({ source: await makeSource(samplePapers), mount: MOUNT });
      rebased = await start({ source: fixtureSource, mount: MOUNT, baseUrl: 'https://papers.example.org/mirror' });
      hosted = await start({ source: fixtureSource, mount: MOUNT, allowedHosts: ['papers.test', '127.0.0.1'] });
      smallPages = await start({ source: fixtureSource, mount: MOUNT, pageSize: 3, maxPageSize: 4 });
      const withVersion: PaperSource = {
        list: (query, options) => fixtureSource.list(query, options),
        get: (id, options) => fixtureSource.get(id, options),
        version: () => 'fixture-v1',
      };
      versioned = await start({ source: withVersion, mount: MOUNT });
      const broken: PaperSource = {
        list: () => Promise.reject(new Error('connection refused: secret-host:5432')),
        get: () => Promise.reject(new Error('connection refused: secret-host:5432')),
      };
      failing = await start({ source: broken, mount: MOUNT, onError: (error) => sourceErrors.push(error) });
    });

    afterAll(async () => {
      await Promise.all(servers.map((server) => server.close()));
    });

    const get = (path: string, options?: RawRequestOptions) => rawRequest(fixture.url, path, options);
    const list = (query: string, options?: RawRequestOptions) => get(`${LIST}${query}`, options);
    const link = (query: string) => `${fixture.url}${LIST}${query}`;
    const body = (res: RawResponse) => JSON.parse(res.text) as ListBody;
    const ids = (res: RawResponse) => body(res).results.map((paper) => paper.id);
    const listIds = async (query: string) => {
      const res = await list(query);
      expect(res.status, res.text).toBe(200);
      return ids(res);
    };

    /** The three contract headers, exactly, and a Content-Length that matches the body. */
    const expectContractHeaders = (res: RawResponse, options: { head?: boolean } = {}) => {
      expect(res.headers['allow']).toBe('GET, HEAD, OPTIONS');
      expect(res.headers['vary']).toBe('Accept');
      expect(res.headers['content-type']).toBe('application/json');
      expect(res.headers['content-length']).toBeDefined();
      if (!options.head) expect(Number(res.headers['content-length'])).toBe(res.body.length);
    };

    /** A JSON `{"detail": "..."}` answer with a non-empty detail (the wording is the core's). */
    const expectDetail = (res: RawResponse, status: number) => {
      expect(res.status, res.text).toBe(status);
      expectContractHeaders(res);
      const parsed = JSON.parse(res.text) as Record<string, unknown>;
      expect(Object.keys(parsed)).toEqual(['detail']);
      expect(typeof parsed['detail']).toBe('string');
      expect((parsed['detail'] as string).length).toBeGreaterThan(0);
    };

    describe('list: body and representation', () => {
      it('answers the first page as compact JSON: count, next, previous, results, 13 fields in order', async () => {
        const res = await list('?q=gpt-4');
        expect(res.status).toBe(200);
        expectContractHeaders(res);
        expect(res.text).toBe(`{"count":1,"next":null,"previous":null,"results":[${GPT4_JSON}]}`);
      });

      it('writes non-ASCII as raw UTF-8, never \\u escapes', async () => {
        const res = await list('?q=schrodinger');
        expect(res.text).toBe(`{"count":1,"next":null,"previous":null,"results":[${SCHRODINGER_JSON}]}`);
        expect(res.body.includes(Buffer.from('Schrödinger', 'utf8'))).toBe(true);
        expect(res.text).not.toMatch(/\\u[0-9a-fA-F]{4}/);
      });

      it('keeps LaTeX backslashes as JSON escapes of the backslash only', async () => {
        const res = await list('?q=alpha');
        expect(res.text).toContain('"title":"Learning $\\\\alpha$-Divergences with Neural Nets"');
      });

      it('serves the whole fixture in the default order when there are no parameters', async () => {
        const res = await list('');
        expect(res.status).toBe(200);
        expectContractHeaders(res);
        const parsed = body(res);
        expect(parsed.count).toBe(11);
        expect(parsed.next).toBeNull();
        expect(parsed.previous).toBeNull();
        expect(ids(res)).toEqual(DEFAULT_ORDER);
        for (const paper of parsed.results) {
          expect(Object.keys(paper)).toEqual([
            'id',
            'arxiv_id',
            'nips_id',
            'url_abs',
            'url_pdf',
            'title',
            'abstract',
            'authors',
            'published',
            'conference',
            'conference_url_abs',
            'conference_url_pdf',
            'proceeding',
          ]);
        }
      });
    });

    describe('ordering', () => {
      it('default: title collation (letters and digits, case and accents ignored), then code points, then id', async () => {
        // `Deep Learning` (twice, ids tie-break) before `Deep learning.` ('L' < 'l').
        expect(await listIds('')).toEqual(DEFAULT_ORDER);
      });

      it('title is the default order', async () => {
        expect(await listIds('?ordering=title')).toEqual(DEFAULT_ORDER);
      });

      it('-title reverses the collation; identical titles fall through to id ascending', async () => {
        expect(await listIds('?ordering=-title')).toEqual([
          'transformers-in-vision',
          'sparse-network-pruning',
          'schrodinger-bridges',
          'roberta-a-robustly-optimized-bert',
          'alpha-divergence-learning',
          'graph-attention-networks',
          'gpt-4-technical-report',
          'deep-learning-2',
          'deep-learning',
          'deep-learning-1',
          'attention-is-all-you-need',
        ]);
      });

      it('published: oldest first, same day by id, nulls last', async () => {
        expect(await listIds('?ordering=published')).toEqual([
          'deep-learning',
          'deep-learning-2',
          'attention-is-all-you-need',
          'sparse-network-pruning',
          'graph-attention-networks',
          'roberta-a-robustly-optimized-bert',
          'transformers-in-vision',
          'schrodinger-bridges',
          'gpt-4-technical-report',
          'alpha-divergence-learning',
          'deep-learning-1',
        ]);
      });

      it('-published: nulls first, then newest first, same day by id ascending', async () => {
        expect(await listIds('?ordering=-published')).toEqual([
          'alpha-divergence-learning',
          'deep-learning-1',
          'gpt-4-technical-report',
          'schrodinger-bridges',
          'transformers-in-vision',
          'roberta-a-robustly-optimized-bert',
          'graph-attention-networks',
          'attention-is-all-you-need',
          'sparse-network-pruning',
          'deep-learning-2',
          'deep-learning',
        ]);
      });

      it('arxiv_id: ascending, papers without one last by id', async () => {
        expect(await listIds('?ordering=arxiv_id')).toEqual([
          'attention-is-all-you-need',
          'graph-attention-networks',
          'roberta-a-robustly-optimized-bert',
          'transformers-in-vision',
          'gpt-4-technical-report',
          'alpha-divergence-learning',
          'deep-learning',
          'deep-learning-1',
          'deep-learning-2',
          'schrodinger-bridges',
          'sparse-network-pruning',
        ]);
      });

      it('-arxiv_id: papers without one first by id, then descending', async () => {
        expect(await listIds('?ordering=-arxiv_id')).toEqual([
          'alpha-divergence-learning',
          'deep-learning',
          'deep-learning-1',
          'deep-learning-2',
          'schrodinger-bridges',
          'sparse-network-pruning',
          'gpt-4-technical-report',
          'transformers-in-vision',
          'roberta-a-robustly-optimized-bert',
          'graph-attention-networks',
          'attention-is-all-you-need',
        ]);
      });

      const ID_ORDER = [
        'alpha-divergence-learning',
        'attention-is-all-you-need',
        'deep-learning',
        'deep-learning-1',
        'deep-learning-2',
        'gpt-4-technical-report',
        'graph-attention-networks',
        'roberta-a-robustly-optimized-bert',
        'schrodinger-bridges',
        'sparse-network-pruning',
        'transformers-in-vision',
      ];

      it('id and -id', async () => {
        expect(await listIds('?ordering=id')).toEqual(ID_ORDER);
        expect(await listIds('?ordering=-id')).toEqual([...ID_ORDER].reverse());
      });

      it('several fields: -title,-published orders the identical titles by date, nulls first', async () => {
        expect(await listIds('?ordering=-title,-published')).toEqual([
          'transformers-in-vision',
          'sparse-network-pruning',
          'schrodinger-bridges',
          'roberta-a-robustly-optimized-bert',
          'alpha-divergence-learning',
          'graph-attention-networks',
          'gpt-4-technical-report',
          'deep-learning-2',
          'deep-learning-1',
          'deep-learning',
          'attention-is-all-you-need',
        ]);
      });

      it('several fields: arxiv_id,-published orders the papers without arXiv id by date', async () => {
        expect(await listIds('?ordering=arxiv_id%2C-published')).toEqual([
          'attention-is-all-you-need',
          'graph-attention-networks',
          'roberta-a-robustly-optimized-bert',
          'transformers-in-vision',
          'gpt-4-technical-report',
          'alpha-divergence-learning',
          'deep-learning-1',
          'schrodinger-bridges',
          'sparse-network-pruning',
          'deep-learning-2',
          'deep-learning',
        ]);
      });

      it('drops unknown fields and keeps the valid ones', async () => {
        expect(await listIds('?ordering=citations,-id')).toEqual([...ID_ORDER].reverse());
      });

      it('falls back to the default when nothing valid is left', async () => {
        expect(await listIds('?ordering=citations')).toEqual(DEFAULT_ORDER);
        expect(await listIds('?ordering=')).toEqual(DEFAULT_ORDER);
        expect(await listIds('?ordering=-')).toEqual(DEFAULT_ORDER);
        expect(await listIds('?ordering=TITLE')).toEqual(DEFAULT_ORDER);
      });

      it('an explicit ordering replaces relevance for a search', async () => {
        expect(await listIds('?q=learning&ordering=published')).toEqual([
          'deep-learning',
          'deep-learning-2',
          'schrodinger-bridges',
          'alpha-divergence-learning',
          'deep-learning-1',
        ]);
        expect(await listIds('?q=learning&ordering=title')).toEqual([
          'deep-learning',
          'deep-learning-1',
          'deep-learning-2',
          'alpha-divergence-learning',
          'schrodinger-bridges',
        ]);
      });
    });

    describe('search (q)', () => {
      it('orders by relevance without ordering: title above abstract', async () => {
        expect(await listIds('?q=vision')).toEqual(['transformers-in-vision', 'schrodinger-bridges']);
      });

      it('orders by relevance: a whole word above a prefix', async () => {
        expect(await listIds('?q=network')).toEqual(['sparse-network-pruning', 'graph-attention-networks']);
      });

      it('breaks relevance ties by the default order', async () => {
        expect(await listIds('?q=deep')).toEqual(['deep-learning', 'deep-learning-1', 'deep-learning-2']);
      });

      it('matches a word by its prefix: transform finds Transformers (title) and Transformer (abstract)', async () => {
        expect(await listIds('?q=transform')).toEqual(['transformers-in-vision', 'attention-is-all-you-need']);
      });

      it('accepts spaces sent as + and as %20 alike', async () => {
        const plus = await list('?q=deep+learning&items_per_page=1');
        const percent = await list('?q=deep%20learning&items_per_page=1');
        expect(plus.status).toBe(200);
        expect(plus.text).toBe(
          `{"count":3,"next":"${link('?items_per_page=1&page=2&q=deep+learning')}","previous":null,"results":[${DEEP_LEARNING_JSON}]}`,
        );
        expect(percent.text).toBe(plus.text);
      });

      it('requires every term (AND), split on whitespace and commas', async () => {
        expect(await listIds('?q=deep+learning')).toEqual(['deep-learning', 'deep-learning-1', 'deep-learning-2']);
        expect(await listIds('?q=learning,deep')).toEqual(['deep-learning', 'deep-learning-1', 'deep-learning-2']);
        expect(await listIds('?q=deep+vision')).toEqual([]);
      });

      it('is case- and accent-insensitive, in titles and author names', async () => {
        expect(await listIds('?q=schrodinger')).toEqual(['schrodinger-bridges']);
        expect(await listIds('?q=SCHR%C3%96DINGER')).toEqual(['schrodinger-bridges']);
        expect(await listIds('?q=kovacs')).toEqual(['schrodinger-bridges']);
        expect(await listIds('?q=velickovic')).toEqual(['graph-attention-networks']);
      });

      it('matches a quoted phrase as consecutive words, the last one a prefix', async () => {
        expect(await listIds('?q=%22attention+is+all%22')).toEqual(['attention-is-all-you-need']);
        expect(await listIds('?q=%22all+you+ne%22')).toEqual(['attention-is-all-you-need']);
        expect(await listIds('?q=%22is+all+attention%22')).toEqual([]);
      });

      it('matches a phrase inside one field only (each author name is its own field)', async () => {
        expect(await listIds('?q=%22noam+shazeer%22')).toEqual(['attention-is-all-you-need']);
        expect(await listIds('?q=%22vaswani+noam%22')).toEqual([]);
        expect(await listIds('?q=%22you+need+the%22')).toEqual([]);
      });

      it('matches a term holding punctuation (gpt-4) as the phrase of its parts', async () => {
        expect(await listIds('?q=gpt-4')).toEqual(['gpt-4-technical-report']);
        expect(await listIds('?q=GPT-4+report')).toEqual(['gpt-4-technical-report']);
        expect(await listIds('?q=gpt4')).toEqual([]);
      });

      it('matches LaTeX markup by its words', async () => {
        expect(await listIds('?q=alpha+divergences')).toEqual(['alpha-divergence-learning']);
      });

      it('matches an arXiv id', async () => {
        expect(await listIds('?q=1706.03762')).toEqual(['attention-is-all-you-need']);
        expect(await listIds('?q=2101.01169')).toEqual(['transformers-in-vision']);
      });

      it('answers an empty first page with 200 and count 0', async () => {
        const res = await list('?q=zzzzzz');
        expect(res.status).toBe(200);
        expectContractHeaders(res);
        expect(res.text).toBe('{"count":0,"next":null,"previous":null,"results":[]}');
        expect((await list('?q=zzzzzz&page=last')).text).toBe('{"count":0,"next":null,"previous":null,"results":[]}');
        const second = await list('?q=zzzzzz&page=2');
        expect(second.status).toBe(404);
        expect(second.text).toBe(INVALID_PAGE);
      });

      it('ignores an empty q', async () => {
        expect(await listIds('?q=')).toEqual(DEFAULT_ORDER);
        expect(await listIds('?q=+++')).toEqual(DEFAULT_ORDER);
      });
    });

    describe('export (format=jsonl, an extension)', () => {
      const walk = async (query: string) => {
        const all: unknown[] = [];
        for (let page = 1; ; page++) {
          const res = await rawRequest(sample.url, `${LIST}?${query}&items_per_page=500&page=${page}`);
          expect(res.status, res.text).toBe(200);
          const parsed = JSON.parse(res.text) as ListBody;
          all.push(...parsed.results);
          if (parsed.next === null) return all;
        }
      };
      const lines = (res: RawResponse) => res.text.split('\n').slice(0, -1).map((line) => JSON.parse(line) as unknown);

      it('streams every matching paper, one per line, equal to the paged walk', async () => {
        for (const query of ['ordering=-published', 'ordering=title&year=2015-&fields=id,title', 'q=learning&ordering=id']) {
          const res = await rawRequest(sample.url, `${LIST}?${query}&format=jsonl`);
          expect(res.status, res.text.slice(0, 200)).toBe(200);
          expect(res.headers['content-type']).toBe('application/x-ndjson');
          expect(res.text.endsWith('\n')).toBe(true);
          expect(lines(res), query).toEqual(await walk(query));
        }
      });

      it('is chosen by Accept: application/x-ndjson too; a search without ordering is 400', async () => {
        const res = await rawRequest(sample.url, `${LIST}?ordering=id&year=2019`, { headers: { accept: 'application/x-ndjson' } });
        expect(res.status).toBe(200);
        expect(lines(res)).toEqual(await walk('ordering=id&year=2019'));
        const search = await rawRequest(sample.url, `${LIST}?q=learning&format=jsonl`);
        expect(search.status).toBe(400);
        expect(Object.keys(JSON.parse(search.text) as object)).toEqual(['ordering']);
      });
    });

    describe('filters', () => {
      it('arxiv_id matches exactly', async () => {
        const res = await list('?arxiv_id=1706.03762');
        expect(res.text).toBe(`{"count":1,"next":null,"previous":null,"results":[${ATTENTION_JSON}]}`);
        expect(await listIds('?arxiv_id=1706.0376')).toEqual([]);
      });

      it('title is a case-insensitive substring', async () => {
        expect(await listIds('?title=LEARNING')).toEqual([
          'deep-learning',
          'deep-learning-1',
          'deep-learning-2',
          'alpha-divergence-learning',
          'schrodinger-bridges',
        ]);
        expect(await listIds('?title=r%C3%B6dinger+bri')).toEqual(['schrodinger-bridges']);
      });

      it('abstract is a case-insensitive substring', async () => {
        expect(await listIds('?abstract=SURVEY+of')).toEqual(['deep-learning', 'deep-learning-1', 'deep-learning-2']);
        expect(await listIds('?abstract=%24%5Calpha%24')).toEqual(['alpha-divergence-learning']);
      });

      it('filters combine with search and ordering', async () => {
        expect(await listIds('?q=learning&title=deep&ordering=-published')).toEqual([
          'deep-learning-1',
          'deep-learning-2',
          'deep-learning',
        ]);
      });
    });

    describe('pagination', () => {
      it('items_per_page=1: first page has next and no previous', async () => {
        const res = await list('?items_per_page=1');
        expect(res.text).toBe(
          `{"count":11,"next":"${link('?items_per_page=1&page=2')}","previous":null,"results":[${ATTENTION_JSON}]}`,
        );
      });

      it('page 2: previous carries no page parameter', async () => {
        const res = await list('?items_per_page=1&page=2');
        expect(res.text).toBe(
          `{"count":11,"next":"${link('?items_per_page=1&page=3')}","previous":"${link('?items_per_page=1')}","results":[${DEEP_LEARNING_JSON}]}`,
        );
      });

      it('page 3: previous carries page=2', async () => {
        const parsed = body(await list('?page=3&items_per_page=1'));
        expect(parsed.previous).toBe(link('?items_per_page=1&page=2'));
        expect(parsed.next).toBe(link('?items_per_page=1&page=4'));
      });

      it('page=last is the last page; its next is null', async () => {
        const res = await list('?items_per_page=5&page=last');
        expect(res.text).toBe(
          `{"count":11,"next":null,"previous":"${link('?items_per_page=5&page=2')}","results":[${TRANSFORMERS_JSON}]}`,
        );
        expect((await list('?items_per_page=5&page=3')).text).toBe(res.text);
        expect(body(await list('?page=last')).previous).toBeNull();
      });

      it('an empty page parameter means page 1 (as Django REST Framework reads it)', async () => {
        const parsed = body(await list('?items_per_page=5&page='));
        expect(parsed.results.map((paper) => paper.id)).toEqual(DEFAULT_ORDER.slice(0, 5));
        expect(parsed.next).toBe(link('?items_per_page=5&page=2'));
        expect(parsed.previous).toBeNull();
      });

      it.each(['4', '0', '-1', 'abc', '1.5', '1e3', '99999999999999999999999'])(
        'page=%s is 404 Invalid page.',
        async (page) => {
          const res = await list(`?items_per_page=5&page=${page}`);
          expect(res.status).toBe(404);
          expectContractHeaders(res);
          expect(res.text).toBe(INVALID_PAGE);
        },
      );

      it('items_per_page 0, negative or not a number falls back to the default (50)', async () => {
        for (const value of ['0', '-5', 'abc', '2.5', '1e3', '']) {
          const parsed = body(await list(`?items_per_page=${value}`));
          expect(parsed.results).toHaveLength(11);
          expect(parsed.next).toBeNull();
        }
        const samplePage = JSON.parse((await rawRequest(sample.url, `${LIST}?items_per_page=-5`)).text) as ListBody;
        expect(samplePage.results).toHaveLength(50);
        expect(samplePage.next).toBe(`${sample.url}${LIST}?items_per_page=-5&page=2`);
      });

      it('items_per_page over the maximum is capped at 500; links keep the value sent', async () => {
        const res = await rawRequest(sample.url, `${LIST}?items_per_page=1000`);
        const parsed = JSON.parse(res.text) as ListBody;
        expect(parsed.count).toBe(samplePapers.length);
        expect(parsed.results).toHaveLength(500);
        expect(parsed.next).toBe(`${sample.url}${LIST}?items_per_page=1000&page=2`);
        const huge = JSON.parse((await rawRequest(sample.url, `${LIST}?items_per_page=99999999999999999999`)).text) as ListBody;
        expect(huge.results).toHaveLength(500);
      });

      it('the default is 50 per page', async () => {
        const parsed = JSON.parse((await rawRequest(sample.url, LIST)).text) as ListBody;
        expect(parsed.count).toBe(samplePapers.length);
        expect(parsed.results).toHaveLength(50);
        expect(parsed.next).toBe(`${sample.url}${LIST}?page=2`);
        expect(parsed.previous).toBeNull();
      });

      it('page size and maximum are configurable', async () => {
        const page = (query: string) => rawRequest(smallPages.url, `${LIST}${query}`).then((res) => body(res));
        expect((await page('')).results.map((paper) => paper.id)).toEqual(DEFAULT_ORDER.slice(0, 3));
        expect((await page('')).next).toBe(`${smallPages.url}${LIST}?page=2`);
        expect((await page('?items_per_page=10')).results).toHaveLength(4);
        expect((await page('?items_per_page=0')).results).toHaveLength(3);
        expect((await page('?items_per_page=2')).results).toHaveLength(2);
      });
    });

    describe('links', () => {
      it('are absolute, with keys sorted and unknown parameters kept', async () => {
        const parsed = body(await list('?zeta=1&q=deep&items_per_page=1&alpha=x'));
        expect(parsed.next).toBe(link('?alpha=x&items_per_page=1&page=2&q=deep&zeta=1'));
        const upper = body(await list('?items_per_page=1&Zeta=1'));
        expect(upper.next).toBe(link('?Zeta=1&items_per_page=1&page=2'));
      });

      it('form-encode values: space as +, UTF-8 percent-encoded, everything but letters, digits and _.-~ escaped', async () => {
        const parsed = body(await list("?items_per_page=1&note=Schr%C3%B6dinger%20caf%C3%A9&path=a/b:c~*!'()"));
        expect(parsed.next).toBe(
          link('?items_per_page=1&note=Schr%C3%B6dinger+caf%C3%A9&page=2&path=a%2Fb%3Ac~%2A%21%27%28%29'),
        );
      });

      it('re-encode a quoted phrase and a comma-separated ordering', async () => {
        expect(body(await list('?q=%22deep+learning%22&items_per_page=1')).next).toBe(
          link('?items_per_page=1&page=2&q=%22deep+learning%22'),
        );
        expect(body(await list('?ordering=-published,title&items_per_page=1')).next).toBe(
          link('?items_per_page=1&ordering=-published%2Ctitle&page=2'),
        );
      });

      it('a repeated parameter: the last wins for the answer, links keep every value in order', async () => {
        const parsed = body(await list('?q=zzz&items_per_page=1&q=deep'));
        expect(parsed.count).toBe(3);
        expect(parsed.next).toBe(link('?items_per_page=1&page=2&q=zzz&q=deep'));
      });

      it('a repeated page: the last wins, links carry one page', async () => {
        const parsed = body(await list('?page=1&items_per_page=1&page=2'));
        expect(parsed.results.map((paper) => paper.id)).toEqual(['deep-learning']);
        expect(parsed.next).toBe(link('?items_per_page=1&page=3'));
        expect(parsed.previous).toBe(link('?items_per_page=1'));
      });

      it('keep blank values, and a bare key becomes key=', async () => {
        expect(body(await list('?foo=&items_per_page=1')).next).toBe(link('?foo=&items_per_page=1&page=2'));
        expect(body(await list('?foo&items_per_page=1')).next).toBe(link('?foo=&items_per_page=1&page=2'));
      });

      it('use the Host header the request came with, when the host is allowed', async () => {
        const res = await rawRequest(hosted.url, `${MOUNT}/papers/?items_per_page=1`, { headers: { host: 'papers.test:8080' } });
        expect(res.status).toBe(200);
        expect(body(res).next).toBe('http://papers.test:8080/api/v1/papers/?items_per_page=1&page=2');
      });

      it('refuse a host outside allowedHosts with 400, on every path, before touching the source', async () => {
        for (const path of ['/papers/', '/papers/deep-learning/', '/papers', '/papers/?page=abc']) {
          const res = await rawRequest(fixture.url, `${MOUNT}${path}`, { headers: { host: 'evil.example' } });
          expect(res.status, path).toBe(400);
          expect(res.text).toBe('{"detail":"Invalid host: it is not among the allowed hosts of this server."}');
          expect(res.headers['content-type']).toBe('application/json');
        }
        const poisoned = await rawRequest(hosted.url, `${MOUNT}/papers/`, { headers: { host: 'papers.test.evil.example' } });
        expect(poisoned.status).toBe(400);
      });

      it('accept the local addresses by default, on any port', async () => {
        for (const host of ['localhost:9999', '127.0.0.1', '[::1]:8000', 'LOCALHOST']) {
          const res = await rawRequest(fixture.url, `${MOUNT}/papers/?items_per_page=1`, { headers: { host } });
          expect(res.status, host).toBe(200);
        }
      });

      it('take links from baseUrl whatever the Host header says', async () => {
        const res = await rawRequest(rebased.url, `${MOUNT}/papers/?items_per_page=1`, { headers: { host: 'evil.example' } });
        expect(res.status).toBe(200);
        expect(body(res).next).toBe('https://papers.example.org/mirror/api/v1/papers/?items_per_page=1&page=2');
      });

      it('ignore X-Forwarded-* from an untrusted client', async () => {
        const res = await list('?items_per_page=1', {
          headers: { 'x-forwarded-host': 'evil.test', 'x-forwarded-proto': 'https' },
        });
        expect(body(res).next).toBe(link('?items_per_page=1&page=2'));
      });

      it('start with baseUrl when one is configured', async () => {
        const res = await rawRequest(rebased.url, `${LIST}?items_per_page=1&page=2`);
        const parsed = body(res);
        expect(parsed.next).toBe('https://papers.example.org/mirror/api/v1/papers/?items_per_page=1&page=3');
        expect(parsed.previous).toBe('https://papers.example.org/mirror/api/v1/papers/?items_per_page=1');
      });
    });

    describe('retrieve', () => {
      it('answers one paper as its 13 fields', async () => {
        const res = await get(`${MOUNT}/papers/gpt-4-technical-report/`);
        expect(res.status).toBe(200);
        expectContractHeaders(res);
        expect(res.text).toBe(GPT4_JSON);
        expect((await get(`${MOUNT}/papers/schrodinger-bridges/`)).text).toBe(SCHRODINGER_JSON);
      });

      it('ignores the query string', async () => {
        expect((await get(`${MOUNT}/papers/gpt-4-technical-report/?q=zzz&page=9`)).text).toBe(GPT4_JSON);
      });

      it('answers 404 Not found. for an unknown id', async () => {
        const res = await get(`${MOUNT}/papers/no-such-paper/`);
        expect(res.status).toBe(404);
        expectContractHeaders(res);
        expect(res.text).toBe(NOT_FOUND);
      });

      it.each(['%00', 'a%00b', `${'x'.repeat(4000)}`])('answers 404 Not found. for an id no source can hold (%s), never 503', async (id) => {
        const res = await get(`${MOUNT}/papers/${id}/`);
        expect(res.status).toBe(404);
        expect(res.text).toBe(NOT_FOUND);
      });

      it('decodes a percent-encoded id', async () => {
        expect((await get(`${MOUNT}/papers/gpt%2D4-technical-report/`)).text).toBe(GPT4_JSON);
      });

      it('answers a malformed percent-encoded id with JSON, not a 500', async () => {
        const res = await get(`${MOUNT}/papers/%E0%A4%A/`);
        expect([400, 404]).toContain(res.status);
        expectDetail(res, res.status);
      });
    });

    describe('trailing slash', () => {
      it('redirects the list without the slash with 301, query kept, relative Location', async () => {
        const res = await get(`${MOUNT}/papers?q=deep&items_per_page=1&page=2`);
        expect(res.status).toBe(301);
        expect(res.headers['location']).toBe('/api/v1/papers/?q=deep&items_per_page=1&page=2');
        expectContractHeaders(res);
        expect((await get(`${MOUNT}/papers`)).headers['location']).toBe('/api/v1/papers/');
      });

      it('redirects a paper without the slash', async () => {
        const res = await get(`${MOUNT}/papers/deep-learning?x=1`);
        expect(res.status).toBe(301);
        expect(res.headers['location']).toBe('/api/v1/papers/deep-learning/?x=1');
        expect((await get(`${MOUNT}/papers/deep-learning`)).headers['location']).toBe('/api/v1/papers/deep-learning/');
      });

      it('redirects a HEAD without a body', async () => {
        const res = await get(`${MOUNT}/papers?q=deep`, { method: 'HEAD' });
        expect(res.status).toBe(301);
        expect(res.headers['location']).toBe('/api/v1/papers/?q=deep');
        expect(res.body.length).toBe(0);
      });
    });

    describe('methods', () => {
      it('HEAD has the GET headers, Content-Length included, and no body', async () => {
        for (const path of [`${LIST}?q=deep`, `${MOUNT}/papers/schrodinger-bridges/`, `${LIST}?page=9`, `${MOUNT}/papers/nope/`]) {
          const full = await get(path);
          const head = await get(path, { method: 'HEAD' });
          expect(head.status).toBe(full.status);
          expect(head.body.length).toBe(0);
          expectContractHeaders(head, { head: true });
          expect(head.headers['content-length']).toBe(String(full.body.length));
          expect(head.headers['etag']).toBe(full.headers['etag']);
        }
      });

      it('OPTIONS on the list answers 200 with the metadata', async () => {
        const res = await list('', { method: 'OPTIONS' });
        expect(res.status).toBe(200);
        expectContractHeaders(res);
        const metadata = JSON.parse(res.text) as Record<string, unknown>;
        expect(Object.keys(metadata)).toEqual(['name', 'description', 'renders', 'parses']);
        expect(metadata['name']).toBe('Paper List');
        expect(typeof metadata['description']).toBe('string');
        expect(metadata['renders']).toEqual(['application/json', 'text/html']);
        expect(metadata['parses']).toEqual(['application/json', 'application/x-www-form-urlencoded', 'multipart/form-data']);
      });

      it('OPTIONS on a paper answers 200 with the metadata', async () => {
        const res = await get(`${MOUNT}/papers/deep-learning/`, { method: 'OPTIONS' });
        expect(res.status).toBe(200);
        expectContractHeaders(res);
        const metadata = JSON.parse(res.text) as Record<string, unknown>;
        expect(metadata['name']).toBe('Paper Instance');
        expect(metadata['renders']).toEqual(['application/json', 'text/html']);
      });

      it.each(['POST', 'PUT', 'DELETE', 'PATCH'])('%s is 405 with the method named', async (method) => {
        for (const path of [LIST, `${MOUNT}/papers/deep-learning/`]) {
          const res = await get(path, {
            method,
            headers: { 'content-type': 'application/json' },
            body: '{"title":"x"}',
          });
          expect(res.status).toBe(405);
          expectContractHeaders(res);
          expect(res.text).toBe(`{"detail":"Method \\"${method}\\" not allowed."}`);
        }
      });
    });

    describe('content negotiation', () => {
      it('answers 406 to an Accept that allows neither JSON nor HTML', async () => {
        for (const path of [LIST, `${MOUNT}/papers/deep-learning/`]) {
          const res = await get(path, { headers: { accept: 'application/xml' } });
          expect(res.status).toBe(406);
          expectContractHeaders(res);
          expect(res.text).toBe(NOT_ACCEPTABLE);
        }
      });

      it('?format=json overrides the Accept header', async () => {
        const res = await list('?format=json&q=gpt-4', { headers: { accept: 'application/xml' } });
        expect(res.status).toBe(200);
        expectContractHeaders(res);
        expect(res.text).toBe(`{"count":1,"next":null,"previous":null,"results":[${GPT4_JSON}]}`);
      });

      it('answers JSON to */*, application/*, application/json and a browser-like header preferring JSON', async () => {
        for (const accept of ['*/*', 'application/*', 'application/json', 'application/json; indent=4', 'text/plain, application/json;q=0.5']) {
          const res = await list('?q=gpt-4', { headers: { accept } });
          expect(res.status, accept).toBe(200);
          expect(res.headers['content-type']).toBe('application/json');
        }
      });

      it('serves HTML to a browser asking for text/html, JSON with ?format=json', async () => {
        const html = await list('?q=gpt-4', { headers: { accept: BROWSER_ACCEPT } });
        expect(html.status).toBe(200);
        expect(html.headers['content-type']).toMatch(/^text\/html/);
        expect(html.headers['vary']).toBe('Accept');
        expect(Number(html.headers['content-length'])).toBe(html.body.length);
        expect(html.text).toMatch(/^<!doctype html>/);
        // The search's matches are marked.
        expect(html.text).toContain('<mark>GPT</mark>-<mark>4</mark> Technical Report');
        const json = await list('?q=gpt-4&format=json', { headers: { accept: BROWSER_ACCEPT } });
        expect(json.headers['content-type']).toBe('application/json');
      });

      it('serves a paper as HTML to a browser, and its HEAD without a body', async () => {
        const path = `${MOUNT}/papers/schrodinger-bridges/`;
        const html = await get(path, { headers: { accept: BROWSER_ACCEPT } });
        expect(html.status).toBe(200);
        expect(html.headers['content-type']).toMatch(/^text\/html/);
        expect(html.headers['allow']).toBe('GET, HEAD, OPTIONS');
        expect(html.headers['vary']).toBe('Accept');
        expect(html.text).toMatch(/^<!doctype html>/);
        expect(html.text).toContain('Schrödinger Bridges for Generative Learning');
        const head = await get(path, { method: 'HEAD', headers: { accept: BROWSER_ACCEPT } });
        expect(head.status).toBe(200);
        expect(head.headers['content-type']).toBe(html.headers['content-type']);
        expect(head.headers['content-length']).toBe(String(html.body.length));
        expect(head.body.length).toBe(0);
      });

      it('answers an unknown paper with an HTML 404 page to a browser', async () => {
        const res = await get(`${MOUNT}/papers/no-such-paper/`, { headers: { accept: BROWSER_ACCEPT } });
        expect(res.status).toBe(404);
        expect(res.headers['content-type']).toMatch(/^text\/html/);
        expect(res.text).toMatch(/^<!doctype html>/);
      });
    });

    describe('caching', () => {
      it('tags nothing when the source has no version', async () => {
        if (typeof fixtureSource.version === 'function') return;
        expect((await list('?q=deep')).headers['etag']).toBeUndefined();
      });

      it('tags answers when the source has a version; If-None-Match gives 304 without body', async () => {
        const first = await rawRequest(versioned.url, `${LIST}?q=deep`);
        const etag = first.headers['etag'];
        expect(etag).toMatch(/^"[\x21\x23-\x7e]+"$/);
        const again = await rawRequest(versioned.url, `${LIST}?q=deep`, { headers: { 'if-none-match': etag! } });
        expect(again.status).toBe(304);
        expect(again.body.length).toBe(0);
        expect(again.headers['etag']).toBe(etag);
        const listed = await rawRequest(versioned.url, `${LIST}?q=deep`, { headers: { 'if-none-match': `"other", ${etag!}` } });
        expect(listed.status).toBe(304);
        const stale = await rawRequest(versioned.url, `${LIST}?q=deep`, { headers: { 'if-none-match': '"other"' } });
        expect(stale.status).toBe(200);
        expect(stale.text).toBe(first.text);
        expect((await rawRequest(versioned.url, `${LIST}?q=learning`)).headers['etag']).not.toBe(etag);
      });

      it('tags a paper and HEAD alike', async () => {
        const path = `${MOUNT}/papers/deep-learning/`;
        const full = await rawRequest(versioned.url, path);
        const head = await rawRequest(versioned.url, path, { method: 'HEAD' });
        expect(full.headers['etag']).toBeDefined();
        expect(head.headers['etag']).toBe(full.headers['etag']);
        const cached = await rawRequest(versioned.url, path, { headers: { 'if-none-match': full.headers['etag']! } });
        expect(cached.status).toBe(304);
        expect(cached.body.length).toBe(0);
      });

      it('tags the HTML view apart from the JSON; If-None-Match gives 304', async () => {
        const json = await rawRequest(versioned.url, `${LIST}?q=deep`);
        const html = await rawRequest(versioned.url, `${LIST}?q=deep`, { headers: { accept: BROWSER_ACCEPT } });
        expect(html.headers['content-type']).toMatch(/^text\/html/);
        const etag = html.headers['etag'];
        expect(etag).toMatch(/^"[\x21\x23-\x7e]+"$/);
        expect(etag).not.toBe(json.headers['etag']);
        const cached = await rawRequest(versioned.url, `${LIST}?q=deep`, {
          headers: { accept: BROWSER_ACCEPT, 'if-none-match': etag! },
        });
        expect(cached.status).toBe(304);
        expect(cached.body.length).toBe(0);
        expect(cached.headers['etag']).toBe(etag);
        // RFC 9110 15.4.5: a 304 carries the ETag and Vary of the 200 (Koa drops the Content-Type).
        expect(cached.headers['vary']).toBe('Accept');
        // The JSON's tag does not validate the HTML, nor the other way round.
        const crossed = await rawRequest(versioned.url, `${LIST}?q=deep`, { headers: { 'if-none-match': etag! } });
        expect(crossed.status).toBe(200);
        expect(crossed.headers['content-type']).toBe('application/json');
      });
    });

    describe('schema', () => {
      const SCHEMA = `${MOUNT}/schema/`;

      it('answers the OpenAPI 3.1 document as JSON, its server at the link origin and mount', async () => {
        const res = await get(SCHEMA);
        expect(res.status, res.text).toBe(200);
        expectContractHeaders(res);
        const document = JSON.parse(res.text) as { openapi: string; servers: { url: string }[]; paths: Record<string, unknown> };
        expect(document.openapi).toMatch(/^3\.1\./);
        expect(document.servers).toEqual([{ url: `${fixture.url}${MOUNT}` }]);
        expect(Object.keys(document.paths)).toEqual(expect.arrayContaining(['/papers/', '/papers/{id}/', '/schema/']));
        const rebasedDocument = JSON.parse((await rawRequest(rebased.url, SCHEMA)).text) as { servers: { url: string }[] };
        expect(rebasedDocument.servers).toEqual([{ url: `https://papers.example.org/mirror${MOUNT}` }]);
      });

      it('redirects the schema without the slash with 301, query kept', async () => {
        const res = await get(`${MOUNT}/schema?x=1`);
        expect(res.status).toBe(301);
        expect(res.headers['location']).toBe(`${SCHEMA}?x=1`);
      });

      it('answers JSON to a browser too, 406 to an Accept that allows neither', async () => {
        const browser = await get(SCHEMA, { headers: { accept: BROWSER_ACCEPT } });
        expect(browser.status).toBe(200);
        expect(browser.headers['content-type']).toBe('application/json');
        const xml = await get(SCHEMA, { headers: { accept: 'application/xml' } });
        expect(xml.status).toBe(406);
        expect(xml.text).toBe(NOT_ACCEPTABLE);
      });

      it('is tagged: If-None-Match gives 304 without body; HEAD has the GET headers', async () => {
        const full = await get(SCHEMA);
        const etag = full.headers['etag'];
        expect(etag).toMatch(/^"[\x21\x23-\x7e]+"$/);
        const cached = await get(SCHEMA, { headers: { 'if-none-match': etag! } });
        expect(cached.status).toBe(304);
        expect(cached.body.length).toBe(0);
        expect(cached.headers['etag']).toBe(etag);
        const head = await get(SCHEMA, { method: 'HEAD' });
        expect(head.status).toBe(200);
        expect(head.body.length).toBe(0);
        expectContractHeaders(head, { head: true });
        expect(head.headers['content-length']).toBe(String(full.body.length));
        expect(head.headers['etag']).toBe(etag);
      });

      it('answers OPTIONS with its metadata and other methods with 405', async () => {
        const options = await get(SCHEMA, { method: 'OPTIONS' });
        expect(options.status).toBe(200);
        expectContractHeaders(options);
        expect((JSON.parse(options.text) as Record<string, unknown>)['name']).toBe('Schema');
        const post = await get(SCHEMA, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
        expect(post.status).toBe(405);
        expectContractHeaders(post);
        expect(post.text).toBe('{"detail":"Method \\"POST\\" not allowed."}');
      });
    });

    describe('bad input never gives a 500', () => {
      it('q of 1,000 characters is fine; over 1,000 is 400', async () => {
        expect(await listIds(`?q=${'a'.repeat(1000)}`)).toEqual([]);
        expectDetail(await list(`?q=${'a'.repeat(1001)}`), 400);
      });

      it('32 terms are fine; 33 are 400', async () => {
        const terms = (n: number) => Array.from({ length: n }, (_, i) => `w${i}`).join('+');
        expect(await listIds(`?q=${terms(32)}`)).toEqual([]);
        expectDetail(await list(`?q=${terms(33)}`), 400);
      });

      it('truncated percent-encoding (q=%E0%A4%A) is 400', async () => {
        expectDetail(await list('?q=%E0%A4%A'), 400);
      });

      it('invalid percent-encoding (q=%ZZ) is 400', async () => {
        expectDetail(await list('?q=%ZZ'), 400);
      });

      it('invalid UTF-8 (q=%FF) is 400', async () => {
        expectDetail(await list('?q=%FF'), 400);
      });

      it('a NUL character (q=a%00b) is 400', async () => {
        expectDetail(await list('?q=a%00b'), 400);
      });

      it('an escape character (q=%1B) is 400', async () => {
        expectDetail(await list('?q=%1B%5B31m'), 400);
      });

      it('malformed percent-encoding in another parameter is 400', async () => {
        expectDetail(await list('?foo=%ZZ'), 400);
      });

      it('a huge page number is 404 Invalid page.', async () => {
        const res = await list('?page=99999999999999999999999');
        expect(res.status).toBe(404);
        expect(res.text).toBe(INVALID_PAGE);
      });

      it('q[]=x and q[a]=y are unknown parameters: the whole list, kept encoded in links', async () => {
        const res = await list('?items_per_page=2&q[]=x&q[a]=y');
        expect(res.status).toBe(200);
        expectContractHeaders(res);
        const parsed = body(res);
        expect(parsed.count).toBe(11);
        expect(parsed.results.map((paper) => paper.id)).toEqual(DEFAULT_ORDER.slice(0, 2));
        expect(parsed.next).toBe(link('?items_per_page=2&page=2&q%5B%5D=x&q%5Ba%5D=y'));
        const encoded = await list('?items_per_page=2&q%5B%5D=x&q%5Ba%5D=y');
        expect(encoded.text).toBe(res.text);
      });

      it('items_per_page=-5 and abc fall back to the default', async () => {
        expect(await listIds('?items_per_page=-5')).toEqual(DEFAULT_ORDER);
        expect(await listIds('?items_per_page=abc')).toEqual(DEFAULT_ORDER);
      });

      it('a failing source is 503 with a detail and no internals; the error goes to onError', async () => {
        const before = sourceErrors.length;
        for (const path of [`${LIST}?q=deep`, `${MOUNT}/papers/deep-learning/`]) {
          const res = await rawRequest(failing.url, path);
          expectDetail(res, 503);
          expect(res.text).not.toContain('secret-host');
        }
        expect(sourceErrors.length).toBe(before + 2);
        expect(String(sourceErrors[before])).toContain('secret-host');
      });
    });

    describe('contract headers on every answer', () => {
      it.each([
        ['GET', `${LIST}?q=deep`],
        ['GET', `${LIST}?page=99`],
        ['GET', `${LIST}?q=%FF`],
        ['GET', `${MOUNT}/papers/nope/`],
        ['GET', `${MOUNT}/papers`],
        ['POST', LIST],
        ['OPTIONS', LIST],
      ])('%s %s', async (method, path) => {
        const res = await get(path, { method });
        expectContractHeaders(res);
        expect(res.status).not.toBe(500);
      });

      it('406 too', async () => {
        expectContractHeaders(await list('', { headers: { accept: 'image/png' } }));
      });
    });

    describe('paths that are not the papers API', () => {
      it.each([`${MOUNT}/authors/`, `${MOUNT}/papers/a/b/`, `${MOUNT}/paperss/`, '/api/v2/papers/', '/papers/'])(
        '%s is not answered by the papers API',
        async (path) => {
          const res = await get(path);
          expect(res.status).toBe(404);
          if ((target.unmatchedPaths ?? 'fall-through') === 'fall-through') {
            // The host app's own 404, not the core's JSON.
            expect(res.headers['allow']).toBeUndefined();
            expect(res.text).not.toBe(NOT_FOUND);
          } else {
            expect(res.text).toBe(NOT_FOUND);
            expect(res.headers['content-type']).toBe('application/json');
          }
        },
      );
    });

    defineWriteCases(target.start.bind(target));

    describe('walking the sample page by page', () => {
      const walks: [string, string, (papers: Paper[]) => Paper[]][] = [
        ['no q', '', (papers) => papers],
        ['q=learning', '?q=learning', (papers) => papers.filter((paper) => paperHasWordPrefix(paper, 'learning'))],
        [
          'q=learning&ordering=-published',
          '?q=learning&ordering=-published',
          (papers) => papers.filter((paper) => paperHasWordPrefix(paper, 'learning')),
        ],
        ['ordering=title&items_per_page=37', '?ordering=title&items_per_page=37', (papers) => papers],
      ];

      it.each(walks)('%s: next from page 1 to the end, previous back', async (_name, query, expected) => {
        const pages: Paper[][] = [];
        let count = -1;
        let next: string | null = `${sample.url}${LIST}${query}`;
        let last: ListBody | undefined;
        while (next !== null) {
          expect(pages.length).toBeLessThan(200);
          const res = await rawRequest(sample.url, pathOf(next));
          expect(res.status, next).toBe(200);
          const page = JSON.parse(res.text) as ListBody;
          if (count === -1) count = page.count;
          expect(page.count).toBe(count);
          pages.push(page.results);
          last = page;
          next = page.next;
        }
        const walked = pages.flat();
        const walkedIds = walked.map((paper) => paper.id);
        expect(walkedIds.length).toBe(count);
        expect(new Set(walkedIds).size).toBe(count);
        expect(new Set(walkedIds)).toEqual(new Set(expected(samplePapers).map((paper) => paper.id)));
        const size = query.includes('items_per_page=37') ? 37 : 50;
        for (const page of pages.slice(0, -1)) expect(page).toHaveLength(size);

        if (query.includes('ordering=title')) {
          const keys = walked.map((paper) => collationKey(paper.title));
          for (let i = 1; i < keys.length; i++) expect(keys[i - 1]! <= keys[i]!, `${keys[i - 1]} <= ${keys[i]}`).toBe(true);
        }
        if (query.includes('ordering=-published')) {
          const dates = walked.map((paper) => paper.published);
          const firstDated = dates.findIndex((date) => date !== null);
          const dated = firstDated === -1 ? [] : dates.slice(firstDated);
          expect(dated.every((date) => date !== null)).toBe(true);
          for (let i = 1; i < dated.length; i++) expect(dated[i - 1]! >= dated[i]!).toBe(true);
        }

        // Back from the last page through `previous`: the same pages in reverse.
        const back: Paper[][] = [last!.results];
        let previous = last!.previous;
        while (previous !== null) {
          expect(back.length).toBeLessThanOrEqual(pages.length);
          const page = JSON.parse((await rawRequest(sample.url, pathOf(previous))).text) as ListBody;
          back.push(page.results);
          previous = page.previous;
        }
        expect(back.reverse().flat().map((paper) => paper.id)).toEqual(walkedIds);
      });
    });
  });
}

/** Letters and digits of a text, NFKD-folded without combining marks, lower-cased. */
function foldedWords(text: string): string[] {
  return (
    text
      .normalize('NFKD')
      .replace(/\p{M}/gu, '')
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? []
  );
}

/** Whether a word of the title, abstract or an author name starts with `prefix` (brute force). */
function paperHasWordPrefix(paper: Paper, prefix: string): boolean {
  return [paper.title, paper.abstract, ...paper.authors].some((field) =>
    foldedWords(field).some((word) => word.startsWith(prefix)),
  );
}

/** The first step of the title collation: folded letters and digits only. */
function collationKey(title: string): string {
  return foldedWords(title).join('');
}
