/**
 * The `--query-mode sql` load benchmark's server process: the direct SQL source
 * (`@paperlist/postgres`) on a pg.Pool, served as `paperlist serve` serves (the CLI's node:http
 * app), with the per-call budget and the bounded pool wait. Writes the request paths to a file
 * and prints `READY {…}`; serves until killed.
 * Usage: sql-mode-server.ts <database-url> <schema> <budget-ms> <paths.json>
 */
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { loadSamplePapers } from '@paperlist/core/sample';
import { createApp } from '@paperlist/cli';
import { createPostgresSource, type Queryable } from '@paperlist/postgres';
import { databaseMix } from './distinct-queries.js';
import { reportLoopDelayOnSignal } from './loop-delay-signal.js';

const [url, schema, budgetArg, pathsFile] = process.argv.slice(2) as [string, string, string, string];
const budgetMs = Number(budgetArg);
// Ten connections for ten clients: each request holds at most two at once (count beside idfs).
const pool = new pg.Pool({ connectionString: url, max: 10 });
// PAPERLIST_MERGE_THREADS sets the source's `mergeThreads` (its default otherwise): to compare them in one session.
const threads = process.env['PAPERLIST_MERGE_THREADS'];
const source = await createPostgresSource({ db: pool as unknown as Queryable, schema, statementTimeoutMs: budgetMs, ...(threads === undefined ? {} : { mergeThreads: Number(threads) }) });

const paths = databaseMix(await loadSamplePapers(), 40_000);

const state = { phase: 'ready' as const, papers: 0, inFlight: 0 };
const app = createApp({ source, state, mount: '/api/v1', allowedHosts: ['127.0.0.1', 'localhost'], onError: (error) => console.error(String(error)) });
const server = createServer(app);
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
writeFileSync(pathsFile, JSON.stringify(paths));
const loopDelay = reportLoopDelayOnSignal();
process.once('SIGTERM', () => {
  const ms = (ns: number) => (ns / 1e6).toFixed(0);
  console.log(`server event loop delay: p99 ${ms(loopDelay.percentile(99))} ms, max ${ms(loopDelay.max)} ms`);
  process.exit(0);
});
console.log(`READY ${JSON.stringify({ port: (server.address() as AddressInfo).port, paths: paths.length })}`);
