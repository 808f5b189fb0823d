import { Readable } from 'node:stream';
import Router from '@koa/router';
import type { Context, Next } from 'koa';
import { createPapersHandler, type PapersHandlerOptions, type PapersRequest } from '@paperlist/core';

/**
 * Options of {@link papersRouter}: the core handler's options plus the router prefix.
 * Without `onError`, a failing source is reported on Koa's own channel,
 * `ctx.app.emit('error', err, ctx)`.
 */
export interface PapersRouterOptions extends PapersHandlerOptions {
  /** Where the routes are mounted, e.g. `/api/v1`; default none. */
  prefix?: string;
}

/**
 * The papers API as an `@koa/router` router: `{prefix}/papers/`, `{prefix}/papers/{id}/` and
 * the OpenAPI document at `{prefix}/schema/`, for every method (the core answers 405/301
 * itself). Errors thrown by the handler propagate to Koa.
 *
 * @example
 * const app = new Koa();
 * app.use(papersRouter({ source: createMemorySource(papers), prefix: '/api/v1' }).routes());
 */
export function papersRouter(options: PapersRouterOptions): Router {
  const { prefix: rawPrefix = '', ...handlerOptions } = options;
  const prefix = rawPrefix.replace(/\/+$/, '');
  // The core reports a failing source with the request only; find its ctx again here.
  const contexts = new WeakMap<PapersRequest, Context>();
  const handle = createPapersHandler({
    ...handlerOptions,
    onError:
      handlerOptions.onError ??
      ((error, request) => {
        const ctx = contexts.get(request);
        if (ctx) ctx.app.emit('error', error, ctx);
        else console.error('paperlist: source failed:', error);
      }),
  });

  const router = new Router(prefix === '' ? {} : { prefix });
  // Every path the core routes (routePapersPath); the router matches each with or without the
  // trailing slash, and the core redirects the bare form. A path missing here is a 404 on Koa
  // alone: the conformance suite requests each of them.
  router.all(['/papers', '/papers/:id', '/schema'], async (ctx: Context, next: Next) => {
    const controller = new AbortController();
    ctx.res.on('close', () => {
      if (!ctx.res.writableFinished) controller.abort();
    });
    // A body parser mounted before the router (koa-bodyparser, @koa/bodyparser) read the body
    // and decompressed it: its `rawBody` goes on, without the coding and length headers.
    const rawBody: unknown = (ctx.request as { rawBody?: unknown }).rawBody;
    const parsed = typeof rawBody === 'string';
    const request: PapersRequest = {
      method: ctx.method,
      url: ctx.originalUrl,
      headers: parsed ? { ...ctx.headers, 'content-encoding': undefined, 'content-length': undefined } : ctx.headers,
      body: parsed ? new TextEncoder().encode(rawBody) : ctx.req,
      basePath: prefix,
      // Not `ctx.origin`: Koa 3 made it the Origin request header. `ctx.protocol` and
      // `ctx.host` honour `app.proxy` on Koa 2 and 3 alike.
      ...(ctx.host ? { origin: `${ctx.protocol}://${ctx.host}` } : {}),
      signal: controller.signal,
    };
    contexts.set(request, ctx);
    const answer = await handle(request);
    if (answer === null) return next();
    ctx.status = answer.status;
    for (const [name, value] of Object.entries(answer.headers)) ctx.set(name, value);
    // Content-Type is already set, so Koa keeps it; its Content-Length equals the core's.
    // With no body (HEAD, 304) Koa ends the response keeping the headers set above.
    if (answer.body !== null) ctx.body = Buffer.from(answer.body.buffer, answer.body.byteOffset, answer.body.byteLength);
    // A streamed export: Koa pipes it with back-pressure and destroys it when the client leaves.
    else if (answer.stream !== undefined) ctx.body = Readable.from(answer.stream, { objectMode: false });
  });
  return router;
}
