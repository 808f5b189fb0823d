import { beforeAll, describe, expect, it } from 'vitest';
import type { IndexData } from '../../src/engine/builder.js';
import { buildIndex } from '../../src/memory/build-index.js';
import { MAX_MERGES_AT_ONCE, MERGE_ANYWAY_PAST, SegmentMerger } from '../../src/memory/segment-merger.js';
import type { Paper } from '../../src/paper.js';
import { loadSamplePapers } from '../../src/sample.js';
import { liveCount, wholeSegment, type Segment } from '../../src/segments/segment.js';

/** A merge the test finishes when it wants: the segments it was asked for, and how to end it. */
interface Asked {
  from: readonly Segment[];
  finish(): void;
}

/** Lets the merges' promises settle (each ends in a few microtasks). */
const settle = () => new Promise((resolve) => setTimeout(resolve, 10));

describe('the segment merger', () => {
  let sample: Paper[];
  beforeAll(async () => {
    sample = (await loadSamplePapers()).slice(0, 60);
  });

  /** A merger over a base and `deltas` one-paper deltas, whose merges wait for the test. */
  function setUp(deltas: number) {
    let writing = false;
    let segments: Segment[] = [wholeSegment(buildIndex(sample.slice(0, 20))), ...sample.slice(20, 20 + deltas).map((paper) => wholeSegment(buildIndex([paper])))];
    const asked: Asked[] = [];
    const merger = new SegmentMerger(
      {
        current: () => segments,
        epoch: () => 0,
        build: (from) =>
          new Promise<IndexData>((resolve) => {
            const papers = from.flatMap((segment) => Array.from({ length: segment.index.n }, (_, d) => segment.index.store.paper(d)));
            asked.push({ from, finish: () => resolve(buildIndex(papers)) });
          }),
        install: (next) => (segments = [...next]),
        failed: (error) => {
          throw error;
        },
        writing: () => writing,
      },
      // Deltas are merged once more than two follow the last merging one; never a full merge.
      { maxDeltaShare: 1e9, maxDeltas: 2 },
    );
    return {
      merger,
      asked,
      segments: () => segments,
      add: (paper: Paper) => segments.push(wholeSegment(buildIndex([paper]))),
      setWriting: (now: boolean) => (writing = now),
    };
  }

  it(`runs at most ${MAX_MERGES_AT_ONCE} merges at once, and plans the next over the segments as they are when one ends`, async () => {
    const { merger, asked, segments, add } = setUp(3);
    merger.written([]);
    // Not in the write's own turn: a merge starts on a later one.
    expect(asked).toHaveLength(0);
    await settle();
    expect(asked).toHaveLength(1);
    // Deltas keep coming while the first merge runs: a second merge of the newest starts, then no third.
    for (const [from, to] of [
      [23, 26],
      [26, 35],
    ] as const) {
      for (const paper of sample.slice(from, to)) {
        add(paper);
        merger.written([paper.id]);
      }
      await settle();
    }
    expect(asked).toHaveLength(MAX_MERGES_AT_ONCE);
    const waiting = segments().length;
    asked[0]!.finish();
    await settle();
    // The first merge is in: one more starts, over the deltas that piled up meanwhile (more than the policy's three).
    expect(asked).toHaveLength(MAX_MERGES_AT_ONCE + 1);
    expect(segments().length).toBeLessThan(waiting);
    expect(asked[2]!.from.length).toBeGreaterThan(3);
    // The rest end, and whatever they make due after them.
    for (let finished = 1; finished < asked.length; ) {
      while (finished < asked.length) asked[finished++]!.finish();
      await settle();
    }
    await merger.idle();
    // Every paper is still served exactly once.
    expect(segments().reduce((n, segment) => n + liveCount(segment), 0)).toBe(35);
  });

  it('starts no merge while a write is applied, and starts it once the writes settle', async () => {
    const { merger, asked, setWriting } = setUp(3);
    setWriting(true);
    merger.written([]);
    await settle();
    expect(asked).toHaveLength(0);
    let idle = false;
    void merger.idle().then(() => (idle = true));
    await settle();
    // A merge is due: the source is not idle of merges yet.
    expect(idle).toBe(false);
    setWriting(false);
    merger.writesSettled();
    await settle();
    expect(asked).toHaveLength(1);
    asked[0]!.finish();
    await settle();
    expect(idle).toBe(true);
  });

  it(`merges while writes never pause once the deltas pass ${MERGE_ANYWAY_PAST} times maxDeltas`, async () => {
    // maxDeltas is 2: up to four deltas wait for the writes; a fifth starts a merge anyway.
    const { merger, asked, add, setWriting } = setUp(3);
    setWriting(true);
    merger.written([]);
    add(sample[40]!);
    merger.written([sample[40]!.id]);
    await settle();
    expect(asked).toHaveLength(0);
    add(sample[41]!);
    merger.written([sample[41]!.id]);
    await settle();
    expect(asked).toHaveLength(1);
    asked[0]!.finish();
    await settle();
    await merger.idle();
  });

  it('resolves idle at once when nothing was written', async () => {
    const { merger } = setUp(3);
    await expect(merger.idle()).resolves.toBeUndefined();
  });
});
