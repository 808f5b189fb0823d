import { sequentialClient } from './http-client.js';

/** What {@link plainClients} measured: each request's milliseconds (sorted) and the statuses counted. */
export interface PlainClientsRun {
  times: number[];
  statuses: Map<number, number>;
  /** `times` at quantile `q` (0–1). */
  at(q: number): number;
  /** The statuses as `200: n, 404: n`. */
  codes(): string;
}

/**
 * `clients` plain keep-alive `node:http` clients, one request at a time each, for `seconds`,
 * taking `paths` in turn (never one twice), each request timed from its send to its last byte.
 * autocannon's own maximum is not that: it reports seconds-long latencies that no request takes
 * (see docs/postgres.md).
 */
export async function plainClients(origin: string, paths: readonly string[], seconds: number, clients: number): Promise<PlainClientsRun> {
  const until = performance.now() + seconds * 1000;
  const times: number[] = [];
  const statuses = new Map<number, number>();
  let next = 0;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      const get = sequentialClient(origin);
      while (performance.now() < until && next < paths.length) {
        const { status, ms } = await get(paths[next++]!);
        times.push(ms);
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
      }
    }),
  );
  if (next >= paths.length) console.log(`(the clients ran out of requests after ${paths.length})`);
  times.sort((a, b) => a - b);
  return {
    times,
    statuses,
    at: (q) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!,
    codes: () => [...statuses].sort((a, b) => a[0] - b[0]).map(([code, n]) => `${code}: ${n}`).join(', '),
  };
}
