import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryFor } from '@paperlist/conformance';
import { toPaper, type Paper } from '@paperlist/core';
import { makePaper } from '../../core/test/make-paper.js';
import { createPostgresSource, importPapers, migrate, type Queryable } from '../src/index.js';
import { dropSchema, noteServerSkip, randomSchema, serverPool, TEST_DATABASE_URL } from './helpers.js';
import { targets } from './targets.js';

noteServerSkip('replace.test.ts');

const papers = (n: number, prefix: string, word = 'graphs'): Paper[] =>
  Array.from({ length: n }, (_, i) => makePaper({ id: `${prefix}-${i}`, title: `Paper ${i} about ${word}`, authors: [`Author ${i}`] }));

const ids = async (db: Queryable, schema: string) =>
  (await db.query(`SELECT id FROM "${schema}".papers ORDER BY id`)).rows.map((row) => (row as { id: string }).id);

/** Everything a replace must leave as the migration made it: tables, indexes, constraints, triggers. */
const shape = async (db: Queryable, schema: string) =>
  (
    await db.query(
      `SELECT c.relname, c.relkind, c.reloptions,
          (SELECT array_agg(pg_get_indexdef(i.indexrelid) ORDER BY pg_get_indexdef(i.indexrelid)) FROM pg_index i WHERE i.indrelid = c.oid) AS indexes,
          (SELECT array_agg(conname || ' ' || pg_get_constraintdef(k.oid) ORDER BY conname) FROM pg_constraint k WHERE k.conrelid = c.oid) AS constraints,
          (SELECT array_agg(pg_get_triggerdef(t.oid) ORDER BY t.tgname) FROM pg_trigger t WHERE t.tgrelid = c.oid AND NOT t.tgisinternal) AS triggers
        FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = $1 ORDER BY c.relname`,
      [schema],
    )
  ).rows;

const version = async (db: Queryable, schema: string) =>
  String((await db.query(`SELECT version FROM "${schema}".paperlist_state`)).rows.map((row) => (row as { version: unknown }).version)[0]);

for (const target of targets()) {
  describe(`replace on ${target.name}`, () => {
    beforeAll(() => target.open());
    afterAll(() => target.close());
    const loaded = async () => {
      const schema = target.schema();
      await migrate(target.db(), { schema });
      await importPapers(target.db(), papers(30, 'old'), { schema });
      return schema;
    };

    it('builds the new catalogue beside the old one and swaps it in: same tables, indexes, constraints and trigger', async () => {
      const schema = await loaded();
      const before = await shape(target.db(), schema);
      const movedFrom = await version(target.db(), schema);
      const result = await importPapers(target.db(), papers(12, 'new', 'trees'), { schema, replace: true });
      expect(result).toMatchObject({ records: 12, inserted: 12, bulk: true, swapped: true });
      expect(await shape(target.db(), schema)).toEqual(before);
      expect(await ids(target.db(), schema)).toEqual(papers(12, 'new').map((paper) => paper.id).sort());
      expect(await version(target.db(), schema)).not.toBe(movedFrom);
      // The new dictionary is in place: the new words are found, the old ones are not.
      const source = await createPostgresSource({ db: target.db(), schema });
      expect((await source.list(queryFor('q=trees'))).count).toBe(12);
      expect((await source.list(queryFor('q=graphs'))).count).toBe(0);
      // The trigger came along: a later upsert moves the version again.
      const swappedAt = await version(target.db(), schema);
      await importPapers(target.db(), [makePaper({ id: 'new-0', title: 'Changed about trees' })], { schema, upsert: true });
      expect(await version(target.db(), schema)).not.toBe(swappedAt);
      const one = await source.list(queryFor('q=changed'));
      expect(one.results.map((record) => toPaper(record).id)).toEqual(['new-0']);
    });

    it('refuses to swap a table a view depends on, naming the view, and keeps the catalogue; swap: false replaces it in place', async () => {
      const schema = await loaded();
      await target.db().query(`CREATE VIEW "${schema}".recent AS SELECT id FROM "${schema}".papers`);
      await expect(importPapers(target.db(), papers(3, 'new'), { schema, replace: true })).rejects.toThrow(
        /view "?paperlist_test\w*"?\.?recent|view .*recent.*swap: false/,
      );
      expect(await ids(target.db(), schema)).toHaveLength(30);
      const result = await importPapers(target.db(), papers(3, 'new'), { schema, replace: true, swap: false });
      expect(result).toMatchObject({ bulk: true, swapped: false });
      expect(await ids(target.db(), schema)).toEqual(['new-0', 'new-1', 'new-2']);
    });

    it('loads an empty table in place (nothing to keep reading)', async () => {
      const schema = target.schema();
      await migrate(target.db(), { schema });
      expect(await importPapers(target.db(), papers(3, 'a'), { schema, replace: true })).toMatchObject({ bulk: true, swapped: false });
    });
  });
}

