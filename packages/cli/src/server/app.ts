import { randomUUID } from 'node:crypto';
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { PaperSource, PapersHandlerOptions, PapersRequest } from '@paperlist/core';
import type { FollowState } from '@paperlist/postgres';
import { createRequestListener, writeResponse, type TrustProxy } from '@paperlist/core/node';
import { compressAnswer, ifNoneMatchForVariant, negotiateEncoding } from './compression.js';
import { Cors } from './cors.js';
import { unavailableReason, type ServerMetrics } from './metrics.js';

/** What the app shows on `/healthz` and whether it serves papers yet. */
export interface ServerState {
  /** `loading` until the catalogue is in; `stopping` once a shutdown started. */
  phase: 'loading' | 'ready' | 'stopping';
  /** Number of papers served, when known. */
  papers: number | undefined;
  /** Requests being answered right now. */
  inFlight: number;
  /** With a catalogue followed from PostgreSQL: where the in-memory copy stands. */
  follow?: () => FollowState | undefined;
}

export interface AppOptions extends Pick<PapersHandlerOptions, 'writeToken' | 'authorize' | 'maxWriteBytes'> {
  /** A `WritableSource` when `writeToken` or `authorize` enables the write API. */
  source: PaperSource;
  state: ServerState;
  /** Where the API is mounted: `/api/v1` (the original paths), or `` for the root. */
  mount: string;
  baseUrl?: string;
  pageSize?: number;
  maxPageSize?: number;
  /** Hosts whose requests may shape links (see the core's `allowedHosts`); others get 400. */
  allowedHosts?: readonly string[];
  /** Milliseconds a catalogue query may take before the request gets a 503. */
  timeoutMs?: number;
  /** Which proxies may set X-Forwarded-Proto and -Host (Express's `trust proxy` values). */
  trustProxy?: TrustProxy;
  /** Called when the source fails (the client gets a 503) or the server itself fails. */
  onError: (error: unknown, where: string) => void;
  /** Waits this long before answering each API request (to test shutdowns with requests in flight). */
  responseDelayMs?: number;
  /** Compress the API's answers for the request's `Accept-Encoding` (gzip, br). Default true. */
  compression?: boolean;
  /** Origins whose browser scripts may read the API (`*`: any); none by default. */
  cors?: readonly string[];
  /** Prometheus metrics, served at `/metrics` and fed by every request; none when absent. */
  metrics?: ServerMetrics;
  /** Called after each response, for an access log. */
  onResponse?: (line: AccessLine) => void;
  /** Called when a request is refused for its `Host` (400), with that host. */
  onRejectedHost?: (host: string) => void;
}

/** One answered request, for an access log. */
export interface AccessLine {
  /** The request's id: its `X-Request-Id` when it came with a usable one, else a new UUID (sent back in `X-Request-Id`). */
  id: string;
  method: string;
  url: string;
  status: number;
  ms: number;
  remoteAddress: string | undefined;
  userAgent: string | undefined;
}

/**
 * The paperlist server as a `node:http` request listener: the papers API at `{mount}/papers/`
 * (and its OpenAPI document at `{mount}/schema/`), `/healthz`, `/` redirecting to the list,
 * and JSON 404s for every other path. While the catalogue loads the API answers 503 with
 * `Retry-After`. No framework: the thread accepting connections parses, routes and writes.
 */
