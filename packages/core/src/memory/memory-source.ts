import type { Paper } from '../paper.js';
import { createScanSource, type MemorySource, type MemorySourceOptions } from '../scan/scan-source.js';

export type { MemorySource, MemorySourceOptions };

/**
 * paperlist's default source: the whole catalogue in memory.
 *
 * @example
 * const source = createMemorySource(await loadSamplePapers());
 */
export function createMemorySource(papers: readonly Paper[], options: MemorySourceOptions = {}): MemorySource {
  return createScanSource(papers, options);
}
