import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemorySource, createScanSource, type MemorySource, type Paper, type PaperChange } from '../../src/index.js';
import { createMemorySource as createNodeMemorySource } from '../../src/node/index.js';
import type { AnnotationMap } from '../../src/annotations/annotations.js';
import { loadSamplePapers } from '../../src/sample.js';
import { batchOf, expectSameAnswers, finalCatalogue, jsonOf, sampleAnnotations } from './segment-equivalence.js';

/**
 * The memory source writing in segments, with merge thresholds so low that merges (of the
 * newest deltas, and of everything into a new base) happen all through the test: after any
 * sequence of batches, while merges run and once they are done, it answers as the scan source
 * of the final catalogue and as a fresh build of it.
 */
const LOW = { maxDeltaShare: 0.03, maxDeltas: 2 };

describe('memory source over segments = the scan source', () => {
  let sample: Paper[];
  let notes: AnnotationMap;
  beforeAll(async () => {
    sample = (await loadSamplePapers()).slice(0, 150);
    notes = sampleAnnotations(sample);
  });

  async function check(memory: MemorySource & { merged?(): Promise<void> }, batches: PaperChange[][], label: string) {
    const scan = createScanSource(sample, { annotations: notes });
    const writes = batches.map((batch) => memory.write(batch));
    for (const batch of batches) await scan.write(batch);
    // Batches resolve in order; counts are those of the reference.
    expect(await Promise.all(writes)).toEqual(replayCounts(batches));
    const final = finalCatalogue(sample, batches);
    const fresh = createMemorySource(final, { annotations: new Map([...notes].filter(([id]) => final.some((p) => p.id === id))) });
    expect(memory.size).toBe(final.length);
    await expectSameAnswers(memory, scan, `${label}, merges may be running`, batches.length);
    await memory.merged?.();
    await expectSameAnswers(memory, scan, `${label}, merges done`, batches.length + 1);
    await expectSameAnswers(fresh, scan, `fresh build`, batches.length + 2);
    for (const id of ['new-1', 'new-3', 'absent', sample[0]!.id, sample[3]!.id]) {
      expect(jsonOf(await memory.get(id)), `get ${id}`).toEqual(jsonOf(await scan.get(id)));
      expect(await memory.annotations(id), `annotations of ${id}`).toEqual(await scan.annotations(id));
    }
  }

  /** The counts of each batch against the catalogue the batches before it left. */
  function replayCounts(batches: PaperChange[][]) {
    const present = new Set(sample.map((p) => p.id));
    return batches.map((batch) => {
      const result = { created: 0, updated: 0, deleted: 0 };
      for (const change of batch) {
        if (change.op === 'upsert') {
          if (present.has(change.paper.id)) result.updated++;
          else result.created++;
          present.add(change.paper.id);
        } else if (present.delete(change.id)) result.deleted++;
      }
      return result;
    });
  }

  it('on the calling thread', { timeout: 300_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(batchOf(sample), { minLength: 1, maxLength: 8 }), async (batches) => {
        await check(createMemorySource(sample, { annotations: notes, merges: LOW }), batches, 'in thread');
      }),
      { numRuns: 25, seed: 41 },
    );
  });

  describe('with query threads, merges on a build thread', () => {
    it('answers the same while merges run in the background and after', { timeout: 300_000 }, async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(batchOf(sample), { minLength: 2, maxLength: 8 }), async (batches) => {
          const threaded = createNodeMemorySource(sample, { annotations: notes, merges: LOW, threads: 2 });
          try {
            await check(threaded, batches, 'threads');
          } finally {
            await threaded.merged();
            await threaded.close();
          }
        }),
        { numRuns: 6, seed: 43 },
      );
    });
  });

  describe('snapshots of a written catalogue', () => {
    let written: ReturnType<typeof createNodeMemorySource>;
    beforeAll(() => {
      written = createNodeMemorySource(sample, { annotations: notes, merges: { maxDeltaShare: 1, maxDeltas: 100 } });
    });
    afterAll(() => written.close());

    it('saves the catalogue as it is, segments merged into one index', async () => {
      const { mkdtempSync } = await import('node:fs');
      const { tmpdir } = await import('node:os');
      const { join } = await import('node:path');
      const { openMemorySource } = await import('../../src/node/index.js');
      const batches: PaperChange[][] = [
        [{ op: 'upsert', paper: { ...sample[0]!, title: 'Saved after a write' } }, { op: 'delete', id: sample[1]!.id }],
        [{ op: 'upsert', paper: { ...sample[2]!, id: 'new-1' } }],
      ];
      for (const batch of batches) await written.write(batch);
      const path = join(mkdtempSync(join(tmpdir(), 'paperlist-segments-')), 'catalogue.snapshot');
      await written.save(path);
      const opened = await openMemorySource(path);
      try {
        expect(opened.version()).toBe(written.version());
        const scan = createScanSource(sample, { annotations: notes });
        for (const batch of batches) await scan.write(batch);
        await expectSameAnswers(opened, scan, 'snapshot', 3);
      } finally {
        await opened.close();
      }
    });
  });
});
