import { readdir, readFile } from 'node:fs/promises';
import { createMemorySource, type Paper as CorePaper } from '@paperlist/core';
import { loadSamplePapers } from '@paperlist/core/sample';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, listQuery, parseRetryAfter, PaperlistError, retryDelay, type Paper } from '../src/index.js';
import { servePaperlist, type TestServer } from './serve-paperlist.js';

// The client's own Paper type is the core's, field for field (checked when typechecking).
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const samePaper: Same<Paper, CorePaper> = true;
void samePaper;

let sample: CorePaper[];
let server: TestServer;
beforeAll(async () => {
  sample = await loadSamplePapers();
  server = await servePaperlist({ source: createMemorySource(sample, { version: 'sample' }) });
});
afterAll(() => server?.close());

const baseUrl = () => `${server.origin}/api/v1`;
const raw = async (path: string) => (await fetch(`${server.origin}/api/v1${path}`)).json() as Promise<unknown>;

describe('createClient against a real server', () => {
  it('lists papers exactly as the API answers', async () => {
    const client = createClient({ baseUrl: baseUrl() });
    const page = await client.listPapers();
    expect(page.count).toBe(4000);
    expect(page.results).toHaveLength(50);
    expect(page).toEqual(await raw('/papers/'));
    const searched = await client.listPapers({ q: 'neural network', ordering: ['-published', 'title'], page: 2, items_per_page: 7 });
    expect(searched).toEqual(await raw('/papers/?q=neural+network&ordering=-published%2Ctitle&page=2&items_per_page=7'));
    expect(searched.results).toHaveLength(7);
    expect((await client.listPapers({ page: 'last', items_per_page: 300 })).results).toHaveLength(4000 % 300);
  });

  it('gets one paper, and accepts a base URL with a trailing slash', async () => {
    const paper = sample[123]!;
    expect(await createClient({ baseUrl: `${baseUrl()}/` }).getPaper(paper.id)).toEqual(paper);
    expect(await createClient({ baseUrl: new URL(baseUrl()) }).getPaper(paper.id)).toEqual(paper);
  });

  it('throws a PaperlistError with status and detail', async () => {
    const client = createClient({ baseUrl: baseUrl() });
    const notFound = await client.getPaper('no/such paper').catch((error: unknown) => error);
    expect(notFound).toBeInstanceOf(PaperlistError);
    expect(notFound).toMatchObject({ status: 404, detail: 'Not found.', name: 'PaperlistError' });
    await expect(client.listPapers({ page: 999 })).rejects.toMatchObject({ status: 404, detail: 'Invalid page.' });
    await expect(client.listPapers({ q: 'x'.repeat(1001) })).rejects.toMatchObject({
      status: 400,
      detail: 'Search query too long: at most 1000 characters.',
    });
  });

  it('walks the whole sample with iterPapers: 4,000 papers, each exactly once', async () => {
    const client = createClient({ baseUrl: baseUrl() });
    const before = server.requests.length;
    const seen = new Map<string, number>();
    for await (const paper of client.iterPapers({ items_per_page: 500 })) seen.set(paper.id, (seen.get(paper.id) ?? 0) + 1);
    expect(seen.size).toBe(4000);
    expect([...seen.values()].every((times) => times === 1)).toBe(true);
    expect(new Set(seen.keys())).toEqual(new Set(sample.map((paper) => paper.id)));
    expect(server.requests.length - before).toBe(8);
  });

  it('walks the whole sample by cursor with iterPapers, in order, each paper once', async () => {
    const client = createClient({ baseUrl: baseUrl() });
    const before = server.requests.length;
    const walked: string[] = [];
    for await (const paper of client.iterPapers({ ordering: '-published', cursor: '*', items_per_page: 500 })) walked.push(paper.id);
    const paged: string[] = [];
    for await (const paper of client.iterPapers({ ordering: '-published', items_per_page: 500 })) paged.push(paper.id);
    expect(walked).toEqual(paged);
    expect(walked).toHaveLength(4000);
    expect(server.requests.slice(before, before + 8).every((url) => url.includes('cursor='))).toBe(true);
  });

  it('iterates a search in the server order and stops fetching when the loop breaks', async () => {
    const client = createClient({ baseUrl: baseUrl() });
    const all: string[] = [];
    for await (const paper of client.iterPapers({ q: 'translation', ordering: '-published', items_per_page: 10 })) all.push(paper.id);
    const { count } = await client.listPapers({ q: 'translation' });
    expect(all).toHaveLength(count);
    const before = server.requests.length;
    let taken = 0;
    for await (const _ of client.iterPapers({ q: 'translation', items_per_page: 10 })) if (++taken === 15) break;
    expect(server.requests.length - before).toBe(2);
  });
});

