import { errorResponse } from './respond.js';
import { createPapersHandler } from './papers-handler.js';
import { PaperlistOptionsError, type PapersHandlerOptions } from './handler-options.js';

/** Options of {@link createFetchHandler}. */
export interface FetchHandlerOptions extends PapersHandlerOptions {
  /** Prefix the papers paths live under, e.g. `/api/v1`. Default `''`. */
  mount?: string;
  /**
   * What a request for a path that is not the API's own gets (anything but `{mount}/papers/…`
   * and `{mount}/schema/`). `false` (the default): `404 {"detail":"Not found."}`, for a handler
   * that owns its whole host. `true`: the handler resolves to `undefined`, so the host's other
   * routes answer it: a Hono middleware goes on to `next()`
   * (`app.use('/api/v1/*', async (c, next) => (await handle(c.req.raw)) ?? next())`), and a
   * plain `fetch` tries its own routes (`(await handle(request)) ?? other(request)`).
   */
  fallthrough?: boolean;
}

/** The handler of {@link createFetchHandler}: a `Response` for every request. */
export type FetchHandler = (request: Request) => Promise<Response>;

/** The handler of {@link createFetchHandler} with `fallthrough: true`: `undefined` for paths it does not own. */
export type FallthroughFetchHandler = (request: Request) => Promise<Response | undefined>;

/**
 * The papers API as a WHATWG `(Request) => Promise<Response>` handler, for Hono, Bun, Deno,
 * Cloudflare Workers, service workers, or Node through any fetch bridge. It needs nothing of
 * Node. Paths outside `{mount}/papers/` and `{mount}/schema/` answer `404 {"detail":"Not found."}`,
 * or with `fallthrough: true` resolve to `undefined` for the host's other routes.
 *
 * @example
 * const handle = createFetchHandler({ source, mount: '/api/v1' });
 * Bun.serve({ fetch: handle });
 *
 * @example
 * // Hono: paths under /api/v1 that are not the API's own go on to the app's other routes.
 * const handle = createFetchHandler({ source, mount: '/api/v1', fallthrough: true });
 * app.use('/api/v1/*', async (c, next) => (await handle(c.req.raw)) ?? next());
 */
export function createFetchHandler(options: FetchHandlerOptions & { fallthrough: true }): FallthroughFetchHandler;
export function createFetchHandler(options: FetchHandlerOptions & { fallthrough?: false }): FetchHandler;
export function createFetchHandler(options: FetchHandlerOptions): FetchHandler | FallthroughFetchHandler;
export function createFetchHandler(options: FetchHandlerOptions): FallthroughFetchHandler {
  const handle = createPapersHandler(options);
  const basePath = options.mount ?? '';
  const fallthrough = options.fallthrough ?? false;
  if (typeof fallthrough !== 'boolean') {
    throw new PaperlistOptionsError('fallthrough', `paperlist: \`fallthrough\` must be true or false, got ${String(fallthrough)}.`);
  }
  return async (request) => {
    const url = new URL(request.url);
    const headers: Record<string, string> = {};
    request.headers.forEach((value, name) => {
      headers[name] = value;
    });
    const answer = await handle({
      method: request.method,
      url: url.pathname + url.search,
      headers,
      basePath,
      origin: url.origin,
      signal: request.signal,
      // Read only by a write, and no further than its size limit.
      ...(request.body === null ? {} : { body: request.body }),
    });
    if (answer === null) {
      if (fallthrough) return undefined;
      const notFound = errorResponse('not-found', request.method.toUpperCase() === 'HEAD');
      return new Response(notFound.body as BodyInit | null, { status: notFound.status, headers: notFound.headers });
    }
    const body = answer.stream === undefined ? (answer.body as BodyInit | null) : readableStream(answer.stream);
    return new Response(body, { status: answer.status, headers: answer.headers });
  };
}

/** A streamed answer as a web stream: each chunk made when the reader asks for it (back-pressure). */
function readableStream(chunks: AsyncIterable<Uint8Array>): ReadableStream<Uint8Array> {
  const iterator = chunks[Symbol.asyncIterator]();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { value, done } = await iterator.next();
      if (done === true) controller.close();
      else controller.enqueue(value);
    },
    async cancel() {
      await iterator.return?.();
    },
  });
}
