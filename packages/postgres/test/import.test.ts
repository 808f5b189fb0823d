import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryFor } from '@paperlist/conformance';
import { toPaper, type Paper } from '@paperlist/core';
import { PaperLoadError, readCatalog } from '@paperlist/core/node';
import type { PaperAnnotations } from '@paperlist/core';
import { fileURLToPath } from 'node:url';
import { makePaper } from '../../core/test/make-paper.js';
import {
  createPostgresSource,
  importPapers,
  migrate,
  PaperImportError,
  type ImportProgress,
  type Queryable,
} from '../src/index.js';
import { noteServerSkip } from './helpers.js';
import { targets } from './targets.js';

noteServerSkip('import.test.ts');

const PWC_FIXTURE = fileURLToPath(new URL('../../core/test/fixtures/pwc-tasks-methods.json', import.meta.url));

const papers = (n: number, prefix = 'p'): Paper[] =>
  Array.from({ length: n }, (_, i) =>
    makePaper({ id: `${prefix}-${i}`, title: `Paper ${i} about graphs`, abstract: `We study graph ${i}.`, authors: [`Author ${i % 7}`] }),
  );

const stored = async (db: Queryable, schema: string) =>
  (await db.query(`SELECT id FROM "${schema}".papers ORDER BY id`)).rows.map((row) => (row as { id: string }).id);

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'paperlist-pg-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