describe('retries', () => {
  async function flaky(failures: number, status: number, retryAfter?: string) {
    const answered: number[] = [];
    const flakyServer = await servePaperlist({ source: createMemorySource(sample.slice(0, 5)) }, (_req, res, index) => {
      if (index >= failures) return false;
      answered.push(Date.now());
      res.writeHead(status, { 'Content-Type': 'application/json', ...(retryAfter === undefined ? {} : { 'Retry-After': retryAfter }) });
      res.end(JSON.stringify({ detail: 'Busy.' }));
      return true;
    });
    return { server: flakyServer, answered };
  }

  it('retries a 503 with backoff and succeeds', async () => {
    const { server: flakyServer } = await flaky(2, 503);
    try {
      const client = createClient({ baseUrl: `${flakyServer.origin}/api/v1`, retryDelayMs: 5 });
      expect((await client.listPapers()).count).toBe(5);
      expect(flakyServer.requests).toHaveLength(3);
    } finally {
      await flakyServer.close();
    }
  });

  it('honours Retry-After on 429', async () => {
    const { server: flakyServer } = await flaky(1, 429, '1');
    try {
      const started = Date.now();
      const client = createClient({ baseUrl: `${flakyServer.origin}/api/v1`, retryDelayMs: 1 });
      expect((await client.getPaper(sample[0]!.id)).id).toBe(sample[0]!.id);
      expect(Date.now() - started).toBeGreaterThanOrEqual(990);
      expect(flakyServer.requests).toHaveLength(2);
    } finally {
      await flakyServer.close();
    }
  });

  it('gives up after `retries` and throws the last error', async () => {
    const { server: flakyServer } = await flaky(100, 503, '0');
    try {
      const client = createClient({ baseUrl: `${flakyServer.origin}/api/v1`, retries: 2 });
      await expect(client.listPapers()).rejects.toMatchObject({ status: 503, detail: 'Busy.', retryAfterMs: 0 });
      expect(flakyServer.requests).toHaveLength(3);
    } finally {
      await flakyServer.close();
    }
  });

  it('does not wait for a Retry-After longer than maxRetryDelayMs', async () => {
    const { server: flakyServer } = await flaky(100, 503, '3600');
    try {
      const client = createClient({ baseUrl: `${flakyServer.origin}/api/v1` });
      await expect(client.listPapers()).rejects.toMatchObject({ status: 503, retryAfterMs: 3_600_000 });
      expect(flakyServer.requests).toHaveLength(1);
    } finally {
      await flakyServer.close();
    }
  });

  it('does not retry other errors', async () => {
    const { server: flakyServer } = await flaky(100, 500);
    try {
      const client = createClient({ baseUrl: `${flakyServer.origin}/api/v1` });
      await expect(client.listPapers()).rejects.toMatchObject({ status: 500, detail: 'Busy.' });
      expect(flakyServer.requests).toHaveLength(1);
    } finally {
      await flakyServer.close();
    }
  });

  it('retries with full jitter, doubling up to the cap', () => {
    const policy = { retries: 5, baseDelayMs: 100, maxDelayMs: 1000 };
    expect([0, 1, 2, 3, 4].map((attempt) => retryDelay(attempt, null, policy, () => 0.999999))).toEqual([99, 199, 399, 799, 999]);
    expect(retryDelay(3, null, policy, () => 0)).toBe(0);
    expect(retryDelay(0, 500, policy)).toBe(500);
    expect(retryDelay(0, 5000, policy)).toBeNull();
  });

  it.each([
    ['120', 120_000],
    [' 0 ', 0],
    ['Wed, 21 Oct 2015 07:28:00 GMT', 30_000],
    ['Wed, 21 Oct 2015 07:27:00 GMT', 0],
    ['soon', null],
    [null, null],
  ])('reads Retry-After %j', (value, ms) => {
    expect(parseRetryAfter(value, Date.parse('Wed, 21 Oct 2015 07:27:30 GMT'))).toBe(ms);
  });
});

