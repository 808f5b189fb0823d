import type { Paper } from '../paper.js';

/** Stored papers from which a batch's delta is built as two segments (see {@link deltaParts}). */
export const SPLIT_DELTA_FROM = 512;

/**
 * A batch's stored papers as the delta indexes to build, in order: one, or two halves once the
 * batch has `splitFrom` papers or more. The Node source builds the halves at the same time on
 * two delta threads: a batch of 1,000 waited for one thread building 1,000 papers while the
 * other core was idle. Small batches (a stream's) stay one segment: the queries then have fewer
 * segments to go through, and a second thread would only add its message hops. The split
 * depends on the batch alone, not on the threads a source has, so every source (with threads
 * or not) makes the same segments from the same writes and gives them the same version.
 */
export function deltaParts(papers: readonly Paper[], splitFrom = SPLIT_DELTA_FROM): (readonly Paper[])[] {
  if (papers.length === 0) return [];
  if (papers.length < splitFrom) return [papers];
  const half = Math.ceil(papers.length / 2);
  return [papers.slice(0, half), papers.slice(half)];
}
