import { liveCount, type Segment } from './segment.js';

/**
 * When the memory source folds segments together (see `SegmentMerger`). Exported as
 * `MemorySourceOptions.merges`.
 */
export interface MergePolicy {
  /**
   * The base is merged with every delta (a full build, on a worker thread with
   * `@paperlist/core/node`) once the papers in deltas plus those deleted from the base exceed
   * this share of the base. Default 0.02.
   */
  maxDeltaShare?: number;
  /**
   * Past this many deltas, the newest ones of about the same size are merged into one (tiers:
   * each paper is merged again only when the deltas written after it have caught up with it).
   * Default 8.
   */
  maxDeltas?: number;
}

/** Defaults of {@link MergePolicy}. */
export const DEFAULT_MERGE_POLICY: Required<MergePolicy> = { maxDeltaShare: 0.02, maxDeltas: 8 };

/**
 * The run of segments to merge next, as `[from, to)` positions, or `null`. `busy` tells the
 * segments a merge is already building from (they cannot be in another). Two kinds of merge:
 * - full: the base and the deltas after it (up to the first busy one), when the deltas' papers
 *   and the base's deleted documents outgrow `maxDeltaShare` of the base: queries then cost
 *   one index again, and the base's deleted documents are dropped;
 * - deltas: when more than `maxDeltas` deltas follow the last busy segment, the newest of them
 *   (see `tailTier`), so that merges of deltas cost about the papers written times the number of
 *   tiers, not the papers written times the merges (merging every delta again each time was
 *   quadratic in a long stream of small batches, and took the cores the queries needed).
 */
export function nextMerge(segments: readonly Segment[], busy: (segment: Segment) => boolean, policy: Required<MergePolicy>): [number, number] | null {
  const base = segments[0];
  if (base === undefined) return null;
  if (!busy(base)) {
    let end = 1;
    while (end < segments.length && !busy(segments[end]!)) end++;
    let changed = base.index.n - liveCount(base);
    for (let s = 1; s < end; s++) changed += segments[s]!.index.n;
    if (changed > 0 && changed > policy.maxDeltaShare * liveCount(base)) return [0, end];
  }
  let start = segments.length;
  while (start > 1 && !busy(segments[start - 1]!)) start--;
  if (segments.length - start > policy.maxDeltas) return [tailTier(segments, start), segments.length];
  return null;
}

/**
 * Where the merge of the deltas `[first, end)` starts: the newest two, then each older delta
 * no larger than the ones after it together (a binary counter's carry: a delta is merged
 * again only once as many papers were written after it).
 */
function tailTier(segments: readonly Segment[], first: number): number {
  let start = segments.length - 2;
  let total = segments[start]!.index.n + segments[start + 1]!.index.n;
  while (start > first && segments[start - 1]!.index.n <= total) {
    start--;
    total += segments[start]!.index.n;
  }
  return start;
}