for (const target of targets()) {
  const methods = ['copy', 'insert'] as const;
  describe(`importPapers on ${target.name}`, () => {
    beforeAll(() => target.open());
    afterAll(() => target.close());
    const fresh = async () => {
      const schema = target.schema();
      await migrate(target.db(), { schema });
      return schema;
    };

    for (const method of methods) {
      it(`loads papers exactly as given (${method}), in bulk and then on top`, async () => {
        const schema = await fresh();
        const first = papers(30);
        const tricky = makePaper({
          id: 'tricky',
          title: 'Tabs\tand\nnewlines \\ "quotes" ÉCOLE',
          abstract: 'A backslash \\N and {braces}, "quotes", commas, and \r carriage returns.',
          authors: ['O\'Brien, "Jr."', 'Back\\slash {x}', ''],
          published: '0001-01-01',
        });
        // Longer than a COPY chunk (256 KiB of UTF-8), with characters of 2, 3 and 4 bytes.
        const long = makePaper({ id: 'long', title: 'Ünïcode 📄 long', abstract: 'Graphs ∑ é 🧪 '.repeat(30_000) });
        const result = await importPapers(target.db(), [...first.slice(0, 10), long, ...first.slice(10), tricky], { schema, method, batchSize: 7 });
        expect(result).toMatchObject({ records: 32, inserted: 32, updated: 0, unchanged: 0, method, bulk: true });
        const more = await importPapers(target.db(), papers(5, 'q'), { schema, method, batchSize: 2 });
        expect(more).toMatchObject({ records: 5, inserted: 5, bulk: false });
        const source = await createPostgresSource({ db: target.db(), schema });
        expect(toPaper((await source.get('tricky'))!)).toEqual(tricky);
        expect(toPaper((await source.get('long'))!)).toEqual(long);
        expect((await stored(target.db(), schema)).length).toBe(37);
      });
    }

    it('reads a file through readPapers and names the line of a bad record; nothing is kept', async () => {
      const schema = await fresh();
      const file = join(dir, `${schema}.jsonl`);
      const good = papers(3).map((paper) => JSON.stringify(paper));
      await writeFile(file, [good[0], '', good[1], '{"id": "broken"}', good[2]].join('\n'));
      const failure = await importPapers(target.db(), file, { schema }).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(PaperLoadError);
      expect((failure as PaperLoadError).line).toBe(4);
      expect((failure as PaperLoadError).message).toMatch(/line 4: missing field "arxiv_id"/);
      expect(await stored(target.db(), schema)).toEqual([]);
      await writeFile(file, good.join('\n'));
      expect((await importPapers(target.db(), file, { schema })).records).toBe(3);
    });

    it('validates papers from an iterable, by position', async () => {
      const schema = await fresh();
      const bad = [...papers(2), { ...papers(1)[0]!, id: 'x', published: '2019-02-30' }];
      await expect(importPapers(target.db(), bad, { schema })).rejects.toThrow(/line 3: field "published"/);
      const twice = [...papers(2), papers(1)[0]!];
      await expect(importPapers(target.db(), twice, { schema })).rejects.toThrow(/line 3: duplicate id "p-0" \(first seen on line 1\)/);
      const nul = [makePaper({ id: 'nul', abstract: 'a\u0000b' })];
      await expect(importPapers(target.db(), nul, { schema })).rejects.toThrow(/U\+0000/);
      expect(await stored(target.db(), schema)).toEqual([]);
    });

    it('refuses an id already stored without upsert, naming the record; nothing is kept', async () => {
      const schema = await fresh();
      await importPapers(target.db(), papers(3), { schema });
      const again = [makePaper({ id: 'new-1' }), makePaper({ id: 'p-1' }), makePaper({ id: 'new-2' })];
      const failure = await importPapers(target.db(), again, { schema }).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(PaperImportError);
      expect(failure).toMatchObject({ id: 'p-1' });
      expect((failure as Error).message).toMatch(/upsert/);
      expect(await stored(target.db(), schema)).toEqual(['p-0', 'p-1', 'p-2']);
    });

    it('upserts: new papers inserted, changed ones updated, identical ones left alone', async () => {
      const schema = await fresh();
      await importPapers(target.db(), papers(3), { schema });
      const source = await createPostgresSource({ db: target.db(), schema, versionTtlMs: 0 });
      const before = source.version();
      const changed = { ...papers(3)[1]!, title: 'Zebra crossings', abstract: 'Entirely new words here.' };
      const result = await source.importPapers([papers(3)[0]!, changed, makePaper({ id: 'fresh', title: 'Fresh zebra' })], { upsert: true });
      expect(result).toMatchObject({ records: 3, inserted: 1, updated: 1, unchanged: 1, bulk: false });
      expect(source.version()).not.toBe(before);
      expect(toPaper((await source.get('p-1'))!)).toEqual(changed);
      const { count, results } = await source.list({
        terms: [{ raw: 'zebra', words: ['zebra'], arxivId: null }],
        filters: {},
        ordering: { kind: 'fields', keys: [{ field: 'id', descending: false }] },
        offset: 0,
        limit: 10,
      });
      expect([count, results.map((record) => toPaper(record).id)]).toEqual([2, ['fresh', 'p-1']]);
      // The old words of p-1 no longer find it.
      const old = await source.list({
        terms: [{ raw: 'graphs', words: ['graphs'], arxivId: null }],
        filters: {},
        ordering: { kind: 'fields', keys: [{ field: 'id', descending: false }] },
        offset: 0,
        limit: 10,
      });
      expect(old.results.map((record) => toPaper(record).id)).toEqual(['p-0', 'p-2']);
    });

    it('keeps the stored totals equal to a recount through upserts and removes, and recounts after a writer outside paperlist', async () => {
      const schema = await fresh();
      const db = target.db();
      await importPapers(db, papers(12), { schema });
      const totals = async () => (await db.query(`SELECT total::float8 AS total, title_len_sum::float8 AS title, authors_len_sum::float8 AS authors, abstract_len_sum::float8 AS abstract FROM "${schema}".paperlist_state`)).rows[0];
      const recount = async () =>
        (await db.query(`SELECT count(*)::float8 AS total, sum(title_len)::float8 AS title, sum(authors_len)::float8 AS authors, sum(abstract_len)::float8 AS abstract FROM "${schema}".papers`)).rows[0];
      const longer = makePaper({ id: 'p-3', title: 'A much longer title than the one it replaces, about graphs and more', abstract: 'Short.', authors: ['One Author', 'Two Authors', 'Three'] });
      const steps: { papers: Paper[]; remove?: string[] }[] = [
        // Replaced (longer and shorter), new, unchanged, removed, a removed id that is not there, one id upserted and removed.
        { papers: [longer, makePaper({ id: 'p-4', title: 'T', abstract: '', authors: [] }), makePaper({ id: 'new-1', title: 'New paper on graphs' }), papers(12)[5]!] },
        { papers: [makePaper({ id: 'new-2', title: 'Another' })], remove: ['p-0', 'p-1', 'absent'] },
        { papers: [makePaper({ id: 'new-3', title: 'Upserted then removed' })], remove: ['new-3', 'p-2'] },
      ];
      for (const step of steps) {
        await importPapers(db, step.papers, { schema, upsert: true, ...(step.remove === undefined ? {} : { remove: step.remove }) });
        expect(await totals()).toEqual(await recount());
      }
      // A writer outside paperlist: its statement forgets the totals; the next upsert counts them again.
      await db.query(`UPDATE "${schema}".papers SET title_len = title_len + 5 WHERE id = 'p-5'`);
      expect((await totals() as { total: number | null }).total).toBeNull();
      await importPapers(db, [makePaper({ id: 'new-4', title: 'After the outside writer' })], { schema, upsert: true });
      expect(await totals()).toEqual(await recount());
      await importPapers(db, [makePaper({ id: 'new-5', title: 'And once more' })], { schema, upsert: true });
      expect(await totals()).toEqual(await recount());
    });

    it('encodes a small batch given as an array with only its own words read, as the whole dictionary would', async () => {
      const db = target.db();
      const [small, whole] = [await fresh(), await fresh()];
      const batches: Paper[][] = [
        papers(8),
        // Stored words, new words, a new word in two papers of one batch, non-ASCII and a word the dictionary cuts.
        [
          makePaper({ id: 'p-1', title: 'Graphs about zebras', abstract: `Zebras and quaggas; ${'x'.repeat(300)} and Ünïcode wörds.` }),
          makePaper({ id: 'n-1', title: 'Quaggas of the graph', authors: ['Zoë Quagga'] }),
        ],
        [makePaper({ id: 'n-2', title: 'Quaggas again, zebras too', abstract: 'Paper 3 about graphs.' })],
      ];
      for (const batch of batches) {
        await importPapers(db, batch, { schema: small, upsert: true });
        await importPapers(db, (function* () {
          yield* batch;
        })(), { schema: whole, upsert: true });
      }
      const wordsOfPapers = async (schema: string) =>
        (await db.query(`SELECT p.id, array(SELECT w.word FROM "${schema}".paperlist_words w WHERE w.id = ANY(p.word_ids) ORDER BY w.word) AS words FROM "${schema}".papers p ORDER BY p.id`)).rows;
      expect(await wordsOfPapers(small)).toEqual(await wordsOfPapers(whole));
      const dictionary = async (schema: string) => (await db.query(`SELECT count(*)::int AS words, count(DISTINCT word)::int AS distinct_words, max(id)::int AS last FROM "${schema}".paperlist_words`)).rows[0];
      expect(await dictionary(small)).toEqual(await dictionary(whole));
      const source = await createPostgresSource({ db, schema: small, versionTtlMs: 0 });
      const found = await source.list(queryFor('q=quaggas&ordering=id', 0, 10));
      expect(found.results.map((record) => toPaper(record).id)).toEqual(['n-1', 'n-2', 'p-1']);
    });

    it('names an invalid record of a small array batch as it names one of any input', async () => {
      const schema = await fresh();
      await importPapers(target.db(), papers(3), { schema });
      const bad = { ...papers(1, 'bad')[0]!, title: 42 } as unknown as Paper;
      await expect(importPapers(target.db(), [papers(1, 'ok')[0]!, bad], { schema, upsert: true })).rejects.toThrow(/^line 2: field "title": expected a string/);
      expect(await stored(target.db(), schema)).toEqual(['p-0', 'p-1', 'p-2']);
    });

    it('imports the tasks and methods of a PwC dump read by the real reader; replace, upsert and remove keep them consistent', async () => {
      const schema = await fresh();
      const annotations = new Map<string, PaperAnnotations>();
      const dump: Paper[] = [];
      for await (const paper of readCatalog(PWC_FIXTURE, { annotations })) dump.push(paper);
      await importPapers(target.db(), dump, { schema, annotations });
      const source = await createPostgresSource({ db: target.db(), schema });
      const found = async (raw: string) => (await source.list(queryFor(raw, 0, 50))).results.map((record) => toPaper(record).id);
      expect(await found('task=image-classification&ordering=id')).toEqual(['deep-residual-learning-for-image', 'imagenet-classification-with-deep']);
      expect(await found('method=batch-normalization')).toEqual(['deep-residual-learning-for-image']);
      expect(await source.annotations('attention-is-all-you-need')).toEqual(annotations.get('attention-is-all-you-need'));
      expect(await source.annotations('a-paper-without-tasks')).toEqual({ tasks: [], methods: [] });
      const rows = async () => Number(((await target.db().query(`SELECT (SELECT count(*) FROM "${schema}".paper_tasks) + (SELECT count(*) FROM "${schema}".paper_methods) AS n`)).rows[0] as { n: number | string }).n);
      expect(await rows()).toBe(11);

      // An upsert with new annotations replaces a paper's; one without leaves them.
      const resnet = dump.find((paper) => paper.id === 'deep-residual-learning-for-image')!;
      await importPapers(target.db(), [resnet], { schema, upsert: true, annotations: new Map([[resnet.id, { tasks: ['Pose Estimation'], methods: [] }]]) });
      expect(await found('task=image-classification')).toEqual(['imagenet-classification-with-deep']);
      expect(await found('task=pose-estimation')).toEqual([resnet.id]);
      await importPapers(target.db(), [{ ...resnet, title: 'Renamed' }], { schema, upsert: true });
      expect(await source.annotations(resnet.id)).toEqual({ tasks: ['Pose Estimation'], methods: [] });
      // A removed paper's go with it.
      await importPapers(target.db(), [], { schema, remove: ['attention-is-all-you-need'] });
      expect(await source.annotations('attention-is-all-you-need')).toBeNull();
      expect(await found('method=adam')).toEqual([]);
      // A replaced catalogue's too (with the swap and without).
      for (const swap of [true, false]) {
        await importPapers(target.db(), dump, { schema, replace: true, swap, annotations });
        expect(await rows(), `swap ${swap}`).toBe(11);
        await importPapers(target.db(), dump.slice(0, 2), { schema, replace: true, swap });
        expect(await rows(), `swap ${swap}`).toBe(0);
      }
    });

    it('replaces the catalogue in one transaction', async () => {
      const schema = await fresh();
      await importPapers(target.db(), papers(4), { schema });
      const result = await importPapers(target.db(), papers(2, 'r'), { schema, replace: true });
      expect(result).toMatchObject({ records: 2, bulk: true });
      expect(await stored(target.db(), schema)).toEqual(['r-0', 'r-1']);
    });

    it('leaves every index of the schema in place after a bulk load, the GIN pending lists merged and their options reset', async () => {
      const schema = await fresh();
      const indexes = async () =>
        (
          await target
            .db()
            .query(
              `SELECT c.relname AS name, c.reloptions AS options FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
                WHERE i.indrelid = $1::regclass ORDER BY c.relname`,
              [`"${schema}".papers`],
            )
        ).rows as { name: string; options: string[] | null }[];
      const before = await indexes();
      await importPapers(target.db(), papers(300), { schema });
      await importPapers(target.db(), papers(40, 'again'), { schema, replace: true });
      expect(await indexes()).toEqual(before);
      // The titles' trigram index (where pg_trgm is) is kept through the load too, its pending list merged.
      for (const name of ['papers_words', ...(before.some((index) => index.name === 'papers_title_trgm') ? ['papers_title_trgm'] : [])]) {
        const cleaned = await target.db().query(`SELECT gin_clean_pending_list($1::regclass) AS pages`, [`"${schema}".${name}`]);
        expect(Number((cleaned.rows[0] as { pages: unknown }).pages)).toBe(0);
      }
      const source = await createPostgresSource({ db: target.db(), schema });
      expect((await source.list(queryFor('q=graph&ordering=id'))).count).toBe(40);
    });

    it.each([
      ['batchSize 0', { batchSize: 0 }, /"batchSize" must be a positive integer, got 0/],
      ['batchSize 1.5', { batchSize: 1.5 }, /"batchSize" must be a positive integer, got 1.5/],
      ['an unknown method', { method: 'bulk' as never }, /"method" must be "auto", "copy" or "insert", got "bulk"/],
      ['a negative swapLockWaitMs', { swapLockWaitMs: -1 }, /"swapLockWaitMs" must be a number of milliseconds >= 0, got -1/],
      ['swapLockWaitMs NaN', { swapLockWaitMs: Number.NaN }, /"swapLockWaitMs" must be a number of milliseconds >= 0, got NaN/],
    ])('refuses %s before touching the database', async (_name, options, message) => {
      const schema = await fresh();
      await expect(importPapers(target.db(), papers(1), { schema, ...options })).rejects.toThrow(message);
      expect(await stored(target.db(), schema)).toEqual([]);
    });

    it('reports progress by phase', async () => {
      const schema = await fresh();
      const seen: ImportProgress[] = [];
      await importPapers(target.db(), papers(25), { schema, onProgress: (progress) => seen.push(progress) });
      expect(seen.map((progress) => progress.phase)).toEqual(['loading', 'indexing', 'done']);
      expect(seen.at(-1)).toEqual({ phase: 'done', records: 25 });
    });

    it('stops on abort and keeps nothing', async () => {
      const schema = await fresh();
      const controller = new AbortController();
      async function* slow(): AsyncGenerator<Paper> {
        for (const [i, paper] of papers(5000).entries()) {
          if (i === 2500) controller.abort(new Error('stop now'));
          yield paper;
        }
      }
      await expect(importPapers(target.db(), slow(), { schema, signal: controller.signal })).rejects.toThrow('stop now');
      expect(await stored(target.db(), schema)).toEqual([]);
      const aborted = AbortSignal.abort(new Error('before'));
      await expect(importPapers(target.db(), papers(1), { schema, signal: aborted })).rejects.toThrow('before');
    });
  });
}
