import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonStringBytes } from '../../src/engine/json-string-bytes.js';
import { buildIndex } from '../../src/memory/build-index.js';
import { jsonStringIs, readJsonString } from '../../src/engine/paper-store.js';
import { loadSamplePapers } from '../../src/sample.js';

const slow = (text: string) => new TextEncoder().encode(JSON.stringify(text).slice(1, -1));

/** The bytes an id (or arXiv id) is looked up by are exactly those of its JSON string, on the fast path and off it. */
describe('jsonStringBytes', () => {
  it('equals the UTF-8 of the JSON string without quotes, for any text', () => {
    const ascii = fc.string({ unit: fc.integer({ min: 0, max: 0x7f }).map((c) => String.fromCharCode(c)) });
    fc.assert(
      fc.property(fc.oneof(ascii, fc.string({ unit: 'binary' }), fc.string({ unit: 'grapheme' }), fc.string()), (text) => {
        expect([...jsonStringBytes(text)]).toEqual([...slow(text)]);
      }),
      { numRuns: 2000, seed: 2811 },
    );
    for (const text of ['', 'a"b', 'back\\slash', 'tab\there', '\u007f', 'é', '\ud800', 'paper-id-1706.03762']) {
      expect([...jsonStringBytes(text)], text).toEqual([...slow(text)]);
    }
  });

  it('finds every paper of a store by its id, and no absent one', async () => {
    const sample = (await loadSamplePapers()).slice(0, 300);
    const odd = ['quote"id', 'slash\\id', 'tab\tid', 'ünïcode', '\u007fdel', 'ends\\', 'x'].map((id, i) => ({ ...sample[i]!, id }));
    const papers = [...sample.slice(odd.length), ...odd];
    const { store } = buildIndex(papers);
    for (const paper of papers) expect(store.paper(store.findId(paper.id)).id).toBe(paper.id);
    // Absent ids that a stored one begins or ends: the lookup compares in the store's chunk, past the stored id's end.
    const absent = ['absent', 'quote"i', 'ünïcod', 'quote"id"', 'slash\\id\\', 'slash\\id"', 'tab\tid\t', 'ends', 'ends\\"', 'ends\\\\', 'x"', 'x\\', 'xy', ''];
    for (const id of absent) expect(store.findId(id), id).toBe(-1);
  });

  it('jsonStringIs: a stored title is recognized by its bytes, exactly', async () => {
    const sample = (await loadSamplePapers()).slice(0, 200);
    const titles = ['', 'a"b', 'back\\slash', 'tab\there', 'é', '\ud800 lone', 'İstanbul K', 'Attention Is All You Need'];
    const papers = [...sample.slice(titles.length), ...titles.map((title, i) => ({ ...sample[i]!, title }))];
    const { store } = buildIndex(papers);
    fc.assert(
      fc.property(fc.integer({ min: 0, max: papers.length - 1 }), fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.constantFrom(...titles)), (i, other) => {
        const d = store.findId(papers[i]!.id);
        const json = store.json(d);
        const at = store.titleAt[d]!;
        expect(jsonStringIs(json, at, papers[i]!.title)).toBe(true);
        // Any other text is told apart, whatever it shares with the stored one (a prefix, escapes, the quote after it).
        expect(jsonStringIs(json, at, other)).toBe(other === readJsonString(json, at));
        expect(jsonStringIs(json, at, papers[i]!.title + 'x')).toBe(false);
        if (papers[i]!.title.length > 0) expect(jsonStringIs(json, at, papers[i]!.title.slice(0, -1))).toBe(false);
      }),
      { numRuns: 1000, seed: 17 },
    );
  });
});
