import { describe, expect, it } from 'vitest';
import { buildIndex } from '../../src/memory/build-index.js';
import { nextMerge } from '../../src/segments/merge-policy.js';
import { wholeSegment, withDeleted, type Segment } from '../../src/segments/segment.js';
import { makePaper } from '../make-paper.js';

/** A segment of `n` papers (ids unique across calls), with `deleted` of them masked out. */
let counter = 0;
function segment(n: number, deleted = 0): Segment {
  const index = buildIndex(Array.from({ length: n }, () => makePaper({ id: `p${counter++}` })));
  return withDeleted(wholeSegment(index), Array.from({ length: deleted }, (_, d) => d));
}

const policy = { maxDeltaShare: 0.1, maxDeltas: 2 };

describe('nextMerge', () => {
  it.each([
    { name: 'a lone whole base: nothing', sizes: [[100, 0]], busy: [], want: null },
    { name: 'deltas within the share: nothing', sizes: [[100, 0], [5, 0], [5, 0]], busy: [], want: null },
    { name: 'deltas past the share: everything', sizes: [[100, 0], [5, 0], [6, 0]], busy: [], want: [0, 3] },
    { name: 'deletions from the base count too', sizes: [[100, 11]], busy: [], want: [0, 1] },
    { name: 'more deltas than allowed: the deltas', sizes: [[1000, 0], [1, 0], [1, 0], [1, 0]], busy: [], want: [1, 4] },
    { name: 'the base busy: the deltas after the busy run', sizes: [[1000, 0], [1, 0], [1, 0], [1, 0], [1, 0]], busy: [0, 1], want: [2, 5] },
    { name: 'the base busy, few deltas after: nothing', sizes: [[100, 0], [50, 0], [1, 0], [1, 0]], busy: [0, 1], want: null },
    { name: 'a busy delta stops the full merge before it', sizes: [[100, 0], [20, 0], [1, 0]], busy: [2], want: [0, 2] },
    // Tiers: a large delta is not merged again with small ones written after it.
    { name: 'more deltas than allowed after a large one: the small ones', sizes: [[1000, 0], [50, 0], [1, 0], [1, 0]], busy: [], want: [2, 4] },
    { name: 'a tier carries into the next when it caught up', sizes: [[1000, 0], [8, 0], [4, 0], [2, 0], [1, 0], [1, 0]], busy: [], want: [1, 6] },
    { name: 'a tier stops at an older delta larger than the newer ones together', sizes: [[1000, 0], [20, 0], [4, 0], [2, 0], [1, 0], [1, 0]], busy: [], want: [2, 6] },
    { name: 'tiers stay after the busy run', sizes: [[1000, 0], [1, 0], [1, 0], [1, 0], [1, 0], [1, 0]], busy: [1, 2], want: [3, 6] },
  ])('$name', ({ sizes, busy, want }) => {
    const segments = sizes.map(([n, deleted]) => segment(n!, deleted));
    const busyIds = new Set(busy.map((s) => segments[s]!.id));
    expect(nextMerge(segments, (s) => busyIds.has(s.id), policy)).toEqual(want);
  });
});

describe('the merges option', () => {
  it.each([{ maxDeltaShare: 0 }, { maxDeltaShare: Number.NaN }, { maxDeltas: 0 }, { maxDeltas: 1.5 }])('refuses %o at construction', async (merges) => {
    const { createMemorySource } = await import('../../src/index.js');
    expect(() => createMemorySource([], { merges })).toThrow(/merges\.maxDelta/);
  });
});
