import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import { LOAD_REQUESTS } from './load-requests.js';

/** What one load run measured. */
export interface LoadResult {
  app: string;
  seconds: number;
  requests: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
  timeouts: number;
  unexpectedStatuses: number;
  rssStartMb: number;
  /** Median RSS over the 10 s after warm-up. */
  rssAfterWarmupMb: number;
  rssMaxAfterWarmupMb: number;
  /** Median RSS over the last 10 s: compared with the warm baseline, a leak shows as growth. */
  rssEndMb: number;
}

/** Starts the app in a child process, loads it at saturation for `seconds`, samples its RSS. */
export async function runLoad(app: 'express' | 'koa', seconds: number, connections = 32): Promise<LoadResult> {
  const child = spawn(process.execPath, ['--conditions=@paperlist/source', '--import', 'tsx', new URL('./serve-app.ts', import.meta.url).pathname, app], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${app} server exited with ${code}`)));
    child.stdout.on('data', (chunk: Buffer) => {
      const match = /ready (\d+)/.exec(chunk.toString());
      if (match) resolve(Number(match[1]));
    });
  });
  const rss: { at: number; mb: number }[] = [];
  const sample = () => rss.push({ at: Date.now(), mb: readRssMb(child.pid!) });
  sample();
  const sampler = setInterval(sample, 1000);
  let unexpected = 0;
  const started = Date.now();
  const result = await autocannon({
    url: `http://127.0.0.1:${port}`,
    connections,
    duration: seconds,
    requests: LOAD_REQUESTS.map((request) => ({
      method: request.method ?? 'GET',
      path: request.path,
      onResponse: (status: number) => {
        if (status !== request.status) unexpected++;
      },
    })),
  });
  clearInterval(sampler);
  sample();
  child.kill('SIGTERM');
  // After the warm-up (a fifth of the run, at least 15 s) the heap has found its size: RSS from
  // then on must stay flat.
  const warmUpMs = Math.min(Math.max((seconds * 1000) / 5, 15_000), seconds * 500);
  const warm = rss.filter((point) => point.at >= started + warmUpMs);
  // Medians over 10 s windows, so one garbage-collection peak is not mistaken for growth.
  const base = median(warm.filter((point) => point.at < started + warmUpMs + 10_000).map((point) => point.mb)) ?? rss[0]!.mb;
  const last = warm[warm.length - 1]?.at ?? Date.now();
  const end = median(warm.filter((point) => point.at > last - 10_000).map((point) => point.mb)) ?? base;
  return {
    app,
    seconds,
    requests: result.requests.total,
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    errors: result.errors,
    timeouts: result.timeouts,
    unexpectedStatuses: unexpected,
    rssStartMb: rss[0]!.mb,
    rssAfterWarmupMb: base,
    rssMaxAfterWarmupMb: Math.max(...warm.map((point) => point.mb), base),
    rssEndMb: end,
  };
}

function median(values: number[]): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

function readRssMb(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
    return Math.round((kb / 1024) * 10) / 10;
  } catch {
    return 0;
  }
}
