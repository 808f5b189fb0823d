import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { IndexData } from '../../src/engine/builder.js';
import { buildIndex } from '../../src/memory/build-index.js';
import { indexParts } from '../../src/engine/index-parts.js';
import { MergeThreads } from '../../src/memory/merge-threads.js';
import { MergeGate } from '../../src/threads/merge-gate.js';
import type { Paper } from '../../src/paper.js';
import { loadSamplePapers } from '../../src/sample.js';
import { wholeSegment, withDeleted, type Segment } from '../../src/segments/segment.js';

/** Every stored paper of an index, by id (documents are numbered in an order of the builder's). */
const papersOf = (index: IndexData) => Array.from({ length: index.n }, (_, d) => index.store.paper(d)).sort((a, b) => (a.id < b.id ? -1 : 1));
const byId = (papers: readonly Paper[]) => [...papers].sort((a, b) => (a.id < b.id ? -1 : 1));

describe('merge threads kept between merges', () => {
  let sample: Paper[];
  let from: Segment[];
  let expected: Paper[];
  let gone: string;
  const pools: MergeThreads[] = [];
  const pool = (keep?: number, gate?: MergeGate) => {
    const threads = new MergeThreads(keep, gate?.buffer);
    pools.push(threads);
    return threads;
  };

  beforeAll(async () => {
    sample = (await loadSamplePapers()).slice(0, 120);
    // A base with two papers deleted, and a delta: the merge holds the live papers, in segment order.
    const base = buildIndex(sample.slice(0, 80));
    from = [withDeleted(wholeSegment(base), [3, 40]), wholeSegment(buildIndex(sample.slice(80)))];
    gone = base.store.paper(3).id;
    expected = [...papersOf(base).filter((p) => p.id !== gone && p.id !== base.store.paper(40).id), ...sample.slice(80)];
  });
  afterEach(async () => {
    await Promise.all(pools.splice(0).map((threads) => threads.close()));
  });

  it('builds the index of the live papers, the same as a fresh build of them, merge after merge on one thread', async () => {
    const threads = pool();
    const fresh = buildIndex(expected);
    for (let round = 0; round < 3; round++) {
      const merged = await threads.merge(from);
      expect(papersOf(merged)).toEqual(byId(expected));
      // Document numbers too: the same order as a fresh build of those papers.
      expect(Array.from({ length: merged.n }, (_, d) => merged.store.paper(d).id)).toEqual(Array.from({ length: fresh.n }, (_, d) => fresh.store.paper(d).id));
      expect(merged.store.findId(gone)).toBe(-1);
      expect(merged.n).toBe(118);
      expect(threads.size).toBe(1);
    }
  });

  it('gives overlapping merges a thread each, and keeps no more than asked', async () => {
    const threads = pool(1);
    const [a, b] = await Promise.all([threads.merge(from), threads.merge(from.slice(1))]);
    expect(a.n).toBe(118);
    expect(papersOf(b)).toEqual(byId(sample.slice(80)));
    expect(threads.size).toBe(1);
  });

  it('replaces a kept thread that died while idle', async () => {
    const threads = pool();
    await threads.merge(from);
    // The kept thread stops (as a crash would): the next merge must not wait on it.
    const kept = (threads as unknown as { idle: { worker: { terminate(): Promise<number> } }[] }).idle[0]!;
    await kept.worker.terminate();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect((await threads.merge(from)).n).toBe(118);
    expect(threads.size).toBe(1);
  });

  it('pauses a merge while a write holds the gate, and finishes it once the write is done', async () => {
    const gate = new MergeGate();
    const threads = pool(1, gate);
    // Unheld, the gate changes nothing (and the thread is started and warm for the timed merge).
    expect((await threads.merge(from)).n).toBe(118);
    let started = performance.now();
    await threads.merge(from);
    const unheld = performance.now() - started;
    let release!: () => void;
    const write = gate.hold(() => new Promise<void>((resolve) => (release = resolve)));
    let done = false;
    started = performance.now();
    const merging = threads.merge(from).then((index) => {
      done = true;
      return index;
    });
    // Several times what the same merge took unheld: it is waiting at a checkpoint.
    await new Promise((resolve) => setTimeout(resolve, Math.max(150, 4 * unheld)));
    expect(done).toBe(false);
    release();
    await write;
    const merged = await merging;
    expect(papersOf(merged)).toEqual(byId(expected));
    expect(performance.now() - started).toBeLessThan(60_000);
  });

  it('stops its threads on close, and a merge after it keeps none', async () => {
    const threads = pool();
    await threads.merge(from);
    await threads.close();
    expect(threads.size).toBe(0);
    expect((await threads.merge(from)).n).toBe(118);
    expect(threads.size).toBe(0);
  });

  it('starts a thread ahead of the first merge, warms it up once told to, and merges on it', async () => {
    const threads = pool();
    let go!: () => void;
    threads.start(indexParts(from[0]!.index), 3, new Promise<void>((resolve) => (go = resolve)));
    expect(threads.size).toBe(1);
    go();
    const merged = await threads.merge(from);
    expect(papersOf(merged)).toEqual(byId(expected));
    // The warmed thread did the merge and was kept: no second thread.
    expect(threads.size).toBe(1);
  });

  it('gives the first merge the started thread even before its warm-up was sent, and stops a warming one on close', async () => {
    const threads = pool();
    let go!: () => void;
    threads.start(indexParts(from[0]!.index), 30, new Promise<void>((resolve) => (go = resolve)));
    expect((await threads.merge(from)).n).toBe(118);
    go(); // too late: the warm-up is not sent to a thread already merging
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect((await threads.merge(from)).n).toBe(118);
    expect(threads.size).toBe(1);
    const other = pool();
    other.start(indexParts(from[0]!.index), 3, Promise.resolve());
    await other.close();
    expect(other.size).toBe(0);
  });
});