export function createApp(options: AppOptions): RequestListener {
  const { state, mount } = options;
  const compression = options.compression !== false;
  const writes = options.writeToken !== undefined || options.authorize !== undefined;
  const cors =
    options.cors === undefined || options.cors.length === 0 ? null : new Cors(options.cors, writes ? 'GET, HEAD, OPTIONS, PUT, DELETE, POST' : undefined);
  const papers = createRequestListener({
    source: options.source,
    mount,
    ...(options.baseUrl === undefined ? {} : { baseUrl: options.baseUrl }),
    ...(options.pageSize === undefined ? {} : { pageSize: options.pageSize }),
    ...(options.maxPageSize === undefined ? {} : { maxPageSize: options.maxPageSize }),
    ...(options.allowedHosts === undefined ? {} : { allowedHosts: options.allowedHosts }),
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    ...(options.trustProxy === undefined ? {} : { trustProxy: options.trustProxy }),
    // The write API (`PUT`/`DELETE`/`POST`), when enabled; the request listener streams the bodies in.
    ...(options.writeToken === undefined ? {} : { writeToken: options.writeToken }),
    ...(options.authorize === undefined ? {} : { authorize: options.authorize }),
    ...(options.maxWriteBytes === undefined ? {} : { maxWriteBytes: options.maxWriteBytes }),
    onError: (error: unknown, request: PapersRequest) => options.onError(error, `${request.method} ${request.url}`),
    // Pages go back to the query threads once written: nothing below keeps a body (compression copies it).
    reuseBodies: true,
    transformResponse: async (answer, req) => {
      if (answer.status === 503) options.metrics?.refused(unavailableReason(answer.body));
      if (answer.status === 400 && options.onRejectedHost !== undefined && startsWith(answer.body, INVALID_HOST)) {
        options.onRejectedHost(req.headers['x-forwarded-host']?.toString() ?? req.headers.host ?? '');
      }
      const coded = compression ? await compressAnswer(answer, req) : answer;
      return cors === null ? coded : cors.answer(coded, req);
    },
  });
  const delay = options.responseDelayMs ?? 0;
  const apiPrefix = `${mount}/`;

  return (req, res) => {
    track(req, res, state, options.onResponse, options.metrics);
    try {
      if (cors !== null) {
        if (cors.preflight(req, res)) return;
        // Answers written here carry them; the API's get them merged with its own `Vary`.
        for (const [name, value] of Object.entries(cors.headers(req))) res.setHeader(name, value);
      }
      // The coded variants' ETags name the handler's own tag with a suffix.
      const ifNoneMatch = req.headers['if-none-match'];
      if (compression && ifNoneMatch !== undefined) {
        const forHandler = ifNoneMatchForVariant(ifNoneMatch, negotiateEncoding(req.headers['accept-encoding']));
        if (forHandler === undefined) delete req.headers['if-none-match'];
        else req.headers['if-none-match'] = forHandler;
      }
      const path = pathOf(req.url ?? '/');
      if (path === '/metrics' && options.metrics !== undefined) {
        // Scrapers ask for gzip: the text of every histogram series is tens of kilobytes.
        const scrape = options.metrics.scrape().then((answer) => (compression ? compressAnswer(answer, req) : answer));
        void scrape.then((answer) => writeResponse(res, answer)).catch((error: unknown) => {
          options.onError(error, 'GET /metrics');
          if (!res.headersSent) sendJson(res, 500, { detail: 'Internal server error.' });
        });
        return;
      }
      if (path === '/healthz') return sendJson(res, ...health(state));
      if (path === '/') {
        res.statusCode = 302;
        res.setHeader('Location', `${mount}/papers/`);
        return res.end();
      }
      const inApi = mount === '' || path === mount || path.startsWith(apiPrefix);
      if (inApi && state.phase === 'loading') {
        options.metrics?.refused('loading');
        res.setHeader('Retry-After', '5');
        return sendJson(res, 503, { detail: 'The catalogue is loading; try again shortly.' });
      }
      const notFound = () => sendJson(res, 404, { detail: 'Not found.' });
      if (!inApi) return notFound();
      if (delay > 0) setTimeout(() => papers(req, res, notFound), delay);
      else papers(req, res, notFound);
    } catch (error) {
      options.onError(error, `${req.method} ${req.url}`);
      if (res.headersSent) res.destroy();
      else sendJson(res, 500, { detail: 'Internal server error.' });
    }
  };
}

/** The path of a request target, without its query. */
function pathOf(url: string): string {
  const query = url.indexOf('?');
  return query < 0 ? url : url.slice(0, query);
}

/** Counts requests in flight, asks clients to close their connection during a shutdown, and logs. */
/**
 * The answer of `/healthz`: 200 once ready, 503 while loading or stopping. A server following
 * PostgreSQL adds `lag_ms` (see `FollowState`), and when it lost the database it answers
 * `degraded`, still with 200: it keeps serving what it has, and a load balancer that took every
 * server out when the database goes away would turn a stale catalogue into an outage. Alert on
 * `lag_ms` (or the `paperlist_follow_lag_seconds` metric) instead.
 */
function health(state: ServerState): [number, Record<string, unknown>] {
  const body: Record<string, unknown> = { status: state.phase, papers: state.papers ?? null };
  const follow = state.follow?.();
  if (follow !== undefined) {
    if (state.phase === 'ready' && !follow.connected) body['status'] = 'degraded';
    body['papers'] = follow.papers;
    body['lag_ms'] = follow.lagMs;
    body['sequence'] = follow.lastAppliedSequence;
    if (follow.lastError !== null) body['error'] = follow.lastError;
  }
  return [state.phase === 'ready' ? 200 : 503, body];
}

function track(req: IncomingMessage, res: ServerResponse, state: ServerState, onResponse: AppOptions['onResponse'], metrics: ServerMetrics | undefined): void {
  const started = performance.now();
  const id = requestId(req.headers['x-request-id']);
  res.setHeader('X-Request-Id', id);
  state.inFlight++;
  if (state.phase === 'stopping') res.setHeader('Connection', 'close');
  res.once('close', () => {
    state.inFlight--;
    metrics?.observe(req, res, (performance.now() - started) / 1000);
    onResponse?.({
      id,
      method: req.method ?? 'GET',
      url: req.url ?? '/',
      status: res.statusCode,
      ms: performance.now() - started,
      remoteAddress: req.socket.remoteAddress,
      userAgent: req.headers['user-agent'],
    });
  });
}

/** A request id from a proxy or client is kept when it is short and printable; otherwise a new one is made. */
function requestId(given: string | string[] | undefined): string {
  const value = Array.isArray(given) ? given[0] : given;
  return value !== undefined && /^[\x21-\x7e]{1,128}$/.test(value) ? value : randomUUID();
}

const INVALID_HOST = new TextEncoder().encode('{"detail":"Invalid host');

function startsWith(body: Uint8Array | null, prefix: Uint8Array): boolean {
  if (body === null || body.byteLength < prefix.byteLength) return false;
  for (let i = 0; i < prefix.byteLength; i++) if (body[i] !== prefix[i]) return false;
  return true;
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json');
  res.setHeader('Content-Length', Buffer.byteLength(text));
  res.end(text);
}
