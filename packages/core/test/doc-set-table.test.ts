import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DocSetTable } from '../src/engine/doc-set-table.js';
import { setToList } from '../src/engine/doc-set.js';

/*
 * A table keeps each set as a bitset, a grouped 16-bit list or a 32-bit list, by its size; every
 * way must give back exactly the documents it was built from. (grouped-lists.test.ts runs this
 * file again with groups of 8 documents, so that small tables cross many groups.)
 */

/** A table of `sets` (each a list of documents below `n`, any order, repeats allowed). */
function tableOf(n: number, sets: number[][]): { table: DocSetTable; want: number[][] } {
  const want = sets.map((s) => [...new Set(s)].sort((a, b) => a - b));
  const byDoc: [number, number][] = [];
  want.forEach((docs, s) => docs.forEach((d) => byDoc.push([d, s])));
  byDoc.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const table = DocSetTable.build(n, sets.length, (add) => {
    for (const [d, s] of byDoc) add(d, s);
  });
  return { table, want };
}

const tables = fc.integer({ min: 1, max: 5000 }).chain((n) =>
  fc.record({
    n: fc.constant(n),
    // Sets from empty to every document, so that each way of storing one is taken.
    sets: fc.array(
      fc.oneof(
        fc.array(fc.integer({ min: 0, max: n - 1 }), { maxLength: 40 }),
        fc.array(fc.integer({ min: 0, max: n - 1 }), { minLength: 60, maxLength: Math.max(60, n >> 3) }),
        fc.float({ min: 0, max: 1, noNaN: true }).map((p) => Array.from({ length: n }, (_, d) => d).filter((d) => ((d * 2654435761) >>> 0) / 2 ** 32 < p)),
      ),
      { maxLength: 8 },
    ),
  }),
);

function popcount(word: number): number {
  let count = 0;
  for (let v = word >>> 0; v !== 0; v &= v - 1) count++;
  return count;
}

describe('DocSetTable', () => {
  it.each([
    ['no sets', 10, []],
    ['an empty set', 10, [[]]],
    ['one document, the last', 100_000, [[99_999]]],
    ['a list of 70 across groups', 200_000, [Array.from({ length: 70 }, (_, i) => i * 2857)]],
    ['a list of 70 in the last group only', 200_000, [Array.from({ length: 70 }, (_, i) => 199_900 + i)]],
    ['a bitset and lists side by side', 1000, [Array.from({ length: 900 }, (_, i) => i), [5, 7], Array.from({ length: 62 }, (_, i) => i * 16)]],
  ])('%s', (_name, n, sets) => {
    const { table, want } = tableOf(n, sets);
    want.forEach((docs, s) => expect([...setToList(table.set(s))]).toEqual(docs));
  });

  it('gives back every set, and answers has() for every document', () => {
    fc.assert(
      fc.property(tables, ({ n, sets }) => {
        const { table, want } = tableOf(n, sets);
        expect(table.size).toBe(sets.length);
        want.forEach((docs, s) => {
          expect([...setToList(table.set(s))]).toEqual(docs);
          expect(table.df[s]).toBe(docs.length);
          const members = new Set(docs);
          for (let d = 0; d < n; d += Math.max(1, n >> 6)) expect(table.has(s, d)).toBe(members.has(d));
          for (const d of docs.slice(0, 50)) expect(table.has(s, d)).toBe(true);
          // Into a bitset, counted against one, copied out (lists only).
          const bits = new Uint32Array(Math.ceil(n / 32));
          table.orInto(s, bits);
          expect(docs.every((d) => (bits[d >>> 5]! >>> (d & 31)) & 1)).toBe(true);
          expect(bits.reduce((sum, w) => sum + popcount(w), 0)).toBe(docs.length);
          const every3 = new Uint32Array(Math.ceil(n / 32));
          for (let d = 0; d < n; d += 3) every3[d >>> 5]! |= 1 << (d & 31);
          expect(table.countIn(s, every3)).toBe(docs.filter((d) => d % 3 === 0).length);
          if (table.dense[s] !== 1) {
            const out = new Uint32Array(docs.length + 2);
            table.copyList(s, out, 2);
            expect([...out.subarray(2)]).toEqual(docs);
          }
        });
      }),
      { numRuns: 60 },
    );
  });
});
