import type { IncomingMessage, ServerResponse } from 'node:http';
import { API_ERRORS, type PapersResponse } from '@paperlist/core';
import type { FollowState } from '@paperlist/postgres';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** What the metrics read from the server when scraped. */
export interface MetricsSources {
  /** Papers served, when known. */
  papers(): number | undefined;
  /** The catalogue's version (what ETags are made from), when known. */
  version(): string | undefined;
  /** Queries waiting for a query thread and being answered, when the source has threads. */
  queries(): { queued: number; running: number } | undefined;
  /** The write journal: its size and last batch on disk, with `--state-dir`. */
  journal?(): { bytes: number; sequence: number } | undefined;
  /** The in-memory copy of a catalogue followed from PostgreSQL. */
  follow?(): FollowState | undefined;
}

/** Latency buckets (seconds): sub-millisecond answers up to the slowest a budget allows. */
const BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * Prometheus metrics of `paperlist serve` (prom-client, a registry of its own): requests and
 * their latency by route, method and status (503s included); the query queue; the catalogue's
 * size and version; and Node's process metrics (CPU, memory, event-loop lag, GC).
 */
export class ServerMetrics {
  readonly registry = new Registry();
  private readonly requests: Counter<'route' | 'method' | 'status'>;
  private readonly latency: Histogram<'route' | 'method' | 'status'>;
  private readonly unavailable: Counter<'reason'>;

  constructor(sources: MetricsSources, private readonly mount: string) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry, prefix: 'paperlist_' });
    this.requests = new Counter({ name: 'paperlist_http_requests_total', help: 'HTTP requests answered, by route, method and status.', labelNames: ['route', 'method', 'status'], registers });
    this.latency = new Histogram({
      name: 'paperlist_http_request_duration_seconds',
      help: 'Time from a request to the end of its answer, by route, method and status.',
      labelNames: ['route', 'method', 'status'],
      buckets: BUCKETS,
      registers,
    });
    this.unavailable = new Counter({
      name: 'paperlist_http_unavailable_total',
      help: 'API requests answered 503, by reason: loading, source-busy (queue full), query-budget, source-timeout, source-unavailable.',
      labelNames: ['reason'],
      registers,
    });
    // Present from the first scrape, so that rate() and alerts see a 0 before the first refusal.
    for (const reason of UNAVAILABLE_REASONS) this.unavailable.inc({ reason }, 0);
    new Gauge({
      name: 'paperlist_catalogue_papers',
      help: 'Papers in the catalogue being served.',
      registers,
      collect() {
        const papers = sources.papers();
        if (papers !== undefined) this.set(papers);
      },
    });
    new Gauge({
      name: 'paperlist_catalogue_info',
      help: 'The catalogue being served: 1, labelled with its version.',
      labelNames: ['version'],
      registers,
      collect() {
        this.reset();
        const version = sources.version();
        if (version !== undefined) this.set({ version }, 1);
      },
    });
    new Gauge({
      name: 'paperlist_journal_bytes',
      help: 'Size of the write journal (--state-dir); writes themselves are the PUT, DELETE and POST requests of paperlist_http_requests_total.',
      registers,
      collect() {
        const journal = sources.journal?.();
        if (journal !== undefined) this.set(journal.bytes);
      },
    });
    new Gauge({
      name: 'paperlist_journal_sequence',
      help: 'Sequence number of the last write batch on disk in the journal.',
      registers,
      collect() {
        const journal = sources.journal?.();
        if (journal !== undefined) this.set(journal.sequence);
      },
    });
    new Gauge({
      name: 'paperlist_follow_lag_seconds',
      help: 'How far the in-memory catalogue may be behind PostgreSQL (serve --database-url): 0 while connected and caught up.',
      registers,
      collect() {
        const follow = sources.follow?.();
        if (follow !== undefined) this.set(follow.lagMs / 1000);
      },
    });
    new Gauge({
      name: 'paperlist_follow_applied_sequence',
      help: "The last sequence of PostgreSQL's change log applied to the in-memory catalogue.",
      registers,
      collect() {
        const follow = sources.follow?.();
        if (follow !== undefined) this.set(follow.lastAppliedSequence);
      },
    });
    new Gauge({
      name: 'paperlist_follow_connected',
      help: 'Whether the server listens to PostgreSQL and its last read of the change log succeeded (1) or not (0).',
      registers,
      collect() {
        const follow = sources.follow?.();
        if (follow !== undefined) this.set(follow.connected ? 1 : 0);
      },
    });
    new Gauge({
      name: 'paperlist_query_queue_depth',
      help: 'Queries waiting for a free query thread.',
      registers,
      collect() {
        this.set(sources.queries()?.queued ?? 0);
      },
    });
    new Gauge({
      name: 'paperlist_queries_running',
      help: 'Queries being answered by the query threads.',
      registers,
      collect() {
        this.set(sources.queries()?.running ?? 0);
      },
    });
  }

  /** Counts a finished request. */
  observe(req: IncomingMessage, res: ServerResponse, seconds: number): void {
    const labels = { route: this.route(req.url ?? '/'), method: methodLabel(req.method), status: String(res.statusCode) };
    this.requests.inc(labels);
    this.latency.observe(labels, seconds);
  }

  /** Counts an API answer of 503 by its reason: `loading`, or the code of the core's error. */
  refused(reason: UnavailableReason): void {
    this.unavailable.inc({ reason });
  }

  /** The answer to a scrape of `/metrics` (the exposition text, uncompressed). */
  async scrape(): Promise<PapersResponse> {
    const body = new TextEncoder().encode(await this.registry.metrics());
    return { status: 200, headers: { 'Content-Type': this.registry.contentType, 'Content-Length': String(body.byteLength) }, body };
  }

  /** A bounded label for a request path (never the path itself: ids would make a series each). */
  private route(url: string): string {
    const query = url.indexOf('?');
    const path = query < 0 ? url : url.slice(0, query);
    if (path === '/healthz' || path === '/metrics') return path.slice(1);
    const prefix = `${this.mount}/`;
    if (!(this.mount === '' || path.startsWith(prefix))) return 'other';
    const rest = path.slice(this.mount.length);
    if (rest === '/papers/' || rest === '/papers') return 'papers-list';
    if (rest.startsWith('/papers/')) return 'papers-detail';
    if (rest.startsWith('/schema')) return 'schema';
    return 'other';
  }
}

const METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'POST', 'PUT', 'DELETE', 'PATCH']);

function methodLabel(method: string | undefined): string {
  const upper = (method ?? 'GET').toUpperCase();
  return METHODS.has(upper) ? upper : 'other';
}

/** Why the API answered 503: the catalogue still loading, or the core's error code. */
export type UnavailableReason = 'loading' | 'source-unavailable' | 'source-timeout' | 'query-budget' | 'source-busy';

const UNAVAILABLE_REASONS: readonly UnavailableReason[] = ['loading', 'source-unavailable', 'source-timeout', 'query-budget', 'source-busy'];

/** The core's 503 codes by their `detail`, which is all an answer carries of its cause. */
const REASON_BY_DETAIL = new Map<string, UnavailableReason>(
  Object.entries(API_ERRORS)
    .filter(([, error]) => error.status === 503)
    .map(([code, error]) => [error.detail, code as UnavailableReason]),
);

/** The reason of a 503 answer of the core, from its JSON body (`source-unavailable` when it cannot tell, e.g. for HEAD). */
export function unavailableReason(body: Uint8Array | null): UnavailableReason {
  if (body === null) return 'source-unavailable';
  try {
    const detail = (JSON.parse(new TextDecoder().decode(body)) as { detail?: unknown }).detail;
    return (typeof detail === 'string' ? REASON_BY_DETAIL.get(detail) : undefined) ?? 'source-unavailable';
  } catch {
    return 'source-unavailable';
  }
}
