import { describe, expect, it } from 'vitest';
import { makePaper } from '../../test/make-paper.js';
import { createMemorySource } from '../memory/memory-source.js';
import type { Paper } from '../paper.js';
import { createPapersHandler } from './papers-handler.js';
import { QueryBudgetError } from '../source-errors.js';

const text = (body: Uint8Array | null) => (body === null ? '' : new TextDecoder().decode(body));

/** 60 papers: dates repeat and some are missing, so ties and nulls are walked through. */
function catalogue(): Paper[] {
  return Array.from({ length: 60 }, (_, i) =>
    makePaper({ id: `p${String(i).padStart(2, '0')}`, title: `Paper ${(i * 37) % 60}`, published: i % 7 === 0 ? null : `20${10 + (i % 5)}-01-0${1 + (i % 3)}` }),
  );
}

function serve(papers: readonly Paper[]) {
  const source = createMemorySource(papers);
  const handle = createPapersHandler({ source, allowedHosts: ['h'], pageSize: 7 });
  const get = async (url: string) => {
    const response = (await handle({ method: 'GET', url, headers: { host: 'h' }, basePath: '/api', origin: 'http://h' }))!;
    return { status: response.status, body: text(response.body) };
  };
  return { source, get };
}

interface Page {
  count: number;
  next: string | null;
  previous: string | null;
  results: { id: string }[];
}

/** Every page of a walk from `first`, following `next`. */
async function walk(get: (url: string) => Promise<{ status: number; body: string }>, first: string, between?: (page: number) => Promise<void>) {
  const pages: Page[] = [];
  for (let url: string | null = first; url !== null; ) {
    const response = await get(url);
    expect(response.status, url).toBe(200);
    const page = JSON.parse(response.body) as Page;
    pages.push(page);
    url = page.next === null ? null : page.next.slice('http://h'.length);
    await between?.(pages.length);
  }
  return pages;
}

describe('cursor walks over HTTP', () => {
  it.each(['ordering=-published', 'ordering=published,-title', 'ordering=title', 'q=paper&ordering=-id', ''])('?%s: a walk is the paged list, page by page, with the full count', async (query) => {
    const { get } = serve(catalogue());
    const all = JSON.parse((await get(`/api/papers/?${query}&items_per_page=500`)).body) as Page;
    const pages = await walk(get, `/api/papers/?${query}${query === '' ? '' : '&'}cursor=*`);
    expect(pages.flatMap((page) => page.results.map((p) => p.id))).toEqual(all.results.map((p) => p.id));
    for (const page of pages) {
      expect(page.count).toBe(all.count);
      expect(page.previous).toBeNull();
      if (page.next !== null) expect(page.next).not.toMatch(/[?&]page=/);
    }
    expect(pages.at(-1)!.next).toBeNull();
  });

  it('survives writes: a paper there all along comes exactly once, whatever is written meanwhile', async () => {
    const papers = catalogue();
    const { source, get } = serve(papers);
    const original = new Set(papers.map((p) => p.id));
    const pages = await walk(get, '/api/papers/?ordering=-published&cursor=*', async (page) => {
      // Between pages: papers come and go before and after the walk's position, others move.
      await source.write([
        { op: 'upsert', paper: makePaper({ id: `new-${page}`, title: 'Inserted', published: `201${page % 5}-01-02` }) },
        { op: 'delete', id: `new-${page - 1}` },
        { op: 'upsert', paper: makePaper({ id: `moved-${page}`, published: '2099-01-01' }) },
      ]);
    });
    const seen = pages.flatMap((page) => page.results.map((p) => p.id));
    const fromOriginal = seen.filter((id) => original.has(id));
    expect(fromOriginal.sort()).toEqual([...original].sort());
    expect(new Set(seen).size).toBe(seen.length);
  });

  it('carries the other parameters, fields included, and drops page', async () => {
    const { get } = serve(catalogue());
    const first = JSON.parse((await get('/api/papers/?ordering=title&fields=id&page=3&cursor=*')).body) as Page;
    expect(first.results[0]).toEqual({ id: expect.any(String) });
    expect(first.results).toHaveLength(7);
    expect(first.next).toMatch(/^http:\/\/h\/api\/papers\/\?cursor=[A-Za-z0-9_-]+&fields=id&ordering=title$/);
  });

  it.each([
    ['cursor=nonsense!', 404, '{"detail":"Invalid cursor"}'],
    ['cursor=e30', 404, '{"detail":"Invalid cursor"}'],
    ['q=paper&cursor=*', 400, '{"cursor":["A cursor walk needs an explicit ordering (relevance changes as the catalogue does): add ordering=, such as ordering=-published."]}'],
  ])('?%s answers %i', async (query, status, body) => {
    const { get } = serve(catalogue());
    const response = await get(`/api/papers/?${query}`);
    expect(response.status).toBe(status);
    expect(response.body).toBe(body);
  });

  it('refuses a cursor of another ordering', async () => {
    const { get } = serve(catalogue());
    const first = JSON.parse((await get('/api/papers/?ordering=title&cursor=*')).body) as Page;
    const cursor = new URL(first.next!).searchParams.get('cursor')!;
    expect((await get(`/api/papers/?ordering=-title&cursor=${cursor}`)).status).toBe(404);
    expect((await get(`/api/papers/?ordering=title&cursor=${cursor}`)).status).toBe(200);
  });
});

