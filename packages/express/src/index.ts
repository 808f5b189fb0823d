import type { IncomingMessage, ServerResponse } from 'node:http';
import { createPapersHandler, type PapersHandlerOptions, type PapersRequest } from '@paperlist/core';
// Raw Node calls (`res.send`/`res.set` would append `; charset=utf-8`), streamed exports included.
import { writeResponse } from '@paperlist/core/node';

/** Options of {@link papersRouter}: the core handler's options, unchanged. */
export type PapersRouterOptions = PapersHandlerOptions;

/**
 * The parts of an Express 4 or 5 request the adapter reads. Declared structurally so the
 * package never imports `express` at runtime and typechecks against either version's types.
 */
export interface ExpressRequestLike extends IncomingMessage {
  originalUrl: string;
  baseUrl: string;
  protocol: string;
  get(name: string): string | undefined;
  app: { get(setting: string): unknown };
}

/** Express's `next`: no argument hands the request on, an error goes to the error handlers. */
export type ExpressNextLike = (error?: unknown) => void;

/** An Express middleware serving `{mount}/papers/` and `{mount}/papers/{id}/`. */
export type PapersMiddleware = (req: ExpressRequestLike, res: ServerResponse, next: ExpressNextLike) => void;

/**
 * The papers API as Express middleware (Express 4 and 5). Paths are matched after the mount
 * point; any other path is handed on with `next()`, and unexpected errors with `next(err)`.
 *
 * @example
 * app.use('/api/v1', papersRouter({ source: createMemorySource(papers) }));
 * // GET /api/v1/papers/?q=bert, GET /api/v1/papers/attention-is-all-you-need/
 */
export function papersRouter(options: PapersRouterOptions): PapersMiddleware {
  const handle = createPapersHandler(options);
  return (req, res, next) => {
    const controller = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) controller.abort();
    });
    const host = requestHost(req);
    const parsed = parsedBody(req);
    handle({
      method: req.method ?? 'GET',
      url: req.originalUrl,
      // A body a parser already read was decompressed by it: its coding and length no longer apply.
      headers: parsed === undefined ? req.headers : { ...req.headers, 'content-encoding': undefined, 'content-length': undefined },
      body: parsed ?? req,
      basePath: req.baseUrl,
      ...(host === undefined ? {} : { origin: `${req.protocol}://${host}` }),
      signal: controller.signal,
    })
      .then((answer) => (answer === null ? next() : writeResponse(res, answer)))
      .catch(next);
  };
}

/**
 * `host[:port]` as Express 5's `req.host` computes it: `X-Forwarded-Host` when the app trusts
 * the proxy that sent it, else `Host`. Express 4's `req.host` drops the port (and is
 * deprecated), so the rule is spelled out here for both.
 */
function requestHost(req: ExpressRequestLike): string | undefined {
  const forwarded = req.get('x-forwarded-host');
  const trust = req.app.get('trust proxy fn');
  if (forwarded && typeof trust === 'function' && trust(req.socket.remoteAddress, 0) === true) {
    return forwarded.split(',')[0]?.trim() || undefined;
  }
  return req.get('host') || undefined;
}

/**
 * The body when a body parser mounted before the router already read it: `express.raw()` (a
 * Buffer), `express.text()` (a string) or `express.json()` (the parsed value, written out again
 * as JSON; its size limit, 100 kB by default, then applies first). Otherwise `undefined`, and
 * the core reads the request stream itself, for writes only.
 */
function parsedBody(req: ExpressRequestLike): PapersRequest['body'] {
  // body-parser 1 sets `req.body = {}` even for types it skips: only a stream read to its end was parsed.
  const { body } = req as { body?: unknown };
  if (!req.readableEnded || body === undefined) return undefined;
  if (body instanceof Uint8Array) return body;
  return new TextEncoder().encode(typeof body === 'string' ? body : JSON.stringify(body));
}
