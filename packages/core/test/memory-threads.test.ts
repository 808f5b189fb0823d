import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { queryFor } from '@paperlist/conformance';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QueryBudgetError, SourceOverloadedError, type Paper } from '../src/index.js';
import { createMemorySource } from '../src/node/index.js';
import type { IndexedMemorySource } from '../src/node/index.js';
import { loadSamplePapers } from '../src/sample.js';

const ids = (page: { results: { id: string }[] }) => page.results.map((r) => r.id);

describe('memory source on query threads', () => {
  let papers: Paper[];
  const opened: IndexedMemorySource[] = [];
  const open = (options: Parameters<typeof createMemorySource>[1], catalogue = papers) => {
    const source = createMemorySource(catalogue, options);
    opened.push(source);
    return source;
  };
  beforeAll(async () => {
    papers = await loadSamplePapers();
  });
  afterAll(async () => {
    await Promise.all(opened.map((s) => s.close()));
  });

  it('answers exactly what the calling thread answers, many queries at once', async () => {
    const here = open({});
    const threaded = open({ threads: 2 });
    const queries = ['q=attention', 'q=neural+network&ordering=-published', 'q=%22machine+translation%22', 'ordering=title&page=3', 'abstract=graph&title=learning', 'q=tra&ordering=id'];
    // The extension filters answer from their own index parts, which the threads must get too.
    queries.push('year=2016-2018&ordering=-published', 'author=neubig|dyer', 'venue=acl&q=translation', 'proceeding=acl-2020-7&published_before=2020');
    const want = await Promise.all(queries.map((q) => here.list(queryFor(q, 20, 30))));
    const got = await Promise.all(queries.map((q) => threaded.list(queryFor(q, 20, 30))));
    expect(got.map((p) => p.count)).toEqual(want.map((p) => p.count));
    expect(got.map((p) => ids(p as never))).toEqual(want.map((p) => ids(p as never)));
  });

  it('refuses a query past its budget with QueryBudgetError, then answers the next', async () => {
    for (const threads of [0, 1]) {
      const source = open({ threads, budgetMs: 1e-9 });
      await expect(source.list(queryFor('q=learning'))).rejects.toBeInstanceOf(QueryBudgetError);
      const roomy = open({ threads, budgetMs: 10_000 });
      await expect(roomy.list(queryFor('q=learning'))).resolves.toMatchObject({ count: expect.any(Number) });
    }
  });

  it('refuses at once when every thread is busy and the queue is full', async () => {
    const source = open({ threads: 1, maxQueue: 1 });
    const first = source.list(queryFor('q=learning'));
    const second = source.list(queryFor('q=model'));
    await expect(source.list(queryFor('q=graph'))).rejects.toBeInstanceOf(SourceOverloadedError);
    await expect(first).resolves.toMatchObject({ count: expect.any(Number) });
    await expect(second).resolves.toMatchObject({ count: expect.any(Number) });
    // The queue drained: room again.
    await expect(source.list(queryFor('q=graph'))).resolves.toMatchObject({ count: expect.any(Number) });
  });

  it('stops a running or waiting query when its signal aborts, and keeps serving', async () => {
    const source = open({ threads: 1 });
    const running = new AbortController();
    const waiting = new AbortController();
    const first = source.list(queryFor('q=learning'), { signal: running.signal });
    const second = source.list(queryFor('q=model'), { signal: waiting.signal });
    running.abort(new Error('client went away'));
    waiting.abort(new Error('client went away too'));
    const [one, two] = await Promise.allSettled([first, second]);
    expect(one).toMatchObject({ status: 'rejected', reason: { message: 'client went away' } });
    expect(two).toMatchObject({ status: 'rejected', reason: { message: 'client went away too' } });
    const after = await source.list(queryFor('q=attention&ordering=id', 0, 5));
    expect(after.count).toBeGreaterThan(0);
  });

  it('answers from the new catalogue once replaced, and changes its version', async () => {
    const source = open({ threads: 2 });
    const before = source.version();
    source.replace(papers.slice(0, 100));
    expect(source.version()).not.toBe(before);
    const page = await source.list(queryFor('', 0, 500));
    expect(page.count).toBe(100);
    expect(source.size).toBe(100);
  });

  it('fails one malformed query without losing the thread', async () => {
    const source = open({ threads: 1 });
    const broken = { ...queryFor('q=x'), terms: [{ raw: 'x', words: [], arxivId: null }] };
    await expect(source.list(broken)).rejects.toThrow();
    await expect(source.list(queryFor('q=attention'))).resolves.toMatchObject({ count: expect.any(Number) });
  });

  it('lets the process exit once its queries are answered, without close()', async () => {
    const script = fileURLToPath(new URL('./fixtures/threads-exit.mts', import.meta.url));
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', script], { timeout: 20_000 });
    expect(stdout.trim()).toMatch(/^answered \d+$/);
  });

  it('validates its options at construction', () => {
    expect(() => createMemorySource([], { threads: -1 })).toThrow(/threads/);
    expect(() => createMemorySource([], { threads: 1.5 })).toThrow(/threads/);
    expect(() => createMemorySource([], { budgetMs: 0 })).toThrow(/budgetMs/);
    expect(() => createMemorySource([], { budgetMs: Number.NaN })).toThrow(/budgetMs/);
    expect(() => createMemorySource([], { maxQueue: -1 })).toThrow(/maxQueue/);
  });
});
