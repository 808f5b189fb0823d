import { describe, expect, it } from 'vitest';
import { indexParts } from '../src/engine/index-parts.js';
import { buildIndex } from '../src/memory/build-index.js';
import { loadSamplePapers } from '../src/sample.js';
import { madeUpPapers, warmUpBuilds, warmUpRounds } from '../src/threads/builder-warm-up.js';

/** The delta thread's warm-up builds whatever catalogue it is given, large or small, and none at all. */
describe('delta thread warm-up', () => {
  it('builds from a catalogue larger than a round, smaller than one, and from made-up papers alone', async () => {
    const sample = await loadSamplePapers();
    for (const from of [indexParts(buildIndex(sample.slice(0, 900))), indexParts(buildIndex(sample.slice(0, 40))), null]) {
      expect(() => warmUpBuilds({ from, rounds: 3, papers: 300, stop: new Int32Array(1) })).not.toThrow();
    }
  });

  it('makes papers with distinct ids, ASCII and not, with empty fields', () => {
    const papers = madeUpPapers(0, 300);
    expect(new Set(papers.map((p) => p.id)).size).toBe(300);
    expect(papers.some((p) => /[^\x00-\x7f]/.test(p.title))).toBe(true);
    expect(papers.some((p) => p.published === null && p.authors.length === 0)).toBe(true);
    expect(() => buildIndex(papers)).not.toThrow();
  });

  it.each([
    [0, 10],
    [4_000, 10],
    [10_999, 10],
    [12_000, 12],
    [29_999, 29],
    [498_216, 30],
    [996_432, 30],
  ])('warms a delta thread of a %i-paper base up with %i builds', (n, rounds) => {
    expect(warmUpRounds(n)).toBe(rounds);
  });
});
