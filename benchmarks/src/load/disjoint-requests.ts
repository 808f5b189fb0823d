import type autocannon from 'autocannon';

/** autocannon options giving each connection its own requests, and whether any connection ran out of them. */
export interface DisjointRequests {
  /** The first connection's requests (autocannon wants a list; each connection's is set by `setupClient`). */
  readonly requests: autocannon.Request[];
  readonly setupClient: (client: autocannon.Client) => void;
  /** Requests each connection has before it starts its slice again. */
  readonly perConnection: number;
  /** Whether a connection was answered more requests than its slice holds (so some were asked twice). */
  repeated(): boolean;
}

/**
 * Gives each connection a slice of `paths` of its own. autocannon's `requests` are replayed by
 * every connection from the first one on, so with N connections every request would be asked
 * N times, at about the same moment: caches of answers or of their parts, and the CPU's, would
 * serve all but the first. A connection that gets through its slice starts it again.
 */
export function disjointRequests(paths: readonly string[], connections: number): DisjointRequests {
  const perConnection = Math.max(1, Math.floor(paths.length / connections));
  const slice = (c: number): autocannon.Request[] => paths.slice(c * perConnection, (c + 1) * perConnection).map((path) => ({ method: 'GET', path }));
  const answered: number[] = [];
  return {
    requests: slice(0),
    // Called once per connection, before its first request.
    setupClient: (client) => {
      const c = answered.length;
      answered.push(0);
      client.setRequests(slice(c % connections));
      client.on('response', () => answered[c]!++);
    },
    perConnection,
    repeated: () => answered.some((n) => n > perConnection),
  };
}
