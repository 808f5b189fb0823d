/**
 * One contender of the engine benchmark, in its own process (so its memory is measured alone):
 * loads the corpus, builds, answers the query set several times, writes a JSON report.
 * Usage: run-contender.ts <engine|scan|minisearch|flexsearch|engine-stream> <500k|1m> <out.json> [--quick]
 */
import { writeFileSync } from 'node:fs';
import { parseListQuery, parseQueryString, serializePaper, type PaperQuery } from '@paperlist/core';
import { createMemorySourceFromStream } from '@paperlist/core/node';
import type { CorpusSize } from '../args.js';
import { corpusPapers, loadCorpus } from '../corpus.js';
import { memoryInUse } from '../stats.js';
import { flexSearchContender, miniSearchContender, paperlistContender, type Answer, type Contender } from './contenders.js';
import { benchQueries, queryString, type BenchQuery } from './query-set.js';

export interface ContenderReport {
  name: string;
  notes: string;
  size: CorpusSize;
  papers: number;
  buildMs: number;
  /** Heap + array buffers held by the built index (after GC). */
  memoryBytes: number;
  /** Of which the papers' JSON (engine only). */
  jsonBytes: number;
  /** Peak resident set size of the process (KiB), for the stream build. */
  maxRssKiB: number;
  /** Per query instance: its latencies (ms) and its answer. */
  results: { query: BenchQuery; times: number[]; answer: Answer }[];
  /** Every match of each search (corpus positions, ascending), for agreement checks. */
  matchSets: Record<string, number[]>;
}

const [name, size, out] = process.argv.slice(2) as [string, CorpusSize, string];
const quick = process.argv.includes('--quick');

function parse(query: BenchQuery, limit = query.limit, offset = query.offset): PaperQuery {
  const parsed = parseQueryString(queryString(query));
  if (!parsed.ok) throw new Error(`bad query ${query.q}`);
  const list = parseListQuery(parsed.pairs, { pageSize: 50, maxPageSize: 500 });
  if (!list.ok) throw new Error(`bad query ${query.q}`);
  return { terms: list.request.terms, filters: list.request.filters, ordering: list.request.ordering, offset, limit };
}

async function main(): Promise<void> {
  const report: ContenderReport = { name, notes: '', size, papers: 0, buildMs: 0, memoryBytes: 0, jsonBytes: 0, maxRssKiB: 0, results: [], matchSets: {} };

  if (name === 'engine-stream') {
    // Build straight from the file: no paper objects are kept, only the index.
    const before = memoryInUse();
    const started = performance.now();
    const source = await createMemorySourceFromStream(corpusPapers(size));
    report.buildMs = performance.now() - started;
    report.memoryBytes = memoryInUse() - before;
    report.papers = source.size;
    report.maxRssKiB = process.resourceUsage().maxRSS;
    report.notes = 'createMemorySourceFromStream: gunzip, parse, validate and index, one pass, papers not kept';
    writeFileSync(out, JSON.stringify(report));
    return;
  }

  const papers = await loadCorpus(size);
  report.papers = papers.length;
  const contender: Contender =
    name === 'engine' || name === 'scan' ? paperlistContender(name) : name === 'minisearch' ? miniSearchContender() : flexSearchContender();
  report.name = contender.name;
  report.notes = contender.notes;

  contender.prepare?.(papers);
  const before = memoryInUse();
  const started = performance.now();
  contender.build(papers);
  report.buildMs = performance.now() - started;
  report.memoryBytes = memoryInUse() - before;

  let queries = await benchQueries();
  if (name === 'scan') {
    // The scan takes about a second a query: only the first search of each class.
    const first = new Map<string, string>();
    for (const q of queries) if (!first.has(q.cls)) first.set(q.cls, q.q);
    queries = queries.filter((q) => first.get(q.cls) === q.q);
  }
  const parsed = queries.map((q) => parse(q));
  const runs = name === 'scan' ? 1 : quick ? 3 : name === 'engine' ? 30 : 5;
  const times = queries.map(() => [] as number[]);
  const answers: Answer[] = [];
  for (let i = 0; i < queries.length; i++) answers[i] = await contender.answer(queries[i]!, parsed[i]!); // warm-up
  for (let r = 0; r < runs; r++) {
    for (let i = 0; i < queries.length; i++) {
      const t = performance.now();
      await contender.answer(queries[i]!, parsed[i]!);
      times[i]!.push(performance.now() - t);
    }
  }
  report.results = queries.map((query, i) => ({ query, times: times[i]!, answer: answers[i]! }));

  // Whole match sets, for the agreement checks (title order, every match).
  for (const q of new Set(queries.map((x) => x.q))) {
    const query: BenchQuery = { cls: '', q, ordering: 'title', offset: 0, limit: papers.length };
    const all = await contender.answer(query, parse(query));
    report.matchSets[q] = all.ids.sort((a, b) => a - b);
  }
  if (name === 'engine') report.jsonBytes = papers.reduce((sum, p) => sum + Buffer.byteLength(serializePaper(p)), 0);
  report.maxRssKiB = process.resourceUsage().maxRSS;
  writeFileSync(out, JSON.stringify(report));
}

await main();
