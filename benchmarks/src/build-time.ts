/**
 * Times one fresh streamed build (`createMemorySourceFromStream(corpusPapers(size))`), the
 * number issue 17's target is about, without the queries of the engine benchmark:
 *
 *   node --expose-gc --conditions=@paperlist/source --import tsx benchmarks/src/build-time.ts 1m 2
 *
 * Arguments: corpus size (500k or 1m, default 1m) and build threads (1 or 2, default 2). One
 * build per process, so each starts cold as a server's would and the peak RSS is its own: run it
 * several times for a median.
 */
import { performance } from 'node:perf_hooks';
import { createMemorySourceFromStream } from '@paperlist/core/node';
import { corpusPapers } from './corpus.js';
import type { CorpusSize } from './args.js';

const size = (process.argv[2] ?? '1m') as CorpusSize;
if (size !== '500k' && size !== '1m') throw new Error(`size must be 500k or 1m, got ${size}`);
const buildThreads = Number(process.argv[3] ?? '2');

const started = performance.now();
const source = await createMemorySourceFromStream(corpusPapers(size), { buildThreads });
const seconds = (performance.now() - started) / 1000;
const rssMiB = process.resourceUsage().maxRSS / 1024;
console.log(`build ${size} buildThreads=${buildThreads}: ${seconds.toFixed(1)} s, ${source.size} papers, peak RSS ${rssMiB.toFixed(0)} MiB`);
process.exit(0);
