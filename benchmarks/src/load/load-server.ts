/**
 * The load benchmarks' server process: the catalogue in the memory source on query threads,
 * served exactly as `paperlist serve` serves it (the CLI's node:http app), and beside it a plain
 * node:http server that sends a prebuilt body as large as the distinct searches' average answer,
 * and the same app over a source that answers at once (the HTTP path's own ceiling).
 * Writes the request paths to a file and prints `READY {…}`; serves until killed.
 * Usage: load-server.ts <500k|1m> <threads> <paths.json>
 */
import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseListQuery, parseQueryString, type PaperPage } from '@paperlist/core';
import { loadSamplePapers } from '@paperlist/core/sample';
import { createApp } from '@paperlist/cli';
import type { CorpusSize } from '../args.js';
import { corpusSource } from '../corpus-source.js';
import { seededRandom } from '../random.js';
import { distinctSearches, searchPath } from './distinct-queries.js';
import { instantSource } from './instant-source.js';

const [size, threadsArg, pathsFile] = process.argv.slice(2) as [CorpusSize, string, string];
const threads = Number(threadsArg);
const { source, loadedFrom, ms } = await corpusSource(size, { threads });
console.log(`  ${loadedFrom === 'cache' ? 'loaded' : 'built'} ${source.size.toLocaleString('en-US')} papers in ${(ms / 1000).toFixed(1)} s, ${threads} query threads`);

// Distinct searches, each at a page that exists (1 to 3); those with no match are left out.
const random = seededRandom(2026);
const paths: string[] = [];
for (const { q, ordering } of distinctSearches(await loadSamplePapers(), 120_000, 1125)) {
  const pairs = parseQueryString(`q=${encodeURIComponent(q)}${ordering ? `&ordering=${ordering}` : ''}`);
  if (!pairs.ok) continue;
  const parsed = parseListQuery(pairs.pairs, { pageSize: 50, maxPageSize: 500 });
  if (!parsed.ok) continue;
  const { count } = await source.list({ terms: parsed.request.terms, filters: parsed.request.filters, ordering: parsed.request.ordering, offset: 0, limit: 0 });
  if (count === 0) continue;
  const pages = Math.min(3, Math.ceil(count / 50));
  paths.push(searchPath(q, ordering, 1 + Math.floor(random() * pages)));
}

const state = { phase: 'ready' as const, papers: source.size, inFlight: 0 };
const app = createApp({ source, state, mount: '/api/v1', allowedHosts: ['127.0.0.1', 'localhost'], onError: (error) => console.error(error) });
const listen = (server: Server) => new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
const port = await listen(createServer(app));

// The average answer of a sample of the paths, for the prebuilt body.
let bytes = 0;
const sample = paths.filter((_, i) => i % 100 === 0);
for (const path of sample) bytes += (await (await fetch(`http://127.0.0.1:${port}${path}`)).arrayBuffer()).byteLength;
const averageBytes = Math.round(bytes / sample.length);
const prebuilt = Buffer.alloc(averageBytes, 0x20);
prebuilt.write('{"count":0,"next":null,"previous":null,"results":[]}');
const prebuiltPort = await listen(
  createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': String(prebuilt.byteLength) });
    res.end(prebuilt);
  }),
);
// The same app over a source answering at once with real pages (64 of them, taken in turn).
const pages: PaperPage[] = [];
for (const path of paths.slice(0, 64)) {
  const pairs = parseQueryString(path.slice(path.indexOf('?') + 1));
  const parsed = pairs.ok ? parseListQuery(pairs.pairs, { pageSize: 50, maxPageSize: 500 }) : null;
  if (parsed === null || !parsed.ok) continue;
  const { request } = parsed;
  const page = await source.list({ terms: request.terms, filters: request.filters, ordering: request.ordering, offset: 0, limit: 50 });
  if (page.resultsJson === undefined) continue;
  // Copied: the source reuses its page's memory once released.
  const json = page.resultsJson.slice();
  page.release?.();
  // At least three pages' worth, so that every path's page (1 to 3) exists.
  pages.push({ count: Math.max(page.count, 1000), results: JSON.parse(`[${new TextDecoder().decode(json)}]`) as PaperPage['results'], resultsJson: json });
}
const instantApp = createApp({ source: instantSource(pages), state, mount: '/api/v1', allowedHosts: ['127.0.0.1', 'localhost'], onError: (error) => console.error(error) });
const instantPort = await listen(createServer(instantApp));

writeFileSync(pathsFile, JSON.stringify(paths));
console.log(`READY ${JSON.stringify({ port, instantPort, prebuiltPort, averageBytes, papers: source.size, paths: paths.length })}`);
