import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mergedWindow, mergeSorted } from '../../src/segments/merge-runs.js';
import { sumFacets } from '../../src/segments/facet-sums.js';

const before = (a: number, b: number) => a < b;

describe('mergeSorted', () => {
  it.each([
    { lists: [], take: 3, want: [] },
    { lists: [[1, 4, 9]], take: 2, want: [1, 4] },
    { lists: [[1, 4, 9], [2, 3], [], [0, 10]], take: 10, want: [0, 1, 2, 3, 4, 9, 10] },
    { lists: [[5], [1], [3]], take: 2, want: [1, 3] },
    { lists: [[1, 2]], take: 0, want: [] },
  ])('merges $lists, first $take', ({ lists, take, want }) => {
    expect(mergeSorted(lists, before, take)).toEqual(want);
  });
});

describe('mergedWindow = a slice of all runs sorted together', () => {
  it('holds for any split of distinct items into a large run and others, any window', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 0, max: 10_000 }), { maxLength: 80 }),
        fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 80, maxLength: 80 }),
        fc.nat(100),
        fc.nat(30),
        (items, owners, offset, limit) => {
          const runs: number[][] = [[], [], [], []];
          items.forEach((item, i) => runs[owners[i]!]!.push(item));
          for (const run of runs) run.sort((a, b) => a - b);
          const all = [...items].sort((a, b) => a - b);
          const [large, ...rest] = runs.sort((a, b) => b.length - a.length) as [number[], ...number[][]];
          const others = rest.reduce((sum, run) => sum + run.length, 0);
          const end = offset + limit;
          const merged = mergeSorted(
            rest.map((run) => run.slice(0, end)),
            before,
            end,
          );
          const start = Math.max(0, offset - others);
          const window = mergedWindow({ items: large.slice(start, Math.min(large.length, end)), start, total: large.length }, merged, offset, limit, before);
          expect(window).toEqual(all.slice(offset, end));
        },
      ),
      { numRuns: 2000, seed: 5 },
    );
  });
});

describe('sumFacets', () => {
  it('sums each value over the segments, values ascending, null last and always there', () => {
    const got = sumFacets(
      [
        { year: [{ value: '2019', count: 2 }, { value: null, count: 1 }], venue: [{ value: 'acl', count: 1 }, { value: null, count: 0 }] },
        { year: [{ value: '2018', count: 1 }, { value: '2019', count: 3 }, { value: null, count: 0 }], venue: [{ value: null, count: 4 }] },
        { year: [{ value: null, count: 0 }], venue: [{ value: 'Äcl', count: 1 }, { value: 'acl', count: 2 }, { value: null, count: 0 }] },
      ],
      ['year', 'venue'],
    );
    expect(got).toEqual({
      year: [
        { value: '2018', count: 1 },
        { value: '2019', count: 5 },
        { value: null, count: 1 },
      ],
      venue: [
        { value: 'acl', count: 3 },
        { value: 'Äcl', count: 1 },
        { value: null, count: 4 },
      ],
    });
  });

  it('lists only the null bucket when nothing matched anywhere', () => {
    expect(sumFacets([], ['task'])).toEqual({ task: [{ value: null, count: 0 }] });
  });
});
