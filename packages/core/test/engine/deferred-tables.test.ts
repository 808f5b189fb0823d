import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { IndexBuilder, type IndexData } from '../../src/engine/builder.js';
import { DEFER_TABLES_UP_TO, DEFERRED_TABLES, hasDeferredTables } from '../../src/engine/deferred-tables.js';
import { INDEX_ARRAY_NAMES, indexFromParts, indexParts } from '../../src/engine/index-parts.js';
import type { Paper } from '../../src/paper.js';
import { loadSamplePapers } from '../../src/sample.js';
import { makePaper } from '../make-paper.js';

/**
 * A write's delta index leaves out the suffix order, the substring tables and the common words'
 * fields, and makes them when first read: from its vocabulary, its stored JSON and its postings.
 * They must be the very tables a full build makes from the papers themselves, on the building
 * thread and after a trip through `indexParts`, for any text (non-ASCII, escapes, lone
 * surrogates, empty fields).
 */

function build(papers: readonly Paper[], deferTables: boolean): IndexData {
  const builder = new IndexBuilder(0, true, deferTables);
  for (const paper of papers) builder.add(paper);
  return builder.finish();
}

/** The deferred tables of `index` as plain data (class instances compared field by field). */
function tablesOf(index: IndexData): unknown {
  return Object.fromEntries(DEFERRED_TABLES.map((name) => [name, index[name]]));
}

const PIECES = ['of', 'the', 'The', 'learning', 'tion', 'é', 'İ', 'ß', 'ﬁ', '😀', '\ud800', '\udc00', '"', '\\', '\n', ' ', '  ', '-', ', ', '0', '42', 'Σ', 'ς', 'cafe\u0301', '\u212a', 'x'];
const text = fc.array(fc.oneof(fc.constantFrom(...PIECES), fc.string({ maxLength: 6 }), fc.string({ unit: 'binary', maxLength: 4 })), { maxLength: 30 }).map((parts) => parts.join(' '));
const papersOf = (texts: [string, string][]) => texts.map(([title, abstract], i) => makePaper({ id: `p-${i}`, title, abstract, authors: i % 3 === 0 ? [title.slice(0, 10)] : [] }));

describe('deferred tables', () => {
  let sample: Paper[];
  beforeAll(async () => {
    sample = (await loadSamplePapers()).slice(0, 600);
  });

  it('are a full build\'s tables, read on the building thread and after the parts cross', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(text, text), { minLength: 0, maxLength: 40 }), (texts) => {
        const papers = papersOf(texts);
        const full = build(papers, false);
        const deferred = build(papers, true);
        expect(hasDeferredTables(deferred)).toBe(true);
        expect(hasDeferredTables(full)).toBe(false);
        // Crossed first (each thread builds its own), then read here.
        const crossed = indexFromParts(indexParts(deferred, 'keep'));
        expect(tablesOf(crossed)).toEqual(tablesOf(full));
        expect(tablesOf(deferred)).toEqual(tablesOf(full));
      }),
      { numRuns: 200, seed: 20261128 },
    );
  });

  it('are a full build\'s tables on real papers', () => {
    for (const size of [1, 50, 500]) {
      const papers = sample.slice(0, size);
      expect(tablesOf(build(papers, true)), `${size} papers`).toEqual(tablesOf(build(papers, false)));
    }
  });

  it('cross threads without their arrays, and are built for a snapshot\'s parts', () => {
    const deferred = build(sample.slice(0, 100), true);
    const kept = indexParts(deferred, 'keep');
    expect(kept.deferred).toBe(true);
    expect(kept.arrays.suffixOrder).toBeUndefined();
    expect(kept.arrays['titleText.runChars']).toBeUndefined();
    const whole = indexParts(deferred);
    expect(whole.deferred).toBeUndefined();
    for (const name of INDEX_ARRAY_NAMES) expect(whole.arrays[name], name).toBeDefined();
    expect(tablesOf(indexFromParts(whole))).toEqual(tablesOf(build(sample.slice(0, 100), false)));
  });

  it('are built at the finish past DEFER_TABLES_UP_TO papers, from the stored papers, as the same tables', () => {
    const papers = Array.from({ length: DEFER_TABLES_UP_TO + 1 }, (_, i) => {
      const from = sample[i % sample.length]!;
      return { ...from, id: `big-${i}`, title: i % 7 === 0 ? `${from.title} é\ud800 "x"` : from.title };
    });
    const large = build(papers, true);
    expect(hasDeferredTables(large)).toBe(false);
    expect(indexParts(large, 'keep').deferred).toBeUndefined();
    expect(tablesOf(large)).toEqual(tablesOf(build(papers, false)));
  });
});
