import type { PaperPage, PaperQuery, PaperSource } from '@paperlist/core';

/** Free bytes kept before and after each page: as much as the memory source's pages have (core's `PAGE_ROOM_BEFORE`/`_AFTER`). */
const ROOM_BEFORE = 1024;
const ROOM_AFTER = 256;

/**
 * A source that answers every list at once with one of `pages` (real answers, taken in turn),
 * each in a buffer of its own that the handler writes the body around and hands back when the
 * response is written, as the memory source's query threads do. The load benchmark serves it
 * through the same app as the real source: what that costs is the HTTP path alone (parsing,
 * routing, links, headers, writing), the ceiling a faster engine could reach.
 *
 * Buffers are reused once released, never while a response still holds them; a fresh 54 KB
 * buffer per answer would add its page faults (about 180 µs an answer on a VM where a fresh page
 * costs 11 µs) and measure the allocator instead.
 */
export function instantSource(pages: readonly PaperPage[]): PaperSource {
  if (pages.length === 0) throw new Error('instantSource needs at least one page');
  const free = pages.map(() => [] as Uint8Array[]);
  let next = 0;
  return {
    async list(_query: PaperQuery): Promise<PaperPage> {
      const i = next++ % pages.length;
      const page = pages[i]!;
      const json = page.resultsJson!;
      const buffer = free[i]!.pop() ?? new Uint8Array(ROOM_BEFORE + json.byteLength + ROOM_AFTER);
      buffer.set(json, ROOM_BEFORE);
      let released = false;
      return {
        count: page.count,
        results: page.results,
        resultsJson: buffer.subarray(ROOM_BEFORE, ROOM_BEFORE + json.byteLength),
        resultsJsonOwned: true,
        release: () => {
          if (released) return;
          released = true;
          free[i]!.push(buffer);
        },
      };
    },
    async get() {
      return null;
    },
    version: () => 'instant',
  };
}