describe('aborting', () => {
  it('aborts a call that hangs, by the call signal or the client signal', async () => {
    const silent = await servePaperlist({ source: createMemorySource([]) }, () => true);
    try {
      const client = createClient({ baseUrl: `${silent.origin}/api/v1` });
      await expect(client.listPapers({}, { signal: AbortSignal.timeout(50) })).rejects.toMatchObject({ name: 'TimeoutError' });
      const controller = new AbortController();
      const pending = createClient({ baseUrl: `${silent.origin}/api/v1`, signal: controller.signal }).getPaper('x');
      setTimeout(() => controller.abort(), 20);
      await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    } finally {
      await silent.close();
    }
  });

  it('aborts while waiting to retry', async () => {
    const busy = await servePaperlist({ source: createMemorySource([]) }, (_req, res) => {
      res.writeHead(503, { 'Retry-After': '20' }).end('{"detail":"Busy."}');
      return true;
    });
    try {
      const started = Date.now();
      const client = createClient({ baseUrl: `${busy.origin}/api/v1` });
      await expect(client.listPapers({}, { signal: AbortSignal.timeout(100) })).rejects.toMatchObject({ name: 'TimeoutError' });
      expect(Date.now() - started).toBeLessThan(5000);
      expect(busy.requests).toHaveLength(1);
    } finally {
      await busy.close();
    }
  });

  it('aborts an iteration between pages', async () => {
    const controller = new AbortController();
    const client = createClient({ baseUrl: baseUrl() });
    let taken = 0;
    const walk = async () => {
      for await (const _ of client.iterPapers({ items_per_page: 10 }, { signal: controller.signal })) {
        if (++taken === 10) controller.abort();
      }
    };
    await expect(walk()).rejects.toMatchObject({ name: 'AbortError' });
    expect(taken).toBe(10);
  });
});

