/**
 * HTTP benchmark: autocannon against the Express and Koa adapters serving the engine, and
 * against an Express route that sends a prebuilt body of the same average size, in the same
 * run, with the same mixed request set. The server runs in its own process.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import type { BenchArgs } from './args.js';
import { corpusAvailable, LARGE_CATALOG } from './corpus.js';
import { formatCount, table } from './stats.js';

const SERVER = fileURLToPath(new URL('./http/server.ts', import.meta.url));
const CONNECTIONS = 10;

interface Ready {
  expressPort: number;
  koaPort: number;
  requests: string[];
  averageBytes: number;
  papers: number;
}

function startServer(size: string): Promise<{ child: ChildProcess; ready: Ready }> {
  const child = spawn(process.execPath, ['--max-old-space-size=8000', '--conditions=@paperlist/source', '--import', 'tsx', SERVER, size], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code) => reject(new Error(`HTTP server exited with ${code}`)));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (line.startsWith('READY ')) resolve({ child, ready: JSON.parse(line.slice(6)) as Ready });
      else console.log(line);
    });
  });
}

async function hammer(port: number, paths: string[], duration: number, prefix = ''): Promise<autocannon.Result> {
  return autocannon({
    url: `http://127.0.0.1:${port}`,
    connections: CONNECTIONS,
    duration,
    requests: paths.map((path) => ({ method: 'GET', path: prefix + path })),
  });
}

export async function runHttpBench(args: BenchArgs): Promise<void> {
  console.log('\n## HTTP adapters\n');
  if (!corpusAvailable()) {
    console.log(`skipped: the large catalogue is not at ${LARGE_CATALOG} (set PAPERLIST_LARGE_CATALOG)`);
    return;
  }
  const size = args.sizes[0] ?? '500k';
  const { child, ready } = await startServer(size);
  try {
    const { requests, averageBytes } = ready;
    console.log(
      `${formatCount(ready.papers)} papers; ${requests.length} requests cycled (browse in every order, the engine set's searches by -published, title and relevance, papers by id), ` +
        `average answer ${formatCount(averageBytes)} B; autocannon, ${CONNECTIONS} connections, ${args.duration} s each, after a 2 s warm-up.\n`,
    );
    const targets: [string, number, string][] = [
      ['Express + engine', ready.expressPort, ''],
      ['Koa + engine', ready.koaPort, ''],
      ['Express, prebuilt body', ready.expressPort, '/prebuilt'],
    ];
    const results: [string, autocannon.Result][] = [];
    for (const [name, port, prefix] of targets) {
      await hammer(port, requests, 2, prefix);
      results.push([name, await hammer(port, requests, args.duration, prefix)]);
    }
    const prebuilt = results.at(-1)![1].requests.average;
    console.log(
      table(
        ['', 'req/s', 'p50', 'p99', 'MB/s', 'non-2xx', 'vs prebuilt'],
        results.map(([name, r]) => [
          name,
          formatCount(Math.round(r.requests.average)),
          `${r.latency.p50} ms`,
          `${r.latency.p99} ms`,
          (r.throughput.average / 1e6).toFixed(1),
          String(r.non2xx + r.errors),
          `${((r.requests.average / prebuilt) * 100).toFixed(0)}%`,
        ]),
      ),
    );
  } finally {
    child.kill();
  }
}
