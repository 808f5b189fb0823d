/**
 * Writes at scale (issue 17): how long a batch of 1,000 upserts takes to be visible on the memory
 * source with query threads, and query latency while 1,000 upserts/s stream in, against the same
 * queries when nothing is written (writes/run-writes.ts, one process per size).
 */
import { fileURLToPath } from 'node:url';
import type { BenchArgs, CorpusSize } from './args.js';
import { runChildReport } from './child-report.js';
import { corpusAvailable, LARGE_CATALOG } from './corpus.js';
import { formatMs, percentile, table } from './stats.js';

const CHILD = fileURLToPath(new URL('./writes/run-writes.ts', import.meta.url));

interface WritesReport {
  papers: number;
  visible: { kind: string; ms: number; result: { created: number; updated: number; deleted: number } }[];
  found: number;
  settleMs: number;
  quiet: number[];
  during: number[];
  streamVisible: number[];
  streamed: number;
  streamSeconds: number;
  finalMergeMs: number;
}

function runChild(size: CorpusSize, quick: boolean): Promise<WritesReport> {
  return runChildReport(CHILD, { before: [size], after: [quick ? '10' : '30'] }, { label: `writes run (${size})` });
}

export async function runWritesBench(args: BenchArgs): Promise<void> {
  console.log('\n## Writes\n');
  if (!corpusAvailable()) {
    console.log(`skipped: the large catalogue is not at ${LARGE_CATALOG} (set PAPERLIST_LARGE_CATALOG)`);
    return;
  }
  for (const size of args.sizes) {
    const report = await runChild(size, args.quick);
    console.log(`\n### ${report.papers.toLocaleString('en-US')} papers after the writes, two query threads\n`);
    const sorted = (times: number[]) => [...times].sort((a, b) => a - b);
    console.log(
      table(
        ['batch of 1,000 upserts', 'created', 'updated', 'visible after'],
        report.visible.map((v) => [v.kind, String(v.result.created), String(v.result.updated), formatMs(v.ms)]),
      ),
    );
    console.log(`\nBackground merges after them done ${formatMs(report.settleMs)} later; \`q=edition\` finds ${report.found}.\n`);
    const stream = sorted(report.streamVisible);
    console.log(
      `Stream: ${report.streamed.toLocaleString('en-US')} upserts in ${report.streamSeconds} s (batches of 100 every 100 ms): each visible after p50 ${formatMs(percentile(stream, 50))}, p99 ${formatMs(percentile(stream, 99))}, max ${formatMs(stream.at(-1)!)}; merges done ${formatMs(report.finalMergeMs)} after the stream.\n`,
    );
    const row = (name: string, times: number[]) => {
      const s = sorted(times);
      return [name, String(times.length), formatMs(percentile(s, 50)), formatMs(percentile(s, 99)), formatMs(s.at(-1)!)];
    };
    console.log(table(['queries', 'n', 'p50', 'p99', 'max'], [row('quiet', report.quiet), row('while 1,000 upserts/s stream in', report.during)]));
  }
}
