/**
 * The API extensions at corpus scale (issue 19), in their own process: facets, the export, cursor
 * walks and highlighting through the core handler over the memory source (one thread: the
 * engine's own time), with facets checked against the scan source. Writes a JSON report.
 * Usage: run-extensions.ts <500k|1m> <out.json> [--check]
 */
import { writeFileSync } from 'node:fs';
import { createPapersHandler, createScanSource, type PapersHandler } from '@paperlist/core';
import type { CorpusSize } from '../args.js';
import { loadCorpus } from '../corpus.js';
import { corpusSource } from '../corpus-source.js';
import { FACET_REQUESTS } from './facet-requests.js';

export interface TimedRequest {
  name: string;
  query: string;
  count: number;
  times: number[];
  bytes: number;
  /** With --check: whether the scan source's facets are the same. */
  same?: boolean;
}

export interface ExportRun {
  query: string;
  papers: number;
  bytes: number;
  ms: number;
  /** Resident memory before and at most during the export (MB). */
  rssBefore: number;
  rssPeak: number;
}

const [size, out] = process.argv.slice(2) as [CorpusSize, string];
const check = process.argv.includes('--check');
const ask = (handle: PapersHandler, query: string) => handle({ method: 'GET', url: `/api/v1/papers/?${query}`, headers: { host: 'localhost' }, basePath: '/api/v1' });
const text = (bytes: Uint8Array | null) => new TextDecoder().decode(bytes ?? new Uint8Array());

const { source, loadedFrom, ms } = await corpusSource(size);
console.log(`  ${loadedFrom === 'cache' ? 'loaded' : 'built'} ${source.size.toLocaleString('en-US')} papers in ${(ms / 1000).toFixed(1)} s`);
const handle = createPapersHandler({ source });

async function timed(name: string, query: string, runs = 7): Promise<TimedRequest> {
  const times: number[] = [];
  let body = '';
  for (let run = 0; run < runs; run++) {
    const t = performance.now();
    const answer = await ask(handle, query);
    times.push(performance.now() - t);
    if (answer!.status !== 200) throw new Error(`${query}: ${answer!.status} ${text(answer!.body)}`);
    body = text(answer!.body);
  }
  return { name, query, count: (JSON.parse(body) as { count: number }).count, times, bytes: body.length };
}

const results: TimedRequest[] = [];
for (const [name, query] of FACET_REQUESTS) results.push(await timed(name, query));

if (check) {
  console.log('  checking the facets against the scan source …');
  const scan = createPapersHandler({ source: createScanSource(await loadCorpus(size)) });
  for (const result of results.slice(0, 9)) {
    const want = text((await ask(scan, result.query))!.body);
    const got = text((await ask(handle, result.query))!.body);
    result.same = want === got;
  }
}

// Deep pages: the same position by page number and by cursor.
const deep = Math.floor(source.size / 500) - 2;
results.push(await timed(`page ${deep} of 500, ordering=-published`, `ordering=-published&items_per_page=500&page=${deep}`));
const firstCursorPage = JSON.parse(text((await ask(handle, `ordering=-published&items_per_page=500&page=${deep - 1}`))!.body)) as { results: { id: string; published: string | null }[] };
const { encodeCursor, positionOf, parseListQuery, parseQueryString, toPaper } = await import('@paperlist/core');
void toPaper;
const parsed = parseListQuery((parseQueryString('ordering=-published') as { ok: true; pairs: [string, string][] }).pairs, { pageSize: 50, maxPageSize: 500 });
if (!parsed.ok || parsed.request.ordering.kind !== 'fields') throw new Error('unreachable');
const lastPaper = (await source.get(firstCursorPage.results.at(-1)!.id))!;
const cursor = encodeCursor(parsed.request.ordering.keys, positionOf(toPaper(lastPaper), parsed.request.ordering.keys));
results.push(await timed(`the same page by cursor`, `ordering=-published&items_per_page=500&cursor=${cursor}`));
results.push(await timed('q=neural network, 500 papers', 'q=neural+network&items_per_page=500'));
results.push(await timed('… with highlight=1', 'q=neural+network&items_per_page=500&highlight=1'));
results.push(await timed('… with fields=id,title', 'q=neural+network&items_per_page=500&fields=id,title'));

// The export: every paper, and a filtered one with two fields.
const exports: ExportRun[] = [];
for (const query of ['ordering=id', 'year=2015-&ordering=-published&fields=id,title']) {
  globalThis.gc?.();
  const rssBefore = process.memoryUsage().rss / 2 ** 20;
  let rssPeak = rssBefore;
  const t = performance.now();
  const answer = (await ask(handle, `${query}&format=jsonl`))!;
  let bytes = 0;
  let papers = 0;
  for await (const chunk of answer.stream!) {
    bytes += chunk.length;
    for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) papers++;
    if (papers % 20_000 < 1000) rssPeak = Math.max(rssPeak, process.memoryUsage().rss / 2 ** 20);
  }
  exports.push({ query, papers, bytes, ms: performance.now() - t, rssBefore, rssPeak });
}

writeFileSync(out, JSON.stringify({ size, papers: source.size, results, exports }));
await source.close();
