import type { PageJson } from '../engine/page-json.js';
import { SegmentedEngine } from '../segments/segmented-engine.js';
import { segmentedPageJson } from '../segments/segmented-page.js';
import type { Segment } from '../segments/segment.js';
import { QueryInterruptedError } from '../engine/work-budget.js';
import { QueryBudgetError } from '../source-errors.js';
import type { PaperQuery } from '../source.js';
import type { FacetCounts } from '../facets/facet-types.js';

/** What a runner answers: the count, and the window's papers gathered in one buffer. */
export interface RunnerAnswer {
  count: number;
  page: PageJson;
  facets?: FacetCounts;
  /** Hands the page's buffer back for reuse (see `PaperPage.release`); absent when nothing reuses it. */
  release?: () => void;
}

/**
 * Runs engine queries over the current segments, on the calling thread or on worker threads.
 * `load` swaps the segments (a write batch, a merge, a replacement): queries started before it
 * finish on the old ones, and a query sees one set of segments whole, never a mix.
 */
export interface QueryRunner {
  run(query: PaperQuery, signal?: AbortSignal): Promise<RunnerAnswer>;
  load(segments: readonly Segment[]): void;
  /** Queries waiting for a thread. */
  readonly queued: number;
  /** Queries being answered. */
  readonly running: number;
  /** Stops the runner's threads, if any; queries still waiting are refused. */
  close(): Promise<void>;
}

/**
 * The runner without threads: each query runs to its end on the calling thread, within its
 * budget (a query past it stops and rejects with `QueryBudgetError`). Works everywhere.
 */
export class InThreadRunner implements QueryRunner {
  private engine: SegmentedEngine;
  // Each query runs to its end when asked: none ever waits, none is seen running.
  readonly queued = 0;
  readonly running = 0;

  constructor(
    segments: readonly Segment[],
    private readonly budgetMs: number,
  ) {
    this.engine = new SegmentedEngine(segments);
  }

  async run(query: PaperQuery, signal?: AbortSignal): Promise<RunnerAnswer> {
    signal?.throwIfAborted();
    const engine = this.engine;
    try {
      const { count, hits, facets } = engine.window(query, { deadline: performance.now() + this.budgetMs });
      const page = segmentedPageJson(engine.segments, hits);
      return facets === undefined ? { count, page } : { count, page, facets };
    } catch (error) {
      if (error instanceof QueryInterruptedError) throw new QueryBudgetError(this.budgetMs);
      throw error;
    }
  }

  load(segments: readonly Segment[]): void {
    this.engine = new SegmentedEngine(segments);
  }

  async close(): Promise<void> {}
}
