import { gatherPageJson, type PageJson } from '../engine/page-json.js';
import type { Segment } from './segment.js';
import type { SegmentHits } from './segmented-engine.js';

/** Gathers the JSON of a window's hits, in order, from their segments' stores (into a buffer from `allocate`, see `gatherPageJson`). */
export function segmentedPageJson(segments: readonly Segment[], hits: SegmentHits, allocate?: (bytes: number) => Uint8Array): PageJson {
  return gatherPageJson(hits.docs.length, (i) => segments[hits.segments[i]!]!.index.store.json(hits.docs[i]!), allocate);
}
