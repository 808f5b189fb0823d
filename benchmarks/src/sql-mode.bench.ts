/**
 * `--query-mode sql` under load: the direct SQL source (@paperlist/postgres) at 498k papers,
 * 10 concurrent clients on distinct requests (1–3-word searches in every ordering, pages 1–3,
 * one in ten a title/abstract filter), served by the CLI's node:http app in a process of its
 * own. Targets (issue 18): >= 200 req/s, p99 <= 250 ms, every request answered or refused
 * (503) within the budget + 50 ms. Then every API extension of issue 19, one request at a
 * time (load/sql-mode-extensions.ts).
 *
 * Imports the large catalogue into a schema of its own (`paperlist_sql_load`, dropped after)
 * unless PAPERLIST_BENCH_REUSE=1 finds it loaded (PAPERLIST_SQL_LOAD_SCHEMA names another).
 * Run alone: `node --import tsx --conditions=@paperlist/source benchmarks/src/sql-mode.bench.ts [--duration s]`
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { disjointRequests } from './load/disjoint-requests.js';
import pg from 'pg';
import { LARGE_CATALOG } from './corpus.js';
import { benchDatabase, ensureCatalogue } from './load/bench-schema.js';
import { plainClients } from './load/plain-clients.js';
import { timeExtensions } from './load/sql-mode-extensions.js';
import { startWriter } from './load/sql-writer.js';

const DATABASE_URL =
  process.env['PAPERLIST_BENCH_DATABASE_URL'] ?? process.env['PAPERLIST_TEST_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';
const SCHEMA = process.env['PAPERLIST_SQL_LOAD_SCHEMA'] ?? 'paperlist_sql_load';
const REUSE = process.env['PAPERLIST_BENCH_REUSE'] === '1';
const SERVER = fileURLToPath(new URL('./load/sql-mode-server.ts', import.meta.url));
const CLIENTS = 10;
/** Seconds of warm-up (PAPERLIST_SQL_WARMUP), on requests of their own. */
const WARM_UP_SECONDS = Number(process.env['PAPERLIST_SQL_WARMUP'] ?? 30);
const WARM_UP_PATHS = 12_000;
const BUDGET_MS = Number(process.env["PAPERLIST_SQL_BUDGET"] ?? 250);
/**
 * Papers another writer upserts per second during the runs (PAPERLIST_SQL_WRITES, default 0),
 * after 1,000 written before the server starts: the SQL mode after writes.
 */
const WRITES_PER_SECOND = Number(process.env['PAPERLIST_SQL_WRITES'] ?? 0);
const WRITTEN_FIRST = 1_000;

/** The server's event loop delays since the last call (see sql-mode-server.ts: SIGUSR2). */
type LoopDelays = () => Promise<{ p99: number; max: number }>;

function startServer(pathsFile: string): Promise<{ child: ChildProcess; port: number; loopDelays: LoopDelays }> {
  let waiting: ((delays: { p99: number; max: number }) => void) | null = null;
  const loopDelays: LoopDelays = () =>
    new Promise((resolve) => {
      waiting = resolve;
      child.kill('SIGUSR2');
    });
  const child = spawn(process.execPath, ['--conditions=@paperlist/source', '--import', 'tsx', SERVER, DATABASE_URL, SCHEMA, String(BUDGET_MS), pathsFile], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code) => reject(new Error(`sql-mode server exited with ${code}`)));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (line.startsWith('READY ')) resolve({ child, port: (JSON.parse(line.slice(6)) as { port: number }).port, loopDelays });
      else if (line.startsWith('LOOP ') && waiting !== null) waiting(JSON.parse(line.slice(5)) as { p99: number; max: number });
      else console.log(line);
    });
  });
}

/** How many papers the benchmark's schema holds. */
async function catalogueSize(pool: pg.Pool): Promise<number> {
  const { rows } = await pool.query<{ n: string }>(`SELECT count(*) AS n FROM "${SCHEMA}".papers`);
  return Number(rows[0]!.n);
}

