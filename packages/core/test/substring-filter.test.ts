import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { createMemorySource, createScanSource, type Paper, type PaperQuery, type PaperSource } from '../src/index.js';
import { loadSamplePapers } from '../src/sample.js';
import { READ_COST } from '../src/engine/substring/word-walk.js';
import { makePaper } from './make-paper.js';
import { TRICKY_TEXTS } from './tricky-texts.js';

/**
 * `title=` and `abstract=` through the index against the scan's `toLowerCase().includes`:
 * needles cut from real titles and abstracts (any length, across words and punctuation),
 * built from an alphabet of separators and characters whose case mapping is unusual, and
 * fixed adversarial ones, on the sample plus papers written to trip the index.
 */
// The shared tricky texts, and more that trip the substring index up.
const TRICKY: Partial<Paper>[] = [
  ...TRICKY_TEXTS,
  { title: 'Of the of THE the of', abstract: 'tion of the evaluation of the model; of theory, of them. OF THE END' },
  { title: '"Quoted" \\backslash\\ title', abstract: 'Quotes " inside " and back\\slashes \\\\ here' },
  { title: 'Émoji 😀 and ς vs σ: ΟΔΟΣ Σ', abstract: 'Café CAFÉ cafe\u0301 e\u0301 ǅungla Ǆ' },
  { title: 'x', abstract: '' },
  // Letters and digits beside punctuation, answered from the edge sets (`e,`, `-b`), also through case folding.
  { title: 'E, X-Ray (b) end.', abstract: 'K, \u212a-band; İ-dot, a.b, 1,2 (3) [x] 9% s.t. y) n: don\'t' },
  // Letters and digits around one space, answered from the titles' gap sets (`e t`), also through case folding.
  { title: 'Big K \u212a T \u0130 x 9 Z r\u00e9 t A  B a\tb', abstract: 'E T k t' },
  // Marks around one space, answered from the gap sets (`, a`, `. t`), and spaces beside spaces.
  { title: '(A) B, c. D ; e  (f \u212a, T', abstract: 'Yes, a. The ( x ) y: z  , q; A  b. \u0130 s' },
  // Common letter pairs, answered from the pair sets (`in`, `ti`), through case folding: `İ` lower-cases to `i` and a dot, `\u212a` to `k`.
  { title: 'İN \u212aN TİON iNg ın', abstract: 'Ti TI ın İn TIon; t-i, i n, ON, \u212aNOWN' },
  { title: 'Control \u0001char and \u001ffin', abstract: 'new\nlines; tab\tsep; cr\rx; bell\u0007b; back\\nslash; quote\"n' },
];

const ALPHABET = ['a', 'e', 't', 'h', 'o', 'f', 'n', 's', 'i', 'x', 'y', '0', '1', ' ', '  ', '-', '.', ',', '(', ')', '$', '\\', '"', ':', ';', 'é', 'İ', 'i̇', 'ß', 'ss', '\u212a', 'k', 'σ', 'ς', '😀', '\n', '\t', 'ﬁ', 'fi'];
const FIXED = ['nlines', 'tsep', 'rx', 'u000', '0001', '001f', '01c', '1ffin', 'nslash', 'n', '\\n', 'k\\n', '"n', 'ell', 'lb', 'l\u0007b', 'tion of the', ' of the ', 'of the', 'e.g.', 'state-of-the-art', ', ', ',', ' ', '  ', '.', 'zzzzzzzqqq', 'e', 'the', 'th', 'ation', ' a', 'a ', 'x,y', 'x, y', '-', '--', '$\\', 'i̇', 'istanbul', 'k', '\u212a', 'straße', 'ς', 'σ', 'é', 'cafe', '\n', 'of them.', 'of the end', 'w1 w2', 'of the w', 'e,', 'x-', '-r', '(b', 'b)', 'd.', 'k,', 'k-', '-b', 'i-', 'a.', '.b', '1,', ',2', '(3', '9%', 's.', 'y)', 'n:', "n'", "'t", 'z,', '-z', 'e ', ' e', 'x ', ' x', 'd ', ' 9', '9 ', 'k ', ' k', 'i ', ' z', 'e t', 'g k', 'k t', 'i t', 'x 9', '9 z', 'é t', 'a b', 's o', 'n t', 'ed t', 'z r', 'f t', ', a', '. t', ') b', 'a (', '( a', ', w', '; e', ': z', '  a', 'a  ', ', q', ', t', 'k, t', 'e, a', 'y, a', '. th', 's, a', 'e  (', ' , q', 'i s', '. i', 'in', 'ti', 'on', 'er', 'th', 'kn', 'ng', 'ing', 'tion', 'io', 'i̇n', 'ın', '1n'];

