import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  compareCodePoints,
  createScanSource,
  FACET_FIELDS,
  normalizeAnnotations,
  textWords,
  toPaper,
  type FacetBucket,
  type Paper,
  type PaperAnnotations,
  type PaperSource,
  type PaperChange,
  type FacetField,
} from '@paperlist/core';
import { loadSamplePapers } from '@paperlist/core/sample';
import { queryFor } from '@paperlist/conformance';
import { createPostgresSource, importPapers, migrate, type PostgresSource, type Queryable } from '../src/index.js';
import { decodePostings, encodeEntry, MAX_ENTRY_BYTES } from '../src/posting-codec.js';
import { FACT_COLUMNS } from '../src/facet-facts-builder.js';
import { queryRows } from '../src/db.js';
import { dropSchema, newPGlite, noteServerSkip, randomSchema, serverPool, TEST_DATABASE_URL } from './helpers.js';
import { eventually } from './following-helpers.js';

noteServerSkip('postings.test.ts');

/** A seeded generator, so that a failure names a query that fails again. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

const ORDERINGS = ['', '-published', 'title', 'published', '-title', 'arxiv_id', '-arxiv_id', 'id', '-id', 'published,-title', '-published,arxiv_id'];

/** Searches of 1–3 single words (some cut to prefixes of 1–5 characters) in every ordering, pages 1–3. */
function searches(papers: readonly Paper[], count: number, seed: number): { raw: string; page: number }[] {
  const next = random(seed);
  const out: { raw: string; page: number }[] = [];
  while (out.length < count) {
    const paper = papers[Math.floor(next() * papers.length)]!;
    const words = textWords(`${paper.title} ${paper.abstract} ${paper.authors.join(' ')}`);
    if (words.length === 0) continue;
    const n = 1 + Math.floor(next() * 3);
    const picked: string[] = [];
    for (let i = 0; i < n; i++) {
      const word = words[Math.floor(next() * words.length)]!;
      picked.push(next() < 0.3 ? word.slice(0, 1 + Math.floor(next() * 5)) : word);
    }
    const ordering = ORDERINGS[Math.floor(next() * ORDERINGS.length)]!;
    const pairs = next() < 0.15 ? [] : [`q=${encodeURIComponent(picked.join(' '))}`];
    // Substring filters: a piece of a word (any case, accents kept), now and then across words.
    if (pairs.length === 0 || next() < 0.3) {
      const field = next() < 0.5 ? 'title' : 'abstract';
      const text = field === 'title' ? paper.title : paper.abstract;
      const from = Math.floor(next() * Math.max(1, text.length - 6));
      const piece = text.slice(from, from + 2 + Math.floor(next() * 5)).trim();
      if (piece !== '') pairs.push(`${field}=${encodeURIComponent(next() < 0.5 ? piece.toUpperCase() : piece)}`);
    }
    if (pairs.length === 0) continue;
    if (ordering !== '') pairs.push(`ordering=${ordering}`);
    const raw = pairs.join('&');
    out.push({ raw, page: 1 + Math.floor(next() * next() * 3) });
  }
  return out;
}

/**
 * Requests with the filters the facet facts answer (dates, venues, proceedings, author names,
 * tasks, methods; values taken from the papers, `|` alternatives), alone, together, with a
 * search word or a substring filter, in every ordering, pages 1–3.
 */
