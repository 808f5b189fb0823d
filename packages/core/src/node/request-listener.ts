import type { IncomingMessage, ServerResponse } from 'node:http';
import proxyAddr from 'proxy-addr';
import { createPapersHandler } from '../http/papers-handler.js';
import type { PapersHandlerOptions } from '../http/handler-options.js';
import { errorResponse } from '../http/respond.js';
import type { PapersResponse } from '../http/types.js';

/**
 * Which proxies may set `X-Forwarded-Proto` and `X-Forwarded-Host`, as Express's `trust proxy`:
 * `false` (none, the default), `true` (any), a number of hops, addresses and subnets
 * (`'loopback'`, `'10.0.0.0/8, 127.0.0.1'`, or a list), or a function of (address, hop).
 */
export type TrustProxy = boolean | number | string | readonly string[] | ((address: string, hop: number) => boolean);

/** Options of {@link createRequestListener}. */
export interface RequestListenerOptions extends PapersHandlerOptions {
  /** Path prefix of the papers paths, e.g. `/api/v1`. Default `''`. */
  mount?: string;
  /** Which proxies to believe about the request's scheme and host (see {@link TrustProxy}). Default `false`. */
  trustProxy?: TrustProxy;
  /**
   * Changes each answer of the API before it is written, such as compressing its body for the
   * request's `Accept-Encoding` (what `paperlist serve` does). Not called for paths that go to `next`.
   */
  transformResponse?: (answer: PapersResponse, req: IncomingMessage) => PapersResponse | Promise<PapersResponse>;
  /**
   * Hands each body's memory back to the source once the body is written (see
   * {@link PapersResponse.release}): the memory source's query threads then gather later pages
   * in it, and the thread accepting connections, which would otherwise hold every page it sent
   * until a full garbage collection, stays free of most of those pauses. Turn it on when nothing
   * keeps a body after it is written (a `transformResponse` that keeps one must copy it).
   * `paperlist serve` does. Default `false`.
   */
  reuseBodies?: boolean;
}

/** A `node:http` request listener; `next` (when given) gets the requests for paths that are not the API's. */
export type PapersRequestListener = (req: IncomingMessage, res: ServerResponse, next?: () => void) => void;

/**
 * The papers API as a `node:http` request listener: `http.createServer(createRequestListener({ source }))`.
 * Any request is answered without throwing (a malformed `Host`, odd headers, a client that
 * goes away: its query is stopped through the handler's abort signal). Paths outside
 * `{mount}/papers/` and `{mount}/schema/` go to `next`, or get `404 {"detail":"Not found."}`.
 *
 * @example
 * import { createServer } from 'node:http';
 * import { createRequestListener } from '@paperlist/core/node';
 * createServer(createRequestListener({ source, mount: '/api/v1' })).listen(8000);
 */
export function createRequestListener(options: RequestListenerOptions): PapersRequestListener {
  const { mount = '', trustProxy = false, transformResponse, reuseBodies = false, ...handlerOptions } = options;
  const write = (res: ServerResponse, answer: PapersResponse) => writeResponse(res, answer, { release: reuseBodies });
  const handle = createPapersHandler(handlerOptions);
  const onError = handlerOptions.onError ?? ((error: unknown) => console.error('paperlist: unexpected error:', error));
  const trust = compileTrust(trustProxy);
  return (req, res, next) => {
    const controller = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) controller.abort();
    });
    const host = requestHost(req, trust);
    const method = req.method ?? 'GET';
    handle({
      method,
      url: req.url ?? '/',
      headers: req.headers,
      basePath: mount,
      ...(host === undefined ? {} : { origin: `${requestProtocol(req, trust)}://${host}` }),
      signal: controller.signal,
      // The request stream itself: read only by a write (Node discards what a refused write left unread).
      body: req,
    })
      .then(async (answer) => {
        if (answer !== null) await write(res, transformResponse === undefined ? answer : await transformResponse(answer, req));
        else if (next !== undefined) next();
        else await write(res, errorResponse('not-found', method.toUpperCase() === 'HEAD'));
      })
      .catch((error: unknown) => {
        onError(error, { method, url: req.url ?? '/', headers: req.headers });
        if (res.headersSent) res.destroy();
        else void writeResponse(res, { status: 500, headers: { 'Content-Type': 'application/json' }, body: new TextEncoder().encode('{"detail":"Internal server error."}') });
      });
  };
}

/** Options of {@link writeResponse}. */
export interface WriteResponseOptions {
  /**
   * Calls the answer's `release` once the whole response has gone to the socket (`finish`), so
   * its source reuses the body's memory; never for a response cut short (the GC frees it then).
   * Only when nothing else keeps the body. Default `false`.
   */
  release?: boolean;
}

/**
 * Writes an answer with raw Node calls (headers exactly as the core made them). A streamed body
 * is written chunk by chunk, each once the socket took the previous one (back-pressure); a
 * client that goes away stops the stream, and a stream that fails midway cuts the connection
 * (the status line is already sent). Resolves once the answer is written or abandoned.
 */
export async function writeResponse(res: ServerResponse, answer: PapersResponse, options: WriteResponseOptions = {}): Promise<void> {
  if (res.destroyed) return;
  res.statusCode = answer.status;
  for (const [name, value] of Object.entries(answer.headers)) res.setHeader(name, value);
  if (answer.stream === undefined) {
    if (options.release === true && answer.release !== undefined) res.once('finish', answer.release);
    if (answer.body === null) res.end();
    else res.end(answer.body);
    return;
  }
  const iterator = answer.stream[Symbol.asyncIterator]();
  try {
    for (;;) {
      const { value, done } = await iterator.next();
      if (done === true || res.destroyed) break;
      if (!res.write(value)) await drained(res);
    }
    if (!res.destroyed) res.end();
  } catch (error) {
    res.destroy(error as Error);
  } finally {
    await iterator.return?.();
  }
}

/** Resolves when `res` can take more, or is gone. */
function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

type TrustFunction = (address: string, hop: number) => boolean;

/** Express's `compileTrust`, on the same library (proxy-addr). */
function compileTrust(value: TrustProxy): TrustFunction {
  if (typeof value === 'function') return value;
  if (value === true) return () => true;
  if (value === false) return () => false;
  if (typeof value === 'number') return (_address, hop) => hop < value;
  const list = typeof value === 'string' ? value.split(',').map((v) => v.trim()) : [...value];
  return proxyAddr.compile(list);
}

/** `http` or `https`, from `X-Forwarded-Proto` when the peer is trusted (Express's `req.protocol`). */
function requestProtocol(req: IncomingMessage, trust: TrustFunction): string {
  const own = (req.socket as { encrypted?: boolean }).encrypted === true ? 'https' : 'http';
  if (!trust(req.socket.remoteAddress ?? '', 0)) return own;
  const forwarded = firstValue(req.headers['x-forwarded-proto']);
  return forwarded === undefined ? own : (forwarded.split(',')[0]?.trim() ?? own);
}

/** `host[:port]`: `X-Forwarded-Host` when the peer is trusted, else `Host` (Express 5's `req.host`). */
function requestHost(req: IncomingMessage, trust: TrustFunction): string | undefined {
  const forwarded = firstValue(req.headers['x-forwarded-host']);
  if (forwarded && trust(req.socket.remoteAddress ?? '', 0)) return forwarded.split(',')[0]?.trim() || undefined;
  return firstValue(req.headers.host) || undefined;
}

function firstValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
