import type { PaperStore } from './paper-store.js';
import { readJsonString } from './paper-store.js';

/**
 * The papers of a window as one buffer: their JSON joined by commas (what a response's
 * `results` array holds), where each starts, and their ids. An ordinary buffer, not the
 * store's shared memory: it can be handed to a response, or transferred from a query thread
 * without a copy.
 */
export interface PageJson {
  json: Uint8Array;
  /** Paper `i` is `json[starts[i], starts[i + 1] - 1)` (the byte before the next start is a comma, or the end). */
  starts: Uint32Array;
  ids: string[];
}

/** Gathers the JSON of documents `docs` (in that order). */
export function pageJson(store: PaperStore, docs: Uint32Array): PageJson {
  const k = docs.length;
  let total = k > 0 ? k - 1 : 0;
  for (let i = 0; i < k; i++) total += store.length[docs[i]!]!;
  const json = new Uint8Array(total);
  const starts = new Uint32Array(k + 1);
  const ids = new Array<string>(k);
  let at = 0;
  for (let i = 0; i < k; i++) {
    if (i > 0) json[at++] = 0x2c;
    starts[i] = at;
    const paper = store.json(docs[i]!);
    json.set(paper, at);
    ids[i] = readJsonString(paper, 6);
    at += paper.byteLength;
  }
  starts[k] = at + 1;
  return { json, starts, ids };
}
