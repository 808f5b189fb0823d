import { queryFor } from '@paperlist/conformance';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemorySource, createScanSource, InvalidChangeError, toJsonBytes, type MemorySource, type Paper, type PaperChange } from '../src/index.js';
import { createMemorySource as createNodeMemorySource, type IndexedMemorySource } from '../src/node/index.js';
import { loadSamplePapers } from '../src/sample.js';

/**
 * Writes against the reference: after any sequence of batches (the same id twice in a batch,
 * deletes of absent ids, updates that move a paper in every ordering, titles whose words and
 * collation key change), the memory source answers exactly what a fresh build of the final
 * catalogue and the scan source answer.
 */

// Requests that together touch every ordering, relevance, the filters and deep windows.
const REQUESTS = [
  '',
  'ordering=title',
  'ordering=-title',
  'ordering=published',
  'ordering=-published&items_per_page=7&page=3',
  'ordering=arxiv_id',
  'ordering=-id',
  'q=learning',
  'q=deep+net',
  'q=%22neural+network%22',
  'q=a&ordering=-published',
  'q=zebra',
  'title=tion',
  'abstract=of+the&ordering=title',
  'year=2018-',
  'author=smith',
  'q=moved',
];

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

async function answer(source: MemorySource, raw: string, offset = 0, limit = 500): Promise<{ count: number; json: string[] }> {
  const page = await source.list(queryFor(raw, offset, limit));
  return { count: page.count, json: page.results.map((record) => text(toJsonBytes(record))) };
}

async function expectSameAnswers(got: MemorySource, want: MemorySource, label: string): Promise<void> {
  expect(got.size, `${label}: size`).toBe(want.size);
  for (const raw of REQUESTS) {
    expect(await answer(got, raw), `${label}: ${raw}`).toEqual(await answer(want, raw));
  }
}

