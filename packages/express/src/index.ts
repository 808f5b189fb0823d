import type { IncomingMessage, ServerResponse } from 'node:http';
import { createPapersHandler, type PapersHandlerOptions, type PapersResponse } from '@paperlist/core';

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
    handle({
      method: req.method ?? 'GET',
      url: req.originalUrl,
      headers: req.headers,
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

// Raw Node calls: `res.send`/`res.set` would append `; charset=utf-8` to the Content-Type.
function writeResponse(res: ServerResponse, answer: PapersResponse): void {
  res.statusCode = answer.status;
  for (const [name, value] of Object.entries(answer.headers)) res.setHeader(name, value);
  if (answer.body === null) res.end();
  else res.end(answer.body);
}
