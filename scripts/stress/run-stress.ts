// `pnpm stress`: 100,000 fuzz cases of the HTTP contract, then 60 s of saturation load on the
// Express and Koa apps. `--soak` loads for 10 minutes instead; `--fuzz-only`, `--load-only`,
// `--runs N`, `--seconds N` narrow it. Exits non-zero when any check fails.
import { parseArgs } from 'node:util';
import { runFuzz } from './run-fuzz.js';
import { runLoad, type LoadResult } from './run-load.js';

const { values } = parseArgs({
  options: {
    soak: { type: 'boolean', default: false },
    'fuzz-only': { type: 'boolean', default: false },
    'load-only': { type: 'boolean', default: false },
    runs: { type: 'string', default: '100000' },
    seconds: { type: 'string' },
    connections: { type: 'string', default: '32' },
  },
});

const failures: string[] = [];

if (!values['load-only']) {
  const runs = Number(values.runs);
  console.log(`fuzz: ${runs.toLocaleString('en')} cases of any method, path, query and headers…`);
  try {
    const result = await runFuzz(runs);
    console.log(`fuzz: ${result.runs.toLocaleString('en')} cases passed in ${result.seconds.toFixed(1)} s`);
  } catch (error) {
    failures.push(`fuzz: ${(error as Error).message}`);
    console.error(error);
  }
}

if (!values['fuzz-only']) {
  const seconds = Number(values.seconds ?? (values.soak ? 600 : 60));
  for (const app of ['express', 'koa'] as const) {
    console.log(`load: ${app}, ${seconds} s at saturation (${values.connections} connections), mixed requests…`);
    const result = await runLoad(app, seconds, Number(values.connections));
    print(result);
    check(result);
  }
}

if (failures.length > 0) {
  console.error(`stress: FAILED\n  ${failures.join('\n  ')}`);
  process.exit(1);
}
console.log('stress: all checks passed');

function print(r: LoadResult): void {
  console.log(
    `load: ${r.app}: ${r.requests.toLocaleString('en')} requests, ${Math.round(r.requestsPerSecond).toLocaleString('en')} req/s, ` +
      `p50 ${r.p50Ms} ms, p99 ${r.p99Ms} ms, errors ${r.errors}, timeouts ${r.timeouts}, unexpected statuses ${r.unexpectedStatuses}; ` +
      `RSS start ${r.rssStartMb} MB, after warm-up ${r.rssAfterWarmupMb} MB (median), peak ${r.rssMaxAfterWarmupMb} MB, end ${r.rssEndMb} MB (median)`,
  );
}

function check(r: LoadResult): void {
  if (r.errors > 0 || r.timeouts > 0) failures.push(`${r.app}: ${r.errors} errors, ${r.timeouts} timeouts`);
  if (r.unexpectedStatuses > 0) failures.push(`${r.app}: ${r.unexpectedStatuses} answers with a status not asked for`);
  const growth = (r.rssEndMb - r.rssAfterWarmupMb) / r.rssAfterWarmupMb;
  if (growth > 0.1) failures.push(`${r.app}: RSS grew ${(growth * 100).toFixed(1)}% after warm-up (median of the last 10 s against the first 10 s after warm-up)`);
}
