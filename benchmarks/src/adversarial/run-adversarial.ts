/**
 * The adversarial class, in its own process: builds the memory source (one thread: the engine's
 * own time) from a benchmark corpus, answers every adversarial request through the core handler
 * (parse, engine, JSON), and, with --check, answers them again from the scan source and
 * compares status and body byte for byte. Writes a JSON report.
 * Usage: run-adversarial.ts <500k|1m> <out.json> [--check] [--random N]
 */
import { writeFileSync } from 'node:fs';
import { createPapersHandler, createScanSource, type PapersHandler } from '@paperlist/core';
import { loadSamplePapers } from '@paperlist/core/sample';
import type { CorpusSize } from '../args.js';
import { loadCorpus } from '../corpus.js';
import { corpusSource } from '../corpus-source.js';
import { FIXED_ADVERSARIAL, randomAdversarial, type AdversarialRequest } from './adversarial-requests.js';

export interface AdversarialResult {
  request: AdversarialRequest;
  fixed: boolean;
  status: number;
  times: number[];
  /**
   * With --check: whether the scan source answered the same bytes; null when the engine answered
   * `503` (its budget ran out: no answer to compare, which the status column shows).
   */
  same?: boolean | null;
}

const [size, out] = process.argv.slice(2) as [CorpusSize, string];
const check = process.argv.includes('--check');
const randomCount = Number(process.argv[process.argv.indexOf('--random') + 1] ?? 60) || 60;

const url = (query: string) => `/api/v1/papers/?${query}`;
const ask = (handle: PapersHandler, query: string) => handle({ method: 'GET', url: url(query), headers: { host: 'localhost' }, basePath: '/api/v1' });

const { source, loadedFrom, ms } = await corpusSource(size);
console.log(`  ${loadedFrom === 'cache' ? 'loaded' : 'built'} ${source.size.toLocaleString('en-US')} papers in ${(ms / 1000).toFixed(1)} s`);
const handle = createPapersHandler({ source });
const requests = [...FIXED_ADVERSARIAL.map((r) => ({ r, fixed: true })), ...randomAdversarial(await loadSamplePapers(), randomCount).map((r) => ({ r, fixed: false }))];
const results: AdversarialResult[] = [];
const bodies: (Uint8Array | null)[] = [];
for (const { r, fixed } of requests) {
  const times: number[] = [];
  let answer = null;
  for (let run = 0; run < (fixed ? 7 : 1); run++) {
    const t = performance.now();
    answer = await ask(handle, r.query);
    times.push(performance.now() - t);
  }
  results.push({ request: r, fixed, status: answer!.status, times });
  bodies.push(answer!.body);
}
if (check) {
  console.log('  checking every answer against the scan source …');
  const scan = createPapersHandler({ source: createScanSource(await loadCorpus(size)) });
  for (let i = 0; i < requests.length; i++) {
    if (results[i]!.status === 503) {
      results[i]!.same = null;
      continue;
    }
    const want = await ask(scan, requests[i]!.r.query);
    const got = bodies[i];
    results[i]!.same = want!.status === results[i]!.status && Buffer.compare(Buffer.from(want!.body ?? []), Buffer.from(got ?? [])) === 0;
  }
}
writeFileSync(out, JSON.stringify({ size, papers: source.size, results }));
await source.close();
