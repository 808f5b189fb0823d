import { request } from 'node:http';
import { createRequire } from 'node:module';
import { gunzipSync } from 'node:zlib';
import { API_ERRORS } from '@paperlist/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unavailableReason } from '../src/server/metrics.js';
import { getJson, killLeftovers, servedUrl, startCli, type CliProcess } from './helpers.js';

/** One metric family as parse-prometheus-text-format reads it. */
interface Family {
  name: string;
  type: string;
  metrics: { labels?: Record<string, string>; value?: string; count?: string; buckets?: Record<string, string> }[];
}
const parsePrometheus = createRequire(import.meta.url)('parse-prometheus-text-format') as (text: string) => Family[];

describe('paperlist serve: /metrics', () => {
  let cli: CliProcess;
  let families: Map<string, Family>;
  let text: string;
  beforeAll(async () => {
    cli = startCli(['serve', '--port', '0', '--workers', '2']);
    await cli.waitFor(/serving 4,000 papers/);
    const url = servedUrl(cli);
    for (const query of ['?q=attention', '?q=learning&ordering=-published', '?page=99999']) await getJson(url + query);
    await getJson(`${url}no-such-paper/`);
    await getJson(new URL('/healthz', url).href);
    const response = await fetch(new URL('/metrics', url));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    text = await response.text();
    families = new Map(parsePrometheus(text).map((family) => [family.name, family]));
  });
  afterAll(() => killLeftovers());

  const sample = (name: string, labels: Record<string, string>) =>
    families.get(name)?.metrics.find((m) => Object.entries(labels).every(([key, value]) => m.labels?.[key] === value));

  it('counts requests by route, method and status, with latency histograms', () => {
    expect(families.get('paperlist_http_requests_total')?.type).toBe('COUNTER');
    expect(Number(sample('paperlist_http_requests_total', { route: 'papers-list', method: 'GET', status: '200' })?.value)).toBe(2);
    expect(Number(sample('paperlist_http_requests_total', { route: 'papers-list', method: 'GET', status: '404' })?.value)).toBe(1);
    expect(Number(sample('paperlist_http_requests_total', { route: 'papers-detail', method: 'GET', status: '404' })?.value)).toBe(1);
    expect(Number(sample('paperlist_http_requests_total', { route: 'healthz', method: 'GET', status: '200' })?.value)).toBe(1);
    const latency = families.get('paperlist_http_request_duration_seconds');
    expect(latency?.type).toBe('HISTOGRAM');
    // The parser merges a histogram's labelled series, so its count lines are read from the text.
    const count = text
      .split('\n')
      .find((line) => line.startsWith('paperlist_http_request_duration_seconds_count{') && line.includes('route="papers-list"') && line.includes('status="200"'));
    expect(count?.split(' ').at(-1)).toBe('2');
  });

  it('sends the scrape gzipped to a scraper that accepts it (as Prometheus does)', async () => {
    const response = await new Promise<{ encoding: string | undefined; body: Buffer }>((resolve, reject) => {
      const req = request(new URL('/metrics', servedUrl(cli)), { headers: { 'Accept-Encoding': 'gzip' } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ encoding: res.headers['content-encoding'], body: Buffer.concat(chunks) }));
      });
      req.on('error', reject);
      req.end();
    });
    expect(response.encoding).toBe('gzip');
    const scraped = new Map(parsePrometheus(gunzipSync(response.body).toString('utf8')).map((family) => [family.name, family]));
    expect(Number(scraped.get('paperlist_catalogue_papers')?.metrics[0]?.value)).toBe(4000);
  });

  it('reports the catalogue, the query threads and the process', () => {
    expect(Number(families.get('paperlist_catalogue_papers')?.metrics[0]?.value)).toBe(4000);
    expect(families.get('paperlist_catalogue_info')?.metrics[0]?.labels?.['version']).toMatch(/./);
    expect(Number(families.get('paperlist_query_queue_depth')?.metrics[0]?.value)).toBe(0);
    expect(families.get('paperlist_queries_running')?.type).toBe('GAUGE');
    expect(families.has('paperlist_process_cpu_user_seconds_total')).toBe(true);
    expect(families.has('paperlist_nodejs_eventloop_lag_p99_seconds')).toBe(true);
  });
});

describe('paperlist serve: 503s in /metrics', () => {
  afterAll(() => killLeftovers());

  it('counts the API\'s 503s by reason, every reason present from the start', async () => {
    const tight = startCli(['serve', '--port', '0', '--workers', '1', '--budget', '0.001']);
    await tight.waitFor(/serving 4,000 papers/);
    expect((await getJson(`${servedUrl(tight)}?q=learning`)).status).toBe(503);
    const scraped = parsePrometheus(await (await fetch(new URL('/metrics', servedUrl(tight)))).text());
    const refusals = scraped.find((family) => family.name === 'paperlist_http_unavailable_total');
    expect(refusals?.type).toBe('COUNTER');
    const byReason = Object.fromEntries(refusals!.metrics.map((m) => [m.labels?.['reason'], Number(m.value)]));
    expect(byReason).toEqual({ loading: 0, 'source-unavailable': 0, 'source-timeout': 0, 'query-budget': 1, 'source-busy': 0 });
  });

  it('reads the reason from the core\'s answer', () => {
    const body = (detail: string) => new TextEncoder().encode(JSON.stringify({ detail }));
    expect(unavailableReason(body(API_ERRORS['source-busy'].detail))).toBe('source-busy');
    expect(unavailableReason(body(API_ERRORS['source-timeout'].detail))).toBe('source-timeout');
    expect(unavailableReason(body('something else'))).toBe('source-unavailable');
    expect(unavailableReason(null)).toBe('source-unavailable');
  });
});
