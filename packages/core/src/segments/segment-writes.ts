import type { AnnotationMap, PaperAnnotations } from '../annotations/annotations.js';
import type { IndexData } from '../engine/builder.js';
import { serializePaper, type Paper } from '../paper.js';
import { jsonStringIs, type PaperStore } from '../engine/paper-store.js';
import { findLive, isLive, wholeSegment, withDeleted, type LiveFinder, type Segment } from './segment.js';

/**
 * A write batch as it reaches the segments: every id it touches with the paper that id ends
 * with (`null`: deleted), net of the batch's own repetitions (see `netChanges`).
 */
export type NetChanges = ReadonlyMap<string, Paper | null>;

/**
 * Removes the entries that leave the catalogue as it is: deletes of absent ids, upserts of papers
 * stored exactly as they are (so that such a batch changes nothing, its version included).
 */
export function dropUnchanged(changes: Map<string, Paper | null>, segments: readonly Segment[], find: LiveFinder = (id) => findLive(segments, id)): void {
  for (const [id, paper] of changes) {
    const found = find(id);
    if (paper === null ? found === null : found !== null && storedAs(segments[found.s]!.index.store, found.d, paper)) changes.delete(id);
  }
}

/** Whether document `d` of `store` is stored exactly as `paper` would be. */
function storedAs(store: PaperStore, d: number, paper: Paper): boolean {
  const json = store.json(d);
  // Most replacements change the title: serializing the paper to find that out costs more than
  // the rest of its write, and decoding the stored title (1M papers: 5 ms a batch of 1,000) more than comparing its bytes.
  if (!jsonStringIs(json, store.titleAt[d]!, paper.title)) return false;
  return sameBytes(json, utf8.encode(serializePaper(paper)));
}

/** The papers a batch stores, in the order first written, with the tasks and methods they keep (by id) from their current copy. */
export function deltaPapers(changes: NetChanges, segments: readonly Segment[], find: LiveFinder = (id) => findLive(segments, id)): { papers: Paper[]; annotations: AnnotationMap } {
  const papers: Paper[] = [];
  const annotations = new Map<string, PaperAnnotations>();
  for (const [id, paper] of changes) {
    if (paper === null) continue;
    papers.push(paper);
    const found = find(id);
    const kept = found === null ? undefined : segments[found.s]!.index.annotations.get(found.d);
    if (kept !== undefined) annotations.set(id, kept);
  }
  return { papers, annotations };
}

/**
 * The segments after a batch: the current copy of every id it touches is masked out of its
 * segment, and `deltas` (the indexes of the batch's stored papers, none, one or two: see
 * `deltaParts`) are added as the newest, in order.
 */
export function segmentsAfter(segments: readonly Segment[], changes: NetChanges, deltas: readonly IndexData[], find: LiveFinder = (id) => findLive(segments, id)): Segment[] {
  const deleted = segments.map((): number[] => []);
  for (const id of changes.keys()) {
    const found = find(id);
    if (found !== null) deleted[found.s]!.push(found.d);
  }
  const next = segments.map((segment, s) => withDeleted(segment, deleted[s]!));
  for (const delta of deltas) if (delta.n > 0) next.push(wholeSegment(delta));
  return next;
}

/**
 * The live papers of `segments`, one segment after the other, with their tasks and methods:
 * what a merge builds its index from.
 */
export function* livePapers(segments: readonly Segment[]): Generator<{ paper: Paper; annotations: PaperAnnotations | undefined }> {
  for (const segment of segments) {
    const { index } = segment;
    for (let d = 0; d < index.n; d++) {
      if (!isLive(segment, d)) continue;
      yield { paper: index.store.paper(d), annotations: index.annotations.get(d) };
    }
  }
}

/**
 * Puts a merge's result in place of the segments it was built from. `merged` holds the papers
 * live in `from` (a run of consecutive segments) when the merge started; the ids written since
 * (`touched`) are masked out of it, so a paper replaced or removed meanwhile stays replaced or
 * removed. Answers `null` when `from` is no longer a run of `segments` (the catalogue was
 * replaced, or another merge took some of them): the merge is then dropped.
 */
export function segmentsWithMerge(segments: readonly Segment[], from: readonly Segment[], merged: IndexData, touched: Iterable<string>): Segment[] | null {
  const first = segments.findIndex((segment) => segment.id === from[0]?.id);
  if (first < 0 || from.some((segment, i) => segments[first + i]?.id !== segment.id)) return null;
  const gone: number[] = [];
  for (const id of touched) {
    const d = merged.store.findId(id);
    if (d >= 0) gone.push(d);
  }
  const replacement = withDeleted(wholeSegment(merged), gone);
  const next = [...segments.slice(0, first), ...(merged.n > 0 || first === 0 ? [replacement] : []), ...segments.slice(first + from.length)];
  return next;
}

const utf8 = new TextEncoder();

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
