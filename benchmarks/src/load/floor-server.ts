import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';

/**
 * The smallest `node:http` server (a fixed 18-byte JSON body, nothing else in its process),
 * started as a child process: what a `/healthz` probe costs on this machine whatever the server.
 * On a VM whose idle cores wake slowly its p99 alone can be 4–19 ms, so a `/healthz` target of
 * 10 ms only means something beside it, measured in the same run.
 */
const SCRIPT = `
import { createServer } from 'node:http';
const body = '{"status":"ready"}';
const server = createServer((_req, res) => {
  res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': String(body.length) });
  res.end(body);
});
server.listen(0, '127.0.0.1', () => console.log('PORT ' + server.address().port));
`;

/** Starts the floor server; resolves with its origin and the child to kill when done. */
export function startFloorServer(): Promise<{ origin: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ['--input-type=module', '-e', SCRIPT], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code) => reject(new Error(`floor server exited with ${code}`)));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (line.startsWith('PORT ')) resolve({ origin: `http://127.0.0.1:${line.slice(5)}`, child });
    });
  });
}
