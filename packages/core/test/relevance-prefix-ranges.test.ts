import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createMemorySource, createScanSource, type Paper } from '../src/index.js';
import { queryFor } from '@paperlist/conformance';
import { makePaper } from './make-paper.js';

/**
 * Relevance counts over a prefix's range of words, where the engine reads stretches of rare
 * list words as one stream, walks dense words through the matched set's bits, skips to a pair
 * by its block's skip entry, or looks the matched papers up in a word: whatever the mix of
 * word frequencies and match set sizes, the ranking must be the scan's.
 */
describe('relevance over a prefix range of rare, common and dense words', () => {
  const N = 640; // dense above N / 32 = 20 papers
  // Words of the range `pre…` by how many papers hold them: rare list words, list words of more
  // than 32 pairs (several skip blocks), and dense words; `pre` itself is the exact word of `q=pre`.
  const WORDS: [word: string, share: number][] = [
    ['pre', 0.1],
    ...'abcdefghij'.split('').map((c, i): [string, number] => [`pre${c}`, (1 + (i % 4)) / N]),
    ['prek', 0.06],
    ['prel', 0.07],
    ['prem', 0.04],
    ['preo', 0.05],
    ['prep', 0.08],
    ['prepa', 2 / N],
    ['prex', 0.02],
    ['prexa', 3 / N],
    ['prexb', 0.01],
  ];

  function corpus(seed: number, alphaShare: number): Paper[] {
    let state = seed >>> 0 || 1;
    const random = () => {
      state ^= state << 13;
      state ^= state >>> 17;
      state ^= state << 5;
      return (state >>> 0) / 2 ** 32;
    };
    const some = (share: number, word: string) => (random() < share ? Array.from({ length: 1 + Math.floor(random() * 3) }, () => word) : []);
    return Array.from({ length: N }, (_, i) => {
      const title = ['on', ...WORDS.flatMap(([word, share]) => some(share / 3, word)), ...some(alphaShare / 2, 'alpha'), `t${i}`];
      const abstract = ['the', ...WORDS.flatMap(([word, share]) => some(share, word)), ...some(alphaShare, 'alpha'), 'end'];
      const authors = random() < 0.1 ? [`Prek ${i}`, 'A. Alpha'] : [`Author ${i}`];
      return makePaper({ id: `p${i}`, title: title.join(' '), abstract: abstract.join(' '), authors });
    });
  }

  const QUERIES = ['q=pre+alpha', 'q=alpha+pre', 'q=prek+alpha', 'q=prex+alpha', 'q=pr+alpha', 'q=pre', 'q=pre&title=alpha', 'q=alpha+prep+pre'];

  it('ranks as the scan does, for random corpora and match sets of every size', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 2 ** 31 - 1 }), fc.constantFrom(0.005, 0.02, 0.08, 0.3, 0.7), async (seed, alphaShare) => {
        const papers = corpus(seed, alphaShare);
        const engine = createMemorySource(papers);
        const reference = createScanSource(papers);
        for (const raw of QUERIES) {
          const query = queryFor(raw, 0, N);
          const [got, want] = await Promise.all([engine.list(query), reference.list(query)]);
          expect(got.count, raw).toBe(want.count);
          expect(
            got.results.map((r) => (r as { id: string }).id),
            raw,
          ).toEqual(want.results.map((r) => (r as { id: string }).id));
        }
      }),
      { numRuns: 25 },
    );
  });
});
