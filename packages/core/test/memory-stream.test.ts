import { createReadStream } from 'node:fs';
import { queryFor } from '@paperlist/conformance';
import { beforeAll, describe, expect, it } from 'vitest';
import { createScanSource, type Paper, type PaperSource } from '../src/index.js';
import { createMemorySource, createMemorySourceFromStream } from '../src/node/index.js';
import { loadSamplePapers, SAMPLE_CATALOG_PATH } from '../src/sample.js';
import { makePaper } from './make-paper.js';

const ids = (page: { results: { id: string }[] }) => page.results.map((r) => r.id);
const QUERIES = ['', 'q=learning', 'q=%22neural+network%22&ordering=-published', 'q=tra&ordering=title', 'title=the&ordering=arxiv_id'];

async function sameAnswers(a: PaperSource, b: PaperSource): Promise<void> {
  for (const raw of QUERIES) {
    const [x, y] = await Promise.all([a.list(queryFor(raw)), b.list(queryFor(raw))]);
    expect(x.count, raw).toBe(y.count);
    expect(ids(x), raw).toEqual(ids(y));
  }
}

describe('building the memory source from a stream', () => {
  let papers: Paper[];
  beforeAll(async () => {
    papers = await loadSamplePapers();
  });

  it('from a file path, a byte stream, and papers (sync and async) gives the same source', { timeout: 90_000 }, async () => {
    const fromArray = createMemorySource(papers);
    const fromPath = await createMemorySourceFromStream(SAMPLE_CATALOG_PATH);
    const fromReadable = await createMemorySourceFromStream(createReadStream(SAMPLE_CATALOG_PATH));
    const fromBytes = await createMemorySourceFromStream(
      (async function* () {
        for await (const chunk of createReadStream(SAMPLE_CATALOG_PATH)) yield chunk as Uint8Array;
      })(),
    );
    const fromAsyncPapers = await createMemorySourceFromStream(
      (async function* () {
        yield* papers;
      })(),
    );
    const fromIterable = await createMemorySourceFromStream(papers);
    for (const source of [fromPath, fromReadable, fromBytes, fromAsyncPapers, fromIterable]) {
      expect(source.size).toBe(papers.length);
      expect(source.version()).toBe(fromArray.version());
      await sameAnswers(source, fromArray);
    }
  });

  it('reports progress and honours skipInvalid while reading', async () => {
    const progress: number[] = [];
    const source = await createMemorySourceFromStream(SAMPLE_CATALOG_PATH, { read: { onProgress: (p) => progress.push(p.records) } });
    expect(progress.at(-1)).toBe(source.size);
  });

  it('swaps a catalogue atomically: the old one answers until the new one is built', async () => {
    const source = createMemorySource([makePaper({ id: 'old', title: 'Old paper' })], { version: 'fixed' });
    expect(source.version()).toBe('fixed');
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const replacing = source.replaceFrom(
      (async function* () {
        yield makePaper({ id: 'new-1', title: 'New paper' });
        await gate;
        yield makePaper({ id: 'new-2', title: 'Newer paper' });
      })(),
    );
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(ids(await source.list(queryFor('')))).toEqual(['old']);
    expect(source.version()).toBe('fixed');
    release();
    await replacing;
    expect(ids(await source.list(queryFor('')))).toEqual(['new-2', 'new-1']); // 'Newer' sorts before 'New paper'
    expect(source.version()).not.toBe('fixed');
    expect(await source.get('old')).toBeNull();
    expect((await source.get('new-2'))?.id).toBe('new-2');
  });

  it('keeps the current catalogue when a replacement fails, and lets the last started win', async () => {
    const source = createMemorySource([makePaper({ id: 'a' })]);
    const failing = source.replaceFrom(
      (async function* () {
        yield makePaper({ id: 'b' });
        throw new Error('disk on fire');
      })(),
    );
    await expect(failing).rejects.toThrow('disk on fire');
    expect(ids(await source.list(queryFor('')))).toEqual(['a']);

    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const slow = source.replaceFrom(
      (async function* () {
        await gate;
        yield makePaper({ id: 'slow' });
      })(),
    );
    source.replace([makePaper({ id: 'fast' })]);
    release();
    await slow;
    expect(ids(await source.list(queryFor('')))).toEqual(['fast']);
  });

  it('refuses duplicate ids, like the scan source', async () => {
    const twice = [makePaper({ id: 'x' }), makePaper({ id: 'x' })];
    expect(() => createScanSource(twice)).toThrow('duplicate paper id "x"');
    expect(() => createMemorySource(twice)).toThrow('duplicate paper id "x"');
    await expect(createMemorySourceFromStream(twice)).rejects.toThrow('duplicate paper id "x"');
  });

  it('serves an empty catalogue', async () => {
    const source = createMemorySource([]);
    expect(source.size).toBe(0);
    const page = await source.list(queryFor('q=anything'));
    expect(page).toMatchObject({ count: 0, results: [] });
    expect(page.resultsJson?.byteLength ?? 0).toBe(0);
    expect(await source.list(queryFor('ordering=-published'))).toMatchObject({ count: 0, results: [] });
    expect(await source.get('x')).toBeNull();
  });
});