describe('memory source writes = a fresh build = the scan source', () => {
  let sample: Paper[];
  beforeAll(async () => {
    sample = (await loadSamplePapers()).slice(0, 120);
  });

  /** A random batch over ids of `pool` (present or not), with updates that move papers. */
  const batchOf = (pool: readonly Paper[]) => {
    const ids = pool.map((p) => p.id);
    const id = fc.oneof(fc.constantFrom(...ids), fc.constantFrom('new-1', 'new-2', 'new-3', 'absent'));
    const donor = fc.constantFrom(...pool);
    const upsert = fc
      .record({
        id,
        donor,
        title: fc.option(fc.constantFrom('Moved to the front', 'zebra stripes', 'Ämne: Überblick', '  spaced  out ', 'moved network of the'), { nil: undefined }),
        published: fc.option(fc.constantFrom(null, '1901-01-01', '2030-12-31', '2018-06-15'), { nil: undefined }),
        arxiv: fc.option(fc.constantFrom(null, '0000.00001', '9999.99999'), { nil: undefined }),
      })
      .map(({ id: paperId, donor: from, title, published, arxiv }): PaperChange => ({
        op: 'upsert',
        paper: {
          ...from,
          id: paperId,
          url_abs: `https://example.org/${paperId}`,
          ...(title === undefined ? {} : { title }),
          ...(published === undefined ? {} : { published }),
          ...(arxiv === undefined ? {} : { arxiv_id: arxiv }),
        },
      }));
    const remove = id.map((paperId): PaperChange => ({ op: 'delete', id: paperId }));
    return fc.array(fc.oneof(upsert, remove), { minLength: 1, maxLength: 6 });
  };

  /** The catalogue after `batches`, applied the obvious way. */
  const finalCatalogue = (start: readonly Paper[], batches: readonly PaperChange[][]): Paper[] => {
    const byId = new Map(start.map((p) => [p.id, p]));
    for (const change of batches.flat()) {
      if (change.op === 'upsert') byId.set(change.paper.id, change.paper);
      else byId.delete(change.id);
    }
    return [...byId.values()];
  };

  it('answers every request as a fresh build after any sequence of batches', { timeout: 120_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(batchOf(sample), { minLength: 1, maxLength: 4 }), async (batches) => {
        const memory = createMemorySource(sample);
        const scan = createScanSource(sample);
        for (const batch of batches) {
          const [a, b] = await Promise.all([memory.write(batch), scan.write(batch)]);
          expect(a).toEqual(b);
        }
        const fresh = createMemorySource(finalCatalogue(sample, batches));
        await expectSameAnswers(memory, fresh, 'memory vs fresh build');
        await expectSameAnswers(scan, fresh, 'scan vs fresh build');
        for (const id of ['new-1', 'absent', sample[0]!.id]) {
          const [got, want] = [await memory.get(id), await fresh.get(id)];
          expect(got === null ? null : text(toJsonBytes(got))).toEqual(want === null ? null : text(toJsonBytes(want)));
        }
      }),
      { numRuns: 25, seed: 20261125 },
    );
  });

  it('counts each change against the catalogue as the batch left it', async () => {
    const source = createMemorySource(sample.slice(0, 3));
    const [first, second] = sample;
    const result = await source.write([
      { op: 'upsert', paper: { ...first!, title: 'Once' } },
      { op: 'upsert', paper: { ...first!, title: 'Twice' } },
      { op: 'delete', id: second!.id },
      { op: 'delete', id: second!.id },
      { op: 'delete', id: 'absent' },
      { op: 'upsert', paper: { ...second!, title: 'Back again' } },
      { op: 'upsert', paper: { ...first!, id: 'brand-new' } },
    ]);
    expect(result).toEqual({ created: 2, updated: 2, deleted: 1 });
    expect(source.size).toBe(4);
    expect((await answer(source, 'q=twice')).count).toBe(1);
    expect((await answer(source, 'q=once')).count).toBe(0);
  });

  it('moves the version with every change, and not for a batch that changes nothing', async () => {
    const source = createMemorySource(sample.slice(0, 10), { version: 'fixed' });
    expect(source.version()).toBe('fixed');
    await source.upsert([{ ...sample[0]!, title: 'A new title' }]);
    const after = source.version();
    expect(after).not.toBe('fixed');
    await source.remove(['absent']);
    expect(source.version()).toBe(after);
    await source.remove([sample[0]!.id]);
    expect(source.version()).not.toBe(after);
  });

  it('moves the version by what a batch stores, not only by the ids it touches', async () => {
    // Same start, same ids written, different content (an abstract only: the title is the same).
    const versions = await Promise.all(
      ['one abstract', 'another abstract'].map(async (abstract) => {
        const source = createMemorySource(sample.slice(0, 10), { version: 'fixed' });
        await source.upsert([{ ...sample[0]!, abstract }]);
        return source.version();
      }),
    );
    expect(versions[0]).not.toBe(versions[1]);
    expect(versions).not.toContain('fixed');
    // And a paper stored again exactly as it is, title and all, changes nothing.
    const source = createMemorySource(sample.slice(0, 10), { version: 'fixed' });
    expect(await source.upsert([{ ...sample[1]! }])).toEqual({ created: 0, updated: 1, deleted: 0 });
    expect(source.version()).toBe('fixed');
  });

  it('refuses a batch with an invalid paper whole, applying nothing', async () => {
    const source = createMemorySource(sample.slice(0, 10));
    const before = source.version();
    const bad = { ...sample[1]!, published: '2019-02-30' };
    await expect(source.write([{ op: 'delete', id: sample[0]!.id }, { op: 'upsert', paper: bad }])).rejects.toBeInstanceOf(InvalidChangeError);
    await expect(source.upsert([bad])).rejects.toThrow(/change 0 of the batch is not a valid paper: field "published"/);
    expect(source.version()).toBe(before);
    expect(source.size).toBe(10);
  });

  describe('on query threads, with writes arriving together', () => {
    let threaded: IndexedMemorySource;
    beforeAll(() => {
      threaded = createNodeMemorySource(sample, { threads: 2 });
    });
    afterAll(() => threaded.close());

    it('applies concurrent batches in order, each atomically, and resolves each once it is visible', { timeout: 60_000 }, async () => {
      const batches: PaperChange[][] = Array.from({ length: 12 }, (_, i) => [
        { op: 'upsert', paper: { ...sample[i]!, id: `stream-${i}`, title: `streamed paper number ${i}` } },
        { op: 'upsert', paper: { ...sample[i + 20]!, id: `stream-${i}-twin`, title: `streamed twin ${i}` } },
        { op: 'delete', id: sample[i + 40]!.id },
      ]);
      const seen: number[] = [];
      await Promise.all(
        batches.map(async (batch, i) => {
          await threaded.write(batch);
          // Once resolved, the batch is there; a batch is never half there.
          const page = await threaded.list(queryFor('q=streamed', 0, 100));
          const titles = page.results.map((r) => JSON.parse(text(toJsonBytes(r))).title as string);
          expect(titles).toContain(`streamed paper number ${i}`);
          for (let j = 0; j < batches.length; j++) {
            expect(titles.includes(`streamed paper number ${j}`)).toBe(titles.includes(`streamed twin ${j}`));
          }
          seen.push(i);
        }),
      );
      expect(seen).toHaveLength(12);
      const fresh = createScanSource(finalCatalogue(sample, batches));
      await expectSameAnswers(threaded, fresh, 'threads vs scan');
    });

    it('lets a replacement win over a write that was building during it, then applies the write on top', { timeout: 60_000 }, async () => {
      const replacement = sample.slice(60, 90);
      const writing = threaded.upsert([{ ...sample[0]!, id: 'written-during-replace' }]);
      await threaded.replaceFrom(replacement);
      await writing;
      const fresh = createScanSource([...replacement, { ...sample[0]!, id: 'written-during-replace' }]);
      await expectSameAnswers(threaded, fresh, 'write after replacement');
    });
  });
});
