import { describe, expect, it } from 'vitest';
import type { IndexData } from '../../src/engine/builder.js';
import { bitsSet, listSet, type DocSet } from '../../src/engine/doc-set.js';
import { RangeUnionCache } from '../../src/engine/range-union-cache.js';
import { createMemorySource } from '../../src/index.js';
import { makePaper } from '../make-paper.js';
import { queryFor } from '@paperlist/conformance';

// The cache only tells indexes apart by their postings object.
const fakeIndex = () => ({ postings: {} }) as unknown as IndexData;
const list = (length: number): DocSet => listSet(new Uint32Array(length));
const counting = (make: () => DocSet) => {
  let builds = 0;
  return { build: () => (builds++, make()), get builds() { return builds; } };
};

describe('RangeUnionCache', () => {
  it('builds a range once and hands out the same set after', () => {
    const cache = new RangeUnionCache(1 << 20);
    const index = fakeIndex();
    const built = counting(() => list(10));
    const first = cache.union(index, 5, 9, built.build);
    expect(cache.union(index, 5, 9, built.build)).toBe(first);
    expect(built.builds).toBe(1);
    expect(cache.size).toBe(1);
  });

  it.each([
    ['another range end', [5, 10]],
    ['another range start', [4, 9]],
  ])('keeps %s apart', (_name, [from, to]) => {
    const cache = new RangeUnionCache(1 << 20);
    const index = fakeIndex();
    const a = cache.union(index, 5, 9, () => list(1));
    const b = cache.union(index, from!, to!, () => list(2));
    expect(b).not.toBe(a);
    expect(cache.union(index, 5, 9, () => list(3))).toBe(a);
  });

  it('keeps indexes apart (a delta segment has its own word numbers)', () => {
    const cache = new RangeUnionCache(1 << 20);
    const a = cache.union(fakeIndex(), 0, 2, () => list(1));
    const b = cache.union(fakeIndex(), 0, 2, () => list(1));
    expect(b).not.toBe(a);
    expect(cache.size).toBe(2);
  });

  it('drops the least recently used set past its budget, counting the arrays', () => {
    // Bitsets of 1,000 bytes (plus overhead): eight fit in 9,100 bytes, a ninth pushes one out.
    const cache = new RangeUnionCache(9_100);
    const index = fakeIndex();
    const bits = () => bitsSet(new Uint32Array(250), 0);
    const first = cache.union(index, 0, 2, bits);
    for (let r = 1; r < 8; r++) cache.union(index, 2 * r, 2 * r + 2, bits);
    expect(cache.size).toBe(8);
    cache.union(index, 0, 2, bits); // used again: the range 2–4 is now the oldest
    cache.union(index, 100, 102, bits);
    expect(cache.size).toBe(8);
    expect(cache.bytes).toBeLessThanOrEqual(9_100);
    expect(cache.union(index, 0, 2, bits)).toBe(first);
    const rebuilt = counting(bits);
    cache.union(index, 2, 4, rebuilt.build);
    expect(rebuilt.builds).toBe(1);
  });

  it('does not keep a set larger than an eighth of its budget', () => {
    const cache = new RangeUnionCache(8_000);
    const index = fakeIndex();
    const big = counting(() => list(300)); // 1,200 bytes of documents, over 1,000
    cache.union(index, 0, 2, big.build);
    cache.union(index, 0, 2, big.build);
    expect(big.builds).toBe(2);
    expect(cache.size).toBe(0);
    expect(cache.bytes).toBe(0);
  });
});

describe('kept unions in a memory source', () => {
  // `net` and `neta` both start at the word `neta`: only the end of their ranges tells them apart.
  const titles = ['neta one', 'netb two', 'netbc three', 'netab four', 'other five'];
  const source = createMemorySource(titles.map((title, i) => makePaper({ id: `p${i}`, title })));
  const count = async (q: string) => (await source.list(queryFor(`q=${q}`))).count;

  it.each([
    ['net', 4],
    ['neta', 2],
    ['netb', 2],
    ['net', 4],
    ['neta', 2],
  ])('%s matches %i papers, asked again or not', async (q, want) => {
    expect(await count(q)).toBe(want);
  });
});