/**
 * The catalogue as one index, or written in batches: small delta indexes whose substring tables
 * are built from their stored papers when a filter first reads them (see `deferred-tables.ts`),
 * never merged here.
 */
async function writtenSource(papers: readonly Paper[]): Promise<PaperSource> {
  const source = createMemorySource(papers.slice(0, 40), { merges: { maxDeltaShare: 1e9, maxDeltas: 1e9 } });
  for (let from = 40; from < papers.length; from += 170) await source.upsert(papers.slice(from, from + 170));
  return source;
}

describe.each([
  ['one index', (papers: readonly Paper[]) => Promise.resolve<PaperSource>(createMemorySource(papers))],
  ['write batches', writtenSource],
])('substring filters = toLowerCase().includes (%s)', (_, sourceOf) => {
  let papers: Paper[];
  let engine: PaperSource;
  let reference: PaperSource;
  beforeAll(async () => {
    const sample = await loadSamplePapers();
    papers = [...sample.slice(0, 1500), ...TRICKY.map((p, i) => makePaper({ id: `tricky-${i}`, ...p }))];
    engine = await sourceOf(papers);
    reference = createScanSource(papers);
  });

  const query = (field: 'titleContains' | 'abstractContains', needle: string, withQ: string | null): PaperQuery => ({
    terms: withQ === null ? [] : [{ raw: withQ, words: [withQ], arxivId: null }],
    filters: { [field]: needle },
    ordering: { kind: 'fields', keys: [{ field: 'id', descending: false }] },
    offset: 0,
    limit: 1e9,
  });

  async function same(field: 'titleContains' | 'abstractContains', needle: string, withQ: string | null = null) {
    const [got, want] = await Promise.all([engine.list(query(field, needle, withQ)), reference.list(query(field, needle, withQ))]);
    const ids = (page: typeof got) => page.results.map((r) => (r as { id: string }).id);
    expect(got.count, `${field} ${JSON.stringify(needle)} q=${withQ}`).toBe(want.count);
    expect(ids(got), `${field} ${JSON.stringify(needle)}`).toEqual(ids(want));
  }

  it.each(FIXED)('fixed needle %j', async (needle) => {
    await same('titleContains', needle);
    await same('abstractContains', needle);
  });

  it('needles cut from the texts themselves, any length, in any case', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.nat(),
        fc.boolean(),
        fc.nat(400),
        fc.integer({ min: 1, max: 24 }),
        fc.constantFrom('as is', 'upper', 'lower', 'mixed'),
        async (pick, title, from, length, casing) => {
          const paper = papers[pick % papers.length]!;
          const text = title ? paper.title : paper.abstract;
          if (text.length === 0) return;
          const start = from % text.length;
          let needle = text.slice(start, start + length);
          if (casing === 'upper') needle = needle.toUpperCase();
          else if (casing === 'lower') needle = needle.toLowerCase();
          else if (casing === 'mixed') needle = [...needle].map((c, i) => (i % 2 ? c.toUpperCase() : c)).join('');
          await same(title ? 'titleContains' : 'abstractContains', needle);
        },
      ),
      { numRuns: 400, seed: 20261125 },
    );
  });

  it('needles from an alphabet of separators and unusual case mappings', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.constantFrom(...ALPHABET), { minLength: 1, maxLength: 6 }), fc.boolean(), async (chars, title) => {
        await same(title ? 'titleContains' : 'abstractContains', chars.join(''));
      }),
      { numRuns: 400, seed: 7 },
    );
  });

  it('combined with a search and with each other', async () => {
    for (const [needle, q] of [['of the', 'model'], ['e', 'learning'], ['tion', 'neural'], [', ', 'x'], ['é', 'cafe']] as const) {
      await same('abstractContains', needle, q);
      await same('titleContains', needle, q);
    }
    const both: PaperQuery = { ...query('titleContains', 'a', null), filters: { titleContains: 'a', abstractContains: 'of the' } };
    const [got, want] = await Promise.all([engine.list(both), reference.list(both)]);
    expect(got.count).toBe(want.count);
  });
});

/**
 * The same needles through the whole engine with reading made dear: on a catalogue this small
 * the cost model mostly reads the candidates, and this makes it walk the words and join the
 * positions instead (the paths that answer at 498k), against the scan source.
 */
