/**
 * The in-memory engine against MiniSearch, FlexSearch and the naive scan, on the large real
 * catalogue (498,216 papers) and on a 1M corpus made from it (every paper twice). Each
 * contender runs in its own process: build time, memory held by the index (heap + array
 * buffers after GC), latency of count + one page for every query of the seeded set, and the
 * answers, which are checked against each other.
 */
import { fileURLToPath } from 'node:url';
import type { BenchArgs, CorpusSize } from './args.js';
import { runChildReport } from './child-report.js';
import { corpusAvailable, LARGE_CATALOG } from './corpus.js';
import type { ContenderReport } from './engine/run-contender.js';
import { QUERY_CLASSES, searchesByClass } from './engine/query-set.js';
import { formatCount, formatMs, percentile, table } from './stats.js';

const CHILD = fileURLToPath(new URL('./engine/run-contender.ts', import.meta.url));

/** Runs a contender in a child process and reads its report. */
export function runContender(name: string, size: CorpusSize, quick: boolean, heapMiB: number): Promise<ContenderReport> {
  return runChildReport(CHILD, { before: [name, size], after: quick ? ['--quick'] : [] }, { heapMiB, exposeGc: true, label: `${name} (${size})` });
}

export async function runEngineBench(args: BenchArgs): Promise<void> {
  console.log('\n## In-memory engine\n');
  if (!corpusAvailable()) {
    console.log(`skipped: the large catalogue is not at ${LARGE_CATALOG} (set PAPERLIST_LARGE_CATALOG)`);
    return;
  }
  const searches = await searchesByClass();
  console.log('Query set (seeded; each with the default order = relevance, -published and title, at offset 0 and 1000, 50 results):\n');
  for (const cls of QUERY_CLASSES) console.log(`- ${cls}: ${searches[cls].join(', ')}`);

  const sizes = [...new Set<CorpusSize>([...args.sizes, ...(args.anchorsSize === 'none' ? [] : [args.anchorsSize])])];
  for (const size of sizes) {
    const reports: ContenderReport[] = [];
    const step = async (name: string, heap: number) => {
      const started = performance.now();
      console.log(`\n… ${name} on ${size} (${new Date().toISOString().slice(11, 19)})`);
      const report = await runContender(name, size, args.quick, heap);
      console.log(`  done in ${formatMs(performance.now() - started)}`);
      reports.push(report);
    };
    if (args.sizes.includes(size)) {
      await step('engine', 12_000);
      await step('engine-stream', 8_000);
    }
    if (args.anchorsSize === size) {
      await step('minisearch', 20_000);
      await step('flexsearch', 20_000);
      await step('scan', 16_000);
    }
    printReports(size, reports);
  }
}

interface ClassStats {
  p50: number;
  p99: number;
}

function stats(report: ContenderReport, filter: (r: ContenderReport['results'][number]) => boolean): ClassStats {
  const times = report.results.filter(filter).flatMap((r) => r.times).sort((a, b) => a - b);
  return { p50: percentile(times, 50), p99: percentile(times, 99) };
}

const isRelevance = (r: ContenderReport['results'][number]) => r.query.ordering === '';

