import { PaperlistOptionsError } from '../http/handler-options.js';
import type { Paper } from '../paper.js';
import type { MemorySource, ScanSourceOptions } from '../scan/scan-source.js';
import { buildIndex } from './build-index.js';
import { EngineSource } from './engine-source.js';
import { InThreadRunner } from './query-runner.js';
import { wholeSegment } from '../segments/segment.js';
import { DEFAULT_MERGE_POLICY, type MergePolicy } from '../segments/merge-policy.js';

export type { MemorySource };

/** Options of {@link createMemorySource}. */
export interface MemorySourceOptions extends ScanSourceOptions {
  /**
   * Milliseconds of work one query may take. A query that needs more stops and is refused
   * with `QueryBudgetError` (the handler answers `503` with `Retry-After`). The engine's
   * index bounds the work of every query it was designed for far below this; the budget is
   * for what nobody foresaw. Default 1,000; `Infinity` for no limit.
   */
  budgetMs?: number;
  /**
   * When writes' delta segments are folded together in the background (see docs/writes.md):
   * the defaults suit any size; tests set them low to see merges happen.
   */
  merges?: MergePolicy;
}

/** Defaults of {@link MemorySourceOptions}. */
export const DEFAULT_BUDGET_MS = 1000;

/**
 * paperlist's default source: the whole catalogue in memory, indexed for search and every
 * ordering (see docs/performance.md). Answers are identical to {@link createScanSource}'s.
 * Queries run on the calling thread; it runs anywhere (Node, Deno, Bun, workers, browsers).
 * On Node, `createMemorySource` from `@paperlist/core/node` takes the same papers and adds
 * query threads, streamed catalogues and snapshots.
 *
 * @example
 * const source = createMemorySource(papers);
 * const handle = createFetchHandler({ source, mount: '/api/v1' });
 */
export function createMemorySource(papers: readonly Paper[], options: MemorySourceOptions = {}): MemorySource {
  const threads = (options as { threads?: unknown }).threads;
  if (threads !== undefined && threads !== 0) {
    // `threads` was an option of this function before the entries were split: say where it went.
    throw new PaperlistOptionsError(
      'threads',
      "paperlist: `threads` needs Node's worker_threads: use createMemorySource from '@paperlist/core/node' for query threads.",
    );
  }
  const budgetMs = resolveBudget(options.budgetMs);
  resolveMergePolicy(options.merges);
  const index = buildIndex(papers, options.annotations);
  const base = wholeSegment(index);
  return new EngineSource(base, options.version, new InThreadRunner([base], budgetMs), resolveMergePolicy(options.merges));
}

/** `budgetMs` checked (a positive number of milliseconds) or defaulted. */
export function resolveBudget(budgetMs: unknown = DEFAULT_BUDGET_MS): number {
  if (typeof budgetMs !== 'number' || !(budgetMs > 0)) {
    throw new PaperlistOptionsError('budgetMs', `paperlist: \`budgetMs\` must be a positive number of milliseconds, got ${String(budgetMs)}.`);
  }
  return budgetMs;
}

/** `merges` checked (a positive share, a whole number of deltas) and completed with the defaults. */
export function resolveMergePolicy(merges: MergePolicy = {}): Required<MergePolicy> {
  const policy = { ...DEFAULT_MERGE_POLICY, ...merges };
  if (typeof policy.maxDeltaShare !== 'number' || !(policy.maxDeltaShare > 0)) {
    throw new PaperlistOptionsError('merges', `paperlist: \`merges.maxDeltaShare\` must be a positive number, got ${String(policy.maxDeltaShare)}.`);
  }
  if (!Number.isSafeInteger(policy.maxDeltas) || policy.maxDeltas < 1) {
    throw new PaperlistOptionsError('merges', `paperlist: \`merges.maxDeltas\` must be a whole number of at least 1, got ${String(policy.maxDeltas)}.`);
  }
  return policy;
}