function factFiltered(papers: readonly Paper[], annotations: ReadonlyMap<string, PaperAnnotations>, count: number, seed: number): { raw: string; page: number }[] {
  const next = random(seed);
  const any = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  const paper = () => any(papers);
  const dated = papers.filter((p) => p.published !== null);
  const withProceeding = papers.filter((p) => p.proceeding !== null);
  const annotated = papers.filter((p) => annotations.has(p.id));
  const slugs = (kind: 'tasks' | 'methods') => annotated.flatMap((p) => (kind === 'tasks' ? annotations.get(p.id)!.tasks : annotations.get(p.id)!.methods.map((m) => m.name)));
  const slug = (name: string) => name.toLowerCase().normalize('NFKD').replace(/\p{M}+/gu, '').replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '');
  const authorOf = (fallback: string) => {
    const { authors } = paper();
    return authors.length > 0 ? any(authors) : fallback;
  };
  const wordsOf = (name: string) => (textWords(name).length > 0 ? textWords(name) : ['a']);
  const makers: (() => string)[] = [
    () => `year=${any(dated).published!.slice(0, 4)}`,
    () => `year=${any(dated).published!.slice(0, 4)}-${next() < 0.5 ? '' : any(dated).published!.slice(0, 4)}`,
    () => `published_after=${any(dated).published!.slice(0, next() < 0.5 ? 7 : 10)}`,
    () => `published_before=${any(dated).published!.slice(0, next() < 0.5 ? 4 : 10)}`,
    () => `venue=${encodeURIComponent((any(withProceeding).proceeding!.split(/[-\s]/)[0] ?? '').toLowerCase())}${next() < 0.3 ? '%7Cnips' : ''}`,
    () => `proceeding=${encodeURIComponent(any(withProceeding).proceeding!)}${next() < 0.3 ? `%7C${encodeURIComponent(any(withProceeding).proceeding!)}` : ''}`,
    () => `author_name=${encodeURIComponent(authorOf('Nobody At All'))}`,
    () => `task=${slug(any(slugs('tasks')))}${next() < 0.3 ? '%7Cno-such-task' : ''}`,
    () => `method=${slug(any(slugs('methods')))}`,
    // author=: a word's prefix; two words of one name; words of two names of one paper; alternatives.
    () => `author=${encodeURIComponent(any(wordsOf(authorOf('a'))).slice(0, 1 + Math.floor(next() * 4)))}`,
    () => {
      const words = wordsOf(authorOf('x y'));
      return `author=${encodeURIComponent(`${any(words)} ${any(words).slice(0, 3)}`)}`;
    },
    () => {
      const { authors } = any(papers.filter((p) => p.authors.length > 1));
      return `author=${encodeURIComponent(`${any(wordsOf(authors[0]!))} ${any(wordsOf(authors[1]!))}`)}`;
    },
    () => `author=${encodeURIComponent(`${any(wordsOf(authorOf('a b')))}|${any(wordsOf(authorOf('c')))} ${'abcdefghij'[Math.floor(next() * 10)]}`)}`,
  ];
  const out: { raw: string; page: number }[] = [];
  while (out.length < count) {
    const pairs = Array.from({ length: 1 + Math.floor(next() * 2) }, () => any(makers)());
    const words = textWords(paper().title);
    if (words.length > 0 && next() < 0.4) pairs.push(`q=${encodeURIComponent(any(words).slice(0, next() < 0.3 ? 2 : 20))}`);
    if (next() < 0.15) pairs.push('abstract=the');
    const ordering = any(ORDERINGS);
    if (ordering !== '') pairs.push(`ordering=${ordering}`);
    out.push({ raw: pairs.join('&'), page: 1 + Math.floor(next() * next() * 3) });
  }
  return out;
}

/** Compares the source's answers with the scan source's (the reference) on the same queries. */
async function expectSameAnswers(source: PaperSource, reference: PaperSource, queries: { raw: string; page: number }[], limit = 20): Promise<void> {
  for (const { raw, page } of queries) {
    const query = queryFor(raw, (page - 1) * limit, limit);
    const [got, want] = await Promise.all([source.list(query), reference.list(query)]);
    const ids = (results: readonly unknown[]) => results.map((r) => toPaper(r as Paper).id);
    expect({ raw, page, count: got.count, ids: ids(got.results) }).toEqual({ raw, page, count: want.count, ids: ids(want.results) });
  }
}

