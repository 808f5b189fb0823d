import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPapersHandler, QueryBudgetError, SourceOverloadedError, toPaper, type PaperQuery } from '@paperlist/core';
import { queryFor } from '@paperlist/conformance';
import { loadSamplePapers } from '@paperlist/core/sample';
import type pg from 'pg';
import { makePaper } from '../../core/test/make-paper.js';
import { createPostgresSource, importPapers, migrate, type PoolClientLike, type Queryable } from '../src/index.js';
import { QueryRunner } from '../src/query-runner.js';
import { dropSchema, newPGlite, noteServerSkip, randomSchema, recording, serverPool, TEST_DATABASE_URL } from './helpers.js';

noteServerSkip('source-options.test.ts');

const ids = (page: { results: Parameters<typeof toPaper>[0][] }) => page.results.map((record) => toPaper(record).id);

describe('postgres source on PGlite', () => {
  let db: Awaited<ReturnType<typeof newPGlite>>;
  beforeAll(async () => {
    db = await newPGlite();
    await migrate(db, { schema: 'sample' });
    await importPapers(db, await loadSamplePapers(), { schema: 'sample' });
    await migrate(db, { schema: 'small' });
    await importPapers(
      db,
      [
        makePaper({ id: 'percent', title: '100% Accurate' }),
        makePaper({ id: 'underscore', title: 'a_b testing', abstract: 'Per cent and 50%.' }),
        makePaper({ id: 'backslash', title: 'Back\\slash' }),
        makePaper({ id: 'ecole', title: 'ÉCOLE Normale', abstract: 'İstanbul' }),
        makePaper({ id: 'plain', title: 'Ab testing' }),
      ],
      { schema: 'small' },
    );
  });
  afterAll(() => db?.close());

  it('reads through readDb and writes through db', async () => {
    const primary = recording(db);
    const replica = recording(db);
    const source = await createPostgresSource({ db: primary, readDb: replica, schema: 'sample', versionTtlMs: 0 });
    await source.list(queryFor('q=learning&ordering=-published'));
    await source.list(queryFor('q=learning'));
    await source.get('no-such-paper');
    await source.refreshVersion();
    expect(primary.statements).toEqual([]);
    expect(replica.statements.length).toBeGreaterThan(4);
    await source.migrate();
    await source.importPapers([makePaper({ id: 'routed' })], { upsert: true });
    expect(primary.statements.some((sql) => sql.includes('INSERT INTO "sample".papers'))).toBe(true);
    expect(replica.statements.some((sql) => /INSERT|COPY|CREATE|ALTER/.test(sql))).toBe(false);
    await db.query(`DELETE FROM "sample".papers WHERE id = 'routed'`);
  });

  it('counts exactly by default, and estimates above a threshold when asked', async () => {
    const exact = await createPostgresSource({ db, schema: 'sample' });
    const estimating = await createPostgresSource({ db, schema: 'sample', count: { mode: 'estimate-above', threshold: 200 } });
    const common = queryFor('q=learning&ordering=id');
    const rare = queryFor('q=lstm&ordering=id');
    const [exactCommon, estimatedCommon] = await Promise.all([exact.list(common), estimating.list(common)]);
    expect(exactCommon.count).toBe(762);
    expect(estimatedCommon.count).toBeGreaterThan(200);
    expect(ids(estimatedCommon)).toEqual(ids(exactCommon));
    expect((await estimating.list(rare)).count).toBe((await exact.list(rare)).count);
    // Without any condition the stored total is exact either way.
    expect((await estimating.list(queryFor(''))).count).toBe(4000);
  });

  it('escapes LIKE wildcards and lower-cases like JavaScript in the contains filters', async () => {
    const source = await createPostgresSource({ db, schema: 'small' });
    const titles = async (raw: string) => ids(await source.list(queryFor(`${raw}&ordering=id`)));
    expect(await titles('title=%25')).toEqual(['percent']);
    expect(await titles('title=_')).toEqual(['underscore']);
    expect(await titles('title=%5C')).toEqual(['backslash']);
    expect(await titles('title=%C3%A9cole')).toEqual(['ecole']);
    expect(await titles('abstract=%25')).toEqual(['underscore']);
    expect(await titles('abstract=i%CC%87stanbul')).toEqual(['ecole']);
    expect(await titles('title=ab')).toEqual(['plain']);
  });

  it('moves the version with every change of the papers', async () => {
    const source = await createPostgresSource({ db, schema: 'small', versionTtlMs: 0 });
    const before = source.version();
    expect(before).toMatch(/^pg:[0-9a-f]{12}:\d+$/);
    await db.query(`UPDATE "small".papers SET title = title WHERE id = 'plain'`);
    expect(await source.refreshVersion()).not.toBe(before);
    // The total is counted again after a change made outside importPapers.
    expect((await source.list(queryFor(''))).count).toBe(5);
  });

  it('turns JIT off on its session by default; jit: true leaves the setting alone', async () => {
    const fresh = await newPGlite();
    try {
      await migrate(fresh);
      const jit = async () => (await fresh.query<{ jit: string }>(`SELECT current_setting('jit') AS jit`)).rows[0]!.jit;
      const before = await jit();
      await (await createPostgresSource({ db: fresh, jit: true })).list(queryFor('q=x'));
      expect(await jit()).toBe(before);
      await (await createPostgresSource({ db: fresh })).list(queryFor('q=x'));
      expect(await jit()).toBe('off');
    } finally {
      await fresh.close();
    }
    // A fresh PGlite migrated from nothing: seconds alone, more beside other test files.
  }, 120_000);

  it.each([
    [{ db: {} }, 'invalid-db'],
    [{ readDb: 'replica' }, 'invalid-read-db'],
    [{ statementTimeoutMs: 0 }, 'invalid-statement-timeout'],
    [{ statementTimeoutMs: 1.5 }, 'invalid-statement-timeout'],
    [{ count: { mode: 'estimate-above', threshold: -1 } }, 'invalid-count'],
    [{ count: { mode: 'guess' } }, 'invalid-count'],
    [{ jit: 'yes' }, 'invalid-jit'],
    [{ warmUp: 'yes' }, 'invalid-warm-up'],
    [{ mergeThreads: -1 }, 'invalid-merge-threads'],
    [{ mergeThreads: 1.5 }, 'invalid-merge-threads'],
    [{ versionTtlMs: -1 }, 'invalid-version-ttl'],
    [{ shedAfterMs: -1 }, 'invalid-shed-after'],
    [{ shedAfterMs: Number.NaN }, 'invalid-shed-after'],
    [{ schema: '' }, 'invalid-schema'],
  ])('rejects the option %j with %s', async (options, code) => {
    await expect(createPostgresSource({ db, schema: 'small', ...(options as object) })).rejects.toMatchObject({ code });
  });

  it("counts a term's matches to the end even when the request that started it gives up, and reuses that count", async () => {
    // Counting statements take 300 ms, over the budget of 100 ms.
    const slowCounts: Queryable = {
      query: (text: string, params?: unknown[]) =>
        new Promise((resolve, reject) => setTimeout(() => db.query(text, params).then(resolve, reject), text.startsWith('SELECT count(*)::float8 AS count') ? 300 : 0)),
    };
    const timed = await createPostgresSource({ db: slowCounts, schema: 'sample', statementTimeoutMs: 100, warmUp: false });
    const query = queryFor('q=learning&ordering=-published');
    await expect(timed.list(query)).rejects.toBeInstanceOf(QueryBudgetError);
    let page: Awaited<ReturnType<typeof timed.list>> | undefined;
    for (let attempt = 0; attempt < 50 && page === undefined; attempt++) {
      page = await timed.list(query).catch(async () => {
        await new Promise((resolve) => setTimeout(resolve, 100));
        return undefined;
      });
    }
    const want = await (await createPostgresSource({ db, schema: 'sample' })).list(query);
    expect(page?.count).toBe(want.count);
    expect(ids(page!)).toEqual(ids(want));
    // A query of two terms is no term's document frequency: its count still dies with its request.
    await expect(timed.list(queryFor('q=learning+deep&ordering=-published'))).rejects.toBeInstanceOf(QueryBudgetError);
  });

  it('rejects on timeout and on abort (PGlite cannot cancel: the statement finishes in the background)', async () => {
    const slow: Queryable = {
      query: (text: string, params?: unknown[]) =>
        new Promise((resolve, reject) => setTimeout(() => db.query(text, params).then(resolve, reject), text.includes('papers') ? 300 : 0)),
    };
    const timed = await createPostgresSource({ db: slow, schema: 'small', statementTimeoutMs: 100, warmUp: false });
    await expect(timed.list(queryFor(''))).rejects.toBeInstanceOf(QueryBudgetError);
    const source = await createPostgresSource({ db: slow, schema: 'small', warmUp: false });
    const controller = new AbortController();
    const listing = source.list(queryFor(''), { signal: controller.signal });
    setTimeout(() => controller.abort(new Error('client went away')), 50);
    await expect(listing).rejects.toThrow('client went away');
  });
});

