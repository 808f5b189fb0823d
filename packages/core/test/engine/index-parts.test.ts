import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { IndexBuilder, type IndexData } from '../../src/engine/builder.js';
import { LAST, POSITION } from '../../src/engine/postings.js';
import { findArxivDocs } from '../../src/engine/arxiv-lookup.js';
import { asciiBytes } from '../../src/engine/paper-store.js';
import { comparePapersBy } from '../../src/ordering/compare-papers.js';
import { parseOrderKeys } from '../../src/ordering/parse-ordering.js';
import { serializePaper, type Paper } from '../../src/paper.js';
import { loadSamplePapers } from '../../src/sample.js';
import { paperWords } from '../../src/search/paper-words.js';
import { makePaper } from '../make-paper.js';

function build(papers: readonly Paper[]): IndexData {
  const builder = new IndexBuilder();
  for (const paper of papers) builder.add(paper);
  return builder.finish();
}

/** Index numbering: document d is the paper with this id. */
function paperOf(index: IndexData, papers: readonly Paper[]): Paper[] {
  const byId = new Map(papers.map((p) => [p.id, p]));
  return Array.from({ length: index.n }, (_, d) => byId.get(index.store.encoded(d).id)!);
}

describe('index parts on the sample', () => {
  let papers: Paper[];
  let index: IndexData;
  let docs: Paper[];
  beforeAll(async () => {
    papers = await loadSamplePapers();
    index = build(papers);
    docs = paperOf(index, papers);
  });

  it('keeps every paper as its exact JSON and finds it by id', () => {
    for (let d = 0; d < index.n; d++) {
      expect(Buffer.from(index.store.json(d)).toString('utf8')).toBe(serializePaper(docs[d]!));
      expect(index.store.findId(docs[d]!.id)).toBe(d);
    }
    expect(index.store.findId('no-such-id')).toBe(-1);
  });

  it('finds papers by arXiv id', () => {
    const byArxiv = new Map<string, number[]>();
    docs.forEach((p, d) => p.arxiv_id !== null && byArxiv.set(p.arxiv_id, [...(byArxiv.get(p.arxiv_id) ?? []), d]));
    for (const [arxivId, ds] of byArxiv) expect(Array.from(findArxivDocs(index, arxivId))).toEqual(ds);
    expect(findArxivDocs(index, '0000.00000').length).toBe(0);
  });

  it('has, for every word, its documents and positions', () => {
    // Naive positions: title, gap, abstract, gap, each author name and a gap.
    const expected = new Map<string, Map<number, number[]>>();
    docs.forEach((paper, d) => {
      const words = paperWords(paper);
      let at = 0;
      for (const field of [words.title, words.abstract, ...words.authors]) {
        field.forEach((word, j) => {
          const perDoc = expected.get(word) ?? new Map<number, number[]>();
          expected.set(word, perDoc);
          const list = perDoc.get(d);
          if (list) list.push(at + j);
          else perDoc.set(d, [at + j]);
        });
        at += field.length + 1;
      }
    });
    const { postings, vocabulary } = index;
    expect(vocabulary.size).toBe(expected.size);
    const words = Array.from({ length: vocabulary.size }, (_, w) => vocabulary.word(w));
    let denseWords = 0;
    const mismatches: string[] = [];
    for (let w = 0; w < vocabulary.size; w++) {
      const want = expected.get(words[w]!)!;
      const wantDocs = [...want.keys()].sort((a, b) => a - b);
      const set = postings.docSet(w);
      if (set.kind === 'bits') denseWords++;
      const got = set.kind === 'list' ? Array.from(set.docs) : set.kind === 'bits' ? wantDocs.filter((d) => (set.bits[d >>> 5]! >>> (d & 31)) & 1) : [];
      if (set.kind === 'bits' && set.count !== wantDocs.length) mismatches.push(`${words[w]} count`);
      if (got.join() !== wantDocs.join() || postings.df[w] !== wantDocs.length) mismatches.push(`${words[w]} docs`);
      wantDocs.forEach((d, i) => {
        if (set.kind === 'bits' && postings.rank(w, d) !== i) mismatches.push(`${words[w]} rank ${d}`);
        let off = postings.pairOffset(w, i);
        const positions: number[] = [];
        for (;;) {
          const v = postings.positions[off++]!;
          positions.push(v & POSITION);
          if (v & LAST) break;
        }
        if (positions.join() !== want.get(d)!.join()) mismatches.push(`${words[w]} positions in ${d}`);
      });
    }
    expect(mismatches.slice(0, 10)).toEqual([]);
    expect(denseWords).toBeGreaterThan(50);
    // The vocabulary is sorted, and a prefix is a range.
    expect([...words].sort()).toEqual(words);
    for (const prefix of ['trans', 't', 'zzzz', '', 'learning', 'a']) {
      const [from, to] = vocabulary.prefixRange(prefix);
      expect(words.slice(from, to), prefix).toEqual(words.filter((w) => w.startsWith(prefix)));
    }
    expect(words.every((word, w) => vocabulary.find(word) === w)).toBe(true);
    expect(vocabulary.find('no-such-word')).toBe(-1);
  });

  it('orders documents exactly like the reference comparator, for every ordering', () => {
    const orderings = ['title', '-title', 'published', '-published', 'arxiv_id', '-arxiv_id', 'id', '-id', '-published,title', 'arxiv_id,-title', 'title,-id', 'published,id,title', '-arxiv_id,-published,-title'];
    for (const ordering of orderings) {
      const keys = parseOrderKeys(ordering)!;
      const want = docs.slice().sort(comparePapersBy(keys)).map((p) => p.id);
      const order = index.orders.order(keys);
      const all = Array.from(order.slice(0, index.n), (d) => docs[d]!.id);
      expect(all, ordering).toEqual(want);
      // Keys sort the same way, and map back.
      const sample = Uint32Array.from({ length: 300 }, (_, i) => (i * 7919) % index.n);
      const keys2 = order.keys(sample);
      const sorted = Array.from(keys2).sort((a, b) => a - b).map((k) => docs[order.docOfKey(k)]!.id);
      expect(sorted, ordering).toEqual(want.filter((id) => Array.from(sample).some((d) => docs[d]!.id === id)));
    }
  });

  it('numbers documents in the default order (title, then id)', () => {
    const want = docs.slice().sort(comparePapersBy(parseOrderKeys('title')!));
    expect(docs.map((p) => p.id)).toEqual(want.map((p) => p.id));
  });

  it('averages field lengths over the catalogue', () => {
    const words = papers.map(paperWords);
    const mean = (f: (w: ReturnType<typeof paperWords>) => number) => words.reduce((s, w) => s + f(w), 0) / papers.length;
    expect(index.layout.averages).toEqual({
      title: mean((w) => w.title.length),
      abstract: mean((w) => w.abstract.length),
      authors: mean((w) => w.authors.reduce((s, a) => s + a.length, 0)),
    });
  });
});

