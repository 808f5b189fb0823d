import { beforeAll, describe, expect, it } from 'vitest';
import { buildIndex } from '../../src/memory/build-index.js';
import { warmUpWritePath } from '../../src/memory/write-path-warm-up.js';
import type { Paper } from '../../src/paper.js';
import { loadSamplePapers } from '../../src/sample.js';
import { catalogueSize, wholeSegment, withDeleted, type Segment } from '../../src/segments/segment.js';

/** The write path's warm-up plans a made-up batch over the real segments and changes nothing. */
describe('the write path warm-up', () => {
  let sample: Paper[];
  beforeAll(async () => {
    sample = await loadSamplePapers();
  });

  it('plans new papers, replacements, one unchanged paper and an absent delete, leaving the segments as they were', () => {
    const base = buildIndex(sample.slice(0, 500));
    const segments: Segment[] = [withDeleted(wholeSegment(base), [7]), wholeSegment(buildIndex(sample.slice(500, 520)))];
    const live = segments.map((segment) => segment.live);
    const plan = warmUpWritePath(segments, 2, 100)!;
    expect(plan.results).toEqual([{ created: 50, updated: 50, deleted: 0 }]);
    // The paper upserted as it is stored is no change; the absent delete neither.
    expect(plan.combined.size).toBe(99);
    expect(plan.papers).toHaveLength(99);
    expect(segments.map((segment) => segment.live)).toEqual(live);
    expect(catalogueSize(segments)).toBe(519);
  });

  it('does nothing on an empty catalogue', () => {
    expect(warmUpWritePath([wholeSegment(buildIndex([]))], 0)).toBeNull();
  });
});
