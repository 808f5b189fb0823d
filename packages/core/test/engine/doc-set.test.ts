import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bitsToList, countBits, popcount32, selectBits } from '../../src/engine/bits.js';
import { addDocs, intersectSets, listSet, setHas, setSize, setToBits, setToList, sortUnique, type DocSet } from '../../src/engine/doc-set.js';

const n = 300;
const docsArb = fc.uniqueArray(fc.integer({ min: 0, max: n - 1 }), { maxLength: 200 }).map((a) => a.sort((x, y) => x - y));
const asSet = (docs: number[], kind: number): DocSet => {
  const list = listSet(Uint32Array.from(docs));
  if (kind === 0) return list;
  if (kind === 1) return { kind: 'bits', bits: setToBits(list, n), count: docs.length };
  return docs.length === n ? { kind: 'all', size: n } : list;
};

describe('doc sets', () => {
  it('popcount32 counts bits', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 0xffffffff }), (v) => {
      expect(popcount32(v | 0)).toBe(v.toString(2).replaceAll('0', '').length);
    }));
  });

  it('intersects any two shapes like the naive intersection', () => {
    fc.assert(
      fc.property(docsArb, docsArb, fc.integer({ min: 0, max: 2 }), fc.integer({ min: 0, max: 2 }), (a, b, ka, kb) => {
        const want = a.filter((d) => b.includes(d));
        const got = intersectSets(asSet(a, ka), asSet(b, kb), n);
        expect(Array.from(setToList(got))).toEqual(want);
        expect(setSize(got)).toBe(want.length);
        for (const d of [0, 1, 150, 299]) expect(setHas(got, d)).toBe(want.includes(d));
      }),
      { numRuns: 500 },
    );
  });

  it('intersects with an `all` set and with itself', () => {
    const all: DocSet = { kind: 'all', size: n };
    expect(Array.from(setToList(intersectSets(all, listSet(Uint32Array.of(3, 9)), n)))).toEqual([3, 9]);
    expect(countBits(setToBits(all, n))).toBe(n);
    expect(setSize(intersectSets(all, all, n))).toBe(n);
  });

  it('selects windows of a bitset and adds documents', () => {
    fc.assert(
      fc.property(docsArb, fc.nat(250), fc.nat(60), docsArb, (docs, skip, take, extra) => {
        const bits = setToBits(listSet(Uint32Array.from(docs)), n);
        expect(Array.from(selectBits(bits, skip, take))).toEqual(docs.slice(skip, skip + take));
        expect(Array.from(bitsToList(bits, docs.length))).toEqual(docs);
        const union = [...new Set([...docs, ...extra])].sort((x, y) => x - y);
        for (const kind of [0, 1]) {
          expect(Array.from(setToList(addDocs(asSet(docs, kind), Uint32Array.from(extra))))).toEqual(union);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('sortUnique sorts and dedupes', () => {
    expect(Array.from(sortUnique(Uint32Array.of(5, 1, 5, 3, 1)))).toEqual([1, 3, 5]);
  });
});
