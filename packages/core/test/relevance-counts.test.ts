import { describe, expect, it } from 'vitest';
import { createMemorySource, createScanSource, type PaperQuery } from '../src/index.js';
import { queryFor } from '@paperlist/conformance';
import { makePaper } from './make-paper.js';

/**
 * Relevance where the engine's packed per-document counters saturate (more than 15 title or
 * author occurrences, more than 127 in an abstract) and it counts again from the positions:
 * the order must still be the scan's.
 */
describe('relevance with counts past the packed counters', () => {
  const repeat = (word: string, times: number) => Array.from({ length: times }, () => word).join(' ');
  const papers = [
    makePaper({ id: 'many-title', title: repeat('spin', 20), abstract: 'spin glass' }),
    makePaper({ id: 'many-abstract', title: 'Glass', abstract: `${repeat('spin', 140)} ${repeat('spinor', 130)}` }),
    makePaper({ id: 'many-authors', title: 'A collaboration', authors: Array.from({ length: 40 }, (_, i) => `A. Spin${i % 3 === 0 ? '' : 'ner'} B. C.`) }),
    makePaper({ id: 'few', title: 'Spin waves', abstract: 'a spin' }),
    ...Array.from({ length: 30 }, (_, i) => makePaper({ id: `filler-${i}`, title: `Filler ${i} on glass`, abstract: i % 2 ? 'a spinning top' : 'nothing' })),
  ];
  const engine = createMemorySource(papers);
  const reference = createScanSource(papers);

  it.each(['q=spin', 'q=spi', 'q=a', 'q=b', 'q=a+spin', 'q=%22a+spin%22', 'q=glass+spin'])('%s ranks as the scan does', async (raw) => {
    const query: PaperQuery = queryFor(raw, 0, 100);
    const [got, want] = await Promise.all([engine.list(query), reference.list(query)]);
    expect(got.count).toBe(want.count);
    expect(got.results.map((r) => (r as { id: string }).id)).toEqual(want.results.map((r) => (r as { id: string }).id));
  });
});
