/**
 * The following source (`createFollowingSource`) on the PostgreSQL benchmark's catalogue: how
 * long it takes to load from PostgreSQL into the memory engine, and how long a change committed
 * by another writer takes to be answered by it (p50/p99 over single-paper upserts, each timed from
 * the writer's commit to the first `get` that shows it). Called by postgres.bench.ts once the
 * catalogue is imported.
 *
 * Environment: PAPERLIST_BENCH_FOLLOW_WRITES (default 200) upserts, within at most
 * PAPERLIST_BENCH_FOLLOW_SECONDS (default 180) seconds.
 *
 * Run alone (imports the large catalogue into a schema of its own first, timed, then drops it):
 * `node --import tsx --conditions=@paperlist/source benchmarks/src/postgres-follow.ts`
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { toPaper } from '@paperlist/core';
import { loadSamplePapers } from '@paperlist/core/sample';
import { createFollowingSource, importPapers, migrate, type Queryable } from '@paperlist/postgres';

const WRITES = Number(process.env['PAPERLIST_BENCH_FOLLOW_WRITES'] ?? 200);
const BUDGET_MS = Number(process.env['PAPERLIST_BENCH_FOLLOW_SECONDS'] ?? 180) * 1000;
/** How often the follower is asked whether it shows the change yet. */
const PROBE_MS = 1;

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** Runs the following-source benchmark on `schema` (already imported) and prints its lines. */
export async function runFollowBench(databaseUrl: string, schema: string): Promise<void> {
  console.log(`\n### Following source (PostgreSQL as the system of record, the memory engine as the query path)\n`);
  const followerPool = new pg.Pool({ connectionString: databaseUrl, max: 4 });
  const writerPool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  for (const pool of [followerPool, writerPool]) pool.on('error', () => {});
  const writer = writerPool as unknown as Queryable;
  try {
    const memoryBefore = process.memoryUsage().rss;
    const started = performance.now();
    const source = await createFollowingSource(followerPool as unknown as Queryable, { schema });
    const loadSeconds = (performance.now() - started) / 1000;
    console.log(
      `load: ${source.size} papers from PostgreSQL into the memory engine in ${loadSeconds.toFixed(1)} s ` +
        `(streamed, one REPEATABLE READ snapshot; RSS +${((process.memoryUsage().rss - memoryBefore) / 2 ** 30).toFixed(2)} GB; target <= 30 s)`,
    );
    try {
      const ids = (await writerPool.query<{ id: string }>(`SELECT id FROM "${schema}".papers ORDER BY id LIMIT $1`, [WRITES])).rows.map((row) => row.id);
      const times: number[] = [];
      const deadline = performance.now() + BUDGET_MS;
      for (const [i, id] of ids.entries()) {
        if (performance.now() > deadline) break;
        const stored = toPaper((await source.get(id))!);
        const title = `${stored.title} [follow-bench ${i}]`;
        await importPapers(writer, [{ ...stored, title }], { schema, upsert: true });
        const committed = performance.now();
        for (;;) {
          const shown = await source.get(id);
          if (shown !== null && toPaper(shown).title === title) break;
          await new Promise((resolve) => setTimeout(resolve, PROBE_MS));
        }
        times.push(performance.now() - committed);
      }
      const sorted = [...times].sort((a, b) => a - b);
      console.log(
        `change visibility (commit by another connection → answered by the follower), ${times.length} single-paper upserts` +
          `${times.length < ids.length ? ` (stopped after ${BUDGET_MS / 1000} s)` : ''}: ` +
          `p50 ${percentile(sorted, 50).toFixed(0)} ms, p99 ${percentile(sorted, 99).toFixed(0)} ms, max ${sorted.at(-1)!.toFixed(0)} ms (target p99 <= 1,000 ms)`,
      );
      console.log(`follower state after the writes: ${JSON.stringify(source.state())}`);
    } finally {
      await source.close();
    }
  } finally {
    await followerPool.end();
    await writerPool.end();
  }
}

// Run directly: the large catalogue imported into a schema of its own, then the benchmark.
if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const url = process.env['PAPERLIST_BENCH_DATABASE_URL'] ?? process.env['PAPERLIST_TEST_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';
  const catalog = process.env['PAPERLIST_LARGE_CATALOG'] ?? fileURLToPath(new URL('../../../shared/data/papers-large.jsonl.gz', import.meta.url));
  if (!existsSync(catalog)) {
    console.log(`skipped: the large catalogue is not at ${catalog} (set PAPERLIST_LARGE_CATALOG)`);
  } else {
    const schema = 'paperlist_bench_follow';
    const pool = new pg.Pool({ connectionString: url, max: 2 });
    const db = pool as unknown as Queryable;
    try {
      await pool.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await migrate(db, { schema });
      const started = performance.now();
      const result = await importPapers(db, catalog, { schema });
      console.log(`import (with the change log's triggers): ${result.records} papers in ${((performance.now() - started) / 1000).toFixed(1)} s (target <= 60 s)`);
      await runFollowBench(url, schema);
      // The same on the 4,000-paper sample, where the memory engine's write (a rebuild of the
      // index, for now) is cheap: what the following itself costs.
      await pool.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await migrate(db, { schema });
      await importPapers(db, await loadSamplePapers(), { schema });
      console.log('\non the 4,000-paper sample:');
      await runFollowBench(url, schema);
    } finally {
      await pool.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).catch(() => {});
      await pool.end();
    }
  }
}
