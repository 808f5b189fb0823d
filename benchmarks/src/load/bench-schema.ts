import { existsSync } from 'node:fs';
import pg from 'pg';
import { importPapers, migrate, type Queryable } from '@paperlist/postgres';
import { LARGE_CATALOG } from '../corpus.js';

/**
 * Imports the large catalogue into `schema` (dropped first), timed, unless `reuse` and the
 * schema already holds papers (then only migrated). Prints one `import:` line.
 */
export async function ensureCatalogue(pool: pg.Pool, schema: string, reuse: boolean): Promise<void> {
  if (reuse) {
    const found = await pool.query<{ n: string | null }>(`SELECT CASE WHEN to_regclass($1) IS NULL THEN NULL ELSE 1 END AS n`, [`${schema}.papers`]);
    if (found.rows[0]!.n !== null) {
      const { rows } = await pool.query<{ n: string }>(`SELECT count(*) AS n FROM "${schema}".papers`);
      if (Number(rows[0]!.n) > 0) {
        console.log(`import: skipped, ${rows[0]!.n} papers already in schema ${schema} (PAPERLIST_BENCH_REUSE=1)`);
        await migrate(pool as unknown as Queryable, { schema });
        return;
      }
    }
  }
  await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await migrate(pool as unknown as Queryable, { schema });
  const started = performance.now();
  let indexingAt = started;
  const result = await importPapers(pool as unknown as Queryable, LARGE_CATALOG, {
    schema,
    onProgress: ({ phase }) => {
      if (phase === 'indexing') indexingAt = performance.now();
    },
  });
  const total = (performance.now() - started) / 1000;
  console.log(`import: ${result.records} papers in ${total.toFixed(1)} s (indexes, trigram ones included, and statistics ${((performance.now() - indexingAt) / 1000).toFixed(1)} s)`);
}

/**
 * A pool on `url` for a benchmark that needs PostgreSQL and the catalogue file `catalog`; `null`
 * (after printing why the benchmark is skipped) when either is missing.
 */
export async function benchDatabase(url: string, catalog: string, max: number): Promise<pg.Pool | null> {
  if (!existsSync(catalog)) {
    console.log(`skipped: the large catalogue is not at ${catalog} (set PAPERLIST_LARGE_CATALOG)`);
    return null;
  }
  const pool = new pg.Pool({ connectionString: url, max });
  try {
    await pool.query('SELECT 1');
    return pool;
  } catch (error) {
    console.log(`skipped: no PostgreSQL server at ${url.replace(/:[^:@/]*@/, ':***@')} (${(error as Error).message})`);
    await pool.end();
    return null;
  }
}
