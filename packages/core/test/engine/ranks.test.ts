import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { denseRanks, inverse, sortByRank, sortByRankThen } from '../../src/engine/ranks.js';
import { compareCodePoints } from '../../src/ordering/title-sort-key.js';

/*
 * The build numbers documents by title, then id. It used to rank every id first and sort the
 * documents (in id order) by title rank; it now sorts by title rank and compares the ids of
 * equal titles only, so that the order is known before the ids are ranked. Both must agree,
 * code point order included (astral characters against U+E000..U+FFFF).
 */
const CHARS = ['a', 'b', 'Z', '1', '-', 'é', '\u{1F600}', '\uFFFD', '\uE000', '\u0001'];
const text = fc.array(fc.constantFrom(...CHARS), { maxLength: 6 }).map((chars) => chars.join(''));

describe('sortByRankThen', () => {
  it('orders documents by title rank then id as ranking the ids first did', () => {
    fc.assert(
      fc.property(fc.uniqueArray(text, { maxLength: 60 }), fc.array(fc.constantFrom('', 'a', 'b', 'ab', '\u{1F600}', '\uFFFD')), (ids, pool) => {
        const titles = ids.map((_, i) => pool[i % Math.max(pool.length, 1)] ?? 'x');
        const title = denseRanks(titles);
        const id = denseRanks(ids);
        const before = sortByRank(inverse(id.ranks), title.ranks, title.distinct, false);
        const after = sortByRankThen(title.ranks, title.distinct, (a, b) => compareCodePoints(ids[a]!, ids[b]!));
        expect(Array.from(after)).toEqual(Array.from(before));
      }),
      { numRuns: 300 },
    );
  });

  it('keeps ranks that equal `distinct` (nulls) last', () => {
    const ranks = Uint32Array.from([2, 0, 2, 1, 0]);
    expect(Array.from(sortByRankThen(ranks, 2, (a, b) => b - a))).toEqual([4, 1, 3, 2, 0]);
  });
});
