import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { PapersHandlerOptions } from '@paperlist/core';

/** Options a target's server is started with: the handler's options and where to mount it. */
export type ConformanceServerOptions = PapersHandlerOptions & { mount: string };

/** A running server: its origin (`http://127.0.0.1:PORT`) and how to stop it. */
export interface RunningServer {
  url: string;
  close(): Promise<void>;
}

/**
 * Serves a WHATWG `(Request) => Promise<Response>` handler over `node:http` on an ephemeral
 * port of 127.0.0.1. Node 20 has no built-in server for fetch handlers; this bridge is the
 * least needed for the conformance suite (headers and body in, status, headers and body out,
 * the request's signal aborted when the client goes away).
 */
export async function serveFetchHandler(handler: (request: Request) => Promise<Response>): Promise<RunningServer> {
  const server = createServer((req, res) => {
    bridge(handler, req, res).catch((error: unknown) => {
      // The handler should never throw; if it does, the suite sees a bare 500.
      console.error(error);
      if (!res.headersSent) res.statusCode = 500;
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

async function bridge(
  handler: (request: Request) => Promise<Response>,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const controller = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) controller.abort();
  });
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
  }
  const method = req.method ?? 'GET';
  const body = method === 'GET' || method === 'HEAD' ? null : await readBody(req);
  const request = new Request(`http://${req.headers.host ?? '127.0.0.1'}${req.url ?? '/'}`, {
    method,
    headers,
    body: body !== null && body.length > 0 ? body : null,
    signal: controller.signal,
  });
  const response = await handler(request);
  res.statusCode = response.status;
  response.headers.forEach((value, name) => res.setHeader(name, value));
  res.end(response.body === null ? undefined : Buffer.from(await response.arrayBuffer()));
}

async function readBody(req: IncomingMessage): Promise<Uint8Array<ArrayBuffer>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return new Uint8Array(Buffer.concat(chunks));
}
