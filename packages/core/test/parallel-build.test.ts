import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { queryFor } from '@paperlist/conformance';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnnotationMap, Paper, PaperAnnotations } from '../src/index.js';
import { createMemorySource, createMemorySourceFromStream, type IndexedMemorySource } from '../src/node/index.js';
import { SAMPLE_CATALOG_PATH } from '../src/sample.js';
import { makePaper } from './make-paper.js';

/*
 * A build with the papers tokenized on a thread of their own (`buildThreads: 2`) must give the
 * index a single thread gives: compared as saved snapshots, byte for byte (the snapshot holds
 * every part of the index, so any difference in vocabulary, postings, orders, stored JSON or
 * the tables of the filters shows), and by the answers to a few queries.
 */

// Words from a small pool so that papers share words (dense and sparse postings, prefixes),
// with accents, non-Latin letters, digits and punctuation (separator flags, phrases).
const WORDS = ['neural', 'network', 'Networks', 'learning', 'the', 'of', 'a', 'Café', 'naïve', 'Łódź', 'über', '深度', 'gpt-4', '1706.03762', 'x2', 'état', 'ΑΒΓ', 'deep'];
const SEPARATORS = [' ', ' ', ' ', ', ', '  ', '-', ': ', '\n', '$', '\\'];

const text = (maxWords: number) =>
  fc.array(fc.tuple(fc.constantFrom(...WORDS), fc.constantFrom(...SEPARATORS)), { maxLength: maxWords }).map((parts) => parts.map(([w, s]) => w + s).join('').trim());

const paperArbitrary = fc.record({
  title: text(12),
  abstract: fc.oneof({ weight: 9, arbitrary: text(60) }, { weight: 1, arbitrary: fc.constant('long '.repeat(9000)) }),
  authors: fc.array(fc.oneof(fc.constantFrom('Ann Lee', 'Jürgen Schmidhuber', 'A. B. Smith', 'Lee Ann', '李 明'), text(3)), { maxLength: 5 }),
  published: fc.option(fc.constantFrom('2020-01-05', '2019-12-31', '2021-06-01'), { nil: null }),
  arxiv_id: fc.option(fc.constantFrom('1706.03762', '2001.00001'), { nil: null }),
  proceeding: fc.option(fc.constantFrom('acl-2020-7', 'neurips-2019'), { nil: null }),
  tasks: fc.array(fc.constantFrom('Image Classification', 'Machine Translation'), { maxLength: 2 }),
});

function corpus(seed: number, size: number): { papers: Paper[]; annotations: AnnotationMap } {
  const drawn = fc.sample(paperArbitrary, { seed, numRuns: size });
  const notes = new Map<string, PaperAnnotations>();
  const papers = drawn.map(({ tasks, ...fields }, i) => {
    const paper = makePaper({ id: `p${seed}-${i}`, ...fields });
    if (tasks.length > 0) notes.set(paper.id, { tasks, methods: [] });
    return paper;
  });
  return { papers, annotations: notes };
}

const QUERIES = ['', 'q=neural', 'q=net', 'q=%22deep+learning%22', 'q=cafe&ordering=-published', 'q=gpt-4', 'q=1706.03762', 'author=lee', 'title=the&ordering=title', 'abstract=e,+&ordering=-arxiv_id', 'task=image-classification', 'q=%E6%B7%B1'];

describe('the build on two threads gives the single thread build', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'paperlist-parallel-build-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  async function snapshot(source: IndexedMemorySource, name: string): Promise<Buffer> {
    const file = join(dir, name);
    await source.save(file);
    return readFile(file);
  }

  async function expectSameAnswers(single: IndexedMemorySource, parallel: IndexedMemorySource): Promise<void> {
    expect(parallel.size).toBe(single.size);
    expect(parallel.version()).toBe(single.version());
    for (const raw of QUERIES) {
      const [a, b] = await Promise.all([single.list(queryFor(raw, 0, 1000)), parallel.list(queryFor(raw, 0, 1000))]);
      expect(b.count, raw).toBe(a.count);
      expect(b.results.map((r) => r.id), raw).toEqual(a.results.map((r) => r.id));
    }
  }

  // Both from a stream: an array's build sizes the JSON storage from the papers up front, so its chunks (and snapshot) differ.
  async function expectSame(single: IndexedMemorySource, parallel: IndexedMemorySource, name: string): Promise<void> {
    await expectSameAnswers(single, parallel);
    expect((await snapshot(parallel, `${name}-2.snapshot`)).equals(await snapshot(single, `${name}-1.snapshot`))).toBe(true);
  }

  it('on random corpora (accents, punctuation, oversized abstracts, annotations), byte for byte', { timeout: 120_000 }, async () => {
    for (const [seed, size] of [
      [1, 300],
      [2, 1200],
      [3, 1],
    ] as const) {
      const { papers, annotations } = corpus(seed, size);
      // From an iterable (not an array, which is indexed on the calling thread), in batches.
      const parallel = await createMemorySourceFromStream(papers.values(), { annotations, buildThreads: 2 });
      const oneThread = await createMemorySourceFromStream(papers.values(), { annotations, buildThreads: 1 });
      await expectSame(oneThread, parallel, `random-${seed}`);
      await expectSameAnswers(createMemorySource(papers, { annotations }), parallel);
    }
  });

  // The finish runs on both threads (the tokenizing one lays out the postings, this one the
  // rest, the substring tables among it, from the ASCII flags the other sends): small corpora
  // of any shape, down to one paper and papers without words, must give the same bytes too.
  it('on small corpora drawn by fast-check, byte for byte', { timeout: 120_000 }, async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(paperArbitrary, { minLength: 1, maxLength: 70 }), async (drawn) => {
        const papers = drawn.map(({ tasks: _tasks, ...fields }, i) => makePaper({ id: `s${i}`, ...fields }));
        const name = `small-${run++}`;
        const parallel = await createMemorySourceFromStream(papers.values(), { buildThreads: 2 });
        const oneThread = await createMemorySourceFromStream(papers.values(), { buildThreads: 1 });
        expect((await snapshot(parallel, `${name}-2.snapshot`)).equals(await snapshot(oneThread, `${name}-1.snapshot`))).toBe(true);
      }),
      { numRuns: 6, seed: 17 },
    );
  });

  it('on the sample file, and on an empty catalogue', { timeout: 120_000 }, async () => {
    const single = await createMemorySourceFromStream(SAMPLE_CATALOG_PATH, { buildThreads: 1 });
    const parallel = await createMemorySourceFromStream(SAMPLE_CATALOG_PATH, { buildThreads: 2 });
    await expectSame(single, parallel, 'sample');
    const empty = await createMemorySourceFromStream([].values(), { buildThreads: 2 });
    expect(empty.size).toBe(0);
  });

  it('refuses a thread count other than 1 or 2, and reports a duplicate id as one thread does', async () => {
    await expect(createMemorySourceFromStream([].values(), { buildThreads: 3 })).rejects.toThrow(/buildThreads/);
    const twice = [makePaper({ id: 'same' }), makePaper({ id: 'same', title: 'Other' })];
    const one = await createMemorySourceFromStream(twice.values(), { buildThreads: 1 }).catch((error: Error) => error.message);
    const two = await createMemorySourceFromStream(twice.values(), { buildThreads: 2 }).catch((error: Error) => error.message);
    expect(two).toBe(one);
    expect(two).toMatch(/same/);
  });
});
