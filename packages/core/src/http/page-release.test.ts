import { describe, expect, it, vi } from 'vitest';
import { makePaper } from '../../test/make-paper.js';
import { EncodedPaper } from '../encoded-paper.js';
import { serializePaper } from '../paper.js';
import type { PaperPage, PaperSource } from '../source.js';
import { createPapersHandler } from './papers-handler.js';

const utf8 = new TextEncoder();
const papers = Array.from({ length: 5 }, (_, i) => makePaper({ id: `p${i}`, title: `Paper ${i}` }));

/**
 * A source whose every page lies in a buffer of its own with room around it (as the memory
 * source's query threads answer), each with its own `release` spy.
 */
function releasingSource() {
  const pages: { page: PaperPage; release: ReturnType<typeof vi.fn> }[] = [];
  const source: PaperSource = {
    async list(query) {
      const window = papers.slice(query.offset, query.offset + query.limit);
      const json = utf8.encode(window.map(serializePaper).join(','));
      const buffer = new Uint8Array(1024 + json.length + 256);
      const view = buffer.subarray(1024, 1024 + json.length);
      view.set(json);
      const release = vi.fn();
      const results = window.map((paper) => new EncodedPaper(paper.id, utf8.encode(serializePaper(paper))));
      const page: PaperPage = { count: papers.length, results, resultsJson: view, resultsJsonOwned: true, release };
      pages.push({ page, release });
      return page;
    },
    get: async () => null,
  };
  return { source, pages };
}

describe('a page the source reuses goes back to it once the handler is done with it', () => {
  // [request, status, whether the body lies in the page's buffer (then released after writing)]
  it.each([
    ['/papers/?items_per_page=2', 200, true],
    ['/papers/?items_per_page=2&page=2', 200, true],
    ['/papers/?items_per_page=2&page=last', 200, true],
    ['/papers/?items_per_page=2&fields=id,title', 200, false],
    ['/papers/?items_per_page=2&format=html', 200, false],
    ['/papers/?count_only=true', 200, false],
    ['/papers/?items_per_page=2&page=9', 404, false],
  ] as const)('GET %s', async (url, status, inPage) => {
    const { source, pages } = releasingSource();
    const answer = await createPapersHandler({ source, allowedHosts: ['h'] })({ method: 'GET', url, headers: { host: 'h' } });
    expect(answer!.status).toBe(status);
    const last = pages.at(-1)!;
    // Every page but the one under the body was handed back before the answer was made.
    for (const { release } of pages.slice(0, -1)) expect(release).toHaveBeenCalledTimes(1);
    if (inPage) {
      expect(answer!.body!.buffer).toBe(last.page.resultsJson!.buffer);
      expect(last.release).not.toHaveBeenCalled();
      expect(answer!.release).toBe(last.release);
    } else {
      expect(last.release).toHaveBeenCalledTimes(1);
      expect(answer!.release).toBeUndefined();
    }
  });

  it('HEAD: no body, so the page goes back at once', async () => {
    const { source, pages } = releasingSource();
    const answer = await createPapersHandler({ source, allowedHosts: ['h'] })({ method: 'HEAD', url: '/papers/', headers: { host: 'h' } });
    expect(answer!.body).toBeNull();
    expect(pages.map((p) => p.release.mock.calls.length)).toEqual([1]);
    expect(answer!.release).toBeUndefined();
  });
});
