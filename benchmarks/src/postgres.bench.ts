/**
 * PostgreSQL benchmark: import time of the large catalogue (498k papers) into the local
 * server, then p50/p99 of `source.list` (count included) for the query classes of the memory
 * engine's benchmark, by ordering, on page 1 and on a deep page; then the following source's
 * load time and change visibility (postgres-follow.ts).
 *
 * Run alone: `node --import tsx --conditions=@paperlist/source benchmarks/src/postgres.bench.ts`
 * Environment: PAPERLIST_BENCH_DATABASE_URL (default PAPERLIST_TEST_DATABASE_URL, then
 * postgres://postgres@127.0.0.1:5432/test), PAPERLIST_LARGE_CATALOG (default
 * ../shared/data/papers-large.jsonl.gz), PAPERLIST_BENCH_REUSE=1 to keep the imported schema
 * between runs and skip the import when it is already loaded.
 */
import { fileURLToPath } from 'node:url';
import { parseListQuery, parseQueryString, type PaperQuery } from '@paperlist/core';
import { createPostgresSource, importPapers, migrate, type PostgresSource, type Queryable } from '@paperlist/postgres';
import { runFollowBench } from './postgres-follow.js';
import { benchDatabase } from './load/bench-schema.js';

const SCHEMA = 'paperlist_bench';
const DATABASE_URL =
  process.env['PAPERLIST_BENCH_DATABASE_URL'] ?? process.env['PAPERLIST_TEST_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';
const CATALOG =
  process.env['PAPERLIST_LARGE_CATALOG'] ?? fileURLToPath(new URL('../../../shared/data/papers-large.jsonl.gz', import.meta.url));
const REUSE = process.env['PAPERLIST_BENCH_REUSE'] === '1';
const PAGE_SIZE = 50;
const DEEP_OFFSET = 1000;
const WARMUP = 2;
const RUNS = 15;

/** The query classes (the memory engine's set): q values. */
const QUERY_CLASSES: [name: string, q: string][] = [
  ['common term', 'learning'],
  ['rare term', 'lstm'],
  ['2-3 term AND', 'graph neural network'],
  ['short prefix', 'tra'],
  ['phrase', '"neural machine translation"'],
  ['author', 'bengio'],
];
const ORDERINGS: [name: string, param: string][] = [
  ['default (relevance)', ''],
  ['-published', '-published'],
  ['title', 'title'],
];

function queryFor(raw: string, offset: number): PaperQuery {
  const parsed = parseQueryString(raw);
  if (!parsed.ok) throw new Error(`bad query ${raw}`);
  const list = parseListQuery(parsed.pairs, { pageSize: PAGE_SIZE, maxPageSize: 500 });
  if (!list.ok) throw new Error(`bad query ${raw}`);
  const { terms, filters, ordering } = list.request;
  return { terms, filters, ordering, offset, limit: PAGE_SIZE };
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

const ms = (value: number) => value.toFixed(1).padStart(8);

/**
 * Times one query: `first` is its first call on a fresh source, which counts the matches (and
 * looks the words up); the source then remembers the count for the catalogue's version, so
 * `times` (after the warm-up) are the page statement alone, as when a client pages through
 * a search.
 */
async function timeQuery(source: PostgresSource, query: PaperQuery): Promise<{ times: number[]; count: number; first: number }> {
  const times: number[] = [];
  let count = 0;
  let first = 0;
  for (let i = 0; i < WARMUP + RUNS; i++) {
    const started = performance.now();
    const page = await source.list(query);
    const elapsed = performance.now() - started;
    count = page.count;
    if (i === 0) first = elapsed;
    if (i >= WARMUP) times.push(elapsed);
  }
  return { times, count, first };
}

/** Runs the PostgreSQL benchmark and prints its tables; skips with a message when the server or the catalogue is missing. */
export async function runPostgresBench(): Promise<void> {
  console.log('\n## PostgreSQL (@paperlist/postgres)\n');
  const pool = await benchDatabase(DATABASE_URL, CATALOG, 4);
  if (pool === null) return;
  const db = pool as unknown as Queryable;
  try {
    const { rows } = await pool.query<{ server_version: string }>('SHOW server_version');
    console.log(`server: PostgreSQL ${rows[0]!.server_version}; catalogue: ${CATALOG}`);
    let loaded = 0;
    if (REUSE) {
      const found = await pool.query<{ n: string }>(`SELECT to_regclass($1) IS NOT NULL AS ok`, [`${SCHEMA}.papers`]);
      if ((found.rows[0] as unknown as { ok: boolean }).ok) {
        loaded = Number((await pool.query<{ n: string }>(`SELECT count(*) AS n FROM ${SCHEMA}.papers`)).rows[0]!.n);
      }
    }
    if (loaded === 0) {
      await pool.query(`DROP SCHEMA IF EXISTS ${SCHEMA} CASCADE`);
      await migrate(db, { schema: SCHEMA });
      let indexingAt = 0;
      const started = performance.now();
      const result = await importPapers(db, CATALOG, {
        schema: SCHEMA,
        onProgress: ({ phase }) => {
          if (phase === 'indexing') indexingAt = performance.now();
        },
      });
      const total = (performance.now() - started) / 1000;
      const loading = (indexingAt - started) / 1000;
      console.log(
        `import: ${result.records} papers in ${total.toFixed(1)} s (rows ${loading.toFixed(1)} s, indexes and statistics ` +
          `${(total - loading).toFixed(1)} s; ${result.method}, target <= 60 s)`,
      );
    } else {
      console.log(`import: skipped, ${loaded} papers already in schema ${SCHEMA} (PAPERLIST_BENCH_REUSE=1)`);
    }

    const source = await createPostgresSource({ db, schema: SCHEMA });
    console.log(`\nlist latency (ms; first call: on a fresh source, counting the matches; p50/p99: ${RUNS} runs after ${WARMUP} warm-up runs, the count remembered; page size ${PAGE_SIZE}; deep page = offset ${DEEP_OFFSET})\n`);
    console.log(`| query | ordering | page | count | first call | p50 | p99 |`);
    console.log(`|---|---|---|---:|---:|---:|---:|`);
    const all: number[] = [];
    const byClass = new Map<string, number[]>();
    for (const [name, q] of QUERY_CLASSES) {
      for (const [orderingName, ordering] of ORDERINGS) {
        for (const [pageName, offset] of [
          ['1', 0],
          ['deep', DEEP_OFFSET],
        ] as const) {
          const raw = `q=${encodeURIComponent(q)}${ordering ? `&ordering=${ordering}` : ''}`;
          // A source of its own: nothing about this query is remembered before its first call.
          const fresh = await createPostgresSource({ db, schema: SCHEMA });
          const { times, count, first } = await timeQuery(fresh, queryFor(raw, offset));
          const sorted = [...times].sort((a, b) => a - b);
          all.push(...times);
          byClass.set(name, [...(byClass.get(name) ?? []), ...times]);
          console.log(`| ${name} \`${q}\` | ${orderingName} | ${pageName} | ${count} |${ms(first)} |${ms(percentile(sorted, 50))} |${ms(percentile(sorted, 99))} |`);
        }
      }
    }
    console.log(`\n| query class | p50 | p99 |`);
    console.log(`|---|---:|---:|`);
    for (const [name, times] of byClass) {
      const sorted = [...times].sort((a, b) => a - b);
      console.log(`| ${name} |${ms(percentile(sorted, 50))} |${ms(percentile(sorted, 99))} |`);
    }
    const sorted = [...all].sort((a, b) => a - b);
    console.log(`| **all q queries** |${ms(percentile(sorted, 50))} |${ms(percentile(sorted, 99))} |`);
    console.log(`\ntargets: q queries p50 <= 20 ms, p99 <= 100 ms`);

    const browse: [string, string][] = [
      ['no q, default order', ''],
      ['no q, -published', 'ordering=-published'],
    ];
    console.log(`\n| browse | page | p50 | p99 |`);
    console.log(`|---|---|---:|---:|`);
    for (const [name, raw] of browse) {
      for (const [pageName, offset] of [
        ['1', 0],
        ['deep', DEEP_OFFSET],
      ] as const) {
        const { times } = await timeQuery(source, queryFor(raw, offset));
        const s = [...times].sort((a, b) => a - b);
        console.log(`| ${name} | ${pageName} |${ms(percentile(s, 50))} |${ms(percentile(s, 99))} |`);
      }
    }

    await runFollowBench(DATABASE_URL, SCHEMA);
  } finally {
    if (!REUSE) await pool.query(`DROP SCHEMA IF EXISTS ${SCHEMA} CASCADE`).catch(() => {});
    await pool.end();
  }
}

// Run directly: `node --import tsx --conditions=@paperlist/source benchmarks/src/postgres.bench.ts`
if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  await runPostgresBench();
}
