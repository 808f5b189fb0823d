import type { PageJson } from '../engine/page-json.js';
import { readJsonString } from '../engine/paper-store.js';
import type { Segment } from './segment.js';
import type { SegmentHits } from './segmented-engine.js';

/** Gathers the JSON of a window's hits, in order, from their segments' stores (`pageJson` over segments). */
export function segmentedPageJson(segments: readonly Segment[], hits: SegmentHits): PageJson {
  const k = hits.docs.length;
  const jsonOf = (i: number) => segments[hits.segments[i]!]!.index.store.json(hits.docs[i]!);
  let total = k > 0 ? k - 1 : 0;
  for (let i = 0; i < k; i++) total += jsonOf(i).byteLength;
  const json = new Uint8Array(total);
  const starts = new Uint32Array(k + 1);
  const ids = new Array<string>(k);
  let at = 0;
  for (let i = 0; i < k; i++) {
    if (i > 0) json[at++] = 0x2c;
    starts[i] = at;
    const paper = jsonOf(i);
    json.set(paper, at);
    ids[i] = readJsonString(paper, 6);
    at += paper.byteLength;
  }
  starts[k] = at + 1;
  return { json, starts, ids };
}
