import fc from 'fast-check';
import { loadSamplePapers } from '@paperlist/core/sample';
import { contractProperty } from '../../packages/core/test/fuzz/check-contract.js';

/** Runs the HTTP-contract property `runs` times on the sample; throws on the first failure. */
export async function runFuzz(runs: number): Promise<{ runs: number; seconds: number }> {
  const started = Date.now();
  await fc.assert(contractProperty(await loadSamplePapers()), { numRuns: runs });
  return { runs, seconds: (Date.now() - started) / 1000 };
}
