/**
 * The papers of a window as one buffer: their JSON joined by commas (what a response's
 * `results` array holds), and where each starts (each one's id is read from its JSON only if
 * asked: most answers never ask, and the strings would be copied between threads). An ordinary buffer, not the
 * store's shared memory: it can be handed to a response, or transferred from a query thread
 * without a copy.
 */
export interface PageJson {
  /**
   * A view of its own buffer, which has {@link PAGE_ROOM_BEFORE} free bytes before the view and
   * {@link PAGE_ROOM_AFTER} after it: the handler writes the rest of the body there instead of
   * copying the page into a new one.
   */
  json: Uint8Array;
  /** Paper `i` is `json[starts[i], starts[i + 1] - 1)` (the byte before the next start is a comma, or the end). */
  starts: Uint32Array;
}

/** Room for `{"count":…,"next":"…","previous":"…","results":[` (two links: longer ones are copied instead). */
export const PAGE_ROOM_BEFORE = 1024;
/** Room for `]}` and a small `"facets"` object. */
export const PAGE_ROOM_AFTER = 256;

/**
 * Gathers the JSON of `k` papers, paper `i` being `jsonOf(i)` (a view of a store: it is copied),
 * into a buffer from `allocate` (a new one by default; a query thread reuses buffers handed
 * back, see `PageBuffers`). `allocate(bytes)` may answer more bytes than asked: only the
 * view's bytes and its room are written.
 */
export function gatherPageJson(k: number, jsonOf: (i: number) => Uint8Array, allocate: (bytes: number) => Uint8Array = newBuffer): PageJson {
  const papers = new Array<Uint8Array>(k);
  let total = k > 0 ? k - 1 : 0;
  for (let i = 0; i < k; i++) total += (papers[i] = jsonOf(i)).byteLength;
  const buffer = allocate(PAGE_ROOM_BEFORE + total + PAGE_ROOM_AFTER);
  const json = buffer.subarray(PAGE_ROOM_BEFORE, PAGE_ROOM_BEFORE + total);
  const starts = new Uint32Array(k + 1);
  let at = 0;
  for (let i = 0; i < k; i++) {
    if (i > 0) json[at++] = 0x2c;
    starts[i] = at;
    const paper = papers[i]!;
    json.set(paper, at);
    at += paper.byteLength;
  }
  starts[k] = at + 1;
  return { json, starts };
}

function newBuffer(bytes: number): Uint8Array {
  return new Uint8Array(bytes);
}
