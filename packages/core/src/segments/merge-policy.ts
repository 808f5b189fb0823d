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
  /** The newest deltas are merged into one once there are more than this many of them. Default 8. */
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
 * - deltas: the deltas after the last busy segment, when there are more than `maxDeltas` of
 *   them (a full merge takes minutes at a million papers, while writes keep adding deltas).
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
  if (segments.length - start > policy.maxDeltas) return [start, segments.length];
  return null;
}
