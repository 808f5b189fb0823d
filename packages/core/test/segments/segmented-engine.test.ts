import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { createScanSource, netChanges, type Paper, type PaperChange, type PaperPage, type PaperQuery, type PaperSource, EncodedPaper } from '../../src/index.js';
import type { AnnotationMap } from '../../src/annotations/annotations.js';
import { buildIndex } from '../../src/memory/build-index.js';
import { findLive, wholeSegment, type Segment } from '../../src/segments/segment.js';
import { deltaPapers, dropUnchanged, livePapers, segmentsAfter, segmentsWithMerge } from '../../src/segments/segment-writes.js';
import { SegmentedEngine } from '../../src/segments/segmented-engine.js';
import { deltaParts } from '../../src/segments/delta-split.js';
import { liveWeights } from '../../src/segments/live-weights.js';
import { ownWeights } from '../../src/engine/relevance.js';
import { Engine } from '../../src/engine/engine.js';
import { liveCount, liveSet } from '../../src/segments/segment.js';
import { queryFor } from '@paperlist/conformance';
import { segmentedPageJson } from '../../src/segments/segmented-page.js';
import { loadSamplePapers } from '../../src/sample.js';
import { batchOf, expectSameAnswers, finalCatalogue, jsonOf, sampleAnnotations } from './segment-equivalence.js';

/**
 * The segmented query layer on the calling thread: a base index, a delta index per write batch,
 * deletions masked per segment, and merges of runs of segments started before some batches and
 * finished after them, answer exactly as the scan source of the final catalogue.
 */

/** A PaperSource over segments, for the shared comparison. */
function sourceOver(segments: () => readonly Segment[]): PaperSource {
  return {
    async list(query: PaperQuery): Promise<PaperPage> {
      const current = segments();
      const { count, hits, facets } = new SegmentedEngine(current).window(query, { deadline: Infinity });
      const page = segmentedPageJson(current, hits);
      const results = Array.from(hits.docs, (_, i) => new EncodedPaper(undefined, page.json.subarray(page.starts[i]!, page.starts[i + 1]! - 1)));
      return facets === undefined ? { count, results } : { count, results, facets };
    },
    async get(id: string) {
      const current = segments();
      const found = findLive(current, id);
      return found === null ? null : current[found.s]!.index.store.encoded(found.d);
    },
  };
}

/** Batches that store this many papers or more become two deltas here (see `deltaParts`), so that both shapes are checked. */
const SPLIT_FROM = 4;

/** Applies a batch the way the memory source does: net changes, delta indexes, deletions. */
function applyBatch(segments: readonly Segment[], changes: readonly PaperChange[]): { segments: readonly Segment[]; touched: string[] } {
  const { final } = netChanges(changes, (id) => findLive(segments, id) !== null);
  dropUnchanged(final, segments);
  if (final.size === 0) return { segments, touched: [] };
  const { papers, annotations } = deltaPapers(final, segments);
  // Deltas as the memory source builds them: their substring and suffix tables made when first read.
  return { segments: segmentsAfter(segments, final, deltaParts(papers, SPLIT_FROM).map((part) => buildIndex(part, annotations, true))), touched: [...final.keys()] };
}

function mergeOf(from: readonly Segment[]) {
  const papers: Paper[] = [];
  const annotations = new Map<string, NonNullable<ReturnType<AnnotationMap['get']>>>();
  for (const { paper, annotations: notes } of livePapers(from)) {
    papers.push(paper);
    if (notes !== undefined) annotations.set(paper.id, notes);
  }
  return buildIndex(papers, annotations);
}

interface Step {
  batch: PaperChange[];
  /** Start a merge of the segments between these fractions of the list (when none is pending). */
  merge: [number, number] | null;
  /** Finish the pending merge after this step's batch. */
  finish: boolean;
}

describe('segments = the scan source of the final catalogue', () => {
  let sample: Paper[];
  let notes: AnnotationMap;
  beforeAll(async () => {
    sample = (await loadSamplePapers()).slice(0, 150);
    notes = sampleAnnotations(sample);
  });

  const steps = () =>
    fc.array(
      fc.record({
        batch: batchOf(sample),
        merge: fc.option(fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true })), { nil: null }),
        finish: fc.boolean(),
      }),
      { minLength: 1, maxLength: 6 },
    );

  it('answers every kind of query as a fresh build after batches and merges in any interleaving', { timeout: 300_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(steps(), async (plan: Step[]) => {
        let segments: readonly Segment[] = [wholeSegment(buildIndex(sample, notes))];
        let pending: { from: Segment[]; merged: ReturnType<typeof mergeOf>; touched: string[] } | null = null;
        const scan = createScanSource(sample, { annotations: notes });
        for (const step of plan) {
          if (step.merge !== null && pending === null) {
            const [a, b] = step.merge.map((x) => Math.floor(x * segments.length)).sort((x, y) => x - y) as [number, number];
            const from = segments.slice(a, Math.min(segments.length, b + 1));
            if (from.length > 0) pending = { from, merged: mergeOf(from), touched: [] };
          }
          const applied = applyBatch(segments, step.batch);
          segments = applied.segments;
          pending?.touched.push(...applied.touched);
          await scan.write(step.batch);
          if (step.finish && pending !== null) {
            segments = segmentsWithMerge(segments, pending.from, pending.merged, pending.touched) ?? segments;
            pending = null;
          }
        }
        const final = finalCatalogue(sample, plan.map((s) => s.batch));
        const source = sourceOver(() => segments);
        expect(new SegmentedEngine(segments).size).toBe(final.length);
        // Relevance scores with the live catalogue's statistics: exactly a fresh build's.
        const fresh = buildIndex(final);
        const live = segments.filter((segment) => liveCount(segment) > 0);
        for (const raw of ['q=learning', 'q=zebra+learning', 'q=%22of+the%22', 'q=a', 'q=moved+network', 'q=the+of+smith']) {
          const query = queryFor(raw);
          const want = ownWeights(fresh, new Engine(fresh).matched(query, null).matches);
          const sets = live.map((segment) => new Engine(segment.index).matched(query, liveSet(segment)).matches.map((m) => m.set));
          expect(liveWeights(live, sets, final.length), `weights of ${raw}`).toEqual(want);
        }
        await expectSameAnswers(source, scan, `${segments.length} segments`, plan.length);
        for (const id of ['new-1', 'new-2', 'absent', sample[0]!.id, sample[1]!.id]) {
          expect(jsonOf(await source.get(id)), `get ${id}`).toEqual(jsonOf(await scan.get(id)));
        }
      }),
      { numRuns: 40, seed: 17 },
    );
  });
});
