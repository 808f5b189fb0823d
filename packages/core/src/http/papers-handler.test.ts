import { describe, expect, it, vi } from 'vitest';
import { makePaper } from '../../test/make-paper.js';
import { createMemorySource } from '../memory/memory-source.js';
import { serializePaper } from '../paper.js';
import type { PaperSource } from '../source.js';
import { QueryBudgetError, SourceOverloadedError } from '../source-errors.js';
import { createFetchHandler } from './fetch-handler.js';
import { PaperlistOptionsError } from './handler-options.js';
import { createPapersHandler } from './papers-handler.js';

const papers = [
  makePaper({ id: 'b', title: 'Beta', published: '2020-01-01' }),
  makePaper({ id: 'a', title: 'Alpha', published: null }),
  makePaper({ id: 'c', title: 'Gamma rays', published: '2019-05-05', arxiv_id: '1905.00001' }),
];
const source = createMemorySource(papers, { version: 'v1' });
const handle = createPapersHandler({ source, pageSize: 2, allowedHosts: ['h'] });
const text = (body: Uint8Array | null) => (body === null ? null : new TextDecoder().decode(body));

async function call(url: string, init: { method?: string; headers?: Record<string, string>; basePath?: string } = {}) {
  const response = await handle({
    method: init.method ?? 'GET',
    url,
    headers: { host: 'h', ...init.headers },
    basePath: init.basePath ?? '/api',
    origin: 'http://h',
  });
  if (response === null) return null;
  return { status: response.status, headers: response.headers, body: text(response.body) };
}

