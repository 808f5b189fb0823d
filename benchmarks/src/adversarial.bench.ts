/**
 * The adversarial class (issue 16): the requests that were unbounded before the engine bounded
 * every query's work, timed through the core handler at each corpus size, and checked against the
 * scan source at 498k (status and bytes of every answer).
 */
import { fileURLToPath } from 'node:url';
import type { BenchArgs, CorpusSize } from './args.js';
import { runChildReport } from './child-report.js';
import { corpusAvailable, LARGE_CATALOG } from './corpus.js';
import type { AdversarialResult } from './adversarial/run-adversarial.js';
import { formatMs, percentile, table } from './stats.js';

const CHILD = fileURLToPath(new URL('./adversarial/run-adversarial.ts', import.meta.url));

function runChild(size: CorpusSize, check: boolean): Promise<{ papers: number; results: AdversarialResult[] }> {
  return runChildReport(CHILD, { before: [size], after: check ? ['--check'] : [] }, { label: `adversarial run (${size})` });
}

export async function runAdversarialBench(args: BenchArgs): Promise<void> {
  console.log('\n## Adversarial requests\n');
  if (!corpusAvailable()) {
    console.log(`skipped: the large catalogue is not at ${LARGE_CATALOG} (set PAPERLIST_LARGE_CATALOG)`);
    return;
  }
  for (const size of args.sizes) {
    const check = size === '500k' && !args.quick;
    console.log(`\n… ${size}${check ? ', checked against the scan source' : ''} (${new Date().toISOString().slice(11, 19)})`);
    const { papers, results } = await runChild(size, check);
    console.log(`\n### ${papers.toLocaleString('en-US')} papers: each fixed request 7 times (median), then distinct random ones once\n`);
    console.log(
      table(
        ['request', 'status', 'median', 'max', ...(check ? ['= scan'] : [])],
        results.filter((r) => r.fixed).map((r) => {
          const sorted = [...r.times].sort((a, b) => a - b);
          return [r.request.query, String(r.status), formatMs(percentile(sorted, 50)), formatMs(sorted.at(-1)!), ...(check ? [r.same === null ? '–' : r.same ? 'yes' : 'NO'] : [])];
        }),
      ),
    );
    const classes = [...new Set(results.map((r) => r.request.cls))];
    console.log('\nBy class, fixed and random together (every run):\n');
    console.log(
      table(
        ['class', 'requests', 'p50', 'p99', 'max', '503', ...(check ? ['≠ scan'] : [])],
        classes.map((cls) => {
          const of = results.filter((r) => r.request.cls === cls);
          const times = of.flatMap((r) => r.times).sort((a, b) => a - b);
          return [
            cls,
            String(of.length),
            formatMs(percentile(times, 50)),
            formatMs(percentile(times, 99)),
            formatMs(times.at(-1)!),
            String(of.filter((r) => r.status === 503).length),
            ...(check ? [String(of.filter((r) => r.same === false).length)] : []),
          ];
        }),
      ),
    );
    const all = results.flatMap((r) => r.times).sort((a, b) => a - b);
    console.log(`\nAll: ${results.length} requests, p50 ${formatMs(percentile(all, 50))}, p99 ${formatMs(percentile(all, 99))}, max ${formatMs(all.at(-1)!)}; over 100 ms: ${all.filter((t) => t > 100).length} of ${all.length} runs.`);
    if (check && results.some((r) => r.same === false)) throw new Error('adversarial: answers differ from the scan source');
  }
}
