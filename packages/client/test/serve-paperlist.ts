import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createPapersHandler, type PapersHandlerOptions } from '@paperlist/core';

/** A running paperlist server on 127.0.0.1: its origin, the requests it saw, and how to stop it. */
export interface TestServer {
  origin: string;
  /** Every request URL (path and query), in order. */
  requests: string[];
  close(): Promise<void>;
}

/**
 * Answers a request itself (`true`) or lets paperlist answer it (`false`): how the tests make a
 * server flaky, slow or silent.
 */
export type Intercept = (req: IncomingMessage, res: ServerResponse, index: number) => boolean;

/** The core handler over `node:http`, mounted at `/api/v1`, with an optional interceptor in front. */
export async function servePaperlist(options: PapersHandlerOptions, intercept?: Intercept): Promise<TestServer> {
  const handle = createPapersHandler(options);
  const requests: string[] = [];
  const server = createServer((req, res) => {
    requests.push(req.url ?? '/');
    if (intercept?.(req, res, requests.length - 1)) return;
    handle({
      method: req.method ?? 'GET',
      url: req.url ?? '/',
      headers: req.headers,
      basePath: '/api/v1',
      origin: `http://${req.headers.host ?? '127.0.0.1'}`,
      body: req,
    })
      .then((answer) => {
        if (answer === null) {
          res.writeHead(404).end();
          return;
        }
        res.writeHead(answer.status, answer.headers).end(answer.body ?? undefined);
      })
      .catch(() => res.writeHead(500).end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