/** Tasks and methods for about half the papers, with names that share a slug and papers holding a slug twice. */
function someAnnotations(papers: readonly Paper[], seed: number): Map<string, PaperAnnotations> {
  const next = random(seed);
  const tasks = ['Image Classification', 'image classification!', 'Machine Translation', 'Q-Learning', 'Réseau neuronal', 'Object Detection'];
  const methods = ['Adam', 'ResNet', 'Transformer', 'Batch Normalization', 'adam'];
  const pick = (names: readonly string[]) => Array.from({ length: Math.floor(next() * 4) }, () => names[Math.floor(next() * names.length)]!);
  const out = new Map<string, PaperAnnotations>();
  for (const paper of papers) {
    if (next() < 0.5) continue;
    const record = (name: string) => ({ name, full_name: name, description: '', introduced_year: null, source_url: null, source_title: null, code_snippet_url: null });
    out.set(paper.id, normalizeAnnotations({ tasks: pick(tasks), methods: pick(methods).map(record) }));
  }
  return out;
}

/** Buckets as an answer shows them: the best `limit` by count, then value by code points, and the null bucket. */
function bestBuckets(buckets: FacetBucket[] | undefined, limit: number): string[] {
  const values = (buckets ?? []).filter((b) => b.value !== null && b.count > 0);
  values.sort((a, b) => b.count - a.count || compareCodePoints(a.value!, b.value!));
  const none = (buckets ?? []).find((b) => b.value === null)?.count ?? 0;
  return [...values.slice(0, limit).map((b) => `${b.value}:${b.count}`), `null:${none}`];
}

describe('posting-list codec', () => {
  it('round-trips small, large and escaped counts', () => {
    const entries = [
      [1, 1, 0, 0],
      [2, 0, 15, 3],
      [300, 3, 3, 15],
      [70_000, 4, 0, 0],
      [70_001, 0, 100_000, 2],
      [2 ** 31 - 1, 1, 1, 1],
    ] as const;
    const bytes = new Uint8Array(entries.length * MAX_ENTRY_BYTES);
    let at = 0;
    let previous = 0;
    for (const [ord, title, abstract, authors] of entries) {
      at = encodeEntry(bytes, at, ord - previous, title, abstract, authors);
      previous = ord;
    }
    const decoded = decodePostings(bytes.subarray(0, at), entries.length);
    expect(Array.from(decoded.ords)).toEqual(entries.map((entry) => entry[0]));
    expect(Array.from(decoded.title)).toEqual(entries.map((entry) => entry[1]));
    expect(Array.from(decoded.abstract)).toEqual(entries.map((entry) => entry[2]));
    expect(Array.from(decoded.authors)).toEqual(entries.map((entry) => entry[3]));
  });
});

/** Statements that read the posting lists (or another table), counted by wrapping the database's `query`. */
function counting(db: Queryable, table = '.paperlist_postings'): { db: Queryable; reads: () => number } {
  let reads = 0;
  const wrapped = Object.create(db) as Queryable;
  wrapped.query = ((text: string, ...rest: unknown[]) => {
    if (typeof text === 'string' && text.includes(table)) reads++;
    return (db.query as (text: string, ...rest: unknown[]) => Promise<unknown>).call(db, text, ...rest);
  }) as Queryable['query'];
  return { db: wrapped, reads: () => reads };
}

/**
 * `db` imports; `reader` (one session, so that its statements can be counted) serves.
 */