describe('createPapersHandler', () => {
  it.each([
    ['/api/papers/', 200, '{"count":3,"next":"http://h/api/papers/?page=2","previous":null,"results":[' + ['a', 'b'].map((id) => serializePaper(papers.find((p) => p.id === id)!)).join(',') + ']}'],
    ['/api/papers/?page=2', 200, '{"count":3,"next":null,"previous":"http://h/api/papers/","results":[' + serializePaper(papers[2]!) + ']}'],
    ['/api/papers/?page=3', 404, '{"detail":"Invalid page."}'],
    ['/api/papers/?q=zzz', 200, '{"count":0,"next":null,"previous":null,"results":[]}'],
    ['/api/papers/?q=zzz&page=2', 404, '{"detail":"Invalid page."}'],
    ['/api/papers/c/', 200, serializePaper(papers[2]!)],
    ['/api/papers/nope/', 404, '{"detail":"Not found."}'],
    ['/api/papers/%E0/', 404, '{"detail":"Not found."}'],
    ['/api/papers/?q=%ZZ', 400, '{"detail":"Malformed query string: invalid percent-encoding or UTF-8."}'],
    ['/api/papers/?q=a%00', 400, '{"detail":"Query string contains control characters."}'],
    ['/api/papers/?format=xml', 404, '{"detail":"Not found."}'],
    ['/api/papers/?page=99999999999999999999', 404, '{"detail":"Invalid page."}'],
  ])('GET %s', async (url, status, body) => {
    const response = await call(url);
    expect(response?.status).toBe(status);
    expect(response?.body).toBe(body);
    expect(response?.headers).toMatchObject({ Allow: 'GET, HEAD, OPTIONS', Vary: 'Accept', 'Content-Type': 'application/json' });
    expect(response?.headers['Content-Length']).toBe(String(new TextEncoder().encode(body).byteLength));
  });

  it.each(['/other/', '/api/paper/', '/api/papers/a/b/', '/papers/'])('%s is not its path', async (url) => {
    expect(await call(url)).toBeNull();
  });

  it.each([
    ['/api/papers', '/api/papers/'],
    ['/api/papers?q=x+y&page=2', '/api/papers/?q=x+y&page=2'],
    ['/api/papers/c', '/api/papers/c/'],
  ])('redirects %s to %s', async (url, location) => {
    const response = await call(url);
    expect(response?.status).toBe(301);
    expect(response?.headers.Location).toBe(location);
  });

  it('answers HEAD with the GET headers and no body', async () => {
    const get = await call('/api/papers/');
    const head = await call('/api/papers/', { method: 'HEAD' });
    expect(head?.body).toBeNull();
    expect(head?.headers).toEqual(get?.headers);
  });

  it.each([
    ['POST', 405, '{"detail":"Method \\"POST\\" not allowed."}'],
    ['delete', 405, '{"detail":"Method \\"DELETE\\" not allowed."}'],
    ['OPTIONS', 200, null],
  ])('%s', async (method, status, body) => {
    const response = await call('/api/papers/', { method });
    expect(response?.status).toBe(status);
    if (body !== null) expect(response?.body).toBe(body);
    else expect(JSON.parse(response!.body!)).toMatchObject({ name: 'Paper List', renders: ['application/json', 'text/html'] });
  });

  it('refuses an Accept it cannot satisfy', async () => {
    const response = await call('/api/papers/', { headers: { accept: 'application/xml' } });
    expect(response).toMatchObject({ status: 406, body: '{"detail":"Could not satisfy the request Accept header."}' });
  });

  it('answers 304 to a matching If-None-Match without asking the source', async () => {
    const first = await call('/api/papers/');
    const etag = first!.headers.ETag!;
    expect(etag).toMatch(/^"v1-[0-9a-f]{16}"$/);
    const list = vi.spyOn(source, 'list');
    const second = await call('/api/papers/', { headers: { 'if-none-match': `W/${etag}` } });
    expect(second).toMatchObject({ status: 304, body: null });
    expect(second?.headers.ETag).toBe(etag);
    expect(list).not.toHaveBeenCalled();
    list.mockRestore();
    expect((await call('/api/papers/?page=2'))!.headers.ETag).not.toBe(etag);
  });

  it('uses baseUrl for links', async () => {
    const withBase = createPapersHandler({ source, pageSize: 1, baseUrl: 'https://papers.example.org/pwc/' });
    const response = await withBase({ method: 'GET', url: '/papers/?page=2', headers: {} });
    const body = JSON.parse(text(response!.body)!);
    expect(body.next).toBe('https://papers.example.org/pwc/papers/?page=3');
    expect(body.previous).toBe('https://papers.example.org/pwc/papers/');
  });

  it('answers 503 without internals when the source fails, and reports the error', async () => {
    const failing: PaperSource = {
      list: () => Promise.reject(new Error('connection refused at 10.0.0.5')),
      get: () => Promise.reject(new Error('boom')),
    };
    const onError = vi.fn();
    const broken = createPapersHandler({ source: failing, onError });
    for (const url of ['/papers/', '/papers/x/']) {
      const response = await broken({ method: 'GET', url, headers: {} });
      expect(response?.status).toBe(503);
      expect(text(response!.body)).toBe('{"detail":"The paper catalogue is temporarily unavailable. Try again later."}');
    }
    expect(onError).toHaveBeenCalledTimes(2);
    expect(onError.mock.calls[0]![0]).toBeInstanceOf(Error);
  });

  it('answers a timed-out source with 503 and Retry-After, aborting its signal', async () => {
    let seen: AbortSignal | undefined;
    const hanging: PaperSource = {
      list: (_query, options) => {
        seen = options?.signal;
        return new Promise(() => {});
      },
      get: () => new Promise(() => {}),
    };
    const onError = vi.fn();
    const slow = createPapersHandler({ source: hanging, timeoutMs: 30, retryAfterSeconds: 7, onError });
    const response = await slow({ method: 'GET', url: '/papers/', headers: {} });
    expect(response?.status).toBe(503);
    expect(response?.headers['Retry-After']).toBe('7');
    expect(text(response!.body)).toBe('{"detail":"The paper catalogue did not answer in time. Try again later."}');
    expect(seen?.aborted).toBe(true);
    expect(onError).toHaveBeenCalledOnce();
  });

  it.each([
    ['a query past its budget', new QueryBudgetError(250), 'This search needs more work than one request may take. Narrow it (longer or more specific terms) or try again later.'],
    ['a full queue', new SourceOverloadedError(256), 'The server is busy answering other searches. Try again shortly.'],
  ])('answers %s with 503, Retry-After and its detail, without reporting an error', async (_case, refusal, detail) => {
    const refusing: PaperSource = { list: () => Promise.reject(refusal), get: () => Promise.reject(refusal) };
    const onError = vi.fn();
    const handler = createPapersHandler({ source: refusing, retryAfterSeconds: 3, onError });
    for (const url of ['/papers/?q=a', '/papers/x/']) {
      const response = await handler({ method: 'GET', url, headers: {} });
      expect(response?.status).toBe(503);
      expect(response?.headers['Retry-After']).toBe('3');
      expect(response?.headers['Content-Type']).toBe('application/json');
      expect(text(response!.body)).toBe(JSON.stringify({ detail }));
    }
    const html = await handler({ method: 'GET', url: '/papers/?q=a', headers: { accept: 'text/html' } });
    expect(html?.status).toBe(503);
    expect(text(html!.body)).toContain(detail.split('.')[0]);
    expect(onError).not.toHaveBeenCalled();
  });

  it('answers 503 at once, with the next request answered normally, when a real source runs out of budget', async () => {
    const tiny = createPapersHandler({ source: createMemorySource(papers, { budgetMs: 1e-9 }) });
    expect((await tiny({ method: 'GET', url: '/papers/?q=gamma', headers: {} }))?.status).toBe(503);
    expect((await handle({ method: 'GET', url: '/api/papers/?q=gamma', headers: { host: 'h' }, basePath: '/api' }))?.status).toBe(200);
  });

  it('passes the client disconnect on to the source', async () => {
    const controller = new AbortController();
    let seen: AbortSignal | undefined;
    const watching: PaperSource = {
      list: (_query, options) => {
        seen = options?.signal;
        return new Promise((_, reject) => options?.signal?.addEventListener('abort', () => reject(new Error('aborted'))));
      },
      get: () => Promise.resolve(null),
    };
    const onError = vi.fn();
    for (const timeoutMs of [undefined, 10_000]) {
      const handler = createPapersHandler({ source: watching, onError, ...(timeoutMs ? { timeoutMs } : {}) });
      const pending = handler({ method: 'GET', url: '/papers/', headers: {}, signal: controller.signal });
      controller.abort();
      expect((await pending)?.status).toBe(503);
      expect(seen?.aborted).toBe(true);
    }
    // Nobody is listening any more: not worth reporting.
    expect(onError).not.toHaveBeenCalled();
  });

  it.each([
    ['h', 200],
    ['h:8080', 200],
    ['H', 200],
    ['api.h', 400],
    ['evil.example', 400],
    ['', 400],
    ['h@evil', 400],
  ])('Host %j gets %i', async (host, status) => {
    const response = await handle({ method: 'GET', url: '/api/papers/', headers: { host }, basePath: '/api' });
    expect(response?.status).toBe(status);
  });

  it('answers page=last wholly from one catalogue when it is swapped between calls', async () => {
    const small = createMemorySource(papers.slice(0, 1));
    const big = createMemorySource([...papers, ...['d', 'e', 'f'].map((id) => makePaper({ id }))]);
    let calls = 0;
    const swapping: PaperSource = {
      list: (query) => (calls++ === 0 ? small : big).list(query),
      get: (id) => big.get(id),
    };
    const handler = createPapersHandler({ source: swapping, pageSize: 2 });
    const response = await handler({ method: 'GET', url: '/papers/?page=last', headers: {} });
    const body = JSON.parse(text(response!.body)!);
    expect(body.count).toBe(6);
    expect(body.next).toBeNull();
    expect(body.results).toHaveLength(2);
  });

  it.each([
    [{ source: undefined }, 'source'],
    [{ source, timeoutMs: 0 }, 'timeoutMs'],
    [{ source, retryAfterSeconds: -1 }, 'retryAfterSeconds'],
    [{ source, allowedHosts: 'localhost' }, 'allowedHosts'],
    [{ source, pageSize: 0 }, 'pageSize'],
    [{ source, maxPageSize: 1.5 }, 'maxPageSize'],
    [{ source, pageSize: 600 }, 'pageSize'],
    [{ source, baseUrl: 'not a url' }, 'baseUrl'],
    [{ source, baseUrl: 'ftp://x/' }, 'baseUrl'],
  ])('rejects bad options %#', (options, code) => {
    expect(() => createPapersHandler(options as never)).toThrow(PaperlistOptionsError);
    try {
      createPapersHandler(options as never);
    } catch (error) {
      expect((error as PaperlistOptionsError).code).toBe(code);
    }
  });
});

describe('createFetchHandler', () => {
  const fetchHandler = createFetchHandler({ source, mount: '/api/v1', allowedHosts: ['example.org'] });
  it('serves the list through WHATWG Request and Response', async () => {
    const response = await fetchHandler(new Request('http://example.org/api/v1/papers/?items_per_page=1&q=gamma'));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await response.json()).toEqual({ count: 1, next: null, previous: null, results: [papers[2]] });
  });

  it('answers 404 JSON outside its paths', async () => {
    const response = await fetchHandler(new Request('http://example.org/elsewhere'));
    expect(response.status).toBe(404);
    expect(await response.text()).toBe('{"detail":"Not found."}');
  });
});