describe('papers too long for positions', () => {
  // 40,000 words: beyond 15-bit positions, so the engine answers for it with the reference code.
  const long = Array.from({ length: 40_000 }, (_, i) => ['neural', 'network', 'model', `w${i % 97}`][i % 4]).join(' ');
  const papers = [
    makePaper({ id: 'long', title: 'A neural network', abstract: long, authors: ['Ada Lovelace'], published: '2020-01-01' }),
    makePaper({ id: 'short', title: 'Neural networks', abstract: 'A network model.', authors: ['Alan Turing'], published: '2021-01-01' }),
    makePaper({ id: 'other', title: 'Model checking', abstract: 'Networks of automata.', published: null }),
  ];

  it.each(['q=neural', 'q=network', 'q=%22neural+network%22', 'q=%22network+model+w%22', 'q=%22model+w1%22', 'q=net+mod', 'q=ada', 'q=%22w3+neural%22', 'q=%22a+neural+net%22&ordering=id'])(
    '%j matches the reference',
    async (raw) => {
      const engine = createMemorySource(papers);
      const reference = createScanSource(papers);
      const [got, want] = await Promise.all([engine.list(queryFor(raw)), reference.list(queryFor(raw))]);
      expect(got.count).toBe(want.count);
      expect(ids(got)).toEqual(ids(want));
    },
  );
});

describe('relevance counts beyond the packed form', () => {
  // 20 title occurrences (over 15) and 200 abstract occurrences (over 127) of "spam".
  const papers = [
    makePaper({ id: 'loud', title: Array(20).fill('Spam').join(' '), abstract: Array(200).fill('spam spammer').join(' '), authors: ['Spam Spamson'] }),
    makePaper({ id: 'quiet', title: 'A spam filter', abstract: 'We filter spam.' }),
    makePaper({ id: 'none', title: 'Eggs', abstract: 'No meat here.' }),
    ...Array.from({ length: 60 }, (_, i) => makePaper({ id: `filler-${i}`, title: `Spam study ${i}`, abstract: i % 2 ? 'spam' : 'ham' })),
  ];
  it.each(['q=spam', 'q=spa', 'q=spam+study', 'q=%22spam+spam%22', 'q=spammer'])('%j ranks like the reference', async (raw) => {
    const engine = createMemorySource(papers);
    const reference = createScanSource(papers);
    for (const [offset, limit] of [[0, 5], [0, 100], [30, 10]] as const) {
      const [got, want] = await Promise.all([engine.list(queryFor(raw, offset, limit)), reference.list(queryFor(raw, offset, limit))]);
      expect(got.count).toBe(want.count);
      expect(ids(got)).toEqual(ids(want));
    }
  });
});
