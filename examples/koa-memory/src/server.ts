import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import Koa from 'koa';
import { createMemorySource } from '@paperlist/core';
import { loadSamplePapers } from '@paperlist/core/sample';
import { papersRouter } from '@paperlist/koa';

/** A running example server: its origin and how to stop it. */
export interface ExampleServer {
  url: string;
  close(): Promise<void>;
}

/**
 * Koa serving the embedded 4,000-paper sample from memory at `/api/v1/papers/`.
 * `port` 0 picks a free one.
 */
export async function startServer(port: number, host = '127.0.0.1'): Promise<ExampleServer> {
  const source = createMemorySource(await loadSamplePapers());
  const app = new Koa();
  app.use(papersRouter({ source, prefix: '/api/v1' }).routes());
  const server = app.listen(port, host);
  await once(server, 'listening');
  const address = server.address() as AddressInfo;
  return {
    url: `http://${host}:${address.port}`,
    close: () =>
      new Promise((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

// `tsx src/server.ts` (the `start` script); importing the module only defines startServer.
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { url } = await startServer(Number(process.env['PORT'] ?? 3000));
  console.log(`paperlist (koa): ${url}/api/v1/papers/`);
}
