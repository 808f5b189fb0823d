/**
 * Batches of upserts timed until visible on a small memory source with two query threads, in
 * one process: for profiling the write path with `node --cpu-prof` (every thread writes a profile).
 * Usage: visible-profile.ts <papers.jsonl> [base papers] [batch size] [batches]
 */
import { readFileSync } from 'node:fs';
import { createMemorySource } from '@paperlist/core/node';
import type { Paper } from '@paperlist/core';

const [file, baseArg, sizeArg, batchesArg] = process.argv.slice(2) as [string, string | undefined, string | undefined, string | undefined];
const baseSize = Number(baseArg ?? 10_000);
const size = Number(sizeArg ?? 1000);
const batches = Number(batchesArg ?? 20);
const papers = readFileSync(file, 'utf8').split('\n').filter((line) => line.length > 0).map((line) => JSON.parse(line) as Paper);
let t = performance.now();
// NO_MERGES=1: the write path alone, without background merges competing for the cores.
const merges = process.env['NO_MERGES'] === '1' ? { maxDeltaShare: 1e9, maxDeltas: 1e9 } : undefined;
const source = createMemorySource(papers.slice(0, baseSize), { threads: 2, ...(merges === undefined ? {} : { merges }) });
await new Promise((resolve) => setTimeout(resolve, 3000)); // the delta thread starts with the source
console.log(`base of ${source.size} built in ${(performance.now() - t).toFixed(0)} ms`);
const donors = papers.slice(baseSize);
const times: number[] = [];
for (let b = 0; b < batches; b++) {
  const batch = Array.from({ length: size }, (_, i) => {
    const donor = donors[(b * size + i) % donors.length]!;
    return { ...donor, id: `w-${b % 4}-${i}`, title: `${donor.title} (edition ${b})` };
  });
  t = performance.now();
  await source.upsert(batch);
  times.push(performance.now() - t);
}
await source.merged();
console.log(times.map((ms) => ms.toFixed(1)).join(' '));
const sorted = times.slice(1).sort((a, b) => a - b);
console.log(`batch ${size}: first ${times[0]!.toFixed(1)} ms, then median ${sorted[sorted.length >> 1]!.toFixed(1)} ms, min ${sorted[0]!.toFixed(1)} ms`);
await source.close();
