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

/** Dense ranks as the build once made them: distinct values sorted with `compareCodePoints`. */
function referenceRanks(values: readonly (string | null)[]): number[] {
  const distinct = [...new Set(values.filter((v): v is string => v !== null))].sort(compareCodePoints);
  const rank = new Map(distinct.map((v, r) => [v, r]));
  return values.map((v) => (v === null ? distinct.length : rank.get(v)!));
}

// Units whose order differs from code point order (astral against U+E000..U+FFFF), long shared prefixes, repeats.
const UNITS = ['a', 'b', 'ab', 'aaaaaaaaaaaaaaaa', '\u0001', '\uFFFF', '\uE000', '\u{1F600}', '\u{10FFFF}', '\uD800', '\uDFFF', 'é', 'Z', ''];
const key = fc.array(fc.constantFrom(...UNITS), { maxLength: 8 }).map((parts) => parts.join(''));
const keys = fc.oneof(
  fc.array(key, { maxLength: 300 }),
  // Many equal values, as dates are.
  fc.array(fc.constantFrom('2020-01-01', '2020-01-02', '2019-12-31', '', 'a'), { maxLength: 300 }),
);

describe('denseRanks', () => {
  it.each([
    ['sorted', false],
    ['few distinct', true],
  ])('ranks by code point, equal values sharing a rank, nulls last (%s)', (_, fewDistinct) => {
    fc.assert(
      fc.property(keys, fc.array(fc.nat({ max: 400 }), { maxLength: 20 }), (values, nulls) => {
        const withNulls: (string | null)[] = [...values];
        for (const at of nulls) withNulls.splice(Math.min(at, withNulls.length), 0, null);
        const want = referenceRanks(withNulls);
        const got = denseRanks(withNulls, fewDistinct);
        expect(Array.from(got.ranks)).toEqual(want);
        expect(got.distinct).toBe(new Set(values).size);
      }),
      { numRuns: 300 },
    );
  });

  it.each([
    ['empty', []],
    ['one', ['x']],
    ['the empty string and one unit', ['', 'a', '', 'a', 'b', '']],
    ['shared prefixes', ['abc', 'ab', 'abcd', 'abc', 'a', 'abd']],
    ['an astral character after U+FFFF', ['\u{1F600}', '\uFFFF', '\uE000', 'z']],
    ['only nulls', [null, null]],
  ] as const)('%s', (_, values) => {
    expect(Array.from(denseRanks(values).ranks)).toEqual(referenceRanks(values));
  });

  it('ranks tens of thousands the same way (sorted by their first two units first)', () => {
    // Seeded: strings of the awkward units, many sharing their first two, some shorter than two.
    const values = fc.sample(fc.oneof(key, fc.constantFrom('', 'a', '\u{1F600}', 'ab')), { numRuns: 40_000, seed: 7 });
    expect(values.length).toBeGreaterThanOrEqual(1 << 15);
    for (const fewDistinct of [false, true]) expect(Array.from(denseRanks(values, fewDistinct).ranks)).toEqual(referenceRanks(values));
  });

  it('sorts half a thousand near-equal long strings (the partitions past the first two units)', () => {
    const values = Array.from({ length: 500 }, (_, i) => `${'x'.repeat(40)}${(i * 7919) % 503}${i % 3 === 0 ? '\u{1F600}' : '\uFFFD'}`);
    expect(Array.from(denseRanks(values).ranks)).toEqual(referenceRanks(values));
  });
});
