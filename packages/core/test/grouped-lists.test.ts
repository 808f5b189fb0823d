import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { decodeGrouped, groupCount, seekGrouped } from '../src/engine/list-groups.js';

/*
 * Grouped lists (engine/list-groups.ts) hold the documents of words with 65 or more of them, in
 * groups of 65,536 documents: a catalogue of tests, a few thousand papers, has one group, so the
 * suites below would never cross one. This file runs them again with groups of 8 documents and
 * every list of 2 or more documents grouped (the layout is stored in the index; only the build
 * reads the knob), so every walk, seek and decode crosses many groups, empty ones too.
 */
process.env['PAPERLIST_LIST_GROUPS'] = '3,2';
afterAll(() => {
  delete process.env['PAPERLIST_LIST_GROUPS'];
});

/** The grouped list of `docs` (ascending, below `n`), as the build lays it out at `at`. */
function grouped(docs: number[], n: number, shift: number, at: number): Uint16Array {
  const groups = groupCount(n, shift);
  const lows = new Uint16Array(at + groups + 1 + docs.length);
  for (let g = 0; g <= groups; g++) lows[at + g] = docs.filter((d) => d >>> shift < g).length;
  docs.forEach((d, k) => (lows[at + groups + 1 + k] = d & ((1 << shift) - 1)));
  return lows;
}

const lists = fc
  .record({ n: fc.integer({ min: 1, max: 3000 }), shift: fc.integer({ min: 1, max: 16 }), at: fc.integer({ min: 0, max: 5 }) })
  .chain(({ n, shift, at }) => fc.record({ n: fc.constant(n), shift: fc.constant(shift), at: fc.constant(at), docs: fc.uniqueArray(fc.integer({ min: 0, max: n - 1 }), { maxLength: 400 }).map((d) => d.sort((a, b) => a - b)) }));

describe('grouped lists', () => {
  it('decode to their documents', () => {
    fc.assert(
      fc.property(lists, ({ n, shift, at, docs }) => {
        const out = new Uint32Array(docs.length + 3);
        decodeGrouped(grouped(docs, n, shift, at), at, groupCount(n, shift), shift, out, 3);
        expect([...out.subarray(3)]).toEqual(docs);
      }),
    );
  });

  it('seek every document, present or not, from every earlier rank', () => {
    fc.assert(
      fc.property(lists, fc.integer({ min: 0, max: 3100 }), fc.nat(), ({ n, shift, at, docs }, d, from0) => {
        const from = docs.length === 0 ? 0 : from0 % (docs.length + 1);
        const got = seekGrouped(grouped(docs, n, shift, at), at, groupCount(n, shift), shift, d, from);
        // The first rank at or after `from` whose document is >= d.
        let first = from;
        while (first < docs.length && docs[first]! < d) first++;
        expect(got).toBe(first < docs.length && docs[first] === d ? first : ~first);
      }),
    );
  });
});

// The engine's suites against the scan source, with small groups.
await import('./memory-equivalence.test.js');
await import('./relevance-prefix-ranges.test.js');
await import('./phrase-pairs.test.js');
await import('./substring-filter.test.js');
await import('./position-bitmap-join.test.js');
await import('./doc-set-table.test.js');
await import('./word-walk.test.js');
