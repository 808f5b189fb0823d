import type { IncomingMessage, ServerResponse } from 'node:http';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** What the metrics read from the server when scraped. */
export interface MetricsSources {
  /** Papers served, when known. */
  papers(): number | undefined;
  /** The catalogue's version (what ETags are made from), when known. */
  version(): string | undefined;
  /** Queries waiting for a query thread and being answered, when the source has threads. */
  queries(): { queued: number; running: number } | undefined;
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

  /** Answers a scrape of `/metrics`. */
  async serve(res: ServerResponse): Promise<void> {
    const text = await this.registry.metrics();
    res.statusCode = 200;
    res.setHeader('Content-Type', this.registry.contentType);
    res.setHeader('Content-Length', Buffer.byteLength(text));
    res.end(text);
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
