import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { IndexBuilder, type IndexData } from '../../src/engine/builder.js';
import { DEFER_TABLES_UP_TO, DEFERRED_TABLES, hasDeferredTables } from '../../src/engine/deferred-tables.js';
import { INDEX_ARRAY_NAMES, indexFromParts, indexParts } from '../../src/engine/index-parts.js';
import type { Paper } from '../../src/paper.js';
import { loadSamplePapers } from '../../src/sample.js';
import { makePaper } from '../make-paper.js';
import { Engine } from '../../src/engine/engine.js';
import type { PaperQuery } from '../../src/source.js';

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

/**
 * The deferred tables of `index` as plain data: class instances field by field, typed arrays as
 * their type and bytes (a deep comparison element by element took most of this file's time:
 * the edge sets alone are 2,376 entries a table).
 */
function tablesOf(index: IndexData): unknown {
  return Object.fromEntries(DEFERRED_TABLES.map((name) => [name, plain(index[name])]));
}

function plain(value: unknown): unknown {
  if (ArrayBuffer.isView(value)) return `${value.constructor.name}:${Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('base64')}`;
  if (Array.isArray(value)) return value.map(plain);
  if (value instanceof Map) return [...value].map(([k, v]) => [plain(k), plain(v)]);
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plain(v)]));
  return value;
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

  it('leave every index one shape: the same own properties in one order, the tables read through accessors all indexes share', () => {
    // V8 gives objects of one constructor, with their fields added in one order, one hidden class; accessors defined on
    // each object gave every delta index a class of its own, and the engine's functions were compiled again for each.
    const deferred = [build(sample.slice(0, 10), true), build(sample.slice(10, 40), true)];
    const full = build(sample.slice(0, 60), false);
    const indexes = [...deferred, full, indexFromParts(indexParts(full)), indexFromParts(indexParts(deferred[0]!, 'keep')), indexFromParts(indexParts(deferred[1]!))];
    const keys = Reflect.ownKeys(indexes[0]!);
    for (const index of indexes) {
      expect(Reflect.ownKeys(index)).toEqual(keys);
      expect(Object.getPrototypeOf(index)).toBe(Object.getPrototypeOf(indexes[0]));
      for (const name of DEFERRED_TABLES) expect(Object.getOwnPropertyDescriptor(index, name), name).toBeUndefined();
    }
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

  it('answer substring filters as a full build, small indexes by reading their papers, larger ones from tables built when first read', () => {
    // 300 papers: read one by one; 1,100: past READ_EACH_UP_TO, the tables are built.
    const pairs = [300, 1100].map((size) => {
      const papers = [...sample, ...sample.map((p) => ({ ...p, id: `${p.id}-again`, title: `${p.title} ÄÖ "again" \\ x` }))].slice(0, size);
      return { papers, deferred: new Engine(build(papers, true)), full: new Engine(build(papers, false)) };
    });
    fc.assert(
      fc.property(fc.nat(), fc.boolean(), fc.nat(300), fc.integer({ min: 1, max: 16 }), fc.boolean(), fc.constantFrom<(string | null)[]>(null, 'learning', 'model'), (pick, title, from, length, upper, q) => {
        for (const { papers, deferred, full } of pairs) {
          const paper = papers[pick % papers.length]!;
          const text = title ? paper.title : paper.abstract;
          if (text.length === 0) continue;
          const start = from % text.length;
          const cut = text.slice(start, start + length);
          const needle = upper ? cut.toUpperCase() : cut.toLowerCase();
          const query: PaperQuery = {
            terms: q === null ? [] : [{ raw: q, words: [q], arxivId: null }],
            filters: { [title ? 'titleContains' : 'abstractContains']: needle },
            ordering: { kind: 'fields', keys: [{ field: 'id', descending: false }] },
            offset: 0,
            limit: 1e9,
          };
          const limits = { deadline: Infinity };
          const got = deferred.window(query, limits);
          const want = full.window(query, limits);
          expect(got.count, `${papers.length} papers, ${JSON.stringify(needle)}`).toBe(want.count);
          expect([...got.docs], `${papers.length} papers, ${JSON.stringify(needle)}`).toEqual([...want.docs]);
        }
      }),
      { numRuns: 300, seed: 17 },
    );
  });
});
