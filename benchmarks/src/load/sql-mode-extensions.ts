/**
 * The API extensions (issue 19) against the `--query-mode sql` server, one request at a time over
 * HTTP: the facet requests of the extensions benchmark, large filters, deep pages by number and by
 * cursor, highlighting, field selection, batch lookup, count only, and the export's throughput with
 * the server's resident memory. Each request the first time (cold: facts and lists read) and the
 * median of the next six.
 */
import { readFileSync } from 'node:fs';
import { request, type IncomingMessage } from 'node:http';
import { createBrotliDecompress, createGunzip } from 'node:zlib';
import { encodeCursor, parseListQuery, parseQueryString, positionOf, type Paper } from '@paperlist/core';
import { FACET_REQUESTS } from '../extensions/facet-requests.js';

/** Filters of issue 19 over large match sets, beside the facet requests. */
const FILTER_REQUESTS: readonly (readonly [name: string, query: string])[] = [
  ['year=2010-, ordering=-published', 'year=2010-&ordering=-published'],
  ['published_after=2019-06, page 3', 'published_after=2019-06&page=3'],
  ['venue=neurips&year=2018-, by title', 'venue=neurips&year=2018-&ordering=title'],
  ['q=learning&year=2020, relevance', 'q=learning&year=2020'],
  ['year=2015-2019&abstract=graph', 'year=2015-2019&abstract=graph'],
];

interface Answer {
  status: number;
  body: string;
}

async function get(port: number, query: string): Promise<Answer> {
  const answer = await fetch(`http://127.0.0.1:${port}/api/v1/papers/?${query}`);
  return { status: answer.status, body: await answer.text() };
}

async function timeRequest(port: number, name: string, query: string): Promise<void> {
  const times: number[] = [];
  let last: Answer = { status: 0, body: '' };
  for (let run = 0; run < 7; run++) {
    const started = performance.now();
    last = await get(port, query);
    times.push(performance.now() - started);
  }
  const count = last.status === 200 ? (JSON.parse(last.body) as { count: number }).count.toLocaleString('en-US') : '';
  const rest = times.slice(1).sort((a, b) => a - b);
  console.log(`| ${name} | ${count} | ${times[0]!.toFixed(1)} ms | ${rest[3]!.toFixed(1)} ms | ${last.status} |`);
}

/** The cursor that continues after the last paper of `query`'s page (built as the server builds it). */
async function cursorAfter(port: number, query: string, ordering: string): Promise<string> {
  const page = JSON.parse((await get(port, query)).body) as { results: Paper[] };
  const parsed = parseListQuery((parseQueryString(`ordering=${ordering}`) as { ok: true; pairs: [string, string][] }).pairs, { pageSize: 50, maxPageSize: 500 });
  if (!parsed.ok || parsed.request.ordering.kind !== 'fields') throw new Error(`ordering=${ordering} is not a field ordering`);
  return encodeCursor(parsed.request.ordering.keys, positionOf(page.results.at(-1)!, parsed.request.ordering.keys));
}

/** Resident memory of a process, MB (Linux). */
function rssOf(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').match(/^VmRSS:\s+(\d+) kB/m);
  return line === null ? 0 : Number(line[1]) / 1024;
}

async function timeExport(port: number, serverPid: number, query: string, coding: 'identity' | 'gzip' | 'br'): Promise<void> {
  const rssBefore = rssOf(serverPid);
  let rssPeak = rssBefore;
  const started = performance.now();
  // node:http and zlib, not fetch: Node 20's fetch decoded this brotli stream at 2 MB/s, one core busy, while the server idled.
  const answer = await new Promise<IncomingMessage>((resolve, reject) =>
    request({ host: '127.0.0.1', port, path: `/api/v1/papers/?${query}&format=jsonl`, headers: { 'accept-encoding': coding } }, resolve).on('error', reject).end(),
  );
  const encoding = answer.headers['content-encoding'];
  const body: AsyncIterable<Uint8Array> = encoding === 'br' ? answer.pipe(createBrotliDecompress()) : encoding === 'gzip' ? answer.pipe(createGunzip()) : answer;
  let bytes = 0;
  let papers = 0;
  let sampledAt = 0;
  let status = String(answer.statusCode);
  try {
    for await (const chunk of body) {
      bytes += chunk.length;
      for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) papers++;
      if (bytes - sampledAt > 8_000_000) {
        sampledAt = bytes;
        rssPeak = Math.max(rssPeak, rssOf(serverPid));
      }
    }
  } catch {
    // The server cuts an export whose page it could not read (the status was sent).
    status += ', cut';
  }
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `| ${query} | ${coding} | ${status} | ${papers.toLocaleString('en-US')} | ${(bytes / 1e6).toFixed(0)} | ${seconds.toFixed(2)} | ${(bytes / 1e6 / seconds).toFixed(0)} | ${rssBefore.toFixed(0)} → ${rssPeak.toFixed(0)} |`,
  );
}

/** Times every extension against the server at `port` (process `serverPid`) over `total` papers. */
export async function timeExtensions(port: number, serverPid: number, total: number): Promise<void> {
  console.log(`\n### Extensions, one request at a time (first, then the median of 6 more)\n`);
  console.log(`| request | count | first | median | status |`);
  console.log(`|---|---:|---:|---:|---|`);
  for (const [name, query] of [...FACET_REQUESTS, ...FILTER_REQUESTS]) await timeRequest(port, name, query);

  const deep = Math.floor(total / 500) - 2;
  await timeRequest(port, `page ${deep} of 500, ordering=-published`, `ordering=-published&items_per_page=500&page=${deep}`);
  const cursor = await cursorAfter(port, `ordering=-published&items_per_page=500&page=${deep - 1}`, '-published');
  await timeRequest(port, 'the same page by cursor', `ordering=-published&items_per_page=500&cursor=${encodeURIComponent(cursor)}`);
  await timeRequest(port, 'cursor=*, q=learning, by title', 'q=learning&ordering=title&items_per_page=500&cursor=*');
  await timeRequest(port, 'q=neural network, 500 papers', 'q=neural+network&items_per_page=500');
  await timeRequest(port, '… with highlight=1', 'q=neural+network&items_per_page=500&highlight=1');
  await timeRequest(port, '… with fields=id,title', 'q=neural+network&items_per_page=500&fields=id,title');
  await timeRequest(port, 'count_only=1, q=learning', 'q=learning&count_only=1');
  const ids = (JSON.parse((await get(port, 'q=learning&items_per_page=100&fields=id')).body) as { results: { id: string }[] }).results.map((paper) => paper.id);
  await timeRequest(port, 'id= with 100 ids', `id=${ids.map(encodeURIComponent).join('|')}&items_per_page=100`);

  console.log(`\nThe export (format=jsonl), consumed as fast as it comes (MB of JSON Lines, decoded); the server's resident memory:\n`);
  console.log(`| query | coding | status | papers | MB | seconds | MB/s | server RSS before → peak (MB) |`);
  console.log(`|---|---|---|---:|---:|---:|---:|---|`);
  await timeExport(port, serverPid, 'ordering=id', 'identity');
  await timeExport(port, serverPid, 'ordering=id', 'br');
  await timeExport(port, serverPid, 'year=2015-&ordering=-published&fields=id,title', 'identity');
}
