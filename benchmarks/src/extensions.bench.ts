/**
 * The API extensions at scale (issue 19): facets over large match sets, the export's throughput
 * and memory, deep pages by number and by cursor, highlighting and field selection. Each size runs
 * in its own process (extensions/run-extensions.ts); facets are checked against the scan source at 498k.
 */
import { fileURLToPath } from 'node:url';
import type { BenchArgs, CorpusSize } from './args.js';
import { runChildReport } from './child-report.js';
import { corpusAvailable, LARGE_CATALOG } from './corpus.js';
import type { ExportRun, TimedRequest } from './extensions/run-extensions.js';
import { formatMs, percentile, table } from './stats.js';

const CHILD = fileURLToPath(new URL('./extensions/run-extensions.ts', import.meta.url));

function runChild(size: CorpusSize, check: boolean): Promise<{ papers: number; results: TimedRequest[]; exports: ExportRun[] }> {
  return runChildReport(CHILD, { before: [size], after: check ? ['--check'] : [] }, { exposeGc: true, label: `extensions run (${size})` });
}

export async function runExtensionsBench(args: BenchArgs): Promise<void> {
  console.log('\n## API extensions: facets, export, cursors, highlighting\n');
  if (!corpusAvailable()) {
    console.log(`skipped: the large catalogue is not at ${LARGE_CATALOG} (set PAPERLIST_LARGE_CATALOG)`);
    return;
  }
  for (const size of args.sizes) {
    const check = size === '500k' && !args.quick;
    const { papers, results, exports } = await runChild(size, check);
    console.log(`\n### ${papers.toLocaleString('en-US')} papers, one thread, through the core handler (7 runs each)\n`);
    console.log(
      table(
        ['request', 'matches', 'median', 'max', ...(check ? ['= scan'] : [])],
        results.map((r) => {
          const sorted = [...r.times].sort((a, b) => a - b);
          return [r.name, r.count.toLocaleString('en-US'), formatMs(percentile(sorted, 50)), formatMs(sorted.at(-1)!), ...(check ? [r.same === undefined ? '' : r.same ? 'yes' : 'NO'] : [])];
        }),
      ),
    );
    console.log('\nThe export (format=jsonl), consumed as fast as it comes:\n');
    console.log(
      table(
        ['query', 'papers', 'MB', 'seconds', 'MB/s', 'RSS before → peak (MB)'],
        exports.map((e) => [
          e.query,
          e.papers.toLocaleString('en-US'),
          (e.bytes / 1e6).toFixed(0),
          (e.ms / 1000).toFixed(2),
          (e.bytes / 1e6 / (e.ms / 1000)).toFixed(0),
          `${e.rssBefore.toFixed(0)} → ${e.rssPeak.toFixed(0)}`,
        ]),
      ),
    );
  }
}
