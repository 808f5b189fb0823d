import { Agent, request } from 'node:http';

/** A sequential HTTP client on one kept-alive connection: each request's status and milliseconds. */
export function sequentialClient(origin: string): (path: string) => Promise<{ status: number; ms: number }> {
  const { hostname, port } = new URL(origin);
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  return (path) =>
    new Promise((resolve, reject) => {
      const started = performance.now();
      const req = request({ hostname, port, path, agent }, (res) => {
        res.on('data', () => {});
        res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - started }));
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end();
    });
}
