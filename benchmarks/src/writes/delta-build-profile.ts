/**
 * The cost of building one write batch's delta index, in-process (no threads): for profiling
 * with `node --cpu-prof`. Usage: delta-build-profile.ts <papers.jsonl> [batch size] [rounds] [eager|defer]
 * (`defer`: as a delta thread builds, the tables only some queries read left to their first read).
 */
import { readFileSync } from 'node:fs';
import { IndexBuilder, type Paper } from '@paperlist/core';

const [file, sizeArg, roundsArg] = process.argv.slice(2) as [string, string | undefined, string | undefined];
const size = Number(sizeArg ?? 1000);
const rounds = Number(roundsArg ?? 20);
const defer = process.argv[5] === 'defer';
const papers = readFileSync(file, 'utf8').split('\n').filter((line) => line.length > 0).map((line) => JSON.parse(line) as Paper);
const times: number[] = [];
for (let r = 0; r < rounds; r++) {
  const from = (r * size) % Math.max(1, papers.length - size);
  const batch = papers.slice(from, from + size);
  const t = performance.now();
  const builder = new IndexBuilder(0, true, defer);
  for (const paper of batch) builder.add(paper);
  builder.finish();
  times.push(performance.now() - t);
}
times.sort((a, b) => a - b);
console.log(`batch ${size}: median ${times[times.length >> 1]!.toFixed(1)} ms, min ${times[0]!.toFixed(1)} ms, max ${times[times.length - 1]!.toFixed(1)} ms`);
