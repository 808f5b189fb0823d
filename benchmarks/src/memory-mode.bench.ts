/**
 * `paperlist serve --database-url` in its default mode (`--query-mode memory`): the following
 * source loaded from PostgreSQL (498k papers) into the memory engine, in a server process of its
 * own, under 10 clients on the SQL mode's mix of distinct requests (load/distinct-queries.ts's
 * `databaseMix`); then the same clients while another writer (a PostgreSQL source's `write`, as
 * a second server's HTTP write would) changes one paper after another, each change timed from its
 * commit to the first answer of this server that shows it. Targets (issue 18): loaded in <= 30 s;
 * >= 2,000 req/s and p99 <= 25 ms under 10 clients; change visibility p99 <= 1 s.
 *
 * Imports the large catalogue into a schema of its own (`paperlist_memory_load`; the writes would
 * make the SQL mode's posting lists stale) unless PAPERLIST_BENCH_REUSE=1 finds it loaded.
 * Run alone: `node --import tsx --conditions=@paperlist/source benchmarks/src/memory-mode.bench.ts [--duration s]`
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import pg from 'pg';
import { toPaper, type Paper } from '@paperlist/core';
import { createPostgresSource, type PostgresSource, type Queryable } from '@paperlist/postgres';
import { LARGE_CATALOG } from './corpus.js';
import { benchDatabase, ensureCatalogue } from './load/bench-schema.js';
import { disjointRequests } from './load/disjoint-requests.js';
import { plainClients } from './load/plain-clients.js';

const DATABASE_URL =
  process.env['PAPERLIST_BENCH_DATABASE_URL'] ?? process.env['PAPERLIST_TEST_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';
const SCHEMA = process.env['PAPERLIST_MEMORY_LOAD_SCHEMA'] ?? 'paperlist_memory_load';
const REUSE = process.env['PAPERLIST_BENCH_REUSE'] === '1';
const SERVER = fileURLToPath(new URL('./load/memory-mode-server.ts', import.meta.url));
const CLIENTS = 10;
/**
 * Distinct requests: warm-up (20,000), autocannon's run (60,000), the plain clients alone (50,000) and with writes
 * (50,000), in that order, never one twice; each slice holds more than 10 s at 4,000 req/s.
 */
const PATHS = 180_000;
const WARM_UP_SECONDS = 5;
/** A changed title ends with this (and a counter); taken off again to find the paper's own title. */
const MARK = / \[memory-mode bench [^\]]*\]$/;

interface Started {
  child: ChildProcess;
  port: number;
  papers: number;
  loadSeconds: number;
  rssGb: number;
}

function startServer(pathsFile: string): Promise<Started> {
  const child = spawn(process.execPath, ['--conditions=@paperlist/source', '--import', 'tsx', SERVER, DATABASE_URL, SCHEMA, pathsFile, String(PATHS)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code) => reject(new Error(`memory-mode server exited with ${code}`)));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (line.startsWith('READY ')) resolve({ child, ...(JSON.parse(line.slice(6)) as Omit<Started, 'child'>) });
      else if (!line.startsWith('LOOP ')) console.log(line);
    });
  });
}

/** The server's `title` of paper `id`, as a client reads it. */
async function servedTitle(origin: string, id: string): Promise<string | null> {
  const response = await fetch(`${origin}/api/v1/papers/${encodeURIComponent(id)}/`);
  if (response.status !== 200) return null;
  return ((await response.json()) as { title: string }).title;
}

/**
 * Changes papers one after another through a second source's `write` until `until`, each then
 * polled on the server until it shows; the milliseconds from each commit to that answer.
 */
async function timeVisibility(origin: string, writer: PostgresSource, papers: Paper[], until: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; performance.now() < until; i++) {
    const paper = papers[i % papers.length]!;
    const title = `${paper.title} [memory-mode bench ${i}]`;
    await writer.write([{ op: 'upsert', paper: { ...paper, title } }]);
    const committed = performance.now();
    while ((await servedTitle(origin, paper.id)) !== title) await new Promise((resolve) => setTimeout(resolve, 2));
    times.push(performance.now() - committed);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return times.sort((a, b) => a - b);
}

