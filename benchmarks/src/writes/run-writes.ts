/**
 * Writes at corpus scale (issue 17), in their own process: the memory source with two query
 * threads, a batch of 1,000 upserts timed until visible, and the latency of queries asked
 * throughout (against the same queries when nothing is written). Writes a JSON report.
 * Usage: run-writes.ts <500k|1m> <out.json>
 */
import { writeFileSync } from 'node:fs';
import { parseListQuery, parseQueryString, type Paper, type PaperQuery } from '@paperlist/core';
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
const [size, out] = process.argv.slice(2) as [CorpusSize, string];
const { source, ms } = await corpusSource(size, { threads: 2 });
console.log(`  loaded ${source.size.toLocaleString('en-US')} papers in ${(ms / 1000).toFixed(1)} s`);

const QUERIES = ['q=learning', 'q=neural+network&ordering=-published', 'year=2018&ordering=title', 'q=graph&page=2', 'author=smith'];
async function latencies(until: () => boolean, minimum: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; times.length < minimum || !until(); i++) {
    const t = performance.now();
    await source.list(queryFor(QUERIES[i % QUERIES.length]!, 0, 50));
    times.push(performance.now() - t);
  }
  return times;
}

const quiet = await latencies(() => true, 200);
const template = (await source.list(queryFor('', 0, 1))).results[0]!;
const base = JSON.parse(new TextDecoder().decode((template as { json: Uint8Array }).json)) as Paper;
const batch = Array.from({ length: 1000 }, (_, i): Paper => ({ ...base, id: `bench-write-${i}`, title: `Benchmark write ${i}` }));
let done = false;
const started = performance.now();
const writing = source.upsert(batch).then((result) => {
  done = true;
  return result;
});
const during = await latencies(() => done, 50);
const result = await writing;
const visibleMs = performance.now() - started;
const check = await source.list(queryFor('q=benchmark+write', 0, 1));
writeFileSync(out, JSON.stringify({ size, papers: source.size, visibleMs, result, found: check.count, quiet, during }));
await source.close();
