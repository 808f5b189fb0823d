/**
 * The memory mode's load benchmark server process (`paperlist serve --database-url`, the
 * default `--query-mode memory`): the following source (`createFollowingSource`) loaded from
 * PostgreSQL into the memory engine, on the CLI's default query threads, served by the CLI's node:http app. Writes the request paths
 * to a file and prints `READY {…}` (with the load's seconds and resident memory); serves until
 * killed. SIGUSR2 prints the event loop's delays since the last one as `LOOP {…}`.
 * Usage: memory-mode-server.ts <database-url> <schema> <paths.json> <number of paths>
 */
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { availableParallelism } from 'node:os';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { loadSamplePapers } from '@paperlist/core/sample';
import { createApp } from '@paperlist/cli';
import { createFollowingSource, type Queryable } from '@paperlist/postgres';
import { databaseMix } from './distinct-queries.js';
import { reportLoopDelayOnSignal } from './loop-delay-signal.js';

const [url, schema, pathsFile, pathCount] = process.argv.slice(2) as [string, string, string, string];
const pool = new pg.Pool({ connectionString: url, max: 4 });
const rssBefore = process.memoryUsage().rss;
const started = performance.now();
// Query threads as `paperlist serve --database-url` runs them by default (`--workers auto`).
const source = await createFollowingSource(pool as unknown as Queryable, { schema, threads: availableParallelism() + 2 });
const loadSeconds = (performance.now() - started) / 1000;

const state = { phase: 'ready' as const, papers: source.size, inFlight: 0 };
const app = createApp({ source, state, mount: '/api/v1', allowedHosts: ['127.0.0.1', 'localhost'], onError: (error) => console.error(String(error)) });
const server = createServer(app);
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
writeFileSync(pathsFile, JSON.stringify(databaseMix(await loadSamplePapers(), Number(pathCount))));
reportLoopDelayOnSignal();
process.once('SIGTERM', () => {
  void source.close().finally(() => process.exit(0));
});
const rssGb = (process.memoryUsage().rss - rssBefore) / 2 ** 30;
console.log(`READY ${JSON.stringify({ port: (server.address() as AddressInfo).port, papers: source.size, loadSeconds, rssGb })}`);
