import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import type { Queryable } from '@paperlist/postgres';
import { startServer, type ExampleServer } from './server.js';

const expectSample = async (server: ExampleServer) => {
  const res = await fetch(`${server.url}/api/v1/papers/?q=learning&items_per_page=5`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('application/json');
  const page = (await res.json()) as { count: number; next: string | null; results: { id: string }[] };
  expect(page.count).toBe(762);
  expect(page.results).toHaveLength(5);
  expect(page.next).toBe(`${server.url}/api/v1/papers/?items_per_page=5&page=2&q=learning`);
  const one = await fetch(`${server.url}/api/v1/papers/${page.results[0]!.id}/`);
  expect(one.status).toBe(200);
};

describe('express-postgres example on PGlite', () => {
  let server: ExampleServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.close());
  it('migrates, imports the sample and serves it at /api/v1/papers/', () => expectSample(server));
});

const url = process.env['PAPERLIST_TEST_DATABASE_URL'];
describe.skipIf(url === undefined)('express-postgres example on a server (needs PAPERLIST_TEST_DATABASE_URL)', () => {
  const schema = `example_${randomBytes(6).toString('hex')}`;
  let pool: pg.Pool;
  let server: ExampleServer;
  beforeAll(async () => {
    pool = new pg.Pool({ connectionString: url, max: 4 });
    server = await startServer({ db: pool as unknown as Queryable, schema });
  });
  afterAll(async () => {
    await server?.close();
    await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await pool.end();
  });
  it('serves the sample from the server, imported once', async () => {
    await expectSample(server);
    // A second server on the same schema finds the catalogue there and does not import again.
    const again = await startServer({ db: pool as unknown as Queryable, schema });
    await expectSample(again);
    await again.close();
  });
});
