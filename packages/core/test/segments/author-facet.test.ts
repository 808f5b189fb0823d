import { describe, expect, it } from 'vitest';
import { buildIndex } from '../../src/memory/build-index.js';
import { authorFacetAcross } from '../../src/engine/facet-counts.js';
import type { DocSet } from '../../src/engine/doc-set.js';
import { makePaper } from '../make-paper.js';

const papersBy = (prefix: string, names: string[][]) => names.map((authors, i) => makePaper({ id: `${prefix}${i}`, authors }));
const all = (n: number): DocSet => ({ kind: 'all', size: n });

describe('authorFacetAcross', () => {
  // Base: A 3, B 2, C 2; delta: C 2, D 1, and one paper with no author. Across both: C 4, A 3, B 2, D 1.
  const base = buildIndex(papersBy('b', [['A', 'B'], ['A', 'C'], ['A', 'B', 'C'], []]));
  const delta = buildIndex(papersBy('d', [['C', 'D'], ['C'], []]));
  const parts = [
    { index: base, set: all(base.n) },
    { index: delta, set: all(delta.n) },
  ];

  it.each([
    // Cutting each part first would give A for the best one (A 3 in the base, C only 2 there).
    [1, [{ value: 'C', count: 4 }]],
    [2, [{ value: 'C', count: 4 }, { value: 'A', count: 3 }]],
    [10, [{ value: 'C', count: 4 }, { value: 'A', count: 3 }, { value: 'B', count: 2 }, { value: 'D', count: 1 }]],
  ])('the best %i names over every part, then the papers with none', (limit, best) => {
    expect(authorFacetAcross(parts, limit as number)).toEqual([...(best as object[]), { value: null, count: 2 }]);
  });

  it('counts only the matches of each part, and names only the delta has', () => {
    const some: DocSet = { kind: 'list', docs: Uint32Array.of(0) };
    expect(authorFacetAcross([{ index: base, set: { kind: 'list', docs: new Uint32Array(0) } }, { index: delta, set: some }], 5)).toEqual([
      { value: 'C', count: 1 },
      { value: 'D', count: 1 },
      { value: null, count: 0 },
    ]);
  });
});
