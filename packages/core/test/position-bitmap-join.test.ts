import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import type { IndexData } from '../src/engine/builder.js';
import { listSet, setToList, type DocSet } from '../src/engine/doc-set.js';
import type { PartSeparators } from '../src/engine/phrase-join.js';
import { partMatch, partSeparators, readNeedle } from '../src/engine/substring/needle.js';
import { bitmapJoin } from '../src/engine/substring/position-bitmap-join.js';
import { wordsFor } from '../src/engine/substring/word-sets.js';
import { buildIndex } from '../src/memory/build-index.js';
import type { Paper } from '../src/paper.js';
import { loadSamplePapers } from '../src/sample.js';
import { makePaper } from './make-paper.js';
import { TRICKY_TEXTS } from './tricky-texts.js';

/**
 * The bitmap join of needles of several runs (`e t`, `s, a`, `n of t`) called directly, whatever
 * the cost model would pick on a catalogue this small, against `toLowerCase().includes`: what
 * it proves must hold the needle, and every document holding it must be proven or left to read.
 * Blocks of a few hundred positions put block ends inside every stretch of the catalogue.
 */
/** Besides the tricky texts, papers whose rows (`the two`, `the t`) stand in titles, in abstracts and in both. */
const MORE: Partial<Paper>[] = [
  { title: 'the two', abstract: 'the two the two' },
  { title: 'Straße, the two', abstract: 'naïve Bayes; the two. Café e\u0301 the t' },
];

type Field = 'title' | 'abstract';

let papers: Paper[];
let index: IndexData;
let docs: Paper[];

beforeAll(async () => {
  const sample = await loadSamplePapers();
  papers = [...sample.slice(0, 1500), ...[...TRICKY_TEXTS, ...MORE].map((p, i) => makePaper({ id: `tricky-${i}`, ...p }))];
  index = buildIndex(papers);
  docs = papers.map((_, d) => index.store.paper(d));
});

const holds = (field: Field, needle: string) => (d: number) => docs[d]![field].toLowerCase().includes(needle);

/** The join's parts and rules for an ASCII needle of two runs or more, as `substringMatches` makes them; null for other needles. */
function plan(needle: string): { parts: Uint32Array[]; rules: PartSeparators[] } | null {
  const parsed = readNeedle(needle);
  if (parsed.kind !== 'ascii' || parsed.words.length < 2) return null;
  const { words, separators } = parsed;
  const parts = words.map((word, c) => wordsFor(index, word, partMatch(c, words.length, separators)));
  return { parts, rules: partSeparators(separators) };
}

/** Checks the join of `needle` within `within` (all documents when null) with blocks of `block` positions. */
function check(field: Field, needle: string, within: DocSet | null, block: number): void {
  const planned = plan(needle);
  if (planned === null) return;
  const text = field === 'title' ? index.titleText : index.abstractText;
  const { yes, verify } = bitmapJoin(index, field, planned.parts, planned.rules, text.nonAscii, within, block);
  const inside = (d: number) => within === null || within.kind === 'all' || setToList(within).includes(d);
  const all = docs.map((_, d) => d).filter(inside);
  const want = all.filter(holds(field, needle));
  const label = `${field} ${JSON.stringify(needle)} block ${block}`;
  // Proofs are sound, and nothing holding the needle is missed (oversize documents carry no positions: the caller reads them).
  expect([...yes].filter((d) => !holds(field, needle)(d)), label).toEqual([]);
  const seen = new Set([...yes, ...verify, ...index.layout.oversize]);
  expect(want.filter((d) => !seen.has(d)), label).toEqual([]);
  expect([...yes, ...verify].every(inside), label).toBe(true);
  expect([...verify].filter((d) => yes.includes(d)), label).toEqual([]);
  expect([...yes], label).toEqual([...yes].sort((a, b) => a - b));
  expect([...verify], label).toEqual([...verify].sort((a, b) => a - b));
}

describe('bitmapJoin (substring needles of several runs)', () => {
  it.each([
    ['abstract', 'e t'],
    ['abstract', 's a'],
    ['abstract', 'n of t'],
    ['abstract', 'e, t'],
    ['abstract', 'of the'],
    ['abstract', ' of the '],
    ['abstract', 'state-of-the-art'],
    ['abstract', 'x ,y'],
    ['abstract', 'a - b'],
    ['abstract', 'e.g.'],
    ['abstract', 'the t'],
    ['title', 'the two'],
    ['title', 'e t'],
    ['title', 'e.g. s'],
    ['title', 'of-the'],
    ['abstract', 'w1 w2'],
  ] as [Field, string][])('%s contains %j', (field, needle) => {
    for (const block of [1, 300, 5000, 1 << 22]) check(field, needle, null, block);
    // Nothing is proven where the needle is not: a proof's count is the count of documents holding it, less those to read.
    const planned = plan(needle)!;
    const text = field === 'title' ? index.titleText : index.abstractText;
    const { yes } = bitmapJoin(index, field, planned.parts, planned.rules, text.nonAscii, null);
    expect(yes.length).toBeLessThanOrEqual(docs.filter((_, d) => holds(field, needle)(d)).length);
  });

  it('proves the needle wherever the separators are single spaces in ASCII text', () => {
    const planned = plan('e t')!;
    const { yes, verify } = bitmapJoin(index, 'abstract', planned.parts, planned.rules, index.abstractText.nonAscii, null);
    const ascii = new Set(index.abstractText.nonAscii);
    const want = docs.map((_, d) => d).filter((d) => holds('abstract', 'e t')(d) && !ascii.has(d) && !index.layout.oversize.includes(d));
    expect(want.length).toBeGreaterThan(100);
    expect(want.filter((d) => !yes.includes(d))).toEqual([]);
    expect([...verify].every((d) => ascii.has(d))).toBe(true);
  });

  it('needles cut from the texts, within random candidates, with blocks of every size', () => {
    fc.assert(
      fc.property(fc.nat(), fc.boolean(), fc.nat(2000), fc.integer({ min: 2, max: 14 }), fc.integer({ min: 0, max: 3 }), fc.nat(), fc.constantFrom(1, 64, 700, 4096, 1 << 22), (pick, title, from, length, density, seed, block) => {
        const field: Field = title ? 'title' : 'abstract';
        const text = docs[pick % docs.length]![field].toLowerCase();
        if (text.length === 0) return;
        const start = from % text.length;
        const needle = text.slice(start, start + length);
        let within: DocSet | null = null;
        if (density > 0) {
          const kept = papers.map((_, d) => d).filter((d) => ((d * 2654435761 + seed) >>> 0) % 4 < density);
          within = listSet(Uint32Array.from(kept));
        }
        check(field, needle, within, block);
      }),
      { numRuns: 400, seed: 20261202 },
    );
  });
});