export async function runMemoryModeBench(duration: number): Promise<void> {
  console.log(`\n## --query-mode memory (the default): the following source under ${CLIENTS} clients, and changes by another writer\n`);
  const pool = await benchDatabase(DATABASE_URL, LARGE_CATALOG, 2);
  if (pool === null) return;
  const dir = mkdtempSync(join(tmpdir(), 'paperlist-memory-load-'));
  let child: ChildProcess | undefined;
  const writerPool = new pg.Pool({ connectionString: DATABASE_URL, max: 2 });
  try {
    await ensureCatalogue(pool, SCHEMA, REUSE);
    const pathsFile = join(dir, 'paths.json');
    const started = await startServer(pathsFile);
    child = started.child;
    const origin = `http://127.0.0.1:${started.port}`;
    console.log(
      `load: ${started.papers} papers from PostgreSQL into the memory engine in ${started.loadSeconds.toFixed(1)} s, server RSS +${started.rssGb.toFixed(2)} GB ` +
        `(target <= 30 s: ${started.loadSeconds <= 30 ? 'met' : 'NOT met'})`,
    );
    const paths = JSON.parse(readFileSync(pathsFile, 'utf8')) as string[];
    await plainClients(origin, paths.slice(0, 20_000), WARM_UP_SECONDS, CLIENTS);

    const requests = disjointRequests(paths.slice(20_000, 80_000), CLIENTS);
    const result = await autocannon({ url: origin, connections: CLIENTS, duration, requests: requests.requests, setupClient: requests.setupClient });
    if (requests.repeated()) console.log('(a connection ran out of its share of the requests: some were asked twice)');
    const codes = Object.entries(result.statusCodeStats ?? {}).map(([code, stat]) => `${code}: ${(stat as { count: number }).count}`).join(', ');
    console.log(`\n${CLIENTS} clients (autocannon), ${duration} s, distinct requests after ${WARM_UP_SECONDS} s of others:\n`);
    console.log(`| req/s | p50 | p90 | p99 | max | answers |`);
    console.log(`|---:|---:|---:|---:|---:|---|`);
    console.log(`| ${result.requests.average.toFixed(0)} | ${result.latency.p50} ms | ${result.latency.p90} ms | ${result.latency.p99} ms | ${result.latency.max} ms | ${codes} |`);
    console.log(`\ntargets: >= 2,000 req/s (${result.requests.average >= 2000 ? 'met' : 'NOT met'}), p99 <= 25 ms (${result.latency.p99 <= 25 ? 'met' : 'NOT met'})`);

    // Changes by another writer while ten plain clients ask.
    // No warm-up: its background reads would hold the writer's two connections, and a `get` waiting behind them is refused.
    const writer = await createPostgresSource({ db: writerPool as unknown as Queryable, schema: SCHEMA, warmUp: false });
    const { rows } = await writerPool.query<{ id: string }>(`SELECT id FROM "${SCHEMA}".papers ORDER BY id LIMIT 40 OFFSET 1000`);
    const originals: Paper[] = [];
    for (const { id } of rows) {
      const paper = toPaper((await writer.get(id))!);
      originals.push({ ...paper, title: paper.title.replace(MARK, '') });
    }
    // The plain clients alone first: they cost the machine more than autocannon, so the run with writes is compared with them.
    const quiet = await plainClients(origin, paths.slice(80_000, 130_000), duration, CLIENTS);
    const until = performance.now() + duration * 1000;
    const [clients, visibility] = await Promise.all([plainClients(origin, paths.slice(130_000), duration, CLIENTS), timeVisibility(origin, writer, originals, until)]);
    await writer.write(originals.map((paper) => ({ op: 'upsert' as const, paper })));
    await writer.close();
    const at = (q: number) => visibility[Math.min(visibility.length - 1, Math.floor(q * visibility.length))]!;
    console.log(`\n${CLIENTS} plain keep-alive clients, ${duration} s, without writes, then while another writer changes one paper after another (${visibility.length} changes):\n`);
    console.log(`| run | requests/s | p50 | p99 | max | answers | change visible after: p50 | p99 | max |`);
    console.log(`|---|---:|---:|---:|---:|---|---:|---:|---:|`);
    const row = (name: string, run: typeof quiet) =>
      `| ${name} | ${(run.times.length / duration).toFixed(0)} | ${run.at(0.5).toFixed(1)} ms | ${run.at(0.99).toFixed(1)} ms | ${run.times[run.times.length - 1]!.toFixed(0)} ms | ${run.codes()} |`;
    console.log(`${row('no writes', quiet)} | | |`);
    console.log(`${row('with writes', clients)} ${at(0.5).toFixed(0)} ms | ${at(0.99).toFixed(0)} ms | ${visibility[visibility.length - 1]!.toFixed(0)} ms |`);
    console.log(`\ntarget: change visibility p99 <= 1 s (${at(0.99) <= 1000 ? 'met' : 'NOT met'})`);
  } finally {
    child?.removeAllListeners('exit');
    if (child !== undefined && child.exitCode === null) await new Promise((resolve) => (child!.once('exit', resolve), child!.kill('SIGTERM')));
    rmSync(dir, { recursive: true, force: true });
    if (!REUSE) await pool.query(`DROP SCHEMA IF EXISTS "${SCHEMA}" CASCADE`).catch(() => {});
    await Promise.all([pool.end(), writerPool.end()]);
  }
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const at = process.argv.indexOf('--duration');
  await runMemoryModeBench(at > 0 ? Number(process.argv[at + 1]) : 10);
}
