import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildIndex } from '../../src/memory/build-index.js';
import { isLive, liveCount, wholeSegment, withDeleted, type Segment } from '../../src/segments/segment.js';
import type { FieldLengths } from '../../src/search/relevance.js';
import { makePaper } from '../make-paper.js';

const WORDS = ['graph', 'neural', 'of', 'the', 'über', 'x', 'learning', 'a'];
const text = (seed: number, words: number) => Array.from({ length: words }, (_, i) => WORDS[(seed * 7 + i * 3) % WORDS.length]).join(' ');

/** The lengths summed over the live documents, from their definition. */
function summed(segment: Segment): FieldLengths {
  const total = { title: 0, abstract: 0, authors: 0 };
  const one = { title: 0, abstract: 0, authors: 0 };
  for (let d = 0; d < segment.index.n; d++) {
    if (!isLive(segment, d)) continue;
    segment.index.layout.lengthsOf(d, one);
    total.title += one.title;
    total.abstract += one.abstract;
    total.authors += one.authors;
  }
  return total;
}

describe('a segment\'s live documents', () => {
  const index = buildIndex(
    Array.from({ length: 70 }, (_, i) =>
      makePaper({ id: `p${i}`, title: text(i, 1 + (i % 5)), abstract: text(i + 1, (i * 13) % 40), authors: Array.from({ length: i % 4 }, (_, a) => `Author ${a} ${i}`) }),
    ),
  );

  it('keep their summed field lengths through every deletion (deleted twice, absent, all of them), as a thread receives them', () => {
    fc.assert(
      fc.property(fc.array(fc.array(fc.integer({ min: 0, max: 69 }), { maxLength: 30 }), { maxLength: 8 }), (batches) => {
        let segment = wholeSegment(index);
        for (const batch of batches) {
          segment = withDeleted(segment, batch);
          if (segment.live === null) continue;
          expect(segment.live.lengths).toEqual(summed(segment));
          expect(segment.live.count).toBe(liveCount(segment));
          // Query threads get the segment through a structured clone.
          expect(structuredClone(segment.live).lengths).toEqual(summed(segment));
        }
      }),
    );
  });

  it('are the same segment when nothing live is deleted', () => {
    const some = withDeleted(wholeSegment(index), [3, 4]);
    expect(withDeleted(some, [3, 4])).toBe(some);
    expect(withDeleted(some, [])).toBe(some);
    expect(withDeleted(some, [5]).live!.lengths).toEqual(summed(withDeleted(some, [5])));
  });
});