function definePostingsTests(
  name: string,
  open: () => Promise<{ db: Queryable; reader: Queryable; close: () => Promise<void> }>,
  method: 'copy' | 'insert' = 'copy',
): void {
  describe(`posting lists on ${name} (rows by ${method})`, () => {
    let papers: Paper[];
    let db: Queryable;
    let reader: Queryable;
    let close: () => Promise<void>;
    const schema = randomSchema('pl_lists');
    let source: PostgresSource;
    let reads: () => number;

    let annotations: Map<string, PaperAnnotations>;
    let facetReads: () => number;

    beforeAll(async () => {
      papers = (await loadSamplePapers()).slice(0, 1500);
      annotations = someAnnotations(papers, 5);
      ({ db, reader, close } = await open());
      await migrate(db, { schema });
      await importPapers(db, papers, { schema, method, annotations });
      const counted = counting(reader);
      reads = counted.reads;
      const facets = counting(counted.db, '.paperlist_facet_facts');
      facetReads = facets.reads;
      source = await createPostgresSource({ db: facets.db, schema });
    }, 120_000);
    afterAll(async () => {
      await dropSchema(db, schema).catch(() => {});
      await close();
    });

    it('answer single-word searches and substring filters as the reference does (counts, relevance, every ordering, pages)', async () => {
      await expectSameAnswers(source, createScanSource(papers), [
        ...searches(papers, 300, 18),
        // Non-ASCII and cut words, where the filters read the stored text.
        { raw: `title=${encodeURIComponent('é')}`, page: 1 },
        { raw: 'abstract=the&ordering=-published', page: 2 },
      ]);
      expect(reads()).toBeGreaterThan(0);
    }, 120_000);

    it('answer dates, venues, proceedings, author names, tasks and methods from the facet facts as the reference does', async () => {
      const before = reads();
      await expectSameAnswers(source, createScanSource(papers, { annotations }), factFiltered(papers, annotations, 200, 41));
      // The facts alone answer filters without a search; with one, the lists are read too.
      expect(reads()).toBeGreaterThan(before);
    }, 120_000);

    it('count facets from the facet facts as the reference does, over searches, filters and every paper', async () => {
      const reference = createScanSource(papers, { annotations });
      const next = random(31);
      const queries = [{ raw: '', page: 1 }, ...searches(papers, 60, 29), ...factFiltered(papers, annotations, 40, 43)];
      for (const { raw } of queries) {
        const facetLimit = [1, 3, 10, 1000][Math.floor(next() * 4)]!;
        const query = { ...queryFor(raw, 0, next() < 0.5 ? 0 : 5), facets: [...FACET_FIELDS], facetLimit };
        const [got, want] = await Promise.all([source.list(query), reference.list(query)]);
        expect(got.count, raw).toBe(want.count);
        for (const field of FACET_FIELDS) {
          // Every value of the uncut facets; the best `facetLimit` authors.
          const limit = field === 'author' ? facetLimit : Infinity;
          expect(bestBuckets(got.facets?.[field], limit), `${raw} ${field}`).toEqual(bestBuckets(want.facets?.[field], limit));
        }
      }
      // One read per column (the facets' and `published`) for the catalogue version, however many requests.
      expect(facetReads()).toBe(FACT_COLUMNS.length);
    }, 120_000);

    it('read the order ranks and facet facts of a version as soon as the source sees it, before any request needs them', async () => {
      const facetFacts = counting(reader, '.paperlist_facet_facts');
      const ranks = counting(facetFacts.db, '.paperlist_paper_facts');
      const warm = await createPostgresSource({ db: ranks.db, schema });
      await eventually(async () => expect([facetFacts.reads(), ranks.reads()]).toEqual([FACT_COLUMNS.length, 1]), 30_000);
      const query = { ...queryFor('q=learning&year=2015-', 0, 5), facets: [...FACET_FIELDS] };
      expect((await warm.list(query)).count).toBe((await createScanSource(papers, { annotations }).list(query)).count);
      expect([facetFacts.reads(), ranks.reads()]).toEqual([FACT_COLUMNS.length, 1]);
      // Off: nothing is read before a request asks.
      const cold = counting(reader, '.paperlist_facet_facts');
      await createPostgresSource({ db: cold.db, schema, warmUp: false });
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(cold.reads()).toBe(0);
    }, 120_000);

    it('after writes the lists still answer, without the papers writes took away and with those written since, as the reference does', async () => {
      const next = random(77);
      const now = new Map(papers.map((paper) => [paper.id, paper]));
      const ids = () => [...now.keys()];
      const any = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
      const retired = counting(reader, 'paperlist_retired');
      const sql = counting(retired.db, 'word_ids');
      const writer = await createPostgresSource({ db, schema });
      const following = await createPostgresSource({ db: sql.db, schema });
      // Changes that move a paper in every ordering, change its words and its title's collation key.
      const changed = (paper: Paper, k: number): Paper => {
        const variant = k % 4;
        if (variant === 0) return { ...paper, title: `${paper.title} zebrafish${k % 3}` };
        if (variant === 1) return { ...paper, title: `Ärger ${k} ${paper.title.slice(0, 20)}`, published: next() < 0.5 ? null : `20${10 + (k % 15)}-0${1 + (k % 9)}-1${k % 9}` };
        if (variant === 2) return { ...paper, abstract: `zebrafish learning of ${paper.abstract.slice(0, 200)}`, authors: [...paper.authors, 'Zoë Writer'] };
        return { ...paper, arxiv_id: next() < 0.5 ? null : `2401.${String(k).padStart(5, '0')}`, proceeding: next() < 0.5 ? null : 'NeurIPS 2023' };
      };
      for (let batch = 0; batch < 12; batch++) {
        const changes: PaperChange[] = [];
        for (let c = 0; c < 1 + Math.floor(next() * 6); c++) {
          const roll = next();
          const k = batch * 10 + c;
          if (roll < 0.45) changes.push({ op: 'upsert', paper: changed(now.get(any(ids()))!, k) });
          else if (roll < 0.65) changes.push({ op: 'upsert', paper: { ...changed(any(papers), k), id: `written-${k}` } });
          else if (roll < 0.85) changes.push({ op: 'delete', id: any(ids()) });
          else changes.push({ op: 'delete', id: `absent-${k}` });
        }
        // The same id twice in a batch: the later wins.
        if (batch % 3 === 0) changes.push({ op: 'upsert', paper: changed(now.get(any(ids()))!, batch + 1000) }, changes[0]!);
        await writer.write(changes);
        for (const change of changes) {
          if (change.op === 'upsert') now.set(change.paper.id, change.paper);
          else now.delete(change.id);
        }
        await following.refreshVersion();
        const current = [...now.values()];
        const reference = createScanSource(current, { annotations: new Map([...annotations].filter(([id]) => now.has(id))) });
        const words = [...searches(current, 12, 100 + batch), ...factFiltered(current, annotations, 4, 200 + batch).filter(({ raw }) => !/task=|method=/.test(raw))];
        await expectSameAnswers(following, reference, [{ raw: 'q=zebrafish', page: 1 }, { raw: 'q=zebrafish1&ordering=-published', page: 1 }, { raw: 'q=zebra&ordering=title', page: 1 }, ...words]);
      }
      // Many of one word's papers taken away: its document frequency, so the relevance order, moves.
      const has = (paper: Paper, word: string) => textWords(`${paper.title} ${paper.abstract}`).some((w) => w.startsWith(word));
      const gone = [...now.values()].filter((paper) => has(paper, 'learn') && !has(paper, 'network')).slice(0, 300);
      await writer.write(gone.map((paper) => ({ op: 'delete' as const, id: paper.id })));
      for (const paper of gone) now.delete(paper.id);
      await following.refreshVersion();
      await expectSameAnswers(following, createScanSource([...now.values()]), [
        { raw: 'q=learning%20network', page: 1 },
        { raw: 'q=network%20learning', page: 2 },
        { raw: 'q=learn%20netw', page: 1 },
        { raw: 'q=deep%20learn', page: 1 },
      ]);
      expect(retired.reads()).toBeGreaterThan(0);
      // Searches of single words after writes: answered from the lists and the written papers, no search statement.
      const before = sql.reads();
      const reference = createScanSource([...now.values()], { annotations: new Map([...annotations].filter(([id]) => now.has(id))) });
      await expectSameAnswers(following, reference, [
        { raw: 'q=zebrafish', page: 1 },
        { raw: 'q=learning', page: 2 },
        { raw: 'q=learn&ordering=-published', page: 3 },
        { raw: 'q=a&ordering=title', page: 2 },
        { raw: 'q=network&published_after=2015', page: 1 },
        { raw: 'abstract=zebra&ordering=id', page: 1 },
      ]);
      expect(sql.reads()).toBe(before);
      // Facets after writes: the facts with the written papers counted in, and tasks and methods from SQL, the same way.
      const groups = counting(reader, 'GROUP BY');
      const faceted = await createPostgresSource({ db, readDb: groups.db, schema });
      const facetsCheck = async (fields: FacetField[], raws: string[]) => {
        for (const raw of raws) {
          for (const facetLimit of [1, 5, 1000]) {
            const query = { ...queryFor(raw, 0, 5), facets: fields, facetLimit };
            const [got, want] = await Promise.all([faceted.list(query), reference.list(query)]);
            expect(got.count, raw).toBe(want.count);
            for (const field of fields) {
              const limit = field === 'author' ? facetLimit : Infinity;
              expect(bestBuckets(got.facets?.[field], limit), `${raw} ${field}`).toEqual(bestBuckets(want.facets?.[field], limit));
            }
          }
        }
      };
      const plain = FACET_FIELDS.filter((field) => field !== 'task' && field !== 'method');
      await facetsCheck(plain, ['', 'q=zebrafish', 'q=learning&year=2015-', 'year=2015-', 'abstract=zebra', 'q=a&ordering=title']);
      expect(groups.reads()).toBe(0);
      await facetsCheck([...FACET_FIELDS], ['q=zebrafish', '']);
      expect(groups.reads()).toBeGreaterThan(0);
      await faceted.close();
      // A whole import builds the lists again: a new generation, no writes since.
      await importPapers(db, [...now.values()], { schema, replace: true });
      await following.refreshVersion();
      await expectSameAnswers(following, reference, [{ raw: 'q=zebrafish', page: 1 }, ...searches([...now.values()], 40, 8)]);
      expect(reads()).toBeGreaterThan(0);
      await Promise.all([writer.close(), following.close()]);
    }, 240_000);

    it('past maxWrittenPapers, or after a change from outside paperlist that keeps an ordinal, SQL answers, the same way', async () => {
      const stored = await queryRows<{ id: string }>(db, `SELECT id FROM ${schema}.papers ORDER BY ord LIMIT 3`);
      const small = await createPostgresSource({ db, schema, maxWrittenPapers: 2 });
      const writer = await createPostgresSource({ db, schema });
      const base = (await Promise.all(stored.map((row) => writer.get(row.id)))).map((paper) => toPaper(paper!));
      const all = new Map<string, Paper>();
      for (const paper of (await queryRows<{ id: string }>(db, `SELECT id FROM ${schema}.papers`)).map((row) => row.id)) all.set(paper, toPaper((await writer.get(paper))!));
      // Three written papers: more than `small` holds.
      const written = base.map((paper, i) => ({ ...paper, title: `${paper.title} quagga${i}` }));
      await writer.write(written.map((paper) => ({ op: 'upsert' as const, paper })));
      for (const paper of written) all.set(paper.id, paper);
      await small.refreshVersion();
      await expectSameAnswers(small, createScanSource([...all.values()]), [{ raw: 'q=quagga', page: 1 }, { raw: 'q=quagga1', page: 1 }, ...searches([...all.values()], 20, 9)]);
      // An UPDATE that keeps the ordinal (the lists would hold its old words): the lists are stale until the next whole import.
      const [first] = await queryRows<{ id: string }>(db, `SELECT id FROM ${schema}.papers WHERE ord <= (SELECT postings_through FROM ${schema}.paperlist_state) ORDER BY ord LIMIT 1`);
      await db.query(`UPDATE ${schema}.papers SET url_pdf = 'https://example.org/moved.pdf' WHERE id = $1`, [first!.id]);
      all.set(first!.id, { ...all.get(first!.id)!, url_pdf: 'https://example.org/moved.pdf' });
      const [state] = await queryRows<{ generation: string | null }>(db, `SELECT postings_version::text AS generation FROM ${schema}.paperlist_state`);
      expect(state!.generation).toBeNull();
      const sql = counting(reader, 'word_ids');
      const fresh = await createPostgresSource({ db: sql.db, schema });
      await expectSameAnswers(fresh, createScanSource([...all.values()]), [{ raw: 'q=quagga', page: 1 }, ...searches([...all.values()], 10, 10)]);
      expect(sql.reads()).toBeGreaterThan(0);
      await Promise.all([small.close(), writer.close(), fresh.close()]);
    }, 240_000);
  });
}

