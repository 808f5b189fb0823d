import type { IndexData } from '../engine/builder.js';
import { bitsSet, type DocSet } from '../engine/doc-set.js';
import { bitsetWords, hasBit } from '../engine/bits.js';
import { uint32Array } from '../engine/alloc.js';
import { idKey } from '../engine/paper-store.js';
import type { FieldLengths } from '../search/relevance.js';
import { lengthTotals } from './length-totals.js';

/** The documents of a segment still served: a bitset over its documents and their number. */
export interface LiveDocs {
  /** Bit `d` set: document `d` is served. In shared memory, and never changed once made (a deletion makes a new one). */
  readonly bits: Uint32Array;
  readonly count: number;
  /**
   * The field lengths summed over the live documents (BM25's mean lengths, see `liveWeights`):
   * kept up to date by each deletion, so no query thread sums them again over the whole bitset
   * for every new generation.
   */
  readonly lengths: Readonly<FieldLengths>;
}

/**
 * One index of a catalogue served in segments (Lucene's model): an immutable {@link IndexData}
 * and which of its documents are still live. The first segment of a catalogue is its base (the
 * last full build); the others are deltas, each built from one write batch's papers (or from a
 * merge of earlier deltas), newest last. A paper replaced or removed after its segment was built
 * is masked out of it; every live paper is live in exactly one segment.
 */
export interface Segment {
  /** Unique within a process: how query threads keep a segment's index between generations. */
  readonly id: number;
  readonly index: IndexData;
  /** `null`: every document is live. */
  readonly live: LiveDocs | null;
}

let nextSegmentId = 1;

/** A segment of `index` with every document live. */
export function wholeSegment(index: IndexData): Segment {
  return { id: nextSegmentId++, index, live: null };
}

/** Documents served by a segment. */
export function liveCount(segment: Segment): number {
  return segment.live === null ? segment.index.n : segment.live.count;
}

/** The segment's live documents as a set to intersect with, or `null` when all are live. */
export function liveSet(segment: Segment): DocSet | null {
  return segment.live === null ? null : bitsSet(segment.live.bits, segment.live.count);
}

/** Whether document `d` of the segment is served. */
export function isLive(segment: Segment, d: number): boolean {
  return segment.live === null || hasBit(segment.live.bits, d);
}

/**
 * The segment with documents `docs` deleted too (the same segment when none of them was live).
 * The live bitset is copied, never changed: a query running on the previous generation keeps
 * seeing its own.
 */
export function withDeleted(segment: Segment, docs: Iterable<number>): Segment {
  const { n } = segment.index;
  let bits: Uint32Array | null = null;
  let count = liveCount(segment);
  const lengths: FieldLengths = { ...(segment.live?.lengths ?? lengthTotals(segment.index)) };
  const gone: FieldLengths = { title: 0, abstract: 0, authors: 0 };
  for (const d of docs) {
    if (!isLive(segment, d)) continue;
    if (bits === null) {
      bits = uint32Array(bitsetWords(n));
      if (segment.live !== null) bits.set(segment.live.bits);
      else fillAll(bits, n);
    }
    if (!hasBit(bits, d)) continue;
    bits[d >>> 5]! &= ~(1 << (d & 31));
    count--;
    segment.index.layout.lengthsOf(d, gone);
    lengths.title -= gone.title;
    lengths.abstract -= gone.abstract;
    lengths.authors -= gone.authors;
  }
  return bits === null ? segment : { id: segment.id, index: segment.index, live: { bits, count, lengths } };
}

function fillAll(bits: Uint32Array, n: number): void {
  bits.fill(0xffffffff);
  if ((n & 31) !== 0) bits[bits.length - 1] = (1 << (n & 31)) - 1;
}

/** The newest live copy of the paper `id`: its segment's position in `segments` and its document, or `null`. */
export function findLive(segments: readonly Segment[], id: string): { s: number; d: number } | null {
  // The id is encoded once for all the segments' tables (a catalogue written to has many).
  const key = idKey(id);
  for (let s = segments.length - 1; s >= 0; s--) {
    const segment = segments[s]!;
    const d = segment.index.store.findIdKey(key);
    if (d >= 0 && isLive(segment, d)) return { s, d };
  }
  return null;
}

/** Papers served by a catalogue of segments. */
export function catalogueSize(segments: readonly Segment[]): number {
  let total = 0;
  for (const segment of segments) total += liveCount(segment);
  return total;
}

/** Where the live copy of an id is (see {@link findLive}). */
export type LiveFinder = (id: string) => { s: number; d: number } | null;

/**
 * {@link findLive} over one list of segments, remembered per id: applying a batch looks each of
 * its ids up several times (its counts, unchanged papers, kept annotations, the copies to mask).
 */
export function liveFinder(segments: readonly Segment[]): LiveFinder {
  const found = new Map<string, { s: number; d: number } | null>();
  return (id) => {
    let at = found.get(id);
    if (at === undefined) found.set(id, (at = findLive(segments, id)));
    return at;
  };
}
