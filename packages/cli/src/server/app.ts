import type { ServerResponse } from 'node:http';
import type { PaperSource, PapersRequest } from '@paperlist/core';
import { papersRouter } from '@paperlist/express';
import express, { type ErrorRequestHandler, type Express, type RequestHandler } from 'express';

/** What the app shows on `/healthz` and whether it serves papers yet. */
export interface ServerState {
  /** `loading` until the catalogue is in; `stopping` once a shutdown started. */
  phase: 'loading' | 'ready' | 'stopping';
  /** Number of papers served, when known. */
  papers: number | undefined;
  /** Requests being answered right now. */
  inFlight: number;
}

export interface AppOptions {
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
  /** Express's `trust proxy` setting. */
  trustProxy?: boolean | number | string;
  /** Called when the source fails (the client gets a 503) or an unexpected error reaches Express. */
  onError: (error: unknown, where: string) => void;
  /** Waits this long before answering each API request (to test shutdowns with requests in flight). */
  responseDelayMs?: number;
  /** Called after each response, for an access log. */
  onResponse?: (line: { method: string; url: string; status: number; ms: number }) => void;
}

/**
 * The paperlist server as an Express 5 app: the papers API at `{mount}/papers/`, `/healthz`,
 * `/` redirecting to the list, JSON 404s for every other path, and a JSON 500 for unexpected errors.
 * While the catalogue loads the API answers 503 with `Retry-After`.
 */
export function createApp(options: AppOptions): Express {
  const { state, mount } = options;
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', options.trustProxy ?? false);

  app.use(track(state, options.onResponse));
  app.get('/healthz', (_req, res) => {
    const ready = state.phase === 'ready';
    sendJson(res, ready ? 200 : 503, { status: state.phase, papers: state.papers ?? null });
  });
  app.get('/', (_req, res) => {
    res.redirect(302, `${mount}/papers/`);
  });
  app.use(mount === '' ? '/' : mount, (_req, res, next) => {
    if (state.phase !== 'loading') return next();
    res.setHeader('Retry-After', '5');
    sendJson(res, 503, { detail: 'The catalogue is loading; try again shortly.' });
  });
  const delay = options.responseDelayMs ?? 0;
  if (delay > 0) app.use(mount === '' ? '/' : mount, (_req, _res, next) => void setTimeout(next, delay));
  app.use(
    mount === '' ? '/' : mount,
    papersRouter({
      source: options.source,
      ...(options.baseUrl === undefined ? {} : { baseUrl: options.baseUrl }),
      ...(options.pageSize === undefined ? {} : { pageSize: options.pageSize }),
      ...(options.maxPageSize === undefined ? {} : { maxPageSize: options.maxPageSize }),
      ...(options.allowedHosts === undefined ? {} : { allowedHosts: options.allowedHosts }),
      ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
      onError: (error: unknown, request: PapersRequest) => options.onError(error, `${request.method} ${request.url}`),
    }),
  );
  app.use((_req, res) => {
    sendJson(res, 404, { detail: 'Not found.' });
  });
  const onError: ErrorRequestHandler = (error, req, res, _next) => {
    options.onError(error, `${req.method} ${req.originalUrl}`);
    if (res.headersSent) {
      res.destroy();
      return;
    }
    sendJson(res, 500, { detail: 'Internal server error.' });
  };
  app.use(onError);
  return app;
}

/** Counts requests in flight, asks clients to close their connection during a shutdown, and logs. */
function track(state: ServerState, onResponse: AppOptions['onResponse']): RequestHandler {
  return (req, res, next) => {
    const started = performance.now();
    state.inFlight++;
    if (state.phase === 'stopping') res.setHeader('Connection', 'close');
    res.once('close', () => {
      state.inFlight--;
      onResponse?.({ method: req.method, url: req.originalUrl, status: res.statusCode, ms: performance.now() - started });
    });
    next();
  };
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json');
  res.setHeader('Content-Length', Buffer.byteLength(text));
  res.end(text);
}
