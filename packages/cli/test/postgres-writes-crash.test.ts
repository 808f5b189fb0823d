import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { killLeftovers, paper, runCli, servedUrl, startCli, tempDir, writeJsonLines } from './helpers.js';

const DATABASE_URL = process.env['PAPERLIST_TEST_DATABASE_URL'];
const TOKEN = 'pg-crash-token';

if (DATABASE_URL === undefined) {
  console.warn('paperlist CLI: PostgreSQL write-crash test skipped: set PAPERLIST_TEST_DATABASE_URL (e.g. postgres://user@localhost/test) to run it');
}

describe.skipIf(DATABASE_URL === undefined)(
  DATABASE_URL === undefined ? 'HTTP writes into PostgreSQL, server killed: skipped, PAPERLIST_TEST_DATABASE_URL is not set' : 'HTTP writes into PostgreSQL, server killed',
  () => {
    const schema = `paperlist_cli_crash_${process.pid}_${Date.now()}`;
    let dir: Awaited<ReturnType<typeof tempDir>>;
    let pool: pg.Pool;
    beforeAll(async () => {
      dir = await tempDir();
      pool = new pg.Pool({ connectionString: DATABASE_URL, max: 2 });
      const data = await writeJsonLines(dir.file('base.jsonl'), [paper('base-1'), paper('base-2')]);
      expect((await runCli(['import', '--quiet', '--database-url', DATABASE_URL!, '--schema', schema, data])).code).toBe(0);
    });
    afterAll(async () => {
      killLeftovers();
      await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await pool.end();
      await dir.remove();
    });

    it('keeps every acknowledged batch, no half batch, and totals equal to a recount when the server is killed (SIGKILL) during writes', { timeout: 180_000 }, async () => {
      const acknowledged = new Set<number>();
      const sent = new Set<number>();
      let next = 0;
      // A batch: two new papers and a stored one replaced (its title's length changes), all or nothing.
      const batchIds = (n: number) => [`w-${n}-0`, `w-${n}-1`];
      const stored = async (ids: readonly string[]) =>
        new Set((await pool.query<{ id: string }>(`SELECT id FROM "${schema}".papers WHERE id = ANY($1::text[])`, [ids])).rows.map((row) => row.id));

      for (let round = 0; round < 3; round++) {
        const cli = startCli(['serve', '--port', '0', '--database-url', DATABASE_URL!, '--schema', schema, '--workers', '1'], { env: { PAPERLIST_WRITE_TOKEN: TOKEN } });
        await cli.waitFor(/serving [\d,]+ papers at /);
        const url = servedUrl(cli);
        let stop = false;
        const writer = async () => {
          while (!stop) {
            const n = next++;
            sent.add(n);
            const lines = [
              ...batchIds(n).map((id) => paper(id, { title: `Batch ${n}` })),
              paper('base-1', { title: `Base one, replaced by batch ${n} ${'x'.repeat(n % 17)}` }),
            ];
            try {
              const response = await fetch(url, {
                method: 'POST',
                headers: { 'content-type': 'application/x-ndjson', authorization: `Token ${TOKEN}` },
                body: lines.map((line) => JSON.stringify(line)).join('\n'),
              });
              if (response.status === 200) acknowledged.add(n);
              else await response.arrayBuffer();
            } catch {
              return; // the server is gone
            }
          }
        };
        const writers = Array.from({ length: 3 }, writer);
        // Killed once this round has two acknowledged batches, at a moment that varies by round.
        const before = acknowledged.size;
        for (const deadline = Date.now() + 60_000; acknowledged.size < before + 2 && Date.now() < deadline; ) {
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
        await new Promise((resolve) => setTimeout(resolve, round * 37));
        cli.child.kill('SIGKILL');
        stop = true;
        await Promise.all(writers);
        await cli.exited;

        const there = await stored([...sent].flatMap(batchIds));
        for (const n of acknowledged) expect(batchIds(n).every((id) => there.has(id)), `acknowledged batch ${n}`).toBe(true);
        for (const n of sent) expect([0, 2], `batch ${n} is whole or absent`).toContain(batchIds(n).filter((id) => there.has(id)).length);
        // The totals each write moved by a difference are those of the table.
        const { rows } = await pool.query(
          `SELECT s.total::float8 AS total, s.title_len_sum::float8 AS title, s.abstract_len_sum::float8 AS abstract,
              (SELECT count(*)::float8 FROM "${schema}".papers) AS count, (SELECT sum(title_len)::float8 FROM "${schema}".papers) AS titles,
              (SELECT sum(abstract_len)::float8 FROM "${schema}".papers) AS abstracts
            FROM "${schema}".paperlist_state s`,
        );
        const totals = rows[0] as Record<string, number>;
        expect([totals['total'], totals['title'], totals['abstract']]).toEqual([totals['count'], totals['titles'], totals['abstracts']]);
      }
      expect(acknowledged.size).toBeGreaterThan(5);

      // A restarted server serves exactly what the table holds.
      const after = startCli(['serve', '--port', '0', '--database-url', DATABASE_URL!, '--schema', schema, '--workers', '1']);
      await after.waitFor(/serving [\d,]+ papers at /);
      const served = (await (await fetch(`${servedUrl(after)}?items_per_page=1`)).json()) as { count: number };
      const count = Number((await pool.query(`SELECT count(*) AS n FROM "${schema}".papers`)).rows[0].n);
      expect(served.count).toBe(count);
      after.child.kill('SIGTERM');
      await after.exited;
    });
  },
);