describe('options and portability', () => {
  it.each([
    [{ baseUrl: 'not a url' }, /baseUrl/],
    [{ baseUrl: 'ftp://x/api' }, /http\(s\)/],
    [{ baseUrl: 'http://x/api?a=1' }, /query/],
    [{ baseUrl: 'http://x/api', retries: -1 }, /retries/],
    [{ baseUrl: 'http://x/api', retryDelayMs: 1.5 }, /retryDelayMs/],
  ])('rejects %j', (options, message) => {
    expect(() => createClient(options)).toThrow(message);
  });

  it('uses the given fetch and sends Accept: application/json', async () => {
    const seen: Request[] = [];
    const client = createClient({
      baseUrl: 'https://papers.example.org/api/v1',
      headers: { 'X-Api-Key': 'k' },
      fetch: async (input, init) => {
        seen.push(new Request(input, init));
        return new Response('{"count":0,"next":null,"previous":null,"results":[]}', { status: 200 });
      },
    });
    await client.listPapers({ q: 'a b', ordering: 'title' });
    expect(seen[0]!.url).toBe('https://papers.example.org/api/v1/papers/?q=a+b&ordering=title');
    expect(seen[0]!.headers.get('accept')).toBe('application/json');
    expect(seen[0]!.headers.get('x-api-key')).toBe('k');
  });

  it('reports an answer that is not JSON', async () => {
    const client = createClient({ baseUrl: 'https://x.org/', fetch: async () => new Response('<html>', { status: 200 }) });
    await expect(client.listPapers()).rejects.toMatchObject({ status: 200, detail: 'The answer is not JSON.' });
    const proxy = createClient({ baseUrl: 'https://x.org/', fetch: async () => new Response('<html>', { status: 502, statusText: 'Bad Gateway' }) });
    await expect(proxy.listPapers()).rejects.toMatchObject({ status: 502, detail: 'HTTP 502 Bad Gateway' });
  });

  it('encodes list parameters', () => {
    expect(listQuery({})).toBe('');
    expect(listQuery({ q: '"a b"&c', ordering: ['-published', 'id'], page: 'last', items_per_page: 5, arxiv_id: '1706.03762', title: 't', abstract: 'a' })).toBe(
      'q=%22a+b%22%26c&ordering=-published%2Cid&page=last&items_per_page=5&arxiv_id=1706.03762&title=t&abstract=a',
    );
    expect(listQuery({ published_after: '2019-06', published_before: '2020', year: 2018, author: ['graham neubig', 'dyer'], author_name: ['Graham Neubig', 'Chris Dyer'], proceeding: 'acl-2020-7', venue: ['acl', 'NeurIPS'] })).toBe(
      'published_after=2019-06&published_before=2020&year=2018&author=graham+neubig%7Cdyer&author_name=Graham+Neubig%7CChris+Dyer&proceeding=acl-2020-7&venue=acl%7CNeurIPS',
    );
    expect(listQuery({ arxiv_id: ['1706.03762', '1810.04805'], id: ['a', 'b|c'], count_only: true })).toBe('arxiv_id=1706.03762%7C1810.04805&id=a%7Cb%7Cc&count_only=1');
    expect(listQuery({ id: 'one', count_only: false })).toBe('id=one&count_only=0');
    expect(listQuery({ fields: ['id', 'title'], omit: ['abstract'] })).toBe('fields=id%2Ctitle&omit=abstract');
    expect(listQuery({ ordering: 'id', cursor: '*' })).toBe('ordering=id&cursor=*');
    expect(listQuery({ facets: ['year', 'venue'], facet_limit: 20, facet_null: true })).toBe('facets=year%2Cvenue&facet_limit=20&facet_null=1');
    expect(listQuery({ task: ['image-classification', 'Object Detection'], method: 'adam' })).toBe('task=image-classification%7CObject+Detection&method=adam');
    expect(listQuery({ highlight: ['title', 'authors'], crop: 12 })).toBe('highlight=title%2Cauthors&crop=12');
    expect(listQuery({ highlight: true })).toBe('highlight=1');
  });

  it('reads invalid filter values (django-filter\'s 400) into fieldErrors', async () => {
    const body = '{"published_after":["Enter a valid date."],"year":["Enter a valid year."]}';
    const client = createClient({ baseUrl: 'https://x.org/', fetch: async () => new Response(body, { status: 400 }) });
    await expect(client.listPapers({ published_after: 'x', year: 'y' })).rejects.toMatchObject({
      status: 400,
      detail: 'published_after: Enter a valid date.; year: Enter a valid year.',
      fieldErrors: { published_after: ['Enter a valid date.'], year: ['Enter a valid year.'] },
    });
  });

  it('imports nothing from Node or from @paperlist/core', async () => {
    const dir = new URL('../src/', import.meta.url);
    for (const file of await readdir(dir)) {
      const source = await readFile(new URL(file, dir), 'utf8');
      expect(source, file).not.toMatch(/from ['"](node:|@paperlist\/)/);
      expect(source, file).not.toMatch(/\b(process|Buffer|require)\b[.(]/);
    }
  });
});
