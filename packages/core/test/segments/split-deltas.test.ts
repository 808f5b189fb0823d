import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { createMemorySource, createScanSource, type MemorySource, type Paper, type PaperChange } from '../../src/index.js';
import { createMemorySource as createNodeMemorySource } from '../../src/node/index.js';
import type { AnnotationMap } from '../../src/annotations/annotations.js';
import { deltaParts, SPLIT_DELTA_FROM } from '../../src/segments/delta-split.js';
import { loadSamplePapers } from '../../src/sample.js';
import { batchOf, expectSameAnswers, finalCatalogue, jsonOf, sampleAnnotations } from './segment-equivalence.js';

/**
 * Large batches, whose delta is built as two segments (on two delta threads with
 * `@paperlist/core/node`), answer as the scan source of the final catalogue: new papers,
 * replacements of base papers and of papers the batch itself adds, deletions, mixed with small
 * batches (one segment each) before and after.
 */
describe('a large batch as two delta segments = the scan source', () => {
  let sample: Paper[];
  let notes: AnnotationMap;
  beforeAll(async () => {
    sample = await loadSamplePapers();
    notes = sampleAnnotations(sample.slice(0, 150));
  });

  it('splits the stored papers into two halves, in order, from SPLIT_DELTA_FROM papers', () => {
    const papers = sample.slice(0, SPLIT_DELTA_FROM + 3);
    expect(deltaParts([])).toEqual([]);
    expect(deltaParts(papers.slice(0, SPLIT_DELTA_FROM - 1))).toHaveLength(1);
    const parts = deltaParts(papers);
    expect(parts).toHaveLength(2);
    expect(parts.flat()).toEqual(papers);
    expect(Math.abs(parts[0]!.length - parts[1]!.length)).toBeLessThanOrEqual(1);
  });

  /** A batch of at least SPLIT_DELTA_FROM upserts (new ids, and base papers changed), with small random changes among them. */
  const largeBatch = () =>
    fc
      .record({
        fresh: fc.integer({ min: SPLIT_DELTA_FROM, max: SPLIT_DELTA_FROM + 200 }),
        from: fc.integer({ min: 150, max: 3000 }),
        replaced: fc.subarray(Array.from({ length: 150 }, (_, i) => i), { maxLength: 40 }),
        small: fc.constant(null).chain(() => batchOf(sample.slice(0, 150))),
        at: fc.double({ min: 0, max: 1, noNaN: true }),
        retitle: fc.boolean(),
      })
      .map(({ fresh, from, replaced, small, at, retitle }): PaperChange[] => {
        const upserts: PaperChange[] = sample.slice(from, from + fresh).map((paper, i) => ({
          op: 'upsert',
          paper: { ...paper, id: `bulk-${i % (fresh - 7)}`, ...(retitle && i % 3 === 0 ? { title: `bulk learning ${i}` } : {}) },
        }));
        for (const i of replaced) upserts.push({ op: 'upsert', paper: { ...sample[i]!, title: `replaced in bulk ${i}` } });
        const cut = Math.floor(at * upserts.length);
        return [...upserts.slice(0, cut), ...small, ...upserts.slice(cut)];
      });

  const plans = () => fc.tuple(fc.array(batchOf(sample.slice(0, 150)), { maxLength: 2 }), largeBatch(), fc.array(fc.oneof(batchOf(sample.slice(0, 150)), largeBatch()), { maxLength: 2 }));

  async function check(memory: MemorySource & { merged?(): Promise<void> }, batches: PaperChange[][], label: string) {
    const base = sample.slice(0, 150);
    const scan = createScanSource(base, { annotations: notes });
    for (const batch of batches) {
      const [got, want] = await Promise.all([memory.write(batch), scan.write(batch)]);
      expect(got, `${label}: counts`).toEqual(want);
    }
    expect(memory.size).toBe(finalCatalogue(base, batches).length);
    await expectSameAnswers(memory, scan, label, batches.length);
    await memory.merged?.();
    await expectSameAnswers(memory, scan, `${label}, merges done`, batches.length + 1);
    for (const id of ['bulk-0', 'bulk-5', 'new-1', 'absent', sample[0]!.id, sample[3]!.id]) {
      expect(jsonOf(await memory.get(id)), `get ${id}`).toEqual(jsonOf(await scan.get(id)));
      expect(await memory.annotations(id), `annotations of ${id}`).toEqual(await scan.annotations(id));
    }
  }

  it('on the calling thread', { timeout: 300_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(plans(), async ([before, large, after]) => {
        const memory = createMemorySource(sample.slice(0, 150), { annotations: notes, merges: { maxDeltaShare: 100, maxDeltas: 3 } });
        await check(memory, [...before, large, ...after], 'in thread');
      }),
      { numRuns: 6, seed: 1711 },
    );
  });

  it('on two delta threads, with query threads', { timeout: 300_000 }, async () => {
    const memory = createNodeMemorySource(sample.slice(0, 150), { annotations: notes, threads: 2, merges: { maxDeltaShare: 100, maxDeltas: 3 } });
    try {
      await fc.assert(
        fc.asyncProperty(plans(), async ([before, large, after]) => {
          // One source for every run (its threads start once): each run starts from the base again.
          memory.replace(sample.slice(0, 150), notes);
          await check(memory, [...before, large, ...after], 'threads');
        }),
        { numRuns: 4, seed: 1712 },
      );
    } finally {
      await memory.close();
    }
  });
});
