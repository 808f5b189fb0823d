/**
 * Writes at scale (issue 17): how long a batch of 1,000 upserts takes to be visible on the memory
 * source with query threads, and query latency meanwhile (writes/run-writes.ts, one process per size).
 */
import { fileURLToPath } from 'node:url';
import type { BenchArgs, CorpusSize } from './args.js';
import { runChildReport } from './child-report.js';
import { corpusAvailable, LARGE_CATALOG } from './corpus.js';
import { formatMs, percentile, table } from './stats.js';

const CHILD = fileURLToPath(new URL('./writes/run-writes.ts', import.meta.url));

interface WritesReport {
  papers: number;
  visibleMs: number;
  result: { created: number; updated: number; deleted: number };
  found: number;
  quiet: number[];
  during: number[];
}

function runChild(size: CorpusSize): Promise<WritesReport> {
  return runChildReport(CHILD, { before: [size] }, { label: `writes run (${size})` });
}

export async function runWritesBench(args: BenchArgs): Promise<void> {
  console.log('\n## Writes\n');
  if (!corpusAvailable()) {
    console.log(`skipped: the large catalogue is not at ${LARGE_CATALOG} (set PAPERLIST_LARGE_CATALOG)`);
    return;
  }
  for (const size of args.sizes) {
    const report = await runChild(size);
    console.log(`\n### ${report.papers.toLocaleString('en-US')} papers, two query threads\n`);
    console.log(`A batch of 1,000 upserts (${report.result.created} created) visible after ${(report.visibleMs / 1000).toFixed(1)} s (found: ${report.found}).\n`);
    const row = (name: string, times: number[]) => {
      const sorted = [...times].sort((a, b) => a - b);
      return [name, String(times.length), formatMs(percentile(sorted, 50)), formatMs(percentile(sorted, 99)), formatMs(sorted.at(-1)!)];
    };
    console.log(table(['queries', 'n', 'p50', 'p99', 'max'], [row('quiet', report.quiet), row('while the batch is applied', report.during)]));
  }
}