describe.skipIf(TEST_DATABASE_URL === undefined)('replace on the server, with readers', () => {
  const pool = TEST_DATABASE_URL === undefined ? undefined : serverPool();
  const schema = randomSchema();
  const role = `paperlist_reader_${randomBytes(4).toString('hex')}`;
  afterAll(async () => {
    if (!pool) return;
    await dropSchema(pool, schema);
    await pool.query(`DROP ROLE IF EXISTS ${role}`);
    await pool.end();
  });

  /** Papers that stop halfway until `resume` is called, so the import is caught mid-load. */
  function paused(list: Paper[]) {
    let resume!: () => void;
    let reached!: () => void;
    const halfway = new Promise<void>((resolve) => (reached = resolve));
    const gate = new Promise<void>((resolve) => (resume = resolve));
    async function* papersOf(): AsyncGenerator<Paper> {
      for (const [i, paper] of list.entries()) {
        if (i === list.length / 2) {
          reached();
          await gate;
        }
        yield paper;
      }
    }
    return { papers: papersOf(), halfway, resume };
  }

  /** A read that gives up at once when it would wait for a lock. */
  const readNow = async () => {
    const client = await pool!.connect();
    try {
      await client.query(`SET lock_timeout = '500ms'`);
      return (await client.query(`SELECT count(*)::int AS n FROM "${schema}".papers`)).rows[0].n as number;
    } finally {
      client.release();
    }
  };

  it('keeps serving the old catalogue while a replace loads, then the new one; in place, reads wait', async () => {
    await migrate(pool!, { schema });
    await importPapers(pool!, papers(40, 'old'), { schema });
    const swap = paused(papers(1000, 'new'));
    const swapping = importPapers(pool!, swap.papers, { schema, replace: true, batchSize: 100 });
    await swap.halfway;
    expect(await readNow()).toBe(40);
    swap.resume();
    await swapping;
    expect(await readNow()).toBe(1000);

    const inPlace = paused(papers(1000, 'again'));
    const loading = importPapers(pool!, inPlace.papers, { schema, replace: true, swap: false, batchSize: 100 });
    await inPlace.halfway;
    await expect(readNow()).rejects.toMatchObject({ code: '55P03' });
    inPlace.resume();
    await loading;
    expect(await readNow()).toBe(1000);
  });

  /** A session that has read the papers in a transaction it keeps open: it holds a lock the swap needs. */
  const openReader = async () => {
    const client = await pool!.connect();
    await client.query('BEGIN');
    await client.query(`SELECT count(*) FROM "${schema}".papers`);
    return { end: async () => (await client.query('COMMIT'), client.release()) };
  };
  const swapTablesExist = async () =>
    (await pool!.query(`SELECT to_regclass($1) IS NOT NULL AS found`, [`"${schema}".paperlist_swap_papers`])).rows[0].found as boolean;

  it('gives up on the swap when another session keeps the tables past swapLockWaitMs, changing nothing', async () => {
    const before = await readNow();
    const reader = await openReader();
    try {
      await expect(importPapers(pool!, papers(5, 'late'), { schema, replace: true, swapLockWaitMs: 1200 })).rejects.toThrow(
        /the new catalogue is ready but the swap could not lock .* within 1200 ms.*nothing was changed/,
      );
    } finally {
      await reader.end();
    }
    expect(await readNow()).toBe(before);
    expect(await swapTablesExist()).toBe(false);
  });

  it('waits for a transaction that holds the tables, letting other reads through between attempts, then swaps', async () => {
    const before = await readNow();
    const reader = await openReader();
    const importing = importPapers(pool!, papers(7, 'patient'), { schema, replace: true });
    // The import is at the swap once its lock request is seen waiting.
    for (;;) {
      const { rows } = await pool!.query(
        `SELECT count(*)::int AS n FROM pg_locks WHERE relation = $1::regclass AND mode = 'AccessExclusiveLock' AND NOT granted`,
        [`"${schema}".papers`],
      );
      if (rows[0].n > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    // Each attempt gives up after 500 ms: a read queued behind it gets through well within 2 s.
    const client = await pool!.connect();
    try {
      await client.query(`SET lock_timeout = '2s'`);
      expect((await client.query(`SELECT count(*)::int AS n FROM "${schema}".papers`)).rows[0].n).toBe(before);
    } finally {
      client.release();
    }
    await reader.end();
    expect(await importing).toMatchObject({ swapped: true, records: 7 });
    expect(await readNow()).toBe(7);
  });

  it('carries the privileges granted on the tables to the new ones', async () => {
    await pool!.query(`CREATE ROLE ${role} NOLOGIN`);
    await pool!.query(`GRANT USAGE ON SCHEMA "${schema}" TO ${role}`);
    await pool!.query(`GRANT SELECT ON "${schema}".papers, "${schema}".paperlist_words TO ${role}`);
    await importPapers(pool!, papers(5, 'granted'), { schema, replace: true });
    const { rows } = await pool!.query(
      `SELECT has_table_privilege($1, $2, 'SELECT') AS papers, has_table_privilege($1, $3, 'SELECT') AS words,
          has_table_privilege($1, $2, 'INSERT') AS insert`,
      [role, `"${schema}".papers`, `"${schema}".paperlist_words`],
    );
    expect(rows[0]).toEqual({ papers: true, words: true, insert: false });
    await pool!.query(`REVOKE ALL ON ALL TABLES IN SCHEMA "${schema}" FROM ${role}`);
    await pool!.query(`REVOKE USAGE ON SCHEMA "${schema}" FROM ${role}`);
  });
});