export function printReports(size: CorpusSize, reports: ContenderReport[]): void {
  const main = reports.filter((r) => r.name !== 'engine-stream');
  const engine = reports.find((r) => r.name === 'engine');
  const stream = reports.find((r) => r.name === 'engine-stream');
  const papers = main[0]?.papers ?? stream?.papers ?? 0;
  console.log(`\n### ${size === '1m' ? '1M corpus' : 'Large catalogue'}: ${formatCount(papers)} papers\n`);

  const rows = main.map((r) => {
    const all = r.results.flatMap((x) => x.times);
    const total = all.reduce((s, t) => s + t, 0);
    const fields = stats(r, (x) => !isRelevance(x));
    const relevance = stats(r, isRelevance);
    return [
      r.name,
      formatMs(r.buildMs),
      `${formatCount(Math.round(r.memoryBytes / r.papers))} B`,
      r.jsonBytes > 0 ? `${formatCount(Math.round((r.memoryBytes - r.jsonBytes) / r.papers))} B (${((r.memoryBytes - r.jsonBytes) / r.jsonBytes).toFixed(2)}× JSON)` : '-',
      formatMs(fields.p50),
      formatMs(fields.p99),
      formatMs(relevance.p50),
      formatMs(relevance.p99),
      formatCount(Math.round((all.length / total) * 1000)),
    ];
  });
  console.log(
    table(['', 'build', 'memory / paper', 'index without JSON / paper', 'p50 orders', 'p99 orders', 'p50 relevance', 'p99 relevance', 'queries/s'], rows),
  );
  console.log('\n"orders": -published and title; "relevance": the default order of a search. Count + 50 results, page 1 and offset 1000; queries/s: the whole set, one after another, one thread.');
  if (stream) {
    console.log(
      `\nStreaming build (${stream.notes}): ${formatMs(stream.buildMs)}, index ${formatCount(Math.round(stream.memoryBytes / stream.papers))} B / paper, peak RSS ${formatCount(Math.round(stream.maxRssKiB / 1024))} MiB.`,
    );
  }

  console.log('\nPer query class, p50 / p99:\n');
  const classRows: string[][] = [];
  for (const cls of QUERY_CLASSES) {
    for (const [label, filter] of [
      ['orders', (x: ContenderReport['results'][number]) => x.query.cls === cls && !isRelevance(x)],
      ['relevance', (x: ContenderReport['results'][number]) => x.query.cls === cls && isRelevance(x)],
    ] as const) {
      classRows.push([
        `${cls}, ${label}`,
        ...main.map((r) => {
          const s = stats(r, filter);
          return Number.isFinite(s.p50) ? `${formatMs(s.p50)} / ${formatMs(s.p99)}` : '-';
        }),
      ]);
    }
  }
  console.log(table(['', ...main.map((r) => r.name)], classRows));

  if (engine) {
    const ratios = main
      .filter((r) => r !== engine && r.name !== 'scan')
      .map((r) => {
        const common = new Set(r.results.map((x) => key(x.query)));
        const engineP99 = percentile(engine.results.filter((x) => common.has(key(x.query))).flatMap((x) => x.times).sort((a, b) => a - b), 99);
        const theirP99 = percentile(r.results.flatMap((x) => x.times).sort((a, b) => a - b), 99);
        return `${r.name} p99 ${formatMs(theirP99)} vs engine ${formatMs(engineP99)}: ${(theirP99 / engineP99).toFixed(1)}×`;
      });
    if (ratios.length > 0) console.log(`\nSame queries: ${ratios.join('; ')}.`);
    printAgreement(engine, main.filter((r) => r !== engine));
  }
  for (const r of main) console.log(`\n- ${r.name}: ${r.notes}`);
}

const key = (q: ContenderReport['results'][number]['query']) => `${q.q}|${q.ordering}|${q.offset}`;

function printAgreement(engine: ContenderReport, others: ContenderReport[]): void {
  console.log('\nAgreement with the engine (same corpus):');
  for (const other of others) {
    if (other.name === 'scan') {
      const mine = new Map(engine.results.map((x) => [key(x.query), x.answer]));
      let same = 0;
      let compared = 0;
      for (const x of other.results) {
        const m = mine.get(key(x.query));
        if (!m) continue;
        compared++;
        if (m.count === x.answer.count && m.ids.join() === x.answer.ids.join()) same++;
      }
      console.log(`- scan: ${same} of ${compared} answers identical (count and ids, every order and page)`);
      continue;
    }
    const parts: string[] = [];
    for (const [q, theirs] of Object.entries(other.matchSets)) {
      const mine = engine.matchSets[q];
      if (!mine) continue;
      const mineSet = new Set(mine);
      const both = theirs.filter((i) => mineSet.has(i)).length;
      const jaccard = both / (mine.length + theirs.length - both || 1);
      parts.push(`${q} ${formatCount(mine.length)}/${formatCount(theirs.length)}${jaccard === 1 ? ' =' : ` J=${jaccard.toFixed(3)}`}`);
    }
    console.log(`- ${other.name} (matches engine/${other.name}, J = Jaccard of the sets when not equal): ${parts.join('; ')}`);
  }
}