/** A pool whose statements on paperlist's tables first sleep on the same session (as a slow query would), while `when()` says so. */
function sleepyPool(pool: pg.Pool, seconds: number, when: () => boolean = () => true) {
  return {
    get totalCount() {
      return pool.totalCount;
    },
    Client: (pool as unknown as { Client: unknown }).Client,
    options: pool.options,
    query: (text: string, params?: unknown[]) => pool.query(text, params),
    async connect(): Promise<PoolClientLike> {
      const client = await pool.connect();
      return {
        // A prepared statement comes as pg's query config ({ name, text, values }).
        async query(text: string | { text: string }, params?: unknown[]) {
          const sql = typeof text === 'string' ? text : text.text;
          if (when() && /papers|paperlist_state/.test(sql)) await client.query('SELECT pg_sleep($1)', [seconds]);
          return client.query(text as string, params);
        },
        release: (destroy?: boolean | Error) => client.release(destroy),
      };
    },
  };
}

describe.skipIf(TEST_DATABASE_URL === undefined)('postgres source on a server: timeouts and cancellation', () => {
  let pool: pg.Pool;
  const schema = randomSchema();
  beforeAll(async () => {
    pool = serverPool({ max: 6, application_name: schema });
    await migrate(pool, { schema });
    await importPapers(pool, [makePaper({ id: 'a' }), makePaper({ id: 'b' })], { schema });
  });
  afterAll(async () => {
    await dropSchema(pool, schema);
    await pool.end();
  });
  const sleeping = async () =>
    (await pool.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1 AND query LIKE '%pg_sleep%' AND state = 'active' AND pid <> pg_backend_pid()`, [schema]))
      .rows[0].n as number;

  it('sets statement_timeout on the pool sessions: the server cancels a slow statement', async () => {
    const source = await createPostgresSource({ db: pool, schema, statementTimeoutMs: 300 });
    const started = Date.now();
    const slow = await createPostgresSource({ db: sleepyPool(pool, 3), schema, statementTimeoutMs: 300, warmUp: false }).catch((error: unknown) => error);
    // Opening the source reads the state, which sleeps too: the server's timeout applies there
    // already, and is answered as the budget's refusal.
    expect(slow).toBeInstanceOf(QueryBudgetError);
    expect(Date.now() - started).toBeLessThan(2000);
    expect((await source.list(queryFor(''))).count).toBe(2);
  });

  it('cancels the running statement when the request is aborted', async () => {
    const runner = new QueryRunner(sleepyPool(pool, 5), { statementTimeoutMs: undefined, jit: true });
    const controller = new AbortController();
    const started = Date.now();
    const running = runner.rows(`SELECT count(*) FROM "${schema}".papers`, [], controller.signal);
    for (let i = 0; i < 40 && (await sleeping()) === 0; i++) await new Promise((resolve) => setTimeout(resolve, 25));
    expect(await sleeping()).toBe(1);
    controller.abort(new Error('client went away'));
    await expect(running).rejects.toThrow('client went away');
    expect(Date.now() - started).toBeLessThan(2000);
    // The backend stops: the cancel went over a connection of its own.
    for (let i = 0; i < 50 && (await sleeping()) > 0; i++) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await sleeping()).toBe(0);
    const source = await createPostgresSource({ db: pool, schema });
    expect((await source.list(queryFor(''))).count).toBe(2);
  });

  it('cancels by the protocol on a pg.Pool and keeps the connection: no later query is hit by a late cancel', async () => {
    const single = serverPool({ max: 1, application_name: schema });
    try {
      const runner = new QueryRunner(single, { statementTimeoutMs: undefined, jit: true });
      const pid = async () => (await runner.rows<{ pid: number }>('SELECT pg_backend_pid() AS pid', []))[0]!.pid;
      const first = await pid();
      const controller = new AbortController();
      const started = Date.now();
      const running = runner.rows('SELECT pg_sleep(5)', [], controller.signal);
      for (let i = 0; i < 40 && (await sleeping()) === 0; i++) await new Promise((resolve) => setTimeout(resolve, 25));
      controller.abort(new Error('client went away'));
      await expect(running).rejects.toThrow('client went away');
      // The backend stopped, and the one connection of the pool is the same session.
      expect(await pid()).toBe(first);
      expect(Date.now() - started).toBeLessThan(2000);
      expect(await sleeping()).toBe(0);
      // Cancels landing at every moment of a statement's life, even after it ended: the next query always answers.
      for (let i = 0; i < 30; i++) {
        const aborting = new AbortController();
        const statement = runner.rows('SELECT pg_sleep(0.02)', [], aborting.signal).catch(() => 'aborted');
        setTimeout(() => aborting.abort(new Error('gone')), (i % 10) * 4);
        await statement;
        expect((await runner.rows<{ one: number }>('SELECT 1 AS one', []))[0]!.one).toBe(1);
      }
    } finally {
      await single.end();
    }
  });

  it('turns JIT off on its pool sessions unless asked to leave it', async () => {
    const jitOf = async (runner: QueryRunner) => (await runner.rows<{ jit: string }>(`SELECT current_setting('jit') AS jit`, []))[0]!.jit;
    // Sessions are set up once each: check the pool's idle clients as well as new ones.
    const off = new QueryRunner(pool, { statementTimeoutMs: 300, jit: false });
    expect(await Promise.all([jitOf(off), jitOf(off), jitOf(off)])).toEqual(['off', 'off', 'off']);
    const left = new QueryRunner(serverPool({ max: 1 }), { statementTimeoutMs: undefined, jit: true });
    const [setting] = await left.rows<{ jit: string; reset: string }>(
      `SELECT current_setting('jit') AS jit, (SELECT reset_val FROM pg_settings WHERE name = 'jit') AS reset`,
      [],
    );
    expect(setting!.jit).toBe(setting!.reset);
    await (left.db as pg.Pool).end();
  });

  it('holds one budget for the whole call: 503 query-budget with Retry-After within the budget + 50 ms, the backend cancelled', async () => {
    let slow = false;
    // Every statement sleeps 0.2 s: five of them in turn, each under the server's timeout of 0.3 s,
    // would take a second; the call's budget stops it at 0.3 s.
    const source = await createPostgresSource({ db: sleepyPool(pool, 0.2, () => slow), schema, statementTimeoutMs: 300, versionTtlMs: 0, warmUp: false });
    slow = true;
    const handler = createPapersHandler({ source });
    for (const url of ['/papers/?abstract=abc&ordering=id', '/papers/?title=abc']) {
      const started = performance.now();
      const response = (await handler({ method: 'GET', url, headers: {} }))!;
      const elapsed = performance.now() - started;
      expect(response.status, url).toBe(503);
      if (response.status === 503) {
        expect(response.headers['Retry-After']).toBeDefined();
        expect(Buffer.from(response.body as Uint8Array).toString()).toMatch(/more work than one request may take/);
        expect(elapsed).toBeLessThan(350);
      }
    }
    for (let i = 0; i < 50 && (await sleeping()) > 0; i++) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await sleeping()).toBe(0);
    slow = false;
  });

  it('bounds the wait for a connection: a full queue is refused at once, a long wait after queueWaitMs', async () => {
    const small = serverPool({ max: 2, application_name: schema });
    let slow = false;
    try {
      const source = await createPostgresSource({ db: sleepyPool(small, 1, () => slow), schema, maxQueued: 1, queueWaitMs: 200, versionTtlMs: 60_000, warmUp: false });
      slow = true;
      const started = performance.now();
      const timed = (query: PaperQuery) =>
        source.list(query).then(
          () => ({ ok: true, ms: performance.now() - started }),
          (error: unknown) => ({ ok: false, error, ms: performance.now() - started }),
        );
      // Two hold the connections (1 s each), one waits, the fourth finds the queue full.
      const calls = [timed(queryFor('ordering=id')), timed(queryFor('ordering=-id'))];
      await new Promise((resolve) => setTimeout(resolve, 50));
      const waiting = timed(queryFor('ordering=title'));
      const refused = await timed(queryFor('ordering=-title'));
      expect(refused).toMatchObject({ ok: false, error: expect.any(SourceOverloadedError) });
      expect(refused.ms).toBeLessThan(150);
      const waited = await waiting;
      expect(waited).toMatchObject({ ok: false, error: expect.any(SourceOverloadedError) });
      expect(waited.ms).toBeGreaterThanOrEqual(240);
      expect(waited.ms).toBeLessThan(600);
      expect((await Promise.all(calls)).map((call) => call.ok)).toEqual([true, true]);
      slow = false;
      expect((await source.list(queryFor(''))).count).toBe(2);
    } finally {
      await small.end();
    }
  });

  it('runs list and count side by side on the pool and still answers exactly', async () => {
    const source = await createPostgresSource({ db: pool, schema });
    const query: PaperQuery = queryFor('ordering=-id', 1, 1);
    expect(await source.list(query)).toMatchObject({ count: 2 });
    expect(ids(await source.list(query))).toEqual(['a']);
  });
});
