import { describe, expect, it } from 'vitest';
import { makePaper } from '../../test/make-paper.js';
import { EncodedPaper } from '../encoded-paper.js';
import { createMemorySource } from '../memory/memory-source.js';
import { serializePaper } from '../paper.js';
import type { PaperPage, PaperSource } from '../source.js';
import { joinAround } from './bytes.js';
import { createPapersHandler } from './papers-handler.js';

const utf8 = new TextEncoder();
const text = (body: Uint8Array | null) => new TextDecoder().decode(body!);
const paper = makePaper({ id: 'p1', title: 'One' });
const json = serializePaper(paper);

/** A source answering one page whose JSON sits in a buffer with `before`/`after` free bytes, filled with `#`. */
function pageSource(before: number, after: number, owned: boolean | undefined) {
  const buffer = new Uint8Array(before + json.length + after).fill(0x23);
  const view = buffer.subarray(before, before + json.length);
  view.set(utf8.encode(json));
  const page: PaperPage = { count: 1, results: [new EncodedPaper('p1', view.slice())], resultsJson: view };
  if (owned !== undefined) page.resultsJsonOwned = owned;
  const source: PaperSource = { list: async () => page, get: async () => null };
  return { source, buffer };
}

const want = `{"count":1,"next":null,"previous":null,"results":[${json}]}`;
const head = `{"count":1,"next":null,"previous":null,"results":[`.length;

describe('a page answered in its own buffer', () => {
  it.each([
    ['owned, with room', 100, 10, true, true],
    ['owned, room for the head only', 100, 1, true, false],
    ['owned, room for the tail only', head - 1, 10, true, false],
    ['owned, exactly the room needed', head, 2, true, true],
    ['not owned', 100, 10, false, false],
    ['ownership not said', 100, 10, undefined, false],
  ])('%s', async (_name, before, after, owned, inPlace) => {
    const { source, buffer } = pageSource(before, after, owned);
    const answer = await createPapersHandler({ source, allowedHosts: ['h'] })({ method: 'GET', url: '/papers/', headers: { host: 'h' } });
    expect(text(answer!.body)).toBe(want);
    expect(answer!.headers['Content-Length']).toBe(String(utf8.encode(want).length));
    expect(answer!.body!.buffer === buffer.buffer).toBe(inPlace);
    // A buffer the source did not give away is never written.
    if (owned !== true) expect(buffer.subarray(0, before).every((b) => b === 0x23)).toBe(true);
  });

  it('copies when the links are longer than the room before the page', async () => {
    const papers = Array.from({ length: 3 }, (_, i) => makePaper({ id: `p${i}`, title: `Paper ${i}` }));
    const handle = createPapersHandler({ source: createMemorySource(papers), pageSize: 1, allowedHosts: ['h'] });
    const long = 'x'.repeat(900); // each link repeats it: over the 1,024 bytes kept before the page
    const answer = await handle({ method: 'GET', url: `/papers/?page=2&unknown=${long}`, headers: { host: 'h' } });
    const body = JSON.parse(text(answer!.body)) as { next: string; previous: string; results: { id: string }[] };
    expect(body.next).toContain(long);
    expect(body.previous).toContain(long);
    expect(body.results.map((r) => r.id)).toEqual(['p1']);
  });

  it('joinAround writes around the view, or says it cannot', () => {
    const buffer = new Uint8Array(10);
    const middle = buffer.subarray(3, 6);
    middle.set([1, 2, 3]);
    expect(Array.from(joinAround(Uint8Array.of(9, 9), middle, Uint8Array.of(8))!)).toEqual([9, 9, 1, 2, 3, 8]);
    expect(joinAround(Uint8Array.of(9, 9, 9, 9), middle, Uint8Array.of(8))).toBeNull();
    expect(joinAround(Uint8Array.of(9), middle, new Uint8Array(5))).toBeNull();
  });
});
