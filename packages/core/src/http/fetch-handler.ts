import { errorResponse } from './respond.js';
import { createPapersHandler } from './papers-handler.js';
import type { PapersHandlerOptions } from './handler-options.js';

/** Options of {@link createFetchHandler}. */
export interface FetchHandlerOptions extends PapersHandlerOptions {
  /** Prefix the papers paths live under, e.g. `/api/v1`. Default `''`. */
  mount?: string;
}

/**
 * The papers API as a WHATWG `(Request) => Promise<Response>` handler, for Hono, Bun, Deno,
 * service workers, or Node through any fetch bridge. Paths outside `{mount}/papers/` answer
 * `404 {"detail":"Not found."}`.
 *
 * @example
 * const handle = createFetchHandler({ source, mount: '/api/v1' });
 * Bun.serve({ fetch: handle });
 */
export function createFetchHandler(options: FetchHandlerOptions): (request: Request) => Promise<Response> {
  const handle = createPapersHandler(options);
  const basePath = options.mount ?? '';
  return async (request) => {
    const url = new URL(request.url);
    const headers: Record<string, string> = {};
    request.headers.forEach((value, name) => {
      headers[name] = value;
    });
    const answer =
      (await handle({
        method: request.method,
        url: url.pathname + url.search,
        headers,
        basePath,
        origin: url.origin,
        signal: request.signal,
      })) ?? errorResponse('not-found', request.method.toUpperCase() === 'HEAD');
    return new Response(answer.body as BodyInit | null, { status: answer.status, headers: answer.headers });
  };
}
