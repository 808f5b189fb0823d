/**
 * Writes at corpus scale (issue 17), in their own process: the memory source with two query
 * threads; batches of 1,000 upserts timed until visible (new papers, then replacements of them);
 * then a stream of 1,000 upserts/s (a batch of 100 every 100 ms, new ids and replaced ones) while
 * queries are asked without pause, against the same queries asked when nothing is written.
 * Writes a JSON report. Usage: run-writes.ts <500k|1m> <out.json> [stream seconds]
 */
import { writeFileSync } from 'node:fs';
import { parseListQuery, parseQueryString, toPaper, type Paper, type PaperQuery } from '@paperlist/core';
import type { CorpusSize } from '../args.js';
import { corpusSource } from '../corpus-source.js';

/** A list query written as a query string. */
function queryFor(raw: string, offset: number, limit: number): PaperQuery {
  const parsed = parseQueryString(raw);
  const list = parsed.ok ? parseListQuery(parsed.pairs, { pageSize: 50, maxPageSize: 500 }) : null;
  if (list === null || !list.ok) throw new Error(`bad query ${raw}`);
  const { terms, filters, ordering } = list.request;
  return { terms, filters, ordering, offset, limit };
}
const [size, out, streamArg] = process.argv.slice(2) as [CorpusSize, string, string | undefined];
const streamSeconds = Number(streamArg ?? 30);
const { source, ms } = await corpusSource(size, { threads: 2 });
console.log(`  loaded ${source.size.toLocaleString('en-US')} papers in ${(ms / 1000).toFixed(1)} s`);

// Every kind of query the segments change: relevance, explicit orders (first and deep pages), facets, filters, lookups.
const QUERIES = [
  'q=learning',
  'q=neural+network&ordering=-published',
  'year=2018&ordering=title',
  'q=graph&page=2',
  'author=smith',
  'ordering=-published&page=40',
  'q=%22language+model%22',
  'title=transformer&ordering=title',
];
let asked = 0;
async function latencies(seconds: number): Promise<number[]> {
  const times: number[] = [];
  const until = performance.now() + seconds * 1000;
  while (performance.now() < until) {
    const raw = QUERIES[asked++ % QUERIES.length]!;
    const query = queryFor(raw, 0, 50);
    const t = performance.now();
    await source.list(raw.includes('year=') ? { ...query, facets: ['year', 'venue'] } : query);
    times.push(performance.now() - t);
  }
  return times;
}

// Donors: real papers (their words, lengths and fields), written under new ids.
const donors: Paper[] = [];
for (let offset = 0; donors.length < 5000; offset += 500) {
  const page = await source.list(queryFor('q=model', offset, 500));
  donors.push(...page.results.map(toPaper));
}
const written = (key: string, i: number, edition: number): Paper => {
  const donor = donors[i % donors.length]!;
  return { ...donor, id: `bench-write-${key}-${i}`, title: `${donor.title} (edition ${edition})` };
};

const quiet = await latencies(10);

// Batches of 1,000: new papers, then the same ids replaced (a deletion in a delta and a new delta each time).
const visible: { kind: string; ms: number; result: unknown }[] = [];
for (let edition = 0; edition < 6; edition++) {
  const batch = Array.from({ length: 1000 }, (_, i) => written(`batch`, edition < 3 ? edition * 1000 + i : i, edition));
  const t = performance.now();
  const result = await source.upsert(batch);
  visible.push({ kind: edition < 3 ? 'new' : 'replacing', ms: performance.now() - t, result });
}
const check = await source.list(queryFor('q=edition', 0, 1));
let t = performance.now();
await source.merged();
const settleMs = performance.now() - t;

// The stream: 100 upserts every 100 ms (ids from a pool of 20,000: new at first, replacements later).
let streaming = true;
const streamVisible: number[] = [];
let streamed = 0;
const stream = (async () => {
  const started = performance.now();
  for (let tick = 0; performance.now() - started < streamSeconds * 1000; tick++) {
    const batch = Array.from({ length: 100 }, (_, i) => written('stream', (tick * 100 + i) % 20_000, tick));
    const t0 = performance.now();
    await source.upsert(batch);
    streamVisible.push(performance.now() - t0);
    streamed += batch.length;
    const next = started + (tick + 1) * 100;
    const wait = next - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  }
  streaming = false;
})();
const during = await latencies(streamSeconds);
await stream;
void streaming;
t = performance.now();
await source.merged();
const finalMergeMs = performance.now() - t;
writeFileSync(
  out,
  JSON.stringify({ size, papers: source.size, visible, found: check.count, settleMs, quiet, during, streamVisible, streamed, streamSeconds, finalMergeMs }),
);
await source.close();
