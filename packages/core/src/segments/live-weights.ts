import type { DocSet } from '../engine/doc-set.js';
import { popcount32 } from '../engine/bits.js';
import type { IndexData } from '../engine/builder.js';
import type { RelevanceWeights } from '../engine/relevance.js';
import { termWeight, type FieldLengths } from '../search/relevance.js';
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

const indexTotals = new WeakMap<IndexData, FieldLengths>();
const segmentTotals = new WeakMap<LiveDocs, FieldLengths>();

/** The field lengths summed over a segment's live documents (kept per index and per live bitset). */
function liveLengthTotals(segment: Segment): FieldLengths {
  const all = lengthTotals(segment.index);
  const live = segment.live;
  if (live === null) return all;
  let totals = segmentTotals.get(live);
  if (totals !== undefined) return totals;
  totals = { ...all };
  const { layout, n } = segment.index;
  const lengths: FieldLengths = { title: 0, abstract: 0, authors: 0 };
  const bits = live.bits;
  for (let i = 0; i < bits.length; i++) {
    // The deleted documents of this word (bits past n are not documents).
    let deleted = ~bits[i]!;
    if (i === bits.length - 1 && (n & 31) !== 0) deleted &= (1 << (n & 31)) - 1;
    while (deleted !== 0) {
      const t = deleted & -deleted;
      deleted ^= t;
      layout.lengthsOf((i << 5) + 31 - Math.clz32(t), lengths);
      totals.title -= lengths.title;
      totals.abstract -= lengths.abstract;
      totals.authors -= lengths.authors;
    }
  }
  segmentTotals.set(live, totals);
  return totals;
}

/** The field lengths summed over an index's documents (oversize ones from their own table). */
function lengthTotals(index: IndexData): FieldLengths {
  let totals = indexTotals.get(index);
  if (totals !== undefined) return totals;
  const { titleLength, abstractLength, authorsLength, oversizeLengths } = index.layout;
  totals = { title: 0, abstract: 0, authors: 0 };
  for (let d = 0; d < index.n; d++) {
    totals.title += titleLength[d]!;
    totals.abstract += abstractLength[d]!;
    totals.authors += authorsLength[d]!;
  }
  for (let i = 0; i < oversizeLengths.length; i += 3) {
    totals.title += oversizeLengths[i]!;
    totals.abstract += oversizeLengths[i + 1]!;
    totals.authors += oversizeLengths[i + 2]!;
  }
  indexTotals.set(index, totals);
  return totals;
}
