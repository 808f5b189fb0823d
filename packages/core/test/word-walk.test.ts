import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import type { IndexData } from '../src/engine/builder.js';
import { listSet, setToList, type DocSet } from '../src/engine/doc-set.js';
import { readNeedle } from '../src/engine/substring/needle.js';
import { COMMON, READ_COST, walkOrder, walkWords, type EdgeSeparators } from '../src/engine/substring/word-walk.js';
import { wordsFor, type RunMatch } from '../src/engine/substring/word-sets.js';
import { buildIndex } from '../src/memory/build-index.js';
import type { Paper } from '../src/paper.js';
import { loadSamplePapers } from '../src/sample.js';
import { makePaper } from './make-paper.js';
import { TRICKY_TEXTS } from './tricky-texts.js';

/**
 * The word walk of one-run needles (`ti`, `e `, `(a`, ` of `) called directly, whatever the
 * cost model would pick on a catalogue this small, against `toLowerCase().includes`: every
 * document it keeps and every one it leaves out, with and without candidates to stay within.
 */

type Field = 'title' | 'abstract';

let papers: Paper[];
let index: IndexData;
/** The papers in the index's document order. */
let docs: Paper[];

beforeAll(async () => {
  const sample = await loadSamplePapers();
  papers = [...sample.slice(0, 1200), ...TRICKY_TEXTS.map((p, i) => makePaper({ id: `tricky-${i}`, ...p }))];
  index = buildIndex(papers);
  docs = papers.map((_, d) => index.store.paper(d));
});

/** The documents whose field holds `needle`, lower-cased: what the walk must answer. */
function expected(field: Field, needle: string, within: Uint32Array | null): number[] {
  const all = within === null ? docs.map((_, d) => d) : [...within];
  return all.filter((d) => docs[d]![field].toLowerCase().includes(needle));
}

function walk(field: Field, needle: string, candidates: DocSet): number[] | null {
  const parsed = readNeedle(needle);
  if (parsed.kind !== 'ascii' || parsed.words.length !== 1) return null;
  const [first, last] = parsed.separators as [string, string];
  const how: RunMatch = first === '' ? (last === '' ? 'contains' : 'suffix') : last === '' ? 'prefix' : 'exact';
  const edges: EdgeSeparators | null = how === 'contains' ? null : { before: first === '' ? null : first, after: last === '' ? null : last };
  const words = wordsFor(index, parsed.words[0]!, how);
  const text = field === 'title' ? index.titleText : index.abstractText;
  const read = (some: Uint32Array) => Uint32Array.from([...some].filter((d) => docs[d]![field].toLowerCase().includes(needle)));
  const found = walkWords(index, text, field, parsed.words[0]!, words, edges, read, candidates);
  const list = [...setToList(found)];
  return candidates.kind === 'all' ? list : list.filter((d) => setToList(candidates).includes(d));
}

// With reading dear, the walk goes through every word instead of reading the last candidates:
// the separator flags then decide nearly everything.
describe.each([
  ['as the cost model says', 1],
  ['with reading made dear', 1e6],
])('walkWords (one-run substring needles), %s', (_, factor) => {
  const costs = { ...READ_COST };
  beforeAll(() => {
    READ_COST.title = costs.title * factor;
    READ_COST.abstract = costs.abstract * factor;
    return () => Object.assign(READ_COST, costs);
  });

  it.each([
    ['title', 'e '],
    ['abstract', 'e '],
    ['abstract', ' t'],
    ['abstract', 'e,'],
    ['abstract', 's. '],
    ['abstract', '(a'],
    ['abstract', ' of '],
    ['title', '-of-'],
    ['abstract', 'ti'],
    ['title', 'in'],
    ['abstract', 'cafe '],
    ['title', 'fi'],
    ['abstract', 'a '],
    ['title', 'k'],
    ['abstract', 'the'],
    ['abstract', ' the'],
    ['abstract', 'g.'],
    ['title', 'k '],
    ['abstract', 'x '],
  ] as [Field, string][])('%s contains %j: exactly the documents holding it', (field, needle) => {
    expect(walk(field, needle, { kind: 'all', size: papers.length })).toEqual(expected(field, needle, null));
  });

  it('needles cut from the texts at word edges, within random candidates', () => {
    fc.assert(
      fc.property(fc.nat(), fc.boolean(), fc.nat(2000), fc.integer({ min: 1, max: 5 }), fc.integer({ min: 0, max: 3 }), fc.nat(), (pick, title, from, length, density, seed) => {
        const field: Field = title ? 'title' : 'abstract';
        const text = docs[pick % docs.length]![field].toLowerCase();
        if (text.length === 0) return;
        const start = from % text.length;
        const needle = text.slice(start, start + length);
        // Candidates: all documents, or a pseudo-random share of them.
        let candidates: DocSet = { kind: 'all', size: papers.length };
        if (density > 0) {
          const kept = papers.map((_, d) => d).filter((d) => ((d * 2654435761 + seed) >>> 0) % 4 < density);
          candidates = listSet(Uint32Array.from(kept));
        }
        const got = walk(field, needle, candidates);
        if (got === null) return;
        expect(got, `${field} ${JSON.stringify(needle)}`).toEqual(expected(field, needle, candidates.kind === 'all' ? null : setToList(candidates)));
      }),
      { numRuns: 600, seed: 20261129 },
    );
  });
});

describe('walkOrder', () => {
  it('puts the common words first, then the dear ones dearest first, then the rest in word order', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.nat(5000), { maxLength: 60 }), fc.array(fc.integer({ min: -1, max: 40 }), { minLength: 60, maxLength: 60 }), fc.integer({ min: 0, max: 41 }), (raw, costOf, dear) => {
        const unordered = Uint32Array.from(raw.sort((a, b) => a - b));
        const cost = (w: number) => (costOf[w % 60]! < 0 ? COMMON : costOf[w % 60]!);
        const { words, costs, left } = walkOrder(unordered, cost, dear);
        expect([...words].sort((a, b) => a - b)).toEqual([...unordered]);
        expect([...costs]).toEqual([...words].map(cost));
        expect(left).toBe([...unordered].map(cost).filter((c) => c !== COMMON).reduce((a, b) => a + b, 0));
        const rank = (c: number) => (c === COMMON ? 0 : c >= dear ? 1 : 2);
        for (let i = 1; i < words.length; i++) {
          const [a, b] = [costs[i - 1]!, costs[i]!];
          expect(rank(a)).toBeLessThanOrEqual(rank(b));
          if (rank(a) === rank(b) && rank(a) === 1) expect(a > b || (a === b && words[i - 1]! < words[i]!)).toBe(true);
          if (rank(a) === rank(b) && rank(a) !== 1) expect(words[i - 1]!).toBeLessThan(words[i]!);
        }
      }),
      { numRuns: 300, seed: 29 },
    );
  });
});
