import type { DocSet } from '../engine/doc-set.js';
import { popcount32 } from '../engine/bits.js';
import type { RelevanceWeights } from '../engine/relevance.js';
import { termWeight, type FieldLengths } from '../search/relevance.js';
import { lengthTotals } from './length-totals.js';
import type { LiveDocs, Segment } from './segment.js';

/**
 * BM25's collection statistics over the live documents of every segment, so that a catalogue
 * in segments scores exactly as one index of its papers (and the scan source) does: N is the
 * papers served, a term's document frequency the live documents it matches in all segments, and
 * the mean field lengths are the live documents' summed lengths over N (integer sums divided
 * once, as a build does).
 */
export function liveWeights(segments: readonly Segment[], termSets: readonly (readonly DocSet[])[], n: number): RelevanceWeights {
  const totals: FieldLengths = { title: 0, abstract: 0, authors: 0 };
  for (const segment of segments) {
    const t = liveLengthTotals(segment);
    totals.title += t.title;
    totals.abstract += t.abstract;
    totals.authors += t.authors;
  }
  const count = Math.max(n, 1);
  const averages: FieldLengths = { title: totals.title / count, abstract: totals.abstract / count, authors: totals.authors / count };
  const terms = termSets[0]?.length ?? 0;
  const idfs: number[] = [];
  for (let t = 0; t < terms; t++) {
    let df = 0;
    segments.forEach((segment, s) => (df += liveSize(termSets[s]![t]!, segment.live)));
    idfs.push(termWeight(n, df));
  }
  return { idfs, averages };
}

/** |set ∩ live| without making the intersection. */
export function liveSize(set: DocSet, live: LiveDocs | null): number {
  if (live === null) return set.kind === 'all' ? set.size : set.kind === 'list' ? set.docs.length : set.count;
  if (set.kind === 'all') return live.count;
  const bits = live.bits;
  let count = 0;
  if (set.kind === 'list') {
    for (const d of set.docs) if ((bits[d >>> 5]! & (1 << (d & 31))) !== 0) count++;
  } else {
    const other = set.bits;
    for (let i = 0; i < bits.length; i++) {
      const v = bits[i]! & other[i]!;
      if (v !== 0) count += popcount32(v);
    }
  }
  return count;
}

/** The field lengths summed over a segment's live documents. */
function liveLengthTotals(segment: Segment): FieldLengths {
  return segment.live === null ? lengthTotals(segment.index) : segment.live.lengths;
}