describe('substring filters on the stored bytes', () => {
  const titles = ['Plain ASCII Title', 'Quote " and back\\slash', 'Kelvin \u212a scale', 'İstanbul', 'Emoji 😀 here', 'Straße', 'tab\there'];
  const papers = titles.map((title, i) => makePaper({ id: `p${i}`, title, abstract: title.toUpperCase() }));
  const index = build(papers);
  const docs = paperOf(index, papers);

  it.each(['plain', 'ASCII TITLE', '" and', 'k\\s', 'back\\', 'k', 'i̇', 'istanbul', '😀', 'straße', 'STRASSE', '\t', '', 'nothing'])(
    'title contains %j like toLowerCase().includes',
    (needle) => {
      const lower = needle.toLowerCase();
      for (let d = 0; d < index.n; d++) {
        expect(index.store.titleContains(d, lower, asciiBytes(lower)), `${docs[d]!.title} ∋ ${needle}`).toBe(docs[d]!.title.toLowerCase().includes(lower));
        expect(index.store.abstractContains(d, lower, asciiBytes(lower))).toBe(docs[d]!.abstract.toLowerCase().includes(lower));
      }
    },
  );
});

describe('arXiv id lookups', () => {
  // Found by a binary search of the arxiv_id order: duplicates, nulls, JSON escapes and the
  // code point order (astral characters against U+E000) must all come out exact.
  const ids = ['1706.03762', '1706.03762v2', '', 'a"b', 'a\\b', '\u{1F600}', '\uE000', 'é', '0001.0001'];
  it('finds exactly the papers with that arxiv_id', () => {
    fc.assert(
      fc.property(fc.array(fc.option(fc.constantFrom(...ids), { nil: null }), { minLength: 1, maxLength: 30 }), fc.constantFrom(...ids, 'absent'), (arxivIds, probe) => {
        const papers = arxivIds.map((arxiv_id, i) => makePaper({ id: `p${i}`, title: `t${i % 3}`, arxiv_id }));
        const index = build(papers);
        const want = Array.from({ length: index.n }, (_, d) => d).filter((d) => JSON.parse(new TextDecoder().decode(index.store.json(d))).arxiv_id === probe);
        expect(Array.from(findArxivDocs(index, probe))).toEqual(want);
      }),
      { numRuns: 300 },
    );
  });
});
