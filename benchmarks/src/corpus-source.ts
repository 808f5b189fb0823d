import { statSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMemorySourceFromStream, openMemorySource, SnapshotError, type IndexedMemorySource, type NodeMemorySourceOptions } from '@paperlist/core/node';
import type { CorpusSize } from './args.js';
import { corpusPapers, LARGE_CATALOG } from './corpus.js';

/** Where built corpora are kept between runs (PAPERLIST_BENCH_CACHE; `off` to always build). */
const CACHE = process.env['PAPERLIST_BENCH_CACHE'] ?? join(tmpdir(), 'paperlist-bench-cache');

/**
 * The memory source of a benchmark corpus: loaded from the cache's snapshot when one was saved for
 * the same corpus file (size and time) by a compatible version, else built and saved there. For
 * the benchmarks that measure queries; the engine benchmark always builds (it measures the build).
 */
export async function corpusSource(size: CorpusSize, options: NodeMemorySourceOptions = {}): Promise<{ source: IndexedMemorySource; loadedFrom: 'cache' | 'build'; ms: number }> {
  const started = performance.now();
  const { size: bytes, mtimeMs } = statSync(LARGE_CATALOG);
  const file = join(CACHE, `corpus-${size}-${bytes}-${Math.round(mtimeMs)}.snapshot`);
  if (CACHE !== 'off') {
    try {
      const source = await openMemorySource(file, options);
      return { source, loadedFrom: 'cache', ms: performance.now() - started };
    } catch (error) {
      const stale = error instanceof SnapshotError || (error as NodeJS.ErrnoException).code === 'ENOENT';
      if (!stale) throw error;
    }
  }
  const source = await createMemorySourceFromStream(corpusPapers(size), options);
  if (CACHE !== 'off') {
    await mkdir(CACHE, { recursive: true });
    await source.save(file);
  }
  return { source, loadedFrom: 'build', ms: performance.now() - started };
}
