import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type pg from 'pg';
import { createRequestListener } from '@paperlist/core/node';
import { rawRequest } from '@paperlist/conformance';
import { makePaper } from '../../core/test/make-paper.js';
import { createPostgresSource, importPapers, migrate, type PoolClientLike, type PostgresSourceOptions } from '../src/index.js';
import { dropSchema, noteServerSkip, randomSchema, serverPool, TEST_DATABASE_URL } from './helpers.js';

// Issue 18 item 3 over real HTTP on a real server: a request past its budget answers 503 with
// Retry-After and its backend stops; a client that goes away stops its backend; slow requests
// hold the pool for one budget at most, so a fast request gets through while they keep coming,
// and a full queue is refused at once. No timing assertions: the server's own view
// (pg_stat_activity) says whether a query was left running.

noteServerSkip('load-safety.server.test.ts');

/** A statement whose parameters name a "slow" title runs `pg_sleep(30)` first, on its own session: a query that would run long. */
function slowWhereAsked(pool: pg.Pool) {
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
        async query(text: string, params?: unknown[]) {
          if ((params ?? []).some((value) => typeof value === 'string' && value.includes('slow'))) await client.query('SELECT pg_sleep(30)');
          return client.query(text, params);
        },
        release: (destroy?: boolean | Error) => client.release(destroy),
      };
    },
  };
}

describe.skipIf(TEST_DATABASE_URL === undefined)('the direct SQL source under slow queries, over HTTP', () => {
  const schema = randomSchema();
  let admin: pg.Pool;
  const servers: Server[] = [];
  const pools: pg.Pool[] = [];
  beforeAll(async () => {
    admin = serverPool({ max: 2 });
    await migrate(admin, { schema });
    await importPapers(admin, [makePaper({ id: 'a', title: 'Fast answers' }), makePaper({ id: 'b', title: 'Slow answers' })], { schema });
  });
  afterAll(async () => {
    for (const server of servers) {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
    for (const pool of pools) await pool.end();
    await dropSchema(admin, schema);
    await admin.end();
  });

  /** An HTTP server over the source on a pool of `max` connections tagged with the schema's name. */
  const serve = async (max: number, options: Omit<PostgresSourceOptions, 'db' | 'schema'>) => {
    const pool = serverPool({ max, application_name: schema });
    pools.push(pool);
    const source = await createPostgresSource({ db: slowWhereAsked(pool), schema, versionTtlMs: 60_000, warmUp: false, ...options });
    const server = createServer(createRequestListener({ source, mount: '/api/v1', allowedHosts: ['127.0.0.1'] }));
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  };

  /** Backends of this test still sleeping, as the server sees them. */
  const sleeping = async () =>
    Number(
      (
        await admin.query(`SELECT count(*) AS n FROM pg_stat_activity WHERE application_name = $1 AND state = 'active' AND query LIKE 'SELECT pg_sleep%'`, [
          schema,
        ])
      ).rows[0].n,
    );
  /** Polls until `check` holds (at most ~10 s); answers its last value. */
  const eventually = async (check: () => Promise<boolean>) => {
    for (let i = 0; i < 200; i++) {
      if (await check()) return true;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return check();
  };

  it('answers 503 with Retry-After past the budget, and the backend stops', async () => {
    const origin = await serve(2, { statementTimeoutMs: 400 });
    const answer = await rawRequest(origin, '/api/v1/papers/?title=slow-1');
    expect(answer.status).toBe(503);
    expect(answer.headers['retry-after']).toMatch(/^\d+$/);
    expect(JSON.parse(answer.text)).toEqual({ detail: expect.any(String) });
    expect(await eventually(async () => (await sleeping()) === 0)).toBe(true);
    // The pool is usable afterwards.
    expect((await rawRequest(origin, '/api/v1/papers/?title=fast')).status).toBe(200);
  });

  it('stops the backend of a client that goes away', async () => {
    const origin = await serve(2, {});
    const { port } = new URL(origin);
    const req = request({ host: '127.0.0.1', port, path: '/api/v1/papers/?title=slow-2' });
    req.on('error', () => {});
    req.end();
    expect(await eventually(async () => (await sleeping()) === 1)).toBe(true);
    req.destroy();
    expect(await eventually(async () => (await sleeping()) === 0)).toBe(true);
    expect((await rawRequest(origin, '/api/v1/papers/?title=fast')).status).toBe(200);
  });

  it('lets a fast request through while slow ones hold every connection, and refuses a full queue at once', async () => {
    // Two connections, both taken by slow requests (each held for one budget at most); one request may wait.
    const origin = await serve(2, { statementTimeoutMs: 1500, maxQueued: 1, queueWaitMs: 10_000 });
    const slow = [rawRequest(origin, '/api/v1/papers/?title=slow-3'), rawRequest(origin, '/api/v1/papers/?title=slow-4')];
    expect(await eventually(async () => (await sleeping()) === 2)).toBe(true);
    const fast = rawRequest(origin, '/api/v1/papers/?title=fast&ordering=id');
    // The queue (one place) is taken by the fast request once it reached the source: one more is refused with source-busy.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const refused = await rawRequest(origin, '/api/v1/papers/?title=slow-5');
    expect(refused.status).toBe(503);
    expect(JSON.parse(refused.text).detail).toMatch(/busy/i);
    expect(refused.headers['retry-after']).toMatch(/^\d+$/);
    const answered = await fast;
    expect(answered.status, answered.text).toBe(200);
    expect(JSON.parse(answered.text)).toMatchObject({ count: 1, results: [{ id: 'a' }] });
    expect((await Promise.all(slow)).map((answer) => answer.status)).toEqual([503, 503]);
    expect(await eventually(async () => (await sleeping()) === 0)).toBe(true);
  });
});
