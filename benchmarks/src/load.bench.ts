/**
 * Load on the server `paperlist serve` runs (node:http, query threads over one index), at each
 * corpus size: throughput on distinct 1–3-word searches against a plain node:http server sending
 * a prebuilt body of the same average size, and against the same app over a source that answers
 * at once (what the HTTP path alone allows), in the same run; then a normal client under abuse.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { disjointRequests } from './load/disjoint-requests.js';
import { loadSamplePapers } from '@paperlist/core/sample';
import { FIXED_ADVERSARIAL, randomAdversarial } from './adversarial/adversarial-requests.js';
import type { BenchArgs, CorpusSize } from './args.js';
import { corpusAvailable, LARGE_CATALOG } from './corpus.js';
import { underAbuse } from './load/abuse.js';
import { startFloorServer } from './load/floor-server.js';
import { formatCount, table } from './stats.js';

const SERVER = fileURLToPath(new URL('./load/load-server.ts', import.meta.url));
const CONNECTIONS = 32;

interface Ready {
  port: number;
  /** The same app over a source that answers at once (see load/instant-source.ts). */
  instantPort: number;
  prebuiltPort: number;
  averageBytes: number;
  papers: number;
  paths: number;
}

function startServer(size: CorpusSize, threads: number, pathsFile: string): Promise<{ child: ChildProcess; ready: Ready }> {
  const child = spawn(process.execPath, ['--max-old-space-size=12000', '--conditions=@paperlist/source', '--import', 'tsx', SERVER, size, String(threads), pathsFile], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code) => reject(new Error(`load server exited with ${code}`)));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (line.startsWith('READY ')) resolve({ child, ready: JSON.parse(line.slice(6)) as Ready });
      else console.log(line);
    });
  });
}

/** A run of `duration` seconds, each connection asking requests of its own (none asked twice unless `repeated`). */
async function hammer(port: number, paths: readonly string[], duration: number): Promise<autocannon.Result & { repeated: boolean }> {
  const requests = disjointRequests(paths, CONNECTIONS);
  const { requests: first, setupClient } = requests;
  const result = await autocannon({ url: `http://127.0.0.1:${port}`, connections: CONNECTIONS, duration, requests: first, setupClient });
  return { ...result, repeated: requests.repeated() };
}

export async function runLoadBench(args: BenchArgs): Promise<void> {
  console.log('\n## Load: throughput and a client under abuse\n');
  if (!corpusAvailable()) {
    console.log(`skipped: the large catalogue is not at ${LARGE_CATALOG} (set PAPERLIST_LARGE_CATALOG)`);
    return;
  }
  const threads = availableParallelism() + 2; // as `paperlist serve` by default
  for (const size of args.sizes) {
    const dir = mkdtempSync(join(tmpdir(), 'paperlist-load-'));
    const pathsFile = join(dir, 'paths.json');
    console.log(`\n… ${size} (${new Date().toISOString().slice(11, 19)})`);
    const { child, ready } = await startServer(size, threads, pathsFile);
    try {
      const paths = JSON.parse(readFileSync(pathsFile, 'utf8')) as string[];
      // Disjoint slices: no request repeats within or across the runs.
      const warm = paths.slice(0, 5_000);
      const measured = paths.slice(5_000, 95_000);
      const normal = paths.slice(95_000);
      console.log(
        `\n### ${formatCount(ready.papers)} papers, ${threads} query threads: ${CONNECTIONS} connections, distinct searches of 1–3 words ` +
          `(${formatCount(paths.length)} prepared, every ordering, pages 1–3), average answer ${formatCount(ready.averageBytes)} B, ${args.duration} s each after a warm-up\n`,
      );
      await hammer(ready.port, warm, 2);
      const ours = await hammer(ready.port, measured, args.duration);
      await hammer(ready.instantPort, warm, 2);
      const instant = await hammer(ready.instantPort, measured, args.duration);
      await hammer(ready.prebuiltPort, warm, 2);
      const prebuilt = await hammer(ready.prebuiltPort, measured, args.duration);
      const seen = ours.requests.total;
      console.log(
        table(
          ['', 'req/s', 'p50', 'p99', 'MB/s', 'non-2xx', 'vs prebuilt'],
          [
            ['paperlist serve', ours],
            ['its HTTP path alone (instant source)', instant],
            ['node:http, prebuilt body', prebuilt],
          ].map(([name, r]) => {
            const result = r as autocannon.Result;
            return [
              name as string,
              formatCount(Math.round(result.requests.average)),
              `${result.latency.p50} ms`,
              `${result.latency.p99} ms`,
              (result.throughput.average / 1e6).toFixed(1),
              String(result.non2xx + result.errors),
              `${((result.requests.average / prebuilt.requests.average) * 100).toFixed(0)}%`,
            ];
          }),
        ),
      );
      console.log(
        `\nThe second row is the same app over a source that answers every list at once with one of 64 real pages: ` +
          `the ceiling of the HTTP path (parsing, routing, links, headers, writing) whatever the engine.\n` +
          `\n${formatCount(seen)} requests answered by paperlist in the run, each connection asking paths of its own out of ${formatCount(measured.length)} distinct ones` +
          `${ours.repeated ? ' (a connection ran out of its share: some were asked twice)' : ' (none asked twice)'}.`,
      );

      const abusive = [...FIXED_ADVERSARIAL, ...randomAdversarial(await loadSamplePapers(), 200, 99)].map((r) => `/api/v1/papers/?${r.query}`);
      console.log(`\n#### Under abuse: ${args.duration} s with a normal client alone, then ${args.duration} s beside two clients looping over ${abusive.length} adversarial requests\n`);
      const floor = await startFloorServer();
      try {
        await underAbuse(`http://127.0.0.1:${ready.port}`, floor.origin, normal, abusive, args.duration);
      } finally {
        floor.child.kill();
      }
    } finally {
      child.kill();
      rmSync(dir, { recursive: true, force: true });
    }
  }
}