describe('the export stream', () => {
  it('asks for the first page before answering and at most one page ahead of the chunks taken, and stops when the reader does', async () => {
    const papers = Array.from({ length: 2500 }, (_, i) => makePaper({ id: `e${String(i).padStart(4, '0')}` }));
    const memory = createMemorySource(papers);
    let calls = 0;
    const source = {
      list: (...args: Parameters<typeof memory.list>) => {
        calls++;
        return memory.list(...args);
      },
      get: (id: string) => memory.get(id),
    };
    const handle = createPapersHandler({ source, allowedHosts: ['h'] });
    const answer = (await handle({ method: 'GET', url: '/papers/?ordering=id&format=jsonl', headers: { host: 'h' } }))!;
    expect(answer.status).toBe(200);
    expect(answer.body).toBeNull();
    expect(calls).toBe(1);
    const settle = () => new Promise((resolve) => setTimeout(resolve, 20));
    await settle();
    expect(calls).toBe(1);
    const iterator = answer.stream![Symbol.asyncIterator]();
    const first = await iterator.next();
    // The second page is asked for while the first is sent; no third until the second is taken.
    expect(calls).toBe(2);
    expect(text(first.value as Uint8Array).split('\n')).toHaveLength(1001);
    await settle();
    expect(calls).toBe(2);
    const second = await iterator.next();
    expect(calls).toBe(3);
    expect(text(second.value as Uint8Array).split('\n')[0]).toContain('"id":"e1000"');
    await iterator.return!();
    await settle();
    expect(calls).toBe(3);
  });

  it('reads the first page before answering: a source over its budget is a 503, not a 200 cut short', async () => {
    const memory = createMemorySource(catalogue());
    const source = { list: () => Promise.reject(new QueryBudgetError(250)), get: (id: string) => memory.get(id) };
    const handle = createPapersHandler({ source, allowedHosts: ['h'] });
    const answer = (await handle({ method: 'GET', url: '/papers/?ordering=id&format=jsonl', headers: { host: 'h' } }))!;
    expect(answer.status).toBe(503);
    expect(answer.stream).toBeUndefined();
    expect(answer.headers['Retry-After']).toBeDefined();
  });

  it('asks again once for a later page refused, and fails the stream where it is refused twice, whether or not the reader was waiting', async () => {
    const papers = Array.from({ length: 2500 }, (_, i) => makePaper({ id: `f${String(i).padStart(4, '0')}` }));
    const memory = createMemorySource(papers);
    const exportWith = async (refused: readonly number[]) => {
      let calls = 0;
      const source = {
        list: (...args: Parameters<typeof memory.list>) => (refused.includes(++calls) ? Promise.reject(new QueryBudgetError(250)) : memory.list(...args)),
        get: (id: string) => memory.get(id),
      };
      const handle = createPapersHandler({ source, allowedHosts: ['h'] });
      const answer = (await handle({ method: 'GET', url: '/papers/?ordering=id&format=jsonl', headers: { host: 'h' } }))!;
      return answer.stream![Symbol.asyncIterator]();
    };
    // Refused once: the export is whole.
    const once = await exportWith([2]);
    let lines = 0;
    for (let step = await once.next(); step.done !== true; step = await once.next()) lines += text(step.value as Uint8Array).split('\n').length - 1;
    expect(lines).toBe(2500);
    // Refused twice while the first chunk was with the reader: nothing unhandled, the failure comes with the next read.
    const twice = await exportWith([2, 3]);
    await twice.next();
    await new Promise((resolve) => setTimeout(resolve, 300));
    await expect(twice.next()).rejects.toBeInstanceOf(QueryBudgetError);
  });

  it('answers HEAD with the headers alone, and is unknown with the extensions off', async () => {
    const handle = createPapersHandler({ source: createMemorySource(catalogue()), allowedHosts: ['h'] });
    const head = (await handle({ method: 'HEAD', url: '/papers/?format=jsonl&ordering=id', headers: { host: 'h' } }))!;
    expect(head).toMatchObject({ status: 200, body: null, headers: { 'Content-Type': 'application/x-ndjson' } });
    expect(head.stream).toBeUndefined();
    const off = createPapersHandler({ source: createMemorySource(catalogue()), allowedHosts: ['h'], extensions: false });
    expect((await off({ method: 'GET', url: '/papers/?format=jsonl', headers: { host: 'h' } }))!.status).toBe(404);
    expect((await off({ method: 'GET', url: '/papers/', headers: { host: 'h', accept: 'application/x-ndjson' } }))!.status).toBe(406);
    expect((await handle({ method: 'GET', url: '/papers/p01/?format=jsonl', headers: { host: 'h' } }))!.status).toBe(404);
  });
});
