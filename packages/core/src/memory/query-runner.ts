import type { IndexData } from '../engine/builder.js';
import { Engine } from '../engine/engine.js';
import { pageJson, type PageJson } from '../engine/page-json.js';
import { QueryInterruptedError } from '../engine/work-budget.js';
import { QueryBudgetError } from '../source-errors.js';
import type { PaperQuery } from '../source.js';
import type { FacetCounts } from '../facets/facet-types.js';

/** What a runner answers: the count, and the window's papers gathered in one buffer. */
export interface RunnerAnswer {
  count: number;
  page: PageJson;
  facets?: FacetCounts;
}

/**
 * Runs engine queries over the current index, on the calling thread or on worker threads.
 * `load` swaps the index: queries started before it finish on the old one.
 */
export interface QueryRunner {
  run(query: PaperQuery, signal?: AbortSignal): Promise<RunnerAnswer>;
  load(index: IndexData): void;
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
  private engine: Engine;
  // Each query runs to its end when asked: none ever waits, none is seen running.
  readonly queued = 0;
  readonly running = 0;

  constructor(
    index: IndexData,
    private readonly budgetMs: number,
  ) {
    this.engine = new Engine(index);
  }

  async run(query: PaperQuery, signal?: AbortSignal): Promise<RunnerAnswer> {
    signal?.throwIfAborted();
    const engine = this.engine;
    try {
      const { count, docs, facets } = engine.window(query, { deadline: performance.now() + this.budgetMs });
      const page = pageJson(engine.index.store, docs);
      return facets === undefined ? { count, page } : { count, page, facets };
    } catch (error) {
      if (error instanceof QueryInterruptedError) throw new QueryBudgetError(this.budgetMs);
      throw error;
    }
  }

  load(index: IndexData): void {
    this.engine = new Engine(index);
  }

  async close(): Promise<void> {}
}
