import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getJson, killLeftovers, paper, pwcRecord, runCli, servedUrl, startCli, tempDir, writeJsonLines, writePwcParquet } from './helpers.js';

const DATABASE_URL = process.env['PAPERLIST_TEST_DATABASE_URL'];
const SAMPLE = new URL('../../core/data/papers-sample.jsonl.gz', import.meta.url).pathname;

if (DATABASE_URL === undefined) {
  console.warn('paperlist CLI: PostgreSQL tests skipped: set PAPERLIST_TEST_DATABASE_URL (e.g. postgres://user@localhost/test) to run them');
}

describe.skipIf(DATABASE_URL === undefined)(
  DATABASE_URL === undefined ? 'against PostgreSQL: skipped, PAPERLIST_TEST_DATABASE_URL is not set (e.g. postgres://user@localhost/test)' : 'against PostgreSQL',
  () => {
    const schema = `paperlist_cli_test_${process.pid}_${Date.now()}`;
    let dir: Awaited<ReturnType<typeof tempDir>>;
    let pool: pg.Pool;
    beforeAll(async () => {
      dir = await tempDir();
      pool = new pg.Pool({ connectionString: DATABASE_URL, max: 1 });
    });
    afterAll(async () => {
      killLeftovers();
      await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await pool.end();
      await dir.remove();
    });

    it('imports files with progress, refuses stored ids without --upsert, then serves them with --database-url', async () => {
      const parquet = await writePwcParquet(dir.file('extra.parquet'), [pwcRecord('pg-paper-1'), pwcRecord('pg-paper-2', { title: 'Postgres-only title' })]);
      const first = await runCli(['import', '--database-url', DATABASE_URL!, '--schema', schema, SAMPLE, parquet]);
      expect(first.stderr).toMatch(/database schema migrated to version \d+/);
      expect(first.stderr).toMatch(/importing .*papers-sample\.jsonl\.gz/);
      expect(first.stdout).toMatch(/^paperlist: imported 4,002 papers into postgres:\/\/\S+ \(4,002 new\) in /);
      expect(first.code).toBe(0);

      const again = await runCli(['import', '--quiet', '--database-url', DATABASE_URL!, '--schema', schema, parquet]);
      expect(again.code).toBe(4);
      expect(again.stderr).toMatch(/^paperlist: error: the database refused the import, nothing was imported: .*pg-paper-1.*\(pass --upsert to update stored papers\)\n$/);

      const upsert = await runCli(['import', '--quiet', '--upsert', '--database-url', DATABASE_URL!, '--schema', schema, parquet]);
      expect(upsert.code).toBe(0);
      expect(upsert.stdout).toMatch(/imported 2 papers .*\(0 new, 0 updated, 2 unchanged\)/);

      const cli = startCli(['serve', '--port', '0', '--database-url', DATABASE_URL!, '--schema', schema]);
      await cli.waitFor(/serving 4,002 papers at /);
      const url = servedUrl(cli);
      const page = await getJson(`${url}?q=postgres-only`);
      expect(page.body.results.map((p: { id: string }) => p.id)).toEqual(['pg-paper-2']);
      expect((await getJson(`${url}attention-is-all-you-need/`)).body.arxiv_id).toBe('1706.03762');
      cli.child.kill('SIGTERM');
      expect((await cli.exited).code).toBe(0);
    }, 120_000);

    it('cancels an import on SIGINT with exit code 130, leaving the database unchanged', async () => {
      const count = async () => Number((await pool.query(`SELECT count(*) AS n FROM "${schema}".papers`)).rows[0].n);
      const before = await count();
      const big = await writeJsonLines(dir.file('big.jsonl'), Array.from({ length: 150_000 }, (_, i) => paper(`big-${i}`)));
      const cli = startCli(['import', '--database-url', DATABASE_URL!, '--schema', schema, big]);
      await cli.waitFor(/importing .*big\.jsonl: [\d,]+ papers/);
      cli.child.kill('SIGINT');
      expect((await cli.exited).code).toBe(130);
      expect(cli.stderr()).toContain('paperlist: error: import cancelled by SIGINT; the database is unchanged');
      expect(await count()).toBe(before);
    });

    it('replaces the catalogue with --replace (built beside the old one) or --replace --in-place', async () => {
      const count = async () => Number((await pool.query(`SELECT count(*) AS n FROM "${schema}".papers`)).rows[0].n);
      const one = await writeJsonLines(dir.file('one.jsonl'), [paper('only-1')]);
      const replaced = await runCli(['import', '--quiet', '--replace', '--database-url', DATABASE_URL!, '--schema', schema, one]);
      expect([replaced.code, replaced.stdout]).toEqual([0, expect.stringMatching(/imported 1 papers .*\(1 new\)/)]);
      expect(await count()).toBe(1);
      const two = await writeJsonLines(dir.file('two.jsonl'), [paper('only-2'), paper('only-3')]);
      const inPlace = await runCli(['import', '--quiet', '--replace', '--in-place', '--database-url', DATABASE_URL!, '--schema', schema, two]);
      expect(inPlace.code).toBe(0);
      expect(await count()).toBe(2);
    });

    it.each(['memory', 'sql'])('takes HTTP writes with a token and --database-url --query-mode %s: committed to PostgreSQL, seen by a second server', async (mode) => {
      const writes = `${schema}_writes_${mode}`;
      const data = await writeJsonLines(dir.file('writes.jsonl'), [paper('db-1'), paper('db-2')]);
      expect((await runCli(['import', '--quiet', '--database-url', DATABASE_URL!, '--schema', writes, data])).code).toBe(0);
      try {
        const cli = startCli(['serve', '--port', '0', '--database-url', DATABASE_URL!, '--schema', writes, '--query-mode', mode], { env: { PAPERLIST_WRITE_TOKEN: 'pg-token' } });
        await cli.waitFor(/serving 2 papers/);
        const url = servedUrl(cli);
        const auth = { authorization: 'Token pg-token' };
        const put = await fetch(`${url}db-3/`, { method: 'PUT', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify(paper('db-3', { title: 'Written to PostgreSQL' })) });
        expect(put.status).toBe(201);
        const bulk = await fetch(url, {
          method: 'POST',
          headers: { ...auth, 'content-type': 'application/x-ndjson' },
          body: `${JSON.stringify({ delete: 'db-1' })}\n${JSON.stringify(paper('db-2', { title: 'Retitled in PostgreSQL' }))}\n`,
        });
        expect(await bulk.json()).toEqual({ created: 0, updated: 1, deleted: 1 });
        expect((await pool.query(`SELECT id, title FROM "${writes}".papers ORDER BY id`)).rows).toEqual([
          { id: 'db-2', title: 'Retitled in PostgreSQL' },
          { id: 'db-3', title: 'Written to PostgreSQL' },
        ]);
        expect((await getJson(`${url}?q=postgresql`)).body.count).toBe(2);
        const second = startCli(['serve', '--port', '0', '--database-url', DATABASE_URL!, '--schema', writes, '--query-mode', mode]);
        await second.waitFor(/serving 2 papers/);
        expect((await fetch(`${servedUrl(second)}db-1/`)).status).toBe(404);
      } finally {
        killLeftovers();
        await pool.query(`DROP SCHEMA IF EXISTS "${writes}" CASCADE`);
      }
    }, 120_000);

    it('migrate creates an empty schema, then finds it up to date', async () => {
      const fresh = `${schema}_migrated`;
      try {
        const first = await runCli(['migrate', '--database-url', DATABASE_URL!, '--schema', fresh]);
        expect(first.stderr).toMatch(/database schema migrated to version \d+ \(applied 1(, \d+)*\)/);
        expect(first.stdout).toMatch(new RegExp(`^paperlist: schema ${fresh} of postgres://\\S+ is at version \\d+\\n$`));
        expect(first.code).toBe(0);
        const again = await runCli(['migrate', '--database-url', DATABASE_URL!, '--schema', fresh]);
        expect(again.stderr).toMatch(/database schema is up to date \(version \d+\)/);
        expect(again.code).toBe(0);
        const count = await pool.query(`SELECT count(*) AS n FROM "${fresh}".papers`);
        expect(Number(count.rows[0].n)).toBe(0);
      } finally {
        await pool.query(`DROP SCHEMA IF EXISTS "${fresh}" CASCADE`);
      }
    });

    it('exits 4 with one line when the schema holds no catalogue', async () => {
      const result = await runCli(['serve', '--port', '0', '--database-url', DATABASE_URL!, '--schema', `${schema}_missing`]);
      expect(result.code).toBe(4);
      expect(result.stderr).toMatch(/^paperlist: error: .* holds no paperlist catalogue .*: run "paperlist import --database-url URL FILE\.\.\." first\n$/);
    });
  },
);

describe('without a database', () => {
  it('refuses --in-place without --replace (exit 2)', async () => {
    const result = await runCli(['import', '--in-place', '--database-url', 'postgres://nobody@127.0.0.1:1/none', SAMPLE]);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe('paperlist: error: --in-place only applies to --replace\n');
  });

  it('migrate needs a database URL (exit 2) and exits 4 when PostgreSQL cannot be reached', async () => {
    const missing = await runCli(['migrate']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/--database-url <url>/);
    const unreachable = await runCli(['migrate', '--database-url', 'postgres://nobody@127.0.0.1:1/none']);
    expect(unreachable.code).toBe(4);
    expect(unreachable.stderr).toMatch(/^paperlist: error: cannot connect to postgres:\/\/nobody@127\.0\.0\.1:1\/none: /);
  });

  it('exits 4 with one line when PostgreSQL cannot be reached', async () => {
    const result = await runCli(['import', '--database-url', 'postgres://nobody@127.0.0.1:1/none', SAMPLE]);
    expect(result.code).toBe(4);
    expect(result.stderr).toBe('paperlist: error: cannot connect to postgres://nobody@127.0.0.1:1/none: connect ECONNREFUSED 127.0.0.1:1 (is PostgreSQL running there?)\n');
  });
});
