import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getJson, killLeftovers, paper, runCli, servedUrl, startCli, tempDir, writeJsonLines } from './helpers.js';

const DATABASE_URL = process.env['PAPERLIST_TEST_DATABASE_URL'];

if (DATABASE_URL === undefined) {
  console.warn('paperlist CLI: serve --database-url (memory mode) tests skipped: set PAPERLIST_TEST_DATABASE_URL (e.g. postgres://user@localhost/test) to run them');
}

/** Runs `check` until it stops throwing (a deadline for convergence, not a speed assertion). */
async function eventually<T>(check: () => Promise<T>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

describe.skipIf(DATABASE_URL === undefined)(
  DATABASE_URL === undefined ? 'serve --database-url in memory mode: skipped, PAPERLIST_TEST_DATABASE_URL is not set' : 'serve --database-url in memory mode',
  () => {
    const schema = `paperlist_cli_follow_${process.pid}_${Date.now()}`;
    // A role of its own for the server, whose connections the test can cut and refuse.
    const role = `paperlist_cli_follow_${randomBytes(4).toString('hex')}`;
    let dir: Awaited<ReturnType<typeof tempDir>>;
    let pool: pg.Pool;
    const terminate = () => pool.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = $1', [role]);
    beforeAll(async () => {
      dir = await tempDir();
      pool = new pg.Pool({ connectionString: DATABASE_URL, max: 2 });
      pool.on('error', () => {});
      const data = await writeJsonLines(dir.file('papers.jsonl'), [paper('follow-1'), paper('follow-2')]);
      expect((await runCli(['import', '--quiet', '--database-url', DATABASE_URL!, '--schema', schema, data])).code).toBe(0);
      await pool.query(`CREATE ROLE ${role} LOGIN`);
      await pool.query(`GRANT USAGE ON SCHEMA "${schema}" TO ${role}`);
      await pool.query(`GRANT SELECT ON ALL TABLES IN SCHEMA "${schema}" TO ${role}`);
    });
    afterAll(async () => {
      killLeftovers();
      await terminate().catch(() => {});
      await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await pool.query(`DROP OWNED BY ${role}`).catch(() => {});
      await pool.query(`DROP ROLE IF EXISTS ${role}`);
      await pool.end();
      await dir.remove();
    });

    it('follows imports, reports lag on /healthz and /metrics, says degraded without the database and catches up', async () => {
      const url = new URL(DATABASE_URL!);
      url.username = role;
      url.password = '';
      const cli = startCli(['serve', '--port', '0', '--database-url', url.toString(), '--schema', schema, '--workers', '1']);
      await cli.waitFor(/serving 2 papers at /);
      expect(cli.stderr()).toMatch(/loaded 2 papers from PostgreSQL in .*, change log at \d+/);
      const api = servedUrl(cli);
      const origin = new URL(api).origin;
      const health = await getJson(`${origin}/healthz`);
      expect(health).toEqual({ status: 200, body: { status: 'ready', papers: 2, lag_ms: 0, sequence: expect.any(Number) } });

      // `paperlist import --upsert` by another process: the server shows it.
      const more = await writeJsonLines(dir.file('more.jsonl'), [paper('follow-3', { title: 'Followed from PostgreSQL' })]);
      expect((await runCli(['import', '--quiet', '--upsert', '--database-url', DATABASE_URL!, '--schema', schema, more])).code).toBe(0);
      await eventually(async () => expect((await getJson(`${api}?q=followed`)).body.count).toBe(1));
      const metrics = await (await fetch(`${origin}/metrics`)).text();
      expect(metrics).toMatch(/^paperlist_follow_lag_seconds \d/m);
      expect(metrics).toMatch(/^paperlist_follow_applied_sequence [1-9]\d*$/m);
      expect(metrics).toMatch(/^paperlist_follow_connected 1$/m);

      // The database refuses the server: it keeps answering from memory, and says so.
      await pool.query(`ALTER ROLE ${role} NOLOGIN`);
      await terminate();
      const degraded = await eventually(async () => {
        const answer = await getJson(`${origin}/healthz`);
        expect(answer.status).toBe(200);
        expect(answer.body).toMatchObject({ status: 'degraded', papers: 3, error: expect.any(String) });
        expect(answer.body.lag_ms).toBeGreaterThan(0);
        return answer;
      });
      expect(degraded.body.sequence).toBe(health.body.sequence + 1);
      expect((await getJson(`${api}follow-3/`)).status).toBe(200);
      expect(await (await fetch(`${origin}/metrics`)).text()).toMatch(/^paperlist_follow_connected 0$/m);
      await cli.waitFor(/lost the PostgreSQL connection that listens for changes/);

      // Changed meanwhile, then let back in: it catches up.
      const gone = await writeJsonLines(dir.file('gone.jsonl'), [paper('follow-2', { title: 'Changed while away' })]);
      expect((await runCli(['import', '--quiet', '--upsert', '--database-url', DATABASE_URL!, '--schema', schema, gone])).code).toBe(0);
      await pool.query(`ALTER ROLE ${role} LOGIN`);
      await eventually(async () => expect((await getJson(`${api}follow-2/`)).body.title).toBe('Changed while away'));
      await eventually(async () => expect((await getJson(`${origin}/healthz`)).body).toMatchObject({ status: 'ready', lag_ms: 0 }));
      cli.child.kill('SIGTERM');
      expect((await cli.exited).code).toBe(0);
    }, 240_000);

    it('--query-mode sql (or PAPERLIST_QUERY_MODE=sql) serves from SQL: no lag to report', async () => {
      const cli = startCli(['serve', '--port', '0', '--database-url', DATABASE_URL!, '--schema', schema], { env: { PAPERLIST_QUERY_MODE: 'sql' } });
      // As many papers as the table holds (3 after the test above; counted, so a failure there is not repeated here).
      const { rows } = await pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM "${schema}".papers`);
      const papers = rows[0]!.n;
      await cli.waitFor(new RegExp(`serving ${papers} papers at `));
      expect(cli.stderr()).not.toMatch(/from PostgreSQL into memory/);
      const origin = new URL(servedUrl(cli)).origin;
      expect((await getJson(`${origin}/healthz`)).body).toEqual({ status: 'ready', papers });
      cli.child.kill('SIGTERM');
      expect((await cli.exited).code).toBe(0);
      const bad = await runCli(['serve', '--port', '0', '--database-url', DATABASE_URL!, '--schema', schema, '--query-mode', 'disk']);
      expect(bad.code).toBe(2);
      expect(bad.stderr).toMatch(/--query-mode <mode>' argument 'disk' is invalid\. Allowed choices are memory, sql/);
    }, 120_000);
  },
);
