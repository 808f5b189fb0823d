import { describe, expect, it } from 'vitest';
import { estimateJsonBytes, PaperStoreBuilder } from '../../src/engine/paper-store.js';
import type { Paper } from '../../src/paper.js';
import { makePaper } from '../make-paper.js';

/** The store's chunks as plain byte arrays, and each paper's JSON. */
function built(papers: readonly Paper[], expectedBytes: number) {
  const builder = new PaperStoreBuilder(expectedBytes);
  for (const paper of papers) builder.add(paper);
  const store = builder.finish(Uint32Array.from(papers, (_, i) => i));
  return { chunks: store.chunks.map((chunk) => Array.from(chunk)), json: papers.map((_, d) => Buffer.from(store.json(d)).toString()) };
}

const long = (n: number) => 'ü ß word '.repeat(n);

describe('the JSON store sized by an estimate', () => {
  it.each([
    { name: 'one paper (a write of one)', papers: [makePaper({ id: 'a', title: 'One paper' })] },
    { name: 'many small papers, past the first 4 KB', papers: Array.from({ length: 300 }, (_, i) => makePaper({ id: `p${i}`, abstract: long(i % 7) })) },
    // Non-ASCII text takes more UTF-8 bytes than the estimate counts: the first chunk must grow.
    { name: 'an estimate far under the bytes (non-ASCII)', papers: Array.from({ length: 40 }, (_, i) => makePaper({ id: `u${i}`, abstract: 'ü'.repeat(9000) })) },
    // An estimate over the default first chunk starts there (as before): the chunks differ, the papers not.
    { name: 'an estimate past the default first chunk (1 MB)', papers: Array.from({ length: 130 }, (_, i) => makePaper({ id: `l${i}`, abstract: long(1000) })), sameChunks: false },
    { name: 'a first chunk grown past the estimate, then sealed', papers: Array.from({ length: 130 }, (_, i) => makePaper({ id: `g${i}`, abstract: 'ü'.repeat(4000) })) },
    { name: 'one paper larger than a megabyte', papers: [makePaper({ id: 'big', abstract: long(150_000) }), makePaper({ id: 'small' })] },
  ])('keeps the papers, and under 1 MB estimated the chunks, of a store without an estimate: $name', ({ papers, sameChunks = true }) => {
    const sized = built(papers, estimateJsonBytes(papers));
    const unsized = built(papers, 0);
    expect(sized.json).toEqual(unsized.json);
    expect(sized.json.map((json) => JSON.parse(json) as unknown)).toEqual(papers);
    if (sameChunks) expect(sized.chunks).toEqual(unsized.chunks);
    else expect(sized.chunks).not.toEqual(unsized.chunks);
  });
});