definePostingsTests('PGlite', async () => {
  const db = await newPGlite();
  return { db, reader: db, close: () => db.close() };
});

definePostingsTests(
  'PGlite',
  async () => {
    const db = await newPGlite();
    return { db, reader: db, close: () => db.close() };
  },
  'insert',
);

if (TEST_DATABASE_URL !== undefined) {
  definePostingsTests('the server', async () => {
    const pool = serverPool();
    const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await client.connect();
    return {
      db: pool as unknown as Queryable,
      reader: client as unknown as Queryable,
      close: async () => {
        await client.end();
        await pool.end();
      },
    };
  });
}

describe('schema step 6 on a database of step 5 holding papers', () => {
  it('upgrades it: answers as before from the word texts, and from the lists after the next whole import', async () => {
    const db = await newPGlite();
    try {
      const schema = 'upgraded';
      const papers = (await loadSamplePapers()).slice(0, 300);
      await migrate(db, { schema });
      await importPapers(db, papers, { schema });
      // Back to step 5, papers kept: what a database imported before this release looks like.
      await db.query(`DROP TABLE ${schema}.paperlist_postings, ${schema}.paperlist_paper_facts`);
      await db.query(`ALTER TABLE ${schema}.papers DROP COLUMN ord`);
      await db.query(`ALTER TABLE ${schema}.paperlist_state DROP COLUMN postings_version`);
      await db.query(`DELETE FROM ${schema}.paperlist_migrations WHERE version = 6`);
      expect((await migrate(db, { schema })).applied).toEqual([6]);
      const { db: reader, reads } = counting(db);
      const source = await createPostgresSource({ db: reader, schema });
      const reference = createScanSource(papers);
      await expectSameAnswers(source, reference, searches(papers, 30, 3));
      expect(reads()).toBe(0);
      await importPapers(db, papers, { schema, replace: true });
      await source.refreshVersion();
      await expectSameAnswers(source, reference, searches(papers, 30, 4));
      expect(reads()).toBeGreaterThan(0);
    } finally {
      await db.close();
    }
  }, 120_000);
});

