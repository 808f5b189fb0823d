import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createPapersHandler } from '../../src/http/papers-handler.js';
import type { PapersHandlerOptions } from '../../src/http/handler-options.js';

/** A server on an ephemeral port of 127.0.0.1: its origin and how to stop it. */
export interface PapersServer {
  origin: string;
  close(): Promise<void>;
}

/**
 * The core handler over `node:http`, mounted at `mount`: the least an adapter does (request
 * in, response out; other paths 404). Enough for tests that need a real server and a real browser.
 */
export async function servePapers(options: PapersHandlerOptions & { mount?: string }): Promise<PapersServer> {
  const handle = createPapersHandler(options);
  const server = createServer((req, res) => {
    const controller = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) controller.abort();
    });
    handle({
      method: req.method ?? 'GET',
      url: req.url ?? '/',
      headers: req.headers,
      basePath: options.mount ?? '',
      origin: `http://${req.headers.host ?? '127.0.0.1'}`,
      signal: controller.signal,
    })
      .then((answer) => {
        if (answer === null) {
          res.writeHead(404, { 'Content-Type': 'text/plain' }).end('Not here.');
          return;
        }
        res.writeHead(answer.status, answer.headers);
        res.end(answer.body ?? undefined);
      })
      .catch((error: unknown) => {
        console.error(error);
        res.writeHead(500).end();
      });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
