import type { PapersRequestBody } from './writes/request-body.js';

export type { PapersRequestBody };

/**
 * A request as every framework can describe it. Adapters fill it from their own request
 * object; the core never sees a framework type.
 */
export interface PapersRequest {
  /** HTTP method, any case. */
  method: string;
  /**
   * Path and raw query exactly as received, including the mount prefix
   * (Express `req.originalUrl`, Koa `ctx.originalUrl`), e.g. `/api/v1/papers/?q=bert`.
   */
  url: string;
  /** Request headers; names in any case. */
  headers: Readonly<Record<string, string | readonly string[] | undefined>>;
  /**
   * The prefix the papers routes are mounted under (`/api/v1`), or `''`. Paths are matched
   * after it: `{basePath}/papers/` and `{basePath}/papers/{id}/`.
   */
  basePath?: string;
  /**
   * `scheme://host[:port]` of the request as the framework sees it, honouring its proxy
   * trust setting. Used for absolute links unless the handler has a `baseUrl`.
   */
  origin?: string;
  /** Aborted when the client disconnects; passed on to the source. */
  signal?: AbortSignal;
  /**
   * The request body, for writes: bytes already read, or a stream (a Node `IncomingMessage`, a
   * fetch `Request.body`) the core reads only for a write, and no further than the size limit.
   * Reads never touch it; without it a write's body is empty.
   */
  body?: PapersRequestBody;
}

/** A response as every framework can write it. */
export interface PapersResponse {
  status: number;
  /** Header names in their canonical case; every value a single string. */
  headers: Record<string, string>;
  /** The body bytes; `null` for HEAD and 304, and when the body is a {@link stream}. */
  body: Uint8Array | null;
  /**
   * A body sent in chunks as they are made (the export, `format=jsonl`), instead of `body`.
   * An adapter writes each chunk when the client has taken the previous ones (back-pressure),
   * stops pulling when the client goes away, and cuts the connection if it throws midway.
   */
  stream?: AsyncIterable<Uint8Array>;
  /**
   * Present when `body` lies in memory the source reuses (a page of the memory source with
   * query threads): a writer that calls it once the body has been written lets that memory serve
   * the next answers instead of waiting for the garbage collector. Nothing may read `body` after.
   * Optional to call: framework adapters do not (a middleware after them may keep the body);
   * `createRequestListener` does with `reuseBodies`.
   */
  release?: () => void;
}

/**
 * The papers API as one function. It answers `null` for a path that is not one of its own,
 * so an adapter can hand the request on (`next()`); it never throws for bad input, and a
 * failing source becomes a `503` (the error goes to the `onError` option).
 */
export type PapersHandler = (request: PapersRequest) => Promise<PapersResponse | null>;