export async function runSqlModeBench(duration: number): Promise<void> {
  console.log(`\n## --query-mode sql: the direct SQL source under ${CLIENTS} clients\n`);
  const pool = await benchDatabase(DATABASE_URL, LARGE_CATALOG, 2);
  if (pool === null) return;
  const dir = mkdtempSync(join(tmpdir(), 'paperlist-sql-load-'));
  let child: ChildProcess | undefined;
  let writer: Awaited<ReturnType<typeof startWriter>> | undefined;
  try {
    await ensureCatalogue(pool, SCHEMA, REUSE);
    if (WRITES_PER_SECOND > 0) {
      writer = await startWriter(DATABASE_URL, SCHEMA, WRITTEN_FIRST, WRITES_PER_SECOND);
      console.log(`writes: ${WRITTEN_FIRST} papers upserted before the server started; ${WRITES_PER_SECOND} papers a second (batches of 10) by another writer during the runs`);
    }
    const pathsFile = join(dir, 'paths.json');
    const started = await startServer(pathsFile);
    child = started.child;
    const paths = JSON.parse(readFileSync(pathsFile, 'utf8')) as string[];
    // Each connection asks requests of its own (autocannon would have every connection replay the same list).
    const run = async (slice: string[], seconds: number) => {
      const requests = disjointRequests(slice, CLIENTS);
      const result = await autocannon({ url: `http://127.0.0.1:${started.port}`, connections: CLIENTS, duration: seconds, requests: requests.requests, setupClient: requests.setupClient });
      if (requests.repeated()) console.log('(a connection ran out of its share of the requests: some were asked twice)');
      return result;
    };
    // Disjoint slices: the warm-up's requests never repeat in the measured run.
    // The warm-up reads the lists of the words most searches share (cached per catalogue version, as
    // a long-running server has them); its requests are never asked again.
    console.log(`warm-up: ${WARM_UP_SECONDS} s of other distinct requests`);
    await run(paths.slice(0, WARM_UP_PATHS), WARM_UP_SECONDS);
    // The last 6,000 are kept for the plain clients' run below.
    const result = await run(paths.slice(WARM_UP_PATHS, -6_000), duration);
    const stats = Object.entries(result.statusCodeStats ?? {}) as [string, { count: number }][];
    const codes = stats.map(([code, stat]) => `${code}: ${stat.count}`).join(', ');
    const answered = stats.filter(([code]) => code !== '503').reduce((sum, [, stat]) => sum + stat.count, 0);
    const refused = stats.find(([code]) => code === '503')?.[1].count ?? 0;
    console.log(`${CLIENTS} clients, ${duration} s, distinct requests (${paths.length - WARM_UP_PATHS - 6_000} prepared), budget ${BUDGET_MS} ms, pool of 10\n`);
    console.log(`| req/s | answered/s (not 503) | 503 | p50 | p90 | p99 | max | answers |`);
    console.log(`|---:|---:|---:|---:|---:|---:|---:|---|`);
    console.log(
      `| ${result.requests.average.toFixed(0)} | ${(answered / duration).toFixed(0)} | ${refused} (${((100 * refused) / Math.max(1, answered + refused)).toFixed(0)} %) | ` +
        `${result.latency.p50} ms | ${result.latency.p90} ms | ${result.latency.p99} ms | ${result.latency.max} ms | ${codes} |`,
    );
    const bound = BUDGET_MS + 50;
    console.log(
      `\ntargets: >= 200 req/s (${result.requests.average >= 200 ? 'met' : 'NOT met'}), p99 <= 250 ms (${result.latency.p99 <= 250 ? 'met' : 'NOT met'}), ` +
        `every answer within ${bound} ms (${result.latency.max <= bound ? 'met' : `NOT met: max ${result.latency.max} ms`})`,
    );
    await boundedLatency(`http://127.0.0.1:${started.port}`, paths.slice(-6_000), duration, started.loopDelays);
    if (writer !== undefined) {
      const report = await writer.stop();
      writer = undefined;
      console.log(`\nwrites during the runs: ${report.papers} papers in ${report.batches} batches, median batch ${report.p50.toFixed(0)} ms`);
    }
    await timeExtensions(started.port, child.pid!, await catalogueSize(pool));
  } finally {
    await writer?.stop();
    child?.removeAllListeners('exit');
    // The server prints its event loop's delays on SIGTERM: a late answer with a quiet source is the machine's, not the budget's.
    if (child !== undefined && child.exitCode === null) await new Promise((resolve) => (child!.once('exit', resolve), child!.kill('SIGTERM')));
    rmSync(dir, { recursive: true, force: true });
    if (!REUSE) await pool.query(`DROP SCHEMA IF EXISTS "${SCHEMA}" CASCADE`).catch(() => {});
    await pool.end();
  }
}

/**
 * Whether every request is answered or refused within the budget + 50 ms: the same load from
 * ten plain keep-alive clients (distinct requests never asked before; see plain-clients.ts).
 */
async function boundedLatency(origin: string, paths: readonly string[], seconds: number, loopDelays: LoopDelays): Promise<void> {
  await loopDelays();
  const run = await plainClients(origin, paths, seconds, CLIENTS);
  const delays = await loopDelays();
  const { times } = run;
  const bound = BUDGET_MS + 50;
  const late = times.filter((ms) => ms > bound).length;
  console.log(`\nThe same load from ${CLIENTS} plain keep-alive clients (node:http, one request at a time each), ${seconds} s, requests not asked before:\n`);
  console.log(`| requests/s | p50 | p99 | max | over ${bound} ms | answers | server event loop delay p99 / max |`);
  console.log(`|---:|---:|---:|---:|---:|---|---|`);
  console.log(
    `| ${(times.length / seconds).toFixed(0)} | ${run.at(0.5).toFixed(0)} ms | ${run.at(0.99).toFixed(0)} ms | ${times[times.length - 1]!.toFixed(0)} ms | ${late} | ${run.codes()} | ${delays.p99.toFixed(0)} / ${delays.max.toFixed(0)} ms |`,
  );
  console.log(`\ntarget: every request answered or refused within ${bound} ms (${late === 0 ? 'met' : `NOT met: ${late} of ${times.length} later`})`);
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const at = process.argv.indexOf('--duration');
  await runSqlModeBench(at > 0 ? Number(process.argv[at + 1]) : 10);
}