describe('schema step 7 on a database of step 6 holding papers', () => {
  it('upgrades it: facets and filters as before from SQL, and from the facet facts after the next whole import', async () => {
    const db = await newPGlite();
    try {
      const schema = 'upgraded7';
      const papers = (await loadSamplePapers()).slice(0, 300);
      await migrate(db, { schema });
      await importPapers(db, papers, { schema });
      // Back to step 6, papers and posting lists kept.
      await db.query(`DROP TABLE ${schema}.paperlist_facet_facts`);
      await db.query(`ALTER TABLE ${schema}.paperlist_state DROP COLUMN facets_version`);
      await db.query(`DELETE FROM ${schema}.paperlist_migrations WHERE version = 7`);
      expect((await migrate(db, { schema })).applied).toEqual([7]);
      const { db: reader, reads } = counting(db, '.paperlist_facet_facts');
      const source = await createPostgresSource({ db: reader, schema });
      const reference = createScanSource(papers);
      const facetsOf = async (target: PaperSource, raw: string) => {
        const page = await target.list({ ...queryFor(raw, 0, 3), facets: ['year', 'venue', 'author'], facetLimit: 5 });
        return { count: page.count, year: bestBuckets(page.facets?.year, Infinity), venue: bestBuckets(page.facets?.venue, Infinity), author: bestBuckets(page.facets?.author, 5) };
      };
      for (const raw of ['', 'q=learning', 'year=2018-&ordering=-published']) expect(await facetsOf(source, raw), raw).toEqual(await facetsOf(reference, raw));
      expect(reads()).toBe(0);
      await importPapers(db, papers, { schema, replace: true });
      await source.refreshVersion();
      for (const raw of ['', 'q=learning', 'year=2018-&ordering=-published']) expect(await facetsOf(source, raw), raw).toEqual(await facetsOf(reference, raw));
      expect(reads()).toBeGreaterThan(0);
    } finally {
      await db.close();
    }
  }, 120_000);
});

