import { formatMs, percentile, table } from '../stats.js';
import { sequentialClient } from './http-client.js';

/** What one looping client saw. */
interface Seen {
  times: number[];
  statuses: Map<number, number>;
}

/** Loops `client` over `paths` until `until`, recording every answer. */
async function loop(origin: string, paths: readonly string[], until: number, pauseMs = 0): Promise<Seen> {
  const get = sequentialClient(origin);
  const seen: Seen = { times: [], statuses: new Map() };
  for (let i = 0; performance.now() < until; i++) {
    const { status, ms } = await get(paths[i % paths.length]!);
    seen.times.push(ms);
    seen.statuses.set(status, (seen.statuses.get(status) ?? 0) + 1);
    if (pauseMs > 0) await new Promise((resolve) => setTimeout(resolve, pauseMs));
  }
  return seen;
}

const row = (name: string, seen: Seen) => {
  const sorted = [...seen.times].sort((a, b) => a - b);
  const statuses = [...seen.statuses].sort((a, b) => a[0] - b[0]).map(([s, n]) => `${s}×${n}`).join(' ');
  return [name, String(seen.times.length), formatMs(percentile(sorted, 50)), formatMs(percentile(sorted, 99)), formatMs(sorted.at(-1) ?? NaN), statuses];
};

/**
 * A normal client (one connection, distinct searches one after another) alone, then while two
 * abusive clients loop over the adversarial requests; `/healthz` is asked every 25 ms all along,
 * and so is the smallest `node:http` server at `floorOrigin` (see floor-server.ts), the same way
 * at the same time: the machine's own floor for such a probe.
 */
export async function underAbuse(origin: string, floorOrigin: string, normal: readonly string[], abusive: readonly string[], seconds: number): Promise<void> {
  const quietUntil = performance.now() + seconds * 1000;
  const [quiet, quietHealth, quietFloor] = await Promise.all([
    loop(origin, normal, quietUntil),
    loop(origin, ['/healthz'], quietUntil, 25),
    loop(floorOrigin, ['/healthz'], quietUntil, 25),
  ]);
  const until = performance.now() + seconds * 1000;
  const offset = Math.floor(abusive.length / 2);
  const [busy, busyHealth, busyFloor, one, two] = await Promise.all([
    loop(origin, normal.slice(quiet.times.length), until),
    loop(origin, ['/healthz'], until, 25),
    loop(floorOrigin, ['/healthz'], until, 25),
    loop(origin, abusive, until),
    loop(origin, [...abusive.slice(offset), ...abusive.slice(0, offset)], until),
  ]);
  console.log(
    table(
      ['client', 'requests', 'p50', 'p99', 'max', 'statuses'],
      [
        row('normal client, alone', quiet),
        row('/healthz, alone', quietHealth),
        row('floor: smallest node:http server, meanwhile', quietFloor),
        row('normal client, under abuse', busy),
        row('/healthz, under abuse', busyHealth),
        row('floor: smallest node:http server, meanwhile', busyFloor),
        row('abusive client 1', one),
        row('abusive client 2', two),
      ],
    ),
  );
}
