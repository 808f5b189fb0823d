import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { queryFor } from '@paperlist/conformance';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Paper } from '../src/index.js';
import { createMemorySource, openMemorySource, SnapshotError } from '../src/node/index.js';
import type { IndexedMemorySource } from '../src/node/index.js';
import { checksum, PREAMBLE_BYTES } from '../src/snapshot/snapshot-format.js';
import { loadSamplePapers } from '../src/sample.js';

describe('memory source snapshots', () => {
  let dir: string;
  let papers: Paper[];
  let source: IndexedMemorySource;
  let file: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'paperlist-snapshot-'));
    papers = await loadSamplePapers();
    source = createMemorySource(papers, { version: 'v-sample' });
    file = join(dir, 'sample.snapshot');
    await source.save(file);
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  const ids = (page: { results: unknown[] }) => page.results.map((r) => (r as { id: string }).id);
  // The extension filters read their own index parts (published days, author names, value
  // tables): a part left out of the snapshot or the threads' copy would change these answers.
  const EXTENSION_QUERIES = ['year=2018&ordering=-published', 'author=neubig', 'author=a&published_after=2015-06', 'venue=acl&q=translation', 'proceeding=naacl-2019-6|acl-2020-7&ordering=title'];

  it('loads what was saved: the same answers and the same version, on the calling thread or on threads', async () => {
    for (const threads of [0, 2]) {
      const loaded = await openMemorySource(file, { threads });
      expect(loaded.version()).toBe('v-sample');
      expect(loaded.size).toBe(papers.length);
      for (const raw of ['q=attention', 'q=%22neural+machine%22&ordering=-published', 'title=learning&ordering=id', 'abstract=e.g.', 'ordering=-title&page=7', 'q=a', ...EXTENSION_QUERIES]) {
        const [want, got] = await Promise.all([source.list(queryFor(raw, 10, 40)), loaded.list(queryFor(raw, 10, 40))]);
        expect(want.count, raw).toBeGreaterThan(0);
        expect(got.count, raw).toBe(want.count);
        expect(ids(got), raw).toEqual(ids(want));
      }
      expect(await loaded.get('attention-is-all-you-need')).toEqual(await source.get('attention-is-all-you-need'));
      await loaded.close();
    }
  });

  it('keeps the tasks and methods of papers, and their filters', async () => {
    const some = papers.slice(0, 50);
    const annotations = new Map(some.slice(0, 20).map((paper, i) => [paper.id, { tasks: [i % 2 === 0 ? 'Image Classification' : 'Machine Translation'], methods: [{ name: 'Adam', full_name: 'Adam', description: null, introduced_year: 2014, source_url: null, source_title: null, code_snippet_url: null }] }]));
    const annotated = createMemorySource(some, { annotations });
    const target = join(dir, 'annotated.snapshot');
    await annotated.save(target);
    for (const threads of [0, 2]) {
      const loaded = await openMemorySource(target, { threads });
      expect(loaded.version()).toBe(annotated.version());
      for (const raw of ['task=image-classification&ordering=id', 'method=adam&task=machine-translation', 'task=image-classification|machine-translation&ordering=-title']) {
        const [want, got] = await Promise.all([annotated.list(queryFor(raw, 0, 50)), loaded.list(queryFor(raw, 0, 50))]);
        expect(got.count, raw).toBe(want.count);
        expect(ids(got), raw).toEqual(ids(want));
      }
      expect(await loaded.annotations(some[3]!.id)).toEqual(annotations.get(some[3]!.id));
      expect(await loaded.annotations(some[30]!.id)).toEqual({ tasks: [], methods: [] });
      await loaded.close();
    }
  });

  it('writes atomically: no temporary file left, an existing file replaced whole', async () => {
    const target = join(dir, 'replaced.snapshot');
    await writeFile(target, 'an older file');
    await createMemorySource(papers.slice(0, 10)).save(target);
    expect((await openMemorySource(target)).size).toBe(10);
    expect((await readdir(dir)).filter((name) => name.includes('.tmp'))).toEqual([]);
  });

  it('restores a snapshot into a running source (on threads), and keeps the catalogue when the file is bad', async () => {
    const running = createMemorySource(papers.slice(0, 5), { threads: 1, version: 'v-five' });
    await running.restore(file);
    expect(running.version()).toBe('v-sample');
    expect(running.size).toBe(papers.length);
    const want = await source.list(queryFor('q=attention', 10, 0));
    const got = await running.list(queryFor('q=attention', 10, 0));
    expect(got.count).toBe(want.count);
    expect(ids(got)).toEqual(ids(want));

    const bad = join(dir, 'bad-restore.snapshot');
    await writeFile(bad, 'not a snapshot at all');
    await expect(running.restore(bad)).rejects.toBeInstanceOf(SnapshotError);
    expect(running.version()).toBe('v-sample');
    expect((await running.list(queryFor('q=attention', 10, 0))).count).toBe(want.count);
    await running.close();
  });

  /** Writes `bytes` to a new file and expects opening it to fail for `reason`, naming the file. */
  async function refused(name: string, bytes: Uint8Array, reason: SnapshotError['reason'], message: RegExp): Promise<void> {
    const path = join(dir, name);
    await writeFile(path, bytes);
    const error = await openMemorySource(path).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SnapshotError);
    expect((error as SnapshotError).reason).toBe(reason);
    expect((error as Error).message).toContain(path);
    expect((error as Error).message).toMatch(message);
  }

  it('refuses a truncated file', async () => {
    const bytes = await readFile(file);
    await refused('empty.snapshot', new Uint8Array(0), 'truncated', /0 bytes/);
    await refused('cut-in-header.snapshot', bytes.subarray(0, PREAMBLE_BYTES + 10), 'truncated', /inside its header/);
    await refused('cut-in-data.snapshot', bytes.subarray(0, bytes.length - 1000), 'truncated', /holds \d+ of its \d+ bytes/);
  });

  it('refuses a corrupted file: a flipped bit in the data or in the header', async () => {
    const bytes = Buffer.from(await readFile(file));
    const data = Buffer.from(bytes);
    data[data.length - 5000]! ^= 0x10;
    await refused('flipped-data.snapshot', data, 'corrupted', /section .* does not match its checksum/);
    const header = Buffer.from(bytes);
    header[PREAMBLE_BYTES + 20]! ^= 0x01;
    await refused('flipped-header.snapshot', header, 'corrupted', /header does not match its checksum/);
  });

  it('refuses a file of another version, and one that is not a snapshot', async () => {
    const bytes = Buffer.from(await readFile(file));
    const length = bytes.readUInt32LE(8);
    const header = JSON.parse(bytes.subarray(PREAMBLE_BYTES, PREAMBLE_BYTES + length).toString('utf8'));
    header.index.format = 7;
    // Same length, so the offsets stay right; a valid checksum, so the version is what is refused.
    const text = Buffer.from(JSON.stringify(header).padEnd(length, ' '));
    expect(text.length).toBe(length);
    const other = Buffer.from(bytes);
    text.copy(other, PREAMBLE_BYTES);
    other.writeUInt32LE(checksum(text), 12);
    await refused('other-version.snapshot', other, 'version', /index format 7.*rebuild it/);
    await refused('not-a-snapshot.snapshot', Buffer.from('{"id":"a paper","title":"not a snapshot at all"}\n'), 'not-a-snapshot', /not a paperlist snapshot/);
  });
});