describe('substring filters with reading made dear = the scan source', () => {
  const costs = { ...READ_COST };
  let papers: Paper[];
  let engine: PaperSource;
  let reference: PaperSource;
  beforeAll(async () => {
    READ_COST.title = costs.title * 1e6;
    READ_COST.abstract = costs.abstract * 1e6;
    const sample = await loadSamplePapers();
    papers = [...sample.slice(0, 1500), ...TRICKY.map((p, i) => makePaper({ id: `tricky-${i}`, ...p }))];
    engine = createMemorySource(papers);
    reference = createScanSource(papers);
    return () => Object.assign(READ_COST, costs);
  });

  it('needles cut from the texts, and at word edges', async () => {
    const edges = ['e ', ' t', 's ', 'ed ', 'e,', '-b', '(a', 'e t', ', a', '. t', 'e, a', 'ti', 'in', 'the ', ' of ', 'tion of the'];
    for (const needle of edges) {
      for (const field of ['titleContains', 'abstractContains'] as const) {
        const q: PaperQuery = { terms: [], filters: { [field]: needle }, ordering: { kind: 'fields', keys: [{ field: 'id', descending: false }] }, offset: 0, limit: 1e9 };
        const [got, want] = await Promise.all([engine.list(q), reference.list(q)]);
        expect(got.results.map((r) => (r as { id: string }).id), `${field} ${JSON.stringify(needle)}`).toEqual(want.results.map((r) => (r as { id: string }).id));
      }
    }
    await fc.assert(
      fc.asyncProperty(fc.nat(), fc.boolean(), fc.nat(400), fc.integer({ min: 1, max: 6 }), async (pick, title, from, length) => {
        const paper = papers[pick % papers.length]!;
        const text = title ? paper.title : paper.abstract;
        if (text.length === 0) return;
        const needle = text.slice(from % text.length, (from % text.length) + length);
        const field = title ? 'titleContains' : 'abstractContains';
        const q: PaperQuery = { terms: [], filters: { [field]: needle }, ordering: { kind: 'fields', keys: [{ field: 'id', descending: false }] }, offset: 0, limit: 1e9 };
        const [got, want] = await Promise.all([engine.list(q), reference.list(q)]);
        expect(got.count, `${field} ${JSON.stringify(needle)}`).toBe(want.count);
        expect(got.results.map((r) => (r as { id: string }).id)).toEqual(want.results.map((r) => (r as { id: string }).id));
      }),
      { numRuns: 300, seed: 20261129 },
    );
  });
});

/**
 * Words are folded (accents and marks dropped, ligatures split), the filters are not: a word
 * holding the needle proves nothing in a document with a code point that folds into the
 * needle's letters or to nothing. Texts from such code points, needles of plain letters.
 */
describe('substring filters over folded words', () => {
  const TEXT = ['t', 'h', 'e', 'f', 'i', 's', 'a', ' ', ' ', '-', '\u0301', '\u0308', 'é', 'ë', 'ﬁ', 'ß', 'İ', 'ǅ', 'ţ', 'ł', '😀', '\u00a0', 'Th', 'TH'];
  const NEEDLE = ['t', 'h', 'e', 'f', 'i', 's', 'a', 'd', 'z'];
  const text = fc.array(fc.constantFrom(...TEXT), { minLength: 0, maxLength: 40 }).map((parts) => parts.join(''));
  const texts = fc.sample(fc.tuple(text, text), { numRuns: 600, seed: 20261127 });
  const papers = texts.map(([title, abstract], i) => makePaper({ id: `folded-${i}`, title, abstract }));
  // Plain English, so that `the` and `he` are common words with sets of their own.
  for (let i = 0; i < 400; i++) papers.push(makePaper({ id: `plain-${i}`, title: `the ${i} of the`, abstract: `he and the thesis ${i}; the end` }));
  const engine = createMemorySource(papers);
  const reference = createScanSource(papers);

  it('finds exactly what toLowerCase().includes finds', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.constantFrom(...NEEDLE), { minLength: 1, maxLength: 4 }), fc.boolean(), async (letters, title) => {
        const needle = letters.join('');
        const query: PaperQuery = {
          terms: [],
          filters: { [title ? 'titleContains' : 'abstractContains']: needle },
          ordering: { kind: 'fields', keys: [{ field: 'id', descending: false }] },
          offset: 0,
          limit: 1e9,
        };
        const [got, want] = await Promise.all([engine.list(query), reference.list(query)]);
        const ids = (page: typeof got) => page.results.map((r) => (r as { id: string }).id);
        expect(ids(got), `${title ? 'title' : 'abstract'} ${needle}`).toEqual(ids(want));
      }),
      { numRuns: 300, seed: 11 },
    );
  });
});
