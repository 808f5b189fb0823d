import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CliError, errorCode } from '../cli-error.js';
import { EXIT } from '../exit-codes.js';

/**
 * Starts an HTTP server on `host:port` and resolves once it listens.
 * @throws {CliError} with exit code 5 when the address is in use or not available.
 */
export async function listen(handler: RequestListener, host: string, port: number): Promise<Server> {
  const server = createServer(handler);
  // Slow clients must not hold a shutdown for long; keep-alive connections are closed when idle.
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    const onError = (error: Error) => {
      server.off('listening', onListening);
      reject(listenError(error, host, port));
    };
    const onListening = () => {
      server.off('error', onError);
      resolve();
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen(port, host);
  });
  return server;
}

function listenError(error: Error, host: string, port: number): Error {
  const where = `${host}:${port}`;
  switch (errorCode(error)) {
    case 'EADDRINUSE':
      return new CliError(`cannot listen on ${where}: the address is already in use (try another --port)`, EXIT.SERVER, { cause: error });
    case 'EADDRNOTAVAIL':
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return new CliError(`cannot listen on ${where}: no such local address (check --host)`, EXIT.SERVER, { cause: error });
    case 'EACCES':
      return new CliError(`cannot listen on ${where}: permission denied (ports below 1024 need privileges)`, EXIT.SERVER, { cause: error });
    default:
      return new CliError(`cannot listen on ${where}: ${error.message}`, EXIT.SERVER, { cause: error });
  }
}

/** `http://host:port`, with IPv6 hosts in brackets. */
export function serverOrigin(server: Server, host: string): string {
  const address = server.address() as AddressInfo | null;
  const port = address?.port ?? 0;
  const shown = host.includes(':') ? `[${host}]` : host;
  return `http://${shown}:${port}`;
}

/**
 * Stops accepting connections, lets the requests in flight finish, and closes idle keep-alive
 * connections as they become idle. After `timeoutMs` the connections still open are cut.
 * Resolves with the number of connections that had to be cut.
 */
export async function closeGracefully(server: Server, timeoutMs: number): Promise<{ cut: number }> {
  let cut = 0;
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  // Connections answering a request become idle when their response ends: close them then.
  const sweep = setInterval(() => server.closeIdleConnections(), 25);
  const deadline = new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), timeoutMs).unref());
  try {
    if ((await Promise.race([closed, deadline])) === 'timeout') {
      cut = await countConnections(server);
      server.closeAllConnections();
      await closed;
    }
  } finally {
    clearInterval(sweep);
  }
  return { cut };
}

function countConnections(server: Server): Promise<number> {
  return new Promise((resolve) => server.getConnections((error, count) => resolve(error ? 0 : count)));
}