describe('schema step 8 on a database of step 7 holding papers and lists', () => {
  it('upgrades it: the lists answer until the first write, SQL after it, and the lists through writes after the next whole import', async () => {
    const db = await newPGlite();
    try {
      const schema = 'upgraded8';
      const papers = (await loadSamplePapers()).slice(0, 300);
      await migrate(db, { schema });
      await importPapers(db, papers, { schema });
      // Back to step 7, papers and lists kept: what a database imported before this release looks like.
      for (const trigger of ['papers_retired_update', 'papers_retired_delete', 'papers_retired_truncate']) await db.query(`DROP TRIGGER ${trigger} ON ${schema}.papers`);
      await db.query(`DROP TABLE ${schema}.paperlist_retired`);
      for (const fn of ['updates', 'deletes', 'truncated']) await db.query(`DROP FUNCTION ${schema}.paperlist_retired_${fn}()`);
      await db.query(`ALTER TABLE ${schema}.paperlist_state DROP COLUMN postings_through`);
      await db.query(`DELETE FROM ${schema}.paperlist_migrations WHERE version = 8`);
      expect((await migrate(db, { schema })).applied).toEqual([8]);
      const { db: reader, reads } = counting(db, 'word_ids');
      const source = await createPostgresSource({ db, readDb: reader, schema });
      const now = new Map(papers.map((paper) => [paper.id, paper]));
      const check = (seed: number) => expectSameAnswers(source, createScanSource([...now.values()]), [{ raw: 'q=okapi', page: 1 }, { raw: 'q=learning&ordering=title', page: 1 }, ...searches([...now.values()], 20, seed)]);
      const words = ['q=learning', 'q=okapi', 'q=net&ordering=-published'].map((raw) => ({ raw, page: 1 }));
      await expectSameAnswers(source, createScanSource(papers), words);
      expect(reads()).toBe(0);
      const write = async (k: number) => {
        const paper = { ...papers[k]!, title: `${papers[k]!.title} okapi` };
        await source.write([{ op: 'upsert', paper }, { op: 'delete', id: papers[k + 1]!.id }]);
        now.set(paper.id, paper);
        now.delete(papers[k + 1]!.id);
      };
      // The lists' last ordinal is not known: after a write, SQL answers.
      await write(0);
      await check(5);
      expect(reads()).toBeGreaterThan(0);
      await importPapers(db, [...now.values()], { schema, replace: true });
      await source.refreshVersion();
      await write(10);
      const before = reads();
      await expectSameAnswers(source, createScanSource([...now.values()]), words);
      expect(reads()).toBe(before);
      await check(6);
    } finally {
      await db.close();
    }
  }, 120_000);
});
